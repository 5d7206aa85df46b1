/* segments.c - a network of segments run as one collision domain; see
 * segments.h and stations/MODEL.md, "Networks of segments".
 *
 * The repeater (802.3 Clause 9, Clause 27): a port's input is every
 * signal present at its tap but the repeater's own output there. After
 * the inputs of an instant have changed, the repeater decides once (its
 * ends at one phase, its starts at a later one, so that touching signals
 * are not a collision):
 *   - idle, and one port active with one signal: repeat it to every other
 *     port;
 *   - a collision (two ports active, or two signals on one port, which
 *     the port's transceiver sees as a collision on its segment): jam
 *     every port, the active ones included;
 *   - jamming, and one port left active (with one signal or more: the
 *     other repeaters' jam there is the collision being handled, not a new
 *     one): jam every port but that one until it falls silent (Clause 9's
 *     ONE PORT LEFT);
 *   - nothing active: stop, every output lasting at least 96 bit times
 *     (a shorter fragment is extended).
 * What it decides at t happens at its ports at t + its delay.
 *
 * Event phases around the MAC's (mac.h): a signal's end reaches a port
 * (0) and the repeater decides on ends (1), both before any MAC event at
 * that instant, so a station there sees the relay gone (half-open
 * signals); a start reaches a port (11) and the repeater decides on
 * starts (12) after every MAC event, so a relay that begins at t and a
 * station that starts at t collide, as two stations do.
 */
#include "segments.h"

#include <assert.h>
#include <math.h>

#include "bridge.h"
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum { EV_IN_START = SEGNET_EV_FIRST, EV_IN_END, EV_DECIDE, EV_OUT, EV_VERDICT, EV_PORT_RX,
       EV_FORWARD };
enum { PH_IN_END = 0, PH_DECIDE_END = 1, PH_IN_START = 11, PH_DECIDE_START = 12 };
enum { OUT_NONE, OUT_FRAME, OUT_JAM };          /* what a port sends */
enum { ACT_FRAME, ACT_JAM, ACT_END };           /* what a decision asks of a port */
enum { R_IDLE, R_REPEAT, R_JAM };               /* the repeater */
enum { RELAY_NONE, RELAY_ON, RELAY_WHOLE, RELAY_CUT }; /* a frame's relay onto a segment */

/* The minimum a repeater's output lasts (Clause 9's fragment extension:
 * preamble and jam make at least 96 bits). */
#define MIN_OUTPUT_BITS 96

/* A frame on its way through the network: what a relay carries. */
typedef struct carried {
    frame f;
    uint32_t refs, next_free;
    uint32_t sender, attempt;
    uint64_t backoff_slots; /* drawn before the attempt (for the trace) */
    uint32_t seg, tap;    /* where it was sent */
    uint64_t tx_id;       /* its medium record there (held for the verdict) */
    uint64_t trace_id;    /* its number in the traces */
    sim_time start, end;  /* end SIM_TIME_NEVER while under way */
    bool whole;
    bool from_port;       /* sent by a bridge port: a copy of sender's frame */
    /* from_port: the frame as its sender sent it (the attempt that got
     * through, the backoff slots before it, when it began), which its
     * octets carry; a station's own: attempt, backoff_slots and start. */
    uint32_t sent_attempt;
    uint64_t sent_backoff;
    sim_time sent_at;
} carried;

typedef struct in_sig {
    uint32_t tap, key;
} in_sig;

typedef struct port_run {
    uint32_t rep, seg, tap;
    in_sig *in;           /* the signals present at it now */
    uint32_t n_in, cap_in;
    bool last_whole;      /* the input that ended last: a whole frame */
    uint32_t last_key;
    uint8_t out;          /* OUT_* */
    bool cut;             /* the output stopped being the frame it began as */
    bool out_whole;       /* read by the hook at the output's end */
    uint32_t key;         /* the frame the output carries, or NONE */
    uint32_t end_key;     /* ...of the output that ends (mac_relay_end reports
                             it by an event: the hook reads it then) */
    sim_time out_begin;
    uint64_t relay_tx;
    uint32_t end_gen;     /* stamps an extended end */
    uint64_t readable, collisions;
    sim_time left_at;     /* when the repeater last left it alone active
                             (one port left), -1: a jam decided since */
} port_run;

typedef struct rep_run {
    uint32_t first_port, n_ports;
    sim_time delay_ps;
    sim_time min_out_ps;  /* MIN_OUTPUT_BITS at its segments' rate */
    uint8_t state;        /* R_* */
    uint32_t src;         /* R_REPEAT: the port repeated; R_JAM: the one port left, or NONE */
    uint32_t key;         /* R_REPEAT: what it repeats */
    sim_time decide_at[2];/* a decision queued at this instant: on ends, on starts
                             (-1: none) */
    uint64_t transmit_collisions, jams_sent, fragments_extended;
} rep_run;

typedef struct seg_run {
    segnet *net;
    uint32_t index;
    medium *med;
    mac *mac;
    uint32_t n_taps, n_st;       /* taps: n_st stations, then ports */
    uint32_t rp_end;             /* repeaters' ports [n_st, rp_end), bridges' after */
    uint32_t *station_id;        /* per tap */
    uint32_t *tap_of;            /* per station of the run: its tap here, or NONE */
    uint32_t *port_of;           /* per port tap (tap - n_st): the port's index
                                    (a bridge port's: in segnet.bp) */
    uint32_t *tap_key;           /* per station tap: its last frame's record */
    uint32_t *none_of;           /* full duplex: every station NONE, for its MAC */
    uint32_t domain;
    const phy_params *phy;       /* its own (the network's segment's) */
    backoff_policy **policies;   /* its own PHY's policies, when its slot or limits differ
                                    from the scenario's: the classes', then its ports' */
    uint32_t n_policies;
    bool fd;                     /* a full-duplex link */
    uint64_t relayed, corrupted; /* counters since t = 0 */
    uint64_t relayed_at, corrupted_at, collisions_at; /* at the mark */
    uint64_t bits_whole, bits_whole_at; /* frame bits its stations and ports sent whole */
} seg_run;

/* A copy in a bridge port's output queue, for the traces: how it came,
 * and the frame as its sender sent it (trace.h, trace_bridge). */
typedef struct port_copy {
    sim_time entered, sent_at;
    uint64_t sent_backoff;
    uint32_t sent_attempt;
    bool flooded;
} port_copy;

/* A bridge port: a MAC station of its segment. */
typedef struct bport_run {
    uint32_t bridge, port, seg, tap;
    uint64_t collisions_at; /* its MAC's collisions at the mark */
    port_copy *q;           /* its queue's copies, first in, first out, as its MAC's */
    uint32_t q_head, q_len, q_cap;
    bool late;              /* its attempt under way had a late collision */
} bport_run;

typedef struct br_run {
    bridge *b;
    uint32_t first, n;   /* its ports in segnet.bp */
    sim_time latency_ps;
    bridge_port_counters *mark; /* per port, at the mark */
} br_run;

struct segnet {
    const scenario *sc;
    evq *q;
    uint32_t n_seg, n_rep, n_ports, n_all;
    seg_run *seg;
    rep_run *rep;
    port_run *port;
    uint32_t *seg_of_station;  /* per station */
    carried *c;                /* records, n_seg relay slots each below */
    uint64_t *relay_tx;
    uint8_t *relay_st;
    uint32_t c_cap, c_free;
    uint64_t trace_ids;
    sim_time diameter;
    segment_result *seg_res;
    repeater_result *rep_res;
    uint64_t *rep_mark;        /* per repeater: 5 counters at the mark */
    bool marked;               /* the window is open: no warm-up, or segnet_mark was called */
    mac_net_hooks hooks;
    /* Memory ran out mid-run: the engine's flag (segnet_macs.no_memory),
     * which every MAC of the network sets too; own_oom until then. */
    bool *no_memory;
    bool own_oom;
    mac *macs[NET_MAX_SEGMENTS]; /* segment s's MAC (seg[s].mac), for the engine */
    /* Bridges (stations/MODEL.md, "Bridges and switches"). */
    uint32_t n_br, n_bp, n_dom;
    br_run *br;
    bport_run *bp;
    uint32_t *dist;            /* tree distances: domains, then bridges */
    bool fd_any;
    backoff_policy *port_policy;
    const trace_sink *sinks;   /* the run's (segnet_macs), for filter_event */
    const uint32_t *sink_kinds;
    size_t n_sinks;
    uint32_t port_kinds;       /* the kinds filter_event asks for */
    uint32_t br_kinds;         /* the TRACE_BRIDGE_* kinds some sink wants */
    port_copy pending;         /* the copy on_forward hands to a port's MAC */
    domain_result *dom_res;
    bridge_result *br_res;
    bridge_port_result *bp_res;
    uint64_t *dom_col_at;
};

/* ---- plumbing ----------------------------------------------------------- */

static void push(segnet *n, sim_time t, uint16_t type, uint16_t phase, uint32_t target,
                 uint64_t arg)
{
    sim_event ev = {.time = t, .arg = arg, .target = target, .type = type, .phase = phase};
    if (evq_push(n->q, &ev) != 0)
        *n->no_memory = true;
}

static carried *rec(const segnet *n, uint32_t k)
{
    return &n->c[k];
}

static uint32_t key_new(segnet *n)
{
    if (n->c_free == NONE) {
        uint32_t cap = n->c_cap ? 2 * n->c_cap : 16;
        carried *c = realloc(n->c, cap * sizeof *c);
        if (c)
            n->c = c;
        uint64_t *tx = realloc(n->relay_tx, (size_t)cap * n->n_seg * sizeof *tx);
        if (tx)
            n->relay_tx = tx;
        uint8_t *st = realloc(n->relay_st, (size_t)cap * n->n_seg);
        if (st)
            n->relay_st = st;
        if (!c || !tx || !st) {
            *n->no_memory = true;
            return NONE;
        }
        for (uint32_t i = n->c_cap; i < cap; i++)
            n->c[i].next_free = i + 1 < cap ? i + 1 : NONE;
        n->c_free = n->c_cap;
        n->c_cap = cap;
    }
    uint32_t k = n->c_free;
    n->c_free = n->c[k].next_free;
    n->c[k] = (carried){.refs = 1, .end = SIM_TIME_NEVER};
    if (n->n_rep) /* relays only with repeaters */
        memset(&n->relay_st[(size_t)k * n->n_seg], RELAY_NONE, n->n_seg);
    return k;
}

static void key_ref(segnet *n, uint32_t k)
{
    if (k != NONE)
        n->c[k].refs++;
}

/* Releases a relay held for a verdict that will not come (or has come). */
static void relay_release(segnet *n, uint32_t k, uint32_t s)
{
    size_t i = (size_t)k * n->n_seg + s;
    if (n->relay_st[i] != RELAY_NONE) {
        medium_release(n->seg[s].med, n->relay_tx[i]);
        n->relay_st[i] = RELAY_NONE;
    }
}

static void key_release(segnet *n, uint32_t k)
{
    if (k == NONE || --n->c[k].refs > 0)
        return;
    for (uint32_t s = 0; n->n_rep && s < n->n_seg; s++)
        relay_release(n, k, s);
    n->c[k].next_free = n->c_free;
    n->c_free = k;
}

/* ---- paths -------------------------------------------------------------- */

/* The delay from tap `tap` of segment s to tap `to_tap` of segment to,
 * along the tree of segments and repeaters, not back through repeater
 * `from`. False when the path does not lead there. */
static bool path_delay(const segnet *n, uint32_t s, uint32_t tap, uint32_t from, uint32_t to,
                       uint32_t to_tap, sim_time *d)
{
    const seg_run *g = &n->seg[s];
    if (s == to) {
        *d = medium_delay(g->med, tap, to_tap);
        return true;
    }
    for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
        const port_run *p = &n->port[g->port_of[pt - g->n_st]];
        const rep_run *r = &n->rep[p->rep];
        if (p->rep == from)
            continue;
        for (uint32_t qi = r->first_port; qi < r->first_port + r->n_ports; qi++) {
            const port_run *q = &n->port[qi];
            sim_time beyond;
            if (q == p || !path_delay(n, q->seg, q->tap, p->rep, to, to_tap, &beyond))
                continue;
            *d = medium_delay(g->med, tap, pt) + r->delay_ps + beyond;
            return true;
        }
    }
    return false;
}

/* The longest delay from tap `tap` of segment s to any station, not back
 * through repeater `from`. O(stations). */
static sim_time farthest(const segnet *n, uint32_t s, uint32_t tap, uint32_t from)
{
    const seg_run *g = &n->seg[s];
    sim_time best = 0;
    for (uint32_t j = 0; j < g->n_st; j++) {
        sim_time d = medium_delay(g->med, tap, j);
        if (d > best)
            best = d;
    }
    for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
        const port_run *p = &n->port[g->port_of[pt - g->n_st]];
        const rep_run *r = &n->rep[p->rep];
        if (p->rep == from)
            continue;
        for (uint32_t qi = r->first_port; qi < r->first_port + r->n_ports; qi++) {
            const port_run *q = &n->port[qi];
            if (q == p)
                continue;
            sim_time d = medium_delay(g->med, tap, pt) + r->delay_ps +
                         farthest(n, q->seg, q->tap, p->rep);
            if (d > best)
                best = d;
        }
    }
    return best;
}

/* ---- the hooks: what the segments' MACs tell the network ---------------- */

static void to_bridge_ports(segnet *n, seg_run *g, uint32_t tap, uint32_t key, uint64_t tx,
                            sim_time now);
static void port_copy_sent(const segnet *n, const bport_run *p, carried *c);

static void on_signal(void *ctx, uint32_t tap, sim_time now, bool begin, const frame *f,
                      uint32_t attempt, uint64_t backoff_slots, bool whole)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    uint32_t key;
    if (tap < g->n_st || tap >= g->rp_end) { /* a station, or a bridge's port */
        if (begin) {
            key_release(n, g->tap_key[tap]);
            key = NONE;
            if (f != NULL && (key = key_new(n)) != NONE) {
                carried *c = rec(n, key);
                c->f = *f;
                c->from_port = tap >= g->rp_end;
                c->sender = c->from_port ? (uint32_t)(f->id >> 40) : g->station_id[tap];
                c->attempt = attempt;
                c->backoff_slots = backoff_slots;
                c->seg = g->index;
                c->tap = tap;
                c->start = now;
                if (c->from_port) /* the copy at the head of its queue */
                    port_copy_sent(n, &n->bp[g->port_of[tap - g->n_st]], c);
            }
            g->tap_key[tap] = key;
        } else {
            key = g->tap_key[tap];
            if (key != NONE) {
                rec(n, key)->end = now;
                rec(n, key)->whole = whole;
                if (whole) {
                    g->bits_whole += 8ull * rec(n, key)->f.bytes;
                    rec(n, key)->tx_id = mac_tap_tx_id(g->mac, tap);
                    if (g->n_taps > g->rp_end)
                        to_bridge_ports(n, g, tap, key, rec(n, key)->tx_id, now);
                }
                if (!whole) { /* no verdict will come: only its signals keep it */
                    g->tap_key[tap] = NONE;
                    key_release(n, key);
                }
            }
        }
        if (g->rp_end == g->n_st)
            return; /* no repeater here */
    } else {
        port_run *p = &n->port[g->port_of[tap - g->n_st]];
        key = begin ? (p->out == OUT_FRAME ? p->key : NONE) : p->end_key;
        whole = p->out_whole;
        if (!begin)
            p->end_key = NONE; /* its reference goes to the ends pushed below */
        else
            key_ref(n, key);   /* balanced by the release below */
        if (!begin && whole && key != NONE && g->n_taps > g->rp_end) {
            g->bits_whole += 8ull * rec(n, key)->f.bytes;
            to_bridge_ports(n, g, tap, key, UINT64_MAX, now);
        }
        for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
            if (pt == tap)
                continue;
            key_ref(n, key);
            push(n, now + medium_delay(g->med, tap, pt), begin ? EV_IN_START : EV_IN_END,
                 begin ? PH_IN_START : PH_IN_END, g->port_of[pt - g->n_st],
                 (uint64_t)key << 32 | (uint64_t)tap << 1 | whole);
        }
        key_release(n, key);
        return;
    }
    for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
        if (pt == tap)
            continue;
        key_ref(n, key);
        push(n, now + medium_delay(g->med, tap, pt), begin ? EV_IN_START : EV_IN_END,
             begin ? PH_IN_START : PH_IN_END, g->port_of[pt - g->n_st],
             (uint64_t)key << 32 | (uint64_t)tap << 1 | whole);
    }
}

/* ---- bridges: where a frame's one path runs ------------------------------ */

static uint32_t domain_of_station(const segnet *n, uint32_t s)
{
    return n->seg[n->seg_of_station[s]].domain;
}

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

/* The frame's end-to-end verdict, on its sender's counters and traces. */
static void final_verdict(segnet *n, const frame *f, uint64_t trace_id, uint32_t attempt, bool ok,
                          sim_time rx_start, sim_time now)
{
    uint32_t sender = (uint32_t)(f->id >> 40), tap;
    mac *m = segnet_mac_of(n, sender, &tap);
    mac_bridged_verdict(m, tap, trace_id, f, attempt, ok, rx_start, now);
}

/* A whole frame ends at tap: each bridge port on the segment judges its
 * reception when the last bit reaches it (promiscuous: every frame). tx:
 * the sender's record here (held for it), UINT64_MAX for a relay (its
 * record is held while the frame's record lives). */
static void to_bridge_ports(segnet *n, seg_run *g, uint32_t tap, uint32_t key, uint64_t tx,
                            sim_time now)
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

static void on_forward(segnet *n, uint32_t bi, uint32_t key, uint32_t out, sim_time now);

/* ---- bridges' traces (TRACE_BRIDGE_*) ------------------------------------ */

/* Hands a bridge's event to every sink that wants its kind. */
static void bridge_emit(const segnet *n, trace_event *ev, const trace_bridge *info)
{
    ev->bridge = info;
    for (size_t i = 0; i < n->n_sinks; i++)
        if (!n->sink_kinds || (n->sink_kinds[i] & TRACE_BIT(ev->kind)))
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
        port_copy *q = malloc(cap * sizeof *q);
        if (!q) {
            *n->no_memory = true;
            return;
        }
        for (uint32_t i = 0; i < p->q_len; i++)
            q[i] = p->q[(p->q_head + i) % p->q_cap];
        free(p->q);
        p->q = q;
        p->q_cap = cap;
        p->q_head = 0;
    }
    uint32_t tail = p->q_head + p->q_len; /* < 2 q_cap */
    p->q[tail < p->q_cap ? tail : tail - p->q_cap] = *c;
    p->q_len++;
}

/* The copy the port sends now (the head of its queue). */
static const port_copy *port_copy_head(const bport_run *p)
{
    static const port_copy none = {.entered = SIM_TIME_NEVER, .sent_at = SIM_TIME_NEVER};
    return p->q_len ? &p->q[p->q_head] : &none;
}

static void port_copy_pop(bport_run *p)
{
    if (p->q_len == 0)
        return;
    if (++p->q_head == p->q_cap)
        p->q_head = 0;
    p->q_len--;
}

/* A port begins sending: what its frame's octets carry. */
static void port_copy_sent(const segnet *n, const bport_run *p, carried *c)
{
    (void)n;
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
static void on_port_rx(segnet *n, uint32_t bi, uint32_t key, bool own, sim_time now)
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
            final_verdict(n, &c->f, c->trace_id, c->attempt, false, now, now);
        key_release(n, key);
        return;
    }
    /* store and forward: it leaves after its last bit, and the latency
     * (none: at once) */
    if (b->latency_ps == 0)
        on_forward(n, bi, key, a == BRIDGE_FORWARD ? out : NONE, now); /* releases key */
    else
        push(n, now + b->latency_ps, EV_FORWARD, MAC_PHASE_READY, bi,
             (uint64_t)key << 32 | (a == BRIDGE_FORWARD ? out : NONE)); /* the reference moves */
}

/* The bridge hands the frame to its output port(s) (out NONE: flood). */
static void on_forward(segnet *n, uint32_t bi, uint32_t key, uint32_t out, sim_time now)
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
            final_verdict(n, &f, trace_id, attempt, false, now, now);
    }
    key_release(n, key);
}

/* A bridge port's own trace events (mac.h, on_port_event). */
static void on_port_event(void *ctx, const trace_event *ev)
{
    segnet *n = ((seg_run *)ctx)->net;
    uint32_t id = ev->station - n->n_all, br = id >> 8;
    uint32_t bi = n->br[br].first + (id & 0xff);
    bport_run *p = &n->bp[bi];
    bridge *b = n->br[br].b;
    switch (ev->kind) {
    case TRACE_ARRIVAL:
        bridge_queued(b, p->port, ev->time);
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
        bridge_done(b, p->port, ev->time, 1);
        port_copy_pop(p);
        break;
    case TRACE_ABORT: {
        port_trace(n, p, ev, TRACE_BRIDGE_ABORT, port_copy_head(p));
        port_copy_pop(p);
        bridge_done(b, p->port, ev->time, 0);
        frame f = {.id = ev->frame_id, .queued_at = ev->queued_at, .bytes = ev->frame_bytes,
                   .dest = ev->dest == TRACE_NO_DEST ? FRAME_BROADCAST : ev->dest};
        if (copy_on_path(n, &f, p->bridge, n->seg[p->seg].domain, false))
            final_verdict(n, &f, ev->tx_id, ev->attempt, false, ev->time, ev->time);
        break;
    }
    default:
        break;
    }
}

/* The one sink of a segment with bridge ports: the ports' events to the
 * network, the stations' to the run's sinks (each the kinds it wants). */
static void filter_event(void *ctx, const trace_event *ev)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    if (ev->station >= n->n_all && ev->station != TRACE_NO_STATION) {
        on_port_event(ctx, ev);
        return;
    }
    for (size_t i = 0; i < n->n_sinks; i++)
        if (!n->sink_kinds || (n->sink_kinds[i] & TRACE_BIT(ev->kind)))
            n->sinks[i].on_event(n->sinks[i].ctx, ev);
}

static void on_remote(void *ctx, uint32_t tap, uint64_t tx_id, uint64_t trace_id, const frame *f,
                      uint32_t attempt, sim_time now)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    (void)attempt;
    uint32_t key = g->tap_key[tap];
    if (key == NONE) { /* out of memory when it began */
        *n->no_memory = true;
        return;
    }
    g->tap_key[tap] = NONE; /* the verdict owns it now */
    rec(n, key)->tx_id = tx_id;
    rec(n, key)->trace_id = trace_id;
    bool everywhere = f->dest == FRAME_BROADCAST || f->dest >= n->n_all;
    if (n->n_br > 0 && (everywhere ? tap >= g->rp_end : domain_of_station(n, f->dest) != g->domain)) {
        /* Beyond a bridge (or a copy of a broadcast): no verdict here; the
         * bridge ports hold what they judge. */
        medium_release(g->med, tx_id);
        key_release(n, key);
        return;
    }
    sim_time tail;
    if (everywhere) {
        tail = farthest(n, g->index, tap, NONE);
    } else {
        uint32_t to = n->seg_of_station[f->dest];
        bool found = path_delay(n, g->index, tap, NONE, to, n->seg[to].tap_of[f->dest], &tail);
        assert(found);
        (void)found;
    }
    push(n, now + tail, EV_VERDICT, MAC_PHASE_DELIVER, key, 0);
}

/* ---- a port's output ---------------------------------------------------- */

/* An output event's argument: the frame (its reference travels with the
 * event), an extended end's stamp (24 bits), whole, the action. */
#define GEN_NONE 0xffffffu
static uint64_t out_arg(uint32_t key, uint32_t gen, bool whole, int act)
{
    return (uint64_t)key << 32 | (uint64_t)gen << 8 | (uint64_t)whole << 2 | (uint64_t)act;
}

static void bump(port_run *p)
{
    p->end_gen = (p->end_gen + 1) % GEN_NONE;
}

/* What the output of p carries, for the trace. */
static mac_carried carried_by(const segnet *n, const port_run *p)
{
    mac_carried w = {.f = NULL, .sent_at = SIM_TIME_NEVER};
    if (p->key != NONE) {
        const carried *c = rec(n, p->key);
        w = (mac_carried){.f = &c->f, .sender = c->sender, .attempt = c->attempt,
                          .backoff_slots = c->backoff_slots, .sent_at = c->start};
        if (c->from_port) { /* a bridge's copy: the frame as its sender sent it */
            w.attempt = c->sent_attempt;
            w.backoff_slots = c->sent_backoff;
            w.sent_at = c->sent_at;
        }
    }
    return w;
}

static void out_begin(segnet *n, port_run *p, uint8_t out, uint32_t key, sim_time u)
{
    seg_run *g = &n->seg[p->seg];
    p->out = out;
    p->key = key;
    key_ref(n, key);
    p->cut = false;
    p->out_whole = false;
    p->out_begin = u;
    /* The relay a verdict will read is held: onto the receiver's segment
     * (every segment, for a broadcast), unless the frame has already
     * failed. */
    bool hold = false;
    size_t i = (size_t)key * n->n_seg + p->seg;
    if (key != NONE) {
        const carried *c = rec(n, key);
        bool everywhere = c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all;
        hold = (everywhere || n->seg_of_station[c->f.dest] == p->seg ||
                g->n_taps > g->rp_end) &&
               (c->end == SIM_TIME_NEVER || c->whole) && n->relay_st[i] == RELAY_NONE;
    }
    mac_carried what = carried_by(n, p);
    p->relay_tx = mac_relay_begin(g->mac, p->tap, u, hold, &what);
    if (hold && p->relay_tx != UINT64_MAX) {
        n->relay_tx[i] = p->relay_tx;
        n->relay_st[i] = RELAY_ON;
    }
}

static void out_end(segnet *n, port_run *p, bool whole, sim_time u)
{
    seg_run *g = &n->seg[p->seg];
    sim_time min_out_ps = n->rep[p->rep].min_out_ps;
    if (u < p->out_begin + min_out_ps) { /* a fragment: extended with jam */
        p->cut = true;
        bump(p);
        if (p->relay_tx != UINT64_MAX) {
            mac_carried what = carried_by(n, p);
            mac_relay_jam(g->mac, p->tap, u, &what);
        }
        n->rep[p->rep].fragments_extended++;
        push(n, p->out_begin + min_out_ps, EV_OUT, PH_DECIDE_END, (uint32_t)(p - n->port),
             out_arg(NONE, p->end_gen, false, ACT_END));
        return;
    }
    p->out_whole = whole && p->out == OUT_FRAME && !p->cut && p->key != NONE;
    if (p->key != NONE) {
        size_t i = (size_t)p->key * n->n_seg + p->seg;
        if (n->relay_st[i] == RELAY_ON && n->relay_tx[i] == p->relay_tx)
            n->relay_st[i] = p->out_whole ? RELAY_WHOLE : RELAY_CUT;
    }
    if (p->out_whole)
        g->relayed++;
    mac_carried what = carried_by(n, p);
    p->end_key = p->out == OUT_FRAME ? p->key : NONE; /* the reference moves there */
    if (p->out != OUT_FRAME)
        key_release(n, p->key);
    mac_relay_end(g->mac, p->tap, u, &what, p->out_whole);
    p->out = OUT_NONE;
    p->key = NONE;
}

/* Carries out at u what the repeater decided for port p. `gen`: for an
 * end, the stamp of an extended end (GEN_NONE: a decision's own). */
static void apply(segnet *n, port_run *p, int act, uint32_t key, bool whole, uint32_t gen,
                  sim_time u)
{
    rep_run *r = &n->rep[p->rep];
    switch (act) {
    case ACT_FRAME:
        if (p->out == OUT_NONE) {
            out_begin(n, p, OUT_FRAME, key, u);
        } else { /* the extension of a fragment still runs: the two merge */
            bump(p);
            p->cut = true;
        }
        break;
    case ACT_JAM:
        /* Jam decided, then at the same instant this port left alone
         * active (a collision of two signals on it, then no other port
         * active): the end that decision sent came first at u (ends
         * before starts), so the jam is not begun, rather than run for
         * good (the port left is never ended again). */
        if (r->delay_ps > 0 && p->left_at == u - r->delay_ps)
            break;
        r->jams_sent++;
        if (p->out == OUT_NONE) {
            out_begin(n, p, OUT_JAM, NONE, u);
        } else {
            bump(p);
            p->cut = true;
            p->out = OUT_JAM;
        }
        if (p->relay_tx != UINT64_MAX) { /* the trace says so (TRACE_RELAY_JAM) */
            mac_carried what = carried_by(n, p);
            mac_relay_jam(n->seg[p->seg].mac, p->tap, u, &what);
        }
        break;
    case ACT_END:
        if (p->out == OUT_NONE || (gen != GEN_NONE && gen != p->end_gen))
            break;
        out_end(n, p, whole, u);
        break;
    }
}

/* A decision taken at t for port p: at once when the repeater has no
 * delay of its own (a hub's uplink), else its delay later. */
static void decide_port(segnet *n, const rep_run *r, uint32_t pi, int act, uint32_t key,
                        bool whole, sim_time t)
{
    if (r->delay_ps == 0) {
        apply(n, &n->port[pi], act, key, whole, GEN_NONE, t);
        return;
    }
    key_ref(n, key);
    push(n, t + r->delay_ps, EV_OUT, act == ACT_END ? PH_DECIDE_END : PH_DECIDE_START, pi,
         out_arg(key, GEN_NONE, whole, act));
}

/* ---- the repeater ------------------------------------------------------- */

static void decide(segnet *n, uint32_t ri, sim_time t, bool starts)
{
    rep_run *r = &n->rep[ri];
    r->decide_at[starts] = -1; /* a change after this one asks again */
    uint32_t active = 0, one = NONE;
    bool multi = false;
    for (uint32_t pi = r->first_port; pi < r->first_port + r->n_ports; pi++) {
        const port_run *p = &n->port[pi];
        if (p->n_in) {
            active++;
            one = pi;
            multi |= p->n_in > 1; /* two signals on its segment */
        }
    }
    /* While it jams, two signals on the one port still active are no new
     * collision: they are the jam of the other repeaters on that segment
     * (each jams every port), or a collision the segment's own stations
     * see. Counting them would keep three repeaters on one segment
     * jamming each other for good; so only two active ports keep it
     * jamming every port. */
    bool collision = active > 1 || (multi && r->state != R_JAM);
    uint32_t end = r->first_port + r->n_ports;
    if (collision) {
        if (r->state != R_JAM) {
            r->transmit_collisions++;
            for (uint32_t pi = r->first_port; pi < end; pi++) {
                n->port[pi].left_at = -1;
                decide_port(n, r, pi, ACT_JAM, NONE, false, t);
            }
        } else if (r->src != NONE) { /* another port is active again: jam the one left too */
            n->port[r->src].left_at = -1;
            decide_port(n, r, r->src, ACT_JAM, NONE, false, t);
        }
        r->state = R_JAM;
        r->src = NONE;
        for (uint32_t pi = r->first_port; pi < end; pi++)
            if (n->port[pi].n_in)
                n->port[pi].collisions++;
        return;
    }
    switch (r->state) {
    case R_IDLE:
        if (active == 1) {
            r->state = R_REPEAT;
            r->src = one;
            r->key = n->port[one].in[0].key;
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != one)
                    decide_port(n, r, pi, ACT_FRAME, r->key, false, t);
        }
        break;
    case R_REPEAT:
        if (active == 0) {
            const port_run *src = &n->port[r->src];
            bool whole = src->last_whole && src->last_key == r->key;
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != r->src)
                    decide_port(n, r, pi, ACT_END, NONE, whole, t);
            r->state = R_IDLE;
            r->src = NONE;
        }
        break;
    case R_JAM:
        if (active == 0) {
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != r->src)
                    decide_port(n, r, pi, ACT_END, NONE, false, t);
            r->state = R_IDLE;
            r->src = NONE;
        } else if (r->src == NONE) { /* one port left: stop jamming it */
            r->src = one;
            n->port[one].left_at = t;
            decide_port(n, r, one, ACT_END, NONE, false, t);
        }
        break;
    }
}

/* Queues the repeater's decision at t after the inputs of this phase
 * (once, however many inputs change before it; a change that comes after
 * it at the same instant, from a tap at the port's own place, queues
 * another). */
static void want_decision(segnet *n, uint32_t ri, sim_time t, bool starts)
{
    rep_run *r = &n->rep[ri];
    if (r->decide_at[starts] == t)
        return;
    r->decide_at[starts] = t;
    push(n, t, EV_DECIDE, starts ? PH_DECIDE_START : PH_DECIDE_END, ri, starts);
}

static void on_input(segnet *n, const sim_event *ev, bool begin)
{
    port_run *p = &n->port[ev->target];
    uint32_t key = (uint32_t)(ev->arg >> 32);
    uint32_t tap = (uint32_t)(ev->arg >> 1) & 0x7fffffffu;
    bool whole = ev->arg & 1;
    if (begin) {
        if (p->n_in == p->cap_in) {
            uint32_t cap = p->cap_in ? 2 * p->cap_in : 4;
            in_sig *in = realloc(p->in, cap * sizeof *in);
            if (!in) {
                *n->no_memory = true;
                return;
            }
            p->in = in;
            p->cap_in = cap;
        }
        p->in[p->n_in++] = (in_sig){tap, key}; /* the event's reference moves here */
    } else {
        uint32_t i = 0;
        while (i < p->n_in && p->in[i].tap != tap)
            i++;
        assert(i < p->n_in);
        key_release(n, p->in[i].key);
        p->in[i] = p->in[--p->n_in];
        p->last_whole = whole;
        p->last_key = key;
        if (whole && key != NONE)
            p->readable++;
        key_release(n, key);
    }
    want_decision(n, p->rep, ev->time, begin);
}

/* ---- verdicts ----------------------------------------------------------- */

/* Whether the frame's relay onto segment s was whole and reached every
 * station `only` (or every station of s but its sender, for NONE) with
 * nothing overlapping it. */
static bool received_on(segnet *n, uint32_t key, uint32_t s, uint32_t only)
{
    const carried *c = rec(n, key);
    const seg_run *g = &n->seg[s];
    uint64_t tx = c->tx_id;
    if (s != c->seg) {
        size_t i = (size_t)key * n->n_seg + s;
        if (n->relay_st[i] != RELAY_WHOLE)
            return false;
        tx = n->relay_tx[i];
    }
    if (g->fd)
        return true; /* full duplex: nothing shares its direction */
    if (only != NONE)
        return !medium_overlapped_at(g->med, tx, only);
    for (uint32_t j = 0; j < g->n_st; j++)
        if (!(s == c->seg && j == c->tap) && medium_overlapped_at(g->med, tx, j))
            return false;
    return true;
}

static void on_verdict(segnet *n, uint32_t key, sim_time now)
{
    carried *c = rec(n, key);
    bool ok;
    if (c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all) {
        ok = true;
        for (uint32_t s = 0; s < n->n_seg; s++) {
            if (n->seg[s].domain != n->seg[c->seg].domain)
                continue; /* a bridge's copies are not judged */
            if (!received_on(n, key, s, NONE)) {
                ok = false;
                if (s != c->seg)
                    n->seg[s].corrupted++;
            }
        }
    } else {
        uint32_t s = n->seg_of_station[c->f.dest];
        ok = received_on(n, key, s, n->seg[s].tap_of[c->f.dest]);
        if (!ok)
            n->seg[s].corrupted++;
    }
    for (uint32_t s = 0; n->n_rep && s < n->n_seg; s++)
        relay_release(n, key, s);
    if (c->from_port) { /* the last hop of a frame that crossed bridges */
        medium_release(n->seg[c->seg].med, c->tx_id);
        final_verdict(n, &c->f, c->trace_id, c->attempt, ok, c->start + (now - c->end), now);
    } else {
        mac_remote_verdict(n->seg[c->seg].mac, c->tap, c->tx_id, c->trace_id, &c->f, c->attempt,
                           ok, c->start + (now - c->end), now);
    }
    key_release(n, key);
}

mac *const *segnet_macs_by_segment(const segnet *n)
{
    return n->macs;
}

void segnet_handle(segnet *n, const sim_event *ev)
{
    switch (ev->type) {
    case EV_IN_START:
        on_input(n, ev, true);
        break;
    case EV_IN_END:
        on_input(n, ev, false);
        break;
    case EV_DECIDE:
        decide(n, ev->target, ev->time, ev->arg != 0);
        break;
    case EV_OUT: {
        uint32_t key = (uint32_t)(ev->arg >> 32);
        int act = (int)(ev->arg & 3);
        bool whole = (ev->arg >> 2) & 1;
        uint32_t gen = (uint32_t)(ev->arg >> 8) & GEN_NONE;
        apply(n, &n->port[ev->target], act, key, whole, gen, ev->time);
        key_release(n, key);
        break;
    }
    case EV_VERDICT:
        on_verdict(n, ev->target, ev->time);
        break;
    case EV_PORT_RX:
        on_port_rx(n, ev->target, (uint32_t)(ev->arg >> 32), ev->arg & 1, ev->time);
        break;
    case EV_FORWARD:
        on_forward(n, ev->target, (uint32_t)(ev->arg >> 32), (uint32_t)ev->arg, ev->time);
        break;
    default:
        assert(!"not a network event");
    }
}

/* ---- building ----------------------------------------------------------- */

/* The bridges, their ports (taps after the repeaters' on each segment),
 * and the tree's distances between domains and bridges. */
static int bridges_create(segnet *n, const scenario *sc)
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

/* Segment s's PHY: its own, as scenario_finish resolved it (a network
 * filled by hand, unresolved, runs at the scenario's). */
static const phy_params *seg_phy(const scenario *sc, uint32_t s)
{
    const phy_params *p = &sc->net.segments[s].phy;
    return p->rate_bps ? p : &sc->phy;
}

int segnet_create(const scenario *sc, segnet **out)
{
    const network *net = &sc->net;
    segnet *n = calloc(1, sizeof *n);
    if (!n)
        return -1;
    *out = n;
    n->no_memory = &n->own_oom;
    n->sc = sc;
    n->marked = sc->warmup <= 0; /* no warm-up: the window opens at 0 (the marks are 0) */
    n->n_seg = net->n_segments;
    n->n_rep = net->n_repeaters;
    n->n_all = sc->n_stations;
    n->c_free = NONE;
    for (uint32_t r = 0; r < n->n_rep; r++)
        n->n_ports += net->repeaters[r].n_ports;
    n->seg = calloc(n->n_seg, sizeof *n->seg);
    n->rep = calloc(n->n_rep ? n->n_rep : 1, sizeof *n->rep);
    n->port = calloc(n->n_ports ? n->n_ports : 1, sizeof *n->port);
    n->seg_of_station = malloc((n->n_all ? n->n_all : 1) * sizeof *n->seg_of_station);
    n->seg_res = calloc(n->n_seg, sizeof *n->seg_res);
    n->rep_res = calloc(n->n_rep ? n->n_rep : 1, sizeof *n->rep_res);
    n->rep_mark = calloc(5 * (size_t)(n->n_rep ? n->n_rep : 1), sizeof *n->rep_mark);
    if (!n->seg || !n->rep || !n->port || !n->seg_of_station || !n->seg_res || !n->rep_res ||
        !n->rep_mark)
        return -1;
    /* Stations on each segment in the order of their numbers, then the
     * ports of the repeaters in the order of the repeaters. */
    for (uint32_t i = 0; i < n->n_all; i++) {
        uint32_t s = scenario_station_segment(sc, i);
        n->seg_of_station[i] = s;
        n->seg[s].n_st++;
    }
    for (uint32_t s = 0; s < n->n_seg; s++) {
        n->seg[s].n_taps = n->seg[s].n_st;
        n->seg[s].domain = net->segments[s].domain;
        n->seg[s].fd = net->segments[s].full_duplex;
        n->seg[s].phy = seg_phy(sc, s);
        n->fd_any |= n->seg[s].fd;
    }
    uint32_t pi = 0;
    for (uint32_t r = 0; r < n->n_rep; r++) {
        const net_repeater *nr = &net->repeaters[r];
        /* its bit time: its segments' (one rate, network.c) */
        sim_time bit_ps = phy_bit_ps(seg_phy(sc, nr->ports[0].segment));
        n->rep[r] = (rep_run){.first_port = pi, .n_ports = nr->n_ports,
                              .delay_ps = (sim_time)nr->delay_bits * bit_ps,
                              .min_out_ps = MIN_OUTPUT_BITS * bit_ps, .src = NONE,
                              .decide_at = {-1, -1}};
        for (uint32_t k = 0; k < nr->n_ports; k++, pi++) {
            uint32_t s = nr->ports[k].segment;
            n->port[pi] = (port_run){.rep = r, .seg = s, .tap = n->seg[s].n_taps++,
                                     .key = NONE, .last_key = NONE, .end_key = NONE,
                                     .left_at = -1};
        }
    }
    for (uint32_t s = 0; s < n->n_seg; s++)
        n->seg[s].rp_end = n->seg[s].n_taps;
    if (bridges_create(n, sc) != 0)
        return -1;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        const net_segment *ns = &net->segments[s];
        g->net = n;
        g->index = s;
        uint32_t nt = g->n_taps ? g->n_taps : 1;
        g->station_id = malloc(nt * sizeof *g->station_id);
        g->tap_of = malloc((n->n_all ? n->n_all : 1) * sizeof *g->tap_of);
        g->port_of = malloc(nt * sizeof *g->port_of);
        g->tap_key = malloc(nt * sizeof *g->tap_key);
        sim_time *pos = malloc(nt * sizeof *pos);
        if (!g->station_id || !g->tap_of || !g->port_of || !g->tap_key || !pos) {
            free(pos);
            return -1;
        }
        const phy_timing t = phy_timing_of(g->phy); /* the segment's own */
        phy_params cable = *g->phy; /* the segment's own cable */
        cable.velocity_c = ns->velocity_c;
        uint32_t tap = 0;
        for (uint32_t i = 0; i < n->n_all; i++) {
            g->tap_of[i] = NONE;
            if (n->seg_of_station[i] == s) {
                g->tap_of[i] = tap;
                g->station_id[tap] = i;
                g->tap_key[tap] = NONE;
                pos[tap++] = phy_cable_ps(&cable, scenario_station_metres(sc, i));
            }
        }
        for (uint32_t p = 0; p < n->n_ports; p++) {
            if (n->port[p].seg != s)
                continue;
            const net_repeater *nr = &net->repeaters[n->port[p].rep];
            const net_port *np = &nr->ports[p - n->rep[n->port[p].rep].first_port];
            g->station_id[n->port[p].tap] = MAC_NO_STATION;
            g->port_of[n->port[p].tap - g->n_st] = p;
            pos[n->port[p].tap] = phy_cable_ps(&cable, np->metres);
        }
        for (uint32_t p = 0; p < n->n_bp; p++) {
            const bport_run *b = &n->bp[p];
            if (b->seg != s)
                continue;
            g->station_id[b->tap] = n->n_all + MAC_BRIDGE_PORT(b->bridge, b->port);
            g->port_of[b->tap - g->n_st] = p;
            g->tap_key[b->tap] = NONE;
            pos[b->tap] = phy_cable_ps(&cable, net->bridges[b->bridge].ports[b->port].metres);
        }
        if (g->fd) {
            g->none_of = malloc((n->n_all ? n->n_all : 1) * sizeof *g->none_of);
            if (!g->none_of) {
                free(pos);
                return -1;
            }
            for (uint32_t i = 0; i < n->n_all; i++)
                g->none_of[i] = NONE;
        }
        medium_config mc = {
            .n_stations = g->n_taps,
            .topology = ns->type == NET_SEG_HUB ? TOPOLOGY_STAR : TOPOLOGY_BUS, /* a link: a bus */
            .pos_ps = pos,
            .hub_ps = ns->type == NET_SEG_HUB ? (sim_time)ns->hub_bits * t.bit_ps : 0,
            .probe_pos_ps = phy_cable_ps(&cable, ns->probe_m),
            /* (full duplex: nothing defers, so a signal matters only
             * while it is on the wire) */
            .retain_ps = g->fd ? 0 : t.ifg_ps,
            .chain_ps = g->fd ? 0 : t.ifg_part1_ps,
            .chain_cap_ps = g->fd ? 0 : 8 * t.slot_ps,
            .fault_start_ps = sc->outage_start,
            .fault_end_ps = sc->outage_start + sc->outage_duration,
        };
        int rc = medium_create(&mc, &g->med);
        free(pos);
        if (rc != 0)
            return -1;
        n->seg_res[s].name = ns->name;
        n->seg_res[s].stations = g->n_st;
    }
    for (uint32_t r = 0; r < n->n_rep; r++) {
        n->rep_res[r].name = net->repeaters[r].name;
        n->rep_res[r].ports = net->repeaters[r].n_ports;
    }
    /* An upper bound of the longest path: every segment crossed end to
     * end, and every repeater (a bound is all engine_judge_ps needs). */
    for (uint32_t s = 0; s < n->n_seg; s++)
        n->diameter += medium_max_delay(n->seg[s].med);
    for (uint32_t r = 0; r < n->n_rep; r++)
        n->diameter += n->rep[r].delay_ps;
    return 0;
}

/* A segment whose PHY's slotTime or limits differ from the scenario's
 * (a segment's own `phy`) gets policies of its own, built from each
 * group's spec (class k is group k's, engine.c) and the ports' BEB with
 * its PHY: a station backs off in its own segment's slots. *own: the
 * classes with them (to free), or NULL when the run's serve. */
static int own_policies(segnet *n, seg_run *g, const mac_class *classes, uint32_t n_cls,
                        uint32_t nc, mac_class **own)
{
    const phy_params *run = &n->sc->phy, *phy = g->phy;
    backoff_env env = {.slot_ps = phy_timing_of(phy).slot_ps,
                       .attempt_limit = phy->attempt_limit,
                       .backoff_limit = phy->backoff_limit,
                       .n_stations = n->n_all};
    *own = NULL;
    if (env.slot_ps == phy_timing_of(run).slot_ps && phy->attempt_limit == run->attempt_limit &&
        phy->backoff_limit == run->backoff_limit)
        return 0;
    mac_class *c = malloc(n_cls * sizeof *c);
    g->policies = calloc(nc + 1, sizeof *g->policies);
    if (!c || !g->policies) {
        free(c);
        return -1;
    }
    g->n_policies = nc + 1;
    memcpy(c, classes, n_cls * sizeof *c);
    char e[200];
    for (uint32_t k = 0; k < nc; k++) {
        if (backoff_policy_build(&scenario_group_at(n->sc, k)->policy_spec, &env,
                                 &g->policies[k], e, sizeof e) != 0) {
            free(c);
            return -1;
        }
        c[k].policy = c[nc + k].policy = g->policies[k];
    }
    if (n->n_br > 0) {
        if (backoff_policy_create("beb", &env, &g->policies[nc], e, sizeof e) != 0) {
            free(c);
            return -1;
        }
        for (uint32_t b = 0; b < n->n_br; b++)
            c[2 * nc + 2 * b].policy = c[2 * nc + 2 * b + 1].policy = g->policies[nc];
    }
    *own = c;
    return 0;
}

int segnet_start(segnet *n, const segnet_macs *cfg)
{
    if (cfg->no_memory) {
        *cfg->no_memory |= *n->no_memory;
        n->no_memory = cfg->no_memory;
    }
    n->q = cfg->queue;
    n->hooks = (mac_net_hooks){.on_signal = on_signal, .on_remote = on_remote,
                               .on_port_event = n->n_br ? on_port_event : NULL};
    n->sinks = cfg->sinks;
    n->sink_kinds = cfg->sink_kinds;
    n->n_sinks = cfg->n_sinks;
    n->port_kinds = TRACE_BIT(TRACE_ARRIVAL) | TRACE_BIT(TRACE_DROP) | TRACE_BIT(TRACE_TX_OK) |
                    TRACE_BIT(TRACE_ABORT);
    for (size_t i = 0; i < cfg->n_sinks; i++)
        n->port_kinds |= cfg->sink_kinds ? cfg->sink_kinds[i] : TRACE_ALL;
    /* A bridge's events are told only on a network with bridges, to the
     * sinks that want them; the ports' transmissions are read from their
     * MACs' own events. */
    uint32_t br_all = 0;
    for (int k = TRACE_BRIDGE_LEARN; k <= TRACE_BRIDGE_ABORT; k++)
        br_all |= TRACE_BIT(k);
    n->br_kinds = n->n_br ? n->port_kinds & br_all : 0;
    if (n->br_kinds & (TRACE_BIT(TRACE_BRIDGE_TX_START) | TRACE_BIT(TRACE_BRIDGE_TX_END)))
        n->port_kinds |= TRACE_BIT(TRACE_TX_START) | TRACE_BIT(TRACE_TX_END) |
                         TRACE_BIT(TRACE_COLLISION);
    /* The classes: the stations', the same in full duplex, then per bridge
     * its ports' (BEB, the bridge's queue), half and full duplex. */
    uint32_t nc = cfg->n_classes, n_cls = 2 * nc + 2 * n->n_br;
    mac_class *classes = calloc(n_cls, sizeof *classes);
    if (!classes)
        return -1;
    for (uint32_t k = 0; k < nc; k++) {
        classes[k] = cfg->classes[k];
        classes[nc + k] = cfg->classes[k];
        classes[nc + k].full_duplex = true;
    }
    if (n->n_br > 0) {
        const phy_params *phy = &n->sc->phy;
        backoff_env env = {.slot_ps = phy_timing_of(phy).slot_ps,
                           .attempt_limit = phy->attempt_limit,
                           .backoff_limit = phy->backoff_limit,
                           .n_stations = n->n_all};
        char e[200];
        if (backoff_policy_create("beb", &env, &n->port_policy, e, sizeof e) != 0) {
            free(classes);
            return -1;
        }
    }
    for (uint32_t b = 0; b < n->n_br; b++) {
        const net_bridge *nb = &n->sc->net.bridges[b];
        mac_class c = {.policy = n->port_policy, .queue_capacity = nb->queue};
        classes[2 * nc + 2 * b] = c;
        c.full_duplex = true;
        classes[2 * nc + 2 * b + 1] = c;
    }
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        mac_class *own = NULL; /* its classes, with its own PHY's policies */
        if (own_policies(n, g, classes, n_cls, nc, &own) != 0) {
            free(classes);
            return -1;
        }
        uint32_t *class_of = calloc(g->n_taps ? g->n_taps : 1, sizeof *class_of);
        if (!class_of) {
            free(own);
            free(classes);
            return -1;
        }
        for (uint32_t k = 0; k < g->n_st; k++)
            class_of[k] = (cfg->class_of ? cfg->class_of[g->station_id[k]] : 0) + (g->fd ? nc : 0);
        for (uint32_t k = g->rp_end; k < g->n_taps; k++)
            class_of[k] = 2 * nc + 2 * n->bp[g->port_of[k - g->n_st]].bridge + g->fd;
        mac_net_hooks hooks = n->hooks;
        hooks.ctx = g;
        trace_sink filter = {.on_event = filter_event, .ctx = g};
        mac_config mc = {
            .phy = g->phy, /* its segment's: its timing, fixed at creation */
            .n_stations = g->n_taps,
            .medium = g->med,
            .queue = cfg->queue,
            .seed = cfg->seed,
            .refill = cfg->refill,
            .refill_ctx = cfg->refill_ctx,
            .classes = own ? own : classes,
            .n_classes = n_cls,
            .class_of = class_of,
            .on_rx = cfg->on_rx,
            .rx_ctx = cfg->rx_ctx,
            .sinks = cfg->sinks,
            .sink_kinds = cfg->sink_kinds,
            .n_sinks = cfg->n_sinks,
            .station_id = g->station_id,
            /* full duplex: every frame judged by the network */
            .tap_of = g->fd ? g->none_of : g->tap_of,
            .n_all_stations = n->n_all,
            .no_memory = n->no_memory,
            .trace_ids = &n->trace_ids,
            .segment = s,
            /* A lone segment needs no network: its broadcasts are judged
             * as on one bus or star. */
            .net = n->n_seg > 1 || n->fd_any ? &hooks : NULL,
        };
        if (g->n_taps > g->rp_end) { /* bridge ports here */
            mc.sinks = &filter;
            mc.sink_kinds = &n->port_kinds;
            mc.n_sinks = 1;
        }
        int rc = mac_create(&mc, &g->mac);
        n->macs[s] = g->mac;
        free(class_of);
        free(own);
        if (rc != 0) {
            free(classes);
            return -1;
        }
    }
    free(classes);
    return 0;
}

void segnet_mac_start(segnet *n, sim_time t)
{
    for (uint32_t s = 0; s < n->n_seg; s++)
        mac_start(n->seg[s].mac, t);
}

void segnet_destroy(segnet *n)
{
    if (!n)
        return;
    for (uint32_t s = 0; n->seg && s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        mac_destroy(g->mac);
        medium_destroy(g->med);
        free(g->station_id);
        free(g->tap_of);
        free(g->port_of);
        free(g->tap_key);
        free(g->none_of);
        for (uint32_t k = 0; g->policies && k < g->n_policies; k++)
            backoff_policy_destroy(g->policies[k]);
        free(g->policies);
    }
    for (uint32_t b = 0; n->br && b < n->n_br; b++) {
        bridge_destroy(n->br[b].b);
        free(n->br[b].mark);
    }
    for (uint32_t p = 0; n->bp && p < n->n_bp; p++)
        free(n->bp[p].q);
    free(n->br);
    free(n->bp);
    free(n->dist);
    free(n->dom_res);
    free(n->dom_col_at);
    free(n->br_res);
    free(n->bp_res);
    backoff_policy_destroy(n->port_policy);
    for (uint32_t p = 0; n->port && p < n->n_ports; p++)
        free(n->port[p].in);
    free(n->seg);
    free(n->rep);
    free(n->port);
    free(n->seg_of_station);
    free(n->c);
    free(n->relay_tx);
    free(n->relay_st);
    free(n->seg_res);
    free(n->rep_res);
    free(n->rep_mark);
    free(n);
}

/* ---- queries ------------------------------------------------------------ */

mac *segnet_mac_of(segnet *n, uint32_t s, uint32_t *tap)
{
    const seg_run *g = &n->seg[n->seg_of_station[s]];
    *tap = g->tap_of[s];
    return g->mac;
}

sim_time segnet_station_delay(const segnet *n, uint32_t a, uint32_t b)
{
    uint32_t sa = n->seg_of_station[a], sb = n->seg_of_station[b];
    sim_time d = 0;
    bool found = path_delay(n, sa, n->seg[sa].tap_of[a], NONE, sb, n->seg[sb].tap_of[b], &d);
    assert(found); /* the network is connected (network.c refuses it else) */
    (void)found;
    return d;
}

uint32_t segnet_segment_count(const segnet *n) { return n->n_seg; }
const medium *segnet_medium(const segnet *n, uint32_t s) { return n->seg[s].med; }
sim_time segnet_max_delay(const segnet *n) { return n->diameter; }

uint32_t segnet_bridge_count(const segnet *n) { return n->n_br; }

uint32_t segnet_bridge_port_count(const segnet *n, uint32_t b)
{
    return b < n->n_br ? n->br[b].n : 0;
}

int segnet_bridge_port_now(const segnet *n, uint32_t b, uint32_t p, segnet_port_now *out)
{
    if (b >= n->n_br || p >= n->br[b].n || !n->seg[n->bp[n->br[b].first + p].seg].mac)
        return -1;
    const bport_run *q = &n->bp[n->br[b].first + p];
    const mac *m = n->seg[q->seg].mac;
    mac_station_view v;
    mac_view(m, q->tap, &v);
    *out = (segnet_port_now){.segment = q->seg,
                             .tap = q->tap,
                             .state = v.state,
                             .queue_len = mac_queue_len(m, q->tap),
                             .queue_cap = n->sc->net.bridges[b].queue};
    return 0;
}

sim_time segnet_longest_attempt_ps(const segnet *n)
{
    sim_time most = 0;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        const phy_params *phy = n->seg[s].phy;
        const phy_timing t = phy_timing_of(phy);
        uint64_t wire = phy_wire_bits(phy, 8ull * phy->max_frame_bytes, false);
        sim_time a = t.preamble_ps + (sim_time)wire * t.bit_ps + t.jam_ps;
        if (a > most)
            most = a;
    }
    return most;
}

/* The oldest transmission of a station on segment g still to be judged
 * (under way, or held for its verdict). Relays are left out: one held
 * for a verdict carries a frame whose sender's transmission is held
 * too, and a repeater cuts a relay to jam and jams as long as a port
 * stays active, which on an overloaded network can be longer than any
 * frame: the statistics must not wait for that (stats.h: E is at most
 * judge_ps behind). A bridge port's transmission counts like a
 * station's: the frame it forwards is judged where it arrives. */
static sim_time seg_unjudged_from(const seg_run *g)
{
    const medium *m = g->med;
    size_t n = medium_live_count(m);
    for (size_t k = 0; k < n; k++) {
        const medium_tx *t = medium_live_at(m, k);
        bool relay = t->station >= g->n_st && t->station < g->rp_end;
        if (!relay && (t->holds || t->end == SIM_TIME_NEVER))
            return t->start; /* records are in order of start */
    }
    return SIM_TIME_NEVER;
}

sim_time segnet_unjudged_from(const segnet *n)
{
    sim_time t = SIM_TIME_NEVER;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        sim_time u = seg_unjudged_from(&n->seg[s]);
        if (u < t)
            t = u;
    }
    return t;
}

size_t segnet_signal_count(const segnet *n)
{
    size_t c = 0;
    for (uint32_t s = 0; s < n->n_seg; s++)
        c += medium_signal_count(n->seg[s].med);
    return c;
}

uint64_t segnet_collision_events(segnet *n, sim_time now)
{
    uint64_t c = 0;
    for (uint32_t s = 0; s < n->n_seg; s++)
        if (!n->seg[s].fd) /* full duplex: two directions overlap, never collide */
            c += mac_collision_events(n->seg[s].mac, now);
    return c;
}

static void rep_counts(const segnet *n, uint32_t r, uint64_t out[5])
{
    const rep_run *x = &n->rep[r];
    out[0] = x->transmit_collisions;
    out[1] = x->jams_sent;
    out[2] = x->fragments_extended;
    out[3] = out[4] = 0;
    for (uint32_t p = x->first_port; p < x->first_port + x->n_ports; p++) {
        out[3] += n->port[p].readable;
        out[4] += n->port[p].collisions;
    }
}

/* The domains and the bridges over the window [mark, now). */
static void bridge_results(segnet *n, sim_time now, results *r)
{
    double window = (double)(now - n->sc->warmup) / 1e12;
    for (uint32_t d = 0; d < n->n_dom; d++) {
        domain_result *x = &n->dom_res[d];
        x->frames_sent = x->collisions = 0;
        uint64_t bits = 0, rate = 0;
        for (uint32_t s = 0; s < n->n_seg; s++) {
            if (n->seg[s].domain != d)
                continue;
            rate = n->seg[s].phy->rate_bps; /* the domain's own (one rate, network.c) */
            x->frames_sent += n->seg_res[s].frames_sent;
            x->collisions += n->seg_res[s].collisions;
            bits += n->seg[s].bits_whole - n->seg[s].bits_whole_at;
        }
        double cap = (double)rate * window * (x->full_duplex ? 2 : 1);
        x->throughput = cap > 0 ? (double)bits / cap : NAN;
    }
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
    r->n_domains = n->n_dom;
    r->n_bridges = n->n_br;
    r->domains = n->dom_res;
    r->bridges = n->br_res;
}

void segnet_mark(segnet *n, sim_time now)
{
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        g->relayed_at = g->relayed;
        g->corrupted_at = g->corrupted;
        g->collisions_at = g->fd ? 0 : mac_collision_events(g->mac, now);
        g->bits_whole_at = g->bits_whole;
    }
    for (uint32_t b = 0; b < n->n_br; b++) {
        for (uint32_t p = 0; p < n->br[b].n; p++) {
            n->br[b].mark[p] = *bridge_counters(n->br[b].b, p);
            bport_run *q = &n->bp[n->br[b].first + p];
            q->collisions_at = mac_station_counters(n->seg[q->seg].mac, q->tap)->collisions;
        }
        bridge_mark(n->br[b].b);
    }
    for (uint32_t r = 0; r < n->n_rep; r++)
        rep_counts(n, r, &n->rep_mark[5 * (size_t)r]);
    n->marked = true;
}

void segnet_results(segnet *n, sim_time now, const station_result *stations, results *r)
{
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        segment_result *x = &n->seg_res[s];
        x->frames_sent = x->late_collisions = 0;
        for (uint32_t k = 0; k < g->n_st; k++) {
            const mac_counters *c = &stations[g->station_id[k]].c;
            x->frames_sent += c->frames_transmitted_ok;
            x->late_collisions += c->late_collisions;
        }
        /* Before the warm-up's end the window is empty (results.h), as
         * the stations' counters are. */
        x->frames_relayed = n->marked ? g->relayed - g->relayed_at : 0;
        x->frames_corrupted = n->marked ? g->corrupted - g->corrupted_at : 0;
        x->collisions = n->marked && !g->fd ? mac_collision_events(g->mac, now) - g->collisions_at
                                            : 0;
    }
    if (n->n_br > 0)
        bridge_results(n, now, r);
    for (uint32_t i = 0; i < n->n_rep; i++) {
        uint64_t c[5];
        rep_counts(n, i, c);
        const uint64_t *m = n->marked ? &n->rep_mark[5 * (size_t)i] : c;
        repeater_result *x = &n->rep_res[i];
        x->transmit_collisions = c[0] - m[0];
        x->jams_sent = c[1] - m[1];
        x->fragments_extended = c[2] - m[2];
        x->readable_frames = c[3] - m[3];
        x->port_collisions = c[4] - m[4];
    }
    r->n_segments = n->n_seg;
    r->n_repeaters = n->n_rep;
    r->segments = n->seg_res;
    r->repeaters = n->rep_res;
}

size_t segnet_bytes(const segnet *n)
{
    size_t b = sizeof *n + n->n_seg * sizeof *n->seg + n->n_rep * sizeof *n->rep +
               n->n_ports * sizeof *n->port + n->c_cap * (sizeof *n->c + n->n_seg * 9) +
               n->n_all * sizeof(uint32_t);
    for (uint32_t s = 0; s < n->n_seg; s++) {
        const seg_run *g = &n->seg[s];
        b += medium_bytes(g->med) + (g->mac ? mac_bytes(g->mac) : 0) +
             g->n_taps * 3 * sizeof(uint32_t) + n->n_all * sizeof(uint32_t);
    }
    return b;
}
