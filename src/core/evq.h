/* evq.h - the event queue: a priority queue of events (4-ary heaps and
 * sorted runs, evq.c).
 *
 * The order of events is a contract, pinned by tests/unit/test_evq.c:
 *   1. earlier time first;
 *   2. at equal time, lower phase first (the engine's phases are listed in
 *      its own header: ends of transmissions before starts, and so on);
 *   3. at equal time and phase, first inserted first (FIFO).
 * So a run is a pure function of its inputs. Events are stored by value;
 * push and pop cost O(log n). There is no cancellation: owners stamp events
 * with a generation number and ignore stale ones when they pop.
 * Times must not be negative, nor earlier than the last event popped
 * (an event at that same instant with a lower phase is allowed).
 */
#ifndef CSMACD_EVQ_H
#define CSMACD_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

typedef struct sim_event {
    sim_time time;
    uint64_t order;  /* phase << 56 | insertion sequence; set by evq_push */
    uint64_t arg;    /* owner-defined: a generation, a transmission id */
    uint32_t target; /* owner-defined: usually a station index */
    uint16_t type;   /* owner-defined event type */
    uint16_t phase;  /* 0..255, see the ordering rule above */
} sim_event;

typedef struct evq evq;

/* Returns 0, or -1 when memory cannot be had. */
int evq_create(evq **out, size_t initial_capacity);
void evq_destroy(evq *q);

/* Events due less than `horizon` after the last event popped are kept
 * apart from the others (a tuning knob: the order does not depend on it;
 * 0, the default, keeps them all together). */
void evq_set_horizon(evq *q, sim_time horizon);

/* Events of a phase below `below` go with the events due within the
 * horizon whatever their time: the phases of events that end something
 * under way (a frame, a signal), due within a frame's time however long
 * the frame (another tuning knob, off by default: the order does not
 * depend on it). */
void evq_set_near_phases(evq *q, uint16_t below);

/* With runs on, an event that comes after the last event of one of a few
 * sorted runs is appended to it, O(1), instead of going to a heap: for
 * crowds of events pushed in order (many full-duplex links in step).
 * Another tuning knob (off by default): the order does not depend on it. */
void evq_use_runs(evq *q, bool on);

/* Inserts a copy of *ev (its order field set here). Returns 0 or -1 (no memory). */
int evq_push(evq *q, const sim_event *ev);

/* The same as evq_push of the event with these fields, which go in
 * registers rather than in an event in memory, the last three packed in
 * one word here (where they are constants, mostly): for the MAC, whose
 * pushes are most of a run's. */
int evq_push_tail(evq *q, sim_time time, uint64_t arg, uint64_t tail);

static inline int evq_push_fields(evq *q, sim_time time, uint64_t arg, uint32_t target,
                                  uint16_t type, uint16_t phase)
{
    /* the event's last 8 bytes, as they lie in memory (evq.c) */
    return evq_push_tail(q, time, arg, target | (uint64_t)type << 32 | (uint64_t)phase << 48);
}

/* Removes the first event into *out. Returns 0, or -1 when empty. */
int evq_pop(evq *q, sim_event *out);

/* Removes the first event into *out if it is due before `limit`.
 * Returns 0, or -1 when the queue is empty or its first event is not. */
int evq_pop_before(evq *q, sim_time limit, sim_event *out);

/* The first event without removing it, or NULL when empty. */
const sim_event *evq_peek(const evq *q);

size_t evq_size(const evq *q);
/* Bytes held by the queue (for the memory-per-station benchmark figure). */
size_t evq_bytes(const evq *q);
/* Total number of events ever pushed. */
uint64_t evq_pushed(const evq *q);

#endif
