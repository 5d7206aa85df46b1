/* prorata.c - spans of frames on the wire and their credit; see prorata.h.
 *
 * Spans arrive in the order of their ends, so the ones to forget are
 * always at the front of the ring.
 */
#include "prorata.h"

#include <assert.h>
#include <stdlib.h>

void prorata_spread(double *bin, size_t n, sim_time origin, sim_time width, uint64_t bits,
                    sim_time a, sim_time b)
{
    assert(width > 0 && a < b);
    sim_time end = origin + (sim_time)n * width;
    if (b <= origin || a >= end)
        return;
    size_t k = a > origin ? (size_t)((a - origin) / width) : 0;
    for (; k < n; k++) {
        sim_time lo = origin + (sim_time)k * width;
        if (lo >= b)
            break;
        bin[k] += prorata_share(bits, a, b, lo, lo + width);
    }
}

int prorata_create(prorata **out)
{
    prorata *q = calloc(1, sizeof *q);
    if (q == NULL)
        return -1;
    q->cap = 16;
    q->ring = malloc(q->cap * sizeof *q->ring);
    if (q->ring == NULL) {
        free(q);
        return -1;
    }
    *out = q;
    return 0;
}

void prorata_destroy(prorata *q)
{
    if (q) {
        free(q->ring);
        free(q);
    }
}

static prorata_span *at(const prorata *q, size_t i)
{
    return &q->ring[(q->head + i) & (q->cap - 1)];
}

int prorata_grow(prorata *q)
{
    prorata_span *r = malloc(2 * q->cap * sizeof *r);
    if (r == NULL)
        return -1;
    for (size_t i = 0; i < q->count; i++)
        r[i] = *at(q, i);
    free(q->ring);
    q->ring = r;
    q->head = 0;
    q->cap *= 2;
    return 0;
}

double prorata_credit(const prorata *q, sim_time lo, sim_time hi)
{
    double sum = 0;
    for (size_t i = 0; i < q->count; i++) {
        const prorata_span *s = at(q, i);
        sum += prorata_share(s->bits, s->a, s->b, lo, hi);
    }
    return sum;
}

size_t prorata_bytes(const prorata *q) { return sizeof *q + q->cap * sizeof *q->ring; }
