/* domain_events.c - collision events of a collision domain of several
 * segments; see domain_events.h. */
#include "domain_events.h"

#include <stdlib.h>

#define NONE DOMAIN_EVENTS_NONE

typedef struct dnode {
    uint32_t parent;  /* union-find; the free list's link while free */
    uint32_t next;    /* the set's members, from its root */
    uint32_t tail;    /* root: the last member */
    uint32_t size;    /* root: members */
    uint32_t open;    /* root: members not closed */
    uint32_t macs;    /* root: stations' and bridge ports' transmissions */
    uint32_t slot;    /* its tap (index into taps), NONE for an episode */
    uint32_t domain;
    sim_time start;
    bool closed;
} dnode;

/* A tap's transmissions with a node, in no order (a handful at most). */
typedef struct tap_nodes {
    uint32_t *ids;
    uint32_t n, cap;
} tap_nodes;

struct domain_events {
    uint32_t n_seg, n_dom;
    uint32_t *first_tap; /* per segment: its first tap's index in `taps` */
    uint32_t *dom_of;    /* per segment */
    tap_nodes *taps;
    uint32_t n_taps;
    dnode *nodes;
    uint32_t cap, free_head;
    uint64_t *complete;  /* per domain */
};

int domain_events_create(uint32_t n_seg, const uint32_t *taps, const uint32_t *domain_of,
                         uint32_t n_dom, domain_events **out)
{
    domain_events *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    *out = d;
    d->n_seg = n_seg;
    d->n_dom = n_dom;
    d->free_head = NONE;
    d->first_tap = malloc((n_seg ? n_seg : 1) * sizeof *d->first_tap);
    d->dom_of = malloc((n_seg ? n_seg : 1) * sizeof *d->dom_of);
    d->complete = calloc(n_dom ? n_dom : 1, sizeof *d->complete);
    if (!d->first_tap || !d->dom_of || !d->complete)
        return -1;
    for (uint32_t s = 0; s < n_seg; s++) {
        d->first_tap[s] = d->n_taps;
        d->dom_of[s] = domain_of[s];
        d->n_taps += taps[s];
    }
    d->taps = calloc(d->n_taps ? d->n_taps : 1, sizeof *d->taps);
    return d->taps ? 0 : -1;
}

void domain_events_destroy(domain_events *d)
{
    if (!d)
        return;
    for (uint32_t i = 0; d->taps && i < d->n_taps; i++)
        free(d->taps[i].ids);
    free(d->taps);
    free(d->first_tap);
    free(d->dom_of);
    free(d->nodes);
    free(d->complete);
    free(d);
}

static uint32_t find(domain_events *d, uint32_t x)
{
    while (d->nodes[x].parent != x) {
        d->nodes[x].parent = d->nodes[d->nodes[x].parent].parent; /* path halving */
        x = d->nodes[x].parent;
    }
    return x;
}

/* A new open node, alone in its set. */
static uint32_t node_new(domain_events *d, uint32_t slot, uint32_t domain, sim_time start, bool mac)
{
    if (d->free_head == NONE) {
        uint32_t cap = d->cap ? 2 * d->cap : 64;
        dnode *k = realloc(d->nodes, cap * sizeof *k);
        if (!k)
            return NONE;
        d->nodes = k;
        for (uint32_t i = d->cap; i < cap; i++)
            k[i].parent = i + 1 < cap ? i + 1 : NONE;
        d->free_head = d->cap;
        d->cap = cap;
    }
    uint32_t x = d->free_head;
    d->free_head = d->nodes[x].parent;
    d->nodes[x] = (dnode){.parent = x, .next = NONE, .tail = x, .size = 1, .open = 1,
                          .macs = mac, .slot = slot, .domain = domain, .start = start};
    return x;
}

uint32_t domain_events_tx(domain_events *d, uint32_t s, uint32_t tap, sim_time start, bool mac)
{
    uint32_t slot = d->first_tap[s] + tap;
    tap_nodes *t = &d->taps[slot];
    for (uint32_t i = 0; i < t->n; i++)
        if (d->nodes[t->ids[i]].start == start)
            return t->ids[i];
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 4;
        uint32_t *ids = realloc(t->ids, cap * sizeof *ids);
        if (!ids)
            return NONE;
        t->ids = ids;
        t->cap = cap;
    }
    uint32_t x = node_new(d, slot, d->dom_of[s], start, mac);
    if (x != NONE)
        t->ids[t->n++] = x;
    return x;
}

uint32_t domain_events_episode(domain_events *d, uint32_t domain)
{
    return node_new(d, NONE, domain, 0, false);
}

void domain_events_link(domain_events *d, uint32_t a, uint32_t b)
{
    if (a == NONE || b == NONE)
        return;
    uint32_t x = find(d, a), y = find(d, b);
    if (x == y)
        return;
    if (d->nodes[x].size > d->nodes[y].size) { /* the smaller under the larger */
        uint32_t t = x;
        x = y;
        y = t;
    }
    dnode *from = &d->nodes[x], *to = &d->nodes[y];
    from->parent = y;
    d->nodes[to->tail].next = x; /* x's members after y's */
    to->tail = from->tail;
    to->size += from->size;
    to->open += from->open;
    to->macs += from->macs;
}

/* Every member of the complete set of root x goes back to the free list,
 * its tap forgetting it. */
static void set_free(domain_events *d, uint32_t x)
{
    for (uint32_t k = x, next; k != NONE; k = next) {
        dnode *m = &d->nodes[k];
        next = m->next;
        if (m->slot != NONE) {
            tap_nodes *t = &d->taps[m->slot];
            for (uint32_t i = 0; i < t->n; i++)
                if (t->ids[i] == k) {
                    t->ids[i] = t->ids[--t->n];
                    break;
                }
        }
        m->parent = d->free_head;
        d->free_head = k;
    }
}

void domain_events_close(domain_events *d, uint32_t node)
{
    if (node == NONE || d->nodes[node].closed)
        return;
    d->nodes[node].closed = true;
    uint32_t x = find(d, node);
    if (--d->nodes[x].open > 0)
        return;
    if (d->nodes[x].macs >= 2) /* two stations' (or ports') transmissions: a collision */
        d->complete[d->nodes[x].domain]++;
    set_free(d, x);
}

void domain_events_dropped(domain_events *d, uint32_t s, uint32_t tap, sim_time start)
{
    const tap_nodes *t = &d->taps[d->first_tap[s] + tap];
    for (uint32_t i = 0; i < t->n; i++)
        if (d->nodes[t->ids[i]].start == start) {
            domain_events_close(d, t->ids[i]);
            return;
        }
}

uint64_t domain_events_count(const domain_events *d, uint32_t domain)
{
    return d->complete[domain];
}

size_t domain_events_bytes(const domain_events *d)
{
    size_t b = sizeof *d + (size_t)d->cap * sizeof *d->nodes +
               (size_t)d->n_taps * sizeof *d->taps + (size_t)d->n_dom * sizeof *d->complete;
    for (uint32_t i = 0; i < d->n_taps; i++)
        b += d->taps[i].cap * sizeof(uint32_t);
    return b;
}
