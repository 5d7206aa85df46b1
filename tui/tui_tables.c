/* tui_tables.c - the station table (state, attempt and counters of every
 * station, scrolled by the user, with fairness and capture below) and, on
 * tall terminals, the table of measured points sorted by N.
 *
 * Lost frames use `csmacd run`'s words, one word per counter: aborted
 * (given up after 16 collisions, aFramesAbortedDueToXSColls),
 * late-discarded (given up after a late collision) and dropped (lost to a
 * full queue). The narrow (mid) form has room for one of them, aborted
 * (the one a saturated sweep produces), and gives the two others as totals
 * under the rows; the wide form, from table_width(TABLE_WIDE) columns on,
 * has a column for each. The columns are table_cols below; the layout
 * gives the table at least tui_table_min_width() columns.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The reference model at n, interpolated; NAN outside the curve. */
static double ref_at(const tui_snapshot *s, double n)
{
    for (size_t i = 0; i + 1 < s->n_ref; i++)
        if (s->ref[i].n <= n && s->ref[i + 1].n >= n) {
            double span = s->ref[i + 1].n - s->ref[i].n;
            double f = span > 0 ? (n - s->ref[i].n) / span : 0;
            return s->ref[i].s + f * (s->ref[i + 1].s - s->ref[i].s);
        }
    return NAN;
}

/* S at the watched N with its interval, from enough batches: the point
 * being measured, or the one recorded there once measuring is over. */
static bool measured_s(const tui_snapshot *s, double *v, double *ci)
{
    if (s->measuring) {
        if (!s->has_current || s->current.n != s->n_stations || s->current.s_ci95 < 0 ||
            s->batches < s->min_batches)
            return false;
        *v = s->current.s;
        *ci = s->current.s_ci95;
        return true;
    }
    for (size_t i = 0; i < s->n_points; i++)
        if (s->points[i].n == s->n_stations && s->points[i].s_ci95 >= 0) {
            *v = s->points[i].s;
            *ci = s->points[i].s_ci95;
            return true;
        }
    return false;
}

bool tui_capture_effect(const tui_snapshot *s, tui_capture *out)
{
    /* The capture effect: one station, having won, resets its backoff
     * while the losers' windows grow, so it keeps winning, and the
     * channel wastes less than Metcalfe-Boggs, which assumes every station
     * equally likely to send. The rule is in tui_layout.h. */
    if (s->n_rows < 2 || !s->rows || isnan(s->jain) || s->jain >= TUI_CAPTURE_JAIN ||
        !s->show_ref)
        return false;
    double model = ref_at(s, s->n_stations), v, ci;
    if (isnan(model) || !measured_s(s, &v, &ci) || !(v - ci > model))
        return false;
    uint64_t frames = 0;
    size_t best = 0;
    for (size_t i = 0; i < s->n_rows; i++) {
        frames += s->rows[i].successes;
        if (s->rows[i].share > s->rows[best].share)
            best = i;
    }
    if (frames < TUI_CAPTURE_MIN_FRAMES)
        return false;
    double p = s->rows[best].share;
    double run = s->capture_mean_run > 1 ? s->capture_mean_run : 1;
    if (!(p - 1.96 * sqrt(p * (1 - p) * run / (double)frames) > TUI_CAPTURE_SHARE))
        return false;
    *out = (tui_capture){.top = s->rows[best].index, .share = p, .n = s->n_stations, .s = v,
                         .s_ci95 = ci, .model = model, .frames = frames};
    return true;
}

typedef enum table_form {
    TABLE_MID,  /* aborted only; the other two as totals below */
    TABLE_WIDE, /* aborted, late-discarded, dropped */
} table_form;

/* ------------------------------------------------------------------ */
/* The columns. One entry per column, in order; a column is in a form when
 * it has a header there. A new column (a station's group, say) is one more
 * cell function and one more entry: the header, the rows and the width of
 * each form follow from this table. */

typedef void (*cell_fn)(const tui_station_row *r, char *buf, size_t len);

static void cell_number(const tui_station_row *r, char *b, size_t n)
{
    snprintf(b, n, "%u", r->index + 1);
}

/* One word per state, the same on every row (tui_state_word); the slots
 * left of a backoff have a column of their own. */
static void cell_state(const tui_station_row *r, char *b, size_t n)
{
    snprintf(b, n, "%s", tui_state_word(r->state));
}

static void cell_wait(const tui_station_row *r, char *b, size_t n)
{
    if (r->state == TUI_ST_BACKOFF)
        snprintf(b, n, "%llu", (unsigned long long)r->backoff_slots_left);
    else
        b[0] = '\0';
}

/* The attempt under way (or next, while deferring or backing off) as an
 * ordinal, "1st", "3rd", "16th": it reads as which try this is, not as a
 * count of tries made (a station on its 1st has made none). */
static void cell_attempt(const tui_station_row *r, char *b, size_t n)
{
    uint32_t a = r->attempt;
    const char *suffix = (a % 100 >= 11 && a % 100 <= 13) ? "th"
                         : a % 10 == 1                    ? "st"
                         : a % 10 == 2                    ? "nd"
                         : a % 10 == 3                    ? "rd"
                                                          : "th";
    if (a)
        snprintf(b, n, "%u%s", a, suffix);
    else
        snprintf(b, n, "-");
}

static void cell_ok(const tui_station_row *r, char *b, size_t n)
{
    tui_fmt_count(r->successes, b, n);
}

static void cell_coll(const tui_station_row *r, char *b, size_t n)
{
    tui_fmt_count(r->collisions, b, n);
}

static void cell_aborted(const tui_station_row *r, char *b, size_t n)
{
    tui_fmt_count(r->aborted, b, n);
}

static void cell_late(const tui_station_row *r, char *b, size_t n)
{
    tui_fmt_count(r->late_discarded, b, n);
}

static void cell_dropped(const tui_station_row *r, char *b, size_t n)
{
    tui_fmt_count(r->dropped, b, n);
}

static void cell_group(const tui_station_row *r, char *b, size_t n)
{
    snprintf(b, n, "%s", r->group ? r->group : "");
}

static void cell_segment(const tui_station_row *r, char *b, size_t n)
{
    snprintf(b, n, "%s", r->segment ? r->segment : "");
}

static void cell_share(const tui_station_row *r, char *b, size_t n)
{
    if (r->share >= 0.9995)
        snprintf(b, n, "100%%");
    else
        snprintf(b, n, "%.1f%%", r->share * 100.0);
}

typedef struct table_col {
    const char *head[2]; /* by table_form; NULL: not in that form */
    int width[2];
    bool left;           /* text, left-aligned (numbers go right) */
    bool state_attr;     /* drawn in the colour of the station's state */
    cell_fn cell;
    bool groups_only;    /* only when the scenario has groups */
    bool segments_only;  /* only with a network of segments */
    int drop;            /* when the table is too narrow, the columns go whole,
                            1 first (their totals stay below); 0: never */
} table_col;

/* Which optional columns a table has; above COLS_DROP_SHIFT, how many
 * of the droppable columns are left out (table_fit). */
enum { COLS_GROUPS = 1, COLS_SEGMENTS = 2, COLS_DROP_SHIFT = 4, COLS_DROP_MAX = 3 };

static unsigned table_opts(const tui_snapshot *s)
{
    return (s->n_groups > 0 ? COLS_GROUPS : 0u) | (s->n_segments > 0 ? COLS_SEGMENTS : 0u);
}

static bool col_in(const table_col *col, table_form f, unsigned opts)
{
    return col->head[f] && (opts & COLS_GROUPS || !col->groups_only) &&
           (opts & COLS_SEGMENTS || !col->segments_only) &&
           !(col->drop > 0 && (unsigned)col->drop <= opts >> COLS_DROP_SHIFT);
}

static const table_col table_cols[] = {
    {{"#", "#"}, {3, 4}, false, false, cell_number, false, false, 0},
    {{"group", "group"}, {5, 8}, true, false, cell_group, true, false, 0},
    {{"segm.", "segment"}, {5, 8}, true, false, cell_segment, false, true, 0},
    {{"state", "state"}, {7, 7}, true, true, cell_state, false, false, 0},
    {{"wait", "slots left"}, {4, 10}, false, false, cell_wait, false, false, 0},
    {{"try", "attempt"}, {4, 7}, false, false, cell_attempt, false, false, 3},
    {{"ok", "sent OK"}, {5, 7}, false, false, cell_ok, false, false, 0},
    {{"coll", "collis."}, {5, 7}, false, false, cell_coll, false, false, 0},
    {{"abort", "aborted"}, {5, 7}, false, false, cell_aborted, false, false, 2},
    {{NULL, "late-disc."}, {0, 10}, false, false, cell_late, false, false, 0},
    {{NULL, "dropped"}, {0, 7}, false, false, cell_dropped, false, false, 0},
    {{"share", "share"}, {5, 6}, false, false, cell_share, false, false, 1},
};
#define N_TABLE_COLS (sizeof table_cols / sizeof table_cols[0])

/* A form's width: its columns and one space between each two. */
static int table_width(table_form f, unsigned opts)
{
    int w = -1;
    for (size_t i = 0; i < N_TABLE_COLS; i++)
        if (col_in(&table_cols[i], f, opts))
            w += table_cols[i].width[f] + 1;
    return w;
}

int tui_table_min_width(void) { return table_width(TABLE_MID, 0); }

int tui_table_width_for(const tui_snapshot *s) { return table_width(TABLE_MID, table_opts(s)); }

/* Lines below the rows: key, totals, fairness, and the capture note. */
static int table_foot_lines(table_form f, bool capture, bool groups)
{
    int n = f == TABLE_WIDE ? 2 : 4;
    if (capture)
        n += 3;
    return n + (groups ? 1 : 0);
}

/* Each group's share of the bits, on one line: "share by group: rogue
 * (1) 100%, good* (15) 0%", the group N grows starred; without the
 * station counts when the table is narrow. */
static void table_groups(ctx *c, int x, int y, int w)
{
    const tui_snapshot *s = c->s;
    char line[256];
    for (int counts = 1; counts >= 0; counts--) {
        size_t used = (size_t)snprintf(line, sizeof line, counts ? "share by group:" : "groups:");
        for (size_t i = 0; i < s->n_groups && used < sizeof line; i++) {
            const tui_group *g = &s->groups[i];
            char n[16] = "";
            if (counts)
                snprintf(n, sizeof n, " (%u)", g->stations);
            int k = snprintf(line + used, sizeof line - used, "%s %s%s%s %.0f%%", i ? "," : "",
                             g->name, g->grown ? "*" : "", n, g->share * 100.0);
            if (k < 0)
                break;
            used += (size_t)k;
        }
        if (tui_text_width(line) <= w)
            break;
    }
    tui_text(c, x, y, w, line, TUI_A_PLAIN);
}

/* One line of the table from its cells (or headers), each fitted to its
 * column; *at[i] is where column i starts (-1 when not in the form). */
static void table_line(table_form f, unsigned opts, const char *const *cells, char *line,
                       size_t len, int *at)
{
    size_t n = 0;
    line[0] = '\0';
    for (size_t i = 0; i < N_TABLE_COLS && n + 1 < len; i++) {
        const table_col *col = &table_cols[i];
        at[i] = -1;
        if (!col_in(col, f, opts))
            continue;
        int w = col->width[f];
        at[i] = (int)n + (n > 0);
        int k = snprintf(line + n, len - n, col->left ? "%s%-*.*s" : "%s%*.*s", n > 0 ? " " : "",
                         w, w, cells[i]);
        if (k < 0)
            break;
        n += (size_t)k < len - n ? (size_t)k : len - n - 1;
    }
}

/* The table's columns for w: the form's, less the droppable ones, whole
 * and in their order, until it fits (a column is never cut: "abor"). */
static unsigned table_fit(const tui_snapshot *s, table_form f, int w)
{
    unsigned opts = table_opts(s);
    for (unsigned k = 1; k <= COLS_DROP_MAX && table_width(f, opts) > w; k++)
        opts = table_opts(s) | k << COLS_DROP_SHIFT;
    return opts;
}

static void table_header(ctx *c, table_form f, unsigned opts, int x, int y, int w)
{
    const char *heads[N_TABLE_COLS];
    int at[N_TABLE_COLS];
    char line[200];
    for (size_t i = 0; i < N_TABLE_COLS; i++)
        heads[i] = table_cols[i].head[f] ? table_cols[i].head[f] : "";
    table_line(f, opts, heads, line, sizeof line, at);
    tui_text(c, x, y, w, line, TUI_A_AXIS);
}

/* A name in at most w columns, told apart from every name of `all`:
 * whole when it fits, else its head, '~' and the shortest tail that keeps
 * it apart from the others so shortened ("east-r" and "east-b" in 5:
 * "eas~r" and "eas~b"; link10 among link1 .. link64: "li~10"), never two
 * that read the same. */
static void short_name(const char *name, const char *const *all, size_t n, int w, char *out,
                       size_t cap)
{
    size_t len = strlen(name);
    if ((int)len <= w || w < 3) {
        snprintf(out, cap, "%.*s", w, name);
        return;
    }
    for (int t = 1; t <= w - 2; t++) {
        int h = w - 1 - t;
        snprintf(out, cap, "%.*s~%s", h, name, name + len - (size_t)t);
        bool alone = true;
        for (size_t i = 0; i < n && alone; i++) {
            size_t l = strlen(all[i]);
            if (strcmp(all[i], name) == 0)
                continue;
            if ((int)l <= w)
                alone = strcmp(all[i], out) != 0;
            else
                alone = !(strncmp(all[i], name, (size_t)h) == 0 &&
                          strcmp(all[i] + l - (size_t)t, name + len - (size_t)t) == 0);
        }
        if (alone)
            return;
    }
}

/* The names a column tells apart: the groups', or the segments'. */
static size_t column_names(const tui_snapshot *s, cell_fn cell, const char **out, size_t cap)
{
    size_t n = 0;
    if (cell == cell_group)
        for (size_t i = 0; i < s->n_groups && n < cap; i++)
            out[n++] = s->groups[i].name;
    else if (cell == cell_segment)
        for (size_t i = 0; i < s->n_segments && n < cap; i++)
            out[n++] = s->segments[i].name;
    return n;
}

static void table_row(ctx *c, table_form f, unsigned opts, const tui_station_row *r, int x,
                      int y, int w)
{
    char cells[N_TABLE_COLS][32], line[200];
    const char *p[N_TABLE_COLS];
    int at[N_TABLE_COLS];
    for (size_t i = 0; i < N_TABLE_COLS; i++) { /* only the columns shown */
        cells[i][0] = '\0';
        if (col_in(&table_cols[i], f, opts))
            table_cols[i].cell(r, cells[i], sizeof cells[i]);
        p[i] = cells[i];
        const char *names[64];
        size_t n = column_names(c->s, table_cols[i].cell, names, 64);
        if (n > 0 && (int)strlen(cells[i]) > table_cols[i].width[f]) {
            char whole[32];
            snprintf(whole, sizeof whole, "%s", cells[i]);
            short_name(whole, names, n, table_cols[i].width[f], cells[i], sizeof cells[i]);
        }
    }
    table_line(f, opts, p, line, sizeof line, at);
    tui_text(c, x, y, w, line, TUI_A_PLAIN);
    for (size_t i = 0; i < N_TABLE_COLS; i++)
        if (table_cols[i].state_attr && at[i] >= 0 && at[i] < w)
            tui_text(c, x + at[i], y, w - at[i] < table_cols[i].width[f] ? w - at[i]
                                                                         : table_cols[i].width[f],
                     cells[i], tui_state_attr(r->state));
}

/* The frames lost as totals, in run's words, on two lines; the
 * parenthesis goes first when a line is short. */
static void table_lost_totals(ctx *c, int x, int y, int w)
{
    const tui_snapshot *s = c->s;
    char ab[16], ld[16], dr[16], line[96];
    tui_fmt_count(s->frames_aborted, ab, sizeof ab);
    tui_fmt_count(s->frames_late_discarded, ld, sizeof ld);
    tui_fmt_count(s->frames_dropped, dr, sizeof dr);
    snprintf(line, sizeof line, "lost: %s aborted (after 16 collisions),", ab);
    tui_text(c, x, y, w, line, TUI_A_PLAIN);
    snprintf(line, sizeof line, "%s late-discarded, %s dropped (queue full)", ld, dr);
    if (tui_text_width(line) > w)
        snprintf(line, sizeof line, "%s late-discarded, %s dropped", ld, dr);
    tui_text(c, x, y + 1, w, line, TUI_A_PLAIN);
}

/* The note names its evidence: S with its interval, the model's value it
 * is above and the curve's name (as in the plot's legend), the top
 * station's share, Jain's index and the frames it rests on. */
static void table_capture_note(ctx *c, table_form f, int x, int y, int w)
{
    tui_capture e;
    char l1[200], l2[200], l3[200];
    if (!tui_capture_effect(c->s, &e))
        return;
    const char *pm = c->gl->pm, *model = c->s->ref_label ? c->s->ref_label : "model";
    if (f == TABLE_WIDE) {
        snprintf(l1, sizeof l1, "Capture effect: S = %.3f %s %.3f (95%% CI) at N = %u,", e.s, pm,
                 e.s_ci95, e.n);
        snprintf(l2, sizeof l2, "above the %s curve's %.3f (the model on the plot);", model,
                 e.model);
        snprintf(l3, sizeof l3, "station %u sent %.0f%% of the bits, Jain %.2f, over %llu frames",
                 e.top + 1, e.share * 100.0, c->s->jain, (unsigned long long)e.frames);
    } else {
        snprintf(l1, sizeof l1, "Capture effect: S %.3f%s%.3f, above", e.s, pm, e.s_ci95);
        snprintf(l2, sizeof l2, "%s's %.3f at N = %u;", model, e.model, e.n);
        snprintf(l3, sizeof l3, "station %u sent %.0f%% of bits, Jain %.2f", e.top + 1,
                 e.share * 100.0, c->s->jain);
    }
    tui_text(c, x, y, w, l1, TUI_A_WARN);
    tui_text(c, x, y + 1, w, l2, TUI_A_WARN);
    tui_text(c, x, y + 2, w, l3, TUI_A_WARN);
}

static void table_foot(ctx *c, table_form f, bool capture, int x, int y, int w)
{
    const tui_snapshot *s = c->s;
    char foot[160], jain[16];
    /* Undefined (NAN) until something has been delivered. */
    if (isnan(s->jain))
        snprintf(jain, sizeof jain, "-");
    else
        snprintf(jain, sizeof jain, "%.3f", s->jain);
    if (capture) {
        table_capture_note(c, f, x, y, w);
        y += 3;
    }
    if (s->n_groups) {
        table_groups(c, x, y, w);
        y += 1;
    }
    if (f == TABLE_WIDE) {
        tui_text(c, x, y, w,
                 "aborted: after 16 collisions, late-disc.: after a late collision, "
                 "dropped: queue full",
                 TUI_A_DIM);
        snprintf(foot, sizeof foot,
                 "Jain fairness %s (1 = equal shares)  capture: run %.1f mean, %llu max", jain,
                 s->capture_mean_run, (unsigned long long)s->capture_max_run);
        tui_text(c, x, y + 1, w, foot, TUI_A_PLAIN);
        return;
    }
    char slot[32];
    tui_fmt_dur(c, s->slot_s, slot, sizeof slot);
    snprintf(foot, sizeof foot, "wait: backoff slots left, 1 slot = %s", slot);
    tui_text(c, x, y, w, foot, TUI_A_DIM);
    table_lost_totals(c, x, y + 1, w);
    snprintf(foot, sizeof foot, "Jain fairness %s, capture run %llu max", jain,
             (unsigned long long)s->capture_max_run);
    tui_text(c, x, y + 3, w, foot, TUI_A_PLAIN);
}

void tui_draw_stations(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    table_form f = w >= table_width(TABLE_WIDE, table_opts(s)) ? TABLE_WIDE : TABLE_MID;
    tui_capture evidence;
    bool capture = tui_capture_effect(s, &evidence);
    int foot = table_foot_lines(f, capture, s->n_groups > 0);
    int body = h - 2 - foot; /* title and header above */
    if (body < 1)
        return;
    size_t n = s->n_rows;
    size_t first = s->scroll;
    if (n <= (size_t)body)
        first = 0;
    else if (first > n - (size_t)body)
        first = n - (size_t)body;
    size_t shown = n - first < (size_t)body ? n - first : (size_t)body;
    c->g->table_rows = body;

    char title[128];
    bool wide = f == TABLE_WIDE;
    if (shown < n)
        snprintf(title, sizeof title, "Stations (N = %u), %zu%s%zu of %zu %s%s",
                 s->n_stations, first + 1, c->gl->dash, first + shown, n,
                 c->unicode ? "\xe2\x86\x91\xe2\x86\x93" : "Up/Dn", wide ? " to scroll" : "");
    else
        snprintf(title, sizeof title, "Stations (N = %u)", s->n_stations);
    tui_text(c, x, y, w, title, TUI_A_TITLE);
    unsigned opts = table_fit(s, f, w);
    table_header(c, f, opts, x, y + 1, w);
    for (size_t k = 0; k < shown; k++)
        table_row(c, f, opts, &s->rows[first + k], x, y + 2 + (int)k, w);
    table_foot(c, f, capture, x, y + h - foot, w);
}

/* Sorts indices of the points by N (selection: a sweep has a few dozen). */
static size_t points_by_n(const tui_snapshot *s, size_t *idx, size_t cap)
{
    size_t n = s->n_points < cap ? s->n_points : cap;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (s->points[idx[j]].n < s->points[idx[i]].n) {
                size_t t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
    return n;
}

/* A table of the measured points, for tall terminals. */
void tui_draw_points_table(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    if (h < 3)
        return;
    tui_text(c, x, y, w, "Measured points (sorted by N)", TUI_A_TITLE);
    char hdr[160];
    snprintf(hdr, sizeof hdr, "%5s  %6s  %7s  %8s  %10s  %6s  %8s", "N", "S", "95% CI", "Mb/s",
             "coll/frame", "model", "sim time");
    tui_text(c, x, y + 1, w, hdr, TUI_A_AXIS);
    size_t idx[256];
    size_t n = points_by_n(s, idx, 256);
    int rows = h - 2;
    size_t first = n > (size_t)rows ? n - (size_t)rows : 0;
    for (size_t k = first; k < n; k++) {
        const tui_point *pt = &s->points[idx[k]];
        char model[16] = "-", dur[32], ci[32] = "-";
        double m = s->show_ref ? ref_at(s, pt->n) : NAN;
        if (!isnan(m))
            snprintf(model, sizeof model, "%.3f", m);
        snprintf(dur, sizeof dur, "%.1f s", pt->sim_s);
        if (pt->s_ci95 >= 0)
            snprintf(ci, sizeof ci, "%s%.3f", c->gl->pm, pt->s_ci95);
        char line[200];
        snprintf(line, sizeof line, "%5u  %6.3f  %7s  %8.3f  %10.2f  %6s  %8s", pt->n, pt->s, ci,
                 pt->s * s->rate_bps / 1e6, pt->coll_per_frame, model, dur);
        tui_text(c, x, y + 2 + (int)(k - first), w, line, TUI_A_PLAIN);
    }
    if (n == 0)
        tui_text(c, x, y + 2, w, "(none yet: the first point is being measured)", TUI_A_DIM);
}
