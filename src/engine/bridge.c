/* bridge.c - 802.1D learning, filtering, forwarding and flooding, and
 * the counters of each port (bridge.h). */
#include "bridge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Queue delays: log-linear buckets over picoseconds, 2^SUB_BITS per power
 * of two (a percentile within 1/32 of the true value), as stats.c's. */
#define SUB_BITS 5
#define SUB (1u << SUB_BITS)
#define BUCKETS (64u * SUB)

typedef struct entry {
    uint32_t port;   /* BRIDGE_UNKNOWN: never learned */
    sim_time seen;
} entry;

typedef struct port {
    bridge_port_counters c;
    uint64_t delays;
    double delay_sum_ps;
    sim_time delay_max_ps;
    uint64_t *hist;  /* BUCKETS, allocated at the first delay */
} port;

struct bridge {
    uint32_t n_ports, n_stations;
    sim_time ageing_ps;
    entry *fdb;      /* per station: the filtering database */
    port *ports;
};

int bridge_create(uint32_t n_ports, uint32_t n_stations, sim_time ageing_ps, bridge **out)
{
    bridge *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    *out = b;
    b->n_ports = n_ports;
    b->n_stations = n_stations;
    b->ageing_ps = ageing_ps;
    b->fdb = malloc((n_stations ? n_stations : 1) * sizeof *b->fdb);
    b->ports = calloc(n_ports ? n_ports : 1, sizeof *b->ports);
    if (!b->fdb || !b->ports)
        return -1;
    for (uint32_t i = 0; i < n_stations; i++)
        b->fdb[i] = (entry){.port = BRIDGE_UNKNOWN};
    return 0;
}

void bridge_destroy(bridge *b)
{
    if (!b)
        return;
    for (uint32_t p = 0; b->ports && p < b->n_ports; p++) {
        free(b->ports[p].hist);
    }
    free(b->ports);
    free(b->fdb);
    free(b);
}

uint32_t bridge_lookup(const bridge *b, uint32_t station, sim_time now)
{
    if (station >= b->n_stations)
        return BRIDGE_UNKNOWN;
    const entry *e = &b->fdb[station];
    if (e->port == BRIDGE_UNKNOWN || now - e->seen >= b->ageing_ps)
        return BRIDGE_UNKNOWN; /* aged out (802.1D 7.9.2) */
    return e->port;
}

bridge_action bridge_receive(bridge *b, uint32_t in, uint32_t src, uint32_t dest, sim_time now,
                             uint32_t *out)
{
    port *p = &b->ports[in];
    p->c.frames_received++;
    if (src < b->n_stations)
        b->fdb[src] = (entry){.port = in, .seen = now}; /* learning (7.8) */
    uint32_t to = dest == BRIDGE_BROADCAST ? BRIDGE_UNKNOWN : bridge_lookup(b, dest, now);
    *out = to;
    if (to == in) {
        p->c.frames_filtered++;
        return BRIDGE_FILTER;
    }
    if (to == BRIDGE_UNKNOWN) {
        p->c.frames_flooded++;
        return BRIDGE_FLOOD;
    }
    p->c.frames_forwarded++;
    return BRIDGE_FORWARD;
}

void bridge_queued(bridge *b, uint32_t p) { b->ports[p].c.frames_queued++; }
void bridge_dropped(bridge *b, uint32_t p) { b->ports[p].c.frames_dropped++; }

static unsigned bucket_of(sim_time v)
{
    uint64_t x = (uint64_t)(v < 0 ? 0 : v);
    if (x < SUB)
        return (unsigned)x;
    unsigned top = 63u - (unsigned)__builtin_clzll(x);
    unsigned sub = (unsigned)(x >> (top - SUB_BITS)) & (SUB - 1);
    return (top - SUB_BITS + 1) * SUB + sub;
}

static double bucket_value(unsigned k)
{
    if (k < SUB)
        return k;
    unsigned top = k / SUB - 1 + SUB_BITS, sub = k % SUB;
    return ldexp((double)(SUB + sub), (int)top - SUB_BITS) + ldexp(1.0, (int)top - SUB_BITS) / 2;
}

void bridge_done(bridge *b, uint32_t pi, sim_time entered, sim_time now, int sent)
{
    port *p = &b->ports[pi];
    if (sent)
        p->c.frames_sent++;
    else
        p->c.frames_lost++;
    if (!sent || entered == SIM_TIME_NEVER)
        return;
    sim_time d = now - entered;
    if (!p->hist && !(p->hist = calloc(BUCKETS, sizeof *p->hist)))
        return;
    p->delays++;
    p->delay_sum_ps += (double)d;
    if (d > p->delay_max_ps)
        p->delay_max_ps = d;
    p->hist[bucket_of(d)]++;
}

const bridge_port_counters *bridge_counters(const bridge *b, uint32_t p)
{
    return &b->ports[p].c;
}

void bridge_queue_delay(const bridge *b, uint32_t pi, uint64_t *count, double *mean_us,
                        double *p99_us)
{
    const port *p = &b->ports[pi];
    *count = p->delays;
    *mean_us = *p99_us = NAN;
    if (p->delays == 0)
        return;
    *mean_us = p->delay_sum_ps / (double)p->delays / 1e6;
    uint64_t want = (p->delays * 99 + 99) / 100, cum = 0;
    double max = (double)p->delay_max_ps / 1e6;
    *p99_us = max;
    for (unsigned k = 0; k < BUCKETS; k++) {
        cum += p->hist[k];
        if (cum >= want) {
            double v = bucket_value(k) / 1e6;
            *p99_us = v > max ? max : v;
            break;
        }
    }
}

void bridge_mark(bridge *b)
{
    for (uint32_t i = 0; i < b->n_ports; i++) {
        port *p = &b->ports[i];
        p->delays = 0;
        p->delay_sum_ps = 0;
        p->delay_max_ps = 0;
        if (p->hist)
            memset(p->hist, 0, BUCKETS * sizeof *p->hist);
    }
}

size_t bridge_bytes(const bridge *b)
{
    size_t n = sizeof *b + b->n_stations * sizeof *b->fdb + b->n_ports * sizeof *b->ports;
    for (uint32_t i = 0; i < b->n_ports; i++)
        n += b->ports[i].hist ? BUCKETS * 8 : 0;
    return n;
}
