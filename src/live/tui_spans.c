/* tui_spans.c - where a signal is on a drawn medium (tui_spans.h). */
#include "tui_spans.h"

#include <math.h>
#include <stdlib.h>

void span_list_add(span_list *l, double from, double to, bool jam, uint32_t who)
{
    if (to <= from)
        return;
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        tui_span *ns = realloc(l->v, nc * sizeof *ns);
        if (!ns)
            return;
        l->v = ns;
        l->cap = nc;
    }
    l->v[l->n++] = (tui_span){from, to, jam, who};
}

void span_list_line(span_list *l, double L, double x, const timeline_tx *r, sim_time t,
                    uint32_t who)
{
    if (r->start > t)
        return;
    sim_time end = r->end == SIM_TIME_NEVER || r->end > t ? t : r->end;
    double far = (double)(t - r->start), near = (double)(t - end);
    double jam = r->jam_start != SIM_TIME_NEVER && r->jam_start < t ? (double)(t - r->jam_start)
                                                                     : -1;
    if (L > 0 && near >= x && near >= L - x)
        return; /* the whole signal has left the cable */
    if (far <= 0)
        far = 1e-6 * (L > 0 ? L : 1); /* just begun: a sliver at the transmitter */
    /* Sections by distance from the transmitter: [near, jam) jam, [jam,
     * far) frame; without a jam [near, far) is all frame. */
    double sect[2][2] = {{near, jam >= 0 ? jam : near}, {jam >= 0 ? jam : near, far}};
    for (int k = 0; k < 2; k++) {
        double a = sect[k][0], b = sect[k][1];
        if (b <= a)
            continue;
        bool is_jam = k == 0;
        if (L <= 0) /* every tap at one point */
            span_list_add(l, 0, 1, is_jam, who);
        else if (a <= 0) /* one stretch through the transmitter */
            span_list_add(l, fmax(x - b, 0) / L, fmin(x + b, L) / L, is_jam, who);
        else { /* right of it [x + a, x + b), left of it (x - b, x - a] */
            span_list_add(l, (x + a) / L, fmin(x + b, L) / L, is_jam, who);
            span_list_add(l, fmax(x - b, 0) / L, (x - a) / L, is_jam, who);
        }
    }
}

void span_list_star(span_list *l, const medium *m, uint32_t tap, const double *pos, uint32_t n,
                    const timeline_tx *r, sim_time t, uint32_t who)
{
    double half = n > 1 ? 0.5 / (double)(n - 1) : 0.5;
    for (uint32_t j = 0; j < n; j++) {
        sim_time dl = medium_delay(m, tap, j);
        if (r->start + dl > t || (r->end != SIM_TIME_NEVER && r->end + dl <= t))
            continue;
        bool jam = r->jam_start != SIM_TIME_NEVER && r->jam_start + dl <= t;
        span_list_add(l, pos[j] - half * 0.8, pos[j] + half * 0.8, jam, who);
    }
}
