/* bridgereport.c - domains and bridges as text, CSV and JSON
 * (bridgereport.h). */
#include "bridgereport.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* A port's counters, by name and offset (uint64_t fields). */
typedef struct port_field {
    const char *name;
    size_t offset;
} port_field;

#define PF(f) {#f, offsetof(bridge_port_result, f)}
static const port_field port_fields[] = {
    PF(frames_received), PF(frames_forwarded), PF(frames_flooded), PF(frames_filtered),
    PF(frames_queued),   PF(frames_dropped),   PF(frames_sent),    PF(frames_lost),
    PF(collisions),
};
#undef PF
#define N_PORT_FIELDS (sizeof port_fields / sizeof port_fields[0])

static uint64_t port_value(const bridge_port_result *p, size_t k)
{
    uint64_t v;
    memcpy(&v, (const char *)p + port_fields[k].offset, sizeof v);
    return v;
}

/* A measure that does not apply prints "-" (text), "" (CSV), null (JSON). */
static int text_real(FILE *f, const char *name, double v, int decimals)
{
    if (fprintf(f, " %s ", name) < 0)
        return -1;
    return (isfinite(v) ? fprintf(f, "%.*f", decimals, v) : fprintf(f, "-")) < 0 ? -1 : 0;
}

int bridgereport_text(FILE *f, const results *r)
{
    if (r->n_bridges == 0)
        return 0;
    for (uint32_t d = 0; d < r->n_domains; d++) {
        const domain_result *x = &r->domains[d];
        if (fprintf(f, "  %-18s%-12s segments %" PRIu32 " stations %" PRIu32
                       " frames_sent %" PRIu64 " collisions %" PRIu64,
                    d ? "" : "domains", x->name, x->segments, x->stations, x->frames_sent,
                    x->collisions) < 0 ||
            text_real(f, "throughput", x->throughput, 4) != 0 ||
            fprintf(f, "%s\n", x->full_duplex ? " (full duplex)" : "") < 0)
            return -1;
    }
    bool first = true;
    for (uint32_t b = 0; b < r->n_bridges; b++) {
        const bridge_result *br = &r->bridges[b];
        for (uint32_t p = 0; p < br->n_ports; p++) {
            const bridge_port_result *x = &br->ports[p];
            char name[80];
            snprintf(name, sizeof name, "%s.%s", br->name, x->name);
            if (fprintf(f, "  %-18s%-12s", first ? "bridge ports" : "", name) < 0)
                return -1;
            first = false;
            for (size_t k = 0; k < N_PORT_FIELDS; k++)
                if (fprintf(f, " %s %" PRIu64, port_fields[k].name, port_value(x, k)) < 0)
                    return -1;
            if (text_real(f, "queue_delay_mean_us", x->queue_delay_mean_us, 1) != 0 ||
                text_real(f, "queue_delay_p99_us", x->queue_delay_p99_us, 1) != 0 ||
                fputc('\n', f) == EOF)
                return -1;
        }
    }
    return 0;
}

static int csv_real(FILE *f, double v)
{
    return (isfinite(v) ? fprintf(f, ",%.6g", v) : fprintf(f, ",")) < 0 ? -1 : 0;
}

int bridgereport_csv(FILE *f, const results *r, bool values)
{
    if (r->n_bridges == 0)
        return 0;
    for (uint32_t d = 0; d < r->n_domains; d++) {
        const domain_result *x = &r->domains[d];
        if (values) {
            if (fprintf(f, ",%" PRIu64 ",%" PRIu64, x->frames_sent, x->collisions) < 0 ||
                csv_real(f, x->throughput) != 0)
                return -1;
        } else if (fprintf(f, ",%s.domain_frames_sent,%s.domain_collisions,%s.domain_throughput",
                           x->name, x->name, x->name) < 0) {
            return -1;
        }
    }
    for (uint32_t b = 0; b < r->n_bridges; b++) {
        const bridge_result *br = &r->bridges[b];
        for (uint32_t p = 0; p < br->n_ports; p++) {
            const bridge_port_result *x = &br->ports[p];
            for (size_t k = 0; k < N_PORT_FIELDS; k++)
                if ((values ? fprintf(f, ",%" PRIu64, port_value(x, k))
                            : fprintf(f, ",%s.%s.%s", br->name, x->name, port_fields[k].name)) < 0)
                    return -1;
            if (values) {
                if (csv_real(f, x->queue_delay_mean_us) != 0 ||
                    csv_real(f, x->queue_delay_p99_us) != 0)
                    return -1;
            } else if (fprintf(f, ",%s.%s.queue_delay_mean_us,%s.%s.queue_delay_p99_us", br->name,
                               x->name, br->name, x->name) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int put(json_t *obj, const char *key, json_t *v)
{
    return v == NULL || json_object_set_new(obj, key, v) != 0 ? -1 : 0;
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

int bridgereport_json(json_t *root, const results *r)
{
    if (r->n_bridges == 0)
        return 0;
    json_t *domains = json_object(), *bridges = json_object();
    int rc = domains == NULL || bridges == NULL ? -1 : 0;
    for (uint32_t d = 0; rc == 0 && d < r->n_domains; d++) {
        const domain_result *x = &r->domains[d];
        json_t *o = json_object();
        rc = o == NULL ? -1 : put(domains, x->name, o);
        if (rc == 0) {
            rc |= put(o, "segments", json_integer(x->segments));
            rc |= put(o, "stations", json_integer(x->stations));
            rc |= put(o, "full_duplex", json_boolean(x->full_duplex));
            rc |= put(o, "frames_sent", json_integer((json_int_t)x->frames_sent));
            rc |= put(o, "collisions", json_integer((json_int_t)x->collisions));
            rc |= put(o, "throughput", real_or_null(x->throughput));
        }
    }
    for (uint32_t b = 0; rc == 0 && b < r->n_bridges; b++) {
        const bridge_result *br = &r->bridges[b];
        json_t *o = json_object(), *ports = json_object();
        rc = o == NULL || ports == NULL ? -1 : put(bridges, br->name, o);
        if (rc == 0)
            rc = put(o, "ports", ports);
        else
            json_decref(ports);
        for (uint32_t p = 0; rc == 0 && p < br->n_ports; p++) {
            const bridge_port_result *x = &br->ports[p];
            json_t *q = json_object();
            rc = q == NULL ? -1 : put(ports, x->name, q);
            for (size_t k = 0; rc == 0 && k < N_PORT_FIELDS; k++)
                rc = put(q, port_fields[k].name, json_integer((json_int_t)port_value(x, k)));
            if (rc == 0)
                rc = put(q, "queue_delay_mean_us", real_or_null(x->queue_delay_mean_us));
            if (rc == 0)
                rc = put(q, "queue_delay_p99_us", real_or_null(x->queue_delay_p99_us));
        }
    }
    if (rc == 0 && put(root, "domains", domains) == 0) {
        domains = NULL;
        if (put(root, "bridges", bridges) == 0)
            return 0;
        return -1;
    }
    json_decref(domains);
    json_decref(bridges);
    return -1;
}

/* ---- the measures one by one (the sweep's columns) ---- */

static const char *const domain_names[] = {"domain_frames_sent", "domain_collisions",
                                           "domain_throughput"};
#define N_DOMAIN_FIELDS (sizeof domain_names / sizeof domain_names[0])

size_t bridgereport_domain_measure_count(void) { return N_DOMAIN_FIELDS; }

const char *bridgereport_domain_measure_name(size_t j)
{
    return j < N_DOMAIN_FIELDS ? domain_names[j] : NULL;
}

double bridgereport_domain_value(const domain_result *d, size_t j)
{
    switch (j) {
    case 0: return (double)d->frames_sent;
    case 1: return (double)d->collisions;
    case 2: return d->throughput;
    default: return NAN;
    }
}

size_t bridgereport_port_measure_count(void) { return N_PORT_FIELDS + 2; }

const char *bridgereport_port_measure_name(size_t j)
{
    if (j < N_PORT_FIELDS)
        return port_fields[j].name;
    return j == N_PORT_FIELDS       ? "queue_delay_mean_us"
           : j == N_PORT_FIELDS + 1 ? "queue_delay_p99_us"
                                    : NULL;
}

double bridgereport_port_value(const bridge_port_result *p, size_t j)
{
    if (j < N_PORT_FIELDS)
        return (double)port_value(p, j);
    return j == N_PORT_FIELDS       ? p->queue_delay_mean_us
           : j == N_PORT_FIELDS + 1 ? p->queue_delay_p99_us
                                    : NAN;
}
