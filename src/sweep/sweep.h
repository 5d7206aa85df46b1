/* sweep.h - many runs of one experiment: a grid of points, replications,
 * confidence intervals, and the worker threads that run them (`csmacd
 * sweep`; its contract: src/cli/CLI.md, "Outputs").
 *
 * The grid. Six scenario keys can take a LIST: policy, phy, frame-size,
 * length, load and stations. The points are their cartesian product in
 * that order, the first slowest and the last fastest: point p has the
 * mixed-radix digits (policy, phy, frame-size, length, load, stations) of
 * p, so a sweep over --stations 1,2,4 --frame-size 64,1518 runs
 * (64,1), (64,2), (64,4), (1518,1), ... An axis not given is not swept
 * (the scenario's own value). Values are kept as text and applied with
 * scenario_set, so an axis accepts exactly what the key accepts.
 *
 * Any other scenario key can be an axis too (`--grid KEY=LIST`, a key of
 * a preset's [sweep]), group keys included ("rogue.stations",
 * "rogue.policy"): these keyed axes follow the six, in the order given,
 * the last one fastest. `--grid stations=...` (or any of the six keys) is
 * the same as the named option. In a scenario with groups the stations
 * axis is the total: the one group that sets no `stations` of its own
 * takes what the other groups leave; and the load axis is the total
 * offered load, shared by the groups that set no `load` of their own in
 * proportion to their stations (sweep_apply). A key given as "+KEY" is
 * not an axis but moves with the axis given just before it, value for
 * value (`--grid client.stations=1,2,4 --grid +client.load=0.01,0.02,0.04`).
 *
 * Groups. A run of a scenario that names groups records, after the
 * run-level measures, the group measures of sweep_group_measure_at for
 * each group in order; sweep_run_width gives the length.
 *
 * Seeds. Replication r of point p runs with the seed
 *     sweep_seed(S, p, r) = mix(mix(mix(S) ^ p) ^ r)
 * where S is the master seed (--seed) and mix is splitmix64's finaliser:
 * a pure function, so `csmacd run --seed sweep_seed(S, p, r) ...` re-runs
 * any replication alone and gives the same numbers, and the streams of
 * different points and replications are unrelated.
 *
 * Statistics. Every measure of output.h except wall_s is recorded for each
 * replication; a point reports their mean and the 95 % half-width
 * t(0.975, n-1) s / sqrt(n) over its n replications (Student's t;
 * replications are independent and identically distributed, so the
 * interval is exact for normal data and close for means of long runs).
 * With one replication there is no between-run interval: the throughput
 * interval is then the run's own batch-means interval (stats.h) and the
 * others are empty. A measure that does not apply in some replication
 * (completion_s of a batch run that did not finish) is empty for the point.
 *
 * Precision. With a target REL > 0 a point starts with max(reps, 3)
 * replications and, while the throughput half-width exceeds REL times the
 * mean, asks for more: as many as the current variance says are needed
 * (n (h / (REL mean))^2, at least one more), never beyond max_reps (then
 * `precision_met` is false). The decision reads only replications
 * 0 .. n-1 of that point, so the number of replications, and every number
 * of the row, is the same whatever the number of threads or MPI ranks.
 * (Sequential stopping makes the interval slightly optimistic at the
 * stopping time; with the minimum of 3 replications the effect is small.)
 *
 * Threads. sweep_execute runs replications on `jobs` threads; each thread
 * creates and destroys its own engines (the engine has no global state).
 * Lower points are served first, so rows complete roughly in order. A stop
 * request (a signal) ends the runs in flight without results: a point is
 * either complete or not reported.
 *
 * Program code: reads the wall clock (progress), never prints.
 */
#ifndef CSMACD_SWEEP_H
#define CSMACD_SWEEP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "scenario.h"

typedef enum sweep_axis {
    SWEEP_AXIS_POLICY,
    SWEEP_AXIS_PHY,
    SWEEP_AXIS_FRAME_SIZE,
    SWEEP_AXIS_LENGTH,
    SWEEP_AXIS_LOAD,
    SWEEP_AXIS_STATIONS,
    SWEEP_N_AXES,
} sweep_axis;

/* Keyed axes at most; axis SWEEP_N_AXES + i is the i-th keyed one. */
#define SWEEP_MAX_KEYED 16
#define SWEEP_MAX_AXES (SWEEP_N_AXES + SWEEP_MAX_KEYED)
#define SWEEP_KEY_MAX 64

/* The scenario key of a named axis: "policy", "phy", "frame-size", ... */
const char *sweep_axis_key(sweep_axis a);
/* The named axis of a key, or -1. */
int sweep_axis_find(const char *key);

/* A key that moves with an axis rather than being one ("+KEY=LIST"): as
 * many values as the axis, the i-th going with the axis's i-th. */
typedef struct sweep_companion {
    char key[SWEEP_KEY_MAX];
    size_t axis;
    char **values;
} sweep_companion;

/* The values of each axis, as text; n[a] == 0: not swept. Axes
 * SWEEP_N_AXES .. SWEEP_N_AXES + n_keyed - 1 are keyed (key[a]). */
typedef struct sweep_grid {
    char **values[SWEEP_MAX_AXES];
    size_t n[SWEEP_MAX_AXES];
    char key[SWEEP_MAX_AXES][SWEEP_KEY_MAX];
    size_t n_keyed;
    sweep_companion with[SWEEP_MAX_KEYED];
    size_t n_with;
    size_t last_set;  /* 1 + the axis set last (a companion's), 0: none yet */
} sweep_grid;

/* The key of any axis of g (named or keyed). */
const char *sweep_grid_key(const sweep_grid *g, size_t a);
/* The axis of g whose key is `key` (a named axis whether swept or not, a
 * keyed axis if present), or -1. */
int sweep_grid_find(const sweep_grid *g, const char *key);
/* Sets the axis of KEY from a LIST: a named axis (sweep_grid_set), else a
 * keyed axis, replaced if present. A keyed LIST is a range of numbers
 * ("0..4", "0.1..0.5:0.1"), a key's own single value ("64-1518" for a
 * frame size) or words separated by commas. "+KEY" is a companion of the
 * axis set just before (as many values). The key itself is checked when
 * a point applies it (sweep_apply). Returns 0, or -1 with a reason. */
int sweep_grid_set_key(sweep_grid *g, const char *key, const char *list, char *err,
                       size_t errlen);
/* Whether g has a companion KEY (without its '+'). */
bool sweep_grid_has_companion(const sweep_grid *g, const char *key);
/* Makes the axis of key (present in g) the one a following "+KEY" moves
 * with, as if it had just been set (a preset's key the command line
 * replaced). */
void sweep_grid_follow(sweep_grid *g, const char *key);

/* Sets axis a from a LIST (parse.h): stations takes integers and ranges,
 * load and length numbers and ranges, frame-size integers and ranges or a
 * single size spec ("64-1518"), phy and policy words. Replaces what the
 * axis had. Returns 0, or -1 with the reason (no key in front). */
int sweep_grid_set(sweep_grid *g, sweep_axis a, const char *list, char *err, size_t errlen);
void sweep_grid_free(sweep_grid *g);
/* The number of points (the product of the axis sizes, 1 when none). */
size_t sweep_grid_points(const sweep_grid *g);
/* The value index of each axis at point p (0 for axes not swept). */
void sweep_grid_index(const sweep_grid *g, size_t p, size_t idx[SWEEP_MAX_AXES]);

/* Applies point p's values to sc (a copy of the base scenario of its phy
 * value): the keyed axes in order, their companions, then policy, frame-size, length, load
 * and stations (with groups: the totals, see above, the load last). Returns 0, or -1 with
 * "--KEY: reason" (the named options) or "--grid: KEY: reason". */
int sweep_apply(const sweep_grid *g, size_t p, scenario *sc, char *err, size_t errlen);

uint64_t sweep_seed(uint64_t master, uint64_t point, uint64_t rep);

/* The recorded measures: output.h's table without wall_s. */
size_t sweep_measure_count(void);
const output_measure *sweep_measure_at(size_t k);
/* The index of a measure by name, or -1. */
int sweep_measure_find(const char *name);

/* The measures recorded for each named group ("throughput", "share",
 * ... "delay_mean_s", "response_mean_s"): name and unit. The CSV column
 * of group NAME's measure is "NAME.measure". */
typedef struct sweep_group_measure {
    const char *name, *unit;
} sweep_group_measure;
size_t sweep_group_measure_count(void);
const sweep_group_measure *sweep_group_measure_at(size_t j);
int sweep_group_measure_find(const char *name);
/* The values one run of sc records: the measures, then each named
 * group's, then, when sc has segments (a network), each row's measures
 * family by family (SWEEP_NET_FAMILIES: 0 the segments and 1 the
 * repeaters, output.h's output_net_measure_*, in the network's order:
 * the [repeater] sections, then the hubs' uplinks; with bridges, 2 the
 * collision domains, named after their first segment, and 3 the bridge
 * ports, "BRIDGE.SEGMENT", bridgereport.h's measures) and the budget's
 * figures (sweep_budget_name: the same at every replication, a function
 * of the point's network; NaN where the budget defines none). Points may
 * have different networks (topology = switch builds a link per station;
 * a swept topology has one at some points only): the CSV and the figure
 * find each column by its name at each point (sweep_value_find). */
#define SWEEP_NET_FAMILIES 4
size_t sweep_run_width(const scenario *sc);
/* Where the network's values begin (sweep_run_width without one). */
size_t sweep_net_from(const scenario *sc);
/* The rows of a family in sc's network (0 without segments), a row's
 * name ("backbone", "r1", "switch.link3"), a family's measures. */
uint32_t sweep_net_rows(const scenario *sc, int family);
void sweep_net_row_name(const scenario *sc, int family, uint32_t i, char *buf, size_t len);
size_t sweep_net_measure_count(int family);
const char *sweep_net_measure_name(int family, size_t j);
/* Where a run of sc records measure j of row i of a network family, or
 * -1. */
int sweep_net_value_find(const scenario *sc, int family, uint32_t i, size_t j);
/* The budget's figures: "pdv_bits", "pdv_limit_bits", "pvv_bits",
 * "model_round_trip_bits" (budget.h); sweep_budget_values fills them
 * for sc's worst collision domain at its own rate (network_worst_budget:
 * the domain run's header names; NaN: not defined) and the verdict
 * ("within", or the rules broken) into verdict (may be NULL). */
size_t sweep_budget_count(void);
const char *sweep_budget_name(size_t j);
void sweep_budget_values(const scenario *sc, double *v, char *verdict, size_t len);
/* Where a run of sc records a measure ("throughput"), a group's
 * ("rogue.share"), a segment's or a repeater's ("backbone.collisions"),
 * a domain's ("lab.domain_throughput"), a bridge port's
 * ("switch.link1.queue_delay_mean_us"), or a budget figure ("pdv_bits",
 * with a network), or -1. */
int sweep_value_find(const scenario *sc, const char *name);

typedef struct sweep_options {
    uint32_t reps;      /* replications per point (>= 1) */
    double precision;   /* 0: off; else the target relative half-width */
    uint32_t max_reps;  /* the cap with a precision target */
    uint64_t seed;      /* master seed */
    unsigned jobs;      /* worker threads (>= 1) */
    /* A capture loaded once (engine.h), shared read-only by every point
     * that engine_replay_same(replay_for, point) matches; NULL: none. */
    const struct replay *replay;
    const scenario *replay_for;
    /* Told once (may be NULL), on the calling thread before the progress
     * starts, when fewer worker threads started than jobs asked for (error:
     * pthread_create's reason); the sweep then runs on those that did. */
    void (*fewer_jobs)(unsigned started, unsigned asked, int error);
} sweep_options;

/* The minimum replications per point with a precision target. */
#define SWEEP_PRECISION_MIN_REPS 3u

/* What one point produced. values[r * width + k] is value k
 * (sweep_value_find) of replication r (NaN: not applicable). */
typedef struct sweep_result {
    bool done;           /* every replication asked for has run */
    bool precision_met;  /* the target was reached (true without a target) */
    uint32_t n_reps;     /* replications with values */
    double *values;      /* owned */
    size_t width;        /* values per replication: sweep_run_width; 0: the measures */
    size_t net_from;     /* sweep_net_from (where the groups' values end); 0: width */
    /* bookkeeping of sweep_execute */
    uint32_t wanted, issued, finished;
} sweep_result;

/* Values per replication of a result (its width, else the measures). */
size_t sweep_result_width(const sweep_result *r);

/* Mean and 95 % half-width of value k over a point's replications;
 * NaN when not applicable (see the header comment). */
void sweep_summarise(const sweep_result *r, size_t k, double *mean, double *ci95);

/* A point's value of measure k as its CSV row and its figure give it:
 * sweep_summarise, except that throughput's interval with one replication
 * is the run's own batch-means interval (measure throughput_ci95). */
void sweep_point_value(const sweep_result *r, size_t k, double *mean, double *ci95);

/* Progress, called on the calling thread about ten times a second and once
 * at the end: points complete, points in total, and the fraction of the
 * estimated work done (0 to 1). */
typedef void (*sweep_progress_fn)(void *ctx, size_t done, size_t total, double work_done);

/* Runs every point p with owned == NULL or owned[p] (points must have
 * passed scenario_finish; their seeds are replaced). res has n_points
 * zeroed entries (each gets its width, owned or not); free each with
 * sweep_result_free. stop() is polled (may
 * be NULL); when it returns non-zero the runs in flight are abandoned.
 * Returns 0, or -1 with a reason (out of memory, an engine that cannot be
 * built, no worker thread that can start). */
int sweep_execute(const scenario *points, size_t n_points, const bool *owned,
                  const sweep_options *o, sweep_result *res, sweep_progress_fn progress,
                  void *ctx, int (*stop)(void), char *err, size_t errlen);
void sweep_result_free(sweep_result *r);

/* One replication, alone (what each worker does): the values of
 * scenario sc with the given seed into values[sweep_run_width(sc)].
 * shared is a capture loaded for sc (engine_create_shared) or NULL.
 * stop may be NULL; the run is abandoned when *stop becomes non-zero.
 * Returns 0, 1 if stopped, -1 with a reason. */
int sweep_run_one(const scenario *sc, const struct replay *shared, uint64_t seed, double *values,
                  const atomic_int *stop, char *err, size_t errlen);

#endif
