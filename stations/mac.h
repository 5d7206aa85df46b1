/* mac.h - the 802.3 Clause 4 CSMA/CD MAC of every station on one medium.
 *
 * Implements stations/MODEL.md, "The MAC": deference (the Pascal model's
 * Deference process, with the optional two-part gap of 4.2.3.2.1), transmit,
 * collision detect, preamble/SFD completed before a 32-bit jam, truncated
 * binary exponential backoff through a pluggable policy (backoff.h), late
 * collisions, carrier extension and frame bursting at 1 Gb/s, and the
 * Clause 30 counters, computed as Clause 5.2.4.2 LayerMgmtTransmitCounters
 * states them.
 *
 * Cost: a station does nothing while it backs off or has nothing to send.
 * Only stations with a frame ready and not backing off ("contenders") are
 * re-planned when a transmission starts or ends, and only those a new
 * signal reaches in time (medium_reach); a re-plan answers from the
 * medium's carrier index in O(log n) where it can, and otherwise replays
 * the signals that can matter (stations/MODEL.md, "Deference in a
 * crowd"). A new transmission reaches, in O(log n) each, only the
 * transmitters it can still collide with.
 *
 * The MAC schedules its own events on the engine's queue (types below) and
 * reports everything through trace sinks. It owns each station's transmit
 * queue; traffic sources fill it with mac_enqueue, and saturated or batch
 * sources are asked for a frame through `refill` when a queue runs dry.
 */
#ifndef CSMACD_MAC_H
#define CSMACD_MAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backoff.h"
#include "collision_events.h"
#include "evq.h"
#include "medium.h"
#include "phy.h"
#include "simtime.h"
#include "trace.h"
#include "traffic.h"

typedef struct mac mac;

/* Event types the MAC schedules (the engine passes them back to
 * mac_handle). Types below MAC_EV_LIMIT belong to the MAC; an event's
 * target is a tap, and its arg's upper 32 bits are mac_config.segment
 * (the engine of a network finds the MAC from it; the MAC's own args fit
 * in 32 bits). */
enum {
    MAC_EV_TX_END = 1,  /* a transmission's last bit leaves */
    MAC_EV_COLLISION,   /* a foreign signal reaches a transmitter */
    MAC_EV_DELIVER,     /* a frame's last bit passes its destination */
    MAC_EV_READY,       /* end of a backoff */
    MAC_EV_START,       /* a contender's deference ends: transmit */
    MAC_EV_LIMIT = 16
};

/* Phases: the order of events at one instant (evq.h). The model's
 * decisions see the carrier as it was just before the instant, so results
 * do not depend on this order; it only makes runs reproducible. */
enum {
    MAC_PHASE_END = 2,
    MAC_PHASE_COLLISION = 4,
    MAC_PHASE_DELIVER = 6,
    MAC_PHASE_READY = 8, /* traffic arrivals share this phase */
    MAC_PHASE_START = 10,
    /* A network's repeaters (src/engine/repeater.c) take the phases
     * around these: a relay ends before any MAC event at its instant and
     * begins after every one of them. */
};

/* Clause 30 counters, per station, counted since t = 0; each grows at the
 * instant stated in stations/MODEL.md, "Counters", so the counters of a
 * window are the difference of two snapshots (mac_counters_since). Every
 * field is a uint64_t. */
typedef struct mac_counters {
    uint64_t frames_transmitted_ok;        /* aFramesTransmittedOK 30.3.1.1.2 */
    uint64_t single_collision_frames;      /* aSingleCollisionFrames .3 (attempts == 2) */
    uint64_t multiple_collision_frames;    /* aMultipleCollisionFrames .4 (attempts > 2) */
    uint64_t octets_transmitted_ok;        /* aOctetsTransmittedOK .8 (data and pad) */
    uint64_t frames_with_deferred_xmissions; /* aFramesWithDeferredXmissions .9 */
    uint64_t late_collisions;              /* aLateCollisions .10 */
    uint64_t frames_aborted_xs_colls;      /* aFramesAbortedDueToXSColls .11 */
    uint64_t frames_late_discarded;        /* 1 Gb/s: given up after a late collision */
    uint64_t frames_offered;               /* entered the queue (or were drawn, saturated) */
    uint64_t frames_dropped;               /* lost to a full queue */
    uint64_t collisions;                   /* collisions seen (late ones included) */
    uint64_t attempts;                     /* transmission attempts, collided or not */
    /* Of the frames this station SENT: received whole at their
     * destination, or sent whole and corrupted there. Not Clause 30's
     * aFramesReceivedOK (frames a station receives), hence the names. */
    uint64_t frames_delivered;
    uint64_t frames_corrupted;
} mac_counters;

typedef enum mac_state {
    MAC_IDLE,      /* nothing to send */
    MAC_DEFER,     /* a frame is ready: deferring to carrier or timing the gap */
    MAC_TX,        /* transmitting a frame (preamble through extension) */
    MAC_JAM,       /* collision seen: finishing the preamble, then jamming */
    MAC_BACKOFF,   /* waiting out a backoff */
    MAC_BURST_GAP, /* 1 Gb/s burst: extension between two frames */
    MAC_RELAY,     /* a repeater's port: relaying what the network sends it */
} mac_state;

const char *mac_state_name(mac_state s);

/* What a viewer may know of one station. */
typedef struct mac_station_view {
    mac_state state;
    uint32_t attempt;        /* attempt under way or next (1-based), 0 when idle */
    sim_time backoff_until;  /* MAC_BACKOFF: when it ends */
    uint64_t backoff_slots;  /* the last backoff drawn */
    uint32_t queue_len;      /* frames waiting, the current one included */
    const mac_counters *counters;
} mac_station_view;

/* Asks a pull source for the station's next frame. Returns true and fills
 * *out, or false when the source has nothing (more) to offer. */
typedef bool (*mac_refill_fn)(void *ctx, uint32_t station, sim_time now, frame *out);

/* A unicast frame of `sender` was received whole at `dest`, at `now` (the
 * instant its last bit passed dest). The callee must not call back into
 * the MAC: it schedules what follows (a reply) as an event of its own. */
typedef void (*mac_rx_fn)(void *ctx, uint32_t dest, uint32_t sender, const frame *f,
                          sim_time now);

/* What the stations of one class (a scenario's group) share. The MAC
 * reaches it through each station, one load, with no lookup per event. */
typedef struct mac_class {
    const backoff_policy *policy; /* not owned */
    uint32_t queue_capacity;      /* frames per station (>= 1) */
    bool refill;                  /* ask `refill` for a frame when the queue runs dry */
    /* Full duplex (a link's two ends; stations/MODEL.md, "Bridges and
     * switches"): no carrier sense, no collision detection, only the
     * inter-frame gap between its own frames. */
    bool full_duplex;
} mac_class;

/* A station's number in the run for a tap that is a repeater's port. */
#define MAC_NO_STATION UINT32_MAX
/* A bridge port's number in a segment's station_id: n_all_stations +
 * MAC_BRIDGE_PORT(bridge, port). Its frames keep their ids and senders;
 * its random stream is (seed, this number, RNG_PURPOSE_PORT); its trace
 * events carry that number as their station. */
#define MAC_BRIDGE_PORT(bridge, port) ((uint32_t)(bridge) << 8 | (uint32_t)(port))

/* The network's view of one segment (stations/MODEL.md, "Networks of
 * segments"); NULL for a scenario of one segment, which then costs
 * nothing. The callees must not call back into this MAC: they schedule
 * events of their own. */
typedef struct mac_net_hooks {
    /* A transmission begins or ends at tap `tap` (a station's or a relay):
     * its signal reaches the segment's ports later. At a begin, `f` is the
     * frame it carries (NULL for a burst's extension or a relay), with
     * its attempt and the backoff slots drawn before it; at an end,
     * `whole` says whether it ended as a whole frame. */
    void (*on_signal)(void *ctx, uint32_t tap, sim_time now, bool begin, const frame *f,
                      uint32_t attempt, uint64_t backoff_slots, bool whole);
    /* A frame sent whole whose destination is not on this segment (or a
     * broadcast): the network judges it (mac_remote_verdict). `tx_id`
     * stays held on this medium until then. */
    void (*on_remote)(void *ctx, uint32_t tap, uint64_t tx_id, uint64_t trace_id,
                      const frame *f, uint32_t attempt, sim_time now);
    /* With bridge ports on the segment: every frame a port sends is the
     * network's to judge (on_remote). The network reads the ports' trace
     * events through the sinks it gives this MAC (NULL: no bridges). */
    void (*on_port_event)(void *ctx, const trace_event *ev);
    void *ctx;
} mac_net_hooks;

typedef struct mac_config {
    const phy_params *phy;
    uint32_t n_stations;
    medium *medium;            /* not owned */
    evq *queue;                /* not owned */
    uint64_t seed;
    mac_refill_fn refill;      /* may be NULL */
    void *refill_ctx;
    /* Stations in classes (at least one): class_of[s] indexes classes. */
    const mac_class *classes;  /* copied */
    uint32_t n_classes;
    const uint32_t *class_of;  /* NULL: every station of class 0 */
    mac_rx_fn on_rx;           /* may be NULL */
    void *rx_ctx;
    const trace_sink *sinks;   /* copied */
    const uint32_t *sink_kinds;/* per sink, the kinds it wants (TRACE_BIT);
                                  NULL: every sink wants every kind */
    size_t n_sinks;
    /* Set true when memory runs out while handling an event (a queue, the
     * event queue, a signal or a pending reception could not grow): the
     * MAC leaves the event half done, the run cannot go on and its
     * measures are not valid. The engine's own flag, which its loop reads
     * after every event whatever the MACs; NULL: the MAC's own. Not owned. */
    bool *no_memory;
    /* A segment of a network (all NULL or 0 for one segment, where a tap
     * is a station): */
    const uint32_t *station_id;/* per tap: the station's number in the run,
                                  or MAC_NO_STATION for a repeater's port */
    const uint32_t *tap_of;    /* per station of the run: its tap here, or
                                  MAC_NO_STATION on another segment */
    uint32_t n_all_stations;   /* the run's stations (a dest beyond: broadcast) */
    uint64_t *trace_ids;       /* the run's counter of trace tx ids, shared */
    uint32_t segment;          /* trace_event.segment; its events' arg's upper bits */
    const mac_net_hooks *net;  /* copied */
} mac_config;

/* Returns 0, or -1 when memory cannot be had. */
int mac_create(const mac_config *cfg, mac **out);
void mac_destroy(mac *m);

/* At t: asks every station's source for a first frame. */
void mac_start(mac *m, sim_time t);

/* Handles an event of a MAC type. */
void mac_handle(mac *m, const sim_event *ev);

/* A frame arrives at a station's queue at `now`. Returns true if queued,
 * false if the queue was full (counted and traced as a drop). */
bool mac_enqueue(mac *m, uint32_t station, const frame *f, sim_time now);
/* A frame offered to a station and lost at once, whatever its queue holds
 * (the engine's bound on replies waiting out their think time): counted
 * as offered and dropped, traced as a drop. */
void mac_drop(mac *m, uint32_t station, const frame *f, sim_time now);

/* What a relay carries, for its trace events (trace.h, RELAY_START and
 * RELAY_END): the frame (NULL: jam alone, or a burst's extension), its
 * sender (run-wide station number), attempt, the backoff slots drawn
 * before that attempt, and when the sender began it. */
typedef struct mac_carried {
    const frame *f;
    uint32_t sender, attempt;
    uint64_t backoff_slots;
    sim_time sent_at;
} mac_carried;

/* A repeater's port relays a signal at tap `tap` (stations/MODEL.md,
 * "Networks of segments"): it begins at `now` and lasts until
 * mac_relay_end, which takes it off the medium by an event of its own at
 * `now` (phase 1, before the MAC's), the tap's signal hook reporting the
 * end then. Returns the medium's id of the relay (UINT64_MAX: no
 * memory). Stations defer to it and collide with it like any signal.
 * `hold`: its record stays live until the network's verdict releases it
 * (medium_hold). `what` (not kept) names what it carries, for the trace
 * only; at the end, `whole` says the frame went out whole. */
uint64_t mac_relay_begin(mac *m, uint32_t tap, sim_time now, bool hold, const mac_carried *what);
void mac_relay_end(mac *m, uint32_t tap, sim_time now, const mac_carried *what, bool whole);
/* The relay at `tap` sends jam from `now` on (the repeater answers a
 * collision, or extends a fragment): reported as TRACE_RELAY_JAM, and its
 * TRACE_RELAY_END carries jam_start. Nothing else changes: a signal is a
 * signal to the medium. Once per relay; a second call does nothing. */
void mac_relay_jam(mac *m, uint32_t tap, sim_time now, const mac_carried *what);
/* The network's verdict on a frame it judged (mac_net_hooks.on_remote):
 * counts it, reports TRACE_DELIVER with the frame's span at its receiver
 * [rx_start, now), and releases tx_id. */
void mac_remote_verdict(mac *m, uint32_t tap, uint64_t tx_id, uint64_t trace_id, const frame *f,
                        uint32_t attempt, bool ok, sim_time rx_start, sim_time now);
/* The end-to-end verdict on a frame of station `tap` that crossed bridges
 * (its record on this medium already released): counted and reported as
 * mac_remote_verdict does. */
void mac_bridged_verdict(mac *m, uint32_t tap, uint64_t trace_id, const frame *f,
                         uint32_t attempt, bool ok, sim_time rx_start, sim_time now);
/* A bridge port forwards a frame: queued as mac_enqueue does, keeping the
 * frame's id (its sender's) and queued_at. */
bool mac_forward(mac *m, uint32_t tap, const frame *f, sim_time now);
/* The medium's id of the transmission tap has under way or has just ended. */
uint64_t mac_tap_tx_id(const mac *m, uint32_t tap);

void mac_view(const mac *m, uint32_t station, mac_station_view *out);
const mac_counters *mac_station_counters(const mac *m, uint32_t station);
/* Frames waiting at the station now (the one being sent included). */
uint32_t mac_queue_len(const mac *m, uint32_t station);
/* Collision events on the medium (collision_events.h) complete before
 * `now`, the engine's current instant. */
uint64_t mac_collision_events(mac *m, sim_time now);
/* Tells l of the merges and completions of the components those events
 * are made of, once tagged (a network's collision domain counts its own:
 * collision_events_listen), and the tag of the component of station's
 * transmission begun at start at tap s, given `tag` if it had none
 * (collision_events_tag). */
void mac_collision_listen(mac *m, const collision_listener *l);
uint32_t mac_collision_tag(mac *m, uint32_t s, sim_time start, uint32_t tag);
/* now -= then, field by field: the counts of the window between them. */
void mac_counters_since(mac_counters *now, const mac_counters *then);
size_t mac_bytes(const mac *m);

#endif
