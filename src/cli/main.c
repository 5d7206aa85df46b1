/* main.c - the csmacd program: dispatch to a command (src/cli/CLI.md,
 * "Commands").
 *
 *   csmacd COMMAND [options]     run a command (table below)
 *   csmacd --help | -h           the commands, on standard output
 *   csmacd --version             the version
 *   csmacd COMMAND --help        one command's options
 *   csmacd                       the TUI demo on a terminal, else the usage
 * Commands are rows of a const table: a new command adds its entry
 * function to commands.h and one row here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "exit_status.h"
#include "outfile.h"

typedef struct command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv);
} command;

static const command commands[] = {
    {"run", "run one scenario and print its measures (text, JSON or CSV)", cmd_run_main},
    {"tui", "the live screen: throughput vs stations, the medium, every station", cmd_tui_main},
    {"sweep", "run a scenario over a grid, with replications, CIs, CSV and a figure",
     cmd_sweep_main},
    {"check", "check a network of segments against 802.3's delay budget (5-4-3, 512 bits)",
     cmd_check_main},
    {"presets", "list the built-in experiments (csmacd sweep --preset NAME)", cmd_presets_main},
    {"extcap", "csmacd as a Wireshark capture interface (extcap)", cmd_extcap_main},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
    fprintf(f, "usage: csmacd COMMAND [options]\n"
               "       csmacd COMMAND --help\n"
               "       csmacd --help | --version\n\n"
               "csmacd emulates half-duplex Ethernet (IEEE 802.3 CSMA/CD): stations on a\n"
               "shared cable or repeater hub, carrier sense, collisions, jam and backoff,\n"
               "timed to the picosecond.\n\nCommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nExample: csmacd run --stations 16 --duration 2s --format json\n"
               "Exit status: 0 success, 1 runtime failure (e.g. a write error), 2 usage or\n"
               "input error, 130/143 interrupted by SIGINT/SIGTERM (outputs still complete),\n"
               "141 standard output closed by its reader (output files still complete).\n");
}

static int finish_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno == EPIPE)
            return EXIT_STATUS_SIGPIPE; /* the reader left: silent, exit_status.h */
        cli_error("standard output: write error");
        return EXIT_STATUS_RUNTIME;
    }
    return EXIT_STATUS_OK;
}

int main(int argc, char **argv)
{
    /* Write errors are reported, not fatal signals: a closed standard
     * output (SIGPIPE) and a file-size limit (SIGXFSZ, `ulimit -f`) would
     * otherwise kill the program with its outputs half written under
     * temporary names. Ignored, the write fails with EPIPE or EFBIG and
     * the command finishes or discards its files (exit_status.h).
     * Children (gnuplot) get the default dispositions back (plot.c). */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    /* Before anything is opened: a closed descriptor 1 would otherwise be
     * reused by the first output file, and the measures written into it. */
    outfile_guard_stdio();
    if (argc < 2) {
        /* On a terminal, csmacd alone is the TUI demo (src/cli/CLI.md,
         * "Commands"). */
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
            char *tui_argv[] = {"tui", NULL};
            return cmd_tui_main(1, tui_argv);
        }
        print_usage(stdout);
        return finish_stdout();
    }
    const char *word = argv[1];
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0) {
        print_usage(stdout);
        return finish_stdout();
    }
    if (strcmp(word, "--version") == 0) {
        printf("csmacd %s\n", CSMACD_VERSION);
        return finish_stdout();
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(word, commands[i].name) == 0)
            return commands[i].main(argc - 1, argv + 1);
    /* Wireshark runs the programs of its extcap folders with these: csmacd
     * is linked there as itself (cmd_extcap.c). */
    if (strncmp(word, "--extcap-", 9) == 0 || strcmp(word, "--capture") == 0)
        return cmd_extcap_main(argc, argv);
    if (word[0] == '-')
        cli_error("%.64s: unknown option (csmacd --help lists the commands)", word);
    else
        cli_error("%.64s: unknown command (csmacd --help lists them)", word);
    return EXIT_STATUS_USAGE;
}
