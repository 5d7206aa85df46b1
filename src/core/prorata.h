/* prorata.h - a frame's bits credited to the time it was on the wire.
 *
 * A frame received whole carries `bits` (DA through FCS). At its receiver
 * it occupied the wire during [a, b): from its first preamble bit to its
 * last bit (carrier extension included). Its bits are spread evenly over
 * that span, so an interval [lo, hi) is credited
 *     bits x |[a, b) n [lo, hi)| / (b - a).
 * A rate measured over an interval is then what the wire carried in it,
 * not the number of whole frames that happened to end in it: one
 * saturated station's rate is the same in every interval longer than a
 * frame, to within one inter-frame gap (stations/MODEL.md, "Measures").
 *
 * The credit of an interval is final only once every frame that was on
 * the wire during it has had its verdict (the DELIVER trace event). A
 * prorata queue keeps the spans of recent frames, in the order of their
 * verdicts (non-decreasing b), so that an interval's credit can be read
 * when it becomes final, or the part of a frame's credit that falls after
 * a point can be taken back. Both the run's statistics (src/engine/stats.c)
 * and the time series (src/sinks/series.c) use it, so the two agree.
 *
 * Arithmetic in double: shares of one frame over adjacent intervals sum to
 * its bits to within rounding; everything is deterministic.
 */
#ifndef CSMACD_PRORATA_H
#define CSMACD_PRORATA_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

/* The share of `bits`, spread evenly over [a, b) (a < b), that falls in
 * [lo, hi); 0 when they do not overlap. O(1). */
static inline double prorata_share(uint64_t bits, sim_time a, sim_time b, sim_time lo,
                                   sim_time hi)
{
    sim_time from = a > lo ? a : lo, to = b < hi ? b : hi;
    if (to <= from)
        return 0;
    if (from == a && to == b)
        return (double)bits;
    return (double)bits * ((double)(to - from) / (double)(b - a));
}

/* Adds to bin[k], for k in [0, n), the share of [a, b) that falls in
 * [origin + k x width, origin + (k + 1) x width) (width > 0). Parts
 * outside the n bins are not counted. O(bins the span touches). */
void prorata_spread(double *bin, size_t n, sim_time origin, sim_time width, uint64_t bits,
                    sim_time a, sim_time b);

/* The queue of recent spans: a ring that doubles when full. Its layout
 * is in this header only so that push and forget, once per frame received
 * on the engine's hot path, inline; use it through the functions. */
typedef struct prorata_span {
    sim_time a, b;
    uint64_t bits;
} prorata_span;

typedef struct prorata {
    prorata_span *ring;
    size_t cap, head, count; /* cap is a power of two */
} prorata;

/* Returns 0, or -1 when memory cannot be had. */
int prorata_create(prorata **out);
void prorata_destroy(prorata *q);
/* Doubles the ring (prorata_push's slow path). Returns 0 or -1. */
int prorata_grow(prorata *q);

/* Appends a span (a < b; b not before the last one's). Returns 0, or -1
 * when memory cannot be had (the span is then not held). O(1) amortised. */
static inline int prorata_push(prorata *q, uint64_t bits, sim_time a, sim_time b)
{
    assert(a < b && (q->count == 0 || b >= q->ring[(q->head + q->count - 1) & (q->cap - 1)].b));
    if (q->count == q->cap && prorata_grow(q) != 0)
        return -1;
    q->ring[(q->head + q->count) & (q->cap - 1)] = (prorata_span){a, b, bits};
    q->count++;
    return 0;
}

/* Forgets the spans that end at or before t. O(1) amortised. */
static inline void prorata_forget(prorata *q, sim_time t)
{
    while (q->count && q->ring[q->head].b <= t) {
        q->head = (q->head + 1) & (q->cap - 1);
        q->count--;
    }
}

/* The credit of [lo, hi) from the spans held. O(spans held). */
double prorata_credit(const prorata *q, sim_time lo, sim_time hi);
size_t prorata_bytes(const prorata *q);

#endif
