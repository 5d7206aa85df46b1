/* model_util.h - shared helpers of the model tests (test_timing, test_backoff,
 * test_counters, test_determinism, test_contention).
 *
 * What it gives:
 *  - mu_scenario: a scenario filled field by field (no scenario_defaults or
 *    scenario_set: the model tests must not depend on the parser);
 *  - mu_run: runs a scenario to its end with a sink that records every trace
 *    event, and copies the results (station counters included);
 *  - an independent reference of the model's timing rules (stations/MODEL.md
 *    and medium/README.md), computed from the recorded trace and from
 *    delays derived here from the positions in metres, not from the
 *    engine's medium:
 *      * deference (the Pascal Deference process of 4.2.7 with the two-part
 *        gap of 4.2.3.2.1, or the single gap when the switch is off): every
 *        frame attempt must start exactly when the reference says;
 *      * collision detect, preamble/SFD completed before the 32-bit jam,
 *        the end of every transmission and its bits on the wire;
 *      * reception: a frame is received correctly iff it was sent whole and
 *        no other signal overlaps it at the destination;
 *      * the instant each transmission's first bit passes the probe;
 *      * aFramesWithDeferredXmissions: frames sent whole at their first
 *        attempt that were ready before they could start.
 *    The checks use cmocka assertions, so a failure names the line here;
 *    the message printed before it names the transmission.
 *
 * At 1 Gb/s it also checks carrier extension of a burst's first frame, the
 * 96-bit extension between the frames of a burst, that a burst's later
 * frames start right after it without deference, and that every collision
 * in a burst is late. What it deliberately does not model: where a burst
 * must stop (burstLimit; test_timing pins it on one station), statistics.
 */
#ifndef CSMACD_TESTS_MODEL_UTIL_H
#define CSMACD_TESTS_MODEL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "results.h"
#include "scenario.h"
#include "trace.h"

/* Every trace event of a run, in the order the engine reported them. */
typedef struct mu_trace {
    trace_event *ev;
    size_t n, cap;
} mu_trace;

void mu_trace_sink(void *ctx, const trace_event *ev);
void mu_trace_free(mu_trace *t);

/* A scenario with every field set: `phy` profile copied unchanged,
 * n stations at positions_m (copied; NULL puts them all at 0 m), fixed
 * frame size, random destinations, beb, queue of 64 frames, no warm-up,
 * 10 batches. Free with mu_scenario_free. */
void mu_scenario(scenario *sc, const char *phy, uint32_t n, const double *positions_m,
                 traffic_kind kind, uint32_t frame_bytes, sim_time duration,
                 uint64_t seed);
void mu_scenario_free(scenario *sc);
/* Sets sc's backoff policy as scenario_finish would: the text and its
 * parsed spec, which the engine builds from (fails the test if bad). */
void mu_set_policy(scenario *sc, const char *spec);

typedef struct mu_run {
    mu_trace tr;
    results r;
    station_result *st; /* copy of r.stations */
    segment_result *seg; /* copy of r.segments */
    repeater_result *rep; /* copy of r.repeaters */
    sim_time end;       /* engine_now at the end */
    engine_status status;
} mu_run;

/* Creates the engine (asserting success), records, runs to the end. */
void mu_run_scenario(const scenario *sc, mu_run *out);
void mu_run_free(mu_run *run);

/* Propagation over `metres` at velocity_c, rounded to the picosecond the
 * way medium/README.md, "Topology and propagation", states (llround of
 * metres / (v c) in ps). */
sim_time mu_cable_ps(double velocity_c, double metres);
/* One-way delay between stations i and j, from the scenario's geometry:
 * bus |x_i - x_j| (positions stored as ps from the cable's start, so delays
 * are exact differences), star L_i + hub + L_j, 0 for i == j. */
sim_time mu_delay(const scenario *sc, uint32_t i, uint32_t j);

/* The n-th event of a kind for a station (UINT32_MAX: any station), or NULL. */
const trace_event *mu_find(const mu_trace *t, trace_kind kind, uint32_t station, size_t nth);
size_t mu_count(const mu_trace *t, trace_kind kind, uint32_t station);
/* The event of `kind` for frame `frame_id` at attempt `attempt` (0: any), or NULL. */
const trace_event *mu_find_frame(const mu_trace *t, trace_kind kind, uint64_t frame_id,
                                 uint32_t attempt);

/* What the reference saw while checking a run: how many times each rule
 * decided an attempt's start, so a test can assert that the run exercised
 * it (a check that never ran proves nothing). */
typedef struct mu_coverage {
    size_t attempts_checked;
    size_t deference_skipped;    /* ready exactly at a gap's end: left alone */
    size_t at_once;              /* ready with the gap elapsed: went at once */
    size_t waited;               /* ready during carrier or the gap */
    size_t restarts;             /* part 1 restarted by carrier (not after own tx) */
    size_t part2_ignored;        /* carrier in part 2 did not stop a waiting frame */
    size_t own_part1_ignored;    /* carrier in part 1 after own tx did not restart */
    size_t two_part_differs;     /* attempts where the two-part rule and the single
                                    gap give different start times */
    size_t tie_at_gap_end;       /* a foreign signal arrived exactly at the start */
    size_t collisions_checked;
    size_t collisions_in_preamble;
    size_t late_collisions;
    size_t whole_checked;
    size_t deliveries_checked;
    size_t deliveries_bad;
    size_t burst_frames;         /* frames sent inside a burst (1 Gb/s) */
} mu_coverage;

/* Checks every attempt, transmission and delivery of the run against the
 * reference. */
void mu_check_model(const scenario *sc, const mu_run *run, mu_coverage *cov);

/* Upper-tail p-value of a chi-square statistic with df degrees of freedom
 * (the regularized incomplete gamma function Q(df/2, stat/2); checked
 * against the NIST table in test_backoff.c). */
double mu_chi2_pvalue(double stat, unsigned df);

#endif
