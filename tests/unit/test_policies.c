/* test_policies.c - every backoff policy against its own definition.
 *
 * Pins:
 *  - the registry: every policy of stations/POLICIES.md exists, parses its
 *    parameters (bad values and unknown keys are refused with "policy: ..."),
 *    keeps the common attempts=N|none, and declares the capabilities the MAC
 *    reads (carrier sense, collision detection, persistence, slots, yield);
 *  - each policy's wait distribution against its definition in
 *    stations/backoff.c, one fixed seed per check: deterministic policies
 *    (none, linear, expo, ppersistent) exactly; uniform ones (fixed,
 *    full-jitter, equal-jitter, decorrelated, thain, aloha, ca-beb) by a
 *    chi-square goodness-of-fit test over equal-width cells plus the exact
 *    range; slotted-aloha's geometric wait by a chi-square over k = 0..K
 *    and a tail cell; gaussian by a chi-square over cells cut at normal
 *    quantiles; the p-persistence coin by a binomial z-test. Every test is
 *    at p = 0.001 (chi-square) or |z| < 4.5;
 *  - a property test: for every policy on random scenarios (station count,
 *    cable, frame size, traffic kind and seed drawn from a fixed stream),
 *    every backoff the engine draws lies within the bounds the policy
 *    declares for the state it was drawn in (reconstructed here from the
 *    trace), and every frame's attempts end: each frame ends in transmitOK
 *    or an abort after exactly attemptLimit attempts, never more, and batch
 *    traffic completes;
 *  - determinism: two runs of one scenario and seed give identical
 *    counters under every policy.
 * Does not pin: 802.3 BEB's own law (test_backoff), the validation against
 * theory (test_policy_theory), which random stream the draws come from.
 *
 * The chi-square p-value is the regularized upper incomplete gamma
 * function Q(df/2, x/2), computed as in test_backoff.c (series and
 * continued fraction, Numerical Recipes 2nd ed. 6.2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backoff.h"
#include "model_util.h"
#include "rng.h"

#define SLOT_PS ((sim_time)51200000) /* 512 bit times at 10 Mb/s */
#define DRAWS 40000

/* Chi-square statistic of observed counts against expected ones; asserts
 * p >= 0.001. */
static void chi2_check(const char *what, const double *obs, const double *exp_, int cells)
{
    double stat = 0;
    for (int c = 0; c < cells; c++)
        stat += (obs[c] - exp_[c]) * (obs[c] - exp_[c]) / exp_[c];
    double p = mu_chi2_pvalue(stat, (unsigned)(cells - 1));
    if (p < 0.001) {
        print_error("%s: chi-square %.2f with %d df, p = %.2g\n", what, stat, cells - 1, p);
        fail();
    }
}

static backoff_env env_n(uint32_t n)
{
    return (backoff_env){.slot_ps = SLOT_PS, .attempt_limit = 16, .backoff_limit = 10,
                         .n_stations = n};
}

static backoff_policy *make(const char *spec, uint32_t n)
{
    backoff_env env = env_n(n);
    backoff_policy *p = NULL;
    char err[256] = "";
    if (backoff_policy_create(spec, &env, &p, err, sizeof err) != 0) {
        print_error("%s: %s\n", spec, err);
        fail();
    }
    return p;
}

/* Draws DRAWS waits after collision n from a fresh state `st0` and checks
 * they are uniform over the integer picoseconds [lo, hi], in 20 cells,
 * and lie within the policy's declared bounds. */
static void check_uniform(const char *spec, const backoff_state *st0, uint32_t n, sim_time lo,
                          sim_time hi, uint64_t seed)
{
    backoff_policy *p = make(spec, 8);
    rng r;
    rng_seed(&r, seed, 1);
    enum { CELLS = 20 };
    double obs[CELLS] = {0}, ex[CELLS];
    sim_time blo, bhi;
    backoff_policy_bounds(p, st0, n, &blo, &bhi);
    assert_int_equal(blo, lo);
    assert_int_equal(bhi, hi);
    sim_time seen_lo = INT64_MAX, seen_hi = INT64_MIN;
    for (int i = 0; i < DRAWS; i++) {
        backoff_state st = *st0;
        sim_time w = backoff_policy_draw(p, &st, n, &r).wait_ps;
        if (w < lo || w > hi) {
            print_error("%s n=%u: wait %lld outside [%lld, %lld]\n", spec, n, (long long)w,
                        (long long)lo, (long long)hi);
            fail();
        }
        assert_int_equal(st.prev_wait_ps, w);
        seen_lo = w < seen_lo ? w : seen_lo;
        seen_hi = w > seen_hi ? w : seen_hi;
        double span = (double)(hi - lo) + 1;
        int c = (int)((double)(w - lo) * CELLS / span);
        obs[c < CELLS ? c : CELLS - 1]++;
    }
    for (int c = 0; c < CELLS; c++)
        ex[c] = (double)DRAWS / CELLS;
    char what[160];
    snprintf(what, sizeof what, "%s after collision %u", spec, n);
    chi2_check(what, obs, ex, CELLS);
    /* the draws reach both ends of a wide range (within 0.1 % of it) */
    assert_true((double)(seen_lo - lo) < 0.001 * (double)(hi - lo) + 1);
    assert_true((double)(hi - seen_hi) < 0.001 * (double)(hi - lo) + 1);
    backoff_policy_destroy(p);
}

static void check_exact(const char *spec, const backoff_state *st0, uint32_t n, sim_time want)
{
    backoff_policy *p = make(spec, 8);
    rng r;
    rng_seed(&r, 5, 1);
    for (int i = 0; i < 100; i++) {
        backoff_state st = *st0;
        sim_time w = backoff_policy_draw(p, &st, n, &r).wait_ps;
        if (w != want) {
            print_error("%s n=%u: wait %lld, expected %lld\n", spec, n, (long long)w,
                        (long long)want);
            fail();
        }
    }
    sim_time lo, hi;
    backoff_policy_bounds(p, st0, n, &lo, &hi);
    assert_int_equal(lo, want);
    assert_int_equal(hi, want);
    backoff_policy_destroy(p);
}

static const char *const all_policies[] = {
    "beb", "none", "fixed", "linear", "expo", "full-jitter", "equal-jitter", "decorrelated",
    "gaussian", "thain", "ppersistent", "aloha", "slotted-aloha", "ca-beb"};
#define N_POLICIES (sizeof all_policies / sizeof all_policies[0])

static void test_registry(void **state)
{
    (void)state;
    assert_int_equal(backoff_policy_count(), N_POLICIES);
    for (size_t i = 0; i < N_POLICIES; i++) {
        backoff_policy *p = make(all_policies[i], 8);
        assert_string_equal(backoff_policy_name(p), all_policies[i]);
        assert_int_equal(backoff_policy_attempt_limit(p), 16);
        backoff_policy_destroy(p);
        char spec[64];
        snprintf(spec, sizeof spec, "%s:attempts=none", all_policies[i]);
        p = make(spec, 8);
        assert_int_equal(backoff_policy_attempt_limit(p), 0);
        backoff_policy_destroy(p);
        snprintf(spec, sizeof spec, "%s:attempts=3", all_policies[i]);
        p = make(spec, 8);
        assert_int_equal(backoff_policy_attempt_limit(p), 3);
        backoff_policy_destroy(p);
    }
    const char *bad[] = {"expo:base=-1",         "expo:cap=abc",      "full-jitter:nope=1",
                         "ppersistent:p=1.5",    "slotted-aloha:q=0", "aloha:window=inf",
                         "beb:limit=2.5",        "fixed:wait",        "gaussian:factor=0.5",
                         "thain:attempts=0",     "ca-beb:yield=nan",  "linear:step=1e99"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        backoff_env env = env_n(8);
        backoff_policy *p = NULL;
        char err[256] = "";
        if (backoff_policy_create(bad[i], &env, &p, err, sizeof err) == 0) {
            print_error("'%s' was accepted\n", bad[i]);
            fail();
        }
        assert_true(strncmp(err, "policy: ", 8) == 0);
    }
}

/* backoff_policy_constant: none and fixed without jitter, and no other
 * policy by default; a constant policy draws the same wait after every
 * collision count and from every state. */
static void test_constant(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_POLICIES; i++) {
        const char *n = all_policies[i];
        backoff_policy *p = make(n, 8);
        bool expect = strcmp(n, "none") == 0 || strcmp(n, "fixed") == 0;
        assert_int_equal(backoff_policy_constant(p), expect);
        backoff_policy_destroy(p);
    }
    backoff_policy *p = make("fixed:jitter=1", 8);
    assert_false(backoff_policy_constant(p));
    backoff_policy_destroy(p);
    const char *constant[] = {"none", "fixed", "fixed:wait=3"};
    const sim_time wait[] = {0, SLOT_PS, 3 * SLOT_PS};
    for (size_t i = 0; i < 3; i++) {
        p = make(constant[i], 8);
        assert_true(backoff_policy_constant(p));
        rng r;
        rng_seed(&r, 7, 1);
        for (uint32_t n = 1; n <= 16; n++) {
            backoff_state st = {.prev_wait_ps = (sim_time)n * SLOT_PS,
                                .follows_success = n % 2 == 0};
            assert_int_equal(backoff_policy_draw(p, &st, n, &r).wait_ps, wait[i]);
        }
        backoff_policy_destroy(p);
    }
}

static void test_caps(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_POLICIES; i++) {
        backoff_policy *p = make(all_policies[i], 8);
        backoff_caps c = backoff_policy_caps(p);
        const char *n = all_policies[i];
        bool aloha = strstr(n, "aloha") != NULL;
        assert_int_equal(c.carrier_sense, !aloha);
        assert_int_equal(c.collision_detect, !aloha);
        assert_int_equal(c.slotted, strcmp(n, "slotted-aloha") == 0);
        if (strcmp(n, "ppersistent") == 0)
            assert_true(fabs(c.persist_p - 1.0 / 8) < 1e-15); /* default 1/N */
        else
            assert_true(c.persist_p == 1.0);
        assert_int_equal(c.yield_ps, strcmp(n, "ca-beb") == 0 ? SLOT_PS : 0);
        assert_int_equal(c.slot_ps, 0);
        backoff_policy_destroy(p);
    }
    backoff_policy *p = make("ppersistent:p=0.25", 8);
    assert_true(backoff_policy_caps(p).persist_p == 0.25);
    backoff_policy_destroy(p);
    p = make("slotted-aloha:slot=2", 8);
    assert_int_equal(backoff_policy_caps(p).slot_ps, 2 * SLOT_PS);
    backoff_policy_destroy(p);
    /* A 1-persistent policy's coin draws nothing from the stream. */
    p = make("beb", 8);
    rng a, b;
    rng_seed(&a, 1, 1);
    rng_seed(&b, 1, 1);
    assert_true(backoff_policy_persist(p, &a));
    assert_int_equal(rng_next(&a), rng_next(&b));
    backoff_policy_destroy(p);
}

static void test_deterministic(void **state)
{
    (void)state;
    backoff_state st = {0};
    for (uint32_t n = 1; n <= 20; n++) {
        check_exact("none", &st, n, 0);
        /* linear: min(cap, base + step (n-1)) slots */
        sim_time lin = (sim_time)(2 + 3 * (n - 1)) * SLOT_PS;
        check_exact("linear:base=2,step=3,cap=40", &st, n, lin < 40 * SLOT_PS ? lin : 40 * SLOT_PS);
        /* expo: min(cap, base 2^(n-1)) slots */
        double e = ldexp(0.5, (int)n - 1);
        sim_time ex = e < 100 ? (sim_time)llround(e * SLOT_PS) : 100 * SLOT_PS;
        check_exact("expo:base=0.5,cap=100", &st, n, ex);
    }
    /* ppersistent: resume one slot after the collided attempt began. */
    backoff_state pp = {.attempt_ps = 96 * 100000};
    check_exact("ppersistent", &pp, 1, SLOT_PS - 96 * 100000);
    check_exact("ppersistent", &pp, 9, SLOT_PS - 96 * 100000);
    pp.attempt_ps = 2 * SLOT_PS; /* a long cable: sense again at once */
    check_exact("ppersistent", &pp, 1, 0);
    /* ca-beb: the first collision of a frame that follows an own success
     * retries at once (US 5,854,900). */
    backoff_state cs = {.follows_success = true};
    check_exact("ca-beb", &cs, 1, 0);
}

static void test_uniform_families(void **state)
{
    (void)state;
    backoff_state st = {0};
    /* fixed: wait + U[0, jitter] */
    check_uniform("fixed:wait=3,jitter=2", &st, 1, 3 * SLOT_PS, 5 * SLOT_PS, 11);
    check_uniform("fixed:wait=3,jitter=2", &st, 7, 3 * SLOT_PS, 5 * SLOT_PS, 12);
    for (uint32_t n = 1; n <= 12; n++) {
        sim_time v = (sim_time)1 << (n - 1);
        v = (v < 1024 ? v : 1024) * SLOT_PS;
        check_uniform("full-jitter:base=1,cap=1024", &st, n, 0, v, 100 + n);
        check_uniform("equal-jitter:base=1,cap=1024", &st, n, v / 2, v, 200 + n);
        /* thain: R v, R uniform in [1, 2], capped */
        sim_time t = (sim_time)1 << (n - 1);
        if (2 * t <= 1024)
            check_uniform("thain", &st, n, t * SLOT_PS, 2 * t * SLOT_PS, 300 + n);
    }
    /* ca-beb away from the capture rule is beb: [0, 2^min(n,10)) slots,
     * checked per value (the draw is whole slots). */
    backoff_policy *p = make("ca-beb", 8);
    rng r;
    rng_seed(&r, 41, 1);
    for (uint32_t n = 1; n <= 4; n++) {
        backoff_state fs = {.follows_success = n > 1};
        unsigned cells = 1u << n;
        double obs[16] = {0}, ex[16];
        for (int i = 0; i < DRAWS; i++) {
            backoff_state s2 = fs;
            backoff_draw d = backoff_policy_draw(p, &s2, n, &r);
            assert_true(d.slots < cells);
            assert_int_equal(d.wait_ps, (sim_time)d.slots * SLOT_PS);
            obs[d.slots]++;
        }
        for (unsigned c = 0; c < cells; c++)
            ex[c] = (double)DRAWS / cells;
        chi2_check("ca-beb", obs, ex, (int)cells);
    }
    backoff_policy_destroy(p);
}

/* decorrelated: min(cap, U[base, 3 prev]), prev = base on the first retry. */
static void test_decorrelated(void **state)
{
    (void)state;
    backoff_state st = {0};
    check_uniform("decorrelated:base=2,cap=1000", &st, 1, 2 * SLOT_PS, 6 * SLOT_PS, 51);
    backoff_state prev = {.prev_wait_ps = 10 * SLOT_PS};
    check_uniform("decorrelated:base=2,cap=1000", &prev, 5, 2 * SLOT_PS, 30 * SLOT_PS, 52);
    /* With 3 prev above cap, the mass above cap lands on cap exactly:
     * P(cap) = (3 prev - cap + 1 ps) / (3 prev - base + 1 ps). */
    backoff_policy *p = make("decorrelated:base=2,cap=20", 8);
    rng r;
    rng_seed(&r, 53, 1);
    double at_cap = 0;
    for (int i = 0; i < DRAWS; i++) {
        backoff_state s = prev;
        sim_time w = backoff_policy_draw(p, &s, 3, &r).wait_ps;
        assert_true(w >= 2 * SLOT_PS && w <= 20 * SLOT_PS);
        at_cap += w == 20 * SLOT_PS;
    }
    double pc = (10.0 * SLOT_PS + 1) / (28.0 * SLOT_PS + 1);
    double z = (at_cap - DRAWS * pc) / sqrt(DRAWS * pc * (1 - pc));
    print_message("decorrelated at cap: %.0f of %d (expected %.1f, z = %.2f)\n", at_cap, DRAWS,
                  DRAWS * pc, z);
    assert_true(fabs(z) < 4.5);
    /* a chain of draws: each wait is within [base, min(cap, 3 x previous)] */
    backoff_state chain = {0};
    for (int i = 0; i < 1000; i++) {
        sim_time before = chain.prev_wait_ps ? chain.prev_wait_ps : 2 * SLOT_PS;
        sim_time w = backoff_policy_draw(p, &chain, (uint32_t)i + 1, &r).wait_ps;
        assert_true(w >= 2 * SLOT_PS && w <= 20 * SLOT_PS && w <= 3 * before);
    }
    backoff_policy_destroy(p);
}

/* gaussian: d = min(max, min factor^(n-1)); wait = d (1 + jitter Z),
 * clamped to [0, max]. At n = 4 with min = 2, factor = 2: d = 16 slots;
 * jitter 0.1 puts the clamps 10 standard deviations away: the wait is
 * normal. Cells cut at the standard normal's octiles. */
static void test_gaussian(void **state)
{
    (void)state;
    backoff_policy *p = make("gaussian:min=2,max=1024,factor=2,jitter=0.1", 8);
    rng r;
    rng_seed(&r, 61, 1);
    const double zq[7] = {-1.150349380, -0.674489750, -0.318639364, 0,
                          0.318639364,  0.674489750,  1.150349380};
    double obs[8] = {0}, ex[8];
    double d = 16.0 * SLOT_PS, sum = 0;
    for (int i = 0; i < DRAWS; i++) {
        backoff_state s = {0};
        sim_time w = backoff_policy_draw(p, &s, 4, &r).wait_ps;
        double z = ((double)w - d) / (0.1 * d);
        int c = 0;
        while (c < 7 && z >= zq[c])
            c++;
        obs[c]++;
        sum += (double)w;
    }
    for (int c = 0; c < 8; c++)
        ex[c] = DRAWS / 8.0;
    chi2_check("gaussian n=4", obs, ex, 8);
    double mean = sum / DRAWS, se = 0.1 * d / sqrt(DRAWS);
    assert_true(fabs(mean - d) < 4.5 * se);
    /* far out the cap holds: d = max, and the clamp keeps every wait in
     * [0, max] */
    sim_time lo, hi;
    backoff_policy_bounds(p, &(backoff_state){0}, 30, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 1024 * SLOT_PS);
    double at_cap = 0;
    for (int i = 0; i < DRAWS; i++) {
        backoff_state s = {0};
        sim_time w = backoff_policy_draw(p, &s, 30, &r).wait_ps;
        assert_true(w >= 0 && w <= 1024 * SLOT_PS);
        at_cap += w == 1024 * SLOT_PS;
    }
    /* half the normal mass is above d = max and lands on it */
    assert_true(fabs(at_cap / DRAWS - 0.5) < 4.5 * sqrt(0.25 / DRAWS));
    backoff_policy_destroy(p);
}

/* aloha: U[0, window x frame) in picoseconds; slotted-aloha: r slots with
 * P(r = k) = (1 - q)^k q, truncated at cap. */
static void test_aloha_waits(void **state)
{
    (void)state;
    backoff_state st = {.frame_ps = 576 * 100000}; /* a 64-byte frame */
    check_uniform("aloha:window=5", &st, 1, 0, 5 * st.frame_ps - 1, 71);
    check_uniform("aloha:window=5", &st, 9, 0, 5 * st.frame_ps - 1, 72);

    backoff_policy *p = make("slotted-aloha:q=0.2", 8);
    rng r;
    rng_seed(&r, 73, 1);
    enum { K = 20 };
    double obs[K + 1] = {0}, ex[K + 1];
    for (int i = 0; i < DRAWS; i++) {
        backoff_state s = st;
        backoff_draw d = backoff_policy_draw(p, &s, 1, &r);
        assert_int_equal(d.wait_ps, (sim_time)d.slots * st.frame_ps);
        obs[d.slots < K ? d.slots : K]++;
    }
    for (int k = 0; k < K; k++)
        ex[k] = DRAWS * pow(0.8, k) * 0.2;
    ex[K] = DRAWS * pow(0.8, K);
    chi2_check("slotted-aloha q=0.2", obs, ex, K + 1);
    sim_time lo, hi;
    backoff_policy_bounds(p, &st, 1, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 1023 * st.frame_ps);
    backoff_policy_destroy(p);
    /* an explicit slot replaces the frame time */
    p = make("slotted-aloha:q=1,slot=3", 8);
    backoff_state s3 = st;
    backoff_policy_bounds(p, &s3, 1, &lo, &hi);
    assert_int_equal(hi, 1023 * 3 * (sim_time)SLOT_PS);
    assert_int_equal(backoff_policy_draw(p, &s3, 1, &r).wait_ps, 0); /* q = 1: next slot */
    backoff_policy_destroy(p);
}

/* The p-persistence coin: true with probability p. */
static void test_persist_coin(void **state)
{
    (void)state;
    const double ps[3] = {1.0 / 64, 0.25, 0.5};
    for (int k = 0; k < 3; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "ppersistent:p=%.17g", ps[k]);
        backoff_policy *p = make(spec, 64);
        rng r;
        rng_seed(&r, 81 + (uint64_t)k, 1);
        double yes = 0;
        for (int i = 0; i < 4 * DRAWS; i++)
            yes += backoff_policy_persist(p, &r);
        double n = 4 * DRAWS, z = (yes - n * ps[k]) / sqrt(n * ps[k] * (1 - ps[k]));
        assert_true(fabs(z) < 4.5);
        backoff_policy_destroy(p);
    }
}

/* ---- the property test through the engine -------------------------------- */

#define MAX_ST 24

typedef struct prop {
    const backoff_policy *pol;
    const scenario *sc;
    bool cd;
    sim_time bit_ps;
    sim_time tx_start[MAX_ST];  /* the station's attempt under way */
    uint64_t frame[MAX_ST];     /* its frame, and that frame's ... */
    uint32_t attempts[MAX_ST];  /* ... attempts so far */
    sim_time prev_wait[MAX_ST]; /* ... previous wait */
    uint64_t backoffs, ended, aborted;
    bool bad;
} prop;

static void prop_sink(void *ctx, const trace_event *ev)
{
    prop *t = ctx;
    uint32_t s = ev->station;
    if (s >= MAX_ST || t->bad)
        return;
    if (ev->kind == TRACE_TX_START && ev->tx_kind == TRACE_TX_FRAME) {
        if (t->frame[s] != ev->frame_id) {
            t->frame[s] = ev->frame_id;
            t->attempts[s] = 0;
            t->prev_wait[s] = 0;
        }
        t->attempts[s]++;
        t->tx_start[s] = ev->time;
        uint32_t limit = backoff_policy_attempt_limit(t->pol);
        if (limit && t->attempts[s] > limit) {
            print_error("station %u frame %llx: attempt %u beyond the limit %u\n", s,
                        (unsigned long long)ev->frame_id, t->attempts[s], limit);
            t->bad = true;
        }
    } else if (ev->kind == TRACE_BACKOFF) {
        const phy_params *ph = &t->sc->phy;
        uint32_t bytes = ev->frame_bytes < ph->min_frame_bytes ? ph->min_frame_bytes
                                                                : ev->frame_bytes;
        backoff_state st = {0};
        st.prev_wait_ps = t->frame[s] == ev->frame_id ? t->prev_wait[s] : 0;
        st.frame_ps = (sim_time)(ph->preamble_bits + 8ull * bytes) * t->bit_ps;
        st.attempt_ps = t->cd ? ev->time - t->tx_start[s] : st.frame_ps;
        sim_time lo, hi;
        backoff_policy_bounds(t->pol, &st, ev->attempt, &lo, &hi);
        if (ev->backoff_ps < lo || ev->backoff_ps > hi) {
            print_error("%s: station %u collision %u waits %lld, declared [%lld, %lld]\n",
                        backoff_policy_name(t->pol), s, ev->attempt,
                        (long long)ev->backoff_ps, (long long)lo, (long long)hi);
            t->bad = true;
        }
        t->prev_wait[s] = ev->backoff_ps;
        t->backoffs++;
    } else if (ev->kind == TRACE_TX_OK || ev->kind == TRACE_ABORT) {
        uint32_t limit = backoff_policy_attempt_limit(t->pol);
        if (ev->kind == TRACE_ABORT) {
            t->aborted++;
            if (t->frame[s] != ev->frame_id || t->attempts[s] != limit) {
                print_error("station %u: abort after %u attempts, limit %u\n", s,
                            t->attempts[s], limit);
                t->bad = true;
            }
        }
        t->ended++;
    }
}

static void test_property_bounds_and_termination(void **state)
{
    (void)state;
    rng pick;
    rng_seed(&pick, 2024, 9);
    uint64_t total_backoffs = 0;
    for (size_t i = 0; i < N_POLICIES; i++) {
        for (int rep = 0; rep < 4; rep++) {
            uint32_t n = 2 + (uint32_t)rng_below(&pick, 11);
            double len = rng_below(&pick, 2) ? 0 : (double)rng_below(&pick, 500);
            uint32_t bytes = 64 + 64 * (uint32_t)rng_below(&pick, 8);
            traffic_kind kind = (traffic_kind[]){TRAFFIC_SATURATED, TRAFFIC_POISSON,
                                                 TRAFFIC_BATCH}[rng_below(&pick, 3)];
            double pos[MAX_ST];
            for (uint32_t k = 0; k < n; k++)
                pos[k] = n > 1 ? len * k / (n - 1) : 0;
            scenario sc;
            mu_scenario(&sc, rng_below(&pick, 2) ? "10base5" : "10baset", n, pos, kind, bytes,
                        kind == TRAFFIC_BATCH ? 4 * SIM_PS_PER_S : SIM_PS_PER_S / 20,
                        rng_next(&pick));
            sc.traffic.load = 1.5;
            sc.traffic.batch_frames = 3;
            /* a short limit for half the runs, so aborts happen */
            char spec[64];
            snprintf(spec, sizeof spec, "%s%s", all_policies[i], rep % 2 ? ":attempts=4" : "");
            mu_set_policy(&sc, spec);
            backoff_env env = {.slot_ps = (sim_time)sc.phy.slot_bits * phy_bit_ps(&sc.phy),
                               .attempt_limit = sc.phy.attempt_limit,
                               .backoff_limit = sc.phy.backoff_limit, .n_stations = n};
            backoff_policy *pol = NULL;
            char err[256];
            assert_int_equal(backoff_policy_create(sc.policy, &env, &pol, err, sizeof err), 0);
            prop t = {.pol = pol, .sc = &sc, .cd = backoff_policy_caps(pol).collision_detect,
                      .bit_ps = phy_bit_ps(&sc.phy)};
            for (uint32_t k = 0; k < MAX_ST; k++)
                t.frame[k] = UINT64_MAX;
            engine *e = NULL;
            assert_int_equal(engine_create(&sc, &e, err, sizeof err), 0);
            assert_int_equal(engine_add_sink(e, (trace_sink){prop_sink, &t, NULL}), 0);
            engine_run_all(e);
            results r;
            engine_results(e, &r);
            if (t.bad) {
                print_error("policy %s, %u stations, %.0f m, %u bytes, traffic %d\n", sc.policy,
                            n, len, bytes, (int)kind);
                fail();
            }
            /* every frame offered ends, or is the one under way at a station,
             * or still queued */
            assert_true(r.frames_ok + r.frames_aborted + r.frames_dropped + r.frames_queued ==
                        r.frames_offered);
            assert_int_equal(t.ended, r.frames_ok + r.frames_aborted);
            if (kind == TRAFFIC_BATCH) {
                if (r.completion_s < 0) {
                    print_error("policy %s: batch not done in 4 s (%llu of %llu)\n", sc.policy,
                                (unsigned long long)t.ended,
                                (unsigned long long)r.frames_offered);
                    fail();
                }
            }
            total_backoffs += t.backoffs;
            engine_destroy(e);
            backoff_policy_destroy(pol);
            mu_scenario_free(&sc);
        }
    }
    print_message("property: %llu backoffs checked against their declared bounds\n",
                  (unsigned long long)total_backoffs);
    assert_true(total_backoffs > 1000);
}

/* Every policy is a function of the seed alone: two runs of one scenario
 * give the same counters, station by station (stations/MODEL.md, "Randomness
 * and determinism"; the coin and the ALOHA paths draw from the station's own
 * backoff stream). */
static void test_policies_deterministic(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_POLICIES; i++) {
        mu_run a, b;
        scenario sc;
        mu_scenario(&sc, "10base5", 12, NULL, TRAFFIC_POISSON, 128, SIM_PS_PER_S / 20, 77);
        sc.traffic.load = 0.9;
        mu_set_policy(&sc, all_policies[i]);
        mu_run_scenario(&sc, &a);
        mu_run_scenario(&sc, &b);
        assert_int_equal(a.tr.n, b.tr.n);
        assert_int_equal(a.r.attempts, b.r.attempts);
        for (uint32_t s = 0; s < 12; s++)
            assert_memory_equal(&a.st[s].c, &b.st[s].c, sizeof a.st[s].c);
        assert_true(a.r.attempts > 0);
        mu_run_free(&a);
        mu_run_free(&b);
        mu_scenario_free(&sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_constant),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_uniform_families),
        cmocka_unit_test(test_decorrelated),
        cmocka_unit_test(test_gaussian),
        cmocka_unit_test(test_aloha_waits),
        cmocka_unit_test(test_persist_coin),
        cmocka_unit_test(test_property_bounds_and_termination),
        cmocka_unit_test(test_policies_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
