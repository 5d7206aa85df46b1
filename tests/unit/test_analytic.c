/* test_analytic.c - pins src/theory/analytic.c to tables computed independently
 * (another program, from the closed forms as their sources state them;
 * src/theory/analytic.h cites each): Metcalfe and Boggs (every Q and frame size of
 * the table, A and W too), the 1/(1 + k a) family, pure and slotted ALOHA,
 * the four Kleinrock-Tobagi CSMA forms at a = 0.01 and a = 0.1 (every
 * row), and the slotted non-persistent CSMA/CD capacities. The generalised
 * M&B throughput is pinned to its exact one-station value and to the
 * variant that charges 160 bit times per frame.
 * Tables carry six decimals, so values are compared to 5e-7 (plus one unit
 * of the last printed digit where the table rounds). It does not test the
 * models against the emulator: that is the validation suite's job.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analytic.h"

#define TOL 1.5e-6

static void check(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9f, want %.9f (tolerance %g)", got, want, tol);
}

static void test_mb_table(void **state)
{
    (void)state;
    static const struct {
        double q, a, w, e64, e512, e1518;
    } rows[] = {
        {1, 1.000000, 0.000000, 1.000000, 1.000000, 1.000000},
        {2, 0.500000, 1.000000, 0.500000, 0.888889, 0.959545},
        {4, 0.421875, 1.370370, 0.421875, 0.853755, 0.945380},
        {8, 0.392696, 1.546500, 0.392696, 0.838003, 0.938789},
        {16, 0.379812, 1.632879, 0.379812, 0.830489, 0.935591},
        {32, 0.373734, 1.675696, 0.373734, 0.826814, 0.934013},
        {64, 0.370780, 1.697017, 0.370780, 0.824996, 0.933230},
        {128, 0.369323, 1.707657, 0.369323, 0.824092, 0.932839},
        {256, 0.368600, 1.712971, 0.368600, 0.823641, 0.932644},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        check(analytic_mb_acquisition(rows[i].q), rows[i].a, TOL);
        check(analytic_mb_wasted_slots(rows[i].q), rows[i].w, TOL);
        check(analytic_mb_efficiency(rows[i].q, 64 * 8, 512), rows[i].e64, TOL);
        check(analytic_mb_efficiency(rows[i].q, 512 * 8, 512), rows[i].e512, TOL);
        check(analytic_mb_efficiency(rows[i].q, 1518 * 8, 512), rows[i].e1518, TOL);
    }
    /* The limit q -> infinity: A -> 1/e, W -> e - 1. */
    check(analytic_mb_acquisition(1e9), 1.0 / M_E, 1e-6);
    check(analytic_mb_wasted_slots(1e9), M_E - 1.0, 1e-5);
    /* Out of the domain. */
    assert_true(isnan(analytic_mb_acquisition(0.5)));
}

static void test_mb_generalised(void **state)
{
    (void)state;
    /* One saturated station: exactly the line-rate fraction of
     * stations/MODEL.md, "Measures". */
    analytic_mb_costs c = {1518 * 8, 1518 * 8, 64 + 96, 512};
    check(analytic_mb_throughput(1, &c), 12144.0 / (12144.0 + 64 + 96), 1e-12);
    /* The variant (not M&B's own): 160 bit times of preamble, SFD and gap
     * per frame. */
    static const struct {
        double q, e64, e512, e1518;
    } rows[] = {
        {1, 0.761905, 0.962406, 0.986996}, {2, 0.432432, 0.859060, 0.947566},
        {8, 0.349773, 0.811441, 0.927320}, {64, 0.332279, 0.799239, 0.921895},
        {256, 0.330527, 0.797968, 0.921323},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        analytic_mb_costs c64 = {512, 512, 160, 512}, c512 = {4096, 4096, 160, 512},
                          c1518 = {12144, 12144, 160, 512};
        check(analytic_mb_throughput(rows[i].q, &c64), rows[i].e64, TOL);
        check(analytic_mb_throughput(rows[i].q, &c512), rows[i].e512, TOL);
        check(analytic_mb_throughput(rows[i].q, &c1518), rows[i].e1518, TOL);
    }
    /* 1 Gb/s: a 64-byte frame occupies a whole 4096-bit slot of carrier but
     * only its 512 bits count. */
    analytic_mb_costs g = {512, 4096, 160, 4096};
    check(analytic_mb_throughput(1, &g), 512.0 / (4096 + 160), 1e-12);
}

static void test_ka_family(void **state)
{
    (void)state;
    static const struct {
        double a, k5, k2e, k644, k444, k344;
    } rows[] = {
        {0.001, 0.995025, 0.994593, 0.993605, 0.995583, 0.996575},
        {0.01, 0.952381, 0.948438, 0.939527, 0.957519, 0.966776},
        {0.05, 0.800000, 0.786270, 0.756528, 0.818446, 0.853367},
        {0.1, 0.666667, 0.647813, 0.608400, 0.692686, 0.744238},
        {1, 0.166667, 0.155362, 0.134471, 0.183940, 0.225400},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        check(analytic_efficiency_ka(rows[i].a, 5), rows[i].k5, TOL);
        check(analytic_efficiency_ka(rows[i].a, 2 * M_E), rows[i].k2e, TOL);
        check(analytic_efficiency_ka(rows[i].a, 1 + 2 * M_E), rows[i].k644, TOL);
        check(analytic_efficiency_ka(rows[i].a, 2 * M_E - 1), rows[i].k444, TOL);
        check(analytic_efficiency_ka(rows[i].a, 2 * (M_E - 1)), rows[i].k344, TOL);
    }
}

static void test_aloha(void **state)
{
    (void)state;
    static const struct {
        double g, pure, slotted;
    } rows[] = {
        {0.01, 0.009802, 0.009900}, {0.1, 0.081873, 0.090484}, {0.5, 0.183940, 0.303265},
        {1, 0.135335, 0.367879},    {2, 0.036631, 0.270671},   {5, 0.000227, 0.033690},
        {10, 2.1e-8, 0.000454},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        check(analytic_aloha_pure(rows[i].g), rows[i].pure, TOL);
        check(analytic_aloha_slotted(rows[i].g), rows[i].slotted, TOL);
    }
    /* Maxima: 1/(2e) at G = 0.5, 1/e at G = 1. */
    check(analytic_aloha_pure(0.5), 1 / (2 * M_E), 1e-15);
    check(analytic_aloha_slotted(1.0), 1 / M_E, 1e-15);
}

typedef struct csma_row {
    double g, np, snp, p1, sp1;
} csma_row;

static void check_csma(double a, const csma_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const csma_row *r = &rows[i];
        /* "≈0" in the page's table is written as 0 here: below 5e-7. */
        check(analytic_csma_nonpersistent(r->g, a), r->np, TOL);
        check(analytic_csma_slotted_nonpersistent(r->g, a), r->snp, TOL);
        check(analytic_csma_1persistent(r->g, a), r->p1, TOL);
        check(analytic_csma_slotted_1persistent(r->g, a), r->sp1, TOL);
    }
}

static void test_csma_a001(void **state)
{
    (void)state;
    static const csma_row rows[] = {
        {0.01, 0.009899, 0.009900, 0.009997, 0.009998},
        {0.1, 0.090736, 0.090822, 0.098856, 0.098945},
        {0.5, 0.330566, 0.331947, 0.407209, 0.408448},
        {1, 0.492550, 0.496261, 0.528641, 0.530697},
        {2, 0.649095, 0.657822, 0.369207, 0.370752},
        {5, 0.785980, 0.809274, 0.037977, 0.038186},
        {10, 0.814814, 0.860418, 0.000445, 0.000449},
        {20, 0.771706, 0.856103, 0, 0},
        {50, 0.587649, 0.751644, 0, 0},
        {100, 0.359370, 0.572913, 0, 0},
    };
    check_csma(0.01, rows, sizeof rows / sizeof rows[0]);
}

static void test_csma_a01(void **state)
{
    (void)state;
    static const csma_row rows[] = {
        {0.01, 0.009881, 0.009891, 0.009979, 0.009989},
        {0.1, 0.089190, 0.090045, 0.097100, 0.097979},
        {0.5, 0.306605, 0.319697, 0.373831, 0.385446},
        {1, 0.429885, 0.463633, 0.451486, 0.470870},
        {2, 0.508729, 0.582169, 0.279287, 0.296143},
        {5, 0.459039, 0.614558, 0.020150, 0.023275},
        {10, 0.297447, 0.502485, 0.000122, 0.000176},
        {20, 0.112147, 0.280585, 0, 0},
        {100, 0.000038, 0.000413, 0, 0},
    };
    check_csma(0.1, rows, sizeof rows / sizeof rows[0]);
}

/* max over G on a fine logarithmic grid, for the capacity rows. */
static double capacity(double (*f)(double, double, double), double a, double b)
{
    double best = 0;
    for (double lg = -2; lg <= 3; lg += 1e-4) {
        double s = f(pow(10, lg), a, b);
        if (s > best)
            best = s;
    }
    return best;
}

static double csma_np(double g, double a, double b)
{
    (void)b;
    return analytic_csma_nonpersistent(g, a);
}

static double csma_1p(double g, double a, double b)
{
    (void)b;
    return analytic_csma_1persistent(g, a);
}

static void test_capacities(void **state)
{
    (void)state;
    /* Capacities (the largest S over G): Kleinrock-Tobagi CSMA and slotted
     * non-persistent CSMA/CD. */
    check(capacity(csma_np, 0.01, 0), 0.815055, 2e-6);
    check(capacity(csma_np, 0.1, 0), 0.515276, 2e-6);
    check(capacity(csma_1p, 0.01, 0), 0.528758, 2e-6);
    check(capacity(csma_1p, 0.1, 0), 0.453495, 2e-6);
    check(capacity(analytic_csmacd_slotted_nonpersistent, 0.01, 0.01), 0.963725, 2e-6);
    check(capacity(analytic_csmacd_slotted_nonpersistent, 0.01, 0.02), 0.960199, 2e-6);
    check(capacity(analytic_csmacd_slotted_nonpersistent, 0.1, 0.1), 0.726533, 2e-6);
    check(capacity(analytic_csmacd_slotted_nonpersistent, 0.1, 0.2), 0.706959, 2e-6);
    /* b = 1 - a reduces CSMA/CD to slotted non-persistent CSMA. */
    for (double g = 0.1; g < 20; g *= 3) {
        check(analytic_csmacd_slotted_nonpersistent(g, 0.01, 0.99),
              analytic_csma_slotted_nonpersistent(g, 0.01), 1e-12);
        check(analytic_csmacd_slotted_nonpersistent(g, 0.1, 0.9),
              analytic_csma_slotted_nonpersistent(g, 0.1), 1e-12);
    }
    /* a -> 0 limits of the Kleinrock-Tobagi forms. */
    check(analytic_csma_nonpersistent(1.0, 1e-12), 0.5, 1e-9);
    check(analytic_csma_1persistent(1.0, 1e-12), 2 * exp(-1) / (1 + exp(-1)), 1e-9);
}

/* Slotted non-persistent CSMA/CD at points worked by hand. With x =
 * e^{-aG} and y = aG x, S = y / (y + b(1 - x - y) + a(2 - x - y)).
 *   a = 0.1, b = 0.1, G = 10: aG = 1, x = y = e^-1 = 0.3678794;
 *     b(1 - 2/e) = 0.0264241, a(2 - 2/e) = 0.1264241,
 *     S = 0.3678794 / 0.5207277 = 0.7064719.
 *   a = 0.01, b = 0.02, G = 100: aG = 1 again; b(1 - 2/e) = 0.0052848,
 *     a(2 - 2/e) = 0.0126424, S = 0.3678794 / 0.3858067 = 0.9535331.
 *   a = 0.05, b = 0.0625 (64-byte frames, the 32-bit jam), G = 2: aG =
 *     0.1, x = 0.9048374, y = 0.0904837; b(1 - x - y) = 0.0002924,
 *     a(2 - x - y) = 0.0502339, S = 0.0904837 / 0.1410101 = 0.6416826.
 * Collision detection pays: at the same a and G, no detection (b = 1 - a)
 * gives less, and a longer jam (larger b) gives less. */
static void test_csmacd_by_hand(void **state)
{
    (void)state;
    check(analytic_csmacd_slotted_nonpersistent(10, 0.1, 0.1), 0.7064719, 1e-6);
    check(analytic_csmacd_slotted_nonpersistent(100, 0.01, 0.02), 0.9535331, 1e-6);
    check(analytic_csmacd_slotted_nonpersistent(2, 0.05, 0.0625), 0.6416826, 1e-6);
    for (double g = 0.5; g < 50; g *= 2) {
        double cd = analytic_csmacd_slotted_nonpersistent(g, 0.05, 0.0625);
        assert_true(cd > analytic_csmacd_slotted_nonpersistent(g, 0.05, 0.95));
        assert_true(cd > analytic_csmacd_slotted_nonpersistent(g, 0.05, 0.2));
    }
    /* Outside the domain: no cable (a = 0, no mini-slot), negative load. */
    assert_true(isnan(analytic_csmacd_slotted_nonpersistent(1, 0, 0.1)));
    assert_true(isnan(analytic_csmacd_slotted_nonpersistent(-1, 0.1, 0.1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mb_table),   cmocka_unit_test(test_mb_generalised),
        cmocka_unit_test(test_ka_family),  cmocka_unit_test(test_aloha),
        cmocka_unit_test(test_csma_a001),  cmocka_unit_test(test_csma_a01),
        cmocka_unit_test(test_capacities), cmocka_unit_test(test_csmacd_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
