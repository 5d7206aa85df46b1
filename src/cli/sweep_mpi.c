/* sweep_mpi.c - the gather of sweep_mpi.h. */
#include "sweep_mpi.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"

enum { MPI_TAG_POINT = 17 };

/* Sends this rank's points to rank 0 (rank != 0) or receives everyone
 * else's (rank 0). A message is [point, done, n_reps, precision_met,
 * values...] as doubles (exact for these integers). */
int sweep_mpi_gather(sweep_result *res, size_t n_points, int rank, int size, char *err,
                     size_t errlen)
{
    if (rank != 0) {
        for (size_t p = 0; p < n_points; p++) {
            if ((int)(p % (size_t)size) != rank)
                continue;
            size_t m = sweep_result_width(&res[p]);
            size_t n = 4 + (size_t)res[p].n_reps * m;
            double *buf = malloc(sizeof *buf * n);
            if (buf == NULL)
                MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_RUNTIME);
            buf[0] = (double)p;
            buf[1] = res[p].done;
            buf[2] = res[p].n_reps;
            buf[3] = res[p].precision_met;
            if (res[p].n_reps > 0)
                memcpy(buf + 4, res[p].values, sizeof *buf * res[p].n_reps * m);
            MPI_Send(buf, (int)n, MPI_DOUBLE, 0, MPI_TAG_POINT, MPI_COMM_WORLD);
            free(buf);
        }
        return 0;
    }
    size_t expect = 0;
    for (size_t p = 0; p < n_points; p++)
        expect += (p % (size_t)size) != 0;
    for (size_t i = 0; i < expect; i++) {
        MPI_Status st;
        int count = 0;
        MPI_Probe(MPI_ANY_SOURCE, MPI_TAG_POINT, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        double *buf = malloc(sizeof *buf * (size_t)(count > 0 ? count : 1));
        if (buf == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        MPI_Recv(buf, count, MPI_DOUBLE, st.MPI_SOURCE, MPI_TAG_POINT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        size_t p = (size_t)buf[0];
        if (count < 4 || p >= n_points) {
            free(buf);
            snprintf(err, errlen, "MPI: malformed result from rank %d", st.MPI_SOURCE);
            return -1;
        }
        sweep_result *r = &res[p];
        size_t m = sweep_result_width(r); /* the same points on every rank */
        free(r->values);
        memset(r, 0, sizeof *r);
        r->width = m;
        r->done = buf[1] != 0;
        r->n_reps = (uint32_t)buf[2];
        r->precision_met = buf[3] != 0;
        r->values = malloc(sizeof(double) * (r->n_reps ? r->n_reps : 1) * m);
        if (r->values == NULL || (size_t)count != 4 + (size_t)r->n_reps * m) {
            free(buf);
            snprintf(err, errlen, "MPI: malformed result from rank %d", st.MPI_SOURCE);
            return -1;
        }
        memcpy(r->values, buf + 4, sizeof(double) * r->n_reps * m);
        free(buf);
    }
    return 0;
}
