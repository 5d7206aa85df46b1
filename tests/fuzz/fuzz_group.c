/* fuzz_group.c - libFuzzer harness for station groups as `csmacd sweep`
 * builds its points: `--group 'NAME KEY=VALUE ...'`, `[group NAME]`
 * sections, `NAME.key` keys and `--grid` over group keys
 * (`--grid rogue.stations=0..3 --grid +rogue.load=...`).
 *
 * The input is text. Up to a line "%%" it is a scenario file (INI, given
 * as --scenario through a memfd); after it (or all of it, without "%%")
 * one argument per line, parsed with cli_parse and sweep's own option
 * table (sweep_cli.h), the probe pass of cmd_sweep.c. Then, as cmd_sweep.c
 * does: a base scenario per --phy value (at most 4), and for at most 12
 * points of the grid (the first 8, the last 4) a copy of its base,
 * sweep_apply, cli_finish, engine_create and a run of at most 2000 events.
 *
 * What must hold besides ASan and UBSan:
 *   - every refusal prints, through cli_error as the program does, one
 *     error line of text (fuzz_common.h), and every warning line is text;
 *   - a finished scenario's groups partition its stations: names valid
 *     and distinct, counts summing to n_stations, each group's first
 *     station right after the previous group, scenario_group_of agreeing
 *     for every station; a copy has the same groups;
 *   - an engine made from a finished scenario runs (no crash, no hang:
 *     the event budget bounds the run) and reports as many stations.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_group -runs=3000 build/tests/fuzz-group-corpus tests/fuzz/corpus-group
 * Long run: tests/fuzz/run.sh 30m group (tests/fuzz/README.md).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "fuzz_common.h"
#include "sweep.h"
#include "sweep_cli.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64
#define MAX_BASES 4
#define FIRST_POINTS 8
#define LAST_POINTS 4
#define RUN_EVENTS 2000

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SCENARIO_GROUP_NAME_MAX || !isalpha((unsigned char)name[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
            return false;
    return true;
}

/* The groups of a finished scenario partition its stations. */
static void check_groups(const scenario *sc)
{
    uint32_t n = scenario_group_count(sc);
    if (n == 0 || n > SCENARIO_MAX_GROUPS)
        abort();
    uint64_t next = 0;
    for (uint32_t g = 0; g < n; g++) {
        const station_group *gr = scenario_group_at(sc, g);
        if (sc->n_named) {
            if (!valid_name(gr->name))
                abort();
            for (uint32_t h = 0; h < g; h++)
                if (strcmp(scenario_group_at(sc, h)->name, gr->name) == 0)
                    abort();
        }
        if (gr->first != next)
            abort();
        for (uint32_t i = gr->first; i < gr->first + gr->count; i++)
            if (scenario_group_of(sc, i) != g)
                abort();
        next += gr->count;
    }
    if (next != sc->n_stations || sc->n_stations == 0 || sc->n_stations > SCENARIO_MAX_STATIONS)
        abort();
    scenario copy;
    if (scenario_copy(&copy, sc) == 0) {
        if (copy.n_named != sc->n_named || copy.n_stations != sc->n_stations)
            abort();
        for (uint32_t g = 0; g < n; g++)
            if (scenario_group_at(&copy, g)->count != scenario_group_at(sc, g)->count ||
                strcmp(scenario_group_at(&copy, g)->name, scenario_group_at(sc, g)->name) != 0)
                abort();
        scenario_free(&copy);
    }
}

/* cli_finish (its warnings printed), then the refusal printed too. */
static int finish(scenario *sc)
{
    char err[2048];
    return fuzz_finish(sc, err, sizeof err, NULL, NULL);
}

static void run_point(scenario *sc)
{
    if (finish(sc) != 0)
        return;
    check_groups(sc);
    engine *e = NULL;
    char err[1024];
    err[0] = '\0';
    int rc = engine_create(sc, &e, err, sizeof err);
    if (rc == ENGINE_NO_MEMORY)
        return;
    if (rc != 0) {
        fuzz_check_refusal(err);
        return;
    }
    if (engine_start(e, err, sizeof err) == 0) {
        if (engine_run(e, sc->duration, RUN_EVENTS) == ENGINE_OUT_OF_MEMORY)
            abort(); /* 2000 events cannot exhaust the memory */
        results r;
        engine_results(e, &r);
        if (r.n_stations != sc->n_stations || r.n_groups != sc->n_named)
            abort();
        if (fuzz_verbose())
            fprintf(stderr, "ran %u stations in %u groups: %llu events\n", r.n_stations,
                    r.n_groups, (unsigned long long)r.events);
    }
    engine_destroy(e);
}

/* One pass of cli_parse over argv into sc (from the defaults, phy first
 * when a --phy value is swept): base_scenario of cmd_sweep.c. */
static int base(const cli_command *cmd, int argc, char **argv, const char *phy, scenario *sc)
{
    char err[2048];
    err[0] = '\0';
    scenario_defaults(sc);
    if (phy != NULL && scenario_set(sc, "phy", phy, err, sizeof err) != 0) {
        fuzz_check_refusal(err);
        return -1;
    }
    cli_status st = cli_parse(cmd, argc, argv, sc, err, sizeof err);
    if (st != CLI_OK) {
        if (st != CLI_ERROR)
            abort(); /* the first pass took the same argv */
        fuzz_check_refusal(err);
        return -1;
    }
    return 0;
}

static void sweep_points(const cli_command *cmd, sweep_cli *o, int argc, char **argv)
{
    sweep_grid *g = &o->grid;
    size_t n_bases = g->n[SWEEP_AXIS_PHY] > 0 ? g->n[SWEEP_AXIS_PHY] : 1;
    if (n_bases > MAX_BASES)
        n_bases = MAX_BASES;
    scenario bases[MAX_BASES];
    bool ok[MAX_BASES] = {false};
    o->ignore = true;
    for (size_t i = 0; i < n_bases; i++) {
        const char *phy = g->n[SWEEP_AXIS_PHY] > 0 ? g->values[SWEEP_AXIS_PHY][i] : NULL;
        ok[i] = base(cmd, argc, argv, phy, &bases[i]) == 0;
    }
    size_t n_points = sweep_grid_points(g);
    for (size_t k = 0; k < FIRST_POINTS + LAST_POINTS; k++) {
        size_t p = k < FIRST_POINTS ? k : n_points - (FIRST_POINTS + LAST_POINTS - k);
        if (p >= n_points || (k >= FIRST_POINTS && p < FIRST_POINTS))
            continue;
        size_t idx[SWEEP_MAX_AXES];
        sweep_grid_index(g, p, idx);
        size_t b = g->n[SWEEP_AXIS_PHY] > 0 ? idx[SWEEP_AXIS_PHY] : 0;
        if (b >= n_bases || !ok[b])
            continue;
        scenario sc;
        if (scenario_copy(&sc, &bases[b]) != 0)
            continue;
        char err[2048];
        err[0] = '\0';
        if (sweep_apply(g, p, &sc, err, sizeof err) != 0)
            fuzz_check_refusal(err);
        else
            run_point(&sc);
        scenario_free(&sc);
    }
    for (size_t i = 0; i < n_bases; i++)
        scenario_free(&bases[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_silence_stdio();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* The scenario file: up to a line "%%". */
    char *args = text, *file_end = NULL;
    if (strncmp(text, "%%\n", 3) == 0 || strcmp(text, "%%") == 0) {
        file_end = text;
    } else {
        char *m = strstr(text, "\n%%\n");
        if (m == NULL && size >= 3 && strcmp(text + size - 3, "\n%%") == 0)
            m = text + size - 3;
        if (m != NULL)
            file_end = m + 1;
    }
    int fd = -1;
    char path[64];
    if (file_end != NULL) {
        args = file_end[2] == '\0' ? file_end + 2 : file_end + 3;
        fd = memfd_create("fuzz-group", 0);
        if (fd < 0 || (file_end > text && write(fd, text, (size_t)(file_end - text)) !=
                                              (ssize_t)(file_end - text))) {
            if (fd >= 0)
                close(fd);
            free(text);
            return 0;
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    char *argv[MAX_ARGS + 4];
    int argc = 0;
    argv[argc++] = "sweep";
    if (fd >= 0) {
        argv[argc++] = "--scenario";
        argv[argc++] = path;
    }
    char *end = text + size;
    for (char *p = args; argc < MAX_ARGS + 3 && p < end;) {
        argv[argc++] = p;
        while (p < end && *p != '\n' && *p != '\0')
            p++;
        *p = '\0';
        p++;
    }
    argv[argc] = NULL;

    sweep_cli o = {.reps = 1, .max_reps = SWEEP_MAX_REPS_DEFAULT, .plot_x = -1};
    const cli_command cmd = {
        .name = "sweep",
        .summary = "fuzz",
        .options = sweep_cli_options,
        .n_options = sweep_cli_n_options,
        .scenario_options = true,
        .on_option = sweep_cli_on_option,
        .ctx = &o,
    };
    scenario probe;
    scenario_defaults(&probe);
    char err[2048];
    err[0] = '\0';
    cli_status st = cli_parse(&cmd, argc, argv, &probe, err, sizeof err);
    scenario_free(&probe);
    if (st == CLI_ERROR)
        fuzz_check_refusal(err);
    else if (st == CLI_OK)
        sweep_points(&cmd, &o, argc, argv);
    else if (st != CLI_HELP)
        abort();
    sweep_grid_free(&o.grid);
    if (fd >= 0)
        close(fd);
    free(text);
    return 0;
}
