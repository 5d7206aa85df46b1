/* evq.c - binary min-heap keyed by (time, phase, sequence); see evq.h. */
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

static inline int before(const sim_event *a, const sim_event *b)
{
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

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
    assert(ev.phase < 256);
    ev.order = ((uint64_t)ev.phase << 56) | (q->seq++ & ((1ULL << 56) - 1));
    size_t i = q->size++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&ev, &q->heap[parent]))
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
    size_t n = q->size, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!before(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n > 0)
        q->heap[i] = last;
    return 0;
}

const sim_event *evq_peek(const evq *q) { return q->size ? &q->heap[0] : NULL; }
size_t evq_size(const evq *q) { return q->size; }
size_t evq_bytes(const evq *q) { return sizeof *q + q->cap * sizeof *q->heap; }
uint64_t evq_pushed(const evq *q) { return q->seq; }
