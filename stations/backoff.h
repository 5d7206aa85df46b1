/* backoff.h - retransmission policies behind one interface.
 *
 * A policy decides how long a station waits after its n-th collision of a
 * frame before it tries again, and when it gives the frame up. It is a pure
 * function of its parameters, its per-frame state and the station's random
 * stream: the MAC (mac.c) never looks inside. Truncated binary exponential
 * backoff (802.3 4.2.3.2.5) is the default and the reference.
 *
 * A policy is created from a spec "name" or "name:key=value,key=value".
 * Each policy states its unit (slots, or time in slots of the PHY) and its
 * attempt limit (0 means none).
 */
#ifndef CSMACD_BACKOFF_H
#define CSMACD_BACKOFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "simtime.h"

typedef struct backoff_policy backoff_policy;

/* What the network tells a policy when it is created. */
typedef struct backoff_env {
    sim_time slot_ps;       /* slotTime in picoseconds */
    uint32_t attempt_limit; /* the PHY's attemptLimit (default limit) */
    uint32_t backoff_limit; /* the PHY's backoffLimit */
    uint32_t n_stations;
} backoff_env;

/* Per-frame state a policy may keep (reset when a new frame starts). */
typedef struct backoff_state {
    sim_time prev_wait_ps; /* the previous wait drawn for this frame (0: none) */
} backoff_state;

typedef struct backoff_draw {
    uint64_t slots;  /* slots drawn, for slot-based policies (else 0) */
    sim_time wait_ps;/* the wait, counted from the end of the jam */
} backoff_draw;

/* Creates a policy from a spec. Returns 0, or -1 with "policy: reason" in
 * err (unknown name, bad parameter). */
int backoff_policy_create(const char *spec, const backoff_env *env,
                          backoff_policy **out, char *err, size_t errlen);
void backoff_policy_destroy(backoff_policy *p);

/* The wait before the next attempt after the frame's `collisions`-th
 * collision (collisions >= 1). */
backoff_draw backoff_policy_draw(const backoff_policy *p, backoff_state *st,
                                 uint32_t collisions, rng *r);

/* Attempts allowed per frame; 0 = no limit. */
uint32_t backoff_policy_attempt_limit(const backoff_policy *p);
const char *backoff_policy_name(const backoff_policy *p);

/* The registered policies, for --help and `presets`. */
size_t backoff_policy_count(void);
const char *backoff_policy_name_at(size_t i);
const char *backoff_policy_summary_at(size_t i);

#endif
