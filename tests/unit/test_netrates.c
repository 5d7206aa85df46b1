/* test_netrates.c - segments at different rates (stations/MODEL.md,
 * "Segments at different rates"): a [segment]'s `phy` and a switch
 * group's, what they are refused with (a repeater or uplink across
 * rates, a group's phy off a switch), the budget judged at each domain's
 * own rate, and the engine: store and forward from a 100 Mb/s link to a
 * 10 Mb/s one from hand-computed picoseconds, a queue building at the
 * slow port with an exact drop count, and each station backing off in its
 * own segment's slotTime.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "engine.h"
#include "netreport.h"
#include "network.h"
#include "scenario.h"
#include "scenario_text.h"
#include "sweep.h"



/* ---- the model: keys, defaults, refusals ---- */

static void test_segment_phy(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10base5\n"
                 "[segment fast]\ntype = hub\nphy = 100BASE-TX\n"
                 "[segment slow]\ntype = coax\n"
                 "[bridge b]\nports = fast, slow@0\n"
                 "[group a]\nstations = 2\nsegment = fast\n"
                 "[group c]\nstations = 2\nsegment = slow\n");
    const net_segment *fast = &sc.net.segments[0], *slow = &sc.net.segments[1];
    /* its own profile: rate, slot, and the defaults of a 100BASE-TX hub */
    assert_int_equal(fast->phy.rate_bps, 100000000);
    assert_string_equal(fast->phy.name, "100basetx");
    assert_int_equal(fast->hub_bits, 46);  /* Class II (Clause 27) */
    assert_int_equal(fast->hub_class, 2);
    assert_double_equal(fast->length_m, 100, 0);
    assert_double_equal(fast->velocity_c, 0.585, 0);
    /* the other: the scenario's */
    assert_int_equal(slow->phy.rate_bps, 10000000);
    assert_string_equal(slow->phy.name, "10base5");
    assert_double_equal(slow->length_m, 500, 0);
    assert_int_equal(network_domain_rate(&sc.net, fast->domain), 100000000);
    assert_int_equal(network_domain_rate(&sc.net, slow->domain), 10000000);
    scenario_free(&sc);
    /* a segment without `phy` is the scenario's PHY, overrides included */
    scn_load_ok(&sc, "phy = 10baset\nslot-bits = 1024\n[segment h]\ntype = hub\n"
                 "[group a]\nstations = 2\nsegment = h\n");
    assert_int_equal(sc.net.segments[0].phy.slot_bits, 1024);
    assert_null(sc.net.segments[0].phy_own);
    scenario_free(&sc);
}

static void test_refusals(void **state)
{
    (void)state;
    /* a repeater repeats bits at one rate */
    scn_refused("phy = 10base5\n"                   /* 1 */
            "[segment fast]\n"                  /* 2 */
            "type = hub\n"                      /* 3 */
            "phy = 100basetx\n"                 /* 4 */
            "[segment slow]\n"                  /* 5 */
            "type = coax\n"                     /* 6 */
            "[repeater r]\n"                    /* 7 */
            "ports = fast, slow@0\n"            /* 8 */
            "[group a]\nstations = 2\nsegment = slow\n",
            ":8: [repeater r] joins segments at different rates: fast at 100 Mb/s (100basetx), "
            "slow at 10 Mb/s (10base5); a repeater repeats bits at one rate (802.3 Clause 9, "
            "Clause 27): join them with a [bridge]");
    /* ... and so does a hub's uplink */
    scn_refused("phy = 10baset\n"                   /* 1 */
            "[segment lab]\n"                   /* 2 */
            "type = hub\n"                      /* 3 */
            "uplink = gig@5\n"                  /* 4 */
            "[segment gig]\n"                   /* 5 */
            "type = hub\n"                      /* 6 */
            "phy = 1000baset\n"                 /* 7 */
            "[group a]\nstations = 2\nsegment = lab\n",
            ":4: [segment lab] uplink: joins segments at different rates: lab at 10 Mb/s "
            "(10baset), gig at 1 Gb/s (1000baset); a repeater repeats bits at one rate (802.3 "
            "Clause 9, Clause 27): join them with a [bridge]");
    /* one rate, but the scenario's overrides make another slotTime */
    scn_refused("phy = 10baset\nslot-bits = 1024\n"
            "[segment a]\ntype = hub\n"
            "[segment b]\ntype = coax\nphy = 10base5\n"
            "[repeater r]\nports = a, b@0\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":9: [repeater r] joins segments whose MAC timing differs: a (10baset) and b "
            "(10base5) at 10 Mb/s have different slot, gap, jam, preamble or minimum frame (a "
            "segment's `phy` is the profile as built in; the scenario's overrides are its own "
            "PHY's)");
    scn_refused("[segment a]\ntype = hub\nphy = 10basefl\n",
            ":3: [segment a] phy: unknown profile '10basefl' (10base5, 10base2, 10baset, "
            "100basetx, 1000baset)");
    scn_refused("[segment a]\ntype = hub\nrate = 100M\n",
            ":3: [segment a] rate: a segment's rate comes with its PHY: give its profile (e.g. "
            "phy = 100basetx), which sets the slot time, gap and cable too");
    /* a group's phy: only for its links of a switch */
    scn_refused("[segment a]\ntype = hub\n[group g]\nstations = 2\nsegment = a\nphy = 100basetx\n",
            ":6: group g: phy: a group's phy sets its stations' links with topology = switch; in a "
            "network of segments, give the [segment] its phy");
    scn_refused("[group g]\nstations = 2\nphy = 100basetx\n",
            ":3: group g: phy: a group's phy sets its stations' links with topology = switch; one "
            "bus or star runs at one rate (the scenario's phy)");
}

/* Each domain judged by the rules of its own rate: two Class II
 * 100BASE-TX hubs 6 m apart are over Clause 29's 512 bit times (the
 * worked example of MODEL.md: 513.07), while a 10BASE5 coax bridged to
 * them keeps Clause 13 (at 100 Mb/s coax would break the rules). */
static void test_budget_per_domain(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10base5\n"
                 "[segment h1]\ntype = hub\nphy = 100basetx\nuplink = h2@6\n"
                 "[segment h2]\ntype = hub\nphy = 100basetx\n"
                 "[segment slow]\ntype = coax\n"
                 "[bridge b]\nports = h1, slow@0\n"
                 "[group a]\nstations = 1\nsegment = h1\n"
                 "[group c]\nstations = 1\nsegment = h2\n"
                 "[group d]\nstations = 2\nsegment = slow\n");
    assert_non_null(strstr(scn_warn, "network: domain h1 is over 802.3's budget: path delay value "
                                 "513.07 > 512 bit times"));
    assert_null(strstr(scn_warn, "domain slow"));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(netreport_write_check(f, &sc), 0);
    fclose(f);
    /* a rules line per domain, each its own rate's */
    const char *h1 = strstr(buf, "  domain            h1: h1, h2\n  rules             Clause 29 "
                                 "(100 Mb/s)");
    const char *slow = strstr(buf, "  domain            slow: slow\n  rules             Clause 13 "
                                   "(10 Mb/s)");
    if (h1 == NULL || slow == NULL)
        fail_msg("%s", buf);
    assert_non_null(strstr(buf, "segment           h1: hub, drops of 100 m, 0.585c, 46 bit times "
                                "through it (Class II), 1 station, 100basetx at 100 Mb/s\n"));
    assert_non_null(strstr(buf, "segment           slow: coax, 500 m, 0.77c, probe at 0 m, 2 "
                                "stations, 10base5 at 10 Mb/s\n"));
    free(buf);
    scenario_free(&sc);
}

/* The sweep's budget columns are the worst domain judged at its own rate,
 * the very figures of run's JSON for that domain: a 10BASE-T hub bridged
 * to a 100BASE-TX hub, drops of 100 m. The 100 Mb/s domain is the worse:
 * Table 29-3's 2 x 100 m x 1.112 + 2 x 50 (DTEs) + 92 (Class II) =
 * 414.40 bit times; the model's 2 x (200 m at 0.585c + 46 bits) = 320.08
 * bit times. (Judged at the first domain's 10 Mb/s, the sweep showed the
 * 10BASE-T hub's 202.85 and a round trip of 114.81.) */
static void test_sweep_budget_mixed_rates(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\n"
                 "[segment slow]\ntype = hub\nlength = 100\n"
                 "[segment fast]\ntype = hub\nphy = 100basetx\nlength = 100\n"
                 "[bridge b]\nports = slow, fast\n"
                 "[group a]\nstations = 2\nsegment = slow\n"
                 "[group c]\nstations = 2\nsegment = fast\n");
    double v[8];
    char verdict[600];
    assert_int_equal(sweep_budget_count(), 4);
    sweep_budget_values(&sc, v, verdict, sizeof verdict);
    assert_string_equal(sweep_budget_name(0), "pdv_bits");
    assert_double_equal(v[0], 2 * 100 * 1.112 + 2 * 50 + 92, 1e-9);
    assert_string_equal(sweep_budget_name(1), "pdv_limit_bits");
    assert_double_equal(v[1], 512, 0);
    assert_true(isnan(v[2])); /* no path variability at 100 Mb/s */
    assert_string_equal(sweep_budget_name(3), "model_round_trip_bits");
    assert_double_equal(v[3], 2 * (200 / (0.585 * 299792458.0) * 1e8 + 46), 1e-6);
    assert_string_equal(verdict, "within");
    /* the same as run's JSON says of domain fast */
    json_t *net = netreport_json(&sc);
    assert_non_null(net);
    json_t *fast = json_array_get(json_object_get(net, "domains"), 1);
    assert_string_equal(json_string_value(json_object_get(fast, "name")), "fast");
    assert_true(json_real_value(json_object_get(fast, "pdv_bits")) == v[0]);
    assert_true(json_real_value(json_object_get(fast, "model_round_trip_bits")) == v[3]);
    json_decref(net);
    scenario_free(&sc);
}

/* ---- the engine ---- */

/* One 100-byte frame from a 100 Mb/s link through the bridge onto a
 * 10 Mb/s link: it arrives after its 864 bits at 10 ns and the first
 * cable, leaves the latency later, and takes its 864 bits at 100 ns and
 * the second cable to arrive whole. */
static void test_store_and_forward_across_rates(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 5ms\n"
                 "[segment l1]\ntype = link\nduplex = full\nlength = 100\nphy = 100basetx\n"
                 "[segment l2]\ntype = link\nduplex = full\nlength = 60\n"
                 "[bridge sw]\nports = l1, l2\nlatency = 10us\n"
                 "[group a]\nstations = 1\nsegment = l1\ntraffic = batch\nbatch = 1\n"
                 "frame-size = 100\ndest = server:2\n"
                 "[group b]\nstations = 1\nsegment = l2\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    const int64_t bits = 64 + 800;                  /* preamble and SFD, 100 bytes */
    const int64_t fast = bits * 10000, slow = bits * 100000; /* 8.64 us, 86.4 us */
    int64_t at_bridge = fast + scn_cable_ps(100, 0.585);         /* 9 210 195 ps */
    int64_t expect = at_bridge + 10000000 + slow + scn_cable_ps(60, 0.585);
    assert_int_equal(expect, 8640000 + 570195 + 10000000 + 86400000 + 342117);
    size_t delivered = 0, started = 0;
    for (size_t i = 0; i < scn_n; i++) {
        if (scn_ev[i].kind == TRACE_TX_END && scn_ev[i].station == 0) {
            /* the sender's transmission: at 100 Mb/s */
            assert_int_equal(scn_ev[i].tx_end - scn_ev[i].tx_start, fast);
            started++;
        }
        if (scn_ev[i].kind == TRACE_DELIVER) {
            delivered++;
            assert_true(scn_ev[i].ok);
            assert_int_equal(scn_ev[i].time, expect);
            assert_int_equal(scn_ev[i].tx_start, expect - slow); /* its span at the receiver */
        }
    }
    assert_int_equal(started, 1);
    assert_int_equal(delivered, 1);
    assert_int_equal(r.frames_delivered, 1);
    const bridge_port_result *out = scn_port(&r, "sw", "l2");
    assert_int_equal(out->frames_sent, 1);
    /* queued at its forwarding, sent 86.4 us later */
    assert_double_equal(out->queue_delay_mean_us, 86.4, 1e-9);
    /* goodput stays exact in bits/s; throughput is of the scenario's rate */
    engine_destroy(e);
    scenario_free(&sc);
}

/* 15 frames of 1518 bytes back to back at 100 Mb/s (a cycle of 12 304
 * bits, 123.04 us) into a 10 Mb/s port of 4 frames (its cycle 1230.4 us,
 * exactly 10 of theirs). While the port sends frame 1 (1220.8 us) frames
 * 2 to 10 arrive: 2, 3, 4 fill the queue, 5 to 10 are dropped; frame 1
 * done, frame 11 arrives 9.6 us later and is queued; 12 to 15 arrive
 * while frame 2 is sent, the queue full: dropped. 5 sent, 10 dropped. */
static void test_queue_at_slow_port(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 20ms\n"
                 "[segment fast]\ntype = link\nduplex = full\nphy = 100basetx\n"
                 "[segment slow]\ntype = link\nduplex = full\n"
                 "[bridge sw]\nports = fast, slow\nqueue = 4\n"
                 "[group a]\nstations = 1\nsegment = fast\ntraffic = batch\nbatch = 15\n"
                 "frame-size = 1518\ndest = server:2\n"
                 "[group b]\nstations = 1\nsegment = slow\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    const bridge_port_result *p = scn_port(&r, "sw", "slow");
    assert_int_equal(p->frames_dropped, 10);
    assert_int_equal(p->frames_queued, 5);
    assert_int_equal(p->frames_sent, 5);
    assert_int_equal(scn_port(&r, "sw", "fast")->frames_received, 15);
    assert_int_equal(r.frames_delivered, 5);
    assert_int_equal(r.frames_corrupted, 10);
    /* the verdicts: 5 received whole, 10 lost at the full queue */
    uint64_t ok = 0, lost = 0;
    for (size_t i = 0; i < scn_n; i++)
        if (scn_ev[i].kind == TRACE_DELIVER)
            scn_ev[i].ok ? ok++ : lost++;
    assert_int_equal(ok, 5);
    assert_int_equal(lost, 10);
    /* per-domain throughput against each domain's own rate: the slow link
     * carried 5 frames of 12 144 bits in 20 ms of 2 x 10 Mb/s, the fast
     * one 15 of 2 x 100 Mb/s (full duplex: both directions) */
    for (uint32_t d = 0; d < r.n_domains; d++) {
        double want = strcmp(r.domains[d].name, "slow") == 0 ? 5 * 12144.0 / (2 * 10e6 * 0.02)
                                                              : 15 * 12144.0 / (2 * 100e6 * 0.02);
        assert_double_equal(r.domains[d].throughput, want, 1e-12);
    }
    /* the run's throughput: delivered bits over the scenario's rate */
    assert_double_equal(r.throughput, 5 * 12144.0 / (10e6 * 0.02), 1e-9);
    engine_destroy(e);
    scenario_free(&sc);
}

/* Saturated stations on a half-duplex 100 Mb/s hub and on a 10 Mb/s coax,
 * bridged: every backoff is whole slots of its own segment's slotTime,
 * 512 bit times: 5.12 us on the hub, 51.2 us on the coax; and a station
 * sends again no earlier than its jam's end plus that wait. */
static void test_backoff_in_own_slots(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10base5\nduration = 3ms\nframe-size = 64\n"
                 "[segment fast]\ntype = hub\nphy = 100basetx\n"
                 "[segment slow]\ntype = coax\n"
                 "[bridge b]\nports = fast, slow@0\n"
                 "[group f]\nstations = 3\nsegment = fast\n"
                 "[group s]\nstations = 3\nsegment = slow\n");
    results r;
    engine *e = scn_run(&sc, &r);
    uint64_t seen[2] = {0, 0}, nonzero[2] = {0, 0};
    for (size_t i = 0; i < scn_n; i++) {
        if (scn_ev[i].kind != TRACE_BACKOFF || scn_ev[i].station >= 6)
            continue;
        int fast = scn_ev[i].station < 3;
        int64_t slot = fast ? 5120000 : 51200000;
        assert_int_equal(scn_ev[i].backoff_ps, (int64_t)scn_ev[i].backoff_slots * slot);
        seen[!fast]++;
        nonzero[!fast] += scn_ev[i].backoff_slots > 0;
        /* its next attempt: not before the wait is over */
        for (size_t j = i + 1; j < scn_n; j++)
            if (scn_ev[j].kind == TRACE_TX_START && scn_ev[j].station == scn_ev[i].station) {
                assert_true(scn_ev[j].time >= scn_ev[i].time + scn_ev[i].backoff_ps);
                break;
            }
    }
    assert_true(nonzero[0] > 10);
    assert_true(nonzero[1] > 10);
    (void)seen;
    engine_destroy(e);
    scenario_free(&sc);
}

/* A 10/100 switch: a server on a 100 Mb/s link, clients at 10 Mb/s. */
static void test_switch_server_port(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\ntopology = switch\nduplex = full\nwarmup = 10ms\n"
                 "duration = 60ms\n"
                 "[group server]\nstations = 1\nphy = 100basetx\ntraffic = none\n"
                 "[group clients]\nstations = 3\nframe-size = 1518\ndest = group:server\n");
    assert_int_equal(sc.net.n_segments, 4);
    assert_int_equal(sc.net.segments[0].phy.rate_bps, 100000000);
    for (uint32_t i = 1; i < 4; i++)
        assert_int_equal(sc.net.segments[i].phy.rate_bps, 10000000);
    results r;
    engine *e = scn_run(&sc, &r);
    /* three saturated 10 Mb/s clients into one 100 Mb/s server link: no
     * queue builds, nothing is lost; each client delivers 1518 / 1538 of
     * its link */
    assert_int_equal(scn_port(&r, "switch", "link1")->frames_dropped, 0);
    assert_int_equal(r.frames_corrupted, 0);
    double one = 1518.0 / 1538.0;
    /* within a frame per client of it (a frame is 0.024 of 50 ms) */
    assert_double_equal(r.throughput, 3 * one, 0.075);
    /* the server's port sends each frame in 122.08 us (12 208 bits at
     * 10 ns); the clients, in step, hand it three at once, so a frame
     * waits for at most two others (123.04 us each, with the gap): far
     * below one frame time of a 10 Mb/s port (1220.8 us) */
    const bridge_port_result *srv = scn_port(&r, "switch", "link1");
    assert_true(srv->frames_sent > 100);
    assert_true(srv->queue_delay_mean_us >= 122.08 - 1e-9);
    assert_true(srv->queue_delay_p99_us <= 122.08 + 2 * 123.04 + 1e-6 + 366.0 / 32);
    engine_destroy(e);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segment_phy),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_budget_per_domain),
        cmocka_unit_test(test_sweep_budget_mixed_rates),
        cmocka_unit_test(test_store_and_forward_across_rates),
        cmocka_unit_test(test_queue_at_slow_port),
        cmocka_unit_test(test_backoff_in_own_slots),
        cmocka_unit_test(test_switch_server_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
