/* test_counters.c - counters that add up, on random scenarios.
 *
 * Pins, on 40 scenarios drawn from a fixed seed (PHY, N, traffic kind,
 * frame sizes, destinations, queue capacity, load, bursting at 1 Gb/s):
 *  - every counter covers the window [warm-up, end) (half the scenarios
 *    have a warm-up): each is recomputed from the trace events at or after
 *    the warm-up, the event's instant being the counter's;
 *  - per station and in total: offered + held when the window opened =
 *    OK + aborted (excessive collisions) + discarded after a late
 *    collision (1 Gb/s) + dropped + still queued;
 *  - the Clause 30 counters against the trace, with their 5.2.4.2
 *    definitions: aFramesTransmittedOK = TX_OK events;
 *    aSingleCollisionFrames = TX_OK with attempts = 2,
 *    aMultipleCollisionFrames = TX_OK with attempts > 2;
 *    aOctetsTransmittedOK = data and pad octets of those frames
 *    (frame bytes - 18: DA, SA, length/type and FCS are not counted);
 *    aLateCollisions = late COLLISION events; aFramesAbortedDueToXSColls =
 *    ABORT events for excessive collisions; aFramesWithDeferredXmissions
 *    = frames sent whole at their first attempt that had to wait for
 *    deference (exactly, by the reference of model_util.c);
 *  - collisions seen = COLLISION events; attempts = frame TX_START events;
 *    offered = ARRIVAL + DROP events; dropped = DROP events;
 *    received ok / bad = DELIVER events by sender;
 *  - the totals in results are the sums over stations, throughput equals
 *    the delivered frame bits over the window, collisions per frame and
 *    the batch completion time follow from the trace;
 *  - the measures of the window [warm-up, end) recomputed from the trace
 *    (stations/MODEL.md, "Measures"): offered load (bits of frames generated,
 *    queued or dropped), mean and maximum delay (arrival to the end of the
 *    successful transmission), delivered bits and share per station, Jain's
 *    index over them, capture runs (consecutive successes by one station),
 *    and the median and 99th percentile of delay to within the
 *    histogram's stated 1/32;
 *  - collision events on the medium = connected sets of two or more
 *    transmissions whose signals overlap somewhere on the cable (bus) or at
 *    the hub (star), complete within the window, by brute force over every
 *    pair of transmissions;
 *  - every attempt, transmission and delivery also passes the timing
 *    reference of model_util.c (bursts included).
 *  - the sources offer the load asked for: Poisson G = 0.5 and on/off with
 *    the same long-run G, measured over a long run, within a tolerance
 *    justified below.
 * Does not pin: the confidence interval (batch means), broadcast delivery
 * counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_util.h"

/* The scenario generator's own stream: splitmix64, fixed seed. */
static uint64_t gen_state = 0x5eed2026u;
static uint64_t gen_next(void)
{
    uint64_t z = (gen_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t gen_below(uint32_t n) { return (uint32_t)(gen_next() % n); }

typedef struct sums {
    uint64_t ok, single, multiple, octets, late, coll, attempts, xs, late_disc, drops,
        arrivals, rx_ok, rx_bad, first_attempt_ok;
} sums;

static int cmp_time(const void *a, const void *b)
{
    sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
    return (x > y) - (x < y);
}

/* [a0, a1) and [b0, b1) overlap. */
static bool overlap(sim_time a0, sim_time a1, sim_time b0, sim_time b1)
{
    return a0 < b1 && b0 < a1;
}

/* Collision events on the medium by their definition
 * (medium/collision_events.h), by brute force: two transmissions are
 * linked when their signals overlap at some station (bus), or at the hub or
 * at one of the two stations (star); a connected set of two or more is one
 * event. It counts in [w0, end) when it became complete in it: complete at
 * t when, for every member, e + (the longest delay from its station to
 * another) < t and no transmission under way at t started after that.
 * Geometry from the scenario's metres (mu_delay), not from the medium. */
typedef struct ref_tx {
    uint32_t st;
    sim_time start, end;
    uint64_t id;
} ref_tx;

/* The earliest start of a transmission under way at t (started before it,
 * ending at or after it), or SIM_TIME_NEVER. */
static sim_time first_open_at(const ref_tx *v, size_t k, sim_time t)
{
    sim_time first = SIM_TIME_NEVER;
    for (size_t a = 0; a < k; a++)
        if (v[a].start < t && v[a].end >= t && v[a].start < first)
            first = v[a].start;
    return first;
}

static bool complete_at(size_t k, const sim_time *passed, size_t root, const size_t *parent_of,
                        sim_time t, sim_time first_open)
{
    for (size_t a = 0; a < k; a++)
        if (parent_of[a] == root && !(passed[a] < t && passed[a] <= first_open))
            return false;
    return true;
}

static uint64_t collision_events_ref(const scenario *sc, const mu_trace *t, sim_time w0,
                                     sim_time end)
{
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        k += t->ev[i].kind == TRACE_TX_START;
    ref_tx *v = calloc(k + 1, sizeof *v);
    size_t *parent = calloc(k + 1, sizeof *parent);
    sim_time *passed = calloc(k + 1, sizeof *passed);
    assert_true(v && parent && passed);
    k = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == TRACE_TX_START)
            v[k++] = (ref_tx){t->ev[i].station, t->ev[i].tx_start, SIM_TIME_NEVER, t->ev[i].tx_id};
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == TRACE_TX_END)
            for (size_t a = 0; a < k; a++)
                if (v[a].id == t->ev[i].tx_id)
                    v[a].end = t->ev[i].tx_end;
    const bool star = sc->phy.topology == TOPOLOGY_STAR;
    const uint32_t n = sc->n_stations;
    for (size_t a = 0; a < k; a++) {
        parent[a] = a;
        sim_time reach = 0;
        for (uint32_t j = 0; j < n; j++)
            if (j != v[a].st && mu_delay(sc, v[a].st, j) > reach)
                reach = mu_delay(sc, v[a].st, j);
        passed[a] = v[a].end == SIM_TIME_NEVER ? SIM_TIME_NEVER : v[a].end + reach;
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k && v[b].start < passed[a]; b++) {
            if (v[a].end == SIM_TIME_NEVER || v[b].end == SIM_TIME_NEVER)
                continue; /* judged when both have ended: never, in this run */
            bool linked = false;
            if (star) {
                sim_time da = mu_cable_ps(sc->phy.velocity_c, sc->positions_m[v[a].st]);
                sim_time db = mu_cable_ps(sc->phy.velocity_c, sc->positions_m[v[b].st]);
                linked = overlap(v[a].start + da, v[a].end + da, v[b].start + db, v[b].end + db);
            }
            const uint32_t at[2] = {v[a].st, v[b].st};
            for (uint32_t j = 0; j < (star ? 2u : n) && !linked; j++) {
                uint32_t obs = star ? at[j] : j;
                sim_time x = mu_delay(sc, v[a].st, obs), y = mu_delay(sc, v[b].st, obs);
                linked = overlap(v[a].start + x, v[a].end + x, v[b].start + y, v[b].end + y);
            }
            if (linked) {
                size_t x = a, y = b;
                while (parent[x] != x)
                    x = parent[x];
                while (parent[y] != y)
                    y = parent[y];
                parent[x] = y;
            }
        }
    size_t *root = calloc(k + 1, sizeof *root), *members = calloc(k + 1, sizeof *members);
    assert_true(root && members);
    for (size_t a = 0; a < k; a++) {
        size_t x = a;
        while (parent[x] != x)
            x = parent[x];
        root[a] = x;
        members[x]++;
    }
    uint64_t events = 0;
    const sim_time open_end = first_open_at(v, k, end), open_w0 = first_open_at(v, k, w0);
    for (size_t r = 0; r < k; r++)
        if (members[r] >= 2 && complete_at(k, passed, r, root, end, open_end) &&
            !(w0 > 0 && complete_at(k, passed, r, root, w0, open_w0)))
            events++;
    free(v);
    free(parent);
    free(passed);
    free(root);
    free(members);
    return events;
}

/* Throughput as stations/MODEL.md, "Measures", defines it, from the
 * trace alone: each frame received whole credits its bits evenly over its
 * span at the receiver (its transmission, TX_START to TX_END, shifted by
 * the wait from TX_END to DELIVER), over [warmup, E), where E is the
 * earliest start of a transmission not judged by the end (still under
 * way, or sent whole and not delivered yet), or the end. */
static double prorata_ref(const scenario *sc, const mu_trace *t, sim_time end)
{
    uint64_t max_id = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == TRACE_TX_START && t->ev[i].tx_id > max_id)
            max_id = t->ev[i].tx_id;
    sim_time *start = malloc((max_id + 1) * sizeof *start);
    sim_time *stop = malloc((max_id + 1) * sizeof *stop);
    bool *open = calloc(max_id + 1, sizeof *open);
    assert_true(start && stop && open);
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->kind == TRACE_TX_START) {
            start[ev->tx_id] = ev->tx_start;
            open[ev->tx_id] = true;
        } else if (ev->kind == TRACE_TX_END) {
            stop[ev->tx_id] = ev->time;
            /* A frame sent whole waits for its verdict. */
            open[ev->tx_id] = ev->tx_kind == TRACE_TX_FRAME && ev->jam_start == SIM_TIME_NEVER;
        } else if (ev->kind == TRACE_DELIVER) {
            open[ev->tx_id] = false;
        }
    }
    sim_time e = end;
    for (uint64_t id = 0; id <= max_id; id++)
        if (open[id] && start[id] < e)
            e = start[id];
    double bits = 0;
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->kind != TRACE_DELIVER || !ev->ok)
            continue;
        sim_time tail = ev->time - stop[ev->tx_id];
        sim_time a = start[ev->tx_id] + tail, b = ev->time;
        assert_int_equal(ev->tx_start, a);
        sim_time lo = a > sc->warmup ? a : sc->warmup, hi = b < e ? b : e;
        if (hi > lo)
            bits += 8.0 * ev->frame_bytes * (double)(hi - lo) / (double)(b - a);
    }
    free(start);
    free(stop);
    free(open);
    return e > sc->warmup ? bits / ((double)sc->phy.rate_bps * sim_time_to_s(e - sc->warmup)) : 0;
}

/* The window's measures, recomputed from the trace. */
static void check_measures(const scenario *sc, const mu_run *run)
{
    const mu_trace *t = &run->tr;
    const uint32_t n = sc->n_stations;
    const sim_time w0 = sc->warmup;
    const double window_s = sim_time_to_s(run->end - w0);
    const double cap = (double)sc->phy.rate_bps * window_s;
    uint64_t offered = 0, successes = 0, runs = 0, run_len = 0, run_max = 0;
    uint32_t run_st = UINT32_MAX;
    double dsum = 0;
    sim_time dmax = 0;
    size_t nd = 0;
    sim_time *delays = malloc((t->n + 1) * sizeof *delays);
    uint64_t *bits = calloc(n, sizeof *bits);
    assert_true(delays && bits);
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->time < w0)
            continue;
        if (ev->kind == TRACE_ARRIVAL || ev->kind == TRACE_DROP)
            offered += 8u * ev->frame_bytes;
        if (ev->kind == TRACE_TX_OK) {
            sim_time d = ev->time - ev->queued_at;
            assert_true(d > 0);
            dsum += (double)d;
            if (d > dmax)
                dmax = d;
            delays[nd++] = d;
            successes++;
            if (ev->station == run_st) {
                run_len++;
            } else {
                if (run_len)
                    runs++;
                run_st = ev->station;
                run_len = 1;
            }
            if (run_len > run_max)
                run_max = run_len;
        }
        if (ev->kind == TRACE_DELIVER && ev->ok)
            bits[ev->station] += 8u * ev->frame_bytes;
    }
    runs += run_len > 0;
    const results *r = &run->r;
    assert_true(fabs(r->measured_s - window_s) < 1e-12);
    assert_true(fabs(r->offered_load - offered / cap) <= 1e-12 + 1e-9 * (offered / cap));
    double sum = 0, sum2 = 0, total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += (double)bits[i];
    for (uint32_t i = 0; i < n; i++) {
        double x = (double)bits[i];
        assert_int_equal(run->st[i].bits_delivered, bits[i]);
        if (total > 0)
            assert_true(fabs(run->st[i].share - x / total) < 1e-12);
        else
            assert_true(isnan(run->st[i].share)); /* 0/0: undefined, never 0 */
        sum += x;
        sum2 += x * x;
    }
    if (sum2 > 0) {
        double jain = sum * sum / (n * sum2);
        assert_true(fabs(r->jain_fairness - jain) < 1e-12);
        assert_true(r->jain_fairness <= 1.0 + 1e-12);
    } else {
        assert_true(isnan(r->jain_fairness)); /* 0/0: undefined (src/engine/stats.c) */
    }
    if (successes > 0) {
        assert_true(fabs(r->mean_delay_us - dsum / (double)successes / 1e6) <
                    1e-9 * (1 + r->mean_delay_us));
        assert_true(fabs(r->max_delay_us - sim_time_to_us(dmax)) < 1e-9);
        assert_int_equal(r->capture_max_run, run_max);
        assert_true(fabs(r->capture_mean_run - (double)successes / (double)runs) < 1e-12);
        /* Percentiles: nearest rank, within the histogram's 1/32. */
        qsort(delays, nd, sizeof *delays, cmp_time);
        double p50 = sim_time_to_us(delays[(nd + 1) / 2 - 1]);
        double p99 = sim_time_to_us(delays[(nd * 99 + 99) / 100 - 1]);
        assert_true(fabs(r->p50_delay_us - p50) <= p50 / 32 + 1e-6);
        assert_true(fabs(r->p99_delay_us - p99) <= p99 / 32 + 1e-6);
        assert_true(r->p50_delay_us <= r->p99_delay_us + 1e-9);
        assert_true(r->p99_delay_us <= r->max_delay_us + 1e-9);
    } else { /* nothing sent: no delay and no capture run, never 0 */
        assert_true(isnan(r->mean_delay_us) && isnan(r->p50_delay_us));
        assert_true(isnan(r->p99_delay_us) && isnan(r->max_delay_us));
        assert_true(isnan(r->capture_mean_run));
    }
    free(delays);
    free(bits);
}

static size_t burst_frames; /* frames sent inside 1 Gb/s bursts, all runs */

static void check_one(int idx)
{
    static const char *const phys[] = {"10base5", "10base2", "10baset", "100basetx", "1000baset"};
    const char *phy = phys[gen_below(5)];
    const phy_params *pp = phy_profile_find(phy);
    assert_non_null(pp);
    uint32_t n = 2 + gen_below(19);
    traffic_kind kind = (traffic_kind)gen_below(4); /* saturated, poisson, onoff, batch */
    double *pos = calloc(n, sizeof *pos);
    assert_non_null(pos);
    for (uint32_t i = 0; i < n; i++)
        pos[i] = pp->topology == TOPOLOGY_BUS
                     ? pp->length_m * i / (n - 1)
                     : pp->length_m * (0.2 + 0.8 * gen_below(1000) / 1000.0);
    /* About 3 million bit times: long enough for queues to fill and
     * frames to collide many times, short enough for ASan. */
    sim_time dur = (sim_time)(3e6 / (double)pp->rate_bps * 1e12);
    scenario sc;
    mu_scenario(&sc, phy, n, pos, kind, 64 + gen_below(1455), dur, 1000 + (uint64_t)idx);
    switch (gen_below(3)) {
    case 0:
        break; /* fixed */
    case 1:
        sc.traffic.size.kind = FRAME_SIZE_RANGE;
        sc.traffic.size.min_bytes = 64;
        sc.traffic.size.max_bytes = 64 + gen_below(1455);
        break;
    default:
        sc.traffic.size.kind = FRAME_SIZE_MIX;
        sc.traffic.size.n_mix = 3;
        sc.traffic.size.mix_bytes[0] = 64;
        sc.traffic.size.mix_bytes[1] = 576;
        sc.traffic.size.mix_bytes[2] = 1518;
        sc.traffic.size.mix_weight[0] = 7;
        sc.traffic.size.mix_weight[1] = 4;
        sc.traffic.size.mix_weight[2] = 1;
        sc.traffic.size.min_bytes = 64;
        sc.traffic.size.max_bytes = 1518;
        break;
    }
    sc.traffic.dest = gen_below(2) ? DEST_RANDOM : DEST_SERVER;
    sc.traffic.server = gen_below(n);
    sc.traffic.load = 0.2 + 0.1 * gen_below(30);
    sc.traffic.batch_frames = 1 + gen_below(5);
    sc.traffic.on_mean_s = 0.2 * sim_time_to_s(dur);
    sc.traffic.off_mean_s = 0.3 * sim_time_to_s(dur);
    sc.queue_capacity = 1 + gen_below(16);
    sc.warmup = gen_below(2) ? dur / (2 + gen_below(4)) : 0;
    if (pp->topology == TOPOLOGY_BUS)
        sc.probe_m = pp->length_m * gen_below(101) / 100.0;
    if (pp->bursting)
        sc.phy.bursting = gen_below(2);
    print_message("scenario %d: %s N=%u kind=%d size=%d dest=%d G=%.1f q=%u burst=%d\n", idx,
                  phy, n, (int)kind, (int)sc.traffic.size.kind, (int)sc.traffic.dest,
                  sc.traffic.load, sc.queue_capacity, (int)sc.phy.bursting);

    mu_run run;
    mu_run_scenario(&sc, &run);
    const mu_trace *t = &run.tr;
    /* Counts of the window [warm-up, end) in s, of the warm-up in pre: a
     * counter counts an event at its trace event's instant
     * (stations/MODEL.md, "Counters"). */
    sums *s = calloc(n, sizeof *s), *pre = calloc(n, sizeof *pre);
    assert_true(s && pre);
    sim_time last_done = -1;
    uint64_t good_bits = 0;
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        assert_true(ev->station < n);
        sums *x = ev->time >= sc.warmup ? &s[ev->station] : &pre[ev->station];
        switch (ev->kind) {
        case TRACE_TX_OK:
            x->ok++;
            x->single += ev->attempt == 2;
            x->multiple += ev->attempt > 2;
            x->first_attempt_ok += ev->attempt == 1;
            assert_true(ev->frame_bytes >= 64 && ev->frame_bytes <= 1518);
            x->octets += ev->frame_bytes - 18u;
            last_done = ev->time;
            break;
        case TRACE_COLLISION:
            x->coll++;
            x->late += ev->late;
            break;
        case TRACE_TX_START:
            x->attempts += ev->tx_kind == TRACE_TX_FRAME;
            break;
        case TRACE_ABORT:
            if (ev->abort_reason == TRACE_ABORT_EXCESSIVE_COLLISIONS) {
                x->xs++;
                assert_int_equal(ev->attempt, sc.phy.attempt_limit);
            } else {
                x->late_disc++;
            }
            last_done = ev->time;
            break;
        case TRACE_DROP:
            x->drops++;
            break;
        case TRACE_ARRIVAL:
            x->arrivals++;
            break;
        case TRACE_DELIVER:
            if (ev->dest != TRACE_NO_DEST) {
                if (ev->ok) {
                    x->rx_ok++;
                    if (ev->time >= sc.warmup)
                        good_bits += 8u * ev->frame_bytes;
                } else {
                    x->rx_bad++;
                }
            }
            break;
        default:
            break;
        }
    }
    results tot = {0};
    uint64_t tot_held = 0;
    for (uint32_t i = 0; i < n; i++) {
        const mac_counters *c = &run.st[i].c;
        const sums *x = &s[i];
        /* frames held when the window opened: accepted minus done before */
        uint64_t held_at_warmup = pre[i].arrivals - pre[i].ok - pre[i].xs - pre[i].late_disc;
        assert_int_equal(c->frames_offered + held_at_warmup,
                         c->frames_transmitted_ok + c->frames_aborted_xs_colls +
                             c->frames_late_discarded + c->frames_dropped + run.st[i].queue_len);
        tot_held += held_at_warmup;
        assert_int_equal(c->frames_transmitted_ok, x->ok);
        assert_int_equal(c->single_collision_frames, x->single);
        assert_int_equal(c->multiple_collision_frames, x->multiple);
        assert_int_equal(c->octets_transmitted_ok, x->octets);
        assert_int_equal(c->late_collisions, x->late);
        assert_int_equal(c->collisions, x->coll);
        assert_int_equal(c->attempts, x->attempts);
        assert_int_equal(c->frames_aborted_xs_colls, x->xs);
        assert_int_equal(c->frames_late_discarded, x->late_disc);
        assert_int_equal(c->frames_dropped, x->drops);
        assert_int_equal(c->frames_offered, x->arrivals + x->drops);
        assert_true(c->frames_with_deferred_xmissions <= x->first_attempt_ok + x->late_disc);
        if (sc.traffic.dest != DEST_BROADCAST) {
            assert_int_equal(c->frames_delivered, x->rx_ok);
            assert_int_equal(c->frames_corrupted, x->rx_bad);
        }
        if (sc.phy.retry_late)
            assert_int_equal(c->frames_late_discarded, 0);
        tot.frames_offered += c->frames_offered;
        tot.frames_ok += c->frames_transmitted_ok;
        tot.frames_aborted += c->frames_aborted_xs_colls;
        tot.frames_late_discarded += c->frames_late_discarded;
        tot.frames_dropped += c->frames_dropped;
        tot.frames_queued += run.st[i].queue_len;
        tot.attempts += c->attempts;
        tot.collisions_seen += c->collisions;
        tot.late_collisions += c->late_collisions;
        tot.frames_delivered += c->frames_delivered;
        tot.frames_corrupted += c->frames_corrupted;
    }
    const results *r = &run.r;
    assert_int_equal(r->frames_offered, tot.frames_offered);
    assert_int_equal(r->frames_ok, tot.frames_ok);
    assert_int_equal(r->frames_aborted, tot.frames_aborted);
    assert_int_equal(r->frames_late_discarded, tot.frames_late_discarded);
    assert_int_equal(r->frames_dropped, tot.frames_dropped);
    assert_int_equal(r->frames_queued, tot.frames_queued);
    assert_int_equal(r->frames_offered + tot_held,
                     r->frames_ok + r->frames_aborted + r->frames_late_discarded +
                         r->frames_dropped + r->frames_queued);
    assert_int_equal(r->attempts, tot.attempts);
    assert_int_equal(r->collisions_seen, tot.collisions_seen);
    assert_int_equal(r->late_collisions, tot.late_collisions);
    assert_int_equal(r->collisions, collision_events_ref(&sc, t, sc.warmup, run.end));
    if (r->frames_ok > 0)
        assert_true(fabs(r->collisions_per_frame - (double)r->collisions / (double)r->frames_ok) <
                    1e-12);
    else
        assert_true(isnan(r->collisions_per_frame));
    if (sc.traffic.dest != DEST_BROADCAST) {
        assert_int_equal(r->frames_delivered, tot.frames_delivered);
        assert_int_equal(r->frames_corrupted, tot.frames_corrupted);
        (void)good_bits; /* whole frames by their verdict: the old rule */
        double want = prorata_ref(&sc, t, run.end);
        assert_true(fabs(r->throughput - want) <= 1e-12 + 1e-9 * want);
    }
    if (kind == TRAFFIC_BATCH) {
        if (r->frames_queued == 0 && last_done >= 0)
            assert_true(fabs(r->completion_s - sim_time_to_s(last_done)) < 1e-12);
        else
            assert_true(r->completion_s < 0);
    }
    check_measures(&sc, &run);
    mu_coverage cov;
    mu_check_model(&sc, &run, &cov);
    burst_frames += cov.burst_frames;
    free(s);
    free(pre);
    mu_run_free(&run);
    mu_scenario_free(&sc);
    free(pos);
}

static void test_counters_random(void **state)
{
    (void)state;
    for (int i = 0; i < 40; i++)
        check_one(i);
    assert_true(burst_frames > 0); /* the bursting runs did burst */
}

/* Offered load G = bits generated / (rate x time). Poisson, 10 stations,
 * G = 0.5, 512-byte frames (4096 bits), 5 s at 10 Mb/s: the number of
 * frames is Poisson with mean 0.5 x 1e7 x 5 / 4096 = 6103.5, sd 78.1 (1.28 %
 * of the mean); 5 sd = 6.4 %. On/off (exponential on and off periods of
 * 1 ms each, Poisson while on, same long-run G): about 2500 on/off cycles;
 * the fraction of time on has a relative sd near sqrt(2/2500) = 2.8 %, so
 * the tolerance is 12 % (4 sd). Queues of 100 000 frames: nothing dropped
 * (offered counts drops anyway). */
static void test_offered_load(void **state)
{
    (void)state;
    const traffic_kind kinds[2] = {TRAFFIC_POISSON, TRAFFIC_ONOFF};
    const double tol[2] = {0.064, 0.12};
    for (int k = 0; k < 2; k++) {
        scenario sc;
        mu_scenario(&sc, "10base5", 10, NULL, kinds[k], 512, 5 * SIM_PS_PER_S, 31);
        for (uint32_t i = 0; i < 10; i++)
            sc.positions_m[i] = 500.0 * i / 9;
        sc.phy.length_m = 500;
        sc.traffic.load = 0.5;
        sc.traffic.on_mean_s = 1e-3;
        sc.traffic.off_mean_s = 1e-3;
        sc.queue_capacity = 100000;
        mu_run run;
        mu_run_scenario(&sc, &run);
        print_message("%s: offered load %.4f (asked 0.5), throughput %.4f\n",
                      k ? "onoff" : "poisson", run.r.offered_load, run.r.throughput);
        assert_true(fabs(run.r.offered_load - 0.5) < 0.5 * tol[k]);
        assert_int_equal(run.r.frames_dropped, 0);
        mu_run_free(&run);
        mu_scenario_free(&sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_random),
        cmocka_unit_test(test_offered_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
