/* test_evq.c - pins the event order contract of src/core/evq.h:
 * time first, then phase, then insertion order (FIFO); and that the queue
 * (its front slot, near and far heaps, sorted runs) stays correct through growth, ties,
 * long gaps, times near the end of sim_time's range, and interleaved
 * pushes, peeks and pops, whatever the near/far horizon and phases.
 * It does not test the engine's use of phases (the model tests do). */
#include <setjmp.h>
#include <stdbool.h>
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

/* The events due at the instant of the last pop are ordered by phase,
 * then FIFO, however they arrived: pushed before that instant was reached,
 * or pushed at it, including with a phase lower than that of the event
 * just popped (which then goes to the front, ahead of both heaps). */
static void test_same_instant(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 4), 0);
    /* before 999 is popped, all but the front go far; after it, the
     * pushes at 1000 go near: one instant across all three places */
    evq_set_horizon(q, 2);
    sim_event out;
    assert_int_equal(evq_push(q, &ev(1000, 4, 2)), 0);
    assert_int_equal(evq_push(q, &ev(1000, 2, 1)), 0);
    assert_int_equal(evq_push(q, &ev(1000, 4, 3)), 0);
    assert_int_equal(evq_push(q, &ev(999, 4, 0)), 0);
    assert_int_equal(evq_pop(q, &out), 0);
    assert_int_equal(out.target, 0);
    assert_int_equal(evq_pop(q, &out), 0); /* 1000 reached: (1000, 2) first */
    assert_int_equal(out.target, 1);
    /* pushed at the instant just popped: phase 1 before the queued phase 4,
     * phase 4 after those of phase 4 already queued (FIFO) */
    assert_int_equal(evq_push(q, &ev(1000, 4, 5)), 0);
    assert_int_equal(evq_push(q, &ev(1000, 1, 4)), 0);
    assert_int_equal(evq_push(q, &ev(1001, 0, 6)), 0);
    const sim_event *top = evq_peek(q);
    assert_non_null(top);
    assert_int_equal(top->target, 4);
    const uint32_t want[] = {4, 2, 3, 5, 6};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_int_equal(evq_pop(q, &out), 0);
        assert_int_equal(out.target, want[i]);
    }
    assert_int_equal(evq_size(q), 0);
    evq_destroy(q);
}

/* Many events at one instant (a batch at time 0) keep their FIFO order
 * by phase, and the queue grows past its initial capacity for them. */
static void test_growth_and_ties(void **state)
{
    (void)state;
    enum { N = 5000 };
    evq *q;
    assert_int_equal(evq_create(&q, 1), 0);
    size_t bytes = evq_bytes(q);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(evq_push(q, &ev(0, (uint16_t)(i % 3), i)), 0);
    assert_int_equal(evq_size(q), N);
    assert_true(evq_bytes(q) > bytes);
    sim_event out;
    for (uint32_t p = 0; p < 3; p++) {
        for (uint32_t i = p; i < N; i += 3) {
            assert_int_equal(evq_pop(q, &out), 0);
            assert_int_equal(out.target, i);
            assert_int_equal(out.phase, p);
        }
    }
    assert_int_equal(evq_pop(q, &out), -1);
    assert_int_equal(evq_pushed(q), N);
    evq_destroy(q);
}

/* Times that differ from the last pop in bit 62, up to the last
 * picosecond before SIM_TIME_NEVER: the order key keeps all 63 bits. */
static void test_extreme_times(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 4), 0);
    evq_set_horizon(q, (sim_time)1 << 61);
    const sim_time big = (sim_time)1 << 62;
    assert_int_equal(evq_push(q, &ev(SIM_TIME_NEVER - 1, 0, 4)), 0);
    assert_int_equal(evq_push(q, &ev(big, 0, 2)), 0);
    assert_int_equal(evq_push(q, &ev(big - 1, 0, 1)), 0);
    assert_int_equal(evq_push(q, &ev(0, 0, 0)), 0);
    assert_int_equal(evq_push(q, &ev(big + 1, 0, 3)), 0);
    sim_event out;
    for (uint32_t want = 0; want < 5; want++) {
        assert_int_equal(evq_pop_before(q, SIM_TIME_NEVER, &out), 0);
        assert_int_equal(out.target, want);
    }
    assert_int_equal(out.time, SIM_TIME_NEVER - 1);
    assert_int_equal(evq_pop(q, &out), -1);
    evq_destroy(q);
}

/* Random interleaving against a brute-force model: every pop returns the
 * pending event with the least (time, phase, push order), and evq_peek
 * shows it beforehand. `spread` is the range of the delays drawn: 4 makes
 * ties of time common, 2^40 makes long gaps, and `mixed` draws each delay
 * from one or the other. The near/far split and the sorted runs must not
 * change the order: each run is made with every event far (horizon 0)
 * and with a horizon that splits them, with runs off and on, and with the
 * events of phases 0 and 1 kept near whatever their time or not. */
#define MODEL_MAX 4096

static void random_against_model(uint64_t spread, bool mixed, uint64_t seed, sim_time horizon,
                                 bool runs, uint16_t near_below)
{
    static sim_event pending[MODEL_MAX];
    static uint32_t pushed_order[MODEL_MAX];
    size_t n = 0;
    evq *q;
    assert_int_equal(evq_create(&q, 1), 0);
    evq_set_horizon(q, horizon);
    evq_use_runs(q, runs);
    evq_set_near_phases(q, near_below);
    rng r;
    rng_seed(&r, seed, 0);
    sim_time now = 0;
    uint32_t next_id = 0;
    for (int step = 0; step < 100000; step++) {
        if ((rng_below(&r, 3) != 0 || n == 0) && n < MODEL_MAX) {
            uint64_t range = mixed && rng_below(&r, 2) ? 4 : spread;
            sim_event e = ev(now + (sim_time)rng_below(&r, range), (uint16_t)rng_below(&r, 4),
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
            const sim_event *top = evq_peek(q);
            assert_non_null(top);
            assert_int_equal(top->target, pending[best].target);
            sim_event out;
            if (rng_below(&r, 2)) {
                /* a limit at the first event's time refuses it */
                assert_int_equal(evq_pop_before(q, pending[best].time, &out), -1);
                assert_int_equal(evq_pop_before(q, pending[best].time + 1, &out), 0);
            } else {
                assert_int_equal(evq_pop(q, &out), 0);
            }
            assert_int_equal(out.target, pending[best].target);
            assert_int_equal(out.time, pending[best].time);
            assert_int_equal(out.phase, pending[best].phase);
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

/* Heaps of every size from 1 to 90 (so every shape of the last node: one
 * to four children, and a descent that ends a level higher or lower),
 * filled with keys that tie on time, on time and phase (FIFO), and that
 * sit at SIM_TIME_NEVER with the highest phase, next to NO_EVENT (an
 * empty heap's top, a key after every real one): the pop must return
 * each event exactly once, in the order of evq.h, then report the queue
 * empty. */
static void test_every_heap_size(void **state)
{
    (void)state;
    enum { MAX = 90 };
    for (uint32_t n = 1; n <= MAX; n++) {
        evq *q;
        assert_int_equal(evq_create(&q, 1), 0); /* grows through the sizes */
        /* pushed in an order scrambled by a multiplier prime to 97: id i
         * has time i / 6, phase (i / 2) % 3, and pairs share both (FIFO);
         * the last pair is due at SIM_TIME_NEVER, phase 255 */
        uint32_t rank_of_push[MAX];
        for (uint32_t k = 0; k < n; k++)
            rank_of_push[k] = k;
        for (uint32_t k = 0; k < n; k++) { /* a fixed shuffle that keeps pairs in order */
            uint32_t j = (k * 37u + 11u) % n;
            uint32_t t = rank_of_push[k];
            rank_of_push[k] = rank_of_push[j];
            rank_of_push[j] = t;
        }
        /* ids of one pair must be pushed in id order: sort each pair's
         * two positions */
        uint32_t pos[MAX];
        for (uint32_t k = 0; k < n; k++)
            pos[rank_of_push[k]] = k;
        for (uint32_t i = 0; i + 1 < n; i += 2) {
            if (pos[i] > pos[i + 1]) {
                rank_of_push[pos[i]] = i + 1;
                rank_of_push[pos[i + 1]] = i;
            }
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = rank_of_push[k];
            bool never = i / 2 == (n - 1) / 2; /* the last pair */
            sim_time t = never ? SIM_TIME_NEVER : (sim_time)(i / 6);
            uint16_t phase = never ? 255 : (uint16_t)((i / 2) % 3);
            assert_int_equal(evq_push(q, &ev(t, phase, i)), 0);
        }
        sim_event out;
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(evq_pop(q, &out), 0);
            assert_int_equal(out.target, i);
            /* a push between pops, at the key just popped (after a pair's
             * second, so ahead of the rest), leaves the rest in order */
            if (i % 4 == 3 && i + 1 < n) {
                assert_int_equal(evq_push(q, &ev(out.time, out.phase, 1000 + i)), 0);
                assert_int_equal(evq_pop(q, &out), 0);
                assert_int_equal(out.target, 1000 + i);
            }
        }
        assert_int_equal(evq_pop(q, &out), -1);
        assert_null(evq_peek(q));
        assert_int_equal(evq_size(q), 0);
        evq_destroy(q);
    }
}

static void test_random_against_model(void **state)
{
    (void)state;
    for (int runs = 0; runs < 2; runs++) {
        for (uint16_t near = 0; near <= 2; near += 2) {
            random_against_model(50, false, 7, 0, runs, near);
            random_against_model(50, false, 7, 10, runs, near);
            random_against_model(4, false, 8, 0, runs, near);
            random_against_model(4, false, 8, 2, runs, near);
            random_against_model((uint64_t)1 << 40, false, 9, 0, runs, near);
            random_against_model((uint64_t)1 << 40, false, 9, (sim_time)1 << 38, runs, near);
            random_against_model((uint64_t)1 << 40, true, 10, 0, runs, near);
            random_against_model((uint64_t)1 << 40, true, 10, 3, runs, near);
        }
    }
}

/* Events each due before everything queued, in reverse (each takes the
 * front and sends the one there to a heap), then between queued ones:
 * the order holds. */
static void test_soon_overflow(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 4), 0);
    evq_set_horizon(q, 1000);
    for (uint32_t i = 0; i < 40; i++) /* ids 39..0 at times 390..0 */
        assert_int_equal(evq_push(q, &ev((sim_time)(390 - 10 * i), 0, 39 - i)), 0);
    sim_event out;
    for (uint32_t want = 0; want < 20; want++) {
        assert_int_equal(evq_pop(q, &out), 0);
        assert_int_equal(out.target, want);
    }
    /* now 200; between queued ones, ids 100+ after the one of their time */
    for (uint32_t i = 0; i < 20; i++)
        assert_int_equal(evq_push(q, &ev((sim_time)(200 + 10 * (i % 10)), 0, 100 + i)), 0);
    for (uint32_t t = 20; t < 40; t++) {
        assert_int_equal(evq_pop(q, &out), 0);
        assert_int_equal(out.target, t);
        if (t < 30) {
            for (uint32_t k = 0; k < 2; k++) {
                assert_int_equal(evq_pop(q, &out), 0);
                assert_int_equal(out.target, 100 + (t - 20) + 10 * k);
            }
        }
    }
    assert_int_equal(evq_size(q), 0);
    evq_destroy(q);
}

/* Crowds in step, as full-duplex links make them: at each instant 300
 * senders each push an event a little later and one much later, in
 * sender order (with runs on, runs take them, growing and wrapping
 * around); every event still comes out in (time, phase, push order). */
static void test_runs_in_step(void **state)
{
    (void)state;
    evq *q;
    assert_int_equal(evq_create(&q, 1), 0);
    evq_use_runs(q, true);
    uint32_t id = 0;
    for (uint32_t s = 0; s < 300; s++) {
        sim_event a = ev(0, 1, id++);
        assert_int_equal(evq_push(q, &a), 0);
    }
    sim_time now = 0;
    for (int round = 0; round < 20; round++) {
        sim_event out, prev = {.time = -1};
        for (uint32_t s = 0; s < 300; s++) {
            assert_int_equal(evq_pop(q, &out), 0);
            assert_true(out.time > prev.time || (out.time == prev.time && out.target > prev.target));
            assert_int_equal(out.time, now);
            prev = out;
            sim_event soon = ev(now + 5, 2, id++), late = ev(now + 1000, 1, id++);
            assert_int_equal(evq_push(q, &soon), 0);
            assert_int_equal(evq_push(q, &late), 0);
        }
        /* the 300 "soon" events, in push order, then the next crowd */
        for (uint32_t s = 0; s < 300; s++) {
            assert_int_equal(evq_pop(q, &out), 0);
            assert_int_equal(out.time, now + 5);
            assert_int_equal(out.phase, 2);
        }
        now += 1000;
        assert_int_equal(evq_size(q), 300);
    }
    evq_destroy(q);
}

/* evq_push_fields (the MAC's push, its fields in registers) and evq_push
 * share one sequence and one order, every field kept: ties between the two
 * kinds of push, through the front, a push ahead of the front, both heaps
 * and their growth, with queues with and without runs. */
static void test_push_fields(void **state)
{
    (void)state;
    for (int runs = 0; runs < 2; runs++) {
        evq *q;
        assert_int_equal(evq_create(&q, 4), 0);
        evq_set_horizon(q, 8);
        evq_use_runs(q, runs);
        uint32_t n = 0;
        /* at each of 60 times, in decreasing order (each ahead of all:
         * the front, then ahead of the front), 3 phases x 2 kinds */
        for (int k = 59; k >= 0; k--)
            for (uint16_t p = 3; p-- > 0;) {
                sim_time t = 3 * k;
                sim_event e = {.time = t, .arg = 1000 + n, .target = n, .type = 7, .phase = p};
                assert_int_equal(evq_push(q, &e), 0);
                n++;
                assert_int_equal(evq_push_fields(q, t, 1000 + n, n, 9, p), 0);
                n++;
            }
        assert_int_equal(evq_size(q), n);
        sim_event out, prev = {.time = -1};
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(evq_pop(q, &out), 0);
            assert_int_equal(out.arg, 1000 + out.target);
            assert_int_equal(out.type, out.target % 2 ? 9 : 7);
            if (i) {
                /* time, then phase, then insertion (the targets count pushes) */
                assert_true(out.time > prev.time ||
                            (out.time == prev.time &&
                             (out.phase > prev.phase ||
                              (out.phase == prev.phase && out.target == prev.target + 1))));
            }
            prev = out;
        }
        assert_int_equal(evq_pop(q, &out), -1);
        evq_destroy(q);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_contract),
        cmocka_unit_test(test_push_fields),
        cmocka_unit_test(test_pop_before),
        cmocka_unit_test(test_runs_in_step),
        cmocka_unit_test(test_soon_overflow),
        cmocka_unit_test(test_same_instant),
        cmocka_unit_test(test_growth_and_ties),
        cmocka_unit_test(test_extreme_times),
        cmocka_unit_test(test_every_heap_size),
        cmocka_unit_test(test_random_against_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
