/* tui_plot.c - the plot: throughput S against the number of stations N,
 * measured points with their 95 % intervals, the point being measured, the
 * analytic reference curve and the legend; under it, in a panel of its
 * own, collisions per frame. Curves, error bars and the collision bars are
 * drawn in braille dots (2 x 4 per cell) or, in ASCII, as strokes that say
 * where in the cell they sit.
 *
 * Collisions per frame has its own panel, axis and scale rather than a
 * second axis over the S plot: there its markers sat on the model curve
 * and read as throughput. The two panels share the N axis, drawn once
 * under the lower one, and a blank row carrying the lower panel's title
 * keeps them apart.
 *
 * The S axis runs from 0 to 1 unless the snapshot asks for a zoom
 * (s_axis_min > 0); a cut axis is then marked where it is cut, with a
 * break sign and the word "cut" at the foot of the axis, and the title
 * gives the range, so nobody reads 0.80 as the bottom of the scale.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct plot {
    int x0, y0;      /* top-left of the data area */
    int cols, rows;  /* data area in cells */
    uint8_t *ref, *bar; /* braille dot masks per cell */
    double smin;     /* bottom of the S axis (top is 1); 0 for collisions */
} plot;

static double x_frac(const tui_snapshot *s, double n)
{
    double lo = s->n_min, hi = s->n_max;
    if (hi <= lo)
        return 0.5;
    if (n < lo)
        n = lo;
    if (n > hi)
        n = hi;
    if (s->log_x && lo > 0)
        return log(n / lo) / log(hi / lo);
    return (n - lo) / (hi - lo);
}

/* Cell and sub-pixel (braille: 2 per column, 4 per row) coordinates. A
 * value's row is the nearest row, its sub-pixel the middle of that row's
 * dots, so markers, ticks and curves agree. */
static int col_of(const plot *p, const tui_snapshot *s, double n)
{
    return (int)lround(x_frac(s, n) * (p->cols - 1));
}

static int sub_x(const plot *p, double u)
{
    return (int)lround(u * (p->cols - 1) * 2);
}

/* Where an S value sits on the axis [smin, 1], as a fraction. */
static double s_frac(const plot *p, double v)
{
    return (v - p->smin) / (1.0 - p->smin);
}

static int row_of(const plot *p, double v)
{
    if (v < 0)
        v = 0;
    if (v > 1)
        v = 1;
    return (int)lround((1.0 - v) * (p->rows - 1));
}

static int sub_y(const plot *p, double v)
{
    if (v < 0)
        v = 0;
    if (v > 1)
        v = 1;
    int sy = (int)lround((1.0 - v) * (p->rows - 1) * 4) + 1;
    return sy < 0 ? 0 : sy > p->rows * 4 - 1 ? p->rows * 4 - 1 : sy;
}

static const uint8_t braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

static void dot(plot *p, uint8_t *mask, int sx, int sy)
{
    if (sx < 0 || sy < 0 || sx >= p->cols * 2 || sy >= p->rows * 4)
        return;
    mask[(sy / 4) * p->cols + sx / 2] |= braille_bit[sx % 2][sy % 4];
}

static void dot_line(plot *p, uint8_t *mask, int x1, int y1, int x2, int y2)
{
    int dx = abs(x2 - x1), dy = abs(y2 - y1);
    int steps = dx > dy ? dx : dy;
    if (steps == 0) {
        dot(p, mask, x1, y1);
        return;
    }
    for (int i = 0; i <= steps; i++)
        dot(p, mask, x1 + (int)lround((double)(x2 - x1) * i / steps),
            y1 + (int)lround((double)(y2 - y1) * i / steps));
}

/* The ASCII stand-in for a cell of braille dots: where in the cell the
 * dots sit, as ' - . ' strokes. */
static uint32_t ascii_for_mask(uint8_t m)
{
    int rows[4] = {0, 0, 0, 0};
    for (int sx = 0; sx < 2; sx++)
        for (int sy = 0; sy < 4; sy++)
            if (m & braille_bit[sx][sy])
                rows[sy]++;
    int top = rows[0] + rows[1], bottom = rows[2] + rows[3];
    if (top && bottom && rows[0] && rows[3])
        return '|';
    if (rows[0] && !bottom)
        return '\'';
    if (rows[3] && !top)
        return '_';
    if (bottom > top)
        return '.';
    return '-';
}

static double nice_ceil(double v)
{
    static const double steps[] = {1, 2, 5};
    double mag = 1;
    if (v <= 1)
        return 1;
    while (mag * 10 < v)
        mag *= 10;
    for (;;) {
        for (size_t i = 0; i < 3; i++)
            if (steps[i] * mag >= v)
                return steps[i] * mag;
        mag *= 10;
    }
}

/* The title row, with the range of a cut S axis. */
static void plot_title(ctx *c, const plot *p, int px, int py, int pw)
{
    char rate[32], buf[192];
    const char *dash = c->gl->dash;
    tui_fmt_rate(c->s->rate_bps, rate, sizeof rate);
    if (p->smin > 0) {
        snprintf(buf, sizeof buf,
                 "Throughput S (fraction of %s) vs number of stations N; S axis cut: %.2f%s1",
                 rate, p->smin, dash);
        if (tui_text_width(buf) > pw)
            snprintf(buf, sizeof buf, "Throughput S (of %s) vs N; S axis cut: %.2f%s1", rate,
                     p->smin, dash);
        if (tui_text_width(buf) > pw)
            snprintf(buf, sizeof buf, "S axis cut: %.2f%s1 (of %s) vs N", p->smin, dash, rate);
        if (tui_text_width(buf) > pw)
            snprintf(buf, sizeof buf, "S axis cut: %.2f%s1 (of %s)", p->smin, dash, rate);
    } else {
        snprintf(buf, sizeof buf, "Throughput S (fraction of %s) vs number of stations N", rate);
        if (tui_text_width(buf) > pw)
            snprintf(buf, sizeof buf, "Throughput S (of %s) vs stations N", rate);
        if (tui_text_width(buf) > pw)
            snprintf(buf, sizeof buf, "Throughput S (of %s) vs N", rate);
    }
    tui_text(c, px, py, pw, buf, TUI_A_TITLE);
}

typedef struct legend_item {
    uint32_t glyph;
    tui_attr attr;
    char what[96];
} legend_item;

#define LEGEND_MAX 4

typedef struct legend {
    legend_item item[LEGEND_MAX];
    int n;
    int rows;
} legend;

static void legend_add(legend *l, uint32_t glyph, tui_attr attr, const char *what)
{
    if (l->n >= LEGEND_MAX)
        return;
    legend_item *it = &l->item[l->n++];
    it->glyph = glyph;
    it->attr = attr;
    snprintf(it->what, sizeof it->what, "%s", what);
}

/* Rows the items take when laid out greedily in width pw, as drawn. */
static int legend_rows(const legend *l, int pw)
{
    int lx = 0, rows = 1;
    for (int i = 0; i < l->n; i++) {
        int iw = tui_text_width(l->item[i].what) + 2;
        if (lx > 0 && lx + iw > pw) {
            rows++;
            lx = 0;
        }
        lx += iw + 2;
    }
    return rows;
}

/* The legend: as few rows as fit (one on wide plots, else two), with
 * shorter words when even two rows are not enough. */
static void legend_build(const ctx *c, int pw, legend *l)
{
    const tui_snapshot *s = c->s;
    char what[96];
    for (int pass = 0; pass < 2; pass++) {
        bool brief = pass == 1;
        l->n = 0;
        snprintf(what, sizeof what, brief ? "S %s 95%% CI" : "S measured %s 95%% CI", c->gl->pm);
        legend_add(l, c->gl->point, TUI_A_MEASURED, what);
        legend_add(l, c->gl->current, TUI_A_CURRENT, "measuring");
        if (s->show_ref && s->n_ref > 0) {
            snprintf(what, sizeof what, "%s model", s->ref_label ? s->ref_label : "analytic");
            legend_add(l, c->gl->braille ? 0x2824 : '-', TUI_A_REF, what);
        }
        l->rows = legend_rows(l, pw);
        if (l->rows <= 2)
            break;
    }
    if (l->rows > 2)
        l->rows = 2;
}

static void legend_draw(ctx *c, const legend *l, int px, int ly, int pw)
{
    int lx = px;
    for (int i = 0; i < l->n; i++) {
        const legend_item *it = &l->item[i];
        int iw = tui_text_width(it->what) + 2;
        if (lx > px && lx + iw > px + pw) {
            ly++;
            lx = px;
        }
        tui_put(c, lx, ly, it->glyph, it->attr);
        tui_text(c, lx + 2, ly, px + pw - lx - 2, it->what, TUI_A_PLAIN);
        lx += iw + 2;
    }
}

/* The data rows, trimmed so that every S tick falls exactly on a row:
 * (rows - 1) is a multiple of 1/step, with at least two rows between ticks
 * (one if nothing else fits). Sets p->rows; returns the tick step. */
static double plot_fit_rows(plot *p, int avail)
{
    /* Tick steps that give round labels over the axis [smin, 1]. */
    static const double steps[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5};
    double range = 1.0 - p->smin;
    double ystep = range;
    int best = 0;
    p->rows = avail;
    for (int kmin = 2; kmin >= 1 && !best; kmin--) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            int m = (int)lround(range / steps[i]);
            if (m < 2 || m > 10 || fabs(m * steps[i] - range) > 1e-9)
                continue;
            int k = (avail - 1) / m;
            if (k > 5)
                k = 5; /* a tick at least every 5 rows */
            if (k >= kmin && m * k + 1 > best) {
                best = m * k + 1;
                ystep = steps[i];
            }
        }
    }
    if (best)
        p->rows = best;
    return ystep;
}

/* The collision panel's top: the most collisions per frame of any point,
 * up to a round number. */
static double plot_cmax(const tui_snapshot *s)
{
    double cmax = s->has_current ? s->current.coll_per_frame : 0;
    for (size_t i = 0; i < s->n_points; i++)
        if (s->points[i].coll_per_frame > cmax)
            cmax = s->points[i].coll_per_frame;
    return nice_ceil(cmax);
}

/* A panel's left axis. */
static void panel_axis(ctx *c, const plot *p)
{
    for (int r = 0; r < p->rows; r++)
        tui_put(c, p->x0 - 1, p->y0 + r, c->gl->vline, TUI_A_AXIS);
}

/* Ticks and labels of the S axis. */
static void plot_yticks(ctx *c, const plot *p, int px, int lw, double ystep)
{
    double range = 1.0 - p->smin;
    int m = (int)lround(range / ystep);
    bool two = fabs(ystep * 10 - lround(ystep * 10)) > 1e-9 ||
               fabs(p->smin * 10 - lround(p->smin * 10)) > 1e-9;
    for (int k = 0; k <= m; k++) {
        double f = (double)k / m, v = p->smin + k * ystep;
        int r = row_of(p, f);
        tui_put(c, p->x0 - 1, p->y0 + r, c->gl->ytick, TUI_A_AXIS);
        tui_textf(c, px, p->y0 + r, lw - 1, TUI_A_AXIS, two ? "%4.2f" : "%4.1f", v);
    }
}

/* The row between the panels: the break of a cut S axis, then the title
 * of the collision panel (which names its own scale). */
static void panel_gap(ctx *c, const plot *p, int px, int pw, int y)
{
    if (p->smin > 0) {
        tui_text(c, px, y, p->x0 - 1 - px, " cut", TUI_A_WARN);
        tui_put(c, p->x0 - 1, y, c->unicode ? 0x2248 : '~', TUI_A_WARN);
    }
    char buf[128];
    int room = px + pw - (p->x0 + 1);
    snprintf(buf, sizeof buf, "collisions/frame: collisions per frame sent OK (bars, own axis)");
    if (tui_text_width(buf) > room)
        snprintf(buf, sizeof buf, "collisions/frame (bars, own axis)");
    if (tui_text_width(buf) > room)
        snprintf(buf, sizeof buf, "collisions/frame, own axis");
    tui_text(c, p->x0 + 1, y, room, buf, TUI_A_SECOND);
}

/* A bar's dot row for a value 0..1 of the panel: 0 on the lowest dot row,
 * 1 on the highest, so the labels at the ends are the bars' ends. */
static int bar_y(const plot *p, double v)
{
    int dots = p->rows * 4 - 1;
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return dots - (int)lround(v * dots);
}

/* The collision panel: its axis from 0 to cmax, labelled at both ends (and
 * in the middle when it has a middle row), and a bar per point from 0 to
 * its collisions per frame. */
static void panel_collisions(ctx *c, plot *cp, int px, int lw, double cmax)
{
    const tui_snapshot *s = c->s;
    panel_axis(c, cp);
    for (int r = 0; r < cp->rows; r++) {
        bool label = r == 0 || r == cp->rows - 1 || (cp->rows % 2 == 1 && 2 * r == cp->rows - 1);
        if (!label)
            continue;
        double v = cmax * (1.0 - (double)r / (cp->rows - 1));
        tui_put(c, cp->x0 - 1, cp->y0 + r, c->gl->ytick, TUI_A_AXIS);
        tui_textf(c, px, cp->y0 + r, lw - 1, TUI_A_SECOND, "%4g", v);
    }
    size_t ncell = (size_t)cp->rows * (size_t)cp->cols;
    uint8_t *mask = calloc(ncell, 1);
    if (!mask)
        return;
    cp->bar = mask;
    for (size_t i = 0; i < s->n_points + (s->has_current ? 1 : 0); i++) {
        const tui_point *pt = i < s->n_points ? &s->points[i] : &s->current;
        int sx = col_of(cp, s, pt->n) * 2;
        dot_line(cp, mask, sx, bar_y(cp, 0), sx, bar_y(cp, pt->coll_per_frame / cmax));
    }
    for (int r = 0; r < cp->rows; r++)
        for (int col = 0; col < cp->cols; col++) {
            uint8_t m = mask[r * cp->cols + col];
            if (m)
                tui_put(c, cp->x0 + col, cp->y0 + r,
                        c->gl->braille ? 0x2800u + m : ascii_for_mask(m), TUI_A_SECOND);
        }
    free(mask);
    cp->bar = NULL;
}

/* X ticks: powers of two on a log axis, a round step on a linear one.
 * Returns how many were written to ticks (room for 64). */
static int plot_xtick_values(const tui_snapshot *s, double ticks[64])
{
    int n_ticks = 0;
    if (s->log_x) {
        for (double t = 1; t <= s->n_max && n_ticks < 60; t *= 2)
            if (t >= s->n_min)
                ticks[n_ticks++] = t;
    } else {
        double span = (double)s->n_max - s->n_min, step = 1;
        while (span / step > 8)
            step = step == 1 ? 2 : step == 2 ? 4 : step * 2;
        ticks[n_ticks++] = s->n_min;
        for (double t = step * ceil((s->n_min + 1) / step); t <= s->n_max && n_ticks < 60;
             t += step)
            ticks[n_ticks++] = t;
    }
    if (n_ticks == 0 || ticks[n_ticks - 1] != s->n_max)
        ticks[n_ticks++] = s->n_max;
    return n_ticks;
}

/* The N axis under panel p: the line, the ticks, their labels (none
 * overlapping) and the axis name. */
static void plot_xaxis(ctx *c, const plot *p, int px, int pw)
{
    const tui_snapshot *s = c->s;
    int ax_y = p->y0 + p->rows, tick_y = ax_y + 1, last_end = -1;
    tui_put(c, p->x0 - 1, ax_y, c->gl->corner, TUI_A_AXIS);
    tui_fill(c, p->x0, ax_y, p->cols, c->gl->hline, TUI_A_AXIS);
    double ticks[64];
    int n_ticks = plot_xtick_values(s, ticks);
    for (int i = 0; i < n_ticks; i++) {
        int col = col_of(p, s, ticks[i]);
        char lab[16];
        snprintf(lab, sizeof lab, "%g", ticks[i]);
        int lwid = (int)strlen(lab);
        int lx = p->x0 + col - (lwid - 1) / 2;
        if (lx <= last_end)
            continue;
        if (lx + lwid > px + pw)
            lx = px + pw - lwid;
        tui_put(c, p->x0 + col, ax_y, c->gl->xtick, TUI_A_AXIS);
        tui_text(c, lx, tick_y, lwid, lab, TUI_A_AXIS);
        last_end = lx + lwid;
    }
    char buf[160];
    snprintf(buf, sizeof buf, "number of stations N (%s scale)", s->log_x ? "log" : "linear");
    if (tui_text_width(buf) > p->cols)
        snprintf(buf, sizeof buf, "stations N (%s scale)", s->log_x ? "log" : "linear");
    int bw = tui_text_width(buf);
    tui_text(c, p->x0 + (p->cols - bw) / 2, tick_y + 1, p->cols, buf, TUI_A_AXIS);
}

/* The i-th point drawn: the measured ones, then the one in progress. */
static const tui_point *plot_point(const tui_snapshot *s, size_t i)
{
    return i < s->n_points ? &s->points[i] : &s->current;
}

static size_t plot_n_points(const tui_snapshot *s)
{
    return s->n_points + (s->has_current ? 1 : 0);
}

/* The reference curve, through its points in axis coordinates. */
static void plot_ref_curve(plot *p, const tui_snapshot *s)
{
    if (!s->show_ref || s->n_ref <= 1)
        return;
    int px_prev = -1, py_prev = -1;
    for (size_t i = 0; i < s->n_ref; i++) {
        if (s->ref[i].n < s->n_min || s->ref[i].n > s->n_max)
            continue;
        int sx = sub_x(p, x_frac(s, s->ref[i].n)), sy = sub_y(p, s_frac(p, s->ref[i].s));
        if (px_prev >= 0)
            dot_line(p, p->ref, px_prev, py_prev, sx, sy);
        px_prev = sx;
        py_prev = sy;
    }
}

/* Error bars, in the marker's column. */
static void plot_error_bars(plot *p, const tui_snapshot *s)
{
    for (size_t i = 0; i < plot_n_points(s); i++) {
        const tui_point *pt = plot_point(s, i);
        int sx = col_of(p, s, pt->n) * 2;
        if (pt->s_ci95 < 0)
            continue; /* no interval yet */
        dot_line(p, p->bar, sx, sub_y(p, s_frac(p, pt->s - pt->s_ci95)), sx,
                 sub_y(p, s_frac(p, pt->s + pt->s_ci95)));
    }
}

/* The dot masks to cells: braille, or ASCII strokes; a bar wins a cell. */
static void plot_blit(ctx *c, const plot *p)
{
    for (int r = 0; r < p->rows; r++) {
        for (int col = 0; col < p->cols; col++) {
            uint8_t rm = p->ref[r * p->cols + col], bm = p->bar[r * p->cols + col];
            if (!rm && !bm)
                continue;
            if (c->gl->braille)
                tui_put(c, p->x0 + col, p->y0 + r, 0x2800u + (bm ? (uint32_t)(bm | rm) : rm),
                        bm ? TUI_A_MEASURED : TUI_A_REF);
            else
                tui_put(c, p->x0 + col, p->y0 + r, bm ? '|' : ascii_for_mask(rm),
                        bm ? TUI_A_MEASURED : TUI_A_REF);
        }
    }
}

/* Markers: S, then the point in progress over it. */
static void plot_markers(ctx *c, const plot *p)
{
    const tui_snapshot *s = c->s;
    size_t np = plot_n_points(s);
    for (size_t i = 0; i < np; i++) {
        const tui_point *pt = plot_point(s, i);
        bool cur = i >= s->n_points;
        tui_put(c, p->x0 + col_of(p, s, pt->n), p->y0 + row_of(p, s_frac(p, pt->s)),
                cur ? c->gl->current : c->gl->point, cur ? TUI_A_CURRENT : TUI_A_MEASURED);
    }
}

/* The curve and the error bars, through braille masks of the data area. */
static void plot_data(ctx *c, plot *p)
{
    size_t ncell = (size_t)p->rows * (size_t)p->cols;
    uint8_t *masks = calloc(2 * ncell, 1);
    if (!masks)
        return;
    p->ref = masks;
    p->bar = masks + ncell;
    plot_ref_curve(p, c->s);
    plot_error_bars(p, c->s);
    plot_blit(c, p);
    free(masks);
    p->ref = p->bar = NULL;
}

/* Rows of the collision panel: about a quarter of the plot's, 2 to 5. */
static int collision_rows(int avail)
{
    int r = avail / 4;
    return r < 2 ? 2 : r > 5 ? 5 : r;
}

void tui_draw_plot(ctx *c, int px, int py, int pw, int ph)
{
    const tui_snapshot *s = c->s;
    const int lw = 5; /* labels "0.75 " */
    legend leg;
    legend_build(c, pw, &leg);

    /* Rows: title, the S panel, the gap, the collision panel, the N axis,
     * its tick labels and name, the legend. */
    int avail = ph - 1 - 3 - leg.rows;
    int crows = collision_rows(avail);
    int savail = avail - crows - 1;
    plot p = {0};
    p.smin = s->s_axis_min > 0 && s->s_axis_min < 1 ? s->s_axis_min : 0;
    double ystep = plot_fit_rows(&p, savail);
    p.cols = pw - lw - 1;
    p.x0 = px + lw;
    p.y0 = py + 1 + (savail - p.rows);
    plot_title(c, &p, px, py, pw);
    if (p.rows < 3 || p.cols < 8)
        return;
    plot cp = {.x0 = p.x0, .y0 = p.y0 + p.rows + 1, .cols = p.cols, .rows = crows};

    panel_axis(c, &p);
    plot_yticks(c, &p, px, lw, ystep);
    panel_gap(c, &p, px, pw, p.y0 + p.rows);
    panel_collisions(c, &cp, px, lw, plot_cmax(s));
    plot_xaxis(c, &cp, px, pw);
    legend_draw(c, &leg, px, cp.y0 + cp.rows + 3, pw);
    plot_data(c, &p);
    plot_markers(c, &p);
}
