/* tui_layout.c - the screen as a pure function of (snapshot, size, glyphs,
 * colour).
 *
 * Regions, top to bottom (sizes for 80x24; larger terminals grow the plot,
 * the table, the strips, and add a table of measured points):
 *
 *   header     one line: scenario, speed, PAUSED
 *   plot       throughput S versus N, error bars, reference curve,
 *              collisions per frame on a right-hand axis  | station table
 *   status     the run being watched: N, S so far, Mb/s, collisions/frame
 *   medium     the cable (or the hub's view) with the stations and signals
 *   timeline   the channel at the probe over the last slots
 *   footer     the main keys, clickable
 *
 * Everything drawn here carries its unit, and every series has a glyph of
 * its own besides its colour, so the screen reads in monochrome (NO_COLOR)
 * and in ASCII. Nothing here reads the terminal, the clock or the
 * environment; tests compare grids as strings.
 */
#include "tui_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The grid */

int tui_grid_init(tui_grid *g, int w, int h)
{
    memset(g, 0, sizeof *g);
    return tui_grid_resize(g, w, h);
}

int tui_grid_resize(tui_grid *g, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    tui_cell *c = calloc((size_t)w * (size_t)h, sizeof *c);
    if (!c)
        return -1;
    free(g->cells);
    g->cells = c;
    g->w = w;
    g->h = h;
    g->n_hot = 0;
    return 0;
}

void tui_grid_free(tui_grid *g)
{
    free(g->cells);
    g->cells = NULL;
    g->w = g->h = 0;
}

static size_t utf8_put(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t tui_grid_text(const tui_grid *g, char *buf, size_t cap)
{
    size_t n = 0;
    for (int y = 0; y < g->h; y++) {
        for (int x = 0; x <= g->w; x++) {
            char tmp[4];
            size_t k = x < g->w ? utf8_put(g->cells[y * g->w + x].ch, tmp) : (tmp[0] = '\n', 1);
            for (size_t i = 0; i < k; i++, n++)
                if (n + 1 < cap)
                    buf[n] = tmp[i];
        }
    }
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

size_t tui_grid_attrs(const tui_grid *g, char *buf, size_t cap)
{
    static const char codes[TUI_A_COUNT] = {'.', 'b', 'r', 'd', 'u', 'A', 'B', 'C', 'D', 'E',
                                            'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N'};
    size_t n = 0;
    for (int y = 0; y < g->h; y++) {
        for (int x = 0; x <= g->w; x++, n++) {
            char c = x < g->w ? codes[g->cells[y * g->w + x].attr % TUI_A_COUNT] : '\n';
            if (n + 1 < cap)
                buf[n] = c;
        }
    }
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

tui_command tui_grid_hit(const tui_grid *g, int x, int y)
{
    for (int i = 0; i < g->n_hot; i++) {
        const tui_hotspot *h = &g->hot[i];
        if (y == h->y && x >= h->x && x < h->x + h->w)
            return h->cmd;
    }
    return TUI_CMD_NONE;
}

/* ------------------------------------------------------------------ */
/* Key bindings: one table for the keys and the help overlay. Entries
 * with a NULL help are aliases, or the second half of a pair whose help
 * line the first entry carries. */

static const tui_binding bindings[] = {
    {' ', TUI_CMD_PAUSE, "space", "pause / resume"},
    {'p', TUI_CMD_PAUSE, NULL, NULL},
    {'s', TUI_CMD_STEP_EVENT, "s", "single step: one event (pauses first)"},
    {'.', TUI_CMD_STEP_EVENT, NULL, NULL},
    {'S', TUI_CMD_STEP_SLOT, "S", "single step: one slot time"},
    {'<', TUI_CMD_SLOWER, "< >", "slower / faster (slow motion .. full speed)"},
    {'>', TUI_CMD_FASTER, NULL, NULL},
    {'+', TUI_CMD_MORE_STATIONS, "+ -", "add / remove a station (leaves the sweep)"},
    {'=', TUI_CMD_MORE_STATIONS, NULL, NULL},
    {'-', TUI_CMD_FEWER_STATIONS, NULL, NULL},
    {'l', TUI_CMD_LOAD_DOWN, "l L", "offered load down / up (top: saturated)"},
    {'L', TUI_CMD_LOAD_UP, NULL, NULL},
    {'f', TUI_CMD_FRAME_DOWN, "f F", "frame size down / up (64 .. 1518 bytes)"},
    {'F', TUI_CMD_FRAME_UP, NULL, NULL},
    {'m', TUI_CMD_NEXT_PHY, "m", "next PHY profile (medium, bit rate)"},
    {'b', TUI_CMD_NEXT_POLICY, "b", "next backoff policy (beb, ca-beb, ... ppersistent)"},
    {'r', TUI_CMD_RESTART, "r", "restart the sweep"},
    {'a', TUI_CMD_TOGGLE_REF, "a", "show / hide the analytic reference curve"},
    {'z', TUI_CMD_ZOOM, "z", "S axis: zoomed to the data / the whole 0 .. 1"},
    {'w', TUI_CMD_SAVE_PCAP, "w", "write the current run's trace (pcap)"},
    {'c', TUI_CMD_SAVE_CSV, "c", "save the plot data (CSV)"},
    {TUI_KEY_UP, TUI_CMD_SCROLL_UP, "Up Down", "scroll the station table"},
    {'k', TUI_CMD_SCROLL_UP, NULL, NULL},
    {TUI_KEY_DOWN, TUI_CMD_SCROLL_DOWN, NULL, NULL},
    {'j', TUI_CMD_SCROLL_DOWN, NULL, NULL},
    {TUI_KEY_PGUP, TUI_CMD_PAGE_UP, "PgUp PgDn", "scroll the station table a page"},
    {TUI_KEY_PGDN, TUI_CMD_PAGE_DOWN, NULL, NULL},
    {'?', TUI_CMD_HELP, "?", "show / hide this help"},
    {'h', TUI_CMD_HELP, NULL, NULL},
    {TUI_KEY_F1, TUI_CMD_HELP, NULL, NULL},
    {TUI_KEY_ESC, TUI_CMD_CLOSE, "Esc", "close this help"},
    {'q', TUI_CMD_QUIT, "q", "quit"},
    {'Q', TUI_CMD_QUIT, NULL, NULL},
};

size_t tui_binding_count(void)
{
    return sizeof bindings / sizeof bindings[0];
}

const tui_binding *tui_binding_at(size_t i)
{
    return i < tui_binding_count() ? &bindings[i] : NULL;
}

tui_command tui_key_command(int key, bool can_save_pcap)
{
    for (size_t i = 0; i < tui_binding_count(); i++) {
        if (bindings[i].key != key)
            continue;
        if (bindings[i].cmd == TUI_CMD_SAVE_PCAP && !can_save_pcap)
            return TUI_CMD_NONE;
        return bindings[i].cmd;
    }
    return TUI_CMD_NONE;
}

tui_command tui_input_command(const tui_input *in, const tui_grid *g, bool can_save_pcap)
{
    switch (in->kind) {
    case TUI_IN_KEY:
        return tui_key_command(in->key, can_save_pcap);
    case TUI_IN_CLICK:
        return g ? tui_grid_hit(g, in->x, in->y) : TUI_CMD_NONE;
    case TUI_IN_WHEEL_UP:
        return TUI_CMD_SCROLL_UP;
    case TUI_IN_WHEEL_DOWN:
        return TUI_CMD_SCROLL_DOWN;
    case TUI_IN_RESIZE:
        return TUI_CMD_RESIZE;
    case TUI_IN_NONE:
        break;
    }
    return TUI_CMD_NONE;
}

/* ------------------------------------------------------------------ */
/* Drawing primitives */

typedef struct glyphset {
    uint32_t hline, vline, corner, ytick, xtick, rtick;
    uint32_t point, current, second, errbar;
    uint32_t chan_idle, chan_frame, chan_jam, chan_coll;
    uint32_t cable, cable_sig, cable_jam, cable_coll;
    uint32_t arrow_up, arrow_down;
    uint32_t box_h, box_v, box_tl, box_tr, box_bl, box_br;
    const char *sep;     /* between header fields */
    const char *pm;      /* plus-minus */
    const char *mu;      /* micro sign */
    const char *times;   /* multiplication sign */
    const char *dash;    /* en dash in ranges */
    bool braille;
} glyphset;

static const glyphset glyphs_unicode = {
    0x2500, 0x2502, 0x2514, 0x2524, 0x252C, 0x251C,
    0x25CF, 0x25CB, 0x00D7, 0x2502,
    0x00B7, 0x2588, 0x2592, 0x2573,
    0x2500, 0x2501, 0x2592, 0x2573,
    0x2191, 0x2193,
    0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518,
    " \xe2\x94\x82 ", "\xc2\xb1", "\xc2\xb5", "\xc3\x97", "\xe2\x80\x93", true,
};

static const glyphset glyphs_ascii = {
    '-', '|', '+', '+', '+', '+',
    'o', '+', 'x', '|',
    '.', '=', '#', 'X',
    '-', '=', '#', 'X',
    '^', 'v',
    '-', '|', '+', '+', '+', '+',
    " | ", "+-", "u", "x", "-", false,
};

typedef struct ctx {
    tui_grid *g;
    const tui_snapshot *s;
    const glyphset *gl;
    bool colour;
    bool unicode;
} ctx;

/* Semantic attribute to what is drawn: in monochrome, a few plain ones. */
static uint8_t A(const ctx *c, tui_attr a)
{
    if (c->colour || a < TUI_A_HEADER)
        return (uint8_t)a;
    switch (a) {
    case TUI_A_HEADER:
    case TUI_A_KEY:
        return TUI_A_REVERSE;
    case TUI_A_TITLE:
    case TUI_A_MEASURED:
    case TUI_A_CURRENT:
    case TUI_A_COLLISION:
    case TUI_A_WARN:
        return TUI_A_BOLD;
    case TUI_A_IDLE:
        return TUI_A_DIM;
    default:
        return TUI_A_PLAIN;
    }
}

static void put(ctx *c, int x, int y, uint32_t ch, tui_attr a)
{
    tui_grid *g = c->g;
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return;
    g->cells[y * g->w + x].ch = ch;
    g->cells[y * g->w + x].attr = A(c, a);
}

static void fill(ctx *c, int x, int y, int w, uint32_t ch, tui_attr a)
{
    for (int i = 0; i < w; i++)
        put(c, x + i, y, ch, a);
}

/* Next code point of a UTF-8 string (the strings here are our own). */
static uint32_t utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t cp;
    int n;
    if (s[0] < 0x80) {
        cp = s[0];
        n = 1;
    } else if ((s[0] & 0xE0) == 0xC0) {
        cp = s[0] & 0x1Fu;
        n = 2;
    } else if ((s[0] & 0xF0) == 0xE0) {
        cp = s[0] & 0x0Fu;
        n = 3;
    } else {
        cp = s[0] & 0x07u;
        n = 4;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p += i;
            return '?';
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    *p += n;
    return cp;
}

static int text_width(const char *s)
{
    int w = 0;
    while (*s) {
        utf8_next(&s);
        w++;
    }
    return w;
}

/* Writes at most maxw columns; returns the columns written. */
static int text(ctx *c, int x, int y, int maxw, const char *s, tui_attr a)
{
    int w = 0;
    while (*s && w < maxw) {
        put(c, x + w, y, utf8_next(&s), a);
        w++;
    }
    return w;
}

static int textf(ctx *c, int x, int y, int maxw, tui_attr a, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int textf(ctx *c, int x, int y, int maxw, tui_attr a, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return text(c, x, y, maxw, buf, a);
}

static void hot(ctx *c, int x, int y, int w, tui_command cmd)
{
    tui_grid *g = c->g;
    if (g->n_hot < TUI_HOTSPOTS_MAX && w > 0 && y < g->h && x < g->w)
        g->hot[g->n_hot++] = (tui_hotspot){x, y, w, cmd};
}

/* ------------------------------------------------------------------ */
/* Number formatting: every figure with its unit. */

/* A count in at most 5 columns: 99999, 123k, 1.23M. */
static void fmt_count(uint64_t v, char *buf, size_t len)
{
    if (v < 100000)
        snprintf(buf, len, "%llu", (unsigned long long)v);
    else if (v < 1000000)
        snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000));
    else if (v < 10000000)
        snprintf(buf, len, "%.2fM", (double)v / 1e6);
    else if (v < 100000000)
        snprintf(buf, len, "%.1fM", (double)v / 1e6);
    else if (v < 1000000000)
        snprintf(buf, len, "%lluM", (unsigned long long)(v / 1000000));
    else
        snprintf(buf, len, "%.1fG", (double)v / 1e9);
}

static void fmt_rate(double bps, char *buf, size_t len)
{
    if (bps >= 1e9)
        snprintf(buf, len, "%g Gb/s", bps / 1e9);
    else if (bps >= 1e6)
        snprintf(buf, len, "%g Mb/s", bps / 1e6);
    else
        snprintf(buf, len, "%g kb/s", bps / 1e3);
}

/* A duration in the unit that suits it: 51.2 us, 1.234 ms, 2.500000 s. */
static void fmt_dur(const ctx *c, double s, char *buf, size_t len)
{
    if (s < 1e-3)
        snprintf(buf, len, "%.4g %ss", s * 1e6, c->gl->mu);
    else if (s < 1.0)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.6f s", s);
}

/* Simulated time as a clock: to the microsecond, or to the nanosecond in
 * slow motion and while paused (when a student follows single events). */
static void fmt_clock(const tui_snapshot *s, char *buf, size_t len)
{
    bool fine = s->paused || (s->speed > 0 && s->speed < 1e-3);
    snprintf(buf, len, fine ? "%.9f s" : "%.6f s", s->sim_time_s);
}

static void fmt_speed(const ctx *c, double speed, char *buf, size_t len)
{
    char d[32];
    if (speed <= 0)
        snprintf(buf, len, "full speed");
    else if (fabs(speed - 1.0) < 1e-12)
        snprintf(buf, len, "real time");
    else if (speed > 1.0)
        snprintf(buf, len, "%g%s real time", speed, c->gl->times);
    else {
        fmt_dur(c, speed, d, sizeof d);
        /* "1 us" reads better than "1.00 us" */
        char *dot = strstr(d, ".000");
        if (dot)
            memmove(dot, dot + 4, strlen(dot + 4) + 1);
        snprintf(buf, len, "slow motion: %s per s", d);
    }
}

static const char *state_word(tui_station_state st)
{
    switch (st) {
    case TUI_ST_IDLE:
        return "idle";
    case TUI_ST_DEFER:
        return "defer";
    case TUI_ST_TX:
        return "SEND";
    case TUI_ST_JAM:
        return "JAM";
    case TUI_ST_BACKOFF:
        return "backoff";
    case TUI_ST_BURST:
        return "burst";
    }
    return "?";
}

static char state_letter(tui_station_state st)
{
    switch (st) {
    case TUI_ST_IDLE:
        return 'i';
    case TUI_ST_DEFER:
        return 'd';
    case TUI_ST_TX:
        return 'S';
    case TUI_ST_JAM:
        return 'J';
    case TUI_ST_BACKOFF:
        return 'b';
    case TUI_ST_BURST:
        return 'B';
    }
    return '?';
}

static tui_attr state_attr(tui_station_state st)
{
    switch (st) {
    case TUI_ST_TX:
    case TUI_ST_BURST:
        return TUI_A_FRAME;
    case TUI_ST_JAM:
        return TUI_A_COLLISION;
    case TUI_ST_BACKOFF:
        return TUI_A_BACKOFF;
    case TUI_ST_IDLE:
        return TUI_A_IDLE;
    case TUI_ST_DEFER:
        break;
    }
    return TUI_A_PLAIN;
}

/* ------------------------------------------------------------------ */
/* Header and footer */

static void draw_header(ctx *c)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    char rate[32], right[96], left[3][256], len[48], speed[64];
    const char *sep = c->gl->sep;
    fill(c, 0, 0, w, ' ', TUI_A_HEADER);
    fmt_rate(s->rate_bps, rate, sizeof rate);
    snprintf(len, sizeof len, s->star ? "star hub, %g m drops" : "bus %g m", s->length_m);
    const char *phy = s->phy_name ? s->phy_name : "?";
    const char *tr = s->traffic ? s->traffic : "?";
    const char *pol = s->policy ? s->policy : "?";
    unsigned long long seed = (unsigned long long)s->seed;
    snprintf(left[0], sizeof left[0], " csmacd%s%s %s %s%s%s%s%u-byte frames%sbackoff %s%sseed %llu",
             sep, phy, rate, len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
    snprintf(left[1], sizeof left[1], " csmacd%s%s %s %s%s%s%s%u B%s%s%sseed %llu", sep, phy,
             rate, len, sep, tr, sep, s->frame_bytes, sep, pol, sep, seed);
    snprintf(left[2], sizeof left[2], " %s %s %s%s%s%s%u B%s%s%sseed %llu", phy, rate, len, sep,
             tr, sep, s->frame_bytes, sep, pol, sep, seed);
    fmt_speed(c, s->speed, speed, sizeof speed);
    snprintf(right, sizeof right, "%s ", speed);
    int rw = text_width(right);
    int pw = s->paused ? 8 : 0;
    int room = w - rw - pw - 1;
    const char *l = text_width(left[0]) <= room ? left[0]
                  : text_width(left[1]) <= room ? left[1]
                  : left[2]; /* without the program's name */
    /* Still too long: drop whole fields from the right, never half a one. */
    char cut[256];
    snprintf(cut, sizeof cut, "%s", l);
    while (text_width(cut) > room) {
        char *last = NULL;
        for (char *q = strstr(cut, sep); q; q = strstr(q + 1, sep))
            last = q;
        if (!last)
            break;
        *last = '\0';
    }
    text(c, 0, 0, room, cut, TUI_A_HEADER);
    text(c, w - rw, 0, rw, right, TUI_A_HEADER);
    if (s->paused)
        text(c, w - rw - pw, 0, pw, " PAUSED ", TUI_A_WARN);
}

static void draw_footer(ctx *c)
{
    static const struct {
        const char *key, *what;
        tui_command cmd;
        int prio; /* lower shows first when space is short */
    } items[] = {
        {"?", "help", TUI_CMD_HELP, 0},
        {"space", "pause", TUI_CMD_PAUSE, 0},
        {"s", "step", TUI_CMD_STEP_EVENT, 0},
        {"+", "station", TUI_CMD_MORE_STATIONS, 0},
        {"-", "station", TUI_CMD_FEWER_STATIONS, 0},
        {"<", "slower", TUI_CMD_SLOWER, 0},
        {">", "faster", TUI_CMD_FASTER, 0},
        {"r", "restart", TUI_CMD_RESTART, 1},
        {"c", "save CSV", TUI_CMD_SAVE_CSV, 2},
        {"q", "quit", TUI_CMD_QUIT, 0},
    };
    int y = c->g->h - 1, w = c->g->w;
    fill(c, 0, y, w, ' ', TUI_A_PLAIN);
    /* Drop the least important items until the bar fits. */
    int maxprio = 2;
    for (;;) {
        int need = 0;
        for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
            if (items[i].prio <= maxprio)
                need += text_width(items[i].key) + text_width(items[i].what) + 3;
        if (need <= w || maxprio == 0)
            break;
        maxprio--;
    }
    int x = 0;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        if (items[i].prio > maxprio)
            continue;
        int x0 = x;
        x += text(c, x, y, w - x, items[i].key, TUI_A_KEY);
        x += text(c, x, y, w - x, " ", TUI_A_PLAIN);
        const char *what = items[i].cmd == TUI_CMD_PAUSE && c->s->paused ? "resume" : items[i].what;
        x += text(c, x, y, w - x, what, TUI_A_PLAIN);
        hot(c, x0, y, x - x0, items[i].cmd);
        x += 2;
    }
}

/* ------------------------------------------------------------------ */
/* The plot */

typedef struct plot {
    int x0, y0;      /* top-left of the data area */
    int cols, rows;  /* data area in cells */
    uint8_t *ref, *bar; /* braille dot masks per cell */
    double cmax;     /* right axis: collisions per frame */
    double smin;     /* bottom of the S axis (top is 1) */
} plot;

static double x_frac(const tui_snapshot *s, double n)
{
    double lo = s->n_min, hi = s->n_max;
    if (hi <= lo)
        return 0.5;
    if (n < lo)
        n = lo;
    if (n > hi)
        n = hi;
    if (s->log_x && lo > 0)
        return log(n / lo) / log(hi / lo);
    return (n - lo) / (hi - lo);
}

/* Cell and sub-pixel (braille: 2 per column, 4 per row) coordinates. A
 * value's row is the nearest row, its sub-pixel the middle of that row's
 * dots, so markers, ticks and curves agree. */
static int col_of(const plot *p, const tui_snapshot *s, double n)
{
    return (int)lround(x_frac(s, n) * (p->cols - 1));
}

static int sub_x(const plot *p, double u)
{
    return (int)lround(u * (p->cols - 1) * 2);
}

/* Where an S value sits on the axis [smin, 1], as a fraction. */
static double s_frac(const plot *p, double v)
{
    return (v - p->smin) / (1.0 - p->smin);
}

static int row_of(const plot *p, double v)
{
    if (v < 0)
        v = 0;
    if (v > 1)
        v = 1;
    return (int)lround((1.0 - v) * (p->rows - 1));
}

static int sub_y(const plot *p, double v)
{
    if (v < 0)
        v = 0;
    if (v > 1)
        v = 1;
    int sy = (int)lround((1.0 - v) * (p->rows - 1) * 4) + 1;
    return sy < 0 ? 0 : sy > p->rows * 4 - 1 ? p->rows * 4 - 1 : sy;
}

static const uint8_t braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

static void dot(plot *p, uint8_t *mask, int sx, int sy)
{
    if (sx < 0 || sy < 0 || sx >= p->cols * 2 || sy >= p->rows * 4)
        return;
    mask[(sy / 4) * p->cols + sx / 2] |= braille_bit[sx % 2][sy % 4];
}

static void dot_line(plot *p, uint8_t *mask, int x1, int y1, int x2, int y2)
{
    int dx = abs(x2 - x1), dy = abs(y2 - y1);
    int steps = dx > dy ? dx : dy;
    if (steps == 0) {
        dot(p, mask, x1, y1);
        return;
    }
    for (int i = 0; i <= steps; i++)
        dot(p, mask, x1 + (int)lround((double)(x2 - x1) * i / steps),
            y1 + (int)lround((double)(y2 - y1) * i / steps));
}

/* The ASCII stand-in for a cell of braille dots: where in the cell the
 * dots sit, as ' - . ' strokes. */
static uint32_t ascii_for_mask(uint8_t m)
{
    int rows[4] = {0, 0, 0, 0};
    for (int sx = 0; sx < 2; sx++)
        for (int sy = 0; sy < 4; sy++)
            if (m & braille_bit[sx][sy])
                rows[sy]++;
    int top = rows[0] + rows[1], bottom = rows[2] + rows[3];
    if (top && bottom && rows[0] && rows[3])
        return '|';
    if (rows[0] && !bottom)
        return '\'';
    if (rows[3] && !top)
        return '_';
    if (bottom > top)
        return '.';
    return '-';
}

static double nice_ceil(double v)
{
    static const double steps[] = {1, 2, 5};
    double mag = 1;
    if (v <= 1)
        return 1;
    while (mag * 10 < v)
        mag *= 10;
    for (;;) {
        for (size_t i = 0; i < 3; i++)
            if (steps[i] * mag >= v)
                return steps[i] * mag;
        mag *= 10;
    }
}

static void draw_plot(ctx *c, int px, int py, int pw, int ph)
{
    const tui_snapshot *s = c->s;
    char rate[32], buf[160];
    fmt_rate(s->rate_bps, rate, sizeof rate);

    /* Title row; the right axis is named above its labels. */
    const int lw = 5, rw = 5; /* left labels "0.75 ", right " 1.5" */
    snprintf(buf, sizeof buf, "Throughput S (fraction of %s) vs number of stations N", rate);
    if (text_width(buf) > pw - rw)
        snprintf(buf, sizeof buf, "Throughput S (of %s) vs stations N", rate);
    if (text_width(buf) > pw - rw)
        snprintf(buf, sizeof buf, "Throughput S (of %s) vs N", rate);
    text(c, px, py, pw - rw, buf, TUI_A_TITLE);
    text(c, px + pw - 4, py, 4, c->unicode ? "\xc3\x97/fr" : "x/fr", TUI_A_SECOND);

    /* The legend: as few rows as fit (one on wide plots, else two), with
     * shorter words when even two rows are not enough. */
    struct {
        uint32_t glyph;
        tui_attr attr;
        char what[64];
    } leg[4];
    int n_leg = 0, leg_rows = 1;
    for (int pass = 0; pass < 2; pass++) {
        bool brief = pass == 1;
        n_leg = 0;
        leg[n_leg].glyph = c->gl->point;
        leg[n_leg].attr = TUI_A_MEASURED;
        snprintf(leg[n_leg++].what, sizeof leg[0].what, brief ? "S %s 95%% CI" : "S measured %s 95%% CI",
                 c->gl->pm);
        /* Brief legends pack the two long items with the two short ones. */
        if (brief) {
            leg[n_leg].glyph = c->gl->second;
            leg[n_leg].attr = TUI_A_SECOND;
            snprintf(leg[n_leg++].what, sizeof leg[0].what, "collisions/frame");
        }
        leg[n_leg].glyph = c->gl->current;
        leg[n_leg].attr = TUI_A_CURRENT;
        snprintf(leg[n_leg++].what, sizeof leg[0].what, "measuring");
        if (s->show_ref && s->n_ref > 0) {
            leg[n_leg].glyph = c->gl->braille ? 0x2824 : '-';
            leg[n_leg].attr = TUI_A_REF;
            snprintf(leg[n_leg++].what, sizeof leg[0].what, "%s model",
                     s->ref_label ? s->ref_label : "analytic");
        }
        if (!brief) {
            leg[n_leg].glyph = c->gl->second;
            leg[n_leg].attr = TUI_A_SECOND;
            snprintf(leg[n_leg++].what, sizeof leg[0].what, "collisions/frame (right axis)");
        }
        /* Greedy rows, as drawn below. */
        int lx = 0;
        leg_rows = 1;
        for (int i = 0; i < n_leg; i++) {
            int iw = text_width(leg[i].what) + 2;
            if (lx > 0 && lx + iw > pw) {
                leg_rows++;
                lx = 0;
            }
            lx += iw + 2;
        }
        if (leg_rows <= 2)
            break;
    }
    if (leg_rows > 2)
        leg_rows = 2;

    /* Rows: title, data, axis, ticks, x label, legend. The data rows are
     * trimmed so that every S tick falls exactly on a row: (rows - 1) is
     * a multiple of 1/step, with at least two rows between ticks. */
    plot p = {0};
    int avail = ph - 1 - 3 - leg_rows;
    /* Tick steps that give round labels over the axis [smin, 1]. */
    static const double steps[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5};
    p.smin = s->s_axis_min > 0 && s->s_axis_min < 1 ? s->s_axis_min : 0;
    double range = 1.0 - p.smin;
    double ystep = range;
    p.rows = avail;
    int best = 0;
    /* Prefer two rows or more between ticks; accept one if nothing else. */
    for (int kmin = 2; kmin >= 1 && !best; kmin--) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            int m = (int)lround(range / steps[i]);
            if (m < 2 || m > 10 || fabs(m * steps[i] - range) > 1e-9)
                continue;
            int k = (avail - 1) / m;
            if (k > 5)
                k = 5; /* a tick at least every 5 rows */
            if (k >= kmin && m * k + 1 > best) {
                best = m * k + 1;
                ystep = steps[i];
            }
        }
    }
    if (best)
        p.rows = best;
    p.cols = pw - lw - rw;
    p.x0 = px + lw;
    p.y0 = py + 1 + (avail - p.rows);
    if (p.rows < 3 || p.cols < 8)
        return;

    size_t ncell = (size_t)p.rows * (size_t)p.cols;
    uint8_t *masks = calloc(2 * ncell, 1);
    if (!masks)
        return;
    p.ref = masks;
    p.bar = masks + ncell;

    /* Right axis range: collisions per frame. */
    double cmax = s->has_current ? s->current.coll_per_frame : 0;
    for (size_t i = 0; i < s->n_points; i++)
        if (s->points[i].coll_per_frame > cmax)
            cmax = s->points[i].coll_per_frame;
    p.cmax = nice_ceil(cmax);

    /* Axes. */
    int ax_y = p.y0 + p.rows;
    for (int r = 0; r < p.rows; r++) {
        put(c, p.x0 - 1, p.y0 + r, c->gl->vline, TUI_A_AXIS);
        put(c, p.x0 + p.cols, p.y0 + r, c->gl->vline, TUI_A_AXIS);
    }
    put(c, p.x0 - 1, ax_y, c->gl->corner, TUI_A_AXIS);
    fill(c, p.x0, ax_y, p.cols, c->gl->hline, TUI_A_AXIS);
    put(c, p.x0 + p.cols, ax_y, c->unicode ? 0x2518 : '+', TUI_A_AXIS);

    /* Ticks: S on the left, collisions per frame at the same rows on the
     * right. */
    int m = (int)lround(range / ystep);
    bool two = fabs(ystep * 10 - lround(ystep * 10)) > 1e-9 ||
               fabs(p.smin * 10 - lround(p.smin * 10)) > 1e-9;
    for (int k = 0; k <= m; k++) {
        double f = (double)k / m, v = p.smin + k * ystep;
        int r = row_of(&p, f);
        put(c, p.x0 - 1, p.y0 + r, c->gl->ytick, TUI_A_AXIS);
        textf(c, px, p.y0 + r, lw - 1, TUI_A_AXIS, two ? "%4.2f" : "%4.1f", v);
        put(c, p.x0 + p.cols, p.y0 + r, c->gl->rtick, TUI_A_AXIS);
        /* The right axis is labelled where its values are round: the ends
         * and the middle. */
        if (k == 0 || k == m || 2 * k == m)
            textf(c, p.x0 + p.cols + 1, p.y0 + r, rw - 1, TUI_A_SECOND, "%g", p.cmax * f);
    }

    /* X ticks: powers of two on a log axis, a round step on a linear one. */
    int tick_y = ax_y + 1, last_end = -1;
    double ticks[64];
    int n_ticks = 0;
    if (s->log_x) {
        for (double t = 1; t <= s->n_max && n_ticks < 60; t *= 2)
            if (t >= s->n_min)
                ticks[n_ticks++] = t;
    } else {
        double span = (double)s->n_max - s->n_min, step = 1;
        while (span / step > 8)
            step = step == 1 ? 2 : step == 2 ? 4 : step * 2;
        ticks[n_ticks++] = s->n_min;
        for (double t = step * ceil((s->n_min + 1) / step); t <= s->n_max && n_ticks < 60;
             t += step)
            ticks[n_ticks++] = t;
    }
    if (n_ticks == 0 || ticks[n_ticks - 1] != s->n_max)
        ticks[n_ticks++] = s->n_max;
    for (int i = 0; i < n_ticks; i++) {
        int col = col_of(&p, s, ticks[i]);
        char lab[16];
        snprintf(lab, sizeof lab, "%g", ticks[i]);
        int lwid = (int)strlen(lab);
        int lx = p.x0 + col - (lwid - 1) / 2;
        if (lx <= last_end)
            continue;
        if (lx + lwid > px + pw)
            lx = px + pw - lwid;
        put(c, p.x0 + col, ax_y, c->gl->xtick, TUI_A_AXIS);
        text(c, lx, tick_y, lwid, lab, TUI_A_AXIS);
        last_end = lx + lwid;
    }
    snprintf(buf, sizeof buf, "number of stations N (%s scale)", s->log_x ? "log" : "linear");
    if (text_width(buf) > p.cols)
        snprintf(buf, sizeof buf, "stations N (%s scale)", s->log_x ? "log" : "linear");
    int bw = text_width(buf);
    text(c, p.x0 + (p.cols - bw) / 2, tick_y + 1, p.cols, buf, TUI_A_AXIS);

    /* Legend. */
    int ly = tick_y + 2, lx = px;
    for (int i = 0; i < n_leg; i++) {
        int iw = text_width(leg[i].what) + 2;
        if (lx > px && lx + iw > px + pw) {
            ly++;
            lx = px;
        }
        put(c, lx, ly, leg[i].glyph, leg[i].attr);
        text(c, lx + 2, ly, px + pw - lx - 2, leg[i].what, TUI_A_PLAIN);
        lx += iw + 2;
    }

    /* The reference curve, through its points in axis coordinates. */
    if (s->show_ref && s->n_ref > 1) {
        int px_prev = -1, py_prev = -1;
        for (size_t i = 0; i < s->n_ref; i++) {
            if (s->ref[i].n < s->n_min || s->ref[i].n > s->n_max)
                continue;
            int sx = sub_x(&p, x_frac(s, s->ref[i].n)), sy = sub_y(&p, s_frac(&p, s->ref[i].s));
            if (px_prev >= 0)
                dot_line(&p, p.ref, px_prev, py_prev, sx, sy);
            px_prev = sx;
            py_prev = sy;
        }
    }
    /* Error bars, in the marker's column. */
    size_t np = s->n_points + (s->has_current ? 1 : 0);
    for (size_t i = 0; i < np; i++) {
        const tui_point *pt = i < s->n_points ? &s->points[i] : &s->current;
        int sx = col_of(&p, s, pt->n) * 2;
        dot_line(&p, p.bar, sx, sub_y(&p, s_frac(&p, pt->s - pt->s_ci95)), sx,
                 sub_y(&p, s_frac(&p, pt->s + pt->s_ci95)));
    }
    for (int r = 0; r < p.rows; r++) {
        for (int col = 0; col < p.cols; col++) {
            uint8_t rm = p.ref[r * p.cols + col], bm = p.bar[r * p.cols + col];
            if (!rm && !bm)
                continue;
            if (c->gl->braille)
                put(c, p.x0 + col, p.y0 + r, 0x2800u + (bm ? (uint32_t)(bm | rm) : rm),
                    bm ? TUI_A_MEASURED : TUI_A_REF);
            else
                put(c, p.x0 + col, p.y0 + r, bm ? '|' : ascii_for_mask(rm),
                    bm ? TUI_A_MEASURED : TUI_A_REF);
        }
    }
    free(masks);
    /* Markers: collisions per frame, then S, then the point in progress. */
    for (size_t i = 0; i < np; i++) {
        const tui_point *pt = i < s->n_points ? &s->points[i] : &s->current;
        put(c, p.x0 + col_of(&p, s, pt->n), p.y0 + row_of(&p, pt->coll_per_frame / p.cmax),
            c->gl->second, TUI_A_SECOND);
    }
    for (size_t i = 0; i < np; i++) {
        const tui_point *pt = i < s->n_points ? &s->points[i] : &s->current;
        bool cur = i >= s->n_points;
        put(c, p.x0 + col_of(&p, s, pt->n), p.y0 + row_of(&p, s_frac(&p, pt->s)),
            cur ? c->gl->current : c->gl->point, cur ? TUI_A_CURRENT : TUI_A_MEASURED);
    }
}

/* A table of the measured points, for tall terminals. */
static void draw_points_table(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    if (h < 3)
        return;
    text(c, x, y, w, "Measured points (sorted by N)", TUI_A_TITLE);
    char hdr[160];
    snprintf(hdr, sizeof hdr, "%5s  %6s  %7s  %8s  %10s  %6s  %8s", "N", "S", "95% CI", "Mb/s",
             "coll/frame", "model", "sim time");
    text(c, x, y + 1, w, hdr, TUI_A_AXIS);
    /* Sort indices by N (selection: the sweep has a few dozen points). */
    size_t idx[256];
    size_t n = s->n_points < 256 ? s->n_points : 256;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (s->points[idx[j]].n < s->points[idx[i]].n) {
                size_t t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
    int rows = h - 2;
    size_t first = n > (size_t)rows ? n - (size_t)rows : 0;
    for (size_t k = first; k < n; k++) {
        const tui_point *pt = &s->points[idx[k]];
        char model[16] = "-", dur[32], ci[32];
        if (s->n_ref > 0 && s->show_ref) {
            /* The reference at this N, interpolated. */
            for (size_t i = 0; i + 1 < s->n_ref; i++)
                if (s->ref[i].n <= pt->n && s->ref[i + 1].n >= pt->n) {
                    double f = s->ref[i + 1].n > s->ref[i].n
                                 ? (pt->n - s->ref[i].n) / (s->ref[i + 1].n - s->ref[i].n)
                                 : 0;
                    snprintf(model, sizeof model, "%.3f",
                             s->ref[i].s + f * (s->ref[i + 1].s - s->ref[i].s));
                    break;
                }
        }
        snprintf(dur, sizeof dur, "%.1f s", pt->sim_s);
        snprintf(ci, sizeof ci, "%s%.3f", c->gl->pm, pt->s_ci95);
        char line[200];
        snprintf(line, sizeof line, "%5u  %6.3f  %7s  %8.3f  %10.2f  %6s  %8s", pt->n, pt->s, ci,
                 pt->s * s->rate_bps / 1e6, pt->coll_per_frame, model, dur);
        text(c, x, y + 2 + (int)(k - first), w, line, TUI_A_PLAIN);
    }
    if (n == 0)
        text(c, x, y + 2, w, "(none yet: the first point is being measured)", TUI_A_DIM);
}

/* ------------------------------------------------------------------ */
/* The station table */

static void draw_stations(ctx *c, int x, int y, int w, int h)
{
    const tui_snapshot *s = c->s;
    bool drops = w >= 42, wide = w >= 64;
    int body = h - (wide ? 3 : 5); /* title, header, footer lines */
    if (body < 1)
        return;
    size_t n = s->n_rows;
    size_t first = s->scroll;
    if (n <= (size_t)body)
        first = 0;
    else if (first > n - (size_t)body)
        first = n - (size_t)body;
    size_t shown = n - first < (size_t)body ? n - first : (size_t)body;
    c->g->table_rows = body;

    char title[128];
    if (shown < n)
        snprintf(title, sizeof title, "Stations (N = %u), %zu%s%zu of %zu %s%s",
                 s->n_stations, first + 1, c->gl->dash, first + shown, n,
                 c->unicode ? "\xe2\x86\x91\xe2\x86\x93" : "Up/Dn", wide ? " to scroll" : "");
    else
        snprintf(title, sizeof title, "Stations (N = %u)", s->n_stations);
    text(c, x, y, w, title, TUI_A_TITLE);

    char hdr[160];
    if (wide)
        snprintf(hdr, sizeof hdr, "%4s %-18s %7s %7s %7s %7s %6s", "#", "state", "attempt",
                 "sent OK", "collis.", "dropped", "share");
    else if (drops)
        snprintf(hdr, sizeof hdr, "%3s %-11s %3s %5s %5s %4s %5s", "#", "state", "try", "ok",
                 "coll", "drop", "share");
    else
        snprintf(hdr, sizeof hdr, "%3s %-11s %3s %5s %5s %5s", "#", "state", "try", "ok",
                 "coll", "share");
    text(c, x, y + 1, w, hdr, TUI_A_AXIS);

    for (size_t k = 0; k < shown; k++) {
        const tui_station_row *r = &s->rows[first + k];
        char st[32], ok[16], co[16], dr[16], sh[16], line[200];
        if (r->state == TUI_ST_BACKOFF)
            snprintf(st, sizeof st, wide ? "backoff %llu slots" : "backoff %llu",
                     (unsigned long long)r->backoff_slots_left);
        else
            snprintf(st, sizeof st, "%s", state_word(r->state));
        fmt_count(r->successes, ok, sizeof ok);
        fmt_count(r->collisions, co, sizeof co);
        fmt_count(r->drops, dr, sizeof dr);
        if (r->share >= 0.9995)
            snprintf(sh, sizeof sh, "100%%");
        else
            snprintf(sh, sizeof sh, "%.1f%%", r->share * 100.0);
        char att[16];
        if (r->attempt)
            snprintf(att, sizeof att, "%u", r->attempt);
        else
            snprintf(att, sizeof att, "-");
        int yy = y + 2 + (int)k;
        if (wide) {
            snprintf(line, sizeof line, "%4u %-18s %7s %7s %7s %7s %6s", r->index + 1, "", att,
                     ok, co, dr, sh);
            text(c, x, yy, w, line, TUI_A_PLAIN);
            text(c, x + 5, yy, 18, st, state_attr(r->state));
        } else {
            if (drops)
                snprintf(line, sizeof line, "%3u %-11s %3s %5s %5s %4s %5s", r->index + 1, "",
                         att, ok, co, dr, sh);
            else
                snprintf(line, sizeof line, "%3u %-11s %3s %5s %5s %5s", r->index + 1, "", att,
                         ok, co, sh);
            text(c, x, yy, w, line, TUI_A_PLAIN);
            text(c, x + 4, yy, 11, st, state_attr(r->state));
        }
    }
    char foot[160], jain[16];
    /* Undefined (NAN) until something has been delivered. */
    if (isnan(s->jain))
        snprintf(jain, sizeof jain, "-");
    else
        snprintf(jain, sizeof jain, "%.3f", s->jain);
    if (wide) {
        snprintf(foot, sizeof foot,
                 "Jain fairness %s (1 = equal shares)  capture: run %.1f mean, %llu max",
                 jain, s->capture_mean_run, (unsigned long long)s->capture_max_run);
        text(c, x, y + h - 1, w, foot, TUI_A_PLAIN);
    } else {
        char slot[32];
        fmt_dur(c, s->slot_s, slot, sizeof slot);
        snprintf(foot, sizeof foot, "backoff: slots left, 1 slot = %s", slot);
        text(c, x, y + h - 3, w, foot, TUI_A_DIM);
        snprintf(foot, sizeof foot, "Jain fairness %s (1 = fair)", jain);
        text(c, x, y + h - 2, w, foot, TUI_A_PLAIN);
        snprintf(foot, sizeof foot, "capture run %.1f mean, %llu max", s->capture_mean_run,
                 (unsigned long long)s->capture_max_run);
        text(c, x, y + h - 1, w, foot, TUI_A_PLAIN);
    }
}

/* ------------------------------------------------------------------ */
/* Status line: the run being watched and the sweep */

static void draw_status(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    const char *pm = c->gl->pm;
    char line[320], sweep[200], ev[16];
    fmt_count(s->events, ev, sizeof ev);
    char ci[48] = "";
    if (s->throughput_ci95 >= 0)
        snprintf(ci, sizeof ci, " %s %.3f", pm, s->throughput_ci95);
    snprintf(line, sizeof line,
             "Run with N = %u: S = %.3f%s (%.2f Mb/s), %.2f collisions/frame, "
             "%llu frames dropped, %s events",
             s->n_stations, s->throughput, ci, s->throughput * s->rate_bps / 1e6,
             s->coll_per_frame, (unsigned long long)s->frames_dropped, ev);
    switch (s->phase) {
    case TUI_SWEEP_RUNNING:
        if (s->has_current && s->current.s > 0 && s->current.s_ci95 > 0)
            snprintf(sweep, sizeof sweep,
                     "Point %zu/%zu, N = %u: S = %.3f %s %.3f (%.2f Mb/s), CI %.1f%% of S "
                     "(target %g%%)",
                     s->sweep_index + 1, s->sweep_count, s->current.n, s->current.s, pm,
                     s->current.s_ci95, s->current.s * s->rate_bps / 1e6,
                     100.0 * s->current.s_ci95 / s->current.s, 100.0 * s->target_rel_ci);
        else
            snprintf(sweep, sizeof sweep,
                     "Point %zu/%zu, N = %u: measuring S in batches of simulated time...",
                     s->sweep_index + 1, s->sweep_count, s->n_stations);
        break;
    case TUI_SWEEP_MANUAL:
        if (s->has_current)
            snprintf(sweep, sizeof sweep,
                     "You chose N = %u: S = %.3f %s %.3f (%.2f Mb/s); r restarts the sweep",
                     s->n_stations, s->current.s, pm, s->current.s_ci95,
                     s->current.s * s->rate_bps / 1e6);
        else
            snprintf(sweep, sizeof sweep, "You chose N = %u (measured); r restarts the sweep",
                     s->n_stations);
        break;
    case TUI_SWEEP_DONE:
        snprintf(sweep, sizeof sweep,
                 "Sweep complete: %zu point%s. r restarts, + and - explore other N", s->n_points,
                 s->n_points == 1 ? "" : "s");
        break;
    }
    bool msg = s->message && *s->message;
    if (rows >= 2) {
        text(c, 0, y, w, msg ? s->message : sweep, msg ? TUI_A_WARN : TUI_A_PLAIN);
        text(c, 0, y + 1, w, line, TUI_A_PLAIN);
    } else {
        text(c, 0, y, w, msg ? s->message : sweep, msg ? TUI_A_WARN : TUI_A_PLAIN);
    }
}

/* ------------------------------------------------------------------ */
/* The medium: cable (or hub view) with stations and signals */

static void draw_medium(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    int x0 = 1, cw = w - 2;
    char t[32], title[200];
    fmt_clock(s, t, sizeof t);
    if (s->star)
        snprintf(title, sizeof title, "Hub: what each station hears at t = %s", t);
    else
        snprintf(title, sizeof title, "Bus (%g m): signals at t = %s", s->length_m, t);
    int tw = text(c, 0, y, w, title, TUI_A_TITLE);
    const char *key = "   S send  J jam  b backoff  d defer  i idle";
    if (tw + text_width(key) <= w)
        text(c, tw, y, w - tw, key, TUI_A_DIM);

    int cy = y + rows - 1, my = cy - 1;
    bool numbers = rows >= 4;
    /* The cable: count signals over each column. */
    for (int col = 0; col < cw; col++) {
        double a = (double)col / cw, b = (double)(col + 1) / cw;
        /* Distinct transmitters here: a signal's own pieces (frame and
         * jam, left and right) never make a collision. */
        int nsig = 0;
        uint32_t first = 0;
        bool body = false;
        for (size_t i = 0; i < s->n_spans; i++) {
            const tui_span *sp = &s->spans[i];
            if (!(sp->to > a && sp->from < b))
                continue;
            if (nsig == 0) {
                first = sp->station;
                nsig = 1;
            } else if (sp->station != first) {
                nsig = 2;
            }
            if (!sp->jam)
                body = true;
        }
        int njam = nsig == 1 && !body;
        uint32_t ch = c->gl->cable;
        tui_attr at = TUI_A_IDLE;
        if (nsig >= 2) {
            ch = c->gl->cable_coll;
            at = TUI_A_COLLISION;
        } else if (nsig == 1 && njam == 1) {
            ch = c->gl->cable_jam;
            at = TUI_A_JAM;
        } else if (nsig == 1) {
            ch = c->gl->cable_sig;
            at = TUI_A_FRAME;
        }
        put(c, x0 + col, cy, ch, at);
    }
    /* Stations: one letter each, at its position; numbers when there is
     * room. Several stations in one column: the busiest state wins. */
    int last_num_end = -1;
    for (size_t i = 0; i < s->n_rows; i++) {
        double f = s->station_pos ? s->station_pos[i]
                                  : (s->n_rows > 1 ? (double)i / (double)(s->n_rows - 1) : 0.5);
        int col = (int)lround(f * (cw - 1));
        const tui_station_row *r = &s->rows[i];
        tui_grid *g = c->g;
        int gx = x0 + col;
        if (gx >= 0 && gx < g->w) {
            uint32_t cur = g->cells[my * g->w + gx].ch;
            static const char rank[] = "idbBSJ";
            const char *pc = cur ? strchr(rank, (int)cur) : NULL;
            const char *pn = strchr(rank, state_letter(r->state));
            if (cur != ' ' && cur != 0 && pc && pn && pn < pc)
                continue;
        }
        put(c, gx, my, (uint32_t)state_letter(r->state), state_attr(r->state));
        if (numbers) {
            char num[16];
            snprintf(num, sizeof num, "%u", r->index + 1);
            int nw = (int)strlen(num);
            int nx = gx - (nw - 1) / 2;
            if (nx > last_num_end && nx + nw <= w) {
                text(c, nx, my - 1, nw, num, TUI_A_DIM);
                last_num_end = nx + nw;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* The timeline strip */

static void draw_timeline(ctx *c, int y, int rows)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w;
    int x0 = 1, cw = w - 2;
    size_t n = s->n_timeline < (size_t)cw ? s->n_timeline : (size_t)cw;
    char cell[32], span[32], title[200];
    fmt_dur(c, s->cell_s, cell, sizeof cell);
    fmt_dur(c, s->cell_s * (double)cw, span, sizeof span);
    bool slot = s->slot_s > 0 && fabs(s->cell_s - s->slot_s) < 1e-15;
    snprintf(title, sizeof title, "Channel at the probe, last %s (1 column = %s%s), now %s",
             span, cell, slot ? " = 1 slot" : "",
             c->unicode ? "\xe2\x86\x92|" : "->|");
    text(c, 0, y, w, title, TUI_A_TITLE);
    int strip_rows = rows - 2;
    if (strip_rows < 1)
        strip_rows = 1;
    for (int col = 0; col < cw; col++) {
        /* Right-aligned: the newest cell in the last column. */
        size_t k = (size_t)col + n >= (size_t)cw ? (size_t)col + n - (size_t)cw : SIZE_MAX;
        uint32_t ch = c->gl->chan_idle;
        tui_attr at = TUI_A_IDLE;
        if (k != SIZE_MAX) {
            size_t idx = s->n_timeline - n + k;
            switch ((tui_chan)s->timeline[idx]) {
            case TUI_CHAN_FRAME:
                ch = c->gl->chan_frame;
                at = TUI_A_FRAME;
                break;
            case TUI_CHAN_JAM:
                ch = c->gl->chan_jam;
                at = TUI_A_JAM;
                break;
            case TUI_CHAN_COLLISION:
                ch = c->gl->chan_coll;
                at = TUI_A_COLLISION;
                break;
            case TUI_CHAN_IDLE:
                break;
            }
        }
        for (int r = 0; r < strip_rows; r++)
            put(c, x0 + col, y + 1 + r, ch, at);
    }
    /* Legend. */
    int ly = y + 1 + strip_rows, lx = 1;
    struct {
        uint32_t g;
        tui_attr a;
        const char *what;
    } items[] = {{c->gl->chan_frame, TUI_A_FRAME, "frame"},
                 {c->gl->chan_coll, TUI_A_COLLISION, "collision (2+ signals)"},
                 {c->gl->chan_jam, TUI_A_JAM, "jam (32 bits)"},
                 {c->gl->chan_idle, TUI_A_IDLE, "idle"}};
    for (size_t i = 0; i < 4; i++) {
        put(c, lx, ly, items[i].g, items[i].a);
        lx += 2;
        lx += text(c, lx, ly, w - lx, items[i].what, TUI_A_PLAIN) + 3;
    }
}

/* ------------------------------------------------------------------ */
/* Help overlay */

static void draw_help(ctx *c)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w, h = c->g->h;
    int lines = 0;
    for (size_t i = 0; i < tui_binding_count(); i++) {
        const tui_binding *b = tui_binding_at(i);
        if (b->help && (b->cmd != TUI_CMD_SAVE_PCAP || s->can_save_pcap))
            lines++;
    }
    int bw = w - 8 < 66 ? w - 8 : 66;
    int bh = lines + 6;
    if (bh > h - 2)
        bh = h - 2;
    int bx = (w - bw) / 2, by = (h - bh) / 2;
    for (int r = 0; r < bh; r++)
        fill(c, bx, by + r, bw, ' ', TUI_A_PLAIN);
    put(c, bx, by, c->gl->box_tl, TUI_A_TITLE);
    put(c, bx + bw - 1, by, c->gl->box_tr, TUI_A_TITLE);
    put(c, bx, by + bh - 1, c->gl->box_bl, TUI_A_TITLE);
    put(c, bx + bw - 1, by + bh - 1, c->gl->box_br, TUI_A_TITLE);
    fill(c, bx + 1, by, bw - 2, c->gl->box_h, TUI_A_TITLE);
    fill(c, bx + 1, by + bh - 1, bw - 2, c->gl->box_h, TUI_A_TITLE);
    for (int r = 1; r < bh - 1; r++) {
        put(c, bx, by + r, c->gl->box_v, TUI_A_TITLE);
        put(c, bx + bw - 1, by + r, c->gl->box_v, TUI_A_TITLE);
    }
    text(c, bx + 2, by, bw - 4, " Help: keys ", TUI_A_TITLE);
    int y = by + 1;
    for (size_t i = 0; i < tui_binding_count() && y < by + bh - 3; i++) {
        const tui_binding *b = tui_binding_at(i);
        if (!b->help || (b->cmd == TUI_CMD_SAVE_PCAP && !s->can_save_pcap))
            continue;
        text(c, bx + 2, y, 10, b->key_label, TUI_A_KEY);
        text(c, bx + 13, y, bw - 15, b->help, TUI_A_PLAIN);
        y++;
    }
    text(c, bx + 2, by + bh - 3, bw - 4,
         "Mouse: click a key in the bottom bar, wheel scrolls the table.", TUI_A_DIM);
    text(c, bx + 2, by + bh - 2, bw - 4,
         "Changing load, frame size, PHY or policy starts a new sweep.", TUI_A_DIM);
}

/* ------------------------------------------------------------------ */

static void draw_too_small(ctx *c)
{
    int w = c->g->w, h = c->g->h;
    char l1[96], l2[96];
    snprintf(l1, sizeof l1, "Terminal too small: %dx%d", w, h);
    snprintf(l2, sizeof l2, "csmacd needs at least %dx%d.", TUI_MIN_W, TUI_MIN_H);
    const char *l3 = "Enlarge the window, or press q to quit.";
    const char *lines[3] = {l1, l2, l3};
    int y0 = h / 2 - 1;
    if (y0 < 0)
        y0 = 0;
    for (int i = 0; i < 3; i++) {
        int lw = text_width(lines[i]);
        int x = lw >= w ? 0 : (w - lw) / 2;
        text(c, x, y0 + i, w, lines[i], i == 0 ? TUI_A_WARN : TUI_A_PLAIN);
    }
}

void tui_render(const tui_snapshot *s, const tui_render_opts *o, tui_grid *g)
{
    ctx c = {g, s, o->glyphs == TUI_GLYPHS_UNICODE ? &glyphs_unicode : &glyphs_ascii, o->colour,
             o->glyphs == TUI_GLYPHS_UNICODE};
    for (int i = 0; i < g->w * g->h; i++)
        g->cells[i] = (tui_cell){' ', TUI_A_PLAIN};
    g->n_hot = 0;
    g->table_rows = 0;
    if (g->w < TUI_MIN_W || g->h < TUI_MIN_H) {
        draw_too_small(&c);
        return;
    }
    int W = g->w, H = g->h;
    /* Vertical budget: header, footer, status, medium, timeline; the rest
     * is the plot and the table. Tall terminals get thicker strips. */
    int status_rows = H >= 30 ? 2 : 1;
    int medium_rows = H >= 36 ? 4 : 3;
    int timeline_rows = H >= 44 ? 4 : 3;
    int top_y = 1;
    int top_h = H - 2 - status_rows - medium_rows - timeline_rows;
    int plot_w = W >= 120 ? W * 55 / 100 : W - 44;

    draw_header(&c);
    /* Tall: the plot takes about 2/3, a table of points the rest. */
    int plot_h = top_h;
    if (top_h >= 36) {
        plot_h = top_h * 2 / 3;
        draw_points_table(&c, 0, top_y + plot_h + 1, plot_w, top_h - plot_h - 1);
    }
    draw_plot(&c, 0, top_y, plot_w, plot_h);
    for (int r = 0; r < top_h; r++)
        put(&c, plot_w, top_y + r, c.gl->vline, TUI_A_DIM);
    int table_x = plot_w + 2;
    int table_w = W - table_x;
    draw_stations(&c, table_x, top_y, table_w, top_h);
    int y = top_y + top_h;
    draw_status(&c, y, status_rows);
    y += status_rows;
    draw_medium(&c, y, medium_rows);
    y += medium_rows;
    draw_timeline(&c, y, timeline_rows);
    draw_footer(&c);
    if (s->show_help)
        draw_help(&c);
}
