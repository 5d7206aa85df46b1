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
 * folder, `w` a pcap that libpcap reads back holding the run's frames and
 * fragments, and the help names the folder; snapshots are
 * consistent (one row per station, spans on
 * the drawing, cells of the strip valid, the reference curve at N = 1
 * equal to one station's exact throughput). Small batches keep it fast; it
 * does not check the measured values against theory (the validation
 * suites do) nor draw anything (test_tui_layout does).
 */
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

#include "pcap_read.h"
#include "scenario.h"
#include "tmpdir.h"
#include "tui_driver.h"

static const uint32_t sweep3[] = {1, 3, 8};

static tui_driver *make_in(uint64_t seed, double speed, const char *save_dir);

static tui_driver *make(uint64_t seed, double speed) { return make_in(seed, speed, "."); }

static tui_driver *make_in(uint64_t seed, double speed, const char *save_dir)
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
        .point_cap_ps = 2 * SIM_PS_PER_S,
        .speed = speed,
        .save_dir = save_dir,
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
    /* One event per step. */
    uint64_t e0 = s.events;
    assert_int_equal(tui_driver_command(d, TUI_CMD_STEP_EVENT, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_int_equal(s.events, e0 + 1);
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
    for (size_t i = 0; i < s.n_rows; i++) {
        assert_int_equal(s.rows[i].index, i);
        assert_true(s.station_pos[i] >= 0 && s.station_pos[i] <= 1);
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


/* `c` saves like every output: an older file survives a write error (here
 * a file-size limit) whole, and a replaced file keeps its mode. */
static void test_save_csv_whole(void **state)
{
    (void)state;
    char dir[] = "/tmp/csmacd-test-tui-save-XXXXXX";
    assert_non_null(mkdtemp(dir));
    tui_driver *d = make_in(5, 0, dir);
    char err[512];
    for (int i = 0; i < 200; i++)
        assert_true(tui_driver_advance(d, 0.05, 20, err, sizeof err) >= 0);
    char path[600];
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-seed5.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("older\n", f);
    fclose(f);
    assert_int_equal(chmod(path, 0640), 0);

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
    char buf[64] = "";
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "older\n");

    assert_int_equal(tui_driver_command(d, TUI_CMD_SAVE_CSV, 10, err, sizeof err), 0);
    tui_driver_snapshot(d, &s);
    assert_non_null(strstr(s.message, "saved the plot data"));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_true(st.st_size > 7);
    tui_driver_destroy(d);
    unlink(path);
    assert_int_equal(rmdir(dir), 0); /* no temporary left */
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
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-seed5.csv", dir);
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

/* `w`: the current run's trace, replayed from t = 0 to now, in the save
 * folder. libpcap reads it back; it holds every frame sent OK so far (the
 * station table's count) and the collision fragments, in time order. */
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
    assert_non_null(s.message);
    assert_non_null(strstr(s.message, "saved the trace"));
    uint64_t ok = 0, coll = 0;
    for (size_t i = 0; i < s.n_rows; i++) {
        ok += s.rows[i].successes;
        coll += s.rows[i].collisions;
    }
    assert_true(ok > 100 && coll > 10);
    assert_true(s.sim_time_s < 10); /* the longest trace w replays */
    char path[512];
    snprintf(path, sizeof path, "%s/csmacd-10base5-N8-seed9.pcap", dir);
    pcap_contents pc;
    if (pcap_read_all(path, &pc, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(pc.nano);
    /* The default link type, netANALYZER transparent (241): a 4-octet
     * status header and the 8 octets of preamble and SFD before each frame. */
    assert_int_equal(pc.linktype, 241);
    size_t hdr = 4 + 8;
    uint64_t frames = 0, fragments = 0;
    for (size_t i = 0; i < pc.n; i++) {
        assert_int_equal(pc.recs[i].caplen, pc.recs[i].len);
        if (i > 0)
            assert_true(pc.recs[i].ts_ns >= pc.recs[i - 1].ts_ns);
        if (pc.recs[i].len - hdr >= 64) {
            assert_int_equal(pc.recs[i].len - hdr, 512);
            frames++;
        } else {
            fragments++;
        }
    }
    assert_int_equal(frames, ok);
    assert_true(fragments > 0);
    char want[64];
    snprintf(want, sizeof want, "(%zu records)", pc.n);
    assert_non_null(strstr(s.message, want));
    pcap_contents_free(&pc);
    tui_driver_destroy(d);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_sweep),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_policy_cycle),
        cmocka_unit_test(test_one_station_poisson),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_save_csv_whole),
        cmocka_unit_test(test_no_interval_before_two_batches),
        cmocka_unit_test(test_save_csv_columns),
        cmocka_unit_test(test_save_pcap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
