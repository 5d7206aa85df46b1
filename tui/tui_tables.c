/* tui_tables.c - the station table (state, attempt and counters of every
 * station, scrolled by the user, with fairness and capture below) and, on
 * tall terminals, the table of measured points sorted by N.
 *
 * Lost frames use `csmacd run`'s words, one word per counter: aborted
 * (given up after 16 collisions, aFramesAbortedDueToXSColls),
 * late-discarded (given up after a late collision) and dropped (lost to a
 * full queue). Below TABLE_WIDE_W columns the table has room for one of
 * them, aborted (the one a saturated sweep produces), and gives the two
 * others as totals under the rows. The table is at least 42 columns wide
 * (tui_layout.c), so these two forms are all there is.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>

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

bool tui_capture_effect(const tui_snapshot *s, uint32_t *top, double *share)
{
    /* The capture effect (one station, having won, resets its backoff
     * while the losers' windows grow, so it keeps winning) is named on
     * screen when all of these hold for the run being watched:
     *   - its throughput S is above the model's at this N (Metcalfe-Boggs
     *     assumes every station equally likely to send: capture beats it);
     *   - one station sent more than half of the bits delivered (share >
     *     TUI_CAPTURE_SHARE);
     *   - Jain's fairness index is below TUI_CAPTURE_JAIN (1 is equal
     *     shares, 1/N one station with everything).
     * A class asks why the measure beats the model: this is the answer. */
    if (s->n_rows < 2 || !s->rows || isnan(s->jain) || s->jain >= TUI_CAPTURE_JAIN)
        return false;
    double model = ref_at(s, s->n_stations);
    if (isnan(model) || !(s->throughput > model))
        return false;
    size_t best = 0;
    for (size_t i = 1; i < s->n_rows; i++)
        if (s->rows[i].share > s->rows[best].share)
            best = i;
    if (!(s->rows[best].share > TUI_CAPTURE_SHARE))
        return false;
    *top = s->rows[best].index;
    *share = s->rows[best].share;
    return true;
}

typedef enum table_form {
    TABLE_MID,  /* aborted only; the other two as totals below */
    TABLE_WIDE, /* aborted, late-discarded, dropped */
} table_form;

#define TABLE_WIDE_W 81

/* Lines below the rows: key, totals, fairness, and the capture note. */
static int table_foot_lines(table_form f, bool capture)
{
    int n = f == TABLE_WIDE ? 2 : 4;
    if (capture)
        n += f == TABLE_WIDE ? 1 : 2;
    return n;
}

static void table_header(ctx *c, table_form f, int x, int y, int w)
{
    char hdr[160];
    if (f == TABLE_WIDE)
        snprintf(hdr, sizeof hdr, "%4s %-18s %7s %7s %7s %7s %10s %7s %6s", "#", "state",
                 "attempt", "sent OK", "collis.", "aborted", "late-disc.", "dropped", "share");
    else
        snprintf(hdr, sizeof hdr, "%3s %-10s %3s %5s %5s %5s %5s", "#", "state", "try", "ok",
                 "coll", "abort", "share");
    tui_text(c, x, y, w, hdr, TUI_A_AXIS);
}

/* The state as the table shows it, in at most `room` columns: a backoff
 * with its slots left (up to 1023 at the tenth attempt and after). */
static void state_text(const tui_station_row *r, bool wide, int room, char *st, size_t len)
{
    unsigned long long left = (unsigned long long)r->backoff_slots_left;
    if (r->state != TUI_ST_BACKOFF)
        snprintf(st, len, "%s", tui_state_word(r->state));
    else if (wide)
        snprintf(st, len, "backoff %llu slots", left);
    else if (snprintf(st, len, "backoff %llu", left) > room)
        snprintf(st, len, "bkoff %llu", left);
}

static void table_row(ctx *c, table_form f, const tui_station_row *r, int x, int y, int w)
{
    char st[32], ok[16], co[16], ab[16], ld[16], dr[16], sh[16], att[16], line[200];
    int room = f == TABLE_WIDE ? 18 : 10;
    state_text(r, f == TABLE_WIDE, room, st, sizeof st);
    tui_fmt_count(r->successes, ok, sizeof ok);
    tui_fmt_count(r->collisions, co, sizeof co);
    tui_fmt_count(r->aborted, ab, sizeof ab);
    tui_fmt_count(r->late_discarded, ld, sizeof ld);
    tui_fmt_count(r->dropped, dr, sizeof dr);
    if (r->share >= 0.9995)
        snprintf(sh, sizeof sh, "100%%");
    else
        snprintf(sh, sizeof sh, "%.1f%%", r->share * 100.0);
    if (r->attempt)
        snprintf(att, sizeof att, "%u", r->attempt);
    else
        snprintf(att, sizeof att, "-");
    unsigned num = r->index + 1;
    if (f == TABLE_WIDE)
        snprintf(line, sizeof line, "%4u %-18s %7s %7s %7s %7s %10s %7s %6s", num, "", att, ok,
                 co, ab, ld, dr, sh);
    else
        snprintf(line, sizeof line, "%3u %-10s %3s %5s %5s %5s %5s", num, "", att, ok, co, ab,
                 sh);
    tui_text(c, x, y, w, line, TUI_A_PLAIN);
    int sx = f == TABLE_WIDE ? x + 5 : x + 4;
    tui_text(c, sx, y, room, st, tui_state_attr(r->state));
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

static void table_capture_note(ctx *c, table_form f, int x, int y, int w)
{
    uint32_t top;
    double share;
    char line[160];
    if (!tui_capture_effect(c->s, &top, &share))
        return;
    if (f == TABLE_WIDE) {
        snprintf(line, sizeof line,
                 "Capture effect: S above the model, station %u sent %.0f%% of the bits, "
                 "Jain %.2f",
                 top + 1, share * 100.0, c->s->jain);
        tui_text(c, x, y, w, line, TUI_A_WARN);
        return;
    }
    tui_text(c, x, y, w, "Capture effect: S above the model,", TUI_A_WARN);
    snprintf(line, sizeof line, "station %u sent %.0f%% of the bits, Jain %.2f", top + 1,
             share * 100.0, c->s->jain);
    tui_text(c, x, y + 1, w, line, TUI_A_WARN);
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
        y += f == TABLE_WIDE ? 1 : 2;
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
    snprintf(foot, sizeof foot, "backoff: slots left, 1 slot = %s", slot);
    tui_text(c, x, y, w, foot, TUI_A_DIM);
    table_lost_totals(c, x, y + 1, w);
    snprintf(foot, sizeof foot, "Jain fairness %s, capture run %llu max", jain,
             (unsigned long long)s->capture_max_run);
    tui_text(c, x, y + 3, w, foot, TUI_A_PLAIN);
}

void tui_draw_stations(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    table_form f = w >= TABLE_WIDE_W ? TABLE_WIDE : TABLE_MID;
    uint32_t top;
    double share;
    bool capture = tui_capture_effect(s, &top, &share);
    int foot = table_foot_lines(f, capture);
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
    table_header(c, f, x, y + 1, w);
    for (size_t k = 0; k < shown; k++)
        table_row(c, f, &s->rows[first + k], x, y + 2 + (int)k, w);
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
