/* collision_events.c - collision events on the medium; see collision_events.h.
 *
 * Transmissions are kept in a ring, in order of start, from the oldest one
 * whose component is not complete to the newest. A component (the set of
 * linked transmissions) is a union-find tree over the ring's slots: its
 * root carries the component's counts, and its members form a circle
 * (`next`), so two components join in O(1), the one with fewer members
 * kept under the other.
 *
 * An ended transmission is judged against the components with an ended
 * member judged before it (so a pair is judged once, when the later of
 * the two is), against each only until one link is found (one link joins
 * them): in a crowded collision nearly everything is one component, which
 * costs nothing.
 *
 * A kept transmission X that has ended can be dropped once nothing can be
 * linked to it any more: its tail has passed every station (a later start
 * meets it nowhere: now > eX + the longest delay from X) and every
 * transmission that started before then has ended (and so has been judged
 * against X). A component is complete when its last member is dropped,
 * and counted if it has two or more. Its slots are free once the
 * components before it in the ring are complete too.
 *
 * The usual case looks at no transmission to drop it: when nothing is
 * under way and every tail kept has passed (the medium has fallen silent
 * everywhere, as it does between busy periods), everything kept can be
 * dropped, so the ring is emptied at once and the components of two or
 * more it held, counted as they formed (`pending`), are complete
 * (drop_all). Otherwise the transmissions are looked at one by one
 * (drop_passed), and when
 * - someone listens: at every start and count where one may be dropped,
 *   and each end is judged as it comes: what the listener is told
 *   (collision_events_tag, its completions) depends on the components and
 *   on what is kept at each instant;
 * - nobody listens: only at a count and when the ring is full, and the
 *   ends are judged only then or when the medium falls silent (a busy
 *   period of up to FEW is then judged by testing its pairs, with no
 *   component built; two alone are one test). What can be dropped at
 *   one instant can be at every later one (a later start begins after the
 *   tail has passed; one under way then has ended or is still there), a
 *   transmission that can be dropped is never linked to one after it, and
 *   the components do not depend on the order the pairs are judged in: so
 *   the count at an instant is the same whenever the drops and judgements
 *   were done.
 */
#include "collision_events.h"

#include <stdlib.h>

#define NONE UINT32_MAX
/* In a component's size: it carries a listener's tag (and is told of
 * when complete, even alone). */
#define TAGGED ((uint64_t)1 << 63)
#define LONG_AGO INT64_MIN /* last_passed when no ended tail is kept */
#define RING_FIRST 16      /* slots (a power of two) */
/* At most this many kept when the medium falls silent, all of them ended
 * since: judged by pairs (components_among), as a busy period mostly is. */
#define FEW 8

typedef enum {
    NEW,     /* under way, or ended and not judged yet: in no component yet (nobody listens) */
    KEPT,    /* in its component (alone until judged) */
    DROPPED, /* nothing can be linked to it any more; its component goes on */
    GONE     /* its component is complete: the slot is free */
} entry_state;

typedef struct entry {
    sim_time start;
    sim_time end;    /* SIM_TIME_NEVER while under way */
    uint32_t station;
    uint32_t state;  /* entry_state */
    /* from KEPT on: */
    uint32_t parent; /* a slot of the same component; the root's is its own */
    uint32_t next;   /* the next member of its component, round a circle */
    uint64_t size;   /* root: transmissions linked into it, | TAGGED */
    uint32_t open;   /* root: members not dropped */
    uint32_t ended;  /* root: of those, ended and judged */
    uint32_t tag;    /* root: the listener's (collision_events_tag) */
    uint32_t at;     /* root with ended > 0: its place in ended_roots */
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
    uint32_t unjudged;  /* of them, ended and NEW */
    sim_time last_passed; /* every ended tail kept has passed every station by this */
    sim_time next_drop; /* no kept transmission can be dropped before this */
    uint32_t *ended_roots; /* the components with an ended member judged and kept */
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
    /* the hub's delay: what a star adds between two drops (a star's
     * delay offset is the hub's delay plus the station's drop) */
    c->hub = c->star && n > 0 ? medium_delay_off(m, 0) - c->pos[0] : 0;
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


/* Slot x becomes a component of its own. */
static void make_alone(entry *r, uint32_t x)
{
    r[x].state = KEPT;
    r[x].parent = r[x].next = x;
    r[x].size = 1;
    r[x].open = 1;
    r[x].ended = 0;
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
    /* one of two or more now, of one or two of them */
    c->pending -= (uint64_t)(from->size >= 2) + (uint64_t)((to->size & ~TAGGED) >= 2);
    c->pending++;
    to->size += from->size;
    to->open += from->open;
    to->ended += from->ended;
    return b;
}

/* Judges slot x, ended and alone in its component (KEPT): joins it to
 * every component it meets among those with an ended member judged. */
static void judge(collision_events *c, uint32_t x)
{
    entry *r = c->ring;
    /* From the last: a join takes out of ended_roots only x's component or
     * k, moving there one after k or adding x's at the end, so those before
     * k stay as they were. */
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

/* Judges the ended transmissions not judged yet, in order of start. */
__attribute__((noinline)) static void judge_all(collision_events *c)
{
    uint32_t mask = c->cap - 1;
    for (uint32_t q = c->lo; c->unjudged > 0 && q != c->hi; q++) {
        entry *x = &c->ring[q & mask];
        if (x->state == NEW && x->end != SIM_TIME_NEVER) {
            make_alone(c->ring, q & mask);
            judge(c, q & mask);
            c->unjudged--;
        }
    }
}

/* Tells the listener of every tagged component kept: all complete. */
__attribute__((noinline, cold)) static void tell_all(collision_events *c)
{
    uint32_t mask = c->cap - 1;
    for (uint32_t q = c->lo; q != c->hi; q++) {
        const entry *e = &c->ring[q & mask];
        if ((e->state == KEPT || e->state == DROPPED) && e->parent == (q & mask) &&
            (e->size & TAGGED))
            c->listener.complete(c->listener.ctx, e->tag, e->size & ~TAGGED);
    }
}

/* The components of two or more among the k kept (2 to FEW), every one
 * ended and NEW: each pair is tested once unless already joined, by a
 * union-find of their own that lives here (no component is built). */
static uint64_t components_among(const collision_events *c, uint32_t k)
{
    uint8_t up[FEW], size[FEW];
    const entry *e[FEW];
    for (uint32_t i = 0; i < k; i++) {
        up[i] = (uint8_t)i;
        size[i] = 1;
        e[i] = &c->ring[(c->lo + i) & (c->cap - 1)];
    }
    uint64_t n = 0;
    for (uint32_t i = 1; i < k; i++)
        for (uint32_t j = 0; j < i; j++) {
            uint32_t a = i, b = j;
            while (up[a] != a)
                a = up[a];
            while (up[b] != b)
                b = up[b];
            if (a == b || !linked(c, e[i], e[j]))
                continue;
            n += 1;
            n -= (uint64_t)(size[a] >= 2) + (uint64_t)(size[b] >= 2);
            up[a] = (uint8_t)b;
            size[b] = (uint8_t)(size[b] + size[a]);
        }
    return n;
}

/* Counts the components kept, all complete (drop_all, with two or more
 * kept or someone listening). */
__attribute__((noinline)) static void count_all(collision_events *c)
{
    uint32_t kept = c->hi - c->lo, mask = c->cap - 1;
    if (kept == 2 && c->unjudged == 2) { /* two alone (often): one test, at less cost */
        if (linked(c, &c->ring[c->lo & mask], &c->ring[(c->lo + 1) & mask]))
            c->complete++;
    } else if (kept == c->unjudged && kept <= FEW) {
        c->complete += components_among(c, kept);
    } else if (c->unjudged > 0) {
        judge_all(c);
    }
    if (__builtin_expect(c->listener.complete != NULL, 0))
        tell_all(c);
    c->complete += c->pending;
}

/* Whether the medium has fallen silent by t: nothing under way, and every
 * ended tail kept has passed every station (drop_all may run). */
static inline bool silent(const collision_events *c, sim_time t)
{
    return c->live == 0 && c->last_passed < t;
}

/* Drops everything kept: nothing is under way and every tail kept has
 * passed, so every component kept is complete. One alone (most often) is
 * no event, and nothing to count. */
static void drop_all(collision_events *c)
{
    if (c->hi - c->lo >= 2 || c->listener.complete != NULL)
        count_all(c);
    c->lo = c->hi;
    c->unjudged = 0;
    c->n_ended = 0;
    c->pending = 0;
    c->last_passed = LONG_AGO;
    c->next_drop = SIM_TIME_NEVER;
}

/* Drops the kept transmissions nothing can be linked to from `now` on, one
 * by one: O(t) for the t kept. */
static void drop_passed(collision_events *c, sim_time now)
{
    if (c->next_drop >= now)
        return; /* every ended one's tail passes at next_drop or later */
    if (c->unjudged > 0)
        judge_all(c);
    entry *r = c->ring;
    uint32_t mask = c->cap - 1;
    sim_time first_open = SIM_TIME_NEVER; /* the earliest start under way */
    for (uint32_t q = c->lo; q != c->hi; q++)
        if (r[q & mask].end == SIM_TIME_NEVER) {
            first_open = r[q & mask].start;
            break;
        }
    sim_time next = SIM_TIME_NEVER, last = LONG_AGO;
    bool completed = false;
    for (uint32_t q = c->lo; q != c->hi; q++) {
        entry *x = &r[q & mask];
        if (x->state == DROPPED || x->state == GONE)
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
        uint32_t k = find(r, q & mask);
        if (--r[k].ended == 0)
            ended_remove(c, k);
        if (--r[k].open > 0)
            continue;
        if (__builtin_expect(r[k].size & TAGGED, 0))
            c->listener.complete(c->listener.ctx, r[k].tag, r[k].size & ~TAGGED);
        if ((r[k].size & ~TAGGED) >= 2) {
            c->complete++;
            c->pending--;
        }
        completed = true;
    }
    for (uint32_t q = c->lo; completed && q != c->hi; q++) /* the complete ones' slots free */
        if (r[q & mask].state == DROPPED && r[find(r, q & mask)].open == 0)
            r[q & mask].state = GONE;
    while (c->lo != c->hi && r[c->lo & mask].state == GONE)
        c->lo++;
    c->next_drop = next;
    c->last_passed = last;
}

/* Doubles the ring; the numbers kept stay, their slots move. */
static int grow(collision_events *c)
{
    uint32_t cap = 2 * c->cap, mask = cap - 1, old = c->cap - 1;
    entry *r = cap ? malloc(cap * sizeof *r) : NULL;
    uint32_t *roots = cap ? malloc(cap * sizeof *roots) : NULL;
    if (!r || !roots) {
        free(r);
        free(roots);
        return -1;
    }
    for (uint32_t q = c->lo; q != c->hi; q++) {
        entry *e = &r[q & mask];
        *e = c->ring[q & old];
        if (e->state == KEPT || e->state == DROPPED) { /* the slots it points to moved */
            e->parent = (c->lo + ((e->parent - c->lo) & old)) & mask;
            e->next = (c->lo + ((e->next - c->lo) & old)) & mask;
        }
        if (e->end == SIM_TIME_NEVER)
            c->under_way[e->station] = q & mask;
    }
    for (uint32_t i = 0; i < c->n_ended; i++)
        roots[i] = (c->lo + ((c->ended_roots[i] - c->lo) & old)) & mask;
    free(c->ring);
    free(c->ended_roots);
    c->ring = r;
    c->ended_roots = roots;
    c->cap = cap;
    return 0;
}

/* A start while the medium is not silent, with someone listening or the
 * ring full. */
__attribute__((noinline)) static int make_room(collision_events *c, sim_time start)
{
    bool listening = c->listener.complete != NULL;
    if (listening)
        drop_passed(c, start);
    if (c->hi - c->lo == c->cap) {
        if (!listening)
            drop_passed(c, start);
        if (c->hi - c->lo > c->cap / 2 && grow(c) != 0) /* (half full at most after growing) */
            return -1;
    }
    return 0;
}

int collision_events_begin(collision_events *c, uint32_t s, sim_time start)
{
    if (silent(c, start))
        drop_all(c);
    else if ((c->listener.complete != NULL || c->hi - c->lo == c->cap) && make_room(c, start) != 0)
        return -1;
    uint32_t x = c->hi++ & (c->cap - 1);
    entry *e = &c->ring[x];
    e->start = start;
    e->end = SIM_TIME_NEVER;
    e->station = s;
    e->state = NEW;
    if (__builtin_expect(c->listener.complete != NULL, 0))
        make_alone(c->ring, x); /* its tag may be asked for while it is under way */
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
    entry *e = &c->ring[x];
    e->end = end;
    sim_time passed = end + c->reach[s];
    if (passed > c->last_passed)
        c->last_passed = passed;
    if (passed < c->next_drop)
        c->next_drop = passed;
    if (e->state == KEPT) /* begun with someone listening */
        judge(c, x);
    else
        c->unjudged++;
}

void collision_events_listen(collision_events *c, const collision_listener *l)
{
    c->listener = l ? *l : (collision_listener){0};
    if (!c->listener.complete)
        return;
    /* From now on every transmission is in its component at once. */
    if (c->unjudged > 0)
        judge_all(c);
    uint32_t mask = c->cap - 1;
    for (uint32_t q = c->lo; q != c->hi; q++)
        if (c->ring[q & mask].state == NEW)
            make_alone(c->ring, q & mask);
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
    if (silent(c, now))
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
