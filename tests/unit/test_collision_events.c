/* test_collision_events.c - collision events on hand-built geometry
 * (medium/collision_events.h).
 *
 * Pins, with every instant worked out by hand below:
 *  - two stations colliding on a bus: one event, complete exactly when the
 *    later tail has passed the farther station;
 *  - three stations where A overlaps B and B overlaps C but A meets C at
 *    no station: one event of three;
 *  - a collision across the extension that fills a 1 Gb/s burst's gap:
 *    one event (the frame and its extension alone are none);
 *  - an over-long bus where two collisions far apart share one busy period
 *    (in absolute time): two events;
 *  - two frames whose signals cross only between stations on an over-long
 *    bus: no event (each is received whole everywhere);
 *  - a star: overlap at the hub, and overlap only at a station (the hub
 *    saw them one after the other, but one sender was still sending when
 *    the other's signal reached it): one event each;
 *  - an event is not counted until nothing can join it: a transmission
 *    still under way that started before the tail passed keeps it open;
 *  - a listener's tags (what a network's collision domain counts with):
 *    carried through merges, told of at a merge of two tagged components
 *    and at a tagged component's completion with its size, never of an
 *    untagged one; none where nobody listens;
 *  - random transmissions and counts on random geometry against brute
 *    force, with nobody listening (ends judged and transmissions dropped
 *    late) and with a listener (at once): the same counts, as the rule
 *    says (test_random_against_brute_force).
 * The random cross-check of whole runs' counts against a brute-force
 * reference over their traces is in test_counters.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "collision_events.h"
#include "medium.h"
#include "rng.h"

typedef struct fixture {
    medium *m;
    collision_events *c;
} fixture;

/* positions: bus, propagation times from the cable's start; star, drops */
static fixture make(topology_kind topo, const sim_time *pos, uint32_t n, sim_time hub)
{
    medium_config mc = {.n_stations = n, .topology = topo, .pos_ps = pos, .hub_ps = hub,
                        .retain_ps = 9600, .chain_ps = 6400, .chain_cap_ps = 1000000};
    fixture f;
    assert_int_equal(medium_create(&mc, &f.m), 0);
    assert_int_equal(collision_events_create(f.m, &f.c), 0);
    return f;
}

static void done(fixture *f)
{
    collision_events_destroy(f->c);
    medium_destroy(f->m);
}

static void tx(fixture *f, uint32_t s, sim_time start, sim_time end)
{
    assert_int_equal(collision_events_begin(f->c, s, start), 0);
    collision_events_end(f->c, s, end);
}

/* A at 0, B at 1000 ps. A sends [0, 5000), B [500, 4000): at A, B's
 * signal is there from 1500. A's tail passes B at 6000, B's passes A at
 * 5000: complete after 6000 (strictly: at 6000 a start could still be
 * checked against it, and meets nothing, but the rule is "before"). */
static void test_two_stations(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000};
    fixture f = make(TOPOLOGY_BUS, pos, 2, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 500), 0);
    collision_events_end(f.c, 1, 4000);
    collision_events_end(f.c, 0, 5000);
    assert_int_equal(collision_events_count(f.c, 5000), 0);
    assert_int_equal(collision_events_count(f.c, 6000), 0);
    assert_int_equal(collision_events_count(f.c, 6001), 1);
    done(&f);
}

/* A at 0, B at 10000, C at 20000 ps.
 * A [0, 12000): at B [10000, 22000), at C [20000, 32000).
 * B [5000, 25000): at A [15000, 35000), at B itself, at C [15000, 35000).
 * C [33000, 40000): at B [43000, 50000), at A [53000, 60000).
 * A meets B (at B: [10000, 22000) and [5000, 25000)); B meets C (at C:
 * [15000, 35000) and [33000, 40000)); A meets C nowhere (at A, C arrives
 * at 53000 > 12000; at B, 43000 > 22000; at C, 33000 > 32000). */
static void test_chain_of_three(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 10000, 20000};
    fixture f = make(TOPOLOGY_BUS, pos, 3, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 5000), 0);
    collision_events_end(f.c, 0, 12000);
    collision_events_end(f.c, 1, 25000);
    tx(&f, 2, 33000, 40000);
    assert_int_equal(collision_events_count(f.c, 1000000), 1);
    done(&f);

    /* The same without B: A and C never meet, so nothing at all. */
    f = make(TOPOLOGY_BUS, pos, 3, 0);
    tx(&f, 0, 0, 12000);
    tx(&f, 2, 33000, 40000);
    assert_int_equal(collision_events_count(f.c, 1000000), 0);
    done(&f);
}

/* 1 Gb/s burst: A at 0 sends frame F [0, 1000) and at once the extension X
 * [1000, 1096) that fills the gap; C at 50 ps starts at 1000, [1000, 1500).
 * At C, F is there in [50, 1050) and X in [1050, 1146): C meets both. At A,
 * C arrives at 1050, during X. F and X never overlap (X starts as F ends).
 * One event of three; without C, none. */
static void test_burst_extension(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 50};
    fixture f = make(TOPOLOGY_BUS, pos, 2, 0);
    tx(&f, 0, 0, 1000);
    assert_int_equal(collision_events_begin(f.c, 0, 1000), 0);
    tx(&f, 1, 1000, 1500);
    collision_events_end(f.c, 0, 1096);
    assert_int_equal(collision_events_count(f.c, 100000), 1);
    done(&f);

    f = make(TOPOLOGY_BUS, pos, 2, 0);
    tx(&f, 0, 0, 1000);
    tx(&f, 0, 1000, 1096);
    assert_int_equal(collision_events_count(f.c, 100000), 0);
    done(&f);
}

/* An over-long bus: A at 0 and B at 100 collide in [0, 2000); C at 10^9
 * and D at 10^9 + 100 collide in [1000, 3000). In absolute time the medium
 * is busy without a break from 0 to 3000 (one busy period), but a signal
 * takes 10^9 ps from one pair to the other: the pairs never meet at a
 * station. Two events. */
static void test_overlong_two_events(void **state)
{
    (void)state;
    const sim_time far = 1000000000;
    const sim_time pos[] = {0, 100, far, far + 100};
    fixture f = make(TOPOLOGY_BUS, pos, 4, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 50), 0);
    assert_int_equal(collision_events_begin(f.c, 2, 1000), 0);
    assert_int_equal(collision_events_begin(f.c, 3, 1050), 0);
    collision_events_end(f.c, 0, 2000);
    collision_events_end(f.c, 1, 2000);
    collision_events_end(f.c, 2, 3000);
    collision_events_end(f.c, 3, 3000);
    assert_int_equal(collision_events_count(f.c, 3 * far), 2);
    done(&f);
}

/* An over-long bus: A at 0 sends [0, 1000), B at 10^6 sends [500, 1500).
 * Their signals cross in the middle of the cable, where no one listens;
 * at B, A arrives at 10^6 (B is long done), at A, B arrives at 10^6 + 500.
 * Both frames are received whole: no event. */
static void test_crossing_between_stations(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000000};
    fixture f = make(TOPOLOGY_BUS, pos, 2, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 500), 0);
    collision_events_end(f.c, 0, 1000);
    collision_events_end(f.c, 1, 1500);
    assert_int_equal(collision_events_count(f.c, 10000000), 0);
    done(&f);
}

/* A star with a 100 ps hub. Drops: A 10, B 5000, C 10.
 * (1) A [0, 2000) and C [100, 2000): at the hub [10, 2010) and [110, 2010).
 * (2) B [0, 3000) and A [4000, 6000): at the hub B is [5000, 8000) and A
 * [4010, 6010): overlap. (3) A [10000, 10500) and B [10000, 20000): at the
 * hub A [10010, 10510), B [15000, 25000): no overlap; at A, B's signal
 * arrives at 10000 + 5000 + 100 + 10 = 15110, A is done; at B, A's arrives
 * at 10000 + 10 + 100 + 5000 = 15110 while B still sends: one event. */
static void test_star(void **state)
{
    (void)state;
    const sim_time drops[] = {10, 5000, 10};
    fixture f = make(TOPOLOGY_STAR, drops, 3, 100);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    tx(&f, 2, 100, 2000);
    collision_events_end(f.c, 0, 2000);
    assert_int_equal(collision_events_count(f.c, 3000000), 1);
    done(&f);

    f = make(TOPOLOGY_STAR, drops, 3, 100);
    assert_int_equal(collision_events_begin(f.c, 1, 0), 0);
    tx(&f, 0, 4000, 6000);
    collision_events_end(f.c, 1, 3000);
    assert_int_equal(collision_events_count(f.c, 3000000), 1);
    done(&f);

    f = make(TOPOLOGY_STAR, drops, 3, 100);
    assert_int_equal(collision_events_begin(f.c, 0, 10000), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 10000), 0);
    collision_events_end(f.c, 0, 10500);
    collision_events_end(f.c, 1, 20000);
    assert_int_equal(collision_events_count(f.c, 3000000), 1);
    done(&f);
}

/* An event stays open while a transmission that started before its last
 * tail had passed is still under way (it may yet be linked to it).
 * A at 0, B at 1000: A [0, 3000), B [500, 2000) collide; the event's tails
 * have passed every station at 4000. C, at 0 too, starts at 3500 (before
 * 4000) and sends until 100000: A's tail passes C's position at 3000, so C
 * meets neither, but until C ends the event is not complete. */
static void test_open_while_under_way(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000, 0};
    fixture f = make(TOPOLOGY_BUS, pos, 3, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    tx(&f, 1, 500, 2000);
    collision_events_end(f.c, 0, 3000);
    assert_int_equal(collision_events_begin(f.c, 2, 3500), 0);
    assert_int_equal(collision_events_count(f.c, 50000), 0);
    collision_events_end(f.c, 2, 100000);
    assert_int_equal(collision_events_count(f.c, 100000), 1);
    done(&f);
}

/* What the listener was told. */
typedef struct heard {
    uint32_t merged[4][2];
    uint32_t n_merged;
    uint32_t done_tag[4];
    uint64_t done_size[4];
    uint32_t n_done;
} heard;

static void on_merged(void *ctx, uint32_t a, uint32_t b)
{
    heard *h = ctx;
    assert_true(h->n_merged < 4);
    h->merged[h->n_merged][0] = a;
    h->merged[h->n_merged++][1] = b;
}

static void on_complete(void *ctx, uint32_t tag, uint64_t size)
{
    heard *h = ctx;
    assert_true(h->n_done < 4);
    h->done_tag[h->n_done] = tag;
    h->done_size[h->n_done++] = size;
}

/* The chain of three above (A [0, 12000) meets B [5000, 25000), B meets C
 * [33000, 40000)), A tagged 7 and C 9, then D at 0 alone at 200000 (the
 * event's tails long gone), tagged 5, and E alone at 300000, untagged. A
 * and B merge carrying 7 (B had none: nothing told); C's end merges the
 * two tagged ones: told once, the survivor keeping one of 7 and 9. The
 * event completes with 3 transmissions, D with 1; E is never told of. */
static void test_tags(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 10000, 20000};
    fixture f = make(TOPOLOGY_BUS, pos, 3, 0);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_tag(f.c, 0, 0, 7), UINT32_MAX); /* nobody listens */
    heard h = {0};
    collision_listener l = {.merged = on_merged, .complete = on_complete, .ctx = &h};
    collision_events_listen(f.c, &l);
    assert_int_equal(collision_events_tag(f.c, 0, 0, 7), 0);
    assert_int_equal(collision_events_tag(f.c, 0, 0, 8), 7); /* tagged already */
    assert_int_equal(collision_events_tag(f.c, 0, 1, 8), UINT32_MAX); /* no such start */
    assert_int_equal(collision_events_begin(f.c, 1, 5000), 0);
    collision_events_end(f.c, 0, 12000);
    collision_events_end(f.c, 1, 25000);
    assert_int_equal(h.n_merged, 0);
    assert_int_equal(collision_events_tag(f.c, 1, 5000, 8), 7); /* B's component: A's tag */
    tx(&f, 2, 33000, 40000);
    assert_int_equal(h.n_merged, 0); /* C ended untagged: A's component took it in */
    assert_int_equal(collision_events_tag(f.c, 2, 33000, 9), 7); /* ended, still kept */
    assert_int_equal(h.n_done, 0);

    /* the same with C tagged before it ends: two tagged components merge */
    done(&f);
    f = make(TOPOLOGY_BUS, pos, 3, 0);
    h = (heard){0};
    collision_events_listen(f.c, &l);
    assert_int_equal(collision_events_begin(f.c, 0, 0), 0);
    assert_int_equal(collision_events_tag(f.c, 0, 0, 7), 0);
    assert_int_equal(collision_events_begin(f.c, 1, 5000), 0);
    collision_events_end(f.c, 0, 12000);
    collision_events_end(f.c, 1, 25000);
    assert_int_equal(collision_events_begin(f.c, 2, 33000), 0);
    assert_int_equal(collision_events_tag(f.c, 2, 33000, 9), 0);
    collision_events_end(f.c, 2, 40000);
    assert_int_equal(h.n_merged, 1);
    uint32_t kept = h.merged[0][0], gone = h.merged[0][1];
    assert_true((kept == 7 && gone == 9) || (kept == 9 && gone == 7));
    tx(&f, 0, 200000, 201000);
    assert_int_equal(collision_events_tag(f.c, 0, 200000, 5), 0);
    assert_int_equal(h.n_done, 1); /* the event, complete at D's start */
    assert_int_equal(h.done_tag[0], kept);
    assert_int_equal(h.done_size[0], 3);
    tx(&f, 1, 300000, 301000);
    assert_int_equal(collision_events_count(f.c, 1000000), 1);
    assert_int_equal(h.n_done, 2); /* D, alone; E untagged: never */
    assert_int_equal(h.done_tag[1], 5);
    assert_int_equal(h.done_size[1], 1);
    done(&f);
}

/* ---- a random cross-check against brute force ---------------------------
 *
 * Random transmissions on random geometry (a bus of up to 8 stations,
 * sometimes far longer than a signal's duration, or a star), with counts
 * at random instants, each compared with a brute-force reference: the
 * links of every pair at every observer (each station, and a star's hub),
 * their connected components, and a component counted at a count's
 * instant t when it has two or more members, each ended before the count
 * with its tail past every station before t and no later than the start
 * of the earliest one then under way. Each run is made twice, with nobody
 * listening (ends judged late, drops done late) and with a listener that
 * tags every transmission at its start (judged and dropped at once, as on
 * a network): the counts must agree with the reference both times, and the
 * listener must have been told of each component once, complete, with its
 * size. Busy stretches with no silence fill the ring and make it grow. */

#define RX_MAX 400 /* transmissions per run */

typedef struct rx {
    uint32_t s;
    sim_time start, end;
    size_t ended_at; /* the call that ended it */
} rx;

typedef struct rcount {
    size_t call;
    sim_time t, first_open;
    uint64_t got, heard; /* the tracker's count; the listener's completions of two or more */
} rcount;

typedef struct rrun {
    rx tx[RX_MAX];
    uint32_t n_tx;
    rcount cnt[RX_MAX];
    uint32_t n_cnt;
    /* the listener's view: a union-find over tags (transmission + 1) */
    uint32_t up[RX_MAX + 1];
    bool told[RX_MAX + 1];
    uint64_t heard;
} rrun;

static rng rx_rng;

static uint32_t rx_below(uint32_t n)
{
    return (uint32_t)rng_below(&rx_rng, n);
}

/* The root of x in a union-find over up[] (the reference's components,
 * the listener's tags). */
static uint32_t rx_find(const uint32_t *up, uint32_t x)
{
    while (up[x] != x)
        x = up[x];
    return x;
}

static uint32_t tag_root(rrun *r, uint32_t t)
{
    return rx_find(r->up, t);
}

static void rx_merged(void *ctx, uint32_t a, uint32_t b)
{
    rrun *r = ctx;
    uint32_t x = tag_root(r, a), y = tag_root(r, b);
    assert_int_not_equal(x, y);
    r->up[y] = x;
}

static void rx_complete(void *ctx, uint32_t tag, uint64_t size)
{
    rrun *r = ctx;
    uint32_t root = tag_root(r, tag);
    assert_false(r->told[root]);
    r->told[root] = true;
    uint64_t members = 0;
    for (uint32_t i = 0; i < r->n_tx; i++)
        members += tag_root(r, i + 1) == root;
    assert_int_equal(size, members);
    r->heard += size >= 2;
}

/* The delay from station a's transmitter to observer k (a station, or the
 * hub as n on a star). */
static sim_time rx_delay(const medium *m, uint32_t a, uint32_t k)
{
    if (k == medium_station_count(m))
        return medium_station_pos(m, a);
    return a == k ? 0 : medium_delay(m, a, k);
}

static bool rx_linked(const medium *m, const rx *a, const rx *b)
{
    uint32_t n = medium_station_count(m), obs = n + (medium_topology(m) == TOPOLOGY_STAR);
    for (uint32_t k = 0; k < obs; k++) {
        sim_time da = rx_delay(m, a->s, k), db = rx_delay(m, b->s, k);
        if (a->start + da < b->end + db && b->start + db < a->end + da)
            return true;
    }
    return false;
}

static sim_time rx_passed(const medium *m, const rx *a)
{
    sim_time far = 0;
    for (uint32_t k = 0; k < medium_station_count(m); k++)
        if (rx_delay(m, a->s, k) > far)
            far = rx_delay(m, a->s, k);
    return a->end + far;
}

/* One run of the sequence seeded `seed` on m, its instants multiples of
 * `grain`; fills r. */
static void rx_play(const medium *m, uint64_t seed, bool listen, sim_time grain, rrun *r)
{
    collision_events *c;
    assert_int_equal(collision_events_create(m, &c), 0);
    memset(r, 0, sizeof *r);
    for (uint32_t i = 0; i <= RX_MAX; i++)
        r->up[i] = i;
    if (listen) {
        collision_listener l = {.merged = rx_merged, .complete = rx_complete, .ctx = r};
        collision_events_listen(c, &l);
    }
    rng_seed(&rx_rng, seed, 0);
    const uint32_t n = medium_station_count(m);
    uint32_t on[8]; /* station -> its transmission under way + 1, or 0 */
    memset(on, 0, sizeof on);
    const sim_time span = medium_max_delay(m) + 1;
    const bool calm = rx_below(2); /* gaps often longer than the cable */
    sim_time now = 0;
    size_t call = 0;
    while (r->n_tx < RX_MAX || r->n_cnt < RX_MAX / 4) {
        uint32_t what = rx_below(10);
        if (rx_below(3) == 0) /* instants shared often */
            now += grain * (rx_below(calm ? 4 : 2) == 0 ? 3 * span / grain + 1
                                                         : (sim_time)rx_below((uint32_t)(span / grain + 2)));
        uint32_t s = rx_below(n);
        call++;
        if (what < 5 && !on[s] && r->n_tx < RX_MAX) {
            assert_int_equal(collision_events_begin(c, s, now), 0);
            r->tx[r->n_tx] = (rx){.s = s, .start = now, .end = SIM_TIME_NEVER};
            on[s] = ++r->n_tx;
            if (listen)
                assert_int_equal(collision_events_tag(c, s, now, r->n_tx), 0);
        } else if (what < 9 && on[s]) {
            collision_events_end(c, s, now);
            r->tx[on[s] - 1].end = now;
            r->tx[on[s] - 1].ended_at = call;
            on[s] = 0;
        } else if (what == 9 && r->n_cnt < RX_MAX) {
            rcount *k = &r->cnt[r->n_cnt++];
            k->call = call;
            k->t = now;
            k->first_open = SIM_TIME_NEVER;
            for (uint32_t x = 0; x < n; x++)
                if (on[x] && r->tx[on[x] - 1].start < k->first_open)
                    k->first_open = r->tx[on[x] - 1].start;
            k->got = collision_events_count(c, now);
            k->heard = r->heard;
        }
    }
    for (uint32_t x = 0; x < n; x++) /* all end, and a last count long after */
        if (on[x]) {
            collision_events_end(c, x, now);
            r->tx[on[x] - 1].end = now;
            r->tx[on[x] - 1].ended_at = ++call;
        }
    rcount *k = &r->cnt[r->n_cnt++];
    *k = (rcount){.call = ++call, .t = now + 10 * span, .first_open = SIM_TIME_NEVER};
    k->got = collision_events_count(c, k->t);
    k->heard = r->heard;
    assert_true(collision_events_bytes(c) > 0);
    collision_events_destroy(c);
}

static void test_random_against_brute_force(void **state)
{
    (void)state;
    static rrun lazy, told;
    for (uint64_t trial = 0; trial < 60; trial++) {
        rng_seed(&rx_rng, 7919 * trial + 1, 0);
        bool star = rx_below(3) == 0;
        uint32_t n = 1 + rx_below(8);
        sim_time pos[8];
        sim_time scale = rx_below(2) ? 1000 : 1000000; /* gaps last about the cable's delay */
        /* positions and instants on one grid: starts and counts exactly as
         * a tail passes the last station, signals that meet edge to edge */
        bool grid = rx_below(2);
        for (uint32_t i = 0; i < n; i++)
            pos[i] = grid ? 250 * (sim_time)rx_below(5) : 1 + (sim_time)rx_below(999) * scale / 1000;
        medium_config mc = {.n_stations = n, .topology = star ? TOPOLOGY_STAR : TOPOLOGY_BUS,
                            .pos_ps = pos, .hub_ps = star ? 250 * (sim_time)rx_below(3) : 0,
                            .retain_ps = 9600,
                            .chain_ps = 6400, .chain_cap_ps = 1000000};
        medium *m;
        assert_int_equal(medium_create(&mc, &m), 0);
        rx_play(m, 104729 * trial + 3, false, grid ? 250 : 1, &lazy);
        rx_play(m, 104729 * trial + 3, true, grid ? 250 : 1, &told);
        assert_int_equal(lazy.n_tx, told.n_tx);
        /* the reference's components */
        static uint32_t up[RX_MAX], size[RX_MAX];
        for (uint32_t i = 0; i < lazy.n_tx; i++) {
            up[i] = i;
            size[i] = 1;
        }
        for (uint32_t i = 0; i < lazy.n_tx; i++)
            for (uint32_t j = 0; j < i; j++) {
                uint32_t a = rx_find(up, i), b = rx_find(up, j);
                if (a != b && rx_linked(m, &lazy.tx[i], &lazy.tx[j])) {
                    up[a] = b;
                    size[b] += size[a];
                }
            }
        uint64_t events_total = 0;
        for (uint32_t q = 0; q < lazy.n_cnt; q++) {
            const rcount *k = &lazy.cnt[q];
            static bool open[RX_MAX]; /* a root with a member not yet droppable */
            memset(open, 0, sizeof open);
            for (uint32_t i = 0; i < lazy.n_tx; i++) {
                const rx *x = &lazy.tx[i];
                sim_time passed = x->ended_at && x->ended_at < k->call ? rx_passed(m, x) : 0;
                if (!x->ended_at || x->ended_at > k->call || !(passed < k->t) ||
                    passed > k->first_open)
                    open[rx_find(up, i)] = true;
            }
            uint64_t want = 0;
            for (uint32_t i = 0; i < lazy.n_tx; i++)
                want += rx_find(up, i) == i && size[i] >= 2 && !open[i];
            assert_int_equal(k->got, want);
            assert_int_equal(told.cnt[q].got, want);
            assert_int_equal(told.cnt[q].heard, want);
            events_total = want;
        }
        print_message("trial %2u: %s n=%u scale=%lld%s: %u transmissions, %llu events\n",
                      (unsigned)trial, star ? "star" : "bus ", n, (long long)scale,
                      grid ? " grid" : "",
                      lazy.n_tx, (unsigned long long)events_total);
        medium_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_stations),
        cmocka_unit_test(test_chain_of_three),
        cmocka_unit_test(test_burst_extension),
        cmocka_unit_test(test_overlong_two_events),
        cmocka_unit_test(test_crossing_between_stations),
        cmocka_unit_test(test_star),
        cmocka_unit_test(test_open_while_under_way),
        cmocka_unit_test(test_tags),
        cmocka_unit_test(test_random_against_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
