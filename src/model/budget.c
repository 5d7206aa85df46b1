/* budget.c - the 802.3 delay budget of a network (budget.h).
 *
 * Every pair of end segments that holds two stations is one worst path
 * (the stations that bound each end: net_segment's near and far). The
 * path runs through the tree of segments and repeaters (scenario_finish
 * refuses anything else) and is spelt out twice: as the model's one-way
 * delay, and as the standard's elements (coax segments, link segments,
 * repeaters) that its tables price.
 *
 * How a path becomes elements (stations/MODEL.md, "The budget"):
 *   - a coax segment is one mixing segment of its whole length;
 *   - a link is one link segment of its whole length;
 *   - a hub is a repeater; each drop cable on it (a station's, or the
 *     cable of a repeater port into it) is a link segment;
 *   - a hub's uplink to another hub is one link segment, its cable;
 *     an uplink to a coax segment taps it through its cable, counted as
 *     AUI cable: Table 13-3's segment delay values include 2 m of AUI
 *     cable at each end of the segment, so each such cable beyond its
 *     2 m is "excess length AUI".
 * A path's ends are MACs: stations, and bridge ports (a bridge's or a
 * switch's port on a half-duplex segment transmits, defers and collides
 * as a station does, 802.1D over 802.3 Clause 4). A full-duplex link has
 * no collisions, hence no path to price.
 */
#include "budget.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define C_M_S 299792458.0

/* Clause 13, Table 13-3: segment delay values, bit times round trip:
 * left end, mid-segment and right end base values, and per metre. */
typedef struct seg_delay {
    const char *name;
    double left, mid, right, per_m, max_m;
} seg_delay;

static const seg_delay T13_10BASE5 = {"10BASE5", 11.75, 46.5, 169.5, 0.0866, 500};
static const seg_delay T13_10BASE2 = {"10BASE2", 11.75, 46.5, 169.5, 0.1026, 185};
static const seg_delay T13_10BASET = {"10BASE-T", 15.25, 42.0, 165.0, 0.113, 100};
/* "Excess length AUI": the base values include an AUI cable of 2 m at
 * each end of a segment; each AUI cable's length beyond them is priced
 * at 0.1026 bit/m (Table 13-3's row for it, at most 48 m of excess). */
#define T13_AUI_PER_M 0.1026
#define T13_AUI_FREE_M 2.0
/* Table 13-4: path variability values (transmitting end, mid-segment). */
#define T13_PVV_COAX_END 16.0
#define T13_PVV_COAX_MID 11.0
#define T13_PVV_LINK_END 10.5
#define T13_PVV_LINK_MID 8.0
#define T13_PDV_LIMIT 575.0
#define T13_PVV_LIMIT 49.0
/* Table 29-3: round-trip delays, bit times. */
#define T29_DTE_PAIR 100.0
#define T29_CLASS_I 140.0
#define T29_CLASS_II 92.0
#define T29_CAT5_PER_M 1.112
#define T29_PDV_LIMIT 512.0
/* 42.4 (1000BASE-T): two DTEs, one repeater, Cat 5 per metre. */
#define T42_DTE_PAIR 864.0
#define T42_REPEATER 976.0
#define T42_CAT5_PER_M 11.12
#define T42_PDV_LIMIT 4096.0
/* The longest link segment at 10, 100 and 1000 Mb/s: 100 m of twisted
 * pair (10BASE-T, Clause 14, and Table 13-3's row; 100BASE-TX, Clause 25;
 * 1000BASE-T, Clause 40). */
#define LINK_MAX_M 100.0

enum { E_COAX, E_LINK, E_REP };

typedef struct elem {
    int kind;
    double metres;     /* coax: the segment's length; link: the cable */
    double aui_m;      /* coax: uplink cables tapping it, all of them */
    double aui_excess_m; /* coax: the same, each less its 2 m (Table 13-3) */
    bool thin;         /* coax: 10BASE2 (velocity below 0.7c) */
    double per_m_rt;   /* coax: round trip per metre at its velocity, bit times */
    uint32_t cls;      /* repeater: 1, 2 (100 Mb/s) or 0 */
} elem;

/* At most: per segment on the path, 3 elements (link, hub, link) and per
 * repeater 1. */
#define MAX_ELEMS (4 * NET_MAX_SEGMENTS + NET_MAX_REPEATERS + 4)

typedef struct path {
    uint32_t segs[NET_MAX_SEGMENTS];
    uint32_t reps[NET_MAX_SEGMENTS]; /* reps[j] joins segs[j] and segs[j + 1] */
    uint32_t out_port[NET_MAX_SEGMENTS], in_port[NET_MAX_SEGMENTS];
    uint32_t n; /* segments */
} path;

typedef struct tree {
    /* From the BFS root: the repeater that reaches each segment, its port
     * there and its port on the parent segment. */
    uint32_t parent[NET_MAX_SEGMENTS], via[NET_MAX_SEGMENTS];
    uint32_t port_here[NET_MAX_SEGMENTS], port_parent[NET_MAX_SEGMENTS];
    bool seen[NET_MAX_SEGMENTS];
} tree;

static void bfs(const network *net, uint32_t root, tree *t)
{
    uint32_t queue[NET_MAX_SEGMENTS], head = 0, tail = 0;
    bool rep_used[NET_MAX_REPEATERS] = {false};
    memset(t->seen, 0, sizeof t->seen);
    t->seen[root] = true;
    t->parent[root] = NET_BUDGET_NONE;
    queue[tail++] = root;
    while (head < tail) {
        uint32_t s = queue[head++];
        for (uint32_t r = 0; r < net->n_repeaters; r++) {
            const net_repeater *rp = &net->repeaters[r];
            uint32_t here = NET_BUDGET_NONE;
            for (uint32_t p = 0; p < rp->n_ports; p++)
                if (rp->ports[p].segment == s)
                    here = p;
            if (here == NET_BUDGET_NONE || rep_used[r])
                continue;
            rep_used[r] = true;
            for (uint32_t p = 0; p < rp->n_ports; p++) {
                uint32_t n = rp->ports[p].segment;
                if (p == here || n >= net->n_segments || t->seen[n])
                    continue;
                t->seen[n] = true;
                t->parent[n] = s;
                t->via[n] = r;
                t->port_here[n] = p;
                t->port_parent[n] = here;
                if (tail < NET_MAX_SEGMENTS)
                    queue[tail++] = n;
            }
        }
    }
}

/* The path from the tree's root to b; false when b is not reached. */
static bool path_to(const tree *t, uint32_t b, path *out)
{
    uint32_t rev[NET_MAX_SEGMENTS], n = 0;
    if (!t->seen[b])
        return false;
    for (uint32_t s = b; s != NET_BUDGET_NONE && n < NET_MAX_SEGMENTS; s = t->parent[s])
        rev[n++] = s;
    out->n = n;
    for (uint32_t j = 0; j < n; j++)
        out->segs[j] = rev[n - 1 - j];
    for (uint32_t j = 0; j + 1 < n; j++) {
        uint32_t next = out->segs[j + 1];
        out->reps[j] = t->via[next];
        out->out_port[j] = t->port_parent[next];
        out->in_port[j] = t->port_here[next];
    }
    return true;
}

static double cable_s(const net_segment *s, double metres)
{
    return metres / (s->velocity_c * C_M_S);
}

/* Through a segment from one point to another (coax and link: positions;
 * hub: drops), in seconds. */
static double inside_s(const net_segment *s, double a, double b, double bit_s)
{
    if (s->type != NET_SEG_HUB)
        return cable_s(s, fabs(a - b));
    return cable_s(s, a) + (double)s->hub_bits * bit_s + cable_s(s, b);
}

void net_bounds_add(net_bounds *b, net_seg_type type, double x, uint32_t id)
{
    bool hub = type == NET_SEG_HUB;
    if (b->far == NET_BUDGET_NONE) {
        b->far_m = x;
        b->far = id;
        b->near_m = hub ? 0 : x;
        b->near = hub ? NET_BUDGET_NONE : id;
    } else if (!hub) {
        if (x < b->near_m) {
            b->near_m = x;
            b->near = id;
        }
        /* a second end at the one place so far is the far end: a path
         * joins two ends, never one with itself */
        if (x > b->far_m || (x == b->far_m && b->far == b->near)) {
            b->far_m = x;
            b->far = id;
        }
    } else if (x > b->far_m) {
        b->near_m = b->far_m;
        b->near = b->far;
        b->far_m = x;
        b->far = id;
    } else if (b->near == NET_BUDGET_NONE || x > b->near_m) {
        b->near_m = x;
        b->near = id;
    }
}

/* A path's end, a MAC: a station's number, or END_PORT | b for bridge
 * b's port on the segment (a bridge has one port per segment). */
#define END_PORT 0x80000000u

static uint32_t end_station(uint32_t id)
{
    return id & END_PORT ? NET_BUDGET_NONE : id;
}

static uint32_t end_bridge(uint32_t id)
{
    return id != NET_BUDGET_NONE && id & END_PORT ? id & ~END_PORT : NET_BUDGET_NONE;
}

/* The MACs of a segment that bound every path through it: its stations'
 * bounds (net_segment's near and far) widened by the bridge ports on it. */
typedef struct seg_ends {
    uint32_t n; /* stations and bridge ports */
    net_bounds b;
} seg_ends;

static void segment_ends(const network *net, uint32_t i, seg_ends *e)
{
    const net_segment *s = &net->segments[i];
    e->n = s->n_stations;
    e->b = (net_bounds){.near_m = s->near_m, .far_m = s->far_m, .near = NET_BUDGET_NONE,
                        .far = NET_BUDGET_NONE};
    if (e->n > 0) { /* (a hub's lone station: no near one; a coax's: both) */
        e->b.near = s->near_station;
        e->b.far = s->far_station;
    }
    for (uint32_t b = 0; b < net->n_bridges; b++)
        for (uint32_t p = 0; p < net->bridges[b].n_ports; p++)
            if (net->bridges[b].ports[p].segment == i) {
                net_bounds_add(&e->b, s->type, net->bridges[b].ports[p].metres, END_PORT | b);
                e->n++;
            }
}

/* The MAC of an end segment farthest from point x, and its delay to x. */
static double end_s(const net_segment *s, const net_bounds *e, double x, double bit_s,
                    uint32_t *id)
{
    if (s->type == NET_SEG_HUB) {
        *id = e->far;
        return inside_s(s, e->far_m, x, bit_s);
    }
    double dn = fabs(e->near_m - x), df = fabs(e->far_m - x);
    *id = df >= dn ? e->far : e->near;
    return cable_s(s, fmax(dn, df));
}

typedef struct path_eval {
    double one_way_s;
    uint32_t st_a, st_b; /* END_PORT | bridge for a port */
    elem e[MAX_ELEMS];
    uint32_t n_e;
} path_eval;

static void push(path_eval *pe, elem e)
{
    if (pe->n_e < MAX_ELEMS)
        pe->e[pe->n_e++] = e;
}

static elem coax_elem(const net_segment *s, double rate_bps)
{
    return (elem){.kind = E_COAX, .metres = s->length_m, .thin = s->velocity_c < 0.7,
                  .per_m_rt = 2.0 / (s->velocity_c * C_M_S) * rate_bps};
}

static bool full_duplex(const net_segment *s)
{
    return s->type == NET_SEG_LINK && s->full_duplex;
}

static elem rep_elem(uint32_t cls) { return (elem){.kind = E_REP, .cls = cls}; }
static elem link_elem(double m) { return (elem){.kind = E_LINK, .metres = m}; }

/* The elements of a segment the path enters from a repeater's port at
 * `metres` (a hub: the port's drop and the hub). */
static void push_entered(path_eval *pe, const net_segment *n, double metres, double rate_bps)
{
    if (n->type == NET_SEG_HUB) {
        push(pe, link_elem(metres));
        push(pe, rep_elem(n->hub_class));
    } else if (n->type == NET_SEG_LINK) {
        push(pe, link_elem(n->length_m));
    } else {
        push(pe, coax_elem(n, rate_bps));
    }
}

/* An uplink's cable of `metres` tapping the coax segment e as AUI cable. */
static void add_aui(elem *e, double metres)
{
    e->aui_m += metres;
    e->aui_excess_m += fmax(0.0, metres - T13_AUI_FREE_M);
}

/* The path's model delay and its elements. */
static void evaluate(const network *net, const seg_ends *ends, const path *p, double rate_bps,
                     path_eval *pe)
{
    double bit_s = 1.0 / rate_bps;
    const net_segment *a = &net->segments[p->segs[0]];
    const net_segment *b = &net->segments[p->segs[p->n - 1]];
    const net_bounds *ea = &ends[p->segs[0]].b, *eb = &ends[p->segs[p->n - 1]].b;
    pe->n_e = 0;
    if (p->n == 1) { /* two MACs on one segment */
        pe->st_a = ea->far;
        pe->st_b = ea->near;
        pe->one_way_s = inside_s(a, ea->far_m, ea->near_m, bit_s);
        if (a->type == NET_SEG_HUB) {
            push(pe, link_elem(ea->far_m));
            push(pe, rep_elem(a->hub_class));
            push(pe, link_elem(ea->near_m));
        } else {
            push_entered(pe, a, 0, rate_bps);
        }
        return;
    }
    const net_port *first = &net->repeaters[p->reps[0]].ports[p->out_port[0]];
    const net_port *last = &net->repeaters[p->reps[p->n - 2]].ports[p->in_port[p->n - 2]];
    double t = end_s(a, ea, first->metres, bit_s, &pe->st_a) +
               end_s(b, eb, last->metres, bit_s, &pe->st_b);
    if (a->type == NET_SEG_HUB) {
        push(pe, link_elem(ea->far_m));
        push(pe, rep_elem(a->hub_class));
    } else {
        push_entered(pe, a, 0, rate_bps);
    }
    for (uint32_t j = 0; j + 1 < p->n; j++) {
        const net_repeater *r = &net->repeaters[p->reps[j]];
        const net_segment *s = &net->segments[p->segs[j]];
        const net_segment *n = &net->segments[p->segs[j + 1]];
        const net_port *po = &r->ports[p->out_port[j]], *pi = &r->ports[p->in_port[j]];
        t += (double)r->delay_bits * bit_s;
        if (j + 1 < p->n - 1) { /* n is a middle segment: from pi to the next exit */
            const net_port *nx = &net->repeaters[p->reps[j + 1]].ports[p->out_port[j + 1]];
            t += inside_s(n, pi->metres, nx->metres, bit_s);
        }
        bool s_hub = s->type == NET_SEG_HUB, n_hub = n->type == NET_SEG_HUB;
        if (!r->uplink) {
            if (s_hub)
                push(pe, link_elem(po->metres));
            push(pe, rep_elem(r->rep_class));
            push_entered(pe, n, pi->metres, rate_bps);
        } else { /* between a hub and a hub or a coax (network.c refuses a link) */
            double cable = (s_hub ? po->metres : 0) + (n_hub ? pi->metres : 0);
            if (s_hub && n_hub) {
                push(pe, link_elem(cable));
                push(pe, rep_elem(n->hub_class));
            } else if (s_hub) {
                elem c = coax_elem(n, rate_bps);
                add_aui(&c, cable);
                push(pe, c);
            } else {
                if (pe->n_e > 0 && pe->e[pe->n_e - 1].kind == E_COAX)
                    add_aui(&pe->e[pe->n_e - 1], cable);
                push(pe, rep_elem(n->hub_class));
            }
        }
    }
    if (b->type == NET_SEG_HUB)
        push(pe, link_elem(eb->far_m));
    pe->one_way_s = t;
}

/* Clause 13, Model 2: one direction, left to right. */
static void model2_one_way(const path_eval *pe, bool reverse, double *pdv, double *pvv)
{
    uint32_t segs[MAX_ELEMS], n = 0;
    for (uint32_t i = 0; i < pe->n_e; i++) {
        uint32_t k = reverse ? pe->n_e - 1 - i : i;
        if (pe->e[k].kind != E_REP)
            segs[n++] = k;
    }
    *pdv = 0;
    *pvv = 0;
    for (uint32_t i = 0; i < n; i++) {
        const elem *e = &pe->e[segs[i]];
        const seg_delay *d = e->kind == E_LINK ? &T13_10BASET : e->thin ? &T13_10BASE2
                                                                        : &T13_10BASE5;
        double base = i == 0 ? d->left : i + 1 == n ? d->right : d->mid;
        *pdv += base + e->metres * d->per_m + e->aui_excess_m * T13_AUI_PER_M;
        bool coax = e->kind == E_COAX;
        if (i == 0)
            *pvv += coax ? T13_PVV_COAX_END : T13_PVV_LINK_END;
        else if (i + 1 < n)
            *pvv += coax ? T13_PVV_COAX_MID : T13_PVV_LINK_MID;
    }
}

typedef struct path_std {
    bool pdv_defined, pvv_defined;
    double pdv, pvv;
    uint32_t segments, repeaters, coax, class1;
    bool coax_fast; /* coax above 10 Mb/s: no delay value in the tables */
} path_std;

static void standard(const path_eval *pe, uint64_t rate, path_std *ps)
{
    memset(ps, 0, sizeof *ps);
    double metres = 0, reps = 0;
    for (uint32_t i = 0; i < pe->n_e; i++) {
        const elem *e = &pe->e[i];
        if (e->kind == E_REP) {
            ps->repeaters++;
            ps->class1 += e->cls == 1;
            reps += e->cls == 1 ? T29_CLASS_I : T29_CLASS_II;
        } else {
            ps->segments++;
            ps->coax += e->kind == E_COAX;
        }
        if (e->kind == E_LINK)
            metres += e->metres + e->aui_m;
    }
    if (rate == 10000000ull) {
        if (ps->segments >= 2) {
            double a1, v1, a2, v2;
            model2_one_way(pe, false, &a1, &v1);
            model2_one_way(pe, true, &a2, &v2);
            ps->pdv_defined = ps->pvv_defined = true;
            ps->pdv = fmax(a1, a2);
            ps->pvv = fmax(v1, v2);
        }
        return;
    }
    double coax_bits = 0;
    for (uint32_t i = 0; i < pe->n_e; i++)
        if (pe->e[i].kind == E_COAX) {
            ps->coax_fast = true;
            coax_bits += pe->e[i].metres * pe->e[i].per_m_rt;
            metres += pe->e[i].aui_m;
        }
    if (rate == 100000000ull) {
        ps->pdv_defined = true;
        ps->pdv = T29_DTE_PAIR + reps + metres * T29_CAT5_PER_M + coax_bits;
    } else if (rate == 1000000000ull) {
        ps->pdv_defined = true;
        ps->pdv = T42_DTE_PAIR + ps->repeaters * T42_REPEATER + metres * T42_CAT5_PER_M +
                  coax_bits;
    }
}

/* Appends "; text" (or text) to the verdict. A part that would not fit
 * whole is left out, never cut, and a last "; ..." says some were (room
 * for it is kept). */
static void add_problem(net_budget *out, const char *text)
{
    static const char more[] = "; ...";
    size_t used = out->within ? 0 : strlen(out->verdict);
    out->within = false;
    if (used >= sizeof more - 1 && strcmp(out->verdict + used - (sizeof more - 1), more) == 0)
        return; /* already full */
    size_t need = (used ? 2 : 0) + strlen(text);
    if (used + need + sizeof more <= sizeof out->verdict)
        snprintf(out->verdict + used, sizeof out->verdict - used, "%s%s", used ? "; " : "", text);
    else
        snprintf(out->verdict + used, sizeof out->verdict - used, "%s", more);
}

static void path_name(const network *net, uint32_t a, uint32_t b, char *buf, size_t len)
{
    if (a == b)
        snprintf(buf, len, "%s", net->segments[a].name);
    else
        snprintf(buf, len, "%s..%s", net->segments[a].name, net->segments[b].name);
}

/* Segment lengths the tables bound: Table 13-3's maxima of coax; every
 * link segment (a link, a hub's drop) 100 m at 10, 100 and 1000 Mb/s. */
static void length_rules(const network *net, uint64_t rate, net_budget *out)
{
    char msg[200];
    bool links_bound = rate == 10000000ull || rate == 100000000ull || rate == 1000000000ull;
    for (uint32_t i = 0; i < net->n_segments; i++) {
        const net_segment *s = &net->segments[i];
        if (s->type == NET_SEG_COAX && rate == 10000000ull) {
            const seg_delay *d = s->velocity_c < 0.7 ? &T13_10BASE2 : &T13_10BASE5;
            if (s->length_m > d->max_m) {
                snprintf(msg, sizeof msg, "segment %s: %g m > %g m (%s, Table 13-3)", s->name,
                         s->length_m, d->max_m, d->name);
                add_problem(out, msg);
            }
            continue;
        }
        if (!links_bound || s->type == NET_SEG_COAX || full_duplex(s))
            continue;
        if (s->type == NET_SEG_LINK) {
            if (s->length_m > LINK_MAX_M) {
                snprintf(msg, sizeof msg, "segment %s: a link of %g m > %g m (a link segment)",
                         s->name, s->length_m, LINK_MAX_M);
                add_problem(out, msg);
            }
            continue;
        }
        double longest = s->n_stations ? s->far_m : 0;
        for (uint32_t r = 0; r < net->n_repeaters; r++)
            for (uint32_t p = 0; p < net->repeaters[r].n_ports; p++)
                if (net->repeaters[r].ports[p].segment == i)
                    longest = fmax(longest, net->repeaters[r].ports[p].metres);
        for (uint32_t b = 0; b < net->n_bridges; b++)
            for (uint32_t p = 0; p < net->bridges[b].n_ports; p++)
                if (net->bridges[b].ports[p].segment == i)
                    longest = fmax(longest, net->bridges[b].ports[p].metres);
        if (longest > LINK_MAX_M) {
            snprintf(msg, sizeof msg, "segment %s: a drop of %g m > %g m (a link segment)",
                     s->name, longest, LINK_MAX_M);
            add_problem(out, msg);
        }
    }
}

void net_budget_compute(const network *net, uint64_t rate, net_budget *out)
{
    memset(out, 0, sizeof *out);
    out->rate_bps = rate;
    out->within = true;
    out->from_segment = out->to_segment = NET_BUDGET_NONE;
    out->from_station = out->to_station = NET_BUDGET_NONE;
    out->from_bridge = out->to_bridge = NET_BUDGET_NONE;
    bool r10 = rate == 10000000ull, r100 = rate == 100000000ull, r1000 = rate == 1000000000ull;
    out->rules = r10 ? "Clause 13" : r100 ? "Clause 29" : r1000 ? "Clauses 41 and 42" : "none";
    out->pdv_limit_bits = r10 ? T13_PDV_LIMIT : r100 ? T29_PDV_LIMIT : r1000 ? T42_PDV_LIMIT : 0;
    out->pvv_limit_bits = r10 ? T13_PVV_LIMIT : 0;
    snprintf(out->verdict, sizeof out->verdict, "within");
    double worst_model = -1, worst_pdv = -1;
    uint32_t worst_seg[3][2] = {{0}}; /* paths with the most segments, repeaters, coax */
    bool coax_fast = false;
    double worst_pvv = -1;
    uint32_t pvv_ends[2] = {0, 0};
    path_eval pe_store;
    path_eval *pe = &pe_store;
    uint32_t m1_reps = 0, m1_class1 = 0, m1_ends[2] = {0, 0}; /* Table 29-2's worst */
    seg_ends ends[NET_MAX_SEGMENTS];
    bool half = false; /* a segment where MACs may collide */
    for (uint32_t i = 0; i < net->n_segments; i++) {
        segment_ends(net, i, &ends[i]);
        half |= !full_duplex(&net->segments[i]);
    }
    if (net->n_segments > 0 && !half) {
        out->full_duplex = true;
        snprintf(out->verdict, sizeof out->verdict, "%s", NET_BUDGET_FULL_DUPLEX);
        return;
    }
    for (uint32_t a = 0; a < net->n_segments; a++) {
        if (ends[a].n == 0 || full_duplex(&net->segments[a]))
            continue;
        tree t;
        bfs(net, a, &t);
        for (uint32_t b = a; b < net->n_segments; b++) {
            uint32_t nb = ends[b].n;
            if (nb == 0 || (a == b && nb < 2) || full_duplex(&net->segments[b]))
                continue;
            path p;
            if (!path_to(&t, b, &p))
                continue;
            evaluate(net, ends, &p, (double)rate, pe);
            path_std ps;
            standard(pe, rate, &ps);
            coax_fast |= ps.coax_fast;
            double model_bits = 2.0 * pe->one_way_s * (double)rate;
            if (model_bits > worst_model)
                worst_model = model_bits;
            bool worse = ps.pdv_defined ? ps.pdv > worst_pdv
                                        : (!out->pdv_defined && model_bits >= worst_model);
            if (worse) {
                if (ps.pdv_defined) {
                    worst_pdv = ps.pdv;
                    out->pdv_defined = true;
                    out->pdv_bits = ps.pdv;
                }
                out->from_segment = a;
                out->to_segment = b;
                out->from_station = end_station(pe->st_a);
                out->from_bridge = end_bridge(pe->st_a);
                out->to_station = end_station(pe->st_b);
                out->to_bridge = end_bridge(pe->st_b);
            }
            if (ps.pvv_defined && ps.pvv > worst_pvv) {
                worst_pvv = ps.pvv;
                out->pvv_defined = true;
                out->pvv_bits = ps.pvv;
                pvv_ends[0] = a;
                pvv_ends[1] = b;
            }
            uint32_t counts[3] = {ps.segments, ps.repeaters, ps.coax};
            uint32_t *maxes[3] = {&out->max_segments, &out->max_repeaters, &out->max_coax};
            for (int k = 0; k < 3; k++)
                if (counts[k] > *maxes[k]) {
                    *maxes[k] = counts[k];
                    worst_seg[k][0] = a;
                    worst_seg[k][1] = b;
                }
            if (r100 && (ps.repeaters > 2 || (ps.class1 > 0 && ps.repeaters > 1)) &&
                ps.repeaters > m1_reps) {
                m1_reps = ps.repeaters;
                m1_class1 = ps.class1;
                m1_ends[0] = a;
                m1_ends[1] = b;
            }
        }
    }
    out->model_round_trip_bits = worst_model > 0 ? worst_model : 0;
    char name[80], msg[240];
    if (r10) {
        static const char *what[3] = {"segments", "repeaters", "coax segments"};
        static const uint32_t limit[3] = {5, 4, 3};
        uint32_t got[3] = {out->max_segments, out->max_repeaters, out->max_coax};
        for (int k = 0; k < 3; k++)
            if (got[k] > limit[k]) {
                path_name(net, worst_seg[k][0], worst_seg[k][1], name, sizeof name);
                snprintf(msg, sizeof msg, "5-4-3: %u %s on the path %s (at most %u)", got[k],
                         what[k], name, limit[k]);
                add_problem(out, msg);
            }
    }
    if (m1_reps > 0) { /* Table 29-2: one Class I or two Class II repeaters */
        path_name(net, m1_ends[0], m1_ends[1], name, sizeof name);
        snprintf(msg, sizeof msg,
                 "Model 1: %u repeaters (%u of Class I) on the path %s (at most one Class I or "
                 "two Class II, Table 29-2)",
                 m1_reps, m1_class1, name);
        add_problem(out, msg);
    }
    if (r1000) {
        uint32_t reps = 0;
        for (uint32_t i = 0; i < net->n_segments; i++)
            reps += net->segments[i].type == NET_SEG_HUB;
        for (uint32_t r = 0; r < net->n_repeaters; r++)
            reps += !net->repeaters[r].uplink;
        if (reps > 1) {
            snprintf(msg, sizeof msg,
                     "%u repeaters in the collision domain (at most one at 1000 Mb/s, Clause 41)",
                     reps);
            add_problem(out, msg);
        }
    }
    if (out->pdv_defined && out->pdv_bits > out->pdv_limit_bits) {
        path_name(net, out->from_segment, out->to_segment, name, sizeof name);
        snprintf(msg, sizeof msg, "path delay value %.2f > %g bit times (%s)", out->pdv_bits,
                 out->pdv_limit_bits, name);
        add_problem(out, msg);
    }
    if (out->pvv_defined && out->pvv_bits > out->pvv_limit_bits) {
        path_name(net, pvv_ends[0], pvv_ends[1], name, sizeof name);
        snprintf(msg, sizeof msg, "path variability value %.2f > %g bit times (%s)",
                 out->pvv_bits, out->pvv_limit_bits, name);
        add_problem(out, msg);
    }
    if (coax_fast && (r100 || r1000)) {
        snprintf(msg, sizeof msg, "coax at %s Mb/s (its tables have no coax: cable counted at "
                                  "its velocity)",
                 r100 ? "100" : "1000");
        add_problem(out, msg);
    }
    length_rules(net, rate, out);
    if (!r10 && !r100 && !r1000 && out->within) {
        snprintf(out->verdict, sizeof out->verdict,
                 "within (802.3 defines no budget at %.6g Mb/s)", (double)rate / 1e6);
    }
}

bool net_budget_worse(const net_budget *a, const net_budget *b)
{
    if (a->within != b->within)
        return !a->within;
    return a->model_round_trip_bits > b->model_round_trip_bits;
}
