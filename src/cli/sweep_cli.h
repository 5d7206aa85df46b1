/* sweep_cli.h - the options of `csmacd sweep` that are its own (the
 * scenario options are cli.h's): the axes, replications, outputs and the
 * figure's choices, parsed into one struct by cli_parse through
 * sweep_cli_on_option.
 */
#ifndef CSMACD_SWEEP_CLI_H
#define CSMACD_SWEEP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "sweep.h"

#define SWEEP_MAX_REPS_DEFAULT 100u

typedef struct sweep_cli {
    bool ignore;           /* later passes of cli_parse: options already read */
    sweep_grid grid;       /* axes from the command line */
    bool given[SWEEP_N_AXES]; /* named axes given (an option or --grid) */
    bool by_grid[SWEEP_N_AXES]; /* ... and those given as --grid KEY=LIST */
    uint32_t reps;
    bool reps_given;
    double precision;
    bool precision_given;
    uint32_t max_reps;
    bool max_reps_given;
    unsigned jobs;
    const char *preset;
    bool quiet;
    bool all_columns;      /* --all-columns: every network row in the CSVs */
    const char *csv, *reps_csv, *plot, *plot_y, *title;
    const char *plot_x_key;/* --plot-x */
    int plot_x;            /* an axis of the grid, or -1: the first of figure_x_axes swept */
} sweep_cli;


/* The option table and its handler for cli_parse (ctx: a sweep_cli). */
extern const cli_option sweep_cli_options[];
extern const size_t sweep_cli_n_options;
int sweep_cli_on_option(void *ctx, int id, const char *value, char *err, size_t errlen);

/* Reads an x axis by its key ("stations", ..., or a keyed axis of g):
 * 0, or -1 with a reason. */
int sweep_cli_plot_x(const sweep_grid *g, const char *value, int *out, char *err,
                     size_t errlen);

#endif
