/* medium.c - geometry, live transmissions and signal queries; see medium.h.
 *
 * Live transmissions sit in a ring buffer ordered by start time, so the
 * record of id k is at (head + k - first_id) and retiring is popping from
 * the front. A record may be retired once nothing can need it:
 *   - it has ended and its last bit has left the cable everywhere, plus
 *     retain_ps (a station's inter-frame gap may still be timed from it);
 *   - no reception that began before its signal died out is still to be
 *     judged (holds): a reception is judged against every overlapping
 *     signal, so while any record is held, no record whose signal could
 *     overlap it (any earlier one whose tail reaches past the held one's
 *     start) is retired.
 */
#include "medium.h"

#include <assert.h>
#include <stdlib.h>

struct medium {
    uint32_t n;
    topology_kind topology;
    sim_time *pos_ps;
    sim_time hub_ps;
    sim_time probe_pos_ps;
    sim_time max_delay;
    sim_time retain_ps, chain_ps, chain_cap_ps;
    bool fault;                   /* fault_start < fault_end */
    sim_time fault_start, fault_end;

    medium_tx *ring;
    size_t cap, head, count; /* cap is a power of two */
    uint64_t first_id, next_id;
    size_t held;             /* records with holds > 0 */
};

int medium_create(const medium_config *cfg, medium **out)
{
    medium *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->n = cfg->n_stations;
    m->topology = cfg->topology;
    m->hub_ps = cfg->hub_ps;
    m->probe_pos_ps = cfg->probe_pos_ps;
    m->retain_ps = cfg->retain_ps;
    m->chain_ps = cfg->chain_ps;
    m->chain_cap_ps = cfg->chain_cap_ps;
    m->fault = cfg->fault_end_ps > cfg->fault_start_ps;
    m->fault_start = cfg->fault_start_ps;
    m->fault_end = cfg->fault_end_ps;
    m->pos_ps = malloc((cfg->n_stations ? cfg->n_stations : 1) * sizeof *m->pos_ps);
    m->cap = 16;
    m->ring = malloc(m->cap * sizeof *m->ring);
    if (!m->pos_ps || !m->ring) {
        medium_destroy(m);
        return -1;
    }
    sim_time lo = 0, hi = 0, d1 = 0, d2 = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        sim_time p = cfg->pos_ps[i];
        m->pos_ps[i] = p;
        if (i == 0 || p < lo)
            lo = p;
        if (i == 0 || p > hi)
            hi = p;
        /* the two longest drops, for the star's diameter */
        if (p > d1) {
            d2 = d1;
            d1 = p;
        } else if (p > d2) {
            d2 = p;
        }
    }
    if (m->topology == TOPOLOGY_BUS)
        m->max_delay = hi - lo;
    else
        m->max_delay = m->n > 1 ? d1 + d2 + m->hub_ps : 0;
    *out = m;
    return 0;
}

void medium_destroy(medium *m)
{
    if (m) {
        free(m->pos_ps);
        free(m->ring);
        free(m);
    }
}

uint32_t medium_station_count(const medium *m) { return m->n; }
topology_kind medium_topology(const medium *m) { return m->topology; }
sim_time medium_station_pos(const medium *m, uint32_t s) { return m->pos_ps[s]; }

sim_time medium_delay(const medium *m, uint32_t a, uint32_t b)
{
    if (m->topology == TOPOLOGY_BUS) {
        sim_time d = m->pos_ps[a] - m->pos_ps[b];
        return d < 0 ? -d : d;
    }
    return a == b ? 0 : m->pos_ps[a] + m->hub_ps + m->pos_ps[b];
}

sim_time medium_probe_delay(const medium *m, uint32_t s)
{
    if (m->topology == TOPOLOGY_BUS) {
        sim_time d = m->pos_ps[s] - m->probe_pos_ps;
        return d < 0 ? -d : d;
    }
    /* The probe sits at the hub: the signal has crossed the drop cable.
     * (The repeater's own delay is counted on the way out to a station.) */
    return m->pos_ps[s];
}

sim_time medium_max_delay(const medium *m) { return m->max_delay; }

static inline medium_tx *slot(const medium *m, size_t i)
{
    return &m->ring[(m->head + i) & (m->cap - 1)];
}

uint64_t medium_tx_begin(medium *m, uint32_t station, sim_time start, uint64_t user)
{
    assert(station < m->n);
    assert(m->count == 0 || slot(m, m->count - 1)->start <= start);
    if (m->count == m->cap) {
        medium_tx *r = malloc(2 * m->cap * sizeof *r);
        if (!r)
            return UINT64_MAX;
        for (size_t i = 0; i < m->count; i++)
            r[i] = *slot(m, i);
        free(m->ring);
        m->ring = r;
        m->head = 0;
        m->cap *= 2;
    }
    if (m->count == 0)
        m->first_id = m->next_id;
    medium_tx *t = slot(m, m->count++);
    *t = (medium_tx){.id = m->next_id++, .station = station, .start = start,
                     .end = SIM_TIME_NEVER, .user = user};
    return t->id;
}

medium_tx *medium_tx_get(medium *m, uint64_t id)
{
    if (m->count == 0 || id < m->first_id || id - m->first_id >= m->count)
        return NULL;
    return slot(m, (size_t)(id - m->first_id));
}

void medium_tx_end(medium *m, uint64_t id, sim_time end)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t && t->end == SIM_TIME_NEVER && end > t->start);
    t->end = end;
}

void medium_hold(medium *m, uint64_t id)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t);
    if (t->holds++ == 0)
        m->held++;
}

void medium_release(medium *m, uint64_t id)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t && t->holds > 0);
    if (--t->holds == 0)
        m->held--;
}

static void pop_front(medium *m, size_t k)
{
    m->head = (m->head + k) & (m->cap - 1);
    m->count -= k;
    m->first_id += k;
}

void medium_retire(medium *m, sim_time now)
{
    if (m->count == 0 || slot(m, 0)->end == SIM_TIME_NEVER || slot(m, 0)->holds)
        return; /* the oldest record must stay, hence every later one */
    /* The earliest start among held records bounds what may go. */
    sim_time held_start = SIM_TIME_NEVER;
    if (m->held) {
        for (size_t i = 0; i < m->count; i++) {
            if (slot(m, i)->holds) {
                held_start = slot(m, i)->start;
                break;
            }
        }
    }
    sim_time quiet = m->retain_ps + m->max_delay;
    for (;;) {
        /* The front cluster: records each starting less than chain_ps
         * after every earlier one died out. It goes as a whole once it is
         * closed (the next record, or now, is chain_ps past its death). */
        sim_time dead = INT64_MIN;
        size_t k = 0;
        bool closed = false, blocked = false;
        for (; k < m->count; k++) {
            const medium_tx *t = slot(m, k);
            if (k > 0 && t->start >= dead + m->chain_ps) {
                closed = true;
                break;
            }
            if (t->end == SIM_TIME_NEVER || t->holds) {
                blocked = true;
                break;
            }
            sim_time d = t->end + m->max_delay;
            if (d > dead)
                dead = d;
        }
        if (k == 0 || blocked)
            break;
        if (!closed && now < dead + m->chain_ps)
            break;
        if (dead + quiet >= now || dead > held_start)
            break;
        pop_front(m, k);
    }
    /* A cluster that never closes (signals forever less than chain_ps
     * apart) would grow without bound: its oldest records go after
     * chain_cap_ps. */
    while (m->count) {
        const medium_tx *t = slot(m, 0);
        if (t->holds || t->end == SIM_TIME_NEVER)
            break;
        sim_time dead = t->end + m->max_delay;
        if (dead + quiet + m->chain_cap_ps >= now || dead > held_start)
            break;
        pop_front(m, 1);
    }
}

size_t medium_live_count(const medium *m) { return m->count; }
const medium_tx *medium_live_at(const medium *m, size_t i) { return slot(m, i); }

size_t medium_signal_count(const medium *m) { return m->count + (m->fault ? 1 : 0); }

/* Puts x into out[0..k), which is in order of arrival, after every entry
 * that arrives no later: one step of a stable insertion sort. */
static inline void insert_signal(medium_signal *out, size_t k, medium_signal x)
{
    while (k > 0 && out[k - 1].from > x.from) {
        out[k] = out[k - 1];
        k--;
    }
    out[k] = x;
}

/* Sorts signals by arrival: insertion sort for short runs (the usual case:
 * a handful of live signals, nearly in order), quicksort with a
 * median-of-three pivot above that (a crowded collision). The comparison
 * is inlined, which is what makes it cheaper than qsort here. */
static void sort_signals(medium_signal *a, size_t n)
{
    while (n > 24) {
        size_t mid = n / 2;
        sim_time x = a[0].from, y = a[mid].from, z = a[n - 1].from;
        sim_time pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t i = 0, j = n - 1;
        for (;;) {
            while (a[i].from < pivot)
                i++;
            while (a[j].from > pivot)
                j--;
            if (i >= j)
                break;
            medium_signal t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
        /* recurse into the smaller part, loop on the larger */
        size_t left = j + 1;
        if (left < n - left) {
            sort_signals(a, left);
            a += left;
            n -= left;
        } else {
            sort_signals(a + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++)
        insert_signal(a, i, a[i]);
}

/* Appends x to out[0..k), or inserts it in order of arrival. */
static inline void put_signal(medium_signal *out, size_t k, medium_signal x, bool insert)
{
    if (insert)
        insert_signal(out, k, x);
    else
        out[k] = x;
}

size_t medium_signals_at(const medium *m, uint32_t j, medium_signal *out, size_t cap)
{
    size_t n = medium_signal_count(m);
    if (n > cap)
        n = cap;
    /* A handful of signals (the usual case) are sorted as they are made,
     * and ties keep the live order; a crowd is made, then sorted. */
    bool insert = n <= 24;
    size_t k = 0;
    for (size_t i = 0; i < m->count && k < cap; i++) {
        const medium_tx *t = slot(m, i);
        sim_time d = medium_delay(m, t->station, j);
        medium_signal x = {t->start + d, t->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : t->end + d,
                           t->station, t->station == j};
        put_signal(out, k++, x, insert);
    }
    if (m->fault && k < cap) { /* present everywhere at once: no delay */
        medium_signal x = {m->fault_start, m->fault_end, MEDIUM_FAULT_STATION, false};
        put_signal(out, k++, x, insert);
    }
    if (!insert)
        sort_signals(out, k);
    return k;
}

sim_time medium_foreign_signal_from(const medium *m, uint32_t j, sim_time t)
{
    sim_time best = SIM_TIME_NEVER;
    for (size_t i = 0; i < m->count; i++) {
        const medium_tx *x = slot(m, i);
        if (x->station == j)
            continue;
        sim_time d = medium_delay(m, x->station, j);
        sim_time from = x->start + d;
        if (x->end != SIM_TIME_NEVER && x->end + d <= t)
            continue; /* passed j before t */
        sim_time at = from > t ? from : t;
        if (at < best)
            best = at;
    }
    if (m->fault && m->fault_end > t) {
        sim_time at = m->fault_start > t ? m->fault_start : t;
        if (at < best)
            best = at;
    }
    return best;
}

bool medium_overlapped_at(const medium *m, uint64_t rx, uint32_t j)
{
    const medium_tx *r = medium_tx_get((medium *)m, rx);
    assert(r && r->end != SIM_TIME_NEVER);
    sim_time dr = medium_delay(m, r->station, j);
    sim_time a = r->start + dr, b = r->end + dr;
    if (m->fault && m->fault_start < b && a < m->fault_end)
        return true;
    for (size_t i = 0; i < m->count; i++) {
        const medium_tx *x = slot(m, i);
        if (x->id == rx)
            continue;
        sim_time d = medium_delay(m, x->station, j);
        sim_time xa = x->start + d;
        sim_time xb = x->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : x->end + d;
        if (xa < b && a < xb)
            return true;
    }
    return false;
}

size_t medium_bytes(const medium *m)
{
    return sizeof *m + m->n * sizeof *m->pos_ps + m->cap * sizeof *m->ring;
}
