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
#include "phy.h"
#include "simtime.h"
#include "traffic.h"

/* 802.3 allows 1024 stations in a collision domain; ten times that is
 * allowed for experiments (a saturated meltdown of 10 000 stations runs at
 * about 0.05 s of simulated time per 10 s of wall time). */
#define SCENARIO_MAX_STATIONS 10000u
#define SCENARIO_PATH_MAX 4096
#define SCENARIO_POLICY_MAX 256

typedef struct scenario {
    phy_params phy;            /* the profile, then the overrides */
    uint32_t n_stations;
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
    sim_time warmup;           /* discarded at the start of the measures */
    uint64_t seed;
    uint32_t batches;          /* batch means for the confidence interval */
    /* --outage START+DURATION: the whole medium is jammed during
     * [outage_start, outage_start + outage_duration) (medium.h, "fault");
     * outage_duration 0: no outage. */
    sim_time outage_start, outage_duration;
} scenario;

/* The defaults: 10base5, 8 stations evenly on 500 m, saturated, 512-byte
 * frames to random destinations, beb, 1 s, no warm-up, seed 1. */
void scenario_defaults(scenario *sc);
void scenario_free(scenario *sc);
/* Deep copy (positions included). Returns 0 or -1 (no memory). */
int scenario_copy(scenario *dst, const scenario *src);

/* Sets one key ("stations", "phy", "frame-size", ...) from its text value.
 * Returns 0, or -1 with "key: reason" in err. */
int scenario_set(scenario *sc, const char *key, const char *value, char *err, size_t errlen);

/* Reads a scenario file (at most 1 MiB: a longer file, a device or an
 * endless pipe is refused at the line that crosses it). Returns 0, or -1
 * with "path:line: reason". */
int scenario_load_file(scenario *sc, const char *path, char *err, size_t errlen);

/* Values written back as a user would type them (outputs, sweep rows). */
const char *scenario_traffic_name(traffic_kind kind); /* "saturated", ... "pcap" */
void scenario_frame_size_text(const frame_size_spec *s, char *buf, size_t len);
void scenario_dest_text(const traffic_config *t, char *buf, size_t len);
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
