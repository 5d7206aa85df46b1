/* domain_events.h - collision events of a collision domain of several
 * segments: one collision is one event, however many segments it reaches
 * (stations/MODEL.md, "Collision events").
 *
 * The nodes are transmissions (a station's, a bridge port's, a repeater
 * port's relay) and a repeater's episodes (from the instant it leaves
 * idle to the instant it is idle again and has begun every output it
 * decided). Links join them: two transmissions linked on their segment
 * (collision_events.h: their signals overlap where a station or the hub
 * observes them), a repeater's inputs and the outputs it began or carried
 * on in one episode (they overlap at the repeater). A connected set that
 * holds two or more stations' or bridge ports' transmissions is one
 * collision event of its domain; a relay alone makes none, as a
 * transmission alone makes none on one cable. An event counts when every
 * node of it is closed: each transmission dropped by its segment's
 * tracker (nothing can be linked to it any more), each episode over.
 *
 * Pure bookkeeping: the network (segments.c, repeater.c) makes the nodes
 * and the links. Union-find with each set's members in a list, freed when
 * the set is complete. */
#ifndef CSMACD_DOMAIN_EVENTS_H
#define CSMACD_DOMAIN_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

#define DOMAIN_EVENTS_NONE UINT32_MAX

typedef struct domain_events domain_events;

/* n_seg segments, segment s with taps[s] taps in domain domain_of[s] of
 * n_dom. Returns 0, or -1 when memory cannot be had. */
int domain_events_create(uint32_t n_seg, const uint32_t *taps, const uint32_t *domain_of,
                         uint32_t n_dom, domain_events **out);
void domain_events_destroy(domain_events *d);

/* The node of the transmission of tap `tap` of segment s begun at start,
 * made (open) if new; mac: a station's or a bridge port's, not a relay.
 * DOMAIN_EVENTS_NONE when memory cannot be had. */
uint32_t domain_events_tx(domain_events *d, uint32_t s, uint32_t tap, sim_time start, bool mac);
/* A new open node of a repeater's episode in domain `domain`. */
uint32_t domain_events_episode(domain_events *d, uint32_t domain);
/* Links two nodes (either DOMAIN_EVENTS_NONE: nothing). */
void domain_events_link(domain_events *d, uint32_t a, uint32_t b);
/* Closes a node; the transmission's, by its segment, tap and start (when
 * it has one). */
void domain_events_close(domain_events *d, uint32_t node);
void domain_events_dropped(domain_events *d, uint32_t s, uint32_t tap, sim_time start);

/* The events of domain `domain` complete so far. */
uint64_t domain_events_count(const domain_events *d, uint32_t domain);
size_t domain_events_bytes(const domain_events *d);

#endif
