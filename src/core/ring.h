/* ring.h - a ring buffer's slots and its growth: a FIFO kept in an array
 * of `cap` slots as a head and a length (the MAC's frame queues, a bridge
 * port's copies).
 */
#ifndef CSMACD_RING_H
#define CSMACD_RING_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The slot after the ring's last element (where the next one goes): head
 * + len < 2 cap, so one comparison, no division (rings are on hot paths). */
static inline uint32_t ring_tail(uint32_t cap, uint32_t head, uint32_t len)
{
    uint32_t t = head + len;
    return t < cap ? t : t - cap;
}

/* The slot after slot i (i < cap): the head's next place once it is taken. */
static inline uint32_t ring_next(uint32_t cap, uint32_t i)
{
    return i + 1 == cap ? 0 : i + 1;
}

/* A copy of the ring v (`len` elements of `size` bytes from slot `head`
 * of `cap`) in a new array of `new_cap` slots (at least len), its first
 * element at slot 0; v is freed. Returns the new array, or NULL when
 * memory cannot be had (v is then kept as it was). */
static inline void *ring_grow(void *v, size_t size, uint32_t cap, uint32_t head, uint32_t len,
                              uint32_t new_cap)
{
    unsigned char *to = malloc((size_t)new_cap * size);
    if (!to)
        return NULL;
    uint32_t first = len < cap - head ? len : cap - head; /* (cap 0: len 0) */
    if (len) {
        memcpy(to, (unsigned char *)v + (size_t)head * size, (size_t)first * size);
        memcpy(to + (size_t)first * size, v, (size_t)(len - first) * size);
    }
    free(v);
    return to;
}

#endif
