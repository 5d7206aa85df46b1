/* test_frame_sizes.c - the traffic draws as distributions
 * (stations/traffic.c).
 *
 *  - A size range [a, b] draws every size from a to b, both ends included,
 *    uniformly: each end's share is within 5 sigma of 1 / (b - a + 1), the
 *    mean within 5 standard errors of (a + b) / 2, and frame_size_mean
 *    (which sets the arrival rate of a given load) is (a + b) / 2 exactly.
 *  - A mix draws each size with its weight (chi-square, fixed seed), and
 *    its mean is the weighted mean.
 *  - A random destination is any other station, uniformly, never the
 *    sender; a server's clients all send to it and it answers them all.
 *  - The arrival rate: at load G, N stations and mean frame bits B, each
 *    station offers G x rate / (N x B) frames per second: Poisson gaps have
 *    that mean, and an on/off source keeps it over the long run.
 *  - Frames shorter than the minimum are sent padded (4.2.3.3), so B is the
 *    padded mean: exact against hand-computed values and against draws,
 *    and a Poisson source of 20-100-byte frames at G = 0.5 offers 0.5.
 * Seeds are fixed; the bounds are wide enough (5 sigma) that only a wrong
 * draw fails them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model_util.h"
#include "rng.h"
#include "traffic.h"

static void check_range(uint32_t a, uint32_t b, uint64_t draws, uint64_t seed)
{
    frame_size_spec s = {.kind = FRAME_SIZE_RANGE, .min_bytes = a, .max_bytes = b};
    rng r;
    rng_seed(&r, seed, 1);
    uint64_t lo = 0, hi = 0;
    double sum = 0;
    for (uint64_t i = 0; i < draws; i++) {
        uint32_t x = frame_size_draw(&s, &r);
        assert_true(x >= a && x <= b);
        lo += x == a;
        hi += x == b;
        sum += x;
    }
    double k = b - a + 1.0, p = 1.0 / k;
    double sd_count = sqrt((double)draws * p * (1 - p));
    print_message("[%u, %u]: %llu at the bottom, %llu at the top, expected %.0f each\n", a, b,
                  (unsigned long long)lo, (unsigned long long)hi, (double)draws * p);
    assert_true(fabs((double)lo - (double)draws * p) < 5 * sd_count);
    assert_true(fabs((double)hi - (double)draws * p) < 5 * sd_count);
    double mean = (a + (double)b) / 2, var = (k * k - 1) / 12;
    assert_true(fabs(sum / (double)draws - mean) < 5 * sqrt(var / (double)draws));
    assert_float_equal(frame_size_mean(&s, 0), mean, 0);
}

static void test_range_both_ends(void **state)
{
    (void)state;
    check_range(64, 1518, 400000, 11);
    check_range(64, 65, 100000, 12);
    check_range(100, 103, 100000, 13);
    frame_size_spec one = {.kind = FRAME_SIZE_RANGE, .min_bytes = 500, .max_bytes = 500};
    rng r;
    rng_seed(&r, 1, 1);
    assert_int_equal(frame_size_draw(&one, &r), 500);
    frame_size_spec fixed = {.kind = FRAME_SIZE_FIXED, .min_bytes = 300, .max_bytes = 300};
    assert_int_equal(frame_size_draw(&fixed, &r), 300);
    assert_float_equal(frame_size_mean(&fixed, 0), 300, 0);
}

/* IMIX 64:7, 594:4, 1518:1 and a mix with a weight of 1 next to a large
 * one (each weight boundary matters). */
static void test_mix_weights(void **state)
{
    (void)state;
    const struct {
        uint32_t n, bytes[3], weight[3];
    } mixes[] = {{3, {64, 594, 1518}, {7, 4, 1}}, {3, {100, 200, 300}, {1, 1000, 1}},
                 {2, {64, 128}, {1, 1}}};
    for (size_t m = 0; m < 3; m++) {
        frame_size_spec s = {.kind = FRAME_SIZE_MIX, .n_mix = mixes[m].n};
        double wsum = 0, mean = 0;
        for (uint32_t i = 0; i < s.n_mix; i++) {
            s.mix_bytes[i] = mixes[m].bytes[i];
            s.mix_weight[i] = mixes[m].weight[i];
            wsum += s.mix_weight[i];
        }
        for (uint32_t i = 0; i < s.n_mix; i++)
            mean += s.mix_bytes[i] * s.mix_weight[i] / wsum;
        assert_float_equal(frame_size_mean(&s, 0), mean, 1e-9);
        rng r;
        rng_seed(&r, 20 + m, 1);
        const uint64_t draws = 200000;
        uint64_t count[3] = {0};
        for (uint64_t k = 0; k < draws; k++) {
            uint32_t x = frame_size_draw(&s, &r);
            uint32_t i = 0;
            while (i < s.n_mix && s.mix_bytes[i] != x)
                i++;
            assert_true(i < s.n_mix);
            count[i]++;
        }
        double chi2 = 0;
        for (uint32_t i = 0; i < s.n_mix; i++) {
            double e = (double)draws * s.mix_weight[i] / wsum;
            chi2 += ((double)count[i] - e) * ((double)count[i] - e) / e;
        }
        print_message("mix %zu: chi2 %.2f\n", m, chi2);
        assert_true(mu_chi2_pvalue(chi2, s.n_mix - 1) > 1e-4);
    }
}

/* Random destinations among 5 stations: from each sender, the 4 others
 * with a quarter each, never itself. */
static void test_destinations(void **state)
{
    (void)state;
    traffic_config t;
    memset(&t, 0, sizeof t);
    t.dest = DEST_RANDOM;
    rng r;
    rng_seed(&r, 31, 1);
    for (uint32_t self = 0; self < 5; self++) {
        uint64_t count[5] = {0};
        const uint64_t draws = 40000;
        for (uint64_t k = 0; k < draws; k++) {
            uint32_t d = traffic_dest_draw(&t, self, 5, &r);
            assert_true(d < 5);
            assert_int_not_equal(d, self);
            count[d]++;
        }
        double chi2 = 0;
        for (uint32_t i = 0; i < 5; i++) {
            if (i == self)
                continue;
            double e = draws / 4.0;
            chi2 += ((double)count[i] - e) * ((double)count[i] - e) / e;
        }
        assert_true(mu_chi2_pvalue(chi2, 3) > 1e-4);
    }
    /* A server: clients send to it, it answers every client. */
    t.dest = DEST_SERVER;
    t.server = 2;
    uint64_t answered[5] = {0};
    for (int k = 0; k < 4000; k++) {
        assert_int_equal(traffic_dest_draw(&t, 0, 5, &r), 2);
        uint32_t d = traffic_dest_draw(&t, 2, 5, &r);
        assert_int_not_equal(d, 2);
        answered[d]++;
    }
    for (uint32_t i = 0; i < 5; i++)
        assert_true(i == 2 ? answered[i] == 0 : answered[i] > 800);
    t.dest = DEST_BROADCAST;
    assert_int_equal(traffic_dest_draw(&t, 1, 5, &r), FRAME_BROADCAST);
}

/* dest = local:P among 10 stations, the sender's group stations 3..6:
 * P of the frames to the group's 3 others, the rest to the 6 stations
 * outside it, each side uniform (seed fixed: 100000 draws, the share
 * within 5 sigma of P, each side's chi-square p-value above 1e-4);
 * local:0 never stays, local:1 always does, never the sender itself. */
static void test_local_destinations(void **state)
{
    (void)state;
    traffic_config t;
    memset(&t, 0, sizeof t);
    t.dest = DEST_LOCAL;
    t.group_first = 3;
    t.group_count = 4;
    rng r;
    rng_seed(&r, 2026, 7);
    const double shares[] = {0.8, 0.25, 0.0, 1.0};
    for (size_t c = 0; c < sizeof shares / sizeof shares[0]; c++) {
        t.local_p = shares[c];
        const uint32_t self = 4;
        uint64_t count[10] = {0}, in = 0;
        const uint64_t draws = 100000;
        for (uint64_t k = 0; k < draws; k++) {
            uint32_t d = traffic_dest_draw(&t, self, 10, &r);
            assert_true(d < 10);
            assert_int_not_equal(d, self);
            count[d]++;
            in += d >= 3 && d <= 6;
        }
        double p = shares[c], sigma = sqrt(p * (1 - p) / (double)draws);
        double got = (double)in / (double)draws;
        print_message("local:%g: %.4f stayed in the group\n", p, got);
        if (p == 0 || p == 1)
            assert_true(got == p);
        else
            assert_true(fabs(got - p) < 5 * sigma);
        double chi_in = 0, chi_out = 0;
        for (uint32_t i = 0; i < 10; i++) {
            if (i == self)
                continue;
            bool mine = i >= 3 && i <= 6;
            double e = mine ? (double)in / 3.0 : (double)(draws - in) / 6.0;
            if (e > 0) {
                double x = ((double)count[i] - e) * ((double)count[i] - e) / e;
                *(mine ? &chi_in : &chi_out) += x;
            }
        }
        if (p > 0)
            assert_true(mu_chi2_pvalue(chi_in, 2) > 1e-4);
        if (p < 1)
            assert_true(mu_chi2_pvalue(chi_out, 5) > 1e-4);
    }
}

/* Load 0.5 at 10 Mb/s, 4 stations, frames drawn from [64, 1518] (mean 791
 * octets, 6328 bits): 0.5 x 1e7 / (4 x 6328) = 197.535 frames per second
 * per station, a mean gap of 5.0624 ms. Poisson: 20 000 gaps, mean within
 * 5 standard errors (the gap's sd equals its mean). On/off with 1 ms on
 * and 3 ms off: the same long-run rate. */
static void test_arrival_rate(void **state)
{
    (void)state;
    traffic_config t;
    memset(&t, 0, sizeof t);
    t.load = 0.5;
    t.size = (frame_size_spec){.kind = FRAME_SIZE_RANGE, .min_bytes = 64, .max_bytes = 1518};
    t.on_mean_s = 1e-3;
    t.off_mean_s = 3e-3;
    const double gap_s = 4 * 791 * 8 / (0.5 * 1e7);
    for (int kind = 0; kind < 2; kind++) {
        t.kind = kind ? TRAFFIC_ONOFF : TRAFFIC_POISSON;
        arrival_state a;
        arrival_init(&a, &t, 77, 0);
        double lambda = traffic_station_rate(&t, 4, 10000000, 64);
        sim_time now = 0;
        const int n = kind ? 60000 : 20000;
        for (int k = 0; k < n; k++) {
            sim_time next = arrival_next(&a, &t, now, lambda);
            assert_true(next > now);
            now = next;
        }
        double mean = (double)now / 1e12 / n;
        print_message("%s: mean gap %.4f ms, expected %.4f ms\n", kind ? "onoff" : "poisson",
                      mean * 1e3, gap_s * 1e3);
        /* on/off gaps are burstier: allow 5 sigma of a rougher estimate */
        double se = gap_s / sqrt((double)n) * (kind ? 3.0 : 1.0);
        assert_true(fabs(mean - gap_s) < 5 * se);
    }
}

/* Padded means. Range 20..100 with a 64-byte minimum: 44 sizes (20..63)
 * sent as 64, and 64..100 (37 sizes, sum (64 + 100) x 37 / 2 = 3034):
 * (44 x 64 + 3034) / 81 = 5850 / 81. */
static void test_padded_mean(void **state)
{
    (void)state;
    frame_size_spec fixed = {.kind = FRAME_SIZE_FIXED, .min_bytes = 20, .max_bytes = 20};
    assert_float_equal(frame_size_mean(&fixed, 64), 64, 0);
    assert_float_equal(frame_size_mean(&fixed, 0), 20, 0);
    frame_size_spec range = {.kind = FRAME_SIZE_RANGE, .min_bytes = 20, .max_bytes = 100};
    assert_float_equal(frame_size_mean(&range, 64), 5850.0 / 81.0, 1e-12);
    assert_float_equal(frame_size_mean(&range, 10), 60, 0);
    assert_float_equal(frame_size_mean(&range, 200), 200, 0);
    frame_size_spec mix = {.kind = FRAME_SIZE_MIX, .n_mix = 2, .min_bytes = 40, .max_bytes = 1518,
                           .mix_bytes = {40, 1518}, .mix_weight = {3, 1}};
    assert_float_equal(frame_size_mean(&mix, 64), (3 * 64 + 1518) / 4.0, 1e-12);
    rng r;
    rng_seed(&r, 5, 5);
    double sum = 0;
    const int draws = 200000;
    for (int i = 0; i < draws; i++) {
        uint32_t x = frame_size_draw(&range, &r);
        sum += x < 64 ? 64 : x;
    }
    /* sd of the padded size is under 12 bytes: 5 standard errors < 0.14 */
    assert_true(fabs(sum / draws - 5850.0 / 81.0) < 0.14);

    scenario sc;
    mu_scenario(&sc, "10base5", 16, NULL, TRAFFIC_POISSON, 64, 20 * SIM_PS_PER_S, 3);
    sc.traffic.size = range;
    sc.traffic.load = 0.5;
    mu_run run;
    mu_run_scenario(&sc, &run);
    print_message("20-100-byte frames at G = 0.5: offered load %.4f\n", run.r.offered_load);
    assert_true(fabs(run.r.offered_load - 0.5) < 0.01);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_both_ends),
        cmocka_unit_test(test_mix_weights),
        cmocka_unit_test(test_destinations),
        cmocka_unit_test(test_local_destinations),
        cmocka_unit_test(test_arrival_rate),
        cmocka_unit_test(test_padded_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
