/* tui_csv.c - the measured curve as CSV (tui_csv.h). */
#include "tui_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analytic.h"
#include "reference.h"

/* Points are sorted through their indices, so each keeps its groups. */
typedef struct sorted {
    const tui_point *p;
    size_t i;
} sorted;

static int cmp_point(const void *a, const void *b)
{
    const sorted *x = a, *y = b;
    return (x->p->n > y->p->n) - (x->p->n < y->p->n);
}

int tui_csv_write(FILE *f, const tui_csv_curve *c)
{
    sorted *p = malloc((c->n_points ? c->n_points : 1) * sizeof *p);
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t i = 0; i < c->n_points; i++)
        p[i] = (sorted){&c->points[i], i};
    qsort(p, c->n_points, sizeof *p, cmp_point);
    const phy_params *ph = c->phy;
    analytic_mb_costs costs = reference_mb_costs(ph, c->frame_bytes);
    /* Frame counters summed over the stations of the point's whole run,
     * its warm-up batch included. An empty throughput_ci95: the point
     * ended (at --point-time) before two batches gave an interval. */
    fprintf(f, "stations,throughput,throughput_ci95,throughput_mbps,collisions_per_frame,"
               "model_throughput,sim_time_s,aFramesTransmittedOK,aFramesAbortedDueToXSColls,"
               "frames_late_discarded,frames_dropped,phy,frame_bytes,traffic,policy,seed");
    for (size_t g = 0; g < c->n_groups; g++) {
        const char *n = c->group_names[g];
        fprintf(f, ",%s.stations,%s.policy,%s.throughput,%s.share,%s.frames_ok,%s.frames_aborted,"
                   "%s.frames_dropped",
                n, n, n, n, n, n, n);
    }
    fputc('\n', f);
    for (size_t k = 0; k < c->n_points; k++) {
        const tui_point *pt = p[k].p;
        char model[32] = "", ci[32] = ""; /* empty: no model, or no interval */
        if (c->model)
            snprintf(model, sizeof model, "%.6f", analytic_mb_throughput(pt->n, &costs));
        if (pt->s_ci95 >= 0)
            snprintf(ci, sizeof ci, "%.6f", pt->s_ci95);
        fprintf(f, "%u,%.6f,%s,%.6f,%.6f,%s,%.6f,%llu,%llu,%llu,%llu,%s,%.0f,%s,%s,%llu", pt->n,
                pt->s, ci, pt->s * (double)ph->rate_bps / 1e6, pt->coll_per_frame, model,
                pt->sim_s, (unsigned long long)pt->frames_ok,
                (unsigned long long)pt->frames_aborted,
                (unsigned long long)pt->frames_late_discarded,
                (unsigned long long)pt->frames_dropped, ph->name, c->frame_bytes, c->traffic,
                c->policy, (unsigned long long)c->seed);
        for (size_t g = 0; g < c->n_groups; g++) {
            const tui_csv_group *gr = &c->groups[p[k].i * c->n_groups + g];
            char share[32] = "";
            if (isfinite(gr->share))
                snprintf(share, sizeof share, "%.6f", gr->share);
            fprintf(f, ",%u,%s,%.6f,%s,%llu,%llu,%llu", gr->stations, c->group_policies[g],
                    gr->throughput, share, (unsigned long long)gr->frames_ok,
                    (unsigned long long)gr->frames_aborted,
                    (unsigned long long)gr->frames_dropped);
        }
        fputc('\n', f);
    }
    free(p);
    return ferror(f) ? -1 : 0;
}
