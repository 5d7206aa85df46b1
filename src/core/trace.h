/* trace.h - what the engine reports, and the interface of its sinks.
 *
 * The engine reports everything that happens on the network as trace
 * events, in the order it simulates them (non-decreasing `time`). Statistics,
 * the event log, pcap traces and the TUI's timeline are all sinks: plain
 * callbacks with a context pointer. A sink must not call back into the
 * engine. Sinks with I/O keep a sticky first error and report it when the
 * program closes them; the engine itself does no I/O.
 *
 * Times are picoseconds of simulated time (simtime.h). Stations are
 * numbered from 0; the program prints them from 1 where a person reads them.
 */
#ifndef CSMACD_TRACE_H
#define CSMACD_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "simtime.h"

typedef enum trace_kind {
    TRACE_ARRIVAL,   /* a frame entered a station's queue */
    TRACE_DROP,      /* a frame was lost: the station's queue was full */
    TRACE_TX_START,  /* a transmission began (a frame attempt or burst extension) */
    TRACE_COLLISION, /* the transmitter detected a collision */
    TRACE_JAM,       /* the jam is decided: it runs [jam_start, tx_end) */
    TRACE_TX_END,    /* the transmission left the transmitter: the full record */
    TRACE_BACKOFF,   /* a backoff was drawn after a collision */
    TRACE_TX_OK,     /* the MAC reported transmitOK for the frame */
    TRACE_ABORT,     /* the frame was given up (see abort_reason) */
    TRACE_DELIVER,   /* the frame's last bit passed its destination */
    TRACE_RELAY_START, /* a repeater's port began relaying (networks only) */
    TRACE_RELAY_END,   /* ... and stopped: the full record, as TX_END */
    TRACE_RELAY_JAM,   /* a relaying port sends jam from now on (a collision the
                          repeater answers, a fragment extended): jam_start */
    /* Bridges (networks with [bridge] sections only; see `bridge` below): */
    TRACE_BRIDGE_LEARN,    /* a port learned the frame's sender: it was not known
                              there (never heard, aged out, or on another port) */
    TRACE_BRIDGE_FORWARD,  /* a frame received whole on a port goes to the one
                              port its destination is known on */
    TRACE_BRIDGE_FLOOD,    /* ... to every other port: destination unknown, or a
                              broadcast */
    TRACE_BRIDGE_FILTER,   /* ... nowhere: its destination is known on the port
                              it came from */
    TRACE_BRIDGE_DROP,     /* a copy was lost: its output port's queue was full */
    TRACE_BRIDGE_TX_START, /* an output port began sending a copy (an attempt) */
    TRACE_BRIDGE_TX_END,   /* ... and it left the port: the full record, as TX_END */
    TRACE_BRIDGE_ABORT,    /* the port gave the copy up (attemptLimit collisions) */
    TRACE_KIND_COUNT
} trace_kind;

typedef enum trace_tx_kind {
    TRACE_TX_FRAME,     /* preamble, SFD, frame (and carrier extension at 1 Gb/s) */
    TRACE_TX_EXTENSION, /* extension filling the gap between frames of a burst */
} trace_tx_kind;

typedef enum trace_abort_reason {
    TRACE_ABORT_EXCESSIVE_COLLISIONS, /* attemptLimit reached (aFramesAbortedDueToXSColls) */
    TRACE_ABORT_LATE_COLLISION,       /* 1 Gb/s: retransmission ends after a late collision */
} trace_abort_reason;

#define TRACE_NO_DEST UINT32_MAX /* broadcast */
#define TRACE_NO_STATION UINT32_MAX /* a relay: no station sends it */

/* What a bridge's event adds (TRACE_BRIDGE_*; trace_event.bridge). The
 * event's own fields: `station` is the frame's sender (the event log's
 * station and group are its), `segment` the port's, and the frame fields
 * (dest, frame_id, frame_bytes, queued_at: its arrival at its sender,
 * payload) are the frame's. LEARN, FORWARD, FLOOD, FILTER: the port it
 * was received on, `attempt` the attempt it came by (its sender's, or the
 * previous bridge port's). DROP: the output port. TX_START, TX_END,
 * ABORT: the output port's own attempt, its fields as a station's
 * TX_START, TX_END and ABORT (attempt, collisions, backoff_slots, tx_id,
 * tx_start, tx_end, jam_start, probe_start, bits_on_wire), TX_END's
 * `late` saying whether its collision was late. */
typedef struct trace_bridge {
    uint32_t bridge;      /* the bridge, in the network's order (from 0) */
    uint32_t port;        /* the port, in the bridge's order (from 0) */
    uint32_t out_port;    /* FORWARD: the port it goes to; UINT32_MAX otherwise */
    bool flooded;         /* DROP, TX_*, ABORT: the copy was flooded (else forwarded) */
    sim_time entered;     /* DROP, TX_*, ABORT: when the copy reached the output
                             queue (its store and forward done) */
    /* The frame as its sender sent it, what its octets say (TX_*, ABORT):
     * the sender's attempt that got through, the backoff slots drawn
     * before it, and when it began. */
    uint32_t sent_attempt;
    uint64_t sent_backoff_slots;
    sim_time sent_at;
} trace_bridge;

typedef struct trace_event {
    /* (fields ordered to leave no padding: the engine fills one per event) */
    trace_kind kind;
    uint32_t segment;   /* where it was seen: its segment (0 without a network) */
    sim_time time;      /* when it happened, at the station named */
    uint32_t station;   /* the sender (for DELIVER too); RELAY_*: TRACE_NO_STATION */
    uint32_t dest;      /* destination station, or TRACE_NO_DEST for broadcast */
    uint64_t frame_id;  /* unique in a run: station << 40 | per-station number */
    uint32_t frame_bytes; /* DA through FCS, after padding to the minimum */
    uint32_t attempt;   /* 1-based number of the current attempt */
    uint32_t collisions;/* collisions this frame has had so far (this one included) */
    uint32_t tap;       /* RELAY_*: the port's tap on its segment (the segment's
                           stations first, in station order, then the ports of the
                           repeaters on it, in repeater order); 0 otherwise */
    sim_time queued_at; /* when the frame entered the queue */

    /* TX_START, TX_END, COLLISION, JAM */
    uint64_t tx_id;     /* unique per transmission, increasing with start time */
    trace_tx_kind tx_kind;
    /* TX_OK, ABORT */
    trace_abort_reason abort_reason;
    sim_time tx_start;  /* first preamble bit leaves the transmitter */
    sim_time tx_end;    /* last bit (of frame, extension or jam) leaves it */
    sim_time jam_start; /* SIM_TIME_NEVER if the transmission was not aborted */
    sim_time probe_start; /* first bit passes the probe */
    uint64_t bits_on_wire; /* TX_END: bits sent, preamble included (floor) */

    /* BACKOFF and the frame attempt that follows it */
    uint64_t backoff_slots; /* slots drawn (0 for policies counted in time) */
    union {
        sim_time backoff_ps;          /* BACKOFF: the wait itself */
        const trace_bridge *bridge;   /* TRACE_BRIDGE_*: valid during the call only */
    };

    /* Original bytes of a replayed frame (NULL for synthetic traffic). */
    const uint8_t *payload;
    uint32_t payload_len;

    /* RELAY_START, RELAY_END (networks only): what the relay carries onto
     * its segment. When it carries a frame, the frame fields above (dest,
     * frame_id, frame_bytes, attempt, collisions, queued_at, backoff_slots,
     * payload) are that frame's, as at its sender's TX_START, and
     * relay_from is its sender; TRACE_NO_STATION when it carries no frame
     * (jam alone, or a burst's extension). relay_sent_at: when the sender
     * began that attempt (its tx_start there). RELAY_END also says whether
     * the frame went out whole (relay_whole) and, when not, jam_start:
     * when the relay's output stopped being the frame and turned to jam
     * (tx_start for a relay of jam alone; SIM_TIME_NEVER for a whole frame
     * or an extension). */
    uint32_t relay_from;
    sim_time relay_sent_at;

    bool late;          /* COLLISION: more than slotTime after the first bit */
    /* DELIVER */
    bool ok;            /* received correctly: sent whole, nothing overlapped it */
    /* DELIVER also sets tx_start and tx_end to the frame's span at its
     * receiver (the farthest one for a broadcast): its first preamble bit
     * to its last bit (extension included); tx_end is the event's time. */
    bool relay_whole;   /* RELAY_END: see relay_from */
} trace_event;

#define TRACE_BIT(kind) (1u << (kind))
#define TRACE_ALL ((1u << TRACE_KIND_COUNT) - 1)

/* The kinds a sink may take as a tally (trace_tally) instead of the whole
 * event. */
#define TRACE_TALLY_KINDS                                                                  \
    (TRACE_BIT(TRACE_ARRIVAL) | TRACE_BIT(TRACE_DROP) | TRACE_BIT(TRACE_TX_OK) |            \
     TRACE_BIT(TRACE_ABORT) | TRACE_BIT(TRACE_DELIVER))

/* The fields of an event of TRACE_TALLY_KINDS that statistics read, as the
 * event has them (ok: DELIVER only; tx_start: DELIVER's span at its
 * receiver). A producer builds one where only tallies want the kind: a
 * whole event is about 170 bytes, and a saturated run reports three such
 * events per frame. */
typedef struct trace_tally {
    trace_kind kind;
    uint32_t station;
    uint32_t frame_bytes;
    bool ok;
    sim_time time, queued_at, tx_start;
} trace_tally;

/* A set of kinds, as TRACE_BIT(kind) | ... (producers may skip building
 * events that no sink wants). on_tally may be NULL; where it is not, a
 * producer may call it instead of on_event for an event of
 * TRACE_TALLY_KINDS, with that event's tally, and the sink must do the
 * same with either (the MAC does, where no sink wants the event whole;
 * other producers call on_event). */
typedef struct trace_sink {
    void (*on_event)(void *ctx, const trace_event *ev);
    void *ctx;
    void (*on_tally)(void *ctx, const trace_tally *t);
} trace_sink;

/* The tally of an event of TRACE_TALLY_KINDS. */
static inline trace_tally trace_tally_of(const trace_event *ev)
{
    return (trace_tally){.kind = ev->kind, .station = ev->station,
                         .frame_bytes = ev->frame_bytes, .ok = ev->ok, .time = ev->time,
                         .queued_at = ev->queued_at, .tx_start = ev->tx_start};
}

/* The lower-case name of a kind ("tx_start", "collision", ...). */
const char *trace_kind_name(trace_kind k);

#endif
