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
#include <stddef.h>
#include <stdint.h>

#include "phy.h"

#define NET_NAME_MAX 32   /* as a group's name: letters, digits, '-', '_' */
#define NET_MAX_SEGMENTS 64
#define NET_MAX_REPEATERS 64
#define NET_MAX_PORTS 16  /* ports of one repeater */
#define NET_MAX_BRIDGES 16
#define NET_MAX_BRIDGE_PORTS 64 /* ports of one bridge (a switch of 64 stations) */
#define NET_NONE UINT32_MAX

typedef enum net_seg_type {
    NET_SEG_COAX, /* a bus: positions along the cable */
    NET_SEG_HUB,  /* a star: a drop cable each, through the hub */
    NET_SEG_LINK, /* a point-to-point cable: exactly two ends, at 0 and at its length */
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
    bool full_duplex;     /* a link's `duplex = full` */
    int duplex_line;
    uint32_t domain;      /* its collision domain (network.domain_*), by scenario_finish */
    /* Its PHY, by scenario_finish: the profile its `phy` key names (as
     * built in), else the scenario's (with the scenario's overrides). Its
     * stations and the ports on it run at this PHY's rate and timing; a
     * collision domain has one rate (stations/MODEL.md, "Segments at
     * different rates"). */
    phy_params phy;
    const phy_params *phy_own; /* `phy = NAME` (or a switch group's): NULL, the scenario's */
    int phy_line;
    /* As given (network.c reads them; scenario_finish fills the defaults
     * above from them, so that finishing twice gives the same network). */
    bool type_given, length_given, velocity_given, delay_given;
    uint32_t class_given; /* `class`: 1 or 2, 0 when not given */
    int length_line, probe_line, class_line, delay_line, uplink_line;
    bool has_uplink;      /* `uplink = SEG@METRES`: made a repeater by scenario_finish */
    uint32_t uplink_to;   /* index of SEG */
    double uplink_m;
    /* Its stations, after scenario_finish: how many, and the two that
     * bound every path through it. Coax: near_m the lowest position,
     * far_m the highest. Hub: far_m the longest drop, near_m the second
     * longest (0 with one station). *_station: their numbers (from 0). */
    uint32_t n_stations;
    double near_m, far_m;
    uint32_t near_station, far_station;
} net_segment;

/* Where a repeater port (or an uplink's end) is attached. */
typedef struct net_port {
    uint32_t segment;     /* index in network.segments */
    double metres;        /* coax: position along it; hub: its drop cable */
    bool drop_default;    /* a hub port given as `HUB`: metres is the hub's length */
} net_port;

typedef struct net_repeater {
    char name[NET_NAME_MAX + 1]; /* an uplink: "HUB-uplink" */
    net_port ports[NET_MAX_PORTS];
    uint32_t n_ports;
    uint32_t delay_bits;  /* one way, input to output */
    bool uplink;          /* a hub's uplink (2 ports, delay 0) */
    int line;
    /* At 100 Mb/s: 1 or 2 (Clause 27; Class II unless `class = I`), for the
     * budget's repeater delay (Table 29-3); 0 at other rates and for an
     * uplink. */
    uint32_t rep_class;
    uint32_t class_given; /* `class`: 1 or 2, 0 when not given */
    bool delay_given;
    int ports_line, class_line, delay_line;
} net_repeater;

/* A transparent bridge (IEEE 802.1D; a switch is a bridge with one
 * station per port): a port on each of several segments, each port a MAC
 * of its segment that ends the collision domain there. */
typedef struct net_bridge {
    char name[NET_NAME_MAX + 1];
    net_port ports[NET_MAX_BRIDGE_PORTS];
    uint32_t n_ports;
    uint32_t queue;       /* frames per output port (default 64) */
    int64_t latency_ps;   /* besides store and forward (default 0) */
    int64_t ageing_ps;    /* the filtering database's ageing time (802.1D: 300 s) */
    int line, ports_line, queue_line, latency_line, ageing_line;
} net_bridge;

/* The tables (segments, repeaters, bridges) are on the heap, each at its
 * maximum, from the first section (network_reserve): a scenario without
 * any (one bus or star) carries three NULL pointers, not 75 KB, and every
 * engine copies its scenario. A network owns its tables: copy it with
 * network_copy, free it with network_free (scenario_copy and
 * scenario_free do both). */
typedef struct network {
    net_segment *segments; /* NET_MAX_SEGMENTS of them, or NULL */
    uint32_t n_segments;  /* 0: no network (one bus or star) */
    /* The [repeater] sections first, then the hubs' uplinks (made by
     * scenario_finish from each hub's `uplink`, in segment order). */
    net_repeater *repeaters; /* NET_MAX_REPEATERS, or NULL */
    uint32_t n_repeaters;
    char file[300];       /* the scenario file the sections came from ("" none) */
    /* The file's lines of the scenario's own `topology`, `length` and
     * `probe` (which a network refuses), 0 when not from it: the command
     * line's (scenario_set clears, the file's reader sets them). */
    int topology_line, length_line, probe_line;
    net_bridge *bridges;  /* NET_MAX_BRIDGES, or NULL */
    uint32_t n_bridges;
    /* Collision domains, by scenario_finish: the segments that repeaters
     * and uplinks join (a bridge's port ends one). Numbered in the order of
     * their first segment; domain_first[d] is that segment, which names
     * the domain. */
    uint32_t n_domains;
    uint32_t domain_first[NET_MAX_SEGMENTS];
    /* `topology = switch`: every station alone on a link (segment i holds
     * station i) to one bridge. */
    bool switched;
} network;

/* Gives net its tables (zeroed) if it has none. Returns 0, or -1 when
 * memory cannot be had. */
int network_reserve(network *net);
/* Frees the tables; net is then empty (no network). */
void network_free(network *net);
/* A deep copy: dst's tables are its own (dst's old ones are not freed).
 * Returns 0, or -1 when memory cannot be had (dst then empty). */
int network_copy(network *dst, const network *src);

/* The keys of each section, in the order the parser lists them: its
 * "unknown key" refusals and `csmacd check --help` (so the man page) are
 * made from this table. section: 's' [segment], 'r' [repeater], 'b'
 * [bridge]. A TIME without a unit is seconds, as everywhere. */
typedef struct net_key_doc {
    char section;
    const char *key, *value, *deflt, *meaning;
} net_key_doc;
const net_key_doc *network_key_docs(size_t *n);

/* Reading the sections (scenario_load_file calls these; a reason is
 * "[segment NAME] ..." or "[repeater NAME] ...", without file and line).
 * Declares every section first, so that a key may name a segment declared
 * further down the file. kind: 's' segment, 'r' repeater, 'b' bridge. */
/* Whether a section's name is one (kind as below): 0, or -1 with a reason
 * ("segment 'NAME': a name is 1 to 32 ..."). Checked as the section's
 * header is read, so a refused name is the first thing said of it. */
int network_name_check(char kind, const char *name, char *err, size_t errlen);
int network_declare(network *net, char kind, const char *name, int line, char *err,
                    size_t errlen);
/* Sets one key of the section (its index among the segments or the
 * repeaters). Returns 0, or -1 with a reason. */
int network_set(network *net, char kind, uint32_t index, const char *key, const char *value,
                int line, char *err, size_t errlen);
/* The index of a segment by name, UINT32_MAX when there is none. */
uint32_t network_segment_find(const network *net, const char *name);
/* The index of a [repeater] by name (uplinks are made later, by
 * scenario_finish), UINT32_MAX when there is none. */
uint32_t network_repeater_find(const network *net, const char *name);
/* The bridge of that name, or UINT32_MAX. */
uint32_t network_bridge_find(const network *net, const char *name);
/* A port as a user writes it: "backbone@500" (coax), "lab@100" (hub). */
void network_port_text(const network *net, const net_port *p, char *buf, size_t len);
/* "coax", "hub" or "link". */
const char *network_type_name(net_seg_type type);
/* Propagation over `metres` of segment s, in picoseconds (rounded). */
int64_t network_cable_ps(const net_segment *s, double metres);
/* The rate of collision domain d (its first segment's PHY's; every
 * segment of a domain has the same rate, network_resolve refuses else). */
static inline uint64_t network_domain_rate(const network *net, uint32_t d)
{
    return net->segments[net->domain_first[d]].phy.rate_bps;
}
/* Repeater delay in picoseconds at a bit time of bit_ps. */
static inline int64_t network_repeater_ps(const net_repeater *r, int64_t bit_ps)
{
    return (int64_t)r->delay_bits * bit_ps;
}

/* One collision domain d as a network of its own (its segments, the
 * repeaters between them and the bridges' ports on them, renumbered), for
 * the budget (budget.h). seg_map[i]: the index in `net`
 * of the view's segment i (may be NULL). `out` keeps its tables from one
 * call to the next (it gets them on the first); free them with
 * network_free. Returns 0, or -1 when memory cannot be had. */
int network_domain_view(const network *net, uint32_t d, network *out, uint32_t *seg_map);

struct net_budget; /* budget.h */

/* The budget of collision domain d, judged at its own rate
 * (network_domain_rate): of its view (network_domain_view, into `view`,
 * seg_map as there) when the network has several domains, else of net
 * itself (seg_map the identity). The one computation behind check's
 * listing, run's header and JSON, the sweep's budget columns and the
 * budget's warnings. Returns the network that the budget's segment
 * numbers refer to, or NULL when memory cannot be had. */
const network *network_domain_budget(const network *net, uint32_t d, network *view,
                                     uint32_t *seg_map, struct net_budget *b);

/* How network_worst_budget found the domains. */
typedef struct net_domain_tally {
    uint32_t judged; /* domains at the rate asked (all when 0) */
    uint32_t within; /* of them, those within 802.3's budget */
    uint32_t worst;  /* the worst one's number, NET_NONE when none was judged */
} net_domain_tally;

/* The worst of the network's collision domains (those at `rate` only, or
 * all when rate is 0), each judged by network_domain_budget, the worst
 * by net_budget_worse (the first of equals): its budget in *worst, the
 * count in *tally. `view` keeps the worst domain's tables (free them with
 * network_free). Returns the network that worst's segment numbers refer
 * to (net or view), or NULL when memory cannot be had or no domain was
 * judged. */
const network *network_worst_budget(const network *net, uint64_t rate, network *view,
                                    struct net_budget *worst, net_domain_tally *tally);

#endif
