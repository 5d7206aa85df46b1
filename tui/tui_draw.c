/* tui_draw.c - the drawing primitives every region of the screen uses:
 * glyph sets, cells with clipping, UTF-8 text, clickable stretches, and the
 * formatting of figures with their units. Pure functions of their
 * arguments; the only data are the two const glyph sets.
 */
#include "tui_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const glyphset tui_glyphs_unicode = {
    0x2500, 0x2502, 0x2514, 0x2524, 0x252C, 0x251C,
    0x25CF, 0x25CB,
    0x00B7, 0x2588, 0x2592, 0x2573,
    0x2500, 0x2501, 0x2592, 0x2573,
    0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518,
    " \xe2\x94\x82 ", "\xc2\xb1", "\xc2\xb5", "\xc3\x97", "\xe2\x80\x93", true,
};

const glyphset tui_glyphs_ascii = {
    '-', '|', '+', '+', '+', '+',
    'o', '+',
    '.', '=', '#', 'X',
    '-', '=', '#', 'X',
    '-', '|', '+', '+', '+', '+',
    " | ", "+-", "u", "x", "-", false,
};

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
    case TUI_A_DOMAIN0: /* monochrome: the domain's letter tells it */
    case TUI_A_DOMAIN1:
    case TUI_A_DOMAIN2:
    case TUI_A_DOMAIN3:
        return TUI_A_BOLD;
    default:
        return TUI_A_PLAIN;
    }
}

void tui_put(ctx *c, int x, int y, uint32_t ch, tui_attr a)
{
    tui_grid *g = c->g;
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return;
    g->cells[y * g->w + x].ch = ch;
    g->cells[y * g->w + x].attr = A(c, a);
}

void tui_fill(ctx *c, int x, int y, int w, uint32_t ch, tui_attr a)
{
    for (int i = 0; i < w; i++)
        tui_put(c, x + i, y, ch, a);
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

int tui_text_width(const char *s)
{
    int w = 0;
    while (*s) {
        utf8_next(&s);
        w++;
    }
    return w;
}

/* Writes at most maxw columns; returns the columns written. */
int tui_text(ctx *c, int x, int y, int maxw, const char *s, tui_attr a)
{
    int w = 0;
    while (*s && w < maxw) {
        tui_put(c, x + w, y, utf8_next(&s), a);
        w++;
    }
    return w;
}

int tui_textf(ctx *c, int x, int y, int maxw, tui_attr a, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tui_text(c, x, y, maxw, buf, a);
}

void tui_hot(ctx *c, int x, int y, int w, tui_command cmd)
{
    tui_grid *g = c->g;
    if (g->n_hot < TUI_HOTSPOTS_MAX && w > 0 && y < g->h && x < g->w)
        g->hot[g->n_hot++] = (tui_hotspot){x, y, w, cmd};
}

/* ------------------------------------------------------------------ */
/* Number formatting: every figure with its unit. */

/* A count in at most 5 columns: 99999, 123k, 1.23M. */
void tui_fmt_count(uint64_t v, char *buf, size_t len)
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

void tui_fmt_rate(double bps, char *buf, size_t len)
{
    if (bps >= 1e9)
        snprintf(buf, len, "%g Gb/s", bps / 1e9);
    else if (bps >= 1e6)
        snprintf(buf, len, "%g Mb/s", bps / 1e6);
    else
        snprintf(buf, len, "%g kb/s", bps / 1e3);
}

/* A duration in the unit that suits it: 51.2 us, 1.234 ms, 2.500000 s. */
void tui_fmt_dur(const ctx *c, double s, char *buf, size_t len)
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
void tui_fmt_clock(const tui_snapshot *s, char *buf, size_t len)
{
    bool fine = s->paused || (s->speed > 0 && s->speed < 1e-3);
    snprintf(buf, len, fine ? "%.9f s" : "%.6f s", s->sim_time_s);
}

void tui_fmt_speed(const ctx *c, double speed, char *buf, size_t len)
{
    char d[32];
    if (speed <= 0)
        snprintf(buf, len, "full speed");
    else if (fabs(speed - 1.0) < 1e-12)
        snprintf(buf, len, "real time");
    else if (speed > 1.0)
        snprintf(buf, len, "%g%s real time", speed, c->gl->times);
    else {
        tui_fmt_dur(c, speed, d, sizeof d);
        /* "1 us" reads better than "1.00 us" */
        char *dot = strstr(d, ".000");
        if (dot)
            memmove(dot, dot + 4, strlen(dot + 4) + 1);
        snprintf(buf, len, "slow motion: %s per s", d);
    }
}

const char *tui_state_word(tui_station_state st)
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

char tui_state_letter(tui_station_state st)
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

tui_attr tui_state_attr(tui_station_state st)
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

char tui_domain_letter(uint32_t d)
{
    /* 64, as many as a network has segments (NET_MAX_SEGMENTS): a switch
     * of 64 links has 64 domains. The last two are signs the drawing
     * does not use for anything else. */
    static const char letters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789&$";
    return d < sizeof letters - 1 ? letters[d] : '?';
}

tui_attr tui_domain_attr(uint32_t d)
{
    return (tui_attr)(TUI_A_DOMAIN0 + d % 4);
}

void tui_queue_bar(uint32_t len, uint32_t cap, int width, bool unicode, uint32_t *out)
{
    if (width < 1)
        return;
    if (cap == 0)
        cap = 1;
    if (len > cap)
        len = cap;
    int unit = unicode ? 8 : 1; /* steps per cell */
    uint64_t total = (uint64_t)width * (uint64_t)unit;
    /* rounded up: one frame in a large queue still shows */
    uint64_t fill = ((uint64_t)len * total + cap - 1) / cap;
    for (int i = 0; i < width; i++) {
        uint64_t here = fill > (uint64_t)i * (uint64_t)unit ? fill - (uint64_t)i * (uint64_t)unit : 0;
        if (here >= (uint64_t)unit)
            out[i] = unicode ? 0x2588 : '#';
        else if (here == 0)
            out[i] = ' ';
        else /* U+258F is one eighth, U+2589 seven */
            out[i] = 0x2590 - (uint32_t)here;
    }
}
