/* test_tui_history.c - the run's history behind the TUI's time view
 * (src/live/tui_history.c): a sample's throughput is the bits delivered
 * in its stretch over the rate and the stretch; the time axis runs on
 * across engines (a new engine's t = 0 placed after the last instant the
 * old one reached), with the mark at that place; at capacity neighbours
 * merge in pairs (the mean throughput, the sum of collisions and frames)
 * and the step doubles; the oldest marks go first when they are too many.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tui_history.h"

#define MS ((sim_time)1000000000) /* picoseconds per millisecond */

static void test_samples_and_engines(void **state)
{
    (void)state;
    tui_history *h = calloc(1, sizeof *h);
    assert_non_null(h);
    tui_history_reset(h, 100 * MS);
    assert_int_equal(h->next, 100 * MS);
    /* 10 Mb/s: 500 kbit in 100 ms is half the rate */
    tui_history_sample(h, 100 * MS, 500000, 3, 100, 10e6);
    tui_history_sample(h, 200 * MS, 1500000, 3, 300, 10e6);
    assert_int_equal(h->n, 2);
    assert_true(h->v[0].s == 0.5 && h->v[0].t_s == 0.1);
    assert_true(h->v[0].collisions == 3 && h->v[0].frames == 100);
    assert_true(h->v[1].s == 1.0 && h->v[1].collisions == 0 && h->v[1].frames == 200);
    assert_int_equal(h->next, 300 * MS);
    tui_history_sample(h, 200 * MS, 9999999, 9, 999, 10e6); /* not after the last: ignored */
    assert_int_equal(h->n, 2);
    /* a new engine after the old one reached 250 ms: its samples from there */
    tui_history_engine(h, 250 * MS, "switch");
    assert_int_equal(h->n_marks, 1);
    assert_string_equal(h->marks[0].label, "switch");
    assert_true(h->marks[0].t_s == 0.25);
    assert_int_equal(h->next, 100 * MS);
    /* its totals start at 0: 8 links' worth in 100 ms */
    tui_history_sample(h, 100 * MS, 8000000, 0, 1000, 10e6);
    assert_true(h->v[2].s == 8.0);
    assert_true(h->v[2].t_s > 0.35 - 1e-12 && h->v[2].t_s < 0.35 + 1e-12);
    /* it reached 150 ms; the next one is replaced at 30 ms, before its
     * first sample: time still moves on by what each reached */
    tui_history_engine(h, 150 * MS, NULL);
    assert_int_equal(h->n_marks, 1);
    tui_history_engine(h, 30 * MS, "N=9");
    assert_true(h->marks[1].t_s > 0.43 - 1e-12 && h->marks[1].t_s < 0.43 + 1e-12);
    assert_string_equal(h->marks[1].label, "N=9");
    free(h);
}

static void test_halving(void **state)
{
    (void)state;
    tui_history *h = calloc(1, sizeof *h);
    assert_non_null(h);
    tui_history_reset(h, 10 * MS);
    uint64_t bits = 0, coll = 0, frames = 0;
    for (uint32_t i = 1; i <= TUI_HISTORY_CAP; i++) {
        /* even samples 0.2 of the rate, odd ones 0.6; a collision each */
        bits += (i % 2 ? 60000 : 20000);
        coll += 1;
        frames += 10;
        tui_history_sample(h, i * 10 * MS, bits, coll, frames, 10e6);
    }
    assert_int_equal(h->n, TUI_HISTORY_CAP);
    assert_int_equal(h->step, 10 * MS);
    bits += 60000;
    tui_history_sample(h, (TUI_HISTORY_CAP + 1) * 10 * MS, bits, coll + 1, frames + 10, 10e6);
    /* merged to half, then the new sample: pairs of 0.6 and 0.2 */
    assert_int_equal(h->n, TUI_HISTORY_CAP / 2 + 1);
    assert_int_equal(h->step, 20 * MS);
    for (size_t i = 0; i < TUI_HISTORY_CAP / 2; i++) {
        assert_true(h->v[i].s > 0.4 - 1e-12 && h->v[i].s < 0.4 + 1e-12);
        assert_true(h->v[i].collisions == 2 && h->v[i].frames == 20);
        assert_true(h->v[i].t_s > 0.02 * (double)(i + 1) - 1e-9 &&
                    h->v[i].t_s < 0.02 * (double)(i + 1) + 1e-9);
    }
    assert_true(h->v[TUI_HISTORY_CAP / 2].s > 0.6 - 1e-12);
    /* the next boundary a doubled step on */
    assert_int_equal(h->next, (TUI_HISTORY_CAP + 1) * 10 * MS + 20 * MS);
    /* too many marks: the oldest go */
    for (int i = 0; i < TUI_HISTORY_MARKS + 3; i++) {
        char l[16];
        snprintf(l, sizeof l, "m%d", i);
        tui_history_engine(h, 0, l);
    }
    assert_int_equal(h->n_marks, TUI_HISTORY_MARKS);
    assert_string_equal(h->marks[0].label, "m3");
    assert_string_equal(h->marks[TUI_HISTORY_MARKS - 1].label, "m34");
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_and_engines),
        cmocka_unit_test(test_halving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
