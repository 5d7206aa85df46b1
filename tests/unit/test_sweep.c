/* test_sweep.c - the sweep's grid, seeds, statistics, threads, presets and
 * figure script (src/sweep/sweep.h, src/sweep/presets.h, src/sweep/plot.h).
 *
 * Pins:
 *   - the grid order (policy, phy, frame-size, length, load, stations; the
 *     last fastest) and the expansion of axis LISTs, with single values of
 *     a key's own syntax ("64-1518", "2km") kept whole;
 *   - the seed rule sweep_seed(S, p, r): a pure function, different for
 *     every (p, r) tried and for another master seed;
 *   - the mean and Student-t half-width of sweep_summarise, and that a
 *     measure missing in one replication is missing for the point;
 *   - honest intervals: 200 points of one Poisson scenario, 5 independent
 *     replications each; the grand mean of all 1000 runs stands in for
 *     the true mean. If the intervals are 95 % intervals the number X of
 *     the 200 that cover it is Binomial(200, 0.95) (mean 190, sd 3.08);
 *     we accept 180 <= X <= 198. A true 95 % procedure fails this with
 *     probability P(X <= 179) + P(X >= 199) = 0.0012 + 0.0004 (the grand
 *     mean's own error, 1/sqrt(1000) of one run's spread, moves X by much
 *     less than its sd); intervals of 90 % or of 99 % would fail it
 *     almost always. The seeds are fixed, so the outcome is reproducible;
 *   - --precision: the number of replications and every value are the
 *     same with 1 and 3 threads, and a point marked as meeting the target
 *     does meet it;
 *   - every built-in preset parses, its [scenario] keys are scenario keys
 *     and its [sweep] keys axes or sweep options, its plotted measures
 *     exist;
 *   - the gnuplot script carries the labels, the log x axis, the data
 *     inline with '?' for a missing value, and quotes text safely; every
 *     series of a panel has its own colour and its own dash pattern, and
 *     every measured one its own point shape (a figure read in black and
 *     white); a fraction's axis ends at 1;
 *   - the figure of a load sweep (figure.h): throughput on [0, 1], delay in
 *     µs saying which delay, and references that name their model (the
 *     CSMA/CD model beside CSMA and ALOHA without collision detection),
 *     each series styled apart from every other.
 * Not pinned here: the CSV text and gnuplot itself (tests/sweep/).
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

#include "parse.h"
#include "analytic.h"
#include "figure.h"
#include "plot.h"
#include "presets.h"
#include "reference.h"
#include "scenario.h"
#include "stats.h"
#include "sweep.h"

static void test_grid_order(void **state)
{
    (void)state;
    char err[256];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_points(&g), 1);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "1,2,4", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_FRAME_SIZE, "64,1518", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_POLICY, "beb", err, sizeof err), 0);
    assert_int_equal(sweep_grid_points(&g), 6);
    size_t idx[SWEEP_MAX_AXES];
    sweep_grid_index(&g, 4, idx);
    assert_int_equal(idx[SWEEP_AXIS_FRAME_SIZE], 1);
    assert_int_equal(idx[SWEEP_AXIS_STATIONS], 1);
    assert_int_equal(idx[SWEEP_AXIS_POLICY], 0);
    assert_int_equal(idx[SWEEP_AXIS_LOAD], 0);
    sweep_grid_index(&g, 2, idx);
    assert_int_equal(idx[SWEEP_AXIS_FRAME_SIZE], 0);
    assert_int_equal(idx[SWEEP_AXIS_STATIONS], 2);
    assert_string_equal(sweep_axis_key(SWEEP_AXIS_FRAME_SIZE), "frame-size");
    assert_int_equal(sweep_axis_find("load"), SWEEP_AXIS_LOAD);
    assert_int_equal(sweep_axis_find("duration"), -1);
    sweep_grid_free(&g);
}

static void test_grid_values(void **state)
{
    (void)state;
    char err[256];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "1..8:log", err, sizeof err), 0);
    assert_int_equal(g.n[SWEEP_AXIS_STATIONS], 4);
    assert_string_equal(g.values[SWEEP_AXIS_STATIONS][3], "8");
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_FRAME_SIZE, "64-1518", err, sizeof err), 0);
    assert_int_equal(g.n[SWEEP_AXIS_FRAME_SIZE], 1);
    assert_string_equal(g.values[SWEEP_AXIS_FRAME_SIZE][0], "64-1518");
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_LENGTH, "2km", err, sizeof err), 0);
    assert_string_equal(g.values[SWEEP_AXIS_LENGTH][0], "2km");
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_LOAD, "0.1,0.5,2", err, sizeof err), 0);
    assert_string_equal(g.values[SWEEP_AXIS_LOAD][0], "0.1");
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_POLICY, "beb,fixed:slots=4,limit=9", err,
                                    sizeof err), 0);
    assert_int_equal(g.n[SWEEP_AXIS_POLICY], 2);
    assert_string_equal(g.values[SWEEP_AXIS_POLICY][1], "fixed:slots=4,limit=9");
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "0,2", err, sizeof err), -1);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "x", err, sizeof err), -1);
    assert_int_equal(g.n[SWEEP_AXIS_STATIONS], 4); /* a failed set keeps the old list */
    sweep_grid_free(&g);
}

static void test_seed(void **state)
{
    (void)state;
    assert_true(sweep_seed(1, 2, 3) == sweep_seed(1, 2, 3));
    assert_true(sweep_seed(1, 2, 3) != sweep_seed(2, 2, 3));
    enum { P = 40, R = 40 };
    static uint64_t seen[P * R];
    size_t n = 0;
    for (uint64_t p = 0; p < P; p++)
        for (uint64_t r = 0; r < R; r++) {
            uint64_t s = sweep_seed(42, p, r);
            for (size_t i = 0; i < n; i++)
                assert_true(seen[i] != s);
            seen[n++] = s;
        }
}

static void test_summarise(void **state)
{
    (void)state;
    size_t m = sweep_measure_count();
    int k = sweep_measure_find("throughput");
    assert_true(k >= 0);
    assert_int_equal(sweep_measure_find("wall_s"), -1);
    double *v = calloc(3 * m, sizeof *v);
    assert_non_null(v);
    v[0 * m + (size_t)k] = 1;
    v[1 * m + (size_t)k] = 2;
    v[2 * m + (size_t)k] = 3;
    sweep_result r = {.done = true, .n_reps = 3, .values = v};
    double mean, ci;
    sweep_summarise(&r, (size_t)k, &mean, &ci);
    assert_float_equal(mean, 2.0, 1e-12);
    assert_float_equal(ci, stats_t975(2) * 1.0 / sqrt(3.0), 1e-12);
    r.n_reps = 1;
    sweep_summarise(&r, (size_t)k, &mean, &ci);
    assert_float_equal(mean, 1.0, 1e-12);
    assert_true(isnan(ci));
    r.n_reps = 3;
    v[1 * m + (size_t)k] = NAN;
    sweep_summarise(&r, (size_t)k, &mean, &ci);
    assert_true(isnan(mean));
    free(v);
}

/* A small scenario: 4 stations with Poisson arrivals (no capture effect,
 * throughput nearly normal across runs). */
static void poisson_scenario(scenario *sc)
{
    char err[256], warn[256];
    scenario_defaults(sc);
    assert_int_equal(scenario_set(sc, "stations", "4", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, "traffic", "poisson", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, "load", "0.6", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, "frame-size", "128", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, "duration", "40ms", err, sizeof err), 0);
    assert_int_equal(scenario_finish(sc, err, sizeof err, warn, sizeof warn), 0);
}

static void test_ci_coverage(void **state)
{
    (void)state;
    enum { K = 200, R = 5 };
    scenario *pts = calloc(K, sizeof *pts);
    sweep_result *res = calloc(K, sizeof *res);
    assert_non_null(pts);
    assert_non_null(res);
    for (size_t p = 0; p < K; p++)
        poisson_scenario(&pts[p]);
    sweep_options o = {.reps = R, .seed = 2026, .jobs = 2};
    char err[256];
    assert_int_equal(sweep_execute(pts, K, NULL, &o, res, NULL, NULL, NULL, err, sizeof err), 0);
    size_t k = (size_t)sweep_measure_find("throughput"), m = sweep_measure_count();
    double grand = 0;
    for (size_t p = 0; p < K; p++) {
        assert_true(res[p].done);
        assert_int_equal(res[p].n_reps, R);
        for (size_t r = 0; r < R; r++)
            grand += res[p].values[r * m + k];
    }
    grand /= K * R;
    int covered = 0;
    for (size_t p = 0; p < K; p++) {
        double mean, ci;
        sweep_summarise(&res[p], k, &mean, &ci);
        covered += fabs(mean - grand) <= ci;
    }
    print_message("coverage: %d of %d intervals hold the grand mean %.5f\n", covered, K, grand);
    assert_true(covered >= 180);
    assert_true(covered <= 198);
    for (size_t p = 0; p < K; p++) {
        sweep_result_free(&res[p]);
        scenario_free(&pts[p]);
    }
    free(pts);
    free(res);
}

static void test_precision_deterministic(void **state)
{
    (void)state;
    enum { K = 6 };
    scenario pts[K];
    sweep_result a[K], b[K];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    char err[256], warn[256];
    for (size_t p = 0; p < K; p++) {
        poisson_scenario(&pts[p]);
        pts[p].n_stations = (uint32_t)(2 + 3 * p);
        pts[p].duration = 3 * SIM_PS_PER_MS;
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
    }
    sweep_options o = {.reps = 1, .precision = 0.03, .max_reps = 25, .seed = 5, .jobs = 1};
    assert_int_equal(sweep_execute(pts, K, NULL, &o, a, NULL, NULL, NULL, err, sizeof err), 0);
    o.jobs = 3;
    assert_int_equal(sweep_execute(pts, K, NULL, &o, b, NULL, NULL, NULL, err, sizeof err), 0);
    size_t m = sweep_measure_count(), k = (size_t)sweep_measure_find("throughput");
    for (size_t p = 0; p < K; p++) {
        assert_int_equal(a[p].n_reps, b[p].n_reps);
        assert_true(a[p].n_reps >= SWEEP_PRECISION_MIN_REPS);
        assert_int_equal(a[p].precision_met, b[p].precision_met);
        assert_memory_equal(a[p].values, b[p].values, sizeof(double) * m * a[p].n_reps);
        double mean, ci;
        sweep_summarise(&a[p], k, &mean, &ci);
        if (a[p].precision_met)
            assert_true(ci <= 0.03 * mean);
        else
            assert_int_equal(a[p].n_reps, 25);
        sweep_result_free(&a[p]);
        sweep_result_free(&b[p]);
        scenario_free(&pts[p]);
    }
}

/* Keyed axes (--grid KEY=LIST) follow the named ones, a companion
 * (+KEY) moves with its axis, and with groups the stations and load axes
 * are totals shared by the groups. */
static void test_grid_keys(void **state)
{
    (void)state;
    char err[512];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set_key(&g, "+x.load", "1", err, sizeof err), -1);
    assert_non_null(strstr(err, "no"));
    assert_int_equal(sweep_grid_set_key(&g, "stations", "16,32", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set_key(&g, "load", "0.32", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set_key(&g, "rogue.stations", "0..2", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set_key(&g, "+rogue.policy", "none,beb", err, sizeof err), -1);
    assert_string_equal(err, "2 values, but rogue.stations, which it moves with, has 3");
    assert_int_equal(sweep_grid_set_key(&g, "+rogue.policy", "none,beb,fixed:wait=2,jitter=2",
                                        err, sizeof err), 0);
    assert_int_equal(g.n[SWEEP_AXIS_STATIONS], 2);
    assert_int_equal(g.n_keyed, 1);
    assert_string_equal(sweep_grid_key(&g, SWEEP_N_AXES), "rogue.stations");
    assert_int_equal(sweep_grid_find(&g, "rogue.stations"), SWEEP_N_AXES);
    assert_int_equal(sweep_grid_points(&g), 6);
    /* the keyed axis is the fastest: point 4 is (32, rogue 1) */
    size_t idx[SWEEP_MAX_AXES];
    sweep_grid_index(&g, 4, idx);
    assert_int_equal(idx[SWEEP_AXIS_STATIONS], 1);
    assert_int_equal(idx[SWEEP_N_AXES], 1);

    scenario base;
    scenario_defaults(&base);
    assert_int_equal(scenario_set(&base, "traffic", "poisson", err, sizeof err), 0);
    assert_int_equal(scenario_group_add(&base, "beb", err, sizeof err), 0);
    assert_int_equal(scenario_group_add(&base, "rogue", err, sizeof err), 0);
    scenario sc;
    char warn[512];
    assert_int_equal(scenario_copy(&sc, &base), 0);
    assert_int_equal(sweep_apply(&g, 4, &sc, err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_int_equal(sc.n_stations, 32);
    assert_int_equal(sc.groups[0].count, 31);
    assert_int_equal(sc.groups[1].count, 1);
    assert_string_equal(sc.groups[1].policy, "beb"); /* the companion's second value */
    assert_true(fabs(sc.groups[0].traffic.load - 0.31) < 1e-12);
    assert_true(fabs(sc.groups[1].traffic.load - 0.01) < 1e-12);
    assert_int_equal(sweep_run_width(&sc), sweep_measure_count() + 2 * sweep_group_measure_count());
    assert_int_equal(sweep_value_find(&sc, "rogue.share"),
                     (int)(sweep_measure_count() + sweep_group_measure_count() +
                           (size_t)sweep_group_measure_find("share")));
    assert_int_equal(sweep_value_find(&sc, "nobody.share"), -1);
    assert_int_equal(sweep_value_find(&sc, "rogue.nothing"), -1);
    scenario_free(&sc);
    /* a group with no station offers no load; another keeps the total */
    assert_int_equal(scenario_copy(&sc, &base), 0);
    assert_int_equal(sweep_apply(&g, 0, &sc, err, sizeof err), 0);
    assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
    assert_int_equal(sc.groups[1].count, 0);
    assert_true(fabs(sc.groups[0].traffic.load - 0.32) < 1e-12);
    scenario_free(&sc);
    /* both groups set their stations: no group takes the rest */
    assert_int_equal(scenario_set(&base, "beb.stations", "4", err, sizeof err), 0);
    assert_int_equal(scenario_copy(&sc, &base), 0);
    assert_int_equal(sweep_apply(&g, 0, &sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "--stations: with groups it is the total"));
    scenario_free(&sc);
    scenario_free(&base);
    sweep_grid_free(&g);
}

static void test_presets(void **state)
{
    (void)state;
    assert_true(preset_count() >= 5);
    for (size_t i = 0; i < preset_count(); i++) {
        preset p;
        char err[1024];
        const char *name = preset_name_at(i);
        if (preset_load(name, &p, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(strlen(p.summary) > 10);
        assert_true(strlen(p.title) > 10);
        scenario sc;
        scenario_defaults(&sc);
        if (preset_apply_scenario(&p, &sc, false, err, sizeof err) != 0)
            fail_msg("preset %s: %s", name, err);
        sweep_grid g = {0};
        for (size_t j = 0; j < p.n_sweep; j++) {
            const preset_kv *kv = &p.sweep[j];
            if (strcmp(kv->key, "reps") != 0 && strcmp(kv->key, "precision") != 0 &&
                strcmp(kv->key, "max-reps") != 0 && strcmp(kv->key, "frames") != 0 &&
                sweep_grid_set_key(&g, kv->key, kv->value, err, sizeof err) != 0)
                fail_msg("preset %s: %s: %s", name, kv->key, err);
        }
        assert_true(sweep_grid_points(&g) > 1);
        /* Every point is a valid scenario (phy: the preset's own), and
         * every measure plotted is one of some point (the points'
         * networks may differ: a swept topology). */
        char **ys = NULL;
        size_t n_ys = 0;
        if (p.y[0])
            assert_int_equal(parse_list_words(p.y, &ys, &n_ys, err, sizeof err), 0);
        bool found[16] = {false};
        assert_true(n_ys <= 16);
        for (size_t pt = 0; pt < sweep_grid_points(&g); pt++) {
            scenario one;
            char warn[1024];
            assert_int_equal(scenario_copy(&one, &sc), 0);
            if (g.n[SWEEP_AXIS_PHY] == 0 &&
                (sweep_apply(&g, pt, &one, err, sizeof err) != 0 ||
                 scenario_finish(&one, err, sizeof err, warn, sizeof warn) != 0))
                fail_msg("preset %s, point %zu: %s", name, pt, err);
            for (size_t j = 0; j < n_ys; j++)
                found[j] = found[j] || sweep_value_find(&one, ys[j]) >= 0;
            scenario_free(&one);
        }
        for (size_t j = 0; j < n_ys; j++)
            if (!found[j])
                fail_msg("preset %s: y: no measure %s", name, ys[j]);
        parse_list_free_words(ys, n_ys);
        scenario_free(&sc);
        sweep_grid_free(&g);
    }
    preset p;
    char err[1024];
    assert_int_equal(preset_load("no-such", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "throughput-vs-n"));
}

static void set_key(scenario *sc, const char *k, const char *v)
{
    char err[512];
    if (scenario_set(sc, k, v, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* A point sized by frames (presets.h): the warm-up, then F frames at the
 * rate the point offers them, rounded up to a millisecond. 10BASE5:
 *  - saturated, 1518 bytes: 2000 x (64 + 12144 + 96) bit times =
 *    2460.8 ms -> 2461 ms, after 20 ms of warm-up: 2.481 s;
 *  - Poisson at G = 0.5, 512 bytes: 2000 x 4096 / 0.5 bit times =
 *    1638.4 ms -> 1639 ms;
 *  - Poisson at G = 5: never faster than back to back, 2000 x (64 + 4096
 *    + 96) = 851.2 ms -> 852 ms;
 *  - 64-1518 bytes uniform, saturated: mean 791 bytes, 2000 x (64 + 6328
 *    + 96) = 1297.6 ms -> 1298 ms;
 *  - batch traffic keeps its own duration: 0. */
static void test_frames_duration(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set_key(&sc, "frame-size", "1518");
    set_key(&sc, "warmup", "20ms");
    assert_int_equal(preset_frames_duration(&sc, 2000), 2481 * SIM_PS_PER_MS);
    set_key(&sc, "warmup", "0");
    set_key(&sc, "traffic", "poisson");
    set_key(&sc, "load", "0.5");
    set_key(&sc, "frame-size", "512");
    assert_int_equal(preset_frames_duration(&sc, 2000), 1639 * SIM_PS_PER_MS);
    set_key(&sc, "load", "5");
    assert_int_equal(preset_frames_duration(&sc, 2000), 852 * SIM_PS_PER_MS);
    set_key(&sc, "traffic", "saturated");
    set_key(&sc, "frame-size", "64-1518");
    assert_int_equal(preset_frames_duration(&sc, 2000), 1298 * SIM_PS_PER_MS);
    set_key(&sc, "traffic", "batch");
    assert_int_equal(preset_frames_duration(&sc, 2000), 0);
    assert_int_equal(preset_frames_duration(&sc, 0), 0);
    scenario_free(&sc);
}

/* The gnuplot script of spec s, in memory (free it). */
static char *plot_script(const plot_spec *s, plot_format fmt, const char *output)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(plot_write_script(f, s, fmt, output), 0);
    fclose(f);
    return buf;
}

static void test_plot_script(void **state)
{
    (void)state;
    double x[3] = {1, 2, 4}, y[3] = {0.9, NAN, 0.7}, e[3] = {0.01, NAN, 0.02};
    double rx[2] = {1, 4}, ry[2] = {1.0, 0.8};
    plot_curve c = {.label = "64 B", .n = 3, .x = x, .y = {y}, .err = {e}};
    plot_ref r = {.label = "Metcalfe-Boggs", .n = 2, .x = rx, .y = ry};
    plot_spec s = {.title = "Bob's figure", .xlabel = "stations N", .xlog_base = 2,
                   .n_panels = 1, .ylabel = {"throughput S"}, .curves = &c, .n_curves = 1,
                   .refs = &r, .n_refs = 1};
    char *buf = plot_script(&s, PLOT_SVG, "out.svg.tmp");
    assert_null(strstr(buf, "set xtics 1")); /* a log axis ticks itself */
    /* A short linear axis of whole numbers (a group's size 0..3) ticks at
     * whole numbers only; fractional x do not. */
    s.xlog_base = 0;
    char *lin = plot_script(&s, PLOT_SVG, "out.svg.tmp");
    assert_non_null(strstr(lin, "set xtics 1\n"));
    free(lin);
    x[1] = 2.5;
    lin = plot_script(&s, PLOT_SVG, "out.svg.tmp");
    assert_null(strstr(lin, "set xtics 1"));
    free(lin);
    x[1] = 2;
    s.xlog_base = 2;
    assert_non_null(strstr(buf, "set terminal svg"));
    assert_non_null(strstr(buf, "set output 'out.svg.tmp'"));
    assert_non_null(strstr(buf, "'Bob''s figure'"));
    assert_non_null(strstr(buf, "set logscale x 2"));
    assert_non_null(strstr(buf, "set xlabel 'stations N'"));
    assert_non_null(strstr(buf, "set ylabel 'throughput S'"));
    assert_non_null(strstr(buf, " 2 ? ? ?\n")); /* no value: no bar either */
    assert_non_null(strstr(buf, "title '64 B'"));
    assert_non_null(strstr(buf, "title 'Metcalfe-Boggs'"));
    assert_non_null(strstr(buf, "with yerrorlines"));
    const char *panel = strstr(buf, "\nplot ");
    const char *frac = strstr(buf, "set yrange [0:1]");
    assert_true(frac == NULL || frac > panel); /* not a fraction: autoscaled */
    /* The key is below the panels, each series in it once, and the
     * panels draw without titles. */
    assert_non_null(strstr(buf, "set key off"));
    assert_non_null(strstr(buf, "set key at screen 0.5,"));
    assert_null(strstr(strstr(buf, "set key at screen"), "\nplot $"));
    assert_null(strstr(strstr(buf, "title '64 B'") + 1, "title '64 B'"));
    free(buf);
    plot_format fmt;
    assert_int_equal(plot_format_of("a/b.png", &fmt), 0);
    assert_int_equal(fmt, PLOT_PNG);
    assert_int_equal(plot_format_of("a.jpg", &fmt), -1);
    assert_int_equal(plot_format_of("dir.svg/x", &fmt), -1);
}

/* The style of each plotted series in a gnuplot script: the text of
 * "lc ... dt ... " and of "pt N" (empty without points), per series of the
 * `plot` command of panel `panel` (0 is the first). Returns the count. */
typedef struct series_style {
    char line[64], point[16];
} series_style;

static size_t styles_of(const char *script, size_t panel, series_style *out, size_t cap)
{
    const char *p = script;
    for (size_t i = 0; i <= panel; i++) {
        p = strstr(p, "\nplot ");
        assert_non_null(p);
        p += 6;
    }
    /* A panel's plot command ends where it unsets its label; the key's
     * (the last plot) at the end of the multiplot. */
    const char *end = strstr(p, "\nunset label 1");
    if (end == NULL)
        end = strstr(p, "\nunset multiplot");
    assert_non_null(end);
    size_t n = 0;
    for (const char *q = strstr(p, " lc "); q != NULL && q < end; q = strstr(q + 1, " lc ")) {
        assert_true(n < cap);
        const char *eol = strchr(q, '\n'); /* one series per line */
        const char *lw = strstr(q, " lw ");
        assert_non_null(lw);
        assert_true(lw < eol);
        snprintf(out[n].line, sizeof out[n].line, "%.*s", (int)(lw - q), q);
        assert_non_null(strstr(out[n].line, " dt "));
        const char *pt = strstr(q, " pt ");
        out[n].point[0] = '\0';
        if (pt != NULL && pt < eol)
            snprintf(out[n].point, sizeof out[n].point, "%.*s", (int)strcspn(pt + 4, " "),
                     pt + 4);
        n++;
    }
    return n;
}

/* Every series differs from every other in colour, in dash pattern and,
 * where both have points, in point shape. */
static void assert_styles_apart(const series_style *st, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            char ci[32], cj[32], di[32], dj[32];
            assert_int_equal(sscanf(st[i].line, " lc rgb '%31[^']' dt %31s", ci, di), 2);
            assert_int_equal(sscanf(st[j].line, " lc rgb '%31[^']' dt %31s", cj, dj), 2);
            if (strcmp(ci, cj) == 0 || strcmp(di, dj) == 0)
                fail_msg("series %zu and %zu look alike: %s / %s", i, j, st[i].line, st[j].line);
            if (st[i].point[0] && st[j].point[0] && strcmp(st[i].point, st[j].point) == 0)
                fail_msg("series %zu and %zu share point type %s", i, j, st[i].point);
        }
}

static void test_plot_styles(void **state)
{
    (void)state;
    enum { NC = 4, NR = 5 };
    double x[2] = {1, 2}, y[2] = {0.5, 0.6}, e[2] = {0.01, 0.01};
    plot_curve c[NC];
    plot_ref r[NR];
    for (size_t i = 0; i < NC; i++)
        c[i] = (plot_curve){.label = "m", .n = 2, .x = x, .y = {y, y}, .err = {e, e}};
    for (size_t i = 0; i < NR; i++)
        r[i] = (plot_ref){.label = "model", .n = 2, .x = x, .y = y};
    plot_spec s = {.title = "t", .xlabel = "x", .n_panels = 2,
                   .ylabel = {"throughput S", "mean delay (µs)"}, .yfraction = {1, 0},
                   .curves = c, .n_curves = NC, .refs = r, .n_refs = NR, .ref_panel = 0};
    char *buf = plot_script(&s, PLOT_PDF, "o.pdf");
    series_style st[NC + NR];
    assert_int_equal(styles_of(buf, 0, st, NC + NR), NC + NR);
    assert_styles_apart(st, NC + NR);
    for (size_t i = 0; i < NC + NR; i++)
        assert_true((st[i].point[0] != '\0') == (i < NC)); /* references: lines only */
    /* The delay panel: the same curves in the same styles, no references. */
    series_style st2[NC];
    assert_int_equal(styles_of(buf, 1, st2, NC), NC);
    for (size_t i = 0; i < NC; i++)
        assert_string_equal(st2[i].line, st[i].line);
    /* The key (the third plot): every series once, in its panel's style. */
    series_style st3[NC + NR];
    assert_int_equal(styles_of(buf, 2, st3, NC + NR), NC + NR);
    for (size_t i = 0; i < NC + NR; i++) {
        assert_string_equal(st3[i].line, st[i].line);
        assert_string_equal(st3[i].point, st[i].point);
    }
    /* The fraction's axis ends at 1 on its panel only. */
    const char *frac = strstr(buf, "set yrange [0:1]\n");
    assert_non_null(frac);
    const char *plot1 = strstr(buf, "\nplot ");
    assert_true(frac < plot1);
    const char *again = strstr(frac + 1, "set yrange [0:1]"); /* the key's empty plot */
    assert_true(again > strstr(plot1 + 1, "\nplot "));
    assert_non_null(strstr(buf, "set ylabel 'mean delay (µs)'"));
    free(buf);
}

/* Done points without a value are results, said on the figure, never a
 * gnuplot warning. Panel 0 (recovery_s): curve "fixed" has no value at
 * all (not drawn there; a note says so), "beb" lacks one at x = 2 (a note
 * names it); curve "late" has a point not done at x = 4 (no note: the
 * sweep never finished it). Panel 1: no value anywhere: the panel says so
 * across its plot area over the sweep's x range [1, 4], and no note
 * repeats it. */
static void test_plot_no_value(void **state)
{
    (void)state;
    double x[3] = {1, 2, 4}, none[3] = {NAN, NAN, NAN}, some[3] = {0.5, NAN, 0.7};
    double e[3] = {0, 0, 0};
    const bool late_done[3] = {true, true, false};
    plot_curve c[3] = {
        {.label = "fixed", .n = 3, .x = x, .y = {none, none}, .err = {e, e}},
        {.label = "beb", .n = 3, .x = x, .y = {some, none}, .err = {e, e}},
        {.label = "late", .n = 3, .x = x, .y = {some, none}, .err = {e, e}, .done = late_done},
    };
    double late_y[3] = {0.4, 0.45, NAN};
    c[2].y[0] = late_y;
    plot_spec s = {.title = "t", .xlabel = "load", .n_panels = 2,
                   .ylabel = {"recovery (s)", "completion (s)"},
                   .no_value = {"never recovered within the run", NULL}, .curves = c,
                   .n_curves = 3};
    char *buf = plot_script(&s, PLOT_PNG, "o.png");
    const char *p0 = strstr(buf, "\nplot "), *p1 = strstr(p0 + 1, "\nplot ");
    const char *key = strstr(p1 + 1, "\nplot ");
    assert_non_null(key);
    /* Panel 0 draws beb and late, not fixed. */
    assert_null(strstr(p0, "$curve0 using"));
    assert_true(strstr(p0, "$curve1 using 1:2:3:4") < p1);
    assert_true(strstr(p0, "$curve2 using 1:2:3:4") < p1);
    /* Panel 1 draws nothing and says so; the x axis is the sweep's. */
    assert_non_null(strstr(buf, "set xrange [1:4]\n"));
    const char *said = strstr(buf, "set label 1 'completion (s): no value at any point (no value)'"
                                   " at graph 0.5,0.5 center front");
    assert_true(said != NULL && said > p0 && said < p1);
    assert_true(strstr(p1, "NaN notitle") < key);
    /* The notes, under the key: two, for panel 0 only. */
    assert_non_null(strstr(buf, "set label 2 'recovery (s): fixed: never recovered within the "
                                "run' at screen 0.08,"));
    assert_non_null(strstr(buf, "set label 3 'recovery (s): beb: never recovered within the run "
                                "at x = 2' at screen 0.08,"));
    assert_null(strstr(buf, "set label 4 "));
    /* Every curve is in the key, fixed included. */
    assert_non_null(strstr(key, "title 'fixed'"));
    assert_non_null(strstr(key, "title 'late'"));
    free(buf);
}

/* A measure that is never negative (a count, a time) has its axis from 0
 * and its bars clipped at 0: a 95 % interval of 0.2 +/- 0.9 frames is
 * drawn from 0 to 1.1, never below. A panel with a negative value keeps
 * its autoscaled axis and whole bars. */
static void test_plot_not_below_zero(void **state)
{
    (void)state;
    double x[3] = {0, 100, 500}, q[3] = {1, 0.2, 5}, eq[3] = {0.5, 0.9, 1};
    double d[3] = {-1, 0.5, 2}, ed[3] = {0.5, 0.5, 0.5};
    plot_curve c = {.label = "groups", .n = 3, .x = x, .y = {q, d}, .err = {eq, ed}};
    plot_spec s = {.title = "t", .xlabel = "fixed.stations", .n_panels = 2,
                   .ylabel = {"frames queued", "a difference"}, .curves = &c, .n_curves = 1};
    char *buf = plot_script(&s, PLOT_SVG, "o.svg");
    const char *p0 = strstr(buf, "\nplot "), *p1 = strstr(p0 + 1, "\nplot ");
    /* Data rows: x, then y, bar low, bar high per panel. */
    assert_non_null(strstr(buf, "\n 0 1 0.5 1.5 -1 -1.5 -0.5\n"));
    assert_non_null(strstr(buf, "\n 100 0.2 0 1.1 0.5 0 1\n"));
    const char *zero = strstr(buf, "set yrange [0:*]");
    assert_true(zero != NULL && zero < p0);
    assert_null(strstr(p0, "set yrange [0:*]"));
    assert_true(strstr(p0, "set autoscale y") < p1);
    free(buf);
}

/* Made-up results for a figure: each point done, n_reps replications of
 * value v + 0.01 * p for every measure. */
static void fake_results(sweep_result *res, size_t n, const scenario *pts, uint32_t reps)
{
    memset(res, 0, n * sizeof *res);
    for (size_t p = 0; p < n; p++) {
        size_t m = sweep_run_width(&pts[p]);
        res[p].done = true;
        res[p].n_reps = reps;
        res[p].width = m;
        res[p].values = calloc(m * reps, sizeof(double));
        assert_non_null(res[p].values);
        for (size_t k = 0; k < m * reps; k++)
            res[p].values[k] = 0.5 + 0.01 * (double)p + 0.001 * (double)(k / m);
    }
}

static char *figure_script(const figure_request *rq, const sweep_grid *g, const scenario *pts,
                           const sweep_result *res)
{
    char err[512], *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (figure_write_script(rq, g, pts, res, f, PLOT_SVG, "g.svg", err, sizeof err) != 0)
        fail_msg("%s", err);
    fclose(f);
    return buf;
}

/* A figure without a title of its own is titled with its panels' names
 * and its x axis in words, never the raw key list; a figure of one series
 * says in its key what ran (the policy, or each group's) and, over
 * replications, what the points and bars are ("csmacd" alone said
 * nothing). */
static void test_figure_title_and_legend(void **state)
{
    (void)state;
    char err[512], warn[512];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "2,8", err, sizeof err), 0);
    scenario pts[2];
    for (size_t p = 0; p < 2; p++) {
        scenario_defaults(&pts[p]);
        pts[p].n_stations = p ? 8 : 2;
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
    }
    sweep_result res[2];
    fake_results(res, 2, pts, 1);
    figure_request rq = {.y_list = "throughput,collisions_per_frame", .title = NULL,
                         .x_axis = -1};
    char *buf = figure_script(&rq, &g, pts, res);
    assert_non_null(strstr(buf, "set multiplot title 'csmacd sweep: throughput S and collisions "
                                "per frame sent vs stations N'\n"));
    assert_non_null(strstr(buf, "title 'csmacd, policy beb'"));
    free(buf);
    for (size_t p = 0; p < 2; p++) {
        scenario_free(&pts[p]);
        sweep_result_free(&res[p]);
    }
    sweep_grid_free(&g);

    /* Groups over a group's size, five replications. */
    sweep_grid h = {0};
    assert_int_equal(sweep_grid_set_key(&h, "fixed.stations", "0,5", err, sizeof err), 0);
    for (size_t p = 0; p < 2; p++) {
        scenario_defaults(&pts[p]);
        assert_int_equal(scenario_group_spec(&pts[p], p ? "fixed stations=5 policy=fixed"
                                                        : "fixed stations=0 policy=fixed",
                                             err, sizeof err),
                         0);
        assert_int_equal(scenario_group_spec(&pts[p], "beb stations=3", err, sizeof err), 0);
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
    }
    fake_results(res, 2, pts, 5);
    rq.y_list = "recovery_s,fixed.frames_queued";
    buf = figure_script(&rq, &h, pts, res);
    assert_non_null(strstr(buf, "title 'groups fixed (fixed) and beb (beb); mean of 5 runs, "
                                "bars: 95% CI'"));
    assert_non_null(strstr(buf, "set multiplot title 'csmacd sweep: time for the backlog to "
                                "clear after the outage and fixed: frames still queued at the "
                                "end vs fixed.stations'\n"));
    free(buf);
    for (size_t p = 0; p < 2; p++) {
        scenario_free(&pts[p]);
        sweep_result_free(&res[p]);
    }
    sweep_grid_free(&h);
}

/* A group's share of nothing delivered (the run delivered no bit) has no
 * value, never 0: two stations that never back off stop everyone; with
 * one, it has every bit. */
static void test_group_share_of_nothing(void **state)
{
    (void)state;
    char err[512], warn[512];
    for (int rogues = 1; rogues <= 2; rogues++) {
        scenario sc;
        scenario_defaults(&sc);
        char spec[64];
        snprintf(spec, sizeof spec, "rogue stations=%d policy=none", rogues);
        assert_int_equal(scenario_group_spec(&sc, spec, err, sizeof err), 0);
        assert_int_equal(scenario_group_spec(&sc, "beb stations=3", err, sizeof err), 0);
        assert_int_equal(scenario_set(&sc, "duration", "20ms", err, sizeof err), 0);
        assert_int_equal(scenario_finish(&sc, err, sizeof err, warn, sizeof warn), 0);
        double *v = calloc(sweep_run_width(&sc), sizeof *v);
        assert_non_null(v);
        if (sweep_run_one(&sc, NULL, 1, v, NULL, err, sizeof err) != 0)
            fail_msg("%s", err);
        int rs = sweep_value_find(&sc, "rogue.share"), bs = sweep_value_find(&sc, "beb.share");
        int th = sweep_value_find(&sc, "throughput");
        assert_true(rs >= 0 && bs >= 0 && th >= 0);
        if (rogues == 1) {
            assert_true(v[rs] == 1.0 && v[bs] == 0.0);
        } else {
            assert_true(v[th] == 0.0);
            assert_true(isnan(v[rs]) && isnan(v[bs]));
        }
        free(v);
        scenario_free(&sc);
    }
}

/* A reference depends on what the model reads, not on the policy: three
 * policies at two loads give three measured curves but each model once
 * (3 CSMA models at a single a, 2 ALOHAs). */
static void test_figure_refs_once(void **state)
{
    (void)state;
    char err[512], warn[512];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_POLICY, "beb,fixed,gaussian", err, sizeof err),
                     0);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_LOAD, "0.2,0.5", err, sizeof err), 0);
    size_t n = sweep_grid_points(&g), m = sweep_measure_count();
    assert_int_equal(n, 6);
    scenario pts[6];
    sweep_result res[6];
    memset(res, 0, sizeof res);
    for (size_t p = 0; p < n; p++) {
        size_t idx[SWEEP_MAX_AXES];
        sweep_grid_index(&g, p, idx);
        scenario_defaults(&pts[p]);
        assert_int_equal(scenario_set(&pts[p], "traffic", "poisson", err, sizeof err), 0);
        assert_int_equal(scenario_set(&pts[p], "policy",
                                      g.values[SWEEP_AXIS_POLICY][idx[SWEEP_AXIS_POLICY]], err,
                                      sizeof err),
                         0);
        assert_int_equal(scenario_set(&pts[p], "load",
                                      g.values[SWEEP_AXIS_LOAD][idx[SWEEP_AXIS_LOAD]], err,
                                      sizeof err),
                         0);
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
        res[p].done = true;
        res[p].n_reps = 1;
        res[p].values = calloc(m, sizeof(double));
        assert_non_null(res[p].values);
        for (size_t k = 0; k < m; k++)
            res[p].values[k] = 0.1 * (double)(p + 1);
    }
    figure_request rq = {.y_list = "throughput", .title = NULL, .x_axis = -1};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(figure_write_script(&rq, &g, pts, res, f, PLOT_SVG, "g.svg", err, sizeof err),
                     0);
    fclose(f);
    size_t tobagi = 0;
    for (const char *q = strstr(buf, "title 'Tobagi-Hunt"); q; q = strstr(q + 1, "title 'Tobagi-Hunt"))
        tobagi++;
    assert_int_equal(tobagi, 1);
    series_style st[16];
    assert_int_equal(styles_of(buf, 0, st, 16), 3 + 3 + 2);
    free(buf);
    for (size_t p = 0; p < n; p++) {
        scenario_free(&pts[p]);
        sweep_result_free(&res[p]);
    }
    sweep_grid_free(&g);
}

/* A load sweep on 10BASE5 (64 Poisson stations at 500 m, 64 and 1518-byte
 * frames, G = 0.2, 0.5, 1) with made-up results: the whole figure. */
static void test_figure_load(void **state)
{
    (void)state;
    char err[512], warn[512];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_FRAME_SIZE, "64,1518", err, sizeof err), 0);
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_LOAD, "0.2,0.5,1", err, sizeof err), 0);
    size_t n = sweep_grid_points(&g), m = sweep_measure_count();
    assert_int_equal(n, 6);
    scenario pts[6];
    sweep_result res[6];
    memset(res, 0, sizeof res);
    for (size_t p = 0; p < n; p++) {
        size_t idx[SWEEP_MAX_AXES];
        sweep_grid_index(&g, p, idx);
        scenario_defaults(&pts[p]);
        assert_int_equal(scenario_set(&pts[p], "traffic", "poisson", err, sizeof err), 0);
        assert_int_equal(scenario_set(&pts[p], "stations", "64", err, sizeof err), 0);
        assert_int_equal(scenario_set(&pts[p], "length", "500", err, sizeof err), 0);
        const char *size = g.values[SWEEP_AXIS_FRAME_SIZE][idx[SWEEP_AXIS_FRAME_SIZE]];
        const char *load = g.values[SWEEP_AXIS_LOAD][idx[SWEEP_AXIS_LOAD]];
        assert_int_equal(scenario_set(&pts[p], "frame-size", size, err, sizeof err), 0);
        assert_int_equal(scenario_set(&pts[p], "load", load, err, sizeof err), 0);
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
        res[p].done = true;
        res[p].n_reps = 2;
        res[p].values = calloc(2 * m, sizeof(double));
        assert_non_null(res[p].values);
        for (size_t k = 0; k < 2 * m; k++)
            res[p].values[k] = 0.1 * (double)(p + 1) + 0.01 * (double)(k / m);
    }
    figure_request rq = {.y_list = "throughput,mean_delay_us", .title = NULL, .x_axis = -1};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(figure_write_script(&rq, &g, pts, res, f, PLOT_SVG, "g.svg", err, sizeof err),
                     0);
    fclose(f);
    assert_non_null(strstr(buf, "set xlabel 'offered load G"));
    assert_non_null(strstr(buf, "set ylabel 'throughput S"));
    assert_non_null(strstr(buf, "set ylabel 'mean delay, queue arrival to last bit sent (µs)'"));
    /* Throughput on [0, 1], delay autoscaled. */
    const char *p1 = strstr(buf, "\nplot "), *p2 = strstr(p1 + 1, "\nplot ");
    const char *yr = strstr(buf, "set yrange [0:1]\n");
    assert_non_null(yr);
    assert_true(yr < p1);
    assert_true(strstr(p1, "set autoscale y\n") < p2);
    /* Two measured series, then per series three models (CSMA/CD, and
     * non-persistent and 1-persistent CSMA without CD), then two ALOHAs:
     * each says which model it is. a = 500 m / (0.77 c) at 10 Mb/s over
     * the frame: 21.66 bits / 512 = 0.0423 and / 12144 = 0.00178 (a names
     * the frame size's curve); the CSMA/CD model's b is the 32-bit jam
     * over the frame. */
    assert_non_null(strstr(buf, "title 'Tobagi-Hunt CSMA/CD model, a=0.0423'"));
    assert_non_null(strstr(buf, "title 'Tobagi-Hunt CSMA/CD model, a=0.00178'"));
    assert_non_null(strstr(buf, "title 'K-T non-persistent CSMA, no CD, a=0.0423'"));
    assert_non_null(strstr(buf, "title 'K-T 1-persistent CSMA, no CD, a=0.00178'"));
    assert_non_null(strstr(buf, "title 'pure ALOHA model'"));
    assert_non_null(strstr(buf, "title 'slotted ALOHA model'"));
    series_style st[16];
    size_t ns = styles_of(buf, 0, st, 16);
    assert_int_equal(ns, 2 + 2 * 3 + 2);
    assert_styles_apart(st, ns);
    assert_int_equal(styles_of(buf, 1, st, 16), 2);
    /* The CSMA/CD reference's values are the model's at its own x. */
    const char *ref = strstr(buf, "$ref0 << EOD\n");
    assert_non_null(ref);
    double x0, y0;
    assert_int_equal(sscanf(ref + strlen("$ref0 << EOD\n"), "%lf %lf", &x0, &y0), 2);
    double a64 = 500.0 / (0.77 * 299792458.0) * 10e6 / 512;
    assert_true(fabs(x0 - 0.2) < 1e-12);
    assert_true(fabs(y0 - analytic_csmacd_slotted_nonpersistent(0.2, a64, 32.0 / 512)) < 1e-9);
    free(buf);
    for (size_t p = 0; p < n; p++) {
        scenario_free(&pts[p]);
        sweep_result_free(&res[p]);
    }
    sweep_grid_free(&g);
}

/* A delay that does not apply (no frame sent: NaN in the results) is no
 * point on the figure, never a 0, and the note under the plot says why.
 * Three points over stations; the middle one sent nothing. */
static void test_figure_undefined_delay(void **state)
{
    (void)state;
    char err[512], warn[512];
    sweep_grid g = {0};
    assert_int_equal(sweep_grid_set(&g, SWEEP_AXIS_STATIONS, "2,4,8", err, sizeof err), 0);
    size_t n = sweep_grid_points(&g), m = sweep_measure_count();
    assert_int_equal(n, 3);
    int k = sweep_measure_find("mean_delay_us");
    assert_true(k >= 0);
    scenario pts[3];
    sweep_result res[3];
    memset(res, 0, sizeof res);
    for (size_t p = 0; p < n; p++) {
        scenario_defaults(&pts[p]);
        const char *count = p == 0 ? "2" : p == 1 ? "4" : "8";
        assert_int_equal(scenario_set(&pts[p], "stations", count, err, sizeof err), 0);
        assert_int_equal(scenario_finish(&pts[p], err, sizeof err, warn, sizeof warn), 0);
        res[p].done = true;
        res[p].n_reps = 1;
        res[p].values = calloc(m, sizeof(double));
        assert_non_null(res[p].values);
        for (size_t j = 0; j < m; j++)
            res[p].values[j] = NAN;
        res[p].values[k] = p == 1 ? NAN : 1000.0 * (double)(p + 1);
    }
    figure_request rq = {.y_list = "mean_delay_us", .title = NULL, .x_axis = -1};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(figure_write_script(&rq, &g, pts, res, f, PLOT_SVG, "d.svg", err, sizeof err),
                     0);
    fclose(f);
    /* The data: x, then the value (missing: '?') and its error bar's ends
     * (one replication: none beyond the value). */
    assert_non_null(strstr(buf, "\n 2 1000 1000 1000\n 4 ? ? ?\n 8 3000 3000 3000\n"));
    assert_non_null(strstr(buf, ": no frame was sent at x = 4'"));
    free(buf);
    for (size_t p = 0; p < n; p++) {
        scenario_free(&pts[p]);
        sweep_result_free(&res[p]);
    }
    sweep_grid_free(&g);
}

/* The throughput formula's costs read off a PHY: 1518-byte frames at
 * 10 Mb/s cost 12144 bits plus 160 (preamble, SFD, gap) and 512-bit slots,
 * so one station alone gets 12144 / 12304; 64-byte frames at 1 Gb/s are
 * carrier-extended from 512 to 4096 bits with 4096-bit slots. */
static void test_reference_costs(void **state)
{
    (void)state;
    analytic_mb_costs c = reference_mb_costs(phy_profile_find("10base5"), 1518);
    assert_true(c.frame_bits == 12144 && c.wire_bits == 12144);
    assert_true(c.overhead_bits == 160 && c.slot_bits == 512);
    assert_true(fabs(analytic_mb_throughput(1, &c) - 12144.0 / 12304.0) < 1e-12);
    c = reference_mb_costs(phy_profile_find("1000baset"), 64);
    assert_true(c.frame_bits == 512 && c.wire_bits == 4096);
    assert_true(c.overhead_bits == 160 && c.slot_bits == 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_order),
        cmocka_unit_test(test_grid_values),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_summarise),
        cmocka_unit_test(test_ci_coverage),
        cmocka_unit_test(test_precision_deterministic),
        cmocka_unit_test(test_grid_keys),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_frames_duration),
        cmocka_unit_test(test_plot_no_value),
        cmocka_unit_test(test_plot_not_below_zero),
        cmocka_unit_test(test_figure_title_and_legend),
        cmocka_unit_test(test_group_share_of_nothing),
        cmocka_unit_test(test_figure_refs_once),
        cmocka_unit_test(test_plot_script),
        cmocka_unit_test(test_plot_styles),
        cmocka_unit_test(test_figure_load),
        cmocka_unit_test(test_figure_undefined_delay),
        cmocka_unit_test(test_reference_costs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
