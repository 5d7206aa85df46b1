/* test_series.c - the time series sink (src/sinks/series.c, run --series).
 *
 * Pins: the header; one row per interval from t = 0, empty ones included,
 * the last one cut at the end of the run (10.5 ms in 1 ms intervals: 11
 * rows, the last 0.5 ms long); the columns summed over the rows equal the
 * run's totals (frames sent OK, attempts, collisions seen, offered,
 * dropped, aborted), the throughput column times each row's length gives
 * the delivered bits of the run's own throughput, and the last backlog is
 * the run's frames_queued; with an outage of [3 ms, 7 ms) nothing is sent
 * OK or delivered in the rows inside it and the backlog grows across it;
 * two runs give the same bytes; an interval that does not divide the run;
 * a guard that says stop halts the empty tail after whole rows.
 * Does not pin: the CLI options (tests/cli), the figure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "scenario.h"
#include "series.h"

typedef struct row {
    double t0, t1, thr;
    unsigned long long ok, attempts, coll, offered, dropped, aborted, late_discarded, backlog;
} row;

/* Runs the scenario with a series sink; returns the file's text and the
 * parsed rows (both malloc'd), and the run's results. */
static char *run_series(scenario *sc, sim_time interval, row **rows, size_t *n_rows,
                        results *r, engine **out_e)
{
    char err[512], warn[512];
    assert_int_equal(scenario_finish(sc, err, sizeof err, warn, sizeof warn), 0);
    engine *e = NULL;
    assert_int_equal(engine_create(sc, &e, err, sizeof err), 0);
    FILE *f = tmpfile();
    assert_non_null(f);
    series *s = NULL;
    assert_int_equal(series_create(f, interval, sc->phy.rate_bps, engine_judge_ps(e), &s), 0);
    assert_int_equal(engine_add_sink(e, series_sink(s)), 0);
    engine_run_all(e);
    assert_int_equal(series_finish(s, engine_now(e)), 0);
    assert_int_equal(series_error(s), 0);
    uint64_t written = series_rows(s);
    series_destroy(s);
    engine_results(e, r);
    long len = ftell(f);
    assert_true(len > 0);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    const char *hdr = "t_start_s,t_end_s,throughput,frames_ok,attempts,collisions,offered,"
                      "dropped,aborted,late_discarded,backlog\n";
    assert_memory_equal(text, hdr, strlen(hdr));
    size_t cap = 16, n = 0;
    row *v = malloc(cap * sizeof *v);
    assert_non_null(v);
    for (const char *p = text + strlen(hdr); *p; p = strchr(p, '\n') + 1) {
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        row *x = &v[n++];
        assert_int_equal(sscanf(p, "%lf,%lf,%lf,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", &x->t0,
                                &x->t1, &x->thr, &x->ok, &x->attempts, &x->coll, &x->offered,
                                &x->dropped, &x->aborted, &x->late_discarded, &x->backlog),
                         11);
    }
    assert_int_equal(n, written);
    *rows = v;
    *n_rows = n;
    *out_e = e;
    return text;
}

static void set(scenario *sc, const char *k, const char *v)
{
    char err[512];
    if (scenario_set(sc, k, v, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void check_totals(const scenario *sc, const row *v, size_t n, const results *r)
{
    unsigned long long ok = 0, att = 0, coll = 0, off = 0, drop = 0, ab = 0, late = 0;
    double bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            assert_true(fabs(v[i].t0 - v[i - 1].t1) < 1e-12);
        ok += v[i].ok;
        att += v[i].attempts;
        coll += v[i].coll;
        off += v[i].offered;
        drop += v[i].dropped;
        ab += v[i].aborted;
        late += v[i].late_discarded;
        bits += v[i].thr * (double)sc->phy.rate_bps * (v[i].t1 - v[i].t0);
    }
    assert_int_equal(ok, r->frames_ok);
    assert_int_equal(att, r->attempts);
    assert_int_equal(coll, r->collisions_seen);
    assert_int_equal(off, r->frames_offered);
    assert_int_equal(drop, r->frames_dropped);
    assert_int_equal(ab, r->frames_aborted);
    assert_int_equal(late, r->frames_late_discarded);
    assert_int_equal(v[n - 1].backlog, r->frames_queued);
    /* The rows credit every frame received whole by the end, pro rata
     * (no warm-up: all of it falls in [0, end)), so their bits sum to the
     * bits the stations delivered; each row prints 6 decimals, so within
     * n x 0.5e-6 of the row throughputs. */
    double want = 0;
    for (uint32_t i = 0; i < r->n_stations; i++)
        want += (double)r->stations[i].bits_delivered;
    assert_true(want > 0);
    assert_true(fabs(bits - want) <= 1e-6 * (double)sc->phy.rate_bps * r->sim_time_s);
}

static void test_rows_and_totals(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set(&sc, "traffic", "poisson");
    set(&sc, "load", "0.9");
    set(&sc, "stations", "12");
    set(&sc, "queue", "4");
    set(&sc, "duration", "10.5ms");
    row *v;
    size_t n;
    results r;
    engine *e;
    char *text = run_series(&sc, SIM_PS_PER_S / 1000, &v, &n, &r, &e);
    assert_int_equal(n, 11);
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(v[i].t0 - 1e-3 * (double)i) < 1e-12);
    assert_true(fabs(v[10].t1 - 0.0105) < 1e-12);
    check_totals(&sc, v, n, &r);
    assert_true(r.collisions_seen > 0 && r.frames_ok > 10);

    /* Same scenario, same bytes. */
    row *v2;
    size_t n2;
    results r2;
    engine *e2;
    char *text2 = run_series(&sc, SIM_PS_PER_S / 1000, &v2, &n2, &r2, &e2);
    assert_string_equal(text, text2);
    free(text);
    free(text2);
    free(v);
    free(v2);
    engine_destroy(e);
    engine_destroy(e2);
    scenario_free(&sc);
}

static void test_outage(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set(&sc, "traffic", "poisson");
    set(&sc, "load", "0.5");
    set(&sc, "stations", "16");
    set(&sc, "duration", "20ms");
    set(&sc, "outage", "3ms+4ms");
    row *v;
    size_t n;
    results r;
    engine *e;
    /* 0.7 ms rows: boundaries do not fall on the outage's edges. */
    char *text = run_series(&sc, 700 * SIM_PS_PER_S / 1000000, &v, &n, &r, &e);
    assert_int_equal(n, 29); /* 28 x 0.7 ms = 19.6 ms, then 0.4 ms */
    check_totals(&sc, v, n, &r);
    size_t inside = 0;
    const row *before = NULL, *last_inside = NULL;
    unsigned long long kept = 0; /* accepted and not given up, inside */
    for (size_t i = 0; i < n; i++) {
        if (v[i].t0 >= 0.003 && v[i].t1 <= 0.007 + 1e-12) {
            if (!before)
                before = &v[i - 1];
            inside++;
            last_inside = &v[i];
            assert_int_equal(v[i].ok, 0);
            assert_true(v[i].thr == 0);
            kept += v[i].offered - v[i].dropped - v[i].aborted - v[i].late_discarded;
        }
    }
    assert_int_equal(inside, 5); /* [3.5, 4.2) ... [6.3, 7.0) */
    assert_non_null(before);
    assert_non_null(last_inside);
    /* Nothing leaves the queues inside: the backlog grows by every frame
     * accepted (about 1220 frames/s x 3.5 ms). */
    assert_int_equal(last_inside->backlog, before->backlog + kept);
    assert_true(kept >= 1);
    /* Afterwards the backlog drains and frames get through again. */
    unsigned long long ok_after = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].t0 >= 0.007)
            ok_after += v[i].ok;
    assert_true(ok_after > last_inside->backlog);
    free(text);
    free(v);
    engine_destroy(e);
    scenario_free(&sc);
}

/* The guard: asked every SERIES_GUARD_ROWS rows, even in the empty tail
 * series_finish writes; its "stop" halts the series after whole rows. */
static int halt_on_second(void *ctx)
{
    int *calls = ctx;
    return ++*calls == 2;
}

static void test_guard_halts_tail(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    series *s = NULL;
    assert_int_equal(series_create(f, SIM_PS_PER_S / 1000000, 10000000, 0, &s), 0);
    int calls = 0;
    series_set_guard(s, halt_on_second, &calls);
    assert_int_equal(series_finish(s, SIM_PS_PER_S), 0); /* 10^6 intervals of 1 us */
    assert_int_equal(calls, 2);
    assert_true(series_halted(s));
    assert_int_equal(series_rows(s), 2 * SERIES_GUARD_ROWS);
    assert_int_equal(series_reached(s), 2 * SERIES_GUARD_ROWS * (SIM_PS_PER_S / 1000000));
    /* Halted: no event and no later finish adds a row. */
    trace_sink k = series_sink(s);
    trace_event ev = {.kind = TRACE_ARRIVAL, .time = 2 * SIM_PS_PER_S};
    k.on_event(k.ctx, &ev);
    assert_int_equal(series_finish(s, 3 * SIM_PS_PER_S), 0);
    assert_int_equal(series_rows(s), 2 * SERIES_GUARD_ROWS);
    series_destroy(s);
    long len = ftell(f);
    rewind(f);
    size_t lines = 0;
    for (long i = 0; i < len; i++)
        lines += fgetc(f) == '\n';
    assert_int_equal(lines, 1 + 2 * SERIES_GUARD_ROWS);
    fclose(f);
}

/* Intervals shorter than a frame: one saturated station at 10 Mb/s
 * sends a 1518-byte frame every 12304 bit times (preamble 64, frame 12144,
 * gap 96), so 10 us rows (100 bit times) inside a frame carry 12144 bits
 * over 12208 bit times of wire: 0.994757 each, and none is above that
 * (counting a frame's bits at its delivery put 121.44 in one row). */
static void test_short_intervals(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    set(&sc, "stations", "1");
    set(&sc, "dest", "broadcast");
    set(&sc, "frame-size", "1518");
    set(&sc, "duration", "5ms");
    row *v;
    size_t n;
    results r;
    engine *e;
    char *text = run_series(&sc, 10 * SIM_PS_PER_US, &v, &n, &r, &e);
    assert_int_equal(n, 500);
    const double inside = 12144.0 / 12208.0;
    size_t full = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(v[i].thr <= inside + 0.5e-6);
        full += fabs(v[i].thr - inside) <= 0.5e-6;
    }
    /* Frame k is on the wire during [k c, k c + 12208 bit times), c =
     * 12304: frames 0..3 hold 122, 121, 121 and 121 whole rows; frame 4,
     * from 4.9216 ms, is still on the wire at 5 ms: no verdict, no credit,
     * so the rows after 4.9216 ms are 0. */
    assert_int_equal(full, 485);
    for (size_t i = 493; i < n; i++)
        assert_true(v[i].thr == 0);
    check_totals(&sc, v, n, &r);
    free(text);
    free(v);
    engine_destroy(e);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_totals),
        cmocka_unit_test(test_outage),
        cmocka_unit_test(test_guard_halts_tail),
        cmocka_unit_test(test_short_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
