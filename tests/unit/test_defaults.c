/* test_defaults.c - the scenario's defaults and limits, as the README's
 * option table and src/model/scenario.h state them.
 *
 * Defaults: 10base5 (the profile unchanged), 8 stations evenly on the
 * cable, the probe at 0 m, saturated traffic, load 0.5 (for poisson and
 * onoff), 512-byte frames to random destinations, one frame per station
 * for batch traffic, on/off 10 ms / 90 ms, beb, a queue of 64 frames,
 * 1 s, no warm-up, seed 1, 20 batches, no outage.
 * Limits, each accepted at its edge and refused one step beyond: 1 to
 * SCENARIO_MAX_STATIONS stations; a warm-up shorter than the run; an
 * outage that ends within the run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "phy.h"
#include "scenario.h"

static void test_defaults(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    assert_memory_equal(&sc.phy, phy_profile_find("10base5"), sizeof sc.phy);
    assert_int_equal(sc.n_stations, 8);
    assert_null(sc.positions_m);
    assert_true(sc.probe_m == 0.0);
    assert_int_equal(sc.traffic.kind, TRAFFIC_SATURATED);
    assert_true(sc.traffic.load == 0.5);
    assert_int_equal(sc.traffic.size.kind, FRAME_SIZE_FIXED);
    assert_int_equal(sc.traffic.size.min_bytes, 512);
    assert_int_equal(sc.traffic.size.max_bytes, 512);
    assert_int_equal(sc.traffic.dest, DEST_RANDOM);
    assert_int_equal(sc.traffic.batch_frames, 1);
    assert_true(sc.traffic.on_mean_s == 0.01);
    assert_true(sc.traffic.off_mean_s == 0.09);
    assert_string_equal(sc.policy, "beb");
    assert_int_equal(sc.queue_capacity, 64);
    assert_int_equal(sc.duration, SIM_PS_PER_S);
    assert_int_equal(sc.warmup, 0);
    assert_int_equal(sc.seed, 1);
    assert_int_equal(sc.batches, 20);
    assert_int_equal(sc.outage_duration, 0);
    char err[256], warn[256];
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    scenario_free(&sc);
}

/* Sets key=value on the defaults (and any earlier pairs) and finishes:
 * 0 when both succeed. */
static int try_scenario(const char *const *kv, size_t n)
{
    scenario sc;
    scenario_defaults(&sc);
    char err[256], warn[256];
    int rc = 0;
    for (size_t i = 0; i + 1 < n && rc == 0; i += 2)
        rc = scenario_set(&sc, kv[i], kv[i + 1], err, sizeof err);
    if (rc == 0) {
        sc.queue_capacity = 1; /* room for the largest station counts */
        rc = scenario_finish(&sc, err, sizeof err, warn, sizeof warn);
    }
    if (rc != 0)
        print_message("refused: %s\n", err);
    scenario_free(&sc);
    return rc;
}

static void test_limits(void **state)
{
    (void)state;
    char max[32], over[32];
    snprintf(max, sizeof max, "%u", SCENARIO_MAX_STATIONS);
    snprintf(over, sizeof over, "%u", SCENARIO_MAX_STATIONS + 1);
    assert_int_equal(try_scenario((const char *const[]){"stations", "1"}, 2), 0);
    assert_int_equal(try_scenario((const char *const[]){"stations", max}, 2), 0);
    assert_int_not_equal(try_scenario((const char *const[]){"stations", over}, 2), 0);
    assert_int_not_equal(try_scenario((const char *const[]){"stations", "0"}, 2), 0);
    /* The stations limit holds however the count was set. */
    scenario sc;
    scenario_defaults(&sc);
    char err[256], warn[256];
    sc.n_stations = SCENARIO_MAX_STATIONS;
    sc.queue_capacity = 1;
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    sc.n_stations = SCENARIO_MAX_STATIONS + 1;
    assert_int_not_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    /* A warm-up must be shorter than the run. */
    sc.n_stations = 8;
    sc.warmup = sc.duration - 1;
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    sc.warmup = sc.duration;
    assert_int_not_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    sc.warmup = 0;
    scenario_free(&sc);
    assert_int_equal(
        try_scenario((const char *const[]){"duration", "1s", "warmup", "999ms"}, 4), 0);
    assert_int_not_equal(
        try_scenario((const char *const[]){"duration", "1s", "warmup", "1s"}, 4), 0);
    /* An outage ends within the run: to its last picosecond, not beyond. */
    assert_int_equal(try_scenario((const char *const[]){"outage", "900ms+100ms"}, 2), 0);
    assert_int_not_equal(try_scenario((const char *const[]){"outage", "900ms+101ms"}, 2), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
