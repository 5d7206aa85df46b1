/* test_outputs.c - pins the program's writers without running the engine:
 * outfile.h (the target appears only on commit, a discard leaves nothing,
 * a directory is refused, a write error on commit is reported with the
 * path and removes the temporary, two spellings of one path are the
 * same); eventlog.h (the header and the exact line of each event, stations
 * from 1, backoff slots only on backoff lines); output.h (JSON: every
 * field of src/cli/CLI.md, "Outputs", in table order, completion_s null when
 * it does not apply, non-finite reals as null, stations with their
 * Clause 30 keys;
 * CSV: header and row with one column per measure; the stations CSV).
 * Numbers come from a hand-made results struct, so the model is not
 * tested here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "eventlog.h"
#include "outfile.h"
#include "output.h"

static char dir[] = "/tmp/test_outputs.XXXXXX";
static char err[1024];

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static size_t entries(const char *d)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", d);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    assert_int_equal(fscanf(p, "%zu", &n), 1);
    pclose(p);
    return n;
}

static void test_outfile(void **state)
{
    (void)state;
    char path[256], path2[300];
    snprintf(path, sizeof path, "%s/a.csv", dir);
    outfile o;
    assert_int_equal(outfile_open(&o, path, err, sizeof err), 0);
    assert_false(exists(path)); /* only the temporary so far */
    fputs("x,y\n1,2\n", o.f);
    assert_int_equal(outfile_commit(&o, err, sizeof err), 0);
    char *text = slurp(path);
    assert_string_equal(text, "x,y\n1,2\n");
    free(text);
    assert_int_equal(entries(dir), 1);

    /* A discard leaves the old file as it was and no temporary. */
    assert_int_equal(outfile_open(&o, path, err, sizeof err), 0);
    fputs("half a li", o.f);
    outfile_discard(&o);
    text = slurp(path);
    assert_string_equal(text, "x,y\n1,2\n");
    free(text);
    assert_int_equal(entries(dir), 1);
    outfile_discard(&o); /* twice is harmless */

    assert_int_equal(outfile_open(&o, dir, err, sizeof err), -1);
    snprintf(path2, sizeof path2, "%s: Is a directory", dir);
    assert_string_equal(err, path2);

    snprintf(path2, sizeof path2, "%s/no/such/dir.csv", dir);
    assert_int_equal(outfile_open(&o, path2, err, sizeof err), -1);
    assert_non_null(strstr(err, "dir.csv: No such file or directory"));

    /* A device is written directly; a full one fails on commit. */
    assert_int_equal(outfile_open(&o, "/dev/full", err, sizeof err), 0);
    for (int i = 0; i < 10000; i++)
        fputs("0123456789", o.f);
    assert_int_equal(outfile_commit(&o, err, sizeof err), -1);
    assert_string_equal(err, "/dev/full: No space left on device");

    snprintf(path2, sizeof path2, "%s/./a.csv", dir);
    assert_true(outfile_same(path, path2));
    snprintf(path2, sizeof path2, "%s/../%s/b.csv", dir, strrchr(dir, '/') + 1);
    snprintf(path, sizeof path, "%s/b.csv", dir);
    assert_true(outfile_same(path, path2)); /* neither exists yet */
    snprintf(path2, sizeof path2, "%s/c.csv", dir);
    assert_false(outfile_same(path, path2));
}

static void test_eventlog(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/ev.csv", dir);
    eventlog *l = NULL;
    assert_int_equal(eventlog_open(path, NULL, &l, err, sizeof err), 0);
    trace_sink s = eventlog_sink(l);
    trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TRACE_TX_START;
    ev.time = 123456789;
    ev.station = 0;
    ev.attempt = 1;
    ev.frame_id = 42;
    ev.frame_bytes = 64;
    ev.backoff_slots = 7; /* not a backoff: not printed */
    s.on_event(s.ctx, &ev);
    ev.kind = TRACE_BACKOFF;
    ev.time = INT64_MAX;
    ev.station = 99999;
    ev.attempt = 16;
    ev.frame_id = UINT64_MAX;
    ev.frame_bytes = 1518;
    ev.backoff_slots = 1023;
    s.on_event(s.ctx, &ev);
    assert_int_equal(eventlog_lines(l), 2);
    assert_int_equal(eventlog_error(l), 0);
    assert_int_equal(eventlog_close(l, err, sizeof err), 0);
    char *text = slurp(path);
    assert_string_equal(text,
                        "time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes\n"
                        "123456789,1,tx_start,1,0,1,43,64\n"
                        "9223372036854775807,100000,backoff,16,1023,16777216,1099511627776,1518\n");
    free(text);

    /* A write error is sticky and named on close. */
    assert_int_equal(eventlog_open("/dev/full", NULL, &l, err, sizeof err), 0);
    for (int i = 0; i < 10000; i++)
        eventlog_sink(l).on_event(l, &ev);
    assert_int_not_equal(eventlog_error(l), 0);
    assert_int_equal(eventlog_close(l, err, sizeof err), -1);
    assert_string_equal(err, "/dev/full: No space left on device");
}

static station_result stations[2];

static results sample(void)
{
    results r;
    memset(&r, 0, sizeof r);
    memset(stations, 0, sizeof stations);
    stations[0].c.frames_transmitted_ok = 10;
    stations[0].c.single_collision_frames = 2;
    stations[0].c.octets_transmitted_ok = 4940;
    stations[0].share = 1.0;
    stations[1].c.frames_aborted_xs_colls = 1;
    stations[1].queue_len = 3;
    r.sim_time_s = 0.5;
    r.measured_s = 0.5;
    r.throughput = 0.25;
    r.throughput_ci95 = NAN; /* not finite: null */
    r.throughput_mbps = 2.5;
    r.frames_ok = 10;
    r.frames_offered = 14;
    r.frames_aborted = 1;
    r.frames_queued = 3;
    r.completion_s = -1;
    r.jain_fairness = 0.5;
    r.capture_max_run = 10;
    r.events = 1234;
    r.n_stations = 2;
    r.stations = stations;
    return r;
}

static char *render(output_format fmt, const output_run *run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(output_write(f, fmt, run), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void test_output(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    results r = sample();
    output_run run = {.sc = &sc, .r = &r, .wall_s = 0.125, .interrupted = false};

    char *json = render(OUTPUT_JSON, &run);
    const char *want[] = {"\"throughput\": 0.25,", "\"throughput_ci95\": null,",
                          "\"frames_ok\": 10,", "\"frames_offered\": 14,",
                          "\"completion_s\": null,", "\"wall_s\": 0.125,",
                          "\"interrupted\": false,", "\"aFramesTransmittedOK\": 10,",
                          "\"aSingleCollisionFrames\": 2,", "\"aOctetsTransmittedOK\": 4940,",
                          "\"aFramesAbortedDueToXSColls\": 1,", "\"station\": 2,",
                          "\"seed\": 1", "\"phy\": \"10base5\""};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strstr(json, want[i]) == NULL)
            fail_msg("JSON lacks %s:\n%s", want[i], json);
    /* Fields in table order: throughput first, stations last. */
    assert_true(strstr(json, "\"throughput\"") < strstr(json, "\"frames_ok\""));
    assert_true(strstr(json, "\"wall_s\"") < strstr(json, "\"stations\""));
    free(json);

    r.completion_s = 0.0123;
    run.interrupted = true;
    json = render(OUTPUT_JSON, &run);
    assert_non_null(strstr(json, "\"completion_s\": 0.0123,"));
    assert_non_null(strstr(json, "\"interrupted\": true,"));
    free(json);

    char *csv = render(OUTPUT_CSV, &run);
    char *nl = strchr(csv, '\n');
    assert_non_null(nl);
    size_t header_commas = 0, row_commas = 0;
    for (char *p = csv; p < nl; p++)
        header_commas += *p == ',';
    for (char *p = nl + 1; *p; p++)
        row_commas += *p == ',';
    assert_int_equal(header_commas, output_measure_count()); /* + "interrupted" */
    assert_int_equal(row_commas, header_commas);
    assert_true(strncmp(csv, "throughput,throughput_ci95,throughput_mbps,", 43) == 0);
    assert_true(strncmp(nl + 1, "0.25,,2.5,", 10) == 0);
    assert_non_null(strstr(nl + 1, ",1\n")); /* interrupted */
    free(csv);

    char *text = render(OUTPUT_TEXT, &run);
    assert_non_null(strstr(text, "interrupted"));
    assert_non_null(strstr(text, "2.500 Mb/s"));
    free(text);

    char *st = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&st, &len);
    assert_int_equal(output_write_stations_csv(f, &r), 0);
    fclose(f);
    assert_true(strncmp(st, "station,aFramesTransmittedOK,aSingleCollisionFrames,", 52) == 0);
    assert_non_null(strstr(st, "\n1,10,2,0,4940,"));
    assert_non_null(strstr(st, "\n2,0,0,0,0,0,0,1,"));
    assert_non_null(strstr(st, ",3\n")); /* station 2's queue */
    free(st);

    /* Every contract field is a measure. */
    const char *contract[] = {"throughput", "throughput_ci95", "throughput_mbps", "offered_load",
                              "frames_ok", "frames_offered", "frames_aborted", "frames_dropped",
                              "attempts", "collisions", "late_collisions", "completion_s",
                              "mean_delay_us", "p99_delay_us", "jain_fairness",
                              "capture_mean_run", "capture_max_run", "sim_time_s", "events",
                              "wall_s"};
    for (size_t i = 0; i < sizeof contract / sizeof contract[0]; i++) {
        bool found = false;
        for (size_t j = 0; j < output_measure_count(); j++)
            found |= strcmp(output_measure_at(j)->name, contract[i]) == 0;
        if (!found)
            fail_msg("%s is not a measure", contract[i]);
    }
    output_format fmt;
    assert_int_equal(output_format_parse("json", &fmt), 0);
    assert_int_equal(fmt, OUTPUT_JSON);
    assert_int_equal(output_format_parse("xml", &fmt), -1);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outfile),
        cmocka_unit_test(test_eventlog),
        cmocka_unit_test(test_output),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
