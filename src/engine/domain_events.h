/* domain_events.h - collision events of a collision domain of several
 * segments: one collision is one event, however many segments it reaches
 * (stations/MODEL.md, "Collision events").
 *
 * The nodes are a repeater's episodes (from the instant it leaves idle
 * to the instant it is idle again and has begun every output it
 * decided). The segments' trackers' components (collision_events.h:
 * transmissions linked where their signals overlap at a station or the
 * hub) join them: a repeater's inputs and the outputs it began or carried
 * on in one episode overlap at the repeater, so their components join the
 * episode's set; a component joining a second episode links the two, and
 * two components that merge on their segment link theirs. A connected set
 * that holds two or more stations' or bridge ports' transmissions is one
 * collision event of its domain; a relay alone makes none, as a
 * transmission alone makes none on one cable. An event counts when every
 * reference to its set is released: each episode over, each component
 * complete on its segment (nothing can be linked to it any more).
 *
 * Pure bookkeeping: the network (segments.c, repeater.c) makes the nodes
 * and the links. Union-find with each set's members in a list, freed when
 * the set is complete. */
#ifndef CSMACD_DOMAIN_EVENTS_H
#define CSMACD_DOMAIN_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#define DOMAIN_EVENTS_NONE UINT32_MAX

typedef struct domain_events domain_events;

/* n_dom domains. Returns 0, or -1 when memory cannot be had. */
int domain_events_create(uint32_t n_dom, domain_events **out);
void domain_events_destroy(domain_events *d);

/* A new node (an episode) in domain `domain`, with one reference (its
 * maker's), holding no stations' or bridge ports' transmissions yet.
 * DOMAIN_EVENTS_NONE when memory cannot be had. */
uint32_t domain_events_node(domain_events *d, uint32_t domain);
/* One more reference to node's set (a component that takes it as its
 * tag), with `macs` stations' or bridge ports' transmissions more. */
void domain_events_hold(domain_events *d, uint32_t node, int64_t macs);
/* Links two nodes (either DOMAIN_EVENTS_NONE: nothing). */
void domain_events_link(domain_events *d, uint32_t a, uint32_t b);
/* Links a and b and releases b's reference (a's stands for both; neither
 * DOMAIN_EVENTS_NONE). */
void domain_events_merge(domain_events *d, uint32_t a, uint32_t b);
/* The stations' and bridge ports' transmissions of node's set change by
 * `macs` (a relay joining a component: -1; DOMAIN_EVENTS_NONE: nothing). */
void domain_events_weigh(domain_events *d, uint32_t node, int64_t macs);
/* Releases a reference to node's set (DOMAIN_EVENTS_NONE: nothing),
 * adding `transmissions` to its stations' and bridge ports' ones. */
void domain_events_close(domain_events *d, uint32_t node, uint64_t transmissions);

/* The events of domain `domain` complete so far. */
uint64_t domain_events_count(const domain_events *d, uint32_t domain);
size_t domain_events_bytes(const domain_events *d);

#endif
