/* bridge.h - one IEEE 802.1D transparent bridge's relay decisions and
 * counters, without any medium (stations/MODEL.md, "Bridges and switches").
 *
 * The filtering database maps a station (its MAC address is its number)
 * to the port it was last heard on, with the time it was heard; an entry
 * older than the ageing time is gone (802.1D 7.9.2). A frame received
 * whole on port `in` is first learned (its source on `in`, 7.8), then:
 *   - filtered when its destination is known on `in` (7.7.1);
 *   - forwarded to the destination's port when known elsewhere;
 *   - flooded to every other port when not known, or a broadcast.
 * The counters per port are those of 802.1D's dot1dTpPortTable where they
 * exist (frames received: dot1dTpPortInFrames; frames filtered:
 * dot1dTpPortInDiscards), and csmacd's own beside them. Pure: the bridge's
 * ports (bridge_port.c) call it and move the frames.
 */
#ifndef CSMACD_BRIDGE_H
#define CSMACD_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

#define BRIDGE_UNKNOWN UINT32_MAX
#define BRIDGE_BROADCAST UINT32_MAX

typedef struct bridge bridge;

typedef enum bridge_action {
    BRIDGE_FILTER,  /* the destination is on the port the frame came from */
    BRIDGE_FORWARD, /* to the one port the destination is known on */
    BRIDGE_FLOOD,   /* to every port but the one it came from */
} bridge_action;

/* The counters of one port, since t = 0. */
typedef struct bridge_port_counters {
    uint64_t frames_received;  /* received whole on it (dot1dTpPortInFrames) */
    uint64_t frames_forwarded; /* of those, forwarded to one known port */
    uint64_t frames_flooded;   /* of those, flooded to every other port */
    uint64_t frames_filtered;  /* of those, filtered (dot1dTpPortInDiscards) */
    uint64_t frames_queued;    /* copies that entered its output queue */
    uint64_t frames_dropped;   /* copies lost to its full output queue */
    uint64_t frames_sent;      /* copies it sent whole (its MAC's transmitOK) */
    uint64_t frames_lost;      /* copies it gave up (excessive collisions) */
} bridge_port_counters;

/* Returns 0, or -1 when memory cannot be had. n_stations: the addresses. */
int bridge_create(uint32_t n_ports, uint32_t n_stations, sim_time ageing_ps, bridge **out);
void bridge_destroy(bridge *b);

/* Learns src on port `in` at now, then decides for dest (a station, or
 * BRIDGE_BROADCAST). *out: the port for BRIDGE_FORWARD. Counts it on `in`. */
bridge_action bridge_receive(bridge *b, uint32_t in, uint32_t src, uint32_t dest, sim_time now,
                             uint32_t *out);
/* The port station is known on at now, or BRIDGE_UNKNOWN (never heard,
 * or aged out). */
uint32_t bridge_lookup(const bridge *b, uint32_t station, sim_time now);

/* A copy enters port p's output queue (or is dropped: full). */
void bridge_queued(bridge *b, uint32_t p);
void bridge_dropped(bridge *b, uint32_t p);
/* A copy that entered port p's queue at `entered` (SIM_TIME_NEVER: not
 * known) is done at now: sent whole (sent) or given up; its queue delay
 * (entry to the end of its transmission) is recorded when sent. (The
 * port's queue, which its MAC sends first in, first out, is the caller's:
 * bridge_port.c keeps each copy's entry with the rest of what it
 * carries.) */
void bridge_done(bridge *b, uint32_t p, sim_time entered, sim_time now, int sent);

const bridge_port_counters *bridge_counters(const bridge *b, uint32_t p);
/* The queue delays of the copies port p sent since bridge_mark (count,
 * mean and p99 in microseconds; NAN when none). */
void bridge_queue_delay(const bridge *b, uint32_t p, uint64_t *count, double *mean_us,
                        double *p99_us);
/* The measured window starts now: the delays recorded so far are dropped. */
void bridge_mark(bridge *b);
size_t bridge_bytes(const bridge *b);

#endif
