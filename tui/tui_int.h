/* tui_int.h - what the drawing files of tui/ share (not for outside use).
 *
 * The screen is drawn by a few files with one job each: tui_layout.c cuts
 * the terminal into regions and calls the others, tui_bars.c draws the
 * header, footer and status lines, tui_plot.c the plot, tui_tables.c the
 * station table and the table of measured points, tui_timeplot.c the plot's time view, tui_medium.c the cable
 * and the channel strip, tui_net.c a network of segments in the cable's
 * place, tui_help.c the help overlay and the too-small message. They draw through the primitives below (tui_draw.c), which clip
 * to the grid, so no drawing function can write outside it.
 *
 * A ctx is one rendering: the grid, the snapshot, the glyph set and the
 * colour flag; it lives on tui_render's stack, so rendering keeps no state
 * between calls.
 */
#ifndef CSMACD_TUI_INT_H
#define CSMACD_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui_layout.h"
#include "tui_model.h"

typedef struct glyphset {
    uint32_t hline, vline, corner, ytick, xtick, rtick;
    uint32_t point, current;
    uint32_t chan_idle, chan_frame, chan_jam, chan_coll;
    uint32_t cable, cable_sig, cable_jam, cable_coll;
    uint32_t box_h, box_v, box_tl, box_tr, box_bl, box_br;
    const char *sep;     /* between header fields */
    const char *pm;      /* plus-minus */
    const char *mu;      /* micro sign */
    const char *times;   /* multiplication sign */
    const char *dash;    /* en dash in ranges */
    bool braille;
} glyphset;

extern const glyphset tui_glyphs_unicode;
extern const glyphset tui_glyphs_ascii;

typedef struct ctx {
    tui_grid *g;
    const tui_snapshot *s;
    const glyphset *gl;
    bool colour;
    bool unicode;
} ctx;

/* Drawing primitives (tui_draw.c). Everything clips to the grid. */
void tui_put(ctx *c, int x, int y, uint32_t ch, tui_attr a);
void tui_fill(ctx *c, int x, int y, int w, uint32_t ch, tui_attr a);
/* Columns a UTF-8 string takes (one per code point). */
int tui_text_width(const char *s);
/* Writes at most maxw columns; returns the columns written. */
int tui_text(ctx *c, int x, int y, int maxw, const char *s, tui_attr a);
int tui_textf(ctx *c, int x, int y, int maxw, tui_attr a, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A clickable stretch of a row (the footer's key labels). */
void tui_hot(ctx *c, int x, int y, int w, tui_command cmd);

/* Number formatting: every figure with its unit (tui_draw.c). */
void tui_fmt_count(uint64_t v, char *buf, size_t len);
void tui_fmt_rate(double bps, char *buf, size_t len);
void tui_fmt_dur(const ctx *c, double s, char *buf, size_t len);
void tui_fmt_clock(const tui_snapshot *s, char *buf, size_t len);
void tui_fmt_speed(const ctx *c, double speed, char *buf, size_t len);

/* A station's state as a word, a letter and an attribute (tui_draw.c). */
const char *tui_state_word(tui_station_state st);
char tui_state_letter(tui_station_state st);
tui_attr tui_state_attr(tui_station_state st);

/* The regions: each draws inside the box or rows it is given. */
void tui_draw_header(ctx *c);                           /* tui_bars.c */
void tui_draw_footer(ctx *c);                           /* tui_bars.c */
void tui_draw_status(ctx *c, int y, int rows);          /* tui_bars.c */
/* The lines the status message needs at width w (0: none, at most 3). */
int tui_status_message_rows(const tui_snapshot *s, int w); /* tui_bars.c */
void tui_draw_plot(ctx *c, int px, int py, int pw, int ph); /* tui_plot.c */
/* The plot's time view in its place (tui_snapshot.time_view). */
void tui_draw_timeplot(ctx *c, int px, int py, int pw, int ph); /* tui_timeplot.c */
void tui_draw_points_table(ctx *c, int x, int y, int w, int h); /* tui_tables.c */
void tui_draw_stations(ctx *c, int x, int y, int w, int h);     /* tui_tables.c */
int tui_table_min_width(void); /* the station table's narrowest form */
void tui_draw_medium(ctx *c, int y, int rows);          /* tui_medium.c */
void tui_draw_timeline(ctx *c, int y, int rows);        /* tui_medium.c */
/* The cable row y, columns x0 .. x0 + cw - 1: the spans of the signals on
 * it (tui_model.h), a collision where two senders' overlap. */
void tui_draw_cable(ctx *c, const tui_span *spans, size_t n_spans, int x0, int cw, int y);
/* A network of segments in place of the medium (tui_net.c): the rows it
 * wants (a title and two per segment), and the drawing in `rows` rows
 * (as many segments as fit; the title says when not all do). */
int tui_net_rows(const tui_snapshot *s);
void tui_draw_net(ctx *c, int y, int rows);             /* tui_net.c */
/* The station table's narrowest width for this snapshot (its group and
 * segment columns counted), tui_tables.c. */
int tui_table_width_for(const tui_snapshot *s);
void tui_draw_help(ctx *c);                             /* tui_help.c */
void tui_draw_too_small(ctx *c);                        /* tui_help.c */

#endif
