/* stats.h - the measures of stations/MODEL.md, "Measures",
 * computed as a trace sink.
 *
 * Throughput counts the bits (DA through FCS) of frames received whole,
 * when their last bit passes the receiver; offered load counts the bits of
 * frames generated (queued or dropped); delay runs from a frame's arrival
 * in the queue to the end of its successful transmission. All three cover
 * the window [warmup, now). The 95 % confidence interval of throughput
 * comes from batch means: the window (warmup, duration) is cut into
 * `batches` equal batches, and the completed ones are used (Student's t;
 * NaN, undefined, with fewer than two).
 */
#ifndef CSMACD_STATS_H
#define CSMACD_STATS_H

#include <stddef.h>

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
} stats_config;

int stats_create(const stats_config *cfg, stats **out);
void stats_destroy(stats *s);
trace_sink stats_sink(stats *s);
/* The kinds of events the statistics read (TRACE_BIT set). */
uint32_t stats_sink_kinds(void);

/* Fills the window-based measures of r at `now` (counts from the MAC are
 * the engine's to fill) and the per-station bits and shares. */
void stats_fill(const stats *s, sim_time now, results *r, station_result *per_station);

/* A reply reached the station that asked, `response` after the request
 * entered its queue (counted when now is in the window). */
void stats_add_response(stats *s, sim_time now, sim_time response);
/* Responses counted so far, their mean and 99th percentile in us. */
void stats_responses(const stats *s, uint64_t *count, double *mean_us, double *p99_us);

/* Two-sided 95 % quantile of Student's t with df degrees of freedom. */
double stats_t975(unsigned df);

size_t stats_bytes(const stats *s);

#endif
