/* tui_netview.h - the screen's data that is not the driver's: how a MAC's
 * state shows (tui_state_of) and a network of segments as the screen
 * draws it (tui_netview, tui_netsnap.c). Below the driver: these know no
 * driver, and the driver's files (tui_driver_int.h) call down into them,
 * never the other way (csmacd_live_view, linked under csmacd_live).
 */
#ifndef CSMACD_TUI_NETVIEW_H
#define CSMACD_TUI_NETVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "results.h"
#include "timeline_sink.h"
#include "tui_model.h"
#include "tui_spans.h"

typedef struct tui_netview tui_netview;

/* How the screen shows a MAC's state (a repeater's port: idle). */
tui_station_state tui_state_of(mac_state s);

/* A network's drawing (tui_netsnap.c): built for each engine (NULL, and
 * 0, without a network; -1: no memory); fills the snapshot's segments and
 * each station row's segment and place. */
int tui_netview_create(const engine *e, uint32_t n_stations, tui_netview **out);
void tui_netview_destroy(tui_netview *v);
/* ... and, with bridges, the collision domains and each bridge port's
 * queue now (engine_bridge_port_now) with its drops and delay (r). */
void tui_netview_snapshot(tui_netview *v, const engine *e, const results *r,
                          const timeline_sink *tl, sim_time t, tui_station_row *rows,
                          double *pos, size_t n_rows, tui_snapshot *s);

#endif
