/* figure.h - the figure of a sweep (`csmacd sweep --plot FILE`): which
 * axis is x, one curve per series of the grid with its error bars, one
 * panel per measure asked for, and the analytic reference curves
 * (src/theory) beside the measured throughput. Drawn by plot.h.
 *
 * Program code: runs gnuplot (plot_render); prints nothing itself
 * (gnuplot's warnings go to the caller's say function).
 */
#ifndef CSMACD_FIGURE_H
#define CSMACD_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "outfile.h"
#include "plot.h"
#include "scenario.h"
#include "sweep.h"

/* The axes that can be the x axis, in order of preference. */
#define FIGURE_N_X_AXES 4
extern const sweep_axis figure_x_axes[FIGURE_N_X_AXES];

/* What the command line asks of the figure. */
typedef struct figure_request {
    const char *y_list; /* measures, one panel each: "throughput,mean_delay_us" */
    const char *title;  /* NULL: "csmacd sweep: Y vs X" */
    int x_axis;         /* a sweep_axis, or -1: the first of figure_x_axes swept */
    const char *xlabel; /* NULL: the axis's own label */
    /* One label per value of the x axis, ',' between them (presets.h's
     * xtics); NULL, or another count: the axis's values. Numbers are the
     * x positions; else, and when the axis's values are not numbers
     * (segment names), the x values are categories 1, 2, ... labelled so. */
    const char *xtics;
    /* Limits (presets.h's marks): "x = 4.5: LABEL; MEASURE = 575: LABEL",
     * a measure not plotted being left out; NULL: none. */
    const char *marks;
    /* One label per series (presets.h's series), ',' between them, in the
     * order of the grid's points; NULL, or another count: each series is
     * labelled by its values ("topology = switch, duplex = full"). */
    const char *series;
} figure_request;

/* Builds the figure of the completed points (res[p].done) of grid g and
 * draws it into the open outfile fig (plot_render; the caller commits or
 * discards fig). say (may be NULL) gets gnuplot's warnings. Returns 0,
 * PLOT_NO_GNUPLOT, or -1 with "path: reason". */
int figure_draw(const figure_request *rq, const sweep_grid *g, const scenario *points,
                const sweep_result *res, outfile *fig, plot_message_fn say, void *ctx, char *err,
                size_t errlen);

/* The gnuplot script of the same figure, drawing into path in format fmt
 * (plot_write_script), without running gnuplot: what figure_draw would
 * draw, for tests. Returns 0, or -1 with "path: reason". */
int figure_write_script(const figure_request *rq, const sweep_grid *g, const scenario *points,
                        const sweep_result *res, FILE *f, plot_format fmt, const char *path,
                        char *err, size_t errlen);

#endif
