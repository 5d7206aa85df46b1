/* timeline_sink.h - a trace sink that remembers the recent transmissions,
 * so a viewer can draw the channel at the probe over the last slots and
 * the signals on the cable now.
 *
 * It keeps the last `capacity` transmissions (start, end, jam start, the
 * instant the first bit passed the probe) in a ring, in order of start.
 * A transmission under way has end = SIM_TIME_NEVER until its TX_END (or
 * its JAM, which announces the end) arrives. On a network of segments a
 * repeater port's relay is remembered too (RELAY_START, RELAY_JAM,
 * RELAY_END), with the segment and port it was sent on. Memory is fixed at creation;
 * each event costs O(1) amortised (updates find their record by scanning
 * back from the newest, and the records being updated are the newest few).
 * The sink does no I/O and never calls the engine.
 */
#ifndef CSMACD_TIMELINE_SINK_H
#define CSMACD_TIMELINE_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"
#include "trace.h"

typedef struct timeline_tx {
    uint64_t tx_id;
    uint32_t station;     /* TRACE_NO_STATION: a repeater port's relay */
    uint32_t segment;     /* where it was sent (0 without a network) */
    uint32_t tap;         /* a relay's port tap there (trace_event.tap) */
    sim_time start;       /* first preamble bit leaves the transmitter */
    sim_time end;         /* last bit leaves it; SIM_TIME_NEVER while under way */
    sim_time jam_start;   /* SIM_TIME_NEVER unless the transmission was jammed */
    sim_time probe_start; /* first bit passes the probe */
} timeline_tx;

/* What the channel carried during one cell at the probe. */
typedef enum timeline_state {
    TIMELINE_IDLE,
    TIMELINE_FRAME,     /* one transmission, not its jam */
    TIMELINE_JAM,       /* one transmission's jam only */
    TIMELINE_COLLISION, /* two or more transmissions */
} timeline_state;

typedef struct timeline_sink timeline_sink;

/* Returns 0, or -1 when memory cannot be had. */
int timeline_sink_create(size_t capacity, timeline_sink **out);
void timeline_sink_destroy(timeline_sink *t);
/* Forgets everything (a new run starts). */
void timeline_sink_reset(timeline_sink *t);

trace_sink timeline_sink_trace(timeline_sink *t);
void timeline_sink_on_event(void *ctx, const trace_event *ev);

/* Transmissions remembered, oldest first. */
size_t timeline_sink_count(const timeline_sink *t);
const timeline_tx *timeline_sink_at(const timeline_sink *t, size_t i);

/* The channel at the probe over n cells of cell_ps each, the last one
 * ending at `now`, oldest first, as timeline_state values. A transmission
 * still under way is taken to last until `now`. Cells older than the
 * oldest remembered transmission show idle. */
void timeline_sink_cells(const timeline_sink *t, sim_time now, sim_time cell_ps, size_t n,
                         uint8_t *out);
/* The same at one segment's probe: only the signals sent on `segment`
 * (a network's relays are signals of their segment too). */
void timeline_sink_cells_on(const timeline_sink *t, uint32_t segment, sim_time now,
                            sim_time cell_ps, size_t n, uint8_t *out);

#endif
