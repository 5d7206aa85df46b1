/* tui_bars.c - the lines across the whole screen: the header (the
 * scenario, or its groups, the speed, PAUSED), the footer (the main keys, clickable) and
 * the status lines (the sweep point being measured, the run being watched).
 * Header fields are dropped whole, from the right, when the line is short.
 */
#include "tui_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* With groups, what each brings, from the longest form to the shortest:
 * 0 "rogue (1): none, saturated, 512 B", 1 "rogue (1): none", 2 "rogue 1"
 * (the groups then joined by ", "), 3 "2 groups". The group N grows is
 * starred, as in the station table. */
static void header_groups(const ctx *c, int form, char *out, size_t cap)
{
    const tui_snapshot *s = c->s;
    size_t used = 0;
    out[0] = '\0';
    if (form >= 3) {
        snprintf(out, cap, "%zu groups", s->n_groups);
        return;
    }
    for (size_t i = 0; i < s->n_groups && used < cap; i++) {
        const tui_group *g = &s->groups[i];
        const char *join = i == 0 ? "" : form == 2 ? ", " : c->gl->sep;
        const char *star = g->grown ? "*" : "";
        int k;
        if (form == 0)
            k = snprintf(out + used, cap - used, "%s%s%s (%u): %s, %s, %u B", join, g->name, star,
                         g->stations, g->policy ? g->policy : "?",
                         g->traffic ? g->traffic : "?", g->frame_bytes);
        else if (form == 1)
            k = snprintf(out + used, cap - used, "%s%s%s (%u): %s", join, g->name, star,
                         g->stations, g->policy ? g->policy : "?");
        else
            k = snprintf(out + used, cap - used, "%s%s%s %u", join, g->name, star, g->stations);
        if (k < 0)
            return;
        used += (size_t)k;
    }
}

void tui_draw_header(ctx *c)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char rate[32], right[96], left[6][512], len[48], speed[64];
    const char *sep = c->gl->sep;
    tui_fill(c, 0, 0, w, ' ', TUI_A_HEADER);
    tui_fmt_rate(s->rate_bps, rate, sizeof rate);
    if (s->switched)
        snprintf(len, sizeof len, "switch, %zu links %s duplex", s->n_segments,
                 s->n_segments && s->segments[0].full_duplex ? "full" : "half");
    else if (s->n_segments > 0)
        snprintf(len, sizeof len, "network of %zu segments", s->n_segments);
    else
        snprintf(len, sizeof len, s->star ? "star hub, %g m drops" : "bus %g m", s->length_m);
    const char *phy = s->phy_name ? s->phy_name : "?";
    const char *tr = s->traffic ? s->traffic : "?";
    const char *pol = s->policy ? s->policy : "?";
    unsigned long long seed = (unsigned long long)s->seed;
    size_t n_left = 0;
    if (s->n_groups > 0) {
        /* Each group has its own traffic, frames and policy: the header
         * shows the groups instead of the scenario's own. */
        static const struct { bool name; int form; } forms[] = {
            {true, 0}, {false, 0}, {true, 1}, {false, 1}, {false, 2}, {false, 3}};
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
            char groups[400], lead[32];
            header_groups(c, forms[i].form, groups, sizeof groups);
            snprintf(lead, sizeof lead, forms[i].name ? " csmacd%s" : " ", sep);
            snprintf(left[n_left++], sizeof left[0], "%s%s %s %s%s%s%sseed %llu", lead, phy, rate,
                     len, sep, groups, sep, seed);
        }
    } else {
        snprintf(left[n_left++], sizeof left[0],
                 " csmacd%s%s %s %s%s%s%s%u-byte frames%sbackoff %s%sseed %llu", sep, phy, rate,
                 len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
        snprintf(left[n_left++], sizeof left[0], " csmacd%s%s %s %s%s%s%s%u B%s%s%sseed %llu",
                 sep, phy, rate, len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
        snprintf(left[n_left++], sizeof left[0], " %s %s %s%s%s%s%u B%s%s%sseed %llu", phy, rate,
                 len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
    }
    tui_fmt_speed(c, s->speed, speed, sizeof speed);
    snprintf(right, sizeof right, "%s ", speed);
    int rw = tui_text_width(right);
    int pw = s->paused ? 8 : 0;
    int room = w - rw - pw - 1;
    const char *l = left[n_left - 1]; /* the shortest */
    for (size_t i = 0; i < n_left; i++)
        if (tui_text_width(left[i]) <= room) {
            l = left[i];
            break;
        }
    /* Still too long: drop whole fields from the right, never half a one. */
    char cut[512];
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
        {"t", "switch", TUI_CMD_SWAP_TOPOLOGY, 1},
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

/* What the point being measured has so far. Before two batches there is
 * no interval: the line says "measuring" and what is still needed (the
 * first batch is a warm-up, then one batch gives S, two an interval),
 * never a false "+/- 0.000". */
static void fmt_estimate(const ctx *c, char *buf, size_t len)
{
    const tui_snapshot *s = c->s;
    const tui_point *p = &s->current;
    char batch[32];
    tui_fmt_dur(c, s->batch_s, batch, sizeof batch);
    if (!s->has_current)
        snprintf(buf, len, "measuring; S after 2 batches of %s (1 warm-up)", batch);
    else if (p->s_ci95 < 0)
        snprintf(buf, len, "measuring; S = %.3f so far, a CI after 1 more batch", p->s);
    else
        snprintf(buf, len, "S = %.3f %s %.3f (%.2f Mb/s)", p->s, c->gl->pm, p->s_ci95,
                 p->s * s->rate_bps / 1e6);
}

/* What the network is, in a class's words. */
static const char *network_words(const tui_snapshot *s)
{
    if (s->switched)
        return s->n_segments && s->segments[0].full_duplex ? "a switch, full duplex"
                                                           : "a switch, half duplex";
    if (s->n_segments > 0)
        return "the network";
    return s->star ? "a hub" : "a bus";
}

/* The time view's line: the network watched, its throughput over the last
 * sample (in links and in Mb/s) and its collisions in that sample. */
static void fmt_watch(const ctx *c, char *buf, size_t len)
{
    const tui_snapshot *s = c->s;
    if (s->n_history == 0) {
        snprintf(buf, len, "Watching N = %u on %s: the first sample comes after one batch",
                 s->n_stations, network_words(s));
        return;
    }
    const tui_sample *x = &s->history[s->n_history - 1];
    double cpf = x->frames > 0 ? x->collisions / x->frames : 0, mbps = x->s * s->rate_bps / 1e6;
    snprintf(buf, len,
             "Now: N = %u on %s, throughput %.2f link%s = %.1f Mb/s, %.2f collisions/frame",
             s->n_stations, network_words(s), x->s, fabs(x->s - 1) < 5e-3 ? "" : "s", mbps, cpf);
    if (tui_text_width(buf) <= c->g->w)
        return;
    snprintf(buf, len, "Now: N = %u on %s: %.2f links = %.1f Mb/s, %.2f coll/frame",
             s->n_stations, network_words(s), x->s, mbps, cpf);
}

/* The sweep's line: the point being measured, the N chosen, or done. */
static void fmt_sweep(const ctx *c, char *buf, size_t len)
{
    const tui_snapshot *s = c->s;
    const tui_point *p = &s->current;
    char est[160];
    if (s->time_view) {
        fmt_watch(c, buf, len);
        return;
    }
    fmt_estimate(c, est, sizeof est);
    bool ci = s->has_current && p->s_ci95 >= 0 && p->s > 0;
    switch (s->phase) {
    case TUI_SWEEP_RUNNING:
        if (ci)
            snprintf(buf, len, "Point %zu/%zu, N = %u: %s, CI %.1f%% of S (target %g%%)",
                     s->sweep_index + 1, s->sweep_count, p->n, est, 100.0 * p->s_ci95 / p->s,
                     100.0 * s->target_rel_ci);
        else
            snprintf(buf, len, "Point %zu/%zu, N = %u: %s", s->sweep_index + 1, s->sweep_count,
                     s->n_stations, est);
        break;
    case TUI_SWEEP_MANUAL:
        if (s->measuring && ci)
            snprintf(buf, len, "You chose N = %u: %s; r restarts the sweep", s->n_stations, est);
        else if (s->measuring)
            snprintf(buf, len, "You chose N = %u: %s", s->n_stations, est);
        else
            snprintf(buf, len, "You chose N = %u (measured); r restarts the sweep",
                     s->n_stations);
        break;
    case TUI_SWEEP_DONE:
        snprintf(buf, len, "Sweep complete: %zu point%s. r restarts, + and - explore other N",
                 s->n_points, s->n_points == 1 ? "" : "s");
        break;
    }
}

/* The run being watched, with its lost frames in run's words; a shorter
 * form when the long one does not fit. */
/* With bridges: the aggregate over every link (it may pass 1 link), the
 * collisions of each domain (or their total over many), the bridges'
 * drops. */
static void fmt_run_bridged(const ctx *c, int w, char *buf, size_t len)
{
    const tui_snapshot *s = c->s;
    uint64_t drops = 0;
    for (size_t b = 0; b < s->n_bridges; b++)
        for (size_t p = 0; p < s->bridges[b].n_ports; p++)
            drops += s->bridges[b].ports[p].dropped;
    char coll[200] = "", co[16], dr[16], ab[16];
    tui_fmt_count(s->collisions, co, sizeof co);
    tui_fmt_count(drops, dr, sizeof dr);
    tui_fmt_count(s->frames_aborted, ab, sizeof ab);
    size_t used = 0;
    for (size_t d = 0; d < s->n_domains && used < sizeof coll; d++) {
        char n[16];
        tui_fmt_count(s->domains[d].collisions, n, sizeof n);
        int k = snprintf(coll + used, sizeof coll - used, "%s%c %s", d ? ", " : "",
                         tui_domain_letter((uint32_t)d), n);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    double mbps = s->throughput * s->rate_bps / 1e6;
    snprintf(buf, len,
             "Run with N = %u: goodput %.2f links = %.1f Mb/s; collisions %s (%s); bridge "
             "queues dropped %s; %s aborted",
             s->n_stations, s->throughput, mbps, co, coll, dr, ab);
    if (tui_text_width(buf) <= w)
        return;
    snprintf(buf, len,
             "Run with N = %u: goodput %.2f links = %.1f Mb/s; collisions %s in %zu domains; "
             "%s dropped at bridges; %s aborted",
             s->n_stations, s->throughput, mbps, co, s->n_domains, dr, ab);
    if (tui_text_width(buf) <= w)
        return;
    snprintf(buf, len, "N = %u: %.2f links = %.1f Mb/s; collisions %s in %zu domains; %s dropped",
             s->n_stations, s->throughput, mbps, co, s->n_domains, dr);
}

static void fmt_run(const ctx *c, int w, char *buf, size_t len)
{
    const tui_snapshot *s = c->s;
    if (s->n_bridges > 0) {
        fmt_run_bridged(c, w, buf, len);
        return;
    }
    char ci[48] = "", ev[16], ab[16], ld[16], dr[16];
    tui_fmt_count(s->events, ev, sizeof ev);
    tui_fmt_count(s->frames_aborted, ab, sizeof ab);
    tui_fmt_count(s->frames_late_discarded, ld, sizeof ld);
    tui_fmt_count(s->frames_dropped, dr, sizeof dr);
    if (s->throughput_ci95 >= 0)
        snprintf(ci, sizeof ci, " %s %.3f", c->gl->pm, s->throughput_ci95);
    else if (s->measuring)
        snprintf(ci, sizeof ci, " (no CI yet)");
    snprintf(buf, len,
             "Run with N = %u: S = %.3f%s (%.2f Mb/s), %.2f collisions/frame, %s events; "
             "frames %s aborted, %s late-discarded, %s dropped (queue full)",
             s->n_stations, s->throughput, ci, s->throughput * s->rate_bps / 1e6,
             s->coll_per_frame, ev, ab, ld, dr);
    if (tui_text_width(buf) <= w)
        return;
    snprintf(buf, len,
             "Run with N = %u: S = %.3f%s (%.2f Mb/s), %.2f coll/frame, %s events; %s aborted, "
             "%s late-discarded, %s dropped",
             s->n_stations, s->throughput, ci, s->throughput * s->rate_bps / 1e6,
             s->coll_per_frame, ev, ab, ld, dr);
    if (tui_text_width(buf) <= w)
        return;
    snprintf(buf, len,
             "N = %u: S = %.3f%s, %.2f coll/frame; %s aborted, %s late-discarded, %s dropped",
             s->n_stations, s->throughput, ci, s->coll_per_frame, ab, ld, dr);
}

/* The message cut into lines of at most w columns at spaces (a word
 * longer than a line is cut), at most max lines; the last line ends in
 * "..." when the message does not fit. Returns the lines written. */
#define STATUS_MSG_MAX_ROWS 3
static int wrap_message(const char *msg, int w, int max, char out[][512])
{
    int n = 0;
    const char *p = msg;
    while (*p && n < max) {
        while (*p == ' ')
            p++;
        char line[512] = "";
        size_t len = 0;
        const char *q = p;
        for (;;) {
            const char *end = strchr(q, ' ');
            size_t wl = end ? (size_t)(end - q) : strlen(q);
            char trial[512];
            snprintf(trial, sizeof trial, "%s%s%.*s", line, len ? " " : "", (int)wl, q);
            if (tui_text_width(trial) > w) {
                if (len == 0) { /* one word longer than the line: cut it */
                    snprintf(line, sizeof line, "%.*s", w, q);
                    len = strlen(line);
                    q += len;
                }
                break;
            }
            snprintf(line, sizeof line, "%s", trial);
            len = strlen(line);
            q += wl;
            if (!end || !*q)
                break;
            q++; /* the space */
        }
        p = q;
        snprintf(out[n++], 512, "%s", line);
    }
    while (*p == ' ')
        p++;
    if (*p && n > 0) { /* more than fits: say so */
        char *last = out[n - 1];
        while (tui_text_width(last) + 3 > w && strlen(last) > 0)
            last[strlen(last) - 1] = '\0';
        strcat(last, "...");
    }
    return n;
}

int tui_status_message_rows(const tui_snapshot *s, int w)
{
    if (!s->message || !*s->message)
        return 0;
    char lines[STATUS_MSG_MAX_ROWS][512];
    return wrap_message(s->message, w, STATUS_MSG_MAX_ROWS, lines);
}

/* A message takes the sweep's line, and as many lines after it as it
 * needs (the layout gives them: tui_status_message_rows); the run's line
 * comes last when there is room. */
void tui_draw_status(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char line[320], sweep[320];
    bool msg = s->message && *s->message;
    int used = 1;
    if (msg) {
        char lines[STATUS_MSG_MAX_ROWS][512];
        int max = rows > 1 ? rows - (rows > STATUS_MSG_MAX_ROWS ? 1 : 0) : 1;
        if (max > STATUS_MSG_MAX_ROWS)
            max = STATUS_MSG_MAX_ROWS;
        int n = wrap_message(s->message, w, max, lines);
        for (int i = 0; i < n; i++)
            tui_text(c, 0, y + i, w, lines[i], TUI_A_WARN);
        used = n > 0 ? n : 1;
    } else {
        fmt_sweep(c, sweep, sizeof sweep);
        tui_text(c, 0, y, w, sweep, TUI_A_PLAIN);
    }
    if (rows > used) {
        fmt_run(c, w, line, sizeof line);
        tui_text(c, 0, y + used, w, line, TUI_A_PLAIN);
    }
}
