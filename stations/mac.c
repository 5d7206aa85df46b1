/* mac.c - the Clause 4 CSMA/CD MAC of every station on one medium.
 *
 * How the Pascal model's processes (802.3 4.2.7 ff.) map onto events:
 *
 * Deference (4.2.3.2.1, the Deference process) runs all the time, but a
 * station only needs its result when it has a frame ready. The result is a
 * pure function of the carrier seen at the station (medium_signals_at), so
 * it is computed, not tracked: defer_replay() replays the process over the
 * live signals and returns the instant the ready frame may start;
 * defer_plan() gets the same answer from the medium's carrier index where
 * it can (defer_shortcut, O(log n); on a quiet medium from a scan of its
 * few live records and of the MAC's few transmitters), else replays only
 * the signals that can matter
 * (stations/MODEL.md, "Deference in a crowd"). A
 * station with a frame ready and not backing off is a "contender". A
 * contender's plan changes only in two ways, so only those contenders are
 * re-planned:
 *   - a timed contender (its start instant is known) is re-planned when a
 *     new signal will reach it before that instant and early enough to
 *     matter: during the carrier it defers to, or within the restartable
 *     first part of the gap (defer_plan's "horizon"); the standard ignores
 *     carrier in the second part;
 *   - a waiting contender (it defers to a carrier whose end is unknown) is
 *     re-planned when the transmission that blocks it ends. Starts cannot
 *     change its plan, and neither can the ends of other transmissions:
 *     the blocker is an unfinished signal of the carrier period it defers
 *     to that has already reached it, when there is one (then every
 *     earlier unfinished signal overlaps it, so the period cannot split
 *     before it ends; of several, the one expected to end last is taken,
 *     which saves re-plans in a crowded collision), and otherwise the first
 *     unfinished signal of the period.
 *
 * TransmitLinkMgmt: attempts are counted per frame; after a collision the
 * policy draws the wait (backoff.h), counted from the end of the jam; the
 * frame is given up when the attempt limit is reached (excessiveCollision)
 * or, at 1 Gb/s, after a late collision.
 *
 * Collision detect (4.2.3.2.4): true while a station transmits and another
 * station's signal is present at it. When a transmission starts, the
 * earliest foreign signal at its own position is looked up, and every other
 * transmitter is told when the new signal will reach it. A collision in the
 * preamble/SFD lets them finish (4.2.3.2.3); the jam is jamSize bits from
 * then on.
 *
 * Reception: a frame sent whole is judged at its destination once its last
 * bit has passed there: received if no other signal overlapped it there.
 * The medium keeps every signal that could overlap it (medium_hold).
 *
 * Simultaneity (stations/MODEL.md, "Simultaneous events"): every decision at an
 * instant sees the carrier as it was just before that instant. Signals are
 * half-open intervals, so a signal arriving exactly when a gap ends does
 * not stop the station; two stations starting at the same instant collide.
 */
#include "mac.h"
#include "zero.h"

#include "collision_events.h"
#include "ring.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* Up to this many transmitters (or timed contenders), walking them is
 * cheaper than asking the MAC's reach indexes, and (up to CROWD / 2
 * transmitters) than asking the medium's carrier index; both give the
 * same answers, so this only decides the cost. The carrier index answers
 * by a scan of its live records, and rests, while at most medium_quiet()
 * (medium.h, two or three times CROWD) are live. */
#define CROWD 8

/* A class of stations (mac_class), with what the MAC derives from its
 * policy once. */
typedef struct station_class {
    const backoff_policy *policy;
    backoff_caps caps; /* how the policy changes sending (backoff.h) */
    uint32_t attempt_limit;
    uint32_t queue_capacity;
    bool refill;
    bool full_duplex;
} station_class;

typedef struct station {
    const station_class *cls;
    mac_state state;
    uint32_t id;         /* its station number in the run (the tap itself on
                            one segment), MAC_NO_STATION at a repeater's port */
    bool has_frame;      /* cur holds the frame being sent */
    bool deferred_first; /* the first attempt waited on deference */
    bool late;           /* the collision now being jammed was late */
    bool jam_in_gap;     /* the jam cut a burst's extension, not a frame */
    bool in_burst;       /* cur is a second or later frame of a 1 Gb/s burst */
    uint32_t collisions; /* of the current frame */
    bool awaiting;       /* no CD (ALOHA): sent whole, waiting for the verdict */
    bool detects;        /* its class detects collisions (no: ALOHA, full duplex) */
    bool fd;             /* a full-duplex link's end (its class's full_duplex) */
    bool relay_hold;     /* MAC_RELAY: hold the relay's record for a verdict */
    bool in_cd, in_plan; /* its deadline in cd_reach, plan_reach may be set */
    uint32_t timed;      /* index in mac.timed, or NONE */
    uint32_t blocker;    /* waiting: the transmitter it waits for, or NONE */
    uint32_t bl_prev, bl_next; /* in the blocker's list of waiting stations */
    uint32_t transmitter;/* index in mac.transmitters, or NONE */
    uint32_t gen;        /* stamps READY and START events */
    uint32_t end_gen;    /* stamps TX_END events */
    uint32_t tx_seq;     /* stamps COLLISION events */
    sim_time ready_at;   /* the current attempt became ready */
    sim_time planned;    /* DEFER: planned start, or SIM_TIME_NEVER */
    sim_time horizon;    /* timed: only signals arriving before this matter */
    /* The contender's chain (MODEL.md, "Deference in a crowd"): the carrier
     * period it defers to is fixed while it contends; once known, whether
     * it transmitted in it (chain_own: -1 not known yet) and, when the
     * period has ended, its end (chain_end, SIM_TIME_NEVER: open or not
     * known). */
    int8_t chain_own;
    sim_time chain_end;
    sim_time cd_pending; /* earliest collision event scheduled */
    uint64_t tx_id;      /* medium record of the transmission under way */
    uint64_t trace_id;   /* the transmission's number in the traces (begin_transmission) */
    sim_time tx_start, tx_end, jam_start;
    sim_time burst_origin; /* start of the burst's first frame */
    sim_time backoff_until;
    uint64_t backoff_slots;
    backoff_state bstate;
    frame cur;
    frame *q;            /* ring of waiting frames (cur not included) */
    uint32_t q_cap, q_head, q_len;
    uint64_t frame_seq;
    rng r;
    mac_counters c;
} station;

/* A frame sent whole, waiting for its last bit to pass its destination. */
typedef struct pending_rx {
    uint64_t tx_id;
    uint64_t trace_id;
    frame f;
    uint32_t station;
    uint32_t attempt;
    uint32_t next_free;
} pending_rx;

struct mac {
    phy_params phy;
    /* The PHY's timing (phy_timing_of), under the short names the hot
     * paths use. */
    sim_time bit_ps, slot_ps, ifg_ps, part1_ps, jam_ps, pre_ps;
    uint32_t n;
    station *st;
    medium *med;
    evq *q;
    station_class *cls;
    uint32_t n_cls;
    mac_refill_fn refill;
    void *refill_ctx;
    mac_rx_fn on_rx;
    void *rx_ctx;
    trace_sink *sinks;
    uint32_t *sink_kinds;
    size_t n_sinks;
    uint32_t wanted; /* union of the sinks' kinds */
    uint32_t whole;  /* the kinds some sink wants as whole events, not tallies */

    /* A segment of a network (mac_config): NULL and 0 for one segment. */
    uint64_t arg_tag;        /* segment << 32, in every event's arg (mac.h) */
    const uint32_t *tap_of;  /* per station of the run (not owned) */
    uint32_t n_all;          /* the run's stations */
    uint64_t *trace_ids;     /* the run's counter of trace tx ids (networked) */
    uint32_t segment;
    mac_net_hooks net;
    bool networked;
    bool any_fd;             /* a full-duplex end on the medium (open_scan) */
    bool bridged;            /* net.on_port_event: a segment with bridge ports */

    uint32_t *timed, n_timed;  /* contenders with a known start instant */
    sim_time *timed_until;     /* per entry of timed: min(planned, horizon), the
                                  instant after which no new signal matters */
    sim_time until_bound;      /* at least every timed_until (the largest
                                  filed since the set was last empty) */
    uint32_t *blocked_head;    /* per transmitter: stations waiting for it */
    uint32_t *transmitters, n_transmitters;
    /* Per entry of transmitters: its start, its expected end and the
     * station's position, side by side so that open_blocker's loop over a
     * crowd reads one array, not every station's record. */
    sim_time *tr_start, *tr_end, *tr_pos;
    /* Who a new signal can still reach in time (medium_reach): transmitters
     * in a frame or a burst's extension, until their end or the collision
     * already coming (cd_reach); timed contenders, until timed_until
     * (plan_reach). found: a query's answer. */
    medium_reach *cd_reach, *plan_reach;
    /* Whether cd_reach (plan_reach) is kept up to date: only while more
     * than CROWD transmitters (timed contenders) are listed, when the
     * walks give way to it. While quiet, a station's deadline is only
     * taken out when it goes off (in_cd, in_plan: it may be set), and
     * every listed station's is set again when a crowd asks (cd_wake,
     * plan_wake). */
    bool cd_live, plan_live;
    uint32_t *found;
    medium_signal *sig;
    size_t sig_cap;

    pending_rx *rx;
    uint32_t rx_cap, rx_free;

    collision_events *events; /* collision events on the medium */
    /* An allocation failed mid-run: mac_config.no_memory, or own_oom. */
    bool *no_memory;
    bool own_oom;
    const mac_carried *relay_what; /* mac_relay_begin's, for its trace event */
};

const char *mac_state_name(mac_state s)
{
    static const char *const names[] = {"idle", "defer", "transmit", "jam", "backoff",
                                        "burst", "relay"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* ---- plumbing ----------------------------------------------------------- */

/* Whether any sink wants events of this kind: the MAC builds an event
 * record (about 170 bytes) only then. */
static inline bool wants(const mac *m, trace_kind k)
{
    return (m->wanted & TRACE_BIT(k)) != 0;
}

/* A tap's station number in the run (the tap itself on one segment). */
static inline uint32_t gid(const mac *m, uint32_t s)
{
    return m->st[s].id;
}

/* The tap of a frame's destination on this segment, or NONE when it is a
 * broadcast or sits on another segment. */
static inline uint32_t dest_tap(const mac *m, uint32_t dest)
{
    if (dest == FRAME_BROADCAST || dest >= m->n_all)
        return NONE;
    return m->tap_of ? m->tap_of[dest] : dest;
}

static void emit(mac *m, const trace_event *ev)
{
    for (size_t i = 0; i < m->n_sinks; i++)
        if (m->sink_kinds[i] & TRACE_BIT(ev->kind))
            m->sinks[i].on_event(m->sinks[i].ctx, ev);
}

/* Whether a sink wants kind k's whole event of station s; when none
 * does, only tallies want it (trace.h), if anyone. A bridge port's events
 * are always whole: its bridge reads them (mac_net_hooks.on_port_event). */
static inline bool wants_whole(const mac *m, trace_kind k, uint32_t s)
{
    return (m->whole & TRACE_BIT(k)) != 0 || (m->bridged && gid(m, s) >= m->n_all);
}

/* An event of TRACE_TALLY_KINDS that no sink wants whole: its tally, to
 * the sinks that want its kind, in their order (as emit). */
static void tally(mac *m, const trace_tally *t)
{
    for (size_t i = 0; i < m->n_sinks; i++)
        if (m->sink_kinds[i] & TRACE_BIT(t->kind))
            m->sinks[i].on_tally(m->sinks[i].ctx, t);
}

/* The tally of an ARRIVAL, DROP, TX_OK or ABORT of frame f at station s. */
static void tally_frame(mac *m, trace_kind kind, uint32_t s, const frame *f, sim_time now)
{
    tally(m, &(trace_tally){.kind = kind, .time = now, .station = gid(m, s),
                            .frame_bytes = f->bytes, .queued_at = f->queued_at});
}

/* A trace event's fields that describe frame f. */
static void put_frame(trace_event *ev, const frame *f)
{
    ev->dest = f->dest == FRAME_BROADCAST ? TRACE_NO_DEST : f->dest;
    ev->frame_id = f->id;
    ev->frame_bytes = f->bytes;
    ev->queued_at = f->queued_at;
    ev->payload = f->payload;
    ev->payload_len = f->payload_len;
}

/* A trace event of `kind` at t at station s about frame f, its other
 * fields zero (zero_record: the networks' paths fill several per frame). */
static void event_of_frame(const mac *m, trace_event *ev, trace_kind kind, sim_time t,
                           uint32_t s, const frame *f)
{
    zero_record(ev, sizeof *ev);
    ev->kind = kind;
    ev->time = t;
    ev->station = gid(m, s);
    ev->segment = m->segment;
    ev->jam_start = SIM_TIME_NEVER;
    put_frame(ev, f);
}

/* The same about the frame s is sending, in its attempt. */
static void frame_event(const mac *m, trace_event *ev, trace_kind kind, sim_time t, uint32_t s)
{
    const station *x = &m->st[s];
    event_of_frame(m, ev, kind, t, s, &x->cur);
    ev->attempt = x->collisions + 1;
    ev->collisions = x->collisions;
    ev->backoff_slots = x->backoff_slots;
}

static void push(mac *m, sim_time t, uint16_t type, uint16_t phase, uint32_t s, uint64_t arg)
{
    if (evq_push_fields(m->q, t, m->arg_tag | arg, s, type, phase) != 0)
        *m->no_memory = true; /* the run stops after this event */
}

static void list_add(uint32_t *list, uint32_t *n, uint32_t *index, uint32_t s)
{
    assert(*index == NONE);
    *index = *n;
    list[(*n)++] = s;
}

static void timed_remove(mac *m, uint32_t s)
{
    station *x = &m->st[s];
    uint32_t i = x->timed;
    assert(i != NONE);
    if (x->in_plan) {
        medium_reach_set(m->plan_reach, s, MEDIUM_REACH_NONE);
        x->in_plan = false;
    }
    uint32_t last = m->timed[--m->n_timed];
    m->timed[i] = last;
    m->timed_until[i] = m->timed_until[m->n_timed];
    m->st[last].timed = i;
    x->timed = NONE;
    if (m->n_timed <= CROWD)
        m->plan_live = false; /* the walk answers (replan_after_start) */
    if (m->n_timed == 0)
        m->until_bound = INT64_MIN;
}

/* plan_reach from the timed set, before a crowd's question. */
static __attribute__((cold, noinline)) void plan_wake(mac *m)
{
    m->plan_live = true;
    for (uint32_t i = 0; i < m->n_timed; i++) {
        medium_reach_set(m->plan_reach, m->timed[i], m->timed_until[i]);
        m->st[m->timed[i]].in_plan = true;
    }
}

static void blocked_add(mac *m, uint32_t s, uint32_t blocker)
{
    station *x = &m->st[s];
    x->blocker = blocker;
    x->bl_prev = NONE;
    x->bl_next = m->blocked_head[blocker];
    if (x->bl_next != NONE)
        m->st[x->bl_next].bl_prev = s;
    m->blocked_head[blocker] = s;
}

static void blocked_remove(mac *m, uint32_t s)
{
    station *x = &m->st[s];
    if (x->bl_prev != NONE)
        m->st[x->bl_prev].bl_next = x->bl_next;
    else
        m->blocked_head[x->blocker] = x->bl_next;
    if (x->bl_next != NONE)
        m->st[x->bl_next].bl_prev = x->bl_prev;
    x->blocker = NONE;
}

/* Takes a contender out of whichever set holds it. */
static void contender_remove(mac *m, uint32_t s)
{
    if (m->st[s].timed != NONE)
        timed_remove(m, s);
    else if (m->st[s].blocker != NONE)
        blocked_remove(m, s);
}

static void cd_watch(mac *m, uint32_t s);

static void transmitters_remove(mac *m, uint32_t s)
{
    uint32_t i = m->st[s].transmitter;
    assert(i != NONE);
    uint32_t last = m->transmitters[--m->n_transmitters];
    m->transmitters[i] = last;
    m->tr_start[i] = m->tr_start[m->n_transmitters];
    m->tr_end[i] = m->tr_end[m->n_transmitters];
    m->tr_pos[i] = m->tr_pos[m->n_transmitters];
    m->st[last].transmitter = i;
    m->st[s].transmitter = NONE;
    cd_watch(m, s);
    if (m->n_transmitters <= CROWD)
        m->cd_live = false; /* the walk answers (begin_transmission) */
}

/* Bits on the wire for a frame: preamble and SFD, the frame padded to the
 * minimum size, and at 1 Gb/s the first frame of a burst carrier-extended
 * to slotTime (4.2.3.4). */
static sim_time frame_wire_ps(const mac *m, uint32_t bytes, bool in_burst)
{
    uint64_t frame_bits = 8ull * (bytes < m->phy.min_frame_bytes ? m->phy.min_frame_bytes : bytes);
    return m->pre_ps + (sim_time)phy_wire_bits(&m->phy, frame_bits, in_burst) * m->bit_ps;
}

/* ---- deference ---------------------------------------------------------- */

/* The instant a frame ready at r may start, given the carrier seen at
 * station s, or SIM_TIME_NEVER while it must wait for a carrier whose end
 * is not known yet. The MAC always asks with r = now: a station still
 * deferring at `now` is in the same deference window as at the instant it
 * became ready (it would have started otherwise), so the answer is the
 * same, and only signals of the current window and later are needed.
 *
 * The signals at s are merged into carrier periods. After a period that
 * ends at b the gap ends at g = b + interPacketGap. With the two-part rule,
 * carrier that reappears within the first part of the gap (before
 * b + part1) restarts it, unless the station itself transmitted in the
 * period (then part 1 is not restartable); carrier in the second part is
 * ignored (the Pascal Deference process: "repeat while carrierSense do
 * StartRealTimeDelay until not RealTimeDelay(part1)", then part 2
 * unconditionally). With the rule switched off nothing restarts the gap.
 * A frame ready during a period or its gap, i.e. in (start, g], goes at g;
 * one ready when no carrier has been seen since the gap ended goes at r. */
/* Candidates for the transmission a waiting contender registers with. */
typedef struct blocker_pick {
    uint32_t first_open; /* first unfinished signal of the period */
    uint32_t arrived;    /* unfinished, already here, expected to end last */
    sim_time arrived_end;
} blocker_pick;

static void note_open(const mac *m, blocker_pick *p, const medium_signal *x, sim_time now)
{
    if (x->until != SIM_TIME_NEVER)
        return;
    if (p->first_open == NONE)
        p->first_open = x->station;
    if (x->from <= now && m->st[x->station].tx_end >= p->arrived_end) {
        p->arrived = x->station;
        p->arrived_end = m->st[x->station].tx_end;
    }
}

/* The replay. With `since` = INT64_MIN it reads every live signal; else
 * only those still present at s at `since` or later, which gives the same
 * answer when `since` <= r - interFrameGap and `since` <= the end of the
 * station's own last transmission (MODEL.md, "Deference in a crowd"). */
static sim_time defer_replay(mac *m, uint32_t s, sim_time r, sim_time since,
                             uint32_t *blocker, sim_time *horizon, bool *own_out,
                             sim_time *end_out)
{
    const sim_time now = r;
    size_t live = medium_signal_count(m->med); /* live transmissions and the fault */
    if (live > m->sig_cap) {
        size_t cap = live * 2;
        medium_signal *sig = realloc(m->sig, cap * sizeof *sig);
        if (sig) {
            m->sig = sig;
            m->sig_cap = cap;
        } else {
            *m->no_memory = true; /* answer from what fits; the run stops */
        }
    }
    medium_signal *sig = m->sig;
    size_t n = since == INT64_MIN
                   ? medium_signals_at(m->med, s, sig, m->sig_cap) /* in order of arrival */
                   : medium_signals_since(m->med, s, since, sig, m->sig_cap);
    sim_time prev_gap_end = SIM_TIME_NEVER; /* none yet */
    size_t i = 0;
    while (i < n) {
        sim_time a = sig[i].from, b = sig[i].until;
        bool own = sig[i].own;
        blocker_pick pick = {NONE, NONE, 0};
        note_open(m, &pick, &sig[i], now);
        i++;
        for (;;) {
            /* overlapping or touching signals form one period */
            while (i < n && (b == SIM_TIME_NEVER || sig[i].from <= b)) {
                note_open(m, &pick, &sig[i], now);
                if (sig[i].until == SIM_TIME_NEVER || sig[i].until > b)
                    b = sig[i].until;
                own |= sig[i].own;
                i++;
            }
            if (b != SIM_TIME_NEVER && i < n && m->phy.two_part_deferral && !own &&
                sig[i].from < b + m->part1_ps) {
                /* carrier back within part 1: the gap restarts after it */
                note_open(m, &pick, &sig[i], now);
                b = sig[i].until == SIM_TIME_NEVER || sig[i].until > b ? sig[i].until : b;
                own |= sig[i].own;
                i++;
                continue;
            }
            break;
        }
        /* b == NEVER has absorbed every later signal */
        sim_time g = b == SIM_TIME_NEVER ? SIM_TIME_NEVER : b + m->ifg_ps;
        sim_time lo = prev_gap_end != SIM_TIME_NEVER && prev_gap_end > a ? prev_gap_end : a;
        if (r <= lo) {
            *horizon = r; /* every new signal arrives at r or later */
            return r;
        }
        if (r <= g) {
            *own_out = own;
            *end_out = b;
            *blocker = pick.arrived != NONE ? pick.arrived : pick.first_open; /* NONE unless g is unknown */
            /* A signal arriving during the carrier extends it; one in part 1
             * of the gap restarts the gap unless it is unrestartable. */
            bool restartable = m->phy.two_part_deferral && !own;
            *horizon = b == SIM_TIME_NEVER ? b : restartable ? b + m->part1_ps : b + 1;
            return g;
        }
        prev_gap_end = g;
    }
    *horizon = r;
    return r;
}

/* Whether entry i of the transmitters started after entry j (NONE: none),
 * i.e. comes later in the medium's live order: the replay's order of two
 * signals that arrive together. */
static inline bool tx_later(const mac *m, uint32_t i, uint32_t j)
{
    return j == NONE || m->st[m->transmitters[i]].tx_id > m->st[m->transmitters[j]].tx_id;
}

/* The blocker of a station whose carrier period is open, as the replay
 * picks it: of the transmissions under way whose signal has reached s by
 * r, the one expected to end last (ties: the later arrival, then the later
 * in the live order, i.e. the later record); with none arrived, the first
 * to arrive (ties: the earlier record). Every transmission under way is
 * then in the period. Returns false when none is under way. O(k) for k
 * transmissions under way. */
static bool open_blocker(const mac *m, uint32_t s, sim_time r, uint32_t *blocker)
{
    const uint32_t n = m->n_transmitters;
    const sim_time *start = m->tr_start, *end = m->tr_end, *pos = m->tr_pos;
    const sim_time off = medium_delay_off(m->med, s); /* (a transmitter is never s) */
    uint32_t best = NONE;
    sim_time b_end = INT64_MIN, b_from = INT64_MIN;
    for (uint32_t i = 0; i < n; i++) { /* arrived by r: the one ending last */
        sim_time d = pos[i] + off;
        sim_time from = start[i] + (d < 0 ? -d : d);
        if (from > r)
            continue;
        if (end[i] > b_end || (end[i] == b_end && from > b_from) ||
            (end[i] == b_end && from == b_from && tx_later(m, i, best))) {
            best = i;
            b_end = end[i];
            b_from = from;
        }
    }
    if (best == NONE) { /* none arrived: the first to arrive */
        b_from = SIM_TIME_NEVER;
        for (uint32_t i = 0; i < n; i++) {
            sim_time d = pos[i] + off;
            sim_time from = start[i] + (d < 0 ? -d : d);
            if (from < b_from || (from == b_from && tx_later(m, best, i))) {
                best = i;
                b_from = from;
            }
        }
    }
    *blocker = best == NONE ? NONE : m->transmitters[best];
    return best != NONE;
}

/* open_blocker's answer (NONE when none is under way) and the first
 * arrival at s of a signal under way (SIM_TIME_NEVER: none), in one loop:
 * the medium's medium_open_arrival where every transmission under way is
 * a transmitter (no full-duplex end on the medium). For a handful of
 * transmitters; in a crowd, open_blocker's first loop alone is cheaper.
 * (The test of the one ending last is written out here and there: as one
 * inline helper it cost the collapse of 1024 3.8 % more instructions.) */
static __attribute__((noinline)) sim_time open_scan(const mac *m, uint32_t s, sim_time r,
                                                     uint32_t *blocker)
{
    const uint32_t n = m->n_transmitters;
    const sim_time *start = m->tr_start, *end = m->tr_end, *pos = m->tr_pos;
    const sim_time off = medium_delay_off(m->med, s); /* (a transmitter is never s) */
    uint32_t best = NONE, first = NONE;
    sim_time b_end = INT64_MIN, b_from = INT64_MIN, f_from = SIM_TIME_NEVER;
    for (uint32_t i = 0; i < n; i++) {
        sim_time d = pos[i] + off;
        sim_time from = start[i] + (d < 0 ? -d : d);
        if (from < f_from || (from == f_from && tx_later(m, first, i))) {
            first = i; /* the first to arrive */
            f_from = from;
        }
        if (from > r)
            continue;
        if (end[i] > b_end || (end[i] == b_end && from > b_from) ||
            (end[i] == b_end && from == b_from && tx_later(m, i, best))) {
            best = i; /* arrived by r: the one ending last */
            b_end = end[i];
            b_from = from;
        }
    }
    if (best == NONE)
        best = first;
    *blocker = best == NONE ? NONE : m->transmitters[best];
    return f_from;
}

/* The replay's answer from the carrier index, where it can be had without
 * the replay (MODEL.md, "Deference in a crowd"). `released_by`: the
 * transmission whose end re-plans this waiting contender, or NONE.
 * Returns false when no shortcut applies. O(log n), plus O(k) for a
 * blocker. Fills the contender's chain as far as it learns it. */
static bool defer_shortcut(mac *m, uint32_t s, sim_time r, uint32_t released_by,
                           sim_time *plan, uint32_t *blocker, sim_time *horizon)
{
    station *x = &m->st[s];
    const sim_time w = r - m->ifg_ps; /* a period ending before w is over for r */
    /* While a handful transmit, the loop over them gives the first open
     * arrival and the blocker at once (open_scan). (Up to CROWD / 2: with
     * 5 to 8, as often in a collapse of 16, the medium's answer, often
     * memoised, is cheaper than the loop.) */
    const bool few = m->n_transmitters <= CROWD / 2 && !m->any_fd;
    uint32_t few_blocker = NONE;
    sim_time u = few ? open_scan(m, s, r, &few_blocker) : medium_open_arrival(m->med, s);
    sim_time fs, fe;
    bool fault = medium_fault(m->med, &fs, &fe);
    bool open = false;
    if (u <= w) {
        /* an unfinished signal arrived before w: the period that matters
         * holds it, hence every later signal */
        open = true;
    } else {
        uint32_t z;
        sim_time z_from = 0;
        sim_time e = medium_closed_end_from(m->med, s, w, &z, &z_from); /* (exact if >= w) */
        if (e < w && (!fault || fe < w)) {
            if (u >= r) { /* idle since w, and nothing arrives before r */
                *plan = r;
                *horizon = r;
                return true;
            }
            /* the first signal under way opens the period after a silence
             * [e, u): the station's own signals end by e, so it did not
             * transmit in the period */
            x->chain_own = 0;
            open = true;
        } else {
            /* A signal present at s at w or later that arrived by w is in
             * the period that matters (any earlier period ended before it
             * arrived, so before w). */
            sim_time oe = medium_own_end(m->med, s);
            if (x->chain_own < 0) {
                /* s took part in the period if its own last signal is in
                 * it; it took none if it never transmitted, or if the
                 * medium fell silent between its last transmission and w
                 * (after its own signal only touching signals continue a
                 * period) */
                if (oe == INT64_MIN)
                    x->chain_own = 0;
                else if (oe >= w && medium_own_start(m->med, s) <= w)
                    x->chain_own = 1;
                else if (oe < w && medium_silent_within(m->med, oe, w, r))
                    x->chain_own = 0;
                else
                    return false;
            }
            /* The period reaches at least the end at s of a signal known to
             * be in it: the blocker that has just ended, s's own last
             * signal when s took part. */
            sim_time anchor = INT64_MIN;
            if (released_by != NONE)
                anchor = r + medium_delay(m->med, released_by, s);
            if (x->chain_own == 1 && oe > anchor)
                anchor = oe;
            sim_time b;
            if (x->chain_end != SIM_TIME_NEVER) {
                b = x->chain_end; /* timed: only a new signal can continue it */
            } else if (z_from <= w || (anchor != INT64_MIN && z_from <= anchor)) {
                b = e; /* the signal ending last is in the period */
            } else {
                return false;
            }
            if (b < w)
                return false; /* (only with the outage ahead: the period is not this one) */
            bool restartable = m->phy.two_part_deferral && !x->chain_own;
            if (u <= b || (restartable && u < b + m->part1_ps)) {
                open = true;
            } else {
                if (fault && fe >= w && fs < b + m->ifg_ps)
                    return false; /* the outage may be part of the period */
                x->chain_end = b;
                *plan = b + m->ifg_ps;
                *horizon = restartable ? b + m->part1_ps : b + 1;
                *blocker = NONE;
                assert(r <= *plan);
                return true;
            }
        }
    }
    assert(open);
    if (few)
        *blocker = few_blocker;
    if (few ? few_blocker == NONE : !open_blocker(m, s, r, blocker))
        return false;
    x->chain_end = SIM_TIME_NEVER;
    *plan = SIM_TIME_NEVER;
    *horizon = SIM_TIME_NEVER;
    return true;
}

/* The instant contender s may start (defer_replay's answer), by a
 * shortcut where one applies, else by the replay over the signals that can
 * matter, which also fills the contender's chain. Built with
 * CSMACD_CHECK_DEFERENCE (unoptimised and sanitizer builds), every answer
 * is checked against the replay over every live signal. */
static sim_time defer_plan(mac *m, uint32_t s, sim_time r, uint32_t released_by,
                           uint32_t *blocker, sim_time *horizon)
{
    station *x = &m->st[s];
    sim_time plan;
    bool shortcut;
    if (x->timed != NONE && released_by == NONE) {
        /* A timed contender reached by a new signal before min(planned
         * start, horizon) (replan_after_start): the signal arrives during
         * the period it defers to, whose end b is known, or in the
         * restartable part 1 of its gap, so the period goes on and is
         * open now (defer_shortcut's rule, without its questions): wait. */
        assert(x->chain_end != SIM_TIME_NEVER && x->chain_own >= 0);
        shortcut = open_blocker(m, s, r, blocker);
        if (shortcut) {
            x->chain_end = SIM_TIME_NEVER;
            plan = *horizon = SIM_TIME_NEVER;
        }
    } else {
        shortcut = defer_shortcut(m, s, r, released_by, &plan, blocker, horizon);
    }
    if (!shortcut) {
        /* The replay over the signals that can matter: those present at s
         * after r - interFrameGap, and after the end of s's own last
         * transmission unless s is known to have taken no part in the
         * period (else its own signal may be in it). On a quiet medium
         * too: the records kept for receptions and chains not yet judged
         * are skipped at one comparison each. */
        sim_time since = r - m->ifg_ps;
        sim_time own_end = medium_own_end(m->med, s);
        if (x->chain_own != 0 && own_end != INT64_MIN && own_end < since)
            since = own_end; /* INT64_MIN: none yet */
        bool own = false;
        sim_time end = SIM_TIME_NEVER;
        plan = defer_replay(m, s, r, since, blocker, horizon, &own, &end);
        if (plan != r) {
            x->chain_own = own;
            x->chain_end = end;
        }
    }
#ifdef CSMACD_CHECK_DEFERENCE
    uint32_t b2 = NONE;
    sim_time h2 = 0, end2 = SIM_TIME_NEVER;
    bool own2 = false;
    sim_time p2 = defer_replay(m, s, r, INT64_MIN, &b2, &h2, &own2, &end2);
    assert(p2 == plan && b2 == *blocker && h2 == *horizon);
    assert(plan == r || x->chain_own < 0 || (bool)x->chain_own == own2);
    assert(plan == r || plan == SIM_TIME_NEVER || x->chain_end == end2);
#endif
    return plan;
}

/* Files contender s as timed (start at t) or waiting (for `blocker`). */
static void file_contender(mac *m, uint32_t s, sim_time t, uint32_t blocker)
{
    station *x = &m->st[s];
    contender_remove(m, s);
    if (t == SIM_TIME_NEVER) {
        assert(blocker != NONE);
        blocked_add(m, s, blocker);
    } else {
        m->timed_until[m->n_timed] = t < x->horizon ? t : x->horizon;
        if (m->timed_until[m->n_timed] > m->until_bound)
            m->until_bound = m->timed_until[m->n_timed];
        if (m->plan_live) {
            medium_reach_set(m->plan_reach, s, m->timed_until[m->n_timed]);
            x->in_plan = true;
        }
        list_add(m->timed, &m->n_timed, &x->timed, s);
    }
}

/* Plans (again) the start of contender s; `released_by`: the
 * transmission it waited for, which has just ended, or NONE. */
static void replan(mac *m, uint32_t s, sim_time now, uint32_t released_by)
{
    station *x = &m->st[s];
    uint32_t blocker = NONE;
    sim_time t = defer_plan(m, s, now, released_by, &blocker, &x->horizon);
    file_contender(m, s, t, blocker);
    if (t == x->planned)
        return;
    x->planned = t;
    x->gen++;
    if (t != SIM_TIME_NEVER)
        push(m, t, MAC_EV_START, MAC_PHASE_START, s, x->gen);
}

/* Transmitter `src` started at `now`: its signal may reach timed
 * contenders before they start. Those it reaches before timed_until come
 * from plan_reach; they are re-planned in the order of a walk of the
 * timed set from its end (the order START events are queued in, so runs
 * do not depend on the index). A re-plan may move a station out of the
 * timed set (swap-remove), which only moves an entry already walked. */
static void replan_after_start(mac *m, uint32_t src, sim_time now)
{
    /* Every timed contender committed (no signal from now on can reach
     * one before its timed_until): as after most starts, since a start at
     * the end of one contender's gap reaches the others of its period no
     * earlier than the ends of theirs (the triangle inequality). */
    if (m->until_bound <= now)
        return;
    if (m->n_timed <= CROWD) {
        /* a handful: walk them (replan may swap-remove behind i) */
        for (uint32_t i = m->n_timed; i-- > 0;) {
            if (i >= m->n_timed)
                continue;
            sim_time until = m->timed_until[i];
            if (until <= now)
                continue; /* committed: every new signal arrives too late */
            uint32_t s = m->timed[i];
            if (now + medium_delay(m->med, src, s) < until)
                replan(m, s, now, NONE);
        }
        return;
    }
    if (!m->plan_live)
        plan_wake(m);
    size_t n = medium_reach_find(m->plan_reach, src, now, m->found);
    uint32_t *f = m->found;
    for (size_t i = 1; i < n; i++) { /* by index in the timed set, descending */
        uint32_t v = f[i];
        size_t j = i;
        for (; j > 0 && m->st[f[j - 1]].timed < m->st[v].timed; j--)
            f[j] = f[j - 1];
        f[j] = v;
    }
    for (size_t i = 0; i < n; i++) {
        assert(m->st[f[i]].timed != NONE);
        replan(m, f[i], now, NONE);
    }
}

/* Re-plans the stations that were waiting for `list`'s transmitter,
 * `ended`, whose transmission has just ended. */
static void replan_blocked(mac *m, uint32_t list, uint32_t ended, sim_time now)
{
    while (list != NONE) {
        uint32_t s = list;
        list = m->st[s].bl_next;
        m->st[s].blocker = NONE; /* the list was detached whole */
        replan(m, s, now, ended);
    }
}

static void begin_transmission(mac *m, uint32_t s, sim_time now, trace_tx_kind kind);
static void transmit_or_persist(mac *m, uint32_t s, sim_time now);

/* A frame is ready at t (new, or after a backoff): defer, then transmit.
 * When deference lets it go at once it starts here rather than through a
 * START event at the same instant: by the half-open rule nothing else at
 * this instant could have seen it earlier, so the outcome is the same. */
static void become_ready(mac *m, uint32_t s, sim_time t)
{
    station *x = &m->st[s];
    uint32_t blocker = NONE;
    x->state = MAC_DEFER;
    x->ready_at = t;
    const backoff_caps *caps = &x->cls->caps;
    if (!caps->carrier_sense) {
        /* ALOHA (Abramson 1970): no carrier sense, hence no deference: send
         * at once; slotted ALOHA (Roberts 1975): at the next slot boundary,
         * slots counted from t = 0. Such a station is never a contender, so
         * nothing re-plans it. */
        sim_time slot = caps->slot_ps > 0 ? caps->slot_ps : x->bstate.frame_ps;
        sim_time start = caps->slotted ? (t + slot - 1) / slot * slot : t;
        /* Full duplex: only the gap after its own last frame. */
        if (x->fd && x->c.attempts > 0 && start < x->tx_end + m->ifg_ps)
            start = x->tx_end + m->ifg_ps;
        x->planned = start;
        x->gen++;
        if (start == t)
            begin_transmission(m, s, t, TRACE_TX_FRAME);
        else
            push(m, start, MAC_EV_START, MAC_PHASE_START, s, x->gen);
        return;
    }
    x->chain_own = -1; /* a new deference window: its period is not known yet */
    x->chain_end = SIM_TIME_NEVER;
    sim_time plan = defer_plan(m, s, t, NONE, &blocker, &x->horizon);
    x->gen++;
    if (plan == t) {
        x->planned = t;
        transmit_or_persist(m, s, t);
        return;
    }
    file_contender(m, s, plan, blocker);
    x->planned = plan;
    if (plan != SIM_TIME_NEVER)
        push(m, plan, MAC_EV_START, MAC_PHASE_START, s, x->gen);
}

/* ---- frames and queues -------------------------------------------------- */

/* A frame's ARRIVAL or DROP at station s. */
static void emit_arrival(mac *m, trace_kind kind, uint32_t s, const frame *f, sim_time now)
{
    if (!wants_whole(m, kind, s)) {
        tally_frame(m, kind, s, f, now);
        return;
    }
    trace_event ev;
    event_of_frame(m, &ev, kind, now, s, f);
    emit(m, &ev);
}

static bool take_next_frame(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    x->has_frame = false;
    if (x->q_len) {
        x->cur = x->q[x->q_head];
        x->q_head = ring_next(x->q_cap, x->q_head);
        x->q_len--;
        x->has_frame = true;
    } else if (x->cls->refill && m->refill(m->refill_ctx, gid(m, s), now, &x->cur)) {
        x->cur.id = ((uint64_t)gid(m, s) << 40) | x->frame_seq++;
        x->c.frames_offered++;
        x->has_frame = true;
        emit_arrival(m, TRACE_ARRIVAL, s, &x->cur, now);
    }
    if (!x->has_frame)
        return false;
    x->collisions = 0;
    x->deferred_first = false;
    x->backoff_slots = 0;
    x->bstate = (backoff_state){0};
    x->bstate.frame_ps = frame_wire_ps(m, x->cur.bytes, false); /* the ALOHA unit */
    return true;
}

static void next_frame_or_idle(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    x->in_burst = false;
    if (take_next_frame(m, s, now))
        become_ready(m, s, now);
    else
        x->state = MAC_IDLE;
}

/* A frame offered to station s and lost (counted and traced as a drop). */
static void drop_frame(mac *m, uint32_t s, frame *fr, sim_time now)
{
    m->st[s].c.frames_dropped++;
    emit_arrival(m, TRACE_DROP, s, fr, now);
}

void mac_drop(mac *m, uint32_t s, const frame *f, sim_time now)
{
    station *x = &m->st[s];
    frame fr = *f;
    fr.id = ((uint64_t)gid(m, s) << 40) | x->frame_seq++;
    x->c.frames_offered++;
    drop_frame(m, s, &fr, now);
}

static inline __attribute__((always_inline)) bool enqueue(mac *m, uint32_t s, const frame *f,
                                                          sim_time now, bool keep_id);

bool mac_enqueue(mac *m, uint32_t s, const frame *f, sim_time now)
{
    return enqueue(m, s, f, now, false);
}

bool mac_forward(mac *m, uint32_t s, const frame *f, sim_time now)
{
    return enqueue(m, s, f, now, true);
}

static inline __attribute__((always_inline)) bool enqueue(mac *m, uint32_t s, const frame *f,
                                                          sim_time now, bool keep_id)
{
    station *x = &m->st[s];
    frame fr = *f;
    if (!keep_id)
        fr.id = ((uint64_t)gid(m, s) << 40) | x->frame_seq++;
    x->c.frames_offered++;
    uint32_t held = x->q_len + (x->has_frame ? 1 : 0);
    uint32_t capacity = x->cls->queue_capacity;
    if (held >= capacity) {
        drop_frame(m, s, &fr, now);
        return false;
    }
    if (x->q_len == x->q_cap) {
        uint32_t cap = x->q_cap ? x->q_cap * 2 : 4;
        if (cap > capacity)
            cap = capacity;
        frame *q = ring_grow(x->q, sizeof *q, x->q_cap, x->q_head, x->q_len, cap);
        if (!q) {
            *m->no_memory = true; /* the frame is lost; the run stops */
            return false;
        }
        x->q = q;
        x->q_cap = cap;
        x->q_head = 0;
    }
    x->q[ring_tail(x->q_cap, x->q_head, x->q_len)] = fr;
    x->q_len++;
    emit_arrival(m, TRACE_ARRIVAL, s, &fr, now);
    if (x->state == MAC_IDLE)
        next_frame_or_idle(m, s, now);
    return true;
}

/* ---- transmission ------------------------------------------------------- */

/* Keeps s's entry in cd_reach: a signal reaching a transmitter in a frame
 * or an extension before its end and before the collision it already
 * expects schedules a collision; nothing else does. */
static void cd_watch(mac *m, uint32_t s)
{
    station *x = &m->st[s];
    if (!m->cd_live && !x->in_cd)
        return; /* quiet: cd_wake sets it if a crowd asks */
    bool on = x->transmitter != NONE && (x->state == MAC_TX || x->state == MAC_BURST_GAP);
    medium_reach_set(m->cd_reach, s,
                     on ? (x->cd_pending < x->tx_end ? x->cd_pending : x->tx_end)
                        : MEDIUM_REACH_NONE);
    x->in_cd = on;
}

/* cd_reach from the transmitters, before a crowd's question. */
static __attribute__((cold, noinline)) void cd_wake(mac *m)
{
    m->cd_live = true;
    for (uint32_t i = 0; i < m->n_transmitters; i++)
        cd_watch(m, m->transmitters[i]);
}

static void schedule_collision(mac *m, uint32_t s, sim_time t)
{
    station *x = &m->st[s];
    if (t >= x->tx_end || t >= x->cd_pending)
        return;
    x->cd_pending = t;
    cd_watch(m, s);
    push(m, t, MAC_EV_COLLISION, MAC_PHASE_COLLISION, s, x->tx_seq);
}

/* The traces of a transmission, out of the hot paths (only a trace
 * asks for them): each begins as tx_event. */
static void tx_event(const mac *m, trace_event *ev, trace_kind kind, sim_time now, uint32_t s,
                     trace_tx_kind tx_kind)
{
    const station *x = &m->st[s];
    frame_event(m, ev, kind, now, s);
    ev->tx_id = x->trace_id;
    ev->tx_kind = tx_kind;
    ev->tx_start = x->tx_start;
}

static __attribute__((cold, noinline)) void trace_tx_start(mac *m, uint32_t s, sim_time now,
                                                           trace_tx_kind kind)
{
    trace_event ev;
    tx_event(m, &ev, TRACE_TX_START, now, s, kind);
    ev.tx_end = SIM_TIME_NEVER;
    ev.probe_start = now + medium_probe_delay(m->med, s);
    emit(m, &ev);
}

static __attribute__((cold, noinline)) void trace_tx_end(mac *m, uint32_t s, sim_time now,
                                                         mac_state was)
{
    const station *x = &m->st[s];
    bool extension = was == MAC_BURST_GAP || (was == MAC_JAM && x->jam_in_gap);
    trace_event ev;
    tx_event(m, &ev, TRACE_TX_END, now, s, extension ? TRACE_TX_EXTENSION : TRACE_TX_FRAME);
    ev.tx_end = now;
    ev.jam_start = x->jam_start;
    ev.probe_start = x->tx_start + medium_probe_delay(m->med, s);
    ev.bits_on_wire = (uint64_t)((now - x->tx_start) / m->bit_ps);
    if (was == MAC_JAM)
        ev.attempt = x->collisions;
    emit(m, &ev);
}

static __attribute__((cold, noinline)) void trace_collision(mac *m, uint32_t s, sim_time now,
                                                            bool in_frame)
{
    const station *x = &m->st[s];
    trace_event ev;
    tx_event(m, &ev, TRACE_COLLISION, now, s, in_frame ? TRACE_TX_FRAME : TRACE_TX_EXTENSION);
    ev.late = x->late;
    ev.attempt = x->collisions;
    emit(m, &ev);
    ev.kind = TRACE_JAM; /* reported now; the jam itself starts at jam_start */
    ev.jam_start = x->jam_start;
    ev.tx_end = x->tx_end;
    emit(m, &ev);
}

static void relay_started(mac *m, uint32_t s, sim_time now);

/* Puts a transmission on the medium: a frame attempt, or (kind
 * TRACE_TX_EXTENSION) the extension that fills the gap inside a burst, or
 * at a repeater's port (MAC_RELAY) a relay, whose end is not known yet.
 * (Relays go through here and on_tx_end, not through code of their own,
 * so that every medium operation keeps one call site: the compiler then
 * inlines them into the hot paths.) */
static void begin_transmission(mac *m, uint32_t s, sim_time now, trace_tx_kind kind)
{
    station *x = &m->st[s];
    const bool relay = __builtin_expect(x->state == MAC_RELAY, 0);
    /* Full duplex (a link's end): no one defers to its signal or collides
     * with it, so it stays out of the transmitters and collision events. */
    const bool fd = x->fd;
    sim_time len = kind == TRACE_TX_FRAME ? frame_wire_ps(m, x->cur.bytes, x->in_burst)
                                          : m->ifg_ps;
    if (relay)
        len = SIM_TIME_NEVER - now;
    x->tx_id = medium_tx_begin(m->med, s, now, kind);
    /* its number in the traces: the medium's id on one segment, the
     * run's counter on a network (the media's are per segment) */
    x->trace_id = __builtin_expect(m->networked, 0) ? (*m->trace_ids)++ : x->tx_id;
    if (x->tx_id == UINT64_MAX || (!fd && collision_events_begin(m->events, s, now) != 0)) {
        *m->no_memory = true; /* nothing is sent; the run stops */
        return;
    }
    x->tx_seq++;
    x->tx_start = now;
    x->tx_end = now + len;
    x->jam_start = SIM_TIME_NEVER;
    x->cd_pending = SIM_TIME_NEVER;
    x->late = false;
    if (!fd) {
        m->tr_start[m->n_transmitters] = now;
        m->tr_end[m->n_transmitters] = x->tx_end;
        m->tr_pos[m->n_transmitters] = medium_station_pos(m->med, s);
        list_add(m->transmitters, &m->n_transmitters, &x->transmitter, s);
    }
    /* A frame is judged at its receiver if sent whole; a held relay, by
     * the network's verdict: either reads the record until then. (One
     * call: the compiler inlines it.) */
    if (relay ? x->relay_hold : kind == TRACE_TX_FRAME)
        medium_hold(m->med, x->tx_id);
    if (relay) {
        relay_started(m, s, now);
    } else {
        x->state = kind == TRACE_TX_FRAME ? MAC_TX : MAC_BURST_GAP;
        if (kind == TRACE_TX_FRAME) {
            x->c.attempts++;
            if (x->collisions == 0 && now > x->ready_at)
                x->deferred_first = true;
        }
        x->end_gen++;
        if (m->networked)
            m->net.on_signal(m->net.ctx, s, now, true, kind == TRACE_TX_FRAME ? &x->cur : NULL,
                             x->collisions + 1, x->backoff_slots, false);

        if (wants(m, TRACE_TX_START))
            trace_tx_start(m, s, now, kind);

        /* Without collision detection (ALOHA, full duplex) the frame is sent
         * whole and no one is told of an overlap: its fate is the
         * receiver's verdict. */
        if (!x->detects) {
            push(m, x->tx_end, MAC_EV_TX_END, MAC_PHASE_END, s, x->end_gen);
        } else {
            cd_watch(m, s); /* (others' signals may now collide with it) */
            /* Collision detect, 4.2.3.2.4: signals already on their way to s... */
            schedule_collision(m, s, medium_foreign_signal_from(m->med, s, now));
            /* (a collision already known ends the transmission early:
             * on_collision schedules the end then, and an end event now
             * would only go stale) */
            if (x->cd_pending == SIM_TIME_NEVER)
                push(m, x->tx_end, MAC_EV_TX_END, MAC_PHASE_END, s, x->end_gen);
        }
    }
    /* ...and this signal on its way to every other transmitter it reaches
     * in time (cd_reach), in the order of the transmitters' list, which is
     * the order their COLLISION events are queued in. */
    if (!relay && !x->detects) {
        /* (ALOHA's signal tells no transmitter: see above) */
    } else if (m->n_transmitters <= CROWD) { /* a handful: walk them */
        for (uint32_t i = 0; i < m->n_transmitters; i++) {
            uint32_t k = m->transmitters[i];
            if (k != s && m->st[k].detects &&
                (m->st[k].state == MAC_TX || m->st[k].state == MAC_BURST_GAP))
                schedule_collision(m, k, now + medium_delay(m->med, s, k));
        }
    } else {
        if (!m->cd_live)
            cd_wake(m);
        size_t n = medium_reach_find(m->cd_reach, s, now, m->found);
        uint32_t *f = m->found;
        for (size_t i = 1; i < n; i++) {
            uint32_t v = f[i];
            size_t j = i;
            for (; j > 0 && m->st[f[j - 1]].transmitter > m->st[v].transmitter; j--)
                f[j] = f[j - 1];
            f[j] = v;
        }
        for (size_t i = 0; i < n; i++)
            schedule_collision(m, f[i], now + medium_delay(m->med, s, f[i]));
    }
    replan_after_start(m, s, now);
}

static void on_start(mac *m, uint32_t s, sim_time now, uint32_t gen)
{
    station *x = &m->st[s];
    if (x->state != MAC_DEFER || gen != x->gen)
        return;
    assert(now == x->planned);
    contender_remove(m, s);
    transmit_or_persist(m, s, now);
}

/* Deference is over at `now`. 1-persistent (802.3, and every policy whose
 * persist_p is 1): transmit. p-persistent CSMA (Kleinrock and Tobagi 1975;
 * p = 1/N is Metcalfe and Boggs' 1976 model): transmit with probability
 * p, else wait one slotTime, then defer and decide again; the wait is not
 * an attempt and draws nothing from the policy's backoff. */
static void transmit_or_persist(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    if (x->cls->caps.persist_p < 1.0 && !backoff_policy_persist(x->cls->policy, &x->r)) {
        x->state = MAC_BACKOFF;
        x->backoff_slots = 1;
        x->backoff_until = now + m->slot_ps;
        x->gen++;
        push(m, x->backoff_until, MAC_EV_READY, MAC_PHASE_READY, s, x->gen);
        return;
    }
    begin_transmission(m, s, now, TRACE_TX_FRAME);
}

/* collisionDetect at a transmitter (4.2.3.2.3-4): finish the preamble and
 * SFD if still in them, then jamSize bits. A collision more than slotTime
 * after the first preamble bit is late (WatchForCollision); in a burst,
 * every collision after the first frame is late (4.2.3.4). */
static void on_collision(mac *m, uint32_t s, sim_time now, uint32_t seq)
{
    station *x = &m->st[s];
    if (seq != x->tx_seq || now != x->cd_pending ||
        (x->state != MAC_TX && x->state != MAC_BURST_GAP))
        return;
    assert(now < x->tx_end);
    x->cd_pending = SIM_TIME_NEVER;
    bool in_frame = x->state == MAC_TX;
    x->late = x->in_burst || !in_frame || now - x->tx_start > m->slot_ps;
    if (in_frame)
        x->collisions++;
    x->c.collisions++;
    if (x->late)
        x->c.late_collisions++;
    sim_time preamble_end = x->tx_start + (in_frame ? m->pre_ps : 0);
    x->jam_start = now > preamble_end ? now : preamble_end;
    x->tx_end = x->jam_start + m->jam_ps;
    m->tr_end[x->transmitter] = x->tx_end;
    x->jam_in_gap = !in_frame;
    x->state = MAC_JAM;
    cd_watch(m, s);
    x->end_gen++;
    push(m, x->tx_end, MAC_EV_TX_END, MAC_PHASE_END, s, x->end_gen);

    if (wants(m, TRACE_COLLISION) || wants(m, TRACE_JAM))
        trace_collision(m, s, now, in_frame);
}

static uint32_t rx_alloc(mac *m)
{
    if (m->rx_free == NONE) {
        uint32_t cap = m->rx_cap ? m->rx_cap * 2 : 16;
        pending_rx *rx = realloc(m->rx, cap * sizeof *rx);
        if (!rx) {
            *m->no_memory = true; /* the reception is not judged; the run stops */
            return NONE;
        }
        for (uint32_t i = m->rx_cap; i < cap; i++)
            rx[i].next_free = i + 1 < cap ? i + 1 : NONE;
        m->rx = rx;
        m->rx_free = m->rx_cap;
        m->rx_cap = cap;
    }
    uint32_t i = m->rx_free;
    m->rx_free = m->rx[i].next_free;
    return i;
}

/* LayerMgmtTransmitCounters (5.2.4.2) for a frame that succeeded. */
static void count_success(mac *m, uint32_t s)
{
    station *x = &m->st[s];
    uint32_t attempts = x->collisions + 1;
    uint32_t bytes = x->cur.bytes < m->phy.min_frame_bytes ? m->phy.min_frame_bytes : x->cur.bytes;
    x->c.frames_transmitted_ok++;
    x->c.octets_transmitted_ok += bytes - 18; /* data and pad: not DA, SA, type, FCS */
    if (attempts == 2)
        x->c.single_collision_frames++;
    else if (attempts > 2)
        x->c.multiple_collision_frames++;
    if (x->deferred_first && attempts == 1)
        x->c.frames_with_deferred_xmissions++;
}

/* transmitOK for station s's frame (TRACE_TX_OK). */
static void emit_tx_ok(mac *m, uint32_t s, sim_time now)
{
    const station *x = &m->st[s];
    if (!wants_whole(m, TRACE_TX_OK, s)) {
        tally_frame(m, TRACE_TX_OK, s, &x->cur, now);
        return;
    }
    trace_event ev;
    frame_event(m, &ev, TRACE_TX_OK, now, s);
    ev.tx_id = x->trace_id;
    emit(m, &ev);
}

static void give_up(mac *m, uint32_t s, sim_time now, trace_abort_reason why)
{
    station *x = &m->st[s];
    if (why == TRACE_ABORT_LATE_COLLISION)
        x->c.frames_late_discarded++;
    else
        x->c.frames_aborted_xs_colls++;
    if (!wants_whole(m, TRACE_ABORT, s)) {
        tally_frame(m, TRACE_ABORT, s, &x->cur, now);
    } else {
        trace_event ev;
        frame_event(m, &ev, TRACE_ABORT, now, s);
        ev.attempt = x->collisions;
        ev.abort_reason = why;
        emit(m, &ev);
    }
    next_frame_or_idle(m, s, now);
}

/* Frame bursting (4.2.3.4): after a successful frame at 1 Gb/s, another
 * queued frame may follow after a gap filled with extension while the
 * burst timer runs. As in the Pascal model (TransmitLinkMgmt sets
 * `bursting` just before the burst's first frame starts; the BurstTimer
 * process clears it burstLimit bit times later), the timer starts with the
 * first frame and is read when the previous frame ends. */
static bool burst_continues(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    if (!m->phy.bursting)
        return false;
    if (!x->in_burst)
        x->burst_origin = x->tx_start;
    if (now - x->burst_origin >= (sim_time)m->phy.burst_limit_bits * m->bit_ps)
        return false;
    return x->q_len > 0 || x->cls->refill;
}

/* After a collision (or, without CD, a failed delivery): the policy draws
 * the wait, counted from now (802.3 4.2.3.2.5: from the end of the jam). */
static void start_backoff(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    backoff_draw d = backoff_policy_draw(x->cls->policy, &x->bstate, x->collisions, &x->r);
    x->backoff_slots = d.slots;
    x->backoff_until = now + d.wait_ps;
    x->state = MAC_BACKOFF;
    x->gen++;
    if (wants(m, TRACE_BACKOFF)) {
        trace_event b;
        frame_event(m, &b, TRACE_BACKOFF, now, s);
        b.attempt = x->collisions;
        b.backoff_ps = d.wait_ps;
        emit(m, &b);
    }
    push(m, x->backoff_until, MAC_EV_READY, MAC_PHASE_READY, s, x->gen);
}

/* Capture avoidance after US patent 5,854,900 (policy ca-beb): a station
 * that has just sent a frame and has another adds yield_ps (a slot) to the
 * gap before it, so a station whose backoff has ended gets the medium
 * first; the frame is marked so that the policy can apply the patent's
 * zero delay after its first collision. The station waits as in a
 * backoff, then defers as usual. */
static void next_frame_after_yield(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    x->in_burst = false;
    if (!take_next_frame(m, s, now)) {
        x->state = MAC_IDLE;
        return;
    }
    x->bstate.follows_success = true;
    x->state = MAC_BACKOFF;
    x->backoff_until = now + m->ifg_ps + x->cls->caps.yield_ps;
    x->gen++;
    push(m, x->backoff_until, MAC_EV_READY, MAC_PHASE_READY, s, x->gen);
}

/* Station s has sent its frame whole: its reception is judged once the
 * last bit has passed the receiver (the farthest one for a broadcast), by
 * a DELIVER event; on a network, a receiver on another segment (or any,
 * for a broadcast) is the network's to judge (mac_net_hooks.on_remote).
 * Returns how long after now the verdict comes, SIM_TIME_NEVER when the
 * network gives it. */
static inline __attribute__((always_inline)) sim_time judge_reception(mac *m, uint32_t s,
                                                                      sim_time now)
{
    station *x = &m->st[s];
    uint32_t d;
    if (__builtin_expect(m->networked, 0)) {
        if ((d = dest_tap(m, x->cur.dest)) == NONE || (m->bridged && gid(m, s) >= m->n_all)) {
            m->net.on_remote(m->net.ctx, s, x->tx_id, x->trace_id, &x->cur, x->collisions + 1,
                             now);
            return SIM_TIME_NEVER;
        }
    } else {
        d = x->cur.dest == FRAME_BROADCAST || x->cur.dest >= m->n ? NONE : x->cur.dest;
    }
    uint32_t i = rx_alloc(m);
    if (i == NONE)
        return 0;
    m->rx[i].tx_id = x->tx_id;
    m->rx[i].trace_id = x->trace_id;
    m->rx[i].f = x->cur;
    m->rx[i].station = s;
    m->rx[i].attempt = x->collisions + 1;
    sim_time tail = d == NONE ? medium_max_delay(m->med) : medium_delay(m->med, s, d);
    push(m, now + tail, MAC_EV_DELIVER, MAC_PHASE_DELIVER, s, i);
    return tail;
}

/* No collision detection (ALOHA): the frame was sent whole and its sender
 * cannot tell whether it got through. It keeps the frame and waits for the
 * receiver's verdict (on_deliver), the acknowledgement of Abramson's
 * ALOHA reduced to its outcome; it does nothing meanwhile. */
static void full_duplex_sent(mac *m, uint32_t s, sim_time now);

static void await_verdict(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    if (x->fd) { /* no collision can have touched it */
        full_duplex_sent(m, s, now);
        return;
    }
    x->awaiting = true;
    x->state = MAC_BACKOFF; /* idle until the verdict; no READY is pending */
    x->backoff_slots = 0;
    x->gen++;
    sim_time tail = judge_reception(m, s, now);
    x->backoff_until = tail == SIM_TIME_NEVER ? SIM_TIME_NEVER : now + tail;
}

/* The verdict on a frame sent without collision detection: a success is
 * counted as 802.3 counts one (at the verdict); a failure counts as a
 * collision of the frame, and the policy's backoff or attempt limit
 * applies as after a detected collision. */
static void on_verdict(mac *m, uint32_t s, sim_time now, bool ok)
{
    station *x = &m->st[s];
    x->awaiting = false;
    if (ok) {
        count_success(m, s);
        emit_tx_ok(m, s, now);
        x->has_frame = false;
        next_frame_or_idle(m, s, now);
        return;
    }
    x->collisions++;
    x->c.collisions++;
    if (x->cls->attempt_limit && x->collisions >= x->cls->attempt_limit) {
        give_up(m, s, now, TRACE_ABORT_EXCESSIVE_COLLISIONS);
    } else {
        x->bstate.attempt_ps = x->bstate.frame_ps;
        start_backoff(m, s, now);
    }
}

/* Full duplex (a link's end): a frame sent is sent whole, as 802.3
 * counts a success; the network judges its reception; the next frame
 * waits for the gap only (become_ready). */
static __attribute__((noinline)) void full_duplex_sent(mac *m, uint32_t s, sim_time now)
{
    station *x = &m->st[s];
    count_success(m, s);
    emit_tx_ok(m, s, now);
    judge_reception(m, s, now);
    x->has_frame = false;
    next_frame_or_idle(m, s, now);
}

static void on_tx_end(mac *m, uint32_t s, sim_time now, uint32_t gen)
{
    station *x = &m->st[s];
    if (gen != x->end_gen)
        return;
    assert(now == x->tx_end);
    mac_state was = x->state;
    medium_tx_end(m->med, x->tx_id, now);
    if (m->networked)
        m->net.on_signal(m->net.ctx, s, now, false, NULL, 0, 0, was == MAC_TX);
    if (!x->fd) { /* (see begin_transmission) */
        collision_events_end(m->events, s, now);
        transmitters_remove(m, s);
    }
    uint32_t waiting = m->blocked_head[s]; /* re-planned once s is settled */
    m->blocked_head[s] = NONE;
    if (__builtin_expect(was == MAC_RELAY, 0))
        goto settled; /* (its trace event was mac_relay_end's; one call site
                         each for what follows: see begin_transmission) */

    if (wants(m, TRACE_TX_END))
        trace_tx_end(m, s, now, was);

    if (was == MAC_BURST_GAP) {
        if (take_next_frame(m, s, now)) {
            x->in_burst = true;
            x->ready_at = now;
            begin_transmission(m, s, now, TRACE_TX_FRAME);
        } else {
            next_frame_or_idle(m, s, now); /* the source had nothing after all */
        }
    } else if (was == MAC_JAM && x->jam_in_gap) {
        /* A collision cut the burst's extension (late by definition, and
         * counted): no frame was under way, so the burst simply ends. */
        next_frame_or_idle(m, s, now);
    } else if (was == MAC_JAM) {
        medium_release(m->med, x->tx_id);
        if (x->late && !m->phy.retry_late) {
            give_up(m, s, now, TRACE_ABORT_LATE_COLLISION);
        } else if (x->cls->attempt_limit && x->collisions >= x->cls->attempt_limit) {
            give_up(m, s, now, TRACE_ABORT_EXCESSIVE_COLLISIONS);
        } else {
            x->bstate.attempt_ps = now - x->tx_start; /* read by ppersistent */
            start_backoff(m, s, now);
        }
    } else if (!x->detects) {
        assert(was == MAC_TX);
        await_verdict(m, s, now); /* full duplex too: it sends at once */
    } else {
        assert(was == MAC_TX);
        count_success(m, s);
        emit_tx_ok(m, s, now);
        judge_reception(m, s, now);
        x->has_frame = false; /* done with it: the queue no longer holds it */
        if (burst_continues(m, s, now)) {
            x->in_burst = true;
            begin_transmission(m, s, now, TRACE_TX_EXTENSION);
        } else if (x->cls->caps.yield_ps > 0) {
            next_frame_after_yield(m, s, now);
        } else {
            next_frame_or_idle(m, s, now);
        }
    }
settled:
    replan_blocked(m, waiting, s, now);
    medium_retire(m->med, now);
}

/* The verdict on station s's frame (sent whole): counted, reported with
 * the frame's span at its receiver [rx_start, now), and a request handed
 * to on_rx. (The caller releases the frame's medium record, if it holds
 * one.) */
static inline __attribute__((always_inline)) void
verdict(mac *m, uint32_t s, uint64_t trace_id, const frame *f, uint32_t attempt, bool ok,
        sim_time rx_start, sim_time now)
{
    station *x = &m->st[s];
    if (ok)
        x->c.frames_delivered++;
    else
        x->c.frames_corrupted++;
    if (!wants_whole(m, TRACE_DELIVER, s)) {
        tally(m, &(trace_tally){.kind = TRACE_DELIVER, .time = now, .station = gid(m, s),
                                .frame_bytes = f->bytes, .ok = ok, .queued_at = f->queued_at,
                                .tx_start = rx_start});
    } else {
        trace_event ev;
        event_of_frame(m, &ev, TRACE_DELIVER, now, s, f);
        ev.attempt = attempt;
        ev.collisions = attempt - 1;
        ev.tx_id = trace_id;
        ev.tx_start = rx_start;
        ev.tx_end = now;
        ev.ok = ok;
        emit(m, &ev);
    }
    if (ok && m->on_rx && f->dest != FRAME_BROADCAST && f->dest < m->n_all)
        m->on_rx(m->rx_ctx, f->dest, gid(m, s), f, now);
}

static void on_deliver(mac *m, sim_time now, uint32_t i)
{
    pending_rx *p = &m->rx[i];
    uint32_t d = dest_tap(m, p->f.dest);
    bool ok;
    if (d == NONE) {
        ok = true; /* received by every other station */
        for (uint32_t j = 0; j < m->n && ok; j++)
            if (j != p->station && medium_overlapped_at(m->med, p->tx_id, j))
                ok = false;
    } else {
        ok = !medium_overlapped_at(m->med, p->tx_id, d);
    }
    /* The frame's span at its receiver (the farthest one for a broadcast):
     * its transmission, shifted by the tail the verdict waited for. */
    const medium_tx *t = medium_tx_get(m->med, p->tx_id); /* held: still live */
    sim_time tail = now - t->end;
    uint32_t s = p->station;
    uint64_t tx_id = p->tx_id;
    verdict(m, s, p->trace_id, &p->f, p->attempt, ok, t->start + tail, now);
    medium_release(m->med, tx_id);
    p->next_free = m->rx_free;
    m->rx_free = i;
    if (m->st[s].awaiting && m->st[s].tx_id == tx_id)
        on_verdict(m, s, now, ok); /* no CD (ALOHA): the sender learns its fate */
}

/* The verdicts a network judged (mac_remote_verdict, mac_bridged_verdict):
 * one call site of verdict apart from on_deliver's, kept out of the hot
 * paths it shares callees with (emit), so that they stay inlined. */
static __attribute__((cold, noinline)) void network_verdict(mac *m, uint32_t tap,
                                                            uint64_t trace_id, const frame *f,
                                                            uint32_t attempt, bool ok,
                                                            sim_time rx_start, sim_time now)
{
    verdict(m, tap, trace_id, f, attempt, ok, rx_start, now);
}

void mac_remote_verdict(mac *m, uint32_t tap, uint64_t tx_id, uint64_t trace_id, const frame *f,
                        uint32_t attempt, bool ok, sim_time rx_start, sim_time now)
{
    network_verdict(m, tap, trace_id, f, attempt, ok, rx_start, now);
    medium_release(m->med, tx_id);
    if (m->st[tap].awaiting && m->st[tap].tx_id == tx_id)
        on_verdict(m, tap, now, ok); /* no CD (ALOHA): the sender learns its fate */
}

void mac_bridged_verdict(mac *m, uint32_t tap, uint64_t trace_id, const frame *f,
                         uint32_t attempt, bool ok, sim_time rx_start, sim_time now)
{
    network_verdict(m, tap, trace_id, f, attempt, ok, rx_start, now);
    const station *x = &m->st[tap];
    if (x->awaiting && x->has_frame && x->cur.id == f->id)
        on_verdict(m, tap, now, ok); /* no CD (ALOHA): the sender learns its fate, end to end */
}

uint64_t mac_tap_tx_id(const mac *m, uint32_t tap) { return m->st[tap].tx_id; }

/* ---- a repeater's port --------------------------------------------------- */

/* A relay's trace event: what it carries (mac_carried), as a frame event
 * of the sender's would say it. */
static void relay_event(const mac *m, trace_event *ev, trace_kind kind, sim_time now, uint32_t s,
                        const mac_carried *what)
{
    const station *x = &m->st[s];
    *ev = (trace_event){.kind = kind, .time = now, .station = TRACE_NO_STATION,
                        .segment = m->segment, .tap = s, .dest = TRACE_NO_DEST,
                        .tx_id = x->trace_id, .tx_start = x->tx_start, .tx_end = SIM_TIME_NEVER,
                        .jam_start = SIM_TIME_NEVER,
                        .probe_start = x->tx_start + medium_probe_delay(m->med, s),
                        .relay_from = TRACE_NO_STATION, .relay_sent_at = SIM_TIME_NEVER};
    if (what != NULL && what->f != NULL) {
        put_frame(ev, what->f);
        ev->attempt = what->attempt;
        ev->collisions = what->attempt > 0 ? what->attempt - 1 : 0;
        ev->backoff_slots = what->backoff_slots;
        ev->relay_from = what->sender;
        ev->relay_sent_at = what->sent_at;
    }
}

/* A relay has begun (begin_transmission put it on the medium, and
 * tells every transmitter and contender it reaches in time). */
static void relay_started(mac *m, uint32_t s, sim_time now)
{
    cd_watch(m, s);
    m->net.on_signal(m->net.ctx, s, now, true, NULL, 0, 0, false);
    if (wants(m, TRACE_RELAY_START)) {
        trace_event ev;
        relay_event(m, &ev, TRACE_RELAY_START, now, s, m->relay_what);
        emit(m, &ev);
    }
}

uint64_t mac_relay_begin(mac *m, uint32_t s, sim_time now, bool hold, const mac_carried *what)
{
    assert(m->st[s].state == MAC_RELAY && m->st[s].transmitter == NONE);
    m->st[s].relay_hold = hold;
    m->relay_what = what; /* for relay_started's trace event */
    begin_transmission(m, s, now, TRACE_TX_FRAME);
    m->relay_what = NULL;
    return *m->no_memory ? UINT64_MAX : m->st[s].tx_id;
}

void mac_relay_end(mac *m, uint32_t s, sim_time now, const mac_carried *what, bool whole)
{
    station *x = &m->st[s];
    assert(x->state == MAC_RELAY && x->transmitter != NONE);
    x->tx_end = now;
    /* next, before any other event of the MAC at this instant (the
     * network calls this in phase 1 of mac.h's ordering) */
    push(m, now, MAC_EV_TX_END, MAC_PHASE_END - 1, s, x->end_gen);
    /* Reported now, while what it carried is known (the end itself comes
     * by that event, at this instant). A frame cut short without jam (its
     * sender's fragment, repeated) was the frame's signal to its end. */
    if (wants(m, TRACE_RELAY_END)) {
        trace_event ev;
        relay_event(m, &ev, TRACE_RELAY_END, now, s, what);
        ev.tx_end = now;
        ev.jam_start = whole                          ? SIM_TIME_NEVER
                       : x->jam_start != SIM_TIME_NEVER ? x->jam_start
                       : what != NULL && what->f != NULL ? now
                                                         : SIM_TIME_NEVER;
        ev.relay_whole = whole;
        ev.bits_on_wire = (uint64_t)((now - x->tx_start) / m->bit_ps);
        emit(m, &ev);
    }
}

void mac_relay_jam(mac *m, uint32_t s, sim_time now, const mac_carried *what)
{
    station *x = &m->st[s];
    assert(x->state == MAC_RELAY && x->transmitter != NONE);
    if (x->jam_start != SIM_TIME_NEVER)
        return; /* jamming already */
    x->jam_start = now;
    if (wants(m, TRACE_RELAY_JAM)) {
        trace_event ev;
        relay_event(m, &ev, TRACE_RELAY_JAM, now, s, what);
        ev.jam_start = now;
        emit(m, &ev);
    }
}

static void on_ready(mac *m, uint32_t s, sim_time now, uint32_t gen)
{
    station *x = &m->st[s];
    if (x->state != MAC_BACKOFF || gen != x->gen)
        return;
    become_ready(m, s, now);
}

void mac_handle(mac *m, const sim_event *ev)
{
    uint32_t s = ev->target;
    switch (ev->type) {
    case MAC_EV_TX_END:
        on_tx_end(m, s, ev->time, (uint32_t)ev->arg);
        break;
    case MAC_EV_COLLISION:
        on_collision(m, s, ev->time, (uint32_t)ev->arg);
        break;
    case MAC_EV_DELIVER:
        on_deliver(m, ev->time, (uint32_t)ev->arg);
        break;
    case MAC_EV_READY:
        on_ready(m, s, ev->time, (uint32_t)ev->arg);
        break;
    case MAC_EV_START:
        on_start(m, s, ev->time, (uint32_t)ev->arg);
        break;
    default:
        assert(!"not a MAC event");
    }
}

/* ---- life cycle and views ----------------------------------------------- */

int mac_create(const mac_config *cfg, mac **out)
{
    mac *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->phy = *cfg->phy;
    const phy_timing t = phy_timing_of(&m->phy);
    m->bit_ps = t.bit_ps;
    m->slot_ps = t.slot_ps;
    m->ifg_ps = t.ifg_ps;
    m->part1_ps = t.ifg_part1_ps;
    m->jam_ps = t.jam_ps;
    m->pre_ps = t.preamble_ps;
    m->n = cfg->n_stations;
    m->med = cfg->medium;
    m->q = cfg->queue;
    m->refill = cfg->refill;
    m->refill_ctx = cfg->refill_ctx;
    m->on_rx = cfg->on_rx;
    m->rx_ctx = cfg->rx_ctx;
    m->arg_tag = (uint64_t)cfg->segment << 32;
    m->tap_of = cfg->tap_of;
    m->n_all = cfg->station_id ? cfg->n_all_stations : m->n;
    m->trace_ids = cfg->trace_ids;
    m->no_memory = cfg->no_memory ? cfg->no_memory : &m->own_oom;
    m->segment = cfg->segment;
    m->networked = cfg->net != NULL && cfg->trace_ids != NULL;
    if (cfg->net)
        m->net = *cfg->net;
    m->bridged = m->networked && m->net.on_port_event != NULL;
    const mac_class *classes = cfg->classes;
    m->n_cls = cfg->n_classes;
    m->cls = calloc(m->n_cls ? m->n_cls : 1, sizeof *m->cls);
    if (!m->cls) {
        free(m);
        return -1;
    }
    for (uint32_t k = 0; k < m->n_cls; k++) {
        station_class *c = &m->cls[k];
        c->policy = classes[k].policy;
        c->attempt_limit = backoff_policy_attempt_limit(c->policy);
        c->caps = backoff_policy_caps(c->policy);
        c->queue_capacity = classes[k].queue_capacity ? classes[k].queue_capacity : 1;
        c->refill = classes[k].refill && cfg->refill != NULL;
        c->full_duplex = classes[k].full_duplex;
        if (c->full_duplex) {
            c->caps.carrier_sense = false;
            c->caps.collision_detect = false;
            c->caps.slotted = false;
            c->caps.persist_p = 1.0;
            c->caps.yield_ps = 0;
        }
    }
    m->rx_free = NONE;
    m->until_bound = INT64_MIN;
    m->st = calloc(m->n, sizeof *m->st);
    m->timed = malloc(m->n * sizeof *m->timed);
    m->timed_until = malloc(m->n * sizeof *m->timed_until);
    m->blocked_head = malloc(m->n * sizeof *m->blocked_head);
    m->transmitters = malloc(m->n * sizeof *m->transmitters);
    m->tr_start = malloc((m->n ? m->n : 1) * sizeof *m->tr_start);
    m->tr_end = malloc((m->n ? m->n : 1) * sizeof *m->tr_end);
    m->tr_pos = malloc((m->n ? m->n : 1) * sizeof *m->tr_pos);
    m->sinks = malloc((cfg->n_sinks ? cfg->n_sinks : 1) * sizeof *m->sinks);
    m->sink_kinds = malloc((cfg->n_sinks ? cfg->n_sinks : 1) * sizeof *m->sink_kinds);
    m->found = malloc((m->n ? m->n : 1) * sizeof *m->found);
    m->sig_cap = 16;
    m->sig = malloc(m->sig_cap * sizeof *m->sig);
    if (m->found && (medium_reach_create(m->med, &m->cd_reach) != 0 ||
                     medium_reach_create(m->med, &m->plan_reach) != 0 ||
                     collision_events_create(m->med, &m->events) != 0)) {
        mac_destroy(m);
        return -1;
    }
    if (!m->st || !m->timed || !m->timed_until || !m->blocked_head || !m->transmitters ||
        !m->tr_start || !m->tr_end || !m->tr_pos ||
        !m->sinks || !m->sink_kinds || !m->sig || !m->found || !m->events) {
        mac_destroy(m);
        return -1;
    }
    if (cfg->n_sinks)
        memcpy(m->sinks, cfg->sinks, cfg->n_sinks * sizeof *m->sinks);
    m->n_sinks = cfg->n_sinks;
    for (size_t i = 0; i < m->n_sinks; i++) {
        m->sink_kinds[i] = cfg->sink_kinds ? cfg->sink_kinds[i] : TRACE_ALL;
        m->wanted |= m->sink_kinds[i];
        m->whole |= m->sink_kinds[i] & (m->sinks[i].on_tally ? ~TRACE_TALLY_KINDS : TRACE_ALL);
    }
    for (uint32_t s = 0; s < m->n; s++) {
        station *x = &m->st[s];
        x->cls = &m->cls[cfg->class_of ? cfg->class_of[s] : 0];
        x->id = cfg->station_id ? cfg->station_id[s] : s;
        x->state = x->id == MAC_NO_STATION ? MAC_RELAY : MAC_IDLE;
        x->timed = x->transmitter = x->blocker = NONE;
        x->detects = x->cls->caps.collision_detect;
        x->fd = x->cls->full_duplex;
        m->any_fd |= x->fd;
        m->blocked_head[s] = NONE;
        x->planned = SIM_TIME_NEVER;
        x->cd_pending = SIM_TIME_NEVER;
        x->jam_start = SIM_TIME_NEVER;
        if (gid(m, s) >= m->n_all && gid(m, s) != MAC_NO_STATION) /* a bridge port */
            rng_seed_station(&x->r, cfg->seed, gid(m, s) - m->n_all, RNG_PURPOSE_PORT);
        else
            rng_seed_station(&x->r, cfg->seed, gid(m, s), RNG_PURPOSE_BACKOFF);
    }
    *out = m;
    return 0;
}

void mac_destroy(mac *m)
{
    if (!m)
        return;
    if (m->st)
        for (uint32_t s = 0; s < m->n; s++)
            free(m->st[s].q);
    free(m->st);
    free(m->timed);
    free(m->timed_until);
    free(m->blocked_head);
    free(m->transmitters);
    free(m->tr_start);
    free(m->tr_end);
    free(m->tr_pos);
    free(m->sinks);
    free(m->sink_kinds);
    free(m->sig);
    free(m->rx);
    free(m->found);
    free(m->cls);
    medium_reach_destroy(m->cd_reach);
    medium_reach_destroy(m->plan_reach);
    collision_events_destroy(m->events);
    free(m);
}

void mac_start(mac *m, sim_time t)
{
    for (uint32_t s = 0; s < m->n; s++)
        if (m->st[s].state == MAC_IDLE)
            next_frame_or_idle(m, s, t);
}

void mac_view(const mac *m, uint32_t s, mac_station_view *out)
{
    const station *x = &m->st[s];
    out->state = x->state;
    out->attempt = x->has_frame ? x->collisions + (x->state == MAC_JAM ? 0 : 1) : 0;
    out->backoff_until = x->state == MAC_BACKOFF ? x->backoff_until : SIM_TIME_NEVER;
    out->backoff_slots = x->backoff_slots;
    out->queue_len = x->q_len + (x->has_frame ? 1 : 0);
    out->counters = &x->c;
}

const mac_counters *mac_station_counters(const mac *m, uint32_t s) { return &m->st[s].c; }

uint32_t mac_queue_len(const mac *m, uint32_t s)
{
    return m->st[s].q_len + (m->st[s].has_frame ? 1 : 0);
}

void mac_collision_listen(mac *m, const collision_listener *l)
{
    collision_events_listen(m->events, l);
}

uint32_t mac_collision_tag(mac *m, uint32_t s, sim_time start, uint32_t tag)
{
    return m->events ? collision_events_tag(m->events, s, start, tag) : UINT32_MAX;
}

uint64_t mac_collision_events(mac *m, sim_time now)
{
    return collision_events_count(m->events, now);
}

void mac_counters_since(mac_counters *now, const mac_counters *then)
{
    _Static_assert(sizeof *now % sizeof(uint64_t) == 0, "mac_counters holds uint64_t only");
    uint64_t *a = (uint64_t *)now;
    const uint64_t *b = (const uint64_t *)then;
    for (size_t i = 0; i < sizeof *now / sizeof *a; i++)
        a[i] -= b[i];
}

size_t mac_bytes(const mac *m)
{
    size_t b = sizeof *m + m->n_cls * sizeof *m->cls + m->n * (sizeof *m->st + 3 * sizeof(uint32_t) + 4 * sizeof(sim_time)) +
               m->sig_cap * sizeof *m->sig + m->rx_cap * sizeof *m->rx +
               m->n_sinks * sizeof *m->sinks + m->n * sizeof *m->found +
               medium_reach_bytes(m->cd_reach) + medium_reach_bytes(m->plan_reach) +
               collision_events_bytes(m->events);
    for (uint32_t s = 0; s < m->n; s++)
        b += m->st[s].q_cap * sizeof(frame);
    return b;
}
