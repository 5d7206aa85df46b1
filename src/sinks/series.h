/* series.h - a trace sink that turns a run into a time series: one CSV row
 * per fixed interval of simulated time (run --series FILE
 * --series-interval TIME).
 *
 * A sweep row is one point; what happens over time (the medium goes down,
 * then the backlog drains: --outage) needs per-interval measures. The file
 * opens with the header
 *   t_start_s,t_end_s,throughput,frames_ok,attempts,collisions,offered,
 *   dropped,aborted,late_discarded,backlog
 * (one line) then one row per interval [k x interval, (k + 1) x interval),
 * every interval written, empty ones included, the last one cut at the end
 * of the run:
 *   throughput  bits of frames received whole at their destination,
 *               each credited pro rata to the time it was on the wire
 *               (prorata.h, as the run's throughput counts them), / (bit
 *               rate x the interval's length): never above 1 however
 *               short the interval, bar overlapping frames that reached
 *               different receivers whole; a frame still on the wire at
 *               the end of the run has no verdict and is not counted;
 *   frames_ok   frames reported transmitOK (tx_ok events);
 *   attempts    frame transmission attempts started (tx_start of frames);
 *   collisions  collisions detected by transmitters (collision events);
 *   offered     frames offered to the queues (arrival and drop events);
 *   dropped     of those, lost to a full queue;
 *   aborted     frames given up after attemptLimit collisions (abort
 *               events for excessive collisions);
 *   late_discarded  frames given up after a late collision (1 Gb/s);
 *   backlog     frames held by all stations at the interval's end:
 *               accepted so far minus sent OK minus given up (the run's
 *               frames_queued at the last row's end).
 * Every count is an integer; the series is a pure function of the events,
 * so a scenario and a seed give a byte-identical file. Sums of the columns
 * over the rows equal the run's totals. A row is written once it is final
 * (judge_ps after its end, or at series_finish).
 *
 * Writes to a stream the caller opened (and commits or discards); the first
 * write error is kept (sticky, series_error) and later rows are dropped.
 *
 * Bounds. One event after a long quiet spell, or series_finish after the
 * last event, can write millions of empty intervals at once, where the
 * caller's loop reads neither its stop flag nor the file's growth. A guard
 * (series_set_guard) is asked every SERIES_GUARD_ROWS rows: when it says
 * stop, the series is halted there (series_halted): it ends with the last
 * whole interval written and takes no more events.
 */
#ifndef CSMACD_SERIES_H
#define CSMACD_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "simtime.h"
#include "trace.h"

typedef struct series series;

/* interval_ps > 0; rate_bps the PHY's bit rate; judge_ps the longest a
 * frame takes from its first bit to its verdict (engine_judge_ps). Writes
 * the header. Returns 0, or -1 (no memory; errno ENOMEM). A failed header
 * write is kept as the sticky error. */
int series_create(FILE *f, sim_time interval_ps, uint64_t rate_bps, sim_time judge_ps,
                  series **out);
/* The sink to hand to engine_add_sink; valid until series_destroy. */
trace_sink series_sink(series *s);
/* Writes every interval not written yet up to `end` (the run's end; the
 * last interval is cut there). Returns 0, or -1 on a write error. */
int series_finish(series *s, sim_time end);
/* Rows between two questions to the guard (a few hundred kilobytes). */
#define SERIES_GUARD_ROWS 4096u
/* guard(ctx) non-zero halts the series (see "Bounds"); NULL: none. */
void series_set_guard(series *s, int (*guard)(void *ctx), void *ctx);
bool series_halted(const series *s);
/* The start of the interval not written yet: the rows cover [0, this). */
sim_time series_reached(const series *s);
/* The first write error's errno, 0 while all is well. */
int series_error(const series *s);
/* Rows written so far. */
uint64_t series_rows(const series *s);
void series_destroy(series *s);

#endif
