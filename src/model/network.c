/* network.c - networks of segments: the [segment], [repeater] and [bridge]
 * sections, and what scenario_finish resolves, the per-station key
 * `segment` (keys.c sets it) included (network.h, network_int.h;
 * stations/MODEL.md, "Networks of segments").
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

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "keys.h"
#include "parse.h"

#define Q(v) parse_echo((v), (char[64]){0}, 64)
#define NET_MAX_METRES 1e7
#define NONE UINT32_MAX
#define UPLINK_SUFFIX "-uplink"

static const char *kind_word(char kind)
{
    return kind == 's' ? "segment" : kind == 'b' ? "bridge" : "repeater";
}

const char *network_type_name(net_seg_type type)
{
    return type == NET_SEG_HUB ? "hub" : type == NET_SEG_LINK ? "link" : "coax";
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

static uint32_t bridge_find(const network *net, const char *name)
{
    for (uint32_t i = 0; i < net->n_bridges; i++)
        if (strcmp(net->bridges[i].name, name) == 0)
            return i;
    return NONE;
}

uint32_t network_bridge_find(const network *net, const char *name)
{
    return bridge_find(net, name);
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

/* ---- the keys of the sections (network.h, net_key_doc) ---- */

static const net_key_doc key_docs[] = {
    {'s', "type", "coax, hub or link", "none: required",
     "a shared cable with taps, a repeater hub with a drop cable per station, or a "
     "point-to-point cable of two ends"},
    {'s', "length", "METRES", "coax: the PHY's bus length (500 m otherwise); hub and link: the "
     "PHY's star drop (100 m otherwise)", "coax: the cable; hub: every drop cable; link: the cable"},
    {'s', "velocity", "fraction of c, above 0 to 1", "coax: the PHY's bus velocity (0.77 "
     "otherwise); hub and link: the PHY's star velocity (0.585 otherwise)",
     "signal speed on the segment's cables"},
    {'s', "probe", "METRES", "0 m", "coax: where the segment's capture point taps the cable"},
    {'s', "class", "I or II", "II", "hub at 100 Mb/s: its repeater class (Clause 27)"},
    {'s', "delay", "bit times", "Class I 70, Class II 46, else the PHY's hub delay (8 at 10 Mb/s, 488 at 1 Gb/s)",
     "hub: one-way delay through it"},
    {'s', "uplink", "SEGMENT@METRES", "none",
     "hub: a port on another segment (a repeater of two ports without delay)"},
    {'s', "duplex", "half or full", "half", "link: full duplex (a link's two ends only)"},
    {'s', "phy", "a PHY profile", "the scenario's phy", "the segment's own rate and timing"},
    {'r', "ports", "SEGMENT@METRES, ... (a hub's port may be just HUB)", "none: required, two or "
     "more", "the segments the repeater joins, one port each"},
    {'r', "delay", "bit times", "Class I 70, Class II 46, else the PHY's hub delay (8 at 10 Mb/s, 488 at 1 Gb/s)",
     "one-way delay through the repeater"},
    {'r', "class", "I or II", "II", "at 100 Mb/s: its repeater class (Clause 27)"},
    {'b', "ports", "SEGMENT or SEGMENT@METRES, ...", "none: required, two or more",
     "the segments the bridge joins, one port each"},
    {'b', "queue", "frames, 1 to 1000000", "64", "frames a port holds waiting to be sent; more "
     "are dropped"},
    {'b', "latency", "TIME (a bare number is seconds: give a unit, e.g. 10us)", "0 (forwarded "
     "as soon as received whole)", "added to store and forward: a frame received whole waits "
     "this long before it enters the output port's queue"},
    {'b', "ageing", "TIME (a bare number is seconds)", "300s (802.1D)",
     "how long a learned address is kept"},
};

const net_key_doc *network_key_docs(size_t *n)
{
    *n = sizeof key_docs / sizeof key_docs[0];
    return key_docs;
}

/* "type, length, ...": a section's keys (its "unknown key" refusal). */
static const char *key_list(char section, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof key_docs / sizeof key_docs[0] && len < cap; i++)
        if (key_docs[i].section == section)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? ", " : "",
                                    key_docs[i].key);
    return out;
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

/* ---- the tables ---- */

int network_reserve(network *net)
{
    if (net->segments)
        return 0;
    net->segments = calloc(NET_MAX_SEGMENTS, sizeof *net->segments);
    net->repeaters = calloc(NET_MAX_REPEATERS, sizeof *net->repeaters);
    net->bridges = calloc(NET_MAX_BRIDGES, sizeof *net->bridges);
    if (net->segments && net->repeaters && net->bridges)
        return 0;
    network_free(net);
    return -1;
}

void network_free(network *net)
{
    free(net->segments);
    free(net->repeaters);
    free(net->bridges);
    memset(net, 0, sizeof *net);
}

int network_copy(network *dst, const network *src)
{
    *dst = *src;
    dst->segments = NULL;
    dst->repeaters = NULL;
    dst->bridges = NULL;
    if (!src->segments)
        return 0;
    if (network_reserve(dst) != 0)
        return -1; /* (dst is left empty) */
    memcpy(dst->segments, src->segments, NET_MAX_SEGMENTS * sizeof *dst->segments);
    memcpy(dst->repeaters, src->repeaters, NET_MAX_REPEATERS * sizeof *dst->repeaters);
    memcpy(dst->bridges, src->bridges, NET_MAX_BRIDGES * sizeof *dst->bridges);
    return 0;
}

/* ---- reading ---- */

int network_name_check(char kind, const char *name, char *err, size_t errlen)
{
    /* Said as a group's is ("group '1a': ..."): a name refused is no
     * section's, so it is not written as one ("[segment NAME]"). */
    if (scenario_group_name_ok(name))
        return 0;
    snprintf(err, errlen,
             "%s '%s': a name is 1 to %d letters, digits, '-' or '_', starting with a letter",
             kind_word(kind), Q(name), NET_NAME_MAX);
    return -1;
}

int network_declare(network *net, char kind, const char *name, int line, char *err,
                    size_t errlen)
{
    if (network_name_check(kind, name, err, errlen) != 0)
        return -1;
    uint32_t s = network_segment_find(net, name), r = repeater_find(net, name),
             b = bridge_find(net, name);
    if (s != NONE || r != NONE || b != NONE)
        return section_fail(err, errlen, kind, name,
                            "the name is taken by [%s %s] (line %d): segments, repeaters, "
                            "bridges and groups share one namespace",
                            s != NONE ? "segment" : r != NONE ? "repeater" : "bridge", name,
                            s != NONE   ? net->segments[s].line
                            : r != NONE ? net->repeaters[r].line
                                        : net->bridges[b].line);
    if (network_reserve(net) != 0)
        return section_fail(err, errlen, kind, name, "out of memory");
    if (kind == 'b') {
        if (net->n_bridges == NET_MAX_BRIDGES)
            return section_fail(err, errlen, kind, name, "more than %d bridges",
                                NET_MAX_BRIDGES);
        net_bridge *br = &net->bridges[net->n_bridges++];
        memset(br, 0, sizeof *br);
        snprintf(br->name, sizeof br->name, "%s", name);
        br->line = line;
        br->queue = 64;
        br->ageing_ps = 300 * (int64_t)1000000000000;
        return 0;
    }
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
        if (repeater_find(net, name) != NONE || bridge_find(net, name) != NONE)
            snprintf(reason, rlen, "%s is a %s, not a segment", name,
                     repeater_find(net, name) != NONE ? "repeater" : "bridge");
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
        else if (strcmp(v, "link") == 0)
            g->type = NET_SEG_LINK;
        else
            return section_fail(err, errlen, 's', g->name,
                                "type: unknown type '%s' (coax, hub, link)", Q(v));
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
    } else if (strcmp(key, "duplex") == 0) {
        if (strcmp(v, "full") != 0 && strcmp(v, "half") != 0)
            return section_fail(err, errlen, 's', g->name, "duplex: '%s' is not half or full",
                                Q(v));
        g->full_duplex = strcmp(v, "full") == 0;
        g->duplex_line = line;
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
    } else if (strcmp(key, "phy") == 0) {
        const phy_params *p = phy_profile_find(v);
        if (p == NULL) {
            char names[200] = "";
            size_t used = 0;
            for (size_t i = 0; i < phy_profile_count() && used < sizeof names; i++)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                         i ? ", " : "", phy_profile_at(i)->name);
            return section_fail(err, errlen, 's', g->name, "phy: unknown profile '%s' (%s)",
                                Q(v), names);
        }
        g->phy_own = p;
        g->phy_line = line;
    } else if (strcmp(key, "rate") == 0) {
        return section_fail(err, errlen, 's', g->name,
                            "rate: a segment's rate comes with its PHY: give its profile "
                            "(e.g. phy = 100basetx), which sets the slot time, gap and "
                            "cable too");
    } else {
        return section_fail(err, errlen, 's', g->name, "unknown key '%s' (%s)", Q(key),
                            key_list('s', r, sizeof r));
    }
    return 0;
}

/* ports = SEG@METRES, SEG@METRES, ... (a hub's port may be just HUB),
 * into ports[max]; kind 'r' or 'b' names the section. */
static int parse_ports(network *net, char kind, const char *name, const char *v, net_port *ports,
                       uint32_t max, uint32_t *n_out, char *err, size_t errlen)
{
    char r[400];
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
            return section_fail(err, errlen, kind, name,
                                "ports: '%s' is not SEGMENT@METRES, SEGMENT@METRES, ...", Q(v));
        if (n == max)
            return section_fail(err, errlen, kind, name, "ports: more than %u ports", max);
        memcpy(item, p, len);
        item[len] = '\0';
        double m = NAN;
        if (parse_attachment(net, item, &ports[n].segment, &m, r, sizeof r) != 0)
            return section_fail(err, errlen, kind, name, "ports: %s", r);
        ports[n].drop_default = isnan(m);
        ports[n].metres = isnan(m) ? 0 : m;
        for (uint32_t k = 0; k < n; k++)
            if (ports[k].segment == ports[n].segment)
                return section_fail(err, errlen, kind, name,
                                    "ports: two ports on segment %s (a %s joins "
                                    "different segments)",
                                    net->segments[ports[n].segment].name, kind_word(kind));
        n++;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    if (n < 2)
        return section_fail(err, errlen, kind, name,
                            "ports: a %s needs at least two ports (one per segment it "
                            "joins)", kind_word(kind));
    *n_out = n;
    return 0;
}

static int set_ports(network *net, net_repeater *rp, const char *v, char *err, size_t errlen)
{
    net_port ports[NET_MAX_PORTS];
    uint32_t n = 0;
    if (parse_ports(net, 'r', rp->name, v, ports, NET_MAX_PORTS, &n, err, errlen) != 0)
        return -1;
    memcpy(rp->ports, ports, n * sizeof ports[0]);
    rp->n_ports = n;
    return 0;
}

/* [bridge NAME]: ports, queue, latency, ageing. */
static int set_bridge_key(network *net, net_bridge *b, const char *key, const char *v, int line,
                          char *err, size_t errlen)
{
    char r[400];
    if (strcmp(key, "ports") == 0) {
        net_port ports[NET_MAX_BRIDGE_PORTS];
        uint32_t n = 0;
        if (parse_ports(net, 'b', b->name, v, ports, NET_MAX_BRIDGE_PORTS, &n, err, errlen) != 0)
            return -1;
        memcpy(b->ports, ports, n * sizeof ports[0]);
        b->n_ports = n;
        b->ports_line = line;
    } else if (strcmp(key, "queue") == 0) {
        if (parse_u32(v, 1, 1000000, &b->queue, r, sizeof r) != 0)
            return section_fail(err, errlen, 'b', b->name, "queue: %s", r);
        b->queue_line = line;
    } else if (strcmp(key, "latency") == 0 || strcmp(key, "ageing") == 0) {
        sim_time t = 0;
        if (parse_time_ps(v, &t, r, sizeof r) != 0)
            return section_fail(err, errlen, 'b', b->name, "%s: %s", key, r);
        if (key[0] == 'l') {
            b->latency_ps = t;
            b->latency_line = line;
        } else {
            if (t <= 0)
                return section_fail(err, errlen, 'b', b->name,
                                    "ageing: must be longer than 0 (802.1D's default is 300s)");
            b->ageing_ps = t;
            b->ageing_line = line;
        }
    } else {
        return section_fail(err, errlen, 'b', b->name,
                            "unknown key '%s' (%s)", Q(key), key_list('b', r, sizeof r));
    }
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
        return section_fail(err, errlen, 'r', rp->name, "unknown key '%s' (%s)", Q(key),
                            key_list('r', r, sizeof r));
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
    if (kind == 'b' && index < net->n_bridges)
        return set_bridge_key(net, &net->bridges[index], key, value, line, err, errlen);
    snprintf(err, errlen, "%s: no such section", key);
    return -1;
}

/* ---- resolution ---- */

void network_warn_add(char *warn, size_t warnlen, const char *text)
{
    static const char full[] = "more warnings than fit here: the rest are left out";
    size_t used = strlen(warn);
    if (strstr(warn, full) != NULL)
        return;
    /* a whole line, with room left for `full` after it; else `full` */
    size_t need = (used ? 1 : 0) + strlen(text) + 1 + sizeof full;
    if (used + need <= warnlen)
        snprintf(warn + used, warnlen - used, "%s%s", used ? "\n" : "", text);
    else if (used + 1 + sizeof full <= warnlen)
        snprintf(warn + used, warnlen - used, "%s%s", used ? "\n" : "", full);
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
    for (uint32_t i = 0; i < net->n_segments; i++) {
        net_segment *g = &net->segments[i];
        /* Its own PHY, or the scenario's: every default below is its. */
        g->phy = g->phy_own ? *g->phy_own : sc->phy;
        const phy_params *phy = &g->phy;
        bool at100 = phy->rate_bps == 100000000ull;
        bool hub = g->type == NET_SEG_HUB;
        if (!g->type_given)
            return resolve_fail(net, err, errlen, g->line, 's', g->name,
                                "type: missing (type = coax, hub or link)");
        bool link = g->type == NET_SEG_LINK;
        if (g->full_duplex && !link)
            return resolve_fail(net, err, errlen, g->duplex_line, 's', g->name,
                                "duplex: full duplex needs a link of two ends (type = link); a "
                                "%s is shared, hence half duplex",
                                network_type_name(g->type));
        if (!g->length_given)
            g->length_m = hub || link ? (phy->topology == TOPOLOGY_STAR ? phy->length_m : 100)
                                      : (phy->topology == TOPOLOGY_BUS ? phy->length_m : 500);
        if (!g->velocity_given)
            g->velocity_c = hub || link
                                ? (phy->topology == TOPOLOGY_STAR ? phy->velocity_c : 0.585)
                                : (phy->topology == TOPOLOGY_BUS ? phy->velocity_c : 0.77);
        if (g->class_given && (!hub || !at100))
            return resolve_fail(net, err, errlen, g->class_line, 's', g->name,
                                "class: %s", !hub ? (link ? "a link has no repeater class (a hub's key)" : "a coax segment has no repeater class (a hub's key)")
                                                  : "repeater classes are Clause 27's, at 100 Mb/s only");
        if (!hub && g->delay_given)
            return resolve_fail(net, err, errlen, g->delay_line, 's', g->name,
                                "delay: a %s segment has no repeater delay (a hub's key; join "
                                "%s segments with a [repeater])",
                                network_type_name(g->type), network_type_name(g->type));
        if (!hub && g->has_uplink)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: only a hub has an uplink (join a %s segment with a "
                                "[repeater])",
                                network_type_name(g->type));
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
        if (to->type == NET_SEG_LINK)
            return resolve_fail(net, err, errlen, g->uplink_line, 's', g->name,
                                "uplink: %s is a link (two ends, a station or a port each): "
                                "join the hub to it with a [repeater]",
                                to->name);
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

/* "10 Mb/s", "100 Mb/s", "1 Gb/s", "2.5 kb/s". */
static void rate_text(uint64_t bps, char *buf, size_t len)
{
    if (bps >= 1000000000ull && bps % 1000000000ull == 0)
        snprintf(buf, len, "%llu Gb/s", (unsigned long long)(bps / 1000000000ull));
    else if (bps >= 1000000ull)
        snprintf(buf, len, "%g Mb/s", (double)bps / 1e6);
    else
        snprintf(buf, len, "%g kb/s", (double)bps / 1e3);
}

/* A repeater repeats bits at one rate (802.3 Clause 9 at 10 Mb/s, Clause
 * 27 at 100, Clause 41 at 1000): its ports' segments all at one rate,
 * with one slotTime, gap and jam (one collision domain, one MAC timing).
 * The message names the first port that differs from the first. */
static int check_one_rate(const network *net, const net_repeater *r, char *err, size_t errlen)
{
    const net_segment *a = &net->segments[r->ports[0].segment];
    for (uint32_t p = 1; p < r->n_ports; p++) {
        const net_segment *b = &net->segments[r->ports[p].segment];
        char ra[32], rb[32], msg[400];
        rate_text(a->phy.rate_bps, ra, sizeof ra);
        rate_text(b->phy.rate_bps, rb, sizeof rb);
        if (a->phy.rate_bps != b->phy.rate_bps)
            snprintf(msg, sizeof msg,
                     "joins segments at different rates: %s at %s (%s), %s at %s (%s); a "
                     "repeater repeats bits at one rate (802.3 Clause 9, Clause 27): join them "
                     "with a [bridge]",
                     a->name, ra, a->phy.name, b->name, rb, b->phy.name);
        else if (a->phy.slot_bits != b->phy.slot_bits || a->phy.ifg_bits != b->phy.ifg_bits ||
                 a->phy.ifg_part1_bits != b->phy.ifg_part1_bits ||
                 a->phy.jam_bits != b->phy.jam_bits ||
                 a->phy.preamble_bits != b->phy.preamble_bits ||
                 a->phy.min_frame_bytes != b->phy.min_frame_bytes ||
                 a->phy.extension != b->phy.extension)
            snprintf(msg, sizeof msg,
                     "joins segments whose MAC timing differs: %s (%s) and %s (%s) at %s have "
                     "different slot, gap, jam, preamble or minimum frame (a segment's `phy` is "
                     "the profile as built in; the scenario's overrides are its own PHY's)",
                     a->name, a->phy.name, b->name, b->phy.name, ra);
        else
            continue;
        return repeater_fail(net, r, err, errlen, r->ports_line ? r->ports_line : r->line, msg);
    }
    return 0;
}

static int resolve_repeaters(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    char msg[300];
    for (uint32_t i = 0; i < net->n_repeaters; i++) {
        net_repeater *r = &net->repeaters[i];
        if (r->n_ports > 0 && check_one_rate(net, r, err, errlen) != 0)
            return -1;
        if (r->uplink)
            continue;
        if (r->n_ports == 0)
            return resolve_fail(net, err, errlen, r->line, 'r', r->name,
                                "ports: missing (ports = SEGMENT@METRES, SEGMENT@METRES, ...)");
        /* Its rate: its segments' (one, checked above). */
        const phy_params *phy = &net->segments[r->ports[0].segment].phy;
        bool at100 = phy->rate_bps == 100000000ull;
        if (r->class_given && !at100)
            return resolve_fail(net, err, errlen, r->class_line, 'r', r->name,
                                "class: repeater classes are Clause 27's, at 100 Mb/s only");
        r->rep_class = at100 ? (r->class_given ? r->class_given : 2) : 0;
        if (!r->delay_given)
            r->delay_bits = default_delay_bits(phy, r->rep_class);
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

/* Every bridge's ports: given, on segments that exist, placed. */
static int resolve_bridges(network *net, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < net->n_bridges; i++) {
        net_bridge *b = &net->bridges[i];
        if (b->n_ports == 0)
            return resolve_fail(net, err, errlen, b->line, 'b', b->name,
                                "ports: missing (ports = SEGMENT, SEGMENT@METRES, ...)");
        for (uint32_t p = 0; p < b->n_ports; p++) {
            net_port *pt = &b->ports[p];
            const net_segment *g = &net->segments[pt->segment];
            if (g->type == NET_SEG_HUB && pt->drop_default)
                pt->metres = g->length_m;
            if (g->type == NET_SEG_COAX && pt->drop_default)
                return resolve_fail(net, err, errlen, b->ports_line, 'b', b->name,
                                    "ports: a port on coax segment %s needs its position "
                                    "(%s@METRES)",
                                    g->name, g->name);
            if (g->type == NET_SEG_COAX && pt->metres > g->length_m)
                return resolve_fail(net, err, errlen, b->ports_line, 'b', b->name,
                                    "ports: %s@%g is beyond the end of the %g m cable", g->name,
                                    pt->metres, g->length_m);
            if (g->type == NET_SEG_LINK && !pt->drop_default)
                return resolve_fail(net, err, errlen, b->ports_line, 'b', b->name,
                                    "ports: %s is a link: a port takes one of its two ends "
                                    "(write %s, without @METRES)",
                                    g->name, g->name);
        }
    }
    return 0;
}

/* A link has exactly two ends, a station or a port each: its stations sit
 * at 0 and at its length (group.c), the ports take the ends left, the
 * repeaters' first. A repeater's port is half duplex. */
static int link_ends(network *net, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < net->n_segments; i++) {
        net_segment *g = &net->segments[i];
        if (g->type != NET_SEG_LINK)
            continue;
        uint32_t ends = g->n_stations;
        for (uint32_t r = 0; r < net->n_repeaters; r++)
            for (uint32_t p = 0; p < net->repeaters[r].n_ports; p++) {
                net_port *pt = &net->repeaters[r].ports[p];
                if (pt->segment != i)
                    continue;
                if (g->full_duplex)
                    return repeater_fail(net, &net->repeaters[r], err, errlen,
                                         net->repeaters[r].ports_line,
                                         "ports: a repeater's port is half duplex, and the "
                                         "link it is on is full duplex");
                pt->metres = ends++ == 0 ? 0 : g->length_m;
            }
        for (uint32_t b = 0; b < net->n_bridges; b++)
            for (uint32_t p = 0; p < net->bridges[b].n_ports; p++)
                if (net->bridges[b].ports[p].segment == i)
                    net->bridges[b].ports[p].metres = ends++ == 0 ? 0 : g->length_m;
        if (ends != 2)
            return resolve_fail(net, err, errlen, g->line, 's', g->name,
                                "a link has exactly two ends, a station or a port each; this "
                                "one has %u (%u station%s and %u port%s)",
                                ends, g->n_stations, g->n_stations == 1 ? "" : "s",
                                ends - g->n_stations, ends - g->n_stations == 1 ? "" : "s");
    }
    return 0;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* The segments, repeaters and bridges must form one tree: joined, without
 * a loop. Then the collision domains: the segments repeaters join. */
static int check_tree(network *net, char *err, size_t errlen)
{
    uint32_t up[NET_MAX_SEGMENTS + NET_MAX_REPEATERS + NET_MAX_BRIDGES];
    uint32_t S = net->n_segments;
    for (uint32_t i = 0; i < S + net->n_repeaters + net->n_bridges; i++)
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
    /* The domains, before the bridges join them. */
    uint32_t dom_root[NET_MAX_SEGMENTS];
    for (uint32_t i = 0; i < S; i++)
        dom_root[i] = uf_find(up, i);
    for (uint32_t r = 0; r < net->n_bridges; r++) {
        const net_bridge *br = &net->bridges[r];
        uint32_t me = S + NET_MAX_REPEATERS + r;
        up[me] = me;
        for (uint32_t p = 0; p < br->n_ports; p++) {
            uint32_t a = uf_find(up, br->ports[p].segment), b = uf_find(up, me);
            if (a == b) {
                snprintf(msg, sizeof msg,
                         "ports: a loop: segment %s is already joined to %s through other "
                         "bridges or repeaters; csmacd does not model the spanning tree "
                         "(802.1D), so bridges and repeaters must form a tree",
                         net->segments[br->ports[p].segment].name,
                         net->segments[br->ports[0].segment].name);
                return resolve_fail(net, err, errlen, br->ports_line ? br->ports_line : br->line,
                                    'b', br->name, "%s", msg);
            }
            up[a] = b;
        }
    }
    for (uint32_t i = 1; i < S; i++)
        if (uf_find(up, i) != uf_find(up, 0))
            return resolve_fail(net, err, errlen, net->segments[i].line, 's',
                                net->segments[i].name,
                                "is not joined to segment %s: no repeater, uplink or bridge "
                                "links them (a network is connected)",
                                net->segments[0].name);
    net->n_domains = 0;
    for (uint32_t i = 0; i < S; i++) {
        uint32_t d = NONE;
        for (uint32_t j = 0; j < i && d == NONE; j++)
            if (dom_root[j] == dom_root[i])
                d = net->segments[j].domain;
        if (d == NONE) {
            d = net->n_domains++;
            net->domain_first[d] = i;
        }
        net->segments[i].domain = d;
    }
    return 0;
}

static int group_fail(const scenario *sc, const station_group *g, char *err, size_t errlen,
                      const char *reason)
{
    /* "FILE:LINE: " of the group's key the reason is about ("segment:
     * ..."), when the file gave it (the last one given wins). */
    int line = 0;
    size_t klen = strcspn(reason, ": ");
    for (uint32_t k = 0; k < g->n_keys; k++)
        if (strlen(g->keys[k].key) == klen && strncmp(g->keys[k].key, reason, klen) == 0 &&
            reason[klen] == ':')
            line = g->keys[k].line;
    int n = line > 0 && sc->net.file[0] != '\0'
                ? snprintf(err, errlen, "%s:%d: ", sc->net.file, line)
                : 0;
    if (n < 0 || (size_t)n >= errlen)
        return -1;
    if (sc->n_named)
        snprintf(err + n, errlen - (size_t)n, "group %s: %s", g->name, reason);
    else
        snprintf(err + n, errlen - (size_t)n, "%s", reason);
    return -1;
}

/* Every group on a segment; each segment's station count and ranks. */
static int place_groups(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    char msg[400];
    for (uint32_t i = 0; i < net->n_segments; i++)
        net->segments[i].n_stations = net->switched ? 1 : 0;
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        station_group *g = sc->n_named ? &sc->groups[i] : &sc->all;
        if (net->switched) { /* station i on link i */
            g->segment = g->first;
            g->seg_rank = 0;
            continue;
        }
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
        if (seg->type == NET_SEG_LINK &&
            (g->place != PLACE_DEFAULT || g->positions_m || sc->positions_m)) {
            const char *key = g->positions_m || sc->positions_m ? "positions"
                              : g->place == PLACE_SPAN          ? "span"
                                                                : "drop";
            snprintf(msg, sizeof msg,
                     "%s: segment %s is a link: its ends sit at 0 and at its length (%g m), "
                     "taken by its stations in order (%s is a coax's or a hub's)",
                     key, seg->name, seg->length_m, key);
            return group_fail(sc, g, err, errlen, msg);
        }
        if (g->place == PLACE_DROP && seg->type != NET_SEG_HUB) {
            snprintf(msg, sizeof msg,
                     "drop: segment %s is %s (drop cables are a hub's; on coax, span or "
                     "positions)",
                     seg->name, network_type_name(seg->type));
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

/* Widens a segment's bounds by station st at x. */
static void bound_add(net_segment *g, double x, uint32_t st)
{
    net_bounds b = {g->near_m, g->far_m, g->near_station, g->far_station};
    net_bounds_add(&b, g->type, x, st);
    g->near_m = b.near_m;
    g->far_m = b.far_m;
    g->near_station = b.near;
    g->far_station = b.far;
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
        if (g->type != NET_SEG_HUB && x > g->length_m) {
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

/* Names are one namespace: a group's may not be a segment's, repeater's
 * or bridge's. */
static int check_names(const scenario *sc, char *err, size_t errlen)
{
    const network *net = &sc->net;
    for (uint32_t i = 0; i < sc->n_named; i++) {
        const char *name = sc->groups[i].name;
        uint32_t s = network_segment_find(net, name), r = repeater_find(net, name),
                 b = bridge_find(net, name);
        if (s == NONE && r == NONE && b == NONE)
            continue;
        /* said at the section's line: the group's own is not kept */
        int line = s != NONE ? net->segments[s].line
                   : r != NONE ? net->repeaters[r].line
                               : net->bridges[b].line;
        int n = line > 0 && net->file[0] != '\0'
                    ? snprintf(err, errlen, "%s:%d: ", net->file, line)
                    : 0;
        if (n >= 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n,
                     "group %s: the name is taken by [%s %s]: segments, repeaters, bridges and "
                     "groups share one namespace (%s.frames_ok would name both)",
                     name, s != NONE ? "segment" : r != NONE ? "repeater" : "bridge", name, name);
        return -1;
    }
    return 0;
}

/* topology = switch: station i alone on link `linkI+1` to bridge `switch`
 * (rebuilt at every finish, from the stations and the keys). */
static int build_switch(scenario *sc, char *err, size_t errlen)
{
    network *net = &sc->net;
    if (net->n_segments > 0 && !net->switched) {
        snprintf(err, errlen,
                 "topology: switch builds its own network (a link per station to one bridge); "
                 "with [segment] sections, write the [bridge] yourself");
        return -1;
    }
    if (sc->n_stations > NET_MAX_BRIDGE_PORTS || sc->n_stations > NET_MAX_SEGMENTS) {
        snprintf(err, errlen, "topology: a switch has at most %d ports (stations: %u)",
                 NET_MAX_BRIDGE_PORTS, sc->n_stations);
        return -1;
    }
    network_free(net); /* (finishing again builds it anew) */
    if (network_reserve(net) != 0) {
        snprintf(err, errlen, "topology: switch: out of memory");
        return -1;
    }
    net->switched = true;
    net_bridge *b = &net->bridges[0];
    net->n_bridges = 1;
    snprintf(b->name, sizeof b->name, "switch");
    b->queue = 64;
    b->ageing_ps = 300 * (int64_t)1000000000000;
    for (uint32_t i = 0; i < sc->n_stations; i++) {
        net_segment *g = &net->segments[net->n_segments++];
        snprintf(g->name, sizeof g->name, "link%u", i + 1);
        g->type = NET_SEG_LINK;
        g->type_given = true;
        g->full_duplex = sc->duplex_full;
        g->length_m = sc->length_given ? sc->phy.length_m : 100;
        g->length_given = true;
        /* its station's group's `phy`, or the scenario's */
        g->phy_own = scenario_group_at(sc, scenario_group_of(sc, i))->link_phy;
        b->ports[b->n_ports++] = (net_port){.segment = i, .drop_default = true};
    }
    return 0;
}

/* Over budget is a warning: one line per rate (the rules are the
 * rate's) that has domains over, naming the worst of them, so that a
 * switch of 64 long links says so in one line, not 64. */
static void warn_budgets(scenario *sc, char *warn, size_t warnlen)
{
    const network *net = &sc->net;
    uint64_t rates[NET_MAX_SEGMENTS];
    uint32_t n_rates = 0;
    for (uint32_t d = 0; d < net->n_domains; d++) {
        uint64_t rate = network_domain_rate(net, d);
        bool seen = false;
        for (uint32_t i = 0; i < n_rates && !seen; i++)
            seen = rates[i] == rate;
        if (!seen)
            rates[n_rates++] = rate;
    }
    network view = {0};
    for (uint32_t i = 0; i < n_rates; i++) {
        net_budget b;
        net_domain_tally t;
        if (network_worst_budget(net, rates[i], &view, &b, &t) == NULL)
            break; /* (no memory: no warning) */
        if (t.within == t.judged)
            continue;
        char msg[800], at[40] = "";
        const char *name = net->segments[net->domain_first[t.worst]].name;
        if (n_rates > 1)
            snprintf(at, sizeof at, " at %g Mb/s", (double)rates[i] / 1e6);
        if (net->n_domains == 1)
            snprintf(msg, sizeof msg, "network: over 802.3's budget: %s", b.verdict);
        else if (t.judged - t.within == 1)
            snprintf(msg, sizeof msg, "network: domain %s is over 802.3's budget: %s", name,
                     b.verdict);
        else
            snprintf(msg, sizeof msg,
                     "network: %" PRIu32 " of %" PRIu32 " collision domains%s are over 802.3's "
                     "budget; the worst, domain %s: %s",
                     t.judged - t.within, t.judged, at, name, b.verdict);
        network_warn_add(warn, warnlen, msg);
    }
    network_free(&view);
}

int network_domain_view(const network *net, uint32_t d, network *out, uint32_t *seg_map)
{
    uint32_t to_view[NET_MAX_SEGMENTS];
    if (network_reserve(out) != 0)
        return -1;
    network tables = *out;
    memset(out, 0, sizeof *out);
    out->segments = tables.segments;
    out->repeaters = tables.repeaters;
    out->bridges = tables.bridges;
    snprintf(out->file, sizeof out->file, "%s", net->file);
    for (uint32_t i = 0; i < net->n_segments; i++) {
        to_view[i] = NONE;
        if (net->segments[i].domain != d)
            continue;
        to_view[i] = out->n_segments;
        if (seg_map)
            seg_map[out->n_segments] = i;
        net_segment *g = &out->segments[out->n_segments++];
        *g = net->segments[i];
        g->domain = 0;
    }
    for (uint32_t r = 0; r < net->n_repeaters; r++) {
        const net_repeater *rp = &net->repeaters[r];
        if (rp->n_ports == 0 || to_view[rp->ports[0].segment] == NONE)
            continue;
        net_repeater *o = &out->repeaters[out->n_repeaters++];
        *o = *rp;
        for (uint32_t p = 0; p < o->n_ports; p++)
            o->ports[p].segment = to_view[o->ports[p].segment];
    }
    /* A bridge's port in the domain (one at most: two would be a loop) is
     * a MAC of its segment, an end of the domain's paths. */
    for (uint32_t b = 0; b < net->n_bridges; b++) {
        const net_bridge *br = &net->bridges[b];
        net_bridge *o = &out->bridges[out->n_bridges];
        *o = *br;
        o->n_ports = 0;
        for (uint32_t p = 0; p < br->n_ports; p++)
            if (to_view[br->ports[p].segment] != NONE) {
                o->ports[o->n_ports] = br->ports[p];
                o->ports[o->n_ports++].segment = to_view[br->ports[p].segment];
            }
        out->n_bridges += o->n_ports > 0;
    }
    out->n_domains = 1;
    out->domain_first[0] = 0;
    return 0;
}

const network *network_domain_budget(const network *net, uint32_t d, network *view,
                                     uint32_t *seg_map, net_budget *b)
{
    const network *of = net;
    if (net->n_domains > 1) {
        if (network_domain_view(net, d, view, seg_map) != 0)
            return NULL;
        of = view;
    } else if (seg_map != NULL) {
        for (uint32_t i = 0; i < net->n_segments; i++)
            seg_map[i] = i;
    }
    /* (a network without domains, scenario_network_view's one bus or
     * star, is at domain_first[0] = 0: its one segment's, the scenario's) */
    net_budget_compute(of, network_domain_rate(net, d), b);
    return of;
}

const network *network_worst_budget(const network *net, uint64_t rate, network *view,
                                    net_budget *worst, net_domain_tally *tally)
{
    network scratch = {0}; /* each domain's view; swapped into `view` when worse */
    const network *of = NULL;
    *tally = (net_domain_tally){.worst = NONE};
    for (uint32_t d = 0; d < (net->n_domains ? net->n_domains : 1); d++) {
        if (rate != 0 && network_domain_rate(net, d) != rate)
            continue;
        net_budget b;
        const network *at = network_domain_budget(net, d, &scratch, NULL, &b);
        if (at == NULL) {
            of = NULL;
            break;
        }
        tally->judged++;
        tally->within += b.within;
        if (tally->worst != NONE && !net_budget_worse(&b, worst))
            continue;
        *worst = b;
        tally->worst = d;
        of = net;
        if (at == &scratch) { /* keep this view: swap the tables */
            network tmp = *view;
            *view = scratch;
            scratch = tmp;
            of = view;
        }
    }
    network_free(&scratch);
    return of;
}

int network_resolve(scenario *sc, char *err, size_t errlen, char *warn, size_t warnlen)
{
    network *net = &sc->net;
    if (net->switched && !sc->switch_topology)
        network_free(net); /* the switch is gone (a sweep or the TUI changed it) */
    /* duplex = half says what a bus or a hub is (a sweep may set it beside
     * topology = star); full needs the switch's links. */
    if (sc->duplex_given && !sc->switch_topology && (sc->duplex_full || net->n_segments > 0)) {
        snprintf(err, errlen,
                 net->n_segments > 0
                     ? "duplex: only with topology = switch (in a network of segments, give "
                       "each link its own duplex)"
                     : "duplex: full only with topology = switch (a bus or a hub is shared, "
                       "hence half duplex)");
        return -1;
    }
    if (sc->switch_topology && build_switch(sc, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; !sc->switch_topology && i < scenario_group_count(sc); i++) {
        const station_group *g = scenario_group_at(sc, i);
        if (g->link_phy != NULL)
            return group_fail(sc, g, err, errlen,
                              net->n_segments > 0
                                  ? "phy: a group's phy sets its stations' links with topology = "
                                    "switch; in a network of segments, give the [segment] its "
                                    "phy"
                                  : "phy: a group's phy sets its stations' links with topology = "
                                    "switch; one bus or star runs at one rate (the scenario's "
                                    "phy)");
    }
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
    if (net->switched) {
        for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
            const station_group *g = scenario_group_at(sc, i);
            if (g->segment_name[0] != '\0' || g->place != PLACE_DEFAULT || g->positions_m)
                return group_fail(sc, g, err, errlen,
                                  "with topology = switch every station sits alone on its link "
                                  "(no segment, positions, span or drop)");
        }
        if (sc->positions_m) {
            snprintf(err, errlen, "positions: with topology = switch every station sits alone on "
                                  "its link");
            return -1;
        }
        if (sc->probe_given) {
            snprintf(err, errlen, "probe: with topology = switch every station sits alone on "
                                  "its link: no shared cable to tap (--probe-segment linkN "
                                  "captures one link)");
            return -1;
        }
    }
    if (!net->switched && (sc->topology_given || sc->length_given || sc->probe_given)) {
        const char *key = sc->topology_given ? "topology" : sc->length_given ? "length" : "probe";
        int line = sc->topology_given ? net->topology_line
                   : sc->length_given ? net->length_line
                                      : net->probe_line;
        /* the file's line, else the command line's option */
        int n = line > 0 ? snprintf(err, errlen, "%s:%d: %s", net->file, line, key)
                         : snprintf(err, errlen, "--%s", key);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n,
                     ": a network of segments has no one %s: give each [segment] its own %s", key,
                     sc->topology_given ? "type (coax or hub)" : key);
        return -1;
    }
    if (sc->traffic.kind == TRAFFIC_PCAP) {
        snprintf(err, errlen, "traffic: a replayed capture makes one station per source address "
                              "and cannot be placed on segments");
        return -1;
    }
    if (resolve_segments(sc, err, errlen) != 0 || make_uplinks(net, err, errlen) != 0 ||
        resolve_repeaters(sc, err, errlen) != 0 || resolve_bridges(net, err, errlen) != 0 ||
        check_tree(net, err, errlen) != 0 || check_names(sc, err, errlen) != 0 ||
        place_groups(sc, err, errlen) != 0 || link_ends(net, err, errlen) != 0 ||
        bound_stations(sc, err, errlen) != 0)
        return -1;
    warn_budgets(sc, warn, warnlen);
    return 0;
}

double network_round_trip_ps(const scenario *sc)
{
    if (sc->net.n_segments == 0)
        return 0;
    network view = {0};
    double worst = 0; /* picoseconds: the domains' rates may differ */
    for (uint32_t d = 0; d < sc->net.n_domains; d++) {
        net_budget b;
        if (network_domain_budget(&sc->net, d, &view, NULL, &b) == NULL) {
            worst = 0;
            break;
        }
        double ps = b.model_round_trip_bits * 1e12 / (double)network_domain_rate(&sc->net, d);
        if (ps > worst)
            worst = ps;
    }
    network_free(&view);
    return worst;
}

uint32_t scenario_station_segment(const scenario *sc, uint32_t i)
{
    if (sc->net.n_segments == 0)
        return NONE;
    if (sc->net.switched)
        return i;
    return scenario_group_at(sc, scenario_group_of(sc, i))->segment;
}

int scenario_network_view(const scenario *sc, network *out)
{
    if (sc->net.n_segments > 0)
        return network_copy(out, &sc->net);
    memset(out, 0, sizeof *out);
    if (network_reserve(out) != 0)
        return -1;
    const phy_params *phy = &sc->phy;
    net_segment *g = &out->segments[0];
    out->n_segments = 1;
    bool hub = phy->topology == TOPOLOGY_STAR;
    snprintf(g->name, sizeof g->name, "%s", hub ? "hub" : "bus");
    g->type = hub ? NET_SEG_HUB : NET_SEG_COAX;
    g->phy = *phy;
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
    return 0;
}
