/* evq.c - the event queue of evq.h: two 4-ary min-heaps keyed by (time,
 * phase, sequence).
 *
 * Most events are due soon (the end of a frame, a collision, the end of a
 * gap) while a few wait long (backoffs, Poisson arrivals). Events due
 * within the horizon go to the "near" heap, which stays small; the others
 * to the "far" heap, which is touched only when they are pushed and when
 * their turn comes. A pop takes the lesser of the two tops, so the order
 * is exactly that of one heap; only the cost changes. An event pushed
 * ahead of everything queued (a collision due shortly, the end of a jam)
 * waits in `front` and touches neither heap. Events of the phases below
 * `near_below` (evq_set_near_phases: the ends of frames, due a frame's
 * time later, 8 slots for 512 bytes at 100 Mb/s) go near whatever their
 * time, which leaves the far heap to the long waits (Poisson arrivals,
 * backoffs): 2.7 % less CPU time on 256 Poisson stations at 100 Mb/s.
 *
 * Runs (evq_use_runs, for networks with full-duplex links): links in step
 * push crowds of events in order (64 frame ends at one instant, each
 * pushing its arrival at the switch and its next start). Such an event
 * comes after the last event of one of a few sorted runs and is appended
 * to it, O(1); a pop compares the runs' heads with the heaps' tops. On a
 * 64-port full-duplex switch this takes the queue from 340 to about 190
 * instructions per event. With random waits (backoffs) runs fill with
 * events out of step and cost more than they save (40 to 160 more
 * instructions per event on 64 saturated stations on a bus, with one to
 * four runs), hence off by default.
 *
 * A radix heap (events filed by the highest bit in which their time
 * differs from the last one popped, O(1) per push, and a small heap for
 * the events of one instant) was measured in place of the two heaps: the
 * same order, a quarter fewer instructions in the queue, but the engine
 * ran 5 to 15 % slower by the wall clock on 64 saturated stations and on
 * a fixed-retry collapse of 1024 (its pops walk linked lists), so the
 * heaps stay.
 *
 * A "soon list" was measured in place of the front: a sorted ring of up to
 * 8 events ahead of the heaps (three pushes in four on 64 saturated
 * stations on a bus went there, a pop there one copy). Instructions per
 * event fell (683 to 666 on those 64 stations, 835 to 809 on 256 Poisson
 * stations at 100 Mb/s; +11 on 1024 stations), but CPU time rose by 2 to
 * 7 % (tests/bench/README.md, "The soon list, measured and left out"),
 * so the front stays.
 */
#include "evq.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct heap {
    sim_event *v;
    size_t size, cap;
} heap;

/* A sorted run (evq_use_runs): a ring of events in increasing order. */
typedef struct run {
    sim_event *v;
    size_t head, len, cap; /* cap: a power of two, or 0 */
} run;

#define RUNS 2

struct evq {
    sim_event front; /* when has_front: before every other event */
    bool has_front;
    bool runs_on;    /* evq_use_runs */
    run runs[RUNS];
    heap near, far;
    sim_time horizon; /* events due before last + horizon are near */
    uint16_t near_below; /* and so are events of a phase below this */
    sim_time last;    /* time of the last event popped */
    uint64_t seq;
};

/* The order of evq.h as one unsigned 128-bit key: time (never negative in
 * a run) above, phase and sequence below. */
static inline unsigned __int128 key(const sim_event *e)
{
    return ((unsigned __int128)(uint64_t)e->time << 64) | e->order;
}

/* A 4-ary heap: half the depth of a binary one, and the four children of
 * a node share a cache line or two, which makes both sifts cheaper. */
#define ARITY 4

static int heap_init(heap *h, size_t cap)
{
    h->cap = cap < 16 ? 16 : cap;
    h->size = 0;
    h->v = malloc(h->cap * sizeof *h->v);
    return h->v ? 0 : -1;
}

/* Puts ev into the hole at i, moving the hole up past every parent that
 * comes after ev: the climb of a push, and the end of Floyd's pop. */
static inline void sift_up(heap *h, size_t i, sim_event ev)
{
    unsigned __int128 k = key(&ev);
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (key(&h->v[parent]) <= k)
            break;
        h->v[i] = h->v[parent];
        i = parent;
    }
    h->v[i] = ev;
}

static int heap_push(heap *h, const sim_event *ev)
{
    if (h->size == h->cap) {
        size_t ncap = h->cap * 2;
        sim_event *v = realloc(h->v, ncap * sizeof *v);
        if (!v)
            return -1;
        h->v = v;
        h->cap = ncap;
    }
    sift_up(h, h->size++, *ev);
    return 0;
}

/* Floyd's pop: the hole left at the root moves down to a leaf along the
 * smaller children, then the last event climbs back from there. The last
 * event of a queue of future events usually belongs near the bottom, so
 * this saves the comparison with it at every level (3 instead of 4 per
 * level of a 4-ary heap) for a short climb. Keys are unique, so the
 * order of pops does not depend on the layout. */
static void heap_pop(heap *h, sim_event *out)
{
    *out = h->v[0];
    size_t n = --h->size;
    if (n == 0)
        return;
    size_t i = 0;
    for (;;) {
        size_t first = ARITY * i + 1;
        if (first >= n)
            break;
        size_t end = first + ARITY < n ? first + ARITY : n, best = first;
        unsigned __int128 bk = key(&h->v[first]);
        for (size_t c = first + 1; c < end; c++) {
            unsigned __int128 ck = key(&h->v[c]);
            if (ck < bk) {
                bk = ck;
                best = c;
            }
        }
        h->v[i] = h->v[best];
        i = best;
    }
    sift_up(h, i, h->v[n]); /* the last event, still in place: the hole is below n */
}

int evq_create(evq **out, size_t initial_capacity)
{
    evq *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    if (heap_init(&q->near, 64) != 0 || heap_init(&q->far, initial_capacity) != 0) {
        evq_destroy(q);
        return -1;
    }
    q->horizon = 0;
    *out = q;
    return 0;
}

void evq_destroy(evq *q)
{
    if (q) {
        for (int r = 0; r < RUNS; r++)
            free(q->runs[r].v);
        free(q->near.v);
        free(q->far.v);
        free(q);
    }
}

void evq_set_horizon(evq *q, sim_time horizon) { q->horizon = horizon; }

void evq_set_near_phases(evq *q, uint16_t below) { q->near_below = below; }

void evq_use_runs(evq *q, bool on) { q->runs_on = on; }

/* ---- runs ---------------------------------------------------------------- */

static inline const sim_event *run_head(const run *r) { return &r->v[r->head]; }

static inline const sim_event *run_tail(const run *r)
{
    return &r->v[(r->head + r->len - 1) & (r->cap - 1)];
}

/* The run whose head comes first and before `bound`, or -1. */
static int first_run(const evq *q, unsigned __int128 bound)
{
    int best = -1;
    for (int r = 0; r < RUNS; r++) {
        if (q->runs[r].len && key(run_head(&q->runs[r])) < bound) {
            best = r;
            bound = key(run_head(&q->runs[r]));
        }
    }
    return best;
}

static void run_take(evq *q, int r, sim_event *out)
{
    run *x = &q->runs[r];
    *out = x->v[x->head];
    x->head = (x->head + 1) & (x->cap - 1);
    x->len--;
    q->last = out->time;
}

/* Appends ev (key k) to the run whose last event is the latest one before
 * it, or to an empty run. Returns 1 when appended, 0 when no run takes it,
 * -1 when memory cannot be had. */
static int run_push(evq *q, const sim_event *ev, unsigned __int128 k)
{
    int best = -1, empty = -1;
    unsigned __int128 bk = 0;
    for (int r = 0; r < RUNS; r++) {
        if (!q->runs[r].len) {
            if (empty < 0)
                empty = r;
            continue;
        }
        unsigned __int128 t = key(run_tail(&q->runs[r]));
        if (t < k && (best < 0 || t > bk)) {
            best = r;
            bk = t;
        }
    }
    if (best < 0)
        best = empty;
    if (best < 0)
        return 0;
    run *x = &q->runs[best];
    if (x->len == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        sim_event *v = malloc(cap * sizeof *v);
        if (!v)
            return -1;
        for (size_t i = 0; i < x->len; i++)
            v[i] = x->v[(x->head + i) & (x->cap - 1)];
        free(x->v);
        x->v = v;
        x->cap = cap;
        x->head = 0;
    }
    x->v[(x->head + x->len++) & (x->cap - 1)] = *ev;
    return 1;
}

#define NO_KEY (~(unsigned __int128)0)

/* ---- the queue ------------------------------------------------------------ */

/* The heap whose top comes first, or NULL when both are empty. */
static inline heap *first(const evq *q)
{
    heap *n = (heap *)&q->near, *f = (heap *)&q->far;
    if (!f->size)
        return n->size ? n : NULL;
    if (!n->size)
        return f;
    return key(&n->v[0]) < key(&f->v[0]) ? n : f;
}

int evq_push(evq *q, const sim_event *e)
{
    assert(e->phase < 256 && e->time >= 0);
    sim_event ev = *e;
    ev.order = ((uint64_t)ev.phase << 56) | (q->seq++ & ((1ULL << 56) - 1));
    unsigned __int128 k = key(&ev);
    if (q->has_front) {
        if (k < key(&q->front)) {
            sim_event t = q->front;
            q->front = ev;
            ev = t;
        }
    } else {
        const heap *h = first(q);
        if ((!h || k < key(&h->v[0])) && (!q->runs_on || first_run(q, k) < 0)) {
            q->front = ev;
            q->has_front = true;
            return 0;
        }
    }
    if (q->runs_on) {
        int rc = run_push(q, &ev, key(&ev));
        if (rc != 0)
            return rc > 0 ? 0 : -1;
    }
    bool near = ev.time - q->last < q->horizon || ev.phase < q->near_below;
    return heap_push(near ? &q->near : &q->far, &ev);
}

/* The first event, or NULL when the queue is empty: the front, else the
 * first of the heaps' tops and the runs' heads. *h is the heap that holds
 * it, or NULL; *r the run, or -1 (both: the front). */
static inline const sim_event *first_event(const evq *q, heap **h, int *r)
{
    *h = NULL;
    *r = -1;
    if (q->has_front)
        return &q->front;
    heap *t = first(q);
    *r = q->runs_on ? first_run(q, t ? key(&t->v[0]) : NO_KEY) : -1;
    if (*r >= 0)
        return run_head(&q->runs[*r]);
    *h = t;
    return t ? &t->v[0] : NULL;
}

/* Removes the event first_event found into *out. */
static inline void take(evq *q, heap *h, int r, sim_event *out)
{
    if (r >= 0) {
        run_take(q, r, out);
        return;
    }
    if (h) {
        heap_pop(h, out);
    } else {
        *out = q->front;
        q->has_front = false;
    }
    q->last = out->time;
}

int evq_pop(evq *q, sim_event *out)
{
    heap *h;
    int r;
    if (!first_event(q, &h, &r))
        return -1;
    take(q, h, r, out);
    return 0;
}

int evq_pop_before(evq *q, sim_time limit, sim_event *out)
{
    heap *h;
    int r;
    const sim_event *e = first_event(q, &h, &r);
    if (!e || e->time >= limit)
        return -1;
    take(q, h, r, out);
    return 0;
}

const sim_event *evq_peek(const evq *q)
{
    heap *h;
    int r;
    return first_event(q, &h, &r);
}

size_t evq_size(const evq *q)
{
    size_t n = q->has_front + q->near.size + q->far.size;
    for (int r = 0; r < RUNS; r++)
        n += q->runs[r].len;
    return n;
}

size_t evq_bytes(const evq *q)
{
    size_t cap = q->near.cap + q->far.cap;
    for (int r = 0; r < RUNS; r++)
        cap += q->runs[r].cap;
    return sizeof *q + cap * sizeof(sim_event);
}

uint64_t evq_pushed(const evq *q) { return q->seq; }
