/* test_determinism.c - a scenario and a seed give the same run.
 *
 * Pins: running the same scenario with the same seed twice gives an
 * identical trace (every field of every event hashed, in order) and
 * identical results (every counter and measure, bit for bit); the same runs
 * made in two threads at once give the same again (an engine owns all its
 * state); another seed gives a different trace; a station's random stream
 * depends on (seed, station) only, not on how many stations there are
 * (stations/MODEL.md, "Randomness and determinism"). Checked on three PHYs and
 * traffic kinds, 1 Gb/s with bursting included.
 * Does not pin: the CLI's byte-identical JSON/CSV/event-log outputs (the
 * CLI tests compare those files), the wall-clock fields (not in results).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model_util.h"

/* FNV-1a, fed field by field (never struct bytes: padding is not data). */
typedef struct hash {
    uint64_t h;
} hash;
static void h_bytes(hash *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h->h ^= b[i];
        h->h *= 0x100000001b3ull;
    }
}
static void h_u64(hash *h, uint64_t v) { h_bytes(h, &v, sizeof v); }
static void h_dbl(hash *h, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    h_u64(h, u);
}

static uint64_t hash_trace(const mu_trace *t)
{
    hash h = {0xcbf29ce484222325ull};
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *e = &t->ev[i];
        h_u64(&h, (uint64_t)e->kind);
        h_u64(&h, (uint64_t)e->time);
        h_u64(&h, e->station);
        h_u64(&h, e->dest);
        h_u64(&h, e->frame_id);
        h_u64(&h, e->frame_bytes);
        h_u64(&h, e->attempt);
        h_u64(&h, e->collisions);
        h_u64(&h, (uint64_t)e->queued_at);
        h_u64(&h, e->tx_id);
        h_u64(&h, (uint64_t)e->tx_kind);
        h_u64(&h, (uint64_t)e->tx_start);
        h_u64(&h, (uint64_t)e->tx_end);
        h_u64(&h, (uint64_t)e->jam_start);
        h_u64(&h, (uint64_t)e->probe_start);
        h_u64(&h, e->bits_on_wire);
        h_u64(&h, e->late);
        h_u64(&h, e->backoff_slots);
        h_u64(&h, (uint64_t)e->backoff_ps);
        h_u64(&h, (uint64_t)e->abort_reason);
        h_u64(&h, e->ok);
        h_u64(&h, e->payload_len);
    }
    return h.h;
}

static uint64_t hash_results(const results *r)
{
    hash h = {0xcbf29ce484222325ull};
    const double d[] = {r->sim_time_s, r->measured_s, r->throughput, r->throughput_ci95,
                        r->throughput_mbps, r->offered_load, r->collisions_per_frame,
                        r->completion_s, r->mean_delay_us, r->p50_delay_us, r->p99_delay_us,
                        r->max_delay_us, r->jain_fairness, r->capture_mean_run};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        h_dbl(&h, d[i]);
    const uint64_t u[] = {r->frames_ok, r->frames_offered, r->frames_aborted, r->frames_dropped,
                          r->frames_queued, r->frames_delivered, r->frames_corrupted,
                          r->attempts, r->collisions, r->collisions_seen, r->late_collisions,
                          r->capture_max_run, r->events, r->n_stations};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        h_u64(&h, u[i]);
    for (uint32_t i = 0; i < r->n_stations; i++) {
        const station_result *s = &r->stations[i];
        const mac_counters *c = &s->c;
        const uint64_t cu[] = {c->frames_transmitted_ok, c->single_collision_frames,
                               c->multiple_collision_frames, c->octets_transmitted_ok,
                               c->frames_with_deferred_xmissions, c->late_collisions,
                               c->frames_aborted_xs_colls, c->frames_late_discarded,
                               c->frames_offered, c->frames_dropped, c->collisions, c->attempts,
                               c->frames_delivered, c->frames_corrupted,
                               s->bits_delivered, s->queue_len};
        for (size_t k = 0; k < sizeof cu / sizeof cu[0]; k++)
            h_u64(&h, cu[k]);
        h_dbl(&h, s->share);
    }
    return h.h;
}

typedef struct fingerprint {
    uint64_t trace, res;
    size_t n_events;
} fingerprint;

static void make(scenario *sc, int which, uint64_t seed)
{
    switch (which) {
    case 0:
        mu_scenario(sc, "10base5", 16, NULL, TRAFFIC_SATURATED, 64, 20 * SIM_PS_PER_MS, seed);
        for (uint32_t i = 0; i < 16; i++)
            sc->positions_m[i] = 500.0 * i / 15;
        sc->phy.length_m = 500;
        break;
    case 1:
        mu_scenario(sc, "100basetx", 12, NULL, TRAFFIC_POISSON, 64, 2 * SIM_PS_PER_MS, seed);
        sc->traffic.load = 0.9;
        sc->traffic.size.kind = FRAME_SIZE_RANGE;
        sc->traffic.size.max_bytes = 1518;
        break;
    default:
        mu_scenario(sc, "1000baset", 8, NULL, TRAFFIC_ONOFF, 128, 1 * SIM_PS_PER_MS, seed);
        sc->traffic.load = 1.5;
        sc->traffic.on_mean_s = 1e-4;
        sc->traffic.off_mean_s = 1e-4;
        break;
    }
}

static fingerprint run_fp(int which, uint64_t seed)
{
    scenario sc;
    make(&sc, which, seed);
    mu_run run;
    mu_run_scenario(&sc, &run);
    fingerprint f = {hash_trace(&run.tr), hash_results(&run.r), run.tr.n};
    assert_true(run.tr.n > 100);
    mu_run_free(&run);
    mu_scenario_free(&sc);
    return f;
}

static void test_same_seed_same_run(void **state)
{
    (void)state;
    for (int w = 0; w < 3; w++) {
        fingerprint a = run_fp(w, 42), b = run_fp(w, 42), c = run_fp(w, 43);
        assert_int_equal(a.n_events, b.n_events);
        assert_int_equal(a.trace, b.trace);
        assert_int_equal(a.res, b.res);
        assert_int_not_equal(a.trace, c.trace);
    }
}

/* Engines own everything they touch: two at once in two threads give the
 * runs made one after the other. (cmocka assertions are not thread-safe,
 * so the threads only run and hash; the checks are made on return.) */
typedef struct job {
    int which;
    uint64_t seed;
    uint64_t trace;
    size_t n;
    int ok;
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    scenario sc;
    make(&sc, j->which, j->seed);
    mu_trace tr = {0};
    engine *e = NULL;
    char err[256];
    if (engine_create(&sc, &e, err, sizeof err) == 0) {
        trace_sink s = {mu_trace_sink, &tr, NULL};
        if (engine_add_sink(e, s) == 0) {
            engine_run_all(e);
            j->trace = hash_trace(&tr);
            j->n = tr.n;
            j->ok = 1;
        }
        engine_destroy(e);
    }
    mu_trace_free(&tr);
    mu_scenario_free(&sc);
    return NULL;
}

static void test_parallel_engines(void **state)
{
    (void)state;
    job jobs[3] = {{.which = 0, .seed = 7}, {.which = 1, .seed = 7}, {.which = 0, .seed = 7}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 3; i++)
        assert_true(jobs[i].ok);
    fingerprint s0 = run_fp(0, 7), s1 = run_fp(1, 7);
    assert_int_equal(jobs[0].trace, s0.trace);
    assert_int_equal(jobs[2].trace, s0.trace);
    assert_int_equal(jobs[1].trace, s1.trace);
    assert_int_equal(jobs[0].n, s0.n_events);
}

/* Stations 0 and 1 at one point with N - 2 others, one frame each: all
 * collide at t = 0, so each station's first backoff is the first draw of
 * its backoff stream and its first frame's size the first draw of its
 * traffic stream; both must be the same whatever N is. */
static void test_streams_per_station(void **state)
{
    (void)state;
    static const uint32_t ns[] = {2, 3, 6, 17};
    for (uint64_t seed = 1; seed <= 20; seed++) {
        uint64_t slots[4][2];
        uint32_t bytes[4][2];
        for (size_t k = 0; k < 4; k++) {
            scenario sc;
            mu_scenario(&sc, "10base5", ns[k], NULL, TRAFFIC_BATCH, 64, 5 * SIM_PS_PER_MS, seed);
            sc.traffic.size.kind = FRAME_SIZE_RANGE;
            sc.traffic.size.min_bytes = 64;
            sc.traffic.size.max_bytes = 1518;
            mu_run run;
            mu_run_scenario(&sc, &run);
            for (uint32_t st = 0; st < 2; st++) {
                const trace_event *b = mu_find(&run.tr, TRACE_BACKOFF, st, 0);
                const trace_event *a = mu_find(&run.tr, TRACE_TX_START, st, 0);
                assert_non_null(b);
                assert_non_null(a);
                assert_int_equal(b->collisions, 1);
                slots[k][st] = b->backoff_slots;
                bytes[k][st] = a->frame_bytes;
            }
            mu_run_free(&run);
            mu_scenario_free(&sc);
        }
        for (size_t k = 1; k < 4; k++)
            for (uint32_t st = 0; st < 2; st++) {
                assert_int_equal(slots[k][st], slots[0][st]);
                assert_int_equal(bytes[k][st], bytes[0][st]);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_run),
        cmocka_unit_test(test_parallel_engines),
        cmocka_unit_test(test_streams_per_station),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
