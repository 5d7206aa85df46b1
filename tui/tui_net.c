/* tui_net.c - a network of segments (tui_snapshot.segments), drawn in
 * place of the one medium: a title, then two rows per segment.
 *
 *   backbone  i    S        i  d      uplink→lab      r1→annex
 *   coax 500 m───━━━━━━━━━━━━━━━━━━━━━━━┼─────────────────────────┼
 *
 * The first row names the segment and carries its stations' letters (as
 * the one medium's row does: S send, J jam, b backoff, d defer, i idle),
 * each at its place, and the label of each joint: the repeater's name (or
 * "uplink") and the segment(s) it leads to. The second row says what the
 * segment is (coax and its length, or a hub and its drop cables) and draws
 * the signals on it now, column by column: idle, one signal, a jam alone,
 * or two signals overlapping (a collision, whoever sends them: stations or
 * a repeater's relays). A joint is a cross in the cable, in the colour of
 * what is there. So a frame or a jam that a repeater passes on shows on
 * the next segment's row as it travels, a collision's jam included.
 * A hub's row is the hub's view, as the one star's: each station's and
 * port's place shows what arrives there through its drop cable.
 * When the rows do not all fit, the title says how many are shown.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The rows the network needs: the title and two per segment. */
int tui_net_rows(const tui_snapshot *s)
{
    return 1 + 2 * (int)s->n_segments;
}

static uint32_t joint_glyph(const ctx *c)
{
    return c->unicode ? 0x253C : '+';
}

/* The label column: the longest name or type text, at most LABEL_MAX. */
#define LABEL_MAX 14
static void type_text(const tui_segment *g, char *buf, size_t len)
{
    if (g->hub)
        snprintf(buf, len, "hub %g m", g->length_m);
    else
        snprintf(buf, len, "coax %g m", g->length_m);
}

static int label_width(const tui_snapshot *s, size_t shown)
{
    int w = 0;
    for (size_t k = 0; k < shown; k++) {
        char t[48];
        type_text(&s->segments[k], t, sizeof t);
        int a = tui_text_width(s->segments[k].name), b = tui_text_width(t);
        if (a > w)
            w = a;
        if (b > w)
            w = b;
    }
    w += 1;
    return w > LABEL_MAX ? LABEL_MAX : w;
}

static int col_of(double pos, int cw)
{
    if (pos < 0)
        pos = 0;
    if (pos > 1)
        pos = 1;
    return (int)lround(pos * (cw - 1));
}

/* The cable row: per column, the distinct senders whose signals are there
 * (a station or a joint's relay; one sender's pieces never collide). */
static void net_cable(ctx *c, const tui_segment *g, int x0, int cw, int y)
{
    tui_draw_cable(c, g->spans, g->n_spans, x0, cw, y);
    /* Joints: a cross, in the colour of what is there. */
    for (size_t j = 0; j < g->n_joints; j++) {
        int gx = x0 + col_of(g->joints[j].pos, cw);
        if (gx < 0 || gx >= c->g->w)
            continue;
        uint8_t at = c->g->cells[y * c->g->w + gx].attr;
        tui_put(c, gx, y, joint_glyph(c), TUI_A_IDLE);
        c->g->cells[y * c->g->w + gx].attr = at; /* already mapped */
    }
}

/* The segment's stations: one letter each; the busiest state wins a
 * shared column. */
static void net_stations(ctx *c, uint32_t seg, int x0, int cw, int y)
{
    const tui_snapshot *s = c->s;
    tui_grid *g = c->g;
    static const char rank[] = "idbBSJ";
    for (size_t i = 0; i < s->n_rows; i++) {
        const tui_station_row *r = &s->rows[i];
        if (r->seg != seg)
            continue;
        double pos = s->station_pos ? s->station_pos[i] : 0.5;
        int gx = x0 + col_of(pos, cw);
        if (gx < 0 || gx >= g->w)
            continue;
        uint32_t cur = g->cells[y * g->w + gx].ch;
        const char *pc = cur && cur < 128 ? strchr(rank, (int)cur) : NULL;
        const char *pn = strchr(rank, tui_state_letter(r->state));
        if (pc && pn && pn < pc)
            continue;
        tui_put(c, gx, y, (uint32_t)tui_state_letter(r->state), tui_state_attr(r->state));
    }
}

/* Whether the cells [x, x + w) of row y are blank and inside [lo, hi). */
static bool blank(const ctx *c, int x, int y, int w, int lo, int hi)
{
    if (x < lo || x + w > hi)
        return false;
    for (int i = 0; i < w; i++)
        if (c->g->cells[y * c->g->w + x + i].ch != ' ')
            return false;
    return true;
}

/* A joint's label beside its column, where no letter is: its repeater and
 * where it leads ("r1→annex"), else the repeater alone; right of the
 * joint, else left of it. */
static void net_joint_labels(ctx *c, const tui_segment *g, int x0, int cw, int y)
{
    for (size_t j = 0; j < g->n_joints; j++) {
        const tui_joint *jt = &g->joints[j];
        int col = x0 + col_of(jt->pos, cw);
        char full[96], shortl[48];
        snprintf(full, sizeof full, "%s%s%s", jt->label ? jt->label : "",
                 c->unicode ? "\xe2\x86\x92" : ">", jt->peer ? jt->peer : "");
        snprintf(shortl, sizeof shortl, "%s", jt->label ? jt->label : "");
        const char *cand[2] = {full, shortl};
        for (int k = 0; k < 2; k++) {
            int w = tui_text_width(cand[k]);
            if (w == 0)
                break;
            int x = -1;
            if (blank(c, col + 1, y, w + 1, x0, x0 + cw + 1))
                x = col + 1;
            else if (blank(c, col - w - 1, y, w + 1, x0, x0 + cw))
                x = col - w;
            if (x >= 0) {
                tui_text(c, x, y, w, cand[k], TUI_A_DIM);
                break;
            }
        }
    }
}

static void net_title(ctx *c, int y, size_t shown)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char t[32], title[200];
    tui_fmt_clock(s, t, sizeof t);
    if (shown < s->n_segments)
        snprintf(title, sizeof title, "Network (%zu of %zu segments shown) at t = %s", shown,
                 s->n_segments, t);
    else
        snprintf(title, sizeof title, "Network (%zu segments): signals at t = %s", s->n_segments,
                 t);
    int tw = tui_text(c, 0, y, w, title, TUI_A_TITLE);
    char joint[32];
    snprintf(joint, sizeof joint, "%s joint", c->unicode ? "\xe2\x94\xbc" : "+");
    const char *key = "   S send  J jam  b backoff  d defer  i idle  ";
    if (tw + tui_text_width(key) + tui_text_width(joint) <= w) {
        tw += tui_text(c, tw, y, w - tw, key, TUI_A_DIM);
        tui_text(c, tw, y, w - tw, joint, TUI_A_DIM);
    } else if (tw + 3 + tui_text_width(joint) <= w) { /* the joint's glyph at least */
        tui_text(c, tw + 3, y, w - tw - 3, joint, TUI_A_DIM);
    }
}

void tui_draw_net(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    size_t shown = rows > 1 ? (size_t)(rows - 1) / 2 : 0;
    if (shown > s->n_segments)
        shown = s->n_segments;
    net_title(c, y, shown);
    if (shown == 0)
        return;
    int lw = label_width(s, shown);
    int x0 = lw, cw = c->g->w - lw - 1;
    if (cw < 2)
        return;
    for (size_t k = 0; k < shown; k++) {
        const tui_segment *g = &s->segments[k];
        int ya = y + 1 + 2 * (int)k, yb = ya + 1;
        char t[48];
        type_text(g, t, sizeof t);
        tui_text(c, 0, ya, lw - 1, g->name, TUI_A_TITLE);
        tui_text(c, 0, yb, lw - 1, t, TUI_A_DIM);
        net_cable(c, g, x0, cw, yb);
        net_stations(c, (uint32_t)k, x0, cw, ya);
        net_joint_labels(c, g, x0, cw, ya);
    }
}
