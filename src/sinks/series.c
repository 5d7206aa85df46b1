/* series.c - the per-interval time series sink (series.h).
 *
 * Events arrive in time order, so one interval is open at a time: an event
 * at or past its end writes it (and any empty intervals in between) before
 * being counted. An event exactly on a boundary belongs to the later
 * interval, as intervals are half-open.
 */
#include "series.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct counts {
    uint64_t bits, ok, attempts, collisions, offered, dropped, aborted, late_discarded;
} counts;

struct series {
    FILE *f;
    sim_time interval;
    double rate_bps;
    sim_time start;   /* the open interval's start */
    counts c;         /* of the open interval */
    uint64_t accepted, done; /* since t = 0: queued frames, and sent OK or given up */
    uint64_t rows;
    int err;
    int (*guard)(void *ctx); /* series_set_guard */
    void *guard_ctx;
    bool halted;
};

static void write_row(series *s, sim_time end)
{
    sim_time len = end - s->start;
    if (s->err == 0 && len > 0) {
        double thr = (double)s->c.bits / (s->rate_bps * sim_time_to_s(len));
        errno = 0;
        if (fprintf(s->f, "%.9f,%.9f,%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                          ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                    sim_time_to_s(s->start), sim_time_to_s(end), thr, s->c.ok, s->c.attempts,
                    s->c.collisions, s->c.offered, s->c.dropped, s->c.aborted,
                    s->c.late_discarded,
                    s->accepted - s->done) < 0)
            s->err = errno ? errno : EIO;
        else if (++s->rows % SERIES_GUARD_ROWS == 0 && s->guard != NULL && s->guard(s->guard_ctx))
            s->halted = true;
    }
    s->start = end;
    s->c = (counts){0};
}

/* Writes the intervals that end at or before t. */
static void advance(series *s, sim_time t)
{
    if (s->err != 0) {
        /* Nothing more is written after the first error: skip the rows
         * instead of looping over them (the run stops at its next slice). */
        if (t >= s->start + s->interval)
            s->start += (t - s->start) / s->interval * s->interval;
        return;
    }
    while (t >= s->start + s->interval && s->err == 0 && !s->halted)
        write_row(s, s->start + s->interval);
}

static void on_event(void *ctx, const trace_event *ev)
{
    series *s = ctx;
    if (s->halted)
        return;
    advance(s, ev->time);
    if (s->halted)
        return;
    switch (ev->kind) {
    case TRACE_ARRIVAL:
        s->c.offered++;
        s->accepted++;
        break;
    case TRACE_DROP:
        s->c.offered++;
        s->c.dropped++;
        break;
    case TRACE_TX_START:
        if (ev->tx_kind == TRACE_TX_FRAME)
            s->c.attempts++;
        break;
    case TRACE_COLLISION:
        s->c.collisions++;
        break;
    case TRACE_TX_OK:
        s->c.ok++;
        s->done++;
        break;
    case TRACE_ABORT:
        if (ev->abort_reason == TRACE_ABORT_LATE_COLLISION)
            s->c.late_discarded++;
        else
            s->c.aborted++;
        s->done++;
        break;
    case TRACE_DELIVER:
        if (ev->ok)
            s->c.bits += 8ull * ev->frame_bytes;
        break;
    default:
        break;
    }
}

int series_create(FILE *f, sim_time interval_ps, uint64_t rate_bps, series **out)
{
    series *s = calloc(1, sizeof *s);
    if (s == NULL) {
        errno = ENOMEM;
        return -1;
    }
    s->f = f;
    s->interval = interval_ps > 0 ? interval_ps : 1;
    s->rate_bps = (double)rate_bps;
    errno = 0;
    if (fputs("t_start_s,t_end_s,throughput,frames_ok,attempts,collisions,offered,dropped,"
              "aborted,late_discarded,backlog\n",
              f) == EOF)
        s->err = errno ? errno : EIO;
    *out = s;
    return 0;
}

trace_sink series_sink(series *s) { return (trace_sink){.on_event = on_event, .ctx = s}; }

int series_finish(series *s, sim_time end)
{
    if (end > s->start && !s->halted) {
        advance(s, end);
        if (end > s->start && !s->halted)
            write_row(s, end);
    }
    return s->err == 0 ? 0 : -1;
}

void series_set_guard(series *s, int (*guard)(void *ctx), void *ctx)
{
    s->guard = guard;
    s->guard_ctx = ctx;
}

bool series_halted(const series *s) { return s->halted; }

sim_time series_reached(const series *s) { return s->start; }

int series_error(const series *s) { return s->err; }

uint64_t series_rows(const series *s) { return s->rows; }

void series_destroy(series *s) { free(s); }
