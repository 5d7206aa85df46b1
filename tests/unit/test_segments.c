/* test_segments.c - networks of segments (src/engine/segments.c): signals
 * across repeaters and uplinks at the instants hand-computed geometry
 * gives, collisions between segments, jam on every port, fragment
 * extension, verdicts across the network, and one segment that runs
 * exactly as today's bus or star. Scenarios are built field by field, as
 * in the other model tests (no parser). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_util.h"
#include "output.h"
#include "scenario_text.h"

#define BIT_10 100000 /* ps per bit at 10 Mb/s */

/* A coax segment (10base5's cable unless `velocity` says otherwise). */
static void add_coax(scenario *sc, const char *name, double length_m)
{
    assert_int_equal(network_reserve(&sc->net), 0);
    net_segment *g = &sc->net.segments[sc->net.n_segments++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->type = NET_SEG_COAX;
    g->length_m = length_m;
    g->velocity_c = 0.77;
}

static void add_hub(scenario *sc, const char *name, double drop_m, uint32_t hub_bits)
{
    assert_int_equal(network_reserve(&sc->net), 0);
    net_segment *g = &sc->net.segments[sc->net.n_segments++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->type = NET_SEG_HUB;
    g->length_m = drop_m;
    g->velocity_c = 0.585;
    g->hub_bits = hub_bits;
}

/* A repeater of n ports: segment index and metres, alternately. */
static void add_repeater(scenario *sc, const char *name, uint32_t delay_bits, uint32_t n, ...)
{
    assert_int_equal(network_reserve(&sc->net), 0);
    net_repeater *r = &sc->net.repeaters[sc->net.n_repeaters++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->delay_bits = delay_bits;
    r->n_ports = n;
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; i++) {
        r->ports[i].segment = va_arg(ap, uint32_t);
        r->ports[i].metres = va_arg(ap, double);
    }
    va_end(ap);
}

/* A named group of stations on a segment, at the given metres, with the
 * scenario's own traffic unless `kind` differs. */
static void add_group(scenario *sc, const char *name, uint32_t segment, traffic_kind kind,
                      uint32_t count, const double *metres)
{
    station_group *gs = realloc(sc->groups, (sc->n_named + 1) * sizeof *gs);
    assert_non_null(gs);
    sc->groups = gs;
    station_group *g = &gs[sc->n_named];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->count = count;
    g->first = sc->n_named ? gs[sc->n_named - 1].first + gs[sc->n_named - 1].count : 0;
    g->traffic = sc->traffic;
    g->traffic.kind = kind;
    g->policy_spec = sc->policy_spec;
    g->queue_capacity = sc->queue_capacity;
    g->segment = segment;
    g->positions_m = malloc(count * sizeof *g->positions_m);
    assert_non_null(g->positions_m);
    memcpy(g->positions_m, metres, count * sizeof *metres);
    sc->n_named++;
    sc->n_stations = g->first + count;
}

static void net_scenario(scenario *sc, traffic_kind kind, uint32_t bytes)
{
    mu_scenario(sc, "10base5", 0, NULL, kind, bytes, 20 * 1000000000LL, 1);
    mu_set_policy(sc, "beb");
    sc->traffic.batch_frames = 1;
}

static void free_scenario(scenario *sc)
{
    for (uint32_t g = 0; g < sc->n_named; g++)
        free(sc->groups[g].positions_m);
    free(sc->groups);
    sc->groups = NULL;
    sc->n_named = 0;
    mu_scenario_free(sc);
}

/* Coax segments a and b (0 and 1), joined by repeater r1 of 8 bit times
 * at a's far end and b's start. */
static void two_coax(scenario *sc, double a_m, double b_m)
{
    add_coax(sc, "a", a_m);
    add_coax(sc, "b", b_m);
    add_repeater(sc, "r1", 8, 2, 0u, a_m, 1u, 0.0);
}

/* The pair and the far station of the repeater's tests: coax a (100 m)
 * and b (b_m) joined by r1, two stations on a at p0 and p1 m that send a
 * frame each at 0, one on b at far_m that sends one too or nothing (far:
 * TRAFFIC_BATCH or TRAFFIC_NONE); *run is sc run for `duration`. */
static void pair_and_far(scenario *sc, double b_m, double p0, double p1, traffic_kind far,
                         double far_m, sim_time duration, mu_run *run)
{
    two_coax(sc, 100, b_m);
    add_group(sc, "pair", 0, TRAFFIC_BATCH, 2, (double[]){p0, p1});
    add_group(sc, "far", 1, far, 1, (double[]){far_m});
    sc->duration = duration;
    mu_run_scenario(sc, run);
}

/* The first event of `kind` on segment `segment`, or NULL. */
static const trace_event *first_on(const mu_trace *tr, trace_kind kind, uint32_t segment)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->ev[i].kind == kind && tr->ev[i].segment == segment)
            return &tr->ev[i];
    return NULL;
}

static sim_time coax(double metres)
{
    return mu_cable_ps(0.77, metres);
}

/* One frame from a station on segment A to one on segment B, through a
 * repeater: the relay begins on B, and the frame's last bit reaches its
 * receiver, exactly when the path's delays say. */
static void test_arrival_across_repeater(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 512);
    two_coax(&sc, 500, 500);
    add_group(&sc, "left", 0, TRAFFIC_BATCH, 1, (double[]){0});
    add_group(&sc, "right", 1, TRAFFIC_NONE, 1, (double[]){200});
    mu_run run;
    mu_run_scenario(&sc, &run);
    assert_int_equal(run.status, ENGINE_DONE);
    const sim_time wire = (64 + 512 * 8) * (sim_time)BIT_10;
    const sim_time path = coax(500) + 8 * BIT_10 + coax(200);
    const trace_event *relay = mu_find(&run.tr, TRACE_RELAY_START, UINT32_MAX, 0);
    assert_non_null(relay);
    assert_int_equal(relay->segment, 1);
    assert_int_equal(relay->time, coax(500) + 8 * BIT_10);
    const trace_event *end = mu_find(&run.tr, TRACE_RELAY_END, UINT32_MAX, 0);
    assert_non_null(end);
    assert_int_equal(end->time, wire + coax(500) + 8 * BIT_10);
    const trace_event *d = mu_find(&run.tr, TRACE_DELIVER, 0, 0);
    assert_non_null(d);
    assert_true(d->ok);
    assert_int_equal(d->dest, 1);
    assert_int_equal(d->time, wire + path);
    assert_int_equal(d->tx_start, path);
    assert_int_equal(run.st[0].c.frames_delivered, 1);
    assert_int_equal(run.r.frames_delivered, 1);
    assert_int_equal(run.r.n_segments, 2);
    assert_int_equal(run.r.segments[1].frames_relayed, 1);
    assert_int_equal(run.r.segments[0].frames_sent, 1);
    assert_int_equal(run.r.repeaters[0].readable_frames, 1);
    assert_int_equal(run.r.repeaters[0].transmit_collisions, 0);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Through a hub's uplink (a repeater without delay of its own) into a
 * second hub: drop, hub, uplink cable, hub, drop. */
static void test_arrival_across_uplink(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 64);
    add_hub(&sc, "floor1", 100, 8);
    add_hub(&sc, "floor2", 100, 8);
    /* floor1's port on a 30 m cable to floor2, whose port has no drop */
    add_repeater(&sc, "floor1-uplink", 0, 2, 0u, 30.0, 1u, 0.0);
    add_group(&sc, "a", 0, TRAFFIC_BATCH, 1, (double[]){100});
    add_group(&sc, "b", 1, TRAFFIC_NONE, 1, (double[]){50});
    mu_run run;
    mu_run_scenario(&sc, &run);
    const sim_time utp100 = mu_cable_ps(0.585, 100), utp30 = mu_cable_ps(0.585, 30),
                   utp50 = mu_cable_ps(0.585, 50);
    const sim_time path = utp100 + 8 * BIT_10 + utp30 + 0 + 8 * BIT_10 + utp50;
    const sim_time wire = (64 + 64 * 8) * (sim_time)BIT_10;
    const trace_event *d = mu_find(&run.tr, TRACE_DELIVER, 0, 0);
    assert_non_null(d);
    assert_true(d->ok);
    assert_int_equal(d->time, wire + path);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Two stations on either side of a repeater start at once: each detects
 * the collision when the other's signal (repeated, then the repeater's
 * jam) reaches it along the path, at the same instant by symmetry of the
 * path. */
static void test_collision_between_segments(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 512);
    two_coax(&sc, 500, 500);
    add_group(&sc, "left", 0, TRAFFIC_BATCH, 1, (double[]){0});
    add_group(&sc, "right", 1, TRAFFIC_BATCH, 1, (double[]){100});
    mu_run run;
    mu_run_scenario(&sc, &run);
    const trace_event *first = mu_find(&run.tr, TRACE_TX_END, 0, 0);
    const sim_time path = coax(500) + 8 * BIT_10 + coax(100);
    const trace_event *c0 = mu_find(&run.tr, TRACE_COLLISION, 0, 0);
    const trace_event *c1 = mu_find(&run.tr, TRACE_COLLISION, 1, 0);
    assert_non_null(c0);
    assert_non_null(c1);
    assert_int_equal(c0->time, path);
    assert_int_equal(c1->time, path);
    assert_int_equal(c0->segment, 0);
    assert_int_equal(c1->segment, 1);
    assert_true(run.r.repeaters[0].transmit_collisions >= 1);
    /* detected within the preamble, which each finishes before its 32-bit
     * jam: their first transmissions end at 64 + 32 bits */
    assert_true(path < 64 * BIT_10);
    assert_int_equal(first->time, 96 * BIT_10);
    /* the frames get through in the end, each to the other side */
    assert_int_equal(run.r.frames_delivered, 2);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* One collision is one collision: the two stations of
 * test_collision_between_segments, one on each side of the repeater,
 * collide once (each sees it at the path's delay; their retries come
 * after the run's 18 us, the first at 9.6 + 9.6 us). Each segment saw it
 * (its station and the repeater's relay, then jam), so each counts one;
 * the run, which counts the collision domain's events, counts one, not
 * the segments' sum. */
static void test_one_collision_across_a_repeater(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 512);
    two_coax(&sc, 500, 500);
    add_group(&sc, "left", 0, TRAFFIC_BATCH, 1, (double[]){0});
    add_group(&sc, "right", 1, TRAFFIC_BATCH, 1, (double[]){100});
    sc.duration = 18 * 1000000LL;
    mu_run run;
    mu_run_scenario(&sc, &run);
    assert_int_equal(mu_count(&run.tr, TRACE_COLLISION, 0), 1);
    assert_int_equal(mu_count(&run.tr, TRACE_COLLISION, 1), 1);
    assert_int_equal(run.r.segments[0].collisions, 1);
    assert_int_equal(run.r.segments[1].collisions, 1);
    assert_int_equal(run.r.collisions, 1);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* A collision between two segments of a three-port repeater: the third
 * segment, where nobody sent, gets the repeated frame, then jam. */
static void test_jam_on_every_port(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 512);
    add_coax(&sc, "a", 100);
    add_coax(&sc, "b", 100);
    add_coax(&sc, "c", 100);
    add_repeater(&sc, "r1", 8, 3, 0u, 100.0, 1u, 0.0, 2u, 0.0);
    add_group(&sc, "ga", 0, TRAFFIC_BATCH, 1, (double[]){0});
    add_group(&sc, "gb", 1, TRAFFIC_BATCH, 1, (double[]){50});
    add_group(&sc, "gc", 2, TRAFFIC_NONE, 1, (double[]){100});
    sc.duration = 15 * 1000000LL; /* 15 us: the first collision only */
    mu_run run;
    mu_run_scenario(&sc, &run);

    /* b's station reaches its port first (50 m against 100 m): repeated to
     * a and c; a's arrives later: jam on all three ports. */
    size_t on[3] = {0};
    for (size_t i = 0; i < run.tr.n; i++)
        if (run.tr.ev[i].kind == TRACE_RELAY_START)
            on[run.tr.ev[i].segment]++;
    assert_int_equal(on[0], 1); /* b's frame, then jam in the same output */
    assert_int_equal(on[1], 1); /* jam only: b is the input that was repeated */
    assert_int_equal(on[2], 1); /* b's frame, then jam */
    assert_int_equal(run.r.repeaters[0].transmit_collisions, 1);
    assert_int_equal(run.r.repeaters[0].jams_sent, 3);
    const trace_event *b_on_c = mu_find(&run.tr, TRACE_RELAY_START, UINT32_MAX, 0);
    assert_int_equal(b_on_c->time, coax(50) + 8 * BIT_10);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* The trace says where a relay is sent and when it turns to jam (what the
 * TUI draws): in test_jam_on_every_port's network, every port's relay
 * carries its tap (each segment's one station is tap 0, the port tap 1)
 * and reports RELAY_JAM at the instant the repeater's jam leaves the port,
 * a's arrival plus the repeater's delay; its RELAY_END carries it too. */
static void test_relay_jam_traced(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 512);
    add_coax(&sc, "a", 100);
    add_coax(&sc, "b", 100);
    add_coax(&sc, "c", 100);
    add_repeater(&sc, "r1", 8, 3, 0u, 100.0, 1u, 0.0, 2u, 0.0);
    add_group(&sc, "ga", 0, TRAFFIC_BATCH, 1, (double[]){0});
    add_group(&sc, "gb", 1, TRAFFIC_BATCH, 1, (double[]){50});
    add_group(&sc, "gc", 2, TRAFFIC_NONE, 1, (double[]){100});
    sc.duration = 15 * 1000000LL;
    mu_run run;
    mu_run_scenario(&sc, &run);
    const sim_time jam = coax(100) + 8 * BIT_10;
    size_t starts = 0, jams[3] = {0}, ends = 0;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *x = &run.tr.ev[i];
        if (x->kind == TRACE_RELAY_START) {
            assert_int_equal(x->tap, 1);
            starts++;
        } else if (x->kind == TRACE_RELAY_JAM) {
            assert_int_equal(x->tap, 1);
            assert_int_equal(x->time, jam);
            assert_int_equal(x->jam_start, jam);
            assert_int_equal(x->station, TRACE_NO_STATION);
            jams[x->segment]++;
        } else if (x->kind == TRACE_RELAY_END) {
            assert_int_equal(x->tap, 1);
            assert_int_equal(x->jam_start, jam);
            ends++;
        }
    }
    assert_int_equal(starts, 3);
    assert_int_equal(jams[0], 1);
    assert_int_equal(jams[1], 1);
    assert_int_equal(jams[2], 1);
    assert_int_equal(ends, 3);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* With a preamble and jam of 8 bits each, a collision right at the start
 * leaves fragments of 16 bits: the repeater's output lasts 96 bits. */
static void test_fragment_extension(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 64);
    sc.phy.preamble_bits = 8;
    sc.phy.jam_bits = 8;
    mu_run run;
    pair_and_far(&sc, 100, 0, 0, TRAFFIC_NONE, 100, 20 * 1000000LL, &run);
    const trace_event *s = NULL, *e = NULL;
    for (size_t i = 0; i < run.tr.n && !e; i++) {
        const trace_event *x = &run.tr.ev[i];
        if (x->segment == 1 && x->kind == TRACE_RELAY_START && !s)
            s = x;
        if (x->segment == 1 && x->kind == TRACE_RELAY_END && s && x->tx_id == s->tx_id)
            e = x;
    }
    assert_non_null(s);
    assert_non_null(e);
    assert_int_equal(s->time, coax(100) + 8 * BIT_10);
    assert_int_equal(e->time - s->time, 96 * BIT_10);
    assert_true(run.r.repeaters[0].fragments_extended >= 2);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Two signals that end at a port at the same instant, one of them sent
 * from the port's own place (its end reaches the repeater at the instant
 * the MAC reports it): the repeater decides again after the second end,
 * falls idle, and stops jamming the other segment. */
static void test_two_ends_at_one_instant(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 64);
    mu_run run;
    pair_and_far(&sc, 100, 100, 100, TRAFFIC_NONE, 100, 5 * 1000000000LL /* 5 ms */, &run);
    /* both start at 0, collide at once, end their preamble and jam at
     * 96 bits; the repeater jams b from 8 bits to 96 + 8 bits */
    const trace_event *end = first_on(&run.tr, TRACE_RELAY_END, 1);
    assert_non_null(end);
    assert_int_equal(end->time, (96 + 8) * (sim_time)BIT_10);
    /* each of the pair's collisions is one its port receives: answered on
     * b only (no transmit collision, nothing sent back onto a) */
    assert_int_equal(run.r.repeaters[0].transmit_collisions, 0);
    assert_int_equal(run.r.repeaters[0].port_collisions, mu_count(&run.tr, TRACE_COLLISION, 0));
    assert_int_equal(run.r.segments[0].frames_relayed, 0);
    assert_int_equal(run.r.frames_delivered, 2);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* A collision that one port receives (two stations of segment a, at 0 m
 * and 50 m, start at 0; the repeater's port is at a's 100 m) is answered
 * on the other port only (RECEIVE COLLISION, Clause 9.6 / 27.3): the
 * 50 m station's signal reaches the port first and is repeated onto b,
 * the 0 m one's 50 m later turns that relay to jam, which ends with the
 * last signal at the port; nothing is sent back onto a, whose collision
 * is its own. Instants from the geometry: 100 m of coax, 8 bit times of
 * repeater delay, each station's 64 bits of preamble and 32 of jam. */
static void test_receive_collision_answered_elsewhere(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 64);
    mu_run run; /* 15 us: the first collision only */
    pair_and_far(&sc, 100, 0, 50, TRAFFIC_NONE, 100, 15 * 1000000LL, &run);
    const sim_time delay = 8 * BIT_10;
    size_t on_a = 0, on_b = 0;
    const trace_event *start = NULL, *jam = NULL, *end = NULL;
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *x = &run.tr.ev[i];
        if (x->kind != TRACE_RELAY_START && x->kind != TRACE_RELAY_JAM &&
            x->kind != TRACE_RELAY_END)
            continue;
        if (x->segment == 0) {
            on_a++;
            continue;
        }
        on_b++;
        if (x->kind == TRACE_RELAY_START)
            start = x;
        else if (x->kind == TRACE_RELAY_JAM)
            jam = x;
        else if (x->kind == TRACE_RELAY_END)
            end = x;
    }
    assert_int_equal(on_a, 0); /* no jam back onto the segment that collided */
    assert_int_equal(on_b, 3);
    assert_non_null(start);
    assert_non_null(jam);
    assert_non_null(end);
    assert_int_equal(start->time, coax(50) + delay);
    assert_int_equal(jam->time, coax(100) + delay);
    /* both stations end their 96 bits at 96 bits (each sees the other
     * within its preamble); the 0 m one's end is the last at the port */
    assert_int_equal(mu_find(&run.tr, TRACE_TX_END, 0, 0)->time, 96 * BIT_10);
    assert_int_equal(mu_find(&run.tr, TRACE_TX_END, 1, 0)->time, 96 * BIT_10);
    assert_int_equal(end->time, 96 * BIT_10 + coax(100) + delay);
    assert_int_equal(run.r.repeaters[0].transmit_collisions, 0);
    assert_int_equal(run.r.repeaters[0].port_collisions, 1);
    assert_int_equal(run.r.repeaters[0].jams_sent, 1);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Activity on two ports at once is still a transmit collision, jammed on
 * every port (test_jam_on_every_port); here, a receive collision on a
 * that b's station then joins: the repeater jams a too from then on. */
static void test_receive_then_transmit_collision(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_BATCH, 64);
    /* b's station at 500 m starts at 0 too: its signal reaches the port
     * at coax(500), after the pair's collision (at 0) began the jam on b
     * at 8 bits but before that jam reaches it (8 bits + coax(500)) */
    mu_run run;
    pair_and_far(&sc, 500, 100, 100, TRAFFIC_BATCH, 500, 15 * 1000000LL, &run);
    const trace_event *a_start = first_on(&run.tr, TRACE_RELAY_START, 0);
    assert_non_null(a_start);
    assert_int_equal(a_start->time, coax(500) + 8 * BIT_10);
    assert_int_equal(run.r.repeaters[0].transmit_collisions, 1);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* A hub whose uplink goes to an idle coax gives its stations exactly what
 * the same hub alone gives: the uplink's port sees the hub's collisions
 * as two signals on one port and answers them on the coax only, never
 * back into the hub (which made every collision of the hub's stations
 * last at least 96 bits longer). Every counter of every station, and the
 * group's delays, equal. */
static void hub_text(char *buf, size_t len, bool uplink)
{
    snprintf(buf, len, "%s%s%s%s",
             "phy = 10baset\nduration = 20ms\nseed = 11\nframe-size = 128\n"
             "[segment hub]\ntype = hub\nlength = 100\n",
             uplink ? "uplink = coax@0\n" : "",
             "[group talkers]\nstations = 6\nsegment = hub\ndest = local:1\n",
             uplink ? "[segment coax]\ntype = coax\nlength = 185\n"
                      "[group quiet]\nstations = 1\nsegment = coax\ntraffic = none\n"
                    : "");
}

static void test_hub_uplink_to_idle_coax_is_the_hub(void **state)
{
    (void)state;
    char alone[512], uplinked[512];
    hub_text(alone, sizeof alone, false);
    hub_text(uplinked, sizeof uplinked, true);
    scenario a, u;
    scn_load_ok(&a, alone);
    scn_load_ok(&u, uplinked);
    results ra, ru;
    engine *ea = scn_run(&a, &ra);
    engine *eu = scn_run(&u, &ru);
    assert_true(ra.collisions > 20); /* the hub's stations do collide (47 times) */
    assert_true(ru.repeaters[0].port_collisions > 20);
    for (uint32_t s = 0; s < 6; s++) {
        const station_result *x = &ra.stations[s], *y = &ru.stations[s];
        if (memcmp(&x->c, &y->c, sizeof x->c) != 0)
            fail_msg("station %u: attempts %llu / %llu, collisions %llu / %llu, sent %llu / %llu",
                     s, (unsigned long long)x->c.attempts, (unsigned long long)y->c.attempts,
                     (unsigned long long)x->c.collisions, (unsigned long long)y->c.collisions,
                     (unsigned long long)x->c.frames_transmitted_ok,
                     (unsigned long long)y->c.frames_transmitted_ok);
        assert_int_equal(x->bits_delivered, y->bits_delivered);
        assert_int_equal(x->queue_len, y->queue_len);
    }
    assert_true(ra.groups[0].mean_delay_us == ru.groups[0].mean_delay_us);
    assert_true(ra.groups[0].p99_delay_us == ru.groups[0].p99_delay_us);
    assert_int_equal(ra.segments[0].collisions, ru.segments[0].collisions);
    /* the domain's collisions are the hub's (the coax's relay of them is
     * the same collision, and alone on it) */
    assert_int_equal(ru.collisions, ra.collisions);
    engine_destroy(ea);
    engine_destroy(eu);
    scenario_free(&a);
    scenario_free(&u);
}

/* A chain of five coax segments and four repeaters: a repeater's jam on a
 * segment is the next repeater's input there, and the two settle (one
 * port left, then idle) instead of jamming each other for good. */
static void test_chain_of_repeaters(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_SATURATED, 64);
    sc.duration = 50 * 1000000000LL; /* 50 ms */
    for (uint32_t k = 0; k < 5; k++) {
        char name[8];
        snprintf(name, sizeof name, "s%u", k);
        add_coax(&sc, name, 500);
    }
    for (uint32_t k = 1; k < 5; k++)
        add_repeater(&sc, "r", 23, 2, k - 1, 500.0, k, 0.0);
    add_group(&sc, "near", 0, TRAFFIC_SATURATED, 4, (double[]){0, 0, 0, 0});
    add_group(&sc, "far", 4, TRAFFIC_SATURATED, 4, (double[]){500, 500, 500, 500});
    mu_run run;
    mu_run_scenario(&sc, &run);
    /* about 700 frames of 64 bytes in 50 ms, every one received whole
     * (the model's round trip, 401 bit times, is within the slot) */
    assert_true(run.r.frames_ok > 500);
    assert_int_equal(run.r.frames_corrupted, 0);
    assert_int_equal(run.r.late_collisions, 0);
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Three repeaters with a port each on one segment: after a collision
 * each of them hears the other two's jam there, two signals on that port.
 * That is the collision they are all handling, not a new one: each leaves
 * that port when it is the only one still active (one port left), and
 * they fall idle instead of jamming the segment, and every other, for
 * good (a network fuzz_network wrote locked up so, and the run's oldest
 * unjudged transmission fell behind what stats_fill allows). */
static void test_three_repeaters_on_one_segment(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_SATURATED, 64);
    sc.duration = 20 * 1000000000LL; /* 20 ms */
    add_coax(&sc, "mid", 500);
    add_coax(&sc, "a", 100);
    add_coax(&sc, "b", 100);
    add_coax(&sc, "c", 100);
    add_repeater(&sc, "ra", 8, 2, 0u, 0.0, 1u, 0.0);
    add_repeater(&sc, "rb", 8, 2, 0u, 250.0, 2u, 0.0);
    add_repeater(&sc, "rc", 8, 2, 0u, 500.0, 3u, 0.0);
    add_group(&sc, "ga", 1, TRAFFIC_SATURATED, 2, (double[]){0, 100});
    add_group(&sc, "gb", 2, TRAFFIC_SATURATED, 2, (double[]){0, 100});
    add_group(&sc, "gc", 3, TRAFFIC_SATURATED, 2, (double[]){0, 100});
    mu_run run;
    mu_run_scenario(&sc, &run);
    assert_int_equal(run.status, ENGINE_DONE);
    /* about 290 frames of 64 bytes fit in 20 ms (268 are sent); a
     * lock-up sends none after it */
    assert_true(run.r.frames_ok > 200);
    /* no relay lasts longer than a frame's and its jam's worth */
    for (size_t i = 0; i < run.tr.n; i++) {
        const trace_event *b = &run.tr.ev[i];
        if (b->kind != TRACE_RELAY_START || b->time > sc.duration - 1000000000LL)
            continue;
        const trace_event *e = NULL;
        for (size_t k = i + 1; k < run.tr.n && !e; k++)
            if (run.tr.ev[k].kind == TRACE_RELAY_END && run.tr.ev[k].tx_id == b->tx_id)
                e = &run.tr.ev[k];
        assert_non_null(e);
        assert_true(e->time - b->time <= (64 + 8 * 64 + 96) * (sim_time)BIT_10);
    }
    mu_run_free(&run);
    free_scenario(&sc);
}

/* Read before the warm-up ends, the window is empty: the segments and
 * repeaters count nothing yet, as the run and its stations do (they
 * counted collisions and relays from 0 before, while the run's
 * collisions were 0: found by fuzz_network, which reads the results at
 * every slice of its runs). After it, they count from the warm-up. */
static void test_nothing_counts_before_warmup(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_SATURATED, 64);
    sc.duration = 10 * 1000000000LL; /* 10 ms */
    sc.warmup = 5 * 1000000000LL;
    add_coax(&sc, "a", 300);
    add_coax(&sc, "b", 300);
    add_repeater(&sc, "r", 8, 2, 0u, 300.0, 1u, 0.0);
    add_group(&sc, "ga", 0, TRAFFIC_SATURATED, 2, (double[]){0, 300});
    add_group(&sc, "gb", 1, TRAFFIC_SATURATED, 2, (double[]){0, 300});
    engine *e = NULL;
    char err[256] = "";
    assert_int_equal(engine_create(&sc, &e, err, sizeof err), 0);
    assert_int_equal(engine_run(e, 4 * 1000000000LL, 0), ENGINE_RUNNING);
    results r;
    engine_results(e, &r);
    assert_int_equal(r.collisions, 0);
    assert_int_equal(r.frames_ok, 0);
    assert_int_equal(r.n_segments, 2);
    assert_int_equal(r.n_repeaters, 1);
    for (uint32_t s = 0; s < 2; s++) {
        assert_int_equal(r.segments[s].collisions, 0);
        assert_int_equal(r.segments[s].frames_relayed, 0);
        assert_int_equal(r.segments[s].frames_sent, 0);
    }
    assert_int_equal(r.repeaters[0].transmit_collisions, 0);
    assert_int_equal(r.repeaters[0].jams_sent, 0);
    assert_int_equal(r.repeaters[0].readable_frames, 0);
    assert_int_equal(r.repeaters[0].port_collisions, 0);
    /* 4 ms of four saturated stations: frames went both ways, and
     * collided */
    assert_true(engine_events(e) > 100);
    assert_int_equal(engine_run_all(e), ENGINE_DONE);
    engine_results(e, &r);
    assert_true(r.frames_ok > 0);
    /* the run counts the domain's collisions, each once: one seen on both
     * segments counts on each of them */
    assert_true(r.collisions > 0);
    assert_true(r.collisions <= r.segments[0].collisions + r.segments[1].collisions);
    assert_true(r.segments[0].frames_relayed + r.segments[1].frames_relayed > 0);
    assert_true(r.segments[0].frames_relayed + r.segments[1].frames_relayed <=
                r.repeaters[0].readable_frames);
    engine_destroy(e);
    free_scenario(&sc);
}

/* The same run, field for field, on one bus or star and on a network of
 * one segment of the same geometry. */
static void same_as_plain(const char *phy, bool hub)
{
    scenario plain, net;
    const double pos[6] = {0, 100, 180, 333, 420, 500};
    mu_scenario(&plain, phy, 6, hub ? NULL : pos, TRAFFIC_SATURATED, 256,
                50 * 1000000000LL, 7);
    mu_set_policy(&plain, "beb");
    mu_scenario(&net, phy, 6, hub ? NULL : pos, TRAFFIC_SATURATED, 256,
                50 * 1000000000LL, 7);
    mu_set_policy(&net, "beb");
    if (hub)
        add_hub(&net, "hub", net.phy.length_m, net.phy.hub_delay_bits);
    else
        add_coax(&net, "cable", 500);
    net.net.segments[0].velocity_c = net.phy.velocity_c;
    net.all.segment = 0;
    mu_run a, b;
    mu_run_scenario(&plain, &a);
    mu_run_scenario(&net, &b);
    assert_int_equal(a.r.events, b.r.events);
    assert_int_equal(a.r.frames_ok, b.r.frames_ok);
    assert_int_equal(a.r.collisions, b.r.collisions);
    assert_int_equal(a.r.frames_delivered, b.r.frames_delivered);
    assert_true(a.r.throughput == b.r.throughput);
    assert_true(a.r.mean_delay_us == b.r.mean_delay_us);
    assert_int_equal(a.tr.n, b.tr.n);
    for (size_t i = 0; i < a.tr.n; i++) {
        assert_int_equal(a.tr.ev[i].kind, b.tr.ev[i].kind);
        assert_int_equal(a.tr.ev[i].time, b.tr.ev[i].time);
        assert_int_equal(a.tr.ev[i].station, b.tr.ev[i].station);
        assert_int_equal(a.tr.ev[i].tx_id, b.tr.ev[i].tx_id);
    }
    assert_int_equal(b.r.n_segments, 1);
    assert_int_equal(b.r.segments[0].frames_sent, b.r.frames_ok);
    mu_run_free(&a);
    mu_run_free(&b);
    mu_scenario_free(&plain);
    free_scenario(&net);
}

static void test_one_segment_is_the_bus(void **state)
{
    (void)state;
    same_as_plain("10base5", false);
}

static void test_one_segment_is_the_star(void **state)
{
    (void)state;
    same_as_plain("10baset", true);
}

/* Saturated stations on three segments: every frame is judged once, and
 * the per-segment counts add up to the run's. */
static void test_counts_add_up(void **state)
{
    (void)state;
    scenario sc;
    net_scenario(&sc, TRAFFIC_SATURATED, 200);
    sc.duration = 200 * 1000000000LL; /* 200 ms */
    add_coax(&sc, "a", 300);
    add_coax(&sc, "b", 300);
    add_hub(&sc, "c", 50, 8);
    add_repeater(&sc, "r1", 8, 2, 0u, 300.0, 1u, 0.0);
    add_repeater(&sc, "c-uplink", 0, 2, 2u, 50.0, 1u, 150.0);
    add_group(&sc, "ga", 0, TRAFFIC_SATURATED, 3, (double[]){0, 100, 200});
    add_group(&sc, "gb", 1, TRAFFIC_SATURATED, 2, (double[]){10, 290});
    add_group(&sc, "gc", 2, TRAFFIC_SATURATED, 2, (double[]){50, 50});
    mu_run run;
    mu_run_scenario(&sc, &run);
    assert_int_equal(run.status, ENGINE_DONE);
    uint64_t sent = 0, ok = 0, bad = 0, judged = 0;
    for (uint32_t s = 0; s < sc.n_stations; s++) {
        sent += run.st[s].c.frames_transmitted_ok;
        ok += run.st[s].c.frames_delivered;
        bad += run.st[s].c.frames_corrupted;
    }
    uint64_t seg_sent = 0, seg_bad = 0;
    for (uint32_t g = 0; g < run.r.n_segments; g++) {
        seg_sent += run.r.segments[g].frames_sent;
        seg_bad += run.r.segments[g].frames_corrupted;
    }
    judged = mu_count(&run.tr, TRACE_DELIVER, UINT32_MAX);
    assert_true(sent > 100);
    assert_int_equal(seg_sent, sent);
    assert_int_equal(ok + bad, judged);
    /* frames judged bad on other segments are the corrupted ones there;
     * bad ones on their own segment are counted by the MAC alone */
    assert_true(seg_bad <= bad);
    assert_true(ok > 0);

    /* The outputs name every segment and repeater, and each station's
     * segment. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    results r = run.r;
    r.n_groups = 0; /* the groups' results went with the engine */
    output_run out = {.sc = &sc, .r = &r};
    assert_int_equal(output_write(f, OUTPUT_JSON, &out), 0);
    fclose(f);
    if (!strstr(buf, "\"segments\"")) fprintf(stderr, "%s\n", buf);
    assert_non_null(strstr(buf, "\"segments\": {\n    \"a\": {\n      \"frames_sent\": "));
    assert_non_null(strstr(buf, "\"repeaters\": {\n    \"r1\": {\n      \"transmit_collisions\": "));
    assert_non_null(strstr(buf, "\"c-uplink\": {"));
    assert_non_null(strstr(buf, "\"segment\": \"c\""));
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(output_write(f, OUTPUT_CSV, &out), 0);
    fclose(f);
    assert_non_null(strstr(buf, ",a.frames_sent,a.frames_relayed,a.collisions,"));
    assert_non_null(strstr(buf, ",r1.transmit_collisions,r1.jams_sent,"));
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(output_write_stations_csv(f, &r), 0);
    fclose(f);
    assert_non_null(strstr(buf, "station,segment,"));
    assert_non_null(strstr(buf, "\n7,c,"));
    free(buf);
    mu_run_free(&run);
    free_scenario(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrival_across_repeater),
        cmocka_unit_test(test_arrival_across_uplink),
        cmocka_unit_test(test_collision_between_segments),
        cmocka_unit_test(test_jam_on_every_port),
        cmocka_unit_test(test_relay_jam_traced),
        cmocka_unit_test(test_fragment_extension),
        cmocka_unit_test(test_two_ends_at_one_instant),
        cmocka_unit_test(test_one_collision_across_a_repeater),
        cmocka_unit_test(test_receive_collision_answered_elsewhere),
        cmocka_unit_test(test_receive_then_transmit_collision),
        cmocka_unit_test(test_hub_uplink_to_idle_coax_is_the_hub),
        cmocka_unit_test(test_chain_of_repeaters),
        cmocka_unit_test(test_three_repeaters_on_one_segment),
        cmocka_unit_test(test_nothing_counts_before_warmup),
        cmocka_unit_test(test_one_segment_is_the_bus),
        cmocka_unit_test(test_one_segment_is_the_star),
        cmocka_unit_test(test_counts_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
