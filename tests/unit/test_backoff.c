/* test_backoff.c - truncated binary exponential backoff (802.3 4.2.3.2.5).
 *
 * Pins:
 *  - the "beb" policy's draw after the n-th collision, n = 1..15, is uniform
 *    over [0, 2^min(n, 10)): every value in range, none outside, and a
 *    chi-square goodness-of-fit test per n at p = 0.001 (one fixed seed);
 *  - the wait is exactly slots x slotTime, and the policy reports the PHY's
 *    attemptLimit (16); backoffLimit comes from the PHY (an override of 3
 *    caps the range at 8);
 *  - through the engine, a frame is discarded after its 16th collision and
 *    not before: 16 attempts, exactly 15 backoffs, one
 *    aFramesAbortedDueToXSColls, at the instants computed by hand; an
 *    attemptLimit override is honoured;
 *  - every backoff the engine draws in a busy run lies in its range and
 *    waits slots x slotTime.
 * Does not pin: the other policies (jitter, p-persistent, ALOHA, ...), which
 * stream the draws come from (test_determinism), the statistics of
 * contention (test_contention).
 *
 * The chi-square p-value is computed here from the regularized upper
 * incomplete gamma function Q(df/2, x/2) (series and continued fraction,
 * Numerical Recipes 2nd ed. section 6.2; Abramowitz and Stegun 6.5.29 and
 * 6.5.31); the function is checked against the 0.001 critical values of the
 * NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4 (df = 1:
 * 10.828, df = 10: 29.588, df = 100: 149.449).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backoff.h"
#include "model_util.h"
#include "rng.h"

static void test_chi2_function(void **state)
{
    (void)state;
    /* NIST/SEMATECH table 1.3.6.7.4, upper tail 0.001. The table rounds to
     * three decimals, hence the tolerance. */
    assert_true(fabs(mu_chi2_pvalue(10.828, 1) - 0.001) < 1e-6);
    assert_true(fabs(mu_chi2_pvalue(29.588, 10) - 0.001) < 1e-6);
    assert_true(fabs(mu_chi2_pvalue(149.449, 100) - 0.001) < 1e-6);
    /* Sanity: the median of chi-square(2) is 2 ln 2. */
    assert_true(fabs(mu_chi2_pvalue(2 * log(2.0), 2) - 0.5) < 1e-12);
}

static backoff_policy *make_beb(uint32_t backoff_limit)
{
    backoff_env env = {.slot_ps = 512 * 100000, .attempt_limit = 16,
                       .backoff_limit = backoff_limit, .n_stations = 2};
    backoff_policy *p = NULL;
    char err[256] = "";
    if (backoff_policy_create("beb", &env, &p, err, sizeof err) != 0) {
        print_error("beb: %s\n", err);
        fail();
    }
    assert_non_null(p);
    return p;
}

/* For n = 1..15, 64 draws per cell (at least 128 in all): a chi-square with
 * 2^k - 1 degrees of freedom must not be significant at p = 0.001.
 * Also: every draw in range, every value seen (64 expected per cell, so a
 * missing value would be a defect, not chance: P < 1024 e^-64). */
static void test_beb_uniform(void **state)
{
    (void)state;
    backoff_policy *p = make_beb(10);
    assert_int_equal(backoff_policy_attempt_limit(p), 16);
    rng r;
    rng_seed(&r, 20261122, 1);
    uint64_t *count = calloc(1024, sizeof *count);
    assert_non_null(count);
    for (uint32_t n = 1; n <= 15; n++) {
        unsigned k = n < 10 ? n : 10;
        uint64_t cells = 1ull << k;
        uint64_t draws = 64 * cells;
        memset(count, 0, 1024 * sizeof *count);
        for (uint64_t i = 0; i < draws; i++) {
            backoff_state st = {0};
            backoff_draw d = backoff_policy_draw(p, &st, n, &r);
            if (d.slots >= cells) {
                print_error("n = %u: drew %llu, range is [0, %llu)\n", n,
                            (unsigned long long)d.slots, (unsigned long long)cells);
                fail();
            }
            assert_int_equal(d.wait_ps, (sim_time)d.slots * 51200000);
            count[d.slots]++;
        }
        double expect = (double)draws / (double)cells, stat = 0;
        for (uint64_t c = 0; c < cells; c++) {
            assert_true(count[c] > 0);
            stat += ((double)count[c] - expect) * ((double)count[c] - expect) / expect;
        }
        double pv = mu_chi2_pvalue(stat, (unsigned)(cells - 1));
        print_message("n = %2u: %4llu cells, chi-square %.1f, p = %.4f\n", n,
                      (unsigned long long)cells, stat, pv);
        assert_true(pv > 0.001);
    }
    free(count);
    backoff_policy_destroy(p);
}

/* backoffLimit comes from the PHY: with 3, draws after the 3rd and later
 * collisions span [0, 8) and all 8 values occur. */
static void test_beb_backoff_limit(void **state)
{
    (void)state;
    backoff_policy *p = make_beb(3);
    rng r;
    rng_seed(&r, 99, 1);
    for (uint32_t n = 1; n <= 15; n++) {
        uint64_t cells = 1ull << (n < 3 ? n : 3);
        uint64_t seen = 0;
        for (int i = 0; i < 400; i++) {
            backoff_state st = {0};
            backoff_draw d = backoff_policy_draw(p, &st, n, &r);
            assert_true(d.slots < cells);
            seen |= 1ull << d.slots;
        }
        assert_int_equal(seen, (1ull << cells) - 1);
    }
    backoff_policy_destroy(p);
}

static void test_unknown_policy(void **state)
{
    (void)state;
    backoff_env env = {.slot_ps = 51200000, .attempt_limit = 16, .backoff_limit = 10,
                       .n_stations = 2};
    backoff_policy *p = NULL;
    char err[256] = "";
    assert_int_not_equal(backoff_policy_create("no-such-policy", &env, &p, err, sizeof err), 0);
    assert_true(strlen(err) > 0);
}

/* A spec is read once and built in any network later: a zeroed spec is
 * beb with the PHY's limits; a parsed "linear:base=2,cap=8,attempts=5"
 * keeps its values whatever the environment, the PHY's backoffLimit fills
 * what it leaves, and the bounds read off the spec are the built
 * policy's: linear at n = 4 waits base + 3 x step = 2 + 3 x 1 = 5 slots,
 * capped at 8; at n = 9, 10 is capped to 8 slots (of 51.2 us). */
static void test_spec_parse_once(void **state)
{
    (void)state;
    backoff_env env = {.slot_ps = 51200000, .attempt_limit = 16, .backoff_limit = 3,
                       .n_stations = 2};
    char err[256] = "";
    backoff_spec zero = {0};
    backoff_policy *p = NULL;
    assert_int_equal(backoff_policy_build(&zero, &env, &p, err, sizeof err), 0);
    assert_string_equal(backoff_policy_name(p), "beb");
    assert_int_equal(backoff_policy_attempt_limit(p), 16);
    sim_time lo, hi;
    backoff_policy_bounds(p, &(backoff_state){0}, 5, &lo, &hi);
    assert_int_equal(hi, 7 * 51200000); /* k = min(5, backoffLimit 3) */
    backoff_policy_destroy(p);

    backoff_spec s;
    assert_int_equal(backoff_spec_parse("linear:base=2,cap=8,attempts=5", &s, err, sizeof err),
                     0);
    assert_int_equal(backoff_spec_attempt_limit(&s, &env), 5);
    assert_int_equal(backoff_policy_build(&s, &env, &p, err, sizeof err), 0);
    assert_string_equal(backoff_policy_name(p), "linear");
    for (uint32_t n = 1; n <= 12; n++) {
        sim_time slo, shi;
        backoff_policy_bounds(p, &(backoff_state){0}, n, &lo, &hi);
        backoff_spec_bounds(&s, &env, &(backoff_state){0}, n, &slo, &shi);
        assert_int_equal(lo, slo);
        assert_int_equal(hi, shi);
    }
    backoff_policy_bounds(p, &(backoff_state){0}, 4, &lo, &hi);
    assert_int_equal(hi, 5 * 51200000);
    backoff_policy_bounds(p, &(backoff_state){0}, 9, &lo, &hi);
    assert_int_equal(hi, 8 * 51200000);
    backoff_policy_destroy(p);

    /* A failed parse leaves the spec as it was and says why. */
    backoff_spec kept = s;
    assert_int_equal(backoff_spec_parse("linear:cap=-1", &s, err, sizeof err), -1);
    assert_string_equal(err, "policy: linear cap '-1' is not a number from 0 to 1e+07 (slots)");
    assert_memory_equal(&kept, &s, sizeof s);
}

/* Two stations at one point (zero-length cable), one 64-byte frame each,
 * backoffLimit overridden to 0 so every draw is r = 0 (range [0, 2^0)):
 * they collide on every attempt, deterministically.
 *  - attempt a starts at (a - 1) x 192 bit times: both start together and
 *    see each other at once (delay 0), finish the preamble (64 bits), jam
 *    32 bits (end at +96 bits), draw 0, are ready at the end of the jam,
 *    during the gap, and go at the gap's end, 96 bits later (own
 *    transmission: part 1 not restartable);
 *  - attempt 16 at 15 x 192 = 2880 bits = 288 000 000 ps, and after its
 *    collision the frame is discarded: 16 TX_START, 15 BACKOFF (collisions
 *    1..15), one ABORT for excessive collisions, aFramesAbortedDueToXSColls
 *    = 1, 16 collisions, 16 attempts, nothing sent. */
static void run_until_abort(uint32_t attempt_limit)
{
    scenario sc;
    mu_scenario(&sc, "10base5", 2, NULL, TRAFFIC_BATCH, 64, 10 * SIM_PS_PER_MS, 1);
    sc.phy.backoff_limit = 0;
    sc.phy.attempt_limit = attempt_limit;
    mu_run run;
    mu_run_scenario(&sc, &run);
    for (uint32_t s = 0; s < 2; s++) {
        assert_int_equal(mu_count(&run.tr, TRACE_TX_START, s), attempt_limit);
        assert_int_equal(mu_count(&run.tr, TRACE_BACKOFF, s), attempt_limit - 1);
        assert_int_equal(mu_count(&run.tr, TRACE_COLLISION, s), attempt_limit);
        for (uint32_t a = 1; a <= attempt_limit; a++) {
            const trace_event *ts = mu_find(&run.tr, TRACE_TX_START, s, a - 1);
            assert_int_equal(ts->attempt, a);
            assert_int_equal(ts->time, (sim_time)(a - 1) * 192 * 100000);
            if (a < attempt_limit) {
                const trace_event *b = mu_find(&run.tr, TRACE_BACKOFF, s, a - 1);
                assert_int_equal(b->collisions, a);
                assert_int_equal(b->backoff_slots, 0);
                assert_int_equal(b->backoff_ps, 0);
            }
        }
        const trace_event *ab = mu_find(&run.tr, TRACE_ABORT, s, 0);
        assert_non_null(ab);
        assert_int_equal(ab->abort_reason, TRACE_ABORT_EXCESSIVE_COLLISIONS);
        assert_int_equal(ab->attempt, attempt_limit);
        assert_int_equal(ab->time, (sim_time)(attempt_limit - 1) * 19200000 + 9600000);
        assert_int_equal(mu_count(&run.tr, TRACE_ABORT, s), 1);
        assert_int_equal(mu_count(&run.tr, TRACE_TX_OK, s), 0);
        const mac_counters *k = &run.st[s].c;
        assert_int_equal(k->frames_aborted_xs_colls, 1);
        assert_int_equal(k->collisions, attempt_limit);
        assert_int_equal(k->attempts, attempt_limit);
        assert_int_equal(k->frames_transmitted_ok, 0);
        assert_int_equal(k->late_collisions, 0);
    }
    assert_int_equal(run.r.frames_aborted, 2);
    mu_coverage cov;
    mu_check_model(&sc, &run, &cov);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

static void test_discard_after_16th_collision(void **state)
{
    (void)state;
    run_until_abort(16);
}

static void test_attempt_limit_override(void **state)
{
    (void)state;
    run_until_abort(5);
}

/* Every backoff drawn in a busy run (24 saturated stations on one point, so
 * frames reach high collision counts): slots in [0, 2^min(n, 10)) and the
 * wait is slots x 51.2 us; retry n + 1 follows the n-th collision. */
static void test_engine_draws_in_range(void **state)
{
    (void)state;
    scenario sc;
    mu_scenario(&sc, "10base5", 24, NULL, TRAFFIC_SATURATED, 64, 50 * SIM_PS_PER_MS, 77);
    mu_run run;
    mu_run_scenario(&sc, &run);
    size_t n = 0, high = 0;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *ev = &run.tr.ev[i];
        if (ev->kind != TRACE_BACKOFF)
            continue;
        assert_true(ev->collisions >= 1 && ev->collisions < 16);
        unsigned k = ev->collisions < 10 ? ev->collisions : 10;
        assert_true(ev->backoff_slots < (1ull << k));
        assert_int_equal(ev->backoff_ps, (sim_time)ev->backoff_slots * 51200000);
        high += ev->collisions >= 5;
        n++;
    }
    assert_true(n > 100);
    assert_true(high > 0);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chi2_function),
        cmocka_unit_test(test_beb_uniform),
        cmocka_unit_test(test_beb_backoff_limit),
        cmocka_unit_test(test_unknown_policy),
        cmocka_unit_test(test_discard_after_16th_collision),
        cmocka_unit_test(test_attempt_limit_override),
        cmocka_unit_test(test_engine_draws_in_range),
        cmocka_unit_test(test_spec_parse_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
