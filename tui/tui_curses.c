/* tui_curses.c - the only file in csmacd that includes <curses.h>.
 *
 * It turns tui_grid cells into curses cells and curses input into
 * tui_input, and nothing else: what the screen shows is decided by the
 * layout (tui_layout.h), what a key does by the program. Drawing goes through
 * curses' own screen diff (wnoutrefresh/doupdate), so a frame in which
 * little changed costs little on the wire.
 */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include "tui_curses.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

struct tui_term {
    SCREEN *screen;
    bool colour;
    bool unicode;
    bool mouse;
    attr_t attr[TUI_A_COUNT]; /* curses attributes per tui_attr */
    short pair[TUI_A_COUNT];  /* colour pair per tui_attr (0 = none) */
};

/* The last-resort restore state (see tui_curses.h): written once by
 * tui_term_open before the screen changes, read by a signal handler. */
static struct {
    volatile int armed;
    struct termios tio;
    char seq[256];
    size_t seq_len;
} emergency;

static void emergency_append(const char *s)
{
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (emergency.seq_len + n < sizeof emergency.seq) {
        memcpy(emergency.seq + emergency.seq_len, s, n);
        emergency.seq_len += n;
    }
}

void tui_term_emergency_restore(void)
{
    if (!emergency.armed)
        return;
    emergency.armed = 0;
    ssize_t r = write(STDOUT_FILENO, emergency.seq, emergency.seq_len);
    (void)r;
    tcsetattr(STDIN_FILENO, TCSANOW, &emergency.tio);
}

static void set_style(tui_term *t, tui_attr a, short fg, short bg, attr_t extra)
{
    short pair = (short)(a + 1);
    if (t->colour && init_pair(pair, fg, bg) == OK)
        t->pair[a] = pair;
    t->attr[a] = extra;
}

static void setup_styles(tui_term *t)
{
    /* Monochrome meanings first; colours, when available, are added on
     * top. Every one of these must read on a dark and on a light
     * background: hence default foregrounds for text and saturated
     * colours only for the data. */
    t->attr[TUI_A_PLAIN] = A_NORMAL;
    t->attr[TUI_A_BOLD] = A_BOLD;
    t->attr[TUI_A_REVERSE] = A_REVERSE;
    t->attr[TUI_A_DIM] = A_DIM;
    t->attr[TUI_A_UNDERLINE] = A_UNDERLINE;
    if (!t->colour)
        return;
    set_style(t, TUI_A_HEADER, COLOR_BLACK, COLOR_CYAN, A_NORMAL);
    set_style(t, TUI_A_TITLE, COLOR_CYAN, -1, A_BOLD);
    set_style(t, TUI_A_AXIS, -1, -1, A_NORMAL);
    set_style(t, TUI_A_MEASURED, -1, -1, A_BOLD);
    set_style(t, TUI_A_CURRENT, COLOR_YELLOW, -1, A_BOLD);
    set_style(t, TUI_A_REF, COLOR_CYAN, -1, A_NORMAL);
    set_style(t, TUI_A_SECOND, COLOR_MAGENTA, -1, A_BOLD);
    set_style(t, TUI_A_FRAME, COLOR_GREEN, -1, A_BOLD);
    set_style(t, TUI_A_COLLISION, COLOR_RED, -1, A_BOLD);
    set_style(t, TUI_A_JAM, COLOR_YELLOW, -1, A_NORMAL);
    set_style(t, TUI_A_IDLE, -1, -1, A_DIM);
    set_style(t, TUI_A_BACKOFF, COLOR_YELLOW, -1, A_NORMAL);
    set_style(t, TUI_A_KEY, COLOR_BLACK, COLOR_WHITE, A_BOLD);
    set_style(t, TUI_A_WARN, COLOR_WHITE, COLOR_RED, A_BOLD);
    /* Collision domains: colours the channel's (green, red, yellow) do
     * not use, so a signal on a segment still reads as what it is. */
    set_style(t, TUI_A_DOMAIN0, COLOR_BLUE, -1, A_BOLD);
    set_style(t, TUI_A_DOMAIN1, COLOR_MAGENTA, -1, A_BOLD);
    set_style(t, TUI_A_DOMAIN2, COLOR_CYAN, -1, A_NORMAL);
    set_style(t, TUI_A_DOMAIN3, COLOR_WHITE, -1, A_BOLD);
}

int tui_term_open(const tui_term_options *opt, tui_term **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(err, errlen, "the TUI needs a terminal on standard input and output");
        return -1;
    }
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* labels and CSV keep their '.' */
    const char *cs = nl_langinfo(CODESET);
    bool utf8 = cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);

    tui_term *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (tcgetattr(STDIN_FILENO, &emergency.tio) != 0) {
        free(t);
        snprintf(err, errlen, "the TUI needs a terminal on standard input");
        return -1;
    }
    const char *term = getenv("TERM");
    t->screen = newterm(term && *term ? term : "xterm", stdout, stdin);
    if (!t->screen) {
        free(t);
        snprintf(err, errlen, "cannot use the terminal (TERM=%s)", term ? term : "");
        return -1;
    }
    set_term(t->screen);
    /* A terminal that cannot move the cursor (TERM=dumb, a printing
     * terminal) would show a blank screen: refused as an unknown one is. */
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1 || tigetflag("hc") > 0) {
        endwin();
        delscreen(t->screen);
        free(t);
        snprintf(err, errlen, "cannot use the terminal (TERM=%s): it cannot move the cursor",
                 term ? term : "");
        return -1;
    }
    /* What to send if we die without endwin: leave the alternate screen,
     * normal cursor, plain attributes, no mouse reports. */
    emergency.seq_len = 0;
    emergency_append(tigetstr("sgr0"));
    emergency_append(tigetstr("cnorm"));
    emergency_append(tigetstr("rmcup"));
    emergency_append("\033[?1000l\033[?1002l\033[?1006l\r\n");
    emergency.armed = 1;

    t->unicode = utf8;
    t->colour = opt->colour && has_colors();
    if (t->colour) {
        start_color();
        use_default_colors();
    }
    setup_styles(t);
    cbreak(); /* not raw: Ctrl-C still sends SIGINT, which the program catches */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    if (opt->mouse) {
        mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(0);
        t->mouse = true;
    }
    *out = t;
    return 0;
}

void tui_term_close(tui_term *t)
{
    if (!t)
        return;
    if (t->mouse)
        mousemask(0, NULL);
    curs_set(1);
    endwin();
    delscreen(t->screen);
    emergency.armed = 0;
    fflush(stdout);
    free(t);
}

tui_glyphs tui_term_glyphs(const tui_term *t)
{
    return t->unicode ? TUI_GLYPHS_UNICODE : TUI_GLYPHS_ASCII;
}

bool tui_term_colour(const tui_term *t)
{
    return t->colour;
}

void tui_term_size(const tui_term *t, int *w, int *h)
{
    (void)t;
    *w = COLS;
    *h = LINES;
}

void tui_term_draw(tui_term *t, const tui_grid *g)
{
    int rows = g->h < LINES ? g->h : LINES;
    int cols = g->w < COLS ? g->w : COLS;
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            const tui_cell *c = &g->cells[y * g->w + x];
            unsigned a = c->attr < TUI_A_COUNT ? c->attr : TUI_A_PLAIN;
            /* The bottom-right cell: writing it scrolls some terminals. */
            if (y == LINES - 1 && x == COLS - 1)
                continue;
            if (t->unicode) {
                wchar_t wc[2] = {(wchar_t)c->ch, 0};
                cchar_t cc;
                setcchar(&cc, wc, t->attr[a], t->pair[a], NULL);
                mvadd_wch(y, x, &cc);
            } else {
                chtype ch = c->ch < 0x80 ? (chtype)c->ch : (chtype)'?';
                mvaddch(y, x, ch | t->attr[a] | COLOR_PAIR(t->pair[a]));
            }
        }
    }
    wnoutrefresh(stdscr);
    doupdate();
}

void tui_term_read(tui_term *t, int timeout_ms, tui_input *out)
{
    memset(out, 0, sizeof *out);
    timeout(timeout_ms < 0 ? 0 : timeout_ms);
    wint_t wch;
    int r = get_wch(&wch);
    if (r == ERR)
        return;
    if (r == KEY_CODE_YES) {
        switch (wch) {
        case KEY_RESIZE:
            out->kind = TUI_IN_RESIZE;
            return;
        case KEY_MOUSE: {
            MEVENT ev;
            if (!t->mouse || getmouse(&ev) != OK)
                return;
            if (ev.bstate & BUTTON4_PRESSED)
                out->kind = TUI_IN_WHEEL_UP;
            else if (ev.bstate & BUTTON5_PRESSED)
                out->kind = TUI_IN_WHEEL_DOWN;
            else if (ev.bstate & BUTTON1_PRESSED) {
                out->kind = TUI_IN_CLICK;
                out->x = ev.x;
                out->y = ev.y;
            }
            return;
        }
        case KEY_UP:
            out->key = TUI_KEY_UP;
            break;
        case KEY_DOWN:
            out->key = TUI_KEY_DOWN;
            break;
        case KEY_PPAGE:
            out->key = TUI_KEY_PGUP;
            break;
        case KEY_NPAGE:
            out->key = TUI_KEY_PGDN;
            break;
        case KEY_F(1):
            out->key = TUI_KEY_F1;
            break;
        default:
            return;
        }
        out->kind = TUI_IN_KEY;
        return;
    }
    out->kind = TUI_IN_KEY;
    out->key = wch == 27 ? TUI_KEY_ESC : (int)wch;
}
