/* tui_csv.h - the TUI's measured curve as CSV (what `c` saves), from plain
 * points: it knows no driver, no engine and no file name.
 *
 * One header line, then one row per point sorted by N: the point's S with
 * its interval, the collisions per frame, the reference model beside it
 * for saturated stations (Metcalfe and Boggs with the PHY's own costs,
 * reference.h), the frame counters under the names of run's CSV (Clause 30
 * where 802.3 names one) and what the curve was measured with. With groups,
 * then each group's columns, NAME.stations, NAME.policy, NAME.throughput,
 * NAME.share (empty when nothing was delivered), NAME.frames_ok,
 * NAME.frames_aborted and NAME.frames_dropped, named as the sweep's CSV
 * names a group's measures.
 */
#ifndef CSMACD_TUI_CSV_H
#define CSMACD_TUI_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "phy.h"
#include "tui_model.h"

/* One group's measures at one point, over the point's whole run as the
 * frame counters (its warm-up batch included). */
typedef struct tui_csv_group {
    uint32_t stations;
    double throughput;         /* S of the group's frames received whole */
    double share;              /* of the bits delivered; NAN: nothing delivered */
    uint64_t frames_ok, frames_aborted, frames_dropped;
} tui_csv_group;

typedef struct tui_csv_curve {
    const phy_params *phy;
    double frame_bytes;        /* mean, as sent (DA through FCS) */
    bool model;                /* saturated stations: a model_throughput column */
    const char *traffic;       /* "saturated", "poisson G=0.50" */
    const char *policy;
    uint64_t seed;
    const tui_point *points;   /* in any order */
    size_t n_points;
    /* With groups: their names and policies, and each point's measures of
     * each group (n_points * n_groups, point by point, in the order of
     * `points`); a scenario without groups has none. */
    size_t n_groups;
    const char *const *group_names;
    const char *const *group_policies;
    const tui_csv_group *groups;
} tui_csv_curve;

/* Writes the curve to an open stream. Returns 0, or -1 (no memory, or a
 * write error: errno says which). */
int tui_csv_write(FILE *f, const tui_csv_curve *c);

#endif
