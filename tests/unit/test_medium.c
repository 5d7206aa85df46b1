/* test_medium.c - the signal query the deference process replays
 * (medium_signals_at): every live signal and the fault, as seen at one
 * station, in order of arrival there, with the delays of the geometry;
 * and the carrier index and reach indexes (segment trees over the station
 * order, repaired lazily) against a plain scan of every station, on a bus
 * and a star. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "medium.h"
#include "rng.h"

/* A bus; positions are propagation times from the cable's start. */
static medium *bus(const sim_time *pos, uint32_t n, sim_time fault_start, sim_time fault_end)
{
    medium_config c = {.n_stations = n, .topology = TOPOLOGY_BUS, .pos_ps = pos,
                       .retain_ps = 9600, .chain_ps = 6400, .chain_cap_ps = 1000000,
                       .fault_start_ps = fault_start, .fault_end_ps = fault_end};
    medium *m;
    assert_int_equal(medium_create(&c, &m), 0);
    return m;
}

/* Started in the order A, B, C, D, seen at station 0 in the order B (its
 * own), D, the fault, then A and C, which arrive together: a tie keeps the
 * order in which they started. */
static void test_arrival_order(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000, 5000, 3000};
    medium *m = bus(pos, 4, 4000, 4500);
    uint64_t a = medium_tx_begin(m, 2, 0, 0);    /* reaches 0 at 5000 */
    uint64_t b = medium_tx_begin(m, 0, 100, 0);  /* its own: at 100 */
    uint64_t c = medium_tx_begin(m, 3, 2000, 0); /* 2000 + 3000 = 5000 */
    medium_tx_begin(m, 1, 2000, 0);              /* 2000 + 1000 = 3000 */
    medium_tx_end(m, a, 6000);
    medium_tx_end(m, b, 700);
    medium_tx_end(m, c, 2500);

    medium_signal sig[8];
    assert_int_equal(medium_signal_count(m), 5);
    assert_int_equal(medium_signals_at(m, 0, sig, 8), 5);
    const struct {
        sim_time from, until;
        uint32_t station;
        bool own;
    } want[] = {
        {100, 700, 0, true},
        {3000, SIM_TIME_NEVER, 1, false},
        {4000, 4500, MEDIUM_FAULT_STATION, false},
        {5000, 11000, 2, false},
        {5000, 5500, 3, false},
    };
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(sig[i].from, want[i].from);
        assert_int_equal(sig[i].until, want[i].until);
        assert_int_equal(sig[i].station, want[i].station);
        assert_int_equal(sig[i].own, want[i].own);
    }
    /* at most cap entries */
    assert_int_equal(medium_signals_at(m, 0, sig, 2), 2);
    medium_destroy(m);
}

/* A crowd (more signals than the insertion path takes): every signal,
 * once, in order of arrival. */
static void test_crowd_order(void **state)
{
    (void)state;
    enum { N = 64 };
    sim_time pos[N];
    for (uint32_t i = 0; i < N; i++)
        pos[i] = (sim_time)((i * 37) % N) * 100; /* scattered along the cable */
    medium *m = bus(pos, N, 0, 0);
    for (uint32_t i = 0; i < N; i++)
        medium_tx_begin(m, i, (sim_time)i * 10, 0);
    medium_signal sig[N];
    uint32_t j = 5;
    assert_int_equal(medium_signals_at(m, j, sig, N), N);
    int seen[N] = {0};
    for (size_t i = 0; i < N; i++) {
        uint32_t s = sig[i].station;
        assert_true(s < N);
        seen[s]++;
        sim_time d = pos[s] > pos[j] ? pos[s] - pos[j] : pos[j] - pos[s];
        assert_int_equal(sig[i].from, (sim_time)s * 10 + d);
        assert_int_equal(sig[i].until, SIM_TIME_NEVER);
        if (i > 0)
            assert_true(sig[i - 1].from <= sig[i].from);
    }
    for (uint32_t s = 0; s < N; s++)
        assert_int_equal(seen[s], 1);
    medium_destroy(m);
}

/* The latest end of carrier from a floor (medium_closed_end_from), by
 * hand on a bus at 0, 1000 and 3000: while few records are live it scans
 * them; once records have retired it answers from them only above the
 * instant by which every retired carrier had ended everywhere, and asks
 * the index below it. */
static void test_closed_end_from(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000, 3000};
    medium *m = bus(pos, 3, 0, 0);
    uint64_t a = medium_tx_begin(m, 1, 0, 0);
    uint64_t b = medium_tx_begin(m, 2, 100, 0);
    medium_tx_end(m, a, 500);  /* at 0: 1500 */
    medium_tx_end(m, b, 700);  /* at 0: 3700, from 3100 */
    uint32_t who = 0;
    sim_time from = 0;
    assert_int_equal(medium_closed_end_from(m, 0, 0, &who, &from), 3700);
    assert_int_equal(who, 2);
    assert_int_equal(from, 3100);
    assert_true(medium_closed_end_from(m, 0, 4000, &who, &from) < 4000);
    uint64_t c = medium_tx_begin(m, 0, 5000, 0);
    medium_tx_end(m, c, 5600); /* its own: no delay */
    assert_int_equal(medium_closed_end_from(m, 0, 0, &who, &from), 5600);
    assert_int_equal(who, 0);
    assert_int_equal(from, 5000);
    medium_retire(m, 1000000); /* every record goes: ended everywhere by 8600 */
    assert_int_equal(medium_live_count(m), 0);
    /* at 1: its own 500, 2's 2700, 0's 6600 */
    assert_true(medium_closed_end_from(m, 1, 9000, &who, &from) < 9000);
    assert_int_equal(medium_closed_end_from(m, 1, 6000, &who, &from), 6600);
    assert_int_equal(who, 0);
    assert_int_equal(from, 6000);
    medium_destroy(m);
}

/* A star with drops `pos` and the hub's delay. */
static medium *star(const sim_time *pos, uint32_t n, sim_time hub)
{
    medium_config c = {.n_stations = n, .topology = TOPOLOGY_STAR, .pos_ps = pos, .hub_ps = hub,
                       .retain_ps = 9600, .chain_ps = 6400, .chain_cap_ps = 1000000};
    medium *m;
    assert_int_equal(medium_create(&c, &m), 0);
    return m;
}

/* A hub whose drops are of one length: stations that start at one
 * instant arrive everywhere at one instant. Signals that arrive together
 * are listed in the order their transmissions started (the live order),
 * in a handful (the insertion path) and in a crowd (the quicksort), by
 * medium_signals_at and medium_signals_since alike: deference's blocker
 * among tied signals follows that order (stations/MODEL.md). Stations
 * start in a scrambled order, in three groups of simultaneous starts. */
static void test_ties_in_live_order(void **state)
{
    (void)state;
    enum { N = 60 };
    sim_time pos[N];
    for (uint32_t i = 0; i < N; i++)
        pos[i] = 500;
    for (uint32_t n = 6; n <= N; n += N - 6) { /* 6: a handful; 60: a crowd */
        medium *m = star(pos, n, 1000);
        uint32_t order[N];
        for (uint32_t i = 0; i < n; i++) {
            order[i] = (i * 7 + 3) % n; /* 7 and n coprime */
            medium_tx_begin(m, order[i], (sim_time)(i / (n / 3)) * 10, 0);
        }
        medium_signal sig[N];
        uint32_t j = order[n - 1]; /* seen from the last to start: its own
                                      signal (no delay) arrives first */
        for (int since = 0; since < 2; since++) {
            size_t got = since ? medium_signals_since(m, j, 0, sig, N)
                               : medium_signals_at(m, j, sig, N);
            assert_int_equal(got, n);
            assert_int_equal(sig[0].station, j);
            assert_true(sig[0].own);
            assert_int_equal(sig[0].from, 20);
            size_t k = 1;
            for (uint32_t i = 0; i < n - 1; i++, k++) {
                assert_int_equal(sig[k].station, order[i]);
                assert_int_equal(sig[k].seq, i);
                assert_int_equal(sig[k].from, (sim_time)(i / (n / 3)) * 10 + 2000);
            }
            assert_int_equal(k, n);
        }
        medium_destroy(m);
    }
}

/* By hand, on a bus of three stations at 0, 3000 and 1000 (so the
 * position order is 0, 2, 1): station 1 transmits from 500, station 2
 * sent [0, 800). */
static void test_carrier_index_by_hand(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 3000, 1000};
    medium *m = bus(pos, 3, 0, 0);
    uint64_t b = medium_tx_begin(m, 2, 0, 0);
    medium_tx_begin(m, 1, 500, 0);
    medium_tx_end(m, b, 800);
    /* at 0: station 1's signal arrives at 500 + 3000; station 2's ended */
    assert_int_equal(medium_open_arrival(m, 0), 3500);
    /* at 2: 500 + 2000 */
    assert_int_equal(medium_open_arrival(m, 2), 2500);
    /* at 1: nobody else transmits */
    assert_int_equal(medium_open_arrival(m, 1), SIM_TIME_NEVER);
    uint32_t who;
    sim_time from;
    assert_int_equal(medium_closed_end(m, 0, &who, &from), 1800); /* 800 + 1000 */
    assert_int_equal(who, 2);
    assert_int_equal(from, 1000);
    assert_int_equal(medium_closed_end(m, 2, &who, &from), 800); /* its own */
    assert_int_equal(who, 2);
    assert_int_equal(medium_closed_end(m, 1, &who, &from), 2800);
    /* the first foreign signal at 0 at or after 1000: station 2's tail */
    assert_int_equal(medium_foreign_signal_from(m, 0, 1000), 1000);
    assert_int_equal(medium_foreign_signal_from(m, 0, 1800), 3500);
    medium_destroy(m);
}

/* The reach index's list of stations with a deadline to come, scanned
 * while at most 16 remain: by hand on a bus of 40 stations 100 ps apart
 * (a signal from station 39 at t reaches k at t + 3900 - 100 k). */
static size_t reach_count(medium_reach *reach, uint32_t src, sim_time t, uint32_t *found,
                          uint32_t station)
{
    size_t n = medium_reach_find(reach, src, t, found), times = 0;
    for (size_t i = 0; i < n; i++)
        times += found[i] == station;
    assert_true(times <= 1); /* no station listed twice */
    return n;
}

static void test_reach_list(void **state)
{
    (void)state;
    sim_time pos[40];
    for (uint32_t k = 0; k < 40; k++)
        pos[k] = 100 * (sim_time)k;
    medium *m = bus(pos, 40, 0, 0);
    medium_reach *reach;
    uint32_t found[40];
    assert_int_equal(medium_reach_create(m, &reach), 0);
    for (uint32_t k = 0; k < 20; k++)
        medium_reach_set(reach, k, 10000);
    assert_int_equal(reach_count(reach, 39, 0, found, 0), 20); /* 20 listed: the tree */
    for (uint32_t k = 0; k < 10; k++)
        medium_reach_set(reach, k, MEDIUM_REACH_NONE);
    medium_reach_set(reach, 10, MEDIUM_REACH_NONE);
    medium_reach_set(reach, 10, 5000); /* back before a query: still once */
    /* 10 left, scanned: 1000 + 2900 < 5000 for station 10, all of 11..19 */
    assert_int_equal(reach_count(reach, 39, 1000, found, 10), 10);
    /* at 9000 station 10's deadline has passed (dropped from the list);
     * 11..19 are reached only from k >= 30 on */
    assert_int_equal(reach_count(reach, 39, 9000, found, 10), 0);
    /* a new deadline lists it again: 9500 + 2900 < 20000 */
    medium_reach_set(reach, 10, 20000);
    assert_int_equal(reach_count(reach, 39, 9500, found, 10), 1);
    assert_int_equal(found[0], 10);
    /* 19 more (29 listed, the tree again): 10 and 20..38 */
    for (uint32_t k = 20; k < 39; k++)
        medium_reach_set(reach, k, 30000);
    assert_int_equal(reach_count(reach, 39, 10000, found, 10), 20);
    for (size_t i = 0; i < 20; i++)
        assert_true(found[i] == 10 || (found[i] >= 20 && found[i] < 39));
    medium_reach_destroy(reach);
    medium_destroy(m);
}

/* Random transmissions on random geometries: every answer of the indexes
 * equals a scan over all stations. */
static void check_against_scan(medium *m, uint32_t n, rng *r)
{
    sim_time *open = calloc(n, sizeof *open), *ls = calloc(n, sizeof *ls),
             *le = calloc(n, sizeof *le), *dl = calloc(n, sizeof *dl);
    uint64_t *id = calloc(n, sizeof *id);
    uint32_t *found = calloc(n, sizeof *found);
    medium_reach *reach;
    assert_int_equal(medium_reach_create(m, &reach), 0);
    for (uint32_t i = 0; i < n; i++) {
        open[i] = SIM_TIME_NEVER;
        le[i] = INT64_MIN;
        dl[i] = MEDIUM_REACH_NONE;
    }
    sim_time now = 0;
    uint32_t crowded = 0, quiet_steps = 0; /* steps with the index awake, resting */
    for (int step = 0; step < 3000; step++) {
        /* Busy and quiet phases in turn: in a quiet one transmissions only
         * end and time runs on, so the records retire and the carrier
         * index rests (medium_quiet); the busy one after it wakes it with
         * a few stale stations or, past n / log2 n of them, many. */
        bool quiet = (step / 150) % 2 == 1;
        now += (sim_time)(rng_next(r) % (quiet ? 20000 : 700));
        uint32_t s = (uint32_t)(rng_next(r) % n);
        if (open[s] == SIM_TIME_NEVER && !quiet) {
            id[s] = medium_tx_begin(m, s, now, 0);
            open[s] = now;
        } else if (open[s] != SIM_TIME_NEVER && now > open[s]) {
            medium_tx_end(m, id[s], now);
            ls[s] = open[s];
            le[s] = now;
            open[s] = SIM_TIME_NEVER;
        }
        uint32_t k = (uint32_t)(rng_next(r) % n);
        dl[k] = rng_next(r) % 4 == 0 ? MEDIUM_REACH_NONE : now + (sim_time)(rng_next(r) % 9000);
        medium_reach_set(reach, k, dl[k]);
        if (rng_next(r) % 50 == 0) {
            /* many deadlines change before the next question: the reach
             * index rebuilds its whole tree */
            for (uint32_t t = 0; t < n; t++) {
                dl[t] = rng_next(r) % 4 == 0 ? MEDIUM_REACH_NONE
                                             : now + (sim_time)(rng_next(r) % 9000);
                medium_reach_set(reach, t, dl[t]);
            }
        }
        medium_retire(m, now);
        if (medium_live_count(m) > medium_quiet(m))
            crowded++;
        else
            quiet_steps++;

        uint32_t j = (uint32_t)(rng_next(r) % n);
        sim_time want_open = SIM_TIME_NEVER, want_end = INT64_MIN;
        for (uint32_t t = 0; t < n; t++) {
            sim_time d = medium_delay(m, t, j);
            if (t != j && open[t] != SIM_TIME_NEVER && open[t] + d < want_open)
                want_open = open[t] + d;
            if (le[t] != INT64_MIN && le[t] + d > want_end)
                want_end = le[t] + d;
        }
        /* the latest end from a floor (a scan while few records are live): the
         * answer when it is the floor or later, else below the floor;
         * deference's floor is now - interFrameGap (retain_ps here) */
        uint32_t who;
        sim_time from = 0;
        for (int q = 0; q < 2; q++) {
            sim_time floor = now - (q ? (sim_time)(rng_next(r) % 20000) : 9600);
            sim_time end2 = medium_closed_end_from(m, j, floor, &who, &from);
            if (want_end >= floor) {
                assert_int_equal(end2, want_end);
                assert_int_equal(le[who] + medium_delay(m, who, j), end2);
                assert_int_equal(from, ls[who] + medium_delay(m, who, j));
            } else {
                assert_true(end2 < floor);
            }
        }
        assert_int_equal(medium_open_arrival(m, j), want_open);
        sim_time end = medium_closed_end(m, j, &who, &from);
        assert_int_equal(end, want_end);
        if (end != INT64_MIN) {
            assert_int_equal(le[who] + medium_delay(m, who, j), end);
            assert_int_equal(from, ls[who] + medium_delay(m, who, j));
        }
        /* the first foreign signal at j from t on (collision detect at a
         * start): the index's answer, or its scan, equals the one read off
         * every live signal at j */
        for (int q = 0; q < 2; q++) {
            sim_time t = now + (q ? (sim_time)(rng_next(r) % 6000) : 0);
            size_t ns = medium_signal_count(m);
            medium_signal *sig = calloc(ns ? ns : 1, sizeof *sig);
            size_t got = medium_signals_at(m, j, sig, ns);
            sim_time first = SIM_TIME_NEVER;
            for (size_t i = 0; i < got; i++) {
                if (sig[i].own || (sig[i].until != SIM_TIME_NEVER && sig[i].until <= t))
                    continue;
                sim_time at = sig[i].from > t ? sig[i].from : t;
                if (at < first)
                    first = at;
            }
            free(sig);
            assert_int_equal(medium_foreign_signal_from(m, j, t), first);
        }
        /* the reach index: exactly the stations reached before their deadline */
        size_t nf = medium_reach_find(reach, j, now, found);
        size_t want = 0;
        for (uint32_t t = 0; t < n; t++)
            if (t != j && dl[t] != MEDIUM_REACH_NONE && now + medium_delay(m, t, j) < dl[t])
                want++;
        assert_int_equal(nf, want);
        for (size_t i = 0; i < nf; i++) {
            uint32_t t = found[i];
            assert_true(t != j && dl[t] != MEDIUM_REACH_NONE &&
                        now + medium_delay(m, t, j) < dl[t]);
        }
    }
    /* both regimes were checked: the index asked, and the scans */
    if (n > 2 * medium_quiet(m))
        assert_true(crowded > 0 && quiet_steps > 0);
    medium_reach_destroy(reach);
    free(open);
    free(ls);
    free(le);
    free(dl);
    free(id);
    free(found);
}

static void test_indexes_against_scan(void **state)
{
    (void)state;
    rng r;
    rng_seed_station(&r, 12, 0, RNG_PURPOSE_BACKOFF);
    const uint32_t sizes[] = {1, 2, 5, 33, 100};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t n = sizes[i];
        sim_time *pos = calloc(n, sizeof *pos);
        for (uint32_t k = 0; k < n; k++)
            pos[k] = (sim_time)(rng_next(&r) % 5000) * (k % 3 == 0 ? 1 : 2); /* ties too */
        medium *m = bus(pos, n, 0, 0);
        check_against_scan(m, n, &r);
        medium_destroy(m);
        m = star(pos, n, 4600);
        check_against_scan(m, n, &r);
        medium_destroy(m);
        free(pos);
    }
}

/* Every check of the live records against what was begun: ids
 * consecutive from the oldest live one, each record's fields, lookups by
 * id, and retired ids (and ids not yet given) not found. */
static void check_live(medium *m, const medium_tx *begun, uint64_t n_begun, uint64_t *first_seen)
{
    size_t count = medium_live_count(m);
    uint64_t first = count ? medium_live_at(m, 0)->id : n_begun;
    assert_true(first >= *first_seen); /* retired only from the front */
    *first_seen = first;
    assert_int_equal(first + count, n_begun);
    for (size_t i = 0; i < count; i++) {
        const medium_tx *t = medium_live_at(m, i), *w = &begun[first + i];
        assert_int_equal(t->id, first + i);
        assert_int_equal(t->station, w->station);
        assert_int_equal(t->start, w->start);
        assert_int_equal(t->end, w->end);
        assert_int_equal(t->user, w->user);
        assert_int_equal(t->holds, w->holds);
        assert_ptr_equal(medium_tx_get(m, first + i), t);
    }
    if (first > 0)
        assert_null(medium_tx_get(m, first - 1));
    assert_null(medium_tx_get(m, n_begun));
    assert_null(medium_tx_get(m, UINT64_MAX));
}

/* The live records sit in a window of one array that slides back to the
 * array's start, or doubles it, when it reaches the end. Retiring every
 * 1, 5, 13, 31 or 64 records, and a hold kept over 70 records, make the
 * window slide with few and with many records live and grow past 16 and
 * 64; every record stays where its id says, with its fields. */
static void test_live_records_window(void **state)
{
    (void)state;
    const sim_time pos[] = {0, 1000, 2000, 3000};
    medium *m = bus(pos, 4, 0, 0);
    enum { N = 3000 };
    medium_tx *begun = calloc(N, sizeof *begun);
    const unsigned every[] = {1, 5, 13, 31, 64};
    uint64_t first_seen = 0, held = UINT64_MAX;
    size_t most = 0;
    for (uint64_t k = 0; k < N; k++) {
        sim_time start = (sim_time)k * 20000; /* each record its own cluster */
        uint32_t s = (uint32_t)(k % 4);
        uint64_t id = medium_tx_begin(m, s, start, k * 7);
        assert_int_equal(id, k);
        begun[k] = (medium_tx){.id = k, .station = s, .start = start, .end = SIM_TIME_NEVER,
                               .user = k * 7};
        check_live(m, begun, k + 1, &first_seen);
        medium_tx_end(m, id, start + 5000);
        begun[k].end = start + 5000;
        if (k % 500 == 100) {
            medium_hold(m, id);
            begun[k].holds = 1;
            held = k;
        } else if (held != UINT64_MAX && k == held + 70) {
            medium_release(m, held);
            begun[held].holds = 0;
            held = UINT64_MAX;
        }
        if (k % every[(k / 300) % 5] == 0)
            medium_retire(m, start + 19999);
        check_live(m, begun, k + 1, &first_seen);
        if (medium_live_count(m) > most)
            most = medium_live_count(m);
    }
    assert_true(most > 70); /* the window grew past 64 records */
    /* Long after the last signal died out, nothing stays. */
    medium_retire(m, (sim_time)N * 20000 + 1000000);
    assert_int_equal(medium_live_count(m), 0);
    check_live(m, begun, N, &first_seen);
    free(begun);
    medium_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrival_order),
        cmocka_unit_test(test_crowd_order),
        cmocka_unit_test(test_ties_in_live_order),
        cmocka_unit_test(test_closed_end_from),
        cmocka_unit_test(test_carrier_index_by_hand),
        cmocka_unit_test(test_indexes_against_scan),
        cmocka_unit_test(test_reach_list),
        cmocka_unit_test(test_live_records_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
