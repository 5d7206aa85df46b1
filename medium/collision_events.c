/* collision_events.c - collision events on the medium; see collision_events.h.
 *
 * Transmissions are kept, in order of start, while one under way or to
 * come may still be linked to them. When a transmission ends it is judged
 * against every kept one that has ended (the pair's later end is now
 * known); a pair with one still under way is judged when that one ends.
 * A component (the set of linked transmissions, a record shared by its
 * members) is complete when its last member is dropped, and counted if it
 * has two or more.
 *
 * A kept transmission X that has ended can be dropped once nothing can be
 * linked to it any more: its tail has passed every station (a later start
 * meets it nowhere: now > eX + the longest delay from X) and every
 * transmission that started before then has ended (and so has been judged
 * against X).
 *
 * Each component keeps its members in a list, and the components with an
 * ended member kept are in a list too. An end is judged only against
 * those (transmissions under way are judged when they end), and against each
 * only until one link is found (one link joins them): in a crowded
 * collision nearly everything is one component, which costs nothing.
 * Components are merged by relabelling the members of the smaller one.
 */
#include "collision_events.h"

#include <stdlib.h>

#define NONE UINT32_MAX
/* In a component's size: it carries a listener's tag. A tagged component
 * is told of when complete, so the test for a tag hides in the test for
 * two or more members (an untagged one of one member passes both). */
#define TAGGED ((uint64_t)1 << 63)

typedef struct entry {
    uint32_t station;
    uint32_t comp;   /* while kept; the free list's link otherwise */
    uint32_t prev, next; /* the component's members */
    sim_time start;
    sim_time end;    /* SIM_TIME_NEVER while under way */
} entry;

typedef struct comp {
    uint64_t size;   /* transmissions linked into it, | TAGGED; 0 when free */
    uint32_t open;   /* of them, still kept */
    uint32_t ended;  /* of those, ended */
    uint32_t head;   /* first member kept */
    uint32_t prev_ended, next_ended; /* the components with ended > 0 */
    union {
        uint32_t next_free; /* while free */
        uint32_t tag;       /* while in use: the listener's (collision_events_tag) */
    };
} comp;

struct collision_events {
    uint32_t n;
    bool star;
    sim_time hub;       /* star: the repeater's delay */
    sim_time *pos;      /* bus: position; star: drop delay (medium.h) */
    sim_time *sorted;   /* bus: the positions in ascending order */
    sim_time *reach;    /* per station: the longest delay to any station */
    uint32_t *under_way; /* per station: its entry, or NONE */

    entry *pool;
    uint32_t pool_cap, pool_free;
    uint32_t *kept;     /* entries kept, in order of start */
    size_t n_kept;
    comp *comps;
    uint32_t comp_cap, comp_free;
    uint32_t ended_head; /* the components with an ended member kept */
    uint32_t *scratch;   /* room for every component: those to judge an end against */
    sim_time next_drop;  /* no kept transmission can be dropped before this */
    uint64_t complete;   /* components of two or more, complete */
    collision_listener listener; /* .merged NULL: none */
};

static int cmp_time(const void *a, const void *b)
{
    sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
    return (x > y) - (x < y);
}

int collision_events_create(const medium *m, collision_events **out)
{
    collision_events *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    uint32_t n = medium_station_count(m);
    size_t cells = n ? n : 1;
    c->n = n;
    c->star = medium_topology(m) == TOPOLOGY_STAR;
    c->pos = malloc(cells * sizeof *c->pos);
    c->sorted = malloc(cells * sizeof *c->sorted);
    c->reach = malloc(cells * sizeof *c->reach);
    c->under_way = malloc(cells * sizeof *c->under_way);
    c->pool_free = c->comp_free = c->ended_head = NONE;
    c->next_drop = SIM_TIME_NEVER;
    if (!c->pos || !c->sorted || !c->reach || !c->under_way) {
        collision_events_destroy(c);
        return -1;
    }
    for (uint32_t s = 0; s < n; s++) {
        c->pos[s] = c->sorted[s] = medium_station_pos(m, s);
        c->under_way[s] = NONE;
    }
    qsort(c->sorted, n, sizeof *c->sorted, cmp_time);
    /* the hub's delay: what a star adds between two drops */
    c->hub = c->star && n > 1 ? medium_delay(m, 0, 1) - c->pos[0] - c->pos[1] : 0;
    sim_time lo = c->sorted[0], hi = c->sorted[n ? n - 1 : 0];
    for (uint32_t s = 0; s < n; s++) {
        if (c->star) /* to the longest other drop; a lone station reaches no one */
            c->reach[s] = n > 1 ? c->pos[s] + c->hub + (c->pos[s] < hi ? hi : c->sorted[n - 2]) : 0;
        else
            c->reach[s] = c->pos[s] - lo > hi - c->pos[s] ? c->pos[s] - lo : hi - c->pos[s];
    }
    *out = c;
    return 0;
}

void collision_events_destroy(collision_events *c)
{
    if (!c)
        return;
    free(c->pos);
    free(c->sorted);
    free(c->reach);
    free(c->under_way);
    free(c->pool);
    free(c->kept);
    free(c->comps);
    free(c->scratch);
    free(c);
}

/* [a0, a1) and [b0, b1) overlap. */
static bool overlap(sim_time a0, sim_time a1, sim_time b0, sim_time b1)
{
    return a0 < b1 && b0 < a1;
}

/* Star: the delay from station x to observer k (a station). */
static sim_time star_delay(const collision_events *c, uint32_t x, uint32_t k)
{
    return x == k ? 0 : c->pos[x] + c->hub + c->pos[k];
}

/* Whether two ended transmissions overlap at a station (or the hub). */
static bool linked(const collision_events *c, const entry *a, const entry *b)
{
    if (c->star) {
        uint32_t sa = a->station, sb = b->station;
        sim_time da = c->pos[sa], db = c->pos[sb];
        if (overlap(a->start + da, a->end + da, b->start + db, b->end + db))
            return true; /* at the hub, hence at every other station too */
        const uint32_t at[2] = {sa, sb};
        for (int i = 0; i < 2; i++) {
            sim_time x = star_delay(c, sa, at[i]), y = star_delay(c, sb, at[i]);
            if (overlap(a->start + x, a->end + x, b->start + y, b->end + y))
                return true;
        }
        return false;
    }
    /* Bus. With A the left one, D = pB - pA and S = pA + pB, a station at p
     * sees A's signal later than B's by g(p) = |p - pA| - |p - pB|, which is
     * clamp(2p - S, -D, D), non-decreasing in p. They overlap there iff
     * lo < g(p) < hi with lo = sB - eA and hi = eB - sA: so look at the
     * first station whose g exceeds lo (stations A and B give -D and D). */
    if (c->pos[a->station] > c->pos[b->station]) {
        const entry *t = a;
        a = b;
        b = t;
    }
    sim_time pa = c->pos[a->station], pb = c->pos[b->station];
    sim_time d = pb - pa, sum = pa + pb;
    sim_time lo = b->start - a->end, hi = b->end - a->start;
    if (lo >= d)
        return false;
    if (lo < -d)
        return -d < hi; /* station A itself */
    size_t first = 0, last = c->n; /* first position with 2p - S > lo */
    while (first < last) {
        size_t mid = first + (last - first) / 2;
        if (2 * c->sorted[mid] - sum > lo)
            last = mid;
        else
            first = mid + 1;
    }
    sim_time g = 2 * c->sorted[first] - sum; /* first < n: station B qualifies */
    return (g < d ? g : d) < hi;
}

static void ended_add(collision_events *c, uint32_t k)
{
    comp *x = &c->comps[k];
    x->prev_ended = NONE;
    x->next_ended = c->ended_head;
    if (c->ended_head != NONE)
        c->comps[c->ended_head].prev_ended = k;
    c->ended_head = k;
}

static void ended_remove(collision_events *c, uint32_t k)
{
    comp *x = &c->comps[k];
    if (x->prev_ended != NONE)
        c->comps[x->prev_ended].next_ended = x->next_ended;
    else
        c->ended_head = x->next_ended;
    if (x->next_ended != NONE)
        c->comps[x->next_ended].prev_ended = x->prev_ended;
}

static void comp_free(collision_events *c, uint32_t k)
{
    c->comps[k].size = 0;
    c->comps[k].next_free = c->comp_free;
    c->comp_free = k;
}

/* Joins components x and y; returns the one that remains. */
static uint32_t merge(collision_events *c, uint32_t x, uint32_t y)
{
    if (c->comps[x].open > c->comps[y].open) {
        uint32_t t = x;
        x = y;
        y = t;
    }
    comp *from = &c->comps[x], *to = &c->comps[y];
    uint32_t last = NONE;
    for (uint32_t e = from->head; e != NONE; e = c->pool[e].next) {
        c->pool[e].comp = y;
        last = e;
    }
    if (last != NONE) { /* x's members go in front of y's */
        c->pool[last].next = to->head;
        if (to->head != NONE)
            c->pool[to->head].prev = last;
        to->head = from->head;
    }
    if (from->ended > 0) {
        ended_remove(c, x);
        if (to->ended == 0)
            ended_add(c, y);
    }
    if (__builtin_expect(from->size & TAGGED, 0)) { /* only a listener tags */
        if (to->size & TAGGED)
            c->listener.merged(c->listener.ctx, to->tag, from->tag);
        else
            to->tag = from->tag;
        to->size |= TAGGED;
        from->size &= ~TAGGED;
    }
    to->size += from->size;
    to->open += from->open;
    to->ended += from->ended;
    comp_free(c, x);
    return y;
}

/* Drops the kept transmissions nothing can be linked to from `now` on. */
static void drop_passed(collision_events *c, sim_time now)
{
    if (c->next_drop >= now)
        return; /* every ended one's tail passes at next_drop or later */
    sim_time first_open = SIM_TIME_NEVER; /* the earliest start under way */
    for (size_t i = 0; i < c->n_kept; i++)
        if (c->pool[c->kept[i]].end == SIM_TIME_NEVER) {
            first_open = c->pool[c->kept[i]].start;
            break;
        }
    sim_time next = SIM_TIME_NEVER;
    size_t w = 0;
    for (size_t i = 0; i < c->n_kept; i++) {
        uint32_t e = c->kept[i];
        entry *x = &c->pool[e];
        sim_time passed = x->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : x->end + c->reach[x->station];
        if (passed >= now || passed > first_open) {
            c->kept[w++] = e;
            if (passed < next)
                next = passed;
            continue;
        }
        comp *k = &c->comps[x->comp];
        if (x->prev != NONE)
            c->pool[x->prev].next = x->next;
        else
            k->head = x->next;
        if (x->next != NONE)
            c->pool[x->next].prev = x->prev;
        if (--k->ended == 0)
            ended_remove(c, x->comp);
        if (--k->open == 0) {
            if (k->size >= 2) {
                if (__builtin_expect(k->size & TAGGED, 0))
                    c->listener.complete(c->listener.ctx, k->tag, k->size & ~TAGGED);
                if ((k->size & ~TAGGED) >= 2)
                    c->complete++;
            }
            comp_free(c, x->comp);
        }
        x->comp = c->pool_free;
        c->pool_free = e;
    }
    c->n_kept = w;
    c->next_drop = next;
}

/* Grows the entry pool and the kept list with it. */
static int grow_pool(collision_events *c)
{
    uint32_t cap = c->pool_cap ? 2 * c->pool_cap : 16;
    entry *p = realloc(c->pool, cap * sizeof *p);
    if (!p)
        return -1;
    c->pool = p;
    uint32_t *k = realloc(c->kept, cap * sizeof *k);
    if (!k)
        return -1;
    c->kept = k;
    for (uint32_t i = c->pool_cap; i < cap; i++)
        p[i].comp = i + 1 < cap ? i + 1 : NONE;
    c->pool_free = c->pool_cap;
    c->pool_cap = cap;
    return 0;
}

static int grow_comps(collision_events *c)
{
    uint32_t cap = c->comp_cap ? 2 * c->comp_cap : 16;
    comp *k = realloc(c->comps, cap * sizeof *k);
    if (!k)
        return -1;
    c->comps = k;
    uint32_t *v = realloc(c->scratch, cap * sizeof *v);
    if (!v)
        return -1;
    c->scratch = v;
    for (uint32_t i = c->comp_cap; i < cap; i++)
        k[i].next_free = i + 1 < cap ? i + 1 : NONE;
    c->comp_free = c->comp_cap;
    c->comp_cap = cap;
    return 0;
}

int collision_events_begin(collision_events *c, uint32_t s, sim_time start)
{
    drop_passed(c, start);
    if ((c->pool_free == NONE && grow_pool(c) != 0) ||
        (c->comp_free == NONE && grow_comps(c) != 0))
        return -1;
    uint32_t e = c->pool_free, k = c->comp_free;
    c->pool_free = c->pool[e].comp;
    c->comp_free = c->comps[k].next_free;
    c->comps[k] = (comp){.size = 1, .open = 1, .head = e, .tag = 0};
    c->pool[e] = (entry){.station = s, .comp = k, .prev = NONE, .next = NONE, .start = start,
                         .end = SIM_TIME_NEVER};
    c->kept[c->n_kept++] = e; /* room reserved with the pool */
    c->under_way[s] = e;
    return 0;
}

void collision_events_end(collision_events *c, uint32_t s, sim_time end)
{
    uint32_t e = c->under_way[s];
    if (e == NONE)
        return;
    c->under_way[s] = NONE;
    entry *x = &c->pool[e];
    x->end = end;
    sim_time passed = end + c->reach[s];
    if (passed < c->next_drop)
        c->next_drop = passed;
    /* The other components with an ended member: one link joins each. */
    size_t n = 0;
    for (uint32_t k = c->ended_head; k != NONE; k = c->comps[k].next_ended)
        if (k != x->comp)
            c->scratch[n++] = k;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = c->scratch[i]; /* still open: merges here only free x's */
        if (k == x->comp)
            continue;
        for (uint32_t y = c->comps[k].head; y != NONE; y = c->pool[y].next)
            if (c->pool[y].end != SIM_TIME_NEVER && linked(c, x, &c->pool[y])) {
                merge(c, k, x->comp);
                break;
            }
    }
    if (c->comps[x->comp].ended++ == 0)
        ended_add(c, x->comp);
}

void collision_events_listen(collision_events *c, const collision_listener *l)
{
    c->listener = l ? *l : (collision_listener){0};
}

/* The kept entry of station s's transmission begun at start that is no
 * longer under way (rare: one shorter than a cable's delay), or NONE. */
__attribute__((noinline, cold)) static uint32_t kept_entry(const collision_events *c, uint32_t s,
                                                           sim_time start)
{
    for (size_t i = 0; i < c->n_kept; i++)
        if (c->pool[c->kept[i]].station == s && c->pool[c->kept[i]].start == start)
            return c->kept[i];
    return NONE;
}

uint32_t collision_events_tag(collision_events *c, uint32_t s, sim_time start, uint32_t tag)
{
    uint32_t e = c->under_way[s];
    if (c->listener.complete == NULL) /* nobody to tell of a tagged component */
        return NONE;
    if (__builtin_expect(e == NONE || c->pool[e].start != start, 0) &&
        (e = kept_entry(c, s, start)) == NONE)
        return NONE;
    comp *k = &c->comps[c->pool[e].comp];
    if (k->size & TAGGED)
        return k->tag;
    k->size |= TAGGED;
    k->tag = tag;
    return 0;
}

uint64_t collision_events_count(collision_events *c, sim_time now)
{
    drop_passed(c, now);
    return c->complete;
}

size_t collision_events_bytes(const collision_events *c)
{
    return sizeof *c + (size_t)c->n * (3 * sizeof(sim_time) + sizeof(uint32_t)) +
           (size_t)c->pool_cap * (sizeof *c->pool + sizeof(uint32_t)) +
           (size_t)c->comp_cap * sizeof *c->comps;
}
