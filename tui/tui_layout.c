/* tui_layout.c - the screen as a pure function of (snapshot, size, glyphs,
 * colour).
 *
 * Regions, top to bottom (sizes for 80x24; larger terminals grow the plot,
 * the table, the strips, and add a table of measured points):
 *
 *   header     one line: scenario, speed, PAUSED
 *   plot       throughput S versus N, error bars, reference curve;
 *              below it collisions per frame, in a panel of its own
 *              (the time view instead: both over time, tui_timeplot.c)
 *                                                         | station table
 *   status     the run being watched: N, S so far, Mb/s, collisions/frame;
 *              a message takes the sweep's line and, when it is long, the
 *              lines it needs (up to 3) from the regions above
 *   medium     the cable (or the hub's view) with the stations and signals;
 *              with a network of segments, one line each (tui_net.c)
 *   timeline   the channel at the probe over the last slots
 *   footer     the main keys, clickable
 *
 * Everything drawn here carries its unit, and every series has a glyph of
 * its own besides its colour, so the screen reads in monochrome (NO_COLOR)
 * and in ASCII. Nothing here reads the terminal, the clock or the
 * environment; tests compare grids as strings. This file only cuts the
 * screen into regions; each region is drawn by a file of its own
 * (tui_int.h lists them).
 */
#include "tui_layout.h"

#include "tui_int.h"

/* With a network, the plot and the station table keep at least this many
 * rows (what they have at 80x24 without one); segments that do not fit
 * are left out (the network's title says so). */
#define TOP_MIN_ROWS 14
/* ... and the plot at least this many columns (the table is cut on the
 * right when it is wider than what is left, as with groups). */
#define PLOT_MIN_W 34

void tui_render(const tui_snapshot *s, const tui_render_opts *o, tui_grid *g)
{
    bool unicode = o->glyphs == TUI_GLYPHS_UNICODE;
    ctx c = {g, s, unicode ? &tui_glyphs_unicode : &tui_glyphs_ascii, o->colour, unicode};
    for (int i = 0; i < g->w * g->h; i++)
        g->cells[i] = (tui_cell){' ', TUI_A_PLAIN};
    g->n_hot = 0;
    g->table_rows = 0;
    if (g->w < TUI_MIN_W || g->h < TUI_MIN_H) {
        tui_draw_too_small(&c);
        return;
    }
    int W = g->w, H = g->h;
    /* Vertical budget: header, footer, status, medium, timeline; the rest
     * is the plot and the table. Tall terminals get thicker strips. */
    int status_rows = H >= 30 ? 2 : 1;
    /* A long message (a step told in words, a save naming its folder) is
     * wrapped, never cut: it takes the rows it needs from the top. */
    int msg_rows = tui_status_message_rows(s, W);
    if (msg_rows + (H >= 30 ? 1 : 0) > status_rows)
        status_rows = msg_rows + (H >= 30 ? 1 : 0);
    int medium_rows = 4; /* title, numbers, stations, cable */
    int timeline_rows = H >= 44 ? 4 : 3;
    if (s->n_segments > 0) {
        /* A network: a title and two rows per segment, as many as leave
         * the plot and the table TOP_MIN_ROWS rows; when they do not fit,
         * the channel strip (one segment's probe) gives its rows first. */
        int most = H - 2 - status_rows - timeline_rows - TOP_MIN_ROWS;
        medium_rows = tui_net_rows(s);
        if (medium_rows > most) {
            most += timeline_rows;
            timeline_rows = 0;
        }
        if (medium_rows > most)
            medium_rows = most - (most - 1) % 2;
    }
    int top_y = 1;
    int top_h = H - 2 - status_rows - medium_rows - timeline_rows;
    int plot_w = W >= 120 ? W * 55 / 100 : W - 2 - tui_table_min_width();
    if (W < 120 && s->n_segments > 0) {
        /* The segment column too, as long as the plot keeps PLOT_MIN_W. */
        int tw = tui_table_width_for(s);
        plot_w = W - 2 - tw >= PLOT_MIN_W ? W - 2 - tw : PLOT_MIN_W;
    }

    tui_draw_header(&c);
    /* Tall: the plot takes about 2/3, a table of points the rest. */
    int plot_h = top_h;
    if (top_h >= 36) {
        plot_h = top_h * 2 / 3;
        tui_draw_points_table(&c, 0, top_y + plot_h + 1, plot_w, top_h - plot_h - 1);
    }
    if (s->time_view)
        tui_draw_timeplot(&c, 0, top_y, plot_w, plot_h);
    else
        tui_draw_plot(&c, 0, top_y, plot_w, plot_h);
    for (int r = 0; r < top_h; r++)
        tui_put(&c, plot_w, top_y + r, c.gl->vline, TUI_A_DIM);
    int table_x = plot_w + 2;
    int table_w = W - table_x;
    tui_draw_stations(&c, table_x, top_y, table_w, top_h);
    int y = top_y + top_h;
    tui_draw_status(&c, y, status_rows);
    y += status_rows;
    if (s->n_segments > 0)
        tui_draw_net(&c, y, medium_rows);
    else
        tui_draw_medium(&c, y, medium_rows);
    y += medium_rows;
    if (timeline_rows > 0)
        tui_draw_timeline(&c, y, timeline_rows);
    tui_draw_footer(&c);
    if (s->show_help)
        tui_draw_help(&c);
}
