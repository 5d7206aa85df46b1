/* evq.c - the event queue of evq.h: a radix heap on time, with a small
 * binary heap for the events due at one instant.
 *
 * Simulated time never goes back: every event pushed is due at or after
 * `last`, the time of the last event popped (evq.h). A radix heap builds
 * on that. An event due at time t lies in bucket b, one more than the
 * highest bit in which t differs from `last` (bucket 0: t equal to
 * `last`). Every event of bucket b is due before every event of a higher
 * bucket, so the first event is in the lowest non-empty one. Buckets 1 to
 * 63 are unordered linked lists over one pool of events, each knowing its
 * first event by (time, order); bucket 0 is a binary heap on order
 * (phase, sequence), all its events sharing one time. A pop takes the top
 * of bucket 0 or, when bucket 0 is empty, the first event of the lowest
 * non-empty bucket: `last` moves to that event's time, and the bucket's
 * other events move to lower buckets (those due at the new `last` to
 * bucket 0). So the order of pops is exactly that of evq.h.
 *
 * Costs. A push is O(1): a slot from the free list, the bucket from an
 * xor and a count of leading zeros, a link at the list's head, a
 * comparison with the bucket's first event. An event only ever moves to a
 * lower bucket, of at most half the width in time: at most 63 moves in
 * its life, 1.5 to 4 per event in the engine's runs, each a few
 * instructions. Bucket 0 costs O(log k) per event for k events due
 * at the same instant: one or two on a quiet medium, about 50 in a
 * fixed-retry collapse of 1024 stations. Long gaps (backoffs, Poisson arrivals) only start events in
 * higher buckets. Against the two 4-ary heaps of 32-byte events this
 * replaces, which sifted events through log4(n) levels at each push and
 * pop (n: the events queued, about the number of stations in a crowd),
 * events are copied in and out once and move as 4-byte links. Measured
 * with callgrind on the benchmark's shapes (tests/bench), the queue's
 * instructions per event went from 151 to 130 on 64 saturated stations,
 * 231 to 149 on Poisson traffic, 220 to 158 and 420 to 312 in a
 * fixed-retry collapse of 16 and 1024 stations; what still grows with N
 * there is mostly bucket 0's heap.
 * Memory: 44 bytes per slot (40 in the pool, 4 in bucket 0's heap, which
 * can hold every event, so a pop never allocates); the slots double when
 * full and are never given back. The sequence number has 56 bits: FIFO
 * order would break after 2^56 pushes, more than two years of pushes at
 * 10^9 per second.
 */
#include "evq.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

#define NONE UINT32_MAX
#define BUCKETS 64 /* bucket 0 and one per bit of a non-negative time */

typedef struct node {
    sim_event ev;
    uint32_t next; /* the next event of its bucket's list, or of the free list */
} node;

struct evq {
    node *pool;
    uint32_t *now_heap;   /* bucket 0: slots of events due at `last` */
    size_t cap;           /* slots in the pool and in now_heap */
    size_t used;          /* slots ever taken: [used, cap) were never used */
    uint32_t free;        /* freed slots, linked by `next` */
    size_t size;          /* events queued */
    size_t now_size;      /* events in bucket 0 */
    uint64_t nonempty;    /* bit b set: bucket b (1..63) holds an event */
    uint32_t head[BUCKETS];  /* list of bucket b */
    uint32_t first[BUCKETS]; /* its first event by (time, order) */
    sim_time last;        /* time of the last event popped */
    uint64_t seq;
};

static inline bool before(const sim_event *a, const sim_event *b)
{
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

/* Bucket 0 as a binary heap of slots on `order` (all its events are due
 * at `last`): push and pop O(log k). Its capacity is that of the pool, so
 * moving events into it never allocates. */
static void now_push(evq *q, uint32_t s)
{
    uint64_t k = q->pool[s].ev.order;
    size_t i = q->now_size++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        uint32_t p = q->now_heap[parent];
        if (q->pool[p].ev.order <= k)
            break;
        q->now_heap[i] = p;
        i = parent;
    }
    q->now_heap[i] = s;
}

static uint32_t now_pop(evq *q)
{
    uint32_t top = q->now_heap[0];
    size_t n = --q->now_size;
    if (n == 0)
        return top;
    uint32_t s = q->now_heap[n];
    uint64_t k = q->pool[s].ev.order;
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && q->pool[q->now_heap[c + 1]].ev.order < q->pool[q->now_heap[c]].ev.order)
            c++;
        if (k <= q->pool[q->now_heap[c]].ev.order)
            break;
        q->now_heap[i] = q->now_heap[c];
        i = c;
    }
    q->now_heap[i] = s;
    return top;
}

/* Files slot s in its bucket relative to `last` (its time is not before). */
static inline void place(evq *q, uint32_t s)
{
    const sim_event *e = &q->pool[s].ev;
    uint64_t x = (uint64_t)e->time ^ (uint64_t)q->last;
    if (x == 0) {
        now_push(q, s);
        return;
    }
    unsigned b = 64u - (unsigned)__builtin_clzll(x); /* 1..63: times are below 2^63 */
    uint64_t bit = 1ULL << b;
    q->pool[s].next = q->nonempty & bit ? q->head[b] : NONE;
    q->head[b] = s;
    if (!(q->nonempty & bit) || before(e, &q->pool[q->first[b]].ev))
        q->first[b] = s;
    q->nonempty |= bit;
}

int evq_create(evq **out, size_t initial_capacity)
{
    evq *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->cap = initial_capacity < 16 ? 16 : initial_capacity;
    if (q->cap >= NONE) { /* slots are 32-bit, NONE excluded */
        free(q);
        return -1;
    }
    q->pool = malloc(q->cap * sizeof *q->pool);
    q->now_heap = malloc(q->cap * sizeof *q->now_heap);
    if (!q->pool || !q->now_heap) {
        evq_destroy(q);
        return -1;
    }
    q->free = NONE;
    *out = q;
    return 0;
}

void evq_destroy(evq *q)
{
    if (q) {
        free(q->pool);
        free(q->now_heap);
        free(q);
    }
}

/* Doubles the pool and bucket 0's heap; -1 (nothing changed that matters:
 * cap stays) when memory cannot be had. */
static int grow(evq *q)
{
    size_t ncap = q->cap * 2;
    if (ncap >= NONE)
        return -1;
    node *p = realloc(q->pool, ncap * sizeof *p);
    if (!p)
        return -1;
    q->pool = p;
    uint32_t *h = realloc(q->now_heap, ncap * sizeof *h);
    if (!h)
        return -1;
    q->now_heap = h;
    q->cap = ncap;
    return 0;
}

int evq_push(evq *q, const sim_event *e)
{
    assert(e->phase < 256 && e->time >= q->last);
    uint32_t s;
    if (q->free != NONE) {
        s = q->free;
        q->free = q->pool[s].next;
    } else {
        if (q->used == q->cap && grow(q) != 0)
            return -1;
        s = (uint32_t)q->used++;
    }
    sim_event *ev = &q->pool[s].ev;
    *ev = *e;
    ev->order = ((uint64_t)ev->phase << 56) | (q->seq++ & ((1ULL << 56) - 1));
    q->size++;
    place(q, s);
    return 0;
}

/* The first event, or NULL when the queue is empty. */
static inline const sim_event *top(const evq *q)
{
    if (q->now_size)
        return &q->pool[q->now_heap[0]].ev;
    if (!q->nonempty)
        return NULL;
    return &q->pool[q->first[__builtin_ctzll(q->nonempty)]].ev;
}

/* Removes the first event into *out; the queue is not empty. When bucket 0
 * is empty, the first event is that of the lowest non-empty bucket: it
 * leaves at once, `last` moves to its time and the other events of its
 * bucket move to lower ones. */
static void take(evq *q, sim_event *out)
{
    uint32_t f;
    if (q->now_size) {
        f = now_pop(q);
    } else {
        unsigned b = (unsigned)__builtin_ctzll(q->nonempty);
        f = q->first[b];
        q->nonempty &= ~(1ULL << b);
        q->last = q->pool[f].ev.time;
        for (uint32_t s = q->head[b]; s != NONE;) {
            uint32_t next = q->pool[s].next;
            if (s != f)
                place(q, s);
            s = next;
        }
    }
    *out = q->pool[f].ev;
    q->pool[f].next = q->free;
    q->free = f;
    q->size--;
}

int evq_pop(evq *q, sim_event *out)
{
    if (!q->size)
        return -1;
    take(q, out);
    return 0;
}

int evq_pop_before(evq *q, sim_time limit, sim_event *out)
{
    const sim_event *t = top(q);
    if (!t || t->time >= limit)
        return -1;
    take(q, out);
    return 0;
}

const sim_event *evq_peek(const evq *q) { return top(q); }

size_t evq_size(const evq *q) { return q->size; }

size_t evq_bytes(const evq *q)
{
    return sizeof *q + q->cap * (sizeof *q->pool + sizeof *q->now_heap);
}

uint64_t evq_pushed(const evq *q) { return q->seq; }
