/* verdict.h - whether a frame reached its receiver whole, across the
 * segments, repeaters and bridges of a network (stations/MODEL.md,
 * "Networks of segments", "Reception across the network"; the network's
 * tables: segnet_int.h).
 *
 * A frame whose receiver is on another segment of its collision domain
 * (or a broadcast) is judged when its last bit reaches the receiver along
 * the path (cables and repeaters; every station of the domain, for a
 * broadcast): received if the relay that carried it onto the receiver's
 * segment was whole (its repeaters never cut it to jam nor extended it:
 * collision handling, 9.5.6, and fragment extension) and nothing
 * overlapped that relay at the receiver, as a station on one cable
 * judges. A frame whose receiver is
 * beyond a bridge is judged by the bridge port on its path
 * (bridge_port.h), and its loss there, in a queue or at the last hop, is
 * told to its sender here (verdict_final).
 */
#ifndef CSMACD_VERDICT_H
#define CSMACD_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "segnet_int.h"

/* The MAC's hook (mac_net_hooks.on_remote; ctx: its seg_run): the frame
 * sent whole from tap, whose receiver the MAC cannot judge, is judged at
 * its last bit's arrival (EV_VERDICT), unless a bridge's port does. */
void verdict_on_remote(void *ctx, uint32_t tap, uint64_t tx_id, uint64_t trace_id, const frame *f,
                       uint32_t attempt, sim_time now);
/* EV_VERDICT: the verdict on record key, told to its sender's MAC. */
void verdict_judge(segnet *n, uint32_t key, sim_time now);
/* The frame's end-to-end verdict, on its sender's counters and traces. */
void verdict_final(segnet *n, const frame *f, uint64_t trace_id, uint32_t attempt, bool ok,
                   sim_time rx_start, sim_time now);

#endif
