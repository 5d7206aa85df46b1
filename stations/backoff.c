/* backoff.c - the policy registry and truncated binary exponential backoff.
 *
 * A spec is "name" or "name:key=value,...". Parameters common to every
 * policy: attempts=N|none (the attempt limit; default the PHY's
 * attemptLimit, 16). Each policy is a row of a const table: its name, a
 * one-line summary, a parameter parser and a draw function. Nothing is
 * registered at run time.
 */
#include "backoff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct policy_params {
    uint32_t backoff_limit; /* beb: k = min(n, backoff_limit) */
} policy_params;

typedef struct policy_def {
    const char *name;
    const char *summary;
    /* Parses one policy-specific key; returns 0, 1 (unknown key) or -1. */
    int (*param)(policy_params *p, const char *key, const char *value, char *err,
                 size_t errlen);
    backoff_draw (*draw)(const policy_params *p, const backoff_env *env,
                         backoff_state *st, uint32_t collisions, rng *r);
} policy_def;

struct backoff_policy {
    const policy_def *def;
    backoff_env env;
    policy_params params;
    uint32_t attempt_limit;
};

static int parse_u32(const char *value, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end || value[0] == '-' || v < lo || v > hi)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* ---- beb: IEEE 802.3 4.2.3.2.5 ------------------------------------------
 * "The number of slot times to delay before the n th retransmission attempt
 * is chosen as a uniformly distributed random integer r in the range
 * 0 <= r < 2^k where k = min (n, 10)." The draw takes the top k bits of one
 * 64-bit output, so it has no modulo bias. */
static int beb_param(policy_params *p, const char *key, const char *value, char *err,
                     size_t errlen)
{
    if (strcmp(key, "limit") == 0) {
        if (parse_u32(value, 0, 62, &p->backoff_limit) < 0) {
            snprintf(err, errlen, "policy: beb limit '%s' is not a whole number from 0 to 62",
                     value);
            return -1;
        }
        return 0;
    }
    return 1;
}

static backoff_draw beb_draw(const policy_params *p, const backoff_env *env,
                             backoff_state *st, uint32_t collisions, rng *r)
{
    unsigned k = collisions < p->backoff_limit ? collisions : p->backoff_limit;
    backoff_draw d;
    d.slots = rng_bits(r, k);
    d.wait_ps = (sim_time)d.slots * env->slot_ps;
    st->prev_wait_ps = d.wait_ps;
    return d;
}

static const policy_def policies[] = {
    {"beb", "802.3 truncated binary exponential backoff: r in [0, 2^min(n,10)) slots",
     beb_param, beb_draw},
};

size_t backoff_policy_count(void) { return sizeof policies / sizeof policies[0]; }
const char *backoff_policy_name_at(size_t i) { return policies[i].name; }
const char *backoff_policy_summary_at(size_t i) { return policies[i].summary; }

int backoff_policy_create(const char *spec, const backoff_env *env, backoff_policy **out,
                          char *err, size_t errlen)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf) {
        snprintf(err, errlen, "policy: the spec is too long");
        return -1;
    }
    strcpy(buf, spec);
    char *params = strchr(buf, ':');
    if (params)
        *params++ = '\0';
    const policy_def *def = NULL;
    for (size_t i = 0; i < backoff_policy_count(); i++)
        if (strcmp(policies[i].name, buf) == 0)
            def = &policies[i];
    if (!def) {
        int n = snprintf(err, errlen, "policy: unknown policy '%s' (", buf);
        for (size_t i = 0; i < backoff_policy_count() && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s%s", i ? ", " : "",
                          policies[i].name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    }
    backoff_policy *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "policy: out of memory");
        return -1;
    }
    p->def = def;
    p->env = *env;
    p->params.backoff_limit = env->backoff_limit;
    p->attempt_limit = env->attempt_limit;
    for (char *save = NULL, *kv = params ? strtok_r(params, ",", &save) : NULL; kv;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1]) {
            snprintf(err, errlen, "policy: '%s' is not key=value", kv);
            free(p);
            return -1;
        }
        *eq = '\0';
        const char *key = kv, *value = eq + 1;
        if (strcmp(key, "attempts") == 0) {
            if (strcmp(value, "none") == 0) {
                p->attempt_limit = 0;
            } else if (parse_u32(value, 1, 1000000, &p->attempt_limit) < 0) {
                snprintf(err, errlen,
                         "policy: attempts '%s' is not 'none' or a whole number from 1 to 1000000",
                         value);
                free(p);
                return -1;
            }
            continue;
        }
        int rc = def->param(&p->params, key, value, err, errlen);
        if (rc != 0) {
            if (rc > 0)
                snprintf(err, errlen, "policy: %s has no parameter '%s'", def->name, key);
            free(p);
            return -1;
        }
    }
    *out = p;
    return 0;
}

void backoff_policy_destroy(backoff_policy *p) { free(p); }

backoff_draw backoff_policy_draw(const backoff_policy *p, backoff_state *st,
                                 uint32_t collisions, rng *r)
{
    return p->def->draw(&p->params, &p->env, st, collisions, r);
}

uint32_t backoff_policy_attempt_limit(const backoff_policy *p) { return p->attempt_limit; }
const char *backoff_policy_name(const backoff_policy *p) { return p->def->name; }
