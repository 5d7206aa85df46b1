/* test_tui_driver.c - pins the TUI's driver (src/live/tui_driver.c) with the
 * real engine: the sweep is a pure function of the scenario and the seed,
 * whatever the event budget per frame, the speed and the frame slicing
 * (points compared bit for bit), and another seed gives other points; the
 * controls do what they say (pause stops time, a single step handles
 * exactly one event, a slot step advances the view by one slot time, + and
 * - leave the sweep for the chosen N, a PHY change restarts the sweep with
 * the new profile, the policy key cycles through its seven policies and
 * back, restarting the sweep each time; a load change works with one station); no interval
 * before two batches (the screen says "measuring"), the S axis opening at
 * 0 .. 1; `c` writes its CSV with run's counter names into the save
 * folder, `w` a pcapng trace (as run writes it) holding the run's frames and
 * fragments, and the help names the folder; snapshots are
 * consistent (one row per station, spans on the drawing; a network's
 * segments, joints and relays, test_network_snapshot; the swap key t
 * from a hub to a switch in half and full duplex and back, keeping the
 * stations, traffic and seed, the history marked at each swap, no
 * collision in full duplex, and refused for a [segment] network,
 * test_swap_topology;
 * the drawing, cells of the strip valid, the reference curve at N = 1
 * equal to one station's exact throughput). Small batches keep it fast; it
 * does not check the measured values against theory (the validation
 * suites do) nor draw anything (test_tui_layout does).
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pcapng_read.h"
#include "scenario.h"
#include "tmpdir.h"
#include "tui_driver.h"

static const uint32_t sweep3[] = {1, 3, 8};

/* Caps a test may set (0: the driver's defaults). */
typedef struct caps {
    sim_time point_ps, trace_ps;
    double trace_bytes;
} caps;

static tui_driver *make_full(uint64_t seed, double speed, const char *save_dir, caps c);

static tui_driver *make(uint64_t seed, double speed)
{
    return make_full(seed, speed, ".", (caps){0, 0, 0});
}

static tui_driver *make_in(uint64_t seed, double speed, const char *save_dir)
{
    return make_full(seed, speed, save_dir, (caps){0, 0, 0});
}

static tui_driver *make_full(uint64_t seed, double speed, const char *save_dir, caps c)
{
    scenario sc;
    scenario_defaults(&sc);
    sc.seed = seed;
    char err[512], warn[512];
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    tui_driver_options o = {
        .base = &sc,
        .sweep_n = sweep3,
        .n_sweep = 3,
        .log_x = true,
        .precision = 0.05,
        .min_batches = 4,
        .batch_ps = 100000 * ((sim_time)1 << 16), /* 2^16 bit times at 10 Mb/s */
        .point_cap_ps = c.point_ps ? c.point_ps : 2 * SIM_PS_PER_S,
        .speed = speed,
        .save_dir = save_dir,
        .trace_max_ps = c.trace_ps,
        .trace_max_bytes = c.trace_bytes,
    };
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    scenario_free(&sc);
    return d;
}

/* Runs until the sweep is done; returns the number of advances. */
static int finish(tui_driver *d, double wall_dt, uint64_t budget)
{
    char err[512];
    for (int i = 0; i < 2000000; i++) {
        tui_snapshot s;
        tui_driver_snapshot(d, &s);
        if (s.phase == TUI_SWEEP_DONE)
            return i;
        assert_true(tui_driver_advance(d, wall_dt, budget, err, sizeof err) >= 0);
    }
    fail_msg("the sweep did not finish");
    return -1;
}

static void points_of(tui_driver *d, tui_point *out)
{
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.n_points, 3);
    memcpy(out, s.points, 3 * sizeof *out);
}

static void test_deterministic(void **state)
{
    (void)state;
    tui_point a[3], b[3], c[3], other[3];
    tui_driver *d = make(7, 0);
    finish(d, 0.05, 1000);
    points_of(d, a);
    tui_driver_destroy(d);

    d = make(7, 0);
    finish(d, 0.05, 7919); /* another budget: other slices */
    points_of(d, b);
    tui_driver_destroy(d);

    d = make(7, 10.0); /* 10 s per wall second, in frames of 50 ms */
    finish(d, 0.05, 1u << 30);
    points_of(d, c);
    tui_driver_destroy(d);

    for (int i = 0; i < 3; i++) {
        assert_int_equal(a[i].n, sweep3[i]);
        assert_true(a[i].s > 0.5 && a[i].s < 1.0);
        assert_memory_equal(&a[i], &b[i], sizeof a[i]);
        assert_memory_equal(&a[i], &c[i], sizeof a[i]);
    }
    d = make(8, 0);
    finish(d, 0.05, 5000);
    points_of(d, other);
    tui_driver_destroy(d);
    assert_true(memcmp(&a[1], &other[1], sizeof a[1]) != 0);
}

static void test_controls(void **state)
{
    (void)state;
    char err[512];
    tui_driver *d = make(3, 1e-3);
    tui_snapshot s;
    /* Pause: time stands still. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_PAUSE, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    double t0 = s.sim_time_s;
    assert_true(s.paused);
    assert_int_equal(tui_driver_advance(d, 0.05, 100000, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.sim_time_s == t0);
    /* A step runs to the next event that changes something, and says
     * what it was. */
    uint64_t e0 = s.events;
    assert_int_equal(tui_driver_command(d, TUI_CMD_STEP_EVENT, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.events > e0 && s.events < e0 + 100);
    assert_non_null(s.message);
    assert_int_equal(strncmp(s.message, "t = ", 4), 0);
    assert_non_null(strstr(s.message, "station "));
    /* A slot step: the view moves by exactly one slot (51.2 us). */
    double t1 = s.sim_time_s;
    assert_int_equal(tui_driver_command(d, TUI_CMD_STEP_SLOT, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(fabs(s.sim_time_s - t1 - 51.2e-6) < 1e-12);
    assert_true(s.paused);
    /* Resume: time moves at 1 ms per wall second. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_PAUSE, 10, err, sizeof err), 0);
    double t2 = s.sim_time_s;
    assert_true(tui_driver_advance(d, 0.1, 1000000, err, sizeof err) >= 0);
    tui_driver_snapshot(d, &s);
    assert_true(fabs(s.sim_time_s - t2 - 1e-4) < 1e-9);
    /* Speed ladder: slower and faster move by one rung. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_FASTER, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(fabs(s.speed - 1e-2) < 1e-15);
    /* + leaves the sweep for N + 1. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_MORE_STATIONS, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.phase, TUI_SWEEP_MANUAL);
    assert_int_equal(s.n_stations, 2);
    assert_int_equal(s.n_rows, 2);
    assert_int_equal(tui_driver_command(d, TUI_CMD_FEWER_STATIONS, 10, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_FEWER_STATIONS, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.n_stations, 1);
    assert_non_null(s.message); /* "at least one station" */
    /* Help and quit. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_HELP, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.show_help);
    assert_int_equal(tui_driver_command(d, TUI_CMD_CLOSE, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_false(s.show_help);
    assert_int_equal(tui_driver_command(d, TUI_CMD_QUIT, 10, err, sizeof err), 1);
    /* Next PHY: a new sweep on 10base2. */
    if (tui_driver_command(d, TUI_CMD_NEXT_PHY, 10, err, sizeof err) != 0)
        fail_msg("next PHY: %s", err);
    tui_driver_snapshot(d, &s);
    assert_string_equal(s.phy_name, "10base2");
    assert_int_equal(s.phase, TUI_SWEEP_RUNNING);
    assert_int_equal(s.n_points, 0);
    /* Frame size up: 512 -> 1024 bytes, a new sweep. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_FRAME_UP, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.frame_bytes, 1024);
    /* Load down from saturated: poisson, and no reference curve. */
    if (tui_driver_command(d, TUI_CMD_LOAD_DOWN, 10, err, sizeof err) != 0)
        fail_msg("load down: %s", err);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.traffic, "poisson"));
    assert_int_equal(s.n_ref, 0);
    tui_driver_destroy(d);
}

/* `s` says in words what each step was: a student stepping through
 * collisions reads who detected one and from whom, who jams, who senses
 * carrier and defers, whose jam reaches whom, who backs off and how far.
 * Every step changes something (no "nothing changes"), and what it says
 * holds: a station said to jam is in JAM, one said to back off is in
 * backoff. */
static void test_step_told(void **state)
{
    (void)state;
    char err[512];
    tui_driver *d = make(3, 1e-3);
    assert_int_equal(tui_driver_command(d, TUI_CMD_MORE_STATIONS, 10, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_MORE_STATIONS, 10, err, sizeof err), 0);
    tui_snapshot s;
    bool collision = false, jam_reaches = false, defers = false, backs_off = false,
         whole = false, received = false;
    for (int i = 0; i < 400; i++) {
        assert_int_equal(tui_driver_command(d, TUI_CMD_STEP_EVENT, 10, err, sizeof err), 0);
        tui_driver_snapshot(d, &s);
        assert_true(s.paused);
        const char *m = s.message;
        assert_non_null(m);
        assert_int_equal(strncmp(m, "t = ", 4), 0);
        assert_null(strstr(m, "nothing changes"));
        unsigned st, from;
        const char *p = strstr(m, " detects a collision (station ");
        if (p) {
            const char *q = p;
            while (q > m && q[-1] != ' ')
                q--;
            assert_int_equal(sscanf(q, "%u detects a collision (station %u's signal reached it)",
                                    &st, &from), 2);
            assert_true(st != from && st >= 1 && st <= s.n_rows && from <= s.n_rows);
            if (strstr(p, ") and jams"))
                assert_int_equal(s.rows[st - 1].state, TUI_ST_JAM);
            collision = true;
        }
        jam_reaches |= strstr(m, "'s jam reaches station ") != NULL;
        defers |= strstr(m, " senses carrier (station ") != NULL;
        if ((p = strstr(m, " backs off ")) != NULL) {
            const char *q = p;
            while (q > m && q[-1] != ' ')
                q--;
            assert_int_equal(sscanf(q, "%u backs off", &st), 1);
            assert_true(s.rows[st - 1].state == TUI_ST_BACKOFF ||
                        s.rows[st - 1].state == TUI_ST_DEFER); /* a 0-slot backoff */
            backs_off = true;
        }
        whole |= strstr(m, "'s frame has left it whole") != NULL;
        received |= strstr(m, " is received whole at station ") != NULL;
    }
    assert_true(collision && jam_reaches && defers && backs_off && whole && received);
    tui_driver_destroy(d);
}

/* The policy key: beb -> ca-beb -> full-jitter -> expo -> fixed -> aloha
 * -> ppersistent -> beb, each a new sweep whose engine runs that policy;
 * a spec with parameters counts as its name. */
static void test_policy_cycle(void **state)
{
    (void)state;
    static const char *const order[] = {"ca-beb", "full-jitter", "expo", "fixed",
                                        "aloha",  "ppersistent", "beb"};
    char err[512];
    tui_driver *d = make(3, 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_string_equal(s.policy, "beb");
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        /* Some points measured first: the restart must drop them. */
        for (int k = 0; k < 5; k++)
            assert_true(tui_driver_advance(d, 0.05, 5000, err, sizeof err) >= 0);
        if (tui_driver_command(d, TUI_CMD_NEXT_POLICY, 10, err, sizeof err) != 0)
            fail_msg("next policy: %s", err);
        tui_driver_snapshot(d, &s);
        assert_string_equal(s.policy, order[i]);
        assert_int_equal(s.phase, TUI_SWEEP_RUNNING);
        assert_int_equal(s.sweep_index, 0);
        assert_int_equal(s.n_points, 0);
        assert_non_null(s.message);
        assert_non_null(strstr(s.message, order[i]));
        assert_null(strstr(s.message, "cannot"));
        /* The new engine runs: stations send (expo, without jitter, may
         * keep colliding in lockstep: attempts count either way). */
        for (int k = 0; k < 200 && s.events < 2000; k++) {
            assert_true(tui_driver_advance(d, 0.05, 500, err, sizeof err) >= 0);
            tui_driver_snapshot(d, &s);
        }
        assert_true(s.events >= 2000);
        uint64_t tried = 0;
        for (size_t r = 0; r < s.n_rows; r++)
            tried += s.rows[r].successes + s.rows[r].collisions;
        if (tried == 0)
            fail_msg("%s: nothing sent (N = %zu, %llu events)", order[i], s.n_rows,
                     (unsigned long long)s.events);
    }
    tui_driver_destroy(d);

    /* A policy given with parameters is found by its name. */
    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, "policy", "fixed:wait=4", err, sizeof err), 0);
    char warn[512];
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    tui_driver_options o = {.base = &sc, .sweep_n = sweep3, .n_sweep = 3, .log_x = true,
                            .precision = 0.05, .min_batches = 4,
                            .batch_ps = 100000 * ((sim_time)1 << 16), .speed = 0};
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    scenario_free(&sc);
    assert_int_equal(tui_driver_command(d, TUI_CMD_NEXT_POLICY, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_string_equal(s.policy, "aloha");
    tui_driver_destroy(d);
}

/* One station and poisson traffic: the scenario refuses random
 * destinations with one station, the driver resolves N = 1 itself. */
static void test_one_station_poisson(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.n_stations = 1;
    char err[512], warn[512];
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    static const uint32_t one_two[] = {1, 2};
    tui_driver_options o = {.base = &sc, .sweep_n = one_two, .n_sweep = 2, .log_x = true,
                            .precision = 0.05, .min_batches = 4,
                            .batch_ps = 100000 * ((sim_time)1 << 16), .speed = 0};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    scenario_free(&sc);
    if (tui_driver_command(d, TUI_CMD_LOAD_DOWN, 10, err, sizeof err) != 0)
        fail_msg("load down: %s", err);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.traffic, "poisson G=2.00"));
    assert_null(strstr(s.message ? s.message : "", "cannot"));
    /* The point N = 1 is measured: about G = 2 offered, S below 1. */
    for (int i = 0; i < 100000 && s.n_points == 0; i++) {
        assert_true(tui_driver_advance(d, 0.05, 2000, err, sizeof err) >= 0);
        tui_driver_snapshot(d, &s);
    }
    assert_true(s.n_points >= 1);
    assert_true(s.points[0].s > 0.5 && s.points[0].s < 1.0);
    tui_driver_destroy(d);
}

/* Groups: N grows one group while the others stay. The sweep's N are the
 * grown group's sizes, its points the totals; each row names its group,
 * and the snapshot gives each group's share, the grown one marked; one
 * station that never backs off takes every bit at every N. */
static void test_groups_grow_one(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    char err[512], warn[512];
    assert_int_equal(scenario_group_spec(&sc, "rogue stations=1 policy=none", err, sizeof err), 0);
    assert_int_equal(scenario_group_spec(&sc, "good stations=3", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    static const uint32_t sizes[] = {0, 2, 5};
    char dir[256];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-groups"), 0);
    tui_driver_options o = {.base = &sc, .sweep_n = sizes, .n_sweep = 3, .log_x = true,
                            .precision = 0.05, .min_batches = 4,
                            .batch_ps = 100000 * ((sim_time)1 << 16), .speed = 0,
                            .grow = "good", .save_dir = dir};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    finish(d, 0.05, 20000);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    /* Each group's policy, traffic and frames for the header. */
    assert_int_equal(s.n_groups, 2);
    assert_string_equal(s.groups[0].policy, "none");
    assert_string_equal(s.groups[1].policy, "beb");
    assert_string_equal(s.groups[1].traffic, "saturated");
    assert_int_equal(s.groups[1].frame_bytes, 512);
    /* c: the CSV has each group's columns, point by point. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    char path[600], line[2048];
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-2-groups-seed1.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "stations,throughput,throughput_ci95,throughput_mbps,"
                              "collisions_per_frame,model_throughput,sim_time_s,"
                              "aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
                              "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,"
                              "policy,seed,rogue.stations,rogue.policy,rogue.throughput,"
                              "rogue.share,rogue.frames_ok,rogue.frames_aborted,"
                              "rogue.frames_dropped,good.stations,good.policy,good.throughput,"
                              "good.share,good.frames_ok,good.frames_aborted,"
                              "good.frames_dropped\n");
    for (int i = 0; i < 3; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        /* The columns after the seed: the rogue alone gets through. */
        const char *g = line;
        for (int k = 0; k < 16; k++)
            g = strchr(g, ',') + 1;
        unsigned rs, gs;
        char rpol[16], gpol[16];
        double rth, rsh, gth, gsh;
        unsigned long long rok, rab, rdr, gok, gab, gdr;
        assert_int_equal(sscanf(g, "%u,%15[^,],%lf,%lf,%llu,%llu,%llu,%u,%15[^,],%lf,%lf,%llu,"
                                   "%llu,%llu",
                                &rs, rpol, &rth, &rsh, &rok, &rab, &rdr, &gs, gpol, &gth, &gsh,
                                &gok, &gab, &gdr),
                         14);
        assert_int_equal(rs, 1);
        assert_int_equal(gs, sizes[i]);
        assert_string_equal(rpol, "none");
        assert_string_equal(gpol, "beb");
        if (!(rth > 0.9 && rsh == 1.0 && rok > 50))
            fail_msg("row %d: %s", i, line);
        assert_true(gth == 0 && gsh == 0 && gok == 0 && gdr == 0 && rab == 0);
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_int_equal(s.n_points, 3);
    static const uint32_t totals[] = {1, 3, 6};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.points[i].n, totals[i]);
        assert_true(s.points[i].s > 0.9); /* the rogue alone gets through */
    }
    assert_int_equal(s.n_rows, 6);
    assert_string_equal(s.rows[0].group, "rogue");
    assert_string_equal(s.rows[5].group, "good");
    assert_int_equal(s.n_groups, 2);
    assert_string_equal(s.groups[0].name, "rogue");
    assert_false(s.groups[0].grown);
    assert_true(s.groups[1].grown);
    assert_int_equal(s.groups[1].stations, 5);
    assert_true(s.groups[0].share == 1.0 && s.groups[1].share == 0.0);
    tui_driver_destroy(d);
    tmpdir_remove(dir);
    o.save_dir = NULL;

    /* 0 in the grown group with nobody else: no station at that N. */
    scenario lone;
    scenario_defaults(&lone);
    assert_int_equal(scenario_group_spec(&lone, "good stations=3", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&lone, err, sizeof err, warn, sizeof warn), 0);
    o.base = &lone;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "--stations: 0 stations in good leaves none"));
    scenario_free(&lone);
    o.base = &sc;

    /* An unknown group, and --grow without groups: refused. */
    o.grow = "nobody";
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "there is no group nobody"));
    scenario_free(&sc);
    scenario_defaults(&sc);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    o.grow = "good";
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "--grow: the scenario has no groups"));
    scenario_free(&sc);
}

/* A scenario from the text of its file (written in a scratch folder,
 * removed again), loaded and finished as `--scenario FILE` would be. */
static void scenario_of_text(scenario *sc, const char *text)
{
    char dir[512], path[600], err[512], warn[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-scenario"), 0);
    snprintf(path, sizeof path, "%s/net.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    scenario_defaults(sc);
    assert_int_equal(scenario_load_file(sc, path, err, sizeof err), 0);
    assert_int_equal(scenario_finish(sc, err, sizeof err, warn, sizeof warn), 0);
    tmpdir_remove(dir);
}

/* A network of segments: each segment in the snapshot with its joints
 * where the scenario puts them (the [repeater] first, then the hub's
 * uplink, as the engine orders the ports), each row naming its segment and
 * placed on it, and, as the run goes, a repeater's relay drawn on a
 * segment (a span of a joint), its jam too; the strip at the first
 * segment's probe. */
static void test_network_snapshot(void **state)
{
    (void)state;
    char err[512];
    scenario sc;
    scenario_of_text(&sc, "phy = 10base5\n"
                          "[segment backbone]\ntype = coax\nlength = 500\n"
                          "[segment lab]\ntype = hub\nlength = 100\nuplink = backbone@250\n"
                          "[segment annex]\ntype = coax\nlength = 300\n"
                          "[repeater r1]\nports = backbone@500, annex@0\n"
                          "[group servers]\nstations = 2\nsegment = backbone\n"
                          "[group pcs]\nstations = 2\nsegment = lab\n"
                          "[group annexed]\nstations = 1\nsegment = annex\n");
    static const uint32_t sizes[] = {1};
    tui_driver_options o = {.base = &sc, .sweep_n = sizes, .n_sweep = 1, .precision = 0.05,
                            .min_batches = 4, .batch_ps = 100000 * ((sim_time)1 << 16)};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.n_segments, 3);
    assert_string_equal(s.probe_segment, "backbone");
    const tui_segment *bb = &s.segments[0], *lab = &s.segments[1], *an = &s.segments[2];
    assert_string_equal(bb->name, "backbone");
    assert_false(bb->hub);
    assert_true(lab->hub);
    assert_true(lab->length_m == 100 && an->length_m == 300);
    assert_int_equal(bb->n_joints, 2);
    assert_string_equal(bb->joints[0].label, "r1");
    assert_string_equal(bb->joints[0].peer, "annex");
    assert_true(fabs(bb->joints[0].pos - 1.0) < 1e-5);
    assert_string_equal(bb->joints[1].label, "uplink");
    assert_string_equal(bb->joints[1].peer, "lab");
    assert_true(fabs(bb->joints[1].pos - 0.5) < 1e-5);
    assert_int_equal(lab->n_joints, 1);
    assert_string_equal(lab->joints[0].peer, "backbone");
    assert_true(fabs(lab->joints[0].pos - 1.0) < 1e-5); /* after its two stations */
    assert_int_equal(an->n_joints, 1);
    assert_true(fabs(an->joints[0].pos) < 1e-5);
    assert_int_equal(s.n_rows, 5);
    static const char *seg[] = {"backbone", "backbone", "lab", "lab", "annex"};
    static const double pos[] = {0.0, 1.0, 0.0, 0.5, 0.0};
    for (uint32_t i = 0; i < 5; i++) {
        assert_string_equal(s.rows[i].segment, seg[i]);
        assert_int_equal(s.rows[i].seg, i < 2 ? 0 : i < 4 ? 1 : 2);
        assert_true(fabs(s.station_pos[i] - pos[i]) < 1e-5);
    }
    /* Event by event: a relay on some segment, and a relay's jam. */
    bool relay = false, relay_jam = false;
    for (int i = 0; i < 4000 && !(relay && relay_jam); i++) {
        assert_true(tui_driver_advance(d, 0.05, 1, err, sizeof err) >= 0);
        tui_driver_snapshot(d, &s);
        for (size_t g = 0; g < s.n_segments; g++)
            for (size_t k = 0; k < s.segments[g].n_spans; k++) {
                const tui_span *sp = &s.segments[g].spans[k];
                assert_true(sp->from < sp->to);
                if (sp->station & TUI_SPAN_JOINT) {
                    assert_true((sp->station & ~TUI_SPAN_JOINT) < s.segments[g].n_joints);
                    relay = true;
                    relay_jam |= sp->jam;
                }
            }
    }
    assert_true(relay);
    assert_true(relay_jam);
    tui_driver_destroy(d);
    scenario_free(&sc);
}

/* The swap key (t): the same stations, traffic and seed on the bus, then
 * a switch in half duplex, in full duplex, and back; each a new engine at
 * the same N, the plot's history running on across them with a mark at
 * each swap; on the full-duplex switch no collision at all and an
 * aggregate past one link; the bridge port's queues within their size. A
 * scenario with its own [segment] network refuses the swap, and says why. */
static uint64_t hist_collisions(const tui_snapshot *s, double after_s)
{
    double c = 0;
    for (size_t i = 0; i < s->n_history; i++)
        if (s->history[i].t_s > after_s)
            c += s->history[i].collisions;
    return (uint64_t)c;
}

static void test_swap_topology(void **state)
{
    (void)state;
    char err[512], warn[512];
    scenario sc;
    scenario_defaults(&sc);
    sc.seed = 7;
    assert_int_equal(scenario_set(&sc, "phy", "10baset", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    static const uint32_t eight[] = {8};
    tui_driver_options o = {.base = &sc, .sweep_n = eight, .n_sweep = 1, .precision = 0.05,
                            .min_batches = 4, .batch_ps = 100000 * ((sim_time)1 << 16),
                            .speed = 0};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    scenario_free(&sc);
    for (int i = 0; i < 40; i++)
        assert_true(tui_driver_advance(d, 0.05, 20000, err, sizeof err) >= 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_true(s.star);
    assert_false(s.switched);
    assert_false(s.time_view);
    assert_int_equal(s.n_segments, 0);
    assert_int_equal(s.n_marks, 0);
    assert_true(s.n_history > 5);
    assert_true(s.collisions > 0); /* eight saturated stations on a hub */
    size_t hub_samples = s.n_history;
    double hub_end = s.history[s.n_history - 1].t_s;
    for (size_t i = 0; i < s.n_history; i++) {
        assert_true(s.history[i].s > 0.3 && s.history[i].s < 1.0);
        assert_true(i == 0 || s.history[i].t_s > s.history[i - 1].t_s);
    }
    char traffic[64];
    snprintf(traffic, sizeof traffic, "%s", s.traffic);

    /* t: a switch in half duplex, the same 8 stations, seed and traffic */
    assert_int_equal(tui_driver_command(d, TUI_CMD_SWAP_TOPOLOGY, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.switched);
    assert_true(s.time_view);
    assert_int_equal(s.n_stations, 8);
    assert_int_equal(s.seed, 7);
    assert_string_equal(s.traffic, traffic);
    assert_int_equal(s.n_segments, 8);
    assert_int_equal(s.n_domains, 8);
    assert_int_equal(s.n_bridges, 1);
    assert_int_equal(s.bridges[0].n_ports, 8);
    assert_int_equal(s.bridges[0].queue, 64);
    assert_true(s.segments[3].link && !s.segments[3].full_duplex);
    assert_int_equal(s.segments[3].domain, 3);
    assert_int_equal(s.segments[3].n_joints, 1);
    assert_int_equal(s.segments[3].joints[0].bridge, 0);
    assert_int_equal(s.segments[3].joints[0].port, 3);
    assert_true(fabs(s.segments[3].joints[0].pos - 1.0) < 1e-9); /* the link's far end */
    assert_int_equal(s.n_marks, 1);
    assert_string_equal(s.marks[0].label, "switch");
    assert_true(s.marks[0].t_s >= hub_end);
    assert_int_equal(s.n_history, hub_samples); /* the history kept */
    assert_non_null(strstr(s.message, "8 stations on a switch, half duplex"));
    for (int i = 0; i < 40; i++)
        assert_true(tui_driver_advance(d, 0.05, 20000, err, sizeof err) >= 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.n_history > hub_samples);
    for (size_t i = hub_samples; i < s.n_history; i++)
        assert_true(s.history[i].t_s > s.marks[0].t_s);
    /* half duplex: a station and its port still collide, each on its own link */
    assert_true(s.collisions > 0);
    uint64_t sum = 0;
    for (size_t k = 0; k < s.n_domains; k++)
        sum += s.domains[k].collisions;
    assert_int_equal(sum, s.collisions);

    /* t: full duplex. No collision, and past one link. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_SWAP_TOPOLOGY, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_true(s.segments[0].full_duplex);
    assert_int_equal(s.n_marks, 2);
    assert_string_equal(s.marks[1].label, "full dx");
    double fd_from = s.marks[1].t_s;
    size_t before = s.n_history;
    bool queued = false;
    for (int i = 0; i < 60; i++) {
        assert_true(tui_driver_advance(d, 0.05, 20000, err, sizeof err) >= 0);
        tui_driver_snapshot(d, &s);
        for (size_t p = 0; p < s.bridges[0].n_ports; p++) {
            assert_true(s.bridges[0].ports[p].queue_len <= 64);
            queued |= s.bridges[0].ports[p].queue_len > 0;
        }
    }
    assert_true(queued); /* saturated stations: frames wait at the ports */
    assert_true(s.n_history > before + 5);
    assert_int_equal(s.collisions, 0);
    assert_int_equal(hist_collisions(&s, fd_from), 0);
    assert_true(s.throughput > 2.0); /* eight links at once */
    assert_true(s.history[s.n_history - 1].s > 2.0);
    uint64_t sent = 0;
    for (size_t p = 0; p < 8; p++)
        sent += s.bridges[0].ports[p].sent;
    assert_true(sent > 0);

    /* t: back to the hub: one collision domain, collisions again */
    assert_int_equal(tui_driver_command(d, TUI_CMD_SWAP_TOPOLOGY, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_false(s.switched);
    assert_true(s.star);
    assert_int_equal(s.n_segments, 0);
    assert_int_equal(s.n_bridges, 0);
    assert_int_equal(s.n_marks, 3);
    assert_string_equal(s.marks[2].label, "hub");
    assert_true(s.time_view); /* still the time view, until r */
    double hub_from = s.marks[2].t_s;
    for (int i = 0; i < 40; i++)
        assert_true(tui_driver_advance(d, 0.05, 20000, err, sizeof err) >= 0);
    tui_driver_snapshot(d, &s);
    assert_true(hist_collisions(&s, hub_from) > 0);
    assert_true(s.history[s.n_history - 1].s < 1.0);
    /* r: the sweep again, its own history */
    assert_int_equal(tui_driver_command(d, TUI_CMD_RESTART, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_false(s.time_view);
    assert_int_equal(s.n_marks, 0);
    assert_int_equal(s.n_history, 0);
    tui_driver_destroy(d);

    /* A network of its own: refused, nothing changed. */
    char dir[512], path[600];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-swap"), 0);
    snprintf(path, sizeof path, "%s/net.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("phy = 10base5\n[segment a]\ntype = coax\nlength = 200\n"
          "[segment b]\ntype = coax\nlength = 200\n[repeater r]\nports = a@200, b@0\n"
          "[group g]\nstations = 2\nsegment = a\n",
          f);
    fclose(f);
    scenario_defaults(&sc);
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    static const uint32_t two[] = {2};
    o.base = &sc;
    o.sweep_n = two;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SWAP_TOPOLOGY, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "this scenario has its own network ([segment] sections)"));
    assert_int_equal(s.n_segments, 2);
    assert_false(s.switched);
    assert_int_equal(s.n_marks, 0);
    tui_driver_destroy(d);
    scenario_free(&sc);
    tmpdir_remove(dir);
}

static void test_snapshot(void **state)
{
    (void)state;
    char err[512];
    tui_driver *d = make(5, 0);
    /* Into the second point (N = 3) and a little further. */
    tui_snapshot s;
    for (int i = 0; i < 100000; i++) {
        tui_driver_snapshot(d, &s);
        if (s.sweep_index >= 1)
            break;
        assert_true(tui_driver_advance(d, 0.05, 20, err, sizeof err) >= 0);
    }
    assert_int_equal(s.sweep_index, 1);
    for (int i = 0; i < 10; i++)
        assert_true(tui_driver_advance(d, 0.05, 20, err, sizeof err) >= 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.n_rows, s.n_stations);
    assert_int_equal(s.n_segments, 0);
    for (size_t i = 0; i < s.n_rows; i++) {
        assert_int_equal(s.rows[i].index, i);
        assert_true(s.station_pos[i] >= 0 && s.station_pos[i] <= 1);
        assert_null(s.rows[i].segment); /* no network: no segment, never garbage */
    }
    for (size_t i = 0; i < s.n_spans; i++)
        assert_true(s.spans[i].from >= 0 && s.spans[i].to <= 1 &&
                    s.spans[i].from < s.spans[i].to);
    int busy = 0;
    for (size_t i = 0; i < s.n_timeline; i++) {
        assert_true(s.timeline[i] <= TUI_CHAN_COLLISION);
        busy += s.timeline[i] != TUI_CHAN_IDLE;
    }
    assert_true(busy > 0);
    /* The reference at N = 1 is one saturated station's exact throughput:
     * 4096 / (4096 + 64 + 96) for 512-byte frames. */
    assert_true(s.n_ref > 1);
    assert_true(fabs(s.ref[0].n - 1.0) < 1e-12);
    assert_true(fabs(s.ref[0].s - 4096.0 / 4256.0) < 1e-12);
    tui_driver_destroy(d);
}


static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted, each after a space ("." and ".." left out). */
static void dir_listing(const char *dir, char *out, size_t cap)
{
    DIR *dd = opendir(dir);
    assert_non_null(dd);
    char *names[64];
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL && k < 64)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            names[k++] = strdup(e->d_name);
    closedir(dd);
    qsort(names, k, sizeof names[0], cmp_str);
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        if (n + strlen(names[i]) + 2 < cap)
            n += (size_t)snprintf(out + n, cap - n, " %s", names[i]);
        free(names[i]);
    }
}

static void file_starts(const char *path, const char *want)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_int_equal(strncmp(buf, want, strlen(want)), 0);
}

/* `c` never replaces a file: a file of the save's name is left as it was
 * and the save takes -2, then -3; a write error (a file-size limit) leaves
 * nothing, not even a temporary; the name carries the policy, the traffic
 * and the frame size, so after `b` the next policy's curve gets its own
 * file; the status line names the file and the folder. */
static void test_save_csv_never_replaces(void **state)
{
    (void)state;
    char dir[256], err[512], path[600], list[2048];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-save"), 0);
    tui_driver *d = make_in(5, 0, dir);
    for (int i = 0; i < 200; i++)
        assert_true(tui_driver_advance(d, 0.05, 20, err, sizeof err) >= 0);
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed5.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("older\n", f);
    fclose(f);

    struct rlimit old_limit, small = {.rlim_cur = 4, .rlim_max = RLIM_INFINITY};
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    small.rlim_max = old_limit.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
    signal(SIGXFSZ, old_handler);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_non_null(s.message);
    assert_non_null(strstr(s.message, "File too large"));
    dir_listing(dir, list, sizeof list);
    assert_string_equal(list, " csmacd-sweep-10base5-512B-beb-saturated-seed5.csv");

    char want[1200];
    for (int k = 2; k <= 3; k++) {
        assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
        tui_driver_snapshot(d, &s);
        snprintf(want, sizeof want,
                 "saved csmacd-sweep-10base5-512B-beb-saturated-seed5-%d.csv (the plot data, "
                 "%zu points) in %s",
                 k, s.n_points, s.save_dir);
        assert_string_equal(s.message, want);
        snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed5-%d.csv",
                 dir, k);
        file_starts(path, "stations,throughput,");
    }
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed5.csv", dir);
    file_starts(path, "older\n");

    assert_int_equal(tui_driver_command(d, TUI_CMD_NEXT_POLICY, 10, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "saved csmacd-sweep-10base5-512B-ca-beb-saturated-seed5.csv"));
    dir_listing(dir, list, sizeof list);
    assert_string_equal(list, " csmacd-sweep-10base5-512B-beb-saturated-seed5-2.csv"
                              " csmacd-sweep-10base5-512B-beb-saturated-seed5-3.csv"
                              " csmacd-sweep-10base5-512B-beb-saturated-seed5.csv"
                              " csmacd-sweep-10base5-512B-ca-beb-saturated-seed5.csv");
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

/* The names of other traffic and policies: file-name words only. */
static void test_save_names(void **state)
{
    (void)state;
    char dir[256], err[512], warn[512], list[2048];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-names"), 0);
    scenario sc;
    scenario_defaults(&sc);
    sc.seed = 2;
    assert_int_equal(scenario_set(&sc, "traffic", "poisson", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "load", "0.5", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "policy", "fixed:wait=4", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "frame-size", "256", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "phy", "10base2", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    tui_driver_options o = {.base = &sc, .sweep_n = sweep3, .n_sweep = 3, .log_x = true,
                            .precision = 0.05, .min_batches = 4,
                            .batch_ps = 100000 * ((sim_time)1 << 16), .save_dir = dir};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    scenario_free(&sc);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    dir_listing(dir, list, sizeof list);
    assert_string_equal(list, " csmacd-sweep-10base2-256B-fixed-wait-4-poisson-G0.5-seed2.csv");
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

/* A save folder longer than 1023 bytes is kept whole: the files land in
 * it, not in a parent cut from its name. */
static void test_save_dir_long(void **state)
{
    (void)state;
    char base[256], err[512];
    assert_int_equal(tmpdir_make(base, sizeof base, "tui-long"), 0);
    char dir[2048];
    size_t n = (size_t)snprintf(dir, sizeof dir, "%s", base);
    char part[201];
    memset(part, 'd', 200);
    part[200] = '\0';
    int levels = 0;
    while (n < 1100) {
        n += (size_t)snprintf(dir + n, sizeof dir - n, "/%s", part);
        assert_int_equal(mkdir(dir, 0700), 0);
        levels++;
    }
    tui_driver *d = make_in(5, 0, dir);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "saved csmacd-sweep-"));
    assert_true(strlen(s.save_dir) > 1023);
    char path[2300], list[512];
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed5.csv", dir);
    file_starts(path, "stations,");
    tui_driver_destroy(d);
    unlink(path);
    /* Nothing in the parents: each holds only the next folder. */
    char up[2048];
    snprintf(up, sizeof up, "%s", dir);
    for (int i = levels; i > 0; i--) {
        *strrchr(up, '/') = '\0';
        dir_listing(up, list, sizeof list);
        assert_int_equal(strlen(list), 201);
        assert_string_equal(list + 1, part);
    }
    for (int i = levels; i > 0; i--) {
        assert_int_equal(rmdir(dir), 0);
        *strrchr(dir, '/') = '\0';
    }
    tmpdir_remove(base);
}

/* A point is never recorded without a measured batch: with a point time
 * shorter than the warm-up batch, every point runs on through its first
 * measured batch and records its S (never 0), with no interval. */
static void test_no_point_without_a_batch(void **state)
{
    (void)state;
    tui_driver *d = make_full(4, 0, ".", (caps){.point_ps = SIM_PS_PER_MS});
    finish(d, 0.05, 5000);
    tui_point p[3];
    points_of(d, p);
    double batch = 65536 * 1e-7;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(p[i].n, sweep3[i]);
        assert_true(p[i].s > 0.5);
        assert_true(p[i].s_ci95 < 0);
        assert_true(fabs(p[i].sim_s - 2 * batch) < 1e-9); /* warm-up and one batch */
    }
    tui_driver_destroy(d);
}

/* Until two batches past the warm-up, no interval: the snapshot says so
 * (CI < 0), and the S axis opens at 0. */
static void test_no_interval_before_two_batches(void **state)
{
    (void)state;
    char err[512];
    tui_driver *d = make(5, 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_true(s.measuring);
    assert_false(s.has_current);
    assert_int_equal(s.batches, 0);
    assert_int_equal(s.min_batches, 4);
    assert_true(fabs(s.batch_s - 65536 * 1e-7) < 1e-12); /* 2^16 bit times */
    assert_true(s.throughput_ci95 < 0);
    assert_true(s.s_axis_min == 0);
    uint32_t seen[4] = {0, 0, 0, 0};
    for (int i = 0; i < 100000 && s.batches < 3; i++) {
        assert_true(tui_driver_advance(d, 0.05, 50, err, sizeof err) >= 0);
        tui_driver_snapshot(d, &s);
        if (s.batches < 3 && !seen[s.batches]) {
            seen[s.batches] = 1;
            if (s.batches == 1) {
                assert_true(s.has_current);
                assert_true(s.current.s > 0.5);
                assert_true(s.current.s_ci95 < 0);
                assert_true(s.throughput_ci95 < 0);
            }
            if (s.batches == 2) {
                assert_true(s.current.s_ci95 >= 0);
                assert_true(s.throughput_ci95 == s.current.s_ci95);
            }
        }
    }
    assert_true(seen[1] && seen[2]);
    tui_driver_destroy(d);
}

/* `c` into the save folder: the header names the frame counters as run's
 * CSV does, and each row's counters are the point's run (frames sent at
 * S of the channel: aFramesTransmittedOK * 4096 bits / (S * 10 Mb/s) is
 * the point's measured time, within the warm-up batch). */
static void test_save_csv_columns(void **state)
{
    (void)state;
    char dir[256], err[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-csv"), 0);
    tui_driver *d = make_in(5, 0, dir);
    finish(d, 0.05, 5000);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed5.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "stations,throughput,throughput_ci95,throughput_mbps,"
                              "collisions_per_frame,model_throughput,sim_time_s,"
                              "aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
                              "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,"
                              "policy,seed\n");
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned n;
        double th, ci, mbps, cpf, model, sim;
        unsigned long long ok, ab, ld, dr;
        assert_int_equal(sscanf(line, "%u,%lf,%lf,%lf,%lf,%lf,%lf,%llu,%llu,%llu,%llu", &n, &th,
                                &ci, &mbps, &cpf, &model, &sim, &ok, &ab, &ld, &dr),
                         11);
        assert_int_equal(n, sweep3[rows]);
        double busy = (double)ok * 4096 / 10e6; /* seconds of frames sent OK */
        assert_true(busy / sim > th - 0.1 && busy / sim <= 1.0);
        assert_int_equal(ld, 0); /* no late collisions at 10 Mb/s */
        assert_int_equal(dr, 0); /* saturated sources never overflow */
        if (n == 1)
            assert_int_equal(ab, 0); /* alone: never a collision */
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 3);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.save_dir, "csmacd-test-tui-csv"));
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

/* Runs the driver (paused or not) until the trace being written is done;
 * every step before that says how far it is. Returns the steps taken; the
 * final message is in *s. */
static int wait_trace(tui_driver *d, tui_snapshot *s)
{
    char err[512];
    for (int i = 0; i < 1000000; i++) {
        tui_driver_snapshot(d, s);
        assert_non_null(s->message);
        if (strncmp(s->message, "writing the trace of t = ", 25) != 0)
            return i;
        assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) >= 0);
    }
    fail_msg("the trace was never finished");
    return -1;
}

/* Runs until the view reaches t seconds in the point with n stations. */
static void run_until(tui_driver *d, uint32_t n, double t)
{
    char err[512];
    tui_snapshot s;
    for (int i = 0; i < 1000000; i++) {
        tui_driver_snapshot(d, &s);
        if (s.n_stations == n && s.sim_time_s >= t)
            return;
        assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) >= 0);
    }
    fail_msg("never reached t = %g s at N = %u", t, n);
}

/* A pcapng trace read back: each record's interface link type, stamp and
 * length. */
typedef struct ng_rec {
    uint16_t linktype;
    int64_t ts_ns;
    uint32_t caplen, len;
} ng_rec;

/* Reads a whole pcapng file (the magic checked first); returns the
 * records (the caller frees them) and their count in *n. */
static ng_rec *read_pcapng(const char *path, size_t *n)
{
    char err[512];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t magic[4];
    assert_int_equal(fread(magic, 1, 4, f), 4);
    assert_true(pcapng_read_magic(magic));
    rewind(f);
    pcapng_reader *r = NULL;
    if (pcapng_read_open(f, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    ng_rec *recs = NULL;
    size_t cap = 0;
    *n = 0;
    pcapng_record rec;
    int rc;
    while ((rc = pcapng_read_next(r, &rec, err, sizeof err)) == 1) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            recs = realloc(recs, cap * sizeof *recs);
            assert_non_null(recs);
        }
        recs[(*n)++] = (ng_rec){rec.linktype, rec.t_ns, rec.caplen, rec.len};
    }
    if (rc < 0)
        fail_msg("%s", err);
    pcapng_read_close(r);
    fclose(f);
    return recs;
}

/* `w`: the current run's trace, replayed from t = 0 to now in steps (the
 * screen keeps redrawing: many frames, each saying how far it is), into the
 * save folder, as pcapng; a run shorter than the longest span
 * is saved whole: every frame sent OK so far (the station table's count)
 * and the collision fragments, in time order. */
static void test_save_pcap(void **state)
{
    (void)state;
    char dir[256], err[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-pcap"), 0);
    tui_driver *d = make_in(9, 0, dir);
    /* Into the third point (N = 8, left running when measured), a fraction
     * of a simulated second: collisions happen. */
    tui_snapshot s;
    for (int i = 0; i < 100000; i++) {
        tui_driver_snapshot(d, &s);
        if (s.n_stations == 8 && s.events > 20000)
            break;
        assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) >= 0);
    }
    assert_int_equal(tui_driver_command(d, TUI_CMD_PAUSE, 10, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "Esc cancels"));
    double until = s.sim_time_s;
    uint64_t ok = 0, coll = 0;
    for (size_t i = 0; i < s.n_rows; i++) {
        ok += s.rows[i].successes;
        coll += s.rows[i].collisions;
    }
    assert_true(ok > 100 && coll > 10);
    assert_true(until < 10); /* the longest span a trace holds */
    assert_true(wait_trace(d, &s) > 10);
    assert_int_equal(strncmp(s.message, "saved csmacd-10base5-N8-512B-beb-saturated-seed9.pcapng "
                                        "(the whole run, t = 0.000 ", 81), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/csmacd-10base5-N8-512B-beb-saturated-seed9.pcapng", dir);
    size_t n = 0;
    ng_rec *recs = read_pcapng(path, &n);
    /* As run writes it: whole frames on an Ethernet interface (1), which a
     * plain Wireshark decodes, the fragments on a netANALYZER transparent
     * one (241: a 4-octet status header and the 8 octets of preamble and
     * SFD before the octets on the wire). */
    uint64_t frames = 0, fragments = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(recs[i].caplen, recs[i].len);
        if (i > 0)
            assert_true(recs[i].ts_ns >= recs[i - 1].ts_ns);
        if (recs[i].linktype == 1) {
            assert_int_equal(recs[i].len, 512);
            frames++;
        } else {
            assert_int_equal(recs[i].linktype, 241);
            assert_true(recs[i].len < 4 + 8 + 64);
            fragments++;
        }
    }
    assert_int_equal(frames, ok);
    assert_true(fragments > 0);
    char want[64];
    snprintf(want, sizeof want, ", %zu records) in ", n);
    assert_non_null(strstr(s.message, want));
    free(recs);
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

#define EPOCH_NS (INT64_C(946684800) * 1000000000) /* PCAP_SINK_DEFAULT_EPOCH_S */

/* A run longer than the longest span (here 20 ms): the trace holds the
 * most recent 20 ms, not the first, and says so. A second w is told a
 * trace is being written; a new sweep meanwhile does not change it. */
static void test_save_pcap_recent(void **state)
{
    (void)state;
    char dir[256], err[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-recent"), 0);
    tui_driver *d = make_full(9, 0, dir, (caps){.trace_ps = 20 * SIM_PS_PER_MS});
    run_until(d, 8, 0.2);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    sim_time until = (sim_time)llround(s.sim_time_s * 1e12);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) > 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "already writing the trace of t = "));
    /* A new sweep meanwhile (another policy, a new engine) leaves the
     * trace of the run it was asked for. */
    assert_int_equal(tui_driver_command(d, TUI_CMD_NEXT_POLICY, 10, err, sizeof err), 0);
    assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) > 0);
    wait_trace(d, &s);
    assert_non_null(strstr(s.message, "saved csmacd-10base5-N8-512B-beb-saturated-seed9.pcapng "));
    char want[256];
    snprintf(want, sizeof want, "(the last 0.02 s (the most a save holds), t = %.3f ms to %.3f ms, ",
             sim_time_to_s(until) * 1e3 - 20, sim_time_to_s(until) * 1e3);
    assert_non_null(strstr(s.message, want));
    char path[512];
    snprintf(path, sizeof path, "%s/csmacd-10base5-N8-512B-beb-saturated-seed9.pcapng", dir);
    size_t n = 0;
    ng_rec *recs = read_pcapng(path, &n);
    assert_true(n > 20);
    int64_t from_ns = (int64_t)((until - 20 * SIM_PS_PER_MS) / 1000);
    int64_t until_ns = (int64_t)(until / 1000);
    for (size_t i = 0; i < n; i++) {
        assert_true(recs[i].ts_ns - EPOCH_NS >= from_ns);
        assert_true(recs[i].ts_ns - EPOCH_NS < until_ns);
    }
    /* Saturated stations: the span starts with a record within a frame. */
    assert_true(recs[0].ts_ns - EPOCH_NS < from_ns + 600000);
    free(recs);
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

/* A size cap (here 100 kB) bounds the span by the estimate made first: the
 * trace is the most recent part that fits, about that size, and says so. */
static void test_save_pcap_size_cap(void **state)
{
    (void)state;
    char dir[256], err[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-cap"), 0);
    tui_driver *d = make_full(9, 0, dir, (caps){.trace_bytes = 100e3});
    run_until(d, 8, 0.5);
    assert_int_equal(tui_driver_command(d, TUI_CMD_PAUSE, 10, err, sizeof err), 0);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    tui_snapshot s;
    wait_trace(d, &s);
    assert_non_null(strstr(s.message, " s, as much as fits 100 kB, t = "));
    char path[512];
    snprintf(path, sizeof path, "%s/csmacd-10base5-N8-512B-beb-saturated-seed9.pcapng", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size > 80000 && st.st_size <= 105000);
    tui_driver_destroy(d);
    tmpdir_remove(dir);
}

/* Esc cancels a trace being written, and so does the end of the program
 * (q, Ctrl-C): no file, no temporary is left. */
static void test_save_pcap_cancel(void **state)
{
    (void)state;
    char dir[256], err[512], list[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-cancel"), 0);
    tui_driver *d = make_in(9, 0, dir);
    run_until(d, 8, 0.3);
    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    for (int i = 0; i < 3; i++)
        assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) > 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "writing the trace of t = "));
    dir_listing(dir, list, sizeof list);
    assert_int_not_equal(list[0], '\0'); /* its temporary */
    assert_int_equal(tui_driver_command(d, TUI_CMD_CLOSE, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_string_equal(s.message, "trace cancelled: nothing written");
    dir_listing(dir, list, sizeof list);
    assert_string_equal(list, "");

    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_PCAP, 10, err, sizeof err), 0);
    for (int i = 0; i < 3; i++)
        assert_true(tui_driver_advance(d, 0.05, 997, err, sizeof err) > 0);
    tui_driver_destroy(d); /* q or Ctrl-C */
    dir_listing(dir, list, sizeof list);
    assert_string_equal(list, "");
    tmpdir_remove(dir);
}

static void test_default_sweep(void **state)
{
    (void)state;
    uint32_t v[64];
    static const uint32_t log64[] = {1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64};
    size_t n = tui_driver_default_sweep(64, true, v, 64);
    assert_int_equal(n, sizeof log64 / sizeof log64[0]);
    assert_memory_equal(v, log64, sizeof log64);
    n = tui_driver_default_sweep(64, false, v, 64);
    assert_int_equal(v[0], 1);
    assert_int_equal(v[1], 4);
    assert_int_equal(v[n - 1], 64);
    assert_int_equal(n, 17);
}

/* A switch with groups (a user's `tui --topology switch --group 'server
 * stations=1 traffic=none' --group 'clients stations=8
 * dest=group:server'` swept 1..64 clients, 65 stations, and died at the
 * last point on "a switch has at most 64 ports"): the sweep keeps to the
 * N the scenario allows, says so before it starts, and runs to its end. */
static void test_sweep_fits_switch(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    char err[512], warn[512];
    assert_int_equal(scenario_set(&sc, "phy", "10baset", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, "topology", "switch", err, sizeof err), 0);
    assert_int_equal(scenario_group_spec(&sc, "server stations=1 traffic=none", err, sizeof err), 0);
    assert_int_equal(scenario_group_spec(&sc, "clients stations=8 dest=group:server", err,
                                         sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    /* The default sweep: the clients 1 .. 64 would make 65 stations. */
    tui_driver_options o = {.base = &sc, .log_x = true, .precision = 0.05, .min_batches = 4,
                            .batch_ps = 100000 * ((sim_time)1 << 16),
                            .point_cap_ps = 50 * SIM_PS_PER_MS, .speed = 0};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    tui_snapshot s;
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.sweep_count, 11); /* totals 2 3 4 5 7 9 12 17 24 33 46; not 65 */
    assert_non_null(s.message);
    assert_string_equal(s.message, "sweeping N = 2 .. 46: 1 N left out, which the scenario does "
                                   "not allow (N = 65: topology: a switch has at most 64 ports (stations: "
                                   "65))");
    tui_driver_destroy(d);

    /* A list: the sizes that fit are swept to the end, 64 stations the last. */
    static const uint32_t sizes[] = {8, 63, 64, 100};
    o.sweep_n = sizes;
    o.n_sweep = 4;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.sweep_count, 2);
    finish(d, 0.05, 200000);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.n_points, 2);
    assert_int_equal(s.points[0].n, 9);
    assert_int_equal(s.points[1].n, 64);
    tui_driver_destroy(d);

    /* None fits: refused before the screen opens, with the reason. */
    static const uint32_t big[] = {70};
    o.sweep_n = big;
    o.n_sweep = 1;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), -1);
    assert_string_equal(err, "no N of the sweep fits the scenario: N = 71: topology: a switch has at most "
                             "64 ports (stations: 71)");
    scenario_free(&sc);
}

/* s on a network: a repeater's relay is told with the repeater's name
 * ("repeater r1 starts sending onto segment east"), a hub's uplink as
 * the hub's, never "a repeater". */
static void test_step_names_repeater(void **state)
{
    (void)state;
    char err[512];
    scenario sc;
    scenario_of_text(&sc, "phy = 10base5\nseed = 2\n[segment west]\ntype = coax\nlength = 200\n"
                          "[segment east]\ntype = coax\nlength = 200\n[segment lab]\ntype = hub\n"
                          "uplink = east@200\n[repeater r1]\nports = west@200, east@0\n"
                          "[group w]\nstations = 2\nsegment = west\n"
                          "[group l]\nstations = 2\nsegment = lab\n");
    static const uint32_t four[] = {2};
    tui_driver_options o = {.base = &sc, .sweep_n = four, .n_sweep = 1, .precision = 0.05,
                            .min_batches = 4, .batch_ps = 100000 * ((sim_time)1 << 16),
                            .speed = 1e-3};
    tui_driver *d = NULL;
    assert_int_equal(tui_driver_create(&o, &d, err, sizeof err), 0);
    bool r1 = false, uplink = false;
    for (int i = 0; i < 600 && !(r1 && uplink); i++) {
        assert_int_equal(tui_driver_command(d, TUI_CMD_STEP_EVENT, 10, err, sizeof err), 0);
        tui_snapshot s;
        tui_driver_snapshot(d, &s);
        assert_non_null(s.message);
        assert_null(strstr(s.message, "a repeater "));
        r1 |= strstr(s.message, "repeater r1 starts sending onto segment ") != NULL;
        uplink |= strstr(s.message, "lab's uplink starts sending onto segment ") != NULL;
    }
    assert_true(r1 && uplink);
    tui_driver_destroy(d);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_names_repeater),
        cmocka_unit_test(test_sweep_fits_switch),
        cmocka_unit_test(test_default_sweep),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_step_told),
        cmocka_unit_test(test_policy_cycle),
        cmocka_unit_test(test_one_station_poisson),
        cmocka_unit_test(test_groups_grow_one),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_network_snapshot),
        cmocka_unit_test(test_swap_topology),
        cmocka_unit_test(test_save_csv_never_replaces),
        cmocka_unit_test(test_save_names),
        cmocka_unit_test(test_save_dir_long),
        cmocka_unit_test(test_no_point_without_a_batch),
        cmocka_unit_test(test_no_interval_before_two_batches),
        cmocka_unit_test(test_save_csv_columns),
        cmocka_unit_test(test_save_pcap),
        cmocka_unit_test(test_save_pcap_recent),
        cmocka_unit_test(test_save_pcap_size_cap),
        cmocka_unit_test(test_save_pcap_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
