/* sweep_progress.h - the progress bar of `csmacd sweep` on standard
 * error: points done, the share of the work, elapsed time and an ETA.
 * Reads the wall clock, so it lives with the command, not in src/sweep.
 */
#ifndef CSMACD_SWEEP_PROGRESS_H
#define CSMACD_SWEEP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

typedef struct sweep_progress {
    bool on;
    struct timespec t0;
    size_t last_len;
} sweep_progress;

/* sweep_execute's progress callback (ctx: a sweep_progress); draws
 * nothing unless `on`. */
void sweep_progress_show(void *ctx, size_t done, size_t total, double work);

#endif
