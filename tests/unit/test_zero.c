/* test_zero.c - pins zero.h: zero_record clears exactly the bytes asked
 * for, whatever the size (whole 16-byte stores and a tail) and the
 * alignment (8, as the records it clears), and nothing around them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "zero.h"

static void test_sizes_and_offsets(void **state)
{
    (void)state;
    enum { ROOM = 256 };
    _Alignas(16) unsigned char buf[ROOM + 48];
    for (size_t off = 0; off <= 8; off += 8) {
        for (size_t size = 0; size <= 200; size++) {
            memset(buf, 0xA5, sizeof buf);
            zero_record(buf + 16 + off, size);
            for (size_t i = 0; i < sizeof buf; i++) {
                bool inside = i >= 16 + off && i < 16 + off + size;
                if (buf[i] != (inside ? 0 : 0xA5))
                    fail_msg("size %zu at offset %zu: byte %zu is %#x", size, off, i, buf[i]);
            }
        }
    }
}

/* The records it was written for: a 136-byte and a 160-byte structure. */
static void test_records(void **state)
{
    (void)state;
    struct r136 {
        uint64_t w[17];
    } a;
    struct r160 {
        uint64_t w[20];
    } b;
    memset(&a, 0xFF, sizeof a);
    memset(&b, 0xFF, sizeof b);
    zero_record(&a, sizeof a);
    zero_record(&b, sizeof b);
    for (int i = 0; i < 17; i++)
        assert_int_equal(a.w[i], 0);
    for (int i = 0; i < 20; i++)
        assert_int_equal(b.w[i], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_and_offsets),
        cmocka_unit_test(test_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
