/* segnet_int.c - the network's records of the frames on their way and its
 * paths through the tree of segments and repeaters; see segnet_int.h. The
 * lowest of the network's files: it calls none of the others.
 */
#include "segnet_int.h"
#include "zero.h"

#include <stdlib.h>
#include <string.h>

/* ---- the frames' records ------------------------------------------------- */

uint32_t key_new(segnet *n)
{
    if (n->c_free == NONE) {
        uint32_t cap = n->c_cap ? 2 * n->c_cap : 16;
        carried *c = realloc(n->c, cap * sizeof *c);
        if (c)
            n->c = c;
        uint64_t *tx = realloc(n->relay_tx, (size_t)cap * n->n_seg * sizeof *tx);
        if (tx)
            n->relay_tx = tx;
        uint8_t *st = realloc(n->relay_st, (size_t)cap * n->n_seg);
        if (st)
            n->relay_st = st;
        if (!c || !tx || !st) {
            *n->no_memory = true;
            return NONE;
        }
        for (uint32_t i = n->c_cap; i < cap; i++)
            n->c[i].next_free = i + 1 < cap ? i + 1 : NONE;
        n->c_free = n->c_cap;
        n->c_cap = cap;
    }
    uint32_t k = n->c_free;
    n->c_free = n->c[k].next_free;
    zero_record(&n->c[k], sizeof n->c[k]);
    n->c[k].refs = 1;
    n->c[k].end = SIM_TIME_NEVER;
    if (n->n_rep) /* relays only with repeaters */
        memset(&n->relay_st[(size_t)k * n->n_seg], RELAY_NONE, n->n_seg);
    return k;
}

void relay_release(segnet *n, uint32_t k, uint32_t s)
{
    size_t i = (size_t)k * n->n_seg + s;
    if (n->relay_st[i] != RELAY_NONE) {
        medium_release(n->seg[s].med, n->relay_tx[i]);
        n->relay_st[i] = RELAY_NONE;
    }
}

void key_release(segnet *n, uint32_t k)
{
    if (k == NONE || --n->c[k].refs > 0)
        return;
    for (uint32_t s = 0; n->n_rep && s < n->n_seg; s++)
        relay_release(n, k, s);
    n->c[k].next_free = n->c_free;
    n->c_free = k;
}

/* ---- paths --------------------------------------------------------------- */

/* One walk of the tree of segments and repeaters from tap `tap` of segment
 * s, not back through repeater `from`, `base` the delay to that tap:
 * towards tap w->to_tap of segment w->to (true when there, the delay in
 * w->d: the tree has one path), or, with w->to NONE, the longest delay to
 * any station (or repeater port beyond which there is none) in w->d. */
typedef struct walk {
    uint32_t to, to_tap;
    sim_time d;
} walk;

static bool walk_from(const segnet *n, uint32_t s, uint32_t tap, uint32_t from, sim_time base,
                      walk *w)
{
    const seg_run *g = &n->seg[s];
    if (s == w->to) {
        w->d = base + medium_delay(g->med, tap, w->to_tap);
        return true;
    }
    if (w->to == NONE) {
        if (base > w->d)
            w->d = base;
        for (uint32_t j = 0; j < g->n_st; j++) {
            sim_time d = base + medium_delay(g->med, tap, j);
            if (d > w->d)
                w->d = d;
        }
    }
    for (uint32_t pt = g->n_st; pt < g->rp_end; pt++) {
        const port_run *p = &n->port[g->port_of[pt - g->n_st]];
        const rep_run *r = &n->rep[p->rep];
        if (p->rep == from)
            continue;
        sim_time through = base + medium_delay(g->med, tap, pt) + r->delay_ps;
        for (uint32_t qi = r->first_port; qi < r->first_port + r->n_ports; qi++) {
            const port_run *q = &n->port[qi];
            if (q != p && walk_from(n, q->seg, q->tap, p->rep, through, w))
                return true;
        }
    }
    return false;
}

bool segnet_path_delay(const segnet *n, uint32_t s, uint32_t tap, uint32_t to, uint32_t to_tap,
                       sim_time *d)
{
    if (s == to) { /* the one segment (most frames): no walk */
        *d = medium_delay(n->seg[s].med, tap, to_tap);
        return true;
    }
    walk w = {.to = to, .to_tap = to_tap};
    bool found = walk_from(n, s, tap, NONE, 0, &w);
    *d = w.d;
    return found;
}

sim_time segnet_farthest(const segnet *n, uint32_t s, uint32_t tap)
{
    walk w = {.to = NONE};
    walk_from(n, s, tap, NONE, 0, &w);
    return w.d;
}

/* ---- a domain's collision events --------------------------------------- */

/* The segment trackers' components, for the collision events of a domain
 * of several segments (domain_events.h): a component joins a repeater's
 * episode when the repeater hears one of its members or relays into it;
 * the first episode it joins is its tag (less one) and holds a
 * reference for it, later ones are linked to it. */
void seg_join(seg_run *g, uint32_t tap, sim_time start, uint32_t node, int64_t macs)
{
    if (node == NONE)
        return;
    uint32_t had = mac_collision_tag(g->mac, tap, start, node + 1);
    if (had == NONE)
        return;
    if (had == 0) {
        domain_events_hold(g->net->dev, node, macs);
        return;
    }
    if (had != node + 1) /* (mostly it is: a component joins its own episode again) */
        domain_events_link(g->net->dev, had - 1, node);
    if (macs != 0)
        domain_events_weigh(g->net->dev, node, macs);
}
