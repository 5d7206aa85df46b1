/* timeline_sink.c - recent transmissions, for the TUI's strips.
 *
 * The ring holds records in order of TX_START, which the engine reports in
 * time order. Classifying cells: a cell is a collision where two signals
 * overlap in time at the probe (not merely two signals in one cell: two
 * frames a gap apart share a cell without colliding), else busy if any
 * signal touches it, a frame if some of that is not jam.
 * Cost O(records + cells) per call.
 */
#include "timeline_sink.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct timeline_sink {
    timeline_tx *ring;
    size_t cap;
    size_t head;  /* index of the oldest record */
    size_t count;
};

int timeline_sink_create(size_t capacity, timeline_sink **out)
{
    *out = NULL;
    if (capacity == 0)
        capacity = 1;
    timeline_sink *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->ring = calloc(capacity, sizeof *t->ring);
    if (!t->ring) {
        free(t);
        return -1;
    }
    t->cap = capacity;
    *out = t;
    return 0;
}

void timeline_sink_destroy(timeline_sink *t)
{
    if (!t)
        return;
    free(t->ring);
    free(t);
}

void timeline_sink_reset(timeline_sink *t)
{
    t->head = 0;
    t->count = 0;
}

trace_sink timeline_sink_trace(timeline_sink *t)
{
    return (trace_sink){timeline_sink_on_event, t, NULL};
}

size_t timeline_sink_count(const timeline_sink *t)
{
    return t->count;
}

const timeline_tx *timeline_sink_at(const timeline_sink *t, size_t i)
{
    return i < t->count ? &t->ring[(t->head + i) % t->cap] : NULL;
}

static timeline_tx *find(timeline_sink *t, uint64_t tx_id)
{
    for (size_t k = t->count; k-- > 0;) {
        timeline_tx *r = &t->ring[(t->head + k) % t->cap];
        if (r->tx_id == tx_id)
            return r;
        /* Ids grow with start time: an older id cannot be further back
         * than a smaller one. */
        if (r->tx_id < tx_id)
            return NULL;
    }
    return NULL;
}

void timeline_sink_on_event(void *ctx, const trace_event *ev)
{
    timeline_sink *t = ctx;
    switch (ev->kind) {
    case TRACE_TX_START:
    case TRACE_RELAY_START: {
        timeline_tx *r;
        if (t->count < t->cap) {
            r = &t->ring[(t->head + t->count) % t->cap];
            t->count++;
        } else {
            r = &t->ring[t->head];
            t->head = (t->head + 1) % t->cap;
        }
        *r = (timeline_tx){ev->tx_id, ev->station, ev->segment, ev->tap, ev->tx_start,
                           SIM_TIME_NEVER, SIM_TIME_NEVER, ev->probe_start};
        break;
    }
    case TRACE_JAM: {
        timeline_tx *r = find(t, ev->tx_id);
        if (r) {
            r->jam_start = ev->jam_start != SIM_TIME_NEVER ? ev->jam_start : ev->time;
            r->end = ev->tx_end;
        }
        break;
    }
    case TRACE_RELAY_JAM: { /* the end is not known yet */
        timeline_tx *r = find(t, ev->tx_id);
        if (r)
            r->jam_start = ev->jam_start;
        break;
    }
    case TRACE_TX_END:
    case TRACE_RELAY_END: {
        timeline_tx *r = find(t, ev->tx_id);
        if (r) {
            r->end = ev->tx_end;
            if (ev->jam_start != SIM_TIME_NEVER)
                r->jam_start = ev->jam_start;
        }
        break;
    }
    default:
        break;
    }
}

/* Marks the cells that [a, b) touches (a < b, clipped to the window). */
static void mark(uint8_t *flag, sim_time w0, sim_time cell_ps, size_t n, sim_time a, sim_time b)
{
    if (a < w0)
        a = w0;
    if (b <= a)
        return;
    size_t c0 = (size_t)((a - w0) / cell_ps), c1 = (size_t)((b - 1 - w0) / cell_ps);
    if (c1 >= n)
        c1 = n - 1;
    for (size_t c = c0; c <= c1; c++)
        flag[c] = 1;
}

void timeline_sink_cells(const timeline_sink *t, sim_time now, sim_time cell_ps, size_t n,
                         uint8_t *out)
{
    timeline_sink_cells_on(t, UINT32_MAX, now, cell_ps, n, out);
}

void timeline_sink_cells_on(const timeline_sink *t, uint32_t segment, sim_time now,
                            sim_time cell_ps, size_t n, uint8_t *out)
{
    if (n == 0)
        return;
    uint8_t *busy = calloc(n, 1), *body = calloc(n, 1), *coll = calloc(n, 1);
    if (!busy || !body || !coll) {
        free(busy);
        free(body);
        free(coll);
        memset(out, TIMELINE_IDLE, n);
        return;
    }
    sim_time w0 = now - (sim_time)n * cell_ps; /* start of the oldest cell */
    /* Records are in order of start. A later record q overlaps r at the
     * probe only if it reaches the probe before r's end there, b; q reaches
     * it no earlier than q->start, so the scan for r's partners stops at
     * the first q with q->start >= b. Partners are few: O(records). */
    for (size_t i = 0; i < t->count; i++) {
        const timeline_tx *r = &t->ring[(t->head + i) % t->cap];
        if (segment != UINT32_MAX && r->segment != segment)
            continue;
        sim_time len = (r->end == SIM_TIME_NEVER ? now : r->end) - r->start;
        sim_time a = r->probe_start, b = r->probe_start + len; /* [a, b) at the probe */
        if (b > now)
            b = now;
        if (b <= w0 || a >= now || b <= a)
            continue;
        sim_time j = r->jam_start == SIM_TIME_NEVER ? b : r->probe_start + (r->jam_start - r->start);
        mark(busy, w0, cell_ps, n, a, b);
        mark(body, w0, cell_ps, n, a, j < b ? j : b);
        /* Collisions: the stretches where another signal overlaps this one. */
        for (size_t k = i + 1; k < t->count; k++) {
            const timeline_tx *q = &t->ring[(t->head + k) % t->cap];
            if (q->start >= b)
                break; /* reaches the probe after r has passed it, as do all later ones */
            if (segment != UINT32_MAX && q->segment != segment)
                continue;
            sim_time qlen = (q->end == SIM_TIME_NEVER ? now : q->end) - q->start;
            sim_time qa = q->probe_start, qb = q->probe_start + qlen;
            if (qb > now)
                qb = now;
            sim_time oa = a > qa ? a : qa, ob = b < qb ? b : qb;
            if (oa < ob)
                mark(coll, w0, cell_ps, n, oa, ob);
        }
    }
    for (size_t c = 0; c < n; c++)
        out[c] = coll[c]   ? TIMELINE_COLLISION
               : !busy[c]  ? TIMELINE_IDLE
               : body[c]   ? TIMELINE_FRAME
                           : TIMELINE_JAM;
    free(busy);
    free(body);
    free(coll);
}
