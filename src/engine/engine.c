/* engine.c - a scenario wired into a running network; see engine.h.
 *
 * The engine owns the event queue, the medium, the MAC, the traffic state
 * and the statistics, and runs the loop: pop the first event, hand it to
 * its owner. MAC events go to mac_handle; arrivals of the poisson and onoff
 * sources are the engine's own. Saturated stations are refilled by the MAC
 * through a callback the moment they need a frame; batch frames are all
 * queued at t = 0.
 *
 * Stations come in groups (the scenario's, or its one implicit group): the
 * engine builds one backoff policy and one MAC class per group, each
 * station's arrivals run at its group's rate, and a group that answers
 * (replies) gets a reply queued for every request it receives whole, as an
 * event of the engine's own. When the scenario names groups, each group
 * also gets statistics of its own, fed by one sink that routes each event
 * by its station's group; without named groups none of this runs.
 *
 * Every count covers the measured window [warmup, end): the loop stops
 * once at the warm-up, after every event before it and before any event at
 * it, and keeps the counters of that instant; results are the counts now
 * minus those (stations/MODEL.md, "Counters").
 */
#include "engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evq.h"
#include "medium.h"
#include "replay.h"
#include "segments.h"
#include "stats.h"

enum { ENGINE_EV_ARRIVAL = MAC_EV_LIMIT + 1, ENGINE_EV_REPLAY, ENGINE_EV_REPLY };

/* A reply waiting out its think time: whom it answers, and when that
 * request entered its queue. */
typedef struct pending_reply {
    uint32_t to;
    uint32_t next_free;
    sim_time request_at;
} pending_reply;

#define ENGINE_MAX_SINKS 16

struct engine {
    scenario sc;
    evq *q;
    medium *med;               /* one bus or star; a network's first segment */
    mac *mac;                  /* NULL on a network */
    segnet *net;               /* a network of segments, or NULL */
    uint32_t n_groups;
    const station_group *groups; /* the scenario's (scenario_group_at(&sc, 0) on) */
    backoff_policy **policies; /* per group */
    mac_class *classes;        /* per group */
    double *lambda;            /* per group: arrivals per second of each station */
    uint32_t *group_of;        /* per station */
    bool replies;              /* some group answers */
    pending_reply *replies_pending;
    uint32_t *waiting;         /* per station: replies waiting out the think time */
    uint32_t n_pending, cap_pending, free_pending;
    stats **group_stats;       /* per named group, else NULL */
    group_result *group_results;
    station_result *group_scratch;
    stats *stats;
    arrival_state *arrivals; /* per station: traffic stream and on/off state */
    station_result *per_station;
    mac_counters *at_warmup;   /* per station, the counters at the warm-up */
    uint64_t collisions_at_warmup;
    bool warm;                 /* the warm-up is over (or there is none) */
    const replay *replay;    /* TRAFFIC_PCAP: the capture's per-station frames */
    replay *owned_replay;    /* the same when this engine loaded it (else shared) */
    size_t *replay_next;     /* per station: the next replayed frame */
    trace_sink sinks[ENGINE_MAX_SINKS];
    uint32_t sink_kinds[ENGINE_MAX_SINKS]; /* what each sink reads */
    size_t n_sinks;
    sim_time now;
    uint64_t events;
    bool started;
    bool no_memory;            /* an allocation failed mid-run (ENGINE_OUT_OF_MEMORY) */
};

/* Station s's MAC and its place there (its tap: s itself without a
 * network). */
static inline mac *mac_of(const engine *e, uint32_t s, uint32_t *tap)
{
    if (!e->net) {
        *tap = s;
        return e->mac;
    }
    return segnet_mac_of(e->net, s, tap);
}

static bool enqueue(engine *e, uint32_t s, const frame *f, sim_time now)
{
    uint32_t tap;
    mac *m = mac_of(e, s, &tap);
    return mac_enqueue(m, tap, f, now);
}

static const mac_counters *counters_of(const engine *e, uint32_t s)
{
    uint32_t tap;
    const mac *m = mac_of(e, s, &tap);
    return mac_station_counters(m, tap);
}

static uint64_t run_collisions(engine *e, sim_time t)
{
    return e->net ? segnet_collision_events(e->net, t) : mac_collision_events(e->mac, t);
}

static sim_time unjudged_from(const engine *e)
{
    return e->net ? segnet_unjudged_from(e->net) : medium_unjudged_from(e->med);
}

static sim_time max_delay(const engine *e)
{
    return e->net ? segnet_max_delay(e->net) : medium_max_delay(e->med);
}

static uint32_t clamp_bytes(const engine *e, uint32_t bytes)
{
    return bytes < e->sc.phy.min_frame_bytes ? e->sc.phy.min_frame_bytes : bytes;
}

static const station_group *group_of(const engine *e, uint32_t s)
{
    return &e->groups[e->group_of[s]];
}

static frame new_frame(engine *e, uint32_t s, sim_time now)
{
    arrival_state *a = &e->arrivals[s];
    const traffic_config *t = &group_of(e, s)->traffic;
    frame f = {0};
    f.queued_at = now;
    f.bytes = clamp_bytes(e, frame_size_draw(&t->size, &a->r));
    f.dest = traffic_dest_draw(t, s, e->sc.n_stations, &a->r);
    return f;
}

static bool refill_saturated(void *ctx, uint32_t s, sim_time now, frame *out)
{
    *out = new_frame(ctx, s, now);
    return true;
}

static void schedule_arrival(engine *e, uint32_t s, sim_time after)
{
    uint32_t g = e->group_of[s];
    sim_time t = arrival_next(&e->arrivals[s], &e->groups[g].traffic, after, e->lambda[g]);
    if (t == SIM_TIME_NEVER || t >= e->sc.duration)
        return;
    sim_event ev = {.time = t, .target = s, .type = ENGINE_EV_ARRIVAL,
                    .phase = MAC_PHASE_READY};
    if (evq_push(e->q, &ev) != 0)
        e->no_memory = true; /* engine_run stops after this event */
}

int engine_load_replay(const scenario *sc, replay **out, char *err, size_t errlen)
{
    /* Without --pcap-max-stations the station limit of every run still
     * holds: one source beyond it is enough to refuse the capture. */
    replay_options ro = {.time_scale = sc->pcap_time_scale > 0 ? sc->pcap_time_scale : 1.0,
                         .max_stations = sc->pcap_max_stations ? sc->pcap_max_stations
                                                               : SCENARIO_MAX_STATIONS + 1};
    int rc = replay_load(sc->pcap_path, &ro, sc->phy.min_frame_bytes, sc->phy.max_frame_bytes,
                         out, err, errlen);
    return rc == REPLAY_NO_MEMORY ? ENGINE_NO_MEMORY : rc;
}

bool engine_replay_same(const scenario *a, const scenario *b)
{
    return a->traffic.kind == TRAFFIC_PCAP && b->traffic.kind == TRAFFIC_PCAP &&
           strcmp(a->pcap_path, b->pcap_path) == 0 && a->pcap_time_scale == b->pcap_time_scale &&
           a->pcap_max_stations == b->pcap_max_stations &&
           a->phy.min_frame_bytes == b->phy.min_frame_bytes &&
           a->phy.max_frame_bytes == b->phy.max_frame_bytes;
}

/* One policy and one MAC class per group, each station's group, and each
 * group's arrival rate (of each of its stations). */
static int build_groups(engine *e, const phy_timing *t, char *err, size_t errlen)
{
    const phy_params *phy = &e->sc.phy;
    uint32_t n = e->sc.n_stations, ng = scenario_group_count(&e->sc);
    e->n_groups = ng;
    e->groups = scenario_group_at(&e->sc, 0); /* one array, or the one implicit group */
    e->policies = calloc(ng, sizeof *e->policies);
    e->classes = calloc(ng, sizeof *e->classes);
    e->lambda = calloc(ng, sizeof *e->lambda);
    e->group_of = malloc((n ? n : 1) * sizeof *e->group_of);
    if (!e->policies || !e->classes || !e->lambda || !e->group_of)
        return -1;
    backoff_env env = {.slot_ps = t->slot_ps,
                       .attempt_limit = phy->attempt_limit,
                       .backoff_limit = phy->backoff_limit,
                       .n_stations = n};
    for (uint32_t g = 0; g < ng; g++) {
        const station_group *grp = scenario_group_at(&e->sc, g);
        if (backoff_policy_build(&grp->policy_spec, &env, &e->policies[g], err, errlen) != 0)
            return -1;
        e->classes[g] = (mac_class){.policy = e->policies[g],
                                    .queue_capacity = grp->queue_capacity,
                                    .refill = grp->traffic.kind == TRAFFIC_SATURATED};
        e->lambda[g] = traffic_station_rate(&grp->traffic, grp->count, phy->rate_bps,
                                            phy->min_frame_bytes);
        e->replies |= grp->reply.on;
        for (uint32_t i = 0; i < grp->count; i++)
            e->group_of[grp->first + i] = g;
    }
    if (e->replies && (e->waiting = calloc(n ? n : 1, sizeof *e->waiting)) == NULL)
        return -1;
    return 0;
}

/* Routes an event to the statistics of its station's group. */
static void group_stats_event(void *ctx, const trace_event *ev)
{
    engine *e = ctx;
    trace_sink sink = stats_sink(e->group_stats[e->group_of[ev->station]]);
    sink.on_event(sink.ctx, ev);
}

static void group_stats_tally(void *ctx, const trace_tally *t)
{
    engine *e = ctx;
    trace_sink sink = stats_sink(e->group_stats[e->group_of[t->station]]);
    sink.on_tally(sink.ctx, t);
}

static int build_group_stats(engine *e, const stats_config *all)
{
    uint32_t ng = e->n_groups, largest = 1;
    e->group_stats = calloc(ng, sizeof *e->group_stats);
    e->group_results = calloc(ng, sizeof *e->group_results);
    if (!e->group_stats || !e->group_results || e->n_sinks == ENGINE_MAX_SINKS)
        return -1;
    for (uint32_t g = 0; g < ng; g++) {
        const station_group *grp = scenario_group_at(&e->sc, g);
        stats_config c = *all;
        c.n_stations = grp->count;
        c.first_station = grp->first;
        if (stats_create(&c, &e->group_stats[g]) != 0)
            return -1;
        if (grp->count > largest)
            largest = grp->count;
    }
    e->group_scratch = calloc(largest, sizeof *e->group_scratch);
    if (!e->group_scratch)
        return -1;
    e->sink_kinds[e->n_sinks] = stats_sink_kinds();
    e->sinks[e->n_sinks++] = (trace_sink){.on_event = group_stats_event, .ctx = e,
                                              .on_tally = group_stats_tally};
    return 0;
}

/* The longest a frame can take from its first bit at the transmitter to
 * its verdict: the longest frame (a collision at its last bit adds the
 * jam) and the longest delay to a receiver. The statistics read the wire
 * up to the oldest frame not yet judged (stats.h); this bounds how far
 * back that can be. */
static sim_time judge_ps(const engine *e, const phy_timing *t)
{
    const phy_params *phy = &e->sc.phy;
    uint64_t wire = phy_wire_bits(phy, 8ull * phy->max_frame_bytes, false);
    sim_time attempt = t->preamble_ps + (sim_time)wire * t->bit_ps + t->jam_ps;
    if (e->net && segnet_longest_attempt_ps(e->net) > attempt) /* a slower segment */
        attempt = segnet_longest_attempt_ps(e->net);
    return attempt + max_delay(e);
}

int engine_create(const scenario *sc, engine **out, char *err, size_t errlen)
{
    return engine_create_shared(sc, NULL, out, err, errlen);
}

int engine_create_shared(const scenario *sc, const replay *shared, engine **out, char *err,
                         size_t errlen)
{
    engine *e = calloc(1, sizeof *e);
    if (!e || scenario_copy(&e->sc, sc) != 0) {
        free(e);
        snprintf(err, errlen, "out of memory");
        return ENGINE_NO_MEMORY;
    }
    if (e->sc.traffic.kind == TRAFFIC_PCAP) {
        /* One station per source address of the capture (replay.h). */
        if (shared != NULL) {
            e->replay = shared;
        } else {
            int loaded = engine_load_replay(&e->sc, &e->owned_replay, err, errlen);
            if (loaded == ENGINE_NO_MEMORY) {
                engine_destroy(e);
                return ENGINE_NO_MEMORY; /* err names the capture */
            }
            if (loaded != 0)
                goto fail_quiet;
            e->replay = e->owned_replay;
        }
        uint32_t stations = replay_station_count(e->replay);
        if (stations > SCENARIO_MAX_STATIONS) {
            snprintf(err, errlen,
                     "%s: more than %u source addresses, one station each (at most %u; "
                     "--pcap-max-stations N replays the first N)",
                     e->sc.pcap_path, SCENARIO_MAX_STATIONS, SCENARIO_MAX_STATIONS);
            goto fail_quiet;
        }
        if (e->sc.positions_m && e->sc.n_positions != stations) {
            snprintf(err, errlen, "positions: %u given, but the capture has %u stations",
                     e->sc.n_positions, stations);
            goto fail_quiet;
        }
        e->sc.n_stations = stations; /* a replay is never with named groups */
        e->replay_next = calloc(stations ? stations : 1, sizeof *e->replay_next);
        if (!e->replay_next)
            goto fail;
    }
    /* A scenario filled by hand (tests) may not have passed scenario_finish. */
    scenario_sync_implicit(&e->sc);
    const phy_params *phy = &e->sc.phy;
    uint32_t n = e->sc.n_stations;
    const phy_timing t = phy_timing_of(phy);

    if (build_groups(e, &t, err, errlen) != 0)
        goto fail; /* the specs were checked by scenario_finish: only memory fails */

    if (e->sc.net.n_segments > 0) {
        if (segnet_create(&e->sc, &e->net) != 0)
            goto fail;
        e->med = (medium *)segnet_medium(e->net, 0);
        goto built;
    }
    sim_time *pos = malloc(n * sizeof *pos);
    if (!pos)
        goto fail;
    for (uint32_t i = 0; i < n; i++)
        pos[i] = phy_cable_ps(phy, scenario_station_metres(&e->sc, i));
    bool point = phy->length_m == 0 && !e->sc.positions_m;
    for (uint32_t g = 0; g < e->n_groups; g++)
        point &= !scenario_group_at(&e->sc, g)->positions_m &&
                 scenario_group_at(&e->sc, g)->place == PLACE_DEFAULT;
    medium_config mc = {
        .n_stations = n,
        .topology = phy->topology,
        .pos_ps = pos,
        .hub_ps = point ? 0 : t.hub_ps,
        .probe_pos_ps = phy_cable_ps(phy, e->sc.probe_m),
        .retain_ps = t.ifg_ps,
        .chain_ps = t.ifg_part1_ps,
        .chain_cap_ps = 8 * t.slot_ps,
        .fault_start_ps = e->sc.outage_start,
        .fault_end_ps = e->sc.outage_start + e->sc.outage_duration,
    };
    int rc = medium_create(&mc, &e->med);
    free(pos);
    if (rc != 0)
        goto fail;
built:;

    stats_config stc = {.n_stations = n, .rate_bps = phy->rate_bps,
                        .warmup = e->sc.warmup, .duration = e->sc.duration,
                        .batches = e->sc.batches,
                        .batch_traffic = e->sc.traffic.kind == TRAFFIC_BATCH,
                        .outage_start = e->sc.outage_start,
                        .outage_end = e->sc.outage_start + e->sc.outage_duration,
                        .judge_ps = judge_ps(e, &t),
                        .delay_to_delivery = e->sc.net.n_bridges > 0};
    if (evq_create(&e->q, 4u * n + 64) != 0 || stats_create(&stc, &e->stats) != 0)
        goto fail;
    /* Ends of frames, collisions and gaps are mostly due within a couple
     * of slot times; backoffs and arrivals mostly later (evq.c). */
    evq_set_horizon(e->q, 2 * t.slot_ps);
    /* Full-duplex links send in step (nothing makes them wait at random):
     * their events come in crowds pushed in order, which runs take in O(1). */
    bool runs = false;
    for (uint32_t s = 0; s < e->sc.net.n_segments; s++)
        runs = runs || e->sc.net.segments[s].full_duplex;
    /* So do the ends of backoffs when every wait is the same (a fixed
     * retry interval's collapse: the ends of a crowd's jams, each plus the
     * wait, pushed in order): (d)'s collapse of 500 0.90 of the CPU time,
     * of 1024 0.92; with random waits runs cost 5 to 9 % (tests/bench/README.md,
     * "Session 10: the switch's records, runs for constant waits"). */
    bool constant = true;
    for (uint32_t g = 0; g < e->n_groups; g++)
        constant = constant && backoff_policy_constant(e->policies[g]);
    evq_use_runs(e->q, runs || constant);
    /* The end of a frame is due a frame's time after its start, beyond the
     * horizon when frames are long (512 bytes at 100 Mb/s: 8 slots): kept
     * near by their phases (the MAC's and a network's ends, mac.h), they
     * leave the far heap to the long waits. Not with runs: the switch's
     * 64 links' ends then crowd the near heap, 2 % slower
     * (tests/bench/README.md, "The event queue and the engine's loop"). */
    if (!runs)
        evq_set_near_phases(e->q, MAC_PHASE_END + 1);
    e->arrivals = calloc(n, sizeof *e->arrivals);
    e->per_station = calloc(n, sizeof *e->per_station);
    e->warm = e->sc.warmup <= 0;
    if (!e->warm)
        e->at_warmup = calloc(n, sizeof *e->at_warmup);
    if (!e->arrivals || !e->per_station || (!e->warm && !e->at_warmup))
        goto fail;
    for (uint32_t i = 0; i < n; i++)
        arrival_init(&e->arrivals[i], &group_of(e, i)->traffic, e->sc.seed, i);
    e->sink_kinds[e->n_sinks] = stats_sink_kinds();
    e->sinks[e->n_sinks++] = stats_sink(e->stats);
    if (e->sc.n_named && build_group_stats(e, &stc) != 0)
        goto fail;
    *out = e;
    return 0;
fail:
    snprintf(err, errlen, "out of memory");
    engine_destroy(e);
    return ENGINE_NO_MEMORY;
fail_quiet:
    engine_destroy(e);
    return -1;
}

void engine_destroy(engine *e)
{
    if (!e)
        return;
    mac_destroy(e->mac);
    if (e->net)
        segnet_destroy(e->net);
    else
        medium_destroy(e->med);
    evq_destroy(e->q);
    stats_destroy(e->stats);
    for (uint32_t g = 0; e->group_stats && g < e->n_groups; g++)
        stats_destroy(e->group_stats[g]);
    free(e->group_stats);
    free(e->group_results);
    free(e->group_scratch);
    for (uint32_t g = 0; e->policies && g < e->n_groups; g++)
        backoff_policy_destroy(e->policies[g]);
    free(e->policies);
    free(e->classes);
    free(e->lambda);
    free(e->group_of);
    free(e->replies_pending);
    free(e->waiting);
    free(e->arrivals);
    free(e->per_station);
    free(e->at_warmup);
    replay_destroy(e->owned_replay);
    free(e->replay_next);
    scenario_free(&e->sc);
    free(e);
}

int engine_add_sink(engine *e, trace_sink sink)
{
    if (e->started || e->n_sinks == ENGINE_MAX_SINKS)
        return -1;
    e->sink_kinds[e->n_sinks] = TRACE_ALL;
    e->sinks[e->n_sinks++] = sink;
    return 0;
}

/* Schedules the arrival of station s's next replayed frame, if any. */
static void schedule_replay(engine *e, uint32_t s)
{
    size_t k = e->replay_next[s];
    if (k >= replay_frame_count(e->replay, s))
        return;
    sim_time t = replay_frames(e->replay, s)[k].time;
    if (t >= e->sc.duration)
        return;
    sim_event ev = {.time = t, .target = s, .type = ENGINE_EV_REPLAY,
                    .phase = MAC_PHASE_READY};
    if (evq_push(e->q, &ev) != 0)
        e->no_memory = true; /* engine_run stops after this event */
}

/* A unicast frame was received whole (the MAC's callback, set only when
 * some group answers): a request to a station that answers queues a reply
 * after the think time; a reply ends a request/response time. */
static void on_received(void *ctx, uint32_t dest, uint32_t sender, const frame *f, sim_time now)
{
    engine *e = ctx;
    if (f->is_reply) {
        uint32_t g = e->group_of[dest];
        if (e->group_stats)
            stats_add_response(e->group_stats[g], now, now - f->request_at);
        stats_add_response(e->stats, now, now - f->request_at);
        return;
    }
    const station_group *grp = group_of(e, dest);
    const reply_spec *r = &grp->reply;
    if (!r->on || now + r->think >= e->sc.duration)
        return;
    /* Bounded like a queue: a station holds at most its queue's capacity
     * of replies waiting out the think time; past that the reply is
     * offered and dropped at once, as a full queue drops a frame. */
    if (e->waiting[dest] >= grp->queue_capacity) {
        frame lost = {.queued_at = now, .dest = sender, .is_reply = true,
                      .request_at = f->queued_at};
        lost.bytes = clamp_bytes(e, frame_size_draw(&r->size, &e->arrivals[dest].r));
        uint32_t tap;
        mac *m = mac_of(e, dest, &tap);
        mac_drop(m, tap, &lost, now);
        return;
    }
    uint32_t i = e->free_pending;
    if (i == UINT32_MAX) {
        if (e->n_pending == e->cap_pending) {
            uint32_t cap = e->cap_pending ? 2 * e->cap_pending : 64;
            pending_reply *p = realloc(e->replies_pending, cap * sizeof *p);
            if (!p) {
                e->no_memory = true;
                return;
            }
            e->replies_pending = p;
            e->cap_pending = cap;
        }
        i = e->n_pending++;
    } else {
        e->free_pending = e->replies_pending[i].next_free;
    }
    e->waiting[dest]++;
    e->replies_pending[i] = (pending_reply){.to = sender, .next_free = UINT32_MAX,
                                            .request_at = f->queued_at};
    sim_event ev = {.time = now + r->think, .target = dest, .type = ENGINE_EV_REPLY,
                    .phase = MAC_PHASE_READY, .arg = i};
    if (evq_push(e->q, &ev) != 0)
        e->no_memory = true;
}

/* The think time is over: the reply enters the server's queue. */
static void queue_reply(engine *e, uint32_t s, uint32_t i, sim_time now)
{
    pending_reply *p = &e->replies_pending[i];
    frame f = {.queued_at = now, .dest = p->to, .is_reply = true, .request_at = p->request_at};
    f.bytes = clamp_bytes(e, frame_size_draw(&group_of(e, s)->reply.size, &e->arrivals[s].r));
    p->next_free = e->free_pending;
    e->free_pending = i;
    e->waiting[s]--;
    enqueue(e, s, &f, now);
}

static int start(engine *e)
{
    if (e->net) {
        segnet_macs nc = {.queue = e->q, .seed = e->sc.seed, .refill = refill_saturated,
                          .refill_ctx = e, .classes = e->classes, .n_classes = e->n_groups,
                          .class_of = e->group_of, .on_rx = e->replies ? on_received : NULL,
                          .rx_ctx = e, .sinks = e->sinks, .sink_kinds = e->sink_kinds,
                          .n_sinks = e->n_sinks, .no_memory = &e->no_memory};
        if (segnet_start(e->net, &nc) != 0)
            return -1;
        goto built;
    }
    mac_config mc = {
        .phy = &e->sc.phy,
        .n_stations = e->sc.n_stations,
        .medium = e->med,
        .queue = e->q,
        .seed = e->sc.seed,
        .refill = refill_saturated,
        .refill_ctx = e,
        .classes = e->classes,
        .n_classes = e->n_groups,
        .class_of = e->group_of,
        .on_rx = e->replies ? on_received : NULL,
        .rx_ctx = e,
        .sinks = e->sinks,
        .sink_kinds = e->sink_kinds,
        .n_sinks = e->n_sinks,
        .no_memory = &e->no_memory,
    };
    if (mac_create(&mc, &e->mac) != 0)
        return -1;
built:
    e->started = true;
    e->free_pending = UINT32_MAX;
    for (uint32_t s = 0; s < e->sc.n_stations; s++) {
        const traffic_config *t = &group_of(e, s)->traffic;
        if (t->kind == TRAFFIC_BATCH) {
            for (uint32_t k = 0; k < t->batch_frames; k++) {
                frame f = new_frame(e, s, 0);
                enqueue(e, s, &f, 0);
            }
        } else if (t->kind == TRAFFIC_POISSON || t->kind == TRAFFIC_ONOFF) {
            schedule_arrival(e, s, 0);
        } else if (t->kind == TRAFFIC_PCAP) {
            schedule_replay(e, s);
        }
    }
    if (e->net)
        segnet_mac_start(e->net, 0);
    else
        mac_start(e->mac, 0);
    return 0;
}

int engine_start(engine *e, char *err, size_t errlen)
{
    if (e->started)
        return 0;
    if (start(e) != 0) {
        snprintf(err, errlen, "out of memory (building %u stations)", e->sc.n_stations);
        return -1;
    }
    return 0;
}

/* Every event before the warm-up has been handled, none at it yet. */
static void end_warmup(engine *e)
{
    for (uint32_t s = 0; s < e->sc.n_stations; s++)
        e->at_warmup[s] = *counters_of(e, s);
    e->collisions_at_warmup = run_collisions(e, e->sc.warmup);
    if (e->net)
        segnet_mark(e->net, e->sc.warmup);
    e->warm = true;
}

engine_status engine_run(engine *e, sim_time until, uint64_t max_events)
{
    if (!e->started && start(e) != 0)
        abort(); /* callers that can run out of memory call engine_start first */
    sim_time stop = until < e->sc.duration ? until : e->sc.duration;
    uint64_t handled = 0;
    /* read once: the loop's calls cannot change them, which the compiler
     * cannot tell */
    segnet *const net = e->net;
    /* The MAC of an event of a MAC type, by its arg's upper 32 bits (its
     * segment on a network, 0 on one medium). */
    mac *const *const macs = net ? segnet_macs_by_segment(net) : &e->mac;
    for (;;) {
        if (e->no_memory) /* the MACs and the network set it too */
            return ENGINE_OUT_OF_MEMORY;
        sim_event ev;
        if (max_events && handled == max_events) {
            const sim_event *top = evq_peek(e->q);
            if (top && top->time < stop)
                return ENGINE_RUNNING;
        }
        sim_time limit = !e->warm && e->sc.warmup < stop ? e->sc.warmup : stop;
        if (evq_pop_before(e->q, limit, &ev) != 0) {
            if (limit > e->now)
                e->now = limit;
            if (!e->warm && limit == e->sc.warmup) {
                end_warmup(e);
                continue;
            }
            if (stats_out_of_memory(e->stats)) {
                e->no_memory = true;
                return ENGINE_OUT_OF_MEMORY;
            }
            return e->now >= e->sc.duration ? ENGINE_DONE : ENGINE_RUNNING;
        }
        if (ev.time < e->now)
            abort(); /* time went backwards: a broken invariant */
        e->now = ev.time;
        e->events++;
        handled++;
        if (ev.type < MAC_EV_LIMIT) {
            /* one call site: the compiler inlines the MAC into this loop */
            mac_handle(macs[ev.arg >> 32], &ev);
        } else if (ev.type >= SEGNET_EV_FIRST) {
            segnet_handle(net, &ev);
        } else if (ev.type == ENGINE_EV_ARRIVAL) {
            frame f = new_frame(e, ev.target, ev.time);
            enqueue(e, ev.target, &f, ev.time);
            schedule_arrival(e, ev.target, ev.time);
        } else if (ev.type == ENGINE_EV_REPLAY) {
            uint32_t s = ev.target;
            const replay_frame *rf = &replay_frames(e->replay, s)[e->replay_next[s]++];
            frame f = {.queued_at = ev.time, .bytes = rf->bytes, .dest = rf->dest,
                       .payload = rf->payload, .payload_len = rf->payload_len};
            enqueue(e, s, &f, ev.time);
            schedule_replay(e, s);
        } else if (ev.type == ENGINE_EV_REPLY) {
            queue_reply(e, ev.target, (uint32_t)ev.arg, ev.time);
        }
    }
}

sim_time engine_now(const engine *e) { return e->now; }

sim_time engine_judge_ps(const engine *e)
{
    const phy_timing t = phy_timing_of(&e->sc.phy);
    return judge_ps(e, &t);
}

uint64_t engine_events(const engine *e) { return e->events; }
const scenario *engine_scenario(const engine *e) { return &e->sc; }
const medium *engine_medium(const engine *e) { return e->med; }
uint32_t engine_segment_count(const engine *e) { return e->net ? segnet_segment_count(e->net) : 0; }
sim_time engine_station_delay(const engine *e, uint32_t a, uint32_t b)
{
    return e->net ? segnet_station_delay(e->net, a, b) : medium_delay(e->med, a, b);
}

const medium *engine_segment_medium(const engine *e, uint32_t k)
{
    if (e->net == NULL)
        return k == 0 ? e->med : NULL;
    return k < segnet_segment_count(e->net) ? segnet_medium(e->net, k) : NULL;
}

uint64_t engine_slice_events(const engine *e, uint64_t last, uint64_t max_events)
{
    size_t signals = e->net ? segnet_signal_count(e->net) : medium_signal_count(e->med);
    uint64_t n = max_events / (1 + signals / 8);
    if (n > 2 * last + 16)
        n = 2 * last + 16;
    return n < 16 ? 16 : n;
}
const replay *engine_replay(const engine *e) { return e->replay; }

/* One group's measures: its statistics, and its stations' counters. */
static void group_results(engine *e, uint32_t g, uint64_t all_bits, group_result *out)
{
    const station_group *grp = scenario_group_at(&e->sc, g);
    results gr;
    memset(&gr, 0, sizeof gr);
    stats_fill(e->group_stats[g], e->now, unjudged_from(e), &gr, e->group_scratch);
    *out = (group_result){.name = grp->name, .first = grp->first, .stations = grp->count,
                          .offered_load = gr.offered_load, .throughput = gr.throughput,
                          .throughput_ci95 = gr.throughput_ci95,
                          .mean_delay_us = gr.mean_delay_us, .p99_delay_us = gr.p99_delay_us,
                          .jain_fairness = gr.jain_fairness};
    bool loaded = grp->traffic.kind == TRAFFIC_POISSON || grp->traffic.kind == TRAFFIC_ONOFF;
    out->load = loaded && grp->count > 0 ? grp->traffic.load : NAN; /* 0 stations: none */
    uint64_t bits = 0;
    for (uint32_t i = grp->first; i < grp->first + grp->count; i++) {
        const station_result *p = &e->per_station[i];
        bits += p->bits_delivered;
        out->frames_ok += p->c.frames_transmitted_ok;
        out->frames_offered += p->c.frames_offered;
        out->frames_aborted += p->c.frames_aborted_xs_colls + p->c.frames_late_discarded;
        out->frames_dropped += p->c.frames_dropped;
        out->frames_queued += p->queue_len;
    }
    out->share = all_bits ? (double)bits / (double)all_bits : NAN; /* 0/0: nothing delivered */
    stats_responses(e->group_stats[g], &out->responses, &out->response_mean_us,
                    &out->response_p99_us);
}

void engine_results(engine *e, results *r)
{
    memset(r, 0, sizeof *r);
    if (!e->started && start(e) != 0)
        abort(); /* callers that can run out of memory call engine_start first */
    uint32_t n = e->sc.n_stations;
    r->sim_time_s = sim_time_to_s(e->now);
    r->n_stations = n;
    r->events = e->events;
    /* Before the warm-up ends the window is empty: nothing counts yet. */
    for (uint32_t s = 0; s < n; s++) {
        station_result *p = &e->per_station[s];
        p->c = *counters_of(e, s);
        p->segment = scenario_station_segment(&e->sc, s);
        if (e->at_warmup && e->warm)
            mac_counters_since(&p->c, &e->at_warmup[s]);
        else if (e->at_warmup)
            p->c = (mac_counters){0};
        uint32_t tap;
        const mac *m = mac_of(e, s, &tap);
        p->queue_len = mac_queue_len(m, tap);
        r->frames_ok += p->c.frames_transmitted_ok;
        r->frames_offered += p->c.frames_offered;
        r->frames_aborted += p->c.frames_aborted_xs_colls;
        r->frames_late_discarded += p->c.frames_late_discarded;
        r->frames_dropped += p->c.frames_dropped;
        r->frames_queued += p->queue_len;
        r->frames_delivered += p->c.frames_delivered;
        r->frames_corrupted += p->c.frames_corrupted;
        r->attempts += p->c.attempts;
        r->collisions_seen += p->c.collisions;
        r->late_collisions += p->c.late_collisions;
    }
    r->collisions = e->warm ? run_collisions(e, e->now) - e->collisions_at_warmup : 0;
    /* No frame sent OK: no ratio (NAN, printed as null), however many
     * collisions there were. */
    r->collisions_per_frame =
        r->frames_ok ? (double)r->collisions / (double)r->frames_ok : NAN;
    stats_fill(e->stats, e->now, unjudged_from(e), r, e->per_station);
    if (r->completion_s >= 0 && r->frames_queued != 0)
        r->completion_s = -1; /* not every frame is done yet */
    r->stations = e->per_station;
    if (e->net)
        segnet_results(e->net, e->now, e->per_station, r);
    if (e->group_stats) {
        uint64_t all_bits = 0; /* the shares' denominator, as the stations' */
        for (uint32_t i = 0; i < n; i++)
            all_bits += e->per_station[i].bits_delivered;
        for (uint32_t g = 0; g < e->n_groups; g++)
            group_results(e, g, all_bits, &e->group_results[g]);
        r->n_groups = e->n_groups;
        r->groups = e->group_results;
    }
}

uint32_t engine_bridge_count(const engine *e) { return e->net ? segnet_bridge_count(e->net) : 0; }

uint32_t engine_bridge_port_count(const engine *e, uint32_t bridge)
{
    return e->net ? segnet_bridge_port_count(e->net, bridge) : 0;
}

int engine_bridge_port_now(const engine *e, uint32_t bridge, uint32_t port, segnet_port_now *out)
{
    if (!e->net || !e->started)
        return -1;
    return segnet_bridge_port_now(e->net, bridge, port, out);
}

void engine_station_view(const engine *e, uint32_t s, mac_station_view *out)
{
    if (!e->started) {
        memset(out, 0, sizeof *out);
        out->backoff_until = SIM_TIME_NEVER;
        return;
    }
    uint32_t tap;
    const mac *m = mac_of(e, s, &tap);
    mac_view(m, tap, out);
}

size_t engine_bytes(const engine *e)
{
    size_t topology = e->net ? segnet_bytes(e->net)
                             : medium_bytes(e->med) + (e->mac ? mac_bytes(e->mac) : 0);
    return sizeof *e + evq_bytes(e->q) + topology + stats_bytes(e->stats) +
           e->sc.n_stations * (sizeof *e->arrivals + sizeof *e->per_station +
                               (e->at_warmup ? sizeof *e->at_warmup : 0));
}
