/* tui_history.c - the run's history for the time view (tui_history.h). */
#include "tui_history.h"

#include <stdio.h>
#include <string.h>

void tui_history_reset(tui_history *h, sim_time step)
{
    memset(h, 0, sizeof *h);
    h->step = step > 0 ? step : 1;
    h->next = h->step;
}

void tui_history_engine(tui_history *h, sim_time reached, const char *label)
{
    h->offset_s += sim_time_to_s(h->last < reached ? reached : h->last);
    h->next = h->step;
    h->last = 0;
    h->bits = h->collisions = h->frames = 0;
    if (!label)
        return;
    if (h->n_marks == TUI_HISTORY_MARKS) { /* the oldest goes */
        memmove(h->marks, h->marks + 1, (TUI_HISTORY_MARKS - 1) * sizeof h->marks[0]);
        memmove(h->labels, h->labels + 1, (TUI_HISTORY_MARKS - 1) * sizeof h->labels[0]);
        h->n_marks--;
    }
    snprintf(h->labels[h->n_marks], TUI_MARK_LABEL, "%s", label);
    h->marks[h->n_marks] = (tui_mark){.t_s = h->offset_s, .label = NULL};
    h->n_marks++;
    for (size_t i = 0; i < h->n_marks; i++) /* the array may have moved */
        h->marks[i].label = h->labels[i];
}

/* Neighbours in pairs: the two stretches as one of twice the length. */
static void halve(tui_history *h)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < h->n; i += 2) {
        const tui_sample *a = &h->v[i], *b = &h->v[i + 1];
        h->v[k++] = (tui_sample){.t_s = b->t_s,
                                 .s = (a->s + b->s) / 2,
                                 .collisions = a->collisions + b->collisions,
                                 .frames = a->frames + b->frames};
    }
    if (h->n % 2)
        h->v[k++] = h->v[h->n - 1];
    h->n = k;
    h->step *= 2;
}

void tui_history_sample(tui_history *h, sim_time t, uint64_t bits, uint64_t collisions,
                        uint64_t frames, double rate_bps)
{
    if (t <= h->last)
        return;
    double dt = sim_time_to_s(t - h->last);
    if (h->n == TUI_HISTORY_CAP)
        halve(h);
    h->v[h->n++] = (tui_sample){
        .t_s = h->offset_s + sim_time_to_s(t),
        .s = rate_bps > 0 && dt > 0 ? (double)(bits - h->bits) / (rate_bps * dt) : 0,
        .collisions = (double)(collisions - h->collisions),
        .frames = (double)(frames - h->frames),
    };
    h->bits = bits;
    h->collisions = collisions;
    h->frames = frames;
    h->last = t;
    h->next = t + h->step;
}
