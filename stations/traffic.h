/* traffic.h - what the stations offer to the medium.
 *
 * Sources: saturated (a frame is always ready), poisson (exponential
 * inter-arrival times giving a total offered load G), onoff (exponential on
 * and off periods, Poisson arrivals while on, the same long-run load G),
 * batch (k frames per station at t = 0: the contention experiment).
 * Frame sizes: fixed, a uniform range, or a weighted mix. Destinations: a
 * random other station, one server, or broadcast.
 *
 * Every draw comes from the station's own traffic stream, separate from its
 * backoff stream, so changing the load does not change the backoff draws.
 */
#ifndef CSMACD_TRAFFIC_H
#define CSMACD_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "simtime.h"

typedef enum traffic_kind {
    TRAFFIC_SATURATED,
    TRAFFIC_POISSON,
    TRAFFIC_ONOFF,
    TRAFFIC_BATCH,
    TRAFFIC_PCAP,
    TRAFFIC_NONE, /* sends nothing of its own (a server that only replies) */
} traffic_kind;

typedef enum frame_size_kind { FRAME_SIZE_FIXED, FRAME_SIZE_RANGE, FRAME_SIZE_MIX } frame_size_kind;

#define FRAME_SIZE_MIX_MAX 16

typedef struct frame_size_spec {
    frame_size_kind kind;
    uint32_t min_bytes, max_bytes;          /* FIXED: min == max */
    uint32_t n_mix;                         /* MIX */
    uint32_t mix_bytes[FRAME_SIZE_MIX_MAX];
    uint32_t mix_weight[FRAME_SIZE_MIX_MAX];
} frame_size_spec;

/* DEST_LOCAL: another station of the sender's own group with probability
 * local_p, else a station outside it (group_first .. group_first +
 * group_count - 1 is the group). */
typedef enum dest_kind { DEST_RANDOM, DEST_SERVER, DEST_BROADCAST, DEST_LOCAL } dest_kind;

#define FRAME_BROADCAST UINT32_MAX

typedef struct traffic_config {
    traffic_kind kind;
    double load;              /* offered load G of the stations it drives, together */
    frame_size_spec size;
    dest_kind dest;
    uint32_t server;          /* DEST_SERVER: the server's index (the first one) */
    uint32_t server_count;    /* DEST_SERVER: servers server.. (0 or 1: one) */
    double local_p;           /* DEST_LOCAL: the probability of the own group */
    uint32_t group_first, group_count; /* DEST_LOCAL: the own group's stations */
    uint32_t batch_frames;    /* TRAFFIC_BATCH: frames per station */
    double on_mean_s, off_mean_s; /* TRAFFIC_ONOFF */
} traffic_config;

/* A frame waiting in a station's queue. */
typedef struct frame {
    uint64_t id;
    sim_time queued_at;
    uint32_t bytes;     /* DA through FCS */
    uint32_t dest;      /* station index or FRAME_BROADCAST */
    const uint8_t *payload; /* replayed bytes, or NULL */
    uint32_t payload_len;
    bool is_reply;      /* a server's answer (never answered itself) */
    sim_time request_at;/* is_reply: when the request entered its queue */
} frame;

/* Mean size in bytes of the frames a size spec gives, each shorter one
 * padded to pad_bytes (the PHY's minimum frame; 0: none). */
double frame_size_mean(const frame_size_spec *s, uint32_t pad_bytes);
/* One frame size drawn from the spec. */
uint32_t frame_size_draw(const frame_size_spec *s, rng *r);
/* One destination for a frame of station `self` of n. DEST_SERVER with
 * several servers: one of them, drawn uniformly (a server itself sends to
 * a random other station). DEST_LOCAL: two draws, a uniform number
 * (below local_p: the own group) and then a station of that side drawn
 * uniformly, self excluded; a side with no station (refused by the
 * scenario) gives a random other station. */
uint32_t traffic_dest_draw(const traffic_config *t, uint32_t self, uint32_t n, rng *r);

/* Per-station arrival process for poisson and onoff: the time of the next
 * arrival after `now`. State is per station; all fields are plain data. */
typedef struct arrival_state {
    rng r;
    bool on;              /* onoff: in an on period */
    sim_time period_end;  /* onoff: end of the current period */
} arrival_state;

/* Frames per second of each of n stations that share the load t->load
 * (pad_bytes: the PHY's minimum frame; the offered load counts the frames
 * as sent, padded, so the rate comes from their padded mean). */
double traffic_station_rate(const traffic_config *t, uint32_t n, uint64_t rate_bps,
                            uint32_t pad_bytes);
void arrival_init(arrival_state *a, const traffic_config *t, uint64_t seed, uint32_t station);
/* The next arrival strictly after `now` at `lambda` frames per second
 * (traffic_station_rate), or SIM_TIME_NEVER. */
sim_time arrival_next(arrival_state *a, const traffic_config *t, sim_time now, double lambda);

#endif
