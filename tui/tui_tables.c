/* tui_tables.c - the station table (state, attempt and counters of every
 * station, scrolled by the user, with fairness and capture below) and, on
 * tall terminals, the table of measured points sorted by N.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>

void tui_draw_stations(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    bool drops = w >= 42, wide = w >= 64;
    int body = h - (wide ? 3 : 5); /* title, header, footer lines */
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
    if (shown < n)
        snprintf(title, sizeof title, "Stations (N = %u), %zu%s%zu of %zu %s%s",
                 s->n_stations, first + 1, c->gl->dash, first + shown, n,
                 c->unicode ? "\xe2\x86\x91\xe2\x86\x93" : "Up/Dn", wide ? " to scroll" : "");
    else
        snprintf(title, sizeof title, "Stations (N = %u)", s->n_stations);
    tui_text(c, x, y, w, title, TUI_A_TITLE);

    char hdr[160];
    if (wide)
        snprintf(hdr, sizeof hdr, "%4s %-18s %7s %7s %7s %7s %6s", "#", "state", "attempt",
                 "sent OK", "collis.", "dropped", "share");
    else if (drops)
        snprintf(hdr, sizeof hdr, "%3s %-11s %3s %5s %5s %4s %5s", "#", "state", "try", "ok",
                 "coll", "drop", "share");
    else
        snprintf(hdr, sizeof hdr, "%3s %-11s %3s %5s %5s %5s", "#", "state", "try", "ok",
                 "coll", "share");
    tui_text(c, x, y + 1, w, hdr, TUI_A_AXIS);

    for (size_t k = 0; k < shown; k++) {
        const tui_station_row *r = &s->rows[first + k];
        char st[32], ok[16], co[16], dr[16], sh[16], line[200];
        if (r->state == TUI_ST_BACKOFF)
            snprintf(st, sizeof st, wide ? "backoff %llu slots" : "backoff %llu",
                     (unsigned long long)r->backoff_slots_left);
        else
            snprintf(st, sizeof st, "%s", tui_state_word(r->state));
        tui_fmt_count(r->successes, ok, sizeof ok);
        tui_fmt_count(r->collisions, co, sizeof co);
        tui_fmt_count(r->drops, dr, sizeof dr);
        if (r->share >= 0.9995)
            snprintf(sh, sizeof sh, "100%%");
        else
            snprintf(sh, sizeof sh, "%.1f%%", r->share * 100.0);
        char att[16];
        if (r->attempt)
            snprintf(att, sizeof att, "%u", r->attempt);
        else
            snprintf(att, sizeof att, "-");
        int yy = y + 2 + (int)k;
        if (wide) {
            snprintf(line, sizeof line, "%4u %-18s %7s %7s %7s %7s %6s", r->index + 1, "", att,
                     ok, co, dr, sh);
            tui_text(c, x, yy, w, line, TUI_A_PLAIN);
            tui_text(c, x + 5, yy, 18, st, tui_state_attr(r->state));
        } else {
            if (drops)
                snprintf(line, sizeof line, "%3u %-11s %3s %5s %5s %4s %5s", r->index + 1, "",
                         att, ok, co, dr, sh);
            else
                snprintf(line, sizeof line, "%3u %-11s %3s %5s %5s %5s", r->index + 1, "", att,
                         ok, co, sh);
            tui_text(c, x, yy, w, line, TUI_A_PLAIN);
            tui_text(c, x + 4, yy, 11, st, tui_state_attr(r->state));
        }
    }
    char foot[160], jain[16];
    /* Undefined (NAN) until something has been delivered. */
    if (isnan(s->jain))
        snprintf(jain, sizeof jain, "-");
    else
        snprintf(jain, sizeof jain, "%.3f", s->jain);
    if (wide) {
        snprintf(foot, sizeof foot,
                 "Jain fairness %s (1 = equal shares)  capture: run %.1f mean, %llu max",
                 jain, s->capture_mean_run, (unsigned long long)s->capture_max_run);
        tui_text(c, x, y + h - 1, w, foot, TUI_A_PLAIN);
    } else {
        char slot[32];
        tui_fmt_dur(c, s->slot_s, slot, sizeof slot);
        snprintf(foot, sizeof foot, "backoff: slots left, 1 slot = %s", slot);
        tui_text(c, x, y + h - 3, w, foot, TUI_A_DIM);
        snprintf(foot, sizeof foot, "Jain fairness %s (1 = fair)", jain);
        tui_text(c, x, y + h - 2, w, foot, TUI_A_PLAIN);
        snprintf(foot, sizeof foot, "capture run %.1f mean, %llu max", s->capture_mean_run,
                 (unsigned long long)s->capture_max_run);
        tui_text(c, x, y + h - 1, w, foot, TUI_A_PLAIN);
    }
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
    /* Sort indices by N (selection: the sweep has a few dozen points). */
    size_t idx[256];
    size_t n = s->n_points < 256 ? s->n_points : 256;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (s->points[idx[j]].n < s->points[idx[i]].n) {
                size_t t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
    int rows = h - 2;
    size_t first = n > (size_t)rows ? n - (size_t)rows : 0;
    for (size_t k = first; k < n; k++) {
        const tui_point *pt = &s->points[idx[k]];
        char model[16] = "-", dur[32], ci[32];
        if (s->n_ref > 0 && s->show_ref) {
            /* The reference at this N, interpolated. */
            for (size_t i = 0; i + 1 < s->n_ref; i++)
                if (s->ref[i].n <= pt->n && s->ref[i + 1].n >= pt->n) {
                    double f = s->ref[i + 1].n > s->ref[i].n
                                 ? (pt->n - s->ref[i].n) / (s->ref[i + 1].n - s->ref[i].n)
                                 : 0;
                    snprintf(model, sizeof model, "%.3f",
                             s->ref[i].s + f * (s->ref[i + 1].s - s->ref[i].s));
                    break;
                }
        }
        snprintf(dur, sizeof dur, "%.1f s", pt->sim_s);
        snprintf(ci, sizeof ci, "%s%.3f", c->gl->pm, pt->s_ci95);
        char line[200];
        snprintf(line, sizeof line, "%5u  %6.3f  %7s  %8.3f  %10.2f  %6s  %8s", pt->n, pt->s, ci,
                 pt->s * s->rate_bps / 1e6, pt->coll_per_frame, model, dur);
        tui_text(c, x, y + 2 + (int)(k - first), w, line, TUI_A_PLAIN);
    }
    if (n == 0)
        tui_text(c, x, y + 2, w, "(none yet: the first point is being measured)", TUI_A_DIM);
}
