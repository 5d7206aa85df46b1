/* bridge_port.h - a bridge's ports on their segments: what a port
 * receives, the bridge's store and forward, the ports' output queues and
 * the bridge's trace events (stations/MODEL.md, "Bridges and switches";
 * the network's tables: segnet_int.h).
 *
 * A port is a MAC station of its segment (promiscuous, 802.1D 7.5): it
 * judges each whole frame that ends on its segment when the last bit
 * reaches it (bport_hear, then bport_rx: received if nothing overlapped
 * it there), hands it to the bridge's filtering database (bridge.c:
 * learn, filter, forward or flood, 7.7 and 7.8) and, after the last bit
 * and the bridge's latency (store and forward: the Forwarding Process, 7.7), to the output ports'
 * MACs (bport_forward), whose queues (mac_forward) drop a copy when full.
 * A copy lost on the one path from a frame's sender to its destination is
 * that frame's loss (verdict_final). The ports' own MAC events become the
 * bridge's (TRACE_BRIDGE_*, trace.h) through bport_filter_event.
 */
#ifndef CSMACD_BRIDGE_PORT_H
#define CSMACD_BRIDGE_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "segnet_int.h"

/* Builds the bridges, their ports (taps after the repeaters' on each
 * segment) and the tree's distances between domains and bridges. Returns
 * 0, or -1 when memory cannot be had. */
int bport_create(segnet *n, const scenario *sc);

/* A whole frame (record key) ends at tap of segment g at now: each bridge
 * port there judges it when the last bit reaches it (EV_PORT_RX). tx: the
 * sender's medium record (held for each port), UINT64_MAX for a relay
 * (its record is held while the frame's record lives). */
void bport_hear(segnet *n, seg_run *g, uint32_t tap, uint32_t key, uint64_t tx, sim_time now);
/* EV_PORT_RX: bridge port bi's reception of the frame; learn and decide. */
void bport_rx(segnet *n, uint32_t bi, uint32_t key, bool own, sim_time now);
/* EV_FORWARD (or at once, without latency): the bridge hands the frame
 * that came in by port bi to port `out` (NONE: flood). Releases key. */
void bport_forward(segnet *n, uint32_t bi, uint32_t key, uint32_t out, sim_time now);
/* Port p begins sending c: what c's octets carry (the frame as its sender
 * sent it, from the head of p's queue). */
void bport_copy_sent(const bport_run *p, carried *c);

/* The MAC's hook for a bridge port's own trace events (mac.h,
 * on_port_event); ctx: its seg_run. */
void bport_event(void *ctx, const trace_event *ev);
/* The one sink of a segment with bridge ports: the ports' events to
 * bport_event, the stations' to the run's sinks. */
void bport_filter_event(void *ctx, const trace_event *ev);
/* Its tallies (trace_sink.on_tally): the stations', to the run's sinks. */
void bport_filter_tally(void *ctx, const trace_tally *t);

/* The measured window opens now: the ports' counters are marked. */
void bport_mark(segnet *n);
/* The bridges' results over the window (n->br_res). */
void bport_results(segnet *n);

#endif
