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
 *
 * With bridges (a switch), each collision domain has a letter and a
 * colour: its segments' names carry the letter, their idle cable the
 * colour, and a legend says so. A bridge's port is a box in the cable
 * (not a repeater's cross), in the colour of what its MAC does (green
 * while it sends), labelled with its output queue as a bar and a count
 * against the queue's size ("switch ▕██  ▏ 3/64, 0 dropped"). When the
 * two rows per segment do not fit (a switch of 16 links at 80x24), each
 * segment takes one row, in as many columns as needed:
 *
 *   A link1  i──────▣▕█ ▏ 2   B link2  S━━━━━━▣▕  ▏ 0   C link3 ...
 *
 * its station's letter on the cable, the port's box and its queue.
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

static uint32_t bridge_glyph(const ctx *c)
{
    return c->unicode ? 0x25A3 : '@'; /* ASCII: '#' is a jam on the cable */
}

static const tui_bridge_port *joint_port(const tui_snapshot *s, const tui_joint *jt)
{
    if (jt->bridge == TUI_NO_BRIDGE || jt->bridge >= s->n_bridges ||
        jt->port >= s->bridges[jt->bridge].n_ports)
        return NULL;
    return &s->bridges[jt->bridge].ports[jt->port];
}

/* The bar's attribute: yellow while it holds frames, red when full. */
static tui_attr bar_attr(uint32_t len, uint32_t cap)
{
    return len >= cap ? TUI_A_COLLISION : len > 0 ? TUI_A_BACKOFF : TUI_A_IDLE;
}

/* A bar of w cells between edges (Unicode ▕ ▏, ASCII [ ]); returns the
 * columns drawn (w + 2). */
static int draw_bar(ctx *c, int x, int y, uint32_t len, uint32_t cap, int w)
{
    uint32_t cells[16];
    if (w > 16)
        w = 16;
    tui_queue_bar(len, cap, w, c->unicode, cells);
    tui_put(c, x, y, c->unicode ? 0x2595 : '[', TUI_A_DIM);
    for (int i = 0; i < w; i++)
        tui_put(c, x + 1 + i, y, cells[i], bar_attr(len, cap));
    tui_put(c, x + 1 + w, y, c->unicode ? 0x258F : ']', TUI_A_DIM);
    return w + 2;
}

/* The domain of a segment, when the network has bridges. */
static bool has_domains(const tui_snapshot *s)
{
    return s->n_domains > 0;
}

/* The label column: the longest name or type text, at most LABEL_MAX
 * (with bridges LABEL_MAX_BR: the domain's letter, "link 100 m full"). */
#define LABEL_MAX 14
#define LABEL_MAX_BR 18
static void type_text(const tui_segment *g, char *buf, size_t len)
{
    if (g->hub)
        snprintf(buf, len, "hub %g m", g->length_m);
    else if (g->link)
        snprintf(buf, len, "link %g m %s", g->length_m, g->full_duplex ? "full" : "half");
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
    if (has_domains(s)) { /* the domain's letter and a space first */
        w += 2;
        return w > LABEL_MAX_BR ? LABEL_MAX_BR : w;
    }
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
    if (has_domains(c->s) && c->colour) /* the idle cable in its domain's colour */
        for (int i = 0; i < cw; i++) {
            tui_cell *cell = &c->g->cells[y * c->g->w + x0 + i];
            if (x0 + i < c->g->w && cell->attr == TUI_A_IDLE)
                cell->attr = (uint8_t)tui_domain_attr(g->domain);
        }
    /* Joints: a cross, in the colour of what is there; a bridge's port a
     * box in the colour of what its MAC does. */
    for (size_t j = 0; j < g->n_joints; j++) {
        int gx = x0 + col_of(g->joints[j].pos, cw);
        if (gx < 0 || gx >= c->g->w)
            continue;
        const tui_bridge_port *bp = joint_port(c->s, &g->joints[j]);
        if (bp) {
            tui_put(c, gx, y, bridge_glyph(c),
                    bp->state == TUI_ST_IDLE ? TUI_A_TITLE : tui_state_attr(bp->state));
            continue;
        }
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

/* Whether a label fits at [x, x + w) of row y inside [lo, hi) with a
 * blank on each side (or the edge), so that it never touches a letter or
 * another label: "d uplink>lab", never "duplink>lab". */
static bool room(const ctx *c, int x, int y, int w, int lo, int hi)
{
    if (x < lo || x + w > hi)
        return false;
    int a = x > lo ? x - 1 : x, b = x + w < hi ? x + w + 1 : x + w;
    return blank(c, a, y, b - a, lo, hi);
}

/* Where a label w wide goes beside a joint at column col: right of it,
 * else left of it, else one column further either way (a station's
 * letter in the joint's column); -1 when there is no room. */
static int label_x(const ctx *c, int col, int y, int w, int lo, int hi)
{
    const int cand[4] = {col + 1, col - w, col + 2, col - w - 1};
    for (int k = 0; k < 4; k++)
        if (room(c, cand[k], y, w, lo, hi))
            return cand[k];
    return -1;
}

/* A joint's label beside its column, where no letter is: its repeater and
 * where it leads ("r1→annex"), else the repeater alone; right of the
 * joint, else left of it. */
/* A bridge port's label: its bridge, its queue as a bar and a count
 * against the queue's size, and its drops; shorter forms when it does
 * not fit. */
#define BAR_W 4
static void bridge_label(ctx *c, const tui_joint *jt, const tui_bridge_port *bp, int col, int y,
                         int x0, int cw)
{
    const tui_bridge *br = &c->s->bridges[jt->bridge];
    char drops[32], pre[48], post[64];
    tui_fmt_count(bp->dropped, drops, sizeof drops);
    for (int k = 0; k < 4; k++) {
        pre[0] = post[0] = '\0';
        if (k == 0)
            snprintf(pre, sizeof pre, "%s ", jt->label ? jt->label : "");
        if (k <= 1)
            snprintf(post, sizeof post, " %u/%u, %s dropped", bp->queue_len, br->queue, drops);
        else if (k == 2)
            snprintf(post, sizeof post, " %u/%u", bp->queue_len, br->queue);
        else
            snprintf(post, sizeof post, " %u", bp->queue_len);
        int w = tui_text_width(pre) + BAR_W + 2 + tui_text_width(post);
        int x = label_x(c, col, y, w, x0, x0 + cw + 1);
        if (x < 0)
            continue;
        x += tui_text(c, x, y, w, pre, TUI_A_DIM);
        x += draw_bar(c, x, y, bp->queue_len, br->queue, BAR_W);
        tui_text(c, x, y, w, post, TUI_A_DIM);
        return;
    }
}

static void net_joint_labels(ctx *c, const tui_segment *g, int x0, int cw, int y)
{
    for (size_t j = 0; j < g->n_joints; j++) {
        const tui_joint *jt = &g->joints[j];
        int col = x0 + col_of(jt->pos, cw);
        const tui_bridge_port *bp = joint_port(c->s, jt);
        if (bp) {
            bridge_label(c, jt, bp, col, y, x0, cw);
            continue;
        }
        char full[96], shortl[48];
        snprintf(full, sizeof full, "%s%s%s", jt->label ? jt->label : "",
                 c->unicode ? "\xe2\x86\x92" : ">", jt->peer ? jt->peer : "");
        snprintf(shortl, sizeof shortl, "%s", jt->label ? jt->label : "");
        const char *cand[2] = {full, shortl};
        for (int k = 0; k < 2; k++) {
            int w = tui_text_width(cand[k]);
            if (w == 0)
                break;
            int x = label_x(c, col, y, w, x0, x0 + cw + 1);
            if (x >= 0) {
                tui_text(c, x, y, w, cand[k], TUI_A_DIM);
                break;
            }
        }
    }
}

/* With bridges: how many domains, and a legend of what the drawing uses,
 * piece by piece while they fit. */
static void bridged_title(ctx *c, int y, size_t shown, const char *t)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char title[200], dom[64];
    size_t nd = s->n_domains;
    char last = tui_domain_letter((uint32_t)(nd ? nd - 1 : 0));
    snprintf(dom, sizeof dom, nd > 1 ? "%zu collision domains A%s%c" : "%zu collision domain A",
             nd, nd > 2 ? ".." : ",", last);
    if (shown < s->n_segments)
        snprintf(title, sizeof title, "Network at t = %s: %s (%zu of %zu segments shown)", t, dom,
                 shown, s->n_segments);
    else
        snprintf(title, sizeof title, "Network at t = %s: %s", t, dom);
    int tw = tui_text(c, 0, y, w, title, TUI_A_TITLE);
    /* The legend: a domain's colour and letter, the bridge port's box and
     * its queue's bar, the repeaters' joint when there are any, the
     * stations' letters. */
    bool rep = false;
    for (size_t k = 0; k < s->n_segments; k++)
        for (size_t j = 0; j < s->segments[k].n_joints; j++)
            rep |= s->segments[k].joints[j].bridge == TUI_NO_BRIDGE;
    /* Each piece whole or not at all: "its queu" would read as a typo. */
    static const char port_key[] = " bridge port", queue_key[] = " its queue";
    if (tw + 3 + 1 + tui_text_width(port_key) <= w) {
        tw += tui_text(c, tw, y, w - tw, "   ", TUI_A_DIM);
        tui_put(c, tw++, y, bridge_glyph(c), TUI_A_TITLE);
        tw += tui_text(c, tw, y, w - tw, port_key, TUI_A_DIM);
        if (tw + 1 + 4 + tui_text_width(queue_key) <= w) { /* a blank, the bar of 2 */
            tw += tui_text(c, tw, y, w - tw, " ", TUI_A_DIM);
            tw += draw_bar(c, tw, y, 1, 2, 2);
            tw += tui_text(c, tw, y, w - tw, queue_key, TUI_A_DIM);
        }
    }
    char joint[32];
    snprintf(joint, sizeof joint, "  %s repeater", c->unicode ? "\xe2\x94\xbc" : "+");
    if (rep && tw + tui_text_width(joint) <= w)
        tw += tui_text(c, tw, y, w - tw, joint, TUI_A_DIM);
    const char *key = "   S send  J jam  b backoff  d defer  i idle";
    if (tw + tui_text_width(key) <= w)
        tui_text(c, tw, y, w - tw, key, TUI_A_DIM);
}

static void net_title(ctx *c, int y, size_t shown)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char t[32], title[200];
    tui_fmt_clock(s, t, sizeof t);
    if (has_domains(s)) {
        bridged_title(c, y, shown, t);
        return;
    }
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

/* One row per segment, in columns (the two-row form does not fit): the
 * domain's letter, the name, the cable with its stations' letters and its
 * joints on it, and each bridge port's queue after it. */
#define COMPACT_MIN_W 22
static size_t net_compact(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int W = c->g->w;
    size_t n = s->n_segments;
    if (rows < 1 || n == 0)
        return 0;
    int cols = (int)((n + (size_t)rows - 1) / (size_t)rows);
    if (cols > W / COMPACT_MIN_W)
        cols = W / COMPACT_MIN_W;
    if (cols < 1)
        return 0;
    int colw = W / cols;
    size_t shown = (size_t)cols * (size_t)rows < n ? (size_t)cols * (size_t)rows : n;
    int nw = 0;
    for (size_t k = 0; k < shown; k++)
        if (tui_text_width(s->segments[k].name) > nw)
            nw = tui_text_width(s->segments[k].name);
    if (nw > 10)
        nw = 10;
    for (size_t k = 0; k < shown; k++) {
        const tui_segment *g = &s->segments[k];
        int x = (int)(k / (size_t)rows) * colw, yy = y + (int)(k % (size_t)rows);
        int end = x + colw - 1; /* one blank column between cells */
        char letter[2] = {tui_domain_letter(g->domain), '\0'};
        tui_text(c, x, yy, 1, letter, tui_domain_attr(g->domain));
        tui_text(c, x + 2, yy, nw, g->name, tui_domain_attr(g->domain));
        int x0 = x + 2 + nw + 1;
        /* the first bridge port's queue at the end: " ▕███▏ 12" */
        const tui_bridge_port *bp = NULL;
        uint32_t cap = 0;
        for (size_t j = 0; j < g->n_joints && !bp; j++)
            if ((bp = joint_port(s, &g->joints[j])) != NULL)
                cap = s->bridges[g->joints[j].bridge].queue;
        char cnt[16] = "", capt[16];
        if (bp) { /* as wide as the queue's size, so the columns line up */
            snprintf(capt, sizeof capt, "%u", cap);
            snprintf(cnt, sizeof cnt, "%*u", (int)strlen(capt), bp->queue_len);
        }
        int tail = bp ? 1 + 3 + 2 + 1 + tui_text_width(cnt) : 0;
        int cw = end - x0 - tail;
        if (cw < 3) {
            tail = 0;
            cw = end - x0;
        }
        if (cw < 2)
            continue;
        net_cable(c, g, x0, cw, yy);
        net_stations(c, (uint32_t)k, x0, cw, yy);
        if (bp && tail > 0) {
            int bx = x0 + cw + 1;
            bx += draw_bar(c, bx, yy, bp->queue_len, cap, 3);
            tui_text(c, bx + 1, yy, end - bx - 1, cnt, TUI_A_DIM);
        }
    }
    return shown;
}

void tui_draw_net(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    size_t shown = rows > 1 ? (size_t)(rows - 1) / 2 : 0;
    if (shown > s->n_segments)
        shown = s->n_segments;
    if (has_domains(s) && shown < s->n_segments) {
        /* With bridges (a switch of many links): one row each instead. */
        shown = net_compact(c, y + 1, rows - 1);
        net_title(c, y, shown);
        return;
    }
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
        if (has_domains(s)) { /* the domain's letter, then the name in its colour */
            char letter[2] = {tui_domain_letter(g->domain), '\0'};
            tui_text(c, 0, ya, 1, letter, tui_domain_attr(g->domain));
            tui_text(c, 2, ya, lw - 3, g->name, tui_domain_attr(g->domain));
            tui_text(c, 2, yb, lw - 3, t, TUI_A_DIM);
        } else {
            tui_text(c, 0, ya, lw - 1, g->name, TUI_A_TITLE);
            tui_text(c, 0, yb, lw - 1, t, TUI_A_DIM);
        }
        net_cable(c, g, x0, cw, yb);
        net_stations(c, (uint32_t)k, x0, cw, ya);
        net_joint_labels(c, g, x0, cw, ya);
    }
}
