/* exit_status.h - the exit statuses of the csmacd program (DESIGN.md §3).
 *
 * 0 success; 2 a usage or input error, reported before any output file is
 * created; 1 a runtime failure (a write error, a file that cannot be
 * created), reported with the path and the reason; 128 + the signal number
 * when SIGINT or SIGTERM ended a run early (its outputs complete and valid).
 */
#ifndef CSMACD_EXIT_STATUS_H
#define CSMACD_EXIT_STATUS_H

enum {
    EXIT_STATUS_OK = 0,
    EXIT_STATUS_RUNTIME = 1,
    EXIT_STATUS_USAGE = 2,
    EXIT_STATUS_SIGINT = 130,  /* 128 + SIGINT */
    EXIT_STATUS_SIGTERM = 143, /* 128 + SIGTERM */
};

#endif
