/* commands.h - the commands of the csmacd program.
 *
 * Each command is one entry function, called by main.c with argv[0] the
 * command's name and returning the exit status (exit_status.h). main.c
 * lists them in its command table; a new command adds a line here and a
 * row there.
 */
#ifndef CSMACD_COMMANDS_H
#define CSMACD_COMMANDS_H

/* csmacd run: one scenario, its measures on standard output. */
int cmd_run_main(int argc, char **argv);

/* csmacd tui: the live classroom screen (also `csmacd` alone on a terminal). */
int cmd_tui_main(int argc, char **argv);

/* csmacd sweep: a grid of scenarios, replications, CSV and figure. */
int cmd_sweep_main(int argc, char **argv);

/* csmacd presets: the built-in experiments of sweep --preset. */
int cmd_presets_main(int argc, char **argv);

#endif
