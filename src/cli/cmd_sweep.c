/* cmd_sweep.c - `csmacd sweep`: one experiment over a grid of scenarios,
 * with replications, confidence intervals, a tidy CSV and a figure
 * (src/cli/CLI.md, "Outputs"; the grid, seeds and statistics are sweep.h's).
 *
 * Building the points. For each value P of the phy axis (or once, when it
 * is not swept) the base scenario is: the defaults, then `phy = P`, then
 * the preset's [scenario] keys, then the --scenario file and the scenario
 * options of the command line (cli_parse, exactly as `run` applies them).
 * Each point then applies its other axis values with sweep_apply: the
 * --grid keys, then policy, frame-size, length, load, stations (with
 * groups: totals shared by the groups; sweep.h). Every
 * point is finished and its engine built once before any file is
 * created, so a bad value anywhere is a usage error (exit 2) and nothing
 * has been written.
 *
 * Order of work otherwise as in `run`: outputs are temporaries renamed
 * into place (outfile.h); SIGINT/SIGTERM stop the runs in flight and the
 * CSV gets every point completed so far (rows stay in point order), exit
 * 130/143. The CSV is a pure function of the command line: rows in point
 * order, reals printed "%.12g", no wall-clock figures, so it is
 * byte-identical whatever --jobs is and however many MPI ranks share it.
 *
 * MPI (built as csmacd-mpi when CMake finds MPI): every rank parses the
 * same command line and builds the same points; point p belongs to rank
 * p mod K; each rank runs its points on its own threads and sends their
 * replications to rank 0, which writes the CSV and the figure. Only rank
 * 0 prints (besides a failure of another rank's own). Every exit is
 * collective: up to the opening of the outputs each rank, failed or not,
 * meets the others in agree(); after it only the gather can fail, and that
 * aborts the job (MPI_Abort), since the other ranks may be blocked in it.
 *
 * This file is the command's flow and its figure; the options are
 * sweep_cli.c's, the progress bar sweep_progress.c's, the MPI gather
 * sweep_mpi.c's and the CSV files src/sweep/sweep_csv.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef CSMACD_MPI
#include <mpi.h>

#include "sweep_mpi.h"
#endif

#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "exit_status.h"
#include "figure.h"
#include "outfile.h"
#include "parse.h"
#include "phy.h"
#include "plot.h"
#include "presets.h"
#include "replay.h"
#include "sweep.h"
#include "sweep_cli.h"
#include "sweep_csv.h"
#include "sweep_progress.h"

#define SWEEP_MAX_POINTS 100000u
/* points x replications: each keeps its measures (a few hundred bytes)
 * until the rows are written. */
#define SWEEP_MAX_RUNS 1000000u

/* ---- messages: only rank 0 talks ---- */

static void say_error(bool talk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_error(bool talk, const char *fmt, ...)
{
    if (!talk)
        return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cli_error("%s", buf);
}

/* Warnings of scenario_finish, each distinct line once for the sweep.
 * A preset that sweeps the cable beyond what the standard allows does so
 * on purpose and says why in its header (cable-length): those lengths
 * are not warned about (quiet_length). */
typedef struct warned {
    bool talk;
    bool quiet_length;
    char **lines;
    size_t n;
} warned;

static void warn_once(warned *w, const char *text)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *line = buf, *next; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        if (w->quiet_length && strncmp(line, "length: ", 8) == 0 &&
            strstr(line, " is longer than ") != NULL)
            continue;
        bool seen = false;
        for (size_t i = 0; i < w->n && !seen; i++)
            seen = strcmp(w->lines[i], line) == 0;
        if (seen)
            continue;
        char **l = realloc(w->lines, sizeof *l * (w->n + 1));
        if (l == NULL)
            return;
        w->lines = l;
        if ((l[w->n] = strdup(line)) == NULL)
            return;
        w->n++;
        if (w->talk)
            cli_warn("%s", line);
    }
}

static void warned_free(warned *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->lines[i]);
    free(w->lines);
}

/* ---- the figure: src/sweep/figure.h ---- */

/* gnuplot's warnings, said as csmacd's (plot.h). */
static void plot_warning(void *ctx, const char *path, const char *text)
{
    (void)ctx;
    cli_warn("%s: %s", path, text);
}

/* ---- building the points ---- */

/* Applies the preset's [sweep] keys that the command line did not give. */
static int preset_sweep(const preset *pr, sweep_cli *o, sweep_grid *g, uint64_t *frames,
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < pr->n_sweep; i++) {
        const preset_kv *kv = &pr->sweep[i];
        char reason[512];
        int a = sweep_axis_find(kv->key);
        int rc = 0;
        if (a >= 0) {
            if (!o->given[a])
                rc = sweep_grid_set(g, (sweep_axis)a, kv->value, reason, sizeof reason);
            else
                sweep_grid_follow(g, kv->key);
        } else if (strcmp(kv->key, "reps") == 0) {
            if (!o->reps_given)
                rc = parse_u32(kv->value, 1, 1000000, &o->reps, reason, sizeof reason);
        } else if (strcmp(kv->key, "precision") == 0) {
            if (!o->precision_given)
                rc = parse_double(kv->value, 1e-6, 0.999, &o->precision, reason, sizeof reason);
        } else if (strcmp(kv->key, "frames") == 0) {
            uint32_t f = 0;
            rc = parse_u32(kv->value, 1, 100000000, &f, reason, sizeof reason);
            *frames = f;
        } else if (strcmp(kv->key, "max-reps") == 0) {
            if (!o->max_reps_given)
                rc = parse_u32(kv->value, SWEEP_PRECISION_MIN_REPS, 1000000, &o->max_reps,
                               reason, sizeof reason);
        } else if (kv->key[0] == '+' ? !sweep_grid_has_companion(g, kv->key + 1)
                                     : sweep_grid_find(g, kv->key) < 0) {
            rc = sweep_grid_set_key(g, kv->key, kv->value, reason, sizeof reason);
        } else { /* a keyed axis --grid gave */
            sweep_grid_follow(g, kv->key);
        }
        if (rc != 0) {
            snprintf(err, errlen, "preset %s:%d: %s: %s", pr->name, kv->line, kv->key, reason);
            return -1;
        }
    }
    return 0;
}

/* err becomes "pre: err" (cut at errlen). */
static void put_before(char *err, size_t errlen, const char *pre)
{
    size_t p = strlen(pre) + 2, n = strlen(err);
    if (p >= errlen)
        return;
    if (n > errlen - 1 - p)
        n = errlen - 1 - p;
    memmove(err + p, err, n);
    err[p + n] = '\0';
    memcpy(err, pre, p - 2);
    memcpy(err + p - 2, ": ", 2);
}

/* A point the scenario refuses is said with the options that made it
 * ("--grid seg.velocity=1e-12: ..."): each swept axis's value at point p,
 * as --grid KEY=VALUE or --KEY VALUE as it was given (a preset's, as
 * --grid). A reason that already names an option is left as it is. */
static void name_point(const sweep_grid *g, const sweep_cli *o, size_t p, char *err,
                       size_t errlen)
{
    if (strncmp(err, "--", 2) == 0)
        return;
    size_t idx[SWEEP_MAX_AXES];
    sweep_grid_index(g, p, idx);
    char point[512] = "";
    size_t len = 0;
    for (size_t a = 0; a < SWEEP_N_AXES + g->n_keyed && len < sizeof point; a++) {
        if (g->n[a] == 0)
            continue;
        bool option = a < SWEEP_N_AXES && o->given[a] && !o->by_grid[a];
        int n = snprintf(point + len, sizeof point - len, "%s%s%s%s%s", len ? ", " : "",
                         option ? "--" : "--grid ", sweep_grid_key(g, a), option ? " " : "=",
                         g->values[a][idx[a]]);
        if (n > 0)
            len += (size_t)n;
    }
    if (len > 0)
        put_before(err, errlen, point);
}

/* The base scenario for one phy value (NULL: not swept). */
static int base_scenario(const cli_command *cmd, int argc, char **argv, const preset *pr,
                         const char *phy, scenario *sc, char *err, size_t errlen)
{
    scenario_defaults(sc);
    if (phy != NULL && scenario_set(sc, "phy", phy, err, errlen) != 0)
        return -1;
    if (pr != NULL && preset_apply_scenario(pr, sc, phy != NULL, err, errlen) != 0)
        return -1;
    if (cli_parse(cmd, argc, argv, sc, err, errlen) != CLI_OK)
        return -1;
    if (phy != NULL && phy_profile_find(phy) != NULL &&
        strcmp(sc->phy.name, phy_profile_find(phy)->name) != 0) {
        snprintf(err, errlen, "--phy: the scenario file sets phy = %s, which conflicts with the "
                              "swept list",
                 sc->phy.name);
        return -1;
    }
    return 0;
}

/* MPI: every rank calls this at the same steps (where the outputs are
 * opened, whether it got there or failed earlier: a rank that stops alone
 * would leave the others waiting for it for ever; and once the points have
 * run). Returns the largest value of all ranks (a usage error, 2, over a
 * runtime one, 1); a rank whose own status is 0 then ends silently, the
 * failing rank having said why. */
static int agree(int status, int size)
{
#ifdef CSMACD_MPI
    int worst = status;
    if (size > 1)
        MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
#else
    (void)size;
    return status;
#endif
}

/* sweep_options.fewer_jobs: said by the rank it happens on. */
static void fewer_jobs(unsigned started, unsigned asked, int error)
{
    cli_warn("--jobs %u: only %u worker thread%s could start (%s); the sweep runs on %s", asked,
             started, started == 1 ? "" : "s", strerror(error), started == 1 ? "it" : "those");
}

/* Whether name is one of the budget's figures (sweep_budget_name). */
static bool is_budget_name(const char *name)
{
    for (size_t j = 0; j < sweep_budget_count(); j++)
        if (strcmp(name, sweep_budget_name(j)) == 0)
            return true;
    return false;
}

/* The group measures of --plot-y ("rogue.share"), a network's
 * ("backbone.collisions", "pdv_bits"), once the groups are known. */
/* Where any point records name (the points' networks may differ), or -1. */
static int value_find_any(const scenario *points, size_t n_points, const char *name)
{
    for (size_t p = 0; p < n_points; p++)
        if (sweep_value_find(&points[p], name) >= 0)
            return 0;
    return -1;
}

static int check_group_measures(const char *list, const scenario *points, size_t n_points,
                                char *err, size_t errlen)
{
    char **ys = NULL;
    size_t n_y = 0;
    if (list[0] == '\0' || parse_list_words(list, &ys, &n_y, err, errlen) != 0)
        return 0; /* said before */
    int rc = 0;
    for (size_t i = 0; i < n_y && rc == 0; i++)
        if (is_budget_name(ys[i]) && value_find_any(points, n_points, ys[i]) < 0) {
            snprintf(err, errlen, "--plot-y: %s is a network's figure, and the scenario has no "
                                  "[segment]",
                     ys[i]);
            rc = -1;
        } else if (strchr(ys[i], '.') != NULL && value_find_any(points, n_points, ys[i]) < 0) {
            snprintf(err, errlen, "--plot-y: '%.64s' is not a group's measure (GROUP.measure: "
                                  "a group of the scenario and e.g. throughput, share, "
                                  "frames_ok, delay_mean_s; or a segment's or a repeater's: "
                                  "SEGMENT.collisions, REPEATER.jams_sent; or a bridge "
                                  "port's: BRIDGE.SEGMENT.queue_delay_mean_us)",
                     ys[i]);
            rc = -1;
        }
    parse_list_free_words(ys, n_y);
    return rc;
}

/* Every capture a point replays is an input as the base scenario's is:
 * --grid traffic=pcap:a.pcapng,pcap:b.pcapng names some only there. Each
 * distinct path is checked once against the outputs. */
static int check_point_inputs(const outfile_role *outs, size_t n_outs, const scenario *points,
                              size_t n_points, char *err, size_t errlen)
{
    const char **seen = NULL;
    size_t n_seen = 0;
    int rc = 0;
    for (size_t p = 0; p < n_points && rc == 0; p++) {
        const char *path = points[p].traffic.kind == TRAFFIC_PCAP ? points[p].pcap_path : NULL;
        bool known = path == NULL;
        for (size_t i = 0; i < n_seen && !known; i++)
            known = strcmp(seen[i], path) == 0;
        if (known)
            continue;
        const char **more = realloc(seen, (n_seen + 1) * sizeof *more);
        if (more == NULL) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        seen = more;
        seen[n_seen++] = path;
        const outfile_role in = {"the replayed capture", path};
        rc = outfile_conflicts(outs, n_outs, &in, 1, err, errlen);
    }
    free(seen);
    return rc;
}

static unsigned default_jobs(int local_ranks)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    n /= local_ranks > 0 ? local_ranks : 1;
    return n < 1 ? 1 : (unsigned)n;
}

static int sweep_main(int argc, char **argv, int rank, int size, int local_ranks)
{
    const char *scenario_file = NULL;
    sweep_cli o = {.reps = 1, .max_reps = SWEEP_MAX_REPS_DEFAULT, .plot_x = -1};
    const cli_command cmd = {
        .name = "sweep",
        .required = (const char *const[]){"csv", NULL},
        .summary = "Runs a scenario over a grid (the cartesian product of the LISTs, policy\n"
                   "outermost, then phy, frame-size, length, load, stations innermost), each\n"
                   "point R times with independent seeds, and writes one CSV row per point\n"
                   "with the mean and 95 % confidence half-width (_ci95) of every measure.\n"
                   "Replication r of point p uses seed mix(mix(mix(S) ^ p) ^ r) of the master\n"
                   "seed S (README); the row's seed column re-runs replication 0 with `run`.\n"
                   "--grid KEY=LIST sweeps any scenario key, a group's too (rogue.stations=0..3),\n"
                   "after the axes above, with a CSV column named KEY; --grid +KEY=LIST moves\n"
                   "KEY with the axis given before it, value for value. With groups, --stations\n"
                   "is the total (the group without its own stations takes the rest), --load\n"
                   "the total load (shared by stations, as in run), and each group NAME has\n"
                   "columns NAME.group (its --group for run: the row re-runs with them),\n"
                   "NAME.throughput, NAME.share, NAME.frames_ok, ... (README). An axis is\n"
                   "given once (--load and --grid load=... are one axis).",
        .options = sweep_cli_options,
        .n_options = sweep_cli_n_options,
        .scenario_options = true,
        .on_option = sweep_cli_on_option,
        .ctx = &o,
        .scenario_file = &scenario_file,
    };
    char err[2048];
    int status = EXIT_STATUS_USAGE;
    scenario probe, *bases = NULL, *points = NULL;
    size_t n_bases = 0, n_points = 0;
    sweep_grid grid = {0};
    sweep_result *res = NULL;
    bool *owned = NULL;
    preset pr;
    bool have_preset = false;
    const bool talk = rank == 0;
    warned warns = {.talk = talk};
    outfile csv = {0}, reps_csv = {0}, fig = {0};
    replay *shared = NULL; /* a replayed capture, loaded once for every point */

    /* 1. The options (a first pass to learn --preset and the axes). The
     * scenario of this pass only serves cli_parse's cross-checks (--batch
     * needs batch traffic, ...), so it starts from the preset's keys, found
     * by a look at argv ahead of the parse. */
    scenario_defaults(&probe);
    const char *ahead = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc)
            ahead = argv[++i];
        else if (strncmp(argv[i], "--preset=", 9) == 0)
            ahead = argv[i] + 9;
    }
    if (ahead != NULL && preset_load(ahead, &pr, err, sizeof err) == 0)
        (void)preset_apply_scenario(&pr, &probe, false, err, sizeof err); /* said in step 2 */
    cli_status st = cli_parse(&cmd, argc, argv, &probe, err, sizeof err);
    scenario_free(&probe);
    if (st == CLI_HELP) {
        status = fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
        goto early;
    }
    if (st != CLI_OK)
        goto usage;
    if (o.csv == NULL) {
        snprintf(err, sizeof err, "--csv: required (the file for the sweep's rows)");
        goto usage;
    }
    if (o.max_reps_given && !o.precision_given) {
        snprintf(err, sizeof err, "--max-reps: only applies with --precision");
        goto usage;
    }
    if (o.preset != NULL) {
        if (preset_load(o.preset, &pr, err, sizeof err) != 0) {
            char reason[sizeof err];
            snprintf(reason, sizeof reason, "--preset: %.1900s", err);
            snprintf(err, sizeof err, "%s", reason);
            goto usage;
        }
        have_preset = true;
    }
    grid = o.grid;
    memset(&o.grid, 0, sizeof o.grid);
    /* A preset that sizes its points by frames (presets.h) does so unless
     * the command line gives --duration. */
    uint64_t frames = 0;
    if (have_preset && preset_sweep(&pr, &o, &grid, &frames, err, sizeof err) != 0)
        goto usage;
    for (int i = 1; i < argc && frames; i++)
        if (strcmp(argv[i], "--duration") == 0 || strncmp(argv[i], "--duration=", 11) == 0)
            frames = 0;
    warns.quiet_length = have_preset && !o.given[SWEEP_AXIS_LENGTH] && grid.n[SWEEP_AXIS_LENGTH];
    if (o.plot_x_key != NULL) {
        char reason[512];
        if (sweep_cli_plot_x(&grid, o.plot_x_key, &o.plot_x, reason, sizeof reason) != 0) {
            snprintf(err, sizeof err, "--plot-x: %s", reason);
            goto usage;
        }
    } else if (have_preset && pr.x[0]) {
        char reason[512];
        if (sweep_cli_plot_x(&grid, pr.x, &o.plot_x, reason, sizeof reason) != 0) {
            snprintf(err, sizeof err, "preset %s: x: %s", pr.name, reason);
            goto usage;
        }
    }
    if (o.precision_given && o.max_reps < SWEEP_PRECISION_MIN_REPS)
        o.max_reps = SWEEP_PRECISION_MIN_REPS;
    if (o.plot_y != NULL || (have_preset && pr.y[0])) {
        char **ys = NULL;
        size_t n_y = 0;
        const char *list = o.plot_y ? o.plot_y : pr.y;
        char reason[512];
        if (parse_list_words(list, &ys, &n_y, reason, sizeof reason) != 0) {
            snprintf(err, sizeof err, "--plot-y: %s", reason);
            goto usage;
        }
        for (size_t i = 0; i < n_y; i++) /* a group's ("rogue.share"), a budget's: with the points */
            if (strchr(ys[i], '.') == NULL && sweep_measure_find(ys[i]) < 0 &&
                !is_budget_name(ys[i])) {
                snprintf(err, sizeof err, "--plot-y: unknown measure '%.64s' (e.g. throughput, "
                                          "mean_delay_us, attempts, completion_s)",
                         ys[i]);
                parse_list_free_words(ys, n_y);
                goto usage;
            }
        if (n_y > PLOT_MAX_PANELS) {
            snprintf(err, sizeof err, "--plot-y: at most %d panels", PLOT_MAX_PANELS);
            parse_list_free_words(ys, n_y);
            goto usage;
        }
        parse_list_free_words(ys, n_y);
    }

    /* 2. The base scenarios, one per phy value. */
    o.ignore = true;
    n_bases = grid.n[SWEEP_AXIS_PHY] > 0 ? grid.n[SWEEP_AXIS_PHY] : 1;
    bases = calloc(n_bases, sizeof *bases);
    if (bases == NULL)
        goto nomem;
    for (size_t i = 0; i < n_bases; i++) {
        const char *phy = grid.n[SWEEP_AXIS_PHY] > 0 ? grid.values[SWEEP_AXIS_PHY][i] : NULL;
        if (base_scenario(&cmd, argc, argv, have_preset ? &pr : NULL, phy, &bases[i], err,
                          sizeof err) != 0) {
            if (phy != NULL && strncmp(err, "--", 2) != 0) { /* the phy axis's value */
                char pre[128];
                snprintf(pre, sizeof pre, "%s%s",
                         o.by_grid[SWEEP_AXIS_PHY] || !o.given[SWEEP_AXIS_PHY] ? "--grid phy="
                                                                               : "--phy ",
                         phy);
                put_before(err, sizeof err, pre);
            }
            goto usage;
        }
        if (bases[i].positions_m != NULL) {
            snprintf(err, sizeof err, "--positions: not supported by sweep (each row must re-run "
                                      "from its columns; sweep --length instead)");
            goto usage;
        }
        traffic_kind t = bases[i].traffic.kind;
        if (grid.n[SWEEP_AXIS_LOAD] > 0 && t != TRAFFIC_POISSON && t != TRAFFIC_ONOFF) {
            snprintf(err, sizeof err, "--load: conflicts with %s traffic, which has no offered "
                                      "load (use --traffic poisson or onoff)",
                     scenario_traffic_name(t));
            goto usage;
        }
    }

    /* No output may be another output or an input (after links and "./"). */
    {
        const outfile_role outs[] = {{"--csv", o.csv}, {"--reps-csv", o.reps_csv},
                                     {"--plot", o.plot}};
        outfile_role ins[1 + 8] = {{"the scenario file", scenario_file}};
        size_t n_ins = 1;
        for (size_t i = 0; i < n_bases && n_ins < sizeof ins / sizeof ins[0]; i++)
            if (bases[i].traffic.kind == TRAFFIC_PCAP)
                ins[n_ins++] = (outfile_role){"the replayed capture", bases[i].pcap_path};
        if (outfile_conflicts(outs, 3, ins, n_ins, err, sizeof err) != 0)
            goto usage;
        /* Each output's folder and permission, before the points are
         * built (a capture may be read for each): exit 1 naming the path. */
        for (size_t i = 0; i < 3 && rank == 0; i++)
            if (outs[i].path != NULL && outfile_check(outs[i].path, err, sizeof err) != 0) {
                say_error(talk, "%s", err);
                status = EXIT_STATUS_RUNTIME;
                goto early;
            }
    }

    /* From here on a signal ends the sweep with a valid CSV of what is
     * complete (possibly only the header). */
    if (cli_signals_install() != 0) {
        say_error(true, "signal handlers: %s", strerror(errno));
        status = EXIT_STATUS_RUNTIME;
        goto early;
    }

    /* 3. The points, each finished and its engine built once (a signal
     * here stops the building: no point runs). */
    n_points = sweep_grid_points(&grid);
    if (n_points > SWEEP_MAX_POINTS) {
        snprintf(err, sizeof err, "the grid has %zu points; at most %u", n_points,
                 SWEEP_MAX_POINTS);
        goto usage;
    }
    /* Every replication keeps its measures until the rows are written:
     * points x replications is bounded here, before any memory is taken. */
    {
        uint64_t reps = o.precision_given ? o.max_reps : o.reps;
        if ((uint64_t)n_points * reps > SWEEP_MAX_RUNS) {
            snprintf(err, sizeof err,
                     "%s: %zu points x %llu replications make %llu runs (at most %u)",
                     o.precision_given ? "--max-reps" : "--reps", n_points,
                     (unsigned long long)reps, (unsigned long long)n_points * reps,
                     SWEEP_MAX_RUNS);
            goto usage;
        }
    }
    points = calloc(n_points, sizeof *points);
    res = calloc(n_points, sizeof *res);
    owned = calloc(n_points, sizeof *owned);
    if (points == NULL || res == NULL || owned == NULL)
        goto nomem;
    sweep_options so = {
        .reps = o.reps,
        .precision = o.precision_given ? o.precision : 0,
        .max_reps = o.max_reps,
        .seed = bases[0].seed,
        .jobs = o.jobs ? o.jobs : default_jobs(local_ranks),
        .fewer_jobs = fewer_jobs,
    };
    so.replay_for = &points[0];
    for (size_t p = 0; p < n_points && cli_signal_caught() == 0; p++) {
        size_t idx[SWEEP_MAX_AXES];
        sweep_grid_index(&grid, p, idx);
        scenario *sc = &points[p];
        if (scenario_copy(sc, &bases[grid.n[SWEEP_AXIS_PHY] > 0 ? idx[SWEEP_AXIS_PHY] : 0]) != 0)
            goto nomem;
        if (sweep_apply(&grid, p, sc, err, sizeof err) != 0) {
            name_point(&grid, &o, p, err, sizeof err);
            goto usage;
        }
        sc->seed = sweep_seed(so.seed, p, 0);
        sim_time sized = preset_frames_duration(sc, frames);
        if (sized > 0)
            sc->duration = sized;
        char warn[2048];
        if (scenario_finish(sc, err, sizeof err, warn, sizeof warn) != 0) {
            name_point(&grid, &o, p, err, sizeof err);
            goto usage;
        }
        warn_once(&warns, warn);
        int loaded = p == 0 && sc->traffic.kind == TRAFFIC_PCAP
                         ? engine_load_replay(sc, &shared, err, sizeof err)
                         : 0;
        if (loaded == ENGINE_NO_MEMORY)
            goto runtime; /* "path: Cannot allocate memory": not the input's fault */
        if (loaded != 0)
            goto usage;
        engine *e = NULL;
        int created = engine_create_shared(
            sc, shared != NULL && engine_replay_same(&points[0], sc) ? shared : NULL, &e, err,
            sizeof err);
        if (created == ENGINE_NO_MEMORY)
            goto runtime;
        if (created != 0)
            goto usage;
        engine_destroy(e);
        owned[p] = (int)(p % (size_t)size) == rank;
    }
    {
        const outfile_role outs[] = {{"--csv", o.csv}, {"--reps-csv", o.reps_csv},
                                     {"--plot", o.plot}};
        if (cli_signal_caught() == 0 &&
            check_point_inputs(outs, 3, points, n_points, err, sizeof err) != 0)
            goto usage;
    }
    if (n_points > 0 && cli_signal_caught() == 0 &&
        check_group_measures(o.plot_y ? o.plot_y : have_preset ? pr.y : "", points, n_points,
                             err, sizeof err) != 0)
        goto usage;

    /* 4. The outputs (rank 0), then everyone runs. Every rank meets the
     * others here (agree), whether it got here or failed on the way. */
    if (rank == 0) {
        if (outfile_open(&csv, o.csv, err, sizeof err) != 0 ||
            (o.reps_csv && outfile_open(&reps_csv, o.reps_csv, err, sizeof err) != 0) ||
            (o.plot && outfile_open(&fig, o.plot, err, sizeof err) != 0)) {
            say_error(talk, "%s", err);
            status = EXIT_STATUS_RUNTIME;
            goto early;
        }
    }
    if ((status = agree(EXIT_STATUS_OK, size)) != EXIT_STATUS_OK)
        goto done;
    so.replay = shared;
    sweep_progress pg = {.on = rank == 0 && !o.quiet && isatty(STDERR_FILENO)};
    clock_gettime(CLOCK_MONOTONIC, &pg.t0);
    /* A point that fails (out of memory) ends the sweep, but the rows
     * already finished are data: they are written as after a signal. */
    bool failed = false;
    if (cli_signal_caught() == 0 &&
        sweep_execute(points, n_points, owned, &so, res, sweep_progress_show, &pg, cli_signal_caught,
                      err, sizeof err) != 0) {
        if (pg.on)
            fputc('\n', stderr);
        say_error(talk, "%s", err);
        failed = true;
        pg.on = false;
    }
    if (pg.on)
        fputc('\n', stderr);
    int sig = cli_signal_caught();
    /* A rank that failed (and said why) or was interrupted: rank 0 writes
     * the rows the others finished and says "stopped"/"interrupted". */
    failed = agree(failed, size) != 0;
    sig = agree(sig, size);
#ifdef CSMACD_MPI
    if (size > 1 && sweep_mpi_gather(res, n_points, rank, size, err, sizeof err) != 0) {
        /* Rank 0 alone: the others may be blocked sending to it. */
        say_error(talk, "%s", err);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_RUNTIME);
    }
#endif
    if (rank != 0) {
        status = failed ? EXIT_STATUS_RUNTIME : sig ? cli_signal_exit_status(sig) : EXIT_STATUS_OK;
        goto done;
    }

    /* 5. The rows, in point order, and the figure. */
    size_t n_done = 0;
    sweep_csv_layout layout;
    if (sweep_csv_layout_init(&layout, &grid, points, n_points, o.all_columns,
                              o.plot_y ? o.plot_y : have_preset ? pr.y : "") != 0) {
        say_error(talk, "out of memory"); /* rank 0 alone: the others are done */
        status = EXIT_STATUS_RUNTIME;
        goto done;
    }
    sweep_csv_header(csv.f, &layout);
    if (reps_csv.f)
        sweep_csv_reps_header(reps_csv.f, &layout);
    for (size_t p = 0; p < n_points; p++) {
        if (!res[p].done)
            continue;
        n_done++;
        sweep_csv_row(csv.f, &layout, &points[p], p, &res[p], &so);
        if (reps_csv.f)
            sweep_csv_reps_rows(reps_csv.f, &layout, &points[p], p, &res[p], so.seed);
    }
    /* The figure is drawn before anything is renamed into place, so that
     * the rows and the figure are replaced together; a signal meanwhile
     * lets the drawing finish (plot.h). Only finished rows replace a file:
     * with no point finished (a failure, or a signal before the first),
     * every older output is left as it was and only a new path gets the
     * header; a figure gnuplot could not draw leaves the older one. */
    status = EXIT_STATUS_OK;
    const bool keep_older = n_done == 0;
    bool drawn = false;
    char plot_err[sizeof err] = "";
    if (fig.f != NULL && n_done > 0) {
        figure_request rq = {
            .y_list = o.plot_y ? o.plot_y : (have_preset && pr.y[0] ? pr.y : "throughput"),
            .title = o.title ? o.title : (have_preset && pr.title[0] ? pr.title : NULL),
            .x_axis = o.plot_x,
            .xlabel = have_preset && pr.xlabel[0] ? pr.xlabel : NULL,
            .xtics = have_preset && pr.xtics[0] ? pr.xtics : NULL,
            .marks = have_preset && pr.marks[0] ? pr.marks : NULL,
            .series = have_preset && pr.series[0] ? pr.series : NULL,
        };
        int rc = figure_draw(&rq, &grid, points, res, &fig, plot_warning, NULL, plot_err,
                             sizeof plot_err);
        if (rc == PLOT_NO_GNUPLOT)
            snprintf(plot_err, sizeof plot_err,
                     "%s: not drawn: gnuplot is not installed (apt-get install gnuplot-nox); "
                     "the rows are in %s",
                     o.plot, o.csv);
        drawn = rc == 0;
    }
    sweep_csv_layout_free(&layout);
    /* What was written is said, one line per file (not with --quiet):
     * without a terminal there is no progress bar to show anything. */
    bool say_wrote = talk && !o.quiet;
    char kept[sizeof err] = ""; /* the older outputs left as they were */
    outfile *rows[] = {&csv, &reps_csv};
    for (size_t i = 0; i < 2; i++) /* each write error's reason, before any commit frees room */
        outfile_settle(rows[i]);
    for (size_t i = 0; i < 2; i++) {
        if (rows[i]->f == NULL)
            continue;
        char what[1024];
        snprintf(what, sizeof what, "%s", rows[i]->path);
        bool was_kept = false;
        int rc = keep_older ? outfile_commit_new(rows[i], &was_kept, err, sizeof err)
                            : outfile_commit(rows[i], err, sizeof err);
        if (rc != 0) {
            say_error(talk, "%s", err);
            status = EXIT_STATUS_RUNTIME;
            drawn = false;
        } else if (was_kept) {
            size_t len = strlen(kept);
            snprintf(kept + len, sizeof kept - len, "%s%s", len ? ", " : "", what);
        } else if (say_wrote && i == 0) {
            cli_note("wrote %s: %zu of %zu points", what, n_done, n_points);
        } else if (say_wrote) {
            cli_note("wrote %s: the replications of %zu points", what, n_done);
        }
    }
    if (drawn) {
        if (outfile_commit(&fig, err, sizeof err) != 0) {
            say_error(talk, "%s", err);
            status = EXIT_STATUS_RUNTIME;
        } else if (say_wrote) {
            cli_note("wrote %s: the figure of %zu points", o.plot, n_done);
        }
    } else if (fig.f != NULL) {
        outfile_discard(&fig);
        struct stat older;
        bool has_older = stat(o.plot, &older) == 0 && S_ISREG(older.st_mode);
        if (plot_err[0] != '\0') {
            say_error(talk, "%s%s", plot_err,
                      has_older ? " (the older figure was left as it was; it does not show "
                                  "these rows)"
                                : "");
            status = EXIT_STATUS_RUNTIME;
        } else if (has_older) {
            size_t len = strlen(kept);
            snprintf(kept + len, sizeof kept - len, "%s%s", len ? ", " : "", o.plot);
        }
    }
    if (sig == 0)
        sig = cli_signal_caught(); /* while the figure was drawn */
    char where[sizeof kept + 64];
    if (kept[0] != '\0')
        snprintf(where, sizeof where, "(older files left as they were: %s)", kept);
    else
        snprintf(where, sizeof where, "in %s", o.csv);
    if (failed) {
        say_error(talk, "stopped: %zu of %zu points complete %s", n_done, n_points, where);
        status = EXIT_STATUS_RUNTIME;
    } else if (sig != 0) {
        say_error(talk, "interrupted: %zu of %zu points complete %s", n_done, n_points, where);
        if (status == EXIT_STATUS_OK)
            status = cli_signal_exit_status(sig);
    }
    goto done;

nomem: /* this rank's own trouble: said by whichever rank meets it */
    snprintf(err, sizeof err, "out of memory");
runtime: /* the same, with err said as it is */
    say_error(true, "%s", err);
    status = EXIT_STATUS_RUNTIME;
    goto early;
usage: /* the same on every rank: said by rank 0 */
    say_error(talk, "%s", err);
    status = EXIT_STATUS_USAGE;
early: /* before or at step 4: the ranks meet where the outputs are opened */
    status = agree(status, size);
done:
    outfile_discard(&csv);
    outfile_discard(&reps_csv);
    outfile_discard(&fig);
    replay_destroy(shared);
    for (size_t i = 0; i < n_bases && bases; i++)
        scenario_free(&bases[i]);
    for (size_t p = 0; p < n_points && points; p++) {
        scenario_free(&points[p]);
        if (res)
            sweep_result_free(&res[p]);
    }
    free(bases);
    free(points);
    free(res);
    free(owned);
    sweep_grid_free(&grid);
    sweep_grid_free(&o.grid);
    warned_free(&warns);
    return status;
}

int cmd_sweep_main(int argc, char **argv)
{
#ifdef CSMACD_MPI
    int rank = 0, size = 1, local = 1;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    /* Only rank 0 talks: the others' help text would repeat it. */
    if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
        MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_RUNTIME);
    int status = sweep_main(argc, argv, rank, size, local);
    MPI_Finalize();
    return status;
#else
    return sweep_main(argc, argv, 0, 1, 1);
#endif
}
