/* sweep_cli.c - the options of `csmacd sweep` (sweep_cli.h): the table
 * shown by --help and their parsing into a sweep_cli.
 */
#include "sweep_cli.h"

#include <stdio.h>
#include <string.h>

#include "figure.h"
#include "parse.h"
#include "plot.h"

enum {
    OPT_AXIS = 1, /* + sweep_axis */
    OPT_REPS = 100,
    OPT_PRECISION,
    OPT_MAX_REPS,
    OPT_JOBS,
    OPT_PRESET,
    OPT_QUIET,
    OPT_ALL_COLUMNS,
    OPT_CSV,
    OPT_REPS_CSV,
    OPT_PLOT,
    OPT_PLOT_Y,
    OPT_TITLE,
    OPT_PLOT_X,
    OPT_GRID,
};

const cli_option sweep_cli_options[] = {
    {"stations", CLI_ARG_REQUIRED, "LIST", "numbers of stations: 1,2,4 or 1..1024:log",
     OPT_AXIS + SWEEP_AXIS_STATIONS},
    {"load", CLI_ARG_REQUIRED, "LIST", "offered loads G (poisson, onoff): 0.1..1:0.1",
     OPT_AXIS + SWEEP_AXIS_LOAD},
    {"frame-size", CLI_ARG_REQUIRED, "LIST", "frame sizes in bytes: 64,512,1518 (or one N-M)",
     OPT_AXIS + SWEEP_AXIS_FRAME_SIZE},
    {"phy", CLI_ARG_REQUIRED, "LIST", "PHY profiles: 10base5,100basetx",
     OPT_AXIS + SWEEP_AXIS_PHY},
    {"length", CLI_ARG_REQUIRED, "LIST", "cable lengths in metres: 0,500,2500",
     OPT_AXIS + SWEEP_AXIS_LENGTH},
    {"policy", CLI_ARG_REQUIRED, "LIST", "backoff policies: beb,fixed:wait=4",
     OPT_AXIS + SWEEP_AXIS_POLICY},
    {"grid", CLI_ARG_REQUIRED, "KEY=LIST",
     "any scenario key, a group's too: rogue.stations=0..3", OPT_GRID},
    {"reps", CLI_ARG_REQUIRED, "R", "independent replications per point (1)", OPT_REPS},
    {"precision", CLI_ARG_REQUIRED, "REL",
     "add replications until the throughput CI half-width <= REL x mean", OPT_PRECISION},
    {"max-reps", CLI_ARG_REQUIRED, "M", "cap on replications per point with --precision (100)",
     OPT_MAX_REPS},
    {"jobs", CLI_ARG_REQUIRED, "J", "worker threads (the number of cores)", OPT_JOBS},
    {"preset", CLI_ARG_REQUIRED, "NAME", "start from a built-in experiment (csmacd presets)",
     OPT_PRESET},
    {"quiet", CLI_ARG_NONE, NULL, "no progress bar", OPT_QUIET},
    {"csv", CLI_ARG_REQUIRED, "FILE", "write one row per point to FILE (required)", OPT_CSV},
    {"all-columns", CLI_ARG_NONE, NULL,
     "a network's CSV columns for every row: each link's, bridge port's and a switch's "
     "collision domain's too (without it: segments, repeaters, the domains of segments and "
     "the rows --plot-y names)", OPT_ALL_COLUMNS},
    {"reps-csv", CLI_ARG_REQUIRED, "FILE", "also write one row per replication to FILE",
     OPT_REPS_CSV},
    {"plot", CLI_ARG_REQUIRED, "FILE", "draw the figure with gnuplot: FILE.svg, .png or .pdf",
     OPT_PLOT},
    {"plot-y", CLI_ARG_REQUIRED, "LIST", "measures to plot, one panel each (throughput)",
     OPT_PLOT_Y},
    {"plot-x", CLI_ARG_REQUIRED, "AXIS",
     "the x axis: stations, load, length, frame-size or a --grid KEY", OPT_PLOT_X},
    {"title", CLI_ARG_REQUIRED, "TEXT", "the figure's title", OPT_TITLE},
};

const size_t sweep_cli_n_options = sizeof sweep_cli_options / sizeof sweep_cli_options[0];


int sweep_cli_plot_x(const sweep_grid *g, const char *value, int *out, char *err,
                     size_t errlen)
{
    for (size_t i = 0; i < FIGURE_N_X_AXES; i++)
        if (strcmp(value, sweep_axis_key(figure_x_axes[i])) == 0) {
            *out = (int)figure_x_axes[i];
            return 0;
        }
    int a = sweep_grid_find(g, value);
    if (a >= SWEEP_N_AXES) {
        *out = a;
        return 0;
    }
    snprintf(err, errlen,
             "'%.64s' cannot be the x axis (stations, load, length, frame-size or a --grid key)",
             value);
    return -1;
}

/* --grid KEY=LIST */
static int grid_option(sweep_cli *o, const char *value, char *err, size_t errlen)
{
    const char *eq = strchr(value, '=');
    char key[SWEEP_KEY_MAX];
    if (eq == NULL || eq == value || (size_t)(eq - value) >= sizeof key || eq[1] == '\0') {
        snprintf(err, errlen, "'%.64s' is not KEY=LIST (e.g. rogue.stations=0..4)", value);
        return -1;
    }
    memcpy(key, value, (size_t)(eq - value));
    key[eq - value] = '\0';
    /* One list per axis: a second would silently replace the first (an
     * axis's own option, --stations, is the same axis as stations=). */
    int given = key[0] == '+' ? -1 : sweep_grid_find(&o->grid, key);
    if ((key[0] == '+' && sweep_grid_has_companion(&o->grid, key + 1)) ||
        (given >= 0 && o->grid.n[given] > 0)) {
        int named = sweep_axis_find(key[0] == '+' ? key + 1 : key);
        snprintf(err, errlen, "%s: given twice%s (one list per axis)", key,
                 named >= 0 ? (key[0] == '+' ? "" : ", or with its own option") : "");
        return -1;
    }
    char reason[400];
    if (sweep_grid_set_key(&o->grid, key, eq + 1, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s: %s", key, reason);
        return -1;
    }
    int a = sweep_axis_find(key);
    if (a >= 0)
        o->given[a] = o->by_grid[a] = true;
    return 0;
}

int sweep_cli_on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    sweep_cli *o = ctx;
    if (o->ignore)
        return 0;
    if (id >= OPT_AXIS && id < OPT_AXIS + SWEEP_N_AXES) {
        if (o->grid.n[id - OPT_AXIS] > 0) { /* said as --grid KEY=LIST or twice */
            snprintf(err, errlen, "given twice, or with --grid %s= (one list per axis)",
                     sweep_grid_key(&o->grid, (size_t)(id - OPT_AXIS)));
            return -1;
        }
        o->given[id - OPT_AXIS] = true;
        return sweep_grid_set(&o->grid, (sweep_axis)(id - OPT_AXIS), value, err, errlen);
    }
    uint32_t u = 0;
    switch (id) {
    case OPT_REPS:
        if (parse_u32(value, 1, 1000000, &o->reps, err, errlen) != 0)
            return -1;
        o->reps_given = true;
        return 0;
    case OPT_PRECISION:
        if (parse_double(value, 1e-6, 0.999, &o->precision, err, errlen) != 0)
            return -1;
        o->precision_given = true;
        return 0;
    case OPT_MAX_REPS:
        if (parse_u32(value, SWEEP_PRECISION_MIN_REPS, 1000000, &o->max_reps, err, errlen) != 0)
            return -1;
        o->max_reps_given = true;
        return 0;
    case OPT_JOBS:
        if (parse_u32(value, 1, 1024, &u, err, errlen) != 0)
            return -1;
        o->jobs = u;
        return 0;
    case OPT_PRESET:
        if (o->preset != NULL) {
            snprintf(err, errlen, "given twice (one preset per sweep)");
            return -1;
        }
        o->preset = value;
        return 0;
    case OPT_QUIET:
        o->quiet = true;
        return 0;
    case OPT_ALL_COLUMNS:
        o->all_columns = true;
        return 0;
    case OPT_CSV:
    case OPT_REPS_CSV:
    case OPT_PLOT:
        if (value[0] == '\0') {
            snprintf(err, errlen, "needs a file name");
            return -1;
        }
        if (id == OPT_PLOT) {
            plot_format fmt;
            if (plot_format_of(value, &fmt) != 0) {
                snprintf(err, errlen, "'%.128s': the figure's name must end in .svg, .png or .pdf",
                         value);
                return -1;
            }
            o->plot = value;
        } else if (id == OPT_CSV) {
            o->csv = value;
        } else {
            o->reps_csv = value;
        }
        return 0;
    case OPT_PLOT_Y:
        o->plot_y = value;
        return 0;
    case OPT_TITLE:
        o->title = value;
        return 0;
    case OPT_PLOT_X:
        o->plot_x_key = value; /* read once the grid is known */
        return 0;
    case OPT_GRID:
        return grid_option(o, value, err, errlen);
    default:
        snprintf(err, errlen, "unhandled option");
        return -1;
    }
}
