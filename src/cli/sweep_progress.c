/* sweep_progress.c - the sweep's progress bar (sweep_progress.h). */
#include "sweep_progress.h"

#include <math.h>
#include <stdio.h>

static double since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void fmt_clock(double s, char *buf, size_t len)
{
    long t = s > 0 && s < 1e7 ? lround(s) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void sweep_progress_show(void *ctx, size_t done, size_t total, double work)
{
    sweep_progress *pg = ctx;
    if (!pg->on)
        return;
    double el = since(&pg->t0);
    char bar[31], elapsed[32], eta[32];
    int fill = (int)(work * 30 + 0.5);
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fmt_clock(el, elapsed, sizeof elapsed);
    if (work > 0.005 && done < total)
        fmt_clock(el * (1 - work) / work, eta, sizeof eta);
    else
        snprintf(eta, sizeof eta, done == total ? "0:00" : "--:--");
    fprintf(stderr, "\rsweep [%s] %3.0f%%  %zu/%zu points  %s elapsed  ETA %s ", bar,
            work * 100, done, total, elapsed, eta);
    fflush(stderr);
}
