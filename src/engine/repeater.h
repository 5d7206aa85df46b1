/* repeater.h - the repeater of 802.3 Clause 9 (10 Mb/s) and Clause 27
 * (100 Mb/s) between the segments of one collision domain (stations/
 * MODEL.md, "Networks of segments"; the network's tables: segnet_int.h).
 *
 * A port's input is every signal present at its tap but the repeater's
 * own output there; every signal that begins or ends at a tap of a
 * segment reaches each repeater port there after the cable's delay
 * (rep_hear). After the inputs of an instant have changed the repeater
 * decides once (rep_decide: ends at one phase, starts at a later one, so
 * that touching signals are no collision) and, its delay later, carries
 * the decision out at each port (rep_output) as a relay of its own on that
 * port's tap (mac_relay_begin / _jam / _end): repeat the one active input
 * to every other port (Clause 9.5, 27.3), jam on a collision (9.5.6 and
 * the state diagrams of 9.6 and 27.3: every port when two ports are
 * active, every other port when one port receives a collision), extend a
 * fragment to 96 bits (fragment extension). So carrier
 * sense, collision detection and every MAC rule work unchanged on each
 * segment. The repeater's counters are Clause 30's repeater attributes
 * (aTransmitCollisions, aReadableFrames, aCollisions).
 */
#ifndef CSMACD_REPEATER_H
#define CSMACD_REPEATER_H

#include <stdbool.h>
#include <stdint.h>

#include "segnet_int.h"

/* The minimum a repeater's output lasts (Clause 9's and 27's fragment
 * extension: preamble and jam make at least 96 bits). */
#define MIN_OUTPUT_BITS 96

/* A signal begins or ends at tap of segment g at now, carrying frame
 * record key (or NONE, a jam): each repeater port on g but the tap's own
 * hears it after the cable's delay (each event takes a reference). */
static inline void rep_hear(segnet *n, seg_run *g, uint32_t tap, uint32_t key, bool begin,
                            bool whole, sim_time now)
{ /* (here, inline: every signal of a segment with repeaters comes by) */
    for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
        if (pt == tap)
            continue;
        key_ref(n, key);
        push(n, now + medium_delay(g->med, tap, pt), begin ? EV_IN_START : EV_IN_END,
             begin ? PH_IN_START : PH_IN_END, g->port_of[pt - g->n_st],
             (uint64_t)key << 32 | (uint64_t)tap << 1 | whole);
    }
}
/* The output of the repeater port at tap of segment g begins or ends at
 * now (the MAC's hook): the bridge ports and the other repeaters' ports
 * there hear it. */
void rep_port_signal(segnet *n, seg_run *g, uint32_t tap, bool begin, sim_time now);

/* The network's events of the repeater: a signal reaching a port
 * (EV_IN_START / EV_IN_END), a decision (EV_DECIDE), a decision carried
 * out at a port (EV_OUT). */
void rep_input(segnet *n, const sim_event *ev, bool begin);
void rep_decide(segnet *n, uint32_t ri, sim_time t, bool starts);
void rep_output(segnet *n, const sim_event *ev);

/* Repeater r's counters since t = 0: transmit collisions, jams sent,
 * fragments extended, readable frames and collisions of its ports. */
void rep_counts(const segnet *n, uint32_t r, uint64_t out[5]);

#endif
