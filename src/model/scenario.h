/* scenario.h - a complete description of one run.
 *
 * A scenario is plain data: the PHY (a profile with any overrides), the
 * stations and their placement, the traffic, the policy, how long to run
 * and the seed. It is filled from defaults, then from a scenario file
 * (--scenario FILE, an INI file read with libinih), then from command-line
 * options, each through scenario_set with the same key names, so every
 * option is also a file key. scenario_finish cross-checks the whole and
 * resolves what depends on several keys.
 *
 * Errors are "key: reason" (or "file:line: reason") in the caller's buffer;
 * nothing is printed here.
 */
#ifndef CSMACD_SCENARIO_H
#define CSMACD_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backoff.h"
#include "network.h"
#include "phy.h"
#include "simtime.h"
#include "traffic.h"

/* 802.3 allows 1024 stations in a collision domain; ten times that is
 * allowed for experiments (a saturated meltdown of 10 000 stations runs at
 * about 0.05 s of simulated time per 10 s of wall time). */
#define SCENARIO_MAX_STATIONS 10000u
#define SCENARIO_PATH_MAX 4096
#define SCENARIO_POLICY_MAX 256

/* Groups (stations/MODEL.md, "Stations in groups"): a group's name is 1
 * to SCENARIO_GROUP_NAME_MAX letters, digits, '-' or '_', starting with a
 * letter; at most SCENARIO_MAX_GROUPS groups. */
#define SCENARIO_GROUP_NAME_MAX 32
#define SCENARIO_MAX_GROUPS 64

/* A station's answers: every unicast frame it receives whole (not itself
 * a reply) queues a reply to its sender `think` after the reception. */
typedef struct reply_spec {
    bool on;
    frame_size_spec size;
    sim_time think;
} reply_spec;

/* Placement of a group's stations, when the group sets it: explicit
 * metres (positions), spread evenly over a stretch of the bus (span), or
 * drops of one length (star). */
typedef enum place_kind { PLACE_DEFAULT, PLACE_SPAN, PLACE_DROP } place_kind;

typedef struct station_group {
    char name[SCENARIO_GROUP_NAME_MAX + 1];
    uint32_t count;            /* its stations (0 allowed) */
    uint32_t first;            /* its first station's index (scenario_finish) */
    /* Its own keys, as given ("key", "value", the file's line or 0),
     * replayed over the scenario's per-station keys by scenario_finish. */
    struct group_key { char *key, *value; int line; } *keys;
    uint32_t n_keys;
    /* Resolved by scenario_finish: the defaults with the group's keys on
     * top. The fields mean what the scenario's fields of the same names
     * mean, for this group's stations (traffic.load: of them together). */
    traffic_config traffic;
    char policy[SCENARIO_POLICY_MAX];
    backoff_spec policy_spec;
    uint32_t queue_capacity;
    reply_spec reply;
    char dest_group[SCENARIO_GROUP_NAME_MAX + 1]; /* dest = group:NAME */
    place_kind place;
    double place_from_m, place_to_m; /* SPAN: [from, to]; DROP: from */
    double *positions_m;       /* count entries, or NULL */
    /* Networks (stations/MODEL.md, "Networks of segments"): `segment =
     * NAME` as given, and, after scenario_finish, its index in net.segments
     * (UINT32_MAX without a network) and the rank of the group's first
     * station among the stations of that segment (station order). */
    char segment_name[NET_NAME_MAX + 1];
    uint32_t segment;
    uint32_t seg_rank;
    /* `phy = NAME` in a group (topology = switch only): the built-in
     * profile its stations' links run at; NULL, the scenario's PHY. */
    const phy_params *link_phy;
} station_group;

typedef struct scenario {
    phy_params phy;            /* the profile, then the overrides */
    uint32_t n_stations;       /* with groups: the sum of their counts */
    bool stations_given;       /* `stations` was set (refused with groups) */
    /* Explicit placement, NULL for even spacing over phy.length_m (bus) or
     * equal drops of phy.length_m (star). n_stations entries, metres: bus
     * positions along the cable or star drop lengths. Owned (free with
     * scenario_free). */
    double *positions_m;
    uint32_t n_positions;      /* entries of positions_m */
    double probe_m;            /* bus: probe position along the cable */
    traffic_config traffic;
    char pcap_path[SCENARIO_PATH_MAX]; /* --traffic pcap:FILE */
    double pcap_time_scale;    /* replay: stretch (> 1) or squeeze time; 1 = as captured */
    uint32_t pcap_max_stations;/* replay: at most this many stations, 0 = no cap */
    char policy[SCENARIO_POLICY_MAX];  /* backoff policy spec, "beb" */
    /* The spec above as parsed by scenario_finish (the engine builds its
     * policy from this, without reading the text again). Set it with
     * backoff_spec_parse when filling `policy` by hand. */
    backoff_spec policy_spec;
    uint32_t queue_capacity;   /* frames per station */
    sim_time duration;         /* total simulated time */
    bool endless;              /* run --duration inf: duration is only the
                                  clock's limit, and messages say "inf" */
    sim_time warmup;           /* discarded at the start of the measures */
    uint64_t seed;
    uint32_t batches;          /* batch means for the confidence interval */
    /* --outage START+DURATION: the whole medium is jammed during
     * [outage_start, outage_start + outage_duration) (medium.h, "fault");
     * outage_duration 0: no outage. */
    sim_time outage_start, outage_duration;
    /* Per-station keys that only groups use in practice, defaults here
     * like the others: replies, `dest = group:NAME`, span and drop. */
    reply_spec reply;
    char dest_group[SCENARIO_GROUP_NAME_MAX + 1];
    place_kind place;
    double place_from_m, place_to_m;
    /* The named groups, in file order (owned), n_named of them. With none,
     * the scenario is one implicit group, `all` (no heap: the scenario
     * copies as it always did), which scenario_finish fills from the keys
     * above. Read both through scenario_group_count and scenario_group_at. */
    station_group *groups;
    uint32_t n_named;
    station_group all;
    /* The network of segments ([segment] and [repeater] sections): none
     * when net.n_segments is 0. Its tables are on the heap from the first
     * section on (network.h). segment_name: the per-station `segment`
     * key's default. *_given: the medium-wide keys that a network
     * replaces, refused together with segments. */
    network net;
    char segment_name[NET_NAME_MAX + 1];
    bool topology_given, length_given, probe_given;
    /* `topology = switch` (network.h, `switched`): built by scenario_finish;
     * `duplex = half|full` its links' duplex. */
    bool switch_topology, duplex_full, duplex_given;
} scenario;

static inline uint32_t scenario_group_count(const scenario *sc)
{
    return sc->n_named ? sc->n_named : 1;
}

static inline const station_group *scenario_group_at(const scenario *sc, uint32_t g)
{
    return sc->n_named ? &sc->groups[g] : &sc->all;
}

/* The defaults: 10base5, 8 stations evenly on 500 m, saturated, 512-byte
 * frames to random destinations, beb, 1 s, no warm-up, seed 1. */
void scenario_defaults(scenario *sc);
void scenario_free(scenario *sc);
/* Deep copy (positions included). Returns 0 or -1 (no memory). */
int scenario_copy(scenario *dst, const scenario *src);

/* Sets one key ("stations", "phy", "frame-size", ...) from its text value;
 * "NAME.key" sets a per-station key of group NAME (declared before), the
 * last value of a key winning. Returns 0, or -1 with "key: reason" in err. */
int scenario_set(scenario *sc, const char *key, const char *value, char *err, size_t errlen);

/* Reads a scenario file (at most 1 MiB: a longer file, a device or an
 * endless pipe is refused at the line that crosses it). Returns 0, or -1
 * with "path:line: reason". */
int scenario_load_file(scenario *sc, const char *path, char *err, size_t errlen);

/* Declares a group (a [group NAME] section, a --group option). Returns 0,
 * or -1 with "group NAME: reason" (a bad or duplicate name, too many). */
int scenario_group_add(scenario *sc, const char *name, char *err, size_t errlen);
/* A group as one text, "NAME KEY=VALUE KEY=VALUE ..." (the --group
 * option): declares NAME if it is new, then sets its keys (a key it had
 * gets the new value). Returns 0, or -1 with a reason. */
int scenario_group_spec(scenario *sc, const char *spec, char *err, size_t errlen);
/* Fills the implicit group from the scenario's own keys when it names no
 * group (scenario_finish does it; for a scenario filled by hand). */
void scenario_sync_implicit(scenario *sc);
/* The group a station belongs to (after scenario_finish). */
uint32_t scenario_group_of(const scenario *sc, uint32_t station);
/* Where station i sits (after scenario_finish): metres along the bus, or
 * its drop cable's length on a star. With a network: along its coax
 * segment, or its drop cable on its hub. */
double scenario_station_metres(const scenario *sc, uint32_t i);
/* The segment station i sits on (index in sc->net.segments), UINT32_MAX
 * without a network (after scenario_finish). */
uint32_t scenario_station_segment(const scenario *sc, uint32_t i);
/* The (finished) scenario's network as budget.h reads it: a copy of
 * sc->net, or without segments its one bus or star as a single segment
 * named after the topology ("bus" or "hub"), its stations' bounds
 * filled. `out` owns its tables (network_free). Returns 0, or -1 when
 * memory cannot be had. */
int scenario_network_view(const scenario *sc, network *out);
/* The cable that ran (after scenario_finish), for the run's record: with
 * topology = switch every link's length (they are alike), else the PHY's
 * `length`. */
static inline double scenario_length_m(const scenario *sc)
{
    return sc->net.switched && sc->net.n_segments > 0 ? sc->net.segments[0].length_m
                                                      : sc->phy.length_m;
}
/* The mean size of the scenario's own frames as sent, DA through FCS,
 * bytes: its frame-size spec with every frame padded to the PHY's
 * minimum (frame_size_mean). With groups, the scenario's keys outside
 * them (each group's traffic has its own spec). */
double scenario_frame_bytes_mean(const scenario *sc);
/* Whether a key is per station (may appear in a group). */
bool scenario_key_per_station(const char *key);

/* Values written back as a user would type them (outputs, sweep rows). */
const char *scenario_traffic_name(traffic_kind kind); /* "saturated", ... "pcap" */
void scenario_frame_size_text(const frame_size_spec *s, char *buf, size_t len);
void scenario_dest_text(const traffic_config *t, char *buf, size_t len);
/* The duration as given: "2s", or "inf" for an endless run. */
void scenario_duration_text(const scenario *sc, char *buf, size_t len);
/* "START+DURATION" ("100ms+50ms"), or "" when there is no outage. */
void scenario_outage_text(const scenario *sc, char *buf, size_t len);

/* Cross-checks the whole scenario. Returns 0, or -1 with a reason. Non-fatal
 * remarks (a cable longer than the PHY allows) are written to `warn` (empty
 * string when none). */
int scenario_finish(scenario *sc, char *err, size_t errlen, char *warn, size_t warnlen);

/* The time series' rows: one per interval of the (finished) scenario's
 * duration. The interval is at least 1 ns (the time columns' resolution:
 * below it they repeat) and the rows at most max_rows. Returns 0, or -1
 * with "series-interval: reason". */
#define SCENARIO_SERIES_MAX_ROWS 10000000ull
int scenario_check_series(const scenario *sc, sim_time interval_ps, uint64_t max_rows,
                          char *err, size_t errlen);

#endif
