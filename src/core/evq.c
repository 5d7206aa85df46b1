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
 * four runs), hence off by default; the engine turns them on for
 * full-duplex links and where every backoff is the same wait (a fixed
 * retry interval's collapse pushes its ends of backoffs in order).
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
 *
 * NO_EVENT (tests/bench/README.md, "The queue's push without register
 * saves"): an empty heap's top is NO_EVENT, a key after every real one,
 * so the push compares an event with both tops without testing the heaps'
 * sizes. A pop that filled every slot past the last event with it, to
 * compare all four slots of every node by selects
 * (masks, kept from GCC's if-conversion by an empty asm) instead of the
 * loop below ran fewer instructions ((b) 981 to 910 per event) and fewer
 * simulated mispredictions, but took more CPU time side by side ((a)
 * 1.026, (b) 0.997, (c) 1.046): the loop's branches are predicted better
 * than callgrind's model says, and the selects chain each level's loads.
 * The loop over four slots always (no test of the last node's size) was
 * slower still ((b) 1.093). So the pop keeps its loop.
 *
 * The push without register saves (the same README section). The MAC's
 * pushes (most of a run's) pass the event's fields in registers
 * (evq_push_fields, evq.h: target, type and phase packed in one word, the
 * event's last 8 bytes), and the event is written once, into the front or
 * its heap slot, instead of being built on the caller's stack and copied
 * twice. Every path of the push is a return or a tail call to a function
 * of its own (runs on, an event ahead of the front, a full heap), so the
 * push uses only the registers a caller saves anyway: about 88
 * instructions a push before, 15 of them saving and restoring registers.
 * (The README section gives the figures.)
 */
#include "evq.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
 * a run) above, phase and sequence below; of an event's fields, or of an
 * event. */
static inline unsigned __int128 key_of(sim_time t, uint64_t order)
{
    return ((unsigned __int128)(uint64_t)t << 64) | order;
}

static inline unsigned __int128 key(const sim_event *e) { return key_of(e->time, e->order); }

/* A 4-ary heap: half the depth of a binary one, and the four children of
 * a node share a cache line or two, which makes both sifts cheaper. */
#define ARITY 4

/* An empty heap's top slot holds NO_EVENT, whose key comes after every
 * real one (a real time is never negative, so the upper half of a real
 * key is below 2^63): the push compares an event with both heaps' tops
 * without testing their sizes, and first_event tells an empty queue by
 * it. */
static const sim_event NO_EVENT = {.time = -1, .order = UINT64_MAX};

static int heap_init(heap *h, size_t cap)
{
    h->cap = cap < 16 ? 16 : cap;
    h->size = 0;
    h->v = malloc(h->cap * sizeof *h->v);
    if (!h->v)
        return -1;
    h->v[0] = NO_EVENT;
    return 0;
}

/* v, its value hidden from the compiler (an empty asm, no code): the
 * push's test of an event against both heaps' tops is then one branch on
 * the two comparisons, where GCC would make selects that need two more
 * registers, saved and restored on every push. */
static inline size_t opaque(size_t v)
{
    __asm__("" : "+r"(v));
    return v;
}

/* The pop: the hole left at the root moves down along the smaller
 * children while the last event comes after the least of them, and the
 * last event fills it there. (Floyd's pop, the hole down to a leaf without
 * that comparison and the last event climbing back, ran fewer
 * instructions but more CPU time: side by side, this took (a) 0.980, (b)
 * 0.989, (c) 0.991, (f) 0.988, (g) 0.981 of it; tests/bench/README.md,
 * "The queue's push without register saves".) Keys are unique, so the
 * order of pops does not depend on the layout. */
static void heap_pop(heap *h, sim_event *out)
{
    *out = h->v[0];
    size_t n = --h->size;
    if (n == 0) {
        h->v[0] = NO_EVENT; /* (an empty heap's top) */
        return;
    }
    const sim_event last = h->v[n];
    const unsigned __int128 lk = key(&last);
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
        if (lk < bk)
            break;
        h->v[i] = h->v[best];
        i = best;
    }
    h->v[i] = last;
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

/* ---- the queue ------------------------------------------------------------ */

/* The heap whose top comes first (an empty heap's top is NO_EVENT, so
 * when both are empty, the far one with NO_EVENT on top). */
static inline heap *first(const evq *q)
{
    heap *n = (heap *)&q->near, *f = (heap *)&q->far;
    return key(&n->v[0]) < key(&f->v[0]) ? n : f;
}

/* An event is pushed as its fields, not in memory: its time, its order,
 * its arg, and its last 8 bytes (target, type, phase) as one word, `tail`,
 * which is how evq_push_fields's arguments arrive (in registers, packed in
 * evq.h) and how the event is stored, once, into its place. */
static inline uint16_t tail_phase(uint64_t tail) { return (uint16_t)(tail >> 48); }

static inline void put(sim_event *slot, sim_time t, uint64_t order, uint64_t arg, uint64_t tail)
{
    _Static_assert(offsetof(sim_event, target) == 24 && offsetof(sim_event, type) == 28 &&
                       offsetof(sim_event, phase) == 30,
                   "tail is the last 8 bytes of an event");
    /* Two 16-byte stores, as events are copied (16-byte loads): a load
     * that spans two narrower stores still in flight cannot take its
     * value from them and waits for them to retire (push_with_runs copies
     * the event it has just made into its run: a 64-port switch's run
     * 3 % faster, tests/bench/README.md, "Stores that a load spans"). */
    typedef uint64_t pair __attribute__((vector_size(16)));
    const pair lo = {(uint64_t)t, order}, hi = {arg, tail};
    memcpy(slot, &lo, sizeof lo);
    memcpy((char *)slot + sizeof lo, &hi, sizeof hi);
}

static inline sim_event event_of(sim_time t, uint64_t order, uint64_t arg, uint64_t tail)
{
    sim_event ev;
    put(&ev, t, order, arg, tail);
    return ev;
}

/* Puts the event in heap h, which has room: the hole at the end moves up
 * past every parent that comes after the event, which is then written
 * once, into its place. It counts in bytes, which spares the
 * multiplications of indexes by 32: the parent of the event at offset x
 * (one event = 32 bytes) is at (x - 32) / 4 rounded down to an event. */
static inline void heap_insert(heap *h, sim_time t, uint64_t order, uint64_t arg, uint64_t tail)
{
    _Static_assert(sizeof(sim_event) == 32, "the offsets below assume 32-byte events");
    unsigned __int128 k = key_of(t, order);
    char *base = (char *)h->v;
    const size_t one = sizeof(sim_event);
    size_t x = h->size++ * one;
    while (x > 0) {
        size_t parent = ((x - one) / ARITY) & ~(one - 1);
        if (key((const sim_event *)(base + parent)) <= k)
            break;
        *(sim_event *)(base + x) = *(const sim_event *)(base + parent);
        x = parent;
    }
    put((sim_event *)(base + x), t, order, arg, tail);
}

/* The heap for an event of time t and phase `phase`. */
static inline heap *heap_for(evq *q, sim_time t, uint16_t phase)
{
    return t - q->last < q->horizon || phase < q->near_below ? &q->near : &q->far;
}

/* The push of an event into h when h is full: h grows first. */
static __attribute__((noinline, cold)) int push_grow(heap *h, sim_time t, uint64_t order,
                                                     uint64_t arg, uint64_t tail)
{
    size_t ncap = h->cap * 2;
    sim_event *v = realloc(h->v, ncap * sizeof *v);
    if (!v)
        return -1;
    h->v = v;
    h->cap = ncap;
    heap_insert(h, t, order, arg, tail);
    return 0;
}

/* The push of an event into a heap. */
static inline int push_heap(evq *q, sim_time t, uint64_t order, uint64_t arg, uint64_t tail)
{
    heap *h = heap_for(q, t, tail_phase(tail));
    if (h->size == h->cap)
        return push_grow(h, t, order, arg, tail);
    heap_insert(h, t, order, arg, tail);
    return 0;
}

static inline int push_event(evq *q, const sim_event *ev)
{
    uint64_t tail;
    memcpy(&tail, &ev->target, sizeof tail);
    return push_heap(q, ev->time, ev->order, ev->arg, tail);
}

/* The push of a queue with runs on (full-duplex links). */
static __attribute__((noinline)) int push_with_runs(evq *q, sim_time t, uint64_t order,
                                                    uint64_t arg, uint64_t tail)
{
    sim_event ev = event_of(t, order, arg, tail);
    unsigned __int128 k = key(&ev);
    if (q->has_front) {
        if (k < key(&q->front)) {
            sim_event f = q->front;
            q->front = ev;
            ev = f;
        }
    } else {
        /* with runs on (full-duplex links) both heaps are empty most of
         * the time, and a test of their sizes is cheaper than comparing
         * their tops (NO_EVENT when empty) */
        if (((!q->near.size && !q->far.size) || k < key(&first(q)->v[0])) &&
            first_run(q, k) < 0) {
            q->front = ev;
            q->has_front = true;
            return 0;
        }
    }
    int rc = run_push(q, &ev, key(&ev));
    if (rc != 0)
        return rc > 0 ? 0 : -1;
    return push_event(q, &ev);
}

/* The push of an event ahead of the one in the front (rare): it takes the
 * front, whose event goes to a heap. */
static __attribute__((noinline)) int push_before_front(evq *q, sim_time t, uint64_t order,
                                                       uint64_t arg, uint64_t tail)
{
    sim_event f = q->front;
    put(&q->front, t, order, arg, tail);
    return push_event(q, &f);
}

/* The push: without runs, every path is a return, or a jump to a function
 * (a tail call), so that the push saves no registers. */
static inline __attribute__((always_inline)) int push(evq *q, sim_time t, uint64_t arg,
                                                      uint64_t tail)
{
    uint16_t phase = tail_phase(tail);
    assert(phase < 256 && t >= 0);
    uint64_t order = ((uint64_t)phase << 56) | (q->seq++ & ((1ULL << 56) - 1));
    unsigned __int128 k = key_of(t, order);
    if (q->runs_on)
        return push_with_runs(q, t, order, arg, tail);
    if (q->has_front) {
        if (k < key(&q->front))
            return push_before_front(q, t, order, arg, tail);
    } else if (opaque(k < key(&q->near.v[0])) & (k < key(&q->far.v[0]))) {
        put(&q->front, t, order, arg, tail);
        q->has_front = true;
        return 0;
    }
    return push_heap(q, t, order, arg, tail);
}

__attribute__((noinline)) int evq_push_tail(evq *q, sim_time time, uint64_t arg, uint64_t tail)
{
    _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "evq.h's tail is little-endian");
    return push(q, time, arg, tail);
}

int evq_push(evq *q, const sim_event *e)
{
    /* (field by field: the caller has just stored them one by one, and one
     * 8-byte load across those stores would wait for them to retire) */
    return evq_push_fields(q, e->time, e->arg, e->target, e->type, e->phase);
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
    *r = q->runs_on ? first_run(q, key(&t->v[0])) : -1;
    if (*r >= 0)
        return run_head(&q->runs[*r]);
    if (t->v[0].time < 0) /* NO_EVENT: both heaps are empty */
        return NULL;
    *h = t;
    return &t->v[0];
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
