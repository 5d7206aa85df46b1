/* commands.h - the commands of the csmacd program.
 *
 * Each command is one entry function, called by main.c with argv[0] the
 * command's name and returning the exit status (exit_status.h). main.c
 * lists them in its command table; a new command adds a line here and a
 * row there.
 */
#ifndef CSMACD_COMMANDS_H
#define CSMACD_COMMANDS_H

#include <stddef.h>

#include "cli.h"

/* csmacd run: one scenario, its measures on standard output. */
int cmd_run_main(int argc, char **argv);
/* The same for a capture by Wireshark (cmd_extcap.c): no measures, and a
 * signal or the trace's reader leaving ends it with status 0, silently. */
int cmd_run_capture(int argc, char **argv);
/* run's own option table (what `csmacd run --help` lists before the
 * scenario options), for the extcap dialog. */
const cli_option *cmd_run_options(size_t *n);

/* csmacd extcap: csmacd as a Wireshark capture interface. main.c also
 * sends here a first argument that Wireshark gives an extcap
 * (--extcap-interfaces, --capture, ...), so the program itself can sit in
 * Wireshark's extcap folder. */
int cmd_extcap_main(int argc, char **argv);

/* csmacd tui: the live classroom screen (also `csmacd` alone on a terminal). */
int cmd_tui_main(int argc, char **argv);

/* csmacd sweep: a grid of scenarios, replications, CSV and figure. */
int cmd_sweep_main(int argc, char **argv);

/* csmacd presets: the built-in experiments of sweep --preset. */
int cmd_presets_main(int argc, char **argv);

/* csmacd check: a scenario's network against 802.3's delay budget. */
int cmd_check_main(int argc, char **argv);

#endif
