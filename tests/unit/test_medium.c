/* test_medium.c - the signal query the deference process replays
 * (medium_signals_at): every live signal and the fault, as seen at one
 * station, in order of arrival there, with the delays of the geometry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "medium.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrival_order),
        cmocka_unit_test(test_crowd_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
