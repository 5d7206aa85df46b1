/* output.c - text, JSON (jansson) and CSV renderings of a run (output.h).
 *
 * Reals are printed with 12 significant digits in JSON and CSV alike
 * ("%.12g" and JSON_REAL_PRECISION(12)): enough for every measure, short
 * enough to read, and deterministic for identical doubles. NaN and
 * infinities (jansson refuses them) become null / empty.
 */
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "bridgereport.h"
#include "netreport.h"
#include "parse.h"
#include "textline.h"

#define REAL_DIGITS REPORT_REAL_DIGITS

int output_format_parse(const char *name, output_format *out)
{
    static const struct { const char *name; output_format fmt; } formats[] = {
        {"text", OUTPUT_TEXT}, {"json", OUTPUT_JSON}, {"csv", OUTPUT_CSV}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(name, formats[i].name) == 0) {
            *out = formats[i].fmt;
            return 0;
        }
    return -1;
}

static output_value u(uint64_t v) { return (output_value){.kind = OUTPUT_UINT, .u = v}; }
static output_value d(double v)
{
    if (!isfinite(v))
        return (output_value){.kind = OUTPUT_NULL};
    return (output_value){.kind = OUTPUT_REAL, .d = v};
}

#define GET(field, make)                                                                   \
    static output_value get_##field(const output_run *run) { return make(run->r->field); }
GET(throughput, d)
GET(throughput_ci95, d)
GET(throughput_mbps, d)
GET(offered_load, d)
GET(frames_ok, u)
GET(frames_offered, u)
GET(frames_aborted, u)
GET(frames_late_discarded, u)
GET(frames_dropped, u)
GET(frames_queued, u)
GET(frames_delivered, u)
GET(frames_corrupted, u)
GET(attempts, u)
GET(collisions, u)
GET(collisions_seen, u)
GET(late_collisions, u)
GET(collisions_per_frame, d)
GET(mean_delay_us, d)
GET(p50_delay_us, d)
GET(p99_delay_us, d)
GET(max_delay_us, d)
GET(capture_mean_run, d)
GET(capture_max_run, u)
GET(sim_time_s, d)
GET(measured_s, d)
GET(events, u)
GET(n_stations, u)
#undef GET

/* Undefined (null) when nothing was delivered in the window. */
static output_value get_jain_fairness(const output_run *run)
{
    return isnan(run->r->jain_fairness) ? (output_value){.kind = OUTPUT_NULL}
                                         : d(run->r->jain_fairness);
}

/* Runs with an outage, once the backlog is back to its level; else null. */
static output_value get_recovery_s(const output_run *run)
{
    return run->r->recovery_s >= 0 ? d(run->r->recovery_s)
                                   : (output_value){.kind = OUTPUT_NULL};
}

/* Batch runs only, once every offered frame is done; else null. */
static output_value get_completion_s(const output_run *run)
{
    return run->r->completion_s >= 0 ? d(run->r->completion_s)
                                     : (output_value){.kind = OUTPUT_NULL};
}

static output_value get_wall_s(const output_run *run) { return d(run->wall_s); }

/* Replayed traffic only: capture frames that were not offered. */
static output_value get_replay_rejected(const output_run *run)
{
    return run->replay ? u(run->replay_rejected) : (output_value){.kind = OUTPUT_NULL};
}

static const output_measure measures[] = {
    {"throughput", "", get_throughput},
    {"throughput_ci95", "", get_throughput_ci95},
    {"throughput_mbps", "Mb/s", get_throughput_mbps},
    {"offered_load", "", get_offered_load},
    {"frames_ok", "frames", get_frames_ok},
    {"frames_offered", "frames", get_frames_offered},
    {"frames_aborted", "frames", get_frames_aborted},
    {"frames_late_discarded", "frames", get_frames_late_discarded},
    {"frames_dropped", "frames", get_frames_dropped},
    {"frames_queued", "frames", get_frames_queued},
    {"frames_delivered", "frames", get_frames_delivered},
    {"frames_corrupted", "frames", get_frames_corrupted},
    {"attempts", "", get_attempts},
    {"collisions", "", get_collisions},
    {"collisions_seen", "", get_collisions_seen},
    {"late_collisions", "", get_late_collisions},
    {"collisions_per_frame", "", get_collisions_per_frame},
    {"completion_s", "s", get_completion_s},
    {"recovery_s", "s", get_recovery_s},
    {"mean_delay_us", "us", get_mean_delay_us},
    {"p50_delay_us", "us", get_p50_delay_us},
    {"p99_delay_us", "us", get_p99_delay_us},
    {"max_delay_us", "us", get_max_delay_us},
    {"jain_fairness", "", get_jain_fairness},
    {"capture_mean_run", "frames", get_capture_mean_run},
    {"capture_max_run", "frames", get_capture_max_run},
    {"sim_time_s", "s", get_sim_time_s},
    {"measured_s", "s", get_measured_s},
    {"events", "", get_events},
    {"n_stations", "", get_n_stations},
    {"replay_rejected", "frames", get_replay_rejected},
    {"wall_s", "s", get_wall_s},
};

size_t output_measure_count(void) { return sizeof measures / sizeof measures[0]; }

/* ---- per-group measures ---- */

static output_value us_to_s(double us) { return d(us / 1e6); }

#define GGET(fn, expr)                                                                      \
    static output_value gget_##fn(const group_result *g) { return expr; }
GGET(stations, u(g->stations))
GGET(load, d(g->load))
GGET(offered_load, d(g->offered_load))
GGET(throughput, d(g->throughput))
GGET(throughput_ci95, d(g->throughput_ci95))
GGET(share, d(g->share))
GGET(frames_ok, u(g->frames_ok))
GGET(frames_offered, u(g->frames_offered))
GGET(frames_aborted, u(g->frames_aborted))
GGET(frames_dropped, u(g->frames_dropped))
GGET(frames_queued, u(g->frames_queued))
GGET(delay_mean_s, us_to_s(g->mean_delay_us))
GGET(delay_p99_s, us_to_s(g->p99_delay_us))
GGET(jain_fairness, d(g->jain_fairness))
GGET(responses, u(g->responses))
GGET(response_mean_s, us_to_s(g->response_mean_us))
GGET(response_p99_s, us_to_s(g->response_p99_us))
#undef GGET

static const output_group_measure group_measures[] = {
    {"stations", gget_stations},
    {"load", gget_load},
    {"offered_load", gget_offered_load},
    {"throughput", gget_throughput},
    {"throughput_ci95", gget_throughput_ci95},
    {"share", gget_share},
    {"frames_ok", gget_frames_ok},
    {"frames_offered", gget_frames_offered},
    {"frames_aborted", gget_frames_aborted},
    {"frames_dropped", gget_frames_dropped},
    {"frames_queued", gget_frames_queued},
    {"delay_mean_s", gget_delay_mean_s},
    {"delay_p99_s", gget_delay_p99_s},
    {"jain_fairness", gget_jain_fairness},
    {"responses", gget_responses},
    {"response_mean_s", gget_response_mean_s},
    {"response_p99_s", gget_response_p99_s},
};

size_t output_group_measure_count(void) { return sizeof group_measures / sizeof group_measures[0]; }

const output_group_measure *output_group_measure_at(size_t i)
{
    return i < output_group_measure_count() ? &group_measures[i] : NULL;
}

/* ---- a network's segments and repeaters ---- */

/* A family of rows keyed by name (results.segments, results.repeaters):
 * each row a struct whose first field is its name, its measures
 * uint64_t fields at the offsets below. JSON objects keyed by name, CSV
 * columns NAME.measure, one text line per row; a family of no rows
 * prints nothing. */
typedef struct net_field {
    const char *name;
    size_t offset;
} net_field;

#define SEG_FIELD(f) {#f, offsetof(segment_result, f)}
static const net_field segment_fields[] = {
    SEG_FIELD(frames_sent),     SEG_FIELD(frames_relayed),   SEG_FIELD(collisions),
    SEG_FIELD(late_collisions), SEG_FIELD(frames_corrupted),
};
#undef SEG_FIELD
#define REP_FIELD(f) {#f, offsetof(repeater_result, f)}
static const net_field repeater_fields[] = {
    REP_FIELD(transmit_collisions), REP_FIELD(jams_sent),       REP_FIELD(fragments_extended),
    REP_FIELD(readable_frames),     REP_FIELD(port_collisions),
};
#undef REP_FIELD

typedef struct net_family {
    const char *key;
    uint32_t n;
    const char *rows;
    size_t stride, n_fields;
    const net_field *fields;
} net_family;

static net_family net_family_at(const results *r, int k)
{
    if (k == 0)
        return (net_family){"segments", r->n_segments, (const char *)r->segments,
                            sizeof *r->segments, sizeof segment_fields / sizeof *segment_fields,
                            segment_fields};
    return (net_family){"repeaters", r->n_repeaters, (const char *)r->repeaters,
                        sizeof *r->repeaters, sizeof repeater_fields / sizeof *repeater_fields,
                        repeater_fields};
}

static const char *row_name(const net_family *fam, uint32_t i)
{
    return *(const char *const *)(fam->rows + i * fam->stride);
}

static uint64_t row_value(const net_family *fam, uint32_t i, size_t k)
{
    uint64_t v;
    memcpy(&v, fam->rows + i * fam->stride + fam->fields[k].offset, sizeof v);
    return v;
}

size_t output_net_measure_count(int family)
{
    results none = {0};
    return net_family_at(&none, family).n_fields;
}

const char *output_net_measure_name(int family, size_t j)
{
    results none = {0};
    net_family fam = net_family_at(&none, family);
    return j < fam.n_fields ? fam.fields[j].name : NULL;
}

uint64_t output_net_value(const results *r, int family, uint32_t i, size_t j)
{
    net_family fam = net_family_at(r, family);
    return i < fam.n && j < fam.n_fields ? row_value(&fam, i, j) : 0;
}

/* CSV: the header's columns (values false) or the row's values. */
static int csv_families(FILE *f, const results *r, bool values)
{
    for (int k = 0; k < 2; k++) {
        net_family fam = net_family_at(r, k);
        for (uint32_t i = 0; i < fam.n; i++)
            for (size_t j = 0; j < fam.n_fields; j++)
                if ((values ? fprintf(f, ",%" PRIu64, row_value(&fam, i, j))
                            : fprintf(f, ",%s.%s", row_name(&fam, i), fam.fields[j].name)) < 0)
                    return -1;
    }
    return 0;
}

static int text_families(FILE *f, const results *r)
{
    for (int k = 0; k < 2; k++) {
        net_family fam = net_family_at(r, k);
        for (uint32_t i = 0; i < fam.n; i++) {
            if (fprintf(f, "  %-18s%-12s", i ? "" : fam.key, row_name(&fam, i)) < 0)
                return -1;
            for (size_t j = 0; j < fam.n_fields; j++)
                if (fprintf(f, " %s %" PRIu64, fam.fields[j].name, row_value(&fam, i, j)) < 0)
                    return -1;
            if (fputc('\n', f) == EOF)
                return -1;
        }
    }
    return 0;
}

/* The group of station s (results.groups, which are in station order). */
static const group_result *group_of_station(const results *r, uint32_t s)
{
    const group_result *g = NULL;
    for (uint32_t i = 0; i < r->n_groups; i++)
        if (r->groups[i].stations > 0 && s >= r->groups[i].first)
            g = &r->groups[i];
    return g;
}

const output_measure *output_measure_at(size_t i)
{
    return i < output_measure_count() ? &measures[i] : NULL;
}

/* ---- per-station counters ---- */

typedef struct station_field {
    const char *name;
    output_value (*get)(const station_result *s);
} station_field;

#define SGET(fn, expr)                                                                      \
    static output_value sget_##fn(const station_result *s) { return expr; }
SGET(ok, u(s->c.frames_transmitted_ok))
SGET(single, u(s->c.single_collision_frames))
SGET(multiple, u(s->c.multiple_collision_frames))
SGET(octets, u(s->c.octets_transmitted_ok))
SGET(deferred, u(s->c.frames_with_deferred_xmissions))
SGET(late, u(s->c.late_collisions))
SGET(xs, u(s->c.frames_aborted_xs_colls))
SGET(late_discarded, u(s->c.frames_late_discarded))
SGET(offered, u(s->c.frames_offered))
SGET(dropped, u(s->c.frames_dropped))
SGET(collisions, u(s->c.collisions))
SGET(attempts, u(s->c.attempts))
SGET(delivered, u(s->c.frames_delivered))
SGET(corrupted, u(s->c.frames_corrupted))
SGET(bits, u(s->bits_delivered))
SGET(share, d(s->share))
SGET(queue, u(s->queue_len))
#undef SGET

static const station_field station_fields[] = {
    {"aFramesTransmittedOK", sget_ok},
    {"aSingleCollisionFrames", sget_single},
    {"aMultipleCollisionFrames", sget_multiple},
    {"aOctetsTransmittedOK", sget_octets},
    {"aFramesWithDeferredXmissions", sget_deferred},
    {"aLateCollisions", sget_late},
    {"aFramesAbortedDueToXSColls", sget_xs},
    {"frames_late_discarded", sget_late_discarded},
    {"frames_offered", sget_offered},
    {"frames_dropped", sget_dropped},
    {"collisions", sget_collisions},
    {"attempts", sget_attempts},
    {"frames_delivered", sget_delivered},
    {"frames_corrupted", sget_corrupted},
    {"bits_delivered", sget_bits},
    {"share", sget_share},
    {"queue_len", sget_queue},
};

#define N_STATION_FIELDS (sizeof station_fields / sizeof station_fields[0])

/* ---- CSV ---- */

static int csv_value(FILE *f, output_value v)
{
    switch (v.kind) {
    case OUTPUT_UINT:
        return fprintf(f, "%" PRIu64, v.u) < 0 ? -1 : 0;
    case OUTPUT_REAL:
        return fprintf(f, "%.*g", REAL_DIGITS, v.d) < 0 ? -1 : 0;
    case OUTPUT_NULL:
    default:
        return 0;
    }
}

static int write_csv(FILE *f, const output_run *run)
{
    const results *r = run->r;
    for (size_t i = 0; i < output_measure_count(); i++)
        if (fprintf(f, "%s%s", i ? "," : "", measures[i].name) < 0)
            return -1;
    if (fputs(",interrupted", f) == EOF)
        return -1;
    for (uint32_t g = 0; g < r->n_groups; g++)
        for (size_t i = 0; i < output_group_measure_count(); i++)
            if (fprintf(f, ",%s.%s", r->groups[g].name, group_measures[i].name) < 0)
                return -1;
    if (csv_families(f, r, false) != 0 || bridgereport_csv(f, r, false) != 0 ||
        fputc('\n', f) == EOF)
        return -1;
    for (size_t i = 0; i < output_measure_count(); i++)
        if ((i && fputc(',', f) == EOF) || csv_value(f, measures[i].get(run)) != 0)
            return -1;
    if (fprintf(f, ",%d", run->interrupted ? 1 : 0) < 0)
        return -1;
    for (uint32_t g = 0; g < r->n_groups; g++)
        for (size_t i = 0; i < output_group_measure_count(); i++)
            if (fputc(',', f) == EOF || csv_value(f, group_measures[i].get(&r->groups[g])) != 0)
                return -1;
    if (csv_families(f, r, true) != 0 || bridgereport_csv(f, r, true) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

int output_write_stations_csv(FILE *f, const results *r)
{
    if (fputs(r->n_groups ? "station,group" : "station", f) == EOF ||
        (r->n_segments && fputs(",segment", f) == EOF))
        return -1;
    for (size_t i = 0; i < N_STATION_FIELDS; i++)
        if (fprintf(f, ",%s", station_fields[i].name) < 0)
            return -1;
    if (fputc('\n', f) == EOF)
        return -1;
    for (uint32_t s = 0; s < r->n_stations; s++) {
        if (fprintf(f, "%" PRIu32, s + 1) < 0)
            return -1;
        if (r->n_groups && fprintf(f, ",%s", group_of_station(r, s)->name) < 0)
            return -1; /* names are letters, digits, '-' and '_': no quoting */
        if (r->n_segments &&
            fprintf(f, ",%s", r->segments[r->stations[s].segment].name) < 0)
            return -1;
        for (size_t i = 0; i < N_STATION_FIELDS; i++)
            if (fputc(',', f) == EOF || csv_value(f, station_fields[i].get(&r->stations[s])) != 0)
                return -1;
        if (fputc('\n', f) == EOF)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

static json_t *json_value(output_value v)
{
    switch (v.kind) {
    case OUTPUT_UINT:
        return v.u <= (uint64_t)INT64_MAX ? json_integer((json_int_t)v.u) : json_real((double)v.u);
    case OUTPUT_REAL:
        return json_real(v.d);
    case OUTPUT_NULL:
    default:
        return json_null();
    }
}

/* Adds key: value, stealing the reference; returns -1 on any failure. */
static int put(json_t *obj, const char *key, json_t *v)
{
    return v == NULL || json_object_set_new(obj, key, v) != 0 ? -1 : 0;
}

static json_t *json_scenario(const scenario *sc)
{
    char size[256], dest[32];
    scenario_frame_size_text(&sc->traffic.size, size, sizeof size);
    scenario_dest_text(&sc->traffic, dest, sizeof dest);
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    int rc = 0;
    rc |= put(o, "phy", json_string(sc->phy.name));
    rc |= put(o, "stations", json_integer(sc->n_stations));
    rc |= put(o, "topology", json_string(sc->switch_topology              ? "switch"
                                         : sc->phy.topology == TOPOLOGY_BUS ? "bus"
                                                                            : "star"));
    if (sc->switch_topology) /* only with a switch: a bus or a star is half duplex */
        rc |= put(o, "duplex", json_string(sc->duplex_full ? "full" : "half"));
    rc |= put(o, "length_m", json_real(scenario_length_m(sc))); /* a switch's: its links' */
    rc |= put(o, "rate_bps", json_integer((json_int_t)sc->phy.rate_bps));
    rc |= put(o, "traffic", json_string(scenario_traffic_name(sc->traffic.kind)));
    rc |= put(o, "load", json_real(sc->traffic.load));
    rc |= put(o, "frame_size", json_string(size));
    rc |= put(o, "dest", json_string(dest));
    rc |= put(o, "policy", json_string(sc->policy));
    rc |= put(o, "duration_s", json_real(sim_time_to_s(sc->duration)));
    rc |= put(o, "warmup_s", json_real(sim_time_to_s(sc->warmup)));
    if (sc->outage_duration > 0) { /* only when given: default outputs stay as they were */
        char outage[80];
        scenario_outage_text(sc, outage, sizeof outage);
        rc |= put(o, "outage", json_string(outage));
    }
    /* A JSON integer is signed 64-bit here: larger seeds go as text. */
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, sc->seed);
    rc |= put(o, "seed", sc->seed <= (uint64_t)INT64_MAX ? json_integer((json_int_t)sc->seed)
                                                         : json_string(seed));
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The run-length histogram: one object per bucket [from, to] frames, up
 * to the last non-empty one (an empty array when nothing was sent). */
static json_t *json_capture_runs(const results *r)
{
    json_t *a = json_array();
    size_t last = 0;
    for (size_t i = 0; i < RESULTS_RUN_BUCKETS; i++)
        if (r->capture_runs[i])
            last = i + 1;
    for (size_t i = 0; a != NULL && i < last; i++) {
        json_t *b = json_object();
        json_int_t from = (json_int_t)1 << i; /* i <= 62: 2^(i+1) - 1 fits */
        if (b == NULL || put(b, "from", json_integer(from)) != 0 ||
            put(b, "to", json_integer(from + (from - 1))) != 0 ||
            put(b, "runs", json_integer((json_int_t)r->capture_runs[i])) != 0) {
            json_decref(b);
            json_decref(a);
            return NULL;
        }
        if (json_array_append_new(a, b) != 0) { /* b is released either way */
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* A group's keys, as a user would write them. */
static int json_group_keys(json_t *o, const station_group *g)
{
    char size[256], dest[64];
    scenario_frame_size_text(&g->traffic.size, size, sizeof size);
    if (g->dest_group[0])
        snprintf(dest, sizeof dest, "group:%s", g->dest_group);
    else
        scenario_dest_text(&g->traffic, dest, sizeof dest);
    int rc = 0;
    /* A group of 0 stations has no first station. */
    rc |= put(o, "first_station", g->count ? json_integer(g->first + 1) : json_null());
    rc |= put(o, "traffic", json_string(scenario_traffic_name(g->traffic.kind)));
    rc |= put(o, "frame_size", json_string(size));
    rc |= put(o, "dest", json_string(dest));
    rc |= put(o, "policy", json_string(g->policy));
    rc |= put(o, "queue", json_integer(g->queue_capacity));
    if (g->reply.on) {
        scenario_frame_size_text(&g->reply.size, size, sizeof size);
        rc |= put(o, "reply", json_string(size));
        rc |= put(o, "think_s", json_real(sim_time_to_s(g->reply.think)));
    }
    return rc;
}

/* "groups": {NAME: {keys, measures}}, in station order. */
static json_t *json_groups(const output_run *run)
{
    json_t *all = json_object();
    for (uint32_t i = 0; all != NULL && i < run->r->n_groups; i++) {
        const group_result *gr = &run->r->groups[i];
        json_t *o = json_object();
        int rc = o == NULL ? -1 : json_group_keys(o, scenario_group_at(run->sc, i));
        for (size_t k = 0; rc == 0 && k < output_group_measure_count(); k++)
            rc = put(o, group_measures[k].name, json_value(group_measures[k].get(gr)));
        if (rc != 0 || put(all, gr->name, o) != 0) {
            if (rc != 0)
                json_decref(o);
            json_decref(all);
            return NULL;
        }
    }
    return all;
}

static int write_json(FILE *f, const output_run *run)
{
    json_t *root = json_object();
    json_t *stations = json_array();
    int rc = root == NULL || stations == NULL ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < output_measure_count(); i++)
        rc = put(root, measures[i].name, json_value(measures[i].get(run)));
    if (rc == 0)
        rc = put(root, "capture_runs", json_capture_runs(run->r));
    if (rc == 0)
        rc = put(root, "interrupted", json_boolean(run->interrupted));
    if (rc == 0)
        rc = put(root, "scenario", json_scenario(run->sc));
    if (rc == 0 && run->sc->net.n_segments) /* only with segments: other outputs as they were */
        rc = put(root, "network", netreport_json(run->sc));
    if (rc == 0 && run->r->n_groups)
        rc = put(root, "groups", json_groups(run));
    for (int k = 0; rc == 0 && k < 2; k++) {
        net_family fam = net_family_at(run->r, k);
        json_t *all = fam.n ? json_object() : NULL;
        for (uint32_t i = 0; fam.n && rc == 0 && i < fam.n; i++) {
            json_t *o = json_object();
            rc = all == NULL ? -1 : put(all, row_name(&fam, i), o);
            for (size_t j = 0; rc == 0 && j < fam.n_fields; j++)
                rc = put(o, fam.fields[j].name, json_integer((json_int_t)row_value(&fam, i, j)));
        }
        if (fam.n && rc == 0)
            rc = put(root, fam.key, all);
        else if (fam.n)
            json_decref(all);
    }
    if (rc == 0)
        rc = bridgereport_json(root, run->r);
    for (uint32_t s = 0; rc == 0 && s < run->r->n_stations; s++) {
        json_t *st = json_object();
        rc = st == NULL ? -1 : put(st, "station", json_integer(s + 1));
        if (rc == 0 && run->r->n_groups)
            rc = put(st, "group", json_string(group_of_station(run->r, s)->name));
        if (rc == 0 && run->r->n_segments)
            rc = put(st, "segment",
                     json_string(run->r->segments[run->r->stations[s].segment].name));
        for (size_t i = 0; rc == 0 && i < N_STATION_FIELDS; i++)
            rc = put(st, station_fields[i].name,
                     json_value(station_fields[i].get(&run->r->stations[s])));
        if (rc == 0 && json_array_append_new(stations, st) != 0)
            rc = -1;
        else if (rc != 0)
            json_decref(st);
    }
    if (rc == 0) {
        rc = json_object_set_new(root, "stations", stations);
        stations = NULL;
    }
    if (rc == 0) {
        errno = 0;
        rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(REAL_DIGITS));
        if (rc == 0 && fputc('\n', f) == EOF)
            rc = -1;
        if (rc != 0 && errno == 0)
            errno = EIO;
    } else {
        errno = ENOMEM;
    }
    json_decref(stations);
    json_decref(root);
    return rc == 0 ? 0 : -1;
}

/* ---- text ---- */

/* A real in text with `decimals` digits and a unit, or "-" when it does
 * not apply. */
static const char *text_real(char *buf, size_t len, int decimals, const char *unit, double v)
{
    if (isfinite(v))
        snprintf(buf, len, "%.*f%s", decimals, v, unit);
    else
        snprintf(buf, len, "-");
    return buf;
}

/* A group's configured load: G, or what its traffic is instead. */
static void load_text(const station_group *g, char *buf, size_t len)
{
    if (g->count == 0)
        snprintf(buf, len, "-"); /* no station, no load */
    else if (g->traffic.kind == TRAFFIC_POISSON || g->traffic.kind == TRAFFIC_ONOFF)
        snprintf(buf, len, "%.4g", g->traffic.load);
    else if (g->traffic.kind == TRAFFIC_NONE && g->reply.on)
        snprintf(buf, len, "replies");
    else
        snprintf(buf, len, "%s", scenario_traffic_name(g->traffic.kind));
}

/* One line per group, and the configured loads and their sum. */
static int write_text_groups(FILE *f, const output_run *run)
{
    const results *r = run->r;
    double total = 0;
    bool all_loaded = true;
    if (fprintf(f, "  %-18s%-12s %8s %9s %8s %8s %6s %8s %8s %8s %10s %10s %6s\n", "groups",
                "name", "stations", "load", "offered", "S", "share", "OK", "aborted",
                "dropped", "delay mean", "p99", "Jain") < 0)
        return -1;
    for (uint32_t i = 0; i < r->n_groups; i++) {
        const group_result *g = &r->groups[i];
        const station_group *sg = scenario_group_at(run->sc, i);
        char load[32], jain[16], mean[32], p99[32], share[16];
        load_text(sg, load, sizeof load);
        text_real(mean, sizeof mean, 1, " us", g->mean_delay_us);
        text_real(p99, sizeof p99, 1, " us", g->p99_delay_us);
        if (g->stations == 0)
            ; /* offers nothing: adds nothing */
        else if (isnan(g->load))
            all_loaded = false;
        else
            total += g->load;
        text_real(jain, sizeof jain, 4, "", g->jain_fairness);
        text_real(share, sizeof share, 1, "%", 100 * g->share);
        if (fprintf(f,
                    "  %-18s%-12s %8" PRIu32 " %9s %8.4f %8.4f %6s %8" PRIu64 " %8" PRIu64
                    " %8" PRIu64 " %10s %10s %6s\n",
                    "", g->name, g->stations, load, g->offered_load, g->throughput, share,
                    g->frames_ok, g->frames_aborted, g->frames_dropped, mean, p99, jain) < 0)
            return -1;
        if (g->responses &&
            fprintf(f, "  %-18s%-12s responses: %" PRIu64 ", mean %.1f us, p99 %.1f us\n", "",
                    "", g->responses, g->response_mean_us, g->response_p99_us) < 0)
            return -1;
    }
    if (all_loaded && fprintf(f, "  %-18s%.4g (the groups' loads added)\n", "load", total) < 0)
        return -1;
    return 0;
}

static int write_text(FILE *f, const output_run *run)
{
    const scenario *sc = run->sc;
    const results *r = run->r;
    char size[256], dest[32], dur[32], warm[32];
    scenario_frame_size_text(&sc->traffic.size, size, sizeof size);
    scenario_dest_text(&sc->traffic, dest, sizeof dest);
    if (sc->n_stations == 1 && sc->traffic.dest == DEST_RANDOM)
        snprintf(dest, sizeof dest, "no other station"); /* judged where it is sent */
    scenario_duration_text(sc, dur, sizeof dur);
    parse_format_time(sc->warmup, warm, sizeof warm);
    int n = 0;
    char where[64];
    snprintf(where, sizeof where, sc->phy.topology == TOPOLOGY_BUS ? "bus %g m" : "star, drops of %g m",
             sc->phy.length_m);
    if (sc->net.n_segments)
        snprintf(where, sizeof where, "a network of %u segment%s", sc->net.n_segments,
                 sc->net.n_segments == 1 ? "" : "s");
    char what[SCENARIO_PATH_MAX + 300];
    if (sc->traffic.kind == TRAFFIC_PCAP)
        snprintf(what, sizeof what, "traffic replayed from %s", sc->pcap_path);
    else if (sc->traffic.size.max_bytes < sc->phy.min_frame_bytes)
        /* every frame padded to the minimum (4.2.3.3): say what is sent */
        snprintf(what, sizeof what, "%s traffic, %u-byte frames (%s asked, padded) to %s",
                 scenario_traffic_name(sc->traffic.kind), sc->phy.min_frame_bytes, size, dest);
    else
        snprintf(what, sizeof what, "%s traffic, %s-byte frames%s to %s",
                 scenario_traffic_name(sc->traffic.kind), size,
                 sc->traffic.size.min_bytes < sc->phy.min_frame_bytes
                     ? " (shorter ones padded to the minimum)"
                     : "",
                 dest);
    if (r->n_groups)
        n = fprintf(f, "csmacd run: %s, %u station%s in %u group%s (below), %s, seed %" PRIu64
                       "\n",
                    sc->phy.name, sc->n_stations, sc->n_stations == 1 ? "" : "s", r->n_groups,
                    r->n_groups == 1 ? "" : "s", where, sc->seed);
    else
        n = fprintf(f, "csmacd run: %s, %u station%s, %s, %s, policy %s, seed %" PRIu64 "\n",
                    sc->phy.name, sc->n_stations, sc->n_stations == 1 ? "" : "s", where, what,
                    sc->policy, sc->seed);
    if (sc->net.n_segments) {
        char net[1024];
        netreport_summary(sc, net, sizeof net);
        text_line(f, &n, "network", "%s", net);
    }
    if (run->interrupted)
        text_line(f, &n, "status", "interrupted: measures cover the run so far");
    text_line(f, &n, "simulated time", "%.6f s of %s (warm-up %s), %" PRIu64 " events, %.3f s wall",
              r->sim_time_s, dur, warm, r->events, run->wall_s);
    if (sc->outage_duration > 0) {
        char from[32], len[32];
        parse_format_time(sc->outage_start, from, sizeof from);
        parse_format_time(sc->outage_duration, len, sizeof len);
        text_line(f, &n, "outage", "the medium jammed from %s for %s", from, len);
    }
    if (isfinite(r->throughput_ci95))
        text_line(f, &n, "throughput", "%.4f +/- %.4f (95%%), %.3f Mb/s", r->throughput,
                  r->throughput_ci95, r->throughput_mbps);
    else if (r->throughput > 0) /* fewer than two batches: no interval */
        text_line(f, &n, "throughput", "%.4f (no CI: fewer than 2 batches), %.3f Mb/s",
                  r->throughput, r->throughput_mbps);
    else
        text_line(f, &n, "throughput", "%.4f (no CI: nothing received whole), %.3f Mb/s",
                  r->throughput, r->throughput_mbps);
    text_line(f, &n, "offered load", "%.4f", r->offered_load);
    text_line(f, &n, "frames",
              "%" PRIu64 " offered, %" PRIu64 " sent OK, %" PRIu64 " aborted, %" PRIu64
              " discarded after a late collision, %" PRIu64 " dropped, %" PRIu64 " queued",
              r->frames_offered, r->frames_ok, r->frames_aborted, r->frames_late_discarded,
              r->frames_dropped, r->frames_queued);
    text_line(f, &n, "received", "%" PRIu64 " whole, %" PRIu64 " corrupted at the receiver",
              r->frames_delivered, r->frames_corrupted);
    text_line(f, &n, "attempts", "%" PRIu64, r->attempts);
    char per[32], cap[32];
    text_line(f, &n, "collisions", "%" PRIu64 " on the medium, %s per frame sent, %" PRIu64 " late",
              r->collisions, text_real(per, sizeof per, 3, "", r->collisions_per_frame),
              r->late_collisions);
    if (isnan(r->mean_delay_us))
        text_line(f, &n, "delay", "%s", "- (no frame sent)");
    else
        text_line(f, &n, "delay", "mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us",
                  r->mean_delay_us, r->p50_delay_us, r->p99_delay_us, r->max_delay_us);
    if (isnan(r->jain_fairness))
        text_line(f, &n, "fairness (Jain)", "%s", "undefined (nothing delivered)");
    else
        text_line(f, &n, "fairness (Jain)", "%.4f", r->jain_fairness);
    text_line(f, &n, "capture", "mean run %s frames, longest %" PRIu64,
              text_real(cap, sizeof cap, 2, "", r->capture_mean_run), r->capture_max_run);
    if (sc->outage_duration > 0) {
        if (r->recovery_s >= 0)
            text_line(f, &n, "recovery", "%.6f s after the outage, backlog back to its level",
                      r->recovery_s);
        else
            text_line(f, &n, "recovery", "%s",
                      "not within the run (backlog still above its level)");
    }
    if (sc->traffic.kind == TRAFFIC_BATCH) {
        if (r->completion_s >= 0)
            text_line(f, &n, "completion", "%.6f s (every frame done)", r->completion_s);
        else
            text_line(f, &n, "completion", "not every frame is done yet");
    }
    if (n >= 0 && r->n_groups)
        n = write_text_groups(f, run);
    if (n >= 0)
        n = text_families(f, r) != 0 || bridgereport_text(f, r) != 0 ? -1 : 0;
    return n < 0 ? -1 : 0;
}

int output_write(FILE *f, output_format fmt, const output_run *run)
{
    switch (fmt) {
    case OUTPUT_JSON:
        return write_json(f, run);
    case OUTPUT_CSV:
        return write_csv(f, run);
    case OUTPUT_TEXT:
    default:
        return write_text(f, run);
    }
}
