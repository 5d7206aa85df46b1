/* medium.h - the shared medium: geometry, signals, carrier, the probe.
 *
 * A transmission is (station, start, end): its signal is present at station
 * j during [start + delay(s, j), end + delay(s, j)), half-open, so a signal
 * that arrives exactly when another ends does not overlap it. While a
 * transmission is under way its end is unknown (SIM_TIME_NEVER); the
 * transmitter publishes it when its last bit leaves.
 *
 * The medium keeps the "live" transmissions: those under way and those that
 * ended so recently that their signal may still matter somewhere (it is
 * still travelling along the cable, a station's inter-frame gap may still be
 * timed from it, or a reception that overlaps it has not been judged yet:
 * see medium_hold). Live transmissions are ordered by start time. On a
 * quiet segment they are a handful; in a collapse (fixed retry, hundreds
 * of stations) hundreds overlap, so the questions deference and collision
 * detection ask most often are answered by the carrier index instead of a
 * scan:
 *
 * The carrier index keeps, per station, the start of its transmission
 * under way (if any) and the start and end of its last finished one, in a
 * segment tree over the stations in order of position (bus) or of index
 * (star). The signal of station j started at t reaches station i at
 * t + |p_i - p_j| on a bus: min over j left of i of (t - p_j), plus p_i,
 * and min over j right of i of (t + p_j), minus p_i; on a star every
 * signal crosses the hub, t + p_j + hub + p_i. The same with maxima of the
 * ends gives the last end of carrier at i. Each start or end updates one
 * leaf: O(log n). Costs of every operation are given below.
 *
 * The index is kept only while a crowd may ask it. While at most
 * medium_quiet() records are live, callers scan them instead, so the
 * index rests: a start or an end only notes its station (O(1)), and the
 * first question after that repairs the noted stations' leaves, O(log n)
 * each, or rebuilds the trees in O(n) when more than n / log2 n stations
 * changed (as cheap, then). A quiet segment never pays for the trees; a
 * crowd pays what eager upkeep would, at most.
 *
 * A fault (an outage of the whole medium, medium_config.fault_*) is a
 * jamming signal present at every station during [fault_start, fault_end),
 * with no propagation delay: the signal queries below include it as a
 * foreign signal of no station (MEDIUM_FAULT_STATION), so stations defer
 * to it, a transmitter under way when it begins sees a collision, and a
 * reception it overlaps is corrupted. It is part of the configuration,
 * known from the start like every scheduled event; with no fault the
 * queries are exactly those of the live transmissions.
 *
 * The medium knows nothing of stations beyond their positions: it does not
 * know who is deferring, backing off or transmitting.
 * Delays are integers in picoseconds: on a bus a station's position is
 * stored as the propagation time from the cable's start, so delays are
 * exact differences and the triangle inequality holds exactly.
 */
#ifndef CSMACD_MEDIUM_H
#define CSMACD_MEDIUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phy.h"
#include "simtime.h"

typedef struct medium medium;

/* The transmitter named by the fault's signal (medium_signal.station). */
#define MEDIUM_FAULT_STATION UINT32_MAX

/* Up to this many live records a scan of them is cheaper than the
 * carrier index, which then rests (see above): medium_quiet() of a
 * medium. Live records include the finished ones still retained
 * (medium_retire), so a quiet medium at 100 Mb/s often holds more than a
 * handful. A scan costs what its records do; the index's walks, upkeep
 * and wakes (a rebuild, past n / log2 n stale stations) grow with the
 * stations: MEDIUM_QUIET on media of up to 2 x MEDIUM_QUIET stations,
 * MEDIUM_QUIET_WIDE on wider ones (tests/bench/README.md, "The quiet
 * medium's bound"). */
#define MEDIUM_QUIET 16
#define MEDIUM_QUIET_WIDE 24

typedef struct medium_config {
    uint32_t n_stations;
    topology_kind topology;
    /* Bus: propagation time from the cable's start to each station.
     * Star: propagation time along each station's drop cable.
     * n_stations entries, copied. */
    const sim_time *pos_ps;
    sim_time hub_ps;       /* star: one-way delay through the repeater */
    sim_time probe_pos_ps; /* bus: the probe's position (star: at the hub) */
    sim_time retain_ps;    /* the inter-frame gap: see medium_retire */
    sim_time chain_ps;     /* carrier back within this (part 1 of the gap)
                              continues a carrier period */
    sim_time chain_cap_ps; /* keep a chained period's records at most this long */
    sim_time fault_start_ps, fault_end_ps; /* the medium is jammed in [start, end);
                                              no fault unless end > start */
} medium_config;

typedef struct medium_tx {
    uint64_t id;      /* consecutive from 0, in order of start */
    uint32_t station;
    uint32_t holds;   /* receptions still to be judged against this record */
    sim_time start;
    sim_time end;     /* SIM_TIME_NEVER while under way */
    uint64_t user;    /* the transmitter's own data */
    sim_time pos;     /* the transmitter's position (medium_station_pos), for
                         the scans, which then read no other array */
} medium_tx;

/* An interval during which one transmission's signal is present at a
 * station. */
typedef struct medium_signal {
    sim_time from, until; /* until = SIM_TIME_NEVER while under way */
    uint32_t station;     /* the transmitter */
    uint32_t seq : 31;    /* its place in the live order (the fault's: after
                             every record); signals that arrive together are
                             listed in this order */
    uint32_t own : 1;     /* the station's own transmission (packed with seq:
                             the replay copies signals around, 24 bytes each) */
} medium_signal;

/* Returns 0, or -1 when memory cannot be had. */
int medium_create(const medium_config *cfg, medium **out);
void medium_destroy(medium *m);

uint32_t medium_station_count(const medium *m);
topology_kind medium_topology(const medium *m);
/* Bus: the station's position, as the propagation time from the cable's
 * start. Star: the propagation time along its drop cable. */
sim_time medium_station_pos(const medium *m, uint32_t s);
/* One-way propagation delay between two stations (0 for a == b). */
sim_time medium_delay(const medium *m, uint32_t a, uint32_t b);
/* The delays to station j as one sum, for scans over many stations with
 * the topology's test out of the loop: medium_delay(s, j) =
 * |medium_station_pos(s) + medium_delay_off(j)| for every s != j (-p_j on
 * a bus; hub + p_j on a star, where the sum is positive). Not for s == j,
 * whose delay is 0. */
sim_time medium_delay_off(const medium *m, uint32_t j);
/* Delay from a station to the probe. */
sim_time medium_probe_delay(const medium *m, uint32_t s);
/* The longest delay between any two stations (the collision domain). */
sim_time medium_max_delay(const medium *m);

/* Starts a transmission at `start` (not earlier than any earlier start;
 * at most one under way per station). Returns its id, or UINT64_MAX when
 * memory cannot be had. O(log n) (the carrier index; O(1) while it
 * rests). */
uint64_t medium_tx_begin(medium *m, uint32_t station, sim_time start, uint64_t user);
/* Publishes the end of a transmission under way. O(log n) (O(1) while
 * the carrier index rests). */
void medium_tx_end(medium *m, uint64_t id, sim_time end);
/* The live record, or NULL when it was retired. */
medium_tx *medium_tx_get(medium *m, uint64_t id);
/* A hold keeps a record (and every later one) live until released: a
 * reception is judged against every signal that overlaps it. */
void medium_hold(medium *m, uint64_t id);
void medium_release(medium *m, uint64_t id);

/* Forgets what can no longer matter at `now` or later: a record whose
 * signal died out everywhere more than retain_ps + the longest delay ago,
 * and that no later signal continues (the next transmission started at
 * least chain_ps after it died out), so no station's carrier period can
 * reach back into it: a deferring station needs to know whether it took
 * part in the period it defers to. A chain of signals each less than
 * chain_ps apart is kept for chain_cap_ps at most (memory stays bounded);
 * see the design notes for the one consequence. O(1) amortised. */
void medium_retire(medium *m, sim_time now);

/* The start of the oldest transmission still under way or held for a
 * reception not yet judged, or SIM_TIME_NEVER when there is none: every
 * frame that began before it has had its verdict (the statistics read
 * the wire up to there). O(live records before it). */
sim_time medium_unjudged_from(const medium *m);

/* Live transmissions, oldest first. */
size_t medium_live_count(const medium *m);
/* The bound on live records below which the index rests (MEDIUM_QUIET). */
size_t medium_quiet(const medium *m);
const medium_tx *medium_live_at(const medium *m, size_t i);

/* How many signals medium_signals_at reports: the live transmissions and
 * the fault, if there is one. */
size_t medium_signal_count(const medium *m);

/* Signal intervals of every live transmission as seen at station j, and
 * the fault's, if any, in order of arrival at j (`from`), ties in the live
 * order (`seq`): a total order, so that which of two signals arriving
 * together comes first is a rule the MAC can follow without the sort
 * (on a hub whose drops are of one length, every station that starts at
 * one instant arrives everywhere at one instant). Writes at most
 * `cap` entries; returns the number written. O(L log L) for L live
 * transmissions: only for a full replay of deference and where a
 * reception is judged. */
size_t medium_signals_at(const medium *m, uint32_t j, medium_signal *out, size_t cap);

/* Like medium_signals_at, but only the signals still present at j at t0
 * or later (those whose end at j is t0 or later, or unknown): O(L) to
 * choose them, O(K log K) to sort the K chosen, in the same order. */
size_t medium_signals_since(const medium *m, uint32_t j, sim_time t0, medium_signal *out,
                            size_t cap);

/* The earliest instant >= t at which the signal of a live transmission
 * of another station, or the fault, is present at station j, or
 * SIM_TIME_NEVER. Transmissions that have not begun yet are not known.
 * O(log n) when more than medium_quiet() records are live and
 * either a signal under way is present at j at t (a crowd's usual case)
 * or no finished transmission's signal is still passing j after t (the
 * usual case at a start), else O(L). (Not const: it may wake the index.) */
sim_time medium_foreign_signal_from(medium *m, uint32_t j, sim_time t);

/* The carrier index. Neither includes the fault (medium_fault). Each
 * question first wakes a resting index (see above): amortised, the cost
 * of the upkeep it skipped. The last answers are kept for one station:
 * asked again about it, with no other station's start or end in between,
 * each answers in O(1) (a station's deference at the end of its backoff
 * and its collision detect at the start that follows ask the same). */
/* The earliest arrival at j of the signal of a transmission under way of
 * another station, or SIM_TIME_NEVER when no other station transmits.
 * O(log n); a scan of the live records while at most medium_quiet() are
 * live (the index rests). */
sim_time medium_open_arrival(medium *m, uint32_t j);
/* The latest instant at which the carrier of a finished transmission
 * ends at j (j's own included, with no delay), the station that sent it
 * (*who) and the instant its signal arrived at j (*from); INT64_MIN when
 * no transmission has ended yet. Records already retired count too: they
 * ended long before any instant a caller asks about. O(log n). */
sim_time medium_closed_end(medium *m, uint32_t j, uint32_t *who, sim_time *from);
/* The same when its answer is `floor` or later; else some instant before
 * floor (INT64_MIN, or the answer). While at most medium_quiet() records
 * are live it scans them and leaves the index resting, O(L); else as
 * medium_closed_end. (Deference only compares the end with W when it is
 * earlier.) */
sim_time medium_closed_end_from(medium *m, uint32_t j, sim_time floor, uint32_t *who,
                                sim_time *from);
/* The end of station j's last finished transmission, INT64_MIN when it
 * has not finished one. O(1). */
sim_time medium_own_end(const medium *m, uint32_t j);
/* Its start (SIM_TIME_NEVER when none). O(1). */
sim_time medium_own_start(const medium *m, uint32_t j);
/* Whether some instant in [a, b) (b <= now) is known to have been silent
 * everywhere: no signal on the medium, the fault included. Only the last
 * silence ended by a start, and the one under way, are known: false
 * means "not known". O(1). */
bool medium_silent_within(const medium *m, sim_time a, sim_time b, sim_time now);
/* The outage, if any: true and [*start, *end). O(1). */
bool medium_fault(const medium *m, sim_time *start, sim_time *end);

/* Whether a reception of transmission `rx` at station j overlaps any other
 * signal there, the fault included. Both rx and every transmission that could overlap it must
 * have ended (the caller judges after the last bit has passed j). */
bool medium_overlapped_at(const medium *m, uint64_t rx, uint32_t j);

/* A reach index: per station a deadline, and the question "which stations
 * does a signal sent by src at t reach strictly before their deadline?"
 * (t + delay(src, k) < deadline_k). The MAC keeps two: transmitters that
 * a new signal may still collide with, and contenders that a new signal
 * may still stop. A segment tree of the deadlines' maxima over the
 * medium's station order (the delay splits as for the carrier index):
 * set O(1): it only notes the station, and the next query repairs the
 * noted ones (a deadline often changes several times between two
 * questions): O(log n) each, or the whole tree in O(n) for more than
 * n / log2 n of them. A query O((m + 1) log n) for m stations found, plus
 * those repairs; O(1) after them when the root shows that no deadline
 * can be met (most questions in a crowd). While at most 16 stations may
 * still have a deadline to come (a list kept beside the tree, pruned of
 * passed deadlines by the queries, which come in order of time), a query
 * scans them instead and the tree rests: O(16) plus the pruning,
 * amortised O(1) per deadline set. */
typedef struct medium_reach medium_reach;
#define MEDIUM_REACH_NONE INT64_MIN /* no deadline: never reached */
/* Returns 0, or -1 when memory cannot be had. */
int medium_reach_create(const medium *m, medium_reach **out);
void medium_reach_destroy(medium_reach *r);
void medium_reach_set(medium_reach *r, uint32_t s, sim_time deadline);
/* The stations other than src reached before their deadline, written to
 * out (room for every station), in no particular order; returns how many.
 * t is never earlier than an earlier query's (the list's pruning relies
 * on it). */
size_t medium_reach_find(medium_reach *r, uint32_t src, sim_time t, uint32_t *out);
size_t medium_reach_bytes(const medium_reach *r);

/* Bytes held (for the memory benchmark). */
size_t medium_bytes(const medium *m);

#endif
