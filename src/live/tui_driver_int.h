/* tui_driver_int.h - the driver's own state, shared by its files and by
 * no one else (tui_driver.h is the contract): tui_driver.c (the engines
 * and the measured sweep), tui_commands.c (the user's commands),
 * tui_step.c (the single step, told in words) and tui_snapshot.c (what
 * the screen shows). Below them, tui_netview.h: the state's mapping and a
 * network of segments as the screen draws it (tui_netsnap.c), which know
 * no driver; both place the signals with tui_spans.h.
 * The saves are tui_save.h's, which knows no driver: the driver hands it
 * plain data and steps the trace's handle, whose outcome comes back as
 * text for the status line.
 */
#ifndef CSMACD_TUI_DRIVER_INT_H
#define CSMACD_TUI_DRIVER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "results.h"
#include "scenario.h"
#include "timeline_sink.h"
#include "tui_driver.h"
#include "tui_history.h"
#include "tui_netview.h"
#include "tui_save.h"
#include "tui_spans.h"

#define DRIVER_MAX_N 1024u            /* the most stations + will add */
#define DRIVER_RUN_PS (3600 * SIM_PS_PER_S) /* engines run "for ever": 1 h */
#define DRIVER_REF_POINTS 160
#define DRIVER_TIMELINE_RING 8192
#define DRIVER_TRACE_MAX_PS (10 * SIM_PS_PER_S) /* longest span a trace holds */
#define DRIVER_TRACE_MAX_BYTES (64 * 1000 * 1000) /* largest trace, by estimate */
#define DRIVER_STEP_EVENTS 16 /* trace events a single step tells */

/* Simulated seconds per wall second; 0 = as fast as the budget allows. */
#define N_SPEEDS 10
extern const double speeds[N_SPEEDS];

struct tui_driver {
    scenario base;
    /* With groups, N grows one group (grow, by index) while the others,
     * `others` stations in all, stay: N is still the total. */
    bool grouped;
    uint32_t grow, others;
    tui_group *groups_view;    /* the snapshot's groups, one per group */
    char (*group_traffic)[48]; /* their traffic, as the header says it */
    double precision;
    uint32_t min_batches;
    sim_time batch_ps_opt, cap_ps_opt; /* as given (0 = derive from the PHY) */
    sim_time batch_ps, cap_ps;
    tui_saves *saves;     /* the save folder */
    sim_time trace_max_ps;
    double trace_max_bytes;
    tui_trace *trace;     /* the trace being written (w), or NULL */

    uint32_t *sweep;   /* the N the sweep runs: those of `asked` the scenario
                          allows (restart_sweep fits them, e.g. to a
                          switch's ports, and says so) */
    size_t n_sweep, sweep_idx;
    uint32_t *asked;   /* the N asked for (the list, or the default) */
    size_t n_asked;
    bool log_x;
    tui_sweep_phase phase;

    engine *e;
    uint64_t engine_gen; /* counts engines built (pointers may be reused) */
    uint32_t n;
    timeline_sink *tl;
    sim_time view_t;
    sim_time slot_ps, bit_ps;

    /* The point being measured. */
    bool measuring;
    sim_time next_batch;
    uint64_t prev_bits;
    uint32_t batches_seen; /* the first is the warm-up */
    double sum, sumsq;     /* over the kept batches */
    uint32_t kept;
    tui_point cur;

    tui_point *points;
    size_t n_points, cap_points;
    /* With groups, each point's measures of each group (for the CSV):
     * cur_groups for the point being measured, point_groups n_named per
     * point, in the order of points. */
    tui_csv_group *cur_groups, *point_groups;
    const char **group_names, **group_policies; /* the base's, for the CSV */

    tui_ref_point ref[DRIVER_REF_POINTS];
    size_t n_ref;
    bool show_ref;
    bool zoom; /* S axis zoomed to the data */

    size_t speed_idx;
    bool paused, show_help, exhausted;
    size_t scroll;
    char message[512];
    /* The single step (tui_step.c): the trace events of the step. */
    bool stepping;
    trace_event step_ev[DRIVER_STEP_EVENTS];
    size_t n_step_ev;
    double message_age_s;

    /* Geometry of the current engine, for the cable drawing. */
    sim_time *pos_ps;  /* bus: from the left end; star: drop delay */
    sim_time cable_ps; /* bus: left end to right end */

    /* A network of segments: its drawing (tui_netsnap.c), or NULL. */
    tui_netview *netv;

    /* The run's history (the plot's time view): every engine's samples on
     * one time axis, reset with the sweep; `mark` labels the next engine's
     * start (the swap key, + and -). time_view: the plot shows it (after
     * the swap key, until r; always for a switch). */
    tui_history hist;
    char mark[TUI_MARK_LABEL];
    bool time_view;

    /* Snapshot storage. */
    tui_station_row *rows;
    double *pos;
    size_t rows_cap;
    span_list spans;
    uint8_t timeline[TUI_TIMELINE_MAX];
    char traffic_desc[64];
    char ref_label[64];
    results res;
};

/* Shared between the driver's files (tui_driver.c). */
/* Traffic in words: "saturated", "poisson G=0.50", "replies only". */
void traffic_words(const traffic_config *t, char *out, size_t cap);
void set_message(tui_driver *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t sweep_min(const tui_driver *d);
uint32_t sweep_max(const tui_driver *d);
void compute_ref(tui_driver *d);
int start_engine(tui_driver *d, uint32_t n, bool measure, char *err, size_t errlen);
/* The scenario an engine of n stations runs, from base (finished into
 * *out, which the caller frees; 0, or -1 with a reason). */
int driver_engine_scenario(const tui_driver *d, const scenario *base, uint32_t n, scenario *out,
                           char *err, size_t errlen);
int restart_sweep(tui_driver *d, char *err, size_t errlen);
int64_t run_to(tui_driver *d, sim_time target, uint64_t budget, char *err, size_t errlen);

/* s: the next event that changes something, told in words in the status
 * line (tui_step.c). Returns 0, or -1 with err set (an engine could not
 * be built). */
int driver_step(tui_driver *d, char *err, size_t errlen);
/* The driver's sink that records a step's trace events (tui_driver.c),
 * for driver_step's words. */
void step_sink_on_event(void *ctx, const trace_event *ev);

/* The saves: c (the curve of the points so far), w (starts the trace of
 * the run at view_t), a step of the trace being written (at most budget
 * events; returns the events handled), and giving it up (why, or NULL,
 * becomes the message). */
void driver_save_csv(tui_driver *d);
void driver_trace_start(tui_driver *d);
int64_t driver_trace_step(tui_driver *d, uint64_t budget);
void driver_trace_cancel(tui_driver *d, const char *why);

#endif
