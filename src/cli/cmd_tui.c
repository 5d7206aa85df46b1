/* cmd_tui.c - `csmacd tui`: the live classroom screen.
 *
 * Order of work:
 *   1. options and scenario (cli_parse, cli_finish) and the first engine
 *      (tui_driver_create): any problem is a usage error, exit 2, printed
 *      before the terminal is touched;
 *   2. the terminal is opened (tui_curses.h) and the main loop runs: a frame
 *      every FRAME_NS, scheduled from the previous deadline rather than
 *      from "now" (bmon's loop), so the frame rate does not drift; each frame
 *      advances the engines with an event budget that adapts to the time a
 *      frame has (so a saturated bus never freezes the screen), renders a
 *      snapshot with the pure layout, and waits for input until the next
 *      deadline, answering keys at once;
 *   3. every exit path restores the terminal before anything is printed:
 *      q, SIGINT/SIGTERM (the flag of cli.h, polled each frame and each
 *      input wait), a fatal error; an assertion or a crash goes through
 *      tui_term_emergency_restore from a signal handler.
 * This file reads the monotonic clock (for frame pacing only: nothing the
 * engine computes depends on it) and the environment (NO_COLOR).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "exit_status.h"
#include "parse.h"
#include "tui_curses.h"
#include "tui_driver.h"
#include "tui_layout.h"

#define FRAME_NS 50000000LL        /* 20 frames per second */
#define BUDGET_MIN 200u            /* events per frame, at least */
#define BUDGET_MAX 200000000u

enum {
    OPT_STATIONS = 1,
    OPT_SCALE,
    OPT_PRECISION,
    OPT_POINT_TIME,
    OPT_SPEED,
    OPT_ASCII,
    OPT_SAVE_DIR,
    OPT_GROW,
    OPT_NO_EFFECT, /* a scenario option the TUI has no use for: refused */
};

static const cli_option tui_options[] = {
    {"stations", CLI_ARG_REQUIRED, "LIST",
     "the N of the sweep (default 1..64, about sqrt(2) apart; 8 = just 8); with groups, "
     "the grown group's sizes", OPT_STATIONS},
    {"grow", CLI_ARG_REQUIRED, "GROUP",
     "with groups: the group N grows while the others stay (the last one)", OPT_GROW},
    {"scale", CLI_ARG_REQUIRED, "log|linear", "the N axis, and the default sweep's spacing (log)",
     OPT_SCALE},
    {"precision", CLI_ARG_REQUIRED, "REL",
     "stop a point when its 95% CI half-width is REL of S (0.02)", OPT_PRECISION},
    {"point-time", CLI_ARG_REQUIRED, "TIME",
     "most simulated time per point (200 batches of 2^20 bit times; at least 2)",
     OPT_POINT_TIME},
    {"speed", CLI_ARG_REQUIRED, "TIME|max",
     "simulated time per wall second: 1us .. 100s, or max (1s: real time)", OPT_SPEED},
    {"ascii", CLI_ARG_NONE, NULL, "draw with ASCII only, whatever the locale", OPT_ASCII},
    {"save-dir", CLI_ARG_REQUIRED, "DIR",
     "where c (CSV) and w (pcapng) save, never replacing a file (.)",
     OPT_SAVE_DIR},
    /* Scenario options that could have no effect here, shadowed so that
     * they are refused (exit 2) instead of silently ignored. */
    {"duration", CLI_ARG_REQUIRED, NULL, NULL, OPT_NO_EFFECT},
    {"warmup", CLI_ARG_REQUIRED, NULL, NULL, OPT_NO_EFFECT},
    {"batches", CLI_ARG_REQUIRED, NULL, NULL, OPT_NO_EFFECT},
};

typedef struct tui_opts {
    uint64_t *stations;
    size_t n_stations;
    bool linear;
    double precision;
    sim_time point_time;
    double speed;
    bool ascii;
    const char *save_dir;
    const char *grow;
} tui_opts;

static int on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    tui_opts *o = ctx;
    switch (id) {
    case OPT_STATIONS:
        free(o->stations);
        o->stations = NULL;
        /* 0 is a grown group's size (checked against the groups later). */
        return parse_list_u64(value, 0, 1024, &o->stations, &o->n_stations, err, errlen);
    case OPT_SCALE:
        if (strcmp(value, "log") == 0)
            o->linear = false;
        else if (strcmp(value, "linear") == 0)
            o->linear = true;
        else {
            snprintf(err, errlen, "'%.32s' is neither log nor linear", value);
            return -1;
        }
        return 0;
    case OPT_PRECISION:
        return parse_double(value, 0.001, 0.5, &o->precision, err, errlen);
    case OPT_POINT_TIME:
        if (parse_time_ps(value, &o->point_time, err, errlen) != 0)
            return -1;
        if (o->point_time < SIM_PS_PER_MS || o->point_time > 3600 * SIM_PS_PER_S) {
            snprintf(err, errlen, "'%.32s' is out of range (1ms to 1h)", value);
            return -1;
        }
        return 0;
    case OPT_SPEED: {
        if (strcmp(value, "max") == 0) {
            o->speed = 0;
            return 0;
        }
        sim_time ps;
        if (parse_time_ps(value, &ps, err, errlen) != 0)
            return -1;
        static const sim_time ok[] = {
            SIM_PS_PER_US,       10 * SIM_PS_PER_US, 100 * SIM_PS_PER_US,
            SIM_PS_PER_MS,       10 * SIM_PS_PER_MS, 100 * SIM_PS_PER_MS,
            SIM_PS_PER_S,        10 * SIM_PS_PER_S,  100 * SIM_PS_PER_S};
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
            if (ps == ok[i]) {
                o->speed = sim_time_to_s(ps);
                return 0;
            }
        snprintf(err, errlen,
                 "'%.32s' is not a speed (1us, 10us, 100us, 1ms, 10ms, 100ms, 1s, 10s, 100s "
                 "or max)",
                 value);
        return -1;
    }
    case OPT_ASCII:
        o->ascii = true;
        return 0;
    case OPT_NO_EFFECT:
        snprintf(err, errlen,
                 "not for the TUI: each point runs until its CI is tight (--precision) or for "
                 "--point-time, the screen until you quit");
        return -1;
    case OPT_GROW:
        if (o->grow != NULL) {
            snprintf(err, errlen, "given twice (one group grows)");
            return -1;
        }
        o->grow = value;
        return 0;
    case OPT_SAVE_DIR:
        if (value[0] == '\0') {
            snprintf(err, errlen, "needs a directory");
            return -1;
        }
        o->save_dir = value;
        return 0;
    default:
        snprintf(err, errlen, "unhandled option");
        return -1;
    }
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The folder c and w save into, checked before any work like every output
 * folder (outfile.h): it exists, is a directory, and may be written.
 * Returns 0, or -1 with "DIR: reason". */
static int check_save_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    int e = 0;
    if (stat(dir, &st) != 0)
        e = errno;
    else if (!S_ISDIR(st.st_mode))
        e = ENOTDIR;
    else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
        e = errno;
    if (e == 0)
        return 0;
    snprintf(err, errlen, "%s: %s", dir, strerror(e));
    return -1;
}

/* Assertions and crashes: put the terminal back, then die as before. */
static void on_fatal_signal(int sig)
{
    tui_term_emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct screen {
    tui_term *term;
    tui_grid grid;
    tui_render_opts ropts;
} screen;

/* Renders the driver's current state. Returns 0, or -1 (no memory). */
static int render(screen *sc, tui_driver *d)
{
    int w, h;
    tui_term_size(sc->term, &w, &h);
    if ((w != sc->grid.w || h != sc->grid.h) && tui_grid_resize(&sc->grid, w, h) != 0)
        return -1;
    tui_snapshot snap;
    tui_driver_snapshot(d, &snap);
    tui_render(&snap, &sc->ropts, &sc->grid);
    tui_term_draw(sc->term, &sc->grid);
    return 0;
}

int cmd_tui_main(int argc, char **argv)
{
    tui_opts opts = {.precision = 0.02, .speed = 1.0};
    const cli_command cmd = {
        .name = "tui",
        .summary = "The live classroom screen: throughput S versus the number of stations N,\n"
                   "measured point by point (each until its 95% confidence interval is tight)\n"
                   "beside the Metcalfe-Boggs model (charged with the preamble and the gap, so\n"
                   "it is exact for one station), with the medium, the channel and every\n"
                   "station's state as they happen. Press ? for the keys. Without options:\n"
                   "10base5, saturated stations, N from 1 to 64. Colour follows NO_COLOR.\n"
                   "--duration, --warmup and --batches are refused (exit 2): each point runs\n"
                   "until its CI is tight (--precision) or for --point-time, and the screen\n"
                   "until you quit (a scenario file's duration, warmup and batches are\n"
                   "ignored). c saves the plot data, w the most recent part of the run's\n"
                   "trace (at most 10 s and, by an estimate made first, 64 MB; Esc cancels);\n"
                   "a save never replaces a file: its name says PHY, frame size, policy,\n"
                   "traffic and seed, and a clash adds -2, -3, ...",
        .options = tui_options,
        .n_options = sizeof tui_options / sizeof tui_options[0],
        .scenario_options = true,
        .presets = &cli_preset_layer,
        .on_option = on_option,
        .ctx = &opts,
    };
    char err[1024];
    scenario sc;
    scenario_defaults(&sc);
    int status = EXIT_STATUS_OK;
    tui_driver *d = NULL;
    uint32_t *list = NULL;

    cli_status st = cli_parse(&cmd, argc, argv, &sc, err, sizeof err);
    if (st != CLI_OK) {
        scenario_free(&sc);
        free(opts.stations);
        return cli_parse_exit(st, err);
    }
    if (sc.traffic.kind == TRAFFIC_BATCH || sc.traffic.kind == TRAFFIC_PCAP) {
        cli_error("--traffic: %s traffic ends by itself; the TUI sweeps saturated, poisson "
                  "or onoff stations (use csmacd run)",
                  sc.traffic.kind == TRAFFIC_BATCH ? "batch" : "pcap");
        status = EXIT_STATUS_USAGE;
        goto out;
    }
    for (size_t i = 0; i < opts.n_stations && sc.n_named == 0; i++)
        if (opts.stations[i] == 0) {
            cli_error("--stations: 0 stations only with groups, as the grown group's size "
                      "(--group, [group NAME])");
            status = EXIT_STATUS_USAGE;
            goto out;
        }
    if (check_save_dir(opts.save_dir ? opts.save_dir : ".", err, sizeof err) != 0) {
        cli_error("%s", err);
        status = EXIT_STATUS_RUNTIME;
        goto out;
    }
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        cli_error("tui: standard input and output must be a terminal (csmacd run prints "
                  "measures)");
        status = EXIT_STATUS_USAGE;
        goto out;
    }
    if (opts.n_stations) {
        if (sc.n_named == 0) /* with groups, the list is the grown group's sizes */
            sc.n_stations = (uint32_t)opts.stations[0];
        list = malloc(opts.n_stations * sizeof *list);
        if (!list) {
            cli_error("out of memory");
            status = EXIT_STATUS_RUNTIME;
            goto out;
        }
        for (size_t i = 0; i < opts.n_stations; i++)
            list[i] = (uint32_t)opts.stations[i];
    }
    if (cli_finish(&sc, err, sizeof err) != 0) {
        cli_error("%s", err);
        status = EXIT_STATUS_USAGE;
        goto out;
    }
    tui_driver_options dopt = {
        .base = &sc,
        .sweep_n = list,
        .n_sweep = opts.n_stations,
        .log_x = !opts.linear,
        .precision = opts.precision,
        .min_batches = 10,
        .point_cap_ps = opts.point_time,
        .speed = opts.speed,
        .save_dir = opts.save_dir,
        .grow = opts.grow,
    };
    if (tui_driver_create(&dopt, &d, err, sizeof err) != 0) {
        cli_error("%s", err);
        status = EXIT_STATUS_USAGE;
        goto out;
    }
    if (cli_signals_install() != 0) {
        cli_error("signals: %s", strerror(errno));
        status = EXIT_STATUS_RUNTIME;
        goto out;
    }

    const char *nc = getenv("NO_COLOR");
    tui_term_options topt = {.colour = !(nc && *nc), .mouse = true};
    screen scr = {0};
    if (tui_grid_init(&scr.grid, 80, 24) != 0) {
        cli_error("out of memory");
        status = EXIT_STATUS_RUNTIME;
        goto out;
    }
    if (tui_term_open(&topt, &scr.term, err, sizeof err) != 0) {
        tui_grid_free(&scr.grid);
        cli_error("tui: %s", err);
        status = EXIT_STATUS_RUNTIME;
        goto out;
    }
    static const int fatal_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        signal(fatal_signals[i], on_fatal_signal);
    atexit(tui_term_emergency_restore);
    scr.ropts.glyphs = opts.ascii ? TUI_GLYPHS_ASCII : tui_term_glyphs(scr.term);
    scr.ropts.colour = tui_term_colour(scr.term);

    uint64_t budget = 20000;
    int64_t last = now_ns(), deadline = last + FRAME_NS;
    bool quit = false, fatal = false;
    while (!quit && !fatal && !cli_signal_caught()) {
        /* Simulate: a budget that fills about half a frame. */
        int64_t t0 = now_ns();
        int64_t ran = tui_driver_advance(d, (double)(t0 - last) / 1e9, budget, err, sizeof err);
        last = t0;
        if (ran < 0) {
            fatal = true;
            break;
        }
        int64_t spent = now_ns() - t0;
        if (tui_driver_budget_exhausted(d) && spent < FRAME_NS / 3 && budget < BUDGET_MAX)
            budget *= 2;
        else if (spent > FRAME_NS * 2 / 3 && budget > BUDGET_MIN)
            budget = budget * 2 / 3 > BUDGET_MIN ? budget * 2 / 3 : BUDGET_MIN;

        if (render(&scr, d) != 0) {
            snprintf(err, sizeof err, "out of memory");
            fatal = true;
            break;
        }
        /* Input until the next deadline; each key is answered at once.
         * Keys already typed are read even when the frame overran its
         * deadline (a loaded machine, a large run): never starved. */
        for (;;) {
            int64_t left = deadline - now_ns();
            if (cli_signal_caught())
                break;
            tui_input in;
            tui_term_read(scr.term, left > 0 ? (int)((left + 999999) / 1000000) : 0, &in);
            if (in.kind == TUI_IN_NONE) {
                if (left <= 0)
                    break;
                continue;
            }
            tui_command c = tui_input_command(&in, &scr.grid, true);
            int rc = tui_driver_command(d, c, scr.grid.table_rows, err, sizeof err);
            if (rc < 0) {
                fatal = true;
                break;
            }
            if (rc > 0) {
                quit = true;
                break;
            }
            if (render(&scr, d) != 0) {
                snprintf(err, sizeof err, "out of memory");
                fatal = true;
                break;
            }
        }
        /* Next deadline from the previous one; after a stall, start afresh
         * rather than rushing through the missed frames. */
        deadline += FRAME_NS;
        int64_t now = now_ns();
        if (deadline < now)
            deadline = now + FRAME_NS;
    }
    tui_term_close(scr.term);
    tui_grid_free(&scr.grid);
    if (fatal) {
        cli_error("tui: %s", err);
        status = EXIT_STATUS_RUNTIME;
    } else if (!quit && cli_signal_caught()) {
        status = cli_signal_exit_status(cli_signal_caught());
    }

out:
    tui_driver_destroy(d);
    scenario_free(&sc);
    free(list);
    free(opts.stations);
    return status;
}
