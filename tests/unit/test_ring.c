/* test_ring.c - pins ring.h: ring_grow keeps the elements' order from
 * slot 0 whether the ring wraps or not, and an empty ring of no slots
 * grows too; ring_tail and ring_next wrap at the last slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "ring.h"

/* A ring of 4 with 3 elements from slot `head` (10, 11, 12), grown to 8. */
static void grow_from(uint32_t head)
{
    int *v = malloc(4 * sizeof *v);
    assert_non_null(v);
    for (uint32_t i = 0; i < 4; i++)
        v[i] = -1;
    for (uint32_t i = 0; i < 3; i++)
        v[(head + i) % 4] = 10 + (int)i;
    int *g = ring_grow(v, sizeof *v, 4, head, 3, 8);
    assert_non_null(g);
    assert_int_equal(g[0], 10);
    assert_int_equal(g[1], 11);
    assert_int_equal(g[2], 12);
    free(g);
}

static void test_in_order(void **state)
{
    (void)state;
    grow_from(0); /* in one piece */
    grow_from(1); /* ends at the last slot */
    grow_from(2); /* wraps: 10, 11 at the end, 12 at slot 0 */
    grow_from(3);
}

static void test_full_and_empty(void **state)
{
    (void)state;
    int *v = malloc(2 * sizeof *v);
    assert_non_null(v);
    v[0] = 21; /* head 1: 20 at slot 1, then 21 at slot 0 */
    v[1] = 20;
    int *g = ring_grow(v, sizeof *v, 2, 1, 2, 4);
    assert_non_null(g);
    assert_int_equal(g[0], 20);
    assert_int_equal(g[1], 21);
    free(g);
    int *e = ring_grow(NULL, sizeof *e, 0, 0, 0, 4);
    assert_non_null(e);
    free(e);
}

static void test_tail_and_next(void **state)
{
    (void)state;
    assert_int_equal(ring_tail(4, 0, 0), 0);
    assert_int_equal(ring_tail(4, 1, 2), 3);
    assert_int_equal(ring_tail(4, 2, 2), 0); /* past the last slot: wraps */
    assert_int_equal(ring_tail(4, 3, 3), 2);
    assert_int_equal(ring_tail(4, 3, 4), 3); /* full: the tail is the head */
    assert_int_equal(ring_next(4, 0), 1);
    assert_int_equal(ring_next(4, 2), 3);
    assert_int_equal(ring_next(4, 3), 0);
    assert_int_equal(ring_next(1, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_full_and_empty),
        cmocka_unit_test(test_tail_and_next),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
