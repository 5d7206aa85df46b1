/* tui_medium.c - the medium now and lately: the cable (or, for a star, the
 * hub's view of each drop cable) with each station's state and the signals
 * on it, and the strip of the channel at the probe, one column per cell of
 * simulated time, newest on the right.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void medium_title(ctx *c, int y)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char t[32], title[200];
    tui_fmt_clock(s, t, sizeof t);
    if (s->star)
        snprintf(title, sizeof title, "Hub: what each station hears at t = %s", t);
    else
        snprintf(title, sizeof title, "Bus (%g m): signals at t = %s", s->length_m, t);
    int tw = tui_text(c, 0, y, w, title, TUI_A_TITLE);
    const char *key = "   S send  J jam  b backoff  d defer  i idle";
    if (tw + tui_text_width(key) <= w)
        tui_text(c, tw, y, w - tw, key, TUI_A_DIM);
}

/* The cable, one column at a time: idle, one signal, a jam alone, or two
 * transmitters' signals overlapping (a collision). */
static void medium_cable(ctx *c, int x0, int cw, int cy)
{
    const tui_snapshot *s = c->s;
    for (int col = 0; col < cw; col++) {
        double a = (double)col / cw, b = (double)(col + 1) / cw;
        /* Distinct transmitters here: a signal's own pieces (frame and
         * jam, left and right) never make a collision. */
        int nsig = 0;
        uint32_t first = 0;
        bool body = false;
        for (size_t i = 0; i < s->n_spans; i++) {
            const tui_span *sp = &s->spans[i];
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
        int njam = nsig == 1 && !body;
        uint32_t ch = c->gl->cable;
        tui_attr at = TUI_A_IDLE;
        if (nsig >= 2) {
            ch = c->gl->cable_coll;
            at = TUI_A_COLLISION;
        } else if (nsig == 1 && njam == 1) {
            ch = c->gl->cable_jam;
            at = TUI_A_JAM;
        } else if (nsig == 1) {
            ch = c->gl->cable_sig;
            at = TUI_A_FRAME;
        }
        tui_put(c, x0 + col, cy, ch, at);
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

/* Station numbers above the letters: always the leftmost and the rightmost
 * station (the ends of the cable, 1 and N when evenly spaced), and between
 * them every one that leaves a blank column to its neighbours, from the
 * left. So a crowded bus still says where its numbering runs. */
static void medium_numbers(ctx *c, int x0, int cw, int y)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    if (s->n_rows == 0)
        return;
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < s->n_rows; i++) {
        int col = station_col(s, i, cw);
        if (col < station_col(s, lo, cw))
            lo = i;
        if (col > station_col(s, hi, cw))
            hi = i;
    }
    int lw, hw;
    int lx = number_x(s, lo, x0, cw, w, &lw), hx = number_x(s, hi, x0, cw, w, &hw);
    put_number(c, s, lo, lx, y);
    if (hi == lo || hx <= lx + lw)
        return;
    put_number(c, s, hi, hx, y);
    /* Between: in order of column; stations sharing a column show the
     * first one's number. */
    int end = lx + lw;
    for (int col = 0; col < cw; col++) {
        for (size_t i = 0; i < s->n_rows; i++) {
            if (i == lo || i == hi || station_col(s, i, cw) != col)
                continue;
            int nw, nx = number_x(s, i, x0, cw, w, &nw);
            if (nx > end && nx + nw < hx) {
                put_number(c, s, i, nx, y);
                end = nx + nw;
            }
            break;
        }
    }
}

void tui_draw_medium(ctx *c, int y, int rows)
{
    int x0 = 1, cw = c->g->w - 2;
    int cy = y + rows - 1, my = cy - 1;
    medium_title(c, y);
    medium_cable(c, x0, cw, cy);
    medium_stations(c, x0, cw, my);
    if (rows >= 4)
        medium_numbers(c, x0, cw, my - 1);
}

void tui_draw_timeline(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    int x0 = 1, cw = w - 2;
    size_t n = s->n_timeline < (size_t)cw ? s->n_timeline : (size_t)cw;
    char cell[32], span[32], title[200];
    tui_fmt_dur(c, s->cell_s, cell, sizeof cell);
    tui_fmt_dur(c, s->cell_s * (double)cw, span, sizeof span);
    bool slot = s->slot_s > 0 && fabs(s->cell_s - s->slot_s) < 1e-15;
    snprintf(title, sizeof title, "Channel at the probe, last %s (1 column = %s%s), now %s",
             span, cell, slot ? " = 1 slot" : "",
             c->unicode ? "\xe2\x86\x92|" : "->|");
    tui_text(c, 0, y, w, title, TUI_A_TITLE);
    int strip_rows = rows - 2;
    if (strip_rows < 1)
        strip_rows = 1;
    for (int col = 0; col < cw; col++) {
        /* Right-aligned: the newest cell in the last column. */
        size_t k = (size_t)col + n >= (size_t)cw ? (size_t)col + n - (size_t)cw : SIZE_MAX;
        uint32_t ch = c->gl->chan_idle;
        tui_attr at = TUI_A_IDLE;
        if (k != SIZE_MAX) {
            size_t idx = s->n_timeline - n + k;
            switch ((tui_chan)s->timeline[idx]) {
            case TUI_CHAN_FRAME:
                ch = c->gl->chan_frame;
                at = TUI_A_FRAME;
                break;
            case TUI_CHAN_JAM:
                ch = c->gl->chan_jam;
                at = TUI_A_JAM;
                break;
            case TUI_CHAN_COLLISION:
                ch = c->gl->chan_coll;
                at = TUI_A_COLLISION;
                break;
            case TUI_CHAN_IDLE:
                break;
            }
        }
        for (int r = 0; r < strip_rows; r++)
            tui_put(c, x0 + col, y + 1 + r, ch, at);
    }
    /* Legend. */
    int ly = y + 1 + strip_rows, lx = 1;
    struct {
        uint32_t g;
        tui_attr a;
        const char *what;
    } items[] = {{c->gl->chan_frame, TUI_A_FRAME, "frame"},
                 {c->gl->chan_coll, TUI_A_COLLISION, "collision (2+ signals)"},
                 {c->gl->chan_jam, TUI_A_JAM, "jam (32 bits)"},
                 {c->gl->chan_idle, TUI_A_IDLE, "idle"}};
    for (size_t i = 0; i < 4; i++) {
        tui_put(c, lx, ly, items[i].g, items[i].a);
        lx += 2;
        lx += tui_text(c, lx, ly, w - lx, items[i].what, TUI_A_PLAIN) + 3;
    }
}
