/* eventlog.h - a trace sink that writes one CSV line per MAC event.
 *
 * The file (run --events FILE) opens with the header
 *   time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes
 * then one line per trace event in the engine's order: the simulated time
 * in picoseconds, the station numbered from 1, the event's name
 * (trace_kind_name: arrival, drop, tx_start, collision, jam, tx_end,
 * backoff, tx_ok, abort, deliver, relay_start, relay_jam, relay_end,
 * bridge_learn, bridge_forward, bridge_flood, bridge_filter, bridge_drop,
 * bridge_tx_start, bridge_tx_end, bridge_abort), the
 * attempt (1-based), the slots of a
 * backoff draw (0 for other events), the frame as the trace's comments
 * name it ("station 9, frame 1"): its sender's number and its own number
 * among that station's frames, both from 1, and the frame's size in
 * bytes (destination address through FCS); when the scenario names
 * groups, a column `group` names the station's group. On a network of
 * segments (stations/MODEL.md, "Networks of segments") a last column
 * `segment` names the segment where the event was seen (trace_event.segment),
 * and the repeaters' relays appear as relay_start, relay_jam (the relay
 * turns to jam: a collision, or a fragment extended) and relay_end lines
 * with an empty station (and group): their attempt, frame and bytes are
 * the frame the relay carries (frame_station and frame empty, bytes 0, for
 * jam alone). A network with bridges
 * (stations/MODEL.md, "Bridges and switches") adds a last column
 * `bridge`, the bridge's name on its lines (trace.h, trace_bridge) and
 * empty on the others; a bridge's line names the frame's sender as its
 * station (and group), its frame and bytes, and the port's segment:
 * bridge_learn (the sender was not known on that port) and one of
 * bridge_forward, bridge_flood, bridge_filter on the segment the frame
 * came from (attempt: the one it came by); bridge_tx_start,
 * bridge_tx_end (each attempt of the output port, attempt the port's)
 * and bridge_abort (the port gave it up) on the segment it leaves by;
 * bridge_drop (attempt 0) where a full output queue lost a copy. Without
 * segments the file is as it was. Lines are whole: an interrupted
 * run still leaves a valid CSV, written through outfile.h (temporary file,
 * renamed into place by eventlog_close).
 *
 * Output is a pure function of the events, so a scenario and a seed give a
 * byte-identical log. The first write error is kept (sticky) and reported
 * by eventlog_close as "path: reason"; later events are dropped.
 */
#ifndef CSMACD_EVENTLOG_H
#define CSMACD_EVENTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"
#include "trace.h"

typedef struct eventlog eventlog;

/* Creates the (temporary) file and writes the header. sc: the scenario
 * whose groups name the stations (finished; it must outlive the log), or
 * NULL. Returns 0, or -1 with "path: reason". */
int eventlog_open(const char *path, const scenario *sc, eventlog **out, char *err,
                  size_t errlen);
/* The sink to hand to engine_add_sink; valid until close or discard. */
trace_sink eventlog_sink(eventlog *l);
/* The first write error's errno, 0 while all is well (the program stops
 * a run early rather than simulate into a file it cannot write). */
int eventlog_error(const eventlog *l);
/* The file being written (outfile.h), for its size. */
const struct outfile *eventlog_file(const eventlog *l);
/* Event lines written so far (the header not counted). */
uint64_t eventlog_lines(const eventlog *l);
/* Flushes, checks, renames into place and frees. Returns 0, or -1 with
 * "path: reason" (the first error: a write, the flush, the rename). */
int eventlog_close(eventlog *l, char *err, size_t errlen);
/* Frees and removes the temporary file (after another failure). */
void eventlog_discard(eventlog *l);

#endif
