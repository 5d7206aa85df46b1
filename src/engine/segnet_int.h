/* segnet_int.h - the network's internals, shared by its rooms (not for
 * use outside src/engine's network files).
 *
 * The network (segments.c) builds the segments, their MACs and the tables
 * below from the scenario, keeps the records of the frames on their way
 * (`carried`, counted references: a frame lives while a signal, an event
 * or a verdict still needs it), dispatches the network's events and adds
 * up the results. The rooms that run on these tables:
 *   repeater.c     the Clause 9 / Clause 27 repeater (port_run, rep_run);
 *   bridge_port.c  a bridge's ports: reception, store and forward, queues
 *                  and traces (bport_run, br_run; bridge.c decides);
 *   verdict.c      whether a frame reached its receiver(s) whole;
 *   domain_events.c  a collision domain's collision events, one
 *                  collision once (the repeater and the segments' trackers
 *                  link them).
 *
 * Event phases around the MAC's (mac.h): a signal's end reaches a port
 * (0) and the repeater decides on ends (1), both before any MAC event at
 * that instant, so a station there sees the relay gone (half-open
 * signals); a start reaches a port (11) and the repeater decides on
 * starts (12) after every MAC event, so a relay that begins at t and a
 * station that starts at t collide, as two stations do.
 */
#ifndef CSMACD_SEGNET_INT_H
#define CSMACD_SEGNET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bridge.h"
#include "domain_events.h"
#include "segments.h"

#define NONE UINT32_MAX

enum { EV_IN_START = SEGNET_EV_FIRST, EV_IN_END, EV_DECIDE, EV_OUT, EV_VERDICT, EV_PORT_RX,
       EV_FORWARD };
enum { PH_IN_END = 0, PH_DECIDE_END = 1, PH_IN_START = 11, PH_DECIDE_START = 12 };
enum { OUT_NONE, OUT_FRAME, OUT_JAM };          /* what a port sends */
enum { ACT_FRAME, ACT_JAM, ACT_END };           /* what a decision asks of a port */
/* the repeater: idle, repeating, jamming every port (TRANSMIT COLLISION,
 * or every port but src: ONE PORT LEFT), jamming every port but src
 * (RECEIVE COLLISION on src) */
enum { R_IDLE, R_REPEAT, R_JAM, R_RX_COL };
enum { RELAY_NONE, RELAY_ON, RELAY_WHOLE, RELAY_CUT }; /* a frame's relay onto a segment */
/* A repeater's episodes whose outputs may be on their way at once (an
 * output event carries 5 bits of slot; an episode lasts at least its
 * shortest input, 96 bit times unless the preamble and jam are made
 * shorter, so a few do at the default delays). */
#define REP_EPISODES 32

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
    sim_time start;       /* its transmission's start at the tap (with domain events) */
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
    bool out_relay_new;   /* its output began and is in no episode's set yet */
} port_run;

typedef struct rep_run {
    uint32_t first_port, n_ports;
    sim_time delay_ps;
    sim_time min_out_ps;  /* MIN_OUTPUT_BITS at its segments' rate */
    uint8_t state;        /* R_* */
    uint32_t src;         /* R_REPEAT: the port repeated; R_JAM: the one port left, or NONE;
                             R_RX_COL: the port receiving the collision */
    uint32_t key;         /* R_REPEAT: what it repeats */
    sim_time decide_at[2];/* a decision queued at this instant: on ends, on starts
                             (-1: none) */
    uint64_t transmit_collisions, jams_sent, fragments_extended;
    /* Its episodes (domain_events.h), a ring: the current one, and those
     * over whose outputs are still on their way (an output event carries
     * its episode's slot). */
    struct rep_episode {
        uint32_t node;    /* NONE: the slot is free */
        uint32_t pending; /* output events still to come */
        bool idle;        /* the repeater went idle since */
    } ep[REP_EPISODES];
    uint32_t ep_cur;
    uint32_t ep_open;     /* the node of the episode under way (not yet idle), or NONE */
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
    const trace_sink *sinks;   /* the run's (segnet_macs), for bport_filter_event */
    const uint32_t *sink_kinds;
    size_t n_sinks;
    uint32_t port_kinds;       /* the kinds bport_filter_event asks for */
    bool sinks_tally;          /* every run's sink that reads tallied kinds takes tallies */
    uint32_t br_kinds;         /* the TRACE_BRIDGE_* kinds some sink wants */
    port_copy pending;         /* the copy bport_forward hands to a port's MAC */
    domain_result *dom_res;
    domain_events *dev;        /* the collision domains' events (with repeaters), or NULL */
    uint64_t *dom_now;         /* per domain: its collision events, as last counted */
    bridge_result *br_res;
    bridge_port_result *bp_res;
    uint64_t *dom_col_at;
};

/* ---- plumbing -------------------------------------------------------------- */

static inline void push(segnet *n, sim_time t, uint16_t type, uint16_t phase, uint32_t target,
                        uint64_t arg)
{
    sim_event ev = {.time = t, .arg = arg, .target = target, .type = type, .phase = phase};
    if (evq_push(n->q, &ev) != 0)
        *n->no_memory = true;
}

/* The kinds the run's sink i reads (all when the run gave no kinds). */
static inline uint32_t run_sink_kinds(const segnet *n, size_t i)
{
    return n->sink_kinds ? n->sink_kinds[i] : TRACE_ALL;
}

static inline carried *rec(const segnet *n, uint32_t k)
{
    return &n->c[k];
}

static inline void key_ref(segnet *n, uint32_t k)
{
    if (k != NONE)
        n->c[k].refs++;
}

/* The frames' records (segnet_int.c). A new record (one reference), or NONE when memory cannot be had. */
uint32_t key_new(segnet *n);
/* Drops a reference; the last frees the record and its held relays. */
void key_release(segnet *n, uint32_t k);
/* Releases a relay held for a verdict that will not come (or has come). */
void relay_release(segnet *n, uint32_t k, uint32_t s);

/* The delay from tap `tap` of segment s to tap `to_tap` of segment `to`
 * along the tree of segments and repeaters; false when the path does not
 * lead there (another collision domain). */
bool segnet_path_delay(const segnet *n, uint32_t s, uint32_t tap, uint32_t to, uint32_t to_tap,
                       sim_time *d);
/* The longest delay from tap `tap` of segment s to any station of its
 * collision domain, along the same tree. O(stations). */
sim_time segnet_farthest(const segnet *n, uint32_t s, uint32_t tap);

/* The component of g's tracker that holds tap's transmission begun at
 * start joins the set of node (an episode's) in the domain's events
 * (domain_events.h), with `macs` stations' or bridge ports' transmissions
 * more (a new relay: -1). An untagged component takes node as its tag
 * (segments.c). */
void seg_join(seg_run *g, uint32_t tap, sim_time start, uint32_t node, int64_t macs);

static inline uint32_t domain_of_station(const segnet *n, uint32_t s)
{
    return n->seg[n->seg_of_station[s]].domain;
}

/* Station s's MAC and its tap there. */
static inline mac *station_mac(const segnet *n, uint32_t s, uint32_t *tap)
{
    const seg_run *g = &n->seg[n->seg_of_station[s]];
    *tap = g->tap_of[s];
    return g->mac;
}

#endif
