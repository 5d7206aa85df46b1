/* network.c - networks of segments: the [segment] and [repeater] sections,
 * the per-station key `segment`, and what scenario_finish resolves
 * (network.h, network_int.h; stations/MODEL.md, "Networks of segments").
 *
 * Keys are checked as they are read, each on its own; what depends on
 * several (a position against a cable's length, a class against the
 * PHY's rate, the shape of the whole network) waits for network_resolve,
 * which names the section and the key's line. network_resolve may run
 * again on a finished scenario (the TUI and the sweeps do): every
 * resolved value is recomputed from what was given, and the uplinks'
 * repeaters are made anew.
 */
#include "network_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "group_int.h"
#include "keys.h"
#include "parse.h"

#define Q(v) parse_echo((v), (char[64]){0}, 64)
#define NET_MAX_METRES 1e7
#define NONE UINT32_MAX
#define UPLINK_SUFFIX "-uplink"

static const char *kind_word(char kind) { return kind == 's' ? "segment" : "repeater"; }

const char *network_type_name(net_seg_type type)
{
    return type == NET_SEG_HUB ? "hub" : "coax";
}

uint32_t network_segment_find(const network *net, const char *name)
{
    for (uint32_t i = 0; i < net->n_segments; i++)
        if (strcmp(net->segments[i].name, name) == 0)
            return i;
    return NONE;
}

static uint32_t repeater_find(const network *net, const char *name)
{
    for (uint32_t i = 0; i < net->n_repeaters; i++)
        if (strcmp(net->repeaters[i].name, name) == 0)
            return i;
    return NONE;
}

uint32_t network_repeater_find(const network *net, const char *name)
{
    return repeater_find(net, name);
}

int64_t network_cable_ps(const net_segment *s, double metres)
{
    return (int64_t)llround(metres / (s->velocity_c * PHY_SPEED_OF_LIGHT_M_S) * 1e12);
}

void network_port_text(const network *net, const net_port *p, char *buf, size_t len)
{
    const char *name = p->segment < net->n_segments ? net->segments[p->segment].name : "?";
    snprintf(buf, len, "%s@%g", name, p->metres);
}

/* "[segment NAME] " or "[repeater NAME] " and the reason. */
static int section_fail(char *err, size_t errlen, char kind, const char *name, const char *fmt,
                        ...) __attribute__((format(printf, 5, 6)));
static int section_fail(char *err, size_t errlen, char kind, const char *name, const char *fmt,
                        ...)
{
    int n = snprintf(err, errlen, "[%s %s] ", kind_word(kind), name);
    if (n > 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The same at scenario_finish: "FILE:LINE: " in front when known. */
static int resolve_fail(const network *net, char *err, size_t errlen, int line, char kind,
                        const char *name, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static int resolve_fail(const network *net, char *err, size_t errlen, int line, char kind,
                        const char *name, const char *fmt, ...)
{
    int n = 0;
    if (line > 0 && net->file[0] != '\0')
        n = snprintf(err, errlen, "%s:%d: ", net->file, line);
    if (n >= 0 && (size_t)n < errlen)
        n += snprintf(err + n, errlen - (size_t)n, "[%s %s] ", kind_word(kind), name);
    if (n > 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- reading ---- */

int network_declare(network *net, char kind, const char *name, int line, char *err,
                    size_t errlen)
{
    if (!scenario_group_name_ok(name))
        return section_fail(err, errlen, kind, Q(name),
                            "a name is 1 to %d letters, digits, '-' or '_', starting with a "
                            "letter",
                            NET_NAME_MAX);
    uint32_t s = network_segment_find(net, name), r = repeater_find(net, name);
    if (s != NONE || r != NONE)
        return section_fail(err, errlen, kind, name,
                            "the name is taken by [%s %s] (line %d): segments, repeaters and "
                            "groups share one namespace",
                            s != NONE ? "segment" : "repeater", name,
                            s != NONE ? net->segments[s].line : net->repeaters[r].line);
    if (kind == 's') {
        if (net->n_segments == NET_MAX_SEGMENTS)
            return section_fail(err, errlen, kind, name, "more than %d segments",
                                NET_MAX_SEGMENTS);
        net_segment *g = &net->segments[net->n_segments++];
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "%s", name);
        g->line = line;
        return 0;
    }
    if (net->n_repeaters == NET_MAX_REPEATERS)
        return section_fail(err, errlen, kind, name, "more than %d repeaters", NET_MAX_REPEATERS);
    net_repeater *rp = &net->repeaters[net->n_repeaters++];
    memset(rp, 0, sizeof *rp);
    snprintf(rp->name, sizeof rp->name, "%s", name);
    rp->line = line;
    return 0;
}

/* class = I | II (or 1 | 2). */
static int parse_class(const char *v, uint32_t *out)
{
    if (strcmp(v, "I") == 0 || strcmp(v, "1") == 0)
        *out = 1;
    else if (strcmp(v, "II") == 0 || strcmp(v, "2") == 0)
        *out = 2;
    else
        return -1;
    return 0;
}

/* "NAME" or "NAME@METRES": the segment's index, the metres (NAN for none). */
static int parse_attachment(const network *net, const char *text, uint32_t *seg, double *metres,
                            char *reason, size_t rlen)
{
    char name[NET_NAME_MAX + 2];
    const char *at = strchr(text, '@');
    size_t len = at ? (size_t)(at - text) : strlen(text);
    if (len == 0 || len > NET_NAME_MAX) {
        snprintf(reason, rlen, "'%s' is not SEGMENT@METRES", Q(text));
        return -1;
    }
    memcpy(name, text, len);
    name[len] = '\0';
    *seg = network_segment_find(net, name);
    if (*seg == NONE) {
        if (repeater_find(net, name) != NONE)
            snprintf(reason, rlen, "%s is a repeater, not a segment", name);
        else
            snprintf(reason, rlen, "there is no [segment %s]", Q(name));
        return -1;
    }
    *metres = NAN;
    if (at != NULL) {
        char r[300];
        if (parse_metres(at + 1, NET_MAX_METRES, metres, r, sizeof r) != 0) {
            snprintf(reason, rlen, "%s: %s", name, r);
            return -1;
        }
    }
    return 0;
}

static int set_segment_key(network *net, net_segment *g, const char *key, const char *v,
                           int line, char *err, size_t errlen)
{
    char r[400];
    if (strcmp(key, "type") == 0) {
        if (strcmp(v, "coax") == 0)
            g->type = NET_SEG_COAX;
        else if (strcmp(v, "hub") == 0)
            g->type = NET_SEG_HUB;
        else
            return section_fail(err, errlen, 's', g->name, "type: unknown type '%s' (coax, hub)",
                                Q(v));
        g->type_given = true;
    } else if (strcmp(key, "length") == 0) {
        if (parse_metres(v, NET_MAX_METRES, &g->length_m, r, sizeof r) != 0)
            return section_fail(err, errlen, 's', g->name, "length: %s", r);
        g->length_given = true;
        g->length_line = line;
    } else if (strcmp(key, "velocity") == 0) {
        double c = 0;
        if (parse_double(v, 0.0, 1.0, &c, r, sizeof r) != 0 || c <= 0.0)
            return section_fail(err, errlen, 's', g->name,
                                "velocity: '%s' is not a fraction of the speed of light in (0, 1]",
                                Q(v));
        g->velocity_c = c;
        g->velocity_given = true;
    } else if (strcmp(key, "probe") == 0) {
        if (parse_metres(v, NET_MAX_METRES, &g->probe_m, r, sizeof r) != 0)
            return section_fail(err, errlen, 's', g->name, "probe: %s", r);
        g->probe_line = line;
    } else if (strcmp(key, "class") == 0) {
        if (parse_class(v, &g->class_given) != 0)
            return section_fail(err, errlen, 's', g->name,
                                "class: '%s' is not I or II (Clause 27's repeater classes)", Q(v));
        g->class_line = line;
    } else if (strcmp(key, "delay") == 0) {
        if (parse_u32(v, 0, 1u << 20, &g->hub_bits, r, sizeof r) != 0)
            return section_fail(err, errlen, 's', g->name, "delay: %s", r);
        g->delay_given = true;
        g->delay_line = line;
    } else if (strcmp(key, "uplink") == 0) {
        uint32_t to = NONE;
        double m = NAN;
        if (parse_attachment(net, v, &to, &m, r, sizeof r) != 0)
            return section_fail(err, errlen, 's', g->name, "uplink: %s", r);
        if (isnan(m))
            return section_fail(err, errlen, 's', g->name,
                                "uplink: '%s' is not SEGMENT@METRES (e.g. backbone@250)", Q(v));
        if (&net->segments[to] == g)
            return section_fail(err, errlen, 's', g->name, "uplink: a hub cannot be its own uplink");
        g->has_uplink = true;
        g->uplink_to = to;
        g->uplink_m = m;
        g->uplink_line = line;
    } else {
        return section_fail(err, errlen, 's', g->name,
                            "unknown key '%s' (type, length, velocity, probe, class, delay, "
                            "uplink)",
                            Q(key));
    }
    return 0;
}

/* ports = SEG@METRES, SEG@METRES, ... (a hub's port may be just HUB). */
static int set_ports(network *net, net_repeater *rp, const char *v, char *err, size_t errlen)
{
    char r[400];
    net_port ports[NET_MAX_PORTS];
    uint32_t n = 0;
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[NET_NAME_MAX + 64];
        while (len > 0 && (*p == ' ' || *p == '\t')) {
            p++;
            len--;
        }
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 0 || len >= sizeof item)
            return section_fail(err, errlen, 'r', rp->name,
                                "ports: '%s' is not SEGMENT@METRES, SEGMENT@METRES, ...", Q(v));
        if (n == NET_MAX_PORTS)
            return section_fail(err, errlen, 'r', rp->name, "ports: more than %d ports",
                                NET_MAX_PORTS);
        memcpy(item, p, len);
        item[len] = '\0';
        double m = NAN;
        if (parse_attachment(net, item, &ports[n].segment, &m, r, sizeof r) != 0)
            return section_fail(err, errlen, 'r', rp->name, "ports: %s", r);
        ports[n].drop_default = isnan(m);
        ports[n].metres = isnan(m) ? 0 : m;
        for (uint32_t k = 0; k < n; k++)
            if (ports[k].segment == ports[n].segment)
                return section_fail(err, errlen, 'r', rp->name,
                                    "ports: two ports on segment %s (a repeater joins "
                                    "different segments)",
                                    net->segments[ports[n].segment].name);
        n++;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    if (n < 2)
        return section_fail(err, errlen, 'r', rp->name,
                            "ports: a repeater needs at least two ports (one per segment it "
                            "joins)");
    memcpy(rp->ports, ports, n * sizeof ports[0]);
    rp->n_ports = n;
    return 0;
}

static int set_repeater_key(network *net, net_repeater *rp, const char *key, const char *v,
                            int line, char *err, size_t errlen)
{
    char r[400];
    if (strcmp(key, "ports") == 0) {
        if (set_ports(net, rp, v, err, errlen) != 0)
            return -1;
        rp->ports_line = line;
    } else if (strcmp(key, "delay") == 0) {
        if (parse_u32(v, 0, 1u << 20, &rp->delay_bits, r, sizeof r) != 0)
            return section_fail(err, errlen, 'r', rp->name, "delay: %s", r);
        rp->delay_given = true;
        rp->delay_line = line;
    } else if (strcmp(key, "class") == 0) {
        if (parse_class(v, &rp->class_given) != 0)
            return section_fail(err, errlen, 'r', rp->name,
                                "class: '%s' is not I or II (Clause 27's repeater classes)", Q(v));
        rp->class_line = line;
    } else {
        return section_fail(err, errlen, 'r', rp->name, "unknown key '%s' (ports, delay, class)",
                            Q(key));
    }
    return 0;
}

int network_set(network *net, char kind, uint32_t index, const char *key, const char *value,
                int line, char *err, size_t errlen)
{
    if (kind == 's' && index < net->n_segments)
        return set_segment_key(net, &net->segments[index], key, value, line, err, errlen);
    if (kind == 'r' && index < net->n_repeaters)
        return set_repeater_key(net, &net->repeaters[index], key, value, line, err, errlen);
    snprintf(err, errlen, "%s: no such section", key);
    return -1;
}

int scenario_set_segment(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    if (!scenario_group_name_ok(v) || strlen(v) > NET_NAME_MAX) {
        snprintf(err, errlen, "%s: '%s' does not name a segment", key, Q(v));
        return -1;
    }
    snprintf(sc->segment_name, sizeof sc->segment_name, "%s", v);
    return 0;
}

/* ---- resolution ---- */

static void warn_line(char *warn, size_t warnlen, const char *text)
{
    size_t used = strlen(warn);
    if (used + 1 >= warnlen)
        return;
    snprintf(warn + used, warnlen - used, "%s%s", used ? "\n" : "", text);
}

/* A hub's or repeater's one-way delay when not given (MODEL.md): Class I
 * 70 and Class II 46 bit times at 100 Mb/s (half of Table 29-3's round
 * trips); elsewhere the PHY's hub delay, or 8 bit times without one. */
static uint32_t default_delay_bits(const phy_params *phy, uint32_t cls)
{
    if (cls == 1)
        return 70;
    if (cls == 2)
        return 46;
    return phy->hub_delay_bits ? phy->hub_delay_bits : 8;
}

static int resolve_segments(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    const phy_params *phy = &sc->phy;
    bool at100 = phy->rate_bps == 100000000ull;
    for (uint32_t i = 0; i < net->n_segments; i++) {
        net_segment *g = &net->segments[i];
        bool hub = g->type == NET_SEG_HUB;
        if (!g->type_given)
            return resolve_fail(net, err, errlen, g->line, 's', g->name,
                                "type: missing (type = coax or type = hub)");
        if (!g->length_given)
            g->length_m = hub ? (phy->topology == TOPOLOGY_STAR ? phy->length_m : 100)
                              : (phy->topology == TOPOLOGY_BUS ? phy->length_m : 500);
        if (!g->velocity_given)
            g->velocity_c = hub ? (phy->topology == TOPOLOGY_STAR ? phy->velocity_c : 0.585)
                                : (phy->topology == TOPOLOGY_BUS ? phy->velocity_c : 0.77);
        if (g->class_given && (!hub || !at100))
            return resolve_fail(net, err, errlen, g->class_line, 's', g->name,
                                "class: %s", !hub ? "a coax segment has no repeater class (a hub's key)"
                                                  : "repeater classes are Clause 27's, at 100 Mb/s only");
        if (!hub && g->delay_given)
            return resolve_fail(net, err, errlen, g->delay_line, 's', g->name,
                                "delay: a coax segment has no repeater delay (a hub's key; join "
                                "coax segments with a [repeater])");
        if (!hub && g->has_uplink)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: only a hub has an uplink (join a coax segment with a "
                                "[repeater])");
        if (hub && g->probe_line)
            return resolve_fail(net, err, errlen, g->probe_line, 's', g->name,
                                "probe: a hub's capture point is the hub itself (probe is a "
                                "coax segment's key)");
        if (!hub && g->probe_m > g->length_m)
            return resolve_fail(net, err, errlen, g->probe_line, 's', g->name,
                                "probe: %g m is beyond the end of the %g m cable", g->probe_m,
                                g->length_m);
        g->hub_class = hub && at100 ? (g->class_given ? g->class_given : 2) : 0;
        if (!hub)
            g->hub_bits = 0;
        else if (!g->delay_given)
            g->hub_bits = default_delay_bits(phy, g->hub_class);
    }
    return 0;
}

/* A hub's uplink becomes a repeater of two ports without delay. */
static int make_uplinks(network *net, char *err, size_t errlen)
{
    while (net->n_repeaters > 0 && net->repeaters[net->n_repeaters - 1].uplink)
        net->n_repeaters--;
    for (uint32_t i = 0; i < net->n_segments; i++) {
        const net_segment *g = &net->segments[i];
        if (!g->has_uplink)
            continue;
        const net_segment *to = &net->segments[g->uplink_to];
        char name[64];
        snprintf(name, sizeof name, "%s%s", g->name, UPLINK_SUFFIX);
        if (strlen(name) > NET_NAME_MAX)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: its repeater's name %s would be longer than %d "
                                "characters (shorten the hub's name)",
                                name, NET_NAME_MAX);
        if (network_segment_find(net, name) != NONE || repeater_find(net, name) != NONE)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: its repeater's name %s is taken (segments, repeaters "
                                "and groups share one namespace)",
                                name);
        if (net->n_repeaters == NET_MAX_REPEATERS)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: more than %d repeaters, uplinks included",
                                NET_MAX_REPEATERS);
        if (to->type == NET_SEG_COAX && g->uplink_m > to->length_m)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: %s@%g is beyond the end of the %g m cable", to->name,
                                g->uplink_m, to->length_m);
        net_repeater *r = &net->repeaters[net->n_repeaters++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", name);
        r->uplink = true;
        r->n_ports = 2;
        r->line = r->ports_line = g->uplink_line;
        if (to->type == NET_SEG_COAX) {
            r->ports[0] = (net_port){.segment = i, .metres = g->length_m};
            r->ports[1] = (net_port){.segment = g->uplink_to, .metres = g->uplink_m};
        } else {
            r->ports[0] = (net_port){.segment = i, .metres = g->uplink_m};
            r->ports[1] = (net_port){.segment = g->uplink_to, .metres = 0};
        }
    }
    return 0;
}

/* The message of a repeater's problem: an uplink's names its hub. */
static int repeater_fail(const network *net, const net_repeater *r, char *err, size_t errlen,
                         int line, const char *what)
{
    if (r->uplink)
        return resolve_fail(net, err, errlen, line, 's', net->segments[r->ports[0].segment].name,
                            "uplink: %s", what);
    return resolve_fail(net, err, errlen, line, 'r', r->name, "%s", what);
}

static int resolve_repeaters(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    bool at100 = sc->phy.rate_bps == 100000000ull;
    char msg[300];
    for (uint32_t i = 0; i < net->n_repeaters; i++) {
        net_repeater *r = &net->repeaters[i];
        if (r->uplink)
            continue;
        if (r->n_ports == 0)
            return resolve_fail(net, err, errlen, r->line, 'r', r->name,
                                "ports: missing (ports = SEGMENT@METRES, SEGMENT@METRES, ...)");
        if (r->class_given && !at100)
            return resolve_fail(net, err, errlen, r->class_line, 'r', r->name,
                                "class: repeater classes are Clause 27's, at 100 Mb/s only");
        r->rep_class = at100 ? (r->class_given ? r->class_given : 2) : 0;
        if (!r->delay_given)
            r->delay_bits = default_delay_bits(&sc->phy, r->rep_class);
        for (uint32_t p = 0; p < r->n_ports; p++) {
            net_port *pt = &r->ports[p];
            const net_segment *g = &net->segments[pt->segment];
            if (g->type == NET_SEG_HUB && pt->drop_default)
                pt->metres = g->length_m;
            if (g->type == NET_SEG_COAX && pt->drop_default) {
                snprintf(msg, sizeof msg,
                         "ports: %s: a port on coax segment %s needs its position (%s@METRES)",
                         g->name, g->name, g->name);
                return repeater_fail(net, r, err, errlen, r->ports_line, msg);
            }
            if (g->type == NET_SEG_COAX && pt->metres > g->length_m) {
                snprintf(msg, sizeof msg, "ports: %s@%g is beyond the end of the %g m cable",
                         g->name, pt->metres, g->length_m);
                return repeater_fail(net, r, err, errlen, r->ports_line, msg);
            }
        }
    }
    return 0;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* The segments and repeaters must form one tree: joined, without a loop. */
static int check_tree(const network *net, char *err, size_t errlen)
{
    uint32_t up[NET_MAX_SEGMENTS + NET_MAX_REPEATERS];
    uint32_t S = net->n_segments;
    for (uint32_t i = 0; i < S + net->n_repeaters; i++)
        up[i] = i;
    char msg[300];
    for (uint32_t r = 0; r < net->n_repeaters; r++) {
        const net_repeater *rp = &net->repeaters[r];
        for (uint32_t p = 0; p < rp->n_ports; p++) {
            uint32_t a = uf_find(up, rp->ports[p].segment), b = uf_find(up, S + r);
            if (a == b) {
                snprintf(msg, sizeof msg,
                         "a loop: segment %s is already joined to %s through other repeaters "
                         "or uplinks (segments and repeaters must form a tree)",
                         net->segments[rp->ports[p].segment].name,
                         net->segments[rp->ports[0].segment].name);
                return repeater_fail(net, rp, err, errlen, rp->ports_line ? rp->ports_line
                                                                          : rp->line,
                                     msg);
            }
            up[a] = b;
        }
    }
    for (uint32_t i = 1; i < S; i++)
        if (uf_find(up, i) != uf_find(up, 0))
            return resolve_fail(net, err, errlen, net->segments[i].line, 's',
                                net->segments[i].name,
                                "is not joined to segment %s: no repeater or uplink links them "
                                "(a network is one collision domain)",
                                net->segments[0].name);
    return 0;
}

static int group_fail(const scenario *sc, const station_group *g, char *err, size_t errlen,
                      const char *reason)
{
    if (sc->n_named)
        snprintf(err, errlen, "group %s: %s", g->name, reason);
    else
        snprintf(err, errlen, "%s", reason);
    return -1;
}

/* Every group on a segment; each segment's station count and ranks. */
static int place_groups(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    char msg[400];
    for (uint32_t i = 0; i < net->n_segments; i++)
        net->segments[i].n_stations = 0;
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        station_group *g = sc->n_named ? &sc->groups[i] : &sc->all;
        if (g->segment_name[0] == '\0')
            return group_fail(sc, g, err, errlen,
                              "segment: missing: with [segment] sections every station sits on "
                              "one (segment = NAME)");
        uint32_t s = network_segment_find(net, g->segment_name);
        if (s == NONE) {
            snprintf(msg, sizeof msg, "segment: %s", g->segment_name);
            if (repeater_find(net, g->segment_name) != NONE)
                snprintf(msg, sizeof msg, "segment: %s is a repeater, not a segment",
                         g->segment_name);
            else
                snprintf(msg, sizeof msg, "segment: there is no [segment %s]", g->segment_name);
            return group_fail(sc, g, err, errlen, msg);
        }
        net_segment *seg = &net->segments[s];
        if (g->place == PLACE_DROP && seg->type == NET_SEG_COAX) {
            snprintf(msg, sizeof msg,
                     "drop: segment %s is coax (drop cables are a hub's; on coax, span or "
                     "positions)",
                     seg->name);
            return group_fail(sc, g, err, errlen, msg);
        }
        if (g->place == PLACE_SPAN && seg->type == NET_SEG_HUB) {
            snprintf(msg, sizeof msg,
                     "span: segment %s is a hub (a stretch of cable is coax's; on a hub, drop)",
                     seg->name);
            return group_fail(sc, g, err, errlen, msg);
        }
        if (g->place == PLACE_SPAN && g->place_to_m > seg->length_m) {
            snprintf(msg, sizeof msg, "span: %g m is beyond the end of the %g m cable of segment %s",
                     g->place_to_m, seg->length_m, seg->name);
            return group_fail(sc, g, err, errlen, msg);
        }
        g->segment = s;
        g->seg_rank = seg->n_stations;
        seg->n_stations += g->count;
    }
    return 0;
}

/* Widens a segment's bounds by station st at x (coax: the lowest and
 * highest positions; hub: the two longest drops). */
static void bound_add(net_segment *g, double x, uint32_t st)
{
    bool hub = g->type == NET_SEG_HUB;
    if (g->far_station == NONE) {
        g->far_m = x;
        g->far_station = st;
        g->near_m = hub ? 0 : x;
        g->near_station = hub ? NONE : st;
    } else if (!hub) {
        if (x < g->near_m) {
            g->near_m = x;
            g->near_station = st;
        }
        /* a second station at the one place so far is the far end: a
         * path joins two stations, never one with itself */
        if (x > g->far_m || (x == g->far_m && g->far_station == g->near_station)) {
            g->far_m = x;
            g->far_station = st;
        }
    } else if (x > g->far_m) {
        g->near_m = g->far_m;
        g->near_station = g->far_station;
        g->far_m = x;
        g->far_station = st;
    } else if (g->near_station == NONE || x > g->near_m) {
        g->near_m = x;
        g->near_station = st;
    }
}

/* Each segment's bounding stations; positions past a cable's end. */
static int bound_stations(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    char msg[400];
    for (uint32_t i = 0; i < net->n_segments; i++) {
        net_segment *g = &net->segments[i];
        g->near_m = g->far_m = 0;
        g->near_station = g->far_station = NONE;
    }
    for (uint32_t st = 0; st < sc->n_stations; st++) {
        uint32_t s = scenario_station_segment(sc, st);
        net_segment *g = &net->segments[s];
        double x = scenario_station_metres(sc, st);
        if (g->type == NET_SEG_COAX && x > g->length_m) {
            snprintf(msg, sizeof msg,
                     "positions: station %u at %g m is beyond the end of the %g m cable of "
                     "segment %s",
                     st + 1, x, g->length_m, g->name);
            return group_fail(sc, scenario_group_at(sc, scenario_group_of(sc, st)), err, errlen,
                              msg);
        }
        bound_add(g, x, st);
    }
    return 0;
}

/* Names are one namespace: a group's may not be a segment's or repeater's. */
static int check_names(const scenario *sc, char *err, size_t errlen)
{
    const network *net = &sc->net;
    for (uint32_t i = 0; i < sc->n_named; i++) {
        const char *name = sc->groups[i].name;
        uint32_t s = network_segment_find(net, name), r = repeater_find(net, name);
        if (s == NONE && r == NONE)
            continue;
        snprintf(err, errlen,
                 "group %s: the name is taken by [%s %s]: segments, repeaters and groups share "
                 "one namespace (%s.frames_ok would name both)",
                 name, s != NONE ? "segment" : "repeater", name, name);
        return -1;
    }
    return 0;
}

int network_resolve(scenario *sc, char *err, size_t errlen, char *warn, size_t warnlen)
{
    network *net = &sc->net;
    if (net->n_segments == 0) {
        for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
            station_group *g = sc->n_named ? &sc->groups[i] : &sc->all;
            g->segment = NONE;
            if (g->segment_name[0] != '\0') {
                char msg[200];
                snprintf(msg, sizeof msg,
                         "segment: there is no [segment %s] (segments are declared in the "
                         "scenario file)",
                         g->segment_name);
                return group_fail(sc, g, err, errlen, msg);
            }
        }
        return 0;
    }
    if (sc->topology_given || sc->length_given || sc->probe_given) {
        const char *key = sc->topology_given ? "topology" : sc->length_given ? "length" : "probe";
        snprintf(err, errlen,
                 "%s: a network of segments has no one %s: give each [segment] its own %s", key,
                 sc->topology_given ? "topology" : sc->length_given ? "length" : "probe",
                 sc->topology_given ? "type (coax or hub)" : key);
        return -1;
    }
    if (sc->traffic.kind == TRAFFIC_PCAP) {
        snprintf(err, errlen, "traffic: a replayed capture makes one station per source address "
                              "and cannot be placed on segments");
        return -1;
    }
    if (resolve_segments(sc, err, errlen) != 0 || make_uplinks(net, err, errlen) != 0 ||
        resolve_repeaters(sc, err, errlen) != 0 || check_tree(net, err, errlen) != 0 ||
        check_names(sc, err, errlen) != 0 || place_groups(sc, err, errlen) != 0 ||
        bound_stations(sc, err, errlen) != 0)
        return -1;
    net_budget b;
    net_budget_compute(net, sc->phy.rate_bps, &b);
    if (!b.within) {
        char msg[700];
        snprintf(msg, sizeof msg, "network: over 802.3's budget: %s", b.verdict);
        warn_line(warn, warnlen, msg);
    }
    return 0;
}

double network_round_trip_ps(const scenario *sc)
{
    if (sc->net.n_segments == 0)
        return 0;
    net_budget b;
    net_budget_compute(&sc->net, sc->phy.rate_bps, &b);
    return b.model_round_trip_bits * 1e12 / (double)sc->phy.rate_bps;
}

uint32_t scenario_station_segment(const scenario *sc, uint32_t i)
{
    if (sc->net.n_segments == 0)
        return NONE;
    return scenario_group_at(sc, scenario_group_of(sc, i))->segment;
}

void scenario_network_view(const scenario *sc, network *out)
{
    if (sc->net.n_segments > 0) {
        *out = sc->net;
        return;
    }
    memset(out, 0, sizeof *out);
    const phy_params *phy = &sc->phy;
    net_segment *g = &out->segments[0];
    out->n_segments = 1;
    bool hub = phy->topology == TOPOLOGY_STAR;
    snprintf(g->name, sizeof g->name, "%s", hub ? "hub" : "bus");
    g->type = hub ? NET_SEG_HUB : NET_SEG_COAX;
    g->length_m = phy->length_m;
    g->velocity_c = phy->velocity_c;
    g->probe_m = hub ? 0 : sc->probe_m;
    /* The engine's `point` rule: a star of 0 m drops, every station
     * placed by default, is one point, without the hub's delay. */
    bool point = phy->length_m == 0 && sc->positions_m == NULL;
    for (uint32_t i = 0; i < scenario_group_count(sc); i++)
        point &= !scenario_group_at(sc, i)->positions_m &&
                 scenario_group_at(sc, i)->place == PLACE_DEFAULT;
    g->hub_bits = hub && !point ? phy->hub_delay_bits : 0;
    /* At 100 Mb/s a hub of more than Class II's 46 bit times is Class I. */
    g->hub_class = hub && phy->rate_bps == 100000000ull ? (phy->hub_delay_bits > 46 ? 1 : 2) : 0;
    g->n_stations = sc->n_stations;
    g->near_station = g->far_station = NONE;
    for (uint32_t st = 0; st < sc->n_stations; st++)
        bound_add(g, scenario_station_metres(sc, st), st);
}
