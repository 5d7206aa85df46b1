/* test_contention.c - the statistics of contention against an exact result.
 *
 * Pins: two stations with one fresh frame each, at one point (zero-length
 * cable), need on average E[K] = 1.64163256... collisions before one of them
 * gets through, and K has the exact distribution derived below. The
 * emulator's mean over 20 000 seeds must lie within 4.5 standard errors of
 * E[K], and the histogram of K must pass a chi-square test at p = 0.001;
 * both frames must then be sent with attempts = K + 1.
 * Does not pin: individual instants (test_timing), contention of more than
 * two stations, capture with saturated sources (no closed form is pinned
 * here).
 *
 * Derivation (the backoff rule of stations/MODEL.md, "Collisions, jam,
 * backoff"; 802.3 4.2.3.2.5):
 * both stations start at t = 0 and collide (collision 1). They are at the
 * same point, so they see the same carrier and their jams end together at J.
 * After the k-th collision each draws r independently and uniformly from
 * [0, 2^min(k,10)) and is ready at J + r x slot.
 *  - r_A = r_B: both are ready at the same instant with the same view of
 *    the carrier, both start at that instant and collide again
 *    (stations/MODEL.md, "Simultaneous events").
 *  - r_A < r_B (or the reverse): A starts at max(J + r_A slot, J + 96 bits)
 *    and its 576-bit (or longer) transmission covers J + (r_A + 1) slot
 *    <= J + r_B slot, because 96 + 576 > 512 and 576 > 512. B, delay 0,
 *    finds carrier and defers: resolved, and B's frame then goes too.
 * So P(collide again after collision k) = 2^-min(k,10) and
 *   P(K = k) = prod_{i<k} 2^-min(i,10) x (1 - 2^-min(k,10)),  k = 1..16:
 *   P(1) = 1/2, P(2) = 1/2 x 3/4 = 3/8, P(3) = 1/8 x 7/8 = 7/64,
 *   P(>= 4) = 1/64 (P(K > 16) = 2^-(55 + 60) = 2^-115: an abort,
 *   negligible).
 *   E[K] = sum k P(K = k) = 1.6416325606551538 (the series above summed as
 *   exact rationals by an independent program), E[K^2] =
 *   3.243506010869709, Var K = 0.5485485466665119, sd 0.7406406326.
 * With n = 20 000 independent runs the standard error of the mean is
 * 0.7406406 / sqrt(20 000) = 0.0052371; 4.5 SE = 0.023567. For a correct
 * engine the chance of landing outside is about 7e-6 (normal approximation,
 * well justified at n = 20 000); an off-by-one range [0, 2^k] would give
 * E[K] = 1 + 1/3 + 1/15 + ... = 1.41, and a model where simultaneous
 * starts do not collide would give E[K] = 1. The chi-square cells
 * K = 1, 2, 3, >= 4 have expected counts 10000, 7500, 2187.5, 312.5;
 * 3 degrees of freedom, critical value at p = 0.001: 16.266
 * (NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "model_util.h"

typedef struct tally {
    uint32_t first_ok_attempt; /* attempt of the first TX_OK, 0 before */
    uint32_t ok_attempt[2];
    uint32_t n_ok, n_abort, n_coll;
} tally;

static void tally_sink(void *ctx, const trace_event *ev)
{
    tally *t = ctx;
    if (ev->kind == TRACE_TX_OK) {
        if (t->first_ok_attempt == 0)
            t->first_ok_attempt = ev->attempt;
        if (ev->station < 2)
            t->ok_attempt[ev->station] = ev->attempt;
        t->n_ok++;
    } else if (ev->kind == TRACE_ABORT) {
        t->n_abort++;
    } else if (ev->kind == TRACE_COLLISION) {
        t->n_coll++;
    }
}

static void test_two_station_resolution(void **state)
{
    (void)state;
    const double mean_exact = 1.6416325606551538;
    const double sd_exact = 0.7406406326056597;
    const int runs = 20000;
    double sum = 0;
    uint64_t cells[4] = {0};
    for (int i = 0; i < runs; i++) {
        scenario sc;
        mu_scenario(&sc, "10base5", 2, NULL, TRAFFIC_BATCH, 64, 2 * SIM_PS_PER_S,
                    (uint64_t)i + 1);
        engine *e = NULL;
        char err[256] = "";
        if (engine_create(&sc, &e, err, sizeof err) != 0) {
            print_error("engine_create: %s\n", err);
            fail();
        }
        tally t = {0};
        trace_sink sink = {tally_sink, &t, NULL};
        assert_int_equal(engine_add_sink(e, sink), 0);
        engine_run_all(e);
        engine_destroy(e);
        mu_scenario_free(&sc);

        assert_int_equal(t.n_abort, 0);
        assert_int_equal(t.n_ok, 2);
        assert_true(t.first_ok_attempt >= 2);
        uint32_t k = t.first_ok_attempt - 1;
        /* Both frames had the same K collisions, both counted by both. */
        assert_int_equal(t.ok_attempt[0], k + 1);
        assert_int_equal(t.ok_attempt[1], k + 1);
        assert_int_equal(t.n_coll, 2 * k);
        sum += k;
        cells[k < 4 ? k - 1 : 3]++;
    }
    double mean = sum / runs;
    double se = sd_exact / sqrt((double)runs);
    const double p[4] = {0.5, 0.375, 7.0 / 64, 1.0 / 64};
    double chi2 = 0;
    for (int c = 0; c < 4; c++) {
        double ex = p[c] * runs;
        chi2 += ((double)cells[c] - ex) * ((double)cells[c] - ex) / ex;
    }
    print_message("mean collisions %.5f (exact %.5f, SE %.5f, z = %.2f); K = 1, 2, 3, >=4: "
                  "%llu %llu %llu %llu, chi-square %.2f\n",
                  mean, mean_exact, se, (mean - mean_exact) / se, (unsigned long long)cells[0],
                  (unsigned long long)cells[1], (unsigned long long)cells[2],
                  (unsigned long long)cells[3], chi2);
    assert_true(fabs(mean - mean_exact) < 4.5 * se);
    assert_true(chi2 < 16.266);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_station_resolution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
