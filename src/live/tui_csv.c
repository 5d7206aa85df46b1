/* tui_csv.c - the measured curve as CSV (tui_csv.h). */
#include "tui_csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analytic.h"
#include "reference.h"

static int cmp_point(const void *a, const void *b)
{
    const tui_point *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

int tui_csv_write(FILE *f, const tui_csv_curve *c)
{
    tui_point *p = malloc((c->n_points ? c->n_points : 1) * sizeof *p);
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    if (c->n_points)
        memcpy(p, c->points, c->n_points * sizeof *p);
    qsort(p, c->n_points, sizeof *p, cmp_point);
    const phy_params *ph = c->phy;
    analytic_mb_costs costs = reference_mb_costs(ph, c->frame_bytes);
    /* Frame counters summed over the stations of the point's whole run,
     * its warm-up batch included. An empty throughput_ci95: the point
     * ended (at --point-time) before two batches gave an interval. */
    fprintf(f, "stations,throughput,throughput_ci95,throughput_mbps,collisions_per_frame,"
               "model_throughput,sim_time_s,aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
               "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,policy,seed\n");
    for (size_t i = 0; i < c->n_points; i++) {
        char model[32] = "", ci[32] = ""; /* empty: no model, or no interval */
        if (c->model)
            snprintf(model, sizeof model, "%.6f", analytic_mb_throughput(p[i].n, &costs));
        if (p[i].s_ci95 >= 0)
            snprintf(ci, sizeof ci, "%.6f", p[i].s_ci95);
        fprintf(f, "%u,%.6f,%s,%.6f,%.6f,%s,%.6f,%llu,%llu,%llu,%llu,%s,%.0f,%s,%s,%llu\n",
                p[i].n, p[i].s, ci, p[i].s * (double)ph->rate_bps / 1e6, p[i].coll_per_frame,
                model, p[i].sim_s, (unsigned long long)p[i].frames_ok,
                (unsigned long long)p[i].frames_aborted,
                (unsigned long long)p[i].frames_late_discarded,
                (unsigned long long)p[i].frames_dropped, ph->name, c->frame_bytes, c->traffic,
                c->policy, (unsigned long long)c->seed);
    }
    free(p);
    return ferror(f) ? -1 : 0;
}
