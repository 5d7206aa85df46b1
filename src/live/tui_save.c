/* tui_save.c - the TUI's saves (tui_save.h): names, never replacing a
 * file, the trace written in steps.
 */
#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "outfile.h"
#include "pcap_sink.h"
#include "tui_save.h"

#define SAVE_MAX_SUFFIX 9999u

struct tui_saves {
    char *dir;        /* as given, whole */
    char *dir_shown;  /* resolved, for people */
    unsigned seq;     /* private names of saves being written */
};

struct tui_trace {
    tui_saves *sv;
    engine *e;
    pcap_sink *ps;
    sim_time from, until;
    sim_time max_ps;   /* the caps the span was cut by, for the outcome */
    double max_bytes;
    enum { SPAN_WHOLE, SPAN_TIME, SPAN_SIZE } why; /* what set the span */
    char *tmp;                                     /* the private name */
    char *stem;                                    /* the file's name without extension */
};

int tui_saves_create(const char *dir, tui_saves **out)
{
    *out = NULL;
    tui_saves *sv = calloc(1, sizeof *sv);
    if (!sv)
        return -1;
    /* The folder is kept whole, however long (never cut to a buffer). */
    sv->dir = strdup(dir ? dir : ".");
    sv->dir_shown = sv->dir ? realpath(sv->dir, NULL) : NULL;
    if (sv->dir && !sv->dir_shown)
        sv->dir_shown = strdup(sv->dir);
    if (!sv->dir_shown) {
        tui_saves_destroy(sv);
        return -1;
    }
    *out = sv;
    return 0;
}

void tui_saves_destroy(tui_saves *sv)
{
    if (!sv)
        return;
    free(sv->dir);
    free(sv->dir_shown);
    free(sv);
}

const char *tui_saves_dir_shown(const tui_saves *sv) { return sv->dir_shown; }

/* ------------------------------------------------------------------ */
/* Names */

static char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *str_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Text as one file-name word: letters, digits and dots kept, every other
 * run of bytes one '-', none at either end, at most cap - 1 bytes. */
static void name_word(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool dash = false;
    for (const char *p = in; *p && n + 2 < cap; p++) {
        char ch = *p;
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '.';
        if (!keep) {
            dash = n > 0;
            continue;
        }
        if (dash)
            out[n++] = '-';
        dash = false;
        out[n++] = ch;
    }
    out[n] = '\0';
}

/* The traffic as a file-name word: saturated, poisson-G0.5, onoff-G0.8. */
static void traffic_word(const scenario *sc, char *out, size_t cap)
{
    const traffic_config *t = &sc->traffic;
    if (sc->n_named) { /* each group has its own: the file says groups */
        snprintf(out, cap, "%u-groups", sc->n_named);
        return;
    }
    switch (t->kind) {
    case TRAFFIC_POISSON:
        snprintf(out, cap, "poisson-G%g", t->load);
        return;
    case TRAFFIC_ONOFF:
        snprintf(out, cap, "onoff-G%g", t->load);
        return;
    case TRAFFIC_SATURATED:
    case TRAFFIC_BATCH:
    case TRAFFIC_PCAP:
    case TRAFFIC_NONE:
        break;
    }
    snprintf(out, cap, "%s", t->kind == TRAFFIC_SATURATED ? "saturated"
                             : t->kind == TRAFFIC_BATCH   ? "batch"
                             : t->kind == TRAFFIC_NONE    ? "none"
                                                          : "replay");
}

/* "10base5-512B-beb-saturated": what sets a curve apart. */
static void what_words(const scenario *sc, char *out, size_t cap)
{
    char phy[64], policy[96], traffic[64];
    name_word(sc->phy.name, phy, sizeof phy);
    name_word(sc->policy, policy, sizeof policy);
    traffic_word(sc, traffic, sizeof traffic);
    snprintf(out, cap, "%s-%uB-%s-%s", phy, (unsigned)lround(scenario_frame_bytes_mean(sc)), policy,
             traffic);
}

char *tui_save_csv_stem(const scenario *sc)
{
    char what[256];
    what_words(sc, what, sizeof what);
    return str_printf("csmacd-sweep-%s-seed%llu", what, (unsigned long long)sc->seed);
}

char *tui_save_pcap_stem(const scenario *sc)
{
    char what[256];
    what_words(sc, what, sizeof what);
    char phy[64];
    name_word(sc->phy.name, phy, sizeof phy);
    /* "csmacd-10base5-N8-512B-...": the station count after the PHY. */
    const char *rest = what + strlen(phy);
    return str_printf("csmacd-%s-N%u%s-seed%llu", phy, sc->n_stations, rest,
                      (unsigned long long)sc->seed);
}

/* A private name for a save being written: nothing may exist there (a
 * planted link would be followed by outfile.h). */
static char *private_name(tui_saves *sv)
{
    for (int tries = 0; tries < 100; tries++) {
        char *p = str_printf("%s/.csmacd-%ld-tui%u.tmp", sv->dir, (long)getpid(), ++sv->seq);
        if (!p)
            return NULL;
        struct stat st;
        if (lstat(p, &st) != 0 && errno == ENOENT)
            return p;
        free(p);
    }
    return NULL;
}

/* Gives the whole file `tmp` its name, stem.ext or stem-K.ext, never
 * replacing a file. Returns the path (the caller frees it), or NULL with
 * "path: reason" in err; `tmp` is gone either way. */
static char *publish(const char *tmp, const char *dir, const char *stem, const char *ext,
                     char *err, size_t errlen)
{
    for (unsigned k = 1; k <= SAVE_MAX_SUFFIX; k++) {
        char *path = k == 1 ? str_printf("%s/%s.%s", dir, stem, ext)
                            : str_printf("%s/%s-%u.%s", dir, stem, k, ext);
        if (!path) {
            snprintf(err, errlen, "out of memory");
            unlink(tmp);
            return NULL;
        }
        int e = link(tmp, path) == 0 ? 0 : errno;
        if (e == 0) {
            unlink(tmp);
            return path;
        }
        if (e != EEXIST) {
            /* No hard links here (some file systems): a rename that
             * refuses to replace does the same. */
            e = renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0 ? 0 : errno;
            if (e == EINVAL || e == ENOSYS || e == EOPNOTSUPP) {
                /* Neither (an old or a foreign file system): look, then
                 * rename, which leaves a race only with another writer of
                 * this very name. */
                struct stat st;
                if (lstat(path, &st) == 0)
                    e = EEXIST;
                else
                    e = errno != ENOENT ? errno : rename(tmp, path) == 0 ? 0 : errno;
            }
            if (e == 0)
                return path;
        }
        if (e != EEXIST) {
            snprintf(err, errlen, "%s: %s", path, strerror(e));
            free(path);
            unlink(tmp);
            return NULL;
        }
        free(path);
    }
    snprintf(err, errlen, "%s/%s.%s: %u files of that name already", dir, stem, ext,
             SAVE_MAX_SUFFIX);
    unlink(tmp);
    return NULL;
}

/* "NAME (details) in DIR" for the status line: the name first, so a narrow
 * screen still shows it. */
static void say_saved(const tui_saves *sv, const char *path, const char *details, char *msg,
                      size_t msglen)
{
    const char *slash = strrchr(path, '/');
    snprintf(msg, msglen, "saved %s %s in %s", slash ? slash + 1 : path, details, sv->dir_shown);
}

/* ------------------------------------------------------------------ */
/* c: the curve */

int tui_save_csv(tui_saves *sv, const scenario *sc, const tui_csv_curve *curve, char *msg,
                 size_t msglen)
{
    char err[512];
    int rc = -1;
    char *tmp = private_name(sv), *stem = tui_save_csv_stem(sc);
    if (!tmp || !stem) {
        snprintf(msg, msglen, "cannot save the plot data: %s",
                 tmp ? "out of memory" : "no free temporary name");
        free(tmp);
        free(stem);
        return -1;
    }
    outfile out;
    if (outfile_open(&out, tmp, err, sizeof err) != 0) {
        snprintf(msg, msglen, "cannot save the plot data: %s", err);
        goto done;
    }
    errno = 0;
    if (tui_csv_write(out.f, curve) != 0) {
        snprintf(msg, msglen, "cannot save the plot data: %s", strerror(errno ? errno : EIO));
        outfile_discard(&out);
        goto done;
    }
    if (outfile_commit(&out, err, sizeof err) != 0) {
        snprintf(msg, msglen, "cannot save the plot data: %s", err);
        goto done;
    }
    char *path = publish(tmp, sv->dir, stem, "csv", err, sizeof err);
    if (!path) {
        snprintf(msg, msglen, "cannot save the plot data: %s", err);
        goto done;
    }
    char details[64];
    snprintf(details, sizeof details, "(the plot data, %zu point%s)", curve->n_points,
             curve->n_points == 1 ? "" : "s");
    say_saved(sv, path, details, msg, msglen);
    free(path);
    rc = 0;
done:
    free(tmp);
    free(stem);
    return rc;
}

/* ------------------------------------------------------------------ */
/* w: the trace */

/* The pcap sink behind a filter: only transmissions (a station's, a
 * repeater's relay, a bridge port's) whose first bit passes the probe at
 * or after `from` (their start and end alike). */
static void filtered_event(void *ctx, const trace_event *ev)
{
    tui_trace *j = ctx;
    if ((ev->kind == TRACE_TX_START || ev->kind == TRACE_TX_END ||
         ev->kind == TRACE_RELAY_START || ev->kind == TRACE_RELAY_END ||
         ev->kind == TRACE_BRIDGE_TX_START || ev->kind == TRACE_BRIDGE_TX_END) &&
        ev->probe_start < j->from)
        return;
    pcap_sink_on_event(j->ps, ev);
}

/* Seconds with the unit that suits the span's end: "12.345 s", "1.234 ms". */
static void fmt_t(sim_time t, sim_time scale, char *out, size_t cap)
{
    double s = sim_time_to_s(t);
    if (scale >= SIM_PS_PER_S)
        snprintf(out, cap, "%.3f s", s);
    else if (scale >= SIM_PS_PER_MS)
        snprintf(out, cap, "%.3f ms", s * 1e3);
    else
        snprintf(out, cap, "%.3f us", s * 1e6);
}

/* "850 kB", "12.3 MB". */
static void fmt_bytes(double b, char *out, size_t cap)
{
    if (b < 1e6)
        snprintf(out, cap, "%.0f kB", b / 1e3);
    else
        snprintf(out, cap, "%.1f MB", b / 1e6);
}

void tui_trace_destroy(tui_trace *j)
{
    if (!j)
        return;
    pcap_sink_discard(j->ps); /* removes the temporary */
    engine_destroy(j->e);
    if (j->tmp)
        unlink(j->tmp); /* a closed sink's file not yet named */
    free(j->tmp);
    free(j->stem);
    free(j);
}

void tui_trace_describe(const tui_trace *j, char *msg, size_t msglen)
{
    char a[32], b[32];
    fmt_t(j->from, j->until, a, sizeof a);
    fmt_t(j->until, j->until, b, sizeof b);
    snprintf(msg, msglen, "already writing the trace of t = %s to %s (Esc cancels it)", a, b);
}

/* Bytes per simulated second a trace of the live run takes, from its
 * records so far: each frame sent OK and each collided attempt is one
 * pcapng Enhanced Packet Block (TRACE_BLOCK octets of block, flags, the
 * end of the options and the MAC's story as its comment) holding the frame
 * (Ethernet with its FCS) or the fragment (a 4-octet status header, the
 * preamble, at most a slot's worth of octets). */
#define TRACE_BLOCK 120.0
static double trace_rate(engine *live, sim_time now)
{
    results res;
    engine_results(live, &res);
    const scenario *sc = engine_scenario(live);
    double frames = 0, frags = 0;
    for (uint32_t i = 0; i < res.n_stations; i++) {
        frames += (double)res.stations[i].c.frames_transmitted_ok;
        frags += (double)res.stations[i].c.collisions;
    }
    double pre = sc->phy.preamble_bits / 8.0, slot = sc->phy.slot_bits / 8.0;
    double fb = scenario_frame_bytes_mean(sc);
    double bytes = frames * (TRACE_BLOCK + fb) + frags * (TRACE_BLOCK + 4 + pre + (fb < slot ? fb : slot));
    return bytes / sim_time_to_s(now);
}

tui_trace *tui_trace_start(tui_saves *sv, engine *live, sim_time until, sim_time max_ps,
                           double max_bytes, char *msg, size_t msglen)
{
    char err[512], a[32], b[32];
    if (until <= 0) {
        snprintf(msg, msglen, "no trace to save yet: the run is at t = 0");
        return NULL;
    }
    /* The span: the most recent part of the run, within the time cap and,
     * by the estimate, the size cap. */
    double rate = trace_rate(live, until); /* bytes per simulated second */
    sim_time span = until;
    int why = SPAN_WHOLE;
    if (span > max_ps) {
        span = max_ps;
        why = SPAN_TIME;
    }
    double cap_s = rate > 0 ? max_bytes / rate : INFINITY;
    if (cap_s < sim_time_to_s(span)) {
        span = (sim_time)(cap_s * (double)SIM_PS_PER_S);
        why = SPAN_SIZE;
    }
    char size[32], room[32];
    if (span <= 0) {
        fmt_bytes(max_bytes, size, sizeof size);
        snprintf(msg, msglen, "no trace saved: not one record fits %s", size);
        return NULL;
    }
    double est = rate * sim_time_to_s(span) + 24;
    fmt_bytes(est, size, sizeof size);
    struct statvfs v;
    if (statvfs(sv->dir, &v) == 0 && est > (double)v.f_bavail * (double)v.f_frsize) {
        fmt_bytes((double)v.f_bavail * (double)v.f_frsize, room, sizeof room);
        snprintf(msg, msglen, "no trace saved: about %s, more than the %s free in %s", size,
                 room, sv->dir_shown);
        return NULL;
    }

    tui_trace *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(msg, msglen, "cannot save the trace: out of memory");
        return NULL;
    }
    j->sv = sv;
    j->from = until - span;
    j->until = until;
    j->max_ps = max_ps;
    j->max_bytes = max_bytes;
    j->why = why;
    j->tmp = private_name(sv);
    j->stem = tui_save_pcap_stem(engine_scenario(live));
    if (!j->tmp || !j->stem) {
        tui_trace_destroy(j);
        snprintf(msg, msglen, "cannot save the trace: out of memory");
        return NULL;
    }
    const scenario *sc = engine_scenario(live);
    pcap_sink_options po = {.collisions = true};
    int rc = engine_create(sc, &j->e, err, sizeof err);
    if (rc == 0) {
        /* pcapng, as `run --pcap` writes it: a plain Wireshark decodes the
         * frames, and each record's comment tells the MAC's story (with
         * its station's group). */
        char kept[128];
        fmt_t(j->from, until, a, sizeof a);
        fmt_t(until, until, b, sizeof b);
        snprintf(kept, sizeof kept, "until stopped (csmacd tui), this trace t = %s to %s", a, b);
        pcap_sink_text text; /* copied at open */
        pcap_sink_format fmt = pcap_sink_default_format();
        fmt.container = PCAP_SINK_PCAPNG;
        /* The trace engine's scenario lives as long as the sink. */
        pcap_sink_describe_run(engine_scenario(j->e), kept, &text, &fmt);
        rc = pcap_sink_open_format(j->tmp, &sc->phy, &po, &fmt, &j->ps, err, sizeof err);
    }
    if (rc == 0 && engine_add_sink(j->e, (trace_sink){filtered_event, j, NULL}) != 0) {
        snprintf(err, sizeof err, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        rc = engine_start(j->e, err, sizeof err);
    if (rc != 0) {
        tui_trace_destroy(j);
        snprintf(msg, msglen, "cannot save the trace: %s", err);
        return NULL;
    }
    fmt_t(j->from, until, a, sizeof a);
    fmt_t(until, until, b, sizeof b);
    snprintf(msg, msglen, "writing the trace of t = %s to %s (about %s): Esc cancels", a, b,
             size);
    return j;
}

/* Names the finished file and says what it holds. */
static tui_trace_state trace_finish(tui_trace *j, char *msg, size_t msglen)
{
    char err[512], a[32], b[32], lead[96], details[256];
    uint64_t recs = pcap_sink_records(j->ps);
    pcap_sink *ps = j->ps;
    j->ps = NULL;
    if (pcap_sink_close(ps, err, sizeof err) != 0) {
        snprintf(msg, msglen, "cannot save the trace: %s", err);
        return TUI_TRACE_FAILED;
    }
    char *path = publish(j->tmp, j->sv->dir, j->stem, "pcapng", err, sizeof err);
    free(j->tmp);
    j->tmp = NULL;
    if (!path) {
        snprintf(msg, msglen, "cannot save the trace: %s", err);
        return TUI_TRACE_FAILED;
    }
    fmt_t(j->from, j->until, a, sizeof a);
    fmt_t(j->until, j->until, b, sizeof b);
    if (j->why == SPAN_WHOLE)
        snprintf(lead, sizeof lead, "the whole run");
    else if (j->why == SPAN_TIME)
        snprintf(lead, sizeof lead, "the last %g s (the most a save holds)",
                 sim_time_to_s(j->max_ps));
    else {
        char cap[32];
        fmt_bytes(j->max_bytes, cap, sizeof cap);
        snprintf(lead, sizeof lead, "the last %.6g s, as much as fits %s",
                 sim_time_to_s(j->until - j->from), cap);
    }
    snprintf(details, sizeof details, "(%s, t = %s to %s, %llu records)", lead, a, b,
             (unsigned long long)recs);
    say_saved(j->sv, path, details, msg, msglen);
    free(path);
    return TUI_TRACE_SAVED;
}

tui_trace_state tui_trace_step(tui_trace *j, uint64_t budget, int64_t *ran, char *msg,
                               size_t msglen)
{
    uint64_t before = engine_events(j->e);
    engine_status st = engine_run(j->e, j->until, budget ? budget : 1);
    *ran = (int64_t)(engine_events(j->e) - before);
    if (st == ENGINE_OUT_OF_MEMORY) {
        snprintf(msg, msglen, "cannot save the trace: out of memory; nothing written");
        return TUI_TRACE_FAILED;
    }
    if (pcap_sink_error(j->ps)) {
        char err[512];
        pcap_sink *ps = j->ps;
        j->ps = NULL;
        pcap_sink_close(ps, err, sizeof err);
        snprintf(msg, msglen, "cannot save the trace: %s", err);
        return TUI_TRACE_FAILED;
    }
    sim_time now = engine_now(j->e);
    if (now >= j->until || st == ENGINE_DONE)
        return trace_finish(j, msg, msglen);
    char a[32], b[32];
    fmt_t(j->from, j->until, a, sizeof a);
    fmt_t(j->until, j->until, b, sizeof b);
    snprintf(msg, msglen, "writing the trace of t = %s to %s: %.0f%% (Esc cancels)", a, b,
             100.0 * (double)now / (double)j->until);
    return TUI_TRACE_WRITING;
}
