/* test_recovery.c - pins recovery_s, the retry-storm measure (results.h):
 * the time from the end of an outage until the backlog (frames queued or in
 * service at all stations) is back to its level when the outage began.
 * Checked against an independent recomputation from the trace (arrivals
 * add one, transmitOK and give-ups remove one, in trace order) over several
 * seeds and policies; -1 without an outage and when the run ends first.
 * Does not pin the outage's effect on the MAC (test_outage.c does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "scenario.h"

typedef struct backlog_ev {
    sim_time t;
    int delta;
} backlog_ev;

typedef struct backlog_log {
    backlog_ev *ev;
    size_t n, cap;
} backlog_log;

static void record(void *ctx, const trace_event *ev)
{
    backlog_log *l = ctx;
    int delta = ev->kind == TRACE_ARRIVAL ? 1
                : ev->kind == TRACE_TX_OK || ev->kind == TRACE_ABORT ? -1 : 0;
    if (delta == 0)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
        assert_non_null(l->ev);
    }
    l->ev[l->n++] = (backlog_ev){ev->time, delta};
}

/* The definition, applied to the recorded trace: -1 if never. */
static double recompute(const backlog_log *l, sim_time start, sim_time end)
{
    long backlog = 0, before = 0;
    size_t i = 0;
    for (; i < l->n && l->ev[i].t < start; i++)
        backlog += l->ev[i].delta;
    before = backlog;
    for (; i < l->n && l->ev[i].t < end; i++)
        backlog += l->ev[i].delta;
    if (backlog <= before)
        return 0;
    for (; i < l->n; i++) {
        backlog += l->ev[i].delta;
        if (backlog <= before)
            return sim_time_to_s(l->ev[i].t - end);
    }
    return -1;
}

static void run(const char *policy, const char *outage, const char *duration, uint64_t seed,
                double *got, double *want)
{
    scenario sc;
    char err[256], warn[256], seed_text[32];
    scenario_defaults(&sc);
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    const char *kv[][2] = {{"stations", "32"}, {"traffic", "poisson"}, {"load", "0.5"},
                           {"frame-size", "512"}, {"policy", policy},
                           {"duration", duration}, {"seed", seed_text}};
    for (size_t k = 0; k < sizeof kv / sizeof kv[0]; k++)
        assert_int_equal(scenario_set(&sc, kv[k][0], kv[k][1], err, sizeof err), 0);
    if (outage)
        assert_int_equal(scenario_set(&sc, "outage", outage, err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    engine *e;
    assert_int_equal(engine_create(&sc, &e, err, sizeof err), 0);
    backlog_log l = {0};
    assert_int_equal(engine_add_sink(e, (trace_sink){record, &l, NULL}), 0);
    engine_run_all(e);
    results r;
    engine_results(e, &r);
    *got = r.recovery_s;
    *want = outage ? recompute(&l, sc.outage_start, sc.outage_start + sc.outage_duration) : -1;
    free(l.ev);
    engine_destroy(e);
    scenario_free(&sc);
}

static void test_against_trace(void **state)
{
    (void)state;
    const char *policies[] = {"beb", "fixed:wait=2,jitter=2", "gaussian"};
    int recovered = 0;
    for (size_t p = 0; p < 3; p++) {
        for (uint64_t seed = 1; seed <= 4; seed++) {
            double got, want;
            run(policies[p], "20ms+10ms", "150ms", seed, &got, &want);
            assert_true(got == want); /* the same instants: exact */
            if (got > 0)
                recovered++;
        }
    }
    assert_true(recovered >= 6); /* the measure is exercised, not all -1 or 0 */
}

static void test_undefined(void **state)
{
    (void)state;
    double got, want;
    run("beb", NULL, "50ms", 1, &got, &want);
    assert_true(got == -1); /* no outage */
    /* The outage ends 0.5 ms before the run: no time to clear a backlog. */
    run("beb", "20ms+9.5ms", "30ms", 2, &got, &want);
    assert_true(want == -1);
    assert_true(got == -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_trace),
        cmocka_unit_test(test_undefined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
