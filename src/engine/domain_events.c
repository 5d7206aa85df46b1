/* domain_events.c - collision events of a collision domain of several
 * segments; see domain_events.h. */
#include "domain_events.h"

#include <stdlib.h>

#define NONE DOMAIN_EVENTS_NONE

typedef struct dnode {
    uint32_t parent; /* union-find; the free list's link while free */
    uint32_t next;   /* the set's members, from its root */
    uint32_t tail;   /* root: the last member */
    uint32_t size;   /* root: members */
    uint32_t open;   /* root: references not released */
    uint32_t domain;
    int64_t macs;    /* root: stations' and bridge ports' transmissions */
} dnode;

struct domain_events {
    uint32_t n_dom;
    dnode *nodes;
    uint32_t cap, free_head;
    uint64_t *complete; /* per domain */
};

int domain_events_create(uint32_t n_dom, domain_events **out)
{
    domain_events *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    *out = d;
    d->n_dom = n_dom;
    d->free_head = NONE;
    d->complete = calloc(n_dom ? n_dom : 1, sizeof *d->complete);
    return d->complete ? 0 : -1;
}

void domain_events_destroy(domain_events *d)
{
    if (!d)
        return;
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

uint32_t domain_events_node(domain_events *d, uint32_t domain)
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
                          .domain = domain};
    return x;
}

/* Links a and b; returns their set's root. */
static uint32_t link_roots(domain_events *d, uint32_t a, uint32_t b)
{
    uint32_t x = find(d, a), y = find(d, b);
    if (x == y)
        return x;
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
    return y;
}

void domain_events_link(domain_events *d, uint32_t a, uint32_t b)
{
    if (a != NONE && b != NONE && a != b)
        link_roots(d, a, b);
}

void domain_events_merge(domain_events *d, uint32_t a, uint32_t b)
{
    d->nodes[link_roots(d, a, b)].open--; /* a's reference still holds it */
}

void domain_events_hold(domain_events *d, uint32_t node, int64_t macs)
{
    dnode *root = &d->nodes[find(d, node)];
    root->open++;
    root->macs += macs;
}

void domain_events_weigh(domain_events *d, uint32_t node, int64_t macs)
{
    if (node != NONE)
        d->nodes[find(d, node)].macs += macs;
}

void domain_events_close(domain_events *d, uint32_t node, uint64_t transmissions)
{
    if (node == NONE)
        return;
    uint32_t x = find(d, node);
    dnode *root = &d->nodes[x];
    root->macs += (int64_t)transmissions;
    if (--root->open > 0)
        return;
    if (root->macs >= 2) /* two stations' (or ports') transmissions: a collision */
        d->complete[root->domain]++;
    for (uint32_t k = x, next; k != NONE; k = next) { /* the set back to the free list */
        next = d->nodes[k].next;
        d->nodes[k].parent = d->free_head;
        d->free_head = k;
    }
}

uint64_t domain_events_count(const domain_events *d, uint32_t domain)
{
    return d->complete[domain];
}

size_t domain_events_bytes(const domain_events *d)
{
    return sizeof *d + (size_t)d->cap * sizeof *d->nodes + (size_t)d->n_dom * sizeof *d->complete;
}
