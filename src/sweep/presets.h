/* presets.h - the built-in experiments of `csmacd presets` and
 * `csmacd sweep --preset NAME`.
 *
 * Each preset is a plain INI file under src/sweep/presets/, embedded into the
 * program at build time (src/sweep/presets/embed.cmake writes presets_data.c;
 * the file name is the preset's name). Three sections:
 *   [preset]   summary = one line for `csmacd presets`
 *              title   = the figure's title
 *              y       = the measures to plot, one panel each (throughput)
 *              x       = the figure's x axis when several are swept
 *              xlabel  = the x axis's label (default: the axis's own)
 *              xtics   = one label per value of the x axis, ','
 *                        between them: numbers are the x positions
 *                        ("1,2,3": repeaters in the path), anything else
 *                        makes the axis categories 1, 2, ... with these
 *                        labels ("one Class I,two Class II")
 *              marks   = limits drawn on the figure, ';' between them:
 *                        "x = 4.5: LABEL" a vertical line across every
 *                        panel, "MEASURE = 575: LABEL" a horizontal line
 *                        on that measure's panel (plot.h, plot_mark)
 *              series  = one label per series of the figure, ','
 *                        between them, in the order of the grid
 *                        ("one hub,switch (half duplex),switch (full
 *                        duplex)"); default: each series' values
 *   [sweep]    the axes as LISTs (stations, load, frame-size, length, phy,
 *              policy, or any scenario key as with --grid) and reps,
 *              precision, max-reps, and frames: each point runs for the
 *              frames it needs (preset_frames_duration) instead of the
 *              [scenario]'s one duration
 *   [scenario] scenario keys, exactly as in a --scenario file
 *   [group NAME] a group's keys, as in a --scenario file; kept in the
 *              scenario's list as a declaration, then "NAME.key" entries
 *   [segment NAME], [repeater NAME], [bridge NAME] a network's sections,
 *              as in a --scenario file: a declaration (net 's', 'r' or
 *              'b'), then
 *              "NAME.key" entries (scenario_set sets a segment's or a
 *              repeater's key so); every declaration is applied before
 *              any key, so that a port may name a segment declared below
 * A preset sets defaults: the command line overrides each of them (an
 * axis given on the command line replaces the preset's list).
 * Lines are "key = value"; '#' or ';' starts a comment line. Errors are
 * "preset NAME:LINE: reason". Nothing is printed here.
 */
#ifndef CSMACD_PRESETS_H
#define CSMACD_PRESETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

typedef struct preset_source {
    const char *name;
    const char *text; /* the INI file, NUL-terminated */
} preset_source;

/* The embedded files (generated presets_data.c). */
size_t presets_embedded(const preset_source **out);

#define PRESET_MAX_KEYS 96
#define PRESET_TEXT_MAX 512

typedef struct preset_kv {
    char key[64];
    char value[PRESET_TEXT_MAX];
    int line;
    bool group; /* [group NAME]: declares group `value` (scenario_group_add) */
    char net;   /* [segment NAME] 's', [repeater NAME] 'r', [bridge NAME] 'b':
                   declares `value`; else 0 */
} preset_kv;

typedef struct preset {
    const char *name;
    const char *text;
    char summary[PRESET_TEXT_MAX];
    char title[PRESET_TEXT_MAX];
    char y[PRESET_TEXT_MAX];     /* "" = throughput */
    char x[PRESET_TEXT_MAX];     /* "" = the first swept of stations, load, length, frame-size */
    char xlabel[PRESET_TEXT_MAX]; /* "" = the axis's own */
    char xtics[PRESET_TEXT_MAX];  /* "" = the axis's values */
    char marks[PRESET_TEXT_MAX];  /* "" = none */
    char series[PRESET_TEXT_MAX]; /* "" = the series' values */
    preset_kv sweep[PRESET_MAX_KEYS];
    size_t n_sweep;
    preset_kv scenario[PRESET_MAX_KEYS];
    size_t n_scenario;
} preset;

/* A point's duration sized by frames (the [sweep] key `frames = F`): the
 * warm-up, then the time F frames of the point's mean size take at the
 * rate it offers them: back to back for saturated traffic (preamble,
 * frame, gap), at the offered load G for poisson and onoff (F x frame
 * bits / G bit times, never less than back to back), rounded up to a
 * whole millisecond. A point that offers F frames cannot carry more than
 * its throughput lets through: one whose collisions waste the channel
 * delivers fewer (the figure shows that as a lower S, measured over as
 * long a run). Other traffic (batch, replayed captures) keeps its own
 * duration: 0 is returned. The scenario must have its PHY, traffic, load
 * and frame size set (scenario_finish not needed). */
struct scenario;
sim_time preset_frames_duration(const struct scenario *sc, uint64_t frames);

/* Applies the preset's [scenario], [group], [segment] and [repeater]
 * keys to sc (phy left out when skip_phy: a swept phy): the network's
 * sections declared first, as a scenario file's are, then every key in
 * order. Returns 0, or -1 with "preset NAME:LINE: reason". */
struct preset;
int preset_apply_scenario(const struct preset *pr, struct scenario *sc, bool skip_phy,
                          char *err, size_t errlen);

/* A preset as one scenario (what `run --preset`, `tui --preset` and a
 * preset's file given to --scenario make of it): its [scenario] keys and
 * sections, then the first point of its [sweep]: every axis's first value
 * (a group's share of a total of stations as the sweep gives it, a swept
 * phy before the other keys), and a sweep sized by frames gives that
 * point's duration (preset_frames_duration). `stations`, when not NULL
 * and the preset has groups, replaces the swept stations by their total,
 * as `sweep --preset NAME --stations N` gives it: the group without its
 * own takes the rest (without groups it is ignored here: the caller sets
 * the plain key after the preset). [sweep]'s reps, precision
 * and max-reps do not apply to one run. `point` says which point, "" when
 * the preset sweeps nothing, e.g. "east.segment = east-r, west.segment =
 * west-r, dest = local:0". Returns 0, or -1 with "preset NAME:LINE:
 * reason" or "preset NAME: reason". */
int preset_first_point(const struct preset *pr, const char *stations, struct scenario *sc,
                       char *point, size_t pointlen, char *err, size_t errlen);

/* Parses a preset's file text (`csmacd presets --show NAME` writes one),
 * named `name` in messages; text must outlive out. Returns 0, or -1 with
 * "preset NAME:LINE: reason". */
int preset_parse_text(const char *name, const char *text, struct preset *out, char *err,
                      size_t errlen);
/* Whether a file's text is a preset's: it has a [preset] section. */
bool preset_text_is_preset(const char *text);

size_t preset_count(void);
const char *preset_name_at(size_t i);

/* Finds and parses a preset. Returns 0, or -1 with a reason (an unknown
 * name lists the known ones). */
int preset_load(const char *name, preset *out, char *err, size_t errlen);

#endif
