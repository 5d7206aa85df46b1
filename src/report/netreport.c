/* netreport.c - a network and its budget as text and JSON (netreport.h). */
#include "netreport.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "budget.h"
#include "network.h"

/* "coax, 500 m, 0.77c, probe at 0 m, 8 stations" or "hub, drops of
 * 100 m, 0.585c, 46 bit times (Class II), 4 stations". */
static void segment_text(const net_segment *s, char *buf, size_t len)
{
    char cls[16] = "";
    if (s->hub_class)
        snprintf(cls, sizeof cls, " (Class %s)", s->hub_class == 1 ? "I" : "II");
    if (s->type == NET_SEG_COAX)
        snprintf(buf, len, "coax, %g m, %gc, probe at %g m, %" PRIu32 " station%s", s->length_m,
                 s->velocity_c, s->probe_m, s->n_stations, s->n_stations == 1 ? "" : "s");
    else
        snprintf(buf, len, "hub, drops of %g m, %gc, %" PRIu32 " bit times through it%s, %" PRIu32
                           " station%s",
                 s->length_m, s->velocity_c, s->hub_bits, cls, s->n_stations,
                 s->n_stations == 1 ? "" : "s");
}

static void repeater_text(const network *net, const net_repeater *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t p = 0; p < r->n_ports && used < len; p++) {
        char port[64];
        network_port_text(net, &r->ports[p], port, sizeof port);
        int n = snprintf(buf + used, len - used, "%s%s", p ? ", " : "", port);
        if (n < 0)
            return;
        used += (size_t)n;
    }
    if (used < len)
        snprintf(buf + used, len - used, "; %" PRIu32 " bit times%s%s", r->delay_bits,
                 r->rep_class == 1 ? " (Class I)" : r->rep_class == 2 ? " (Class II)" : "",
                 r->uplink ? " (a hub's uplink)" : "");
}

/* "station 3 (lab)". */
static void station_text(const network *net, uint32_t st, uint32_t seg, char *buf, size_t len)
{
    if (st == NET_BUDGET_NONE || seg >= net->n_segments)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "station %" PRIu32 " (%s)", st + 1, net->segments[seg].name);
}

static const char *rules_text(uint64_t rate)
{
    switch (rate) {
    case 10000000ull: return "Clause 13 (10 Mb/s): Model 1, the 5-4-3 rule; Model 2, Tables 13-3 and 13-4";
    case 100000000ull: return "Clause 29 (100 Mb/s): Model 1, Table 29-2; Model 2, Table 29-3";
    case 1000000000ull: return "1000 Mb/s: one repeater (Clause 41); round trip of 42.4";
    default: return "none: 802.3 defines no budget at this rate";
    }
}

int netreport_write_check(FILE *f, const scenario *sc)
{
    network net;
    scenario_network_view(sc, &net);
    net_budget b;
    net_budget_compute(&net, sc->phy.rate_bps, &b);
    char text[1200], a[96], z[96];
    int n = fprintf(f, "csmacd check: %s, %" PRIu32 " segment%s, %" PRIu32 " repeater%s, %" PRIu32
                       " station%s%s\n",
                    sc->phy.name, net.n_segments, net.n_segments == 1 ? "" : "s",
                    net.n_repeaters, net.n_repeaters == 1 ? "" : "s", sc->n_stations,
                    sc->n_stations == 1 ? "" : "s",
                    sc->net.n_segments ? "" : " (no [segment]: the one bus or star)");
#define LINE(label, ...)                                                                     \
    do {                                                                                     \
        if (n >= 0)                                                                          \
            n = fprintf(f, "  %-18s", label);                                                \
        if (n >= 0)                                                                          \
            n = fprintf(f, __VA_ARGS__);                                                     \
        if (n >= 0)                                                                          \
            n = fputc('\n', f) == EOF ? -1 : 0;                                              \
    } while (0)
    for (uint32_t i = 0; i < net.n_segments; i++) {
        segment_text(&net.segments[i], text, sizeof text);
        LINE("segment", "%s: %s", net.segments[i].name, text);
    }
    for (uint32_t i = 0; i < net.n_repeaters; i++) {
        repeater_text(&net, &net.repeaters[i], text, sizeof text);
        LINE("repeater", "%s: %s", net.repeaters[i].name, text);
    }
    LINE("rules", "%s", rules_text(sc->phy.rate_bps));
    station_text(&net, b.from_station, b.from_segment, a, sizeof a);
    station_text(&net, b.to_station, b.to_segment, z, sizeof z);
    if (b.from_segment == NET_BUDGET_NONE)
        LINE("worst path", "none (fewer than two stations)");
    else
        LINE("worst path", "%s .. %s; the longest path: %" PRIu32 " segment%s (%" PRIu32
                           " coax), %" PRIu32 " repeater%s",
             a, z, b.max_segments, b.max_segments == 1 ? "" : "s", b.max_coax, b.max_repeaters,
             b.max_repeaters == 1 ? "" : "s");
    if (b.pdv_defined)
        LINE("path delay value", "%.2f bit times (at most %g)", b.pdv_bits, b.pdv_limit_bits);
    else
        LINE("path delay value", "not defined (%s)",
             b.pdv_limit_bits > 0 ? "no path through a repeater: the segment's length is the rule"
                                  : "no budget at this rate");
    if (b.pvv_defined)
        LINE("path variability", "%.2f bit times (at most %g)", b.pvv_bits, b.pvv_limit_bits);
    LINE("model round trip", "%.2f bit times (what the simulation uses)",
         b.model_round_trip_bits);
    LINE("verdict", "%s", b.verdict);
#undef LINE
    if (n < 0 && errno == 0)
        errno = EIO;
    return n < 0 ? -1 : 0;
}

void netreport_summary(const scenario *sc, char *buf, size_t len)
{
    const network *net = &sc->net;
    net_budget b;
    net_budget_compute(net, sc->phy.rate_bps, &b);
    char pdv[96] = "", path[80] = "";
    if (b.from_segment != NET_BUDGET_NONE)
        snprintf(path, sizeof path, "; worst path %s%s%s", net->segments[b.from_segment].name,
                 b.to_segment != b.from_segment ? ".." : "",
                 b.to_segment != b.from_segment ? net->segments[b.to_segment].name : "");
    if (b.pdv_defined)
        snprintf(pdv, sizeof pdv, ": path delay value %.2f of %g bit times,", b.pdv_bits,
                 b.pdv_limit_bits);
    else
        snprintf(pdv, sizeof pdv, ":");
    snprintf(buf, len, "%" PRIu32 " segment%s, %" PRIu32 " repeater%s%s%s model round trip %.2f "
                       "bit times: %s",
             net->n_segments, net->n_segments == 1 ? "" : "s", net->n_repeaters,
             net->n_repeaters == 1 ? "" : "s", path, pdv, b.model_round_trip_bits, b.verdict);
}

static int put(json_t *obj, const char *key, json_t *v)
{
    return v == NULL || json_object_set_new(obj, key, v) != 0 ? -1 : 0;
}

static json_t *real_or_null(bool defined, double v)
{
    return defined && isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_segments(const network *net)
{
    json_t *all = json_object();
    for (uint32_t i = 0; all != NULL && i < net->n_segments; i++) {
        const net_segment *s = &net->segments[i];
        json_t *o = json_object();
        int rc = o == NULL ? -1 : 0;
        rc |= put(o, "type", json_string(network_type_name(s->type)));
        rc |= put(o, "length_m", json_real(s->length_m));
        rc |= put(o, "velocity_c", json_real(s->velocity_c));
        rc |= put(o, "stations", json_integer(s->n_stations));
        if (s->type == NET_SEG_COAX) {
            rc |= put(o, "probe_m", json_real(s->probe_m));
        } else {
            rc |= put(o, "delay_bits", json_integer(s->hub_bits));
            rc |= put(o, "class", s->hub_class ? json_string(s->hub_class == 1 ? "I" : "II")
                                               : json_null());
        }
        if (rc != 0)
            json_decref(o);
        if (rc != 0 || put(all, s->name, o) != 0) {
            json_decref(all);
            return NULL;
        }
    }
    return all;
}

static json_t *json_repeaters(const network *net)
{
    json_t *all = json_object();
    for (uint32_t i = 0; all != NULL && i < net->n_repeaters; i++) {
        const net_repeater *r = &net->repeaters[i];
        json_t *o = json_object(), *ports = json_array();
        int rc = o == NULL || ports == NULL ? -1 : 0;
        for (uint32_t p = 0; rc == 0 && p < r->n_ports; p++) {
            char text[64];
            network_port_text(net, &r->ports[p], text, sizeof text);
            rc = json_array_append_new(ports, json_string(text));
        }
        if (rc == 0) {
            rc = put(o, "ports", ports);
            ports = NULL;
        }
        json_decref(ports);
        rc |= put(o, "delay_bits", json_integer(r->delay_bits));
        rc |= put(o, "class", r->rep_class ? json_string(r->rep_class == 1 ? "I" : "II")
                                           : json_null());
        rc |= put(o, "uplink", json_boolean(r->uplink));
        if (rc != 0)
            json_decref(o);
        if (rc != 0 || put(all, r->name, o) != 0) {
            json_decref(all);
            return NULL;
        }
    }
    return all;
}

static json_t *json_domain(const scenario *sc)
{
    const network *net = &sc->net;
    net_budget b;
    net_budget_compute(net, sc->phy.rate_bps, &b);
    json_t *o = json_object();
    int rc = o == NULL ? -1 : 0;
    bool ends = b.from_segment != NET_BUDGET_NONE;
    rc |= put(o, "rules", json_string(b.rules));
    rc |= put(o, "worst_path",
              ends ? json_pack("[ss]", net->segments[b.from_segment].name,
                               net->segments[b.to_segment].name)
                   : json_null());
    rc |= put(o, "from_station", ends ? json_integer(b.from_station + 1) : json_null());
    rc |= put(o, "to_station", ends ? json_integer(b.to_station + 1) : json_null());
    rc |= put(o, "pdv_bits", real_or_null(b.pdv_defined, b.pdv_bits));
    rc |= put(o, "pdv_limit_bits", real_or_null(b.pdv_limit_bits > 0, b.pdv_limit_bits));
    rc |= put(o, "pvv_bits", real_or_null(b.pvv_defined, b.pvv_bits));
    rc |= put(o, "pvv_limit_bits", real_or_null(b.pvv_limit_bits > 0, b.pvv_limit_bits));
    rc |= put(o, "model_round_trip_bits", json_real(b.model_round_trip_bits));
    rc |= put(o, "max_segments", json_integer(b.max_segments));
    rc |= put(o, "max_repeaters", json_integer(b.max_repeaters));
    rc |= put(o, "max_coax", json_integer(b.max_coax));
    rc |= put(o, "within", json_boolean(b.within));
    rc |= put(o, "verdict", json_string(b.verdict));
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *netreport_json(const scenario *sc)
{
    json_t *o = json_object(), *domains = json_array();
    int rc = o == NULL || domains == NULL ? -1 : 0;
    rc |= put(o, "segments", json_segments(&sc->net));
    rc |= put(o, "repeaters", json_repeaters(&sc->net));
    if (rc == 0 && json_array_append_new(domains, json_domain(sc)) != 0)
        rc = -1;
    if (rc == 0) {
        rc = put(o, "domains", domains);
        domains = NULL;
    }
    json_decref(domains);
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}
