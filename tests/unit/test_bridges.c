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

#include "network.h"
#include "scenario.h"

static char err[1024], warn[2048];
static char path[64];

static void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/test_bridges_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int load(scenario *sc, const char *text)
{
    scenario_defaults(sc);
    write_file(text);
    int rc = scenario_load_file(sc, path, err, sizeof err);
    if (rc == 0)
        rc = scenario_finish(sc, err, sizeof err, warn, sizeof warn);
    unlink(path);
    return rc;
}

static void load_ok(scenario *sc, const char *text)
{
    if (load(sc, text) != 0)
        fail_msg("refused: %s", err);
}

static const char *after_path(const char *msg)
{
    size_t n = strlen(path);
    return strncmp(msg, path, n) == 0 ? msg + n : msg;
}

static void refused(const char *text, const char *expect)
{
    scenario sc;
    if (load(&sc, text) == 0)
        fail_msg("accepted, expected: %s", expect);
    if (strcmp(after_path(err), expect) != 0)
        fail_msg("message\n  %s\nexpected\n  %s", after_path(err), expect);
    scenario_free(&sc);
}

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
    refused(TWO, ":20: [bridge sw2] ports: a loop: segment office is already joined to up "
                 "through other bridges or repeaters; csmacd does not model the spanning tree "
                 "(802.1D), so bridges and repeaters must form a tree");
    char text[2048];
    snprintf(text, sizeof text, "%s", TWO);
    char *p = strstr(text, "ports = up, office@20");
    memcpy(p, "ports = up        \n", 19); /* one port: refused too */
    p[19] = '#';
    refused(text, ":20: [bridge sw2] ports: a bridge needs at least two ports (one per segment "
                  "it joins)");
    /* Without sw2: lab and server one domain (the repeater), office, up. */
    snprintf(text, sizeof text, "%.*s", (int)(strstr(TWO, "[bridge sw2]") - TWO), TWO);
    strcat(text, "[group pcs]\nstations = 4\nsegment = lab\n[group clerks]\nstations = 3\n"
                 "segment = office\n[group srv]\nstations = 1\nsegment = server\n"
                 "[segment far]\ntype = link\n[bridge sw2]\nports = up, far\n"
                 "[group lone]\nstations = 1\nsegment = far\n");
    load_ok(&sc, text);
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
    /* and back to a bus: no network */
    assert_int_equal(scenario_set(&sc, "topology", "bus", e, sizeof e), 0);
    assert_int_equal(scenario_set(&sc, "duplex", "half", e, sizeof e), 0);
    assert_int_not_equal(scenario_finish(&sc, e, sizeof e, w, sizeof w), 0);
    assert_string_equal(e, "duplex: only with topology = switch (in a network of segments, "
                           "give each link its own duplex)");
    scenario_free(&sc);
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
    refused("[segment a]\ntype = hub\nduplex = full\n[segment b]\ntype = link\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":3: [segment a] duplex: full duplex needs a link of two ends (type = link); a hub "
            "is shared, hence half duplex");
    refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":1: [segment a] a link has exactly two ends, a station or a port each; this one "
            "has 3 (2 stations and 1 port)");
    refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 1\nsegment = b\n",
            ":1: [segment a] a link has exactly two ends, a station or a port each; this one "
            "has 1 (0 stations and 1 port)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
            "[bridge x]\nports = a, b\n[bridge y]\nports = b, a\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":8: [bridge y] ports: a loop: segment a is already joined to b through other "
            "bridges or repeaters; csmacd does not model the spanning tree (802.1D), so "
            "bridges and repeaters must form a tree");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[repeater r]\nports = a, b\n"
            "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
            ":8: [bridge x] ports: a loop: segment b is already joined to a through other "
            "bridges or repeaters; csmacd does not model the spanning tree (802.1D), so "
            "bridges and repeaters must form a tree");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, a\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: two ports on segment a (a bridge joins different segments)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, c\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: there is no [segment c]");
    refused("[segment a]\ntype = coax\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: a port on coax segment a needs its position (a@METRES)");
    refused("[segment a]\ntype = coax\n[segment b]\ntype = hub\n[bridge x]\nports = a@600, b\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":6: [bridge x] ports: a@600 is beyond the end of the 500 m cable");
    refused("[segment a]\ntype = link\n[segment b]\ntype = hub\n[bridge x]\nports = a@5, b\n"
            "[group g]\nstations = 1\nsegment = a\n",
            ":6: [bridge x] ports: a is a link: a port takes one of its two ends (write a, "
            "without @METRES)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "queue = 0\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] queue: 0 is out of range (1 to 1000000)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "ageing = 0s\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] ageing: must be longer than 0 (802.1D's default is 300s)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge x]\nports = a, b\n"
            "speed = 3\n[group g]\nstations = 2\nsegment = a\n",
            ":7: [bridge x] unknown key 'speed' (ports, queue, latency, ageing)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
            "[group g]\nstations = 2\nsegment = a\n",
            ":3: [segment b] is not joined to segment a: no repeater, uplink or bridge links "
            "them (a network is connected)");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = hub\n[bridge a]\nports = a, b\n",
            ":5: [bridge a] the name is taken by [segment a] (line 1): segments, repeaters, "
            "bridges and groups share one namespace");
    refused("[segment a]\ntype = hub\n[segment b]\ntype = link\nduplex = full\n"
            "[repeater r]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n"
            "[group h]\nstations = 1\nsegment = b\n",
            ":7: [repeater r] ports: a repeater's port is half duplex, and the link it is on "
            "is full duplex");
    refused("topology = switch\n[segment a]\ntype = hub\n[group g]\nstations = 2\nsegment = a\n",
            "topology: switch builds its own network (a link per station to one bridge); with "
            "[segment] sections, write the [bridge] yourself");
    refused("topology = switch\n[group g]\nstations = 2\ndrop = 5\n",
            "group g: with topology = switch every station sits alone on its link (no segment, "
            "positions, span or drop)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections_and_domains),
        cmocka_unit_test(test_switch_shorthand),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
