/* backoff.c - the policy registry and every retransmission policy.
 *
 * A spec is "name" or "name:key=value,...". Parameters common to every
 * policy: attempts=N|none (the attempt limit; default the PHY's
 * attemptLimit, 16). Each policy is a row of a const table: its name, a
 * one-line summary, its parameters (name, default, range, unit), a draw
 * function, the bounds it declares for a draw, and the capabilities that
 * tell the MAC how it sends. Nothing is registered at run time.
 *
 * Notation: n >= 1 is the number of collisions of the frame so far and
 * i = n - 1 the retry index from 0 (the "attempt" of Brooker's formulas);
 * "slot" is the PHY's slotTime; "frame" is the frame's own time on the wire
 * (backoff_state.frame_ps). Time parameters are converted to picoseconds
 * once, when the policy is created, and every draw that can be is done in
 * integer picoseconds (uniform draws without modulo bias, rng_below).
 *
 * Sources: 802.3 4.2.3.2.5 (beb); M. Brooker, "Exponential Backoff And
 * Jitter", AWS Architecture Blog, 2015 (expo, full-jitter, equal-jitter,
 * decorrelated); D. Thain and M. Livny, "The Ethernet Approach to Grid
 * Computing", HPDC-12, 2003 (thain); Metcalfe and Boggs, CACM 19(7), 1976,
 * and Kleinrock and Tobagi, IEEE Trans. Commun. COM-23, 1975
 * (ppersistent); N. Abramson, "The ALOHA System", AFIPS FJCC 1970, and
 * L. Roberts, "ALOHA packet system with and without slots and capture",
 * 1975, with the geometric retransmission of Bertsekas and Gallager, Data
 * Networks, 4.2 (aloha, slotted-aloha); US patent 5,854,900 (capture
 * avoidance by adding a slot to the gap, ca-beb). README.md, "Backoff
 * policies", has the same table for users.
 */
#include "backoff.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every parameter of every policy; a policy reads the ones it declares. */
typedef struct policy_params {
    double limit;  /* beb, ca-beb: backoffLimit (k = min(n, limit)) */
    double base;   /* slots: the first wait (expo, jitters, linear, thain's T) */
    double cap;    /* slots: the largest wait */
    double step;   /* linear: slots added per retry */
    double wait;   /* fixed: slots */
    double jitter; /* fixed: slots of uniform extra; gaussian: sd / wait */
    double factor; /* gaussian, thain: growth per retry */
    double p;      /* ppersistent: transmit probability (0: 1/N) */
    double q;      /* slotted-aloha: retransmission probability per slot */
    double window; /* aloha: frames */
    double slot;   /* slotted-aloha: slot in slotTimes (0: the frame time) */
    double yield;  /* ca-beb: slots added to the gap after an own success */
    double zero;   /* ca-beb: 1 = the patent's zero delay after the first collision */
} policy_params;

typedef struct param_def {
    const char *key;
    size_t off;      /* in policy_params */
    double dflt;
    double lo, hi;   /* accepted range, inclusive */
    bool integer;
    const char *unit;
} param_def;

#define P(field) offsetof(policy_params, field)
#define MAX_PARAMS BACKOFF_SPEC_MAX_PARAMS

struct backoff_policy;
typedef struct policy_def {
    const char *name;
    const char *summary;
    param_def params[MAX_PARAMS]; /* ends at key NULL */
    backoff_draw (*draw)(const struct backoff_policy *p, backoff_state *st, uint32_t n,
                         rng *r);
    void (*bounds)(const struct backoff_policy *p, const backoff_state *st, uint32_t n,
                   sim_time *lo, sim_time *hi);
    backoff_caps caps; /* slot_ps, yield_ps, persist_p completed at create */
} policy_def;

struct backoff_policy {
    const policy_def *def;
    backoff_env env;
    policy_params params;
    uint32_t attempt_limit;
    /* parameters in picoseconds (slots x slotTime) */
    sim_time base_ps, cap_ps, step_ps, wait_ps, jitter_ps;
    backoff_caps caps;
};

/* ---- helpers -------------------------------------------------------------- */

static sim_time slots_ps(const backoff_policy *p, double slots)
{
    return (sim_time)llround(slots * (double)p->env.slot_ps);
}

/* Uniform integer picoseconds in [lo, hi] (lo <= hi), without bias. */
static sim_time uniform_ps(rng *r, sim_time lo, sim_time hi)
{
    return lo + (sim_time)rng_below(r, (uint64_t)(hi - lo) + 1);
}

static sim_time min_ps(sim_time a, sim_time b) { return a < b ? a : b; }

/* min(cap, base x 2^i) in integer picoseconds, without overflow. */
static sim_time capped_double(sim_time base, sim_time cap, uint32_t i)
{
    if (base <= 0)
        return 0;
    sim_time v = base;
    for (uint32_t k = 0; k < i && v < cap; k++)
        v = v > cap / 2 ? cap : 2 * v;
    return min_ps(v, cap);
}

static backoff_draw draw_of(sim_time wait, backoff_state *st)
{
    st->prev_wait_ps = wait;
    return (backoff_draw){.slots = 0, .wait_ps = wait};
}

/* ---- beb: IEEE 802.3 4.2.3.2.5 ---------------------------------------------
 * "The number of slot times to delay before the n th retransmission attempt
 * is chosen as a uniformly distributed random integer r in the range
 * 0 <= r < 2^k where k = min (n, 10)." The draw takes the top k bits of one
 * 64-bit output, so it has no modulo bias. Unit: slots. */
static unsigned beb_k(const backoff_policy *p, uint32_t n)
{
    unsigned limit = (unsigned)p->params.limit;
    return n < limit ? n : limit;
}

static backoff_draw beb_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    backoff_draw d;
    d.slots = rng_bits(r, beb_k(p, n));
    d.wait_ps = (sim_time)d.slots * p->env.slot_ps;
    st->prev_wait_ps = d.wait_ps;
    return d;
}

static void beb_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                       sim_time *lo, sim_time *hi)
{
    (void)st;
    *lo = 0;
    *hi = (sim_time)((1ull << beb_k(p, n)) - 1) * p->env.slot_ps;
}

/* ---- none: retry at once (wait 0), the "no backoff" of the batch
 * contention experiment. */
static backoff_draw none_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)p, (void)n, (void)r;
    return draw_of(0, st);
}

static void zero_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                        sim_time *lo, sim_time *hi)
{
    (void)p, (void)st, (void)n;
    *lo = *hi = 0;
}

/* ---- fixed: wait + uniform [0, jitter] slots, whatever n. */
static backoff_draw fixed_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)n;
    return draw_of(uniform_ps(r, p->wait_ps, p->wait_ps + p->jitter_ps), st);
}

static void fixed_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)st, (void)n;
    *lo = p->wait_ps;
    *hi = p->wait_ps + p->jitter_ps;
}

/* ---- linear: min(cap, base + step x i) slots, no jitter. */
static sim_time linear_wait(const backoff_policy *p, uint32_t n)
{
    sim_time v = p->base_ps;
    uint32_t i = n - 1;
    if (p->step_ps > 0 && (sim_time)i > (p->cap_ps - v) / p->step_ps)
        return p->cap_ps;
    return min_ps(p->cap_ps, v + (sim_time)i * p->step_ps);
}

static backoff_draw linear_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)r;
    return draw_of(linear_wait(p, n), st);
}

static void linear_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                          sim_time *lo, sim_time *hi)
{
    (void)st;
    *lo = *hi = linear_wait(p, n);
}

/* ---- expo: min(cap, base x 2^i) slots, no jitter (Brooker's "Exponential"). */
static backoff_draw expo_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)r;
    return draw_of(capped_double(p->base_ps, p->cap_ps, n - 1), st);
}

static void expo_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                        sim_time *lo, sim_time *hi)
{
    (void)st;
    *lo = *hi = capped_double(p->base_ps, p->cap_ps, n - 1);
}

/* ---- full-jitter: uniform [0, min(cap, base x 2^i)] (Brooker). */
static backoff_draw full_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    return draw_of(uniform_ps(r, 0, capped_double(p->base_ps, p->cap_ps, n - 1)), st);
}

static void full_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                        sim_time *lo, sim_time *hi)
{
    (void)st;
    *lo = 0;
    *hi = capped_double(p->base_ps, p->cap_ps, n - 1);
}

/* ---- equal-jitter: v/2 + uniform [0, v/2], v = min(cap, base x 2^i)
 * (Brooker; v/2 rounded down, the uniform part covers the rest). */
static backoff_draw equal_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    sim_time v = capped_double(p->base_ps, p->cap_ps, n - 1);
    return draw_of(uniform_ps(r, v / 2, v), st);
}

static void equal_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)st;
    sim_time v = capped_double(p->base_ps, p->cap_ps, n - 1);
    *lo = v / 2;
    *hi = v;
}

/* ---- decorrelated: min(cap, uniform [base, 3 x previous wait]), the
 * previous wait of the first retry being base (Brooker's "Decorrelated
 * Jitter": sleep = min(cap, random_between(base, sleep * 3))). */
static void decor_range(const backoff_policy *p, const backoff_state *st, sim_time *lo,
                        sim_time *hi)
{
    sim_time prev = st->prev_wait_ps > 0 ? st->prev_wait_ps : p->base_ps;
    sim_time top = prev > INT64_MAX / 3 ? INT64_MAX : 3 * prev;
    *lo = p->base_ps;
    *hi = top < p->base_ps ? p->base_ps : top;
}

static backoff_draw decor_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)n;
    sim_time lo, hi;
    decor_range(p, st, &lo, &hi);
    return draw_of(min_ps(p->cap_ps, uniform_ps(r, lo, hi)), st);
}

static void decor_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)n;
    decor_range(p, st, lo, hi);
    *lo = min_ps(*lo, p->cap_ps);
    *hi = min_ps(*hi, p->cap_ps);
}

/* ---- gaussian: d = min(max, min x factor^i); wait = d + jitter x d x Z,
 * Z standard normal, clamped to [0, max] (MinDelay = base, MaxDelay = cap,
 * Factor, Jitter: the names stations/POLICIES.md gives them). factor^i by
 * repeated multiplication: exact IEEE arithmetic, the same on every
 * machine. */
static double gauss_mean_slots(const backoff_policy *p, uint32_t n)
{
    double d = p->params.base;
    for (uint32_t k = 1; k < n && d < p->params.cap; k++)
        d *= p->params.factor;
    return d < p->params.cap ? d : p->params.cap;
}

static backoff_draw gauss_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    double d = gauss_mean_slots(p, n);
    double w = d + p->params.jitter * d * rng_normal(r);
    if (w < 0)
        w = 0;
    sim_time ps = slots_ps(p, w);
    return draw_of(min_ps(ps, p->cap_ps), st);
}

static void gauss_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)st, (void)n;
    *lo = 0;
    *hi = p->cap_ps;
}

/* ---- thain: min(R x T x F^i, M), R uniform in [1, 2] (Thain and Livny;
 * T = base, F = factor, M = cap). R x v is drawn as a uniform integer in
 * [v, 2v] picoseconds. */
static sim_time thain_v(const backoff_policy *p, uint32_t n)
{
    double v = p->params.base;
    for (uint32_t k = 1; k < n && v < p->params.cap; k++)
        v *= p->params.factor;
    return v < p->params.cap ? slots_ps(p, v) : p->cap_ps;
}

static backoff_draw thain_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    sim_time v = thain_v(p, n);
    return draw_of(min_ps(p->cap_ps, uniform_ps(r, v, 2 * v)), st);
}

static void thain_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)st;
    sim_time v = thain_v(p, n);
    *lo = min_ps(v, p->cap_ps);
    *hi = min_ps(2 * v, p->cap_ps);
}

/* ---- ppersistent: at the end of deference transmit with probability p,
 * else wait one slotTime and sense again (the MAC does this, from the
 * caps). After a collision the station resumes one slotTime after the
 * collided attempt began: wait = max(0, slot - attempt), so that, as in
 * Metcalfe and Boggs' slotted model, a collision costs one slot, exactly
 * like an idle slot, and colliders and the stations that held back sense
 * again at the same instant. p = 0 in the spec means 1/N. */
static backoff_draw pp_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)n, (void)r;
    sim_time w = p->env.slot_ps - st->attempt_ps;
    return draw_of(w > 0 ? w : 0, st);
}

static void pp_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                      sim_time *lo, sim_time *hi)
{
    (void)n;
    sim_time w = p->env.slot_ps - st->attempt_ps;
    *lo = *hi = w > 0 ? w : 0;
}

/* ---- aloha: no carrier sense, no collision detection; after a failed
 * delivery wait uniform [0, window x frame) picoseconds (Abramson's random
 * retransmission delay). */
static sim_time aloha_span(const backoff_policy *p, const backoff_state *st)
{
    return (sim_time)llround(p->params.window * (double)st->frame_ps);
}

static backoff_draw aloha_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)n;
    sim_time span = aloha_span(p, st);
    return draw_of(span > 0 ? (sim_time)rng_below(r, (uint64_t)span) : 0, st);
}

static void aloha_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    (void)n;
    sim_time span = aloha_span(p, st);
    *lo = 0;
    *hi = span > 0 ? span - 1 : 0;
}

/* ---- slotted-aloha: a backlogged station transmits in each following slot
 * with probability q (Bertsekas and Gallager's geometric retransmission):
 * r ~ Geometric(q) on {0, 1, ...}, truncated at cap slots, wait = r slots
 * counted from the verdict; the MAC then starts at the next slot boundary.
 * Drawn as Bernoulli trials (exact, no logarithm). The slot is the frame's
 * wire time unless slot=S (slotTimes) is given. */
static sim_time aloha_slot(const backoff_policy *p, const backoff_state *st)
{
    return p->caps.slot_ps > 0 ? p->caps.slot_ps : st->frame_ps;
}

static backoff_draw saloha_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    (void)n;
    uint64_t k = 0, cap = (uint64_t)p->params.cap;
    while (k < cap && !(rng_unit(r) < p->params.q))
        k++;
    backoff_draw d = draw_of((sim_time)k * aloha_slot(p, st), st);
    d.slots = k;
    return d;
}

static void saloha_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                          sim_time *lo, sim_time *hi)
{
    (void)n;
    *lo = 0;
    *hi = (sim_time)p->params.cap * aloha_slot(p, st);
}

/* ---- ca-beb: capture-avoiding BEB after US patent 5,854,900 (abstract:
 * "adding a slot time to the minimum interpacket gap (IPG) interval
 * between uninterrupted consecutive transmissions by a network station
 * ... If a collision occurs during the transmission of a second
 * successive data packet, the network station ... sets the collision
 * delay interval to zero for the first access attempt. If another
 * collision occurs ..., the collision interval is calculated according to
 * the truncated binary exponential backoff algorithm."). The yield is the
 * MAC's (caps.yield_ps); the draw is 0 on the first collision of a frame
 * that follows an own success, else beb. */
static backoff_draw cabeb_draw(const backoff_policy *p, backoff_state *st, uint32_t n, rng *r)
{
    if (n == 1 && st->follows_success && p->params.zero != 0)
        return draw_of(0, st);
    return beb_draw(p, st, n, r);
}

static void cabeb_bounds(const backoff_policy *p, const backoff_state *st, uint32_t n,
                         sim_time *lo, sim_time *hi)
{
    if (n == 1 && st->follows_success && p->params.zero != 0) {
        *lo = *hi = 0;
        return;
    }
    beb_bounds(p, st, n, lo, hi);
}

/* ---- the table ------------------------------------------------------------- */

#define CSMACD {.carrier_sense = true, .collision_detect = true, .persist_p = 1.0}
#define NO_CS {.carrier_sense = false, .collision_detect = false, .persist_p = 1.0}
#define SLOTS_MAX 1e7 /* 1e7 slots: 512 s at 10 Mb/s */

static const policy_def policies[] = {
    {"beb", "802.3 truncated binary exponential backoff: r in [0, 2^min(n,limit)) slots",
     {{"limit", P(limit), 10, 0, 62, true, "backoffLimit (default: the PHY's)"}},
     beb_draw, beb_bounds, CSMACD},
    {"none", "no backoff: retry as soon as deference allows (wait 0)",
     {{0}}, none_draw, zero_bounds, CSMACD},
    {"fixed", "fixed interval: wait + uniform [0, jitter] slots",
     {{"wait", P(wait), 1, 0, SLOTS_MAX, false, "slots"},
      {"jitter", P(jitter), 0, 0, SLOTS_MAX, false, "slots"}},
     fixed_draw, fixed_bounds, CSMACD},
    {"linear", "linear: min(cap, base + step x (n-1)) slots",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"step", P(step), 1, 0, SLOTS_MAX, false, "slots"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots"}},
     linear_draw, linear_bounds, CSMACD},
    {"expo", "capped exponential, no jitter: min(cap, base x 2^(n-1)) slots",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots"}},
     expo_draw, expo_bounds, CSMACD},
    {"full-jitter", "uniform [0, min(cap, base x 2^(n-1))] slots",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots"}},
     full_draw, full_bounds, CSMACD},
    {"equal-jitter", "v/2 + uniform [0, v/2], v = min(cap, base x 2^(n-1)) slots",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots"}},
     equal_draw, equal_bounds, CSMACD},
    {"decorrelated", "min(cap, uniform [base, 3 x previous wait]) slots",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots"}},
     decor_draw, decor_bounds, CSMACD},
    {"gaussian", "d = min(max, min x factor^(n-1)) slots, plus normal jitter x d, in [0, max]",
     {{"min", P(base), 1, 0, SLOTS_MAX, false, "slots"},
      {"max", P(cap), 1024, 0, SLOTS_MAX, false, "slots"},
      {"factor", P(factor), 2, 1, 1e6, false, "per retry"},
      {"jitter", P(jitter), 0.1, 0, 10, false, "standard deviation / d"}},
     gauss_draw, gauss_bounds, CSMACD},
    {"thain", "Thain and Livny: min(R x T x F^(n-1), M) slots, R uniform in [1, 2]",
     {{"base", P(base), 1, 0, SLOTS_MAX, false, "slots (T)"},
      {"factor", P(factor), 2, 1, 1e6, false, "per retry (F)"},
      {"cap", P(cap), 1024, 0, SLOTS_MAX, false, "slots (M)"}},
     thain_draw, thain_bounds, CSMACD},
    {"ppersistent", "p-persistent CSMA/CD: send with probability p per slot (p=0: 1/N)",
     {{"p", P(p), 0, 0, 1, false, "probability; 0 = 1/N"}},
     pp_draw, pp_bounds, CSMACD},
    {"aloha", "pure ALOHA: no carrier sense or CD; retry after uniform [0, window) frames",
     {{"window", P(window), 8, 0, 1e6, false, "frames"}},
     aloha_draw, aloha_bounds, NO_CS},
    {"slotted-aloha", "slotted ALOHA: frame-time slots; retry in each slot with probability q",
     {{"q", P(q), 0.1, 1e-6, 1, false, "probability per slot"},
      {"cap", P(cap), 1023, 0, 1e6, true, "slots (truncation of the geometric wait)"},
      {"slot", P(slot), 0, 0, SLOTS_MAX, false, "slotTimes; 0 = the frame's time"}},
     saloha_draw, saloha_bounds,
     {.carrier_sense = false, .collision_detect = false, .persist_p = 1.0, .slotted = true}},
    {"ca-beb", "capture-avoiding BEB (US 5,854,900): yield slots after own success",
     {{"yield", P(yield), 1, 0, 1024, false, "slots added to the gap"},
      {"zero", P(zero), 1, 0, 1, true, "1: zero delay after the first collision"},
      {"limit", P(limit), 10, 0, 62, true, "backoffLimit (default: the PHY's)"}},
     cabeb_draw, cabeb_bounds, CSMACD},
};

size_t backoff_policy_count(void) { return sizeof policies / sizeof policies[0]; }
const char *backoff_policy_name_at(size_t i) { return policies[i].name; }
const char *backoff_policy_summary_at(size_t i) { return policies[i].summary; }

static double *field(policy_params *pp, size_t off) { return (double *)((char *)pp + off); }

/* Parses one policy-specific key into the spec; returns 0, 1 (unknown key)
 * or -1. */
static int set_param(const policy_def *def, backoff_spec *spec, const char *key,
                     const char *value, char *err, size_t errlen)
{
    for (size_t i = 0; def->params[i].key; i++) {
        const param_def *d = &def->params[i];
        if (strcmp(d->key, key) != 0)
            continue;
        char *end;
        errno = 0;
        double v = strtod(value, &end);
        if (errno || end == value || *end || !isfinite(v) || v < d->lo || v > d->hi ||
            (d->integer && v != floor(v))) {
            snprintf(err, errlen, "policy: %s %s '%s' is not a%s number from %g to %g (%s)",
                     def->name, key, value, d->integer ? " whole" : "", d->lo, d->hi,
                     d->unit);
            return -1;
        }
        spec->value[i] = v;
        spec->given |= 1u << i;
        return 0;
    }
    return 1;
}

int backoff_spec_parse(const char *text, backoff_spec *out, char *err, size_t errlen)
{
    char buf[256];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errlen, "policy: the spec is too long");
        return -1;
    }
    strcpy(buf, text);
    char *params = strchr(buf, ':');
    if (params)
        *params++ = '\0';
    const policy_def *def = NULL;
    backoff_spec spec = {0};
    for (size_t i = 0; i < backoff_policy_count(); i++)
        if (strcmp(policies[i].name, buf) == 0) {
            def = &policies[i];
            spec.policy = (uint32_t)i;
        }
    if (!def) {
        int n = snprintf(err, errlen, "policy: unknown policy '%s' (", buf);
        for (size_t i = 0; i < backoff_policy_count() && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s%s", i ? ", " : "",
                          policies[i].name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    }
    for (char *save = NULL, *kv = params ? strtok_r(params, ",", &save) : NULL; kv;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1]) {
            snprintf(err, errlen, "policy: '%s' is not key=value", kv);
            return -1;
        }
        *eq = '\0';
        const char *key = kv, *value = eq + 1;
        if (strcmp(key, "attempts") == 0) {
            spec.attempts_given = true;
            if (strcmp(value, "none") == 0) {
                spec.attempts = 0;
            } else {
                char *end;
                errno = 0;
                unsigned long long v = strtoull(value, &end, 10);
                if (errno || end == value || *end || value[0] == '-' || v < 1 || v > 1000000) {
                    snprintf(err, errlen,
                             "policy: attempts '%s' is not 'none' or a whole number from 1 to "
                             "1000000",
                             value);
                    return -1;
                }
                spec.attempts = (uint32_t)v;
            }
            continue;
        }
        int rc = set_param(def, &spec, key, value, err, errlen);
        if (rc != 0) {
            if (rc > 0)
                snprintf(err, errlen, "policy: %s has no parameter '%s'", def->name, key);
            return -1;
        }
    }
    *out = spec;
    return 0;
}

/* A policy from a parsed spec in its environment: the defaults, the PHY's
 * limits, the given values over them, then the parameters in picoseconds.
 * Cannot fail: every value was range-checked by the parse. */
static void policy_init(backoff_policy *p, const backoff_spec *spec, const backoff_env *env)
{
    const policy_def *def = &policies[spec->policy];
    memset(p, 0, sizeof *p);
    p->def = def;
    p->env = *env;
    for (const param_def *d = def->params; d->key; d++)
        *field(&p->params, d->off) = d->dflt;
    p->params.limit = env->backoff_limit; /* beb, ca-beb: the PHY's backoffLimit */
    for (size_t i = 0; def->params[i].key; i++)
        if (spec->given & (1u << i))
            *field(&p->params, def->params[i].off) = spec->value[i];
    p->attempt_limit = backoff_spec_attempt_limit(spec, env);
    p->base_ps = slots_ps(p, p->params.base);
    p->cap_ps = slots_ps(p, p->params.cap);
    p->step_ps = slots_ps(p, p->params.step);
    p->wait_ps = slots_ps(p, p->params.wait);
    p->jitter_ps = slots_ps(p, p->params.jitter);
    p->caps = def->caps;
    if (def->draw == pp_draw)
        p->caps.persist_p = p->params.p > 0 ? p->params.p
                                            : 1.0 / (env->n_stations ? env->n_stations : 1);
    if (def->draw == saloha_draw)
        p->caps.slot_ps = slots_ps(p, p->params.slot);
    if (def->draw == cabeb_draw)
        p->caps.yield_ps = slots_ps(p, p->params.yield);
}

int backoff_policy_build(const backoff_spec *spec, const backoff_env *env,
                         backoff_policy **out, char *err, size_t errlen)
{
    backoff_policy *p = malloc(sizeof *p);
    if (!p) {
        snprintf(err, errlen, "policy: out of memory");
        return -1;
    }
    policy_init(p, spec, env);
    *out = p;
    return 0;
}

int backoff_policy_create(const char *text, const backoff_env *env, backoff_policy **out,
                          char *err, size_t errlen)
{
    backoff_spec spec;
    if (backoff_spec_parse(text, &spec, err, errlen) != 0)
        return -1;
    return backoff_policy_build(&spec, env, out, err, errlen);
}

uint32_t backoff_spec_attempt_limit(const backoff_spec *spec, const backoff_env *env)
{
    return spec->attempts_given ? spec->attempts : env->attempt_limit;
}

void backoff_spec_bounds(const backoff_spec *spec, const backoff_env *env,
                         const backoff_state *st, uint32_t collisions, sim_time *lo_ps,
                         sim_time *hi_ps)
{
    backoff_policy p;
    policy_init(&p, spec, env);
    backoff_policy_bounds(&p, st, collisions, lo_ps, hi_ps);
}

void backoff_policy_destroy(backoff_policy *p) { free(p); }

backoff_draw backoff_policy_draw(const backoff_policy *p, backoff_state *st,
                                 uint32_t collisions, rng *r)
{
    return p->def->draw(p, st, collisions ? collisions : 1, r);
}

void backoff_policy_bounds(const backoff_policy *p, const backoff_state *st,
                           uint32_t collisions, sim_time *lo_ps, sim_time *hi_ps)
{
    p->def->bounds(p, st, collisions ? collisions : 1, lo_ps, hi_ps);
}

bool backoff_policy_constant(const backoff_policy *p)
{
    return p->def->draw == none_draw || (p->def->draw == fixed_draw && p->jitter_ps == 0);
}

backoff_caps backoff_policy_caps(const backoff_policy *p) { return p->caps; }

bool backoff_policy_persist(const backoff_policy *p, rng *r)
{
    if (p->caps.persist_p >= 1.0)
        return true;
    return rng_unit(r) < p->caps.persist_p;
}

uint32_t backoff_policy_attempt_limit(const backoff_policy *p) { return p->attempt_limit; }
const char *backoff_policy_name(const backoff_policy *p) { return p->def->name; }
