/* test_budget.c - the 802.3 budget where check and run must agree
 * (stations/MODEL.md, "The budget"): a bridge's or a switch's
 * port on a half-duplex segment is an end of its domain's paths, priced
 * at every PHY and named in the verdict, and an over-long link that check
 * calls over shows late collisions when run (a 100 m one neither); a link
 * is one link segment (no phantom repeater, 100 m at every rate, not
 * coax), a full-duplex link has one verdict everywhere; a link's ends are
 * not placed by positions, span or drop; Model 2's excess AUI is each
 * cable's beyond its own 2 m (Table 13-3); when a repeater extends a
 * fragment; check's JSON is run's network object; a switch's run records
 * what ran.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "budget.h"
#include "engine.h"
#include "netreport.h"
#include "network.h"
#include "output.h"
#include "scenario.h"
#include "scenario_text.h"

#define C_M_S 299792458.0


/* The budget of domain d of a finished scenario, as check computes it. */
static void domain_budget(const scenario *sc, uint32_t d, net_budget *b, network *view)
{
    assert_int_equal(network_domain_view(&sc->net, d, view, NULL), 0);
    net_budget_compute(view, network_domain_rate(&sc->net, d), b);
}

/* check's listing of a finished scenario (freed by the caller). */
static char *check_text(const scenario *sc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(netreport_write_check(f, sc), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* ---- a switch's ports ---- */

/* Two stations on a switch, links of `metres` at `phy`: each link's
 * domain is a path from its station to the switch's port, priced by its
 * rate's tables (10 Mb/s: one link segment, its length the rule; 100:
 * 100 + 1.112 per metre; 1000: 864 + 11.12 per metre), and run agrees:
 * late collisions exactly when the budget is broken. */
static void switch_case(const char *phy, double metres, uint64_t rate, double pdv_base,
                        double pdv_per_m, bool over)
{
    char text[200];
    snprintf(text, sizeof text,
             "phy = %s\ntopology = switch\nstations = 2\nlength = %g\nduration = 4ms\n", phy,
             metres);
    scenario sc;
    scn_load_ok(&sc, text);
    network view = {0};
    for (uint32_t d = 0; d < 2; d++) {
        net_budget b;
        domain_budget(&sc, d, &b, &view);
        assert_int_equal(b.from_segment, 0);
        assert_int_equal(b.to_segment, 0);
        /* one end the station, the other the switch's port */
        assert_true((b.from_station == d && b.to_bridge == 0 && b.to_station == NET_BUDGET_NONE) ||
                    (b.to_station == d && b.from_bridge == 0 &&
                     b.from_station == NET_BUDGET_NONE));
        assert_int_equal(b.max_segments, 1);
        assert_int_equal(b.max_repeaters, 0);
        double rt = 2 * metres / (0.585 * C_M_S) * (double)rate;
        assert_double_equal(b.model_round_trip_bits, rt, 1e-6);
        assert_int_equal(b.pdv_defined, pdv_per_m > 0);
        if (pdv_per_m > 0)
            assert_double_equal(b.pdv_bits, pdv_base + metres * pdv_per_m, 1e-9);
        assert_int_equal(b.within, !over);
        if (over) {
            char want[120];
            snprintf(want, sizeof want, "segment link%u: a link of %g m > 100 m (a link segment)",
                     d + 1, metres);
            if (strstr(b.verdict, want) == NULL)
                fail_msg("%s: verdict '%s'", phy, b.verdict);
        }
    }
    network_free(&view);
    /* check names the port; the warning says over exactly when it is */
    char *listing = check_text(&sc);
    if (strstr(listing, "  worst path        port of switch (link1) .. station 1 (link1); ") == NULL)
        fail_msg("%s", listing);
    free(listing);
    assert_int_equal(strstr(scn_warn, "network: 2 of 2 collision domains are over 802.3's "
                                      "budget; the worst, domain link1: ") != NULL,
                     over);
    char line[1024];
    netreport_summary(&sc, line, sizeof line);
    assert_non_null(strstr(line, "worst path (domain link1) port of switch (link1) .. station 1"));
    /* run: late collisions when over, none when within */
    results r;
    engine *e = scn_run(&sc, &r);
    assert_true(r.frames_ok > 0);
    if (over && r.late_collisions == 0)
        fail_msg("%s, %g m: over budget, no late collision in %llu frames", phy, metres,
                 (unsigned long long)r.frames_ok);
    if (!over && r.late_collisions != 0)
        fail_msg("%s, %g m: within, %llu late collisions", phy, metres,
                 (unsigned long long)r.late_collisions);
    engine_destroy(e);
    scenario_free(&sc);
}

static void test_switch_ports_priced(void **state)
{
    (void)state;
    switch_case("10baset", 100, 10000000ull, 0, 0, false);
    switch_case("10baset", 5000, 10000000ull, 0, 0, true);
    switch_case("100basetx", 100, 100000000ull, 100, 1.112, false);
    switch_case("100basetx", 5000, 100000000ull, 100, 1.112, true);
    switch_case("1000baset", 100, 1000000000ull, 864, 11.12, false);
    switch_case("1000baset", 5000, 1000000000ull, 864, 11.12, true);
}

/* A bridge's port on a coax and on a hub: an end as a station is (the
 * farthest from the path's other end). Coax of 400 m, one station at 0,
 * the bridge's port at 400: the path is the whole cable, station 1 to the
 * port. A hub whose one station has a 20 m drop, the port's 90 m: 110 m
 * and the hub's 8 bit times. */
static void test_bridge_port_on_coax_and_hub(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "[segment c]\ntype = coax\nlength = 400\n"
                     "[segment h]\ntype = hub\nlength = 90\n"
                     "[bridge b]\nports = c@400, h\n"
                     "[group x]\nstations = 1\nsegment = c\n"
                     "[group y]\nstations = 1\nsegment = h\ndrop = 20\n");
    network view = {0};
    net_budget b;
    domain_budget(&sc, 0, &b, &view);
    assert_double_equal(b.model_round_trip_bits, 2 * 400 / (0.77 * C_M_S) * 1e7, 1e-9);
    assert_true(b.within);
    domain_budget(&sc, 1, &b, &view);
    assert_double_equal(b.model_round_trip_bits, 2 * (110 / (0.585 * C_M_S) * 1e7 + 8), 1e-9);
    assert_int_equal(b.max_repeaters, 1); /* the hub */
    network_free(&view);
    scenario_free(&sc);
}

/* ---- links ---- */

static void test_link_is_a_link_segment(void **state)
{
    (void)state;
    scenario sc;
    net_budget b;
    /* two stations on a 150 m 10BASE-T link: one link segment, no
     * repeater, over the link segment's 100 m */
    scn_load_ok(&sc, "phy = 10baset\n[segment l]\ntype = link\nlength = 150\n"
                     "[group a]\nstations = 2\nsegment = l\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_int_equal(b.max_segments, 1);
    assert_int_equal(b.max_repeaters, 0);
    assert_int_equal(b.max_coax, 0);
    assert_false(b.pdv_defined);
    assert_string_equal(b.verdict, "segment l: a link of 150 m > 100 m (a link segment)");
    char *listing = check_text(&sc);
    if (strstr(listing, "the longest path: 1 segment (0 coax), 0 repeaters\n") == NULL)
        fail_msg("%s", listing);
    free(listing);
    scenario_free(&sc);
    /* a hub's 150 m drop at the same PHY: the same rule */
    scn_load_ok(&sc, "phy = 10baset\n[segment h]\ntype = hub\nlength = 150\n"
                     "[group a]\nstations = 2\nsegment = h\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_string_equal(b.verdict, "segment h: a drop of 150 m > 100 m (a link segment)");
    scenario_free(&sc);
    /* the same link bridged to a coax: its domain's view keeps it a link
     * (not 10BASE2 coax with 185 m), the bridge's port its far end */
    scn_load_ok(&sc, "phy = 10baset\n[segment l]\ntype = link\nlength = 150\n"
                     "[segment c]\ntype = coax\n[bridge b]\nports = l, c@0\n"
                     "[group a]\nstations = 1\nsegment = l\n"
                     "[group x]\nstations = 2\nsegment = c\n");
    network view = {0};
    domain_budget(&sc, 0, &b, &view);
    assert_string_equal(b.verdict, "segment l: a link of 150 m > 100 m (a link segment)");
    network_free(&view);
    scenario_free(&sc);
    /* 100 m at 100 Mb/s: within, 100 + 100 x 1.112 */
    scn_load_ok(&sc, "phy = 100basetx\n[segment l]\ntype = link\nlength = 100\n"
                     "[group a]\nstations = 2\nsegment = l\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_true(b.within);
    assert_double_equal(b.pdv_bits, 211.2, 1e-9);
    scenario_free(&sc);
    /* a link between a station and a hub's repeater port: the link and
     * the hub's drop are two link segments, the repeater and the hub two
     * repeaters (Model 2 at 10 Mb/s: 10BASE-T left end 15.25 + 100 x
     * 0.113, mid 42 + 100 x 0.113 for the drop to r, right end 165 + 100 x
     * 0.113 for the station's drop on h) */
    scn_load_ok(&sc, "phy = 10baset\n[segment l]\ntype = link\nlength = 100\n"
                     "[segment h]\ntype = hub\n[repeater r]\nports = l, h\n"
                     "[group a]\nstations = 1\nsegment = l\n"
                     "[group x]\nstations = 1\nsegment = h\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_int_equal(b.max_segments, 3);
    assert_int_equal(b.max_repeaters, 2);
    assert_double_equal(b.pdv_bits, 15.25 + 42 + 165 + 3 * 11.3, 1e-9);
    scenario_free(&sc);
}

/* A full-duplex link: no collisions, the same verdict as a switch's
 * full-duplex links, in the budget, check, run's header and JSON. */
static void test_full_duplex_link(void **state)
{
    (void)state;
    scenario sc;
    net_budget b;
    scn_load_ok(&sc, "[segment l]\ntype = link\nduplex = full\nlength = 5000\n"
                     "[group a]\nstations = 2\nsegment = l\n");
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_true(b.full_duplex && b.within);
    assert_string_equal(b.verdict, NET_BUDGET_FULL_DUPLEX);
    assert_int_equal(b.from_segment, NET_BUDGET_NONE);
    assert_string_equal(scn_warn, "");
    char *listing = check_text(&sc);
    if (strstr(listing, "  verdict           full duplex: no collisions, no budget to keep\n") ==
        NULL)
        fail_msg("%s", listing);
    free(listing);
    char line[1024];
    netreport_summary(&sc, line, sizeof line);
    assert_string_equal(line, "1 segment, 0 repeaters; full duplex: no collisions, no budget to keep");
    json_t *j = netreport_json(&sc);
    json_t *d = json_array_get(json_object_get(j, "domains"), 0);
    assert_string_equal(json_string_value(json_object_get(d, "verdict")), NET_BUDGET_FULL_DUPLEX);
    json_decref(j);
    scenario_free(&sc);
    /* a switch's full-duplex links: the same */
    scn_load_ok(&sc, "topology = switch\nduplex = full\nstations = 2\n");
    netreport_summary(&sc, line, sizeof line);
    assert_string_equal(line, "2 segments, 0 repeaters, 1 bridge, 2 collision domains, 2 within "
                              "802.3's budget; full duplex: no collisions, no budget to keep");
    j = netreport_json(&sc);
    d = json_array_get(json_object_get(j, "domains"), 1);
    assert_string_equal(json_string_value(json_object_get(d, "verdict")), NET_BUDGET_FULL_DUPLEX);
    json_decref(j);
    scenario_free(&sc);
}

/* A link's ends sit at 0 and at its length: positions, span and drop are
 * refused there, as is a hub's uplink to it. */
static void test_link_placement_refused(void **state)
{
    (void)state;
    const char *head = "[segment l]\ntype = link\nlength = 80\n[group a]\nstations = 2\n"
                       "segment = l\n";
    static const struct {
        const char *line, *key;
    } cases[] = {{"positions = 0,80\n", "positions"},
                 {"span = 0-80\n", "span"},
                 {"drop = 10\n", "drop"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[300], expect[300];
        snprintf(text, sizeof text, "%s%s", head, cases[i].line);
        snprintf(expect, sizeof expect,
                 ":7: group a: %s: segment l is a link: its ends sit at 0 and at its length (80 m), "
                 "taken by its stations in order (%s is a coax's or a hub's)",
                 cases[i].key, cases[i].key);
        scn_refused(text, expect);
    }
    scn_refused("[segment h]\ntype = hub\nuplink = l@5\n[segment l]\ntype = link\n"
                "[group a]\nstations = 1\nsegment = h\n[group b]\nstations = 1\nsegment = l\n",
                ":3: [segment h] uplink: l is a link (two ends, a station or a port each): join "
                "the hub to it with a [repeater]");
}

/* ---- Model 2's excess AUI (Table 13-3) ---- */

/* Two hubs uplinked to the two ends of a 500 m 10BASE5 backbone through
 * 100 m of cable each, a station on each with a 100 m drop. Left end
 * 10BASE-T 15.25 + 11.3, the backbone mid 46.5 + 500 x 0.0866 = 89.8,
 * right end 165 + 11.3; each uplink cable an AUI of which Table 13-3's
 * values include 2 m at each end of the segment: 2 x 98 m x 0.1026 =
 * 20.1096 (not 198 m, the two summed less one 2 m). */
static void test_aui_each_end(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "[segment bb]\ntype = coax\nlength = 500\n"
                     "[segment h1]\ntype = hub\nlength = 100\nuplink = bb@0\n"
                     "[segment h2]\ntype = hub\nlength = 100\nuplink = bb@500\n"
                     "[group a]\nstations = 1\nsegment = h1\n"
                     "[group b]\nstations = 1\nsegment = h2\n");
    net_budget b;
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    assert_true(b.pdv_defined);
    assert_double_equal(b.pdv_bits, 26.55 + 89.8 + 2 * 98 * 0.1026 + 176.3, 1e-9);
    scenario_free(&sc);
}

/* ---- fragment extension (MODEL.md, "Repeaters: how a network runs") ---- */

/* The fragments extended in `duration` of a saturated run of `text`, at
 * repeater 0. */
static uint64_t extended(const char *text)
{
    scenario sc;
    scn_load_ok(&sc, text);
    results r;
    engine *e = scn_run(&sc, &r);
    assert_true(r.n_repeaters > 0);
    uint64_t n = r.repeaters[0].fragments_extended;
    assert_true(r.repeaters[0].transmit_collisions > 0);
    engine_destroy(e);
    scenario_free(&sc);
    return n;
}

/* With the profiles' 64-bit preamble and 32-bit jam, a repeater between
 * two coax segments answers collisions between its ports with outputs of
 * 96 bits or more: none extended; an 8-bit jam makes short ones. */
static void test_fragment_extension_when(void **state)
{
    (void)state;
    const char *chain = "duration = 20ms\n"
                        "[segment a]\ntype = coax\nlength = 500\n"
                        "[segment b]\ntype = coax\nlength = 500\n"
                        "[repeater r]\nports = a@500, b@0\n"
                        "[group x]\nstations = 1\nsegment = a\n"
                        "[group y]\nstations = 1\nsegment = b\npositions = 500\n";
    assert_int_equal(extended(chain), 0);
    char text[600];
    snprintf(text, sizeof text, "jam-bits = 8\n%s", chain);
    assert_true(extended(text) > 0);
}

/* ---- outputs ---- */

/* check --format json is run's `network` object, and a switch's JSON
 * scenario records the switch, its duplex and its links' length. */
static void test_json_records(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 100basetx\ntopology = switch\nstations = 2\nlength = 5000\n"
                     "duration = 1ms\n");
    results r;
    engine *e = scn_run(&sc, &r);
    char *run = NULL, *check = NULL;
    size_t run_len = 0, check_len = 0;
    FILE *f = open_memstream(&run, &run_len);
    output_run out = {.sc = engine_scenario(e), .r = &r};
    assert_int_equal(output_write(f, OUTPUT_JSON, &out), 0);
    assert_int_equal(fclose(f), 0);
    f = open_memstream(&check, &check_len);
    assert_int_equal(netreport_write_json(f, &sc), 0);
    assert_int_equal(fclose(f), 0);
    json_error_t jerr;
    json_t *jr = json_loads(run, 0, &jerr), *jc = json_loads(check, 0, &jerr);
    assert_non_null(jr);
    assert_non_null(jc);
    assert_true(json_equal(json_object_get(jr, "network"), jc));
    json_t *s = json_object_get(jr, "scenario");
    assert_string_equal(json_string_value(json_object_get(s, "topology")), "switch");
    assert_string_equal(json_string_value(json_object_get(s, "duplex")), "half");
    assert_double_equal(json_real_value(json_object_get(s, "length_m")), 5000, 0);
    json_t *d = json_array_get(json_object_get(jc, "domains"), 0);
    assert_string_equal(json_string_value(json_object_get(d, "from_bridge")), "switch");
    assert_false(json_boolean_value(json_object_get(d, "within")));
    json_decref(jr);
    json_decref(jc);
    free(run);
    free(check);
    engine_destroy(e);
    scenario_free(&sc);
    /* the PHY's 500 m is not what a switch's links run (100 m) */
    scn_load_ok(&sc, "topology = switch\nstations = 2\n");
    assert_double_equal(scenario_length_m(&sc), 100, 0);
    scenario_free(&sc);
}

/* ---- warnings ---- */

/* A switch of 64 long half-duplex links: every link's domain is over,
 * said in one line that counts them and names the worst (the first of
 * equals), not 64 lines that overflow the warnings' buffer (its 14th line
 * was cut short and the rest dropped). At two rates, one line per rate. A
 * buffer too small for a warning says so rather than drop it unsaid. */
static void test_warnings_summarized(void **state)
{
    (void)state;
    scenario sc;
    scn_load_ok(&sc, "phy = 100basetx\ntopology = switch\nduplex = half\nstations = 64\n"
                     "length = 5000\n");
    assert_string_equal(scn_warn,
                        "network: 64 of 64 collision domains are over 802.3's budget; the "
                        "worst, domain link1: path delay value 5660.00 > 512 bit times (link1); "
                        "segment link1: a link of 5000 m > 100 m (a link segment)");
    char small[120];
    char err[256];
    assert_int_equal(scenario_finish(&sc, err, sizeof err, small, sizeof small), 0);
    assert_string_equal(small, "more warnings than fit here: the rest are left out");
    scenario_free(&sc);
    /* links of 5000 m, two at 10BASE-T and three at 100BASE-TX: a line
     * per rate, which it names */
    scn_load_ok(&sc, "phy = 100basetx\ntopology = switch\nduplex = half\nlength = 5000\n"
                     "[group near]\nstations = 2\nphy = 10baset\n"
                     "[group fast]\nstations = 3\n");
    assert_string_equal(scn_warn,
                        "network: 2 of 2 collision domains at 10 Mb/s are over 802.3's budget; "
                        "the worst, domain link1: segment link1: a link of 5000 m > 100 m (a "
                        "link segment)\n"
                        "network: 3 of 3 collision domains at 100 Mb/s are over 802.3's budget; "
                        "the worst, domain link3: path delay value 5660.00 > 512 bit times "
                        "(link3); segment link3: a link of 5000 m > 100 m (a link segment)");
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switch_ports_priced),
        cmocka_unit_test(test_bridge_port_on_coax_and_hub),
        cmocka_unit_test(test_link_is_a_link_segment),
        cmocka_unit_test(test_full_duplex_link),
        cmocka_unit_test(test_link_placement_refused),
        cmocka_unit_test(test_aui_each_end),
        cmocka_unit_test(test_fragment_extension_when),
        cmocka_unit_test(test_json_records),
        cmocka_unit_test(test_warnings_summarized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
