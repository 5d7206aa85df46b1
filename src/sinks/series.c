/* series.c - the per-interval time series sink (series.h).
 *
 * Events arrive in time order. Their counts go to the row their instant
 * falls in (intervals are half-open: an event exactly on a boundary
 * belongs to the later one); the bits of a frame received whole go, pro
 * rata, to the rows it was on the wire during (prorata.h). A row is final,
 * and written, once every frame that may have been on the wire during it
 * has had its verdict: judge_ps after its end. Until then its counts wait
 * in a queue that holds only the rows where something happened, so a
 * short interval costs memory in proportion to the events within
 * judge_ps, not to the rows.
 */
#include "series.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>

#include "prorata.h"

typedef struct counts {
    uint64_t ok, attempts, collisions, offered, dropped, aborted, late_discarded;
    uint64_t accepted, done; /* frames queued, and sent OK or given up */
} counts;

/* A row where something happened, waiting to be written. */
typedef struct pending {
    uint64_t row;
    counts c;
} pending;

struct series {
    FILE *f;
    sim_time interval;
    sim_time judge_ps;
    double rate_bps;
    uint64_t next_row; /* the first row not written yet */
    pending *q;        /* rows with counts, in order; a ring */
    size_t q_cap, q_head, q_len;
    prorata *spans;    /* frames received whole, not yet fully written */
    uint64_t accepted, done; /* since t = 0, up to the last row written */
    uint64_t rows;
    int err;
    int (*guard)(void *ctx); /* series_set_guard */
    void *guard_ctx;
    bool halted;
};

static pending *q_at(const series *s, size_t i)
{
    return &s->q[(s->q_head + i) & (s->q_cap - 1)];
}

/* Writes row next_row, [k x interval, min((k + 1) x interval, end)). */
static void write_row(series *s, sim_time end)
{
    sim_time t0 = (sim_time)s->next_row * s->interval, t1 = t0 + s->interval;
    if (end < t1)
        t1 = end;
    counts c = {0};
    if (s->q_len && q_at(s, 0)->row == s->next_row) {
        c = q_at(s, 0)->c;
        s->q_head = (s->q_head + 1) & (s->q_cap - 1);
        s->q_len--;
    }
    s->accepted += c.accepted;
    s->done += c.done;
    if (s->err == 0 && t1 > t0) {
        double thr = prorata_credit(s->spans, t0, t1) / (s->rate_bps * sim_time_to_s(t1 - t0));
        errno = 0;
        if (fprintf(s->f, "%.9f,%.9f,%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                          ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                    sim_time_to_s(t0), sim_time_to_s(t1), thr, c.ok, c.attempts, c.collisions,
                    c.offered, c.dropped, c.aborted, c.late_discarded,
                    s->accepted - s->done) < 0)
            s->err = errno ? errno : EIO;
        else if (++s->rows % SERIES_GUARD_ROWS == 0 && s->guard != NULL && s->guard(s->guard_ctx))
            s->halted = true;
    }
    prorata_forget(s->spans, t1);
    s->next_row++;
}

/* Writes the rows before row `limit` (none once halted). */
static void write_rows(series *s, uint64_t limit, sim_time end)
{
    while (s->next_row < limit && !s->halted) {
        if (s->err != 0) {
            /* Nothing more is written after the first error: skip the
             * rows instead of looping over them (the run stops at its next
             * slice), keeping the queues short. */
            while (s->q_len && q_at(s, 0)->row < limit) {
                s->q_head = (s->q_head + 1) & (s->q_cap - 1);
                s->q_len--;
            }
            s->next_row = limit;
            prorata_forget(s->spans, (sim_time)limit * s->interval);
            return;
        }
        write_row(s, end);
    }
}

/* The counts of the row that holds instant t (t not before any earlier
 * event's), or NULL when memory cannot be had. */
static counts *row_at(series *s, sim_time t)
{
    uint64_t k = (uint64_t)(t / s->interval);
    if (s->q_len && q_at(s, s->q_len - 1)->row == k)
        return &q_at(s, s->q_len - 1)->c;
    if (s->q_len == s->q_cap) {
        size_t cap = s->q_cap ? 2 * s->q_cap : 16;
        pending *q = malloc(cap * sizeof *q);
        if (q == NULL)
            return NULL;
        for (size_t i = 0; i < s->q_len; i++)
            q[i] = *q_at(s, i);
        free(s->q);
        s->q = q;
        s->q_cap = cap;
        s->q_head = 0;
    }
    pending *p = q_at(s, s->q_len++);
    *p = (pending){.row = k};
    return &p->c;
}

static void on_event(void *ctx, const trace_event *ev)
{
    series *s = ctx;
    /* Rows that ended judge_ps or more before now are final. */
    if (ev->time >= s->judge_ps)
        write_rows(s, (uint64_t)((ev->time - s->judge_ps) / s->interval), SIM_TIME_NEVER);
    if (s->err != 0 || s->halted)
        return;
    if (ev->kind == TRACE_DELIVER) {
        if (ev->ok && prorata_push(s->spans, 8ull * ev->frame_bytes, ev->tx_start, ev->time) != 0)
            s->err = ENOMEM;
        return;
    }
    counts *c = row_at(s, ev->time);
    if (c == NULL) {
        s->err = ENOMEM;
        return;
    }
    switch (ev->kind) {
    case TRACE_ARRIVAL:
        c->offered++;
        c->accepted++;
        break;
    case TRACE_DROP:
        c->offered++;
        c->dropped++;
        break;
    case TRACE_TX_START:
        if (ev->tx_kind == TRACE_TX_FRAME)
            c->attempts++;
        break;
    case TRACE_COLLISION:
        c->collisions++;
        break;
    case TRACE_TX_OK:
        c->ok++;
        c->done++;
        break;
    case TRACE_ABORT:
        if (ev->abort_reason == TRACE_ABORT_LATE_COLLISION)
            c->late_discarded++;
        else
            c->aborted++;
        c->done++;
        break;
    default:
        break;
    }
}

int series_create(FILE *f, sim_time interval_ps, uint64_t rate_bps, sim_time judge_ps,
                  series **out)
{
    series *s = calloc(1, sizeof *s);
    if (s == NULL || prorata_create(&s->spans) != 0) {
        free(s);
        errno = ENOMEM;
        return -1;
    }
    s->f = f;
    s->interval = interval_ps > 0 ? interval_ps : 1;
    s->judge_ps = judge_ps > 0 ? judge_ps : 0;
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
    if (end > 0) {
        uint64_t last = (uint64_t)((end - 1) / s->interval); /* the row holding end - 1 ps */
        write_rows(s, last + 1, end);
    }
    return s->err == 0 ? 0 : -1;
}

int series_error(const series *s) { return s->err; }

void series_set_guard(series *s, int (*guard)(void *ctx), void *ctx)
{
    s->guard = guard;
    s->guard_ctx = ctx;
}

bool series_halted(const series *s) { return s->halted; }

sim_time series_reached(const series *s) { return (sim_time)s->next_row * s->interval; }

uint64_t series_rows(const series *s) { return s->rows; }

void series_destroy(series *s)
{
    if (s) {
        prorata_destroy(s->spans);
        free(s->q);
        free(s);
    }
}
