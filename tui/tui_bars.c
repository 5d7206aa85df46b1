/* tui_bars.c - the lines across the whole screen: the header (the
 * scenario, the speed, PAUSED), the footer (the main keys, clickable) and
 * the status lines (the sweep point being measured, the run being watched).
 * Header fields are dropped whole, from the right, when the line is short.
 */
#include "tui_int.h"

#include <stdio.h>
#include <string.h>

void tui_draw_header(ctx *c)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char rate[32], right[96], left[3][256], len[48], speed[64];
    const char *sep = c->gl->sep;
    tui_fill(c, 0, 0, w, ' ', TUI_A_HEADER);
    tui_fmt_rate(s->rate_bps, rate, sizeof rate);
    snprintf(len, sizeof len, s->star ? "star hub, %g m drops" : "bus %g m", s->length_m);
    const char *phy = s->phy_name ? s->phy_name : "?";
    const char *tr = s->traffic ? s->traffic : "?";
    const char *pol = s->policy ? s->policy : "?";
    unsigned long long seed = (unsigned long long)s->seed;
    snprintf(left[0], sizeof left[0], " csmacd%s%s %s %s%s%s%s%u-byte frames%sbackoff %s%sseed %llu",
             sep, phy, rate, len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
    snprintf(left[1], sizeof left[1], " csmacd%s%s %s %s%s%s%s%u B%s%s%sseed %llu", sep, phy,
             rate, len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
    snprintf(left[2], sizeof left[2], " %s %s %s%s%s%s%u B%s%s%sseed %llu", phy, rate, len, sep,
             tr, sep, s->frame_bytes, sep, pol, sep, seed);
    tui_fmt_speed(c, s->speed, speed, sizeof speed);
    snprintf(right, sizeof right, "%s ", speed);
    int rw = tui_text_width(right);
    int pw = s->paused ? 8 : 0;
    int room = w - rw - pw - 1;
    const char *l = tui_text_width(left[0]) <= room ? left[0]
                  : tui_text_width(left[1]) <= room ? left[1]
                  : left[2]; /* without the program's name */
    /* Still too long: drop whole fields from the right, never half a one. */
    char cut[256];
    snprintf(cut, sizeof cut, "%s", l);
    while (tui_text_width(cut) > room) {
        char *last = NULL;
        for (char *q = strstr(cut, sep); q; q = strstr(q + 1, sep))
            last = q;
        if (!last)
            break;
        *last = '\0';
    }
    tui_text(c, 0, 0, room, cut, TUI_A_HEADER);
    tui_text(c, w - rw, 0, rw, right, TUI_A_HEADER);
    if (s->paused)
        tui_text(c, w - rw - pw, 0, pw, " PAUSED ", TUI_A_WARN);
}

void tui_draw_footer(ctx *c)
{
    static const struct {
        const char *key, *what;
        tui_command cmd;
        int prio; /* lower shows first when space is short */
    } items[] = {
        {"?", "help", TUI_CMD_HELP, 0},
        {"space", "pause", TUI_CMD_PAUSE, 0},
        {"s", "step", TUI_CMD_STEP_EVENT, 0},
        {"+", "station", TUI_CMD_MORE_STATIONS, 0},
        {"-", "station", TUI_CMD_FEWER_STATIONS, 0},
        {"<", "slower", TUI_CMD_SLOWER, 0},
        {">", "faster", TUI_CMD_FASTER, 0},
        {"r", "restart", TUI_CMD_RESTART, 1},
        {"c", "save CSV", TUI_CMD_SAVE_CSV, 2},
        {"q", "quit", TUI_CMD_QUIT, 0},
    };
    int y = c->g->h - 1, w = c->g->w;
    tui_fill(c, 0, y, w, ' ', TUI_A_PLAIN);
    /* Drop the least important items until the bar fits. */
    int maxprio = 2;
    for (;;) {
        int need = 0;
        for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
            if (items[i].prio <= maxprio)
                need += tui_text_width(items[i].key) + tui_text_width(items[i].what) + 3;
        if (need <= w || maxprio == 0)
            break;
        maxprio--;
    }
    int x = 0;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        if (items[i].prio > maxprio)
            continue;
        int x0 = x;
        x += tui_text(c, x, y, w - x, items[i].key, TUI_A_KEY);
        x += tui_text(c, x, y, w - x, " ", TUI_A_PLAIN);
        const char *what = items[i].cmd == TUI_CMD_PAUSE && c->s->paused ? "resume" : items[i].what;
        x += tui_text(c, x, y, w - x, what, TUI_A_PLAIN);
        tui_hot(c, x0, y, x - x0, items[i].cmd);
        x += 2;
    }
}

void tui_draw_status(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    const char *pm = c->gl->pm;
    char line[320], sweep[200], ev[16];
    tui_fmt_count(s->events, ev, sizeof ev);
    char ci[48] = "";
    if (s->throughput_ci95 >= 0)
        snprintf(ci, sizeof ci, " %s %.3f", pm, s->throughput_ci95);
    snprintf(line, sizeof line,
             "Run with N = %u: S = %.3f%s (%.2f Mb/s), %.2f collisions/frame, "
             "%llu frames dropped, %s events",
             s->n_stations, s->throughput, ci, s->throughput * s->rate_bps / 1e6,
             s->coll_per_frame, (unsigned long long)s->frames_dropped, ev);
    switch (s->phase) {
    case TUI_SWEEP_RUNNING:
        if (s->has_current && s->current.s > 0 && s->current.s_ci95 > 0)
            snprintf(sweep, sizeof sweep,
                     "Point %zu/%zu, N = %u: S = %.3f %s %.3f (%.2f Mb/s), CI %.1f%% of S "
                     "(target %g%%)",
                     s->sweep_index + 1, s->sweep_count, s->current.n, s->current.s, pm,
                     s->current.s_ci95, s->current.s * s->rate_bps / 1e6,
                     100.0 * s->current.s_ci95 / s->current.s, 100.0 * s->target_rel_ci);
        else
            snprintf(sweep, sizeof sweep,
                     "Point %zu/%zu, N = %u: measuring S in batches of simulated time...",
                     s->sweep_index + 1, s->sweep_count, s->n_stations);
        break;
    case TUI_SWEEP_MANUAL:
        if (s->has_current)
            snprintf(sweep, sizeof sweep,
                     "You chose N = %u: S = %.3f %s %.3f (%.2f Mb/s); r restarts the sweep",
                     s->n_stations, s->current.s, pm, s->current.s_ci95,
                     s->current.s * s->rate_bps / 1e6);
        else
            snprintf(sweep, sizeof sweep, "You chose N = %u (measured); r restarts the sweep",
                     s->n_stations);
        break;
    case TUI_SWEEP_DONE:
        snprintf(sweep, sizeof sweep,
                 "Sweep complete: %zu point%s. r restarts, + and - explore other N", s->n_points,
                 s->n_points == 1 ? "" : "s");
        break;
    }
    bool msg = s->message && *s->message;
    if (rows >= 2) {
        tui_text(c, 0, y, w, msg ? s->message : sweep, msg ? TUI_A_WARN : TUI_A_PLAIN);
        tui_text(c, 0, y + 1, w, line, TUI_A_PLAIN);
    } else {
        tui_text(c, 0, y, w, msg ? s->message : sweep, msg ? TUI_A_WARN : TUI_A_PLAIN);
    }
}
