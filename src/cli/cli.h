/* cli.h - the command line shared by every csmacd command.
 *
 * Each command (run, sweep, tui, ...) describes itself with a cli_command:
 * its name, a summary for --help (the usage line is made from its
 * options), and a table of its own
 * options with a callback. cli_parse then reads argv with getopt_long and
 *   1. hands each of the command's own options to the callback, in the
 *      order given;
 *   2. builds the scenario from the caller's starting point (normally
 *      scenario_defaults) in layers: the --scenario FILE first, then the
 *      scenario options of the command line. Within each layer `phy` is
 *      applied before every other key, because it resets all PHY fields to
 *      the profile: "--length 300 --phy 10base2" keeps the 300 m.
 * A command option with the same name as a scenario key shadows it, so
 * `sweep` can take `--stations LIST` and still reuse everything else.
 *
 * Rules the parser enforces, so every command behaves alike:
 *   - long options only (plus -h), written in full: "--stat" is refused
 *     rather than guessed, so adding an option never changes the meaning
 *     of an existing command line;
 *   - values as "--key VALUE" or "--key=VALUE";
 *   - no positional arguments;
 *   - --scenario at most once;
 *   - options that cannot have an effect are refused as conflicting:
 *     --load with saturated, batch or replayed traffic, --batch without
 *     batch traffic, --on-off without onoff traffic, --pcap-time-scale and
 *     --pcap-max-stations without pcap traffic (given on the command
 *     line; the traffic may come from the file);
 *   - -h or --help anywhere prints the command's help on standard output.
 * Messages are one line "object: reason" in the caller's buffer: the
 * option ("--colour: unknown option"), the scenario key ("stations: 0 is
 * out of range (1 to 10000)") or the file ("lab.ini:3: unknown key 'x'").
 * The caller prints them with cli_error and exits with EXIT_STATUS_USAGE.
 *
 * This is program code: it may print (help, errors, warnings) and keeps
 * the one global the program has, the flag set by the signal handlers.
 * getopt_long keeps global state too, so cli_parse is not reentrant.
 */
#ifndef CSMACD_CLI_H
#define CSMACD_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario.h"

typedef enum cli_arg {
    CLI_ARG_NONE,     /* a switch: --quiet */
    CLI_ARG_REQUIRED, /* --format json, --format=json */
} cli_arg;

typedef struct cli_option {
    const char *name;     /* long name without "--" */
    cli_arg arg;
    const char *arg_name; /* shown in --help: "FILE", "text|json|csv" */
    const char *help;     /* one line for --help; NULL hides the option */
    int id;               /* passed to the callback */
} cli_option;

/* Receives one command option (value is NULL for a switch). Returns 0, or
 * -1 with a reason in err; cli_parse puts "--name: " in front of it. */
typedef int (*cli_option_fn)(void *ctx, int id, const char *value, char *err,
                             size_t errlen);

/* The preset layer (cli_preset.c: cli_preset_layer), for a command that
 * takes `--preset NAME` and a preset's file as --scenario FILE; NULL in
 * cli_command: neither (sweep has a --preset of its own). */
struct cli_command;
typedef struct cli_presets {
    /* Whether FILE is a preset's file (a [preset] section), not a plain
     * scenario file; a pipe is not looked into (it is read once). */
    bool (*is_file)(const char *path);
    /* Applies preset NAME, or the preset's file NAME (file), to sc as one
     * scenario, the first point of its sweep, which it says (on standard
     * error, or into cmd->preset_point); stations (or NULL) is the
     * point's --stations, with groups their total. Returns 0, or -1 with
     * the reason in err. */
    int (*apply)(const struct cli_command *cmd, const char *name, bool file,
                 const char *stations, scenario *sc, char *err, size_t errlen);
} cli_presets;
extern const cli_presets cli_preset_layer;

typedef struct cli_command {
    const char *name;          /* "run": the word after csmacd */
    const char *summary;       /* what the command does, one sentence */
    /* Options the command cannot do without, by name ("csv"): shown
     * without brackets in the usage line (NULL: none). */
    const char *const *required;
    const cli_option *options; /* the command's own options (may be NULL) */
    size_t n_options;
    bool scenario_options;     /* accept --scenario FILE and the scenario keys */
    cli_option_fn on_option;   /* called for each of `options` */
    void *ctx;
    /* Where to store the --scenario FILE given (an argv string), so that
     * a command can refuse to overwrite it with an output; may be NULL. */
    const char **scenario_file;
    /* Where to put the line that says which point of a preset the
     * scenario is ("preset NAME: one point, the first of its sweep:
     * ..."), for a command that says it its own way (a capture for
     * Wireshark, where standard error reads as an error); NULL: cli_parse
     * prints it with cli_note. */
    char *preset_point;
    size_t preset_point_len;
    const cli_presets *presets; /* the preset layer, or NULL: no --preset */
    /* The keys of the scenario file's [segment], [repeater] and [bridge]
     * sections, with their defaults, at the end of --help (network.h's
     * table): check's, the network command's. */
    bool network_keys;
} cli_command;

typedef enum cli_status {
    CLI_OK = 0,     /* parsed; the scenario is built (not yet finished) */
    CLI_HELP = 1,   /* help was printed on standard output: exit 0 */
    CLI_ERROR = -1, /* err holds the message: exit 2 */
} cli_status;

/* Parses argv[1], ..., argv[argc - 1] (argv[0] is the command's name) and
 * applies the scenario layers to *sc, which the caller has initialised. */
cli_status cli_parse(const cli_command *cmd, int argc, char **argv, scenario *sc, char *err,
                     size_t errlen);

/* A command's exit when cli_parse did not return CLI_OK: after help, 0
 * (1 when standard output failed); after an error, its message from err
 * printed by cli_error, 2. */
int cli_parse_exit(cli_status st, const char *err);

/* scenario_finish, with each warning printed by cli_warn. Returns 0, or -1
 * with the reason in err. */
int cli_finish(scenario *sc, char *err, size_t errlen);

/* The help of a command: usage, summary, its options, then the scenario
 * options when it takes them. */
void cli_print_help(FILE *f, const cli_command *cmd);

/* The scenario options, for commands that list them differently. */
void cli_print_scenario_options(FILE *f);

/* The scenario options' table, for what lists them elsewhere (the extcap
 * dialog): the i-th option's name, argument name and help, as --help
 * prints them. Returns false when i is past the end. */
bool cli_scenario_option_at(size_t i, const char **name, const char **arg_name,
                            const char **help);

/* "csmacd: <message>" and "csmacd: warning: <message>" on standard error,
 * one line each: the message is cleaned by cli_clean_message first (at
 * most 8191 bytes are kept). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What a command did, "csmacd: wrote x.csv: ...", on standard error. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Replaces, in place, every byte that could forge output on a terminal
 * with '?': control characters (line breaks, escapes, DEL), bytes that are
 * not valid UTF-8, and the C1 controls. Valid UTF-8 text is kept. */
void cli_clean_message(char *msg);

/* SIGINT and SIGTERM set a flag instead of killing the program; long
 * loops poll cli_signal_caught() between slices of work and finish their
 * outputs. A second signal kills the program the default way. Returns 0
 * or -1 (errno set). */
int cli_signals_install(void);
/* 0, or the first of SIGINT / SIGTERM received. */
int cli_signal_caught(void);
/* The exit status for a caught signal (EXIT_STATUS_SIGINT, ...). */
int cli_signal_exit_status(int sig);

#endif
