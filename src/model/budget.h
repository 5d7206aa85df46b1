/* budget.h - a network's collision domain checked against 802.3's delay
 * budget (stations/MODEL.md, "Networks of segments", "The budget").
 *
 * Pure: a resolved network (network.h, with its segments' station
 * bounds filled by scenario_finish) and the rate in, numbers and a
 * verdict out. The worst path is sought over every pair of MACs that can
 * collide: stations, and bridge (or switch) ports on half-duplex
 * segments, a port being a MAC of its segment exactly as a station is.
 * Per pair of end segments, the MACs that bound it (net_segment's near
 * and far, widened by the ports on it). A segment is read as its type
 * says: a coax segment a mixing segment, a link one link segment of its
 * length, a hub a repeater with a link segment per drop; a full-duplex
 * link has no path (no collisions). Each path is read twice:
 *   - as the standard reads it, from its transmission system models:
 *     10 Mb/s Clause 13 (Model 1, the 5-4-3 rule of 13.3; Model 2, the
 *     path delay value of 13.4.1 from Table 13-3's segment delay values,
 *     at most 575 bit times, and the path variability value of 13.4.2
 *     from Table 13-4, at most 49); 100 Mb/s Clause 29 (Model 1, Table
 *     29-2: one Class I or two Class II repeaters; Model 2, 29.3.1: the
 *     round-trip component delays of Table 29-3, at most 512 bit times);
 *     1 Gb/s (one repeater in a collision domain, Clause 41; the
 *     round-trip delays of 42.4, at most 4096 bit times);
 *   - as the simulation runs it: cable at each segment's velocity, the
 *     hubs' and repeaters' delays as modelled, twice the longest one-way
 *     delay between two stations (model_round_trip_bits).
 * Over budget is a verdict, never an error.
 */
#ifndef CSMACD_BUDGET_H
#define CSMACD_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "network.h"

#define NET_BUDGET_NONE UINT32_MAX
#define NET_BUDGET_FULL_DUPLEX "full duplex: no collisions, no budget to keep"

/* The two ends that bound every path through a segment (its stations',
 * and for the budget its bridge ports too): on coax and on a link the
 * lowest and the highest position, on a hub the two longest drops. far
 * is NET_BUDGET_NONE while there is no end, near while a hub has one. */
typedef struct net_bounds {
    double near_m, far_m;
    uint32_t near, far; /* the caller's numbers for the two ends */
} net_bounds;
/* Widens b by end `id` at x (a position, or a hub's drop). */
void net_bounds_add(net_bounds *b, net_seg_type type, double x, uint32_t id);

typedef struct net_budget {
    uint64_t rate_bps;
    const char *rules;          /* "Clause 13", "Clause 29", "Clause 41/42", "none" */
    bool pdv_defined;           /* false: no 802.3 budget applies (other rates, or a
                                   single 10 Mb/s segment: its length is the rule) */
    double pdv_bits;            /* the worst path's path delay value, bit times */
    double pdv_limit_bits;      /* 575, 512 or 4096 */
    bool pvv_defined;           /* 10 Mb/s paths through a repeater only */
    double pvv_bits, pvv_limit_bits; /* path variability value, limit 49 */
    double model_round_trip_bits;    /* 2 x the longest one-way delay between two MACs */
    /* The worst path by path delay value (or, where none is defined, by
     * the model's delay): its end segments and end MACs: a station (from
     * 0), or else the bridge whose port on that end segment it is (an
     * index in the network's bridges). */
    uint32_t from_segment, to_segment;
    uint32_t from_station, to_station;
    uint32_t from_bridge, to_bridge;
    bool full_duplex;           /* every segment a full-duplex link: verdict
                                   NET_BUDGET_FULL_DUPLEX, within, no path */
    /* The most segments, repeaters and coax segments on one path, as
     * Model 1 counts them (a hub is a repeater, each drop cable and each
     * cable between two hubs a link segment). */
    uint32_t max_segments, max_repeaters, max_coax;
    bool within;                /* no rule broken */
    char verdict[600];          /* "within", or every rule broken, "; " between */
} net_budget;

/* Fills *out for the network at rate_bps. A network of fewer than two
 * MACs has no path: within, nothing defined, round trip 0. */
void net_budget_compute(const network *net, uint64_t rate_bps, net_budget *out);

/* Whether budget a (of one collision domain) is worse than b (of
 * another, maybe at another rate): over 802.3's budget before within,
 * then the longer model round trip in bit times (the unit of each rate's
 * slot time). The one rule by which every report picks its worst domain
 * (network_worst_budget). */
bool net_budget_worse(const net_budget *a, const net_budget *b);

#endif
