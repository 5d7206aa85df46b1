/* collision_events.c - collision events on the medium; see collision_events.h.
 *
 * Transmissions are kept in a ring, in order of start, from the oldest one
 * whose component is not complete to the newest. A component (the set of
 * linked transmissions) is a union-find tree over the ring's slots: its
 * root carries the component's counts, and its members form a circle
 * (`next`), so two components join in O(1), the one with fewer members
 * kept under the other.
 *
 * When a transmission ends it is judged against the components with an
 * ended member kept (the pair's later end is now known); a pair with one
 * still under way is judged when that one ends. Against each only until
 * one link is found (one link joins them): in a crowded collision nearly
 * everything is already one component, which costs nothing.
 *
 * A kept transmission X that has ended can be dropped once nothing can be
 * linked to it any more: its tail has passed every station (a later start
 * meets it nowhere: now > eX + the longest delay from X) and every
 * transmission that started before then has ended (and so has been judged
 * against X). A component is complete when its last member is dropped,
 * and counted if it has two or more. Its slots are free again once the
 * components before it in the ring are complete too.
 *
 * The usual case costs no look at the transmissions: when nothing is under
 * way and every tail kept has passed (the medium has fallen silent
 * everywhere, as it does between busy periods), everything kept can be
 * dropped, so the ring is emptied at once and the components of two or
 * more it held, counted as they formed (`pending`), are complete
 * (drop_all). Only otherwise are the transmissions looked at one by one
 * (drop_passed), and when
 * - someone listens: at every start and count where one may be dropped,
 *   as its answers (collision_events_tag) and the instants of its
 *   completions depend on what is kept;
 * - nobody listens: only at a count and when the ring is full. What can
 *   be dropped at one instant can be at every later one (a later start
 *   begins after the tail has passed; one under way then has ended or is
 *   still there), and a transmission that can be dropped is never linked
 *   to one after it, so the components complete at a count are the same
 *   whenever the drops were done.
 */
#include "collision_events.h"

#include <stdlib.h>

#define NONE UINT32_MAX
/* In a component's size: it carries a listener's tag. A tagged component
 * is told of when complete, so the test for a tag hides in the test for
 * two or more members (an untagged one of one member passes both). */
#define TAGGED ((uint64_t)1 << 63)
/* last_passed when nothing ended is kept */
#define LONG_AGO INT64_MIN
#define RING_FIRST 16 /* slots (a power of two) */

typedef enum { KEPT, DROPPED, GONE } entry_state; /* DROPPED: its component goes on */

typedef struct entry {
    sim_time start;
    sim_time end;    /* SIM_TIME_NEVER while under way */
    uint64_t size;   /* root: transmissions linked into it, | TAGGED */
    uint32_t station;
    uint32_t parent; /* a slot of the same component; the root's is its own */
    uint32_t next;   /* the next member of its component, round a circle */
    uint32_t open;   /* root: members not dropped */
    uint32_t ended;  /* root: of those, ended */
    uint32_t tag;    /* root: the listener's (collision_events_tag) */
    uint32_t at;     /* root with ended > 0: its place in ended_roots */
    uint8_t state;   /* entry_state */
    bool judged;     /* ended and joined to what it meets */
} entry;

struct collision_events {
    uint32_t n;
    bool star;
    sim_time hub;       /* star: the repeater's delay */
    sim_time *pos;      /* bus: position; star: drop delay (medium.h) */
    sim_time *sorted;   /* bus: the positions in ascending order */
    sim_time *reach;    /* per station: the longest delay to any station */
    uint32_t *under_way; /* per station: its slot, or NONE */

    entry *ring;
    uint32_t cap;       /* slots, a power of two */
    uint32_t lo, hi;    /* kept: the numbers [lo, hi) in order of start, slot = number & (cap - 1) */
    uint32_t live;      /* of them, under way */
    uint32_t unjudged;  /* of them, ended and not judged yet (nobody listens) */
    sim_time last_passed; /* no ended tail kept passes the last station after this */
    sim_time next_drop; /* no kept transmission can be dropped before this */
    uint32_t *ended_roots; /* the components with an ended member kept */
    uint32_t n_ended;
    uint64_t pending;   /* components of two or more kept, not complete */
    uint64_t complete;  /* components of two or more, complete */
    collision_listener listener; /* .complete NULL: none */
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
    c->cap = RING_FIRST;
    c->ring = malloc(c->cap * sizeof *c->ring);
    c->ended_roots = malloc(c->cap * sizeof *c->ended_roots);
    c->last_passed = LONG_AGO;
    c->next_drop = SIM_TIME_NEVER;
    if (!c->pos || !c->sorted || !c->reach || !c->under_way || !c->ring || !c->ended_roots) {
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
    free(c->ring);
    free(c->ended_roots);
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

/* The root of slot x's component (halving the path on the way). */
static uint32_t find(entry *r, uint32_t x)
{
    while (r[x].parent != x) {
        r[x].parent = r[r[x].parent].parent;
        x = r[x].parent;
    }
    return x;
}

static void ended_add(collision_events *c, uint32_t k)
{
    c->ring[k].at = c->n_ended;
    c->ended_roots[c->n_ended++] = k;
}

static void ended_remove(collision_events *c, uint32_t k)
{
    uint32_t last = c->ended_roots[--c->n_ended];
    c->ended_roots[c->ring[k].at] = last;
    c->ring[last].at = c->ring[k].at;
}

/* Joins the components of roots a and b; returns the root that remains. */
static uint32_t unite(collision_events *c, uint32_t a, uint32_t b)
{
    entry *r = c->ring;
    if (r[a].open > r[b].open) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    entry *from = &r[a], *to = &r[b];
    from->parent = b;
    uint32_t t = from->next; /* two circles become one */
    from->next = to->next;
    to->next = t;
    if (from->ended > 0) {
        ended_remove(c, a);
        if (to->ended == 0)
            ended_add(c, b);
    }
    if (__builtin_expect(from->size & TAGGED, 0)) { /* only a listener tags */
        if (to->size & TAGGED)
            c->listener.merged(c->listener.ctx, to->tag, from->tag);
        else
            to->tag = from->tag;
        to->size |= TAGGED;
        from->size &= ~TAGGED;
    }
    c->pending -= (from->size >= 2) + ((to->size & ~TAGGED) >= 2);
    c->pending++; /* two or more now */
    to->size += from->size;
    to->open += from->open;
    to->ended += from->ended;
    return b;
}

/* Root k's component is complete: counted, told of, its slots free. */
static void complete_one(collision_events *c, uint32_t k)
{
    entry *r = c->ring;
    uint64_t size = r[k].size;
    if (__builtin_expect(size & TAGGED, 0))
        c->listener.complete(c->listener.ctx, r[k].tag, size & ~TAGGED);
    if ((size & ~TAGGED) >= 2) {
        c->complete++;
        c->pending--;
    }
    uint32_t y = k;
    do {
        r[y].state = GONE;
        y = r[y].next;
    } while (y != k);
}

/* Joins slot x, ended, to the components it meets among those judged. */
static void judge(collision_events *c, uint32_t x)
{
    entry *r = c->ring;
    r[x].judged = true;
    /* x is alone in its component: only ends judge, and only against
     * ended transmissions. The components with an ended member: one link
     * joins each. From the last: a join takes out of ended_roots only x's
     * component or k, and moves there one after k, or adds x's at the end,
     * so those before k stay as they were. */
    uint32_t own = x;
    for (uint32_t i = c->n_ended; i-- > 0;) {
        uint32_t k = c->ended_roots[i];
        if (k == own)
            continue;
        uint32_t y = k;
        do {
            if (r[y].state == KEPT && r[y].end != SIM_TIME_NEVER && linked(c, &r[x], &r[y])) {
                own = unite(c, own, k);
                break;
            }
            y = r[y].next;
        } while (y != k);
    }
    if (r[own].ended++ == 0)
        ended_add(c, own);
}

/* Judges every ended transmission kept not judged yet, in any order: a
 * pair is judged once, when the later of the two is. */
static void judge_all(collision_events *c)
{
    uint32_t mask = c->cap - 1;
    for (uint32_t q = c->lo; c->unjudged > 0 && q != c->hi; q++) {
        entry *x = &c->ring[q & mask];
        if (x->end != SIM_TIME_NEVER && !x->judged && x->state == KEPT) {
            judge(c, q & mask);
            c->unjudged--;
        }
    }
}

/* Drops everything kept: nothing is under way and every tail kept has
 * passed, so every component kept is complete. */
static void drop_all(collision_events *c)
{
    uint32_t kept = c->hi - c->lo;
    if (kept == c->unjudged && kept <= 2) { /* one alone, or two: judged here at once */
        if (kept == 2 && linked(c, &c->ring[c->lo & (c->cap - 1)], &c->ring[(c->lo + 1) & (c->cap - 1)]))
            c->complete++;
        c->unjudged = 0;
    }
    judge_all(c);
    if (__builtin_expect(c->listener.complete != NULL, 0)) {
        uint32_t mask = c->cap - 1;
        for (uint32_t q = c->lo; q != c->hi; q++) {
            const entry *e = &c->ring[q & mask];
            if (e->state != GONE && e->parent == (q & mask) && (e->size & TAGGED))
                c->listener.complete(c->listener.ctx, e->tag, e->size & ~TAGGED);
        }
    }
    c->complete += c->pending;
    c->pending = 0;
    c->lo = c->hi;
    c->n_ended = 0;
    c->last_passed = LONG_AGO;
    c->next_drop = SIM_TIME_NEVER;
}

/* Drops the kept transmissions nothing can be linked to from `now` on, one
 * by one. */
static void drop_passed(collision_events *c, sim_time now)
{
    if (c->next_drop >= now)
        return; /* every ended one's tail passes at next_drop or later */
    judge_all(c);
    entry *r = c->ring;
    uint32_t mask = c->cap - 1;
    sim_time first_open = SIM_TIME_NEVER; /* the earliest start under way */
    for (uint32_t q = c->lo; q != c->hi; q++)
        if (r[q & mask].end == SIM_TIME_NEVER && r[q & mask].state == KEPT) {
            first_open = r[q & mask].start;
            break;
        }
    sim_time next = SIM_TIME_NEVER, last = LONG_AGO;
    for (uint32_t q = c->lo; q != c->hi; q++) {
        uint32_t y = q & mask;
        entry *x = &r[y];
        if (x->state != KEPT)
            continue;
        sim_time passed = x->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : x->end + c->reach[x->station];
        if (passed >= now || passed > first_open) {
            if (passed < next)
                next = passed;
            if (x->end != SIM_TIME_NEVER && passed > last)
                last = passed;
            continue;
        }
        x->state = DROPPED;
        uint32_t k = find(r, y);
        if (--r[k].ended == 0)
            ended_remove(c, k);
        if (--r[k].open == 0)
            complete_one(c, k);
    }
    while (c->lo != c->hi && r[c->lo & mask].state == GONE)
        c->lo++;
    c->next_drop = next;
    c->last_passed = last;
}

/* Slot o of the ring before it grew, in the ring of mask `mask`. */
static uint32_t moved(const collision_events *c, uint32_t o, uint32_t mask)
{
    return (c->lo + ((o - c->lo) & (c->cap - 1))) & mask;
}

/* Doubles the ring; the numbers kept stay, their slots move. */
static int grow(collision_events *c)
{
    uint32_t cap = 2 * c->cap, mask = cap - 1;
    entry *r = malloc(cap * sizeof *r);
    uint32_t *roots = malloc(cap * sizeof *roots);
    if (!r || !roots || cap == 0) {
        free(r);
        free(roots);
        return -1;
    }
    for (uint32_t q = c->lo; q != c->hi; q++) {
        entry *e = &r[q & mask];
        *e = c->ring[q & (c->cap - 1)];
        if (e->state == GONE)
            continue;
        e->parent = moved(c, e->parent, mask);
        e->next = moved(c, e->next, mask);
        if (e->end == SIM_TIME_NEVER)
            c->under_way[e->station] = q & mask;
    }
    for (uint32_t i = 0; i < c->n_ended; i++)
        roots[i] = moved(c, c->ended_roots[i], mask);
    free(c->ring);
    free(c->ended_roots);
    c->ring = r;
    c->ended_roots = roots;
    c->cap = cap;
    return 0;
}

int collision_events_begin(collision_events *c, uint32_t s, sim_time start)
{
    bool listening = c->listener.complete != NULL;
    if (c->live == 0 && c->last_passed < start)
        drop_all(c);
    else if (listening)
        drop_passed(c, start);
    if (c->hi - c->lo == c->cap) {
        if (!listening)
            drop_passed(c, start);
        if (c->hi - c->lo > c->cap / 2 && grow(c) != 0)
            return -1;
    }
    uint32_t x = c->hi++ & (c->cap - 1);
    entry *e = &c->ring[x]; /* (tag and at are set where they are needed) */
    e->start = start;
    e->end = SIM_TIME_NEVER;
    e->size = 1;
    e->station = s;
    e->parent = e->next = x;
    e->open = 1;
    e->ended = 0;
    e->state = KEPT;
    e->judged = false;
    c->under_way[s] = x;
    c->live++;
    return 0;
}

void collision_events_end(collision_events *c, uint32_t s, sim_time end)
{
    uint32_t x = c->under_way[s];
    if (x == NONE)
        return;
    c->under_way[s] = NONE;
    c->live--;
    c->ring[x].end = end;
    sim_time passed = end + c->reach[s];
    if (passed > c->last_passed)
        c->last_passed = passed;
    if (passed < c->next_drop)
        c->next_drop = passed;
    if (__builtin_expect(c->listener.complete != NULL, 0))
        judge(c, x); /* what it is told depends on the components at once */
    else
        c->unjudged++;
}

void collision_events_listen(collision_events *c, const collision_listener *l)
{
    c->listener = l ? *l : (collision_listener){0};
}

/* The kept slot of station s's transmission begun at start that is no
 * longer under way (rare: one shorter than a cable's delay), or NONE. */
__attribute__((noinline, cold)) static uint32_t kept_entry(const collision_events *c, uint32_t s,
                                                           sim_time start)
{
    uint32_t mask = c->cap - 1;
    for (uint32_t q = c->lo; q != c->hi; q++) {
        const entry *e = &c->ring[q & mask];
        if (e->state == KEPT && e->station == s && e->start == start)
            return q & mask;
    }
    return NONE;
}

uint32_t collision_events_tag(collision_events *c, uint32_t s, sim_time start, uint32_t tag)
{
    uint32_t e = c->under_way[s];
    if (c->listener.complete == NULL) /* nobody to tell of a tagged component */
        return NONE;
    if (__builtin_expect(e == NONE || c->ring[e].start != start, 0) &&
        (e = kept_entry(c, s, start)) == NONE)
        return NONE;
    entry *k = &c->ring[find(c->ring, e)];
    if (k->size & TAGGED)
        return k->tag;
    k->size |= TAGGED;
    k->tag = tag;
    return 0;
}

uint64_t collision_events_count(collision_events *c, sim_time now)
{
    if (c->live == 0 && c->last_passed < now)
        drop_all(c);
    else
        drop_passed(c, now);
    return c->complete;
}

size_t collision_events_bytes(const collision_events *c)
{
    return sizeof *c + (size_t)c->n * (3 * sizeof(sim_time) + sizeof(uint32_t)) +
           (size_t)c->cap * (sizeof *c->ring + sizeof(uint32_t));
}
