/* stats.h - the measures of stations/MODEL.md, "Measures",
 * computed as a trace sink.
 *
 * Throughput credits the bits (DA through FCS) of each frame received
 * whole to the time it was on the wire at its receiver, pro rata
 * (prorata.h), over the window [warmup, E): E is the instant up to which
 * every frame on the wire has had its verdict (the caller's judged_until,
 * at most now), so a frame still under way at the end is neither counted
 * nor left out of a window that claims to cover it. Offered load counts
 * the bits of frames generated (queued or dropped); delay runs from a
 * frame's arrival in the queue to the end of its successful transmission;
 * per-station bits count frames received whole by the instant of their
 * verdict. These cover [warmup, now). The 95 % confidence interval of
 * throughput comes from batch means: [warmup, duration - judge_ps) is cut
 * into `batches` equal batches (so all are final when the run ends), each
 * credited pro rata, and those final by E are used (Student's t; NaN, undefined, with fewer
 * than two).
 */
#ifndef CSMACD_STATS_H
#define CSMACD_STATS_H

#include <stddef.h>

#include "prorata.h"
#include "results.h"
#include "trace.h"

typedef struct stats stats;

typedef struct stats_config {
    uint32_t n_stations;
    uint32_t first_station;  /* the events' stations are first .. first + n - 1 */
    uint64_t rate_bps;
    sim_time warmup, duration;
    uint32_t batches;
    bool batch_traffic; /* report completion_s */
    sim_time outage_start, outage_end; /* report recovery_s when end > start */
    /* The longest a frame can take from its first bit at the transmitter
     * to its verdict at the receiver (0: verdicts are instantaneous). */
    sim_time judge_ps;
    /* With bridges: a frame's delay runs from its arrival in its sender's
     * queue to its reception whole at its destination (TRACE_DELIVER),
     * not to the end of its sender's transmission. */
    bool delay_to_delivery;
} stats_config;

int stats_create(const stats_config *cfg, stats **out);
void stats_destroy(stats *s);
trace_sink stats_sink(stats *s);
/* The kinds of events the statistics read (TRACE_BIT set). */
uint32_t stats_sink_kinds(void);

/* Fills the window-based measures of r at `now` (counts from the MAC are
 * the engine's to fill) and the per-station bits and shares.
 * judged_until: every frame that began before it has had its verdict
 * (medium_unjudged_from; SIM_TIME_NEVER when nothing is under way); it
 * is at least now - judge_ps. */
void stats_fill(const stats *s, sim_time now, sim_time judged_until, results *r,
                station_result *per_station);
/* Whether memory ran out while recording (the measures are then not
 * valid: a runtime failure). */
bool stats_out_of_memory(const stats *s);

/* A reply reached the station that asked, `response` after the request
 * entered its queue (counted when now is in the window). */
void stats_add_response(stats *s, sim_time now, sim_time response);
/* Responses counted so far, their mean and 99th percentile in us. */
void stats_responses(const stats *s, uint64_t *count, double *mean_us, double *p99_us);

/* Two-sided 95 % quantile of Student's t with df degrees of freedom. */
double stats_t975(unsigned df);

size_t stats_bytes(const stats *s);

#endif
