/* sweep_mpi.h - the sweep's results gathered over MPI ranks (csmacd-mpi
 * only: this file is compiled into that program alone). Point p belongs
 * to rank p mod K; rank 0 writes every output.
 */
#ifndef CSMACD_SWEEP_MPI_H
#define CSMACD_SWEEP_MPI_H

#include <stddef.h>

#include "sweep.h"

/* Sends this rank's points to rank 0 (rank != 0) or receives everyone
 * else's (rank 0). A message is [point, done, n_reps, precision_met,
 * values...] as doubles (exact for these integers). */
int sweep_mpi_gather(sweep_result *res, size_t n_points, int rank, int size, char *err,
                     size_t errlen);

#endif
