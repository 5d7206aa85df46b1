/* test_tui_save.c - pins the TUI's saves (src/live/tui_save.c and
 * tui_csv.c) on their own: this program links the save library and not
 * the driver, so a call from the saves back into the driver fails to link
 * (calls run driver -> save -> csv only). The curve is written from plain
 * points, sorted by N, with the model beside saturated points and an
 * empty interval where there is none; `c` names its file and folder in
 * its outcome; the trace is a handle stepped by its caller, each step's
 * outcome a line of text, and a handle given up leaves nothing.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "engine.h"
#include "scenario.h"
#include "tmpdir.h"
#include "tui_csv.h"
#include "tui_save.h"

static const tui_point pts[] = {
    {.n = 8, .s = 0.85, .s_ci95 = 0.01, .coll_per_frame = 0.5, .sim_s = 1.5, .frames_ok = 3000},
    {.n = 1, .s = 0.96, .s_ci95 = -1, .coll_per_frame = 0, .sim_s = 0.25, .frames_ok = 600},
};

static tui_csv_curve curve_of(const scenario *sc, bool model)
{
    return (tui_csv_curve){.phy = &sc->phy, .frame_bytes = scenario_frame_bytes_mean(sc),
                           .model = model, .traffic = "saturated", .policy = sc->policy,
                           .seed = sc->seed, .points = pts, .n_points = 2};
}

static void finished(scenario *sc)
{
    char err[512], warn[512];
    scenario_defaults(sc);
    assert_int_equal(scenario_finish(sc, err, sizeof err, warn, sizeof warn), 0);
}

/* The model function the saves and the driver share: 512-byte frames;
 * a 20-byte frame goes out padded to the 64-byte minimum. */
static void test_frame_bytes_mean(void **state)
{
    (void)state;
    scenario sc;
    finished(&sc);
    assert_true(scenario_frame_bytes_mean(&sc) == 512);
    char err[512], warn[512];
    assert_int_equal(scenario_set(&sc, "frame-size", "20", err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_true(scenario_frame_bytes_mean(&sc) == 64);
    scenario_free(&sc);
}

static void test_csv_plain_points(void **state)
{
    (void)state;
    scenario sc;
    finished(&sc);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    tui_csv_curve c = curve_of(&sc, true);
    assert_int_equal(tui_csv_write(f, &c), 0);
    fclose(f);
    /* Sorted by N; no interval at N = 1; the model at N = 1 is one
     * station's exact throughput, 4096 / (4096 + 64 + 96). */
    char want[2048];
    snprintf(want, sizeof want,
             "stations,throughput,throughput_ci95,throughput_mbps,collisions_per_frame,"
             "model_throughput,sim_time_s,aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
             "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,policy,seed\n"
             "1,0.960000,,9.600000,0.000000,%.6f,0.250000,600,0,0,0,10base5,512,saturated,beb,1\n",
             4096.0 / 4256.0);
    assert_int_equal(strncmp(buf, want, strlen(want)), 0);
    assert_non_null(strstr(buf, "\n8,0.850000,0.010000,8.500000,0.500000,0."));
    free(buf);
    /* Without the model (not saturated): an empty column. */
    buf = NULL;
    f = open_memstream(&buf, &len);
    c.model = false;
    assert_int_equal(tui_csv_write(f, &c), 0);
    fclose(f);
    assert_non_null(strstr(buf, "\n1,0.960000,,9.600000,0.000000,,0.250000,600,"));
    free(buf);
    scenario_free(&sc);
}

static void test_save_csv_outcome(void **state)
{
    (void)state;
    char dir[256], msg[1024], want[1024], path[600];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-save-csv"), 0);
    scenario sc;
    finished(&sc);
    tui_saves *sv = NULL;
    assert_int_equal(tui_saves_create(dir, &sv), 0);
    tui_csv_curve c = curve_of(&sc, true);
    for (int k = 1; k <= 2; k++) {
        assert_int_equal(tui_save_csv(sv, &sc, &c, msg, sizeof msg), 0);
        snprintf(want, sizeof want,
                 "saved csmacd-sweep-10base5-512B-beb-saturated-seed1%s.csv (the plot data, 2 "
                 "points) in %s",
                 k == 1 ? "" : "-2", tui_saves_dir_shown(sv));
        assert_string_equal(msg, want);
    }
    snprintf(path, sizeof path, "%s/csmacd-sweep-10base5-512B-beb-saturated-seed1-2.csv", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    tui_saves_destroy(sv);
    /* A folder that is not there: the outcome says why, nothing else. */
    snprintf(path, sizeof path, "%s/nowhere", dir);
    assert_int_equal(tui_saves_create(path, &sv), 0);
    assert_int_equal(tui_save_csv(sv, &sc, &c, msg, sizeof msg), -1);
    assert_int_equal(strncmp(msg, "cannot save the plot data: ", 27), 0);
    tui_saves_destroy(sv);
    scenario_free(&sc);
    tmpdir_remove(dir);
}

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
    closedir(d);
    return n;
}

/* The trace: stepped by its caller, each step's outcome a line; done, it
 * names its file; a handle given up midway leaves nothing. */
static void test_trace_handle(void **state)
{
    (void)state;
    char dir[256], msg[1024], err[512];
    assert_int_equal(tmpdir_make(dir, sizeof dir, "tui-save-trace"), 0);
    scenario sc;
    finished(&sc);
    engine *live = NULL;
    assert_int_equal(engine_create(&sc, &live, err, sizeof err), 0);
    assert_int_equal(engine_start(live, err, sizeof err), 0);
    sim_time until = 20 * SIM_PS_PER_MS;
    engine_run(live, until, 0);
    tui_saves *sv = NULL;
    assert_int_equal(tui_saves_create(dir, &sv), 0);

    assert_null(tui_trace_start(sv, live, 0, 10 * SIM_PS_PER_S, 64e6, msg, sizeof msg));
    assert_string_equal(msg, "no trace to save yet: the run is at t = 0");

    tui_trace *t = tui_trace_start(sv, live, until, 10 * SIM_PS_PER_S, 64e6, msg, sizeof msg);
    assert_non_null(t);
    assert_int_equal(strncmp(msg, "writing the trace of t = 0.000 ms to 20.000 ms (about ", 54), 0);
    tui_trace_describe(t, msg, sizeof msg);
    assert_string_equal(msg, "already writing the trace of t = 0.000 ms to 20.000 ms (Esc cancels it)");
    int steps = 0;
    int64_t ran = 0;
    tui_trace_state st;
    while ((st = tui_trace_step(t, 20, &ran, msg, sizeof msg)) == TUI_TRACE_WRITING) {
        assert_true(ran > 0 && ran <= 20);
        assert_non_null(strstr(msg, "% (Esc cancels)"));
        steps++;
    }
    assert_int_equal(st, TUI_TRACE_SAVED);
    assert_true(steps > 5);
    assert_int_equal(strncmp(msg, "saved csmacd-10base5-N8-512B-beb-saturated-seed1.pcapng (the whole "
                                  "run, t = 0.000 ms to 20.000 ms, ", 92), 0);
    tui_trace_destroy(t);
    assert_int_equal(entries(dir), 1);

    /* Given up midway: neither the file nor its temporary is left. */
    t = tui_trace_start(sv, live, until, 10 * SIM_PS_PER_S, 64e6, msg, sizeof msg);
    assert_non_null(t);
    assert_int_equal(tui_trace_step(t, 10, &ran, msg, sizeof msg), TUI_TRACE_WRITING);
    assert_int_equal(entries(dir), 2);
    tui_trace_destroy(t);
    assert_int_equal(entries(dir), 1);

    tui_saves_destroy(sv);
    engine_destroy(live);
    scenario_free(&sc);
    tmpdir_remove(dir);
}

/* The whole of a file, or NULL. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* The octets after a pcapng file's section header block (its length is
 * the second 32-bit word, little-endian as csmacd writes it). */
static const uint8_t *after_section(const uint8_t *b, size_t len, size_t *rest)
{
    assert_true(len >= 12);
    uint32_t shb = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                   (uint32_t)b[7] << 24;
    assert_true(shb <= len);
    *rest = len - shb;
    return b + shb;
}

/* `w` on a network writes what `run --pcap` writes for the same scenario
 * and span: one named interface pair per segment (or per link of a
 * switch), every record with its segment, relays and bridge ports'
 * forwards included. The two files differ only in the section's comment
 * (the duration: "1ms" against "until stopped (csmacd tui), this trace
 * t = ..."), so everything after the section header is compared byte for
 * byte with the file of the csmacd program (CSMACD_BIN) itself. */
static void w_matches_run(const char *name, const char *ini, const char *duration,
                          sim_time until, const char *stem)
{
    const char *bin = getenv("CSMACD_BIN");
    if (!bin) {
        skip();
        return;
    }
    char dir[256], msg[1024], err[512], warn[512], path[512], cmd[2048];
    assert_int_equal(tmpdir_make(dir, sizeof dir, name), 0);
    snprintf(path, sizeof path, "%s/net.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(ini, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' run --scenario '%s/net.ini' --duration %s --pcap '%s/run.pcapng' "
                              ">/dev/null",
             bin, dir, duration, dir);
    assert_int_equal(system(cmd), 0);

    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    engine *live = NULL;
    assert_int_equal(engine_create(&sc, &live, err, sizeof err), 0);
    assert_int_equal(engine_start(live, err, sizeof err), 0);
    engine_run(live, until, 0);
    tui_saves *sv = NULL;
    assert_int_equal(tui_saves_create(dir, &sv), 0);
    tui_trace *t = tui_trace_start(sv, live, until, 10 * SIM_PS_PER_S, 64e6, msg, sizeof msg);
    assert_non_null(t);
    int64_t ran = 0;
    tui_trace_state st;
    while ((st = tui_trace_step(t, 1000, &ran, msg, sizeof msg)) == TUI_TRACE_WRITING)
        ;
    assert_int_equal(st, TUI_TRACE_SAVED);
    char want[300];
    snprintf(want, sizeof want, "saved %s.pcapng (the whole run", stem);
    if (strncmp(msg, want, strlen(want)) != 0)
        fail_msg("%s", msg);
    tui_trace_destroy(t);
    tui_saves_destroy(sv);

    size_t na, nb, ra, rb;
    snprintf(path, sizeof path, "%s/run.pcapng", dir);
    uint8_t *a = slurp(path, &na);
    snprintf(path, sizeof path, "%s/%s.pcapng", dir, stem);
    uint8_t *b = slurp(path, &nb);
    assert_non_null(a);
    assert_non_null(b);
    const uint8_t *pa = after_section(a, na, &ra), *pb = after_section(b, nb, &rb);
    assert_true(ra > 1000); /* interfaces and records, not an empty trace */
    assert_int_equal(ra, rb);
    assert_memory_equal(pa, pb, ra);
    free(a);
    free(b);
    engine_destroy(live);
    scenario_free(&sc);
    tmpdir_remove(dir);
}

/* Two hubs joined by a bridge: the flooded and forwarded copies on their
 * port's segment, named by the bridge. */
static void test_trace_of_bridged_hubs(void **state)
{
    (void)state;
    w_matches_run("tui-save-bridge",
                  "phy = 10baset\nseed = 3\n"
                  "[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
                  "[segment c]\ntype = coax\nlength = 200\n"
                  "[repeater r]\nports = c@0, a@0\n"
                  "[bridge sw]\nports = a, b\n"
                  "[group srv]\nstations = 1\nsegment = a\ntraffic = none\nreply = 64\n"
                  "[group near]\nstations = 2\nsegment = c\ntraffic = poisson\ndest = server:1\nload = 0.5\n"
                  "[group far]\nstations = 3\nsegment = b\ntraffic = poisson\ndest = server:1\nload = 0.5\n",
                  "20ms", 20 * SIM_PS_PER_MS,
                  "csmacd-10baset-N6-512B-beb-3-groups-seed3");
}

/* A switch: every station's link its own interfaces, not link1 alone. */
static void test_trace_of_switch(void **state)
{
    (void)state;
    w_matches_run("tui-save-switch",
                  "phy = 10baset\ntopology = switch\nseed = 5\n"
                  "[group server]\nstations = 1\ntraffic = none\nreply = 64\n"
                  "[group clients]\nstations = 8\ndest = group:server\ntraffic = poisson\nload = 0.9\n",
                  "10ms", 10 * SIM_PS_PER_MS, "csmacd-10baset-N9-512B-beb-2-groups-seed5");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_bytes_mean),
        cmocka_unit_test(test_csv_plain_points),
        cmocka_unit_test(test_save_csv_outcome),
        cmocka_unit_test(test_trace_handle),
        cmocka_unit_test(test_trace_of_bridged_hubs),
        cmocka_unit_test(test_trace_of_switch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
