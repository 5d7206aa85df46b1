/* test_outage.c - the medium's outage (--outage START+DURATION), to the
 * picosecond, computed by hand.
 *
 * The rule (stations/MODEL.md, "Faults"; medium.h): during [S, E) a jamming
 * signal is present at every station with no propagation delay. Pins:
 *  - a transmission under way when the outage begins sees a collision at
 *    that instant: preamble/SFD finished first, then the 32-bit jam; a
 *    collision more than slotTime into the frame is late (counted, and
 *    retried at 10 Mb/s);
 *  - a station whose frame becomes ready during the outage (after its
 *    backoff, or a new arrival while idle) defers until E + interFrameGap,
 *    and no attempt starts in [S, E + IFG);
 *  - with eight Poisson stations and an outage the counters still add up
 *    (offered = OK + aborted + dropped + queued, attempts and collisions
 *    against the trace), no frame sent whole overlaps the outage, and a
 *    frame whose signal overlaps it at the receiver is not received (ALOHA:
 *    no collision detection, so the receiver's verdict is the only one);
 *  - the scenario key: syntax, duration above 0, inside the run.
 * Timings: 10 Mb/s, 1 bit = 100 000 ps; one station alone on a zero-length
 * cable sends 1518-byte frames in cycles of c = 64 + 12144 + 96 = 12304
 * bit times (test_timing pins that cycle). Does not pin: the pcap or the
 * probe (the outage is not a transmission and is not captured), the
 * recovery over time after the outage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_util.h"

#define BIT10 ((sim_time)100000) /* ps per bit at 10 Mb/s */
#define CYCLE (12304 * BIT10)
#define IFG (96 * BIT10)

static void one_station(scenario *sc, sim_time start, sim_time len, sim_time duration)
{
    mu_scenario(sc, "10base5", 1, NULL, TRAFFIC_SATURATED, 1518, duration, 3);
    sc->traffic.dest = DEST_BROADCAST;
    sc->outage_start = start;
    sc->outage_duration = len;
}

/* Outage [S, E) = [c + 96, c + 5096) bit times. Frame 1 starts at c (its
 * gap ended before S) and is 96 bits in at S: the collision is seen at S,
 * after the preamble (64 bits), so the jam runs [S, S + 32 bits) and 128
 * bits went on the wire; 96 < 512, not late. The backoff, 0 or 1 slot from
 * c + 128, ends inside the outage: the station defers to it and starts
 * attempt 2 at E + 96 = c + 5192, whatever it drew. Then three more cycles:
 * the run ends 12250 bits into the fourth, after its frame ended. */
static void test_collision_then_defer(void **state)
{
    (void)state;
    const sim_time S = CYCLE + 96 * BIT10, E = CYCLE + 5096 * BIT10;
    const sim_time t2 = E + IFG;
    assert_int_equal(t2, CYCLE + 5192 * BIT10);
    scenario sc;
    one_station(&sc, S, E - S, t2 + 3 * CYCLE + 12250 * BIT10);
    mu_run run;
    mu_run_scenario(&sc, &run);

    const trace_event *a = mu_find(&run.tr, TRACE_TX_START, 0, 1);
    assert_non_null(a);
    assert_int_equal(a->time, CYCLE);
    const trace_event *c = mu_find(&run.tr, TRACE_COLLISION, 0, 0);
    assert_non_null(c);
    assert_int_equal(c->time, S);
    assert_false(c->late);
    assert_int_equal(c->frame_id, a->frame_id);
    const trace_event *e = mu_find(&run.tr, TRACE_TX_END, 0, 1);
    assert_non_null(e);
    assert_int_equal(e->jam_start, S);
    assert_int_equal(e->time, S + 32 * BIT10);
    assert_int_equal(e->bits_on_wire, 128);
    const trace_event *b = mu_find(&run.tr, TRACE_BACKOFF, 0, 0);
    assert_non_null(b);
    assert_int_equal(b->time, CYCLE + 128 * BIT10);
    assert_true(b->backoff_ps == 0 || b->backoff_ps == 512 * BIT10);
    const trace_event *r = mu_find(&run.tr, TRACE_TX_START, 0, 2);
    assert_non_null(r);
    assert_int_equal(r->time, t2);
    assert_int_equal(r->frame_id, a->frame_id);
    assert_int_equal(r->attempt, 2);
    for (size_t k = 3; k < 6; k++) {
        const trace_event *x = mu_find(&run.tr, TRACE_TX_START, 0, k);
        assert_non_null(x);
        assert_int_equal(x->time, t2 + (sim_time)(k - 2) * CYCLE);
    }
    assert_null(mu_find(&run.tr, TRACE_TX_START, 0, 6));

    const mac_counters *k = &run.st[0].c;
    assert_int_equal(k->frames_transmitted_ok, 5);
    assert_int_equal(k->attempts, 6);
    assert_int_equal(k->collisions, 1);
    assert_int_equal(k->late_collisions, 0);
    assert_int_equal(k->single_collision_frames, 1);
    assert_int_equal(k->multiple_collision_frames, 0);
    assert_int_equal(k->frames_offered, k->frames_transmitted_ok + run.st[0].queue_len);
    /* The fault is not a transmission: a frame that met only the fault is
     * no collision event (collision_events.h), though its sender saw a
     * collision. */
    assert_int_equal(run.r.collisions, 0);
    assert_int_equal(run.r.collisions_seen, 1);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* Outage [c + 1000, c + 6000) bit times: frame 1 is 1000 bits in, more
 * than slotTime (512): a late collision, jam [S, S + 32), 1032 bits on the
 * wire; 10BASE5 retries it, at E + 96 = c + 6096. */
static void test_late_collision(void **state)
{
    (void)state;
    const sim_time S = CYCLE + 1000 * BIT10, E = CYCLE + 6000 * BIT10;
    scenario sc;
    one_station(&sc, S, E - S, E + IFG + 12250 * BIT10);
    mu_run run;
    mu_run_scenario(&sc, &run);
    const trace_event *c = mu_find(&run.tr, TRACE_COLLISION, 0, 0);
    assert_non_null(c);
    assert_int_equal(c->time, S);
    assert_true(c->late);
    const trace_event *e = mu_find(&run.tr, TRACE_TX_END, 0, 1);
    assert_non_null(e);
    assert_int_equal(e->time, S + 32 * BIT10);
    assert_int_equal(e->bits_on_wire, 1032);
    const trace_event *r = mu_find(&run.tr, TRACE_TX_START, 0, 2);
    assert_non_null(r);
    assert_int_equal(r->time, CYCLE + 6096 * BIT10);
    assert_int_equal(r->attempt, 2);
    assert_int_equal(run.st[0].c.late_collisions, 1);
    assert_int_equal(run.st[0].c.collisions, 1);
    assert_int_equal(run.st[0].c.frames_transmitted_ok, 2);
    assert_int_equal(run.st[0].c.frames_late_discarded, 0);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* One Poisson station, 512-byte frames at G = 0.3, outage [10 ms, 30 ms):
 * frames arrive during the outage and wait; nothing starts in
 * [S, E + IFG); the first start after S is exactly E + IFG. The station
 * was idle when the outage began (checked), so this is a frame that
 * became ready during the outage, not a retry. */
static void test_ready_during_outage(void **state)
{
    (void)state;
    const sim_time S = 10 * SIM_PS_PER_S / 1000, E = 30 * SIM_PS_PER_S / 1000;
    scenario sc;
    mu_scenario(&sc, "10base5", 1, NULL, TRAFFIC_POISSON, 512, 50 * SIM_PS_PER_S / 1000, 11);
    sc.traffic.dest = DEST_BROADCAST;
    sc.traffic.load = 0.3;
    sc.outage_start = S;
    sc.outage_duration = E - S;
    mu_run run;
    mu_run_scenario(&sc, &run);
    size_t during = 0;
    const trace_event *first_after = NULL;
    sim_time last_end_before = -1;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *ev = &run.tr.ev[i];
        if (ev->kind == TRACE_ARRIVAL && ev->time >= S && ev->time < E)
            during++;
        if (ev->kind == TRACE_TX_END && ev->time <= S)
            last_end_before = ev->time;
        if (ev->kind == TRACE_TX_START && ev->time >= S) {
            if (!first_after)
                first_after = ev;
            assert_true(ev->time >= E + IFG);
        }
    }
    print_message("%zu arrivals during the outage; last end before it at %lld ps\n", during,
                  (long long)last_end_before);
    assert_true(during >= 5); /* about 0.3 x 10 Mb/s / 4096 bits x 20 ms = 29 */
    assert_true(last_end_before < S - IFG); /* idle, its gap elapsed, at S */
    assert_null(mu_find(&run.tr, TRACE_COLLISION, 0, 0));
    assert_non_null(first_after);
    assert_int_equal(first_after->time, E + IFG);
    assert_int_equal(first_after->attempt, 1);
    assert_int_equal(run.st[0].c.frames_offered,
                     run.st[0].c.frames_transmitted_ok + run.st[0].queue_len);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

/* Eight Poisson stations (G = 0.6, 256-byte frames) on 500 m, outage
 * [20 ms, 35 ms) of a 60 ms run; and the same with ALOHA. */
static void check_many(const char *policy, uint64_t seed)
{
    const sim_time S = 20 * SIM_PS_PER_S / 1000, E = 35 * SIM_PS_PER_S / 1000;
    const uint32_t n = 8;
    double pos[8];
    for (uint32_t i = 0; i < n; i++)
        pos[i] = 500.0 * i / (n - 1);
    scenario sc;
    mu_scenario(&sc, "10base5", n, pos, TRAFFIC_POISSON, 256, 60 * SIM_PS_PER_S / 1000, seed);
    sc.traffic.load = 0.6;
    mu_set_policy(&sc, policy);
    sc.outage_start = S;
    sc.outage_duration = E - S;
    mu_run run;
    mu_run_scenario(&sc, &run);
    uint64_t ok = 0, coll = 0, starts = 0, late = 0, arrivals = 0, drops = 0, bad = 0;
    uint64_t ok_after = 0;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *ev = &run.tr.ev[i];
        switch (ev->kind) {
        case TRACE_TX_OK:
            ok++;
            ok_after += ev->time > E;
            break;
        case TRACE_COLLISION:
            coll++;
            late += ev->late;
            break;
        case TRACE_TX_START:
            starts += ev->tx_kind == TRACE_TX_FRAME;
            break;
        case TRACE_ARRIVAL:
            arrivals++;
            break;
        case TRACE_DROP:
            drops++;
            break;
        case TRACE_DELIVER:
            /* Signals reach the receiver within the cable's 2.17 us: a
             * frame on the wire during the outage is never received. */
            if (ev->ok)
                assert_true(ev->time <= S || ev->time > E);
            bad += !ev->ok;
            break;
        case TRACE_TX_END:
            /* Sent whole (no jam) while the medium was down: impossible
             * with collision detection. */
            if (ev->jam_start == SIM_TIME_NEVER && ev->tx_kind == TRACE_TX_FRAME &&
                strcmp(policy, "aloha") != 0)
                assert_false(ev->tx_start < E && S < ev->time);
            break;
        default:
            break;
        }
    }
    const results *r = &run.r;
    print_message("%s: ok %llu (after %llu), collisions %llu, bad %llu, queued %llu\n", policy,
                  (unsigned long long)ok, (unsigned long long)ok_after,
                  (unsigned long long)coll, (unsigned long long)bad,
                  (unsigned long long)r->frames_queued);
    assert_int_equal(r->frames_offered,
                     r->frames_ok + r->frames_aborted + r->frames_dropped + r->frames_queued);
    assert_int_equal(r->frames_offered, arrivals + drops);
    assert_int_equal(r->frames_ok, ok);
    assert_int_equal(r->attempts, starts);
    /* Without CD a failed delivery counts as the frame's collision. */
    assert_int_equal(r->collisions_seen, strcmp(policy, "aloha") == 0 ? bad : coll);
    assert_int_equal(r->late_collisions, late);
    assert_true(ok_after > 0); /* the backlog drains after the outage */
    if (strcmp(policy, "aloha") == 0)
        assert_true(bad > 0); /* frames sent into the outage, judged at the receiver */
    else
        assert_true(coll > 0);
    mu_run_free(&run);
    mu_scenario_free(&sc);
}

static void test_counters_add_up(void **state)
{
    (void)state;
    check_many("beb", 5);
    check_many("fixed", 6);
    check_many("aloha", 7);
}

static void test_scenario_key(void **state)
{
    (void)state;
    char err[512], warn[512];
    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, "outage", "100ms+50ms", err, sizeof err), 0);
    assert_int_equal(sc.outage_start, 100 * SIM_PS_PER_S / 1000);
    assert_int_equal(sc.outage_duration, 50 * SIM_PS_PER_S / 1000);
    char text[64];
    scenario_outage_text(&sc, text, sizeof text);
    assert_string_equal(text, "100ms+50ms");
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    static const char *const bad[] = {"100ms", "+50ms", "100ms+", "100ms+0", "x+1ms",
                                      "1ms+-2ms", "1ms+2ms+3ms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (scenario_set(&sc, "outage", bad[i], err, sizeof err) == 0)
            fail_msg("outage '%s' accepted", bad[i]);
        assert_non_null(strstr(err, "outage: "));
    }
    /* Inside the run: 900ms+100ms ends at the end of a 1 s run; +101ms not. */
    assert_int_equal(scenario_set(&sc, "outage", "900ms+100ms", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_int_equal(scenario_set(&sc, "outage", "900ms+101ms", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), -1);
    assert_string_equal(err, "outage: 900ms+101ms does not end within the run (duration 1s)");
    assert_int_equal(scenario_set(&sc, "outage", "1s+1ms", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), -1);
    scenario_free(&sc);
    scenario_defaults(&sc);
    scenario_outage_text(&sc, text, sizeof text);
    assert_string_equal(text, "");
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collision_then_defer),
        cmocka_unit_test(test_late_collision),
        cmocka_unit_test(test_ready_during_outage),
        cmocka_unit_test(test_counters_add_up),
        cmocka_unit_test(test_scenario_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
