/* engine.h - builds a network from a scenario and runs it.
 *
 * An engine owns everything it touches (event queue, medium, MAC, traffic,
 * statistics), so many engines can run in parallel threads. It does no I/O
 * and reads no clock: callers drive it in slices (engine_run with an event
 * budget), which lets the TUI keep a steady frame rate and the CLI stop
 * cleanly on a signal. Everything that happens is reported to trace sinks.
 */
#ifndef CSMACD_ENGINE_H
#define CSMACD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mac.h"
#include "results.h"
#include "scenario.h"
#include "trace.h"

typedef struct engine engine;

typedef enum engine_status {
    ENGINE_RUNNING, /* stopped by the slice's limits; call again */
    ENGINE_DONE,    /* reached the scenario's duration (or nothing is left to happen) */
    ENGINE_OUT_OF_MEMORY, /* memory ran out in the middle of the run: it cannot
                             go on, and its measures are not valid (a runtime
                             failure: the caller says so and keeps nothing) */
} engine_status;

/* Builds the network. The scenario must have passed scenario_finish (the
 * policy is built from the spec it parsed, sc->policy_spec); it is
 * copied. Returns 0, or -1 with a reason in err (e.g. a replayed capture
 * that does not fit: an input error), or ENGINE_NO_MEMORY with "out of
 * memory" (a runtime failure). */
#define ENGINE_NO_MEMORY (-2)
int engine_create(const scenario *sc, engine **out, char *err, size_t errlen);

/* A replayed capture loaded once and shared read-only by many engines (a
 * sweep's points and jobs: a 300 MB capture cost that much per engine).
 * engine_load_replay loads sc's capture as engine_create would (0, -1,
 * or ENGINE_NO_MEMORY, each with "path: reason");
 * engine_replay_same says whether two scenarios load the same one; the
 * engines of engine_create_shared(sc, shared) use `shared` (loaded for a
 * scenario that engine_replay_same matches) without freeing it. */
struct replay;
int engine_load_replay(const scenario *sc, struct replay **out, char *err, size_t errlen);
bool engine_replay_same(const scenario *a, const scenario *b);
int engine_create_shared(const scenario *sc, const struct replay *shared, engine **out,
                         char *err, size_t errlen);

/* Builds the stations (after the sinks are added; engine_run does it on
 * its first call otherwise, and aborts if memory runs out). Returns 0, or
 * -1 with "out of memory (building N stations)": a runtime failure. */
int engine_start(engine *e, char *err, size_t errlen);
void engine_destroy(engine *e);

/* Adds a sink; only before the first engine_run. Returns 0 or -1. */
int engine_add_sink(engine *e, trace_sink sink);

/* Runs until simulated time reaches min(until, duration) or max_events
 * events have been handled (0 = no limit), whichever comes first. */
engine_status engine_run(engine *e, sim_time until, uint64_t max_events);

/* The next slice for engine_run's max_events that stays short in wall
 * time, after a slice of `last` events (0 at the start): each event looks
 * at every signal in flight, so with many of them (signals far slower than
 * 802.3's) the slice shrinks in proportion; and since they can pile up
 * within a slice, a slice is at most twice the last one plus 16. Read
 * between slices (O(1)); the run is the same however it is sliced. */
uint64_t engine_slice_events(const engine *e, uint64_t last, uint64_t max_events);

/* Runs to the end of the scenario. */
static inline engine_status engine_run_all(engine *e)
{
    return engine_run(e, SIM_TIME_NEVER, 0);
}

sim_time engine_now(const engine *e);
/* The longest a frame can take from its first bit at its transmitter to
 * its verdict at the receiver: a sink that credits frames to the time they
 * were on the wire (prorata.h) knows an interval's credit is final this
 * long after the interval ends. */
sim_time engine_judge_ps(const engine *e);
uint64_t engine_events(const engine *e);
const scenario *engine_scenario(const engine *e);
const medium *engine_medium(const engine *e);
/* A network's segments (stations/MODEL.md, "Networks of segments"): how
 * many (0 without a network) and each one's medium (without a network,
 * segment 0's is the one medium; NULL past the last). Its taps are the
 * segment's stations in station order, then the ports of the repeaters on
 * it in repeater order (trace_event.tap names a relay's). */
uint32_t engine_segment_count(const engine *e);
const medium *engine_segment_medium(const engine *e, uint32_t segment);
/* The one-way delay from station a's signal to station b, along the
 * path on a network (cables and repeaters). */
sim_time engine_station_delay(const engine *e, uint32_t a, uint32_t b);
/* A network's bridges (0 without bridges) and each one's ports, in the
 * order of its `ports` key; engine_bridge_port_now fills one port's state
 * now (segments.h: its segment and tap, its MAC's state, its output
 * queue's frames and capacity) for a live view, and returns 0, or -1
 * when there is no such port or the engine has not started. */
uint32_t engine_bridge_count(const engine *e);
uint32_t engine_bridge_port_count(const engine *e, uint32_t bridge);
struct segnet_port_now;
int engine_bridge_port_now(const engine *e, uint32_t bridge, uint32_t port,
                           struct segnet_port_now *out);
/* The capture replayed as traffic (--traffic pcap:FILE), or NULL. */
struct replay;
const struct replay *engine_replay(const engine *e);

/* The measures so far (the window ends at engine_now). The station array
 * stays valid until the next engine call. */
void engine_results(engine *e, results *out);

void engine_station_view(const engine *e, uint32_t station, mac_station_view *out);

/* Memory held by the engine, in bytes (for the benchmark). */
size_t engine_bytes(const engine *e);

#endif
