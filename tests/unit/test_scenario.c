/* test_scenario.c - pins scenario.h as the program uses it: the defaults,
 * every key's accepted forms and its refusals (with the exact "key: reason"
 * texts users see for the common mistakes), that a refused value leaves the
 * scenario untouched, that `phy` resets the PHY fields and is applied first
 * within a scenario file, the scenario file format (comments, [scenario],
 * unknown keys and sections, long and indented lines, files over 1 MiB,
 * missing files and directories, each with path:line; [group NAME]
 * sections), and scenario_finish's cross-checks and
 * warnings (among them the bound on all queues together). It does not
 * run the engine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "scenario.h"

static char err[1024], warn[1024];

static void set_ok(scenario *sc, const char *key, const char *value)
{
    if (scenario_set(sc, key, value, err, sizeof err) != 0)
        fail_msg("%s=%s refused: %s", key, value, err);
}

static void set_bad(scenario *sc, const char *key, const char *value, const char *expect)
{
    scenario before;
    assert_int_equal(scenario_copy(&before, sc), 0);
    if (scenario_set(sc, key, value, err, sizeof err) == 0)
        fail_msg("%s=%s accepted", key, value);
    if (strstr(err, expect) == NULL)
        fail_msg("%s=%s: '%s' does not contain '%s'", key, value, err, expect);
    /* A refused value changes nothing. */
    assert_memory_equal(&before.phy, &sc->phy, sizeof sc->phy);
    assert_memory_equal(&before.traffic, &sc->traffic, sizeof sc->traffic);
    assert_int_equal(before.n_stations, sc->n_stations);
    assert_true(before.duration == sc->duration);
    assert_true(before.warmup == sc->warmup);
    scenario_free(&before);
}

static void test_defaults(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    assert_string_equal(sc.phy.name, "10base5");
    assert_int_equal(sc.phy.rate_bps, 10000000);
    assert_int_equal(sc.n_stations, 8);
    assert_null(sc.positions_m);
    assert_int_equal(sc.n_positions, 0);
    assert_true(sc.probe_m == 0.0);
    assert_true(sc.pcap_time_scale == 1.0);
    assert_int_equal(sc.pcap_max_stations, 0);
    assert_int_equal(sc.traffic.kind, TRAFFIC_SATURATED);
    assert_int_equal(sc.traffic.size.kind, FRAME_SIZE_FIXED);
    assert_int_equal(sc.traffic.size.min_bytes, 512);
    assert_int_equal(sc.traffic.size.max_bytes, 512);
    assert_int_equal(sc.traffic.dest, DEST_RANDOM);
    assert_int_equal(sc.traffic.batch_frames, 1);
    assert_true(sc.traffic.on_mean_s == 0.01 && sc.traffic.off_mean_s == 0.09);
    assert_true(sc.traffic.load == 0.5);
    assert_int_equal(sc.queue_capacity, 64);
    assert_string_equal(sc.policy, "beb");
    assert_true(sc.duration == SIM_PS_PER_S);
    assert_true(sc.warmup == 0);
    assert_true(sc.seed == 1);
    assert_int_equal(sc.batches, 20);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_string_equal(warn, "");
    scenario_free(&sc);
}

static void test_keys(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "phy", "100basetx");
    assert_int_equal(sc.phy.rate_bps, 100000000);
    assert_int_equal(sc.phy.topology, TOPOLOGY_STAR);
    set_ok(&sc, "stations", "10000");
    assert_int_equal(sc.n_stations, 10000);
    set_ok(&sc, "stations", "1e3");
    assert_int_equal(sc.n_stations, 1000);
    set_ok(&sc, "topology", "bus");
    assert_int_equal(sc.phy.topology, TOPOLOGY_BUS);
    set_ok(&sc, "length", "2.5km");
    assert_true(sc.phy.length_m == 2500);
    set_ok(&sc, "probe", "250");
    assert_true(sc.probe_m == 250);
    set_ok(&sc, "traffic", "poisson");
    assert_int_equal(sc.traffic.kind, TRAFFIC_POISSON);
    set_ok(&sc, "traffic", "pcap:lab/trace.pcap");
    assert_int_equal(sc.traffic.kind, TRAFFIC_PCAP);
    assert_string_equal(sc.pcap_path, "lab/trace.pcap");
    set_ok(&sc, "traffic", "batch");
    assert_string_equal(sc.pcap_path, "");
    set_ok(&sc, "load", "0.8");
    assert_true(sc.traffic.load == 0.8);
    set_ok(&sc, "frame-size", "1518");
    assert_int_equal(sc.traffic.size.kind, FRAME_SIZE_FIXED);
    assert_int_equal(sc.traffic.size.min_bytes, 1518);
    set_ok(&sc, "frame-size", "64-1518");
    assert_int_equal(sc.traffic.size.kind, FRAME_SIZE_RANGE);
    assert_int_equal(sc.traffic.size.min_bytes, 64);
    assert_int_equal(sc.traffic.size.max_bytes, 1518);
    set_ok(&sc, "frame-size", "64:7,576:4,1518:1");
    assert_int_equal(sc.traffic.size.kind, FRAME_SIZE_MIX);
    assert_int_equal(sc.traffic.size.n_mix, 3);
    assert_int_equal(sc.traffic.size.mix_bytes[1], 576);
    assert_int_equal(sc.traffic.size.mix_weight[0], 7);
    assert_int_equal(sc.traffic.size.max_bytes, 1518);
    set_ok(&sc, "dest", "server:3");
    assert_int_equal(sc.traffic.dest, DEST_SERVER);
    assert_int_equal(sc.traffic.server, 2); /* users count from 1 */
    set_ok(&sc, "dest", "server");
    assert_int_equal(sc.traffic.server, 0);
    set_ok(&sc, "dest", "broadcast");
    assert_int_equal(sc.traffic.dest, DEST_BROADCAST);
    set_ok(&sc, "batch", "5");
    assert_int_equal(sc.traffic.batch_frames, 5);
    set_ok(&sc, "on-off", "10ms/90ms");
    assert_true(sc.traffic.on_mean_s == 0.01 && sc.traffic.off_mean_s == 0.09);
    set_ok(&sc, "queue", "1000");
    assert_int_equal(sc.queue_capacity, 1000);
    set_ok(&sc, "duration", "1.5s");
    assert_true(sc.duration == 1500 * SIM_PS_PER_MS);
    set_ok(&sc, "warmup", "100ms");
    assert_true(sc.warmup == 100 * SIM_PS_PER_MS);
    set_ok(&sc, "seed", "18446744073709551615");
    assert_true(sc.seed == UINT64_MAX);
    set_ok(&sc, "policy", "beb");
    set_ok(&sc, "batches", "10");
    assert_int_equal(sc.batches, 10);
    set_ok(&sc, "rate", "1G");
    assert_int_equal(sc.phy.rate_bps, 1000000000);
    set_ok(&sc, "slot-bits", "4096");
    assert_int_equal(sc.phy.slot_bits, 4096);
    set_ok(&sc, "ifg-bits", "96");
    set_ok(&sc, "ifg-part1-bits", "0");
    assert_int_equal(sc.phy.ifg_part1_bits, 0);
    set_ok(&sc, "jam-bits", "48");
    assert_int_equal(sc.phy.jam_bits, 48);
    set_ok(&sc, "preamble-bits", "64");
    set_ok(&sc, "min-frame", "128");
    assert_int_equal(sc.phy.min_frame_bytes, 128);
    set_ok(&sc, "max-frame", "9000");
    assert_int_equal(sc.phy.max_frame_bytes, 9000);
    set_ok(&sc, "attempt-limit", "17");
    assert_int_equal(sc.phy.attempt_limit, 17);
    set_ok(&sc, "backoff-limit", "8");
    assert_int_equal(sc.phy.backoff_limit, 8);
    set_ok(&sc, "two-part-deferral", "no");
    assert_false(sc.phy.two_part_deferral);
    set_ok(&sc, "extension", "yes");
    assert_true(sc.phy.extension);
    set_ok(&sc, "bursting", "yes");
    assert_true(sc.phy.bursting);
    set_ok(&sc, "burst-limit", "65536");
    assert_int_equal(sc.phy.burst_limit_bits, 65536);
    set_ok(&sc, "retry-late", "no");
    assert_false(sc.phy.retry_late);
    set_ok(&sc, "velocity", "0.66");
    assert_true(sc.phy.velocity_c == 0.66);
    set_ok(&sc, "hub-delay-bits", "46");
    assert_int_equal(sc.phy.hub_delay_bits, 46);
    set_ok(&sc, "positions", "0,10,20.5");
    assert_int_equal(sc.n_positions, 3);
    assert_true(sc.positions_m[2] == 20.5);
    set_ok(&sc, "pcap-time-scale", "0.5");
    assert_true(sc.pcap_time_scale == 0.5);
    set_ok(&sc, "pcap-max-stations", "12");
    assert_int_equal(sc.pcap_max_stations, 12);
    scenario_free(&sc);
}

static void test_refusals(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_bad(&sc, "stations", "0", "stations: 0 is out of range (1 to 10000)");
    set_bad(&sc, "stations", "1e12", "stations: 1e12 is out of range (1 to 10000)");
    set_bad(&sc, "stations", "100001", "out of range");
    set_bad(&sc, "stations", "99999999999999999999999", "out of range");
    set_bad(&sc, "stations", "four", "stations: 'four' is not a whole number");
    set_bad(&sc, "stations", "", "stations: needs a value");
    set_bad(&sc, "traffic", "cbrr",
            "traffic: unknown kind 'cbrr' (saturated, poisson, onoff, batch, none, pcap:FILE)");
    set_bad(&sc, "traffic", "pcap:", "traffic: pcap: needs a file name");
    set_bad(&sc, "phy", "10base9", "phy: unknown profile '10base9' (10base5, 10base2,");
    set_bad(&sc, "topology", "ring", "topology: unknown topology 'ring' (bus, star, switch)");
    set_bad(&sc, "length", "-5", "length: -5 is out of range");
    set_bad(&sc, "length", "5 furlongs", "not a length in metres");
    set_bad(&sc, "load", "-0.1", "load: -0.1 is out of range");
    set_bad(&sc, "load", "lots", "load: 'lots' is not a number");
    set_bad(&sc, "frame-size", "17", "frame-size: 17 is out of range (18 to 65535)");
    set_bad(&sc, "frame-size", "1518-64", "frame-size: the range 1518-64 is empty");
    set_bad(&sc, "frame-size", "64-", "frame-size:");
    set_bad(&sc, "frame-size", "big", "frame-size: 'big' is not a whole number");
    set_bad(&sc, "frame-size", "64:0", "frame-size: 0 is out of range (1 to 1000000)");
    set_bad(&sc, "frame-size", "64:1,,128:1", "frame-size:");
    set_bad(&sc, "frame-size",
            "64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80",
            "frame-size: a mix has at most 16 sizes");
    set_bad(&sc, "dest", "server:0", "dest: 0 is out of range (1 to 10000)");
    set_bad(&sc, "dest", "anycast", "dest: unknown destination 'anycast'");
    set_bad(&sc, "batch", "0", "batch: 0 is out of range");
    set_bad(&sc, "on-off", "10ms", "on-off: '10ms' is not ON/OFF");
    set_bad(&sc, "on-off", "0s/1s", "on-off: both periods must be at least 1us");
    set_bad(&sc, "on-off", "1x/1s", "on-off: '1x' is not a time");
    set_bad(&sc, "queue", "0", "queue: 0 is out of range");
    set_bad(&sc, "duration", "0", "duration: 0 is out of range (above 0 to 2400h)");
    set_bad(&sc, "duration", "abc", "duration: 'abc' is not a time");
    set_bad(&sc, "duration", "99999999999h", "duration: 99999999999h is out of range (at most 2400h)");
    set_bad(&sc, "duration", "2401h", "duration: 2401h is out of range");
    set_bad(&sc, "duration", "-1s", "duration: -1s is negative");
    set_bad(&sc, "warmup", "0.5ps", "warmup: 0.5ps is finer than one picosecond");
    set_bad(&sc, "seed", "-1", "seed: -1 is out of range");
    set_bad(&sc, "seed", "18446744073709551616", "seed: 18446744073709551616 is out of range");
    set_bad(&sc, "policy", "be b", "policy: the spec may not contain blanks");
    set_bad(&sc, "batches", "0", "batches: 0 is out of range (1 to 1000)");
    set_bad(&sc, "rate", "10", "rate: 10 is out of range");
    set_bad(&sc, "rate", "fast", "rate: 'fast' is not a bit rate");
    set_bad(&sc, "slot-bits", "4", "slot-bits: 4 is out of range (8 to 1048576)");
    set_bad(&sc, "jam-bits", "0", "jam-bits: 0 is out of range");
    set_bad(&sc, "backoff-limit", "63", "backoff-limit: 63 is out of range (0 to 62)");
    set_bad(&sc, "attempt-limit", "0", "attempt-limit: 0 is out of range (1 to 1000)");
    set_bad(&sc, "extension", "maybe", "extension: 'maybe' is not yes or no");
    set_bad(&sc, "velocity", "0", "velocity: 0 is not a fraction of the speed of light");
    set_bad(&sc, "velocity", "1.5", "velocity: 1.5 is out of range (0 to 1)");
    set_bad(&sc, "positions", "0,x", "positions: position 2: 'x' is not a length in metres");
    set_bad(&sc, "positions", "0..10", "positions: ranges are not allowed");
    set_bad(&sc, "probe", "-1", "probe: -1 is out of range");
    set_bad(&sc, "pcap-time-scale", "0", "pcap-time-scale: 0 is not above 0");
    set_bad(&sc, "pcap-time-scale", "fast", "pcap-time-scale: 'fast' is not a number");
    set_bad(&sc, "pcap-max-stations", "100001", "pcap-max-stations: 100001 is out of range");
    set_bad(&sc, "colour", "red", "colour: unknown key");
    scenario_free(&sc);
}

/* `phy` replaces every PHY field, overrides included. */
static void test_phy_resets(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_ok(&sc, "length", "300");
    set_ok(&sc, "slot-bits", "1024");
    set_ok(&sc, "phy", "10base2");
    assert_true(sc.phy.length_m == 185);
    assert_int_equal(sc.phy.slot_bits, 512);
    assert_true(sc.phy.velocity_c == 0.65);
    scenario_free(&sc);
}

static scenario finish_of(const char *const *kv, size_t n, int expect_rc)
{
    scenario sc;
    scenario_defaults(&sc);
    for (size_t i = 0; i + 1 < n; i += 2)
        set_ok(&sc, kv[i], kv[i + 1]);
    int rc = scenario_finish(&sc, err, sizeof err, warn, sizeof warn);
    if (rc != expect_rc)
        fail_msg("finish gave %d (expected %d): %s", rc, expect_rc, err);
    return sc;
}

#define FINISH(rc, ...)                                                                  \
    do {                                                                                 \
        const char *const kv_[] = {__VA_ARGS__};                                         \
        scenario s_ = finish_of(kv_, sizeof kv_ / sizeof kv_[0], rc);                    \
        scenario_free(&s_);                                                              \
    } while (0)

static void test_finish(void **state)
{
    (void)state;
    FINISH(-1, "duration", "1s", "warmup", "1s");
    assert_string_equal(err, "warmup: 1s is not shorter than the duration (1s)");
    FINISH(-1, "warmup", "2s");
    assert_string_equal(err, "warmup: 2s is not shorter than the duration (1s)");
    FINISH(0, "warmup", "999ms");

    /* All queues together hold at most 10^7 frames (their memory bound). */
    FINISH(0, "stations", "10", "queue", "1000000");
    FINISH(0, "stations", "10000", "queue", "1000");
    FINISH(-1, "stations", "10000", "queue", "1001");
    assert_string_equal(err, "queue: 10000 stations of 1001 frames could hold 10010000 frames "
                             "(at most 10000000 in all)");

    FINISH(-1, "stations", "4", "positions", "0,100,200");
    assert_string_equal(err, "positions: 3 positions given for 4 stations");
    FINISH(-1, "positions", "0,100,200,300", "stations", "5");
    assert_string_equal(err, "positions: 4 positions given for 5 stations");
    FINISH(0, "positions", "0,100,200,500", "stations", "4");
    FINISH(-1, "stations", "2", "positions", "0,600");
    assert_non_null(strstr(err, "positions: station 2 at 600 m is beyond the end of the 500 m"));
    FINISH(-1, "probe", "501");
    assert_non_null(strstr(err, "probe: 501 m is beyond the end of the 500 m cable"));

    FINISH(-1, "traffic", "poisson", "load", "0");
    assert_string_equal(err, "load: poisson traffic needs a load above 0");
    FINISH(-1, "traffic", "onoff", "load", "0");
    assert_string_equal(err, "load: onoff traffic needs a load above 0");
    FINISH(0, "traffic", "saturated", "load", "0");

    FINISH(-1, "stations", "4", "dest", "server:5");
    assert_string_equal(err, "dest: server 5 does not exist (stations are 1 to 4)");
    FINISH(0, "stations", "4", "dest", "server:4");

    /* One station keeps "random" whatever the traffic: its frames are
     * judged where they were sent. */
    FINISH(0, "stations", "1", "traffic", "saturated");
    FINISH(0, "stations", "1", "traffic", "batch");
    FINISH(0, "stations", "1", "traffic", "poisson");
    FINISH(0, "stations", "1", "traffic", "poisson", "dest", "broadcast");

    FINISH(-1, "frame-size", "1519");
    assert_string_equal(err, "frame-size: 1519 bytes is above max-frame (1518 bytes)");
    FINISH(-1, "frame-size", "64:1,2000:1");
    assert_string_equal(err, "frame-size: 2000 bytes is above max-frame (1518 bytes)");
    FINISH(0, "frame-size", "2000", "max-frame", "9000");
    FINISH(0, "frame-size", "18");

    FINISH(-1, "min-frame", "2000");
    assert_non_null(strstr(err, "min-frame: 2000 bytes"));
    FINISH(-1, "rate", "3M");
    assert_non_null(strstr(err, "rate: 3000000 b/s does not give a whole number"));
    FINISH(-1, "ifg-bits", "32", "ifg-part1-bits", "64");
    assert_non_null(strstr(err, "ifg-part1-bits"));

    FINISH(-1, "policy", "nonesuch");
    assert_non_null(strstr(err, "policy: unknown policy 'nonesuch'"));

    /* A cable longer than the PHY allows runs, with a warning. */
    FINISH(0, "length", "5km");
    assert_non_null(strstr(warn, "length: 5000 m is longer than 10base5 allows (2500 m)"));
    FINISH(0, "phy", "10baset", "length", "150");
    assert_non_null(strstr(warn, "per drop cable"));
    FINISH(0, "phy", "10baset", "stations", "2", "positions", "50,300");
    assert_non_null(strstr(warn, "length: 300 m is longer than 10baset allows"));
    FINISH(0, "length", "2500");
    assert_string_equal(warn, "");
}

static void test_copy(void **state)
{
    (void)state;
    scenario a, b;
    scenario_defaults(&a);
    set_ok(&a, "stations", "3");
    set_ok(&a, "positions", "0,1,2");
    assert_int_equal(scenario_copy(&b, &a), 0);
    assert_ptr_not_equal(a.positions_m, b.positions_m);
    assert_int_equal(b.n_positions, 3);
    assert_true(b.positions_m[2] == 2.0);
    scenario_free(&a);
    assert_int_equal(scenario_finish(&b, err, sizeof err, warn, sizeof warn), 0);
    scenario_free(&b);
    assert_null(b.positions_m);
    assert_int_equal(b.n_positions, 0);
}

/* Writes `text` to a fresh file in the current directory. */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void test_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_scenario.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/lab.ini", dir);

    scenario sc;
    scenario_defaults(&sc);
    /* length before phy in the file: phy is applied first, so it holds. */
    write_file(path, "# a lab scenario\n"
                     "; both comment styles\n"
                     "length = 300\n"
                     "phy = 10base2\n"
                     "stations = 12 ; inline comment\n"
                     "\n"
                     "[scenario]\n"
                     "traffic = pcap:cap/a.pcap\n"
                     "duration = 250ms\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), 0);
    assert_string_equal(sc.phy.name, "10base2");
    assert_true(sc.phy.length_m == 300);
    assert_int_equal(sc.n_stations, 12);
    assert_true(sc.duration == 250 * SIM_PS_PER_MS);
    char want[600];
    snprintf(want, sizeof want, "%s/cap/a.pcap", dir);
    assert_string_equal(sc.pcap_path, want);

    write_file(path, "stations = 4\n\ncolour = red\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: unknown key 'colour'", path);
    assert_string_equal(err, want);

    write_file(path, "stations = 4\n[network]\nphy = 10base2\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: unknown section [network]", path);
    assert_non_null(strstr(err, want));

    write_file(path, "seed = 3\nstations = 0\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: stations: 0 is out of range (1 to 10000)", path);
    assert_string_equal(err, want);

    write_file(path, "stations = 4\nthis is not a key value line\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: not a 'key = value' line", path);
    assert_string_equal(err, want);

    write_file(path, "positions = 0,1,\n  2,3\n");
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: indented line", path);
    assert_non_null(strstr(err, want));

    char big[1200] = "positions = 0";
    for (int i = 1; i < 150; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), ",%d", i);
    strcat(big, "\nstations = 150\n");
    write_file(path, big);
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: the line is longer than", path);
    assert_non_null(strstr(err, want));

    /* A file of 1 MiB is read; one line more is refused where it crosses
     * the cap (16384 lines of 64 bytes, then the 16385th). */
    {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (int i = 0; i < 16384; i++)
            fprintf(f, "# %-61d\n", i);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), 0);
        f = fopen(path, "a");
        assert_non_null(f);
        fputs("seed = 1\n", f);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s:16385: the file is larger than 1048576 bytes", path);
        assert_string_equal(err, want);
    }

    snprintf(path, sizeof path, "%s/missing.ini", dir);
    assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(err, want);

    assert_int_equal(scenario_load_file(&sc, dir, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: is a directory", dir);
    assert_string_equal(err, want);

    snprintf(path, sizeof path, "%s/lab.ini", dir);
    unlink(path);
    rmdir(dir);
    scenario_free(&sc);
}

/* Scenario files: [group NAME] sections in file order, defaults anywhere
 * outside them, an empty group declared all the same; a key twice in one
 * section, a group twice, a medium-wide key in a group: refused with the
 * file's lines. */
static void test_group_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_scenario.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], want[512];
    snprintf(path, sizeof path, "%s/fleet.ini", dir);
    scenario sc;
    scenario_defaults(&sc);
    write_file(path, "frame-size = 512\n"
                     "[group rogue]\n"
                     "stations = 1\n"
                     "policy = none\n"
                     "[group spare]\n"
                     "[group good]\n"
                     "stations = 15\n"
                     "[scenario]\n"
                     "duration = 100ms\n"
                     "queue = 8\n");
    if (scenario_load_file(&sc, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_int_equal(sc.n_named, 3);
    assert_string_equal(scenario_group_at(&sc, 0)->name, "rogue");
    assert_string_equal(scenario_group_at(&sc, 1)->name, "spare");
    assert_int_equal(scenario_group_at(&sc, 1)->count, 0);
    assert_int_equal(scenario_group_at(&sc, 2)->first, 1);
    assert_int_equal(scenario_group_at(&sc, 2)->queue_capacity, 8); /* set after the group */
    assert_string_equal(scenario_group_at(&sc, 0)->policy, "none");
    assert_int_equal(sc.n_stations, 16);
    /* a copy is deep: the original can go */
    scenario copy;
    assert_int_equal(scenario_copy(&copy, &sc), 0);
    scenario_free(&sc);
    assert_int_equal(scenario_finish(&copy, err, sizeof err, warn, sizeof warn), 0);
    assert_string_equal(scenario_group_at(&copy, 0)->policy, "none");
    scenario_free(&copy);

    static const struct {
        const char *text;
        const char *expect; /* after "path:" */
    } bad[] = {
        {"[group a]\nstations = 1\nstations = 2\n", "3: stations is given twice (first at line 2)"},
        {"seed = 1\n[group a]\nstations = 1\n[scenario]\nseed = 2\n",
         "5: seed is given twice (first at line 1)"},
        {"[group a]\nstations = 1\n[group a]\n", "3: [group a] given twice (first at line 1)"},
        {"[group a]\nstations = 1\nduration = 1s\n",
         "3: group a: duration is a key of the whole medium; set it outside the groups"},
        {"[group 1a]\nstations = 1\n", "1: group '1a': a name is 1 to 32 letters"},
        {"[groups]\nstations = 1\n", "1: unknown section [groups]"},
        {"[group a]\nstations = x\n", "2: group a: stations:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i].text);
        scenario_defaults(&sc);
        assert_int_equal(scenario_load_file(&sc, path, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s:%s", path, bad[i].expect);
        if (strncmp(err, want, strlen(want)) != 0)
            fail_msg("'%s' does not start with '%s'", err, want);
        scenario_free(&sc);
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),   cmocka_unit_test(test_keys),
        cmocka_unit_test(test_refusals),   cmocka_unit_test(test_phy_resets),
        cmocka_unit_test(test_finish),     cmocka_unit_test(test_copy),
        cmocka_unit_test(test_file),       cmocka_unit_test(test_group_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
