/* tui_csv.c - the measured curve as CSV (tui_driver_write_csv), with the
 * reference model beside each point for saturated stations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic.h"
#include "reference.h"
#include "tui_driver_int.h"

static int cmp_point(const void *a, const void *b)
{
    const tui_point *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

int tui_driver_write_csv(const tui_driver *d, FILE *f)
{
    tui_point *p = malloc((d->n_points ? d->n_points : 1) * sizeof *p);
    if (!p)
        return -1;
    if (d->n_points)
        memcpy(p, d->points, d->n_points * sizeof *p);
    qsort(p, d->n_points, sizeof *p, cmp_point);
    const phy_params *ph = &d->base.phy;
    double fb = frame_bytes_mean(&d->base) * 8.0;
    analytic_mb_costs c = reference_mb_costs(ph, frame_bytes_mean(&d->base));
    bool sat = d->base.traffic.kind == TRAFFIC_SATURATED;
    /* Frame counters under the names of run's CSV (Clause 30 where 802.3
     * names one), summed over the stations of the point's whole run, its
     * warm-up batch included. An empty throughput_ci95: the point ended
     * (at --point-time) before two batches gave an interval. */
    fprintf(f, "stations,throughput,throughput_ci95,throughput_mbps,collisions_per_frame,"
               "model_throughput,sim_time_s,aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
               "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,policy,seed\n");
    for (size_t i = 0; i < d->n_points; i++) {
        char model[32] = "", ci[32] = ""; /* empty: no model, or no interval */
        if (sat)
            snprintf(model, sizeof model, "%.6f", analytic_mb_throughput(p[i].n, &c));
        if (p[i].s_ci95 >= 0)
            snprintf(ci, sizeof ci, "%.6f", p[i].s_ci95);
        fprintf(f, "%u,%.6f,%s,%.6f,%.6f,%s,%.6f,%llu,%llu,%llu,%llu,%s,%.0f,%s,%s,%llu\n",
                p[i].n, p[i].s, ci, p[i].s * (double)ph->rate_bps / 1e6, p[i].coll_per_frame,
                model, p[i].sim_s, (unsigned long long)p[i].frames_ok,
                (unsigned long long)p[i].frames_aborted,
                (unsigned long long)p[i].frames_late_discarded,
                (unsigned long long)p[i].frames_dropped, ph->name, fb / 8.0, d->traffic_desc,
                d->base.policy, (unsigned long long)d->base.seed);
    }
    free(p);
    return ferror(f) ? -1 : 0;
}

