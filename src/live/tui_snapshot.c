/* tui_snapshot.c - the snapshot the screen draws (tui_driver_snapshot).
 *
 * What the screen shows of the medium is computed here from the timeline
 * sink (transmissions with their start, end and jam) and the medium's
 * delays: on a bus, the stretch of cable a signal covers at time t is
 * |x - x_s| in [t - end, t - start); on a star each station's column shows
 * the signals present at that station.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "medium.h"
#include "tui_driver_int.h"

/* ------------------------------------------------------------------ */
/* Snapshots */

/* The screen draws bars and percentages: a ratio over nothing (NAN in
 * results.h, null in the outputs) is drawn as 0 there. */
static double drawn(double v) { return isnan(v) ? 0 : v; }

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
        lo = fmin(lo, d->points[i].s - fmax(d->points[i].s_ci95, 0));
    if (d->measuring && d->kept > 0)
        lo = fmin(lo, d->cur.s - fmax(d->cur.s_ci95, 0));
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
    s->frame_bytes = (uint32_t)lround(scenario_frame_bytes_mean(sc));
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
    s->batches = d->measuring ? d->kept : 0;
    s->min_batches = d->min_batches;
    s->batch_s = sim_time_to_s(d->batch_ps);
    s->ref = d->ref;
    s->n_ref = d->n_ref;
    s->show_ref = d->show_ref;
    s->ref_label = d->ref_label;
    s->s_axis_min = d->zoom ? zoom_floor(d) : 0;

    s->n_stations = d->n;
    s->sim_time_s = sim_time_to_s(t);
    s->events = r->events;
    s->throughput = r->throughput;
    s->measuring = d->measuring;
    /* Measured only per point, and only from two batches on. */
    s->throughput_ci95 = d->measuring && d->kept >= 2 ? d->cur.s_ci95 : -1;
    s->offered_load = r->offered_load;
    s->coll_per_frame = drawn(r->collisions_per_frame);
    s->jain = r->jain_fairness;
    s->capture_mean_run = drawn(r->capture_mean_run);
    s->capture_max_run = r->capture_max_run;
    s->frames_aborted = r->frames_aborted;
    s->frames_late_discarded = r->frames_late_discarded;
    s->frames_dropped = r->frames_dropped;

    if (grow(d, d->n) == 0) {
        for (uint32_t i = 0; i < d->n; i++) {
            mac_station_view v;
            engine_station_view(d->e, i, &v);
            tui_station_row *row = &d->rows[i];
            row->index = i;
            row->state = tui_state_of(v.state);
            row->attempt = v.attempt;
            row->backoff_slots_left = 0;
            if (v.state == MAC_BACKOFF && v.backoff_until > t && d->slot_ps > 0)
                row->backoff_slots_left =
                    (uint64_t)((v.backoff_until - t + d->slot_ps - 1) / d->slot_ps);
            /* the window's counts, as every other figure on screen */
            const mac_counters *c = i < r->n_stations && r->stations ? &r->stations[i].c : NULL;
            row->successes = c ? c->frames_transmitted_ok : 0;
            row->collisions = c ? c->collisions : 0;
            row->aborted = c ? c->frames_aborted_xs_colls : 0;
            row->late_discarded = c ? c->frames_late_discarded : 0;
            row->dropped = c ? c->frames_dropped : 0;
            row->share = i < r->n_stations && r->stations ? drawn(r->stations[i].share) : 0;
            row->group = NULL;
            row->segment = NULL; /* a network's: tui_netview_snapshot */
            row->seg = 0;
            if (d->grouped) {
                const scenario *run = engine_scenario(d->e);
                row->group = scenario_group_at(run, scenario_group_of(run, i))->name;
            }
            if (s->star || d->cable_ps == 0)
                d->pos[i] = d->n > 1 ? (double)i / (double)(d->n - 1) : 0.5;
            else
                d->pos[i] = (double)d->pos_ps[i] / (double)d->cable_ps;
        }
        s->rows = d->rows;
        s->n_rows = d->n;
        s->station_pos = d->pos;
    }
    /* Each group's share of the bits; the grown group marked. */
    s->groups = NULL;
    s->n_groups = 0;
    if (d->grouped && r->n_groups == d->base.n_named) {
        const scenario *run = engine_scenario(d->e); /* the groups resolved */
        for (uint32_t g = 0; g < r->n_groups; g++) {
            const station_group *sg = scenario_group_at(run, g);
            traffic_words(&sg->traffic, d->group_traffic[g], sizeof d->group_traffic[g]);
            d->groups_view[g] = (tui_group){
                .name = r->groups[g].name,
                .stations = r->groups[g].stations,
                .share = drawn(r->groups[g].share),
                .grown = g == d->grow,
                .policy = sg->policy,
                .traffic = d->group_traffic[g],
                .frame_bytes = (uint32_t)lround(
                    frame_size_mean(&sg->traffic.size, run->phy.min_frame_bytes)),
            };
        }
        s->groups = d->groups_view;
        s->n_groups = r->n_groups;
    }
    s->scroll = d->scroll;

    /* Signals now. Only recent transmissions can still be on the wire. */
    d->spans.n = 0;
    const medium *m = engine_medium(d->e);
    size_t cnt = timeline_sink_count(d->tl);
    size_t first = cnt > 64 ? cnt - 64 : 0;
    for (size_t i = first; i < cnt && !d->netv; i++) {
        const timeline_tx *tx = timeline_sink_at(d->tl, i);
        if (tx->station >= d->n)
            continue;
        if (s->star)
            span_list_star(&d->spans, m, tx->station, d->pos, d->n, tx, t, tx->station);
        else /* positions are delays from the cable's left end */
            span_list_line(&d->spans, (double)d->cable_ps, (double)d->pos_ps[tx->station], tx,
                           t, tx->station);
    }
    s->spans = d->spans.v;
    s->n_spans = d->spans.n;
    if (d->netv && s->rows) /* a network: each segment on its own line */
        tui_netview_snapshot(d->netv, d->e, r, d->tl, t, d->rows, d->pos, d->n, s);
    s->switched = sc->switch_topology;
    s->collisions = r->collisions;
    /* The history: shown after the swap key, and always for a switch (its
     * aggregate exceeds the S axis of one link). */
    s->history = d->hist.v;
    s->n_history = d->hist.n;
    s->marks = d->hist.marks;
    s->n_marks = d->hist.n_marks;
    s->time_view = d->time_view || sc->switch_topology;

    /* One column per slot; in slow motion, finer columns (halving down to
     * one bit time) so the strip still scrolls a few columns a second. */
    sim_time cell_ps = d->slot_ps;
    double speed = speeds[d->speed_idx];
    while (speed > 0 && cell_ps / 2 >= d->bit_ps && (double)cell_ps > speed * 0.25e12)
        cell_ps /= 2;
    if (d->netv) /* the first segment's probe */
        timeline_sink_cells_on(d->tl, 0, t, cell_ps, TUI_TIMELINE_MAX, d->timeline);
    else
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
    s->save_dir = tui_saves_dir_shown(d->saves);
    s->message = d->message[0] ? d->message : NULL;
}
