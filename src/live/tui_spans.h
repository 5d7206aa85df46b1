/* tui_spans.h - where a signal is on a drawn medium at an instant: the
 * stretches of a line cable, or the places around a hub, as fractions of
 * the drawing (tui/tui_model.h's tui_span). Shared by the one medium's
 * snapshot (tui_snapshot.c) and a network's, segment by segment
 * (tui_netsnap.c).
 */
#ifndef CSMACD_TUI_SPANS_H
#define CSMACD_TUI_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "medium.h"
#include "timeline_sink.h"
#include "tui_model.h"

/* A growing array of spans (a span that cannot be had is left out). */
typedef struct span_list {
    tui_span *v;
    size_t n, cap;
} span_list;

void span_list_add(span_list *l, double from, double to, bool jam, uint32_t who);

/* A line cable of L ps (0: every tap at one point) with the transmitter
 * x ps from its left end: the signal of r covers, at t, the points whose
 * distance (as delay) from it lies in [t - end, t - start), the part sent
 * as jam [t - end, t - jam_start). A signal just begun shows as a sliver
 * at the transmitter. */
void span_list_line(span_list *l, double L, double x, const timeline_tx *r, sim_time t,
                    uint32_t who);

/* A hub: around the place pos[j] of each of the n taps of m, the signal
 * of r sent at tap `tap` while it is there. */
void span_list_star(span_list *l, const medium *m, uint32_t tap, const double *pos, uint32_t n,
                    const timeline_tx *r, sim_time t, uint32_t who);

#endif
