/* backoff.h - retransmission policies behind one interface.
 *
 * A policy decides how long a station waits after its n-th collision of a
 * frame before it tries again, and when it gives the frame up. It is a pure
 * function of its parameters, its per-frame state (backoff_state) and the
 * station's random stream: the MAC (mac.c) never looks inside. Truncated
 * binary exponential backoff (802.3 4.2.3.2.5) is the default and the
 * reference.
 *
 * A policy is created from a spec "name" or "name:key=value,key=value".
 * Each policy states its unit (slots of the PHY's slotTime, or frame times
 * for the ALOHA family), its parameters and its attempt limit (the common
 * parameter attempts=N|none; default the PHY's attemptLimit, 16; 0 means
 * none). The table of policies, with units and defaults, is in backoff.c
 * and in README.md, "Backoff policies".
 *
 * Most policies only choose waits. A few change how the MAC sends, and say
 * so through backoff_caps, which the MAC reads without knowing the policy:
 * ALOHA sends without carrier sense or collision detection, slotted ALOHA
 * starts only on slot boundaries, p-persistent CSMA transmits at the end of
 * deference with probability p, and the capture-avoiding BEB yields one
 * slot after each of its own successes. The default caps (CSMA/CD, 1-
 * persistent, unslotted, no yield) leave the 802.3 MAC exactly as it is.
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

/* Per-frame state a policy may keep or read. The MAC zeroes it when a new
 * frame starts and then fills the fields marked "MAC"; only the policy
 * writes the others. */
typedef struct backoff_state {
    sim_time prev_wait_ps;  /* the previous wait drawn for this frame (0: none) */
    sim_time frame_ps;      /* MAC: the frame's time on the wire (preamble,
                               SFD, padded frame): the ALOHA unit */
    sim_time attempt_ps;    /* MAC: the collided attempt, first bit to the end
                               of the jam (or of the frame without CD) */
    bool follows_success;   /* MAC: the frame was sent right after one of the
                               station's own successes (capture avoidance) */
} backoff_state;

typedef struct backoff_draw {
    uint64_t slots;  /* whole units drawn, for slotted waits (else 0) */
    sim_time wait_ps;/* the wait, counted from the end of the jam (from the
                        receiver's verdict without collision detection) */
} backoff_draw;

/* How the policy changes the MAC. */
typedef struct backoff_caps {
    bool carrier_sense;    /* false: transmit when ready, no deference (ALOHA) */
    bool collision_detect; /* false: send the frame whole; the outcome is the
                              receiver's verdict (MAC_EV_DELIVER) */
    double persist_p;      /* probability of transmitting at the end of
                              deference; 1 = 1-persistent (802.3). Below 1 the
                              station otherwise waits one slotTime and senses
                              again (p-persistent CSMA) */
    bool slotted;          /* start only on slot boundaries (slotted ALOHA) */
    sim_time slot_ps;      /* slotted: the slot, or 0 for the frame's own
                              wire time (backoff_state.frame_ps) */
    sim_time yield_ps;     /* extra idle time added to the gap before a frame
                              that follows one of the station's own successes
                              (capture avoidance); 0 = none */
} backoff_caps;

/* A spec read once: plain data, copied with whatever holds it (the
 * scenario). Only backoff_spec_parse fills it; a zeroed spec is "beb"
 * with its defaults. The parse needs no environment (ranges are fixed),
 * so a spec is checked once and built in any network later. */
#define BACKOFF_SPEC_MAX_PARAMS 5
typedef struct backoff_spec {
    uint32_t policy;       /* index in the registry (backoff_policy_name_at) */
    uint32_t given;        /* bit i: value[i] was given, else its default */
    double value[BACKOFF_SPEC_MAX_PARAMS]; /* in the order of the policy's
                                              parameters */
    bool attempts_given;   /* attempts=...; else the PHY's attemptLimit */
    uint32_t attempts;     /* attempts=N, 0 = none */
} backoff_spec;

/* Reads "name" or "name:key=value,...". Returns 0, or -1 with
 * "policy: reason" in err (too long, unknown name, bad parameter); *out is
 * written only on success. */
int backoff_spec_parse(const char *text, backoff_spec *out, char *err, size_t errlen);

/* Builds a policy from a parsed spec. Returns 0, or -1 with
 * "policy: out of memory" in err. */
int backoff_policy_build(const backoff_spec *spec, const backoff_env *env,
                         backoff_policy **out, char *err, size_t errlen);

/* Parse and build in one call, for callers that hold only the text. */
int backoff_policy_create(const char *text, const backoff_env *env,
                          backoff_policy **out, char *err, size_t errlen);

/* What a policy built from spec in env would declare, without building
 * it (for checks made before any network exists): its attempt limit
 * (0 = none) and the bounds of backoff_policy_bounds. */
uint32_t backoff_spec_attempt_limit(const backoff_spec *spec, const backoff_env *env);
void backoff_spec_bounds(const backoff_spec *spec, const backoff_env *env,
                         const backoff_state *st, uint32_t collisions, sim_time *lo_ps,
                         sim_time *hi_ps);
void backoff_policy_destroy(backoff_policy *p);

/* The wait before the next attempt after the frame's `collisions`-th
 * collision (collisions >= 1; without collision detection a failed
 * delivery counts as a collision). */
backoff_draw backoff_policy_draw(const backoff_policy *p, backoff_state *st,
                                 uint32_t collisions, rng *r);

/* The bounds the policy declares for that draw, given the same state:
 * every wait it draws lies in [*lo_ps, *hi_ps]. */
void backoff_policy_bounds(const backoff_policy *p, const backoff_state *st,
                           uint32_t collisions, sim_time *lo_ps, sim_time *hi_ps);

/* Whether every wait the policy draws is the same, whatever the frame's
 * collisions and state (none; fixed without jitter): each backoff then
 * ends a constant time after the collision that began it. */
bool backoff_policy_constant(const backoff_policy *p);

/* How the policy changes the MAC (see backoff_caps). */
backoff_caps backoff_policy_caps(const backoff_policy *p);

/* p-persistence: whether to transmit now, at the end of deference. Draws
 * from r only when persist_p < 1 (so 1-persistent policies draw nothing). */
bool backoff_policy_persist(const backoff_policy *p, rng *r);

/* Attempts allowed per frame; 0 = no limit. */
uint32_t backoff_policy_attempt_limit(const backoff_policy *p);
const char *backoff_policy_name(const backoff_policy *p);

/* The registered policies, for --help and `presets`. */
size_t backoff_policy_count(void);
const char *backoff_policy_name_at(size_t i);
const char *backoff_policy_summary_at(size_t i);

#endif
