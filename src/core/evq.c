/* evq.c - a 4-ary min-heap keyed by (time, phase, sequence); see evq.h. */
#include "evq.h"

#include <assert.h>
#include <stdlib.h>

struct evq {
    sim_event *heap;
    size_t size, cap;
    uint64_t seq;
};

int evq_create(evq **out, size_t initial_capacity)
{
    evq *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->cap = initial_capacity < 16 ? 16 : initial_capacity;
    q->heap = malloc(q->cap * sizeof *q->heap);
    if (!q->heap) {
        free(q);
        return -1;
    }
    *out = q;
    return 0;
}

void evq_destroy(evq *q)
{
    if (q) {
        free(q->heap);
        free(q);
    }
}

/* The order of evq.h as one unsigned 128-bit key: time (never negative in
 * a run) above, phase and sequence below. */
static inline unsigned __int128 key(const sim_event *e)
{
    return ((unsigned __int128)(uint64_t)e->time << 64) | e->order;
}

/* A 4-ary heap: half the depth of a binary one, and the four children of
 * a node share a cache line or two, which makes both sifts cheaper. */
#define ARITY 4

int evq_push(evq *q, sim_event ev)
{
    if (q->size == q->cap) {
        size_t ncap = q->cap * 2;
        sim_event *h = realloc(q->heap, ncap * sizeof *h);
        if (!h)
            return -1;
        q->heap = h;
        q->cap = ncap;
    }
    assert(ev.phase < 256 && ev.time >= 0);
    ev.order = ((uint64_t)ev.phase << 56) | (q->seq++ & ((1ULL << 56) - 1));
    unsigned __int128 k = key(&ev);
    size_t i = q->size++;
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (key(&q->heap[parent]) <= k)
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
    return 0;
}

int evq_pop(evq *q, sim_event *out)
{
    if (q->size == 0)
        return -1;
    *out = q->heap[0];
    sim_event last = q->heap[--q->size];
    unsigned __int128 k = key(&last);
    size_t n = q->size, i = 0;
    for (;;) {
        size_t first = ARITY * i + 1;
        if (first >= n)
            break;
        size_t end = first + ARITY < n ? first + ARITY : n, best = first;
        unsigned __int128 bk = key(&q->heap[first]);
        for (size_t c = first + 1; c < end; c++) {
            unsigned __int128 ck = key(&q->heap[c]);
            if (ck < bk) {
                bk = ck;
                best = c;
            }
        }
        if (k <= bk)
            break;
        q->heap[i] = q->heap[best];
        i = best;
    }
    if (n > 0)
        q->heap[i] = last;
    return 0;
}

const sim_event *evq_peek(const evq *q) { return q->size ? &q->heap[0] : NULL; }
size_t evq_size(const evq *q) { return q->size; }
size_t evq_bytes(const evq *q) { return sizeof *q + q->cap * sizeof *q->heap; }
uint64_t evq_pushed(const evq *q) { return q->seq; }
