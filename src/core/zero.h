/* zero.h - zeroing a record with 16-byte stores.
 *
 * GCC on x86-64 zeroes a structure of more than a hundred bytes or so (a
 * trace event, a network's frame record) with `rep stos`, whose start-up
 * costs tens of cycles, and on a switch every frame fills several
 * (tests/bench/README.md, "Stores that a load spans, and `rep stos`").
 * The flag that changes this for the whole program (-mmemset-strategy)
 * slowed the runs of one medium, whose paths fill none: the records of
 * the network's paths are zeroed here instead, then filled field by field.
 */
#ifndef CSMACD_ZERO_H
#define CSMACD_ZERO_H

#include <stddef.h>
#include <string.h>

static inline void zero_record(void *p, size_t size)
{
#if defined(__x86_64__) && defined(__GNUC__)
    typedef long long v16 __attribute__((vector_size(16), may_alias, aligned(8)));
    v16 z = {0, 0};
    __asm__("" : "+x"(z)); /* a value GCC cannot see is zero: not made a memset again */
    size_t i = 0;
    for (; i + 16 <= size; i += 16)
        *(v16 *)((char *)p + i) = z;
    memset((char *)p + i, 0, size - i);
#else
    memset(p, 0, size);
#endif
}

#endif
