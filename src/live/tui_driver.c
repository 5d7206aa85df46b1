/* tui_driver.c - the sweep and the engines behind the TUI.
 *
 * One engine at a time: the one measuring the current sweep point (or the
 * N the user chose, or, when the sweep is complete, the last N left
 * running for the class to watch). Measuring is batch means over fixed
 * slices of simulated time: every decision (stop this point, go to the next
 * N) is taken at a batch boundary, so the plot does not depend on the wall
 * clock, the speed or the pauses. See tui_driver.h for the contract.
 *
 * The user's commands are tui_commands.c's, the snapshot and the
 * geometry of the signals tui_snapshot.c's; the state they share is
 * tui_driver_int.h. The saves are tui_save.h's: the driver hands it plain
 * data and steps the trace's handle, and shows the outcome.
 */
#include "tui_driver.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic.h"
#include "engine.h"
#include "medium.h"
#include "phy.h"
#include "reference.h"
#include "timeline_sink.h"
#include "tui_driver_int.h"

/* Simulated seconds per wall second; 0 = as fast as the budget allows. */
const double speeds[N_SPEEDS] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100, 0};

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

void set_message(tui_driver *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    d->message_age_s = 0;
}

/* ------------------------------------------------------------------ */
/* The saves (tui_save.h): their outcome becomes the status line. */

void driver_save_csv(tui_driver *d)
{
    char msg[sizeof d->message];
    tui_csv_curve curve = {
        .phy = &d->base.phy,
        .frame_bytes = scenario_frame_bytes_mean(&d->base),
        .model = d->base.traffic.kind == TRAFFIC_SATURATED,
        .traffic = d->traffic_desc,
        .policy = d->base.policy,
        .seed = d->base.seed,
        .points = d->points,
        .n_points = d->n_points,
    };
    if (d->grouped) {
        for (uint32_t g = 0; g < d->base.n_named; g++) {
            const station_group *sg = scenario_group_at(&d->base, g);
            d->group_names[g] = sg->name;
            d->group_policies[g] = sg->policy;
        }
        curve.n_groups = d->base.n_named;
        curve.group_names = d->group_names;
        curve.group_policies = d->group_policies;
        curve.groups = d->point_groups;
    }
    tui_save_csv(d->saves, &d->base, &curve, msg, sizeof msg);
    set_message(d, "%s", msg);
}

void driver_trace_start(tui_driver *d)
{
    char msg[sizeof d->message];
    if (d->trace)
        tui_trace_describe(d->trace, msg, sizeof msg);
    else
        d->trace = tui_trace_start(d->saves, d->e, d->view_t, d->trace_max_ps,
                                   d->trace_max_bytes, msg, sizeof msg);
    set_message(d, "%s", msg);
}

int64_t driver_trace_step(tui_driver *d, uint64_t budget)
{
    if (!d->trace)
        return 0;
    char msg[sizeof d->message];
    int64_t ran = 0;
    if (tui_trace_step(d->trace, budget, &ran, msg, sizeof msg) != TUI_TRACE_WRITING) {
        tui_trace_destroy(d->trace);
        d->trace = NULL;
    }
    set_message(d, "%s", msg);
    return ran;
}

void driver_trace_cancel(tui_driver *d, const char *why)
{
    if (!d->trace)
        return;
    tui_trace_destroy(d->trace);
    d->trace = NULL;
    if (why)
        set_message(d, "%s", why);
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

void traffic_words(const traffic_config *t, char *out, size_t cap)
{
    switch (t->kind) {
    case TRAFFIC_SATURATED:
        snprintf(out, cap, "saturated");
        return;
    case TRAFFIC_POISSON:
        snprintf(out, cap, "poisson G=%.2f", t->load);
        return;
    case TRAFFIC_ONOFF:
        snprintf(out, cap, "on-off G=%.2f", t->load);
        return;
    case TRAFFIC_BATCH:
        snprintf(out, cap, "batch");
        return;
    case TRAFFIC_NONE:
        snprintf(out, cap, "replies only");
        return;
    case TRAFFIC_PCAP:
        snprintf(out, cap, "pcap replay");
        return;
    }
    snprintf(out, cap, "?");
}

/* The traffic for the header and the CSV: with groups, each has its own
 * (the header and the CSV's group columns say which). */
static void describe_traffic(tui_driver *d)
{
    if (d->grouped)
        snprintf(d->traffic_desc, sizeof d->traffic_desc, "%u groups", d->base.n_named);
    else
        traffic_words(&d->base.traffic, d->traffic_desc, sizeof d->traffic_desc);
}

uint32_t sweep_min(const tui_driver *d)
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

uint32_t sweep_max(const tui_driver *d)
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
void compute_ref(tui_driver *d)
{
    d->n_ref = 0;
    if (d->base.traffic.kind != TRAFFIC_SATURATED)
        return;
    analytic_mb_costs c = reference_mb_costs(&d->base.phy, scenario_frame_bytes_mean(&d->base));
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
    if (engine_segment_count(d->e) > 0) { /* a network: tui_netsnap.c draws it */
        memset(pos, 0, n * sizeof *pos);
        d->cable_ps = 0;
        tui_netview_destroy(d->netv);
        return tui_netview_create(d->e, n, &d->netv);
    }
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

/* With groups: the group N grows (by name, or the last), the stations of
 * the others, and the sweep's N as totals (the list gives the grown
 * group's sizes). */
static int pick_grown(tui_driver *d, const char *name, char *err, size_t errlen)
{
    uint32_t g = d->base.n_named - 1;
    if (name != NULL) {
        for (g = 0; g < d->base.n_named; g++)
            if (strcmp(scenario_group_at(&d->base, g)->name, name) == 0)
                break;
        if (g == d->base.n_named) {
            snprintf(err, errlen, "--grow: there is no group %.40s in the scenario", name);
            return -1;
        }
    }
    d->groups_view = calloc(d->base.n_named, sizeof *d->groups_view);
    d->group_traffic = calloc(d->base.n_named, sizeof *d->group_traffic);
    d->cur_groups = calloc(d->base.n_named, sizeof *d->cur_groups);
    d->group_names = calloc(d->base.n_named, sizeof *d->group_names);
    d->group_policies = calloc(d->base.n_named, sizeof *d->group_policies);
    if (d->groups_view == NULL || d->group_traffic == NULL || d->cur_groups == NULL ||
        d->group_names == NULL || d->group_policies == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    d->grouped = true;
    d->grow = g;
    d->others = d->base.n_stations - scenario_group_at(&d->base, g)->count;
    for (size_t i = 0; i < d->n_asked; i++) {
        d->asked[i] += d->others;
        if (d->asked[i] == 0) {
            snprintf(err, errlen, "--stations: 0 stations in %s leaves none: the other groups "
                                  "have no station",
                     scenario_group_at(&d->base, g)->name);
            return -1;
        }
    }
    return 0;
}

int driver_engine_scenario(const tui_driver *d, const scenario *base, uint32_t n, scenario *out,
                           char *err, size_t errlen)
{
    scenario *sc = out;
    if (scenario_copy(sc, base) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (sc->positions_m && n != base->n_stations) {
        /* Explicit placement is for one N; the sweep spaces stations evenly. */
        free(sc->positions_m);
        sc->positions_m = NULL;
        sc->n_positions = 0;
    }
    if (d->grouped) {
        /* N is the total: the grown group takes what the others leave. */
        char key[SCENARIO_GROUP_NAME_MAX + 16], count[16];
        snprintf(key, sizeof key, "%s.stations", scenario_group_at(base, d->grow)->name);
        snprintf(count, sizeof count, "%u", n > d->others ? n - d->others : 0);
        if (scenario_set(sc, key, count, err, errlen) != 0) {
            scenario_free(sc);
            return -1;
        }
    } else {
        sc->n_stations = n;
    }
    if (n == 1 && sc->traffic.dest == DEST_RANDOM) {
        /* One station has nobody else to send to: its frames are judged
         * where they are sent, as the engine does for saturated traffic
         * (scenario.c), so N = 1 measures the channel's efficiency. */
        sc->traffic.dest = DEST_SERVER;
        sc->traffic.server = 0;
    }
    sc->duration = DRIVER_RUN_PS;
    sc->warmup = 0;
    char warn[512];
    if (scenario_finish(sc, err, errlen, warn, sizeof warn) != 0) {
        scenario_free(sc);
        return -1;
    }
    return 0;
}

int start_engine(tui_driver *d, uint32_t n, bool measure, char *err, size_t errlen)
{
    /* The history runs on: the new engine's samples follow the old one's. */
    tui_history_engine(&d->hist, d->e ? engine_now(d->e) : 0, d->mark[0] ? d->mark : NULL);
    d->mark[0] = '\0';
    engine_destroy(d->e);
    d->e = NULL;
    tui_netview_destroy(d->netv);
    d->netv = NULL;
    timeline_sink_reset(d->tl);

    scenario sc;
    if (driver_engine_scenario(d, &d->base, n, &sc, err, errlen) != 0)
        return -1;
    if (d->grouped)
        n = n > d->others ? n : d->others;
    int rc = engine_create(&sc, &d->e, err, errlen);
    scenario_free(&sc);
    if (rc != 0)
        return -1;
    if (engine_add_sink(d->e, timeline_sink_trace(d->tl)) != 0 ||
        engine_add_sink(d->e, (trace_sink){step_sink_on_event, d, NULL}) != 0) {
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
    d->cur = (tui_point){.n = n, .s_ci95 = -1};
    d->scroll = 0;
    return 0;
}

/* The sweep's N that the scenario allows, of those asked (a switch has at
 * most its ports, a group's keys may refuse a size): each is checked as
 * its engine would be built, before the sweep starts, so that a sweep
 * never stops mid-lesson on an N it cannot run. Says up front what it
 * left out and why; -1 with the first reason when no N is left. */
static int fit_sweep(tui_driver *d, char *err, size_t errlen)
{
    char why[512] = "";
    uint32_t first_out = 0;
    size_t out = 0;
    d->n_sweep = 0;
    for (size_t i = 0; i < d->n_asked; i++) {
        scenario sc;
        char reason[512];
        if (driver_engine_scenario(d, &d->base, d->asked[i], &sc, reason, sizeof reason) != 0) {
            if (out++ == 0) {
                first_out = d->asked[i];
                snprintf(why, sizeof why, "%s", reason);
            }
            continue;
        }
        scenario_free(&sc);
        d->sweep[d->n_sweep++] = d->asked[i];
    }
    if (d->n_sweep == 0) {
        snprintf(err, errlen, "no N of the sweep fits the scenario: N = %u: %s", first_out, why);
        return -1;
    }
    if (out > 0)
        set_message(d,
                    "sweeping N = %u .. %u: %zu N left out, which the scenario does not allow "
                    "(N = %u: %s)",
                    d->sweep[0], d->sweep[d->n_sweep - 1], out, first_out, why);
    return 0;
}

int restart_sweep(tui_driver *d, char *err, size_t errlen)
{
    if (fit_sweep(d, err, errlen) != 0)
        return -1;
    d->n_points = 0;
    d->sweep_idx = 0;
    d->phase = TUI_SWEEP_RUNNING;
    describe_traffic(d);
    derive_times(d);
    d->time_view = false;
    if (start_engine(d, d->n_sweep ? d->sweep[0] : d->base.n_stations, true, err, errlen) != 0)
        return -1;
    tui_history_reset(&d->hist, d->batch_ps); /* a new sweep: a new history */
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
    size_t ng = d->grouped ? d->base.n_named : 0;
    size_t at = d->n_points;
    for (size_t i = 0; i < d->n_points; i++)
        if (d->points[i].n == p->n)
            at = i;
    if (at == d->n_points && d->n_points == d->cap_points) {
        size_t nc = d->cap_points ? 2 * d->cap_points : 32;
        tui_point *np = realloc(d->points, nc * sizeof *np);
        if (!np)
            return; /* the point is lost from the plot; the run goes on */
        d->points = np;
        if (ng) {
            tui_csv_group *gp = realloc(d->point_groups, nc * ng * sizeof *gp);
            if (!gp)
                return; /* the larger points array is kept for the next try */
            d->point_groups = gp;
        }
        d->cap_points = nc;
    }
    d->points[at] = *p;
    if (ng)
        memcpy(&d->point_groups[at * ng], d->cur_groups, ng * sizeof *d->cur_groups);
    if (at == d->n_points)
        d->n_points++;
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
    /* none sent: NAN in results.h, 0 on the screen and its curve */
    d->cur.coll_per_frame = isnan(d->res.collisions_per_frame) ? 0 : d->res.collisions_per_frame;
    d->cur.frames_ok = d->res.frames_ok;
    d->cur.frames_aborted = d->res.frames_aborted;
    d->cur.frames_late_discarded = d->res.frames_late_discarded;
    d->cur.frames_dropped = d->res.frames_dropped;
    if (d->grouped && d->res.n_groups == d->base.n_named) {
        /* A share of nothing delivered is no share: NAN (an empty cell). */
        for (uint32_t g = 0; g < d->res.n_groups; g++) {
            const group_result *gr = &d->res.groups[g];
            d->cur_groups[g] = (tui_csv_group){
                .stations = gr->stations,
                .throughput = gr->throughput,
                .share = bits > 0 ? gr->share : NAN,
                .frames_ok = gr->frames_ok,
                .frames_aborted = gr->frames_aborted,
                .frames_dropped = gr->frames_dropped,
            };
        }
    }
    if (d->kept > 0) {
        double k = d->kept, mean = d->sum / k;
        double var = d->kept > 1 ? (d->sumsq - k * mean * mean) / (k - 1) : 0;
        d->cur.s = mean;
        /* One batch has no spread to measure: no interval (< 0) rather
         * than a false +/- 0. */
        d->cur.s_ci95 = d->kept > 1 ? t95(d->kept - 1) * sqrt(var > 0 ? var : 0) / sqrt(k) : -1;
    }
    bool tight = d->kept >= d->min_batches && d->kept >= 2 &&
                 d->cur.s_ci95 <= d->precision * d->cur.s;
    /* A point is never recorded without a measurement: one whose point
     * time (--point-time) ends inside its warm-up batch runs on to the end
     * of its first measured batch, so no S = 0 lands on the chart. */
    if (!tight && (now < d->cap_ps || d->kept == 0))
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

/* The history's sample at its boundary t: the engine's totals so far. */
static void history_sample(tui_driver *d, sim_time t)
{
    engine_results(d->e, &d->res);
    uint64_t bits = 0;
    for (uint32_t i = 0; i < d->res.n_stations; i++)
        bits += d->res.stations[i].bits_delivered;
    tui_history_sample(&d->hist, t, bits, d->res.collisions, d->res.frames_ok,
                       (double)d->base.phy.rate_bps);
}

/* The step's sink (tui_step.c tells what it recorded): while `s` runs
 * the engine, every trace event but a bridge's is kept for the words. */
void step_sink_on_event(void *ctx, const trace_event *ev)
{
    tui_driver *d = ctx;
    if (!d->stepping)
        return;
    if (ev->kind >= TRACE_BRIDGE_LEARN && ev->kind <= TRACE_BRIDGE_ABORT)
        return; /* a bridge's: not told step by step (its pointer does not keep) */
    if (d->n_step_ev < DRIVER_STEP_EVENTS)
        d->step_ev[d->n_step_ev] = *ev;
    d->n_step_ev++;
}

/* Runs the current engine towards `target` (SIM_TIME_NEVER: as far as the
 * budget goes), stopping at batch boundaries to measure. Engines may be
 * replaced on the way (the next sweep point); the simulated time left of
 * the frame then goes to the new engine. */
int64_t run_to(tui_driver *d, sim_time target, uint64_t budget, char *err, size_t errlen)
{
    uint64_t total = 0;
    d->exhausted = false;
    for (;;) {
        sim_time stop = target;
        if (d->measuring && d->next_batch < stop)
            stop = d->next_batch;
        if (d->hist.next < stop)
            stop = d->hist.next;
        if (total >= budget) {
            d->exhausted = true;
            d->view_t = engine_now(d->e);
            break;
        }
        uint64_t before = engine_events(d->e);
        engine_status st = engine_run(d->e, stop, budget - total);
        if (st == ENGINE_OUT_OF_MEMORY) {
            snprintf(err, errlen, "out of memory at %u stations", d->n);
            return -1;
        }
        total += engine_events(d->e) - before;
        sim_time now = engine_now(d->e);
        if (now >= stop || st == ENGINE_DONE) {
            if (st != ENGINE_DONE && now >= d->hist.next)
                history_sample(d, now);
            if (d->measuring && stop == d->next_batch && st != ENGINE_DONE) {
                uint64_t gen = d->engine_gen;
                if (on_batch(d, err, errlen) != 0)
                    return -1;
                if (d->engine_gen != gen && target != SIM_TIME_NEVER)
                    target = target > stop ? target - stop : 0;
                continue;
            }
            if (st != ENGINE_DONE && stop < target)
                continue; /* a sample's boundary: on towards the target */
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
    /* The help overlay says where files go. */
    if (tui_saves_create(opt->save_dir, &d->saves) != 0) {
        tui_driver_destroy(d);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    d->trace_max_ps = opt->trace_max_ps > 0 ? opt->trace_max_ps : DRIVER_TRACE_MAX_PS;
    d->trace_max_bytes = opt->trace_max_bytes > 0 ? opt->trace_max_bytes : DRIVER_TRACE_MAX_BYTES;
    d->log_x = opt->log_x;
    d->show_ref = true;
    /* The S axis opens at 0 .. 1: a class first sees throughput as the
     * fraction of the channel it is, bars of 0.85 and 0.95 as long as they
     * are. Zooming (z) spreads the points apart for the detail, and the
     * plot then marks its cut axis. */
    d->zoom = false;
    snprintf(d->ref_label, sizeof d->ref_label, "Metcalfe-Boggs");
    d->speed_idx = N_SPEEDS - 1;
    for (size_t i = 0; i < N_SPEEDS; i++)
        if (fabs(speeds[i] - opt->speed) <= 1e-9 * (speeds[i] > 0 ? speeds[i] : 1)) {
            d->speed_idx = i;
            break;
        }
    size_t n = opt->n_sweep;
    d->sweep = malloc((n ? n : 64) * sizeof *d->sweep);
    d->asked = malloc((n ? n : 64) * sizeof *d->asked);
    if (!d->sweep || !d->asked) {
        tui_driver_destroy(d);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (n)
        memcpy(d->asked, opt->sweep_n, n * sizeof *d->asked);
    else
        n = tui_driver_default_sweep(64, d->log_x, d->asked, 64);
    d->n_asked = n; /* restart_sweep fits d->sweep from them */
    if (!d->base.n_named && opt->grow != NULL) {
        snprintf(err, errlen, "--grow: the scenario has no groups (--group, [group NAME])");
        tui_driver_destroy(d);
        return -1;
    }
    if (d->base.n_named && pick_grown(d, opt->grow, err, errlen) != 0) {
        tui_driver_destroy(d);
        return -1;
    }
    d->n = d->asked[0];
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
    driver_trace_cancel(d, NULL); /* a trace being written leaves no file */
    engine_destroy(d->e);
    timeline_sink_destroy(d->tl);
    free(d->groups_view);
    free(d->group_traffic);
    free(d->cur_groups);
    free(d->point_groups);
    free(d->group_names);
    free(d->group_policies);
    scenario_free(&d->base);
    free(d->sweep);
    free(d->asked);
    free(d->points);
    free(d->pos_ps);
    tui_netview_destroy(d->netv);
    free(d->rows);
    free(d->pos);
    free(d->spans.v);
    tui_saves_destroy(d->saves);
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
    /* A trace being written takes its own share of the frame, paused or
     * not, so the screen keeps redrawing while it is written. */
    int64_t saved = driver_trace_step(d, max_events ? max_events : 1);
    if (d->paused)
        return saved;
    double speed = speeds[d->speed_idx];
    sim_time target = SIM_TIME_NEVER;
    if (speed > 0) {
        /* A stalled frame (a suspended terminal) must not turn into a
         * burst of simulated time: at most a quarter second counts. */
        double dt = wall_dt_s < 0.25 ? wall_dt_s : 0.25;
        sim_time step = (sim_time)llround(speed * dt * 1e12);
        target = d->view_t + (step > 0 ? step : 1);
    }
    int64_t ran = run_to(d, target, max_events ? max_events : 1, err, errlen);
    return ran < 0 ? ran : ran + saved;
}

bool tui_driver_budget_exhausted(const tui_driver *d)
{
    return d->exhausted;
}
