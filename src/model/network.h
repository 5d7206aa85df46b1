/* network.h - a network of segments: plain data, read from a scenario
 * file and checked, with no engine.
 *
 * A scenario without any [segment] section has no network (n_segments
 * 0): it is one bus or one star, as the PHY's topology says. With
 * segments, every station sits on one segment (its group's `segment`
 * key) and repeaters join segments into one collision domain
 * (stations/MODEL.md, "Networks of segments"):
 *   - a `coax` segment is a bus cable of `length` metres: stations and
 *     ports tap it at positions along it;
 *   - a `hub` segment is a repeater hub: each station or port sits on its
 *     own drop cable of `length` metres (unless it gives its own), and
 *     the hub delays every signal by its repeater delay;
 *   - a repeater joins two or more segments, a port on each; a hub's
 *     `uplink` is a repeater of two ports without delay of its own (the
 *     hub's delay is already in its star).
 * Everything here is resolved by scenario_finish: indexes, not names;
 * lengths and delays in metres and bits, as the user gave them or from
 * the defaults the PHY and the hub's class imply.
 */
#ifndef CSMACD_NETWORK_H
#define CSMACD_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#define NET_NAME_MAX 32   /* as a group's name: letters, digits, '-', '_' */
#define NET_MAX_SEGMENTS 64
#define NET_MAX_REPEATERS 64
#define NET_MAX_PORTS 16  /* ports of one repeater */

typedef enum net_seg_type {
    NET_SEG_COAX, /* a bus: positions along the cable */
    NET_SEG_HUB,  /* a star: a drop cable each, through the hub */
} net_seg_type;

typedef struct net_segment {
    char name[NET_NAME_MAX + 1];
    net_seg_type type;
    double length_m;      /* coax: the cable; hub: every drop cable */
    double velocity_c;    /* signal speed on it, a fraction of c */
    double probe_m;       /* coax: where the segment's capture point taps it */
    uint32_t hub_bits;    /* hub: one-way delay through it, bit times */
    uint32_t hub_class;   /* hub at 100 Mb/s: 1 or 2 (Clause 27); 0 otherwise */
    int line;             /* its section's line in the file, 0 when none */
} net_segment;

/* Where a repeater port (or an uplink's end) is attached. */
typedef struct net_port {
    uint32_t segment;     /* index in network.segments */
    double metres;        /* coax: position along it; hub: its drop cable */
} net_port;

typedef struct net_repeater {
    char name[NET_NAME_MAX + 1]; /* an uplink: "HUB-uplink" */
    net_port ports[NET_MAX_PORTS];
    uint32_t n_ports;
    uint32_t delay_bits;  /* one way, input to output */
    bool uplink;          /* a hub's uplink (2 ports, delay 0) */
    int line;
} net_repeater;

typedef struct network {
    net_segment segments[NET_MAX_SEGMENTS];
    uint32_t n_segments;  /* 0: no network (one bus or star) */
    net_repeater repeaters[NET_MAX_REPEATERS];
    uint32_t n_repeaters;
} network;

#endif
