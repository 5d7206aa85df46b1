/* test_tui_layout.c - pins the TUI's screen as a pure function of a
 * snapshot (tui/tui_layout.c), without a terminal.
 *
 * Golden grids (tests/tui/golden/NAME.txt: the text, then the attribute
 * codes) for a hand-made snapshot at 80x24 and 200x60, in Unicode and
 * ASCII, with colour and with NO_COLOR's monochrome attributes, with the
 * help overlay over a scrolled 40-station table, with the S axis zoomed in
 * (marked cut), 64 stations at 80x24 (the bus numbered as a scale, every
 * 5th, said in its title), and for a terminal that is too small. To accept a deliberate
 * change of the layout, run the test with CSMACD_UPDATE_GOLDEN=1 and
 * review the diff of the golden files.
 * Besides the goldens, properties that must hold whatever the layout:
 * every figure's unit and the axis names are on screen, ASCII mode emits
 * 7-bit characters only, monochrome mode uses only the five plain
 * attributes, rendering is deterministic, clicks on the footer map to their
 * commands, every footer command has a key, and the pcap key disappears
 * (from the keys and the help) when the program cannot write pcap; lost
 * frames in run's three words, never one sum; "measuring" and what it
 * needs before an interval exists; collisions per frame in their own
 * panel, off the S plot; the cut axis marked, and unmarked at 0 .. 1; the
 * capture-effect note exactly when its rule holds (evidence: enough
 * frames, a CI wholly above the model curve on screen) and naming that
 * evidence; more stations than columns said in the bus title; the help
 * naming the save folder and --save-dir; a network of segments drawn one
 * line each, every station, joint, label and signal where its place says
 * (test_network); a bridge port's queue as a bar, the domains' letters and
 * colours (test_queue_bar), a switch's links in two rows each with each
 * domain's letter and colour, the ports' boxes and queue labels, in colour
 * and monochrome (test_bridges_full), one row each in columns at 80x24
 * and the run's line with bridges (test_bridges_compact); the time view's
 * bars, axes, one-link line and swap mark (test_time_view).
 * It does not test curses (tui_curses.c) or the program's driver: the tmux
 * test (tests/tui/tui_tmux.sh) does that end to end.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_layout.h"
#include "tui_model.h"

#ifndef CSMACD_TUI_GOLDEN_DIR
#error "CSMACD_TUI_GOLDEN_DIR must name tests/tui/golden"
#endif

/* ------------------------------------------------------------------ */
/* The fixture: a sweep of 10base5 half done, N = 11 being measured. */

#define FX_POINT(n_, s_, ci_, cpf_)                                                          \
    {.n = n_, .s = s_, .s_ci95 = ci_, .coll_per_frame = cpf_, .sim_s = 1.2}
static tui_point fx_points[] = {
    FX_POINT(1, 0.962, 0.0005, 0.00), FX_POINT(2, 0.959, 0.002, 0.04),
    FX_POINT(3, 0.956, 0.002, 0.07),  FX_POINT(4, 0.954, 0.003, 0.10),
    FX_POINT(6, 0.948, 0.003, 0.16),  FX_POINT(8, 0.941, 0.004, 0.24),
};
static tui_ref_point fx_ref[64];
static tui_station_row fx_rows[64];
static double fx_pos[64];
static tui_span fx_spans[3];
static uint8_t fx_tl[TUI_TIMELINE_MAX];

static void fx_build(tui_snapshot *s, size_t n_rows)
{
    memset(s, 0, sizeof *s);
    s->phy_name = "10base5";
    s->rate_bps = 10e6;
    s->length_m = 500;
    s->traffic = "saturated";
    s->frame_bytes = 512;
    s->policy = "beb";
    s->seed = 1;
    s->slot_s = 51.2e-6;
    s->phase = TUI_SWEEP_RUNNING;
    s->n_min = 1;
    s->n_max = 64;
    s->log_x = true;
    s->sweep_index = 6;
    s->sweep_count = 12;
    s->points = fx_points;
    s->n_points = sizeof fx_points / sizeof fx_points[0];
    s->has_current = true;
    s->current = (tui_point){.n = 11, .s = 0.934, .s_ci95 = 0.006, .coll_per_frame = 0.33,
                             .sim_s = 0.8};
    s->target_rel_ci = 0.02;
    s->batches = 7;
    s->min_batches = 10;
    s->batch_s = 0.1048576;
    s->measuring = true;
    /* Metcalfe-Boggs with 160 bits of overhead, 512-byte frames. */
    for (int i = 0; i < 64; i++) {
        double q = pow(64.0, i / 63.0);
        double a = q > 1 ? pow(1 - 1 / q, q - 1) : 1.0;
        fx_ref[i] = (tui_ref_point){q, 4096.0 / (4096.0 + 160.0 + (1 - a) / a * 512.0)};
    }
    s->ref = fx_ref;
    s->n_ref = 64;
    s->show_ref = true;
    s->ref_label = "Metcalfe-Boggs";
    s->n_stations = (uint32_t)n_rows;
    s->sim_time_s = 0.8123456;
    s->events = 123456;
    s->throughput = 0.933;
    s->throughput_ci95 = 0.006;
    s->offered_load = 1.2;
    s->coll_per_frame = 0.33;
    s->jain = 0.803;
    s->capture_mean_run = 29.0;
    s->capture_max_run = 178;
    /* Three counters of lost frames, each with its own word on screen. */
    s->frames_aborted = 44;
    s->frames_late_discarded = 0;
    s->frames_dropped = 3;
    static const tui_station_state st[] = {TUI_ST_DEFER,   TUI_ST_TX,    TUI_ST_BACKOFF,
                                           TUI_ST_JAM,     TUI_ST_BACKOFF, TUI_ST_DEFER,
                                           TUI_ST_IDLE,    TUI_ST_BACKOFF};
    for (size_t i = 0; i < n_rows && i < 64; i++) {
        fx_rows[i] = (tui_station_row){.index = (uint32_t)i,
                                       .state = st[i % 8],
                                       .attempt = (uint32_t)(i % 4) + 1,
                                       .backoff_slots_left = 3 * i + 1,
                                       .successes = 180 + 7 * i,
                                       .collisions = 120 + 5 * i,
                                       .aborted = i == 5 ? 1 : 0,
                                       .dropped = i == 2 ? 3 : 0,
                                       .share = 1.0 / (double)n_rows};
        fx_pos[i] = n_rows > 1 ? (double)i / (double)(n_rows - 1) : 0.5;
    }
    s->rows = fx_rows;
    s->n_rows = n_rows;
    s->station_pos = fx_pos;
    /* Station 2's frame, station 4's jam overlapping it: a collision. */
    fx_spans[0] = (tui_span){0.05, 0.30, false, 1};
    fx_spans[1] = (tui_span){0.25, 0.45, true, 3};
    s->spans = fx_spans;
    s->n_spans = 2;
    for (size_t i = 0; i < TUI_TIMELINE_MAX; i++) {
        size_t k = i % 23;
        fx_tl[i] = k < 8    ? TUI_CHAN_FRAME
                 : k < 9    ? TUI_CHAN_IDLE
                 : k < 11   ? TUI_CHAN_COLLISION
                 : k < 12   ? TUI_CHAN_JAM
                            : TUI_CHAN_IDLE;
    }
    s->timeline = fx_tl;
    s->n_timeline = TUI_TIMELINE_MAX;
    s->cell_s = 51.2e-6;
    s->speed = 1.0;
    s->can_save_pcap = true;
    s->save_dir = "/home/teacher/csmacd-lab";
}

/* ------------------------------------------------------------------ */

static char *render_text(const tui_snapshot *s, int w, int h, tui_glyphs gl, bool colour,
                         char **attrs, tui_grid *keep)
{
    tui_grid g;
    assert_int_equal(tui_grid_init(&g, w, h), 0);
    tui_render_opts o = {gl, colour};
    tui_render(s, &o, &g);
    size_t n = tui_grid_text(&g, NULL, 0);
    char *t = malloc(n + 1);
    assert_non_null(t);
    assert_int_equal(tui_grid_text(&g, t, n + 1), n);
    if (attrs) {
        size_t m = tui_grid_attrs(&g, NULL, 0);
        *attrs = malloc(m + 1);
        assert_non_null(*attrs);
        tui_grid_attrs(&g, *attrs, m + 1);
    }
    if (keep)
        *keep = g;
    else
        tui_grid_free(&g);
    return t;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

/* Compares text + attributes with tests/tui/golden/NAME.txt. */
static void golden(const char *name, const tui_snapshot *s, int w, int h, tui_glyphs gl,
                   bool colour)
{
    char *attrs = NULL;
    char *text = render_text(s, w, h, gl, colour, &attrs, NULL);
    size_t len = strlen(text) + strlen(attrs) + 64;
    char *got = malloc(len);
    assert_non_null(got);
    snprintf(got, len, "%s--- attributes ---\n%s", text, attrs);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", CSMACD_TUI_GOLDEN_DIR, name);
    const char *upd = getenv("CSMACD_UPDATE_GOLDEN");
    if (upd && *upd) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(got, f);
        assert_int_equal(fclose(f), 0);
    }
    char *want = slurp(path);
    if (!want)
        fail_msg("%s: missing (run with CSMACD_UPDATE_GOLDEN=1 to create it)", path);
    if (strcmp(got, want) != 0) {
        /* Show the first differing line. */
        const char *a = got, *b = want;
        int line = 1;
        while (*a && *a == *b) {
            if (*a == '\n')
                line++;
            a++;
            b++;
        }
        print_error("%s differs from the rendering at line %d\n--- got:\n%s\n", path, line,
                    got);
        free(want);
        free(got);
        free(text);
        free(attrs);
        fail();
    }
    free(want);
    free(got);
    free(text);
    free(attrs);
}

static void test_golden_80x24(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    golden("80x24-unicode-colour", &s, 80, 24, TUI_GLYPHS_UNICODE, true);
    golden("80x24-ascii-colour", &s, 80, 24, TUI_GLYPHS_ASCII, true);
    golden("80x24-unicode-nocolour", &s, 80, 24, TUI_GLYPHS_UNICODE, false);
    /* Zoomed in: the S axis from 0.8 to 1. */
    s.s_axis_min = 0.8;
    golden("80x24-zoomed", &s, 80, 24, TUI_GLYPHS_UNICODE, true);
}

static void test_golden_200x60(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 11);
    golden("200x60-unicode-colour", &s, 200, 60, TUI_GLYPHS_UNICODE, true);
    golden("200x60-ascii-nocolour", &s, 200, 60, TUI_GLYPHS_ASCII, false);
}

static void test_golden_help_and_scroll(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 40);
    s.show_help = true;
    s.scroll = 20;
    s.paused = true;
    s.speed = 1e-6;
    golden("100x30-help-paused", &s, 100, 30, TUI_GLYPHS_UNICODE, true);
}

static void test_too_small(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    golden("79x24-too-small", &s, 79, 24, TUI_GLYPHS_UNICODE, true);
    /* Down to one cell, nothing breaks and the message is cut, not lost. */
    static const int sizes[][2] = {{80, 23}, {40, 10}, {10, 3}, {1, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *t = render_text(&s, sizes[i][0], sizes[i][1], TUI_GLYPHS_ASCII, false, NULL, NULL);
        if (sizes[i][0] >= 40)
            assert_non_null(strstr(t, "Terminal too small"));
        free(t);
    }
}

/* Labels a student needs, whatever the size. */
static void test_labels_and_units(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {200, 60}, {300, 80}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tui_snapshot s;
        fx_build(&s, 16);
        char *t = render_text(&s, sizes[i][0], sizes[i][1], TUI_GLYPHS_UNICODE, true, NULL, NULL);
        assert_non_null(strstr(t, "Throughput S"));
        assert_non_null(strstr(t, "Mb/s"));
        assert_non_null(strstr(t, "stations N"));
        assert_non_null(strstr(t, "log scale"));
        assert_non_null(strstr(t, "Metcalfe-Boggs"));
        assert_non_null(strstr(t, "95% CI"));
        assert_non_null(strstr(t, "collisions/frame"));
        assert_non_null(strstr(t, "Stations (N = 16)"));
        assert_non_null(strstr(t, "Jain fairness"));
        assert_non_null(strstr(t, "capture"));
        assert_non_null(strstr(t, "t = 0.812346 s"));
        assert_non_null(strstr(t, "1 slot"));
        assert_non_null(strstr(t, "\xc2\xb5s")); /* the slot in microseconds */
        assert_non_null(strstr(t, "collision"));
        assert_non_null(strstr(t, "q quit"));
        assert_non_null(strstr(t, "? help"));
        free(t);
    }
}

/* Groups: a group column in the station table, and each group's share
 * (the grown group starred), at the smallest size and a large one;
 * without groups, neither. */
/* Every word of a text appears in the screen, in order (a wrapped
 * message puts them on several lines). */
static void words_in_order(const char *screen, const char *text)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", text);
    const char *at = screen;
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
        const char *f = strstr(at, w);
        if (!f)
            fail_msg("'%s' is missing after: %.80s", w, at);
        at = f + strlen(w);
    }
}

/* A long status message (a step told in words, a save naming its folder)
 * is wrapped over the lines it needs, never cut: at 120x40 and at 80x24;
 * at 120 columns the run's line keeps its events and Mb/s. */
static void test_status_not_cut(void **state)
{
    (void)state;
    static const char msg[] =
        "t = 2.375777 ms: station 5 detects a collision (station 4's signal reached it) and "
        "jams; station 2's deference ends; it starts sending (attempt 6); meanwhile station "
        "5's frame reaches station 3, station 4's jam reaches station 2 and 3 more";
    static const int sizes[][2] = {{120, 40}, {80, 24}};
    for (size_t i = 0; i < 2; i++) {
        tui_snapshot s;
        fx_build(&s, 8);
        /* At 80 columns, three lines' worth. */
        char m[sizeof msg];
        snprintf(m, sizeof m, "%s", msg);
        if (i == 1)
            m[strrchr(m, ';') - m] = '\0';
        s.message = m;
        char *t = render_text(&s, sizes[i][0], sizes[i][1], TUI_GLYPHS_UNICODE, true, NULL, NULL);
        words_in_order(t, m);
        assert_non_null(strstr(t, i == 0 ? "and 3 more" : "(attempt 6)"));
        assert_null(strstr(t, "..."));
        if (i == 0) {
            assert_non_null(strstr(t, "Run with N = 8: S = "));
            assert_non_null(strstr(t, " events; "));
        }
        assert_non_null(strstr(t, "Bus (500 m)")); /* the regions below stay */
        free(t);
    }
    /* Without a message, the run's line at 120 columns keeps everything
     * but its longest words. */
    tui_snapshot s;
    fx_build(&s, 8);
    char *t = render_text(&s, 120, 40, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "Run with N = 8: S = "));
    assert_non_null(strstr(t, " Mb/s), "));
    assert_non_null(strstr(t, " events; "));
    free(t);
}

/* The try column gives the attempt under way (or next) as an ordinal,
 * never as a count of attempts made: 1st, 2nd, 3rd, 4th, 11th, 16th. */
static void test_try_ordinal(void **state)
{
    (void)state;
    static const uint32_t attempts[] = {1, 2, 3, 4, 11, 16, 0, 22};
    static const char *const want[] = {" 1st ", " 2nd ", " 3rd ", " 4th ", "11th ",
                                       "16th ", "    - ", "22nd "};
    tui_snapshot s;
    fx_build(&s, 8);
    tui_station_row rows[8];
    memcpy(rows, s.rows, sizeof rows);
    for (size_t k = 0; k < 8; k++)
        rows[k].attempt = attempts[k];
    s.rows = rows;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, " try "));
    for (size_t k = 0; k < 8; k++) {
        char head[16];
        snprintf(head, sizeof head, "\xe2\x94\x82   %zu ", k + 1);
        const char *row = strstr(t, head);
        assert_non_null(row);
        const char *eol = strchr(row, '\n');
        const char *hit = strstr(row, want[k]);
        if (!hit || hit > eol)
            fail_msg("station %zu: no '%s' in %.60s", k + 1, want[k], row);
    }
    free(t);
}

static void test_groups(void **state)
{
    /* (The narrow form, "groups: rogue 100%, good* 0%", is for a table
     * too narrow for the counts; both sizes here have room.) */
    (void)state;
    static const tui_group groups[] = {{"rogue", 1, 1.0, false, "none", "saturated", 512},
                                       {"good", 15, 0.0, true, "beb", "poisson G=0.30", 64}};
    static const int sizes[][2] = {{80, 24}, {200, 60}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tui_snapshot s;
        fx_build(&s, 16);
        char *plain = render_text(&s, sizes[i][0], sizes[i][1], TUI_GLYPHS_UNICODE, true, NULL,
                                  NULL);
        assert_null(strstr(plain, "group"));
        free(plain);
        tui_station_row rows[16];
        memcpy(rows, s.rows, sizeof rows);
        for (size_t k = 0; k < 16; k++)
            rows[k].group = k == 0 ? "rogue" : "good";
        s.rows = rows;
        s.groups = groups;
        s.n_groups = 2;
        char *t = render_text(&s, sizes[i][0], sizes[i][1], TUI_GLYPHS_UNICODE, true, NULL, NULL);
        assert_non_null(strstr(t, " group "));
        assert_non_null(strstr(t, "   1 rogue "));
        assert_non_null(strstr(t, "share by group: rogue (1) 100%, good* (15) 0%"));
        /* The header shows the groups, not the scenario's own traffic,
         * frames and policy (each group has its own). */
        char head[1024];
        snprintf(head, sizeof head, "%.*s", (int)strcspn(t, "\n"), t);
        assert_null(strstr(head, "512-byte frames"));
        assert_null(strstr(head, "backoff"));
        assert_null(strstr(head, "saturated \xe2\x94\x82"));
        assert_non_null(strstr(head, i == 0 ? "rogue 1, good* 15 \xe2\x94\x82 seed 1"
                                            : "rogue (1): none, saturated, 512 B \xe2\x94\x82 good* "
                                              "(15): beb, poisson G=0.30, 64 B \xe2\x94\x82 seed 1"));
        free(t);
    }
}

static void test_ascii_and_mono(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 40);
    s.show_help = true;
    char *attrs = NULL;
    char *t = render_text(&s, 120, 40, TUI_GLYPHS_ASCII, false, &attrs, NULL);
    for (const unsigned char *p = (const unsigned char *)t; *p; p++)
        assert_true(*p < 0x80);
    for (const char *p = attrs; *p; p++)
        assert_non_null(strchr(".brdu\n", *p));
    free(t);
    free(attrs);
}

static void test_deterministic(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 33);
    char *a1, *a2;
    char *t1 = render_text(&s, 137, 51, TUI_GLYPHS_UNICODE, true, &a1, NULL);
    char *t2 = render_text(&s, 137, 51, TUI_GLYPHS_UNICODE, true, &a2, NULL);
    assert_string_equal(t1, t2);
    assert_string_equal(a1, a2);
    free(t1);
    free(t2);
    free(a1);
    free(a2);
}

static void test_clicks_and_keys(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    tui_grid g;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, &g);
    free(t);
    assert_true(g.n_hot > 0);
    bool quit = false, pause = false;
    for (int i = 0; i < g.n_hot; i++) {
        const tui_hotspot *h = &g.hot[i];
        assert_int_equal(h->y, 23); /* the footer */
        tui_command c = tui_grid_hit(&g, h->x + h->w - 1, h->y);
        assert_int_equal(c, h->cmd);
        quit |= c == TUI_CMD_QUIT;
        pause |= c == TUI_CMD_PAUSE;
        /* Every command offered by click has a key too. */
        bool bound = false;
        for (size_t k = 0; k < tui_binding_count(); k++)
            bound |= tui_binding_at(k)->cmd == c;
        assert_true(bound);
    }
    assert_true(quit && pause);
    assert_int_equal(tui_grid_hit(&g, 40, 5), TUI_CMD_NONE);
    tui_input in = {TUI_IN_CLICK, 0, g.hot[0].x, g.hot[0].y};
    assert_int_equal(tui_input_command(&in, &g, true), g.hot[0].cmd);
    tui_grid_free(&g);

    assert_int_equal(tui_key_command('q', true), TUI_CMD_QUIT);
    assert_int_equal(tui_key_command(' ', true), TUI_CMD_PAUSE);
    assert_int_equal(tui_key_command('+', true), TUI_CMD_MORE_STATIONS);
    assert_int_equal(tui_key_command('s', true), TUI_CMD_STEP_EVENT);
    assert_int_equal(tui_key_command('?', true), TUI_CMD_HELP);
    assert_int_equal(tui_key_command(TUI_KEY_ESC, true), TUI_CMD_CLOSE);
    assert_int_equal(tui_key_command('w', true), TUI_CMD_SAVE_PCAP);
    assert_int_equal(tui_key_command('w', false), TUI_CMD_NONE);
    assert_int_equal(tui_key_command('Z', true), TUI_CMD_NONE);
    tui_input wheel = {TUI_IN_WHEEL_DOWN, 0, 0, 0};
    assert_int_equal(tui_input_command(&wheel, NULL, true), TUI_CMD_SCROLL_DOWN);
    tui_input rs = {TUI_IN_RESIZE, 0, 0, 0};
    assert_int_equal(tui_input_command(&rs, NULL, true), TUI_CMD_RESIZE);
    /* A key per command of the model, except the resize (not a key). */
    for (int c = TUI_CMD_PAUSE; c < TUI_CMD_COUNT; c++) {
        if (c == TUI_CMD_RESIZE)
            continue;
        bool bound = false;
        for (size_t k = 0; k < tui_binding_count(); k++)
            bound |= tui_binding_at(k)->cmd == (tui_command)c;
        if (!bound)
            fail_msg("command %d has no key", c);
    }
}

static void test_help_without_pcap(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.show_help = true;
    char *t = render_text(&s, 100, 40, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "pcap"));
    assert_non_null(strstr(t, "save the plot data (CSV)"));
    free(t);
    s.can_save_pcap = false;
    t = render_text(&s, 100, 40, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_null(strstr(t, "pcap"));
    assert_non_null(strstr(t, "save the plot data (CSV)"));
    free(t);
}

/* The row of t that starts with `head` (at a line start), or NULL. */
static const char *row_starting(const char *t, const char *head)
{
    size_t n = strlen(head);
    for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, head, n) == 0)
            return p;
    return NULL;
}

/* Points land where their values say, S in the upper panel and collisions
 * per frame as a bar in the lower one, each on its own axis. */
static void test_plot_geometry(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.n_points = 0;
    s.has_current = true;
    s.current = (tui_point){.n = 64, .s = 0.5, .s_ci95 = -1, .coll_per_frame = 1.0, .sim_s = 1};
    s.show_ref = false;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    /* At 80x24 the plot is 33 columns (the station table takes 45): labels
     * in 0-3, the axis in 4, data in 5-31 (N = 64, the right end, in 31),
     * the table's rule in 33. */
    const char *row = row_starting(t, " 0.5+");
    assert_non_null(row);
    assert_int_equal(row[31], '+'); /* the point being measured */
    assert_int_equal(row[33], '|');
    for (int x = 5; x < 31; x++)
        assert_int_equal(row[x], ' ');
    /* One collision per frame: the collision panel's axis runs 0 .. 1 and
     * the bar fills both its rows in the point's column. */
    const char *top = row_starting(t, "   1+"), *foot = row_starting(t, "   0+");
    assert_non_null(top);
    assert_non_null(foot);
    assert_true(top > row && foot == strchr(top, '\n') + 1);
    assert_int_equal(top[31], '|');
    assert_int_equal(foot[31], '|');
    /* Nothing of collisions in the S panel's data columns: only its marker. */
    const char *s_top = row_starting(t, " 1.0+");
    assert_non_null(s_top);
    for (const char *r = s_top; r < top - 81; r = strchr(r, '\n') + 1)
        for (int x = 5; x < 31; x++)
            assert_int_equal(r[x], ' ');
    free(t);
}

/* Zoomed, the axis runs from its floor to 1 and points move with it. */
static void test_zoom_geometry(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.n_points = 0;
    s.show_ref = false;
    s.has_current = true;
    s.current = (tui_point){.n = 64, .s = 0.8, .sim_s = 1.0};
    s.s_axis_min = 0.6;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\n 1.0+"));
    assert_non_null(strstr(t, "\n 0.6+"));
    assert_null(strstr(t, "\n 0.0+"));
    /* S = 0.8 is halfway up: on the row labelled 0.8. */
    char *row = strstr(t, "\n 0.8+");
    assert_non_null(row);
    char *eol = strchr(row + 1, '\n');
    assert_non_null(memchr(row + 6, '+', (size_t)(eol - row - 6)));
    free(t);
}

/* One word per counter, as `csmacd run` says it: aborted (16 collisions),
 * late-discarded, dropped (queue full), never one sum called "dropped". */
static void test_vocabulary(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 11);
    char *t = render_text(&s, 200, 60, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "aborted late-disc. dropped"));
    assert_non_null(strstr(t, "frames 44 aborted, 0 late-discarded, 3 dropped (queue full)"));
    assert_null(strstr(t, "47")); /* the old sum, 44 + 0 + 3, nowhere */
    free(t);
    fx_build(&s, 8);
    t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, " abort share"));
    assert_non_null(strstr(t, "lost: 44 aborted (after 16 collisions),"));
    assert_non_null(strstr(t, "0 late-discarded, 3 dropped (queue full)"));
    assert_null(strstr(t, "drop "));
    free(t);
}

/* Before an interval exists the screen says "measuring" and what it still
 * needs, never "+/- 0.000". */
static void test_measuring(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.current.s = 0.846;
    s.current.s_ci95 = -1; /* one batch: no interval */
    s.throughput_ci95 = -1;
    s.batches = 1;
    char *t = render_text(&s, 200, 60, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(
        strstr(t, "Point 7/12, N = 8: measuring; S = 0.846 so far, a CI after 1 more batch"));
    assert_non_null(strstr(t, "S = 0.933 (no CI yet)"));
    assert_null(strstr(t, "\xc2\xb1 0.000"));
    free(t);
    s.has_current = false; /* not even one batch past the warm-up */
    t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "measuring; S after 2 batches of 104.858 ms (1 warm-up)"));
    free(t);
    s.phase = TUI_SWEEP_MANUAL;
    s.has_current = true;
    t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "You chose N = 8: measuring; S = 0.846 so far"));
    free(t);
}

/* The bus row keeps its numbers at 80x24: every station when they fit,
 * else the first and the last and as many between as leave a gap. */
static void test_bus_numbers(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\n 1          2          3          4          5          6"
                              "          7          8 \n"));
    free(t);
    fx_build(&s, 64);
    golden("80x24-64-stations", &s, 80, 24, TUI_GLYPHS_UNICODE, true);
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    const char *row = row_starting(t, " 1 ");
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    assert_true(eol - row == 80);
    assert_memory_equal(eol - 3, " 64", 3); /* the last station, at the right end */
    /* A scale, never a number that seems missing: 1, every multiple of 5,
     * and 64 at the end; the title says so. */
    char nums[96] = "";
    size_t k = 0;
    for (const char *p = row; p < eol; p++)
        if (*p >= '0' && *p <= '9')
            nums[k++] = *p;
        else if (k > 0 && nums[k - 1] != ' ')
            nums[k++] = ' ';
    nums[k] = '\0';
    assert_string_equal(nums, "1 5 10 15 20 25 30 35 40 45 50 55 60 64");
    assert_non_null(strstr(t, "Bus (500 m): signals at t = 0.812346 s (every 5th numbered)"));
    free(t);
    /* Every station numbered when they fit: no scale in the title. */
    fx_build(&s, 8);
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_null(strstr(t, " numbered)"));
    free(t);
}

/* More stations than columns: a column stands for several, and the title
 * says how many at most; the numbers keep their scale. */
static void test_bus_crowded(void **state)
{
    (void)state;
    static tui_station_row rows[200];
    static double pos[200];
    tui_snapshot s;
    fx_build(&s, 8);
    for (uint32_t i = 0; i < 200; i++) {
        rows[i] = (tui_station_row){.index = i, .state = TUI_ST_IDLE};
        pos[i] = i / 199.0;
    }
    s.rows = rows;
    s.n_rows = 200;
    s.n_stations = 200;
    s.station_pos = pos;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "Bus (500 m): signals at t = 0.812346 s (up to 3 per column, every 20th numbered)"));
    const char *row = row_starting(t, " 1 ");
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    char nums[96] = "";
    size_t k = 0;
    for (const char *p = row; p < eol; p++)
        if (*p >= '0' && *p <= '9')
            nums[k++] = *p;
        else if (k > 0 && nums[k - 1] != ' ')
            nums[k++] = ' ';
    nums[k] = '\0';
    assert_string_equal(nums, "1 20 40 60 80 100 120 140 160 180 200");
    free(t);
    /* 1024 stations: the title gives up "signals" for the scale. */
    static tui_station_row many[1024];
    static double mpos[1024];
    for (uint32_t i = 0; i < 1024; i++) {
        many[i] = (tui_station_row){.index = i, .state = TUI_ST_IDLE};
        mpos[i] = i / 1023.0;
    }
    s.rows = many;
    s.n_rows = s.n_stations = 1024;
    s.station_pos = mpos;
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nBus at t = 0.812346 s (up to 14 per column, every 100th numbered)"));
    free(t);
}

/* A zoomed S axis is marked as cut: the break under its lowest label and
 * the range in the title. Unzoomed, no such mark. */
static void test_cut_axis(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.s_axis_min = 0.8;
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "S axis cut: 0.80\xe2\x80\x93" "1 (of 10 Mb/s)"));
    assert_non_null(strstr(t, "\n 0.8\xe2\x94\xa4"));
    assert_non_null(strstr(t, "\n cut\xe2\x89\x88 collisions/frame"));
    free(t);
    t = render_text(&s, 200, 60, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "; S axis cut: 0.80-1"));
    assert_non_null(strstr(t, "\n cut~ "));
    free(t);
    s.s_axis_min = 0;
    t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_null(strstr(t, "cut"));
    assert_non_null(strstr(t, "\n 0.0\xe2\x94\xa4"));
    free(t);
}

/* The capture effect is named when, and only when, the rule of
 * tui_layout.h holds, and the note names its evidence and the curve it is
 * compared with. Each condition alone turns the note off: the model's
 * curve hidden or absent, too few batches for the interval, an interval
 * reaching down to the model, too few frames, a share of the bits not
 * beyond one half by its interval, Jain's index at 0.5. The case of the
 * issue (three stations, 4 frames at t = 2 ms, 100 % of the bits, Jain
 * 0.33, no interval yet) names nothing. */
static void test_capture_note(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    for (size_t i = 0; i < 8; i++)
        fx_rows[i].share = i == 2 ? 0.8 : 0.2 / 7;
    s.jain = 0.31;
    s.current = (tui_point){.n = 8, .s = 0.95, .s_ci95 = 0.006, .sim_s = 1.0};
    s.batches = 10; /* = min_batches */
    s.capture_mean_run = 29.0;
    /* 1636 frames: share 0.8 with runs of 29 gives 0.8 - 0.133 > 0.5. */
    tui_capture e;
    assert_true(tui_capture_effect(&s, &e));
    assert_int_equal(e.top, 2);
    assert_true(e.share == 0.8);
    assert_int_equal(e.n, 8);
    assert_int_equal(e.frames, 8 * 180 + 7 * 28);
    assert_true(e.s == 0.95 && e.s_ci95 == 0.006);
    assert_true(fabs(e.model - 0.81) < 0.01); /* Metcalfe-Boggs at N = 8 */
    char want[200];
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "Capture effect: S 0.950\xc2\xb1" "0.006, above"));
    snprintf(want, sizeof want, "Metcalfe-Boggs's %.3f at N = 8;", e.model);
    assert_non_null(strstr(t, want));
    assert_non_null(strstr(t, "station 3 sent 80% of bits, Jain 0.31"));
    free(t);
    t = render_text(&s, 200, 60, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_non_null(strstr(t, "Capture effect: S = 0.950 \xc2\xb1 0.006 (95% CI) at N = 8,"));
    snprintf(want, sizeof want, "above the Metcalfe-Boggs curve's %.3f (the model on the plot);",
             e.model);
    assert_non_null(strstr(t, want));
    assert_non_null(strstr(t, "station 3 sent 80% of the bits, Jain 0.31, over 1636 frames"));
    assert_non_null(strstr(t, "Metcalfe-Boggs")); /* the legend names the same curve */
    free(t);
    /* Once measuring is over, the recorded point at N is the evidence. */
    s.measuring = false;
    s.has_current = false;
    tui_point done[] = {{.n = 8, .s = 0.94, .s_ci95 = 0.004}};
    s.points = done;
    s.n_points = 1;
    assert_true(tui_capture_effect(&s, &e));
    assert_true(e.s == 0.94);
    done[0].s_ci95 = -1; /* recorded without an interval */
    assert_false(tui_capture_effect(&s, &e));
    s.measuring = true;
    s.has_current = true;

    /* Each condition alone turns the note off. */
    s.show_ref = false;
    assert_false(tui_capture_effect(&s, &e));
    s.show_ref = true;
    s.n_ref = 0; /* no model (not saturated traffic): nothing to be above */
    assert_false(tui_capture_effect(&s, &e));
    s.n_ref = 64;
    s.batches = 9;
    assert_false(tui_capture_effect(&s, &e));
    s.batches = 10;
    s.current.s_ci95 = -1;
    assert_false(tui_capture_effect(&s, &e));
    s.current.s_ci95 = 0.95 - e.model + 0.001; /* the interval reaches the model */
    assert_false(tui_capture_effect(&s, &e));
    s.current.s_ci95 = 0.006;
    s.current.n = 11; /* the point measured is another N */
    assert_false(tui_capture_effect(&s, &e));
    s.current.n = 8;
    s.capture_mean_run = 300; /* runs this long: 0.8 is not beyond 0.5 */
    assert_false(tui_capture_effect(&s, &e));
    s.capture_mean_run = 29;
    fx_rows[2].share = 0.5;
    assert_false(tui_capture_effect(&s, &e));
    fx_rows[2].share = 0.8;
    s.jain = 0.5;
    assert_false(tui_capture_effect(&s, &e));
    s.jain = NAN;
    assert_false(tui_capture_effect(&s, &e));
    s.jain = 0.31;
    for (size_t i = 0; i < 8; i++)
        fx_rows[i].successes = 124; /* 992 frames */
    assert_false(tui_capture_effect(&s, &e));
    fx_rows[0].successes = 132; /* 1000 */
    assert_true(tui_capture_effect(&s, &e));

    /* The issue's case: 3 stations, 4 frames, station 1 with every bit. */
    fx_build(&s, 3);
    fx_rows[0].share = 1.0;
    fx_rows[1].share = fx_rows[2].share = 0;
    fx_rows[0].successes = 4;
    fx_rows[1].successes = fx_rows[2].successes = 0;
    s.jain = 1.0 / 3;
    s.throughput = 0.99;
    s.has_current = false;
    s.batches = 0;
    s.current = (tui_point){.n = 3, .s_ci95 = -1};
    assert_false(tui_capture_effect(&s, &e));
    t = render_text(&s, 200, 60, TUI_GLYPHS_UNICODE, true, NULL, NULL);
    assert_null(strstr(t, "Capture effect"));
    free(t);
}

/* The help says where c and w write and how to choose the folder; a long
 * path keeps its end. */
static void test_help_files(void **state)
{
    (void)state;
    tui_snapshot s;
    fx_build(&s, 8);
    s.show_help = true;
    char *t = render_text(&s, 100, 40, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "c and w save into /home/teacher/csmacd-lab"));
    assert_non_null(strstr(t, "(folder chosen with csmacd tui --save-dir DIR)"));
    free(t);
    /* 80x24: every key and the folder on one line. */
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "c and w save into /home/teacher/csmacd-lab (--save-dir DIR)"));
    assert_non_null(strstr(t, "q          quit"));
    free(t);
    s.save_dir = "/a/very/long/path/that/goes/on/and/on/to/the/classroom/folder/lab-3";
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "folder/lab-3 (--save-dir DIR)"));
    assert_non_null(strstr(t, "c and w save into ..."));
    free(t);
}

/* A network of three segments, by hand: backbone (coax 500 m: station 1
 * at its left end, station 2 at its middle, where lab's uplink joins it,
 * and repeater r1 at its right end), lab (a hub: stations 3 and 4 and the
 * uplink's port) and annex (coax 300 m: r1's port at 0 m, station 5 in the
 * middle). On backbone station 1's frame covers 0 .. 0.3; on annex r1
 * relays a jam over 0 .. 0.4 (a collision elsewhere, travelling) while
 * station 5's frame covers 0.3 .. 0.6: a collision where they overlap. */
static const tui_joint net_j_backbone[] = {{"uplink", "lab", 0.5, TUI_NO_BRIDGE, 0},
                                           {"r1", "annex", 1.0, TUI_NO_BRIDGE, 0}};
static const tui_joint net_j_lab[] = {{"uplink", "backbone", 1.0, TUI_NO_BRIDGE, 0}};
static const tui_joint net_j_annex[] = {{"r1", "backbone", 0.0, TUI_NO_BRIDGE, 0}};
static const tui_span net_sp_backbone[] = {{0.0, 0.3, false, 0}};
static const tui_span net_sp_annex[] = {{0.0, 0.4, true, TUI_SPAN_JOINT | 0},
                                        {0.3, 0.6, false, 4}};
static tui_segment net_segs[5];
static tui_station_row net_rows[5];
static double net_pos[5];

static void net_build(tui_snapshot *s)
{
    fx_build(s, 5);
    static const char *seg_name[] = {"backbone", "backbone", "lab", "lab", "annex"};
    static const uint32_t seg_of[] = {0, 0, 1, 1, 2};
    static const double pos[] = {0.0, 0.5, 0.0, 0.5, 0.5};
    static const tui_station_state st[] = {TUI_ST_TX, TUI_ST_DEFER, TUI_ST_BACKOFF, TUI_ST_IDLE,
                                           TUI_ST_TX};
    for (uint32_t i = 0; i < 5; i++) {
        net_rows[i] = (tui_station_row){.index = i, .state = st[i], .segment = seg_name[i],
                                        .seg = seg_of[i], .share = 0.2};
        net_pos[i] = pos[i];
    }
    net_segs[0] = (tui_segment){"backbone",      false, 500,   2, net_j_backbone, 2,
                                net_sp_backbone, 1,     false, false, 0};
    net_segs[1] = (tui_segment){"lab", true, 100, 2, net_j_lab, 1, NULL, 0, false, false, 0};
    net_segs[2] = (tui_segment){"annex", false, 300, 1, net_j_annex, 1, net_sp_annex, 2,
                                false,   false, 0};
    s->rows = net_rows;
    s->n_rows = 5;
    s->n_stations = 5;
    s->station_pos = net_pos;
    s->segments = net_segs;
    s->n_segments = 3;
    s->probe_segment = "backbone";
}

/* One line per segment at 80x24 (the channel strip gives its rows), each
 * thing where its place says: the label column is 11 wide (the longest of
 * the names and "coax 500 m", and a blank), the drawing 68 columns, a
 * place p at column 11 + round(67 p). */
static void test_network(void **state)
{
    (void)state;
    tui_snapshot s;
    net_build(&s);
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nNetwork (3 segments): signals at t = 0.812346 s"));
    assert_null(strstr(t, "Channel at")); /* no room at 80x24: the segments come first */
    assert_null(strstr(t, "Bus (500 m)"));
    const char *bb = row_starting(t, "backbone   ");
    assert_non_null(bb);
    const char *bc = strchr(bb, '\n') + 1;
    assert_memory_equal(bc, "coax 500 m ", 11);
    /* backbone: station 1 sending at the left end, station 2 deferring in
     * the middle; the uplink's joint there too, r1's at the right end,
     * each labelled with where it leads. */
    assert_int_equal(bb[11], 'S');
    assert_int_equal(bb[45], 'd');
    /* the label a blank after the letter: never "duplink" */
    assert_memory_equal(bb + 46, " uplink>lab ", 12);
    assert_memory_equal(bb + 70, "r1>annex", 8);
    assert_int_equal(bc[45], '+');
    assert_int_equal(bc[78], '+');
    /* station 1's frame over 0 .. 0.3: columns 0 .. 20 of the drawing */
    for (int x = 11; x <= 31; x++)
        assert_int_equal(bc[x], '=');
    for (int x = 32; x < 78; x++)
        assert_int_equal(bc[x], x == 45 ? '+' : '-');
    /* lab: a hub, its two stations and the uplink's port spread evenly */
    const char *lb = row_starting(t, "lab        ");
    assert_non_null(lb);
    assert_memory_equal(strchr(lb, '\n') + 1, "hub 100 m  ", 11);
    assert_int_equal(lb[11], 'b');
    assert_int_equal(lb[45], 'i');
    assert_int_equal(strchr(lb, '\n')[1 + 78], '+');
    /* annex: r1's jam over 0 .. 0.4 (columns 0 .. 27), station 5's frame
     * over 0.3 .. 0.6 (columns 20 .. 40): jam, collision, frame, idle */
    const char *ab = row_starting(t, "annex      ");
    assert_non_null(ab);
    const char *ac = strchr(ab, '\n') + 1;
    assert_memory_equal(ac, "coax 300 m ", 11);
    assert_int_equal(ac[11], '+'); /* r1's joint */
    assert_memory_equal(ab + 12, "r1>backbone", 11);
    assert_int_equal(ab[45], 'S');
    for (int x = 12; x <= 30; x++)
        assert_int_equal(ac[x], '#');
    for (int x = 31; x <= 38; x++)
        assert_int_equal(ac[x], 'X');
    for (int x = 39; x <= 51; x++)
        assert_int_equal(ac[x], '=');
    for (int x = 52; x < 79; x++)
        assert_int_equal(ac[x], '-');
    /* the station table names each station's segment */
    assert_non_null(strstr(t, " segm. "));
    assert_non_null(strstr(t, "  5 annex S"));
    free(t);

    /* Unicode: the joint a cross in the cable; one sender's frame and jam
     * never collide (r1 relaying a frame that turns into jam). */
    static const tui_span one[] = {{0.0, 0.2, true, TUI_SPAN_JOINT | 0},
                                   {0.2, 0.4, false, TUI_SPAN_JOINT | 0}};
    net_segs[2].spans = one;
    t = render_text(&s, 80, 24, TUI_GLYPHS_UNICODE, false, NULL, NULL);
    assert_null(strstr(t, "\xe2\x95\xb3")); /* no collision anywhere */
    assert_non_null(strstr(t, "r1\xe2\x86\x92" "backbone"));
    assert_non_null(strstr(t, "coax 300 m \xe2\x94\xbc\xe2\x96\x92"));
    free(t);

    /* Larger: the channel strip is back, at the first segment's probe. */
    net_build(&s);
    t = render_text(&s, 160, 50, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nChannel at backbone's probe, last "));
    assert_non_null(row_starting(t, "backbone "));
    assert_non_null(row_starting(t, "annex "));
    free(t);

    /* More segments than room: as many as fit, and the title says so. */
    net_segs[3] = (tui_segment){"east", false, 100, 0, NULL, 0, NULL, 0, false, false, 0};
    net_segs[4] = (tui_segment){"west", false, 100, 0, NULL, 0, NULL, 0, false, false, 0};
    s.n_segments = 5;
    t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nNetwork (3 of 5 segments shown) at t = 0.812346 s"));
    assert_null(row_starting(t, "east "));
    free(t);
    t = render_text(&s, 160, 50, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(row_starting(t, "west "));
    free(t);
}

/* ------------------------------------------------------------------ */
/* Bridges: collision domains, bridge ports and their queues. */

/* A bridge port's queue as a bar: eighths of a cell, rounded up so one
 * frame shows; full fills every cell; ASCII '#' per cell. */
static void test_queue_bar(void **state)
{
    (void)state;
    uint32_t b[4];
    tui_queue_bar(0, 64, 4, true, b);
    for (int i = 0; i < 4; i++)
        assert_int_equal(b[i], ' ');
    tui_queue_bar(1, 64, 4, true, b); /* 1/64 of 32 eighths = 0.5: one eighth */
    assert_int_equal(b[0], 0x258F);
    assert_int_equal(b[1], ' ');
    tui_queue_bar(32, 64, 4, true, b); /* half: two full cells */
    assert_int_equal(b[0], 0x2588);
    assert_int_equal(b[1], 0x2588);
    assert_int_equal(b[2], ' ');
    tui_queue_bar(3, 4, 4, true, b); /* 24 eighths: three cells */
    assert_int_equal(b[2], 0x2588);
    assert_int_equal(b[3], ' ');
    tui_queue_bar(5, 64, 4, true, b); /* 5 * 32 / 64 = 2.5: three eighths */
    assert_int_equal(b[0], 0x258D);
    tui_queue_bar(64, 64, 4, true, b);
    for (int i = 0; i < 4; i++)
        assert_int_equal(b[i], 0x2588);
    tui_queue_bar(99, 64, 4, true, b); /* more than the size: full, no more */
    assert_int_equal(b[3], 0x2588);
    tui_queue_bar(1, 64, 4, false, b);
    assert_int_equal(b[0], '#');
    assert_int_equal(b[1], ' ');
    tui_queue_bar(33, 64, 4, false, b); /* 2.06 cells: rounded up to 3 */
    assert_int_equal(b[2], '#');
    assert_int_equal(b[3], ' ');
    /* the letters and colours of the domains */
    assert_int_equal(tui_domain_letter(0), 'A');
    assert_int_equal(tui_domain_letter(15), 'P');
    assert_int_equal(tui_domain_letter(26), 'a');
    assert_int_equal(tui_domain_letter(61), '9');
    assert_int_equal(tui_domain_letter(62), '&'); /* 64 domains: a switch of 64 links */
    assert_int_equal(tui_domain_letter(63), '$');
    assert_int_equal(tui_domain_letter(64), '?');
    assert_int_equal(tui_domain_attr(0), TUI_A_DOMAIN0);
    assert_int_equal(tui_domain_attr(1), TUI_A_DOMAIN1);
    assert_int_equal(tui_domain_attr(5), TUI_A_DOMAIN1);
}

static tui_segment sw_segs[64];
static tui_joint sw_joints[64];
static tui_bridge_port sw_ports[64];
static tui_bridge sw_bridge;
static tui_domain sw_doms[64];
static tui_station_row sw_rows[64];
static double sw_pos[64];
static char sw_names[64][8];
static tui_span sw_span[1] = {{0.0, 0.5, false, 0}};

/* A switch of n links (link1 ..), full duplex, queues of 4 frames: port
 * k holds k % 5 frames (capped at 4), dropped k * 10; station 1 sends. */
static void sw_build(tui_snapshot *s, size_t n)
{
    fx_build(s, n);
    for (uint32_t k = 0; k < n; k++) {
        snprintf(sw_names[k], sizeof sw_names[k], "link%u", k + 1);
        sw_joints[k] = (tui_joint){.label = "switch", .peer = NULL, .pos = 1.0, .bridge = 0,
                                   .port = k};
        sw_segs[k] = (tui_segment){.name = sw_names[k], .length_m = 100, .n_stations = 1,
                                   .joints = &sw_joints[k], .n_joints = 1,
                                   .spans = k == 0 ? sw_span : NULL, .n_spans = k == 0,
                                   .link = true, .full_duplex = true, .domain = k};
        uint32_t q = k % 5 > 4 ? 4 : k % 5;
        sw_ports[k] = (tui_bridge_port){.segment = sw_names[k], .state = TUI_ST_IDLE,
                                        .queue_len = q, .dropped = 10u * k, .sent = 100,
                                        .queue_delay_us = 12.5};
        sw_doms[k] = (tui_domain){.name = sw_names[k], .segments = 1, .stations = 1,
                                  .full_duplex = true, .collisions = 0, .frames_sent = 50};
        sw_rows[k] = (tui_station_row){.index = k, .state = k == 0 ? TUI_ST_TX : TUI_ST_IDLE,
                                       .segment = sw_names[k], .seg = k, .share = 1.0 / n};
        sw_pos[k] = 0.0;
    }
    sw_ports[2].state = TUI_ST_TX;
    sw_bridge = (tui_bridge){.name = "switch", .queue = 4, .ports = sw_ports, .n_ports = n};
    s->rows = sw_rows;
    s->n_rows = n;
    s->n_stations = (uint32_t)n;
    s->station_pos = sw_pos;
    s->segments = sw_segs;
    s->n_segments = n;
    s->probe_segment = "link1";
    s->domains = sw_doms;
    s->n_domains = n;
    s->bridges = &sw_bridge;
    s->n_bridges = 1;
    s->switched = true;
    s->throughput = 2.5;
    s->collisions = 0;
}

/* The row of text y of a rendering (its first character). */
static const char *row_at(const char *t, int y)
{
    const char *p = t;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return p;
}

/* Two rows per link when they fit (200x60): each name after its domain's
 * letter, in its domain's colour; the port a box at the link's far end,
 * in the colour of what it does; its label the bridge, the queue's bar
 * and count against its size, and its drops; the legend in the title. */
static void test_bridges_full(void **state)
{
    (void)state;
    tui_snapshot s;
    sw_build(&s, 3);
    char *attrs = NULL;
    char *t = render_text(&s, 200, 60, TUI_GLYPHS_UNICODE, true, &attrs, NULL);
    const char *title = strstr(t, "\nNetwork at t = 0.812346 s: 3 collision domains A..C");
    assert_non_null(title);
    assert_non_null(strstr(title, "\xe2\x96\xa3 bridge port \xe2\x96\x95\xe2\x96\x88 "
                                  "\xe2\x96\x8f its queue"));
    assert_null(strstr(title, "repeater")); /* no repeater: no cross in the legend */
    const char *a = row_starting(t, "A link1 ");
    const char *c3 = row_starting(t, "C link3 ");
    assert_non_null(a);
    assert_non_null(c3);
    assert_non_null(row_starting(t, "B link2 "));
    /* The type row: a link, its length and duplex. */
    assert_non_null(row_starting(strchr(a, '\n') + 1, "  link 100 m full "));
    /* Attributes: the letter and the name in the domain's colour (codes
     * 'O'.. for TUI_A_DOMAIN0..). */
    int ya = 0;
    for (const char *p = t; p != a; p++)
        ya += *p == '\n';
    const char *ar = row_at(attrs, ya), *cr = row_at(attrs, ya + 4);
    assert_int_equal(ar[0], 'O');
    assert_memory_equal(ar + 2, "OOOOO", 5);
    assert_int_equal(cr[0], 'Q');
    /* The cable row: the port's box at the right end (label 13 wide: the
     * drawing is columns 13 .. 198), idle cable in the domain's colour,
     * the box bold cyan (TUI_A_TITLE) while idle, green while sending. */
    const char *cab = row_at(t, ya + 1), *cab_a = row_at(attrs, ya + 1);
    const char *box = "\xe2\x96\xa3";
    const char *end = strchr(cab, '\n');
    assert_true(end - cab >= 4 && memcmp(end - 4, box, 3) == 0 && end[-1] == ' ');
    assert_int_equal(cab_a[198], 'B');
    assert_int_equal(cab_a[150], 'O');
    assert_int_equal(row_at(attrs, ya + 5)[198], 'H'); /* link3's port sends: TUI_A_FRAME */
    /* The label left of the box: link1's port holds 0 of 4 and dropped
     * 0; link2's 1 of 4 (a quarter: one cell of four) and dropped 10. */
    assert_non_null(strstr(a, "switch \xe2\x96\x95    \xe2\x96\x8f 0/4, 0 dropped"));
    const char *b = row_starting(t, "B link2 ");
    assert_non_null(strstr(b, "switch \xe2\x96\x95\xe2\x96\x88   \xe2\x96\x8f 1/4, 10 dropped"));
    free(t);
    free(attrs);

    /* Monochrome: no colour codes, the letters still tell the domains. */
    t = render_text(&s, 200, 60, TUI_GLYPHS_ASCII, false, &attrs, NULL);
    for (const char *p = attrs; *p; p++)
        assert_true(strchr(".brdu\n", *p) != NULL);
    assert_non_null(row_starting(t, "A link1 "));
    assert_non_null(strstr(t, "switch [    ] 0/4, 0 dropped"));
    assert_non_null(strstr(t, "@ bridge port [# ] its queue"));
    free(t);
    free(attrs);
}

/* 16 links at 80x24: one row each, in columns, every link shown; each
 * with its letter, its station's letter on the cable, the port's box and
 * its queue's bar and count. */
static void test_bridges_compact(void **state)
{
    (void)state;
    tui_snapshot s;
    sw_build(&s, 16);
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nNetwork at t = 0.812346 s: 16 collision domains A..P"));
    assert_null(strstr(t, "segments shown"));
    /* 16 in 6 rows: 3 columns of 26; link1, 7 and 13 on the first row. */
    const char *r1 = row_starting(t, "A link1  ");
    assert_non_null(r1);
    assert_memory_equal(r1 + 26, "G link7  ", 9);
    assert_memory_equal(r1 + 52, "M link13 ", 9);
    const char *r4 = row_starting(t, "D link4  ");
    assert_non_null(r4);
    /* link1: its station sending at the left of its cable (column 9), the
     * frame over half the cable, the box, then the bar of 3 and 0. */
    assert_int_equal(r1[9], 'S');
    assert_memory_equal(r1 + 10, "===---@ [   ] 0", 15);
    /* link4: 3 of 4 frames: the bar's three cells, 2.25 rounded up to 3 */
    assert_memory_equal(r4 + 9, "i------@ [###] 3", 16);
    assert_non_null(strstr(t, "P link16 "));
    /* The status line: goodput in links and Mb/s, collisions, drops. */
    free(t);
    t = render_text(&s, 200, 60, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "Run with N = 16: goodput 2.50 links = 25.0 Mb/s; collisions 0 ("
                              "A 0, B 0, C 0"));
    assert_non_null(strstr(t, "bridge queues dropped 1.2k") || strstr(t, "dropped 1200") ?
                    t : NULL);
    assert_non_null(strstr(t, "switch, 16 links full duplex"));
    free(t);
}

/* The time view: the history as bars, S above with its top the next 1, 2
 * or 5 and a dashed line at one link, collisions per frame below; the
 * swap a dotted line with its label; the last sample on the status line. */
static tui_sample tv_hist[20];
static tui_mark tv_marks[1] = {{1.0, "switch"}};
static void tv_build(tui_snapshot *s, const tui_mark *marks, size_t n_marks)
{
    fx_build(s, 8);
    for (int i = 0; i < 20; i++) /* 0.1 s each: a hub, then a switch */
        tv_hist[i] = (tui_sample){.t_s = 0.1 * (i + 1), .s = i < 10 ? 0.8 : 6.4,
                                  .collisions = i < 10 ? 40 : 0, .frames = 100};
    s->history = tv_hist;
    s->n_history = 20;
    s->marks = marks;
    s->n_marks = n_marks;
    s->time_view = true;
    s->message = NULL;
}

static void test_time_view(void **state)
{
    (void)state;
    tui_snapshot s;
    tv_build(&s, tv_marks, 1);
    char *t = render_text(&s, 80, 24, TUI_GLYPHS_ASCII, false, NULL, NULL);
    assert_non_null(strstr(t, "\nThroughput vs time, 1 = one link "));
    assert_null(strstr(t, "stations N (log scale)")); /* not the N plot */
    /* S panel rows 2 .. 7 (6 rows), top 10; columns: axis at 5, data from
     * 6, one sample per column. */
    const char *top = row_at(t, 2);
    assert_memory_equal(top, "   10+", 6);
    assert_memory_equal(top + 16, ":switch", 7); /* the mark in column 6 + 10 */
    const char *bottom = row_at(t, 7);
    assert_memory_equal(bottom, "    0+", 6);
    /* 0.8 of 10 over 6 rows: 3.84 eighths, '#' from half a cell; 6.4:
     * 30.7 eighths, three full cells and a '#' from the seven eighths */
    const char *one = row_at(t, 7 - (int)lround(5 * 0.1)); /* the row of 1 */
    assert_memory_equal(one, "    1+", 6);
    for (int x = 6; x < 16; x++) {
        assert_int_equal(bottom[x], '#');
        assert_int_equal(one[x], '-'); /* the line of one link, over the hub's bars */
    }
    assert_int_equal(bottom[16], ':');
    for (int x = 17; x < 26; x++) {
        assert_int_equal(bottom[x], '#');
        assert_int_equal(row_at(t, 4)[x], '#');
        assert_int_equal(row_at(t, 3)[x], ' ');
    }
    assert_int_equal(one[26], '-');
    /* collisions per frame: 0.4 then 0 on an axis to 0.5 */
    assert_non_null(row_starting(row_at(t, 8), "      Collisions per frame"));
    assert_memory_equal(row_at(t, 9), " 0.50+", 6);
    assert_int_equal(row_at(t, 11)[6], '#');
    assert_int_equal(row_at(t, 11)[17], ' ');
    /* the time axis: 0 s to 2 s */
    assert_memory_equal(row_at(t, 13), "      0 s", 9);
    assert_non_null(strstr(row_at(t, 13), "2 s"));
    /* the status line: the last sample, links and Mb/s */
    assert_non_null(
        strstr(t, "\nNow: N = 8 on a bus, throughput 6.40 links = 64.0 Mb/s, 0.00 collisions/frame"));
    free(t);
}

/* ------------------------------------------------------------------ */
/* The screen at 80x24 and 120x40 for networks: every case at
 * both sizes. */

static const int net_sizes[][2] = {{80, 24}, {120, 40}};

/* The rows of the station table: the text after its header line, which
 * starts at the header's column. */
static const char *table_header_row(const char *t, int *col)
{
    for (const char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *h = strstr(p, "   # ");
        const char *e = strchr(p, '\n');
        if (h && (!e || h < e)) {
            *col = (int)(h - p);
            return p;
        }
    }
    return NULL;
}

/* Two departments (hubs east-r, west-r, east-b, west-b; groups east and
 * west) and a switch of 16 links: a name too long for its column is cut
 * to a form no other name has ("eas~r", "eas~b", never "east-" twice;
 * link10 never "link1"), and columns that do not fit go whole. */
static const tui_segment dep_segs[4] = {
    {"east-r", true, 100, 2, NULL, 0, NULL, 0, false, false, 0},
    {"west-r", true, 100, 2, NULL, 0, NULL, 0, false, false, 0},
    {"east-b", true, 100, 2, NULL, 0, NULL, 0, false, false, 0},
    {"west-b", true, 100, 2, NULL, 0, NULL, 0, false, false, 0}};
static tui_station_row dep_rows[8];

static void dep_build(tui_snapshot *s)
{
    static const tui_group groups[] = {{"east", 4, 0.5, false, "beb", "saturated", 512},
                                       {"west", 4, 0.5, true, "beb", "saturated", 512}};
    fx_build(s, 8);
    for (uint32_t i = 0; i < 8; i++) {
        dep_rows[i] = s->rows[i];
        dep_rows[i].seg = i / 2;
        dep_rows[i].segment = dep_segs[i / 2].name;
        dep_rows[i].group = i % 2 ? "west" : "east";
    }
    s->rows = dep_rows;
    s->segments = dep_segs;
    s->n_segments = 4;
    s->groups = groups;
    s->n_groups = 2;
    s->probe_segment = "east-r";
}

static void test_names_told_apart(void **state)
{
    (void)state;
    for (size_t z = 0; z < 2; z++) {
        int W = net_sizes[z][0], H = net_sizes[z][1];
        tui_snapshot s;
        dep_build(&s);
        char *t = render_text(&s, W, H, TUI_GLYPHS_ASCII, false, NULL, NULL);
        int col;
        const char *hdr = table_header_row(t, &col);
        assert_non_null(hdr);
        /* Each station's segment reads as its own: the two east hubs apart. */
        bool r = strstr(t, " eas~r ") || strstr(t, " east-r "),
             b = strstr(t, " eas~b ") || strstr(t, " east-b ");
        if (!r || !b || strstr(t, " east- "))
            fail_msg("%dx%d: east-r and east-b not told apart:\n%s", W, H, t);
        /* The header's words whole: a column fits or is left out. */
        const char *end = strchr(hdr, '\n');
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(end - hdr - col), hdr + col);
        static const char *const heads[] = {"#", "group", "segm.", "state", "wait", "try", "ok",
                                            "coll", "abort", "share", "segment", "slots",
                                            "left", "attempt", "sent", "OK", "collis.",
                                            "aborted", "late-disc.", "dropped"};
        char *save = NULL;
        for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            bool known = false;
            for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
                known |= strcmp(w, heads[k]) == 0;
            if (!known)
                fail_msg("%dx%d: the header has a cut word '%s':\n%s", W, H, w, t);
        }
        free(t);

        /* A switch of 16 links: link10 is never shown as link1. */
        sw_build(&s, 16);
        static const tui_group sgroups[] = {{"server", 1, 0.1, false, "beb", "none", 64},
                                            {"clients", 15, 0.9, true, "beb", "saturated", 512}};
        for (uint32_t k = 0; k < 16; k++)
            sw_rows[k].group = k == 0 ? "server" : "clients";
        s.groups = sgroups;
        s.n_groups = 2;
        t = render_text(&s, W, H, TUI_GLYPHS_ASCII, false, NULL, NULL);
        hdr = table_header_row(t, &col);
        assert_non_null(hdr);
        for (const char *p = strchr(hdr, '\n') + 1; p && strncmp(p + col, "  ", 2) == 0 &&
                                                    isdigit((unsigned char)p[col + 3]);
             p = strchr(p, '\n') + 1) {
            unsigned n;
            char grp[16], seg[16];
            assert_int_equal(sscanf(p + col, "%u %15s %15s", &n, grp, seg), 3);
            char want[16];
            snprintf(want, sizeof want, "link%u", n);
            /* whole, or cut to a form that is not another link's name */
            if (strcmp(seg, want) != 0 && (strncmp(seg, "link", 4) == 0 || !strchr(seg, '~')))
                fail_msg("%dx%d: station %u's link shown as '%s'", W, H, n, seg);
            if (strcmp(grp, n == 1 ? "server" : "clients") != 0 && !strchr(grp, '~'))
                fail_msg("%dx%d: station %u's group shown as '%s'", W, H, n, grp);
        }
        free(t);
    }
}

/* A switch of 64 links (the most a network has): 64 domains, each with a
 * letter of its own (none '?'), at both sizes; the legend's pieces whole. */
static void test_sixty_four_domains(void **state)
{
    (void)state;
    for (size_t z = 0; z < 2; z++) {
        int W = net_sizes[z][0], H = net_sizes[z][1];
        tui_snapshot s;
        sw_build(&s, 64);
        char *t = render_text(&s, W, H, TUI_GLYPHS_ASCII, false, NULL, NULL);
        const char *title = strstr(t, "64 collision domains A..$");
        if (!title)
            fail_msg("%dx%d: no title of 64 domains A..$:\n%s", W, H, t);
        if (strstr(title, "its queu") && !strstr(title, "its queue"))
            fail_msg("%dx%d: the legend is cut:\n%s", W, H, t);
        /* every link shown has its letter, and no row starts with '?' */
        for (const char *p = title; (p = strstr(p, " link")) != NULL; p++)
            assert_int_not_equal(p[-1], '?');
        assert_null(strstr(title, "? link"));
        free(t);
        /* The legend at every width: "its queue" whole or not at all. */
        for (int w = 60; w <= W; w++) {
            sw_build(&s, 3);
            t = render_text(&s, w, H, TUI_GLYPHS_UNICODE, false, NULL, NULL);
            const char *q = strstr(t, "its queu");
            if (q && strncmp(q, "its queue", 9) != 0)
                fail_msg("width %d: '%.12s'", w, q);
            free(t);
        }
    }
}

/* Three swaps a moment apart (t pressed three times): the labels never
 * overlap, each whole, at both sizes. */
static void test_marks_apart(void **state)
{
    (void)state;
    static tui_mark marks[3] = {{1.0, "switch"}, {1.05, "full dx"}, {1.1, "hub"}};
    for (size_t z = 0; z < 2; z++) {
        int W = net_sizes[z][0], H = net_sizes[z][1];
        tui_snapshot s;
        tv_build(&s, marks, 3);
        char *t = render_text(&s, W, H, TUI_GLYPHS_ASCII, false, NULL, NULL);
        for (int k = 0; k < 3; k++)
            if (!strstr(t, marks[k].label))
                fail_msg("%dx%d: the mark '%s' is not whole:\n%s", W, H, marks[k].label, t);
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_80x24),        cmocka_unit_test(test_golden_200x60),
        cmocka_unit_test(test_golden_help_and_scroll), cmocka_unit_test(test_too_small),
        cmocka_unit_test(test_labels_and_units),    cmocka_unit_test(test_ascii_and_mono),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_status_not_cut),
        cmocka_unit_test(test_try_ordinal),
        cmocka_unit_test(test_deterministic),       cmocka_unit_test(test_clicks_and_keys),
        cmocka_unit_test(test_help_without_pcap),   cmocka_unit_test(test_plot_geometry),
        cmocka_unit_test(test_zoom_geometry),       cmocka_unit_test(test_vocabulary),
        cmocka_unit_test(test_measuring),           cmocka_unit_test(test_bus_numbers),
        cmocka_unit_test(test_cut_axis),            cmocka_unit_test(test_capture_note),
        cmocka_unit_test(test_help_files),          cmocka_unit_test(test_bus_crowded),
        cmocka_unit_test(test_network),
        cmocka_unit_test(test_queue_bar),           cmocka_unit_test(test_bridges_full),
        cmocka_unit_test(test_bridges_compact),     cmocka_unit_test(test_time_view),
        cmocka_unit_test(test_names_told_apart),    cmocka_unit_test(test_sixty_four_domains),
        cmocka_unit_test(test_marks_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
