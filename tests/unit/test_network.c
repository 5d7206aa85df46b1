/* test_network.c - networks of segments (stations/MODEL.md, "Networks of
 * segments"): the sections read from a file, the defaults and the uplinks
 * made repeaters by scenario_finish, stations placed per segment (one
 * segment places them exactly as today's bus and star), every refusal
 * with its section and line, and the 802.3 budget (budget.c) on worked
 * examples computed by hand: the 100BASE-TX pair of Class II hubs
 * (511.96 bit times), a Clause 13 Model 2 path at 10 Mb/s, the 5-4-3
 * rule, Table 29-2's repeater count and the single repeater at 1 Gb/s.
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

#include "budget.h"
#include "engine.h"
#include "network.h"
#include "scenario.h"
#include "scenario_text.h"

#define C_M_S 299792458.0


/* Empties net and gives it its tables (network_reserve). */
static void fresh(network *net)
{
    network_free(net);
    assert_int_equal(network_reserve(net), 0);
}

/* The same network: the same fields and the same tables, entry for entry
 * (not only the same pointers). */
static void assert_same_network(const network *a, const network *b)
{
    assert_non_null(a->segments);
    assert_non_null(b->segments);
    assert_memory_equal(a->segments, b->segments, NET_MAX_SEGMENTS * sizeof *a->segments);
    assert_memory_equal(a->repeaters, b->repeaters, NET_MAX_REPEATERS * sizeof *a->repeaters);
    assert_memory_equal(a->bridges, b->bridges, NET_MAX_BRIDGES * sizeof *a->bridges);
    network x = *a, y = *b;
    x.segments = y.segments = NULL;
    x.repeaters = y.repeaters = NULL;
    x.bridges = y.bridges = NULL;
    assert_memory_equal(&x, &y, sizeof x);
}

static const char *LAN =
    "[segment backbone]\n"   /* 1 */
    "type = coax\n"
    "length = 500\n"
    "[segment lab]\n"        /* 4 */
    "type = hub\n"
    "length = 100\n"
    "uplink = backbone@250\n"
    "[segment annex]\n"      /* 8 */
    "type = coax\n"
    "length = 185\n"
    "velocity = 0.65\n"
    "[repeater r1]\n"        /* 12 */
    "ports = backbone@500, annex@0\n"
    "[group pcs]\n"
    "stations = 8\n"
    "segment = lab\n"
    "[group servers]\n"
    "stations = 2\n"
    "segment = annex\n";

static void test_sections_and_defaults(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, LAN);
    const network *net = &sc.net;
    assert_int_equal(net->n_segments, 3);
    assert_int_equal(net->n_repeaters, 2); /* r1, then lab's uplink */
    assert_string_equal(net->segments[0].name, "backbone");
    assert_int_equal(net->segments[0].type, NET_SEG_COAX);
    assert_true(net->segments[0].velocity_c == 0.77); /* 10base5's, the PHY a bus */
    assert_int_equal(net->segments[1].type, NET_SEG_HUB);
    assert_true(net->segments[1].velocity_c == 0.585); /* UTP: the PHY is no star */
    assert_int_equal(net->segments[1].hub_bits, 8);    /* 10 Mb/s, the PHY has no hub */
    assert_int_equal(net->segments[1].hub_class, 0);
    assert_true(net->segments[2].velocity_c == 0.65);
    const net_repeater *r1 = &net->repeaters[0], *up = &net->repeaters[1];
    assert_string_equal(r1->name, "r1");
    assert_int_equal(r1->delay_bits, 8);
    assert_int_equal(r1->n_ports, 2);
    assert_int_equal(r1->ports[0].segment, 0);
    assert_true(r1->ports[0].metres == 500);
    assert_int_equal(r1->ports[1].segment, 2);
    assert_string_equal(up->name, "lab-uplink");
    assert_true(up->uplink);
    assert_int_equal(up->delay_bits, 0);
    assert_int_equal(up->ports[0].segment, 1);
    assert_true(up->ports[0].metres == 100); /* the hub's drop */
    assert_int_equal(up->ports[1].segment, 0);
    assert_true(up->ports[1].metres == 250);
    /* stations: 8 on lab (drops of 100 m), 2 on annex at its ends */
    for (uint32_t i = 0; i < 8; i++) {
        assert_int_equal(scenario_station_segment(&sc, i), 1);
        assert_true(scenario_station_metres(&sc, i) == 100);
    }
    assert_int_equal(scenario_station_segment(&sc, 8), 2);
    assert_true(scenario_station_metres(&sc, 8) == 0);
    assert_true(scenario_station_metres(&sc, 9) == 185);
    assert_int_equal(net->segments[1].n_stations, 8);
    assert_int_equal(net->segments[0].n_stations, 0);
    /* finishing again gives the same network (the TUI and sweeps do) */
    network before;
    assert_int_equal(network_copy(&before, &sc.net), 0);
    assert_ptr_not_equal(before.segments, sc.net.segments);
    assert_int_equal(scenario_finish(&sc, scn_err, sizeof scn_err, scn_warn, sizeof scn_warn), 0);
    assert_int_equal(sc.net.n_repeaters, 2);
    assert_same_network(&before, &sc.net);
    network_free(&before);
    /* a copy keeps it, in tables of its own */
    scenario cp;
    assert_int_equal(scenario_copy(&cp, &sc), 0);
    assert_ptr_not_equal(cp.net.segments, sc.net.segments);
    assert_same_network(&cp.net, &sc.net);
    scenario_free(&cp);
    scenario_free(&sc);
}

/* One coax segment holding every station places them as today's bus;
 * one hub as today's star. */
static void test_one_segment_is_today(void **state)
{
    (void)state;
    scenario a, b;
    scn_load_ok(&a, "length = 300\nstations = 7\n");
    scn_load_ok(&b, "[segment s]\ntype = coax\nlength = 300\n[group g]\nstations = 7\nsegment = s\n");
    for (uint32_t i = 0; i < 7; i++)
        assert_true(scenario_station_metres(&a, i) == scenario_station_metres(&b, i));
    assert_true(scenario_station_metres(&b, 6) == 300);
    scenario_free(&a);
    scenario_free(&b);
    /* without groups: `segment` for every station, kept by the engine's copy */
    scn_load_ok(&b, "stations = 5\nsegment = s\n[segment t]\ntype = coax\n"
                "[segment s]\ntype = coax\nlength = 200\n[repeater r]\nports = s@0, t@0\n");
    assert_true(scenario_station_metres(&b, 1) == 50);
    assert_int_equal(scenario_station_segment(&b, 4), 1);
    engine *e = NULL;
    assert_int_equal(engine_create(&b, &e, scn_err, sizeof scn_err), 0);
    assert_int_equal(scenario_station_segment(engine_scenario(e), 4), 1);
    assert_true(scenario_station_metres(engine_scenario(e), 4) == 200);
    engine_destroy(e);
    scenario_free(&b);
    scn_load_ok(&a, "phy = 10baset\nstations = 4\n");
    scn_load_ok(&b, "phy = 10baset\n[segment h]\ntype = hub\n[group g]\nstations = 4\nsegment = h\n");
    for (uint32_t i = 0; i < 4; i++)
        assert_true(scenario_station_metres(&a, i) == scenario_station_metres(&b, i));
    assert_true(b.net.segments[0].length_m == 100 && b.net.segments[0].hub_bits == 8);
    assert_true(b.net.segments[0].velocity_c == 0.585);
    scenario_free(&a);
    scenario_free(&b);
}

/* Groups on one coax share its spread, in station order; span and
 * positions are relative to the segment; drop on a hub. */
static void test_placement(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "[segment c]\ntype = coax\nlength = 400\n"
                 "[segment d]\ntype = coax\nlength = 100\n"
                 "[segment h]\ntype = hub\nlength = 50\nuplink = c@400\n"
                 "[repeater r]\nports = c@0, d@100\n"
                 "[group a]\nstations = 3\nsegment = c\n"
                 "[group x]\nstations = 2\nsegment = d\nspan = 20-60\n"
                 "[group b]\nstations = 2\nsegment = c\n"
                 "[group h1]\nstations = 2\nsegment = h\ndrop = 30\n"
                 "[group h2]\nstations = 1\nsegment = h\n");
    const double want[] = {0, 100, 200, 20, 60, 300, 400, 30, 30, 50};
    for (uint32_t i = 0; i < 10; i++)
        if (scenario_station_metres(&sc, i) != want[i])
            fail_msg("station %u at %g, expected %g", i + 1, scenario_station_metres(&sc, i),
                     want[i]);
    const net_segment *h = &sc.net.segments[2];
    assert_true(h->far_m == 50 && h->far_station == 9);
    assert_true(h->near_m == 30 && h->near_station == 7);
    const net_segment *c = &sc.net.segments[0];
    assert_true(c->near_m == 0 && c->far_m == 400 && c->near_station == 0 && c->far_station == 6);
    scenario_free(&sc);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *two = "[segment a]\ntype = coax\n[segment b]\ntype = coax\n"
                      "[group g]\nstations = 2\nsegment = a\n";
    char text[1024];
    /* not connected */
    scn_refused(two, ":3: [segment b] is not joined to segment a: no repeater, uplink or bridge "
                 "links them (a network is connected)");
    /* a loop of two repeaters */
    snprintf(text, sizeof text, "%s[repeater r]\nports = a@0, b@0\n[repeater s]\nports = a@10, "
                                "b@10\n",
             two);
    scn_refused(text, ":11: [repeater s] a loop: segment b is already joined to a through other "
                  "repeaters or uplinks (segments and repeaters must form a tree)");
    /* a loop through an uplink */
    scn_refused("[segment h]\ntype = hub\nuplink = k@5\n[segment k]\ntype = hub\nuplink = h@5\n"
            "[group g]\nstations = 2\nsegment = h\n",
            ":6: [segment k] uplink: a loop: segment h is already joined to k through other "
            "repeaters or uplinks (segments and repeaters must form a tree)");
    /* a port on a segment that does not exist */
    snprintf(text, sizeof text, "%s[repeater r]\nports = a@0, c@0\n", two);
    scn_refused(text, ":9: [repeater r] ports: there is no [segment c]");
    /* past the cable's end */
    snprintf(text, sizeof text, "%s[repeater r]\nports = a@600, b@0\n", two);
    scn_refused(text, ":9: [repeater r] ports: a@600 is beyond the end of the 500 m cable");
    scn_refused("[segment a]\ntype = coax\n[segment h]\ntype = hub\nuplink = a@501\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":5: [segment h] uplink: a@501 is beyond the end of the 500 m cable");
    /* a group without a segment */
    scn_refused("[segment a]\ntype = coax\n[group g]\nstations = 2\n",
            "group g: segment: missing: with [segment] sections every station sits on one "
            "(segment = NAME)");
    scn_refused("[segment a]\ntype = coax\n[group g]\nstations = 2\nsegment = z\n",
            ":5: group g: segment: there is no [segment z]");
    scn_refused("stations = 2\nsegment = a\n",
            "segment: there is no [segment a] (segments are declared in the scenario file)");
    /* placement that does not fit */
    scn_refused("[segment a]\ntype = coax\nlength = 100\n[group g]\nstations = 2\nsegment = a\n"
            "span = 0-150\n",
            ":7: group g: span: 150 m is beyond the end of the 100 m cable of segment a");
    scn_refused("[segment a]\ntype = coax\nlength = 100\n[group g]\nstations = 2\nsegment = a\n"
            "positions = 0,101\n",
            ":7: group g: positions: station 2 at 101 m is beyond the end of the 100 m cable of "
            "segment a");
    scn_refused("[segment a]\ntype = coax\n[group g]\nstations = 2\nsegment = a\ndrop = 5\n",
            ":6: group g: drop: segment a is coax (drop cables are a hub's; on coax, span or "
            "positions)");
    /* names: one namespace */
    scn_refused("[segment a]\ntype = coax\n[repeater a]\nports = a@0\n",
            ":3: [repeater a] the name is taken by [segment a] (line 1): segments, repeaters, "
            "bridges and groups share one namespace");
    scn_refused("[segment g]\ntype = coax\n[group g]\nstations = 2\nsegment = g\n",
            ":1: group g: the name is taken by [segment g]: segments, repeaters, bridges and "
            "groups share one namespace (g.frames_ok would name both)");
    scn_refused("[segment a]\ntype = coax\n[segment a]\ntype = hub\n",
            ":3: [segment a] given twice (first at line 1)");
    /* keys */
    scn_refused("[segment a]\ntype = coax\ncolour = red\n",
            ":3: [segment a] unknown key 'colour' (type, length, velocity, probe, class, delay, "
            "uplink, duplex, phy)");
    scn_refused("[segment a]\ntype = coax\nlength = 5\nlength = 6\n",
            ":4: [segment a] length is given twice (first at line 3)");
    scn_refused("[segment a]\nlength = 5\n[group g]\nstations = 2\nsegment = a\n",
            ":1: [segment a] type: missing (type = coax, hub or link)");
    scn_refused("[segment a]\ntype = ring\n", ":2: [segment a] type: unknown type 'ring' (coax, hub, link)");
    scn_refused("[segment a]\ntype = coax\n[segment b]\ntype = coax\n[repeater r]\nports = a@0\n",
            ":6: [repeater r] ports: a repeater needs at least two ports (one per segment it "
            "joins)");
    scn_refused("[segment a]\ntype = coax\n[repeater r]\nports = a@0, a@9\n",
            ":4: [repeater r] ports: two ports on segment a (a repeater joins different "
            "segments)");
    scn_refused("[segment h]\ntype = hub\nclass = I\n[group g]\nstations = 2\nsegment = h\n",
            ":3: [segment h] class: repeater classes are Clause 27's, at 100 Mb/s only");
    scn_refused("[segment a]\ntype = coax\n[segment b]\ntype = coax\n[repeater r]\nports = a, b@0\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [repeater r] ports: a: a port on coax segment a needs its position (a@METRES)");
    /* what belongs to one type of segment only */
    scn_refused("[segment a]\ntype = coax\nlength = 100\nprobe = 120\n[group g]\nstations = 2\n"
            "segment = a\n",
            ":4: [segment a] probe: 120 m is beyond the end of the 100 m cable");
    scn_refused("[segment h]\ntype = hub\nprobe = 5\n[group g]\nstations = 2\nsegment = h\n",
            ":3: [segment h] probe: a hub's capture point is the hub itself (probe is a coax "
            "segment's key)");
    scn_refused("[segment a]\ntype = coax\ndelay = 3\n[group g]\nstations = 2\nsegment = a\n",
            ":3: [segment a] delay: a coax segment has no repeater delay (a hub's key; join coax "
            "segments with a [repeater])");
    scn_refused("[segment a]\ntype = coax\n[segment b]\ntype = coax\nuplink = a@3\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":5: [segment b] uplink: only a hub has an uplink (join a coax segment with a "
            "[repeater])");
    scn_refused("phy = 100basetx\n[segment h]\ntype = hub\n[segment k]\ntype = hub\n"
            "[repeater r]\nports = h, k\nclass = III\n",
            ":8: [repeater r] class: 'III' is not I or II (Clause 27's repeater classes)");
    scn_refused("traffic = pcap:x.pcap\nsegment = a\n[segment a]\ntype = coax\n",
            "traffic: a replayed capture makes one station per source address and cannot be "
            "placed on segments");
    /* the medium-wide keys a network replaces */
    scn_refused("topology = star\n[segment a]\ntype = coax\n[group g]\nstations = 2\nsegment = a\n",
            ":1: topology: a network of segments has no one topology: give each [segment] its own "
            "type (coax or hub)");
    scn_refused("length = 20\n[segment a]\ntype = coax\n[group g]\nstations = 2\nsegment = a\n",
            ":1: length: a network of segments has no one length: give each [segment] its own "
            "length");
    /* too many */
    char *big = malloc(70 * 40);
    assert_non_null(big);
    size_t used = 0;
    for (int i = 0; i < 65; i++)
        used += (size_t)sprintf(big + used, "[segment s%d]\ntype = coax\n", i);
    scn_refused(big, ":129: [segment s64] more than 64 segments");
    free(big);
}

/* A hand-made network for the budget: segments, then repeaters. */
static net_segment *seg(network *net, const char *name, net_seg_type type, double length,
                        double velocity)
{
    net_segment *s = &net->segments[net->n_segments++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->type = type;
    s->length_m = length;
    s->velocity_c = velocity;
    return s;
}

static net_repeater *rep(network *net, const char *name, uint32_t delay, bool uplink)
{
    net_repeater *r = &net->repeaters[net->n_repeaters++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->delay_bits = delay;
    r->uplink = uplink;
    return r;
}

static void port(net_repeater *r, uint32_t segment, double metres)
{
    r->ports[r->n_ports++] = (net_port){.segment = segment, .metres = metres};
}

/* n stations on a hub, all with drops of `drop` (numbered from first). */
static void hub_stations(net_segment *s, uint32_t n, double drop, uint32_t first)
{
    s->n_stations = n;
    s->far_m = drop;
    s->far_station = first;
    s->near_m = n > 1 ? drop : 0;
    s->near_station = n > 1 ? first + 1 : NET_BUDGET_NONE;
}

static void coax_stations(net_segment *s, uint32_t n, double lo, double hi, uint32_t first)
{
    s->n_stations = n;
    s->near_m = lo;
    s->far_m = hi;
    s->near_station = first;
    s->far_station = first + n - 1;
}

/* The worked example: 100BASE-TX, two Class II hubs, 100 m drops and a
 * 5 m link: 100 + 2 x 92 + 205 x 1.112 = 511.96 bit times, within. */
static void test_budget_two_class_ii(void **state)
{
    (void)state;
    network net = {0};
    fresh(&net);
    net_segment *a = seg(&net, "a", NET_SEG_HUB, 100, 0.585);
    net_segment *b = seg(&net, "b", NET_SEG_HUB, 100, 0.585);
    a->hub_bits = b->hub_bits = 46;
    a->hub_class = b->hub_class = 2;
    hub_stations(a, 4, 100, 0);
    hub_stations(b, 4, 100, 4);
    net_repeater *up = rep(&net, "a-uplink", 0, true);
    port(up, 0, 5);
    port(up, 1, 0);
    net_budget bud;
    net_budget_compute(&net, 100000000ull, &bud);
    assert_true(bud.pdv_defined);
    assert_float_equal(bud.pdv_bits, 511.96, 1e-9);
    assert_float_equal(bud.pdv_limit_bits, 512, 0);
    assert_false(bud.pvv_defined);
    assert_true(bud.within);
    assert_string_equal(bud.verdict, "within");
    assert_int_equal(bud.from_segment, 0);
    assert_int_equal(bud.to_segment, 1);
    assert_int_equal(bud.max_repeaters, 2);
    assert_int_equal(bud.max_segments, 3);
    /* the model: 205 m at 0.585c and two hubs of 46 bit times, twice */
    double want = 2 * (205 / (0.585 * C_M_S) * 1e8 + 92);
    assert_float_equal(bud.model_round_trip_bits, want, 1e-9);
    /* 6 m between the hubs: 513.072 > 512 */
    net.repeaters[0].ports[0].metres = 6;
    net_budget_compute(&net, 100000000ull, &bud);
    assert_float_equal(bud.pdv_bits, 513.072, 1e-9);
    assert_false(bud.within);
    assert_string_equal(bud.verdict, "path delay value 513.07 > 512 bit times (a..b)");
    /* a Class I hub with a second one: Table 29-2, and 100 + 140 + 92 + 205 x 1.112 */
    net.repeaters[0].ports[0].metres = 5;
    a->hub_class = 1;
    net_budget_compute(&net, 100000000ull, &bud);
    assert_float_equal(bud.pdv_bits, 559.96, 1e-9);
    assert_string_equal(bud.verdict,
                        "Model 1: 2 repeaters (1 of Class I) on the path a..b (at most one Class "
                        "I or two Class II, Table 29-2); path delay value 559.96 > 512 bit times "
                        "(a..b)");
    network_free(&net);
}

/* The same through a scenario file: class, defaults, the uplink. */
static void test_budget_from_file(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 100basetx\n"
                 "[segment a]\ntype = hub\n"
                 "[segment b]\ntype = hub\nuplink = a@5\n"
                 "[group x]\nstations = 3\nsegment = a\n"
                 "[group y]\nstations = 3\nsegment = b\n");
    assert_int_equal(sc.net.segments[0].hub_class, 2);
    assert_int_equal(sc.net.segments[0].hub_bits, 46);
    net_budget bud;
    net_budget_compute(&sc.net, sc.phy.rate_bps, &bud);
    assert_float_equal(bud.pdv_bits, 511.96, 1e-9);
    assert_string_equal(scn_warn, "");
    scenario_free(&sc);
    /* class I: 70 bit times one way, and the budget's warning */
    scn_load_ok(&sc, "phy = 100basetx\n"
                 "[segment a]\ntype = hub\nclass = I\n"
                 "[segment b]\ntype = hub\nuplink = a@5\n"
                 "[group x]\nstations = 3\nsegment = a\n"
                 "[group y]\nstations = 3\nsegment = b\n");
    assert_int_equal(sc.net.segments[0].hub_bits, 70);
    assert_int_equal(sc.net.segments[0].hub_class, 1);
    assert_non_null(strstr(scn_warn, "network: over 802.3's budget: Model 1: 2 repeaters"));
    scenario_free(&sc);
    /* a repeater box between two hubs: Class II by default, 46 bit times,
     * its ports cabled into the hubs (a HUB port: the hub's length) */
    scn_load_ok(&sc, "phy = 100basetx\n"
                 "[segment a]\ntype = hub\nlength = 50\n"
                 "[segment b]\ntype = hub\nlength = 50\ndelay = 30\n"
                 "[repeater r]\nports = a@2, b\n"
                 "[group x]\nstations = 1\nsegment = a\n"
                 "[group y]\nstations = 1\nsegment = b\n");
    const net_repeater *r = &sc.net.repeaters[0];
    assert_int_equal(r->rep_class, 2);
    assert_int_equal(r->delay_bits, 46);
    assert_true(r->ports[0].metres == 2 && r->ports[1].metres == 50);
    assert_int_equal(sc.net.segments[1].hub_bits, 30); /* given: the class's budget stays */
    net_budget_compute(&sc.net, sc.phy.rate_bps, &bud);
    /* 50 m drop, hub a, 2 m, r, 50 m, hub b, 50 m drop: 100 + 3 x 92 + 152 x 1.112 */
    assert_float_equal(bud.pdv_bits, 100 + 3 * 92 + 152 * 1.112, 1e-9);
    assert_int_equal(bud.max_repeaters, 3);
    assert_non_null(strstr(bud.verdict, "Model 1: 3 repeaters (0 of Class I) on the path a..b"));
    double s1 = 152 / (0.585 * C_M_S) * 1e8 + 46 + 46 + 30;
    assert_float_equal(bud.model_round_trip_bits, 2 * s1, 1e-9);
    scenario_free(&sc);
}

/* Clause 13 Model 2, by hand. Path lab..annex: a 100 m 10BASE-T drop
 * (left end 15.25 + 100 x 0.113 = 26.55), hub lab, its uplink tapping the
 * 500 m 10BASE5 backbone through 100 m of cable (mid 46.5 + 500 x 0.0866 =
 * 89.8, and 98 m of excess AUI x 0.1026 = 10.0548), repeater r1, the 185 m
 * 10BASE2 annex (right end 169.5 + 185 x 0.1026 = 188.481): 314.8858.
 * The other way round: 30.731 + 99.8548 + 176.3 = 306.8858. Path
 * variability: coax end 16 + coax mid 11 = 27 (the lab end: 10.5 + 11). */
static void test_budget_model2(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, LAN);
    net_budget bud;
    net_budget_compute(&sc.net, sc.phy.rate_bps, &bud);
    assert_true(bud.pdv_defined && bud.pvv_defined);
    assert_float_equal(bud.pdv_bits, 314.8858, 1e-9);
    assert_float_equal(bud.pdv_limit_bits, 575, 0);
    assert_float_equal(bud.pvv_bits, 27, 1e-12);
    assert_float_equal(bud.pvv_limit_bits, 49, 0);
    assert_int_equal(bud.from_segment, 1);
    assert_int_equal(bud.to_segment, 2);
    assert_int_equal(bud.from_station, 0);
    assert_int_equal(bud.to_station, 9); /* annex's far end, 185 m from r1's port */
    assert_int_equal(bud.max_segments, 3);
    assert_int_equal(bud.max_repeaters, 2);
    assert_int_equal(bud.max_coax, 2);
    assert_string_equal(bud.verdict, "within");
    /* the model: station 1's drop, the hub, 250 m of backbone to r1, r1,
     * the whole annex. One way: 200 m at 0.585c + 250 m at 0.77c + 185 m
     * at 0.65c + 8 + 8 bit times. */
    double s = 200 / (0.585 * C_M_S) + 250 / (0.77 * C_M_S) + 185 / (0.65 * C_M_S);
    assert_float_equal(bud.model_round_trip_bits, 2 * (s * 1e7 + 16), 1e-9);
    scenario_free(&sc);
}

/* Two stations at one place on a coax segment: the worst path joins the
 * two, not the first with itself (found by fuzz_network: `csmacd check`
 * named "station 1 (a) .. station 1 (a)"). */
static void test_budget_stations_at_one_place(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "[segment a]\ntype = coax\nlength = 185\n"
                 "[segment b]\ntype = hub\n"
                 "[repeater r]\nports = a@0, b\n"
                 "[group g]\nstations = 2\nsegment = a\npositions = 185,185\n");
    net_budget bud;
    net_budget_compute(&sc.net, sc.phy.rate_bps, &bud);
    assert_int_equal(bud.from_segment, 0);
    assert_int_equal(bud.to_segment, 0);
    assert_int_equal(bud.from_station + bud.to_station, 1); /* 0 and 1, either way */
    assert_float_equal(bud.model_round_trip_bits, 0, 0);
    scenario_free(&sc);
    /* three, two of them at the near end: the far one is the third */
    scn_load_ok(&sc, "[segment a]\ntype = coax\nlength = 185\n"
                 "[group g]\nstations = 3\nsegment = a\npositions = 0,0,100\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &bud);
    assert_true(bud.from_station != bud.to_station);
    assert_true(bud.from_station == 2 || bud.to_station == 2);
    scenario_free(&sc);
}

/* 5-4-3: a chain of 6 coax segments, 5 repeaters. */
static void test_budget_543(void **state)
{
    (void)state;
    network net = {0};
    fresh(&net);
    char name[8];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "c%d", i);
        seg(&net, name, NET_SEG_COAX, 500, 0.77);
    }
    for (uint32_t i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "r%u", i);
        net_repeater *r = rep(&net, name, 8, false);
        port(r, i, 500);
        port(r, i + 1, 0);
    }
    coax_stations(&net.segments[0], 2, 0, 500, 0);
    coax_stations(&net.segments[5], 2, 0, 500, 2);
    net_budget bud;
    net_budget_compute(&net, 10000000ull, &bud);
    assert_int_equal(bud.max_segments, 6);
    assert_int_equal(bud.max_repeaters, 5);
    assert_int_equal(bud.max_coax, 6);
    /* 11.75 + 4 x 46.5 + 169.5 + 6 x 500 x 0.0866 = 627.05 */
    assert_float_equal(bud.pdv_bits, 627.05, 1e-9);
    /* 16 + 4 x 11 = 60 */
    assert_float_equal(bud.pvv_bits, 60, 1e-12);
    assert_false(bud.within);
    assert_string_equal(bud.verdict,
                        "5-4-3: 6 segments on the path c0..c5 (at most 5); 5-4-3: 5 repeaters on "
                        "the path c0..c5 (at most 4); 5-4-3: 6 coax segments on the path c0..c5 "
                        "(at most 3); path delay value 627.05 > 575 bit times (c0..c5); path "
                        "variability value 60.00 > 49 bit times (c0..c5)");
    /* five coax segments and four repeaters: only the mixing count breaks */
    net.n_segments = 5;
    net.n_repeaters = 4;
    coax_stations(&net.segments[4], 2, 0, 500, 2);
    net_budget_compute(&net, 10000000ull, &bud);
    assert_int_equal(bud.max_repeaters, 4);
    assert_null(strstr(bud.verdict, "5-4-3: 5 repeaters"));
    assert_non_null(strstr(bud.verdict, "5-4-3: 5 coax segments on the path c0..c4 (at most 3)"));
    network_free(&net);
}

/* 1000 Mb/s: one hub with 100 m drops, 864 + 976 + 200 x 11.12 = 4064
 * bit times; a second repeater breaks Clause 41's rule. A single 10 Mb/s
 * coax has no path delay value: its length is the rule. */
static void test_budget_gigabit_and_single(void **state)
{
    (void)state;
    network net = {0};
    fresh(&net);
    net_segment *h = seg(&net, "h", NET_SEG_HUB, 100, 0.585);
    h->hub_bits = 488;
    hub_stations(h, 2, 100, 0);
    net_budget bud;
    net_budget_compute(&net, 1000000000ull, &bud);
    assert_float_equal(bud.pdv_bits, 4064, 1e-9);
    assert_true(bud.within);
    net_segment *k = seg(&net, "k", NET_SEG_HUB, 100, 0.585);
    k->hub_bits = 488;
    hub_stations(k, 1, 100, 2);
    net_repeater *up = rep(&net, "k-uplink", 0, true);
    port(up, 1, 1);
    port(up, 0, 0);
    net_budget_compute(&net, 1000000000ull, &bud);
    assert_false(bud.within);
    assert_string_equal(bud.verdict,
                        "2 repeaters in the collision domain (at most one at 1000 Mb/s, Clause "
                        "41); path delay value 5051.12 > 4096 bit times (h..k)");

    fresh(&net);
    net_segment *c = seg(&net, "bus", NET_SEG_COAX, 600, 0.77);
    coax_stations(c, 8, 0, 600, 0);
    net_budget_compute(&net, 10000000ull, &bud);
    assert_false(bud.pdv_defined);
    assert_float_equal(bud.model_round_trip_bits, 2 * 600 / (0.77 * C_M_S) * 1e7, 1e-9);
    assert_string_equal(bud.verdict, "segment bus: 600 m > 500 m (10BASE5, Table 13-3)");
    /* a lone station: no path */
    c->n_stations = 1;
    c->length_m = 500;
    net_budget_compute(&net, 10000000ull, &bud);
    assert_true(bud.within);
    assert_float_equal(bud.model_round_trip_bits, 0, 0);
    network_free(&net);
}

/* Without segments, the one bus or star as a single segment. */
static void test_view_of_medium(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 100basetx\nstations = 5\n");
    network net;
    assert_int_equal(scenario_network_view(&sc, &net), 0);
    assert_int_equal(net.n_segments, 1);
    assert_string_equal(net.segments[0].name, "hub");
    assert_int_equal(net.segments[0].hub_class, 2);
    net_budget bud;
    net_budget_compute(&net, sc.phy.rate_bps, &bud);
    /* 100 + 92 + 200 x 1.112 */
    assert_float_equal(bud.pdv_bits, 414.4, 1e-9);
    scenario_free(&sc);
    network_free(&net);
    scn_load_ok(&sc, "stations = 3\nlength = 400\n");
    assert_int_equal(scenario_network_view(&sc, &net), 0);
    assert_string_equal(net.segments[0].name, "bus");
    assert_true(net.segments[0].far_m == 400 && net.segments[0].near_m == 0);
    network_free(&net);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections_and_defaults),
        cmocka_unit_test(test_one_segment_is_today),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_budget_two_class_ii),
        cmocka_unit_test(test_budget_from_file),
        cmocka_unit_test(test_budget_model2),
        cmocka_unit_test(test_budget_543),
        cmocka_unit_test(test_budget_stations_at_one_place),
        cmocka_unit_test(test_budget_gigabit_and_single),
        cmocka_unit_test(test_view_of_medium),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
