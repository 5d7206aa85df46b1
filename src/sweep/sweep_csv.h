/* sweep_csv.h - the sweep's tidy CSV: one row per point (--csv) or per
 * replication (--reps-csv), each starting with the scenario's columns as
 * text that the matching option of `csmacd run` reads back exactly.
 *
 * A pure function of the points and their results: reals printed
 * "%.12g", no wall-clock figures, rows in the order they are written, so
 * the files are byte-identical whatever the threads or MPI ranks.
 */
#ifndef CSMACD_SWEEP_CSV_H
#define CSMACD_SWEEP_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "sweep.h"

/* The columns beyond the scenario's and the run's: one per keyed axis of
 * the grid and per companion key (named as its key, the value as given),
 * and, when the points name groups, a "NAME.group" per group (the group
 * as `run --group` takes it at that point, so that a row re-runs with
 * run) and each group's measures (sweep_group_measure_at) as
 * "NAME.measure" (the response times only when some group of some point
 * answers). The groups are the same at every point of a sweep. When some
 * point has segments (a network), each segment's, repeater's, collision
 * domain's and bridge port's measures as "NAME.measure" (sweep.h's
 * families), over the rows of every point in order of appearance (the
 * networks may differ: topology = switch has a link per station, a swept
 * topology a network at some points only; a point without the row has
 * empty fields), then the budget's pdv_bits, pdv_limit_bits, pvv_bits,
 * model_round_trip_bits (sweep_budget_name) and verdict, which are the
 * point's network's and have no interval. When some point is a switch
 * (topology = switch), the scenario's columns say so ("switch") and a
 * `duplex` column follows `topology`.
 * The rows that are one per station or per port stay out unless asked
 * for (all_rows, `sweep --all-columns`), so that a switch of 64 links
 * does not make a CSV of a thousand columns: a bridge's ports, and a
 * switch's links and their collision domains. The segments, repeaters
 * and collision domains of a network of segments are always there, and
 * so is any row a name of `wanted` begins with ("switch.link1." for
 * "switch.link1.queue_delay_mean_us": the figure's measures). */
typedef struct sweep_csv_net_row {
    int family;
    char name[80];
} sweep_csv_net_row;

typedef struct sweep_csv_layout {
    const sweep_grid *grid;
    const scenario *first;  /* the first point: the group names */
    bool responses;
    bool switched;          /* some point is topology = switch: a duplex column */
    bool network;           /* some point has segments */
    sweep_csv_net_row *net_rows; /* owned */
    size_t n_net_rows;
} sweep_csv_layout;

/* Returns 0, or -1 out of memory. Free with sweep_csv_layout_free. */
int sweep_csv_layout_init(sweep_csv_layout *l, const sweep_grid *g, const scenario *points,
                          size_t n_points, bool all_rows, const char *wanted);
void sweep_csv_layout_free(sweep_csv_layout *l);

/* The header line, then one row for point p of the grid. */
void sweep_csv_header(FILE *f, const sweep_csv_layout *l);
void sweep_csv_row(FILE *f, const sweep_csv_layout *l, const scenario *sc, size_t p,
                   const sweep_result *r, const sweep_options *so);

/* The same for one row per replication (master: the sweep's seed). */
void sweep_csv_reps_header(FILE *f, const sweep_csv_layout *l);
void sweep_csv_reps_rows(FILE *f, const sweep_csv_layout *l, const scenario *sc, size_t p,
                         const sweep_result *r, uint64_t master);

#endif
