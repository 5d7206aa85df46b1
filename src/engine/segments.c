/* segments.c - the network of segments: built from the scenario, its
 * events dispatched to its rooms, its results added up; see segments.h
 * and stations/MODEL.md, "Networks of segments".
 *
 * The rooms (segnet_int.h): repeater.c (Clause 9 / 27), bridge_port.c
 * (802.1D's ports, store and forward; bridge.c: the filtering database),
 * verdict.c (whether a frame reached its receiver whole), and below them
 * segnet_int.c (the frames' records, the paths) and domain_events.c (a
 * collision domain's collisions). Here: the MACs' hooks, building and
 * tearing down, the queries and the measures.
 */
#include "segments.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_port.h"
#include "repeater.h"
#include "segnet_int.h"
#include "verdict.h"

/* ---- the hooks: what the segments' MACs tell the network ----------------- */

/* A signal begins or ends at tap of g: a station's or a bridge port's
 * (its frame's record made or closed, a whole frame heard by the bridge
 * ports there), or a repeater port's own output (repeater.c); the
 * repeaters' ports on g hear it. */
static void on_signal(void *ctx, uint32_t tap, sim_time now, bool begin, const frame *f,
                      uint32_t attempt, uint64_t backoff_slots, bool whole)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    if (tap >= g->n_st && tap < g->rp_end) {
        rep_port_signal(n, g, tap, begin, now);
        return;
    }
    uint32_t key;
    if (begin) {
        key_release(n, g->tap_key[tap]);
        key = NONE;
        if (f != NULL && (key = key_new(n)) != NONE) {
            carried *c = rec(n, key);
            c->f = *f;
            c->from_port = tap >= g->rp_end;
            c->sender = c->from_port ? (uint32_t)(f->id >> 40) : g->station_id[tap];
            c->attempt = attempt;
            c->backoff_slots = backoff_slots;
            c->seg = g->index;
            c->tap = tap;
            c->start = now;
            if (c->from_port) /* the copy at the head of its queue */
                bport_copy_sent(&n->bp[g->port_of[tap - g->n_st]], c);
        }
        g->tap_key[tap] = key;
    } else {
        key = g->tap_key[tap];
        if (key != NONE) {
            rec(n, key)->end = now;
            rec(n, key)->whole = whole;
            if (whole) {
                g->bits_whole += 8ull * rec(n, key)->f.bytes;
                rec(n, key)->tx_id = mac_tap_tx_id(g->mac, tap);
                if (g->n_taps > g->rp_end)
                    bport_hear(n, g, tap, key, rec(n, key)->tx_id, now);
            }
            if (!whole) { /* no verdict will come: only its signals keep it */
                g->tap_key[tap] = NONE;
                key_release(n, key);
            }
        }
    }
    if (g->rp_end > g->n_st) /* repeaters here */
        rep_hear(n, g, tap, key, begin, whole, now);
}

/* Two components merged on g: their nodes are linked, b's reference
 * released (a stands for both from now on). */
static void on_merged(void *ctx, uint32_t a, uint32_t b)
{
    seg_run *g = ctx;
    domain_events_merge(g->net->dev, a - 1, b - 1);
}

/* A component complete on g: its transmissions count (the relays among
 * them were taken off as they joined: seg_join), its reference released. */
static void on_complete(void *ctx, uint32_t tag, uint64_t size)
{
    seg_run *g = ctx;
    domain_events_close(g->net->dev, tag - 1, size);
}

mac *const *segnet_macs_by_segment(const segnet *n)
{
    return n->macs;
}

void segnet_handle(segnet *n, const sim_event *ev)
{
    switch (ev->type) {
    case EV_IN_START:
        rep_input(n, ev, true);
        break;
    case EV_IN_END:
        rep_input(n, ev, false);
        break;
    case EV_DECIDE:
        rep_decide(n, ev->target, ev->time, ev->arg != 0);
        break;
    case EV_OUT:
        rep_output(n, ev);
        break;
    case EV_VERDICT:
        verdict_judge(n, ev->target, ev->time);
        break;
    case EV_PORT_RX:
        bport_rx(n, ev->target, (uint32_t)(ev->arg >> 32), ev->arg & 1, ev->time);
        break;
    case EV_FORWARD:
        bport_forward(n, ev->target, (uint32_t)(ev->arg >> 32), (uint32_t)ev->arg, ev->time);
        break;
    default:
        assert(!"not a network event");
    }
}

/* ---- building ------------------------------------------------------------ */

/* Segment s's PHY: its own, as scenario_finish resolved it (a network
 * filled by hand, unresolved, runs at the scenario's). */
static const phy_params *seg_phy(const scenario *sc, uint32_t s)
{
    const phy_params *p = &sc->net.segments[s].phy;
    return p->rate_bps ? p : &sc->phy;
}

int segnet_create(const scenario *sc, segnet **out)
{
    const network *net = &sc->net;
    segnet *n = calloc(1, sizeof *n);
    if (!n)
        return -1;
    *out = n;
    n->no_memory = &n->own_oom;
    n->sc = sc;
    n->marked = sc->warmup <= 0; /* no warm-up: the window opens at 0 (the marks are 0) */
    n->n_seg = net->n_segments;
    n->n_rep = net->n_repeaters;
    n->n_all = sc->n_stations;
    n->c_free = NONE;
    for (uint32_t r = 0; r < n->n_rep; r++)
        n->n_ports += net->repeaters[r].n_ports;
    n->seg = calloc(n->n_seg, sizeof *n->seg);
    n->rep = calloc(n->n_rep ? n->n_rep : 1, sizeof *n->rep);
    n->port = calloc(n->n_ports ? n->n_ports : 1, sizeof *n->port);
    n->seg_of_station = malloc((n->n_all ? n->n_all : 1) * sizeof *n->seg_of_station);
    n->seg_res = calloc(n->n_seg, sizeof *n->seg_res);
    n->rep_res = calloc(n->n_rep ? n->n_rep : 1, sizeof *n->rep_res);
    n->rep_mark = calloc(5 * (size_t)(n->n_rep ? n->n_rep : 1), sizeof *n->rep_mark);
    if (!n->seg || !n->rep || !n->port || !n->seg_of_station || !n->seg_res || !n->rep_res ||
        !n->rep_mark)
        return -1;
    /* Stations on each segment in the order of their numbers, then the
     * ports of the repeaters in the order of the repeaters. */
    for (uint32_t i = 0; i < n->n_all; i++) {
        uint32_t s = scenario_station_segment(sc, i);
        n->seg_of_station[i] = s;
        n->seg[s].n_st++;
    }
    for (uint32_t s = 0; s < n->n_seg; s++) {
        n->seg[s].n_taps = n->seg[s].n_st;
        n->seg[s].domain = net->segments[s].domain;
        n->seg[s].fd = net->segments[s].full_duplex;
        n->seg[s].phy = seg_phy(sc, s);
        n->fd_any |= n->seg[s].fd;
    }
    uint32_t pi = 0;
    for (uint32_t r = 0; r < n->n_rep; r++) {
        const net_repeater *nr = &net->repeaters[r];
        /* its bit time: its segments' (one rate, network.c) */
        sim_time bit_ps = phy_bit_ps(seg_phy(sc, nr->ports[0].segment));
        n->rep[r] = (rep_run){.first_port = pi, .n_ports = nr->n_ports,
                              .delay_ps = (sim_time)nr->delay_bits * bit_ps,
                              .min_out_ps = MIN_OUTPUT_BITS * bit_ps, .src = NONE,
                              .decide_at = {-1, -1}, .ep_open = NONE};
        for (uint32_t k = 0; k < REP_EPISODES; k++)
            n->rep[r].ep[k].node = NONE;
        for (uint32_t k = 0; k < nr->n_ports; k++, pi++) {
            uint32_t s = nr->ports[k].segment;
            n->port[pi] = (port_run){.rep = r, .seg = s, .tap = n->seg[s].n_taps++,
                                     .key = NONE, .last_key = NONE, .end_key = NONE,
                                     .left_at = -1};
        }
    }
    for (uint32_t s = 0; s < n->n_seg; s++)
        n->seg[s].rp_end = n->seg[s].n_taps;
    if (bport_create(n, sc) != 0)
        return -1;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        const net_segment *ns = &net->segments[s];
        g->net = n;
        g->index = s;
        uint32_t nt = g->n_taps ? g->n_taps : 1;
        g->station_id = malloc(nt * sizeof *g->station_id);
        g->tap_of = malloc((n->n_all ? n->n_all : 1) * sizeof *g->tap_of);
        g->port_of = malloc(nt * sizeof *g->port_of);
        g->tap_key = malloc(nt * sizeof *g->tap_key);
        sim_time *pos = malloc(nt * sizeof *pos);
        if (!g->station_id || !g->tap_of || !g->port_of || !g->tap_key || !pos) {
            free(pos);
            return -1;
        }
        const phy_timing t = phy_timing_of(g->phy); /* the segment's own */
        phy_params cable = *g->phy; /* the segment's own cable */
        cable.velocity_c = ns->velocity_c;
        uint32_t tap = 0;
        for (uint32_t i = 0; i < n->n_all; i++) {
            g->tap_of[i] = NONE;
            if (n->seg_of_station[i] == s) {
                g->tap_of[i] = tap;
                g->station_id[tap] = i;
                g->tap_key[tap] = NONE;
                pos[tap++] = phy_cable_ps(&cable, scenario_station_metres(sc, i));
            }
        }
        for (uint32_t p = 0; p < n->n_ports; p++) {
            if (n->port[p].seg != s)
                continue;
            const net_repeater *nr = &net->repeaters[n->port[p].rep];
            const net_port *np = &nr->ports[p - n->rep[n->port[p].rep].first_port];
            g->station_id[n->port[p].tap] = MAC_NO_STATION;
            g->port_of[n->port[p].tap - g->n_st] = p;
            pos[n->port[p].tap] = phy_cable_ps(&cable, np->metres);
        }
        for (uint32_t p = 0; p < n->n_bp; p++) {
            const bport_run *b = &n->bp[p];
            if (b->seg != s)
                continue;
            g->station_id[b->tap] = n->n_all + MAC_BRIDGE_PORT(b->bridge, b->port);
            g->port_of[b->tap - g->n_st] = p;
            g->tap_key[b->tap] = NONE;
            pos[b->tap] = phy_cable_ps(&cable, net->bridges[b->bridge].ports[b->port].metres);
        }
        if (g->fd) {
            g->none_of = malloc((n->n_all ? n->n_all : 1) * sizeof *g->none_of);
            if (!g->none_of) {
                free(pos);
                return -1;
            }
            for (uint32_t i = 0; i < n->n_all; i++)
                g->none_of[i] = NONE;
        }
        medium_config mc = {
            .n_stations = g->n_taps,
            .topology = ns->type == NET_SEG_HUB ? TOPOLOGY_STAR : TOPOLOGY_BUS, /* a link: a bus */
            .pos_ps = pos,
            .hub_ps = ns->type == NET_SEG_HUB ? (sim_time)ns->hub_bits * t.bit_ps : 0,
            .probe_pos_ps = phy_cable_ps(&cable, ns->probe_m),
            /* (full duplex: nothing defers, so a signal matters only
             * while it is on the wire) */
            .retain_ps = g->fd ? 0 : t.ifg_ps,
            .chain_ps = g->fd ? 0 : t.ifg_part1_ps,
            .chain_cap_ps = g->fd ? 0 : 8 * t.slot_ps,
            .fault_start_ps = sc->outage_start,
            .fault_end_ps = sc->outage_start + sc->outage_duration,
        };
        int rc = medium_create(&mc, &g->med);
        free(pos);
        if (rc != 0)
            return -1;
        n->seg_res[s].name = ns->name;
        n->seg_res[s].stations = g->n_st;
    }
    for (uint32_t r = 0; r < n->n_rep; r++) {
        n->rep_res[r].name = net->repeaters[r].name;
        n->rep_res[r].ports = net->repeaters[r].n_ports;
    }
    n->dom_now = calloc(n->n_dom, sizeof *n->dom_now);
    if (!n->dom_now)
        return -1;
    /* domains of several segments count their own collisions */
    if (n->n_rep > 0 && domain_events_create(n->n_dom, &n->dev) != 0)
        return -1;
    /* An upper bound of the longest path: every segment crossed end to
     * end, and every repeater (a bound is all engine_judge_ps needs). */
    for (uint32_t s = 0; s < n->n_seg; s++)
        n->diameter += medium_max_delay(n->seg[s].med);
    for (uint32_t r = 0; r < n->n_rep; r++)
        n->diameter += n->rep[r].delay_ps;
    return 0;
}

/* A segment whose PHY's slotTime or limits differ from the scenario's
 * (a segment's own `phy`) gets policies of its own, built from each
 * group's spec (class k is group k's, engine.c) and the ports' BEB with
 * its PHY: a station backs off in its own segment's slots. *own: the
 * classes with them (to free), or NULL when the run's serve. */
static int own_policies(segnet *n, seg_run *g, const mac_class *classes, uint32_t n_cls,
                        uint32_t nc, mac_class **own)
{
    const phy_params *run = &n->sc->phy, *phy = g->phy;
    backoff_env env = {.slot_ps = phy_timing_of(phy).slot_ps,
                       .attempt_limit = phy->attempt_limit,
                       .backoff_limit = phy->backoff_limit,
                       .n_stations = n->n_all};
    *own = NULL;
    if (env.slot_ps == phy_timing_of(run).slot_ps && phy->attempt_limit == run->attempt_limit &&
        phy->backoff_limit == run->backoff_limit)
        return 0;
    mac_class *c = malloc(n_cls * sizeof *c);
    g->policies = calloc(nc + 1, sizeof *g->policies);
    if (!c || !g->policies) {
        free(c);
        return -1;
    }
    g->n_policies = nc + 1;
    memcpy(c, classes, n_cls * sizeof *c);
    char e[200];
    for (uint32_t k = 0; k < nc; k++) {
        if (backoff_policy_build(&scenario_group_at(n->sc, k)->policy_spec, &env,
                                 &g->policies[k], e, sizeof e) != 0) {
            free(c);
            return -1;
        }
        c[k].policy = c[nc + k].policy = g->policies[k];
    }
    if (n->n_br > 0) {
        if (backoff_policy_create("beb", &env, &g->policies[nc], e, sizeof e) != 0) {
            free(c);
            return -1;
        }
        for (uint32_t b = 0; b < n->n_br; b++)
            c[2 * nc + 2 * b].policy = c[2 * nc + 2 * b + 1].policy = g->policies[nc];
    }
    *own = c;
    return 0;
}

int segnet_start(segnet *n, const segnet_macs *cfg)
{
    if (cfg->no_memory) {
        *cfg->no_memory |= *n->no_memory;
        n->no_memory = cfg->no_memory;
    }
    n->q = cfg->queue;
    n->hooks = (mac_net_hooks){.on_signal = on_signal, .on_remote = verdict_on_remote,
                               .on_port_event = n->n_br ? bport_event : NULL};
    n->sinks = cfg->sinks;
    n->sink_kinds = cfg->sink_kinds;
    n->n_sinks = cfg->n_sinks;
    /* The filter below takes tallies where every run's sink that reads
     * their kinds does. */
    n->sinks_tally = true;
    for (size_t i = 0; i < n->n_sinks; i++)
        if (!n->sinks[i].on_tally && (run_sink_kinds(n, i) & TRACE_TALLY_KINDS))
            n->sinks_tally = false;
    n->port_kinds = TRACE_BIT(TRACE_ARRIVAL) | TRACE_BIT(TRACE_DROP) | TRACE_BIT(TRACE_TX_OK) |
                    TRACE_BIT(TRACE_ABORT);
    for (size_t i = 0; i < n->n_sinks; i++)
        n->port_kinds |= run_sink_kinds(n, i);
    /* A bridge's events are told only on a network with bridges, to the
     * sinks that want them; the ports' transmissions are read from their
     * MACs' own events. */
    uint32_t br_all = 0;
    for (int k = TRACE_BRIDGE_LEARN; k <= TRACE_BRIDGE_ABORT; k++)
        br_all |= TRACE_BIT(k);
    n->br_kinds = n->n_br ? n->port_kinds & br_all : 0;
    if (n->br_kinds & (TRACE_BIT(TRACE_BRIDGE_TX_START) | TRACE_BIT(TRACE_BRIDGE_TX_END)))
        n->port_kinds |= TRACE_BIT(TRACE_TX_START) | TRACE_BIT(TRACE_TX_END) |
                         TRACE_BIT(TRACE_COLLISION);
    /* The classes: the stations', the same in full duplex, then per bridge
     * its ports' (BEB, the bridge's queue), half and full duplex. */
    uint32_t nc = cfg->n_classes, n_cls = 2 * nc + 2 * n->n_br;
    mac_class *classes = calloc(n_cls, sizeof *classes);
    if (!classes)
        return -1;
    for (uint32_t k = 0; k < nc; k++) {
        classes[k] = cfg->classes[k];
        classes[nc + k] = cfg->classes[k];
        classes[nc + k].full_duplex = true;
    }
    if (n->n_br > 0) {
        const phy_params *phy = &n->sc->phy;
        backoff_env env = {.slot_ps = phy_timing_of(phy).slot_ps,
                           .attempt_limit = phy->attempt_limit,
                           .backoff_limit = phy->backoff_limit,
                           .n_stations = n->n_all};
        char e[200];
        if (backoff_policy_create("beb", &env, &n->port_policy, e, sizeof e) != 0) {
            free(classes);
            return -1;
        }
    }
    for (uint32_t b = 0; b < n->n_br; b++) {
        const net_bridge *nb = &n->sc->net.bridges[b];
        mac_class c = {.policy = n->port_policy, .queue_capacity = nb->queue};
        classes[2 * nc + 2 * b] = c;
        c.full_duplex = true;
        classes[2 * nc + 2 * b + 1] = c;
    }
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        mac_class *own = NULL; /* its classes, with its own PHY's policies */
        if (own_policies(n, g, classes, n_cls, nc, &own) != 0) {
            free(classes);
            return -1;
        }
        uint32_t *class_of = calloc(g->n_taps ? g->n_taps : 1, sizeof *class_of);
        if (!class_of) {
            free(own);
            free(classes);
            return -1;
        }
        for (uint32_t k = 0; k < g->n_st; k++)
            class_of[k] = (cfg->class_of ? cfg->class_of[g->station_id[k]] : 0) + (g->fd ? nc : 0);
        for (uint32_t k = g->rp_end; k < g->n_taps; k++)
            class_of[k] = 2 * nc + 2 * n->bp[g->port_of[k - g->n_st]].bridge + g->fd;
        mac_net_hooks hooks = n->hooks;
        hooks.ctx = g;
        trace_sink filter = {.on_event = bport_filter_event, .ctx = g,
                             .on_tally = n->sinks_tally ? bport_filter_tally : NULL};
        mac_config mc = {
            .phy = g->phy, /* its segment's: its timing, fixed at creation */
            .n_stations = g->n_taps,
            .medium = g->med,
            .queue = cfg->queue,
            .seed = cfg->seed,
            .refill = cfg->refill,
            .refill_ctx = cfg->refill_ctx,
            .classes = own ? own : classes,
            .n_classes = n_cls,
            .class_of = class_of,
            .on_rx = cfg->on_rx,
            .rx_ctx = cfg->rx_ctx,
            .sinks = cfg->sinks,
            .sink_kinds = cfg->sink_kinds,
            .n_sinks = cfg->n_sinks,
            .station_id = g->station_id,
            /* full duplex: every frame judged by the network */
            .tap_of = g->fd ? g->none_of : g->tap_of,
            .n_all_stations = n->n_all,
            .no_memory = n->no_memory,
            .trace_ids = &n->trace_ids,
            .segment = s,
            /* A lone segment needs no network: its broadcasts are judged
             * as on one bus or star. */
            .net = n->n_seg > 1 || n->fd_any ? &hooks : NULL,
        };
        if (g->n_taps > g->rp_end) { /* bridge ports here */
            mc.sinks = &filter;
            mc.sink_kinds = &n->port_kinds;
            mc.n_sinks = 1;
        }
        int rc = mac_create(&mc, &g->mac);
        n->macs[s] = g->mac;
        if (rc == 0 && n->dev && !g->fd && n->dom_res[g->domain].segments > 1) {
            collision_listener l = {.merged = on_merged, .complete = on_complete, .ctx = g};
            mac_collision_listen(g->mac, &l);
        }
        free(class_of);
        free(own);
        if (rc != 0) {
            free(classes);
            return -1;
        }
    }
    free(classes);
    return 0;
}

void segnet_mac_start(segnet *n, sim_time t)
{
    for (uint32_t s = 0; s < n->n_seg; s++)
        mac_start(n->seg[s].mac, t);
}

void segnet_destroy(segnet *n)
{
    if (!n)
        return;
    for (uint32_t s = 0; n->seg && s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        mac_destroy(g->mac);
        medium_destroy(g->med);
        free(g->station_id);
        free(g->tap_of);
        free(g->port_of);
        free(g->tap_key);
        free(g->none_of);
        for (uint32_t k = 0; g->policies && k < g->n_policies; k++)
            backoff_policy_destroy(g->policies[k]);
        free(g->policies);
    }
    for (uint32_t b = 0; n->br && b < n->n_br; b++) {
        bridge_destroy(n->br[b].b);
        free(n->br[b].mark);
    }
    for (uint32_t p = 0; n->bp && p < n->n_bp; p++)
        free(n->bp[p].q);
    free(n->br);
    free(n->bp);
    free(n->dist);
    free(n->dom_res);
    free(n->dom_col_at);
    free(n->dom_now);
    domain_events_destroy(n->dev);
    free(n->br_res);
    free(n->bp_res);
    backoff_policy_destroy(n->port_policy);
    for (uint32_t p = 0; n->port && p < n->n_ports; p++)
        free(n->port[p].in);
    free(n->seg);
    free(n->rep);
    free(n->port);
    free(n->seg_of_station);
    free(n->c);
    free(n->relay_tx);
    free(n->relay_st);
    free(n->seg_res);
    free(n->rep_res);
    free(n->rep_mark);
    free(n);
}

/* ---- queries ------------------------------------------------------------ */

mac *segnet_mac_of(segnet *n, uint32_t s, uint32_t *tap)
{
    return station_mac(n, s, tap);
}

sim_time segnet_station_delay(const segnet *n, uint32_t a, uint32_t b)
{
    uint32_t sa = n->seg_of_station[a], sb = n->seg_of_station[b];
    sim_time d = 0;
    bool found = segnet_path_delay(n, sa, n->seg[sa].tap_of[a], sb, n->seg[sb].tap_of[b], &d);
    assert(found); /* the network is connected (network.c refuses it else) */
    (void)found;
    return d;
}

uint32_t segnet_segment_count(const segnet *n) { return n->n_seg; }
const medium *segnet_medium(const segnet *n, uint32_t s) { return n->seg[s].med; }
sim_time segnet_max_delay(const segnet *n) { return n->diameter; }

uint32_t segnet_bridge_count(const segnet *n) { return n->n_br; }

uint32_t segnet_bridge_port_count(const segnet *n, uint32_t b)
{
    return b < n->n_br ? n->br[b].n : 0;
}

int segnet_bridge_port_now(const segnet *n, uint32_t b, uint32_t p, segnet_port_now *out)
{
    if (b >= n->n_br || p >= n->br[b].n || !n->seg[n->bp[n->br[b].first + p].seg].mac)
        return -1;
    const bport_run *q = &n->bp[n->br[b].first + p];
    const mac *m = n->seg[q->seg].mac;
    mac_station_view v;
    mac_view(m, q->tap, &v);
    *out = (segnet_port_now){.segment = q->seg,
                             .tap = q->tap,
                             .state = v.state,
                             .queue_len = mac_queue_len(m, q->tap),
                             .queue_cap = n->sc->net.bridges[b].queue};
    return 0;
}

sim_time segnet_longest_attempt_ps(const segnet *n)
{
    sim_time most = 0;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        const phy_params *phy = n->seg[s].phy;
        const phy_timing t = phy_timing_of(phy);
        uint64_t wire = phy_wire_bits(phy, 8ull * phy->max_frame_bytes, false);
        sim_time a = t.preamble_ps + (sim_time)wire * t.bit_ps + t.jam_ps;
        if (a > most)
            most = a;
    }
    return most;
}

/* The oldest transmission of a station on segment g still to be judged
 * (under way, or held for its verdict). Relays are left out: one held
 * for a verdict carries a frame whose sender's transmission is held
 * too, and a repeater cuts a relay to jam and jams as long as a port
 * stays active, which on an overloaded network can be longer than any
 * frame: the statistics must not wait for that (stats.h: E is at most
 * judge_ps behind). A bridge port's transmission counts like a
 * station's: the frame it forwards is judged where it arrives. */
static sim_time seg_unjudged_from(const seg_run *g)
{
    const medium *m = g->med;
    size_t n = medium_live_count(m);
    for (size_t k = 0; k < n; k++) {
        const medium_tx *t = medium_live_at(m, k);
        bool relay = t->station >= g->n_st && t->station < g->rp_end;
        if (!relay && (t->holds || t->end == SIM_TIME_NEVER))
            return t->start; /* records are in order of start */
    }
    return SIM_TIME_NEVER;
}

sim_time segnet_unjudged_from(const segnet *n)
{
    sim_time t = SIM_TIME_NEVER;
    for (uint32_t s = 0; s < n->n_seg; s++) {
        sim_time u = seg_unjudged_from(&n->seg[s]);
        if (u < t)
            t = u;
    }
    return t;
}

size_t segnet_signal_count(const segnet *n)
{
    size_t c = 0;
    for (uint32_t s = 0; s < n->n_seg; s++)
        c += medium_signal_count(n->seg[s].med);
    return c;
}

/* Each domain's collision events complete before now, into n->dom_now: a
 * domain of several segments counts its own, one collision once however
 * many segments it reached (domain_events.h); a domain of one segment is
 * its segment's; full duplex, none. */
static void domain_collisions(segnet *n, sim_time now)
{
    memset(n->dom_now, 0, n->n_dom * sizeof *n->dom_now);
    for (uint32_t s = 0; s < n->n_seg; s++) /* (every segment's drops first) */
        if (!n->seg[s].fd) /* full duplex: two directions overlap, never collide */
            n->dom_now[n->seg[s].domain] += mac_collision_events(n->seg[s].mac, now);
    for (uint32_t d = 0; n->dev && d < n->n_dom; d++)
        if (n->dom_res[d].segments > 1)
            n->dom_now[d] = domain_events_count(n->dev, d);
}

uint64_t segnet_collision_events(segnet *n, sim_time now)
{
    domain_collisions(n, now);
    uint64_t c = 0;
    for (uint32_t d = 0; d < n->n_dom; d++)
        c += n->dom_now[d];
    return c;
}

/* The domains over the window [mark, now). */
static void domain_results(segnet *n, sim_time now)
{
    double window = (double)(now - n->sc->warmup) / 1e12;
    domain_collisions(n, now);
    for (uint32_t d = 0; d < n->n_dom; d++) {
        domain_result *x = &n->dom_res[d];
        x->frames_sent = 0;
        x->collisions = n->marked ? n->dom_now[d] - n->dom_col_at[d] : 0;
        uint64_t bits = 0, rate = 0;
        for (uint32_t s = 0; s < n->n_seg; s++) {
            if (n->seg[s].domain != d)
                continue;
            rate = n->seg[s].phy->rate_bps; /* the domain's own (one rate, network.c) */
            x->frames_sent += n->seg_res[s].frames_sent;
            bits += n->seg[s].bits_whole - n->seg[s].bits_whole_at;
        }
        double cap = (double)rate * window * (x->full_duplex ? 2 : 1);
        x->throughput = cap > 0 ? (double)bits / cap : NAN;
    }
}

void segnet_mark(segnet *n, sim_time now)
{
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        g->relayed_at = g->relayed;
        g->corrupted_at = g->corrupted;
        g->collisions_at = g->fd ? 0 : mac_collision_events(g->mac, now);
        g->bits_whole_at = g->bits_whole;
    }
    domain_collisions(n, now);
    memcpy(n->dom_col_at, n->dom_now, n->n_dom * sizeof *n->dom_col_at);
    bport_mark(n);
    for (uint32_t r = 0; r < n->n_rep; r++)
        rep_counts(n, r, &n->rep_mark[5 * (size_t)r]);
    n->marked = true;
}

void segnet_results(segnet *n, sim_time now, const station_result *stations, results *r)
{
    for (uint32_t s = 0; s < n->n_seg; s++) {
        seg_run *g = &n->seg[s];
        segment_result *x = &n->seg_res[s];
        x->frames_sent = x->late_collisions = 0;
        for (uint32_t k = 0; k < g->n_st; k++) {
            const mac_counters *c = &stations[g->station_id[k]].c;
            x->frames_sent += c->frames_transmitted_ok;
            x->late_collisions += c->late_collisions;
        }
        /* Before the warm-up's end the window is empty (results.h), as
         * the stations' counters are. */
        x->frames_relayed = n->marked ? g->relayed - g->relayed_at : 0;
        x->frames_corrupted = n->marked ? g->corrupted - g->corrupted_at : 0;
        x->collisions = n->marked && !g->fd ? mac_collision_events(g->mac, now) - g->collisions_at
                                            : 0;
    }
    if (n->n_br > 0) {
        domain_results(n, now);
        bport_results(n);
        r->n_domains = n->n_dom;
        r->n_bridges = n->n_br;
        r->domains = n->dom_res;
        r->bridges = n->br_res;
    }
    for (uint32_t i = 0; i < n->n_rep; i++) {
        uint64_t c[5];
        rep_counts(n, i, c);
        const uint64_t *m = n->marked ? &n->rep_mark[5 * (size_t)i] : c;
        repeater_result *x = &n->rep_res[i];
        x->transmit_collisions = c[0] - m[0];
        x->jams_sent = c[1] - m[1];
        x->fragments_extended = c[2] - m[2];
        x->readable_frames = c[3] - m[3];
        x->port_collisions = c[4] - m[4];
    }
    r->n_segments = n->n_seg;
    r->n_repeaters = n->n_rep;
    r->segments = n->seg_res;
    r->repeaters = n->rep_res;
}

size_t segnet_bytes(const segnet *n)
{
    size_t b = sizeof *n + n->n_seg * sizeof *n->seg + n->n_rep * sizeof *n->rep +
               n->n_ports * sizeof *n->port + n->c_cap * (sizeof *n->c + n->n_seg * 9) +
               n->n_all * sizeof(uint32_t);
    for (uint32_t s = 0; s < n->n_seg; s++) {
        const seg_run *g = &n->seg[s];
        b += medium_bytes(g->med) + (g->mac ? mac_bytes(g->mac) : 0) +
             g->n_taps * 3 * sizeof(uint32_t) + n->n_all * sizeof(uint32_t);
    }
    if (n->dev)
        b += domain_events_bytes(n->dev);
    return b;
}
