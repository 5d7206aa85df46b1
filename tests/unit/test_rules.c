/* test_rules.c - rules of the model at their exact boundaries, and rules
 * that only show through the whole program (stations/MODEL.md).
 *
 *  - The star's diameter (the longest delay, which times the verdict on a
 *    broadcast frame) is the two longest drops plus the hub, whatever the
 *    order of the drops; the bus's is the distance between its end
 *    stations, wherever the cable starts.
 *  - Signals are half-open intervals [start + d, end + d): a signal that
 *    ends exactly when a query begins is gone, one that starts exactly
 *    when a frame ends does not corrupt it, and the same for the outage's
 *    [START, START + DURATION).
 *  - A collision is late when detected MORE than slotTime after the first
 *    preamble bit: exactly slotTime is a normal collision, one bit more is
 *    late (4.2.3.2.4, WatchForCollision).
 *  - Signals that touch (one ends at a station exactly when the next
 *    arrives) form one carrier period: the gap runs from the later one.
 *  - At 1 Gb/s every collision after the first frame of a burst is late,
 *    even one a few bits into a short frame, and ends the frame
 *    (4.2.3.4): it is not retried.
 *  - The probe sees a transmission's first bit after the propagation from
 *    its sender, in every event that reports it.
 *  - Slotted ALOHA starts at the next slot boundary, which is the instant
 *    itself when it falls on one.
 *  - Padding to minFrameSize (4.2.3.3) through the whole program: 40-byte
 *    frames take the wire time of 64-byte ones, throughput counts the
 *    padded frame (exactly 512 / 672 for one saturated station), the
 *    octets counter counts the pad, and the pcap records are 64 octets
 *    (with a good FCS), in the netANALYZER header's length too.
 * Instants are derived in the comments from the geometry: 10 Mb/s, 1 bit
 * = 100 000 ps; 1 Gb/s, 1 bit = 1 000 ps; delays llround(metres / (v c)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethframe.h"
#include "medium.h"
#include "model_util.h"
#include "pcap_read.h"
#include "pcap_sink.h"
#include "tmpdir.h"

#define BIT10 ((sim_time)100000)
#define NEVER SIM_TIME_NEVER

static medium *make_medium(topology_kind topo, const sim_time *pos, uint32_t n, sim_time hub,
                           sim_time fault_start, sim_time fault_end)
{
    medium_config c = {.n_stations = n, .topology = topo, .pos_ps = pos, .hub_ps = hub,
                       .retain_ps = 9600, .chain_ps = 6400, .chain_cap_ps = 1000000,
                       .fault_start_ps = fault_start, .fault_end_ps = fault_end};
    medium *m = NULL;
    assert_int_equal(medium_create(&c, &m), 0);
    return m;
}

/* ---- diameters ------------------------------------------------------------ */

/* Drops of 100, 700, 300 and 500 ps and a 40 ps hub: the longest path is
 * 700 + 40 + 500 = 1240 ps, between stations 1 and 3, whatever the order
 * in which the drops are listed. */
static void test_star_diameter(void **state)
{
    (void)state;
    const sim_time orders[][4] = {{100, 700, 300, 500}, {700, 500, 300, 100},
                                  {500, 100, 300, 700}, {300, 300, 700, 500}};
    for (size_t k = 0; k < 4; k++) {
        medium *m = make_medium(TOPOLOGY_STAR, orders[k], 4, 40, 0, 0);
        assert_int_equal(medium_max_delay(m), 1240);
        sim_time longest = 0;
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t j = 0; j < 4; j++)
                if (i != j && medium_delay(m, i, j) > longest)
                    longest = medium_delay(m, i, j);
        assert_int_equal(longest, 1240);
        assert_int_equal(medium_delay(m, 0, 0), 0);
        /* the probe is at the hub: a station's drop, not the repeater */
        assert_int_equal(medium_probe_delay(m, 0), orders[k][0]);
        medium_destroy(m);
    }
    /* One station: no path. Two: both drops and the hub. */
    const sim_time two[] = {250, 900};
    medium *m = make_medium(TOPOLOGY_STAR, two, 1, 40, 0, 0);
    assert_int_equal(medium_max_delay(m), 0);
    medium_destroy(m);
    m = make_medium(TOPOLOGY_STAR, two, 2, 40, 0, 0);
    assert_int_equal(medium_max_delay(m), 1190);
    assert_int_equal(medium_delay(m, 0, 1), 1190);
    assert_int_equal(medium_delay(m, 1, 0), 1190);
    medium_destroy(m);
}

/* A bus whose stations sit at 300, 1000, 50 and 700 ps from the cable's
 * start: the diameter is 1000 - 50 = 950 ps, delays are differences. */
static void test_bus_diameter(void **state)
{
    (void)state;
    const sim_time pos[] = {300, 1000, 50, 700};
    medium *m = make_medium(TOPOLOGY_BUS, pos, 4, 0, 0, 0);
    assert_int_equal(medium_max_delay(m), 950);
    assert_int_equal(medium_delay(m, 1, 2), 950);
    assert_int_equal(medium_delay(m, 2, 1), 950);
    assert_int_equal(medium_delay(m, 0, 3), 400);
    assert_int_equal(medium_delay(m, 3, 0), 400);
    medium_destroy(m);
}

/* Through the engine: a broadcast frame is judged when its last bit has
 * passed every station, the diameter after it ends. 10BASE-T drops of 10,
 * 100 and 40 m: 100 m of UTP is 570 195 ps, 40 m 228 078 ps, and the
 * repeater 8 bits (800 000 ps): 1 598 273 ps. */
static void test_star_diameter_in_a_run(void **state)
{
    (void)state;
    const double drops[] = {10, 100, 40};
    scenario sc;
    mu_scenario(&sc, "10baset", 3, drops, TRAFFIC_SATURATED, 64, 2000 * BIT10 * 100, 5);
    sc.traffic.dest = DEST_BROADCAST;
    const sim_time diameter = mu_cable_ps(0.585, 100) + mu_cable_ps(0.585, 40) + 8 * BIT10;
    assert_int_equal(diameter, 1598273);
    mu_run run;
    mu_run_scenario(&sc, &run);
    size_t checked = 0;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *d = &run.tr.ev[i];
        if (d->kind != TRACE_DELIVER)
            continue;
        for (size_t j = 0; j < i; j++) {
            const trace_event *e = &run.tr.ev[j];
            if (e->kind == TRACE_TX_END && e->tx_id == d->tx_id) {
                assert_int_equal(d->time - e->time, diameter);
                checked++;
            }
        }
    }
    assert_true(checked > 100);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* Default placement (no positions given): a bus spreads its stations
 * evenly from one end of the profile's cable to the other (5 stations on
 * 500 m of 10BASE5: 125 m apart, 500 m end to end); a star gives each the
 * profile's drop; `--length 0` puts every station at one point and also
 * takes the hub's delay away (the textbook model). */
static void test_default_placement(void **state)
{
    (void)state;
    char err[256];
    const char *phys[] = {"10base5", "10baset", "10baset"};
    for (int k = 0; k < 3; k++) {
        scenario sc;
        mu_scenario(&sc, phys[k], 5, NULL, TRAFFIC_SATURATED, 64, 1000 * BIT10, 1);
        free(sc.positions_m); /* the engine's own placement */
        sc.positions_m = NULL;
        sc.n_positions = 0;
        sc.phy.length_m = k == 2 ? 0 : phy_profile_find(phys[k])->length_m;
        engine *e = NULL;
        assert_int_equal(engine_create(&sc, &e, err, sizeof err), 0);
        const medium *m = engine_medium(e);
        if (k == 0) {
            assert_int_equal(medium_max_delay(m), mu_cable_ps(0.77, 500));
            assert_int_equal(medium_delay(m, 0, 1), mu_cable_ps(0.77, 125));
            assert_int_equal(medium_delay(m, 1, 4), mu_cable_ps(0.77, 500) -
                                                        mu_cable_ps(0.77, 125));
        } else if (k == 1) {
            sim_time drop = mu_cable_ps(0.585, 100);
            assert_int_equal(medium_delay(m, 0, 4), 2 * drop + 8 * BIT10);
            assert_int_equal(medium_max_delay(m), 2 * drop + 8 * BIT10);
        } else {
            assert_int_equal(medium_delay(m, 0, 4), 0);
            assert_int_equal(medium_max_delay(m), 0);
        }
        engine_destroy(e);
        mu_scenario_free(&sc);
    }
}

/* ---- half-open signal intervals --------------------------------------------- */

/* Two stations 1000 ps apart on a bus. Station 0 sends [0, 5000): at
 * station 1 its signal is [1000, 6000). */
static void test_signal_boundaries(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000};
    medium *m = make_medium(TOPOLOGY_BUS, pos, 2, 0, 0, 0);
    uint64_t a = medium_tx_begin(m, 0, 0, 0);
    assert_int_equal(medium_foreign_signal_from(m, 1, 0), 1000);   /* on its way */
    assert_int_equal(medium_foreign_signal_from(m, 1, 1000), 1000);
    assert_int_equal(medium_foreign_signal_from(m, 0, 0), NEVER);   /* its own */
    medium_tx_end(m, a, 5000);
    assert_int_equal(medium_foreign_signal_from(m, 1, 5999), 5999); /* still there */
    assert_int_equal(medium_foreign_signal_from(m, 1, 6000), NEVER); /* gone at its end */
    medium_signal sig[4];
    assert_int_equal(medium_signals_at(m, 1, sig, 4), 1);
    assert_int_equal(sig[0].from, 1000);
    assert_int_equal(sig[0].until, 6000);
    assert_false(sig[0].own);
    assert_int_equal(medium_signals_at(m, 0, sig, 4), 1);
    assert_int_equal(sig[0].from, 0);
    assert_true(sig[0].own);
    /* Station 1 starts exactly when the frame's last bit reaches it: the
     * frame is whole there. */
    medium_hold(m, a);
    medium_tx_begin(m, 1, 6000, 0);
    assert_false(medium_overlapped_at(m, a, 1));
    medium_destroy(m);
}

/* The same with station 1 one picosecond earlier (it overlaps the last
 * bit), and a signal that ends exactly when the frame's first bit arrives. */
static void test_overlap_boundaries(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000};
    medium *m = make_medium(TOPOLOGY_BUS, pos, 2, 0, 0, 0);
    uint64_t a = medium_tx_begin(m, 0, 0, 0);
    medium_tx_end(m, a, 5000);
    medium_tx_begin(m, 1, 5999, 0);
    assert_true(medium_overlapped_at(m, a, 1));
    medium_destroy(m);

    /* Station 1 sends [0, 1000) and station 0 [0, 5000): at station 1 the
     * first is [0, 1000), the second [1000, 6000): they touch. */
    m = make_medium(TOPOLOGY_BUS, pos, 2, 0, 0, 0);
    uint64_t b = medium_tx_begin(m, 1, 0, 0);
    a = medium_tx_begin(m, 0, 0, 0);
    medium_tx_end(m, b, 1000);
    medium_tx_end(m, a, 5000);
    assert_false(medium_overlapped_at(m, a, 1));
    assert_true(medium_overlapped_at(m, b, 0)); /* b at 0: [1000, 2000) inside a */
    medium_destroy(m);
}

/* The outage [START, END) against the frame [1000, 6000) at station 1. */
static void test_outage_boundaries(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000};
    const sim_time cases[][3] = {
        /* start, end, overlapped */
        {6000, 7000, 0}, {5999, 7000, 1}, {0, 1000, 0}, {0, 1001, 1}, {2000, 3000, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        medium *m = make_medium(TOPOLOGY_BUS, pos, 2, 0, cases[k][0], cases[k][1]);
        uint64_t a = medium_tx_begin(m, 0, 0, 0);
        medium_tx_end(m, a, 5000);
        print_message("outage [%lld, %lld)\n", (long long)cases[k][0], (long long)cases[k][1]);
        assert_int_equal(medium_overlapped_at(m, a, 1), cases[k][2] != 0);
        medium_destroy(m);
    }
    /* The outage as a foreign signal: there until its end, not at it. */
    medium *m = make_medium(TOPOLOGY_BUS, pos, 2, 0, 6000, 7000);
    assert_int_equal(medium_foreign_signal_from(m, 0, 0), 6000);
    assert_int_equal(medium_foreign_signal_from(m, 0, 6999), 6999);
    assert_int_equal(medium_foreign_signal_from(m, 0, 7000), NEVER);
    medium_destroy(m);
}

/* ---- late collisions ---------------------------------------------------------- */

/* Two saturated stations on a 10BASE5 bus start together at 0; each
 * detects the other's signal one propagation delay later. At exactly
 * slotTime (512 bits, 51 200 000 ps) the collision is normal; one bit
 * later it is late. The metres are chosen so that the rounded delay is
 * exactly that (the test checks the rounding). */
static void run_late(sim_time delay, bool late)
{
    double metres = (double)delay / 1e12 * 0.77 * PHY_SPEED_OF_LIGHT_M_S;
    assert_int_equal(mu_cable_ps(0.77, metres), delay);
    const double pos[] = {0, metres};
    scenario sc;
    mu_scenario(&sc, "10base5", 2, pos, TRAFFIC_SATURATED, 1518, delay + 100 * BIT10, 3);
    mu_run run;
    mu_run_scenario(&sc, &run);
    for (uint32_t s = 0; s < 2; s++) {
        const trace_event *c = mu_find(&run.tr, TRACE_COLLISION, s, 0);
        assert_non_null(c);
        assert_int_equal(c->time, delay);
        assert_int_equal(c->tx_start, 0);
        assert_int_equal(c->late, late);
        assert_int_equal(run.st[s].c.late_collisions, late ? 1 : 0);
        assert_int_equal(run.st[s].c.collisions, 1);
    }
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

static void test_late_collision_boundary(void **state)
{
    (void)state;
    run_late(512 * BIT10, false);
    run_late(513 * BIT10, true);
    run_late(511 * BIT10, false);
}

/* 1000BASE-T with 1000 m drops (over-long, so that a signal takes longer
 * than a burst's first frame): 1000 m of UTP is 5 701 950 ps, so the two
 * stations are 2 x 5 701 950 + 488 000 = 11 891 900 ps apart. Both start a
 * burst of 64-byte frames at 0: the first frame, extended to slotTime, is
 * [0, 4 160 000); then 96 bits of extension, and frame k >= 1 starts at
 * 4 256 000 + (k - 1) x 672 000. The other's signal arrives at 11 891 900,
 * during frame 12 ([11 648 000, 12 224 000)), 243 900 ps after its first
 * bit: far less than slotTime, but in a burst, so late, and the frame is
 * given up (no retry at 1 Gb/s). */
static void test_burst_collision_is_late(void **state)
{
    (void)state;
    const double drops[] = {1000, 1000};
    scenario sc;
    mu_scenario(&sc, "1000baset", 2, drops, TRAFFIC_SATURATED, 64, 14000000, 9);
    assert_true(sc.phy.bursting);
    const sim_time delay = 2 * mu_cable_ps(0.585, 1000) + 488000;
    assert_int_equal(delay, 11891900);
    mu_run run;
    mu_run_scenario(&sc, &run);
    for (uint32_t s = 0; s < 2; s++) {
        const trace_event *c = mu_find(&run.tr, TRACE_COLLISION, s, 0);
        assert_non_null(c);
        assert_int_equal(c->time, delay);
        assert_int_equal(c->tx_start, 4256000 + 11 * 672000);
        assert_int_equal(c->tx_kind, TRACE_TX_FRAME);
        assert_true(c->late);
        const trace_event *a = mu_find(&run.tr, TRACE_ABORT, s, 0);
        assert_non_null(a);
        assert_int_equal(a->abort_reason, TRACE_ABORT_LATE_COLLISION);
        assert_int_equal(a->frame_id, c->frame_id);
        assert_int_equal(run.st[s].c.late_collisions, 1);
        assert_int_equal(run.st[s].c.frames_late_discarded, 1);
        assert_int_equal(run.st[s].c.frames_aborted_xs_colls, 0);
        assert_int_equal(run.st[s].c.frames_transmitted_ok, 12);
    }
    /* given up after a late collision: not aFramesAbortedDueToXSColls */
    assert_int_equal(run.r.frames_aborted, 0);
    assert_int_equal(run.r.frames_late_discarded, 2);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* Bursting goes on while ANOTHER frame is queued, however few: one
 * 1000BASE-T station with a batch of 2 (then 3) frames at t = 0 and
 * nothing after. The first frame, extended to slotTime, is [0, 4 160 000);
 * the queue still holds a frame, so 96 bits of extension follow and the
 * next frame, not extended, is [4 256 000, 4 832 000); a third would
 * follow at 4 928 000. With the queue empty the burst ends. */
static void test_burst_with_one_frame_queued(void **state)
{
    (void)state;
    for (uint32_t k = 2; k <= 3; k++) {
        scenario sc;
        mu_scenario(&sc, "1000baset", 1, NULL, TRAFFIC_BATCH, 64, 20000000, 5);
        sc.traffic.batch_frames = k;
        sc.traffic.dest = DEST_BROADCAST;
        mu_run run;
        mu_run_scenario(&sc, &run);
        assert_int_equal(mu_count(&run.tr, TRACE_TX_OK, 0), k);
        /* frames and the k - 1 extensions between them, each 96 bits */
        uint32_t frames = 0, ext = 0;
        for (size_t i = 0; i < run.tr.n; i++) {
            const trace_event *e = &run.tr.ev[i];
            if (e->kind != TRACE_TX_END)
                continue;
            if (e->tx_kind == TRACE_TX_EXTENSION) {
                assert_int_equal(e->tx_start, 4160000 + (sim_time)ext * 672000);
                assert_int_equal(e->time - e->tx_start, 96000);
                ext++;
                continue;
            }
            sim_time start = frames == 0 ? 0 : 4256000 + (sim_time)(frames - 1) * 672000;
            assert_int_equal(e->tx_start, start);
            assert_int_equal(e->time, frames == 0 ? 4160000 : start + 576000);
            frames++;
        }
        assert_int_equal(frames, k);
        assert_int_equal(ext, k - 1);
        mu_run_free(&run);
        mu_scenario_free(&sc);
    }
}

/* ---- touching signals --------------------------------------------------------------- */

/* Two saturated stations exactly one frame's wire time apart on a 10BASE5
 * bus: 64-byte frames take 64 + 512 = 576 bits (57 600 000 ps), and so
 * does the signal between them. Both start at 0; each one's frame ends at
 * 576 bits exactly when the other's first bit arrives, so neither detects
 * a collision (half-open intervals) and each receives the other's frame
 * whole. For its next frame each station sees its own carrier and then,
 * touching it, the other's until 1152 bits: one carrier period, so the gap
 * runs from 1152 bits and both start again at 1152 + 96 = 1248 bits, and
 * so on every 1248 bits, never colliding. */
static void test_touching_signals_one_period(void **state)
{
    (void)state;
    const sim_time wire = 576 * BIT10;
    double metres = (double)wire / 1e12 * 0.77 * PHY_SPEED_OF_LIGHT_M_S;
    assert_int_equal(mu_cable_ps(0.77, metres), wire);
    const double pos[] = {0, metres};
    scenario sc;
    mu_scenario(&sc, "10base5", 2, pos, TRAFFIC_SATURATED, 64, 10 * 1248 * BIT10, 3);
    mu_run run;
    mu_run_scenario(&sc, &run);
    for (uint32_t s = 0; s < 2; s++) {
        for (size_t k = 0; k < 9; k++) {
            const trace_event *t = mu_find(&run.tr, TRACE_TX_START, s, k);
            assert_non_null(t);
            assert_int_equal(t->time, (sim_time)k * 1248 * BIT10);
        }
        assert_int_equal(run.st[s].c.collisions, 0);
        assert_true(run.st[s].c.frames_delivered >= 9);
        assert_int_equal(run.st[s].c.frames_corrupted, 0);
    }
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* ---- deference on over-long cables ------------------------------------------------ */

/* A signal can restart a station's gap (arriving in part 1) long after
 * the carrier it follows was known to end: on a cable whose delays exceed
 * a collided transmission (96 bits, 2.2 km of coax), a far station starts
 * before the first signal reaches it, and its own signal reaches a near
 * station in that station's gap. Such a station must be re-planned when
 * the far one starts. Saturated and Poisson stations on 3 to 18 km buses,
 * every attempt checked against the reference (model_util.c); the runs
 * must have exercised restarts. */
static void test_deference_long_bus(void **state)
{
    (void)state;
    size_t restarts = 0, attempts = 0;
    for (int w = 0; w < 16; w++) {
        double pos[6];
        double length = 3000.0 + 1000.0 * w;
        for (uint32_t i = 0; i < 6; i++)
            pos[i] = length * (i * i) / 25.0; /* bunched at the start */
        scenario sc;
        mu_scenario(&sc, "10base5", 6, pos, w % 2 ? TRAFFIC_POISSON : TRAFFIC_SATURATED, 64,
                    50 * SIM_PS_PER_MS, 40 + (uint64_t)w);
        sc.traffic.load = 2.0;
        mu_run run;
        mu_run_scenario(&sc, &run);
        mu_coverage cov;
        mu_check_model(&sc, &run, &cov);
        restarts += cov.restarts;
        attempts += cov.attempts_checked;
        mu_run_free(&run);
        mu_scenario_free(&sc);
    }
    print_message("%zu attempts checked, %zu restarts\n", attempts, restarts);
    assert_true(attempts > 500);
    assert_true(restarts > 0);
}

/* ---- the probe ------------------------------------------------------------------- */

/* The probe at 200 m of a 10BASE5 bus with stations at 0, 300 and 700 m:
 * every transmission's first bit passes it |x - 200 m| / v after it
 * starts, and every event that reports the instant (TX_START, read by the
 * TUI's strip and the pcap sink's ordering; TX_END, the record's stamp)
 * says so. */
static void test_probe_instants(void **state)
{
    (void)state;
    const double pos[] = {0, 300, 700};
    scenario sc;
    mu_scenario(&sc, "10base5", 3, pos, TRAFFIC_SATURATED, 64, 2 * SIM_PS_PER_MS, 8);
    sc.probe_m = 200;
    mu_run run;
    mu_run_scenario(&sc, &run);
    size_t starts = 0;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *e = &run.tr.ev[i];
        if (e->kind != TRACE_TX_START && e->kind != TRACE_TX_END)
            continue;
        sim_time d = mu_cable_ps(0.77, pos[e->station]) - mu_cable_ps(0.77, 200);
        assert_int_equal(e->probe_start, e->tx_start + (d < 0 ? -d : d));
        starts += e->kind == TRACE_TX_START;
    }
    assert_true(starts > 20);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* ---- slotted ALOHA: slot boundaries ---------------------------------------------- */

/* One saturated slotted-ALOHA station at a single point, 1518-byte frames:
 * the slot is the frame's wire time (64 + 12144 bits, 1 220 800 000 ps).
 * The verdict on each frame comes as it ends, on a slot boundary, and the
 * next frame, ready then, starts at once: "at the next slot boundary" is
 * the instant itself when it is one. Frame k starts at k slots; over 50
 * slots 49 frames are delivered before the run ends. */
static void test_slotted_start_on_boundary(void **state)
{
    (void)state;
    const sim_time slot = 12208 * BIT10;
    scenario sc;
    mu_scenario(&sc, "10base5", 1, NULL, TRAFFIC_SATURATED, 1518, 50 * slot, 4);
    sc.traffic.dest = DEST_BROADCAST;
    mu_set_policy(&sc, "slotted-aloha");
    mu_run run;
    mu_run_scenario(&sc, &run);
    for (size_t k = 0; k < 49; k++) {
        const trace_event *t = mu_find(&run.tr, TRACE_TX_START, 0, k);
        assert_non_null(t);
        assert_int_equal(t->time, (sim_time)k * slot);
    }
    /* 49 frames delivered whole before the end; the 50th ends with the
     * run, without its verdict, so the throughput's window ends where it
     * began (stations/MODEL.md, "Measures"): 49 frames in 49 slots. */
    assert_float_equal(run.r.throughput, 12144.0 / 12208.0, 1e-12);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* ---- padding through the whole program ------------------------------------------ */

/* One saturated station sending 40-byte frames on a zero-length 10BASE5
 * cable: each frame is padded to 64 octets (512 bits), so a cycle is
 * 64 + 512 + 96 = 672 bit times (67 200 000 ps). Over 110 cycles with a
 * 10-cycle warm-up the window holds 100 whole frames: throughput exactly
 * 512 / 672. Each frame counts 46 octets (data and pad), and its pcap
 * record is 64 octets with a good FCS, stamped at its start. */
static void test_padding_whole_program(void **state)
{
    (void)state;
    char dir[256], path[300], err[256];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "rules"), 0);
    const sim_time cycle = 672 * BIT10;
    for (int linktype = 0; linktype < 2; linktype++) {
        scenario sc;
        mu_scenario(&sc, "10base5", 1, NULL, TRAFFIC_SATURATED, 40, 110 * cycle, 7);
        sc.traffic.dest = DEST_BROADCAST;
        sc.warmup = 10 * cycle;
        engine *e = NULL;
        assert_int_equal(engine_create(&sc, &e, err, sizeof err), 0);
        snprintf(path, sizeof path, "%s/pad%d.pcap", dir, linktype);
        pcap_sink *ps = NULL;
        pcap_sink_options po = {.collisions = false};
        pcap_sink_format f = {.linktype = linktype ? PCAP_SINK_NETANALYZER : PCAP_SINK_ETHERNET,
                              .epoch_s = 0};
        assert_int_equal(
            pcap_sink_open_format(path, &engine_scenario(e)->phy, &po, &f, &ps, err, sizeof err), 0);
        assert_int_equal(engine_add_sink(e, pcap_sink_trace(ps)), 0);
        engine_run_all(e);
        results r;
        engine_results(e, &r);
        assert_float_equal(r.throughput, 512.0 / 672.0, 1e-12);
        /* counters cover the window: frames 10..109 end inside it */
        assert_int_equal(r.frames_ok, 100);
        assert_int_equal(r.stations[0].c.octets_transmitted_ok, 100 * 46);
        engine_destroy(e);
        assert_int_equal(pcap_sink_close(ps, err, sizeof err), 0);

        pcap_contents pc;
        assert_int_equal(pcap_read_all(path, &pc, err, sizeof err), 0);
        assert_int_equal(pc.n, 110);
        uint32_t hl = linktype ? 4 : 0;
        for (size_t k = 0; k < pc.n; k++) {
            assert_int_equal(pc.recs[k].len, hl + 64);
            assert_int_equal(pc.recs[k].caplen, hl + 64);
            assert_int_equal(pc.recs[k].ts_ns, (int64_t)k * (cycle / 1000));
            assert_true(ethframe_fcs_ok(pc.recs[k].data + hl, 64));
            if (linktype) {
                const uint8_t *h = pc.recs[k].data;
                uint32_t word = h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
                                (uint32_t)h[3] << 24;
                assert_int_equal(word >> 16, 64); /* the header's frame length */
            }
        }
        pcap_contents_free(&pc);
        mu_scenario_free(&sc);
    }
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_star_diameter),
        cmocka_unit_test(test_bus_diameter),
        cmocka_unit_test(test_star_diameter_in_a_run),
        cmocka_unit_test(test_default_placement),
        cmocka_unit_test(test_signal_boundaries),
        cmocka_unit_test(test_overlap_boundaries),
        cmocka_unit_test(test_outage_boundaries),
        cmocka_unit_test(test_late_collision_boundary),
        cmocka_unit_test(test_burst_collision_is_late),
        cmocka_unit_test(test_burst_with_one_frame_queued),
        cmocka_unit_test(test_touching_signals_one_period),
        cmocka_unit_test(test_deference_long_bus),
        cmocka_unit_test(test_probe_instants),
        cmocka_unit_test(test_slotted_start_on_boundary),
        cmocka_unit_test(test_padding_whole_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
