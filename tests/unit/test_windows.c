/* test_windows.c - every counter covers the measured window [warm-up, end).
 *
 * Pins, on scenarios covering the five PHYs, bus and star, every traffic
 * kind, queue overflow, 1 Gb/s bursting with late collisions and their
 * discards, ALOHA (no carrier sense, no collision detect), an outage and an
 * over-long bus:
 *  - the prefix property: for a fixed seed, the run with warm-up W and
 *    duration T counts exactly the run of T minus the run of W, for every
 *    total in results and every per-station Clause 30 counter;
 *  - the per-station counters add up to the totals;
 *  - the frame accounting: offered = sent OK + aborted + discarded after a
 *    late collision + dropped + queued at the end - queued at the warm-up;
 *  - each scenario exercises what it is there for (a check that adds up
 *    zeros proves nothing).
 * Does not pin: the window's rates and distributions (test_counters.c
 * recomputes them from the trace).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "engine.h"
#include "scenario.h"

#define MAX_KV 8

typedef struct window_case {
    const char *name;
    const char *kv[MAX_KV][2];
    const char *warmup, *duration; /* W and T */
    /* what the window must hold, to prove the check saw something */
    bool wants_drops, wants_late_discards, wants_aborts;
} window_case;

static const window_case cases[] = {
    {.name = "10base5 bus, saturated 64 B",
     .kv = {{"phy", "10base5"}, {"stations", "16"}, {"frame-size", "64"}},
     .warmup = "20ms", .duration = "50ms"},
    {.name = "10base2 bus, poisson over capacity, small queues",
     .kv = {{"phy", "10base2"}, {"stations", "8"}, {"traffic", "poisson"}, {"load", "1.5"},
      {"queue", "4"}},
     .warmup = "15ms", .duration = "40ms", .wants_drops = true},
    {.name = "10baset star, on/off",
     .kv = {{"phy", "10baset"}, {"stations", "12"}, {"traffic", "onoff"}, {"load", "0.8"},
      {"frame-size", "64-1518"}},
     .warmup = "20ms", .duration = "60ms"},
    {.name = "100basetx star, batch, attemptLimit 8",
     .kv = {{"phy", "100basetx"}, {"stations", "40"}, {"traffic", "batch"}, {"batch", "20"},
            {"attempt-limit", "8"},
      {"frame-size", "64"}},
     .warmup = "1ms", .duration = "5ms", .wants_aborts = true},
    {.name = "1000baset star, 300 m drops, bursting",
     .kv = {{"phy", "1000baset"}, {"stations", "8"}, {"frame-size", "64"}, {"length", "300"}},
     .warmup = "2ms", .duration = "6ms", .wants_late_discards = true},
    {.name = "aloha, poisson",
     .kv = {{"phy", "10base5"}, {"stations", "10"}, {"traffic", "poisson"}, {"load", "0.4"},
      {"policy", "aloha"}},
     .warmup = "20ms", .duration = "60ms"},
    {.name = "fixed retry across an outage",
     .kv = {{"phy", "10base5"}, {"stations", "32"}, {"traffic", "poisson"}, {"load", "0.5"},
      {"frame-size", "512"}, {"policy", "fixed:wait=2,jitter=2"}, {"outage", "5ms+5ms"}},
     .warmup = "12ms", .duration = "40ms"},
    {.name = "over-long 10base5 bus",
     .kv = {{"phy", "10base5"}, {"stations", "8"}, {"frame-size", "64"}, {"length", "8000"}},
     .warmup = "30ms", .duration = "80ms"},
};

typedef struct outcome {
    results r;
    const station_result *st;
    engine *e;
} outcome;

static void run(const window_case *c, const char *warmup, const char *duration, outcome *o)
{
    scenario sc;
    char err[512], warn[512];
    scenario_defaults(&sc);
    for (size_t k = 0; k < MAX_KV && c->kv[k][0]; k++)
        if (scenario_set(&sc, c->kv[k][0], c->kv[k][1], err, sizeof err) != 0)
            fail_msg("%s: %s", c->name, err);
    assert_int_equal(scenario_set(&sc, "seed", "11", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "duration", duration, err, sizeof err), 0);
    if (warmup)
        assert_int_equal(scenario_set(&sc, "warmup", warmup, err, sizeof err), 0);
    if (scenario_finish(&sc, err, sizeof err, warn, sizeof warn) != 0)
        fail_msg("%s: %s", c->name, err);
    assert_int_equal(engine_create(&sc, &o->e, err, sizeof err), 0);
    engine_run_all(o->e);
    engine_results(o->e, &o->r);
    o->st = o->r.stations;
    scenario_free(&sc);
}

/* Every field of mac_counters is a uint64_t (mac.h). */
#define N_FIELDS (sizeof(mac_counters) / sizeof(uint64_t))
static uint64_t field(const mac_counters *c, size_t i) { return ((const uint64_t *)c)[i]; }

static void test_prefix_property(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const window_case *c = &cases[k];
        outcome whole, head, window;
        run(c, NULL, c->duration, &whole);
        run(c, NULL, c->warmup, &head);
        run(c, c->warmup, c->duration, &window);
        const results *t = &whole.r, *w = &head.r, *x = &window.r;
        print_message("%s: window %llu OK, %llu attempts, %llu collision events, "
                      "%llu seen, %llu late, %llu aborted, %llu late-discarded, %llu dropped\n",
                      c->name, (unsigned long long)x->frames_ok,
                      (unsigned long long)x->attempts, (unsigned long long)x->collisions,
                      (unsigned long long)x->collisions_seen,
                      (unsigned long long)x->late_collisions,
                      (unsigned long long)x->frames_aborted,
                      (unsigned long long)x->frames_late_discarded,
                      (unsigned long long)x->frames_dropped);
        const struct { const char *name; uint64_t all, head, win; } totals[] = {
            {"frames_ok", t->frames_ok, w->frames_ok, x->frames_ok},
            {"frames_offered", t->frames_offered, w->frames_offered, x->frames_offered},
            {"frames_aborted", t->frames_aborted, w->frames_aborted, x->frames_aborted},
            {"frames_late_discarded", t->frames_late_discarded, w->frames_late_discarded,
             x->frames_late_discarded},
            {"frames_dropped", t->frames_dropped, w->frames_dropped, x->frames_dropped},
            {"frames_delivered", t->frames_delivered, w->frames_delivered, x->frames_delivered},
            {"frames_corrupted", t->frames_corrupted, w->frames_corrupted, x->frames_corrupted},
            {"attempts", t->attempts, w->attempts, x->attempts},
            {"collisions", t->collisions, w->collisions, x->collisions},
            {"collisions_seen", t->collisions_seen, w->collisions_seen, x->collisions_seen},
            {"late_collisions", t->late_collisions, w->late_collisions, x->late_collisions},
        };
        for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++)
            if (totals[i].win != totals[i].all - totals[i].head)
                fail_msg("%s: %s: window %llu, runs %llu - %llu", c->name, totals[i].name,
                         (unsigned long long)totals[i].win, (unsigned long long)totals[i].all,
                         (unsigned long long)totals[i].head);
        /* The frames still queued are state, not counts: the same at T. */
        assert_int_equal(x->frames_queued, t->frames_queued);

        mac_counters sum = {0};
        for (uint32_t s = 0; s < x->n_stations; s++)
            for (size_t i = 0; i < N_FIELDS; i++) {
                uint64_t want = field(&whole.st[s].c, i) - field(&head.st[s].c, i);
                if (field(&window.st[s].c, i) != want)
                    fail_msg("%s: station %u, counter %zu: window %llu, runs differ by %llu",
                             c->name, s, i, (unsigned long long)field(&window.st[s].c, i),
                             (unsigned long long)want);
                ((uint64_t *)&sum)[i] += field(&window.st[s].c, i);
            }
        assert_int_equal(sum.frames_transmitted_ok, x->frames_ok);
        assert_int_equal(sum.frames_offered, x->frames_offered);
        assert_int_equal(sum.frames_aborted_xs_colls, x->frames_aborted);
        assert_int_equal(sum.frames_late_discarded, x->frames_late_discarded);
        assert_int_equal(sum.frames_dropped, x->frames_dropped);
        assert_int_equal(sum.frames_delivered, x->frames_delivered);
        assert_int_equal(sum.frames_corrupted, x->frames_corrupted);
        assert_int_equal(sum.attempts, x->attempts);
        assert_int_equal(sum.collisions, x->collisions_seen);
        assert_int_equal(sum.late_collisions, x->late_collisions);

        /* offered = ok + aborted + late-discarded + dropped + still queued,
         * from t = 0 (no warm-up) and over the window with the frames held
         * when it opened. */
        const results *all[2] = {t, w};
        for (int i = 0; i < 2; i++)
            assert_int_equal(all[i]->frames_offered,
                             all[i]->frames_ok + all[i]->frames_aborted +
                                 all[i]->frames_late_discarded + all[i]->frames_dropped +
                                 all[i]->frames_queued);
        assert_int_equal(x->frames_offered + w->frames_queued,
                         x->frames_ok + x->frames_aborted + x->frames_late_discarded +
                             x->frames_dropped + x->frames_queued);

        assert_true(x->frames_ok > 0 && x->attempts > 0 && x->collisions > 0);
        assert_true(w->frames_ok > 0 && w->collisions > 0); /* the warm-up holds some too */
        if (c->wants_drops)
            assert_true(x->frames_dropped > 0);
        if (c->wants_late_discards)
            assert_true(x->frames_late_discarded > 0 && x->late_collisions > 0);
        if (c->wants_aborts)
            assert_true(x->frames_aborted > 0);
        engine_destroy(whole.e);
        engine_destroy(head.e);
        engine_destroy(window.e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_property),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
