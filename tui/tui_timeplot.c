/* tui_timeplot.c - the plot's time view (tui_snapshot.time_view): the
 * run's history (tui_snapshot.history) as bars over time, the aggregate
 * throughput above (every link's delivered bits over one link's capacity,
 * so a switch's climbs past 1, with a dashed line at 1 = one link) and
 * collisions per frame below, on one time axis; each mark (the swap key,
 * a station added) is a dotted vertical line through both, labelled.
 *
 *   Throughput over time (1 = one 10 Mb/s link = 10 Mb/s)
 *    16┤          ¦switch ▆▇▇█▇
 *      │          ¦  ▃▅▆▇█████
 *     1┤┄┄┄┄┄┄┄┄┄┄¦▂▄█████████
 *     0┤▅▅▅▅▅▅▅▅▅▅¦███████████
 *      Collisions per frame
 *   0.8┤█▇█▇██▇███¦▂
 *      └─────────────────────
 *      0 s                 4.2 s
 *
 * When the history holds more samples than columns, a column shows the
 * mean of the samples it covers (collisions: their sum over their
 * frames); with fewer, one sample per column from the left.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The samples [first, last) column j of n_cols covers. */
static void column_range(size_t n, int n_cols, int j, size_t *first, size_t *last)
{
    if ((size_t)n_cols >= n) {
        *first = (size_t)j;
        *last = (size_t)j + 1 <= n ? (size_t)j + 1 : n;
        return;
    }
    *first = (size_t)j * n / (size_t)n_cols;
    *last = (size_t)(j + 1) * n / (size_t)n_cols;
}

static int used_cols(const tui_snapshot *s, int cols)
{
    return s->n_history < (size_t)cols ? (int)s->n_history : cols;
}

static double col_s(const tui_snapshot *s, size_t a, size_t b)
{
    double sum = 0;
    for (size_t i = a; i < b; i++)
        sum += s->history[i].s;
    return b > a ? sum / (double)(b - a) : 0;
}

static double col_coll(const tui_snapshot *s, size_t a, size_t b)
{
    double coll = 0, frames = 0;
    for (size_t i = a; i < b; i++) {
        coll += s->history[i].collisions;
        frames += s->history[i].frames;
    }
    return frames > 0 ? coll / frames : 0;
}

/* The top of an axis: 1, 2 or 5 times a power of ten, at least v. */
static double nice_top(double v)
{
    if (!(v > 0))
        return 1;
    double p = pow(10, floor(log10(v)));
    static const double m[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (m[i] * p >= v * (1 - 1e-9))
            return m[i] * p;
    return 10 * p;
}

/* A bar of value v on an axis [0, top] of `rows` rows, bottom at y0 +
 * rows - 1: full cells, then eighths (ASCII: '#' from half a cell). */
static void bar(ctx *c, int x, int ybottom, int rows, double v, double top, tui_attr a)
{
    if (!(v > 0) || top <= 0)
        return;
    double eighths = fmin(v / top, 1.0) * rows * 8;
    long e = lround(eighths);
    if (e == 0)
        e = 1; /* anything at all shows */
    for (int r = 0; r < rows && e > 0; r++, e -= 8) {
        uint32_t ch;
        if (e >= 8)
            ch = c->unicode ? 0x2588 : '#';
        else if (c->unicode)
            ch = 0x2580 + (uint32_t)e; /* U+2581 one eighth .. U+2587 seven */
        else
            ch = e >= 4 ? '#' : '.';
        tui_put(c, x, ybottom - r, ch, a);
    }
}

/* A value as an axis label: whole numbers from 10, else `decimals`. */
static void label(char *b, size_t len, double v, double top, int decimals)
{
    snprintf(b, len, "%.*f", top >= 10 ? 0 : decimals, v);
}

static void yaxis(ctx *c, int px, int lw, int y0, int rows, double top, int decimals)
{
    for (int r = 0; r < rows; r++)
        tui_put(c, px + lw, y0 + r, c->gl->vline, TUI_A_AXIS);
    char b[16];
    label(b, sizeof b, top, top, decimals);
    tui_textf(c, px, y0, lw, TUI_A_AXIS, "%*s", lw, b);
    tui_put(c, px + lw, y0, c->gl->ytick, TUI_A_AXIS);
    label(b, sizeof b, 0.0, top, decimals);
    tui_textf(c, px, y0 + rows - 1, lw, TUI_A_AXIS, "%*s", lw, b);
    tui_put(c, px + lw, y0 + rows - 1, c->gl->ytick, TUI_A_AXIS);
}

static void title(ctx *c, int px, int py, int pw)
{
    char rate[32], buf[192];
    tui_fmt_rate(c->s->rate_bps, rate, sizeof rate);
    snprintf(buf, sizeof buf,
             "Throughput over time, all links together (1 = one %s link; a switch goes past 1)",
             rate);
    if (tui_text_width(buf) > pw)
        snprintf(buf, sizeof buf, "Throughput over time, all links (1 = one %s link)", rate);
    if (tui_text_width(buf) > pw)
        snprintf(buf, sizeof buf, "Throughput vs time (1 = one %s link)", rate);
    if (tui_text_width(buf) > pw)
        snprintf(buf, sizeof buf, "Throughput vs time, 1 = one link");
    tui_text(c, px, py, pw, buf, TUI_A_TITLE);
}

/* The column a mark falls in: the first whose samples end after it. */
static int mark_col(const tui_snapshot *s, int n_cols, double t)
{
    for (int j = 0; j < n_cols; j++) {
        size_t a, b;
        column_range(s->n_history, n_cols, j, &a, &b);
        if (b > a && s->history[b - 1].t_s > t)
            return j;
    }
    return n_cols; /* after the last sample: the next column */
}

void tui_draw_timeplot(ctx *c, int px, int py, int pw, int ph)
{
    const tui_snapshot *s = c->s;
    const int lw = 5;
    title(c, px, py, pw);
    /* Rows: title, S panel, gap (its title), collisions, axis, labels,
     * hint. */
    int crows = ph >= 24 ? 5 : ph >= 16 ? 4 : 3;
    int srows = ph - 5 - crows;
    int cols = pw - lw - 2;
    if (srows < 3 || cols < 8)
        return;
    int x0 = px + lw + 1, sy0 = py + 1, gy = sy0 + srows, cy0 = gy + 1, ay = cy0 + crows;
    int n_cols = used_cols(s, cols);
    /* The axes' tops: the highest column, at least one link (S) or 0.1
     * collisions per frame. */
    double smax = 1, cmax = 0.1;
    for (int j = 0; j < n_cols; j++) {
        size_t a, b;
        column_range(s->n_history, n_cols, j, &a, &b);
        smax = fmax(smax, col_s(s, a, b));
        cmax = fmax(cmax, col_coll(s, a, b));
    }
    double stop = nice_top(smax), ctop = nice_top(cmax);
    yaxis(c, px, lw, sy0, srows, stop, 1);
    yaxis(c, px, lw, cy0, crows, ctop, 2);
    /* One link: a dashed line at 1, labelled on the axis when it is not
     * the top. */
    int one = sy0 + srows - 1 - (int)lround((srows - 1) * (1.0 / stop));
    if (stop > 1) {
        tui_textf(c, px, one, lw, TUI_A_AXIS, "%*s", lw, "1");
        tui_put(c, px + lw, one, c->gl->ytick, TUI_A_AXIS);
    }
    for (int x = 0; x < cols; x++)
        tui_put(c, x0 + x, one, c->unicode ? 0x2504 : '-', TUI_A_REF);
    tui_text(c, px + lw + 1, gy, pw - lw - 1, "Collisions per frame", TUI_A_SECOND);
    for (int j = 0; j < n_cols; j++) {
        size_t a, b;
        column_range(s->n_history, n_cols, j, &a, &b);
        bar(c, x0 + j, sy0 + srows - 1, srows, col_s(s, a, b), stop, TUI_A_MEASURED);
        bar(c, x0 + j, cy0 + crows - 1, crows, col_coll(s, a, b), ctop, TUI_A_SECOND);
    }
    /* The time axis: 0 at the left, the last sample's end at the right. */
    tui_put(c, px + lw, ay, c->gl->corner, TUI_A_AXIS);
    tui_fill(c, x0, ay, cols, c->gl->hline, TUI_A_AXIS);
    char t0[32], t1[48];
    snprintf(t0, sizeof t0, "0 s");
    double tend = s->n_history ? s->history[s->n_history - 1].t_s : 0;
    snprintf(t1, sizeof t1, "%.3g s", tend);
    tui_text(c, x0, ay + 1, cols, t0, TUI_A_AXIS);
    int t1w = tui_text_width(t1);
    int t1x = x0 + (n_cols > t1w ? n_cols - t1w : 0);
    if (t1x < x0 + 4)
        t1x = x0 + 4;
    tui_text(c, t1x, ay + 1, cols - (t1x - x0), t1, TUI_A_AXIS);
    if (t1x + t1w + 2 + 13 <= x0 + cols)
        tui_text(c, t1x + t1w + 2, ay + 1, x0 + cols - t1x - t1w - 2, "simulated time",
                 TUI_A_DIM);
    /* The marks: a dotted line through both panels, then their labels at
     * the top (right of the line, or left of it near the right edge), a
     * row lower when one would touch the label before it (t pressed again
     * soon), never over one another. */
    for (size_t m = 0; m < s->n_marks; m++) {
        int j = mark_col(s, n_cols, s->marks[m].t_s);
        if (j >= cols)
            continue;
        int x = x0 + j;
        for (int y = sy0; y < ay; y++)
            if (y != gy)
                tui_put(c, x, y, c->unicode ? 0x250A : ':', TUI_A_CURRENT);
        tui_put(c, x, ay, c->gl->xtick, TUI_A_AXIS);
    }
    int label_end[3] = {-1, -1, -1}; /* per label row: the column after its last label */
    for (size_t m = 0; m < s->n_marks; m++) {
        int j = mark_col(s, n_cols, s->marks[m].t_s);
        if (j >= cols)
            continue;
        int x = x0 + j;
        const char *l = s->marks[m].label ? s->marks[m].label : "";
        int w = tui_text_width(l);
        int lx = x + 1 + w <= x0 + cols ? x + 1 : x - w;
        for (int r = 0; r < 3 && sy0 + r < gy; r++)
            if (lx > label_end[r]) {
                tui_text(c, lx, sy0 + r, w, l, TUI_A_CURRENT);
                label_end[r] = lx + w;
                break;
            }
    }
    const char *hint = "t: hub / switch   r: back to the sweep of N";
    if (tui_text_width(hint) > pw - lw - 1)
        hint = "t hub/switch, r the N sweep";
    tui_text(c, px + lw + 1, ay + 2, pw - lw - 1, hint, TUI_A_DIM);
}
