/* plot.h - figures through gnuplot (`csmacd sweep --plot FILE`).
 *
 * A figure is one or more stacked panels sharing an x axis; each curve has
 * a y value and a 95 % half-width per panel (drawn as error bars), and
 * reference curves (analytic models) are lines without points on one
 * panel. Every series of a panel, measured or reference, gets its own
 * colour and its own dash pattern, and every measured series its own point
 * shape, so that a figure printed in black and white still reads (up to
 * PLOT_N_STYLES series; beyond that the styles repeat). The
 * format follows the file's extension: .svg (gnuplot's svg terminal),
 * .png and .pdf (the cairo terminals, which Debian's gnuplot-nox has).
 *
 * plot_write_script is a pure function of the spec (the script carries the
 * data inline), so the figure's content can be tested without gnuplot.
 * plot_render runs gnuplot as a child process, the script on its standard
 * input (an anonymous temporary file) and the figure on its standard
 * output, which is an outfile (outfile.h) that the caller commits only
 * when gnuplot succeeded. gnuplot runs in a process group of its own, so a
 * Ctrl-C at the terminal lets the figure in progress finish. Program code:
 * runs a program; prints nothing itself: gnuplot's messages are caught,
 * stripped of their script locations and handed to the caller.
 */
#ifndef CSMACD_PLOT_H
#define CSMACD_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "outfile.h"

#define PLOT_MAX_PANELS 4
/* Distinct (colour, dash, point) styles before they repeat. */
#define PLOT_N_STYLES 12

typedef enum plot_format { PLOT_SVG, PLOT_PNG, PLOT_PDF } plot_format;

/* The format of a path by its extension. Returns 0, or -1. */
int plot_format_of(const char *path, plot_format *out);

typedef struct plot_curve {
    char label[160];
    size_t n;
    double *x;
    double *y[PLOT_MAX_PANELS];   /* NaN: no value at that x */
    double *err[PLOT_MAX_PANELS]; /* 95 % half-widths; NaN: none (drawn as 0) */
    /* done[i]: the point at x[i] ran to the end, so a NaN there is a
     * result (said on the figure: plot_spec.no_value), not a point the
     * sweep never finished. NULL: every point is done. */
    const bool *done;
    /* absent[p]: the series' network has no such row (a bridge port's
     * measure where there is no bridge): said so instead of the panel's
     * no_value. */
    bool absent[PLOT_MAX_PANELS];
} plot_curve;

typedef struct plot_ref {
    char label[160];
    size_t n;
    double *x, *y;
} plot_ref;

/* A limit drawn on the figure: a vertical line at x = value across every
 * panel, or a horizontal line at y = value on one panel; each listed in
 * the key with its label. */
#define PLOT_MAX_MARKS 6
typedef struct plot_mark {
    char label[160];
    bool vertical;
    double value;
    size_t panel;  /* a horizontal line's */
} plot_mark;

/* Tick labels of the x axis (categories, or numbers said in words). */
#define PLOT_MAX_XTICS 32

typedef struct plot_spec {
    const char *title;
    const char *xlabel;
    int xlog_base;                       /* 0: linear x axis */
    size_t n_panels;
    const char *ylabel[PLOT_MAX_PANELS];
    int ylog[PLOT_MAX_PANELS];           /* non-zero: logarithmic y */
    int yfraction[PLOT_MAX_PANELS];      /* non-zero: y is a fraction, axis 0 to 1 */
    /* What a done point without a value means for the panel's measure
     * ("never recovered within the run"); NULL: "no value". */
    const char *no_value[PLOT_MAX_PANELS];
    const plot_curve *curves;
    size_t n_curves;
    const plot_ref *refs;
    size_t n_refs;
    size_t ref_panel;                    /* the panel the references go on */
    plot_mark marks[PLOT_MAX_MARKS];
    size_t n_marks;
    /* n_xtics > 0: the x axis's ticks are exactly these, labelled so;
     * xcategories: the x values are categories (1, 2, ...): the axis is
     * padded by half a category at each end. */
    const char *xtic_label[PLOT_MAX_XTICS];
    double xtic_at[PLOT_MAX_XTICS];
    size_t n_xtics;
    bool xcategories;
} plot_spec;

/* The gnuplot script drawing spec into output_path. Series k of a panel
 * (the curves in order, then the references) is drawn in style k mod
 * PLOT_N_STYLES. The panels are stacked and share one key, in a band
 * below them (never over the data), each series in it once; under the key
 * the band says which done points have no value (a curve that has none in
 * a panel is not drawn there, so gnuplot has nothing to warn about), and
 * a panel where no point has a value says so across its plot area (its
 * x axis still spans the sweep's x values). Returns 0, or -1 on a write
 * error. */
int plot_write_script(FILE *f, const plot_spec *s, plot_format fmt, const char *output_path);

#define PLOT_NO_GNUPLOT (-2)

/* Called with each of gnuplot's warnings, said in words ("a curve has no
 * finite value to draw"); path is the figure's. */
typedef void (*plot_message_fn)(void *ctx, const char *path, const char *text);

/* Draws spec into the open outfile fig (outfile.h; the format follows
 * fig->path's extension) with gnuplot; the caller commits or discards fig.
 * Returns 0; PLOT_NO_GNUPLOT when no gnuplot is on PATH; or -1 with
 * "path: reason". say (may be NULL) gets the warnings. */
int plot_render(const plot_spec *s, outfile *fig, plot_message_fn say, void *ctx, char *err,
                size_t errlen);

#endif
