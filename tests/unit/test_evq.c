/* test_evq.c - pins the event order contract of src/core/evq.h:
 * time first, then phase, then insertion order (FIFO); and that the heap
 * stays correct through growth and interleaved pushes and pops.
 * It does not test the engine's use of phases (the model tests do). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "evq.h"
#include "rng.h"

#define ev(t, p, id) ((sim_event){.time = (t), .phase = (p), .target = (id)})

static void test_order_contract(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 4), 0);
    evq_set_horizon(q, 8); /* 5 is near, the others far */
    /* pushed out of order; ids name the expected position */
    assert_int_equal(evq_push(q, &ev(20, 0, 5)), 0);
    assert_int_equal(evq_push(q, &ev(10, 3, 3)), 0);
    assert_int_equal(evq_push(q, &ev(10, 1, 1)), 0);
    assert_int_equal(evq_push(q, &ev(10, 3, 4)), 0); /* same time and phase: FIFO */
    assert_int_equal(evq_push(q, &ev(5, 9, 0)), 0);
    assert_int_equal(evq_push(q, &ev(10, 1, 2)), 0);
    assert_int_equal(evq_size(q), 6);
    sim_event out;
    for (uint32_t want = 0; want < 6; want++) {
        assert_int_equal(evq_pop(q, &out), 0);
        assert_int_equal(out.target, want);
    }
    assert_int_equal(evq_pop(q, &out), -1);
    assert_null(evq_peek(q));
    evq_destroy(q);
}

/* evq_pop_before takes the first event only when it is due before the
 * limit: the engine's loop stops at the end of a run with it. */
static void test_pop_before(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 4), 0);
    evq_set_horizon(q, 8);
    sim_event out = ev(0, 0, 99);
    assert_int_equal(evq_pop_before(q, 100, &out), -1); /* empty */
    assert_int_equal(evq_push(q, &ev(30, 0, 2)), 0);     /* far */
    assert_int_equal(evq_push(q, &ev(7, 0, 1)), 0);      /* near */
    assert_int_equal(evq_push(q, &ev(5, 0, 0)), 0);      /* ahead of all: the front */
    assert_int_equal(evq_pop_before(q, 5, &out), -1);    /* due at the limit: not before */
    assert_int_equal(out.target, 99);                   /* untouched */
    assert_int_equal(evq_size(q), 3);
    assert_int_equal(evq_pop_before(q, 6, &out), 0);
    assert_int_equal(out.target, 0);
    assert_int_equal(evq_pop_before(q, 7, &out), -1);
    assert_int_equal(evq_pop_before(q, 8, &out), 0);
    assert_int_equal(out.target, 1);
    assert_int_equal(evq_pop_before(q, 30, &out), -1);
    assert_int_equal(evq_pop_before(q, SIM_TIME_NEVER, &out), 0);
    assert_int_equal(out.target, 2);
    assert_int_equal(evq_size(q), 0);
    evq_destroy(q);
}

/* Random interleaving against a brute-force model: every pop returns the
 * pending event with the least (time, phase, push order). */
#define MODEL_MAX 4096

/* The near/far split (evq_set_horizon) must not change the order: the
 * same random test runs with every event far, and with a horizon that
 * splits them. */
static void random_against_model(sim_time horizon)
{
    static sim_event pending[MODEL_MAX];
    static uint32_t pushed_order[MODEL_MAX];
    size_t n = 0;
    evq *q;
    assert_int_equal(evq_create(&q, 1), 0);
    evq_set_horizon(q, horizon);
    rng r;
    rng_seed(&r, 7, 0);
    sim_time now = 0;
    uint32_t next_id = 0;
    for (int step = 0; step < 100000; step++) {
        if ((rng_below(&r, 3) != 0 || n == 0) && n < MODEL_MAX) {
            sim_event e = ev(now + (sim_time)rng_below(&r, 50), (uint16_t)rng_below(&r, 4),
                             next_id);
            pending[n] = e;
            pushed_order[n++] = next_id++;
            assert_int_equal(evq_push(q, &e), 0);
        } else {
            size_t best = 0;
            for (size_t i = 1; i < n; i++) {
                const sim_event *a = &pending[i], *b = &pending[best];
                if (a->time < b->time ||
                    (a->time == b->time && (a->phase < b->phase ||
                                            (a->phase == b->phase &&
                                             pushed_order[i] < pushed_order[best]))))
                    best = i;
            }
            sim_event out;
            assert_int_equal(evq_pop(q, &out), 0);
            assert_int_equal(out.target, pending[best].target);
            now = out.time; /* the queue never receives events in the past */
            pending[best] = pending[n - 1];
            pushed_order[best] = pushed_order[n - 1];
            n--;
        }
        assert_int_equal(evq_size(q), n);
    }
    assert_int_equal(evq_pushed(q), next_id);
    evq_destroy(q);
}

static void test_random_against_model(void **state)
{
    (void)state;
    random_against_model(0);
    random_against_model(10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_contract),
        cmocka_unit_test(test_pop_before),
        cmocka_unit_test(test_random_against_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
