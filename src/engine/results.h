/* results.h - the measures of a run (stations/MODEL.md, "Measures").
 *
 * Every measure covers the measured window [warmup, now): counts
 * (frames_*, attempts, collisions, the per-station counters) by the
 * instant stated for each in stations/MODEL.md, "Counters", rates and
 * distributions (offered load, delay, fairness, capture) too. Throughput
 * credits frames to their time on the wire, over [warmup, E), E the
 * oldest transmission without its verdict (stats.h; stations/MODEL.md,
 * "Throughput, pro rata").
 * Frames account exactly: offered = ok + aborted + late_discarded +
 * dropped + queued - (frames queued at the warm-up).
 *
 * A measure that does not apply is NAN (printed as JSON null, an empty CSV
 * field, "-" in text; never 0): a delay when no frame was sent, a ratio
 * over nothing (collisions per frame with no frame sent, a share when
 * nothing was delivered, Jain's index likewise), the capture run with no
 * success, a throughput interval with fewer than two batches or nothing
 * received whole (stations/MODEL.md, "Measures that do not apply").
 */
#ifndef CSMACD_RESULTS_H
#define CSMACD_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "mac.h"

/* Buckets of the capture run-length histogram: [2^i, 2^(i+1)) frames
 * (the last one, [2^62, 2^63), also holds anything longer). */
#define RESULTS_RUN_BUCKETS 63

typedef struct station_result {
    mac_counters c;           /* Clause 30 counters and extras */
    uint64_t bits_delivered;  /* in the window: frames received whole */
    double share;             /* of all bits delivered in the window; NAN if none */
    uint32_t queue_len;       /* frames still queued at the end */
    uint32_t segment;         /* its segment (results.segments), UINT32_MAX
                                 without a network */
} station_result;

/* The measures of one group's stations (stations/MODEL.md, "Stations in
 * groups"): the same definitions as the run's, over the group's stations
 * (throughput: the bits they sent that were received whole). */
typedef struct group_result {
    const char *name;         /* owned by the engine's scenario */
    uint32_t first, stations; /* stations first .. first + stations - 1 */
    double load;              /* the group's configured load G (poisson, onoff), else NAN */
    double offered_load;      /* G measured: generated frame bits / (rate * window) */
    double throughput;        /* S of the group */
    double throughput_ci95;   /* batch means, as the run's (NAN as the run's) */
    double share;             /* of all bits delivered in the window; NAN if none */
    uint64_t frames_ok, frames_offered, frames_aborted, frames_dropped, frames_queued;
    double mean_delay_us, p99_delay_us; /* NAN if the group sent nothing */
    double jain_fairness;     /* within the group; NAN if nothing delivered */
    uint64_t responses;       /* replies received by its stations (request/response) */
    double response_mean_us, response_p99_us; /* request queued -> reply received; NAN if none */
} group_result;

/* A segment of a network, over the measured window. */
typedef struct segment_result {
    const char *name;         /* owned by the engine's scenario */
    uint32_t stations;
    uint64_t frames_sent;     /* frames its own stations sent whole (transmitOK) */
    uint64_t frames_relayed;  /* frames repeated onto it whole from other segments */
    uint64_t collisions;      /* collision events seen on it (collision_events.h) */
    uint64_t late_collisions; /* detected by its stations */
    uint64_t frames_corrupted;/* sent whole to a station on it, received corrupted */
} segment_result;

/* A repeater (a hub's uplink included), with Clause 30's repeater
 * objects' names where they exist (30.4). */
typedef struct repeater_result {
    const char *name;         /* owned by the engine's scenario */
    uint32_t ports;
    uint64_t transmit_collisions; /* aTransmitCollisions: collisions it jammed */
    uint64_t jams_sent;       /* jam begun on a port */
    uint64_t fragments_extended; /* outputs extended to 96 bits */
    uint64_t readable_frames; /* aReadableFrames, summed over ports: whole frames in */
    uint64_t port_collisions; /* aCollisions, summed over ports: a port in a collision */
} repeater_result;

/* A collision domain of a network with bridges (the segments repeaters
 * join; named after its first segment), over the measured window. */
typedef struct domain_result {
    const char *name;         /* owned by the engine's scenario */
    uint32_t segments, stations;
    bool full_duplex;         /* a full-duplex link: twice one link's capacity */
    uint64_t frames_sent;     /* frames its stations sent whole (transmitOK) */
    uint64_t collisions;      /* collision events on its segments (0 in full duplex) */
    double throughput;        /* frame bits its stations and bridge ports sent whole,
                                 over its capacity (rate, twice it in full duplex) */
} domain_result;

/* A bridge port (802.1D's dot1dTpPortTable names where they exist), over
 * the measured window. */
typedef struct bridge_port_result {
    const char *name;         /* its segment's */
    uint64_t frames_received; /* whole, from its segment (dot1dTpPortInFrames) */
    uint64_t frames_forwarded;/* of those, to one known port */
    uint64_t frames_flooded;  /* of those, to every other port (destination unknown) */
    uint64_t frames_filtered; /* of those, discarded: destination on this port (dot1dTpPortInDiscards) */
    uint64_t frames_queued;   /* copies that entered its output queue */
    uint64_t frames_dropped;  /* copies lost to its full output queue */
    uint64_t frames_sent;     /* copies it sent whole (aFramesTransmittedOK) */
    uint64_t frames_lost;     /* copies given up after attemptLimit collisions */
    uint64_t collisions;      /* collisions its MAC saw (half duplex) */
    double queue_delay_mean_us, queue_delay_p99_us; /* queue entry to end of its
                                 transmission; NAN if none sent */
} bridge_port_result;

typedef struct bridge_result {
    const char *name;
    uint32_t n_ports;
    const bridge_port_result *ports;
} bridge_result;

typedef struct results {
    double sim_time_s;        /* simulated time reached */
    double measured_s;        /* length of the measured window */
    double throughput;        /* S: delivered frame bits, pro rata / (rate * [warmup, E)) */
    double throughput_ci95;   /* half-width, batch means (NAN if < 2 batches or S = 0) */
    double throughput_mbps;
    double offered_load;      /* G: generated frame bits / (rate * window) */
    uint64_t frames_ok;       /* transmitOK */
    uint64_t frames_offered;
    uint64_t frames_aborted;  /* given up after attemptLimit collisions */
    uint64_t frames_late_discarded; /* given up after a late collision (1 Gb/s) */
    uint64_t frames_dropped;  /* queue overflow */
    uint64_t frames_queued;   /* still waiting at the end */
    uint64_t frames_delivered;/* received whole at the destination */
    uint64_t frames_corrupted;/* sent whole, corrupted at the destination */
    uint64_t attempts;
    uint64_t collisions;      /* collision events on the medium (collision_events.h) */
    uint64_t collisions_seen; /* collisions detected, summed over stations */
    uint64_t late_collisions;
    double collisions_per_frame; /* collisions / frames_ok; NAN if no frame sent OK */
    double completion_s;      /* batch: when the last offered frame was done; -1 otherwise or if not all done */
    double recovery_s;        /* outage: from its end until the backlog (frames
                                 queued or in service, all stations) is back
                                 to its level when the outage began; -1 if
                                 there is no outage or it has not happened */
    double mean_delay_us, p50_delay_us, p99_delay_us, max_delay_us; /* NAN if none sent */
    double jain_fairness;     /* over per-station delivered bits; NAN if none */
    double capture_mean_run;  /* consecutive successes by one station; NAN if none */
    uint64_t capture_max_run;
    /* The distribution of those runs: capture_runs[i] counts the runs of
     * length in [2^i, 2^(i+1)) frames, over the window (the run under way
     * at the end included, as in the mean). */
    uint64_t capture_runs[RESULTS_RUN_BUCKETS];
    uint64_t events;          /* events processed */
    uint32_t n_stations;
    const station_result *stations; /* n_stations entries, owned by the engine */
    /* The scenario's named groups (0 when it names none: one implicit
     * group is the run itself). Owned by the engine. */
    uint32_t n_groups;
    const group_result *groups;
    /* A network's segments and repeaters (0 without a network). Owned by
     * the engine. */
    uint32_t n_segments, n_repeaters;
    const segment_result *segments;
    const repeater_result *repeaters;
    /* With bridges: the collision domains and the bridges (0 otherwise). */
    uint32_t n_domains, n_bridges;
    const domain_result *domains;
    const bridge_result *bridges;
} results;

#endif
