/* test_stats.c - the measures of src/engine/stats.c against values computed by
 * hand (stations/MODEL.md, "Measures").
 *
 * The statistics sink is fed trace events written here, so every figure is
 * known exactly:
 *  - each frame's bits credited pro rata to its time on the wire, split
 *    at a batch edge and at the window's edges (the warm-up, and E, the
 *    oldest transmission without a verdict) by hand;
 *  - throughput over the window [warmup, end), and its 95 % confidence
 *    interval from batch means: k completed batches of the window, batch
 *    throughputs x_i, s^2 = sum (x_i - mean)^2 / (k - 1), half-width
 *    t(0.975, k - 1) x sqrt(s^2 / k); Student's t from the table
 *    (t(3) = 3.182, t(19) = 2.093) and, beyond it, within 0.001 of the
 *    table's t(40) = 2.021, t(60) = 2.000, t(120) = 1.980;
 *  - the offered load (frame bits, DA to FCS, offered in the window);
 *  - the mean and maximum delay (exact) and the 50th and 99th percentiles
 *    (log-linear buckets: within half a bucket, 1/64, of the true value);
 *  - Jain's fairness index (sum x)^2 / (N sum x^2), null when nothing was
 *    delivered;
 *  - capture: runs of consecutive successes by one station, the run still
 *    going at the end included, their mean and longest, and their
 *    distribution by floor(log2 length).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define S ((sim_time)1000000000000) /* one second in ps */

typedef struct fixture {
    stats *st;
    trace_sink sink;
    results r;
    station_result per[8];
} fixture;

static void open_stats(fixture *f, uint32_t n, sim_time warmup, sim_time duration,
                       uint32_t batches)
{
    memset(f, 0, sizeof *f);
    stats_config c = {.n_stations = n, .rate_bps = 10000000, .warmup = warmup,
                      .duration = duration, .batches = batches};
    assert_int_equal(stats_create(&c, &f->st), 0);
    f->sink = stats_sink(f->st);
}

/* A frame received whole at t: on the wire at 10 Mb/s during
 * [t - its bit times, t) (no preamble, to keep the sums round). */
static void deliver(fixture *f, sim_time t, uint32_t station, uint32_t bytes)
{
    trace_event ev = {.kind = TRACE_DELIVER, .time = t, .station = station,
                      .frame_bytes = bytes, .ok = true, .jam_start = SIM_TIME_NEVER,
                      .tx_start = t - 8 * (sim_time)bytes * 100000, .tx_end = t};
    f->sink.on_event(f->sink.ctx, &ev);
}

static void tx_ok(fixture *f, sim_time t, uint32_t station, sim_time queued_at)
{
    trace_event ev = {.kind = TRACE_TX_OK, .time = t, .station = station,
                      .frame_bytes = 64, .queued_at = queued_at,
                      .jam_start = SIM_TIME_NEVER};
    f->sink.on_event(f->sink.ctx, &ev);
}

/* Delivers `bits` (a multiple of 10 000) in batch b of width w after t0. */
static void fill_batch(fixture *f, sim_time t0, sim_time w, unsigned b, uint64_t bits)
{
    for (uint64_t k = 0; k < bits / 10000; k++)
        deliver(f, t0 + (sim_time)b * w + w / 2, (uint32_t)(k % 2), 1250);
}

/* Four batches of 0.25 s at 10 Mb/s (2.5e6 bits each) carrying 1e6, 1.5e6,
 * 2e6 and 1.5e6 bits: x = 0.4, 0.6, 0.8, 0.6; mean 0.6; the squared
 * deviations sum to 0.08, s^2 = 0.08 / 3, sqrt(s^2 / 4) = 0.0816497,
 * half-width 3.182 x 0.0816497 = 0.2598094. */
static void test_ci_four_batches(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    const uint64_t bits[] = {1000000, 1500000, 2000000, 1500000};
    for (unsigned b = 0; b < 4; b++)
        fill_batch(&f, 0, S / 4, b, bits[b]);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput, 0.6, 1e-12);
    assert_float_equal(f.r.throughput_mbps, 6.0, 1e-9);
    assert_float_equal(f.r.throughput_ci95, 3.182 * sqrt(0.08 / 3 / 4), 1e-12);
    assert_float_equal(f.r.throughput_ci95, 0.2598094, 1e-6);
    assert_float_equal(f.r.measured_s, 1.0, 1e-12);
    stats_destroy(f.st);
}

/* The default 20 batches, after a warm-up of 0.5 s: a run of 2.5 s, so
 * 20 batches of 0.1 s (1e6 bits of capacity each) from 0.5 s. Batch i
 * carries 0.5e6 bits for even i and 0.7e6 for odd i: x = 0.5 or 0.7,
 * mean 0.6, every squared deviation 0.01, s^2 = 0.2 / 19, half-width
 * t(19) x sqrt(s^2 / 20) = 2.093 x 0.0229416 = 0.0480168. Deliveries in
 * the warm-up count in no batch and not in the throughput. */
static void test_ci_twenty_batches_after_warmup(void **state)
{
    (void)state;
    fixture f;
    const sim_time warm = S / 2, dur = 5 * S / 2, w = (dur - warm) / 20;
    open_stats(&f, 2, warm, dur, 20);
    for (unsigned k = 0; k < 50; k++)
        deliver(&f, warm - 1 - k, 0, 1250); /* in the warm-up */
    for (unsigned b = 0; b < 20; b++)
        fill_batch(&f, warm, w, b, b % 2 ? 700000 : 500000);
    stats_fill(f.st, dur, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.measured_s, 2.0, 1e-12);
    assert_float_equal(f.r.throughput, 0.6, 1e-12);
    assert_float_equal(f.r.throughput_ci95, 2.093 * sqrt(0.2 / 19 / 20), 1e-12);
    assert_float_equal(f.r.throughput_ci95, 0.0480168, 1e-6);
    stats_destroy(f.st);
}

/* A run stopped early (at 0.6 s of 1 s, four batches planned): only the
 * two batches completed count: x = 0.4 and 0.8, mean 0.6, s^2 = 0.08,
 * half-width t(1) x sqrt(0.08 / 2) = 12.706 x 0.2 = 2.5412. */
static void test_ci_completed_batches_only(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    fill_batch(&f, 0, S / 4, 0, 1000000);
    fill_batch(&f, 0, S / 4, 1, 2000000);
    stats_fill(f.st, 6 * S / 10, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput_ci95, 12.706 * 0.2, 1e-9);
    assert_float_equal(f.r.throughput, 3e6 / 6e6, 1e-12);
    /* One completed batch: no interval. */
    stats_fill(f.st, 4 * S / 10, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput_ci95, 0.0, 0);
    stats_destroy(f.st);
}

/* A frame is credited to the time it was on the wire (stations/MODEL.md,
 * "Throughput, pro rata"). Four batches of 0.25 s (2.5e6 bits of capacity
 * each); a 1250-byte frame (10 000 bits, 1 ms at 10 Mb/s) on the wire
 * during [0.2495 s, 0.2505 s) gives 5000 bits to batch 0 and 5000 to
 * batch 1 (counted at its end it gave batch 1 all 10 000); one more frame
 * wholly in each of batches 2 and 3: 5000, 5000, 10 000, 10 000 bits, x =
 * 0.002, 0.002, 0.004, 0.004, mean 0.003, squared deviations 4e-6,
 * half-width t(3) x sqrt(4e-6 / 3 / 4) = 3.182 x 5.7735e-4 = 0.0018371. */
static void test_prorata_batch_edge(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    deliver(&f, S / 4 + S / 2000, 0, 1250); /* [0.2495, 0.2505) */
    deliver(&f, S / 2 + S / 8, 1, 1250);
    deliver(&f, 3 * S / 4 + S / 8, 1, 1250);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput, 30000 / 1e7, 1e-15);
    assert_float_equal(f.r.throughput_ci95, 3.182 * sqrt(4e-6 / 3 / 4), 1e-12);
    assert_float_equal(f.r.throughput_ci95, 0.0018371, 1e-7);
    /* The per-station bits count whole frames at their verdict. */
    assert_int_equal(f.per[0].bits_delivered, 10000);
    assert_int_equal(f.per[1].bits_delivered, 20000);
    stats_destroy(f.st);
}

/* The window's edges. Warm-up 0.1 s: a frame on the wire during
 * [0.0995 s, 0.1005 s) counts 5000 of its 10 000 bits. At the end, the
 * window stops at E, the oldest transmission without its verdict: with
 * one started at 0.9 s and still unjudged at 0.901 s, a frame judged at
 * 0.9005 s that began at 0.8995 s counts its 5000 bits before E, and the
 * window is [0.1, 0.9): S = 10 000 / (1e7 x 0.8) = 0.00125. Once nothing
 * is pending, E is now: (5000 + 10 000) / (1e7 x 0.801). */
static void test_prorata_window_edges(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    stats_config c = {.n_stations = 1, .rate_bps = 10000000, .warmup = S / 10,
                      .duration = S, .batches = 4, .judge_ps = 2 * S / 1000};
    assert_int_equal(stats_create(&c, &f.st), 0);
    f.sink = stats_sink(f.st);
    deliver(&f, S / 10 + S / 2000, 0, 1250);
    deliver(&f, 9 * S / 10 + S / 2000, 0, 1250);
    stats_fill(f.st, 901 * S / 1000, 9 * S / 10, &f.r, f.per);
    assert_float_equal(f.r.throughput, 10000 / (1e7 * 0.8), 1e-15);
    assert_float_equal(f.r.measured_s, 0.801, 1e-12); /* the counts' window */
    stats_fill(f.st, 901 * S / 1000, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput, 15000 / (1e7 * 0.801), 1e-15);
    /* The batches tile [0.1 s, 0.998 s): none has ended by 0.2 s. */
    stats_fill(f.st, S / 5, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.throughput_ci95, 0.0, 0);
    stats_destroy(f.st);
}

/* Student's t(0.975, df): the table, and beyond it the expansion, against
 * the printed table's values. */
static void test_student_t(void **state)
{
    (void)state;
    assert_float_equal(stats_t975(1), 12.706, 1e-12);
    assert_float_equal(stats_t975(3), 3.182, 1e-12);
    assert_float_equal(stats_t975(9), 2.262, 1e-12);
    assert_float_equal(stats_t975(19), 2.093, 1e-12);
    assert_float_equal(stats_t975(20), 2.086, 1e-12);
    assert_float_equal(stats_t975(30), 2.042, 1e-12);
    assert_float_equal(stats_t975(40), 2.021, 1e-3);
    assert_float_equal(stats_t975(60), 2.000, 1e-3);
    assert_float_equal(stats_t975(120), 1.980, 1e-3);
    assert_true(isinf(stats_t975(0)));
}

/* Offered load: frame bits offered (arrivals and drops) in the window, per
 * bit time of the window. 100 arrivals of 125 bytes in [0.5 s, 1 s) at
 * 10 Mb/s: 1e5 bits / 5e6 = 0.02; arrivals in the warm-up do not count. */
static void test_offered_load(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, S / 2, S, 4);
    for (unsigned k = 0; k < 120; k++) {
        trace_event ev = {.kind = k < 100 ? TRACE_ARRIVAL : TRACE_DROP,
                          .time = S / 2 + (sim_time)k, .frame_bytes = 125};
        f.sink.on_event(f.sink.ctx, &ev);
    }
    trace_event early = {.kind = TRACE_ARRIVAL, .time = S / 2 - 1, .frame_bytes = 125};
    f.sink.on_event(f.sink.ctx, &early);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.offered_load, 120 * 1000 / 5e6, 1e-12);
    stats_destroy(f.st);
}

/* Delays: 99 frames waited 2^25 + 2^20 - 1 ps (the top of a bucket) and
 * one waited 2^26 ps. Mean and max are exact; p50 and p99 both fall in the
 * first value's bucket and must be within half a bucket (1/64) of it. */
static void test_delay_percentiles(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    const sim_time a = ((sim_time)1 << 25) + ((sim_time)1 << 20) - 1, b = (sim_time)1 << 26;
    for (unsigned k = 0; k < 99; k++)
        tx_ok(&f, 1000 + a + k, k % 2, 1000 + k);
    tx_ok(&f, 2000 + b, 0, 2000);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.mean_delay_us, (99.0 * (double)a + (double)b) / 100 / 1e6, 1e-9);
    assert_float_equal(f.r.max_delay_us, (double)b / 1e6, 1e-9);
    assert_float_equal(f.r.p50_delay_us, (double)a / 1e6, (double)a / 1e6 / 64);
    assert_float_equal(f.r.p99_delay_us, (double)a / 1e6, (double)a / 1e6 / 64);
    stats_destroy(f.st);

    /* 1..100 us: the median is the 50th value (50 us) and p99 the 99th. */
    open_stats(&f, 2, 0, S, 4);
    for (unsigned k = 1; k <= 100; k++)
        tx_ok(&f, (sim_time)k * 1000000 + 5000000000, 0, 5000000000);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.mean_delay_us, 50.5, 1e-9);
    assert_float_equal(f.r.p50_delay_us, 50.0, 50.0 / 64);
    assert_float_equal(f.r.p99_delay_us, 99.0, 99.0 / 64);
    assert_float_equal(f.r.max_delay_us, 100.0, 1e-9);
    stats_destroy(f.st);
}

/* Jain's index over the bits each station delivered in the window:
 * 1e6 and 3e6 bits: (4e6)^2 / (2 x (1e12 + 9e12)) = 0.8; the shares 0.25
 * and 0.75. Three stations, one silent, 2e6 each for the others: 2/3. */
static void test_fairness(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    for (unsigned k = 0; k < 100; k++)
        deliver(&f, 10 + k, 0, 1250);
    for (unsigned k = 0; k < 300; k++)
        deliver(&f, 200 + k, 1, 1250);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.jain_fairness, 0.8, 1e-12);
    assert_float_equal(f.per[0].share, 0.25, 1e-12);
    assert_float_equal(f.per[1].share, 0.75, 1e-12);
    assert_int_equal(f.per[1].bits_delivered, 3000000);
    stats_destroy(f.st);

    open_stats(&f, 3, 0, S, 4);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_true(isnan(f.r.jain_fairness)); /* nothing delivered: undefined */
    for (unsigned k = 0; k < 200; k++) {
        deliver(&f, 10 + k, 0, 1250);
        deliver(&f, 10 + k, 2, 1250);
    }
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.jain_fairness, 2.0 / 3.0, 1e-12);
    stats_destroy(f.st);
}

/* Capture runs: successes by stations 0 0 0 1 0 0 1 1 1 1 1: runs of 3, 1,
 * 2 and 5 (the last still going at the end counts): mean 11 / 4 = 2.75,
 * longest 5; by floor(log2 length): 1 -> bucket 0, 2 and 3 -> 1, 5 -> 2. */
static void test_capture_runs(void **state)
{
    (void)state;
    fixture f;
    open_stats(&f, 2, 0, S, 4);
    const uint32_t who[] = {0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1};
    for (unsigned k = 0; k < sizeof who / sizeof who[0]; k++)
        tx_ok(&f, 1000 * (k + 1), who[k], 0);
    stats_fill(f.st, S, SIM_TIME_NEVER, &f.r, f.per);
    assert_float_equal(f.r.capture_mean_run, 2.75, 1e-12);
    assert_int_equal(f.r.capture_max_run, 5);
    assert_int_equal(f.r.capture_runs[0], 1);
    assert_int_equal(f.r.capture_runs[1], 2);
    assert_int_equal(f.r.capture_runs[2], 1);
    assert_int_equal(f.r.capture_runs[3], 0);
    stats_destroy(f.st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ci_four_batches),
        cmocka_unit_test(test_ci_twenty_batches_after_warmup),
        cmocka_unit_test(test_ci_completed_batches_only),
        cmocka_unit_test(test_prorata_batch_edge),
        cmocka_unit_test(test_prorata_window_edges),
        cmocka_unit_test(test_student_t),
        cmocka_unit_test(test_offered_load),
        cmocka_unit_test(test_delay_percentiles),
        cmocka_unit_test(test_fairness),
        cmocka_unit_test(test_capture_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
