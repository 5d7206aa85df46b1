/* tui_curses.h - the terminal: the one place that talks to curses.
 *
 * Opens the terminal (alternate screen, no echo, cbreak, keypad, mouse),
 * copies rendered grids (tui_layout.h) to it, reads keys, clicks and
 * resizes as tui_input, and restores the terminal. Nothing else in csmacd
 * includes <curses.h>.
 *
 * The glyph set is chosen from the locale: tui_term_open calls
 * setlocale(LC_ALL, "") (then puts LC_NUMERIC back to "C", so numbers keep
 * their '.' in labels and files) and uses Unicode only when
 * nl_langinfo(CODESET) is UTF-8.
 *
 * Restoring: tui_term_close restores the terminal and may be called on
 * every exit path (it is idempotent and accepts NULL). For the paths that
 * cannot call it (an assertion, a crash), tui_term_emergency_restore is
 * async-signal-safe: it writes the saved "leave the alternate screen, show
 * the cursor, stop mouse reports" sequence and the saved termios. This is
 * the one piece of process-wide state in the TUI (a terminal is
 * process-wide too); it is set by tui_term_open and cleared by close.
 */
#ifndef CSMACD_TUI_CURSES_H
#define CSMACD_TUI_CURSES_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_layout.h"

typedef struct tui_term tui_term;

typedef struct tui_term_options {
    bool colour;  /* use colour if the terminal has it (false for NO_COLOR) */
    bool mouse;   /* ask for mouse reports */
} tui_term_options;

/* Returns 0, or -1 with a reason in err (no terminal, unknown TERM). */
int tui_term_open(const tui_term_options *opt, tui_term **out, char *err, size_t errlen);
/* Restores the terminal and frees t. NULL is fine. */
void tui_term_close(tui_term *t);

/* The glyphs and colour the terminal supports (for tui_render_opts). */
tui_glyphs tui_term_glyphs(const tui_term *t);
bool tui_term_colour(const tui_term *t);
/* Current size in cells. */
void tui_term_size(const tui_term *t, int *w, int *h);

/* Shows a grid (only the cells that changed reach the terminal). The grid
 * should have the terminal's size; extra cells are clipped. */
void tui_term_draw(tui_term *t, const tui_grid *g);

/* Waits at most timeout_ms (0: just polls) for one input. */
void tui_term_read(tui_term *t, int timeout_ms, tui_input *out);

/* Async-signal-safe last-resort restore (see above). */
void tui_term_emergency_restore(void);

#endif
