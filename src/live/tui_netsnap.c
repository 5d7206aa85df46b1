/* tui_netsnap.c - a network of segments as the screen draws it
 * (tui_snapshot.segments, tui/tui_net.c): each segment's joints, its
 * stations' places, and the signals on it now.
 *
 * The geometry comes from the finished scenario and each segment's medium
 * (engine_segment_medium): a segment's taps are its stations in station
 * order, then the ports of the repeaters on it in repeater order, as the
 * engine builds them (src/engine/segments.c). The signals come from the
 * timeline sink, which remembers the stations' transmissions and the
 * ports' relays with the segment (and a relay's tap) they were sent on:
 *   - coax: the stretch of cable a signal from the tap at x covers at time
 *     t is |y - x| in [t - end, t - start), its jam [t - end, t - jam);
 *   - hub: each tap's place shows the signals that reach it, as the one
 *     star does: tap j hears a signal from tap i during [start + d, end +
 *     d), d = medium_delay(i, j) (drop, hub, drop).
 * So a signal a repeater passes on appears on the next segment at the
 * port's joint after the repeater's delay, and spreads from there.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medium.h"
#include "network.h"
#include "tui_driver_int.h"

typedef struct seg_view {
    uint32_t n_st, n_taps;
    double L;             /* coax: the cable, ps (at least 1) */
    double *tap_ps;       /* coax: each tap's place, ps from the left end */
    double *tap_pos;      /* each tap's place on the drawing, 0..1 */
    tui_joint *joints;    /* one per port: n_taps - n_st */
    char (*peer)[3 * (NET_NAME_MAX + 1)];
} seg_view;

struct tui_netview {
    const medium *med[NET_MAX_SEGMENTS];
    seg_view seg[NET_MAX_SEGMENTS];
    tui_segment out[NET_MAX_SEGMENTS];
    uint32_t n_seg, n_st;
    uint32_t *station_tap; /* per station: its tap on its segment */
    uint32_t *station_seg;
    span_list spans;
};

void tui_netview_destroy(tui_netview *v)
{
    if (!v)
        return;
    for (uint32_t s = 0; s < NET_MAX_SEGMENTS; s++) {
        free(v->seg[s].tap_ps);
        free(v->seg[s].tap_pos);
        free(v->seg[s].joints);
        free(v->seg[s].peer);
    }
    free(v->station_tap);
    free(v->station_seg);
    free(v->spans.v);
    free(v);
}

/* The ports of a repeater but one, as "annex" or "lab,annex". */
static void peers(const network *net, const net_repeater *r, uint32_t self, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < r->n_ports && used < len; k++) {
        if (k == self)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
                         net->segments[r->ports[k].segment].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int build(tui_netview *v, const engine *e, uint32_t n_st)
{
    const scenario *sc = engine_scenario(e);
    const network *net = &sc->net;
    v->n_seg = engine_segment_count(e);
    v->n_st = n_st;
    v->station_tap = malloc((n_st ? n_st : 1) * sizeof *v->station_tap);
    v->station_seg = malloc((n_st ? n_st : 1) * sizeof *v->station_seg);
    if (!v->station_tap || !v->station_seg)
        return -1;
    uint32_t count[NET_MAX_SEGMENTS] = {0};
    for (uint32_t i = 0; i < n_st; i++) {
        uint32_t s = scenario_station_segment(sc, i);
        v->station_seg[i] = s;
        v->station_tap[i] = count[s]++;
    }
    for (uint32_t s = 0; s < v->n_seg; s++) {
        seg_view *g = &v->seg[s];
        const net_segment *ns = &net->segments[s];
        const medium *m = engine_segment_medium(e, s);
        v->med[s] = m;
        g->n_st = count[s];
        g->n_taps = medium_station_count(m);
        uint32_t nt = g->n_taps ? g->n_taps : 1, nj = g->n_taps - g->n_st;
        g->tap_ps = malloc(nt * sizeof *g->tap_ps);
        g->tap_pos = malloc(nt * sizeof *g->tap_pos);
        g->joints = calloc(nj ? nj : 1, sizeof *g->joints);
        g->peer = calloc(nj ? nj : 1, sizeof *g->peer);
        if (!g->tap_ps || !g->tap_pos || !g->joints || !g->peer)
            return -1;
        double L = (double)network_cable_ps(ns, ns->length_m);
        g->L = L > 0 ? L : 1.0;
        for (uint32_t k = 0; k < g->n_taps; k++) {
            if (ns->type == NET_SEG_HUB) { /* evenly: stations, then ports */
                g->tap_pos[k] = g->n_taps > 1 ? (double)k / (double)(g->n_taps - 1) : 0.5;
            } else {
                g->tap_ps[k] = (double)medium_station_pos(m, k);
                g->tap_pos[k] = L > 0 ? fmin(g->tap_ps[k] / L, 1.0) : 0.5;
            }
        }
        v->out[s] = (tui_segment){.name = ns->name,
                                  .hub = ns->type == NET_SEG_HUB,
                                  .length_m = ns->length_m,
                                  .n_stations = g->n_st,
                                  .joints = g->joints,
                                  .n_joints = nj};
    }
    /* The joints, in the engine's order of the ports on each segment. */
    uint32_t next[NET_MAX_SEGMENTS];
    for (uint32_t s = 0; s < v->n_seg; s++)
        next[s] = v->seg[s].n_st;
    for (uint32_t r = 0; r < net->n_repeaters; r++) {
        const net_repeater *nr = &net->repeaters[r];
        for (uint32_t k = 0; k < nr->n_ports; k++) {
            uint32_t s = nr->ports[k].segment;
            seg_view *g = &v->seg[s];
            uint32_t tap = next[s]++;
            if (tap >= g->n_taps)
                return -1; /* not the engine's layout */
            uint32_t j = tap - g->n_st;
            peers(net, nr, k, g->peer[j], sizeof g->peer[j]);
            g->joints[j] = (tui_joint){.label = nr->uplink ? "uplink" : nr->name,
                                       .peer = g->peer[j],
                                       .pos = g->tap_pos[tap]};
        }
    }
    return 0;
}

int tui_netview_create(const engine *e, uint32_t n_stations, tui_netview **out)
{
    *out = NULL;
    if (engine_segment_count(e) == 0)
        return 0;
    tui_netview *v = calloc(1, sizeof *v);
    if (!v)
        return -1;
    if (build(v, e, n_stations) != 0) {
        tui_netview_destroy(v);
        return -1;
    }
    *out = v;
    return 0;
}

/* Records further back than this have left every cable. */
#define NET_RECENT 512

void tui_netview_snapshot(tui_netview *v, const timeline_sink *tl, sim_time t,
                          tui_station_row *rows, double *pos, size_t n_rows, tui_snapshot *out)
{
    for (size_t i = 0; i < n_rows && i < v->n_st; i++) {
        uint32_t seg = v->station_seg[i];
        rows[i].seg = seg;
        rows[i].segment = v->out[seg].name;
        pos[i] = v->seg[seg].tap_pos[v->station_tap[i]];
    }
    v->spans.n = 0;
    size_t cnt = timeline_sink_count(tl), first = cnt > NET_RECENT ? cnt - NET_RECENT : 0;
    size_t at[NET_MAX_SEGMENTS + 1];
    for (uint32_t s = 0; s < v->n_seg; s++) {
        at[s] = v->spans.n;
        const seg_view *g = &v->seg[s];
        for (size_t i = first; i < cnt; i++) {
            const timeline_tx *r = timeline_sink_at(tl, i);
            if (r->segment != s || r->start > t)
                continue;
            bool relay = r->station == TRACE_NO_STATION;
            uint32_t tap;
            if (relay)
                tap = r->tap;
            else if (r->station < v->n_st && v->station_seg[r->station] == s)
                tap = v->station_tap[r->station];
            else
                continue;
            if (tap >= g->n_taps || (relay && tap < g->n_st))
                continue;
            uint32_t who = relay ? TUI_SPAN_JOINT | (tap - g->n_st) : r->station;
            if (v->out[s].hub)
                span_list_star(&v->spans, v->med[s], tap, g->tap_pos, g->n_taps, r, t, who);
            else
                span_list_line(&v->spans, g->L, g->tap_ps[tap], r, t, who);
        }
    }
    at[v->n_seg] = v->spans.n;
    for (uint32_t s = 0; s < v->n_seg; s++) { /* the array may have moved */
        v->out[s].spans = v->spans.v + at[s];
        v->out[s].n_spans = at[s + 1] - at[s];
    }
    out->segments = v->out;
    out->n_segments = v->n_seg;
    out->probe_segment = v->n_seg ? v->out[0].name : NULL;
}
