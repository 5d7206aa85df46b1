/* tui_save.h - the TUI's two saves: `c`, the measured curve (CSV, written
 * by tui_csv.h), and `w`, the current run's trace. It knows no driver: the
 * driver hands it plain data and an engine, and every outcome comes back
 * as one line of text for the status line.
 *
 * Names say what a file holds, so saves of different experiments never
 * share one: csmacd-sweep-PHY-SIZEB-POLICY-TRAFFIC-seedS.csv and
 * csmacd-PHY-NN-SIZEB-POLICY-TRAFFIC-seedS.pcapng (policy and traffic
 * written as file-name words: "fixed:wait=4" -> "fixed-wait-4", "poisson
 * G=0.50" -> "poisson-G0.5"; a scenario with groups says "K-groups").
 *
 * A save never replaces a file. It is written whole through outfile.h under
 * a private temporary name in the save folder (".csmacd-PID-tuiK.tmp", a
 * name outfile.c's clean-up knows), then given its name with link(2), which
 * fails when the name exists (renameat2 with RENAME_NOREPLACE where the
 * file system has no hard links, a look before the rename where it has
 * neither); on a clash the name takes -2, -3, ... before its extension. The
 * outcome names the file and its folder.
 *
 * The trace is pcapng, as `csmacd run --pcap` writes it (pcap_sink.h): a
 * plain Wireshark decodes its frames, every record's comment tells the
 * MAC's story and names its station's group. A second engine replays the
 * run from t = 0 (the same scenario and seed give the same events) and its
 * pcap sink takes only the records
 * of the span kept, the most recent part of the run: at most max_ps long,
 * and at most what fits max_bytes by an estimate made first from the run's
 * own rates (records per simulated second, each frame or fragment with its
 * headers). An estimate above the room left on the folder's file system is
 * refused. The replay runs in steps of the caller's event budget
 * (tui_trace_step), so a screen can keep redrawing meanwhile; destroying
 * the handle before it is done removes the temporary and leaves no file.
 */
#ifndef CSMACD_TUI_SAVE_H
#define CSMACD_TUI_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "scenario.h"
#include "simtime.h"
#include "tui_csv.h"

/* The save folder. */
typedef struct tui_saves tui_saves;

/* dir: the folder, kept whole ("." when NULL). Returns 0, or -1 (no memory). */
int tui_saves_create(const char *dir, tui_saves **out);
void tui_saves_destroy(tui_saves *sv);
/* The folder as a person reads it (resolved: "." means little to a class). */
const char *tui_saves_dir_shown(const tui_saves *sv);

/* File names without their extension (the caller frees them; NULL: no
 * memory). */
char *tui_save_csv_stem(const scenario *sc);
char *tui_save_pcap_stem(const scenario *sc);

/* c: the curve of the scenario `sc` into the folder. Returns 0 with
 * "saved NAME (the plot data, K points) in DIR" in msg, or -1 with
 * "cannot save the plot data: why". */
int tui_save_csv(tui_saves *sv, const scenario *sc, const tui_csv_curve *curve, char *msg,
                 size_t msglen);

/* w: a trace being written. */
typedef struct tui_trace tui_trace;

typedef enum tui_trace_state {
    TUI_TRACE_WRITING, /* more steps to go */
    TUI_TRACE_SAVED,   /* the file has its name */
    TUI_TRACE_FAILED,  /* nothing written */
} tui_trace_state;

/* Starts the trace of the run of `live` (its scenario and seed) up to
 * `until` (> 0), within max_ps and max_bytes. Returns the handle with
 * "writing the trace of t = A to B (about SIZE): Esc cancels" in msg, or
 * NULL with why nothing will be written. */
tui_trace *tui_trace_start(tui_saves *sv, engine *live, sim_time until, sim_time max_ps,
                           double max_bytes, char *msg, size_t msglen);
/* One step of at most budget events (*ran: the events handled). The
 * outcome in msg: how far it is, "saved NAME (what it holds) in DIR", or
 * "cannot save the trace: why". */
tui_trace_state tui_trace_step(tui_trace *t, uint64_t budget, int64_t *ran, char *msg,
                               size_t msglen);
/* "already writing the trace of t = A to B (Esc cancels it)". */
void tui_trace_describe(const tui_trace *t, char *msg, size_t msglen);
/* Gives the trace up (or frees a finished one); no file, no temporary is
 * left unless it was saved. NULL is allowed. */
void tui_trace_destroy(tui_trace *t);

#endif
