/* test_groups.c - stations in groups (stations/MODEL.md, "Stations in
 * groups"): a split into groups with the same keys is byte-identical to no
 * split; the groups' measures add up to the run's; every per-station key
 * is inherited and overridden, in any order; every medium-wide key and
 * every bad group is refused with its message; the weakest-link outcomes
 * (one station that never backs off takes the whole saturated channel,
 * two bring it to zero); dest = group:NAME; replies counted and timed to
 * the picosecond on a hand-computed geometry. Groups in scenario files are
 * test_scenario's (test_group_file).
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

#include "engine.h"
#include "scenario.h"

static char err[1024], warn[2048];

static void set_ok(scenario *sc, const char *key, const char *value)
{
    if (scenario_set(sc, key, value, err, sizeof err) != 0)
        fail_msg("%s=%s refused: %s", key, value, err);
}

static void group_ok(scenario *sc, const char *spec)
{
    if (scenario_group_spec(sc, spec, err, sizeof err) != 0)
        fail_msg("group '%s' refused: %s", spec, err);
}

static void finish_ok(scenario *sc)
{
    if (scenario_finish(sc, err, sizeof err, warn, sizeof warn) != 0)
        fail_msg("scenario refused: %s", err);
}

/* A finished run's results, with copies of what the engine owns. */
typedef struct run_out {
    results r;
    station_result *st;
    group_result *gr;
} run_out;

/* Runs sc to its end, with `sink` (may be NULL) watching the trace. */
static void run_watched(const scenario *sc, const trace_sink *sink, run_out *out)
{
    engine *e = NULL;
    if (engine_create(sc, &e, err, sizeof err) != 0)
        fail_msg("engine: %s", err);
    if (sink != NULL)
        assert_int_equal(engine_add_sink(e, *sink), 0);
    assert_int_equal(engine_run_all(e), ENGINE_DONE);
    engine_results(e, &out->r);
    out->st = malloc(out->r.n_stations * sizeof *out->st);
    memcpy(out->st, out->r.stations, out->r.n_stations * sizeof *out->st);
    out->gr = NULL;
    if (out->r.n_groups) {
        out->gr = malloc(out->r.n_groups * sizeof *out->gr);
        memcpy(out->gr, out->r.groups, out->r.n_groups * sizeof *out->gr);
    }
    engine_destroy(e);
}

static void run(const scenario *sc, run_out *out)
{
    run_watched(sc, NULL, out);
}

static void run_free(run_out *o)
{
    free(o->st);
    free(o->gr);
}

/* The run-level measures and every station's counters, compared exactly. */
static void assert_same_run(const run_out *a, const run_out *b)
{
    assert_int_equal(a->r.n_stations, b->r.n_stations);
    assert_int_equal(a->r.events, b->r.events);
    assert_true(a->r.throughput == b->r.throughput);
    assert_true(a->r.throughput_ci95 == b->r.throughput_ci95);
    assert_true(a->r.offered_load == b->r.offered_load);
    assert_true(a->r.mean_delay_us == b->r.mean_delay_us);
    assert_true(a->r.p99_delay_us == b->r.p99_delay_us);
    assert_int_equal(a->r.collisions, b->r.collisions);
    assert_int_equal(a->r.frames_ok, b->r.frames_ok);
    assert_int_equal(a->r.capture_max_run, b->r.capture_max_run);
    for (uint32_t s = 0; s < a->r.n_stations; s++) {
        assert_memory_equal(&a->st[s].c, &b->st[s].c, sizeof a->st[s].c);
        assert_int_equal(a->st[s].bits_delivered, b->st[s].bits_delivered);
        assert_int_equal(a->st[s].queue_len, b->st[s].queue_len);
    }
}

/* The same population, whole and split into groups with the same keys:
 * the draws belong to stations, so nothing may change. */
static void test_split_is_identical(void **state)
{
    (void)state;
    static const struct {
        const char *traffic, *extra_key, *extra_value, *load_all, *load_a, *load_b;
    } cases[] = {
        {"saturated", "frame-size", "64-1518", NULL, NULL, NULL},
        {"batch", "batch", "3", NULL, NULL, NULL},
        /* 0.5 over 8 and 0.25 over 4: the same rate to the last bit */
        {"poisson", "frame-size", "512", "0.5", "0.25", "0.25"},
        {"onoff", "on-off", "1ms/3ms", "0.5", "0.25", "0.25"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scenario whole, split;
        scenario_defaults(&whole);
        set_ok(&whole, "traffic", cases[i].traffic);
        set_ok(&whole, cases[i].extra_key, cases[i].extra_value);
        set_ok(&whole, "duration", "20ms");
        set_ok(&whole, "seed", "7");
        assert_int_equal(scenario_copy(&split, &whole), 0);
        set_ok(&whole, "stations", "8");
        if (cases[i].load_all)
            set_ok(&whole, "load", cases[i].load_all);
        char a[128], b[128];
        snprintf(a, sizeof a, "a stations=4%s%s", cases[i].load_a ? " load=" : "",
                 cases[i].load_a ? cases[i].load_a : "");
        snprintf(b, sizeof b, "b stations=4%s%s", cases[i].load_b ? " load=" : "",
                 cases[i].load_b ? cases[i].load_b : "");
        group_ok(&split, a);
        group_ok(&split, b);
        finish_ok(&whole);
        finish_ok(&split);
        run_out x, y;
        run(&whole, &x);
        run(&split, &y);
        print_message("%s: %llu events, S = %.6f\n", cases[i].traffic,
                      (unsigned long long)x.r.events, x.r.throughput);
        assert_true(x.r.frames_ok > 0);
        assert_int_equal(x.r.n_groups, 0);
        assert_int_equal(y.r.n_groups, 2);
        assert_same_run(&x, &y);
        run_free(&x);
        run_free(&y);
        scenario_free(&whole);
        scenario_free(&split);
    }
}

/* Light, heavy and empty groups behind queues of 4, after a warm-up: the
 * light group's queues overflow behind the heavy one's long frames. */
static void three_groups(scenario *sc)
{
    scenario_defaults(sc);
    set_ok(sc, "traffic", "poisson");
    set_ok(sc, "duration", "50ms");
    set_ok(sc, "warmup", "5ms");
    set_ok(sc, "queue", "4");
    group_ok(sc, "light stations=5 load=0.2 frame-size=64");
    group_ok(sc, "heavy stations=3 load=1.2 frame-size=1518 policy=fixed");
    group_ok(sc, "none stations=0");
    finish_ok(sc);
}

/* The groups' counts and throughputs add up to the run's. */
static void test_groups_add_up(void **state)
{
    (void)state;
    scenario sc;
    three_groups(&sc);
    run_out o;
    run(&sc, &o);
    assert_int_equal(o.r.n_groups, 3);
    uint64_t ok = 0, offered = 0, aborted = 0, dropped = 0, queued = 0;
    double s = 0, share = 0;
    uint32_t stations = 0;
    for (uint32_t g = 0; g < o.r.n_groups; g++) {
        ok += o.gr[g].frames_ok;
        offered += o.gr[g].frames_offered;
        aborted += o.gr[g].frames_aborted;
        dropped += o.gr[g].frames_dropped;
        queued += o.gr[g].frames_queued;
        s += o.gr[g].throughput;
        share += o.gr[g].share;
        stations += o.gr[g].stations;
    }
    assert_int_equal(stations, 8);
    assert_int_equal(ok, o.r.frames_ok);
    assert_int_equal(offered, o.r.frames_offered);
    assert_int_equal(aborted, o.r.frames_aborted + o.r.frames_late_discarded);
    assert_int_equal(dropped, o.r.frames_dropped);
    assert_int_equal(queued, o.r.frames_queued);
    assert_true(fabs(s - o.r.throughput) < 1e-12);
    assert_true(fabs(share - 1.0) < 1e-12);
    /* the light group's queues overflow behind the heavy one's long frames */
    assert_true(o.r.frames_dropped > 0 && o.gr[0].frames_dropped > 0);
    /* Configured loads are written down; the empty group has nothing. */
    assert_true(o.gr[0].load == 0.2 && o.gr[1].load == 1.2);
    assert_int_equal(o.gr[2].frames_offered, 0);
    assert_true(isnan(o.gr[2].jain_fairness));
    /* Offered load: within 10 % of the configured G over 45 ms. */
    assert_true(fabs(o.gr[0].offered_load - 0.2) < 0.02);
    assert_true(fabs(o.gr[1].offered_load - 1.2) < 0.12);
    /* Stations are numbered group by group, in declaration order. */
    assert_int_equal(o.gr[0].first, 0);
    assert_int_equal(o.gr[1].first, 5);
    assert_int_equal(scenario_group_of(&sc, 4), 0);
    assert_int_equal(scenario_group_of(&sc, 5), 1);
    assert_int_equal(scenario_group_of(&sc, 7), 1);
    run_free(&o);
    scenario_free(&sc);
}

/* Equal, or both NAN. */
static bool same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* A sink that wants every event whole, and does nothing with it. */
static void ignore(void *ctx, const trace_event *ev)
{
    (void)ctx;
    (void)ev;
}

/* Runs sc as it is, where the statistics take tallies (trace_tally), and
 * with a sink that wants every event whole: *tallied and *whole. */
static void run_both_ways(const scenario *sc, run_out *tallied, run_out *whole)
{
    run(sc, tallied);
    run_watched(sc, &(trace_sink){.on_event = ignore}, whole);
}

/* The two runs of run_both_ways measured the same, the run and every group. */
static void assert_same_measures(run_out *tallied, run_out *whole)
{
    assert_same_run(tallied, whole);
    assert_true(tallied->r.p50_delay_us == whole->r.p50_delay_us);
    assert_true(tallied->r.max_delay_us == whole->r.max_delay_us);
    assert_true(tallied->r.jain_fairness == whole->r.jain_fairness);
    assert_true(tallied->r.capture_mean_run == whole->r.capture_mean_run);
    for (uint32_t g = 0; g < tallied->r.n_groups; g++) { /* (an empty one's: NAN) */
        assert_true(same(tallied->gr[g].throughput, whole->gr[g].throughput));
        assert_true(same(tallied->gr[g].offered_load, whole->gr[g].offered_load));
        assert_true(same(tallied->gr[g].mean_delay_us, whole->gr[g].mean_delay_us));
        assert_true(same(tallied->gr[g].p99_delay_us, whole->gr[g].p99_delay_us));
    }
    run_free(tallied);
    run_free(whole);
}

/* The statistics take a tally of each frame event (trace_tally) where no
 * sink wants the event whole, else the event: both give the same
 * measures, the run's and every group's (arrivals, drops, successes,
 * aborts and deliveries, across the warm-up's edge). */
static void test_tally_as_events(void **state)
{
    (void)state;
    scenario sc;
    three_groups(&sc);
    run_out tallied, whole;
    run_both_ways(&sc, &tallied, &whole);
    assert_true(tallied.r.frames_dropped > 0 && tallied.r.frames_aborted > 0);
    assert_same_measures(&tallied, &whole);
    scenario_free(&sc);
}

/* The same on a switch of half-duplex links: the stations' frame events
 * reach the statistics through the bridge ports' filter as tallies, the
 * ports' own stay whole for their bridge (its queue and forwarding). */
static void test_tally_through_a_switch(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "topology", "switch");
    set_ok(&sc, "duplex", "half");
    set_ok(&sc, "traffic", "poisson");
    set_ok(&sc, "duration", "50ms");
    set_ok(&sc, "warmup", "5ms");
    group_ok(&sc, "light stations=5 load=0.2 frame-size=64");
    group_ok(&sc, "heavy stations=3 load=1.2 frame-size=1518");
    finish_ok(&sc);
    run_out tallied, whole;
    run_both_ways(&sc, &tallied, &whole);
    assert_true(tallied.r.frames_ok > 0 && tallied.r.collisions > 0);
    assert_same_measures(&tallied, &whole);
    scenario_free(&sc);
}

/* A group inherits every per-station key it does not set, whichever order
 * the defaults and the group came in, and its own value wins. The load
 * outside the groups is the total of the groups that set none and whose
 * traffic has one, shared by their stations (3 and 2 here). Each key is
 * tried with a traffic that uses it (a key without effect is refused). */
static void test_inherit_and_override(void **state)
{
    (void)state;
    static const struct {
        const char *key, *value_default, *value_group, *traffic;
    } keys[] = {
        {"traffic", "poisson", "onoff", NULL}, {"load", "0.3", "0.6", "poisson"},
        {"frame-size", "100", "200-300", NULL}, {"dest", "broadcast", "random", NULL},
        {"batch", "3", "5", "batch"},          {"on-off", "2ms/8ms", "1ms/1ms", "onoff"},
        {"queue", "7", "9", NULL},              {"policy", "fixed", "none", NULL},
        {"reply", "200", "1518", NULL},         {"think", "1ms", "2ms", NULL},
        {"span", "100-200", "0-50", NULL},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        for (int order = 0; order < 2; order++) {
            scenario sc;
            scenario_defaults(&sc);
            char spec[160];
            snprintf(spec, sizeof spec, "own stations=2 %s=%s", keys[i].key,
                     keys[i].value_group);
            if (keys[i].traffic != NULL)
                set_ok(&sc, "traffic", keys[i].traffic);
            if (order == 0)
                set_ok(&sc, keys[i].key, keys[i].value_default);
            group_ok(&sc, "heir stations=3");
            group_ok(&sc, spec);
            if (order == 1)
                set_ok(&sc, keys[i].key, keys[i].value_default);
            if (scenario_finish(&sc, err, sizeof err, warn, sizeof warn) != 0)
                fail_msg("%s: %s", keys[i].key, err);
            const station_group *heir = scenario_group_at(&sc, 0);
            const station_group *own = scenario_group_at(&sc, 1);
            /* Each group as a scenario of its own value would be. */
            scenario want_d, want_g;
            scenario_defaults(&want_d);
            scenario_defaults(&want_g);
            if (keys[i].traffic != NULL) {
                set_ok(&want_d, "traffic", keys[i].traffic);
                set_ok(&want_g, "traffic", keys[i].traffic);
            }
            set_ok(&want_d, keys[i].key, keys[i].value_default);
            set_ok(&want_g, keys[i].key, keys[i].value_group);
            /* The shared load: the total over the stations of the groups
             * that set no load of their own and whose traffic has one. */
            bool own_load = strcmp(keys[i].key, "load") == 0;
            bool heir_uses = want_d.traffic.kind == TRAFFIC_POISSON ||
                             want_d.traffic.kind == TRAFFIC_ONOFF;
            bool own_uses = !own_load && (want_g.traffic.kind == TRAFFIC_POISSON ||
                                          want_g.traffic.kind == TRAFFIC_ONOFF);
            double total = want_d.traffic.load;
            double sharing = (heir_uses ? 3 : 0) + (own_uses ? 2 : 0);
            if (heir_uses)
                want_d.traffic.load = total * 3 / sharing;
            if (own_uses)
                want_g.traffic.load = total * 2 / sharing;
            assert_memory_equal(&heir->traffic, &want_d.traffic, sizeof heir->traffic);
            assert_memory_equal(&own->traffic, &want_g.traffic, sizeof own->traffic);
            assert_string_equal(heir->policy, want_d.policy);
            assert_string_equal(own->policy, want_g.policy);
            assert_int_equal(heir->queue_capacity, want_d.queue_capacity);
            assert_int_equal(own->queue_capacity, want_g.queue_capacity);
            assert_memory_equal(&heir->reply, &want_d.reply, sizeof heir->reply);
            assert_memory_equal(&own->reply, &want_g.reply, sizeof own->reply);
            assert_int_equal(heir->place, want_d.place);
            assert_true(heir->place_from_m == want_d.place_from_m);
            assert_true(own->place_from_m == want_g.place_from_m);
            scenario_free(&want_d);
            scenario_free(&want_g);
            scenario_free(&sc);
        }
    }
}

/* Placement: span on a bus, drop on a star, positions; and the stations
 * of a group that places nothing where the default puts them. */
static void test_placement(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    group_ok(&sc, "left stations=3 span=0-100");
    group_ok(&sc, "one stations=1 span=250-250");
    group_ok(&sc, "fixed stations=2 positions=400,420");
    group_ok(&sc, "rest stations=2");
    finish_ok(&sc);
    static const double want[] = {0, 50, 100, 250, 400, 420, 500.0 * 6 / 7, 500};
    for (uint32_t i = 0; i < 8; i++)
        assert_true(scenario_station_metres(&sc, i) == want[i]);
    scenario_free(&sc);

    scenario_defaults(&sc);
    set_ok(&sc, "phy", "10baset");
    group_ok(&sc, "near stations=2 drop=5");
    group_ok(&sc, "far stations=1 drop=90");
    finish_ok(&sc);
    assert_true(scenario_station_metres(&sc, 0) == 5 && scenario_station_metres(&sc, 2) == 90);
    scenario_free(&sc);
}

static void refuse(scenario *sc, const char *expect)
{
    int rc = scenario_finish(sc, err, sizeof err, warn, sizeof warn);
    if (rc == 0)
        fail_msg("accepted, expected '%s'", expect);
    if (strstr(err, expect) == NULL)
        fail_msg("'%s' does not contain '%s'", err, expect);
}

/* Every medium-wide key in a group, and every bad group. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const medium_keys[] = {
        "duration=1s", "warmup=1ms", "seed=3", "outage=1ms+1ms",
        "batches=5", "topology=star", "length=100", "probe=10", "rate=10M",
        "slot-bits=512", "velocity=0.5", "attempt-limit=3", "retry-late=no",
        "pcap-time-scale=2"};
    for (size_t i = 0; i < sizeof medium_keys / sizeof medium_keys[0]; i++) {
        scenario sc;
        scenario_defaults(&sc);
        char spec[80], key[40], want[160];
        snprintf(spec, sizeof spec, "g stations=1 %s", medium_keys[i]);
        snprintf(key, sizeof key, "%.*s", (int)strcspn(medium_keys[i], "="), medium_keys[i]);
        snprintf(want, sizeof want,
                 "group g: %s is a key of the whole medium; set it outside the groups", key);
        assert_int_equal(scenario_group_spec(&sc, spec, err, sizeof err), -1);
        assert_string_equal(err, want);
        scenario_free(&sc);
    }
    static const struct {
        const char *spec, *expect, *spec2;
    } bad[] = {
        {"g stations=2 positions=1,2,3", "group g: positions: 3 given for 2 stations", NULL},
        {"g stations=2 span=0-600",
         "group g: span: 600 m is beyond the end of the 500 m cable", NULL},
        {"g stations=2 drop=5", "group g: drop: drop cables need a star", NULL},
        {"g stations=2 dest=group:nobody", "group g: dest: group nobody does not exist", NULL},
        {"g stations=2 dest=group:h", "group g: dest: group h has no station", "h stations=0"},
        {"g stations=2 traffic=poisson load=0",
         "group g: load: poisson traffic needs a load above 0", NULL},
        {"g stations=2 frame-size=2000",
         "group g: frame-size: 2000 bytes is above max-frame (1518 bytes)", NULL},
        {"g stations=2 reply=1600", "group g: reply: 1600 bytes is above max-frame", NULL},
        {"9lives stations=1", "a name is 1 to 32 letters", NULL},
        {"a.b stations=1", "a name is 1 to 32 letters", NULL},
        {"abcdefghijklmnopqrstuvwxyzabcdefg stations=1", "a name is 1 to 32 letters", NULL},
        {"g stations=-1", "group g: stations:", NULL},
        {"g stations=10001", "group g: stations:", NULL},
        {"g colour=red", "group g: unknown key 'colour'", NULL},
        {"g load", "group g: 'load' is not KEY=VALUE", NULL},
        {"g traffic=pcap:x.pcap", "cannot be a group's", NULL},
        {"g stations=1 policy=nosuch", "group g: ", NULL},
        {"", "is not NAME KEY=VALUE", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scenario sc;
        scenario_defaults(&sc);
        int rc = scenario_group_spec(&sc, bad[i].spec, err, sizeof err);
        if (rc == 0 && bad[i].spec2 != NULL)
            rc = scenario_group_spec(&sc, bad[i].spec2, err, sizeof err);
        if (rc == 0)
            rc = scenario_finish(&sc, err, sizeof err, warn, sizeof warn);
        if (rc == 0 || strstr(err, bad[i].expect) == NULL)
            fail_msg("'%s': rc %d, '%s' (want '%s')", bad[i].spec, rc, err, bad[i].expect);
        scenario_free(&sc);
    }
    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(scenario_group_add(&sc, "g", err, sizeof err), 0);
    assert_int_equal(scenario_group_add(&sc, "g", err, sizeof err), -1);
    assert_string_equal(err, "group g: declared twice");
    assert_int_equal(scenario_set(&sc, "h.stations", "2", err, sizeof err), -1);
    assert_non_null(strstr(err, "there is no group h"));
    refuse(&sc, "stations: every group has 0 stations");
    set_ok(&sc, "g.stations", "6000");
    group_ok(&sc, "h stations=4001");
    refuse(&sc, "group h: its 4001 stations make 10001 in all (at most 10000)");
    set_ok(&sc, "h.stations", "1");
    set_ok(&sc, "stations", "4");
    refuse(&sc, "stations: the groups give the number of stations");
    scenario_free(&sc);

}

/* Boggs, Mogul and Kent (1988): a network is only as good as its weakest
 * implementation. Saturated 10BASE5, 500 m, 512-byte frames, 16 stations:
 * one station that never backs off sends every frame that gets through;
 * two such stations bring the throughput to zero for everyone. */
static void test_weakest_link(void **state)
{
    (void)state;
    for (uint32_t rogues = 1; rogues <= 2; rogues++) {
        scenario sc;
        scenario_defaults(&sc);
        set_ok(&sc, "frame-size", "512");
        set_ok(&sc, "duration", "500ms");
        char spec[64];
        snprintf(spec, sizeof spec, "rogue stations=%u policy=none", rogues);
        group_ok(&sc, spec);
        snprintf(spec, sizeof spec, "good stations=%u", 16 - rogues);
        group_ok(&sc, spec);
        finish_ok(&sc);
        run_out o;
        run(&sc, &o);
        const group_result *rogue = &o.gr[0], *good = &o.gr[1];
        print_message("%u rogue(s): S = %.4f, rogue %llu ok, good %llu ok, %llu aborted\n",
                      rogues, o.r.throughput, (unsigned long long)rogue->frames_ok,
                      (unsigned long long)good->frames_ok,
                      (unsigned long long)good->frames_aborted);
        assert_int_equal(good->frames_ok, 0);
        assert_true(good->frames_aborted >= 15); /* each gave up frames at 16 attempts */
        if (rogues == 1) {
            assert_int_equal(rogue->frames_ok, 1148); /* the independent model's count */
            assert_true(rogue->share == 1.0);
            assert_true(o.r.throughput > 0.94);
        } else {
            assert_int_equal(o.r.frames_ok, 0);
            assert_true(o.r.throughput == 0);
        }
        run_free(&o);
        scenario_free(&sc);
    }
}

/* Receptions whole, by destination. */
typedef struct tally {
    uint64_t to[8];
} tally;

static void count_delivered(void *ctx, const trace_event *ev)
{
    tally *t = ctx;
    if (ev->kind == TRACE_DELIVER && ev->ok && ev->dest < 8)
        t->to[ev->dest]++;
}

/* dest = group:NAME: every frame of the clients goes to one of the
 * servers, drawn uniformly; a server of traffic none sends nothing. */
static void test_dest_group(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "traffic", "poisson");
    set_ok(&sc, "duration", "500ms");
    group_ok(&sc, "servers stations=2 traffic=none");
    group_ok(&sc, "clients stations=6 load=0.3 dest=group:servers");
    finish_ok(&sc);
    const station_group *clients = scenario_group_at(&sc, 1);
    assert_int_equal(clients->traffic.dest, DEST_SERVER);
    assert_int_equal(clients->traffic.server, 0);
    assert_int_equal(clients->traffic.server_count, 2);
    tally t = {{0}};
    run_out o;
    run_watched(&sc, &(trace_sink){.on_event = count_delivered, .ctx = &t}, &o);
    uint64_t to_servers = t.to[0] + t.to[1], others = 0;
    for (int i = 2; i < 8; i++)
        others += t.to[i];
    print_message("to server 1: %llu, server 2: %llu, others %llu\n",
                  (unsigned long long)t.to[0], (unsigned long long)t.to[1],
                  (unsigned long long)others);
    assert_int_equal(others, 0);
    assert_int_equal(to_servers, o.r.frames_delivered);
    assert_int_equal(o.gr[0].frames_offered, 0);
    assert_true(to_servers > 300); /* 366 expected: 0.3 * 10 Mb/s * 0.5 s / 4096 bits */
    /* uniform: each server within 4 sigma of half */
    double half = to_servers / 2.0, sigma = sqrt(to_servers * 0.25);
    assert_true(fabs((double)t.to[0] - half) < 4 * sigma);
    run_free(&o);
    scenario_free(&sc);
}

/* dest = local:P: each group's stations send that share of their frames
 * to their own group and the rest to the other (two groups of 4, P =
 * 0.75, saturated 512-byte frames, 500 ms, the default seed: 1147 frames
 * delivered whole, 877 of them within a group, 0.765: within 4 sigma of
 * 0.75),
 * written back as given; the refusals name the group and the side that
 * has no station; a scenario without local draws as it did. */
typedef struct local_tally {
    uint64_t stayed, crossed;
} local_tally;

static void count_local(void *ctx, const trace_event *ev)
{
    local_tally *t = ctx;
    if (ev->kind != TRACE_DELIVER || !ev->ok || ev->dest >= 8 || ev->station >= 8)
        return;
    if ((ev->station < 4) == (ev->dest < 4))
        t->stayed++;
    else
        t->crossed++;
}

static void test_dest_local(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "frame-size", "512");
    set_ok(&sc, "duration", "500ms");
    set_ok(&sc, "dest", "local:0.75");
    group_ok(&sc, "east stations=4");
    group_ok(&sc, "west stations=4");
    finish_ok(&sc);
    const station_group *west = scenario_group_at(&sc, 1);
    assert_int_equal(west->traffic.dest, DEST_LOCAL);
    assert_int_equal(west->traffic.group_first, 4);
    assert_int_equal(west->traffic.group_count, 4);
    char text[64];
    scenario_dest_text(&west->traffic, text, sizeof text);
    assert_string_equal(text, "local:0.75");
    local_tally t = {0};
    run_out o;
    run_watched(&sc, &(trace_sink){.on_event = count_local, .ctx = &t}, &o);
    uint64_t n = t.stayed + t.crossed;
    print_message("stayed %llu, crossed %llu\n", (unsigned long long)t.stayed,
                  (unsigned long long)t.crossed);
    assert_true(n > 1000);
    double sigma = sqrt((double)n * 0.75 * 0.25);
    assert_true(fabs((double)t.stayed - 0.75 * (double)n) < 4 * sigma);
    run_free(&o);
    scenario_free(&sc);

    static const struct {
        const char *dest, *a, *b, *expect;
    } bad[] = {
        {"local:0.5", "a stations=1", "b stations=3",
         "group a: dest: local:0.5 sends that share of the frames to another station of the "
         "group, and it has one station"},
        {"local:0.5", "a stations=3", "b stations=0",
         "group a: dest: local:0.5 sends 0.5 of the frames outside the group, and there is no "
         "station outside it"},
        {"local:1.5", NULL, NULL, "dest: 1.5"},
        {"local:x", NULL, NULL, "dest: "},
        {"local:", NULL, NULL, "dest: "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scenario_defaults(&sc);
        if (bad[i].a == NULL) {
            assert_int_not_equal(scenario_set(&sc, "dest", bad[i].dest, err, sizeof err), 0);
            if (strstr(err, bad[i].expect) == NULL)
                fail_msg("'%s' does not contain '%s'", err, bad[i].expect);
        } else {
            set_ok(&sc, "dest", bad[i].dest);
            group_ok(&sc, bad[i].a);
            group_ok(&sc, bad[i].b);
            refuse(&sc, bad[i].expect);
        }
        scenario_free(&sc);
    }
    /* without groups there is nothing outside: only local:1 runs */
    scenario_defaults(&sc);
    set_ok(&sc, "stations", "4");
    set_ok(&sc, "dest", "local:0.9");
    refuse(&sc, "dest: local:0.9 sends 0.1 of the frames outside the stations, and there is no "
                "station outside it (local is a share of the own group: [group NAME])");
    scenario_free(&sc);
}

/* Replies on a hand-computed geometry: a client at 0 m sends one 64-byte
 * request at t = 0 to a server at 500 m, which answers with 1518 bytes
 * 1 ms after the request has passed it. With d the end-to-end delay, the
 * response time is 57.6 us (the request) + d + 1 ms + 1220.8 us (the
 * reply) + d: nothing else is on the cable. */
static void test_reply_timed(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "duration", "10ms");
    group_ok(&sc, "client stations=1 traffic=batch batch=1 frame-size=64 dest=group:server");
    group_ok(&sc, "server stations=1 traffic=none reply=1518 think=1ms");
    finish_ok(&sc);
    run_out o;
    run(&sc, &o);
    double d_ps = llround(500.0 / (sc.phy.velocity_c * 299792458.0) * 1e12);
    double want_ps = 57.6e6 + d_ps + 1e9 + 1220.8e6 + d_ps;
    print_message("response %.6f us, want %.6f us\n", o.gr[0].response_mean_us, want_ps / 1e6);
    assert_int_equal(o.gr[0].responses, 1);
    assert_true(fabs(o.gr[0].response_mean_us - want_ps / 1e6) < 1e-6);
    assert_int_equal(o.gr[1].responses, 0);
    assert_int_equal(o.gr[1].frames_offered, 1); /* one reply, never answered */
    assert_int_equal(o.gr[1].frames_ok, 1);
    assert_int_equal(o.st[1].c.octets_transmitted_ok, 1500); /* data and pad */
    assert_int_equal(o.gr[0].frames_ok, 1);
    run_free(&o);

    /* A reply due at or after the end of the run is not queued. */
    set_ok(&sc, "duration", "1.05ms");
    finish_ok(&sc);
    run(&sc, &o);
    assert_int_equal(o.gr[1].frames_offered, 0);
    run_free(&o);
    scenario_free(&sc);
}

/* Request/response under load: every request received whole at the
 * server is answered (less those whose reply would come after the end,
 * and those a full queue drops), and only requests are answered. */
static void test_replies_counted(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "duration", "300ms");
    set_ok(&sc, "traffic", "poisson");
    group_ok(&sc, "server stations=1 traffic=none reply=1518 queue=1000");
    group_ok(&sc, "clients stations=7 load=0.05 frame-size=64-200 dest=group:server");
    finish_ok(&sc);
    tally t = {{0}};
    run_out o;
    run_watched(&sc, &(trace_sink){.on_event = count_delivered, .ctx = &t}, &o);
    const group_result *server = &o.gr[0], *clients = &o.gr[1];
    /* think 0: a request received whole is answered at once */
    assert_int_equal(server->frames_offered, t.to[0]);
    assert_int_equal(server->frames_dropped, 0);
    uint64_t replies_received = 0;
    for (int i = 1; i < 8; i++)
        replies_received += t.to[i];
    assert_int_equal(clients->responses, replies_received);
    assert_true(clients->responses > 100);
    /* the server carries most of the bits: 1518-byte replies to requests of 64-200 */
    assert_true(server->share > 0.85);
    assert_true(clients->response_mean_us > 1220.8 && clients->response_p99_us >= 1220.8);
    run_free(&o);
    scenario_free(&sc);
}

/* ALOHA has no collision detection (stations/MODEL.md, "Collisions,
 * jam, backoff (4.2.3.2.3–5)"): beside a CSMA/CD station it still sends its frame whole.
 * Station 1 (ALOHA) at 0 m and station 2 (BEB) at 500 m each send one
 * 64-byte frame at t = 0. Station 2 detects the collision when station
 * 1's signal arrives (d), finishes its preamble (6.4 us) and jams for
 * 3.2 us; station 1 detects nothing, sends all 576 bits (57.6 us), and
 * learns of the collision from the verdict at station 2 (57.6 us + d). */
typedef struct seen {
    trace_event ev[64];
    size_t n;
} seen;

static void record(void *ctx, const trace_event *ev)
{
    seen *s = ctx;
    if (s->n < sizeof s->ev / sizeof s->ev[0])
        s->ev[s->n++] = *ev;
}

static const trace_event *first_of(const seen *s, trace_kind kind, uint32_t station)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->ev[i].kind == kind && s->ev[i].station == station)
            return &s->ev[i];
    return NULL;
}

static void test_aloha_beside_csmacd(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "duration", "100us");
    group_ok(&sc, "aloha stations=1 traffic=batch batch=1 frame-size=64 policy=aloha");
    group_ok(&sc, "cd stations=1 traffic=batch batch=1 frame-size=64");
    finish_ok(&sc);
    seen s = {.n = 0};
    run_out o;
    run_watched(&sc, &(trace_sink){.on_event = record, .ctx = &s}, &o);
    sim_time d = llround(500.0 / (sc.phy.velocity_c * 299792458.0) * 1e12);
    assert_true(d < 6400000); /* the collision falls in station 2's preamble */
    const trace_event *c2 = first_of(&s, TRACE_COLLISION, 1), *e2 = first_of(&s, TRACE_TX_END, 1);
    assert_non_null(c2);
    assert_int_equal(c2->time, d);
    assert_non_null(e2);
    assert_int_equal(e2->time, 6400000 + 3200000);
    /* station 1: no collision, no jam; its frame leaves whole */
    const trace_event *e1 = first_of(&s, TRACE_TX_END, 0);
    assert_null(first_of(&s, TRACE_COLLISION, 0));
    assert_null(first_of(&s, TRACE_JAM, 0));
    assert_non_null(e1);
    assert_int_equal(e1->time, 57600000);
    assert_int_equal(e1->jam_start, SIM_TIME_NEVER);
    assert_int_equal(e1->bits_on_wire, 576);
    const trace_event *v1 = first_of(&s, TRACE_DELIVER, 0);
    assert_non_null(v1);
    assert_int_equal(v1->time, 57600000 + d);
    assert_false(v1->ok);
    assert_int_equal(o.st[0].c.collisions, 1); /* learnt from the verdict */
    run_free(&o);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_is_identical), cmocka_unit_test(test_groups_add_up),
        cmocka_unit_test(test_tally_as_events), cmocka_unit_test(test_tally_through_a_switch),
        cmocka_unit_test(test_inherit_and_override), cmocka_unit_test(test_placement),
        cmocka_unit_test(test_refusals), cmocka_unit_test(test_weakest_link),
        cmocka_unit_test(test_dest_group), cmocka_unit_test(test_reply_timed),
        cmocka_unit_test(test_replies_counted), cmocka_unit_test(test_dest_local),
        cmocka_unit_test(test_aloha_beside_csmacd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
