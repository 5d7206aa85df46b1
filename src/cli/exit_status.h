/* exit_status.h - the exit statuses of the csmacd program (src/cli/CLI.md,
 * "Exit status").
 *
 * 0 success; 2 a usage or input error, reported before any output file is
 * created; 1 a runtime failure (a write error, a file that cannot be
 * created), reported with the path and the reason; 128 + the signal number
 * when SIGINT or SIGTERM ended a run early (its outputs complete and valid);
 * 141 (128 + SIGPIPE, what a shell reports for a program killed by it)
 * when standard output, or any output on a pipe, was closed by its reader
 * (`csmacd run | head`, `--events - | head`): SIGPIPE is ignored, the
 * write fails with EPIPE, the run stops, the other output files are still
 * completed and renamed into place, and nothing is printed.
 */
#ifndef CSMACD_EXIT_STATUS_H
#define CSMACD_EXIT_STATUS_H

enum {
    EXIT_STATUS_OK = 0,
    EXIT_STATUS_RUNTIME = 1,
    EXIT_STATUS_USAGE = 2,
    EXIT_STATUS_SIGINT = 130,  /* 128 + SIGINT */
    EXIT_STATUS_SIGTERM = 143, /* 128 + SIGTERM */
    EXIT_STATUS_SIGPIPE = 141, /* 128 + SIGPIPE: standard output closed */
};

#endif
