/* collision_events.h - collision events as the medium's observers see them.
 *
 * Two transmissions are linked when their signals overlap where someone
 * observes the medium: at a station (its own signal included: that is
 * collision detect) or, on a star, at the repeater hub. A connected set of
 * two or more linked transmissions is one collision event. So A overlapping
 * B and B overlapping C is one event even if A never meets C; a collision
 * across the extension that fills a 1 Gb/s burst's gap is one event (the
 * burst's frame and its extension never overlap each other); and on a bus
 * longer than the standard allows, two collisions far apart are two events
 * even when they share a busy period (their signals cross only between
 * stations, where nobody sees them). A transmission alone, even one that a
 * fault (an outage) corrupted, is no event: the fault is not a
 * transmission. Every collision a station detects between two
 * transmissions belongs to an event.
 *
 * The link rule, with signals as half-open intervals [start + d, end + d):
 * A and B overlap at a point where their delays are dA and dB iff
 *   sA + dA < eB + dB  and  sB + dB < eA + dA.
 * On a bus the points are the stations' positions (on a star: the hub, A
 * and B; every other station sees what the hub sees, one hop later).
 * A pair is judged once, when the later of the two ends.
 *
 * When an event counts: it is complete when no transmission, under way or
 * to come, can join it: every member has ended, the tail of each has
 * passed every station, and every transmission that started before that
 * has ended too. collision_events_count(now) counts the events complete
 * before `now`; counts taken at two instants subtract exactly (a run's
 * warm-up is left out by subtraction).
 *
 * Cost: a start and an end O(1), and when nothing is under way and every
 * tail kept has passed (the medium has fallen silent, as it does between
 * busy periods) everything kept is dropped at once. Judging one end is
 * O(c + m log N) on a bus (O(c + m) on a star) for the c other components
 * with an ended member kept and the m of those judged before a link is
 * found: in a crowded collision nearly every transmission is already in
 * the end's own component, which is skipped. Nobody listening, the ends
 * are judged only when the medium falls silent (a busy period of up to 8
 * by testing its pairs: one test for two, none for one), at a count, or
 * when the ring of transmissions kept is full. Dropping one by one is O(t)
 * for the t transmissions kept, only when the medium is not silent and one
 * can be dropped (someone listening) or the ring is full (nobody).
 * Memory O(N + t).
 */
#ifndef CSMACD_COLLISION_EVENTS_H
#define CSMACD_COLLISION_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "medium.h"
#include "simtime.h"

typedef struct collision_events collision_events;

/* Reads the medium's geometry once. Returns 0, or -1 when memory cannot be
 * had. */
int collision_events_create(const medium *m, collision_events **out);
void collision_events_destroy(collision_events *c);

/* Station s starts a transmission at `start` (not earlier than any earlier
 * call's instant); at most one transmission per station is under way.
 * Returns 0, or -1 when memory cannot be had. */
int collision_events_begin(collision_events *c, uint32_t s, sim_time start);
/* Station s's transmission under way ends at `end`. */
void collision_events_end(collision_events *c, uint32_t s, sim_time end);

/* Who else follows the components (a network of segments: its collision
 * domain's events join its segments' components through the repeaters).
 * A component carries a tag (not 0) once the listener gives it one through
 * collision_events_tag; the tracker only carries it. merged: components
 * tagged a and b have merged, the merged one keeps tag a (b's is
 * forgotten). complete: a tagged component is complete; `size` is the
 * number of transmissions it held. An untagged component is never told
 * of, so a medium nobody tags pays nothing. */
typedef struct collision_listener {
    void (*merged)(void *ctx, uint32_t a, uint32_t b);
    void (*complete)(void *ctx, uint32_t tag, uint64_t size);
    void *ctx;
} collision_listener;
/* Sets (a copy of) l; NULL: none, the default. Set it before the first
 * transmission (as a network does): what it is told of those kept before
 * it is set may come later than the instants above. */
void collision_events_listen(collision_events *c, const collision_listener *l);
/* The tag of the component that holds station s's transmission begun at
 * `start`; 0 when it had none, and now carries `tag` (not 0);
 * UINT32_MAX when that transmission is not kept (it is kept from its
 * start until nothing can be linked to it any more) or nobody listens. */
uint32_t collision_events_tag(collision_events *c, uint32_t s, sim_time start, uint32_t tag);

/* Collision events complete before `now` (not earlier than the last begin
 * or end). */
uint64_t collision_events_count(collision_events *c, sim_time now);

/* Bytes held (for the memory benchmark). */
size_t collision_events_bytes(const collision_events *c);

#endif
