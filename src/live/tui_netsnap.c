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
#include "segments.h"
#include "tui_netview.h"

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
    tui_domain dom[NET_MAX_SEGMENTS];
    tui_bridge br[NET_MAX_BRIDGES];
    tui_bridge_port *bp;  /* every bridge's ports, bridge after bridge */
    uint32_t n_dom, n_br;
    uint32_t n_seg, n_st;
    uint32_t *station_tap; /* per station: its tap on its segment */
    uint32_t *station_seg;
    span_list spans;
};

tui_station_state tui_state_of(mac_state s)
{
    switch (s) {
    case MAC_IDLE:
    case MAC_RELAY: /* a repeater's port: no station row shows it */
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
    free(v->bp);
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
                                  .link = ns->type == NET_SEG_LINK,
                                  .full_duplex = ns->full_duplex,
                                  .domain = ns->domain,
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
                                       .pos = g->tap_pos[tap],
                                       .bridge = TUI_NO_BRIDGE};
        }
    }
    /* Then the bridges' ports, in the order of the bridges and their
     * `ports` key (segments.c). */
    uint32_t n_bp = 0;
    for (uint32_t b = 0; b < net->n_bridges; b++)
        n_bp += net->bridges[b].n_ports;
    v->bp = calloc(n_bp ? n_bp : 1, sizeof *v->bp);
    if (!v->bp)
        return -1;
    v->n_br = net->n_bridges;
    uint32_t k = 0;
    for (uint32_t b = 0; b < net->n_bridges; b++) {
        const net_bridge *nb = &net->bridges[b];
        v->br[b] = (tui_bridge){.name = nb->name, .queue = nb->queue, .ports = &v->bp[k],
                                .n_ports = nb->n_ports};
        for (uint32_t p = 0; p < nb->n_ports; p++, k++) {
            uint32_t s = nb->ports[p].segment;
            seg_view *g = &v->seg[s];
            uint32_t tap = next[s]++;
            if (tap >= g->n_taps)
                return -1; /* not the engine's layout */
            g->joints[tap - g->n_st] = (tui_joint){
                .label = nb->name, .peer = NULL, .pos = g->tap_pos[tap], .bridge = b, .port = p};
            v->bp[k] = (tui_bridge_port){.segment = v->out[s].name, .queue_delay_us = NAN};
        }
    }
    v->n_dom = net->n_bridges > 0 ? net->n_domains : 0;
    for (uint32_t d = 0; d < v->n_dom; d++)
        v->dom[d] = (tui_domain){.name = net->segments[net->domain_first[d]].name};
    return 0;
}

/* The domains' counts and the bridges' ports now (their queues from the
 * engine, their drops and delays over the run from its results). */
static void bridges_now(tui_netview *v, const engine *e, const results *r)
{
    for (uint32_t d = 0; d < v->n_dom; d++) {
        tui_domain *x = &v->dom[d];
        if (d < r->n_domains) {
            const domain_result *dr = &r->domains[d];
            x->segments = dr->segments;
            x->stations = dr->stations;
            x->full_duplex = dr->full_duplex;
            x->collisions = dr->collisions;
            x->frames_sent = dr->frames_sent;
        }
    }
    tui_bridge_port *x = v->bp;
    for (uint32_t b = 0; b < v->n_br; b++) {
        for (uint32_t p = 0; p < v->br[b].n_ports; p++, x++) {
            segnet_port_now now;
            if (engine_bridge_port_now(e, b, p, &now) == 0) {
                x->state = tui_state_of(now.state);
                x->queue_len = now.queue_len;
            }
            if (b < r->n_bridges && p < r->bridges[b].n_ports) {
                const bridge_port_result *pr = &r->bridges[b].ports[p];
                x->dropped = pr->frames_dropped;
                x->sent = pr->frames_sent;
                x->queue_delay_us = pr->queue_delay_mean_us;
            }
        }
    }
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

void tui_netview_snapshot(tui_netview *v, const engine *e, const results *res,
                          const timeline_sink *tl, sim_time t, tui_station_row *rows,
                          double *pos, size_t n_rows, tui_snapshot *out)
{
    bridges_now(v, e, res);
    out->domains = v->dom;
    out->n_domains = v->n_dom;
    out->bridges = v->br;
    out->n_bridges = v->n_br;
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
