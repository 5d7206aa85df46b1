/* test_bridges.c - bridges, links and full duplex (stations/MODEL.md,
 * "Bridges and switches"): the [bridge] section and `type = link`, the
 * `topology = switch` shorthand, the collision domains, every refusal with
 * its section and line; then the engine: 802.1D learning, filtering,
 * flooding and ageing (bridge.c on its own), store and forward from
 * hand-computed times, queue drops counted exactly, full duplex at its
 * exact rate, both ways at once on one link, half-duplex collisions
 * between a station and its switch port, and per-domain sums that equal
 * the run's totals.
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

#include "bridge.h"
#include "engine.h"
#include "network.h"
#include "output.h"
#include "scenario.h"
#include "scenario_text.h"
#include <jansson.h>


/* Two departments (hubs) and a server behind a full-duplex link. */
static const char *TWO =
    "phy = 10baset\n"          /* 1 */
    "[segment lab]\n"          /* 2 */
    "type = hub\n"             /* 3 */
    "[segment office]\n"       /* 4 */
    "type = coax\n"            /* 5 */
    "length = 200\n"           /* 6 */
    "[segment up]\n"           /* 7 */
    "type = link\n"            /* 8 */
    "length = 50\n"            /* 9 */
    "duplex = full\n"          /* 10 */
    "[segment server]\n"       /* 11 */
    "type = hub\n"             /* 12 */
    "[repeater r]\n"           /* 13 */
    "ports = lab, server\n"    /* 14 */
    "[bridge sw1]\n"           /* 15 */
    "ports = lab, office@120, up\n" /* 16 */
    "queue = 32\n"             /* 17 */
    "latency = 10us\n"         /* 18 */
    "[bridge sw2]\n"           /* 19 */
    "ports = up, office@20\n"  /* 20 */
    "[group pcs]\n"
    "stations = 4\n"
    "segment = lab\n"
    "[group clerks]\n"
    "stations = 3\n"
    "segment = office\n"
    "[group srv]\n"
    "stations = 1\n"
    "segment = server\n";

static void test_sections_and_domains(void **state)
{
    (void)state;
    /* a loop through sw2 (office..up..office): refused, see below; here
     * sw2 is on up only with office, which sw1 already joins: a loop */
    scenario sc;
    scn_refused(TWO, ":20: [bridge sw2] ports: a loop: segment office is already joined to up "
                 "through other bridges or repeaters; csmacd does not model the spanning tree "
                 "(802.1D), so bridges and repeaters must form a tree");
    char text[2048];
    snprintf(text, sizeof text, "%s", TWO);
    char *p = strstr(text, "ports = up, office@20");
    memcpy(p, "ports = up        \n", 19); /* one port: refused too */
    p[19] = '#';
    scn_refused(text, ":20: [bridge sw2] ports: a bridge needs at least two ports (one per segment "
                  "it joins)");
    /* Without sw2: lab and server one domain (the repeater), office, up. */
    snprintf(text, sizeof text, "%.*s", (int)(strstr(TWO, "[bridge sw2]") - TWO), TWO);
    strcat(text, "[group pcs]\nstations = 4\nsegment = lab\n[group clerks]\nstations = 3\n"
                 "segment = office\n[group srv]\nstations = 1\nsegment = server\n"
                 "[segment far]\ntype = link\n[bridge sw2]\nports = up, far\n"
                 "[group lone]\nstations = 1\nsegment = far\n");
    scn_load_ok(&sc, text);
    const network *net = &sc.net;
    assert_int_equal(net->n_bridges, 2);
    assert_int_equal(net->n_domains, 4);
    assert_int_equal(net->segments[0].domain, 0); /* lab */
    assert_int_equal(net->segments[1].domain, 1); /* office */
    assert_int_equal(net->segments[2].domain, 2); /* up */
    assert_int_equal(net->segments[3].domain, 0); /* server, through r */
    assert_int_equal(net->segments[4].domain, 3); /* far */
    assert_int_equal(net->domain_first[3], 4);
    const net_bridge *b = &net->bridges[0];
    assert_string_equal(b->name, "sw1");
    assert_int_equal(b->n_ports, 3);
    assert_int_equal(b->queue, 32);
    assert_int_equal(b->latency_ps, 10000000);
    assert_true(b->ageing_ps == 300 * (int64_t)1000000000000); /* 802.1D's default */
    assert_true(b->ports[0].metres == 100); /* a hub port: the hub's drop */
    assert_true(b->ports[1].metres == 120);
    /* up's two ends are ports: sw1's at 0, sw2's at 50 m */
    assert_true(b->ports[2].metres == 0);
    assert_true(net->bridges[1].ports[0].metres == 50);
    /* far: station 9 at 0, sw2's port at the far end (100 m by default) */
    assert_true(net->bridges[1].ports[1].metres == 100);
    assert_true(scenario_station_metres(&sc, 8) == 0);
    assert_true(net->segments[2].full_duplex);
    assert_false(net->segments[4].full_duplex);
    scenario_free(&sc);
}

static void test_switch_shorthand(void **state)
{
    (void)state;
    scenario sc;
    char e[512], w[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, "topology", "switch", e, sizeof e), 0);
    assert_int_equal(scenario_set(&sc, "duplex", "full", e, sizeof e), 0);
    assert_int_equal(scenario_set(&sc, "stations", "16", e, sizeof e), 0);
    if (scenario_finish(&sc, e, sizeof e, w, sizeof w) != 0)
        fail_msg("%s", e);
    const network *net = &sc.net;
    assert_true(net->switched);
    assert_int_equal(net->n_segments, 16);
    assert_int_equal(net->n_bridges, 1);
    assert_int_equal(net->n_domains, 16);
    assert_string_equal(net->bridges[0].name, "switch");
    assert_int_equal(net->bridges[0].n_ports, 16);
    for (uint32_t i = 0; i < 16; i++) {
        assert_int_equal(scenario_station_segment(&sc, i), i);
        assert_int_equal(net->segments[i].type, NET_SEG_LINK);
        assert_true(net->segments[i].full_duplex);
        assert_int_equal(net->segments[i].n_stations, 1);
        assert_true(scenario_station_metres(&sc, i) == 0);
        assert_true(net->bridges[0].ports[i].metres == 100);
    }
    assert_string_equal(net->segments[15].name, "link16");
    /* finishing again (sweeps, the TUI) rebuilds it the same */
    assert_int_equal(scenario_set(&sc, "stations", "4", e, sizeof e), 0);
    assert_int_equal(scenario_finish(&sc, e, sizeof e, w, sizeof w), 0);
    assert_int_equal(sc.net.n_segments, 4);
    /* and back to a bus: no network; half duplex is what a bus is (a
     * sweep sets it beside topology = star), full is refused */
    assert_int_equal(scenario_set(&sc, "topology", "bus", e, sizeof e), 0);
    assert_int_equal(scenario_set(&sc, "duplex", "half", e, sizeof e), 0);
    if (scenario_finish(&sc, e, sizeof e, w, sizeof w) != 0)
        fail_msg("%s", e);
    assert_int_equal(sc.net.n_segments, 0);
    assert_int_equal(scenario_set(&sc, "duplex", "full", e, sizeof e), 0);
    assert_int_not_equal(scenario_finish(&sc, e, sizeof e, w, sizeof w), 0);
    assert_string_equal(e, "duplex: full only with topology = switch (a bus or a hub is "
                           "shared, hence half duplex)");
    scenario_free(&sc);
    /* a network of segments: its links give their own */
    scn_refused("stations = 2\nduplex = half\n[segment a]\ntype = link\n",
            "duplex: only with topology = switch (in a network of segments, give each link "
            "its own duplex)");
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, "topology", "switch", e, sizeof e), 0);
    assert_int_equal(scenario_set(&sc, "stations", "65", e, sizeof e), 0);
    assert_int_not_equal(scenario_finish(&sc, e, sizeof e, w, sizeof w), 0);
    assert_string_equal(e, "topology: a switch has at most 64 ports (stations: 65)");
    scenario_free(&sc);
}

static void test_refusals(void **state)
{
    (void)state;
    scn_refused("[segment a]\ntype = hub\nduplex = full\n[segment b]\ntype = link\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":3: [segment a] duplex: full duplex needs a link of two ends (type = link); a hub "
            "is shared, hence half duplex");
    scn_refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":1: [segment a] a link has exactly two ends, a station or a port each; this one "
            "has 3 (2 stations and 1 port)");
    scn_refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 1\nsegment = b\n",
            ":1: [segment a] a link has exactly two ends, a station or a port each; this one "
            "has 1 (0 stations and 1 port)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[bridge y]\nports = b, a\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":8: [bridge y] ports: a loop: segment a is already joined to b through other "
            "bridges or repeaters; csmacd does not model the spanning tree (802.1D), so "
            "bridges and repeaters must form a tree");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[repeater r]\nports = a, b\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":8: [bridge x] ports: a loop: segment b is already joined to a through other "
            "bridges or repeaters; csmacd does not model the spanning tree (802.1D), so "
            "bridges and repeaters must form a tree");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, a\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: two ports on segment a (a bridge joins different segments)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, c\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: there is no [segment c]");
    scn_refused("[segment a]\ntype = coax\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: a port on coax segment a needs its position (a@METRES)");
    scn_refused("[segment a]\ntype = coax\n[segment b]\ntype = hub\n[bridge x]\nports = a@600, b\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: a@600 is beyond the end of the 500 m cable");
    scn_refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n[bridge x]\nports = a@5, b\n"
            "[group g]\nstations = 1\nsegment = a\n",
            ":6: [bridge x] ports: a is a link: a port takes one of its two ends (write a, "
            "without @METRES)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "queue = 0\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] queue: 0 is out of range (1 to 1000000)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "ageing = 0s\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] ageing: must be longer than 0 (802.1D's default is 300s)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "speed = 3\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] unknown key 'speed' (ports, queue, latency, ageing)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":3: [segment b] is not joined to segment a: no repeater, uplink or bridge links "
            "them (a network is connected)");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge a]\nports = a, b\n",
            ":5: [bridge a] the name is taken by [segment a] (line 1): segments, repeaters, "
            "bridges and groups share one namespace");
    scn_refused("[segment a]\ntype = hub\n[segment b]\ntype = link\nduplex = full\n"
            "[repeater r]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n"
            "[group h]\nstations = 1\nsegment = b\n",
            ":7: [repeater r] ports: a repeater's port is half duplex, and the link it is on "
            "is full duplex");
    scn_refused("topology = switch\n[segment a]\ntype = hub\n[group g]\nstations = 2\nsegment = a\n",
            "topology: switch builds its own network (a link per station to one bridge); with "
            "[segment] sections, write the [bridge] yourself");
    scn_refused("topology = switch\n[group g]\nstations = 2\ndrop = 5\n",
            "group g: with topology = switch every station sits alone on its link (no segment, "
            "positions, span or drop)");
}


/* ---- the bridge on its own: learning, filtering, flooding, ageing ---- */

static void test_bridge_rules(void **state)
{
    (void)state;
    bridge *b = NULL;
    assert_int_equal(bridge_create(3, 4, 1000, &b), 0);
    uint32_t out = 0;
    /* nothing known: flood; the source is learned on its port */
    assert_int_equal(bridge_receive(b, 0, 0, 1, 0, &out), BRIDGE_FLOOD);
    assert_int_equal(bridge_lookup(b, 0, 0), 0);
    assert_int_equal(bridge_lookup(b, 1, 0), BRIDGE_UNKNOWN);
    /* known elsewhere: forward to its port */
    assert_int_equal(bridge_receive(b, 1, 1, 0, 10, &out), BRIDGE_FORWARD);
    assert_int_equal(out, 0);
    /* known on the arriving port: filter */
    assert_int_equal(bridge_receive(b, 0, 2, 0, 20, &out), BRIDGE_FILTER);
    /* a broadcast floods, known or not */
    assert_int_equal(bridge_receive(b, 1, 1, BRIDGE_BROADCAST, 30, &out), BRIDGE_FLOOD);
    /* ageing: station 0 was last heard at 0; gone at 0 + 1000 (7.9.2) */
    assert_int_equal(bridge_lookup(b, 0, 999), 0);
    assert_int_equal(bridge_lookup(b, 0, 1000), BRIDGE_UNKNOWN);
    assert_int_equal(bridge_receive(b, 1, 3, 0, 1000, &out), BRIDGE_FLOOD);
    /* a station heard again is learned anew, on its new port */
    assert_int_equal(bridge_receive(b, 2, 0, 3, 1100, &out), BRIDGE_FORWARD);
    assert_int_equal(out, 1);
    assert_int_equal(bridge_lookup(b, 0, 1100), 2);
    assert_int_equal(bridge_receive(b, 1, 1, 0, 1200, &out), BRIDGE_FORWARD);
    assert_int_equal(out, 2);
    const bridge_port_counters *c0 = bridge_counters(b, 0), *c1 = bridge_counters(b, 1);
    assert_int_equal(c0->frames_received, 2);
    assert_int_equal(c0->frames_flooded, 1);
    assert_int_equal(c0->frames_filtered, 1);
    assert_int_equal(c1->frames_received, 4);
    assert_int_equal(c1->frames_forwarded, 2);
    assert_int_equal(c1->frames_flooded, 2);
    /* queue delays: entry to the end of the transmission; a copy given up,
     * or whose entry is not known, has none */
    for (int i = 0; i < 4; i++)
        bridge_queued(b, 0);
    bridge_done(b, 0, 100, 300, 1);
    bridge_done(b, 0, 150, 400, 0);
    bridge_done(b, 0, SIM_TIME_NEVER, 450, 1);
    bridge_done(b, 0, 200, 500, 1);
    assert_int_equal(bridge_counters(b, 0)->frames_queued, 4);
    assert_int_equal(bridge_counters(b, 0)->frames_sent, 3);
    assert_int_equal(bridge_counters(b, 0)->frames_lost, 1);
    uint64_t n = 0;
    double mean = 0, p99 = 0;
    bridge_queue_delay(b, 0, &n, &mean, &p99);
    assert_int_equal(n, 2);
    assert_double_equal(mean, 250e-6, 1e-12); /* (200 + 300) / 2 ps, in us */
    assert_true(p99 <= 300e-6 && p99 >= 300e-6 * 31 / 32);
    bridge_mark(b);
    bridge_queue_delay(b, 0, &n, &mean, &p99);
    assert_int_equal(n, 0);
    assert_true(isnan(mean) && isnan(p99));
    bridge_destroy(b);
}

/* ---- runs ---- */

/* One frame through a full-duplex switch with a latency: it leaves the
 * bridge after its last bit has arrived (store and forward) and the
 * latency, and reaches its destination then, whole. */
static void test_store_and_forward(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 5ms\n"
                 "[segment l1]\ntype = link\nduplex = full\nlength = 100\n"
                 "[segment l2]\ntype = link\nduplex = full\nlength = 60\n"
                 "[bridge sw]\nports = l1, l2\nlatency = 10us\n"
                 "[group a]\nstations = 1\nsegment = l1\ntraffic = batch\nbatch = 1\n"
                 "frame-size = 100\ndest = server:2\n"
                 "[group b]\nstations = 1\nsegment = l2\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    const int64_t bit = 100000, wire = (64 + 800) * bit; /* preamble and SFD, 100 bytes */
    int64_t expect = wire + scn_cable_ps(100, 0.585) + 10000000 + wire + scn_cable_ps(60, 0.585);
    size_t delivered = 0;
    for (size_t i = 0; i < scn_n; i++)
        if (scn_ev[i].kind == TRACE_DELIVER) {
            delivered++;
            assert_true(scn_ev[i].ok);
            assert_int_equal(scn_ev[i].station, 0);
            assert_int_equal(scn_ev[i].dest, 1);
            assert_int_equal(scn_ev[i].time, expect);
            assert_int_equal(scn_ev[i].tx_start, expect - wire); /* its span at the receiver */
        }
    assert_int_equal(delivered, 1);
    /* the delay runs to the delivery */
    assert_double_equal(r.mean_delay_us, (double)expect / 1e6, 1e-9);
    assert_int_equal(r.frames_delivered, 1);
    const bridge_port_result *in = scn_port(&r, "sw", "l1"), *out = scn_port(&r, "sw", "l2");
    assert_int_equal(in->frames_received, 1);
    assert_int_equal(in->frames_flooded, 1); /* b never spoke: unknown */
    assert_int_equal(out->frames_queued, 1);
    assert_int_equal(out->frames_sent, 1);
    /* queued at its forwarding, done at the end of its transmission */
    assert_double_equal(out->queue_delay_mean_us, (double)wire / 1e6, 1e-9);
    /* The bridge's trace: learned and flooded when the last bit is in,
     * sent by port l2 (idle) after the latency, the frame as a sent it. */
    const int64_t in_at = wire + scn_cable_ps(100, 0.585), out_at = in_at + 10000000;
    const trace_kind want[] = {TRACE_BRIDGE_LEARN, TRACE_BRIDGE_FLOOD, TRACE_BRIDGE_TX_START,
                               TRACE_BRIDGE_TX_END};
    size_t k = 0;
    for (size_t i = 0; i < scn_n; i++) {
        if (scn_ev[i].kind < TRACE_BRIDGE_LEARN || scn_ev[i].kind > TRACE_BRIDGE_ABORT)
            continue;
        const trace_event *ev = &scn_ev[i];
        const trace_bridge *b = &scn_br[i];
        assert_true(k < 4);
        assert_int_equal(ev->kind, want[k]);
        assert_int_equal(ev->station, 0); /* the frame's sender */
        assert_int_equal(ev->dest, 1);
        assert_int_equal(ev->frame_id, 0);
        assert_int_equal(ev->frame_bytes, 100);
        assert_int_equal(b->bridge, 0);
        if (k < 2) { /* on l1, where it came in */
            assert_int_equal(ev->time, in_at);
            assert_int_equal(ev->segment, 0);
            assert_int_equal(b->port, 0);
        } else { /* out by l2 */
            assert_int_equal(ev->segment, 1);
            assert_int_equal(b->port, 1);
            assert_true(b->flooded);
            assert_int_equal(b->entered, out_at);
            assert_int_equal(b->sent_attempt, 1);
            assert_int_equal(b->sent_backoff_slots, 0);
            assert_int_equal(b->sent_at, 0);
            assert_int_equal(ev->attempt, 1);
            assert_int_equal(ev->tx_start, out_at);
            assert_int_equal(ev->time, k == 2 ? out_at : out_at + wire);
            if (k == 3) {
                assert_int_equal(ev->tx_end, out_at + wire);
                assert_int_equal(ev->jam_start, SIM_TIME_NEVER);
                assert_false(ev->late);
                /* the probe at l2's 0 m, the port at its far end */
                assert_int_equal(ev->probe_start, out_at + scn_cable_ps(60, 0.585));
            }
        }
        k++;
    }
    assert_int_equal(k, 4);
    engine_destroy(e);
    scenario_free(&sc);
}

/* Two senders at line rate into one output port of 4 frames: from the
 * fourth pair of arrivals on, one frame of each pair finds the queue full
 * (worked out in stations/MODEL.md, "Bridges: measures"): 7 of 20 lost. */
static void test_queue_drops(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 60ms\n"
                 "[segment l1]\ntype = link\nduplex = full\n"
                 "[segment l2]\ntype = link\nduplex = full\n"
                 "[segment l3]\ntype = link\nduplex = full\n"
                 "[bridge sw]\nports = l1, l2, l3\nqueue = 4\n"
                 "[group a]\nstations = 1\nsegment = l1\ntraffic = batch\nbatch = 10\n"
                 "frame-size = 1518\ndest = server:3\n"
                 "[group b]\nstations = 1\nsegment = l2\ntraffic = batch\nbatch = 10\n"
                 "frame-size = 1518\ndest = server:3\n"
                 "[group c]\nstations = 1\nsegment = l3\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    const bridge_port_result *p3 = scn_port(&r, "sw", "l3");
    assert_int_equal(p3->frames_dropped, 7);
    assert_int_equal(p3->frames_queued, 13);
    assert_int_equal(p3->frames_sent, 13);
    /* the floods towards the other sender keep pace: no loss there */
    assert_int_equal(scn_port(&r, "sw", "l1")->frames_dropped, 0);
    assert_int_equal(scn_port(&r, "sw", "l2")->frames_dropped, 0);
    assert_int_equal(scn_port(&r, "sw", "l1")->frames_flooded, 10);
    /* end to end: 13 delivered, the 7 lost counted against their senders */
    assert_int_equal(r.frames_delivered, 13);
    assert_int_equal(r.frames_corrupted, 7);
    assert_int_equal(r.stations[0].c.frames_corrupted + r.stations[1].c.frames_corrupted, 7);
    assert_int_equal(r.collisions, 0);
    /* each lost copy is a bridge_drop event of port l3 (c never spoke:
     * every frame to it is flooded), and never sent */
    size_t drops = 0, sent_l3 = 0;
    for (size_t i = 0; i < scn_n; i++) {
        if (scn_ev[i].kind == TRACE_BRIDGE_DROP) {
            drops++;
            assert_int_equal(scn_ev[i].segment, 2);
            assert_int_equal(scn_br[i].port, 2);
            assert_true(scn_br[i].flooded);
            assert_int_equal(scn_br[i].entered, scn_ev[i].time);
            assert_true(scn_ev[i].station == 0 || scn_ev[i].station == 1);
        }
        if (scn_ev[i].kind == TRACE_BRIDGE_TX_END && scn_ev[i].segment == 2)
            sent_l3++;
    }
    assert_int_equal(drops, 7);
    assert_int_equal(sent_l3, 13);
    engine_destroy(e);
    scenario_free(&sc);
}

/* A saturated station sending 1518-byte frames to a full-duplex switch
 * delivers 1518 / (1518 + 20) of the link: each frame takes its 8 bytes
 * of preamble and SFD and the 12 of the gap. */
static void test_full_duplex_rate(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\ntopology = switch\nduplex = full\n"
                 "stations = 2\nframe-size = 1518\ndest = server:2\n"
                 "warmup = 10ms\nduration = 1s\n");
    results r;
    engine *e = scn_run(&sc, &r);
    /* station 2 (the server) sends to a random other station: station 1 */
    double one = 1518.0 / 1538.0;
    assert_double_equal(r.throughput, 2 * one, 2e-5);
    /* link1 carries it both ways, of twice its rate (counted at each
     * frame's end, not pro rata: within a frame of the window) */
    assert_double_equal(r.domains[0].throughput, one, 1e-3);
    assert_int_equal(r.collisions, 0);
    engine_destroy(e);
    scenario_free(&sc);
}

/* A flood while the network's records grow: a copy handed to one output
 * port may start its transmission at once and so take a new record (the
 * records move in memory); the frame's next copies must come from the
 * frame as it was, not from the old place (the sanitizer build read freed
 * memory here: 16 saturated stations on a full-duplex switch, the first
 * frames to unknown destinations flooded). Every frame accounted. */
static void test_flood_while_records_grow(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\ntopology = switch\nduplex = full\n"
                 "stations = 16\nduration = 200ms\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_int_equal(r.collisions, 0);
    assert_true(r.throughput > 4); /* 16 links at once, most of them busy */
    uint64_t flooded = 0;
    for (uint32_t p = 0; p < r.bridges[0].n_ports; p++)
        flooded += r.bridges[0].ports[p].frames_flooded;
    assert_true(flooded > 0); /* frames to stations not heard yet, at the start */
    assert_int_equal(r.frames_offered, r.frames_ok + r.frames_aborted +
                                           r.frames_late_discarded + r.frames_dropped +
                                           r.frames_queued);
    engine_destroy(e);
    scenario_free(&sc);
}

/* A station without collision detection (ALOHA) waits for its frame's
 * verdict: across a bridge it comes end to end, and the station goes on. */
static void test_aloha_across(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 20ms\npolicy = aloha\n"
                 "[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
                 "[bridge x]\nports = a, b\n"
                 "[group s]\nstations = 1\nsegment = a\ntraffic = batch\nbatch = 3\n"
                 "dest = server:2\n"
                 "[group d]\nstations = 1\nsegment = b\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_int_equal(r.frames_ok, 3);
    assert_int_equal(r.frames_delivered, 3);
    assert_int_equal(r.stations[0].queue_len, 0);
    engine_destroy(e);
    scenario_free(&sc);
}

/* Two stations on one full-duplex link, no bridge: both send at once,
 * neither defers nor collides, and together they deliver twice what one
 * link direction carries. */
static void test_full_duplex_both_ways(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 200ms\nwarmup = 10ms\nframe-size = 1518\n"
                 "[segment l]\ntype = link\nduplex = full\n"
                 "[group g]\nstations = 2\nsegment = l\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_double_equal(r.throughput, 2 * 1518.0 / 1538.0, 1e-4);
    assert_int_equal(r.collisions, 0);
    assert_int_equal(r.stations[0].c.collisions + r.stations[1].c.collisions, 0);
    assert_int_equal(r.frames_corrupted, 0);
    /* both start at 0 and overlap on the one cable */
    assert_int_equal(scn_ev[1].kind, TRACE_TX_START);
    size_t starts_at_0 = 0;
    for (size_t i = 0; i < scn_n && scn_ev[i].time == 0; i++)
        starts_at_0 += scn_ev[i].kind == TRACE_TX_START;
    assert_int_equal(starts_at_0, 2);
    engine_destroy(e);
    scenario_free(&sc);
}

/* A half-duplex switch: a station and its switch port are two CSMA/CD
 * stations on one link; both sending, they collide there. The domains'
 * sums are the run's totals. */
static void test_half_duplex_port_collides(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\ntopology = switch\nduplex = half\n"
                 "stations = 4\nframe-size = 512\nduration = 100ms\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_int_equal(r.n_domains, 4);
    uint64_t sent = 0, col = 0, port_col = 0;
    for (uint32_t d = 0; d < r.n_domains; d++) {
        sent += r.domains[d].frames_sent;
        col += r.domains[d].collisions;
        assert_true(r.domains[d].collisions > 0);
        assert_false(r.domains[d].full_duplex);
    }
    for (uint32_t p = 0; p < r.bridges[0].n_ports; p++)
        port_col += r.bridges[0].ports[p].collisions;
    assert_int_equal(sent, r.frames_ok);
    assert_int_equal(col, r.collisions);
    assert_true(port_col > 0);
    assert_true(r.collisions_seen > 0);
    engine_destroy(e);
    scenario_free(&sc);
}

/* Hubs, coax and a full-duplex uplink: per-domain sums equal the totals;
 * every frame a station sends whole is judged once, end to end. */
static void test_domain_sums(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 50ms\ntraffic = poisson\nload = 0.3\n"
                 "[segment lab]\ntype = hub\n[segment annex]\ntype = hub\n"
                 "[segment office]\ntype = coax\nlength = 200\n"
                 "[segment up]\ntype = link\nduplex = full\n"
                 "[segment server]\ntype = hub\n"
                 "[repeater r]\nports = lab, annex\n"
                 "[bridge sw1]\nports = lab, office@120, up\n"
                 "[bridge sw2]\nports = up, server\n"
                 "[group pcs]\nstations = 4\nsegment = lab\n"
                 "[group more]\nstations = 2\nsegment = annex\n"
                 "[group clerks]\nstations = 3\nsegment = office\n"
                 "[group srv]\nstations = 1\nsegment = server\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_int_equal(r.n_domains, 4);
    assert_string_equal(r.domains[0].name, "lab");
    assert_int_equal(r.domains[0].segments, 2);
    assert_int_equal(r.domains[0].stations, 6);
    uint64_t sent = 0, col = 0;
    for (uint32_t d = 0; d < r.n_domains; d++) {
        sent += r.domains[d].frames_sent;
        col += r.domains[d].collisions;
    }
    assert_int_equal(sent, r.frames_ok);
    assert_int_equal(col, r.collisions);
    assert_true(r.frames_delivered > 0);
    /* judged once each: delivered + corrupted never exceeds what was sent */
    assert_true(r.frames_delivered + r.frames_corrupted <= r.frames_ok);
    uint64_t received = 0, forwarded = 0, flooded = 0, filtered = 0;
    for (uint32_t b = 0; b < r.n_bridges; b++)
        for (uint32_t p = 0; p < r.bridges[b].n_ports; p++) {
            const bridge_port_result *x = &r.bridges[b].ports[p];
            received += x->frames_received;
            forwarded += x->frames_forwarded;
            flooded += x->frames_flooded;
            filtered += x->frames_filtered;
        }
    assert_int_equal(received, forwarded + flooded + filtered);
    assert_true(forwarded > 0 && flooded > 0 && filtered > 0);
    engine_destroy(e);
    scenario_free(&sc);
}

/* A domain's line counts its collisions once: the two stations of a and
 * b, on either side of repeater r, collide once (their retries come after
 * the run's 18 us); a and b each saw it, their domain counts one, as the
 * run does (test_segments.c, test_one_collision_across_a_repeater, the
 * same geometry); the bridged domain beyond, none. */
static void test_domain_counts_a_collision_once(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10base5\nduration = 18us\nframe-size = 512\n"
                 "traffic = batch\nbatch = 1\n"
                 "[segment a]\ntype = coax\nlength = 500\n"
                 "[segment b]\ntype = coax\nlength = 500\n"
                 "[segment c]\ntype = coax\nlength = 100\n"
                 "[repeater r]\nports = a@500, b@0\ndelay = 8\n"
                 "[bridge x]\nports = b@500, c@100\n"
                 "[group left]\nstations = 1\nsegment = a\npositions = 0\n"
                 "[group right]\nstations = 1\nsegment = b\npositions = 100\n"
                 "[group far]\nstations = 1\nsegment = c\npositions = 0\ntraffic = none\n");
    results r;
    engine *e = scn_run(&sc, &r);
    assert_int_equal(r.n_domains, 2);
    assert_int_equal(r.segments[0].collisions, 1);
    assert_int_equal(r.segments[1].collisions, 1);
    assert_int_equal(r.domains[0].collisions, 1);
    assert_int_equal(r.domains[1].collisions, 0);
    assert_int_equal(r.collisions, 1);
    engine_destroy(e);
    scenario_free(&sc);
}

/* The measures written: JSON objects `domains` and `bridges` (with
 * `ports`), their CSV columns beside the values, their text lines. */
static void test_outputs(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 10baset\nduration = 20ms\n"
                 "[segment lab]\ntype = hub\n[segment up]\ntype = link\nduplex = full\n"
                 "[bridge sw]\nports = lab, up\nqueue = 8\n"
                 "[group pcs]\nstations = 3\nsegment = lab\n"
                 "[group srv]\nstations = 1\nsegment = up\n");
    results r;
    engine *e = scn_run(&sc, &r);
    output_run o = {.sc = &sc, .r = &r};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(output_write(f, OUTPUT_JSON, &o), 0);
    fclose(f);
    json_error_t je;
    json_t *root = json_loads(buf, 0, &je);
    assert_non_null(root);
    json_t *lab = json_object_get(json_object_get(root, "domains"), "lab");
    assert_non_null(lab);
    assert_int_equal(json_integer_value(json_object_get(lab, "frames_sent")),
                     r.domains[0].frames_sent);
    assert_int_equal(json_integer_value(json_object_get(lab, "collisions")), r.collisions);
    assert_true(json_is_true(json_object_get(json_object_get(json_object_get(root, "domains"),
                                                             "up"),
                                             "full_duplex")));
    json_t *port = json_object_get(
        json_object_get(json_object_get(json_object_get(root, "bridges"), "sw"), "ports"), "up");
    assert_non_null(port);
    assert_int_equal(json_integer_value(json_object_get(port, "frames_received")),
                     scn_port(&r, "sw", "up")->frames_received);
    assert_non_null(json_object_get(port, "queue_delay_p99_us"));
    json_t *net = json_object_get(root, "network");
    assert_int_equal(json_array_size(json_object_get(net, "domains")), 2);
    assert_non_null(json_object_get(json_object_get(net, "bridges"), "sw"));
    json_decref(root);
    free(buf);
    /* CSV: as many values as columns, the new ones named */
    f = open_memstream(&buf, &len);
    assert_int_equal(output_write(f, OUTPUT_CSV, &o), 0);
    fclose(f);
    char *nl = strchr(buf, '\n');
    assert_non_null(nl);
    *nl = '\0';
    assert_non_null(strstr(buf, ",lab.domain_frames_sent,lab.domain_collisions,"
                                "lab.domain_throughput,"));
    assert_non_null(strstr(buf, ",sw.up.frames_received,sw.up.frames_forwarded,"));
    assert_non_null(strstr(buf, ",sw.lab.queue_delay_mean_us,sw.lab.queue_delay_p99_us"));
    size_t cols = 1, vals = 1;
    for (char *c = buf; *c; c++)
        cols += *c == ',';
    for (char *c = nl + 1; *c && *c != '\n'; c++)
        vals += *c == ',';
    assert_int_equal(cols, vals);
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(output_write(f, OUTPUT_TEXT, &o), 0);
    fclose(f);
    assert_non_null(strstr(buf, "\n  domains           lab          segments 1 stations 3 "));
    assert_non_null(strstr(buf, "(full duplex)\n"));
    assert_non_null(strstr(buf, "\n  bridge ports      sw.lab       frames_received "));
    free(buf);
    engine_destroy(e);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections_and_domains),
        cmocka_unit_test(test_switch_shorthand),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_bridge_rules),
        cmocka_unit_test(test_store_and_forward),
        cmocka_unit_test(test_queue_drops),
        cmocka_unit_test(test_full_duplex_rate),
        cmocka_unit_test(test_flood_while_records_grow),
        cmocka_unit_test(test_full_duplex_both_ways),
        cmocka_unit_test(test_aloha_across),
        cmocka_unit_test(test_half_duplex_port_collides),
        cmocka_unit_test(test_domain_sums),
        cmocka_unit_test(test_domain_counts_a_collision_once),
        cmocka_unit_test(test_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
