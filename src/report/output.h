/* output.h - the measures of a run as text, JSON or CSV (run --format), and
 * the per-station CSV (run --stations-csv).
 *
 * The scalar measures are one const table (output_measure_at): JSON fields
 * and CSV columns come from it in the same order, so they cannot disagree,
 * and other commands (sweep) can list the same measures. The names are
 * those of src/cli/CLI.md, "Outputs": throughput, throughput_ci95, throughput_mbps,
 * offered_load, frames_ok, frames_offered, frames_aborted, frames_dropped,
 * attempts, collisions, late_collisions, completion_s, mean_delay_us,
 * p99_delay_us, jain_fairness, capture_mean_run, capture_max_run,
 * sim_time_s, events, wall_s, and a few more (see output.c). A measure that
 * does not apply (completion_s unless every frame of a batch run is done,
 * replay_rejected unless a capture is replayed) is JSON null and an empty
 * CSV field.
 *
 * JSON (jansson): one object, fields in table order, reals with 12
 * significant digits (JSON_REAL_PRECISION), then "interrupted" and
 * "stations": an array of objects keyed by the Clause 30 names
 * (aFramesTransmittedOK, ...) and the extras, stations numbered from 1.
 * When the scenario names groups, "groups" follows: an object keyed by
 * group name, each with its keys and its measures (output_group_measure),
 * every station object names its group, and the CSV outputs have a
 * `group` column (stations) or NAME.measure columns (the run's row).
 * Everything except wall_s is a pure function of the scenario and seed.
 *
 * Writers return 0, or -1 with errno set (the caller names the file).
 */
#ifndef CSMACD_OUTPUT_H
#define CSMACD_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results.h"
#include "scenario.h"

typedef enum output_format { OUTPUT_TEXT, OUTPUT_JSON, OUTPUT_CSV } output_format;

/* "text", "json", "csv". Returns 0, or -1 for another name. */
int output_format_parse(const char *name, output_format *out);

/* What a run produced, with what only the program knows. */
typedef struct output_run {
    const scenario *sc; /* as the engine ran it (a replay sets the stations) */
    const results *r;
    double wall_s;     /* wall-clock seconds the run took */
    bool interrupted;  /* stopped early by a signal */
    bool replay;       /* traffic replayed from a capture */
    uint64_t replay_rejected; /* its frames read but not replayed */
} output_run;

/* One measure's value: an integer, a real, or nothing (not applicable). */
typedef struct output_value {
    enum { OUTPUT_NULL, OUTPUT_UINT, OUTPUT_REAL } kind;
    uint64_t u;
    double d;
} output_value;

typedef struct output_measure {
    const char *name;  /* JSON field and CSV column */
    const char *unit;  /* for people: "", "s", "us", "Mb/s" */
    output_value (*get)(const output_run *run);
} output_measure;

size_t output_measure_count(void);
const output_measure *output_measure_at(size_t i);

/* A group's measures (results.groups), one table for every output: JSON's
 * `groups` objects, and the CSV columns NAME.name of run and sweep. */
typedef struct output_group_measure {
    const char *name;
    output_value (*get)(const group_result *g);
} output_group_measure;

size_t output_group_measure_count(void);
const output_group_measure *output_group_measure_at(size_t i);

/* A network's measures per segment (family 0, results.segments) and per
 * repeater (family 1, results.repeaters): one table for every output (JSON's
 * `segments` and `repeaters` objects, the CSV columns NAME.measure of run
 * and sweep, the text lines). Each measure is a count. */
#define OUTPUT_NET_FAMILIES 2
size_t output_net_measure_count(int family);
const char *output_net_measure_name(int family, size_t j);
/* Measure j of row i of the family in r (i < its rows in r). */
uint64_t output_net_value(const results *r, int family, uint32_t i, size_t j);

/* The summary on f in the given format. */
int output_write(FILE *f, output_format fmt, const output_run *run);

/* Header and one row per station (numbered from 1). */
int output_write_stations_csv(FILE *f, const results *r);

#endif
