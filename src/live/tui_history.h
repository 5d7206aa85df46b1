/* tui_history.h - the run's history for the time view of the TUI's plot
 * (tui/tui_model.h, tui_sample and tui_mark): the aggregate throughput
 * and the collisions of the engines the driver runs, one after another,
 * on one time axis, with a mark where the network changed.
 *
 * Each sample covers `step` of simulated time of one engine; the time
 * axis runs on across engines (an engine starts at 0: its samples are
 * placed after the last one of the engine before). When the samples
 * reach their capacity, neighbours are merged in pairs and the step
 * doubles, so memory stays fixed and the whole history stays in view.
 * Plain data: no engine, no I/O; tested alone (tests/unit/test_tui_history.c).
 */
#ifndef CSMACD_TUI_HISTORY_H
#define CSMACD_TUI_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"
#include "tui_model.h"

#define TUI_HISTORY_CAP 1024   /* samples kept (even) */
#define TUI_HISTORY_MARKS 32   /* marks kept (the oldest go first) */
#define TUI_MARK_LABEL 24

typedef struct tui_history {
    tui_sample v[TUI_HISTORY_CAP];
    size_t n;
    sim_time step;             /* simulated time per sample now */
    double offset_s;           /* where the current engine's t = 0 sits */
    sim_time next;             /* the current engine's next sample boundary */
    sim_time last;             /* ... and the last one taken */
    uint64_t bits, collisions, frames; /* the current engine's totals at `last` */
    tui_mark marks[TUI_HISTORY_MARKS];
    char labels[TUI_HISTORY_MARKS][TUI_MARK_LABEL];
    size_t n_marks;
} tui_history;

/* Empties the history; samples of `step` (> 0) from now on. */
void tui_history_reset(tui_history *h, sim_time step);
/* A new engine starts (at its t = 0) after the current one reached
 * `reached`: its samples follow the current engine's last instant. A
 * label (or NULL) marks the moment ("switch", "N=17"). */
void tui_history_engine(tui_history *h, sim_time reached, const char *label);
/* The current engine reached t = h->next, with these totals since its
 * start (delivered bits, collision events, frames sent whole): one sample
 * (its throughput over rate_bps), and the next boundary. */
void tui_history_sample(tui_history *h, sim_time t, uint64_t bits, uint64_t collisions,
                        uint64_t frames, double rate_bps);

#endif
