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

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "sweep.h"

/* The header line, then one row for point p of the grid. */
void sweep_csv_header(FILE *f);
void sweep_csv_row(FILE *f, const scenario *sc, size_t p, const sweep_result *r,
                   const sweep_options *so);

/* The same for one row per replication (master: the sweep's seed). */
void sweep_csv_reps_header(FILE *f);
void sweep_csv_reps_rows(FILE *f, const scenario *sc, size_t p, const sweep_result *r,
                         uint64_t master);

#endif
