/* netreport.c - a network and its budget as text and JSON (netreport.h). */
#include "netreport.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "network.h"
#include "textline.h"

/* Whether a segment of the network has a PHY of its own (`phy`): then
 * every segment's PHY is shown (else the scenario's, in the header). */
static bool own_phys(const network *net)
{
    for (uint32_t i = 0; i < net->n_segments; i++)
        if (net->segments[i].phy_own != NULL)
            return true;
    return false;
}

/* The rate of domain d of a network view (scenario_network_view's: a
 * network without [segment] sections is one domain at the scenario's). */
static uint64_t domain_rate(const scenario *sc, const network *net, uint32_t d)
{
    return net->n_domains > 0 ? network_domain_rate(net, d) : sc->phy.rate_bps;
}

/* "coax, 500 m, 0.77c, probe at 0 m, 8 stations" or "hub, drops of
 * 100 m, 0.585c, 46 bit times (Class II), 4 stations"; with `phy`
 * shown, ", 100basetx at 100 Mb/s" after it. */
static void segment_text(const net_segment *s, bool phy, char *buf, size_t len)
{
    char cls[16] = "";
    if (s->hub_class)
        snprintf(cls, sizeof cls, " (Class %s)", s->hub_class == 1 ? "I" : "II");
    if (s->type == NET_SEG_COAX)
        snprintf(buf, len, "coax, %g m, %gc, probe at %g m, %" PRIu32 " station%s", s->length_m,
                 s->velocity_c, s->probe_m, s->n_stations, s->n_stations == 1 ? "" : "s");
    else if (s->type == NET_SEG_LINK)
        snprintf(buf, len, "link, %g m, %gc, %s duplex, %" PRIu32 " station%s", s->length_m,
                 s->velocity_c, s->full_duplex ? "full" : "half", s->n_stations,
                 s->n_stations == 1 ? "" : "s");
    else
        snprintf(buf, len, "hub, drops of %g m, %gc, %" PRIu32 " bit times through it%s, %" PRIu32
                           " station%s",
                 s->length_m, s->velocity_c, s->hub_bits, cls, s->n_stations,
                 s->n_stations == 1 ? "" : "s");
    size_t used = strlen(buf);
    if (phy && used < len)
        snprintf(buf + used, len - used, ", %s at %g Mb/s", s->phy.name,
                 (double)s->phy.rate_bps / 1e6);
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

static void bridge_text(const network *net, const net_bridge *b, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t p = 0; p < b->n_ports && used < len; p++) {
        const net_segment *g = &net->segments[b->ports[p].segment];
        char port[64];
        if (g->type == NET_SEG_COAX)
            network_port_text(net, &b->ports[p], port, sizeof port);
        else
            snprintf(port, sizeof port, "%s", g->name);
        int n = snprintf(buf + used, len - used, "%s%s", p ? ", " : "", port);
        if (n < 0)
            return;
        used += (size_t)n;
    }
    if (used < len)
        snprintf(buf + used, len - used, "; queue %" PRIu32 " frames, latency %g us, ageing %g s",
                 b->queue, (double)b->latency_ps / 1e6, (double)b->ageing_ps / 1e12);
}

/* An end of a path: "station 3 (lab)", or a bridge's port there, "port
 * of sw1 (lab)". */
static void end_text(const network *net, uint32_t st, uint32_t bridge, uint32_t seg, char *buf,
                     size_t len)
{
    if (seg >= net->n_segments)
        snprintf(buf, len, "-");
    else if (st != NET_BUDGET_NONE)
        snprintf(buf, len, "station %" PRIu32 " (%s)", st + 1, net->segments[seg].name);
    else if (bridge < net->n_bridges)
        snprintf(buf, len, "port of %s (%s)", net->bridges[bridge].name, net->segments[seg].name);
    else
        snprintf(buf, len, "-");
}

/* "station 1 (lab) .. port of sw1 (annex)", or why there is no path. */
static void path_text(const network *net, const net_budget *b, char *buf, size_t len)
{
    char a[96], z[96];
    if (b->full_duplex) {
        snprintf(buf, len, "none (full duplex: nothing collides)");
        return;
    }
    if (b->from_segment == NET_BUDGET_NONE) {
        snprintf(buf, len, "none (fewer than two stations or ports)");
        return;
    }
    end_text(net, b->from_station, b->from_bridge, b->from_segment, a, sizeof a);
    end_text(net, b->to_station, b->to_bridge, b->to_segment, z, sizeof z);
    snprintf(buf, len, "%s .. %s", a, z);
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
    network whole = {0}, domain = {0};
    network *full = &whole;
    if (scenario_network_view(sc, full) != 0)
        return -1;
    uint32_t map[NET_MAX_SEGMENTS];
    char text[4200], a[200];
    char bridged[96] = "";
    if (full->n_bridges > 0)
        snprintf(bridged, sizeof bridged,
                 ", %" PRIu32 " bridge%s, %" PRIu32 " collision domain%s", full->n_bridges,
                 full->n_bridges == 1 ? "" : "s", full->n_domains,
                 full->n_domains == 1 ? "" : "s");
    /* What was checked: the stations of a replayed capture, the one
     * medium of a scenario without segments. */
    char what[SCENARIO_PATH_MAX + 100] = "";
    bool replay = sc->traffic.kind == TRAFFIC_PCAP;
    if (replay || sc->net.n_segments == 0)
        snprintf(what, sizeof what, " (%s%s%s%s)", replay ? "one per source address of " : "",
                 replay ? sc->pcap_path : "", replay && sc->net.n_segments == 0 ? "; " : "",
                 sc->net.n_segments           ? ""
                 : full->segments[0].type == NET_SEG_HUB ? "no [segment]: the one star, a hub"
                                                         : "no [segment]: the one bus");
    int n = fprintf(f, "csmacd check: %s, %" PRIu32 " segment%s, %" PRIu32 " repeater%s%s, %" PRIu32
                       " station%s%s\n",
                    sc->phy.name, full->n_segments, full->n_segments == 1 ? "" : "s",
                    full->n_repeaters, full->n_repeaters == 1 ? "" : "s", bridged,
                    sc->n_stations, sc->n_stations == 1 ? "" : "s", what);
    for (uint32_t i = 0; i < full->n_segments; i++) {
        segment_text(&full->segments[i], own_phys(full), text, sizeof text);
        text_line(f, &n, "segment", "%s: %s", full->segments[i].name, text);
    }
    for (uint32_t i = 0; i < full->n_repeaters; i++) {
        repeater_text(full, &full->repeaters[i], text, sizeof text);
        text_line(f, &n, "repeater", "%s: %s", full->repeaters[i].name, text);
    }
    for (uint32_t i = 0; i < full->n_bridges; i++) {
        bridge_text(full, &full->bridges[i], text, sizeof text);
        text_line(f, &n, "bridge", "%s: %s", full->bridges[i].name, text);
    }
    /* One rate: its rules once; domains at different rates: each its own. */
    bool mixed = false;
    for (uint32_t d = 0; d < full->n_domains; d++)
        mixed |= domain_rate(sc, full, d) != sc->phy.rate_bps;
    if (!mixed)
        text_line(f, &n, "rules", "%s", rules_text(sc->phy.rate_bps));
    for (uint32_t d = 0; d < (full->n_domains ? full->n_domains : 1); d++) {
    net_budget b;
    const network *net = network_domain_budget(full, d, &domain, map, &b);
    if (net == NULL) {
        n = -1;
        break;
    }
    if (full->n_domains > 1) {
        size_t used = 0;
        text[0] = '\0';
        for (uint32_t i = 0; i < net->n_segments && used < sizeof text; i++)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? ", " : "",
                                     net->segments[i].name);
        text_line(f, &n, "domain", "%s: %s", full->segments[full->domain_first[d]].name, text);
    }
    if (mixed)
        text_line(f, &n, "rules", "%s", rules_text(domain_rate(sc, full, d)));
    path_text(net, &b, a, sizeof a);
    if (b.from_segment == NET_BUDGET_NONE)
        text_line(f, &n, "worst path", "%s", a);
    else
        text_line(f, &n, "worst path",
                  "%s; the longest path: %" PRIu32 " segment%s (%" PRIu32 " coax), %" PRIu32
                  " repeater%s",
                  a, b.max_segments, b.max_segments == 1 ? "" : "s", b.max_coax, b.max_repeaters,
                  b.max_repeaters == 1 ? "" : "s");
    if (b.pdv_defined)
        text_line(f, &n, "path delay value", "%.2f bit times (at most %g)", b.pdv_bits,
                  b.pdv_limit_bits);
    else
        text_line(f, &n, "path delay value", "not defined (%s)",
                  b.full_duplex           ? "full duplex: no collisions"
                  : b.pdv_limit_bits > 0 ? "no path through a repeater: the segment's length is "
                                           "the rule"
                                         : "no budget at this rate");
    if (b.pvv_defined)
        text_line(f, &n, "path variability", "%.2f bit times (at most %g)", b.pvv_bits,
                  b.pvv_limit_bits);
    text_line(f, &n, "model round trip", "%.2f bit times (what the simulation uses)",
              b.model_round_trip_bits);
    text_line(f, &n, "verdict", "%s", b.verdict);
    }
    network_free(&whole);
    network_free(&domain);
    if (n < 0 && errno == 0)
        errno = EIO;
    return n < 0 ? -1 : 0;
}

/* "; worst path PATH: path delay value X of L bit times, model round trip
 * Y bit times: VERDICT" of budget b (of network net), after buf[used]. */
static void summary_tail(const network *net, const net_budget *b, const char *domain, char *buf,
                         size_t len)
{
    size_t used = strlen(buf);
    char path[200], pdv[96] = "";
    if (used >= len)
        return;
    if (b->full_duplex) {
        snprintf(buf + used, len - used, "; %s", b->verdict);
        return;
    }
    path_text(net, b, path, sizeof path);
    if (b->pdv_defined)
        snprintf(pdv, sizeof pdv, " path delay value %.2f of %g bit times,", b->pdv_bits,
                 b->pdv_limit_bits);
    snprintf(buf + used, len - used, "; worst path %s%s%s%s:%s model round trip %.2f bit times: %s",
             domain[0] ? "(domain " : "", domain, domain[0] ? ") " : "", path, pdv,
             b->model_round_trip_bits, b->verdict);
}

void netreport_summary(const scenario *sc, char *buf, size_t len)
{
    const network *net = &sc->net;
    network view = {0};
    net_budget worst;
    net_domain_tally t;
    const network *of = network_worst_budget(net, 0, &view, &worst, &t);
    if (of == NULL) {
        network_free(&view);
        snprintf(buf, len, "?");
        return;
    }
    if (net->n_domains <= 1)
        snprintf(buf, len, "%" PRIu32 " segment%s, %" PRIu32 " repeater%s", net->n_segments,
                 net->n_segments == 1 ? "" : "s", net->n_repeaters,
                 net->n_repeaters == 1 ? "" : "s");
    else /* how many keep the budget, and the worst domain */
        snprintf(buf, len,
                 "%" PRIu32 " segments, %" PRIu32 " repeater%s, %" PRIu32 " bridge%s, %" PRIu32
                 " collision domains, %" PRIu32 " within 802.3's budget",
                 net->n_segments, net->n_repeaters, net->n_repeaters == 1 ? "" : "s",
                 net->n_bridges, net->n_bridges == 1 ? "" : "s", net->n_domains, t.within);
    summary_tail(of, &worst,
                 net->n_domains <= 1 ? "" : net->segments[net->domain_first[t.worst]].name, buf,
                 len);
    network_free(&view);
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
        if (net->n_bridges > 0)
            rc |= put(o, "domain", json_string(net->segments[net->domain_first[s->domain]].name));
        if (own_phys(net)) { /* each segment's PHY, when they may differ */
            rc |= put(o, "phy", json_string(s->phy.name));
            rc |= put(o, "rate_bps", json_integer((json_int_t)s->phy.rate_bps));
        }
        if (s->type == NET_SEG_LINK) {
            rc |= put(o, "duplex", json_string(s->full_duplex ? "full" : "half"));
        } else if (s->type == NET_SEG_COAX) {
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

/* A repeater's or a bridge's ports as a user writes them, put in o as
 * "ports" (a bridge's port on a hub or a link: the segment's name).
 * Returns 0, or -1. */
static int put_ports(json_t *o, const network *net, const net_port *ports, uint32_t n,
                     bool bridge)
{
    json_t *all = json_array();
    int rc = all == NULL ? -1 : 0;
    for (uint32_t p = 0; rc == 0 && p < n; p++) {
        char text[64];
        const net_segment *g = &net->segments[ports[p].segment];
        if (!bridge || g->type == NET_SEG_COAX)
            network_port_text(net, &ports[p], text, sizeof text);
        else
            snprintf(text, sizeof text, "%s", g->name);
        rc = json_array_append_new(all, json_string(text));
    }
    if (rc != 0) {
        json_decref(all);
        return -1;
    }
    return put(o, "ports", all);
}

/* Puts o (taken) in all under name, unless rc says o is incomplete.
 * Returns all, or NULL (freed) on any failure. */
static json_t *put_named(json_t *all, const char *name, json_t *o, int rc)
{
    if (rc != 0)
        json_decref(o);
    if (rc != 0 || put(all, name, o) != 0) {
        json_decref(all);
        return NULL;
    }
    return all;
}

static json_t *json_repeaters(const network *net)
{
    json_t *all = json_object();
    for (uint32_t i = 0; all != NULL && i < net->n_repeaters; i++) {
        const net_repeater *r = &net->repeaters[i];
        json_t *o = json_object();
        int rc = o == NULL ? -1 : put_ports(o, net, r->ports, r->n_ports, false);
        rc |= put(o, "delay_bits", json_integer(r->delay_bits));
        rc |= put(o, "class", r->rep_class ? json_string(r->rep_class == 1 ? "I" : "II")
                                           : json_null());
        rc |= put(o, "uplink", json_boolean(r->uplink));
        all = put_named(all, r->name, o, rc);
    }
    return all;
}

static json_t *json_bridges(const network *net)
{
    json_t *all = json_object();
    for (uint32_t i = 0; all != NULL && i < net->n_bridges; i++) {
        const net_bridge *r = &net->bridges[i];
        json_t *o = json_object();
        int rc = o == NULL ? -1 : put_ports(o, net, r->ports, r->n_ports, true);
        rc |= put(o, "queue", json_integer(r->queue));
        rc |= put(o, "latency_us", json_real((double)r->latency_ps / 1e6));
        rc |= put(o, "ageing_s", json_real((double)r->ageing_ps / 1e12));
        all = put_named(all, r->name, o, rc);
    }
    return all;
}

/* A path's end as a station's number (from 1), or null (a port, or no path). */
static json_t *end_station(bool ends, uint32_t st)
{
    return ends && st != NET_BUDGET_NONE ? json_integer(st + 1) : json_null();
}

/* A path's end as the name of the bridge whose port it is, or null. */
static json_t *end_bridge(const network *net, bool ends, uint32_t bridge)
{
    return ends && bridge < net->n_bridges ? json_string(net->bridges[bridge].name) : json_null();
}

/* Domain d of network full (scenario_network_view's), at its own rate. */
static json_t *json_domain(const network *full, uint32_t d)
{
    network view = {0};
    uint32_t map[NET_MAX_SEGMENTS];
    net_budget b;
    const network *net = network_domain_budget(full, d, &view, map, &b);
    json_t *o = net != NULL ? json_object() : NULL;
    int rc = o == NULL ? -1 : 0;
    bool ends = b.from_segment != NET_BUDGET_NONE;
    if (rc == 0 && full->n_bridges > 0) {
        json_t *segs = json_array();
        for (uint32_t i = 0; segs != NULL && i < net->n_segments; i++)
            if (json_array_append_new(segs, json_string(net->segments[i].name)) != 0)
                rc = -1;
        rc |= put(o, "name", json_string(full->segments[full->domain_first[d]].name));
        rc |= put(o, "segments", segs);
    }
    if (rc == 0) {
        rc |= put(o, "rules", json_string(b.rules));
        rc |= put(o, "worst_path",
                  ends ? json_pack("[ss]", net->segments[b.from_segment].name,
                                   net->segments[b.to_segment].name)
                       : json_null());
        rc |= put(o, "from_station", end_station(ends, b.from_station));
        rc |= put(o, "to_station", end_station(ends, b.to_station));
        if (full->n_bridges > 0) { /* an end may be a bridge's port */
            rc |= put(o, "from_bridge", end_bridge(net, ends, b.from_bridge));
            rc |= put(o, "to_bridge", end_bridge(net, ends, b.to_bridge));
        }
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
    }
    network_free(&view);
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *netreport_json(const scenario *sc)
{
    network whole = {0};
    if (scenario_network_view(sc, &whole) != 0)
        return NULL;
    json_t *o = json_object(), *domains = json_array();
    int rc = o == NULL || domains == NULL ? -1 : 0;
    rc |= put(o, "segments", json_segments(&whole));
    rc |= put(o, "repeaters", json_repeaters(&whole));
    if (whole.n_bridges > 0)
        rc |= put(o, "bridges", json_bridges(&whole));
    for (uint32_t d = 0; rc == 0 && d < (whole.n_domains ? whole.n_domains : 1); d++)
        if (json_array_append_new(domains, json_domain(&whole, d)) != 0)
            rc = -1;
    if (rc == 0) {
        rc = put(o, "domains", domains);
        domains = NULL;
    }
    json_decref(domains);
    network_free(&whole);
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int netreport_write_json(FILE *f, const scenario *sc)
{
    json_t *o = netreport_json(sc);
    if (o == NULL) {
        errno = ENOMEM;
        return -1;
    }
    errno = 0;
    int rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(REPORT_REAL_DIGITS));
    if (rc == 0 && fputc('\n', f) == EOF)
        rc = -1;
    if (rc != 0 && errno == 0)
        errno = EIO;
    json_decref(o);
    return rc == 0 ? 0 : -1;
}
