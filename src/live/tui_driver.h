/* tui_driver.h - the program side of the TUI: owns the engines, runs the
 * sweep, turns commands into actions and fills snapshots.
 *
 * The sweep: for each N of a list (default 1 .. 64 in steps of about
 * sqrt(2)), an engine runs the scenario with N stations; its throughput is
 * measured by batch means over fixed batches of simulated time (the first
 * batch is discarded as warm-up) until the 95 % confidence interval's
 * half-width is at most `precision` times the mean (and at least
 * `min_batches` batches were taken), or until `point_cap` of simulated time;
 * the point is recorded with its interval and the next N starts. Every
 * decision is taken at a batch boundary in simulated time, never on the
 * wall clock, so the sweep is a pure function of the scenario and the seed
 * whatever the speed, the pauses and the frame rate.
 *
 * The driver reads no clock and does no terminal I/O: the caller gives it
 * the wall time elapsed and an event budget per frame (engine_run's
 * max_events), so a frame never takes longer than the budget allows. Saving
 * files (CSV, pcap) is the one I/O it does, on request, reporting failures
 * as a message in the snapshot.
 */
#ifndef CSMACD_TUI_DRIVER_H
#define CSMACD_TUI_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "simtime.h"
#include "tui_model.h"

typedef struct tui_driver tui_driver;

typedef struct tui_driver_options {
    const scenario *base;     /* finished; copied. Its n_stations is the
                                 starting N when the sweep list is empty */
    const uint32_t *sweep_n;  /* the N of the sweep, or NULL for the default */
    size_t n_sweep;
    bool log_x;               /* logarithmic N axis */
    double precision;         /* relative CI half-width target, e.g. 0.02 */
    uint32_t min_batches;     /* at least this many batches per point */
    sim_time batch_ps;        /* batch length; 0: 2^20 bit times */
    sim_time point_cap_ps;    /* most simulated time per point; 0: 200 batches */
    double speed;             /* initial simulated s per wall s; 0 = full speed */
    const char *save_dir;     /* where CSV and pcap files go ("." if NULL) */
    sim_time trace_max_ps;    /* longest span a trace (w) holds; 0: 10 s */
    double trace_max_bytes;   /* largest trace by its estimate; 0: 64 MB */
    const char *grow;         /* with groups: the group N grows (NULL: the last);
                                 the sweep's N are that group's sizes, plotted
                                 as the total */
} tui_driver_options;

/* The default sweep list for 1 .. max: log (about sqrt(2) apart, e.g. 1 2 3
 * 4 6 8 11 16 23 32 45 64) or linear (1, then multiples of max/16). Writes at
 * most cap values; returns the number written. */
size_t tui_driver_default_sweep(uint32_t max_n, bool log_x, uint32_t *out, size_t cap);

/* Returns 0, or -1 with a reason in err (an engine could not be built). */
int tui_driver_create(const tui_driver_options *opt, tui_driver **out, char *err,
                      size_t errlen);
void tui_driver_destroy(tui_driver *d);

/* One frame's worth of simulation: advances the view by speed * wall_dt_s
 * of simulated time (nothing while paused; as far as the budget goes at
 * full speed), handling at most max_events engine events. Returns the
 * events handled, or -1 with err set when a new engine could not be built. */
int64_t tui_driver_advance(tui_driver *d, double wall_dt_s, uint64_t max_events, char *err,
                           size_t errlen);

/* Whether the last advance stopped because the budget ran out (the caller
 * may raise the budget if the frame had time to spare). */
bool tui_driver_budget_exhausted(const tui_driver *d);

/* What the user asked for. Returns 1 to quit, 0 otherwise, -1 with err
 * set on a failure that ends the program (an engine could not be built). */
int tui_driver_command(tui_driver *d, tui_command c, int table_rows, char *err, size_t errlen);

/* Fills *s; its pointers stay valid until the next driver call. */
void tui_driver_snapshot(tui_driver *d, tui_snapshot *s);

#endif
