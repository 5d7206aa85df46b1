/* tui_medium.c - the medium now and lately: the cable (or, for a star, the
 * hub's view of each drop cable) with each station's state and the signals
 * on it, and the strip of the channel at the probe, one column per cell of
 * simulated time, newest on the right.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The title, how many stations a column stands for when they outnumber
 * the columns, the scale of the station numbers when they are not all
 * there ("every 5th numbered"; step 0: the ends only), then the key of
 * the letters if there is room. */
static void medium_title(ctx *c, int y, uint32_t step, uint32_t per_col)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char t[32], title[200], scale[96] = "";
    tui_fmt_clock(s, t, sizeof t);
    if (s->star)
        snprintf(title, sizeof title, "Hub: what each station hears at t = %s", t);
    else
        snprintf(title, sizeof title, "Bus (%g m): signals at t = %s", s->length_m, t);
    int n = 0;
    if (per_col > 1)
        n = snprintf(scale, sizeof scale, "up to %u per column", per_col);
    if (step != 1 && n >= 0 && (size_t)n < sizeof scale) {
        if (step == 0)
            snprintf(scale + n, sizeof scale - (size_t)n, "%sthe ends numbered", n ? ", " : "");
        else
            snprintf(scale + n, sizeof scale - (size_t)n, "%severy %u%s numbered", n ? ", " : "",
                     step, step == 2 ? "nd" : "th");
    }
    char part[112] = "";
    if (scale[0])
        snprintf(part, sizeof part, " (%s)", scale);
    if (tui_text_width(title) + tui_text_width(part) > w) /* the scale comes first */
        snprintf(title, sizeof title, "%s at t = %s", s->star ? "Hub" : "Bus", t);
    int tw = tui_text(c, 0, y, w, title, TUI_A_TITLE);
    if (part[0])
        tw += tui_text(c, tw, y, w - tw, part, TUI_A_TITLE);
    const char *key = "   S send  J jam  b backoff  d defer  i idle";
    if (tw + tui_text_width(key) <= w)
        tui_text(c, tw, y, w - tw, key, TUI_A_DIM);
}

/* The cable, one column at a time: idle, one signal, a jam alone, or two
 * senders' signals overlapping (a collision). */
void tui_draw_cable(ctx *c, const tui_span *spans, size_t n_spans, int x0, int cw, int y)
{
    for (int col = 0; col < cw; col++) {
        double a = (double)col / cw, b = (double)(col + 1) / cw;
        /* Distinct senders here: a signal's own pieces (frame and jam,
         * left and right) never make a collision. */
        int nsig = 0;
        uint32_t first = 0;
        bool body = false;
        for (size_t i = 0; i < n_spans; i++) {
            const tui_span *sp = &spans[i];
            if (!(sp->to > a && sp->from < b))
                continue;
            if (nsig == 0) {
                first = sp->station;
                nsig = 1;
            } else if (sp->station != first) {
                nsig = 2;
            }
            if (!sp->jam)
                body = true;
        }
        uint32_t ch = c->gl->cable;
        tui_attr at = TUI_A_IDLE;
        if (nsig >= 2) {
            ch = c->gl->cable_coll;
            at = TUI_A_COLLISION;
        } else if (nsig == 1 && !body) {
            ch = c->gl->cable_jam;
            at = TUI_A_JAM;
        } else if (nsig == 1) {
            ch = c->gl->cable_sig;
            at = TUI_A_FRAME;
        }
        tui_put(c, x0 + col, y, ch, at);
    }
}

/* A station's column on the drawing. */
static int station_col(const tui_snapshot *s, size_t i, int cw)
{
    double f = s->station_pos ? s->station_pos[i]
                              : (s->n_rows > 1 ? (double)i / (double)(s->n_rows - 1) : 0.5);
    return (int)lround(f * (cw - 1));
}

/* Stations: one letter each, at its position. Several stations in one
 * column: the busiest state wins. */
static void medium_stations(ctx *c, int x0, int cw, int my)
{
    const tui_snapshot *s = c->s;
    tui_grid *g = c->g;
    for (size_t i = 0; i < s->n_rows; i++) {
        const tui_station_row *r = &s->rows[i];
        int gx = x0 + station_col(s, i, cw);
        if (gx >= 0 && gx < g->w) {
            uint32_t cur = g->cells[my * g->w + gx].ch;
            static const char rank[] = "idbBSJ";
            const char *pc = cur ? strchr(rank, (int)cur) : NULL;
            const char *pn = strchr(rank, tui_state_letter(r->state));
            if (cur != ' ' && cur != 0 && pc && pn && pn < pc)
                continue;
        }
        tui_put(c, gx, my, (uint32_t)tui_state_letter(r->state), tui_state_attr(r->state));
    }
}

/* Where station i's number goes: centred on its column, inside the row.
 * Returns the first column; *nw is the number's width. */
static int number_x(const tui_snapshot *s, size_t i, int x0, int cw, int w, int *nw)
{
    char num[16];
    *nw = snprintf(num, sizeof num, "%u", s->rows[i].index + 1);
    int nx = x0 + station_col(s, i, cw) - (*nw - 1) / 2;
    if (nx + *nw > w)
        nx = w - *nw;
    return nx < 0 ? 0 : nx;
}

static void put_number(ctx *c, const tui_snapshot *s, size_t i, int nx, int y)
{
    tui_textf(c, nx, y, 8, TUI_A_DIM, "%u", s->rows[i].index + 1);
}

/* Station numbers above the letters, as a scale: the leftmost and the
 * rightmost station (the ends of the cable, 1 and N when evenly spaced)
 * and every station whose number is a multiple of a step k of 1, 2, 5,
 * 10, 20, 50, ..., the smallest step at which every such number fits with
 * a blank column to its neighbours (a last multiple too near the far end
 * gives way to the end's number). So no number seems to be missing: the
 * title says "every 5th numbered" when k > 1 (numbers_step). The stations
 * are taken in column order (any placement), sorted once per frame. */
typedef struct by_col {
    int col;
    uint32_t i;
} by_col;

static int cmp_by_col(const void *a, const void *b)
{
    const by_col *x = a, *y = b;
    if (x->col != y->col)
        return (x->col > y->col) - (x->col < y->col);
    return (x->i > y->i) - (x->i < y->i);
}

/* Returns whether every multiple of k found its place. */
static bool place_numbers(ctx *c, const by_col *o, int x0, int cw, int y, uint32_t k, bool draw)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    size_t n = s->n_rows, lo = o[0].i, hi = o[n - 1].i;
    int lw, hw;
    int lx = number_x(s, lo, x0, cw, w, &lw), hx = number_x(s, hi, x0, cw, w, &hw);
    if (draw)
        put_number(c, s, lo, lx, y);
    if (hi == lo)
        return true;
    if (hx <= lx + lw)
        return false;
    if (draw)
        put_number(c, s, hi, hx, y);
    bool all = true;
    int end = lx + lw;
    for (size_t j = 1; j + 1 < n; j++) {
        size_t i = o[j].i;
        if ((s->rows[i].index + 1) % k != 0)
            continue;
        int nw, nx = number_x(s, i, x0, cw, w, &nw);
        if (nx > end && nx + nw < hx) {
            if (draw)
                put_number(c, s, i, nx, y);
            end = nx + nw;
        } else if (nx <= end || o[j].col * 2 < o[n - 1].col + o[0].col) {
            all = false; /* the scale does not fit */
        } /* else a last multiple too near the far end, whose number ends it */
    }
    return all;
}

/* The step of the numbers' scale; 0: not even 1, 2, 5, ... fit (a crowded
 * placement), the ends only. */
static uint32_t numbers_step(ctx *c, const by_col *o, int x0, int cw, int y)
{
    static const uint32_t base[] = {1, 2, 5};
    for (uint32_t mag = 1; mag <= 100000; mag *= 10)
        for (size_t b = 0; b < 3; b++)
            if (place_numbers(c, o, x0, cw, y, base[b] * mag, false))
                return base[b] * mag;
    return 0;
}

/* The most stations that share one column of the drawing. */
static uint32_t per_column(const by_col *o, size_t n)
{
    uint32_t most = 1, run = 1;
    for (size_t j = 1; j < n; j++) {
        run = o[j].col == o[j - 1].col ? run + 1 : 1;
        if (run > most)
            most = run;
    }
    return most;
}

void tui_draw_medium(ctx *c, int y, int rows)
{
    int x0 = 1, cw = c->g->w - 2;
    int cy = y + rows - 1, my = cy - 1;
    size_t n = c->s->n_rows;
    by_col *o = n > 0 ? malloc(n * sizeof *o) : NULL;
    uint32_t step = 1, per_col = 1;
    if (o) {
        for (size_t i = 0; i < n; i++)
            o[i] = (by_col){station_col(c->s, i, cw), (uint32_t)i};
        qsort(o, n, sizeof *o, cmp_by_col);
        per_col = per_column(o, n);
        if (rows >= 4)
            step = numbers_step(c, o, x0, cw, my - 1);
    }
    medium_title(c, y, step, per_col);
    tui_draw_cable(c, c->s->spans, c->s->n_spans, x0, cw, cy);
    medium_stations(c, x0, cw, my);
    if (rows >= 4 && o)
        place_numbers(c, o, x0, cw, my - 1, step ? step : UINT32_MAX, true);
    free(o);
}

static void timeline_title(ctx *c, int y, int cw)
{
    const tui_snapshot *s = c->s;
    char cell[32], span[32], title[200];
    tui_fmt_dur(c, s->cell_s, cell, sizeof cell);
    tui_fmt_dur(c, s->cell_s * (double)cw, span, sizeof span);
    bool slot = s->slot_s > 0 && fabs(s->cell_s - s->slot_s) < 1e-15;
    char where[64] = "the probe";
    if (s->probe_segment)
        snprintf(where, sizeof where, "%.40s's probe", s->probe_segment);
    snprintf(title, sizeof title, "Channel at %s, last %s (1 column = %s%s), now %s", where,
             span, cell, slot ? " = 1 slot" : "",
             c->unicode ? "\xe2\x86\x92|" : "->|");
    tui_text(c, 0, y, c->g->w, title, TUI_A_TITLE);
}

/* The glyph and attribute of one cell of the strip. */
static void chan_glyph(const ctx *c, tui_chan ch, uint32_t *g, tui_attr *a)
{
    switch (ch) {
    case TUI_CHAN_FRAME:
        *g = c->gl->chan_frame;
        *a = TUI_A_FRAME;
        return;
    case TUI_CHAN_JAM:
        *g = c->gl->chan_jam;
        *a = TUI_A_JAM;
        return;
    case TUI_CHAN_COLLISION:
        *g = c->gl->chan_coll;
        *a = TUI_A_COLLISION;
        return;
    case TUI_CHAN_IDLE:
        break;
    }
    *g = c->gl->chan_idle;
    *a = TUI_A_IDLE;
}

/* The strip, right-aligned: the newest cell in the last column. */
static void timeline_strip(ctx *c, int x0, int cw, int y, int strip_rows)
{
    const tui_snapshot *s = c->s;
    size_t n = s->n_timeline < (size_t)cw ? s->n_timeline : (size_t)cw;
    for (int col = 0; col < cw; col++) {
        size_t k = (size_t)col + n >= (size_t)cw ? (size_t)col + n - (size_t)cw : SIZE_MAX;
        uint32_t ch;
        tui_attr at;
        chan_glyph(c, k != SIZE_MAX ? (tui_chan)s->timeline[s->n_timeline - n + k] : TUI_CHAN_IDLE,
                   &ch, &at);
        for (int r = 0; r < strip_rows; r++)
            tui_put(c, x0 + col, y + r, ch, at);
    }
}

static void timeline_legend(ctx *c, int ly)
{
    static const struct {
        tui_chan ch;
        const char *what;
    } items[] = {{TUI_CHAN_FRAME, "frame"},
                 {TUI_CHAN_COLLISION, "collision (2+ signals)"},
                 {TUI_CHAN_JAM, "jam (32 bits)"},
                 {TUI_CHAN_IDLE, "idle"}};
    int lx = 1, w = c->g->w;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        uint32_t g;
        tui_attr a;
        chan_glyph(c, items[i].ch, &g, &a);
        tui_put(c, lx, ly, g, a);
        lx += 2;
        lx += tui_text(c, lx, ly, w - lx, items[i].what, TUI_A_PLAIN) + 3;
    }
}

void tui_draw_timeline(ctx *c, int y, int rows)
{
    int x0 = 1, cw = c->g->w - 2;
    int strip_rows = rows - 2 < 1 ? 1 : rows - 2;
    timeline_title(c, y, cw);
    timeline_strip(c, x0, cw, y + 1, strip_rows);
    timeline_legend(c, y + 1 + strip_rows);
}
