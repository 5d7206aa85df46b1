/* tui_layout.h - the screen as a pure function of a snapshot.
 *
 * tui_render draws a tui_snapshot into a grid of character cells, each a
 * Unicode code point and an attribute code, for a given size, glyph set and
 * colour flag. It reads no terminal, no clock, no environment and no global
 * state, so a screen is tested by comparing grids as strings
 * (tui_grid_text, tui_grid_attrs) and tui_curses.c only copies the grid
 * out. The grid also carries "hot spots" (the clickable key labels of the
 * footer) so a mouse click maps to a command without curses knowing the
 * layout.
 *
 * Layouts exist from TUI_MIN_W x TUI_MIN_H up; below that the grid holds a
 * centred message saying how big the terminal must be.
 *
 * The key bindings are declared here too (tui_keys.c), in one const table:
 * the help overlay is drawn from it and tui_curses.c maps keys through it,
 * so the help cannot disagree with the keys.
 */
#ifndef CSMACD_TUI_LAYOUT_H
#define CSMACD_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui_model.h"

#define TUI_MIN_W 80
#define TUI_MIN_H 24

/* Attribute codes: what a cell means. With colour off the layout only
 * uses the first five (plain, bold, reverse, dim, underline) so the screen
 * must still read in monochrome: every series has its own glyph too. */
typedef enum tui_attr {
    TUI_A_PLAIN = 0,
    TUI_A_BOLD,
    TUI_A_REVERSE,
    TUI_A_DIM,
    TUI_A_UNDERLINE,
    /* colour only */
    TUI_A_HEADER,     /* title bar */
    TUI_A_TITLE,      /* panel titles */
    TUI_A_AXIS,       /* axes, ticks, labels */
    TUI_A_MEASURED,   /* measured points and error bars */
    TUI_A_CURRENT,    /* the point being measured */
    TUI_A_REF,        /* the analytic curve */
    TUI_A_SECOND,     /* collisions per frame */
    TUI_A_FRAME,      /* channel: a frame */
    TUI_A_COLLISION,  /* channel: a collision */
    TUI_A_JAM,        /* channel: jam */
    TUI_A_IDLE,       /* channel idle, cable */
    TUI_A_BACKOFF,    /* a station backing off */
    TUI_A_KEY,        /* a key name in the footer or help */
    TUI_A_WARN,       /* paused, too small, error messages */
    TUI_A_DOMAIN0,    /* collision domains, in turn (tui_domain_attr) */
    TUI_A_DOMAIN1,
    TUI_A_DOMAIN2,
    TUI_A_DOMAIN3,
    TUI_A_COUNT
} tui_attr;

/* Collision domain d's letter (A..Z, a..z, 0..9, &, $: 64, one per segment a
 * network can have; '?' past them) and colour
 * (TUI_A_DOMAIN0..3 in turn: neighbours differ; the letter tells apart
 * two domains of one colour, and every domain in monochrome). */
char tui_domain_letter(uint32_t d);
tui_attr tui_domain_attr(uint32_t d);

/* A bridge port's queue as a bar of `width` cells (width >= 1): len of
 * cap frames, in eighths of a cell with Unicode block elements (U+2588
 * full .. U+258F one eighth), or '#' per cell in ASCII; a queue that
 * holds anything shows at least one eighth (or one '#'), a full one fills
 * every cell, and an empty cell is a space. Writes width code points. */
void tui_queue_bar(uint32_t len, uint32_t cap, int width, bool unicode, uint32_t *out);

typedef enum tui_glyphs {
    TUI_GLYPHS_ASCII,   /* 7-bit only */
    TUI_GLYPHS_UNICODE, /* braille, box drawing, block elements */
} tui_glyphs;

typedef struct tui_render_opts {
    tui_glyphs glyphs;
    bool colour;
} tui_render_opts;

typedef struct tui_cell {
    uint32_t ch;   /* a code point of width 1 */
    uint8_t attr;  /* tui_attr */
} tui_cell;

typedef struct tui_hotspot {
    int x, y, w;
    tui_command cmd;
} tui_hotspot;

#define TUI_HOTSPOTS_MAX 48

typedef struct tui_grid {
    int w, h;
    tui_cell *cells;   /* w * h, row-major */
    tui_hotspot hot[TUI_HOTSPOTS_MAX];
    int n_hot;
    int table_rows;    /* station rows the table showed (for paging) */
} tui_grid;

/* Allocates a w x h grid (w, h >= 1). Returns 0 or -1 (no memory). */
int tui_grid_init(tui_grid *g, int w, int h);
/* Resizes, keeping nothing. Returns 0 or -1. */
int tui_grid_resize(tui_grid *g, int w, int h);
void tui_grid_free(tui_grid *g);

/* Draws the whole screen. Deterministic: the same inputs give the same
 * grid. */
void tui_render(const tui_snapshot *s, const tui_render_opts *o, tui_grid *g);

/* The grid as UTF-8 text, one line per row, each ending in '\n'
 * (trailing blanks kept). Returns the length it needs (excluding the NUL);
 * writes at most cap bytes, always NUL-terminated when cap > 0. */
size_t tui_grid_text(const tui_grid *g, char *buf, size_t cap);
/* The attributes as text: one character per cell ('.' plain, 'b' bold,
 * 'r' reverse, 'd' dim, 'u' underline, then 'A'.. for the colour codes),
 * one line per row. Same return convention. */
size_t tui_grid_attrs(const tui_grid *g, char *buf, size_t cap);

/* The command under a mouse click, TUI_CMD_NONE if none. */
tui_command tui_grid_hit(const tui_grid *g, int x, int y);

/* Whether the screen names the capture effect for the run being watched.
 * A note that names an effect waits for evidence, and says what it is
 * compared with; all of these must hold:
 *   - the reference model is on screen (its curve shown) and has a value
 *     at this N;
 *   - S at this N has a 95 % confidence interval from at least the
 *     point's min_batches batches (the point being measured, or the
 *     recorded point once measuring is over), and that interval lies wholly
 *     above the model's value;
 *   - at least TUI_CAPTURE_MIN_FRAMES frames were sent OK in the run;
 *   - one station sent more than TUI_CAPTURE_SHARE of the bits, beyond
 *     its 95 % interval: share - 1.96 sqrt(share (1 - share) r / frames)
 *     > TUI_CAPTURE_SHARE, where r (at least 1), the mean run of
 *     consecutive successes by one station, discounts frames that come in
 *     runs and so are not independent;
 *   - Jain's fairness index is below TUI_CAPTURE_JAIN.
 * If so, *out holds the evidence the note shows. */
#define TUI_CAPTURE_SHARE 0.5
#define TUI_CAPTURE_JAIN 0.5
#define TUI_CAPTURE_MIN_FRAMES 1000
typedef struct tui_capture {
    uint32_t top;     /* the station, 0-based */
    double share;     /* its share of the bits delivered */
    uint32_t n;       /* stations */
    double s, s_ci95; /* S measured at N and its 95 % CI half-width */
    double model;     /* the reference model's S at N */
    uint64_t frames;  /* frames sent OK in the run */
} tui_capture;
bool tui_capture_effect(const tui_snapshot *s, tui_capture *out);

/* Keys: printable ASCII as itself, the others below. */
enum {
    TUI_KEY_UP = 0x110000,
    TUI_KEY_DOWN,
    TUI_KEY_PGUP,
    TUI_KEY_PGDN,
    TUI_KEY_ESC,
    TUI_KEY_F1,
};

/* One input event, as tui_curses.c reads it. */
typedef enum tui_input_kind {
    TUI_IN_NONE,       /* the wait timed out */
    TUI_IN_KEY,        /* key holds the key */
    TUI_IN_CLICK,      /* a button press at (x, y) */
    TUI_IN_WHEEL_UP,
    TUI_IN_WHEEL_DOWN,
    TUI_IN_RESIZE,
} tui_input_kind;

typedef struct tui_input {
    tui_input_kind kind;
    int key;
    int x, y;
} tui_input;

/* What an input asks for, given the grid last drawn (for clicks). */
tui_command tui_input_command(const tui_input *in, const tui_grid *g, bool can_save_pcap);

typedef struct tui_binding {
    int key;
    tui_command cmd;
    const char *key_label;  /* "space", "+", "PgDn" */
    const char *help;       /* what it does, for the help overlay */
} tui_binding;

size_t tui_binding_count(void);
const tui_binding *tui_binding_at(size_t i);
/* The command bound to a key; TUI_CMD_NONE when unbound. Without pcap
 * support the save-trace key is unbound (opts below). */
tui_command tui_key_command(int key, bool can_save_pcap);

#endif
