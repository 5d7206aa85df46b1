/* test_timeline_sink.c - pins src/live/timeline_sink.c: how recent
 * transmissions become cells of the channel at the probe (idle, frame, jam,
 * collision where two signals overlap in time, not merely share a cell),
 * with a transmission still under way lasting until "now", the
 * jam classified from its start at the probe, and the ring forgetting the
 * oldest records first; on a network, relays by segment and tap, and the
 * cells of one segment's probe. Times are small made-up picosecond values; it does
 * not run the engine (the driver test does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timeline_sink.h"

static void ev(timeline_sink *t, trace_kind k, uint64_t id, uint32_t st, sim_time start,
               sim_time probe, sim_time jam, sim_time end)
{
    trace_event e;
    memset(&e, 0, sizeof e);
    e.kind = k;
    e.time = k == TRACE_TX_START ? start : k == TRACE_JAM ? jam : end;
    e.station = st;
    e.tx_id = id;
    e.tx_start = start;
    e.probe_start = probe;
    e.jam_start = jam;
    e.tx_end = end;
    timeline_sink_on_event(t, &e);
}

static void test_cells(void **state)
{
    (void)state;
    timeline_sink *t;
    assert_int_equal(timeline_sink_create(16, &t), 0);
    const sim_time NV = SIM_TIME_NEVER;
    /* A: [0, 500) at the probe, whole. */
    ev(t, TRACE_TX_START, 1, 0, 0, 0, NV, NV);
    ev(t, TRACE_TX_END, 1, 0, 0, 0, NV, 500);
    /* B: starts at 800, reaches the probe at 850, jams from 1000 (1050 at
     * the probe), ends at 1300 (1350 at the probe). */
    ev(t, TRACE_TX_START, 2, 1, 800, 850, NV, NV);
    /* C: [1150, 1250) overlaps B's jam: a collision. */
    ev(t, TRACE_TX_START, 3, 2, 1150, 1150, NV, NV);
    ev(t, TRACE_JAM, 2, 1, 800, 850, 1000, 1300);
    ev(t, TRACE_TX_END, 2, 1, 800, 850, 1000, 1300);
    ev(t, TRACE_TX_END, 3, 2, 1150, 1150, NV, 1250);
    /* D: under way since 1900. */
    ev(t, TRACE_TX_START, 4, 3, 1900, 1900, NV, NV);
    assert_int_equal(timeline_sink_count(t), 4);
    assert_int_equal(timeline_sink_at(t, 1)->jam_start, 1000);
    assert_int_equal(timeline_sink_at(t, 1)->end, 1300);
    assert_int_equal(timeline_sink_at(t, 3)->end, NV);

    uint8_t c[20];
    timeline_sink_cells(t, 2000, 100, 20, c);
    static const char want[] = "FFFFF...FFFXXJ.....F";
    for (int i = 0; i < 20; i++) {
        char g = c[i] == TIMELINE_IDLE    ? '.'
               : c[i] == TIMELINE_FRAME   ? 'F'
               : c[i] == TIMELINE_JAM     ? 'J'
                                          : 'X';
        if (g != want[i])
            fail_msg("cell %d: got %c, want %c", i, g, want[i]);
    }
    /* A window entirely before everything: idle; and a later "now" makes
     * D longer. */
    timeline_sink_cells(t, 2300, 100, 3, c);
    assert_int_equal(c[0], TIMELINE_FRAME);
    assert_int_equal(c[2], TIMELINE_FRAME);
    timeline_sink_reset(t);
    assert_int_equal(timeline_sink_count(t), 0);
    timeline_sink_cells(t, 2000, 100, 20, c);
    for (int i = 0; i < 20; i++)
        assert_int_equal(c[i], TIMELINE_IDLE);
    timeline_sink_destroy(t);
}

/* Two frames a gap apart in one cell are not a collision. */
static void test_gap_in_a_cell(void **state)
{
    (void)state;
    timeline_sink *t;
    assert_int_equal(timeline_sink_create(8, &t), 0);
    const sim_time NV = SIM_TIME_NEVER;
    ev(t, TRACE_TX_START, 1, 0, 0, 0, NV, NV);
    ev(t, TRACE_TX_END, 1, 0, 0, 0, NV, 400);
    ev(t, TRACE_TX_START, 2, 0, 500, 500, NV, NV);
    ev(t, TRACE_TX_END, 2, 0, 500, 500, NV, 900);
    uint8_t c[2];
    timeline_sink_cells(t, 2000, 1000, 2, c);
    assert_int_equal(c[0], TIMELINE_FRAME);
    assert_int_equal(c[1], TIMELINE_IDLE);
    timeline_sink_destroy(t);
}

static void test_ring(void **state)
{
    (void)state;
    timeline_sink *t;
    assert_int_equal(timeline_sink_create(2, &t), 0);
    for (uint64_t i = 0; i < 5; i++)
        ev(t, TRACE_TX_START, i, (uint32_t)i, (sim_time)i * 10, (sim_time)i * 10, SIM_TIME_NEVER,
           SIM_TIME_NEVER);
    assert_int_equal(timeline_sink_count(t), 2);
    assert_int_equal(timeline_sink_at(t, 0)->tx_id, 3);
    assert_int_equal(timeline_sink_at(t, 1)->tx_id, 4);
    assert_null(timeline_sink_at(t, 2));
    /* An end for a forgotten transmission is ignored. */
    ev(t, TRACE_TX_END, 1, 1, 10, 10, SIM_TIME_NEVER, 15);
    ev(t, TRACE_TX_END, 3, 3, 30, 30, SIM_TIME_NEVER, 35);
    assert_int_equal(timeline_sink_at(t, 0)->end, 35);
    timeline_sink_destroy(t);
}

/* A network: relays are remembered with their segment and tap, a relay's
 * jam from RELAY_JAM on, and the cells of one segment's probe count only
 * the signals sent there. */
static void relay(timeline_sink *t, trace_kind k, uint64_t id, uint32_t seg, uint32_t tap,
                  sim_time start, sim_time jam, sim_time end)
{
    trace_event e;
    memset(&e, 0, sizeof e);
    e.kind = k;
    e.time = k == TRACE_RELAY_START ? start : k == TRACE_RELAY_JAM ? jam : end;
    e.station = TRACE_NO_STATION;
    e.segment = seg;
    e.tap = tap;
    e.tx_id = id;
    e.tx_start = start;
    e.probe_start = start;
    e.jam_start = jam;
    e.tx_end = end;
    timeline_sink_on_event(t, &e);
}

static void test_relays_by_segment(void **state)
{
    (void)state;
    timeline_sink *t;
    assert_int_equal(timeline_sink_create(16, &t), 0);
    const sim_time NV = SIM_TIME_NEVER;
    /* segment 0: a station's frame [0, 500) */
    ev(t, TRACE_TX_START, 1, 0, 0, 0, NV, NV);
    ev(t, TRACE_TX_END, 1, 0, 0, 0, NV, 500);
    /* segment 1: the repeater relays it [100, 600) at tap 3, jam from 400 */
    relay(t, TRACE_RELAY_START, 2, 1, 3, 100, NV, NV);
    relay(t, TRACE_RELAY_JAM, 2, 1, 3, 100, 400, NV);
    assert_int_equal(timeline_sink_at(t, 1)->jam_start, 400);
    assert_int_equal(timeline_sink_at(t, 1)->end, NV);
    relay(t, TRACE_RELAY_END, 2, 1, 3, 100, 400, 600);
    const timeline_tx *r = timeline_sink_at(t, 1);
    assert_int_equal(r->station, TRACE_NO_STATION);
    assert_int_equal(r->segment, 1);
    assert_int_equal(r->tap, 3);
    assert_int_equal(r->end, 600);
    uint8_t c[7];
    /* each segment alone: no collision; both together, an overlap */
    timeline_sink_cells_on(t, 0, 700, 100, 7, c);
    static const uint8_t on0[7] = {TIMELINE_FRAME, TIMELINE_FRAME, TIMELINE_FRAME, TIMELINE_FRAME,
                                   TIMELINE_FRAME, TIMELINE_IDLE, TIMELINE_IDLE};
    assert_memory_equal(c, on0, 7);
    timeline_sink_cells_on(t, 1, 700, 100, 7, c);
    static const uint8_t on1[7] = {TIMELINE_IDLE,  TIMELINE_FRAME, TIMELINE_FRAME, TIMELINE_FRAME,
                                   TIMELINE_JAM,   TIMELINE_JAM,   TIMELINE_IDLE};
    assert_memory_equal(c, on1, 7);
    timeline_sink_cells(t, 700, 100, 7, c);
    assert_int_equal(c[2], TIMELINE_COLLISION);
    timeline_sink_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_gap_in_a_cell),
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_relays_by_segment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
