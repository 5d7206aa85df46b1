/* test_capture_runs.c - the distribution of capture run lengths
 * (results.capture_runs, "capture_runs" in run --format json).
 *
 * Pins: the histogram equals the one recomputed from the trace (runs of
 * consecutive transmitOK by one station inside the window [warmup, end),
 * the run under way at the end included, bucket i = [2^i, 2^(i+1))
 * frames) on two-station capture under beb (long runs), on ca-beb (runs
 * of one frame) and on eight Poisson stations with a warm-up; it agrees
 * with capture_mean_run (successes / runs) and capture_max_run (in the
 * last non-empty bucket); the JSON array lists the buckets from 1 up to
 * the last non-empty one with their bounds, and is empty when nothing was
 * sent. Does not pin: the other measures (test_counters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_util.h"
#include "output.h"

static unsigned bucket(uint64_t len)
{
    unsigned b = 0;
    while (len >>= 1)
        b++;
    return b;
}

static void check(scenario *sc)
{
    mu_run run;
    mu_run_scenario(sc, &run);
    uint64_t want[RESULTS_RUN_BUCKETS] = {0};
    uint64_t runs = 0, successes = 0, len = 0, max = 0;
    uint32_t who = UINT32_MAX;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *ev = &run.tr.ev[i];
        if (ev->kind != TRACE_TX_OK || ev->time < sc->warmup)
            continue;
        successes++;
        if (len && ev->station == who) {
            len++;
            continue;
        }
        if (len) {
            want[bucket(len)]++;
            runs++;
            max = len > max ? len : max;
        }
        who = ev->station;
        len = 1;
    }
    if (len) {
        want[bucket(len)]++;
        runs++;
        max = len > max ? len : max;
    }
    const results *r = &run.r;
    assert_memory_equal(r->capture_runs, want, sizeof want);
    assert_int_equal(r->capture_max_run, max);
    if (runs)
        assert_true(fabs(r->capture_mean_run - (double)successes / (double)runs) < 1e-9);
    uint64_t total = 0;
    size_t last = 0;
    for (size_t i = 0; i < RESULTS_RUN_BUCKETS; i++) {
        total += r->capture_runs[i];
        if (r->capture_runs[i])
            last = i;
    }
    assert_int_equal(total, runs);
    if (runs)
        assert_int_equal(bucket(max), last);

    /* The JSON array. */
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    assert_non_null(f);
    output_run o = {.sc = sc, .r = r};
    assert_int_equal(output_write(f, OUTPUT_JSON, &o), 0);
    assert_int_equal(fclose(f), 0);
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    assert_non_null(root);
    json_t *a = json_object_get(root, "capture_runs");
    assert_true(json_is_array(a));
    assert_int_equal(json_array_size(a), runs ? last + 1 : 0);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *b = json_array_get(a, i);
        assert_int_equal(json_integer_value(json_object_get(b, "from")), (json_int_t)1 << i);
        assert_int_equal(json_integer_value(json_object_get(b, "to")),
                         ((json_int_t)1 << (i + 1)) - 1);
        assert_int_equal(json_integer_value(json_object_get(b, "runs")),
                         (json_int_t)r->capture_runs[i]);
    }
    json_decref(root);
    free(text);
    print_message("%s: %llu runs, mean %.2f, longest %llu, %zu buckets\n", sc->policy,
                  (unsigned long long)runs, r->capture_mean_run, (unsigned long long)max,
                  runs ? last + 1 : 0);
    mu_run_free(&run);
}

/* Two saturated stations 25 m apart, 64-byte frames, 100 ms. */
static void two_stations(const char *policy, uint64_t min_longest, uint64_t max_longest)
{
    static const double pos[] = {0, 25};
    scenario sc;
    mu_scenario(&sc, "10base5", 2, pos, TRAFFIC_SATURATED, 64, SIM_PS_PER_S / 10, 3);
    mu_set_policy(&sc, policy);
    check(&sc);
    mu_run run;
    mu_run_scenario(&sc, &run);
    assert_true(run.r.capture_max_run >= min_longest && run.r.capture_max_run <= max_longest);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

static void test_beb_capture(void **state)
{
    (void)state;
    two_stations("beb", 20, UINT64_MAX); /* capture: long runs */
}

static void test_ca_beb(void **state)
{
    (void)state;
    two_stations("ca-beb", 1, 1); /* every run one frame (README, "capture") */
}

static void test_poisson_window(void **state)
{
    (void)state;
    scenario sc;
    mu_scenario(&sc, "10base5", 8, NULL, TRAFFIC_POISSON, 256, SIM_PS_PER_S / 20, 9);
    sc.traffic.load = 0.8;
    sc.warmup = SIM_PS_PER_S / 100;
    check(&sc);
    mu_scenario_free(&sc);
}

static void test_nothing_sent(void **state)
{
    (void)state;
    results r;
    memset(&r, 0, sizeof r);
    scenario sc;
    mu_scenario(&sc, "10base5", 2, NULL, TRAFFIC_SATURATED, 64, SIM_PS_PER_S, 1);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    assert_non_null(f);
    output_run o = {.sc = &sc, .r = &r};
    assert_int_equal(output_write(f, OUTPUT_JSON, &o), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "\"capture_runs\": []"));
    free(text);
    mu_scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beb_capture),
        cmocka_unit_test(test_ca_beb),
        cmocka_unit_test(test_poisson_window),
        cmocka_unit_test(test_nothing_sent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
