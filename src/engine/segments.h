/* segments.h - a network of segments run as one collision domain (the
 * engine's; stations/MODEL.md, "Networks of segments").
 *
 * Each segment is today's pair: one medium (a bus for coax, a star for a
 * hub) and one MAC over its taps, its stations first, then the ports of
 * the repeaters on it. A repeater hears its ports through the MAC's hooks
 * (every signal that begins or ends on a segment reaches each port there
 * after the cable's delay), decides once per instant what its ports send
 * (Clause 9 at 10 Mb/s, Clause 27 at 100 Mb/s: repeat the one active
 * input to every other port, jam every port on a collision, extend a
 * fragment to 96 bits) and, its delay later, relays it as a transmission
 * of its own at each port's tap (mac_relay_begin). So carrier sense,
 * collision detection and every MAC rule work unchanged, segment by
 * segment, and a station sees another's signal after the cable and
 * repeater delays of the path between them.
 *
 * A frame whose receiver is on another segment (or a broadcast) is judged
 * here, when its last bit reaches the receiver along that path: received
 * if the relay that carried it onto the receiver's segment was whole (its
 * repeaters never cut it) and nothing overlapped it there.
 *
 * Station numbers, random streams and frame ids are those of the run, so
 * a station draws the same numbers on whatever segment it sits.
 */
#ifndef CSMACD_SEGMENTS_H
#define CSMACD_SEGMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evq.h"
#include "mac.h"
#include "medium.h"
#include "results.h"
#include "scenario.h"

typedef struct segnet segnet;

/* Event types of the network (the MAC's are below MAC_EV_LIMIT, the
 * engine's own just above it). */
enum { SEGNET_EV_FIRST = 32 };

/* Builds every segment's medium (the MACs come with segnet_start). The
 * scenario (finished, with segments) must outlive the network. Returns 0,
 * or -1 when memory cannot be had. */
int segnet_create(const scenario *sc, segnet **out);
void segnet_destroy(segnet *n);

/* What every segment's MAC shares; per-station arrays are indexed by the
 * run's station numbers. */
typedef struct segnet_macs {
    evq *queue;
    uint64_t seed;
    mac_refill_fn refill;
    void *refill_ctx;
    const mac_class *classes;
    uint32_t n_classes;
    const uint32_t *class_of; /* per station */
    mac_rx_fn on_rx;
    void *rx_ctx;
    const trace_sink *sinks;
    const uint32_t *sink_kinds;
    size_t n_sinks;
    bool *no_memory; /* the engine's flag (mac_config.no_memory); NULL: its own */
} segnet_macs;
/* Builds the MACs. Returns 0, or -1 when memory cannot be had. */
int segnet_start(segnet *n, const segnet_macs *cfg);

/* mac_start on every segment. */
void segnet_mac_start(segnet *n, sim_time t);

/* The segments' MACs, by segment: an event of a MAC type is for the MAC
 * its arg's upper 32 bits name (mac_config.segment). */
mac *const *segnet_macs_by_segment(const segnet *n);
/* Handles an event of the network's own (SEGNET_EV_FIRST and above). */
void segnet_handle(segnet *n, const sim_event *ev);

/* Station s's MAC and its tap there. */
mac *segnet_mac_of(segnet *n, uint32_t s, uint32_t *tap);
/* The one-way delay from station a to station b along the path (cables
 * and repeaters). */
sim_time segnet_station_delay(const segnet *n, uint32_t a, uint32_t b);
uint32_t segnet_segment_count(const segnet *n);
const medium *segnet_medium(const segnet *n, uint32_t segment);
/* The longest delay from a station to another, along the path between
 * them (the collision domain's diameter as the model has it). */
sim_time segnet_max_delay(const segnet *n);
/* The longest attempt on any segment, at its own PHY: preamble, the
 * longest frame (extended if its PHY extends) and a jam. */
sim_time segnet_longest_attempt_ps(const segnet *n);
/* The oldest transmission of a station still to be judged, on any
 * segment (as medium_unjudged_from, relays left out: a frame's relay is
 * judged with its sender's transmission, and a relay cut to jam may last
 * longer than any frame). */
sim_time segnet_unjudged_from(const segnet *n);
/* Every segment's, as medium.h's of the same names. */
size_t segnet_signal_count(const segnet *n);
uint64_t segnet_collision_events(segnet *n, sim_time now);

/* Bridge port p of bridge b now (an accessor for a live view: the TUI):
 * its segment and tap there, its MAC's state, the frames in its output
 * queue (the one being sent included) and the queue's capacity. Returns
 * 0, or -1 when there is no such port. */
typedef struct segnet_port_now {
    uint32_t segment, tap;
    mac_state state;
    uint32_t queue_len, queue_cap;
} segnet_port_now;
uint32_t segnet_bridge_count(const segnet *n);
uint32_t segnet_bridge_port_count(const segnet *n, uint32_t b);
int segnet_bridge_port_now(const segnet *n, uint32_t b, uint32_t p, segnet_port_now *out);

/* The counters of the measured window start now (the warm-up's end). */
void segnet_mark(segnet *n, sim_time now);
/* Fills r's segments and repeaters (the arrays stay the network's), from
 * the stations' counters of the window. */
void segnet_results(segnet *n, sim_time now, const station_result *stations, results *r);
size_t segnet_bytes(const segnet *n);

#endif
