/* tui_driver.c - the sweep, the engines and the snapshots behind the TUI.
 *
 * One engine at a time: the one measuring the current sweep point (or the
 * N the user chose, or, when the sweep is complete, the last N left
 * running for the class to watch). Measuring is batch means over fixed
 * slices of simulated time: every decision (stop this point, go to the next
 * N) is taken at a batch boundary, so the plot does not depend on the wall
 * clock, the speed or the pauses. See tui_driver.h for the contract.
 *
 * What the screen shows of the medium is computed here from the timeline
 * sink (transmissions with their start, end and jam) and the medium's
 * delays: on a bus, the stretch of cable a signal covers at time t is
 * |x - x_s| in [t - end, t - start); on a star each station's column shows
 * the signals present at that station.
 */
#include "tui_driver.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic.h"
#include "engine.h"
#include "medium.h"
#include "outfile.h"
#include "pcap_sink.h"
#include "phy.h"
#include "reference.h"
#include "timeline_sink.h"

#define DRIVER_MAX_N 1024u            /* the most stations + will add */
#define DRIVER_RUN_PS (3600 * SIM_PS_PER_S) /* engines run "for ever": 1 h */
#define DRIVER_REF_POINTS 160
#define DRIVER_TIMELINE_RING 8192
#define DRIVER_PCAP_MAX_PS (10 * SIM_PS_PER_S) /* longest trace a save replays */

/* Simulated seconds per wall second; 0 = as fast as the budget allows. */
static const double speeds[] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100, 0};
#define N_SPEEDS (sizeof speeds / sizeof speeds[0])

/* The policies the b key cycles through: the reference, its
 * capture-avoiding variant, capped exponential backoff with and without
 * jitter, fixed retry, and the two textbook channels (ALOHA, p-persistent
 * CSMA; POLICIES.md), each with its default parameters. */
static const char *const policy_cycle[] = {"beb",   "ca-beb", "full-jitter", "expo",
                                           "fixed", "aloha",  "ppersistent"};
#define N_POLICIES (sizeof policy_cycle / sizeof policy_cycle[0])

static const uint32_t frame_ladder[] = {64, 128, 256, 512, 1024, 1518};
#define N_FRAMES (sizeof frame_ladder / sizeof frame_ladder[0])
/* Offered loads below saturation, total over all stations. */
static const double load_ladder[] = {0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0};
#define N_LOADS (sizeof load_ladder / sizeof load_ladder[0])

struct tui_driver {
    scenario base;
    double precision;
    uint32_t min_batches;
    sim_time batch_ps_opt, cap_ps_opt; /* as given (0 = derive from the PHY) */
    sim_time batch_ps, cap_ps;
    char save_dir[1024];

    uint32_t *sweep;
    size_t n_sweep, sweep_idx;
    bool log_x;
    tui_sweep_phase phase;

    engine *e;
    uint64_t engine_gen; /* counts engines built (pointers may be reused) */
    uint32_t n;
    timeline_sink *tl;
    sim_time view_t;
    sim_time slot_ps, bit_ps;

    /* The point being measured. */
    bool measuring;
    sim_time next_batch;
    uint64_t prev_bits;
    uint32_t batches_seen; /* the first is the warm-up */
    double sum, sumsq;     /* over the kept batches */
    uint32_t kept;
    tui_point cur;

    tui_point *points;
    size_t n_points, cap_points;

    tui_ref_point ref[DRIVER_REF_POINTS];
    size_t n_ref;
    bool show_ref;
    bool zoom; /* S axis zoomed to the data */

    size_t speed_idx;
    bool paused, show_help, exhausted;
    size_t scroll;
    char message[512];
    double message_age_s;

    /* Geometry of the current engine, for the cable drawing. */
    sim_time *pos_ps;  /* bus: from the left end; star: drop delay */
    sim_time cable_ps; /* bus: left end to right end */

    /* Snapshot storage. */
    tui_station_row *rows;
    double *pos;
    size_t rows_cap;
    tui_span *spans;
    size_t n_spans, spans_cap;
    uint8_t timeline[TUI_TIMELINE_MAX];
    char traffic_desc[64];
    char ref_label[64];
    results res;
};

/* ------------------------------------------------------------------ */

size_t tui_driver_default_sweep(uint32_t max_n, bool log_x, uint32_t *out, size_t cap)
{
    size_t n = 0;
    if (max_n < 1)
        max_n = 1;
    if (log_x) {
        for (int k = 0; n < cap; k++) {
            double v = floor(pow(2.0, k / 2.0) + 0.5);
            if (v > max_n)
                break;
            if (n == 0 || (uint32_t)v != out[n - 1])
                out[n++] = (uint32_t)v;
        }
        if (n < cap && (n == 0 || out[n - 1] != max_n))
            out[n++] = max_n;
    } else {
        uint32_t step = max_n >= 16 ? max_n / 16 : 1;
        if (n < cap)
            out[n++] = 1;
        for (uint32_t v = step; v <= max_n && n < cap; v += step)
            if (v != out[n - 1])
                out[n++] = v;
        if (n < cap && out[n - 1] != max_n)
            out[n++] = max_n;
    }
    return n;
}

static void set_message(tui_driver *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_message(tui_driver *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    d->message_age_s = 0;
}

static double frame_bytes_mean(const scenario *sc)
{
    return frame_size_mean(&sc->traffic.size, sc->phy.min_frame_bytes); /* as sent */
}

/* Batch length and point cap follow the bit rate: 2^20 bit times per
 * batch (0.1 s at 10 Mb/s, about 500 frames of 256 bytes). */
static void derive_times(tui_driver *d)
{
    const phy_timing t = phy_timing_of(&d->base.phy);
    d->bit_ps = t.bit_ps;
    d->slot_ps = t.slot_ps;
    d->batch_ps = d->batch_ps_opt > 0 ? d->batch_ps_opt : d->bit_ps * ((sim_time)1 << 20);
    d->cap_ps = d->cap_ps_opt > 0 ? d->cap_ps_opt : d->batch_ps * 200;
}

static void describe_traffic(tui_driver *d)
{
    const traffic_config *t = &d->base.traffic;
    switch (t->kind) {
    case TRAFFIC_SATURATED:
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "saturated");
        break;
    case TRAFFIC_POISSON:
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "poisson G=%.2f", t->load);
        break;
    case TRAFFIC_ONOFF:
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "on-off G=%.2f", t->load);
        break;
    case TRAFFIC_BATCH:
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "batch");
        break;
    case TRAFFIC_PCAP:
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "pcap replay");
        break;
    }
}

static uint32_t sweep_min(const tui_driver *d)
{
    uint32_t m = d->n_sweep ? d->sweep[0] : d->n;
    for (size_t i = 0; i < d->n_sweep; i++)
        if (d->sweep[i] < m)
            m = d->sweep[i];
    for (size_t i = 0; i < d->n_points; i++)
        if (d->points[i].n < m)
            m = d->points[i].n;
    if (d->n < m)
        m = d->n;
    return m;
}

static uint32_t sweep_max(const tui_driver *d)
{
    uint32_t m = d->n;
    for (size_t i = 0; i < d->n_sweep; i++)
        if (d->sweep[i] > m)
            m = d->sweep[i];
    for (size_t i = 0; i < d->n_points; i++)
        if (d->points[i].n > m)
            m = d->points[i].n;
    return m;
}

/* The reference curve: Metcalfe and Boggs with the wire's own costs
 * (analytic.h), for saturated stations only; for other traffic the model
 * does not apply and no curve is drawn. */
static void compute_ref(tui_driver *d)
{
    d->n_ref = 0;
    if (d->base.traffic.kind != TRAFFIC_SATURATED)
        return;
    analytic_mb_costs c = reference_mb_costs(&d->base.phy, frame_bytes_mean(&d->base));
    double lo = sweep_min(d), hi = sweep_max(d);
    if (hi <= lo)
        hi = lo + 1;
    for (size_t i = 0; i < DRIVER_REF_POINTS; i++) {
        double f = (double)i / (DRIVER_REF_POINTS - 1);
        double q = d->log_x ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
        d->ref[d->n_ref++] = (tui_ref_point){q, analytic_mb_throughput(q, &c)};
    }
}

/* Station geometry for the cable drawing. On a bus, one end of the cable
 * is the station farthest from station 0, and positions are delays from
 * it: this holds for any placement, explicit or even. */
static int compute_geometry(tui_driver *d)
{
    const medium *m = engine_medium(d->e);
    uint32_t n = d->n;
    sim_time *pos = realloc(d->pos_ps, n * sizeof *pos);
    if (!pos)
        return -1;
    d->pos_ps = pos;
    if (d->base.phy.topology == TOPOLOGY_BUS) {
        /* The two ends: a is farthest from station 0, b farthest from a.
         * The left end is the one nearer station 0, so an evenly spaced
         * bus reads 1, 2, 3 ... from the left. */
        uint32_t a = 0, b = 0;
        for (uint32_t s = 1; s < n; s++)
            if (medium_delay(m, 0, s) > medium_delay(m, 0, a))
                a = s;
        for (uint32_t s = 0; s < n; s++)
            if (medium_delay(m, a, s) > medium_delay(m, a, b))
                b = s;
        uint32_t left = medium_delay(m, 0, a) <= medium_delay(m, 0, b) ? a : b;
        d->cable_ps = 0;
        for (uint32_t s = 0; s < n; s++) {
            pos[s] = medium_delay(m, left, s);
            if (pos[s] > d->cable_ps)
                d->cable_ps = pos[s];
        }
    } else {
        for (uint32_t s = 0; s < n; s++)
            pos[s] = medium_probe_delay(m, s);
        d->cable_ps = 0;
    }
    return 0;
}

static int start_engine(tui_driver *d, uint32_t n, bool measure, char *err, size_t errlen)
{
    engine_destroy(d->e);
    d->e = NULL;
    timeline_sink_reset(d->tl);

    scenario sc;
    if (scenario_copy(&sc, &d->base) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (sc.positions_m && n != d->base.n_stations) {
        /* Explicit placement is for one N; the sweep spaces stations evenly. */
        free(sc.positions_m);
        sc.positions_m = NULL;
        sc.n_positions = 0;
    }
    sc.n_stations = n;
    if (n == 1 && sc.traffic.dest == DEST_RANDOM) {
        /* One station has nobody else to send to: its frames are judged
         * where they are sent, as the engine does for saturated traffic
         * (scenario.c), so N = 1 measures the channel's efficiency. */
        sc.traffic.dest = DEST_SERVER;
        sc.traffic.server = 0;
    }
    sc.duration = DRIVER_RUN_PS;
    sc.warmup = 0;
    char warn[512];
    int rc = scenario_finish(&sc, err, errlen, warn, sizeof warn);
    if (rc == 0)
        rc = engine_create(&sc, &d->e, err, errlen);
    scenario_free(&sc);
    if (rc != 0)
        return -1;
    if (engine_add_sink(d->e, timeline_sink_trace(d->tl)) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (engine_start(d->e, err, errlen) != 0)
        return -1;
    d->n = n;
    d->engine_gen++;
    if (compute_geometry(d) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    d->view_t = 0;
    d->measuring = measure;
    d->next_batch = d->batch_ps;
    d->prev_bits = 0;
    d->batches_seen = 0;
    d->kept = 0;
    d->sum = d->sumsq = 0;
    d->cur = (tui_point){n, 0, 0, 0, 0};
    d->scroll = 0;
    return 0;
}

static int restart_sweep(tui_driver *d, char *err, size_t errlen)
{
    d->n_points = 0;
    d->sweep_idx = 0;
    d->phase = TUI_SWEEP_RUNNING;
    describe_traffic(d);
    derive_times(d);
    if (start_engine(d, d->n_sweep ? d->sweep[0] : d->base.n_stations, true, err, errlen) != 0)
        return -1;
    compute_ref(d);
    return 0;
}

/* Student's t, two-sided 95 %, for df degrees of freedom. */
static double t95(uint32_t df)
{
    static const double t[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                               2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                               2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                               2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < sizeof t / sizeof t[0])
        return t[df];
    if (df < 60)
        return 2.000 + 0.042 * (60.0 - df) / 30.0;
    if (df < 120)
        return 1.980 + 0.020 * (120.0 - df) / 60.0;
    return 1.960;
}

static void record_point(tui_driver *d, const tui_point *p)
{
    for (size_t i = 0; i < d->n_points; i++)
        if (d->points[i].n == p->n) {
            d->points[i] = *p;
            return;
        }
    if (d->n_points == d->cap_points) {
        size_t nc = d->cap_points ? 2 * d->cap_points : 32;
        tui_point *np = realloc(d->points, nc * sizeof *np);
        if (!np)
            return; /* the point is lost from the plot; the run goes on */
        d->points = np;
        d->cap_points = nc;
    }
    d->points[d->n_points++] = *p;
}

/* A batch boundary was reached: fold the batch in, maybe end the point. */
static int on_batch(tui_driver *d, char *err, size_t errlen)
{
    engine_results(d->e, &d->res);
    uint64_t bits = 0;
    for (uint32_t i = 0; i < d->res.n_stations; i++)
        bits += d->res.stations[i].bits_delivered;
    double rate = (double)d->base.phy.rate_bps;
    if (d->batches_seen++ > 0) {
        double s = (double)(bits - d->prev_bits) / (rate * sim_time_to_s(d->batch_ps));
        d->sum += s;
        d->sumsq += s * s;
        d->kept++;
    }
    d->prev_bits = bits;
    d->next_batch += d->batch_ps;

    sim_time now = engine_now(d->e);
    d->cur.n = d->n;
    d->cur.sim_s = sim_time_to_s(now);
    d->cur.coll_per_frame = d->res.collisions_per_frame;
    if (d->kept > 0) {
        double k = d->kept, mean = d->sum / k;
        double var = d->kept > 1 ? (d->sumsq - k * mean * mean) / (k - 1) : 0;
        d->cur.s = mean;
        d->cur.s_ci95 = d->kept > 1 ? t95(d->kept - 1) * sqrt(var > 0 ? var : 0) / sqrt(k) : 0;
    }
    bool tight = d->kept >= d->min_batches && d->kept >= 2 &&
                 d->cur.s_ci95 <= d->precision * d->cur.s;
    if (!tight && now < d->cap_ps)
        return 0;

    record_point(d, &d->cur);
    d->measuring = false;
    if (d->phase == TUI_SWEEP_RUNNING) {
        if (++d->sweep_idx < d->n_sweep)
            return start_engine(d, d->sweep[d->sweep_idx], true, err, errlen);
        d->phase = TUI_SWEEP_DONE;
    }
    return 0;
}

/* Runs the current engine towards `target` (SIM_TIME_NEVER: as far as the
 * budget goes), stopping at batch boundaries to measure. Engines may be
 * replaced on the way (the next sweep point); the simulated time left of
 * the frame then goes to the new engine. */
static int64_t run_to(tui_driver *d, sim_time target, uint64_t budget, char *err, size_t errlen)
{
    uint64_t total = 0;
    d->exhausted = false;
    for (;;) {
        sim_time stop = target;
        if (d->measuring && d->next_batch < stop)
            stop = d->next_batch;
        if (total >= budget) {
            d->exhausted = true;
            d->view_t = engine_now(d->e);
            break;
        }
        uint64_t before = engine_events(d->e);
        engine_status st = engine_run(d->e, stop, budget - total);
        total += engine_events(d->e) - before;
        sim_time now = engine_now(d->e);
        if (now >= stop || st == ENGINE_DONE) {
            if (d->measuring && stop == d->next_batch && st != ENGINE_DONE) {
                uint64_t gen = d->engine_gen;
                if (on_batch(d, err, errlen) != 0)
                    return -1;
                if (d->engine_gen != gen && target != SIM_TIME_NEVER)
                    target = target > stop ? target - stop : 0;
                continue;
            }
            d->view_t = now;
            if (st == ENGINE_DONE && !d->measuring) {
                /* The engine left running for the class reached its hour:
                 * start it afresh so the screen keeps moving. */
                if (start_engine(d, d->n, false, err, errlen) != 0)
                    return -1;
            }
            break;
        }
        d->exhausted = true;
        d->view_t = now;
        break;
    }
    return (int64_t)total;
}

int tui_driver_create(const tui_driver_options *opt, tui_driver **out, char *err,
                      size_t errlen)
{
    *out = NULL;
    tui_driver *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (scenario_copy(&d->base, opt->base) != 0 ||
        timeline_sink_create(DRIVER_TIMELINE_RING, &d->tl) != 0) {
        tui_driver_destroy(d);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    d->precision = opt->precision > 0 ? opt->precision : 0.02;
    d->min_batches = opt->min_batches >= 2 ? opt->min_batches : 10;
    d->batch_ps_opt = opt->batch_ps;
    d->cap_ps_opt = opt->point_cap_ps;
    snprintf(d->save_dir, sizeof d->save_dir, "%s", opt->save_dir ? opt->save_dir : ".");
    d->log_x = opt->log_x;
    d->show_ref = true;
    d->zoom = true;
    snprintf(d->ref_label, sizeof d->ref_label, "Metcalfe-Boggs");
    d->speed_idx = N_SPEEDS - 1;
    for (size_t i = 0; i < N_SPEEDS; i++)
        if (fabs(speeds[i] - opt->speed) <= 1e-9 * (speeds[i] > 0 ? speeds[i] : 1)) {
            d->speed_idx = i;
            break;
        }
    size_t n = opt->n_sweep;
    d->sweep = malloc((n ? n : 64) * sizeof *d->sweep);
    if (!d->sweep) {
        tui_driver_destroy(d);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (n)
        memcpy(d->sweep, opt->sweep_n, n * sizeof *d->sweep);
    else
        n = tui_driver_default_sweep(64, d->log_x, d->sweep, 64);
    d->n_sweep = n;
    d->n = d->sweep[0];
    if (restart_sweep(d, err, errlen) != 0) {
        tui_driver_destroy(d);
        return -1;
    }
    *out = d;
    return 0;
}

void tui_driver_destroy(tui_driver *d)
{
    if (!d)
        return;
    engine_destroy(d->e);
    timeline_sink_destroy(d->tl);
    scenario_free(&d->base);
    free(d->sweep);
    free(d->points);
    free(d->pos_ps);
    free(d->rows);
    free(d->pos);
    free(d->spans);
    free(d);
}

int64_t tui_driver_advance(tui_driver *d, double wall_dt_s, uint64_t max_events, char *err,
                           size_t errlen)
{
    if (d->message[0]) {
        d->message_age_s += wall_dt_s;
        if (d->message_age_s > 8.0)
            d->message[0] = '\0';
    }
    d->exhausted = false;
    if (d->paused)
        return 0;
    double speed = speeds[d->speed_idx];
    sim_time target = SIM_TIME_NEVER;
    if (speed > 0) {
        /* A stalled frame (a suspended terminal) must not turn into a
         * burst of simulated time: at most a quarter second counts. */
        double dt = wall_dt_s < 0.25 ? wall_dt_s : 0.25;
        sim_time step = (sim_time)llround(speed * dt * 1e12);
        target = d->view_t + (step > 0 ? step : 1);
    }
    return run_to(d, target, max_events ? max_events : 1, err, errlen);
}

bool tui_driver_budget_exhausted(const tui_driver *d)
{
    return d->exhausted;
}

/* ------------------------------------------------------------------ */
/* Commands */

/* Applies keys to the base scenario (all or none), then starts a new sweep.
 * A key the scenario refuses becomes a message; the run goes on. */
static int change_base(tui_driver *d, const char *const *keys, const char *const *values,
                       size_t n, const char *what, char *err, size_t errlen)
{
    scenario trial;
    char e2[512], warn[512];
    if (scenario_copy(&trial, &d->base) != 0) {
        set_message(d, "out of memory");
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = scenario_set(&trial, keys[i], values[i], e2, sizeof e2);
    if (rc == 0) {
        /* Checked as the sweep will run it: N = 1 is special-cased in
         * start_engine, so check with at least two stations. */
        scenario check;
        if (scenario_copy(&check, &trial) != 0) {
            scenario_free(&trial);
            set_message(d, "out of memory");
            return 0;
        }
        if (check.n_stations < 2 && check.positions_m == NULL)
            check.n_stations = 2;
        rc = scenario_finish(&check, e2, sizeof e2, warn, sizeof warn);
        scenario_free(&check);
    }
    if (rc != 0) {
        set_message(d, "cannot change %s: %s", what, e2);
        scenario_free(&trial);
        return 0;
    }
    scenario_free(&d->base);
    d->base = trial;
    if (restart_sweep(d, err, errlen) != 0)
        return -1;
    set_message(d, "%s: %s; a new sweep started", what, values[n - 1]);
    return 0;
}

static int cmd_load(tui_driver *d, int dir, char *err, size_t errlen)
{
    const traffic_config *t = &d->base.traffic;
    char v[32];
    if (t->kind == TRAFFIC_SATURATED) {
        if (dir > 0) {
            set_message(d, "offered load is already at the top: saturated stations");
            return 0;
        }
        snprintf(v, sizeof v, "%g", load_ladder[N_LOADS - 1]);
    } else {
        /* The next rung above or below the current load. */
        double g = t->load;
        size_t i = 0;
        if (dir > 0) {
            while (i < N_LOADS && load_ladder[i] <= g + 1e-9)
                i++;
            if (i == N_LOADS) {
                const char *k[] = {"traffic"}, *val[] = {"saturated"};
                return change_base(d, k, val, 1, "offered load", err, errlen);
            }
        } else {
            i = N_LOADS;
            while (i > 0 && load_ladder[i - 1] >= g - 1e-9)
                i--;
            if (i == 0) {
                set_message(d, "offered load is already at its lowest, G = %g", g);
                return 0;
            }
            i--;
        }
        snprintf(v, sizeof v, "%g", load_ladder[i]);
    }
    const char *k[] = {"traffic", "load"}, *val[] = {"poisson", v};
    return change_base(d, k, val, 2, "offered load G (poisson)", err, errlen);
}

static int cmd_frame(tui_driver *d, int dir, char *err, size_t errlen)
{
    double cur = frame_bytes_mean(&d->base);
    size_t i;
    char v[32];
    if (dir > 0) {
        for (i = 0; i < N_FRAMES && frame_ladder[i] <= cur + 1e-9; i++)
            ;
        if (i == N_FRAMES) {
            set_message(d, "frame size is already the largest, %u bytes",
                        frame_ladder[N_FRAMES - 1]);
            return 0;
        }
    } else {
        for (i = N_FRAMES; i > 0 && frame_ladder[i - 1] >= cur - 1e-9; i--)
            ;
        if (i == 0) {
            set_message(d, "frame size is already the smallest, %u bytes", frame_ladder[0]);
            return 0;
        }
        i--;
    }
    snprintf(v, sizeof v, "%u", frame_ladder[i]);
    const char *k[] = {"frame-size"}, *val[] = {v};
    return change_base(d, k, val, 1, "frame size (bytes)", err, errlen);
}

static int cmd_phy(tui_driver *d, char *err, size_t errlen)
{
    size_t n = phy_profile_count(), i;
    for (i = 0; i < n; i++)
        if (strcmp(phy_profile_at(i)->name, d->base.phy.name) == 0)
            break;
    const char *next = phy_profile_at(i < n ? (i + 1) % n : 0)->name;
    /* A new profile brings its own cable: explicit positions do not carry. */
    free(d->base.positions_m);
    d->base.positions_m = NULL;
    d->base.n_positions = 0;
    d->base.probe_m = 0;
    const char *k[] = {"phy"}, *val[] = {next};
    return change_base(d, k, val, 1, "PHY profile", err, errlen);
}

/* The next policy of policy_cycle after the current one, compared by name
 * (a spec with parameters, "fixed:wait=4", counts as its name); a policy
 * outside the list goes to the first. Parameters do not carry over. */
static int cmd_policy(tui_driver *d, char *err, size_t errlen)
{
    size_t len = strcspn(d->base.policy, ":"), i;
    for (i = 0; i < N_POLICIES; i++)
        if (strlen(policy_cycle[i]) == len && strncmp(policy_cycle[i], d->base.policy, len) == 0)
            break;
    const char *next = policy_cycle[i < N_POLICIES ? (i + 1) % N_POLICIES : 0];
    const char *k[] = {"policy"}, *val[] = {next};
    return change_base(d, k, val, 1, "backoff policy", err, errlen);
}

static void cmd_save_csv(tui_driver *d)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/csmacd-sweep-%s-%uB-seed%llu.csv", d->save_dir,
             d->base.phy.name, (unsigned)lround(frame_bytes_mean(&d->base)),
             (unsigned long long)d->base.seed);
    /* Like every output: a temporary renamed into place when whole. */
    outfile out;
    char err[1400];
    if (outfile_open(&out, path, err, sizeof err) != 0) {
        set_message(d, "%s", err);
        return;
    }
    errno = 0;
    if (tui_driver_write_csv(d, out.f) != 0) {
        set_message(d, "%s: %s", path, strerror(errno ? errno : EIO));
        outfile_discard(&out);
        return;
    }
    if (outfile_commit(&out, err, sizeof err) != 0) {
        set_message(d, "%s", err);
        return;
    }
    set_message(d, "saved the plot data (%zu points) to %s", d->n_points, path);
}

/* The current run's trace: the run is replayed from t = 0 with a pcap sink
 * (a scenario and a seed give the same events), up to the current time or
 * DRIVER_PCAP_MAX_PS, whichever is earlier. */
static void cmd_save_pcap(tui_driver *d)
{
    char path[1200], e2[512];
    const scenario *sc = engine_scenario(d->e);
    snprintf(path, sizeof path, "%s/csmacd-%s-N%u-seed%llu.pcap", d->save_dir, sc->phy.name,
             sc->n_stations, (unsigned long long)sc->seed);
    sim_time until = d->view_t < DRIVER_PCAP_MAX_PS ? d->view_t : DRIVER_PCAP_MAX_PS;
    engine *e2e = NULL;
    if (engine_create(sc, &e2e, e2, sizeof e2) != 0) {
        set_message(d, "cannot save the trace: %s", e2);
        return;
    }
    pcap_sink *ps = NULL;
    pcap_sink_options po = {.collisions = true};
    if (pcap_sink_open(path, &sc->phy, &po, &ps, e2, sizeof e2) != 0) {
        engine_destroy(e2e);
        set_message(d, "%s", e2);
        return;
    }
    if (engine_add_sink(e2e, pcap_sink_trace(ps)) != 0) {
        pcap_sink_discard(ps);
        engine_destroy(e2e);
        set_message(d, "cannot save the trace: out of memory");
        return;
    }
    if (engine_start(e2e, e2, sizeof e2) != 0) {
        pcap_sink_discard(ps);
        engine_destroy(e2e);
        set_message(d, "cannot save the trace: %s", e2);
        return;
    }
    engine_run(e2e, until, 0);
    engine_destroy(e2e);
    uint64_t recs = pcap_sink_records(ps);
    if (pcap_sink_close(ps, e2, sizeof e2) != 0) {
        set_message(d, "%s", e2);
        return;
    }
    set_message(d, "saved the trace of the first %.6f s (%llu records) to %s",
                sim_time_to_s(until), (unsigned long long)recs, path);
}

static int cmd_stations(tui_driver *d, int dir, char *err, size_t errlen)
{
    uint32_t n = d->n;
    if (dir < 0 && n <= 1) {
        set_message(d, "at least one station");
        return 0;
    }
    if (dir > 0 && n >= DRIVER_MAX_N) {
        set_message(d, "at most %u stations here", DRIVER_MAX_N);
        return 0;
    }
    n = dir > 0 ? n + 1 : n - 1;
    d->phase = TUI_SWEEP_MANUAL;
    if (start_engine(d, n, true, err, errlen) != 0)
        return -1;
    compute_ref(d);
    return 0;
}

int tui_driver_command(tui_driver *d, tui_command c, int table_rows, char *err, size_t errlen)
{
    int page = table_rows > 1 ? table_rows - 1 : 1;
    switch (c) {
    case TUI_CMD_NONE:
    case TUI_CMD_RESIZE:
    case TUI_CMD_COUNT:
        return 0;
    case TUI_CMD_QUIT:
        return 1;
    case TUI_CMD_PAUSE:
        d->paused = !d->paused;
        return 0;
    case TUI_CMD_STEP_EVENT:
        d->paused = true;
        return run_to(d, SIM_TIME_NEVER, 1, err, errlen) < 0 ? -1 : 0;
    case TUI_CMD_STEP_SLOT:
        d->paused = true;
        return run_to(d, d->view_t + d->slot_ps, UINT64_MAX, err, errlen) < 0 ? -1 : 0;
    case TUI_CMD_SLOWER:
        if (d->speed_idx > 0)
            d->speed_idx--;
        return 0;
    case TUI_CMD_FASTER:
        if (d->speed_idx + 1 < N_SPEEDS)
            d->speed_idx++;
        return 0;
    case TUI_CMD_MORE_STATIONS:
        return cmd_stations(d, +1, err, errlen);
    case TUI_CMD_FEWER_STATIONS:
        return cmd_stations(d, -1, err, errlen);
    case TUI_CMD_LOAD_UP:
        return cmd_load(d, +1, err, errlen);
    case TUI_CMD_LOAD_DOWN:
        return cmd_load(d, -1, err, errlen);
    case TUI_CMD_FRAME_UP:
        return cmd_frame(d, +1, err, errlen);
    case TUI_CMD_FRAME_DOWN:
        return cmd_frame(d, -1, err, errlen);
    case TUI_CMD_NEXT_PHY:
        return cmd_phy(d, err, errlen);
    case TUI_CMD_NEXT_POLICY:
        return cmd_policy(d, err, errlen);
    case TUI_CMD_RESTART:
        if (restart_sweep(d, err, errlen) != 0)
            return -1;
        set_message(d, "sweep restarted");
        return 0;
    case TUI_CMD_TOGGLE_REF:
        d->show_ref = !d->show_ref;
        if (d->show_ref && d->n_ref == 0)
            set_message(d, "the reference model is for saturated stations only");
        return 0;
    case TUI_CMD_ZOOM:
        d->zoom = !d->zoom;
        set_message(d, d->zoom ? "S axis zoomed to the data (z: whole 0 .. 1)"
                               : "S axis from 0 to 1 (z: zoom to the data)");
        return 0;
    case TUI_CMD_SAVE_PCAP:
        cmd_save_pcap(d);
        return 0;
    case TUI_CMD_SAVE_CSV:
        cmd_save_csv(d);
        return 0;
    case TUI_CMD_HELP:
        d->show_help = !d->show_help;
        return 0;
    case TUI_CMD_CLOSE:
        d->show_help = false;
        return 0;
    case TUI_CMD_SCROLL_UP:
        if (d->scroll > 0)
            d->scroll--;
        return 0;
    case TUI_CMD_SCROLL_DOWN:
        d->scroll++;
        break;
    case TUI_CMD_PAGE_UP:
        d->scroll = d->scroll > (size_t)page ? d->scroll - (size_t)page : 0;
        return 0;
    case TUI_CMD_PAGE_DOWN:
        d->scroll += (size_t)page;
        break;
    }
    /* Scrolling down: never past the last page. */
    size_t last = d->n > (uint32_t)table_rows && table_rows > 0 ? d->n - (size_t)table_rows : 0;
    if (d->scroll > last)
        d->scroll = last;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Snapshots */

static tui_station_state map_state(mac_state s)
{
    switch (s) {
    case MAC_IDLE:
        return TUI_ST_IDLE;
    case MAC_DEFER:
        return TUI_ST_DEFER;
    case MAC_TX:
        return TUI_ST_TX;
    case MAC_JAM:
        return TUI_ST_JAM;
    case MAC_BACKOFF:
        return TUI_ST_BACKOFF;
    case MAC_BURST_GAP:
        return TUI_ST_BURST;
    }
    return TUI_ST_IDLE;
}

static int grow(tui_driver *d, size_t n)
{
    if (n <= d->rows_cap)
        return 0;
    tui_station_row *r = realloc(d->rows, n * sizeof *r);
    if (!r)
        return -1;
    d->rows = r;
    double *p = realloc(d->pos, n * sizeof *p);
    if (!p)
        return -1;
    d->pos = p;
    d->rows_cap = n;
    return 0;
}

/* The bottom of a zoomed S axis: the highest of 0.9, 0.8, 0.7, 0.6, 0.5 that
 * leaves everything drawn (points with their intervals, the reference
 * curve) at least 0.02 above it; 0 when nothing is measured yet. */
static double zoom_floor(const tui_driver *d)
{
    double lo = 2.0;
    for (size_t i = 0; i < d->n_points; i++)
        lo = fmin(lo, d->points[i].s - d->points[i].s_ci95);
    if (d->measuring && d->kept > 0)
        lo = fmin(lo, d->cur.s - d->cur.s_ci95);
    if (lo > 1.5)
        return 0;
    if (d->show_ref)
        for (size_t i = 0; i < d->n_ref; i++)
            lo = fmin(lo, d->ref[i].s);
    static const double floors[] = {0.9, 0.8, 0.7, 0.6, 0.5};
    for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
        if (lo - 0.02 >= floors[i])
            return floors[i];
    return 0;
}

static void add_span(tui_driver *d, double from, double to, bool jam, uint32_t station)
{
    if (to <= from)
        return;
    if (d->n_spans == d->spans_cap) {
        size_t nc = d->spans_cap ? 2 * d->spans_cap : 64;
        tui_span *ns = realloc(d->spans, nc * sizeof *ns);
        if (!ns)
            return;
        d->spans = ns;
        d->spans_cap = nc;
    }
    d->spans[d->n_spans++] = (tui_span){from, to, jam, station};
}

/* Bus: the signal of one transmission covers the points whose distance
 * (as delay) from the transmitter lies in [t - end, t - start): the part
 * sent as jam covers [t - end, t - jam_start). */
static void bus_spans(tui_driver *d, const timeline_tx *r, sim_time t)
{
    if (r->start > t || r->station >= d->n)
        return;
    double L = d->cable_ps > 0 ? (double)d->cable_ps : 1.0;
    double x = (double)d->pos_ps[r->station];
    sim_time end = r->end == SIM_TIME_NEVER || r->end > t ? t : r->end;
    double far = (double)(t - r->start);
    double near = (double)(t - end);
    double jam = r->jam_start != SIM_TIME_NEVER && r->jam_start < t ? (double)(t - r->jam_start)
                                                                     : -1;
    if (near >= L + x && near >= L)
        return; /* the whole signal has left the cable */
    /* Sections by distance from the transmitter: [near, jam) jam, [jam, far)
     * frame; without a jam [near, far) is all frame. */
    /* A signal that has just left its transmitter covers no cable yet:
     * show it at the transmitter all the same (a sliver of one column). */
    if (far <= 0)
        far = 1e-6 * L;
    double sect[2][2] = {{near, jam >= 0 ? jam : near}, {jam >= 0 ? jam : near, far}};
    for (int k = 0; k < 2; k++) {
        double a = sect[k][0], b = sect[k][1];
        if (b <= a)
            continue;
        bool is_jam = k == 0;
        if (d->cable_ps == 0) { /* every station at one point */
            add_span(d, 0, 1, is_jam, r->station);
            continue;
        }
        if (a <= 0) { /* one stretch through the transmitter */
            add_span(d, fmax(x - b, 0) / L, fmin(x + b, L) / L, is_jam, r->station);
            continue;
        }
        /* Right of the transmitter: [x + a, x + b); left: (x - b, x - a]. */
        double r0 = x + a, r1 = x + b, l0 = x - b, l1 = x - a;
        if (r1 > r0)
            add_span(d, fmax(r0, 0) / L, fmin(r1, L) / L, is_jam, r->station);
        if (l1 > l0)
            add_span(d, fmax(l0, 0) / L, fmin(l1, L) / L, is_jam, r->station);
    }
}

/* Star: station j hears transmission r during [start + delay, end + delay). */
static void star_spans(tui_driver *d, const timeline_tx *r, sim_time t, const medium *m)
{
    uint32_t n = d->n;
    double half = n > 1 ? 0.5 / (double)(n - 1) : 0.5;
    for (uint32_t j = 0; j < n; j++) {
        sim_time dl = medium_delay(m, r->station, j);
        if (r->start + dl > t)
            continue;
        if (r->end != SIM_TIME_NEVER && r->end + dl <= t)
            continue;
        bool jam = r->jam_start != SIM_TIME_NEVER && r->jam_start + dl <= t;
        double c = d->pos[j];
        add_span(d, c - half * 0.8, c + half * 0.8, jam, r->station);
    }
}

void tui_driver_snapshot(tui_driver *d, tui_snapshot *s)
{
    memset(s, 0, sizeof *s);
    const scenario *sc = &d->base;
    engine_results(d->e, &d->res);
    const results *r = &d->res;
    sim_time t = d->view_t;

    s->phy_name = sc->phy.name;
    s->rate_bps = (double)sc->phy.rate_bps;
    s->star = sc->phy.topology == TOPOLOGY_STAR;
    s->length_m = sc->phy.length_m;
    s->traffic = d->traffic_desc;
    s->frame_bytes = (uint32_t)lround(frame_bytes_mean(sc));
    s->policy = sc->policy;
    s->seed = sc->seed;
    s->slot_s = sim_time_to_s(d->slot_ps);

    s->phase = d->phase;
    s->n_min = sweep_min(d);
    s->n_max = sweep_max(d);
    s->log_x = d->log_x;
    s->sweep_index = d->sweep_idx;
    s->sweep_count = d->n_sweep;
    s->points = d->points;
    s->n_points = d->n_points;
    s->has_current = d->measuring && d->kept > 0; /* no marker before the first batch */
    s->current = d->cur;
    s->target_rel_ci = d->precision;
    s->ref = d->ref;
    s->n_ref = d->n_ref;
    s->show_ref = d->show_ref;
    s->ref_label = d->ref_label;
    s->s_axis_min = d->zoom ? zoom_floor(d) : 0;

    s->n_stations = d->n;
    s->sim_time_s = sim_time_to_s(t);
    s->events = r->events;
    s->throughput = r->throughput;
    s->throughput_ci95 = d->measuring ? d->cur.s_ci95 : -1; /* measured only per point */
    s->offered_load = r->offered_load;
    s->coll_per_frame = r->collisions_per_frame;
    s->jain = r->jain_fairness;
    s->capture_mean_run = r->capture_mean_run;
    s->capture_max_run = r->capture_max_run;
    s->frames_dropped = r->frames_aborted + r->frames_late_discarded + r->frames_dropped;

    if (grow(d, d->n) == 0) {
        for (uint32_t i = 0; i < d->n; i++) {
            mac_station_view v;
            engine_station_view(d->e, i, &v);
            tui_station_row *row = &d->rows[i];
            row->index = i;
            row->state = map_state(v.state);
            row->attempt = v.attempt;
            row->backoff_slots_left = 0;
            if (v.state == MAC_BACKOFF && v.backoff_until > t && d->slot_ps > 0)
                row->backoff_slots_left =
                    (uint64_t)((v.backoff_until - t + d->slot_ps - 1) / d->slot_ps);
            /* the window's counts, as every other figure on screen */
            const mac_counters *c = i < r->n_stations && r->stations ? &r->stations[i].c : NULL;
            row->successes = c ? c->frames_transmitted_ok : 0;
            row->collisions = c ? c->collisions : 0;
            row->drops = c ? c->frames_aborted_xs_colls + c->frames_late_discarded +
                                 c->frames_dropped
                           : 0;
            row->share = i < r->n_stations && r->stations ? r->stations[i].share : 0;
            if (s->star || d->cable_ps == 0)
                d->pos[i] = d->n > 1 ? (double)i / (double)(d->n - 1) : 0.5;
            else
                d->pos[i] = (double)d->pos_ps[i] / (double)d->cable_ps;
        }
        s->rows = d->rows;
        s->n_rows = d->n;
        s->station_pos = d->pos;
    }
    s->scroll = d->scroll;

    /* Signals now. Only recent transmissions can still be on the wire. */
    d->n_spans = 0;
    const medium *m = engine_medium(d->e);
    size_t cnt = timeline_sink_count(d->tl);
    size_t first = cnt > 64 ? cnt - 64 : 0;
    for (size_t i = first; i < cnt; i++) {
        const timeline_tx *tx = timeline_sink_at(d->tl, i);
        if (s->star)
            star_spans(d, tx, t, m);
        else
            bus_spans(d, tx, t);
    }
    s->spans = d->spans;
    s->n_spans = d->n_spans;

    /* One column per slot; in slow motion, finer columns (halving down to
     * one bit time) so the strip still scrolls a few columns a second. */
    sim_time cell_ps = d->slot_ps;
    double speed = speeds[d->speed_idx];
    while (speed > 0 && cell_ps / 2 >= d->bit_ps && (double)cell_ps > speed * 0.25e12)
        cell_ps /= 2;
    timeline_sink_cells(d->tl, t, cell_ps, TUI_TIMELINE_MAX, d->timeline);
    for (size_t i = 0; i < TUI_TIMELINE_MAX; i++)
        d->timeline[i] = d->timeline[i] == TIMELINE_FRAME       ? TUI_CHAN_FRAME
                       : d->timeline[i] == TIMELINE_JAM         ? TUI_CHAN_JAM
                       : d->timeline[i] == TIMELINE_COLLISION   ? TUI_CHAN_COLLISION
                                                                : TUI_CHAN_IDLE;
    s->timeline = d->timeline;
    s->n_timeline = TUI_TIMELINE_MAX;
    s->cell_s = sim_time_to_s(cell_ps);

    s->speed = speeds[d->speed_idx];
    s->paused = d->paused;
    s->show_help = d->show_help;
    s->can_save_pcap = true;
    s->message = d->message[0] ? d->message : NULL;
}

static int cmp_point(const void *a, const void *b)
{
    const tui_point *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

int tui_driver_write_csv(const tui_driver *d, FILE *f)
{
    tui_point *p = malloc((d->n_points ? d->n_points : 1) * sizeof *p);
    if (!p)
        return -1;
    memcpy(p, d->points, d->n_points * sizeof *p);
    qsort(p, d->n_points, sizeof *p, cmp_point);
    const phy_params *ph = &d->base.phy;
    double fb = frame_bytes_mean(&d->base) * 8.0;
    analytic_mb_costs c = reference_mb_costs(ph, frame_bytes_mean(&d->base));
    bool sat = d->base.traffic.kind == TRAFFIC_SATURATED;
    fprintf(f, "stations,throughput,throughput_ci95,throughput_mbps,collisions_per_frame,"
               "model_throughput,sim_time_s,phy,frame_bytes,traffic,policy,seed\n");
    for (size_t i = 0; i < d->n_points; i++) {
        char model[32] = "";
        if (sat)
            snprintf(model, sizeof model, "%.6f", analytic_mb_throughput(p[i].n, &c));
        fprintf(f, "%u,%.6f,%.6f,%.6f,%.6f,%s,%.6f,%s,%.0f,%s,%s,%llu\n", p[i].n, p[i].s,
                p[i].s_ci95, p[i].s * (double)ph->rate_bps / 1e6, p[i].coll_per_frame, model,
                p[i].sim_s, ph->name, fb / 8.0, d->traffic_desc, d->base.policy,
                (unsigned long long)d->base.seed);
    }
    free(p);
    return ferror(f) ? -1 : 0;
}
