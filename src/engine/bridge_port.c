/* bridge_port.c - a bridge's ports on their segments; see bridge_port.h.
 * The filtering database itself is bridge.c's.
 */
#include "bridge_port.h"

#include <assert.h>
#include <stdlib.h>

#include "ring.h"
#include "verdict.h"

/* ---- bridges: where a frame's one path runs ------------------------------ */

/* Tree distance between two nodes: domains 0..n_dom-1, then bridges. */
static uint32_t dist(const segnet *n, uint32_t a, uint32_t b)
{
    return n->dist[(size_t)a * (n->n_dom + n->n_br) + b];
}

/* Whether node x lies on the path from domain a to domain b. */
static bool on_path(const segnet *n, uint32_t a, uint32_t b, uint32_t x)
{
    return a != b && dist(n, a, x) + dist(n, x, b) == dist(n, a, b);
}

/* Whether a copy of f leaving bridge br into domain y (or, `in`, arriving
 * at br from y) is the one copy on the path from its sender to its
 * destination: a loss there is the frame's loss. */
static bool copy_on_path(const segnet *n, const frame *f, uint32_t br, uint32_t y, bool in)
{
    if (f->dest == FRAME_BROADCAST || f->dest >= n->n_all)
        return false; /* judged in its sender's domain */
    uint32_t a = domain_of_station(n, (uint32_t)(f->id >> 40)), b = domain_of_station(n, f->dest);
    uint32_t node = n->n_dom + br;
    if (!on_path(n, a, b, node) || (a != y && b != y && !on_path(n, a, b, y)))
        return false;
    return in ? dist(n, a, node) == dist(n, a, y) + 1 : dist(n, a, y) == dist(n, a, node) + 1;
}

/* A whole frame ends at tap: each bridge port on the segment judges its
 * reception when the last bit reaches it (promiscuous: every frame). tx:
 * the sender's record here (held for it), UINT64_MAX for a relay (its
 * record is held while the frame's record lives). */
void bport_hear(segnet *n, seg_run *g, uint32_t tap, uint32_t key, uint64_t tx, sim_time now)
{
    for (uint32_t pt = g->rp_end; pt < g->n_taps; pt++) {
        if (pt == tap)
            continue;
        if (tx != UINT64_MAX)
            medium_hold(g->med, tx);
        key_ref(n, key);
        push(n, now + medium_delay(g->med, tap, pt), EV_PORT_RX, MAC_PHASE_DELIVER,
             g->port_of[pt - g->n_st], (uint64_t)key << 32 | (tx != UINT64_MAX));
    }
}

/* ---- bridges' traces (TRACE_BRIDGE_*) ------------------------------------ */

/* Hands a bridge's event to every sink that wants its kind. */
static void bridge_emit(const segnet *n, trace_event *ev, const trace_bridge *info)
{
    ev->bridge = info;
    for (size_t i = 0; i < n->n_sinks; i++)
        if (run_sink_kinds(n, i) & TRACE_BIT(ev->kind))
            n->sinks[i].on_event(n->sinks[i].ctx, ev);
}

/* A decision of port p on the frame c brought (trace.h, trace_bridge). */
static void bridge_decision(const segnet *n, trace_kind kind, const bport_run *p,
                            const carried *c, uint32_t out, sim_time now)
{
    if (!(n->br_kinds & TRACE_BIT(kind)))
        return;
    trace_bridge info = {.bridge = p->bridge, .port = p->port, .out_port = out,
                         .entered = SIM_TIME_NEVER, .sent_at = SIM_TIME_NEVER};
    trace_event ev = {.kind = kind, .time = now, .segment = p->seg,
                      .station = (uint32_t)(c->f.id >> 40),
                      .dest = c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all
                                  ? TRACE_NO_DEST : c->f.dest,
                      .frame_id = c->f.id, .frame_bytes = c->f.bytes, .attempt = c->attempt,
                      .queued_at = c->f.queued_at, .tx_start = SIM_TIME_NEVER,
                      .tx_end = SIM_TIME_NEVER, .jam_start = SIM_TIME_NEVER,
                      .probe_start = SIM_TIME_NEVER, .payload = c->f.payload,
                      .payload_len = c->f.payload_len, .relay_from = TRACE_NO_STATION,
                      .relay_sent_at = SIM_TIME_NEVER};
    bridge_emit(n, &ev, &info);
}

/* A port's queue of copies (port_copy), kept beside its MAC's. */
static void port_copy_push(segnet *n, bport_run *p, const port_copy *c)
{
    if (p->q_len == p->q_cap) {
        uint32_t cap = p->q_cap ? 2 * p->q_cap : 8;
        port_copy *q = ring_grow(p->q, sizeof *q, p->q_cap, p->q_head, p->q_len, cap);
        if (!q) {
            *n->no_memory = true;
            return;
        }
        p->q = q;
        p->q_cap = cap;
        p->q_head = 0;
    }
    p->q[ring_tail(p->q_cap, p->q_head, p->q_len)] = *c;
    p->q_len++;
}

/* The copy the port sends now (the head of its queue). */
static const port_copy *port_copy_head(const bport_run *p)
{
    static const port_copy none = {.entered = SIM_TIME_NEVER, .sent_at = SIM_TIME_NEVER};
    return p->q_len ? &p->q[p->q_head] : &none;
}

/* The copy at the head of port p's queue is done at now, sent whole
 * (sent) or given up: its bridge counts it, with its queue delay, and the
 * queue lets it go. */
static void port_copy_done(bridge *b, bport_run *p, sim_time now, int sent)
{
    bridge_done(b, p->port, port_copy_head(p)->entered, now, sent);
    if (p->q_len == 0)
        return;
    p->q_head = ring_next(p->q_cap, p->q_head);
    p->q_len--;
}

/* A port begins sending: what its frame's octets carry. */
void bport_copy_sent(const bport_run *p, carried *c)
{
    const port_copy *q = port_copy_head(p);
    c->sent_attempt = q->sent_attempt;
    c->sent_backoff = q->sent_backoff;
    c->sent_at = q->sent_at;
}

/* One of a port's own events (its MAC's), told as the bridge's. */
static void port_trace(const segnet *n, const bport_run *p, const trace_event *mac_ev,
                       trace_kind kind, const port_copy *q)
{
    if (!(n->br_kinds & TRACE_BIT(kind)))
        return;
    trace_bridge info = {.bridge = p->bridge, .port = p->port, .out_port = UINT32_MAX,
                         .flooded = q->flooded, .entered = q->entered,
                         .sent_attempt = q->sent_attempt, .sent_backoff_slots = q->sent_backoff,
                         .sent_at = q->sent_at};
    trace_event ev = *mac_ev;
    ev.kind = kind;
    ev.station = (uint32_t)(mac_ev->frame_id >> 40);
    ev.late = kind == TRACE_BRIDGE_TX_END && p->late;
    bridge_emit(n, &ev, &info);
}

/* A bridge port's verdict on a frame of its segment; learn and decide. */
void bport_rx(segnet *n, uint32_t bi, uint32_t key, bool own, sim_time now)
{
    const bport_run *p = &n->bp[bi];
    seg_run *g = &n->seg[p->seg];
    carried *c = rec(n, key);
    bool ok;
    if (own) {
        ok = g->fd || !medium_overlapped_at(g->med, c->tx_id, p->tap);
        medium_release(g->med, c->tx_id);
    } else {
        size_t i = (size_t)key * n->n_seg + p->seg;
        ok = n->relay_st[i] == RELAY_WHOLE && !medium_overlapped_at(g->med, n->relay_tx[i], p->tap);
    }
    const br_run *b = &n->br[p->bridge];
    bool path = copy_on_path(n, &c->f, p->bridge, g->domain, true);
    uint32_t out = NONE;
    bridge_action a = BRIDGE_FILTER;
    if (ok) {
        uint32_t dest = c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all ? BRIDGE_BROADCAST
                                                                             : c->f.dest;
        uint32_t src = (uint32_t)(c->f.id >> 40);
        bool learns = n->br_kinds && bridge_lookup(b->b, src, now) != p->port;
        a = bridge_receive(b->b, p->port, src, dest, now, &out);
        if (n->br_kinds) {
            if (learns)
                bridge_decision(n, TRACE_BRIDGE_LEARN, p, c, UINT32_MAX, now);
            bridge_decision(n,
                            a == BRIDGE_FILTER    ? TRACE_BRIDGE_FILTER
                            : a == BRIDGE_FORWARD ? TRACE_BRIDGE_FORWARD
                                                  : TRACE_BRIDGE_FLOOD,
                            p, c, a == BRIDGE_FORWARD ? out : UINT32_MAX, now);
        }
    }
    if (a == BRIDGE_FILTER) {
        if (path) /* corrupted on its way to the bridge (or, never, filtered) */
            verdict_final(n, &c->f, c->trace_id, c->attempt, false, now, now);
        key_release(n, key);
        return;
    }
    /* store and forward: it leaves after its last bit, and the latency
     * (none: at once) */
    if (b->latency_ps == 0)
        bport_forward(n, bi, key, a == BRIDGE_FORWARD ? out : NONE, now); /* releases key */
    else
        push(n, now + b->latency_ps, EV_FORWARD, MAC_PHASE_READY, bi,
             (uint64_t)key << 32 | (a == BRIDGE_FORWARD ? out : NONE)); /* the reference moves */
}

/* The bridge hands the frame to its output port(s) (out NONE: flood). */
void bport_forward(segnet *n, uint32_t bi, uint32_t key, uint32_t out, sim_time now)
{
    const bport_run *in = &n->bp[bi];
    const br_run *b = &n->br[in->bridge];
    /* A copy may begin its transmission at once, which takes a record
     * (key_new moves the records): the frame is read once, here. */
    const carried *c = rec(n, key);
    /* what each output port's queue keeps of the copy (on_port_event) */
    n->pending = (port_copy){.entered = now, .flooded = out == NONE,
                             .sent_attempt = c->from_port ? c->sent_attempt : c->attempt,
                             .sent_backoff = c->from_port ? c->sent_backoff : c->backoff_slots,
                             .sent_at = c->from_port ? c->sent_at : c->start};
    const frame f = c->f;
    const uint64_t trace_id = c->trace_id;
    const uint32_t attempt = c->attempt;
    /* the known port alone, else every port but the one it came in by */
    uint32_t k = out == NONE ? 0 : out, last = out == NONE ? b->n : out + 1;
    for (; k < last; k++) {
        if (k == in->port)
            continue;
        const bport_run *q = &n->bp[b->first + k];
        if (!mac_forward(n->seg[q->seg].mac, q->tap, &f, now) &&
            copy_on_path(n, &f, in->bridge, n->seg[q->seg].domain, false))
            verdict_final(n, &f, trace_id, attempt, false, now, now);
    }
    key_release(n, key);
}

/* A bridge port's own trace events (mac.h, on_port_event). */
void bport_event(void *ctx, const trace_event *ev)
{
    segnet *n = ((seg_run *)ctx)->net;
    uint32_t id = ev->station - n->n_all, br = id >> 8;
    uint32_t bi = n->br[br].first + (id & 0xff);
    bport_run *p = &n->bp[bi];
    bridge *b = n->br[br].b;
    switch (ev->kind) {
    case TRACE_ARRIVAL:
        bridge_queued(b, p->port);
        port_copy_push(n, p, &n->pending);
        break;
    case TRACE_DROP:
        bridge_dropped(b, p->port);
        port_trace(n, p, ev, TRACE_BRIDGE_DROP, &n->pending);
        break;
    case TRACE_TX_START:
        p->late = false;
        if (ev->tx_kind == TRACE_TX_FRAME)
            port_trace(n, p, ev, TRACE_BRIDGE_TX_START, port_copy_head(p));
        break;
    case TRACE_COLLISION:
        p->late = p->late || ev->late;
        break;
    case TRACE_TX_END:
        if (ev->tx_kind == TRACE_TX_FRAME)
            port_trace(n, p, ev, TRACE_BRIDGE_TX_END, port_copy_head(p));
        break;
    case TRACE_TX_OK:
        port_copy_done(b, p, ev->time, 1);
        break;
    case TRACE_ABORT: {
        port_trace(n, p, ev, TRACE_BRIDGE_ABORT, port_copy_head(p));
        port_copy_done(b, p, ev->time, 0);
        frame f = {.id = ev->frame_id, .queued_at = ev->queued_at, .bytes = ev->frame_bytes,
                   .dest = ev->dest == TRACE_NO_DEST ? FRAME_BROADCAST : ev->dest};
        if (copy_on_path(n, &f, p->bridge, n->seg[p->seg].domain, false))
            verdict_final(n, &f, ev->tx_id, ev->attempt, false, ev->time, ev->time);
        break;
    }
    default:
        break;
    }
}

/* The one sink of a segment with bridge ports: the ports' events to the
 * network, the stations' to the run's sinks (each the kinds it wants). */
void bport_filter_event(void *ctx, const trace_event *ev)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    if (ev->station >= n->n_all && ev->station != TRACE_NO_STATION) {
        bport_event(ctx, ev);
        return;
    }
    for (size_t i = 0; i < n->n_sinks; i++)
        if (run_sink_kinds(n, i) & TRACE_BIT(ev->kind))
            n->sinks[i].on_event(n->sinks[i].ctx, ev);
}

/* The same for a tally (trace.h): only the stations' come as tallies (a
 * port's events are whole, mac.c's wants_whole), and they go to the run's
 * sinks, which take tallies (segnet_start offers this only then). */
void bport_filter_tally(void *ctx, const trace_tally *t)
{
    segnet *n = ((seg_run *)ctx)->net;
    assert(t->station < n->n_all);
    for (size_t i = 0; i < n->n_sinks; i++)
        if (run_sink_kinds(n, i) & TRACE_BIT(t->kind))
            n->sinks[i].on_tally(n->sinks[i].ctx, t);
}

/* ---- building ----------------------------------------------------------- */

/* The bridges, their ports (taps after the repeaters' on each segment),
 * and the tree's distances between domains and bridges. */
int bport_create(segnet *n, const scenario *sc)
{
    const network *net = &sc->net;
    n->n_br = net->n_bridges;
    n->n_dom = net->n_domains ? net->n_domains : 1;
    for (uint32_t b = 0; b < n->n_br; b++)
        n->n_bp += net->bridges[b].n_ports;
    n->br = calloc(n->n_br ? n->n_br : 1, sizeof *n->br);
    n->bp = calloc(n->n_bp ? n->n_bp : 1, sizeof *n->bp);
    uint32_t nodes = n->n_dom + n->n_br;
    n->dist = malloc((size_t)nodes * nodes * sizeof *n->dist);
    n->dom_res = calloc(n->n_dom, sizeof *n->dom_res);
    n->dom_col_at = calloc(n->n_dom, sizeof *n->dom_col_at);
    n->br_res = calloc(n->n_br ? n->n_br : 1, sizeof *n->br_res);
    n->bp_res = calloc(n->n_bp ? n->n_bp : 1, sizeof *n->bp_res);
    if (!n->br || !n->bp || !n->dist || !n->dom_res || !n->dom_col_at || !n->br_res || !n->bp_res)
        return -1;
    uint32_t k = 0;
    for (uint32_t b = 0; b < n->n_br; b++) {
        const net_bridge *nb = &net->bridges[b];
        br_run *r = &n->br[b];
        r->first = k;
        r->n = nb->n_ports;
        r->latency_ps = nb->latency_ps;
        r->mark = calloc(nb->n_ports, sizeof *r->mark);
        if (!r->mark || bridge_create(nb->n_ports, n->n_all, nb->ageing_ps, &r->b) != 0)
            return -1;
        for (uint32_t p = 0; p < nb->n_ports; p++, k++) {
            uint32_t s = nb->ports[p].segment;
            n->bp[k] = (bport_run){.bridge = b, .port = p, .seg = s, .tap = n->seg[s].n_taps++};
        }
        n->br_res[b] = (bridge_result){.name = nb->name, .n_ports = nb->n_ports,
                                       .ports = &n->bp_res[r->first]};
        for (uint32_t p = 0; p < nb->n_ports; p++)
            n->bp_res[r->first + p].name = net->segments[nb->ports[p].segment].name;
    }
    /* Distances by breadth-first search from every node (a tree). */
    uint32_t *queue = malloc(nodes * sizeof *queue);
    if (!queue)
        return -1;
    for (uint32_t from = 0; from < nodes; from++) {
        uint32_t *d = &n->dist[(size_t)from * nodes];
        for (uint32_t i = 0; i < nodes; i++)
            d[i] = NONE;
        uint32_t head = 0, tail = 0;
        d[from] = 0;
        queue[tail++] = from;
        while (head < tail) {
            uint32_t x = queue[head++];
            for (uint32_t b = 0; b < n->n_br; b++)
                for (uint32_t p = 0; p < n->br[b].n; p++) {
                    uint32_t dom = n->seg[n->bp[n->br[b].first + p].seg].domain;
                    uint32_t y = x < n->n_dom ? (dom == x ? n->n_dom + b : NONE)
                                              : (x == n->n_dom + b ? dom : NONE);
                    if (y != NONE && d[y] == NONE) {
                        d[y] = d[x] + 1;
                        queue[tail++] = y;
                    }
                }
        }
    }
    free(queue);
    for (uint32_t d = 0; d < n->n_dom; d++)
        n->dom_res[d].name = net->n_domains ? net->segments[net->domain_first[d]].name : "";
    for (uint32_t s = 0; s < n->n_seg; s++) {
        domain_result *x = &n->dom_res[n->seg[s].domain];
        x->segments++;
        x->stations += n->seg[s].n_st;
        x->full_duplex |= n->seg[s].fd;
    }
    return 0;
}

/* ---- measures ------------------------------------------------------------ */

void bport_mark(segnet *n)
{
    for (uint32_t b = 0; b < n->n_br; b++) {
        for (uint32_t p = 0; p < n->br[b].n; p++) {
            n->br[b].mark[p] = *bridge_counters(n->br[b].b, p);
            bport_run *q = &n->bp[n->br[b].first + p];
            q->collisions_at = mac_station_counters(n->seg[q->seg].mac, q->tap)->collisions;
        }
        bridge_mark(n->br[b].b);
    }
}

void bport_results(segnet *n)
{
    for (uint32_t b = 0; b < n->n_br; b++) {
        for (uint32_t p = 0; p < n->br[b].n; p++) {
            const bridge_port_counters *c = bridge_counters(n->br[b].b, p), *m = &n->br[b].mark[p];
            bridge_port_result *x = &n->bp_res[n->br[b].first + p];
            const bport_run *q = &n->bp[n->br[b].first + p];
            uint64_t col_at = q->collisions_at;
            x->frames_received = c->frames_received - m->frames_received;
            x->frames_forwarded = c->frames_forwarded - m->frames_forwarded;
            x->frames_flooded = c->frames_flooded - m->frames_flooded;
            x->frames_filtered = c->frames_filtered - m->frames_filtered;
            x->frames_queued = c->frames_queued - m->frames_queued;
            x->frames_dropped = c->frames_dropped - m->frames_dropped;
            x->frames_sent = c->frames_sent - m->frames_sent;
            x->frames_lost = c->frames_lost - m->frames_lost;
            x->collisions = mac_station_counters(n->seg[q->seg].mac, q->tap)->collisions - col_at;
            uint64_t count;
            bridge_queue_delay(n->br[b].b, p, &count, &x->queue_delay_mean_us,
                               &x->queue_delay_p99_us);
        }
    }
}
