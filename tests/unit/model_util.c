/* model_util.c - the recording sink, scenario building and the independent
 * reference of the model's timing rules used by the model tests. See
 * model_util.h for what it pins and what it leaves out.
 *
 * The reference is written from stations/MODEL.md, medium/README.md and
 * the Pascal model of
 * IEEE 802.3 4.2.7/4.2.8 (Deference, TransmitLinkMgmt, WatchForCollision),
 * not from the engine: it shares no code with medium/ or stations/. Delays
 * come from the positions in metres (llround to the picosecond, as
 * medium/README.md, "Topology and propagation", states), so a wrong
 * delay in the engine shows up as a wrong instant.
 */
#include "model_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER SIM_TIME_NEVER

/* Equality with a message naming what was compared. */
#define MU_EQ(a, b, ...)                                                         \
    do {                                                                         \
        long long mu_a_ = (long long)(a), mu_b_ = (long long)(b);                \
        if (mu_a_ != mu_b_) {                                                    \
            print_error(__VA_ARGS__);                                            \
            print_error(": got %lld, expected %lld\n", mu_a_, mu_b_);            \
            fail();                                                              \
        }                                                                        \
    } while (0)

void mu_trace_sink(void *ctx, const trace_event *ev)
{
    mu_trace *t = ctx;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        trace_event *p = realloc(t->ev, cap * sizeof *p);
        if (!p)
            abort();
        t->ev = p;
        t->cap = cap;
    }
    t->ev[t->n] = *ev;
    t->ev[t->n].payload = NULL; /* owned by the engine; never kept */
    t->n++;
}

void mu_trace_free(mu_trace *t)
{
    free(t->ev);
    memset(t, 0, sizeof *t);
}

void mu_scenario(scenario *sc, const char *phy, uint32_t n, const double *positions_m,
                 traffic_kind kind, uint32_t frame_bytes, sim_time duration, uint64_t seed)
{
    memset(sc, 0, sizeof *sc);
    const phy_params *p = phy_profile_find(phy);
    assert_non_null(p);
    sc->phy = *p;
    sc->n_stations = n;
    /* n positions and a NaN after them: scenario_copy (src/model/scenario.c)
     * counts positions up to a NaN sentinel, although scenario.h only
     * promises n_stations entries. */
    sc->positions_m = calloc((size_t)n + 1, sizeof *sc->positions_m);
    assert_non_null(sc->positions_m);
    sc->positions_m[n] = NAN;
    sc->n_positions = n;
    double maxpos = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (positions_m)
            sc->positions_m[i] = positions_m[i];
        else if (sc->phy.topology == TOPOLOGY_STAR)
            sc->positions_m[i] = sc->phy.length_m;
        if (sc->positions_m[i] > maxpos)
            maxpos = sc->positions_m[i];
    }
    if (sc->phy.topology == TOPOLOGY_BUS)
        sc->phy.length_m = maxpos; /* the cable ends at the farthest station */
    sc->probe_m = 0;
    sc->traffic.kind = kind;
    sc->traffic.load = 0.5;
    sc->traffic.size.kind = FRAME_SIZE_FIXED;
    sc->traffic.size.min_bytes = frame_bytes;
    sc->traffic.size.max_bytes = frame_bytes;
    sc->traffic.dest = DEST_RANDOM;
    sc->traffic.server = 0;
    sc->traffic.batch_frames = 1;
    sc->traffic.on_mean_s = 1e-3;
    sc->traffic.off_mean_s = 1e-3;
    sc->pcap_path[0] = '\0';
    sc->pcap_time_scale = 1.0;
    sc->pcap_max_stations = 0;
    snprintf(sc->policy, sizeof sc->policy, "beb");
    sc->queue_capacity = 64;
    sc->duration = duration;
    sc->warmup = 0;
    sc->seed = seed;
    sc->batches = 10;
}

void mu_set_policy(scenario *sc, const char *spec)
{
    char err[512];
    snprintf(sc->policy, sizeof sc->policy, "%s", spec);
    if (backoff_spec_parse(sc->policy, &sc->policy_spec, err, sizeof err) != 0)
        fail_msg("%s", err);
}

void mu_scenario_free(scenario *sc)
{
    free(sc->positions_m);
    sc->positions_m = NULL;
    network_free(&sc->net);
}

void mu_run_scenario(const scenario *sc, mu_run *out)
{
    memset(out, 0, sizeof *out);
    engine *e = NULL;
    char err[512] = "";
    if (engine_create(sc, &e, err, sizeof err) != 0) {
        print_error("engine_create: %s\n", err);
        fail();
    }
    trace_sink sink = {mu_trace_sink, &out->tr, NULL};
    assert_int_equal(engine_add_sink(e, sink), 0);
    out->status = engine_run_all(e);
    out->end = engine_now(e);
    engine_results(e, &out->r);
    out->st = calloc(sc->n_stations ? sc->n_stations : 1, sizeof *out->st);
    assert_non_null(out->st);
    assert_int_equal(out->r.n_stations, sc->n_stations);
    memcpy(out->st, out->r.stations, sc->n_stations * sizeof *out->st);
    out->r.stations = out->st;
    /* a network's segments and repeaters, kept past the engine */
    out->seg = calloc(out->r.n_segments + 1, sizeof *out->seg);
    out->rep = calloc(out->r.n_repeaters + 1, sizeof *out->rep);
    assert_non_null(out->seg);
    assert_non_null(out->rep);
    if (out->r.n_segments)
        memcpy(out->seg, out->r.segments, out->r.n_segments * sizeof *out->seg);
    if (out->r.n_repeaters)
        memcpy(out->rep, out->r.repeaters, out->r.n_repeaters * sizeof *out->rep);
    for (uint32_t i = 0; i < out->r.n_segments; i++) /* names: the caller's scenario's */
        out->seg[i].name = sc->net.segments[i].name;
    for (uint32_t i = 0; i < out->r.n_repeaters; i++)
        out->rep[i].name = sc->net.repeaters[i].name;
    out->r.segments = out->seg;
    out->r.repeaters = out->rep;
    engine_destroy(e);
}

void mu_run_free(mu_run *run)
{
    mu_trace_free(&run->tr);
    free(run->st);
    free(run->seg);
    free(run->rep);
    memset(run, 0, sizeof *run);
}

sim_time mu_cable_ps(double velocity_c, double metres)
{
    return (sim_time)llround(metres / (velocity_c * 299792458.0) * 1e12);
}

sim_time mu_delay(const scenario *sc, uint32_t i, uint32_t j)
{
    if (i == j)
        return 0;
    assert_non_null(sc->positions_m);
    sim_time a = mu_cable_ps(sc->phy.velocity_c, sc->positions_m[i]);
    sim_time b = mu_cable_ps(sc->phy.velocity_c, sc->positions_m[j]);
    if (sc->phy.topology == TOPOLOGY_BUS)
        return a > b ? a - b : b - a;
    sim_time bit = (sim_time)(1000000000000ULL / sc->phy.rate_bps);
    return a + (sim_time)sc->phy.hub_delay_bits * bit + b;
}

const trace_event *mu_find(const mu_trace *t, trace_kind kind, uint32_t station, size_t nth)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == kind && (station == UINT32_MAX || t->ev[i].station == station)) {
            if (nth == 0)
                return &t->ev[i];
            nth--;
        }
    return NULL;
}

size_t mu_count(const mu_trace *t, trace_kind kind, uint32_t station)
{
    size_t c = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == kind && (station == UINT32_MAX || t->ev[i].station == station))
            c++;
    return c;
}

const trace_event *mu_find_frame(const mu_trace *t, trace_kind kind, uint64_t frame_id,
                                 uint32_t attempt)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].kind == kind && t->ev[i].frame_id == frame_id &&
            (attempt == 0 || t->ev[i].attempt == attempt))
            return &t->ev[i];
    return NULL;
}

/* ---- the reference ---------------------------------------------------- */

typedef struct ref_tx {
    uint64_t id;
    uint32_t st;
    trace_tx_kind kind;
    uint64_t frame_id;
    uint32_t attempt;
    uint32_t bytes;
    sim_time start, end; /* end NEVER while no TX_END was reported */
    sim_time queued_at;
    const trace_event *end_ev, *coll_ev, *jam_ev;
    const trace_event *bo;        /* the station's last BACKOFF before this start */
    const trace_event *prev_done; /* the station's last TX_OK/ABORT before this start */
    int64_t prev_tx;              /* the station's previous frame transmission, or -1 */
    int64_t prev_any;             /* the station's previous transmission of any kind */
    bool in_burst;                /* a frame sent in a burst, after an extension */
    bool waited;                  /* attempt 1: ready before it could start */
} ref_tx;

typedef struct ival {
    sim_time from, until;
    bool own;
} ival;

static int ival_cmp(const void *a, const void *b)
{
    const ival *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

static sim_time add_t(sim_time a, sim_time b)
{
    return (a == NEVER || b == NEVER) ? NEVER : a + b;
}

/* Carrier at one station as maximal runs: overlapping and touching signal
 * intervals merged (carrier never goes off inside a run). */
typedef struct carrier_run {
    sim_time s, e;
} carrier_run;

static size_t merge_runs(const ival *iv, size_t n, carrier_run *out)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (m > 0 && iv[k].from <= out[m - 1].e) {
            if (iv[k].until > out[m - 1].e)
                out[m - 1].e = iv[k].until;
        } else {
            out[m++] = (carrier_run){iv[k].from, iv[k].until};
        }
    }
    return m;
}

/* One deferral stretch of the Pascal Deference process: deferring is true
 * on (c, g): from the instant carrier appears until the gap's end. */
typedef struct stretch {
    sim_time c, g;
    bool restarted;      /* part 1 was restarted by carrier */
    bool part2_arrival;  /* carrier came back where it is ignored (part 2,
                            or anywhere in a single gap) */
    bool own_part1;      /* carrier came back in part 1 after own tx: ignored */
} stretch;

/* Whether one of the station's own signals (sorted by from) overlaps [c, off). */
static bool own_in(const ival *own, size_t n_own, sim_time c, sim_time off)
{
    size_t lo = 0, hi = n_own; /* first own with from >= off */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (own[mid].from < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Own transmissions never overlap one another, so only the last one
     * starting before off can reach past c. */
    return lo > 0 && own[lo - 1].until > c;
}

/* stations/MODEL.md, "Deference": the Pascal Deference process, run once over
 * a station's whole carrier history (its own transmissions included, at the
 * instants the trace gives): when carrier goes off the gap is timed; with
 * the two-part rule, carrier within the first p1 restarts it unless the
 * station transmitted during the carrier just ended (wasTransmitting);
 * carrier in the rest of the gap is ignored. Carrier still present when the
 * gap ends begins a new stretch at once (the process loops to "while not
 * carrierSense"). Returns the number of stretches written. */
static size_t deference_timeline(const carrier_run *r, size_t m, const ival *own, size_t n_own,
                                 sim_time ifg, sim_time p1, bool two_part, stretch *out)
{
    size_t i = 0, n = 0;
    sim_time t_free = INT64_MIN;
    while (i < m) {
        while (i < m && r[i].e <= t_free)
            i++; /* runs that began and ended inside the gap */
        if (i == m)
            break;
        stretch st = {.c = r[i].s > t_free ? r[i].s : t_free};
        sim_time off = r[i].e;
        bool was_tx = own_in(own, n_own, st.c, off);
        i++;
        if (off == SIM_TIME_NEVER) {
            st.g = SIM_TIME_NEVER;
            out[n++] = st;
            break;
        }
        if (two_part && !was_tx) {
            while (i < m && r[i].s < off + p1) {
                st.restarted = true;
                off = r[i].e;
                i++;
                if (off == SIM_TIME_NEVER)
                    break;
            }
        }
        st.g = add_t(off, ifg);
        if (i < m && r[i].s < st.g) {
            if (two_part && was_tx && r[i].s < off + p1)
                st.own_part1 = true;
            else
                st.part2_arrival = true;
        }
        out[n++] = st;
        t_free = st.g;
        if (t_free == SIM_TIME_NEVER)
            break;
    }
    return n;
}

typedef struct defer_info {
    bool ambiguous; /* ready exactly at a gap's end */
    bool waited;
    bool restarted, part2_ignored, own_part1_ignored;
} defer_info;

/* When a frame ready at R starts: at once if the station is not deferring
 * (a carrier that appears at that very instant does not stop it), else at
 * the end of the gap it is deferring to. */
static sim_time release_at(const stretch *st, size_t n, sim_time R, defer_info *info)
{
    memset(info, 0, sizeof *info);
    size_t lo = 0, hi = n; /* first stretch with c >= R */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (st[mid].c < R)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || R > st[lo - 1].g)
        return R;
    const stretch *x = &st[lo - 1];
    if (R == x->g) {
        info->ambiguous = true;
        return R;
    }
    info->waited = true;
    info->restarted = x->restarted;
    info->part2_ignored = x->part2_arrival;
    info->own_part1_ignored = x->own_part1;
    return x->g;
}

static int64_t find_tx(const ref_tx *tx, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tx[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n && tx[lo].id == id) ? (int64_t)lo : -1;
}

void mu_check_model(const scenario *sc, const mu_run *run, mu_coverage *cov)
{
    memset(cov, 0, sizeof *cov);
    const phy_params *p = &sc->phy;
    const uint32_t N = sc->n_stations;
    const sim_time bit = (sim_time)(1000000000000ULL / p->rate_bps);
    const sim_time preamble = (sim_time)p->preamble_bits * bit;
    const sim_time jam = (sim_time)p->jam_bits * bit;
    const sim_time slot = (sim_time)p->slot_bits * bit;
    const sim_time ifg = (sim_time)p->ifg_bits * bit;
    const sim_time p1 = (sim_time)p->ifg_part1_bits * bit;
    const mu_trace *t = &run->tr;

    sim_time maxd = 0;
    sim_time *d = calloc((size_t)N * N, sizeof *d);
    assert_non_null(d);
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t j = 0; j < N; j++) {
            d[(size_t)i * N + j] = mu_delay(sc, i, j);
            if (d[(size_t)i * N + j] > maxd)
                maxd = d[(size_t)i * N + j];
        }
    const sim_time max_len =
        preamble + (sim_time)(8u * p->max_frame_bytes + p->slot_bits + p->jam_bits) * bit;

    /* Transmissions, in order of start. */
    size_t ntx = 0;
    for (size_t i = 0; i < t->n; i++)
        ntx += t->ev[i].kind == TRACE_TX_START;
    ref_tx *tx = calloc(ntx ? ntx : 1, sizeof *tx);
    assert_non_null(tx);
    size_t k = 0;
    sim_time last_time = INT64_MIN;
    const trace_event **last_bo = calloc(N, sizeof *last_bo);
    const trace_event **last_done = calloc(N, sizeof *last_done);
    int64_t *last_tx = malloc(N * sizeof *last_tx), *last_any = malloc(N * sizeof *last_any);
    assert_true(last_bo && last_done && last_tx && last_any);
    for (uint32_t j = 0; j < N; j++)
        last_tx[j] = last_any[j] = -1;
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->time < last_time) { /* trace.h: reported in simulated order */
            print_error("event %zu (%s, station %u) at %lld reported after an event at %lld\n",
                        i, trace_kind_name(ev->kind), ev->station, (long long)ev->time,
                        (long long)last_time);
            fail();
        }
        last_time = ev->time;
        assert_true(ev->station < N);
        if (ev->kind == TRACE_BACKOFF)
            last_bo[ev->station] = ev;
        if (ev->kind == TRACE_TX_OK || ev->kind == TRACE_ABORT)
            last_done[ev->station] = ev;
        if (ev->kind != TRACE_TX_START)
            continue;
        if (k > 0)
            assert_true(ev->tx_id > tx[k - 1].id && ev->tx_start >= tx[k - 1].start);
        MU_EQ(ev->time, ev->tx_start, "tx %llu: TX_START time vs tx_start",
              (unsigned long long)ev->tx_id);
        tx[k] = (ref_tx){.id = ev->tx_id, .st = ev->station, .kind = ev->tx_kind,
                         .frame_id = ev->frame_id, .attempt = ev->attempt,
                         .bytes = ev->frame_bytes, .start = ev->tx_start, .end = NEVER,
                         .queued_at = ev->queued_at, .bo = last_bo[ev->station],
                         .prev_done = last_done[ev->station],
                         .prev_tx = last_tx[ev->station],
                         .prev_any = last_any[ev->station]};
        if (ev->tx_kind == TRACE_TX_FRAME)
            last_tx[ev->station] = (int64_t)k;
        last_any[ev->station] = (int64_t)k;
        k++;
    }
    free(last_bo);
    free(last_done);
    free(last_tx);
    free(last_any);
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->kind != TRACE_TX_END && ev->kind != TRACE_COLLISION && ev->kind != TRACE_JAM)
            continue;
        int64_t x = find_tx(tx, ntx, ev->tx_id);
        if (x < 0) {
            print_error("%s of unknown tx %llu\n", trace_kind_name(ev->kind),
                        (unsigned long long)ev->tx_id);
            fail();
        }
        if (ev->kind == TRACE_TX_END) {
            assert_null(tx[x].end_ev);
            tx[x].end_ev = ev;
            tx[x].end = ev->tx_end;
            MU_EQ(ev->time, ev->tx_end, "tx %llu: TX_END time vs tx_end",
                  (unsigned long long)ev->tx_id);
            /* The probe (medium/README.md, "The probe": at probe_m on a
             * bus, at the hub of a star, where a signal has crossed its
             * drop cable). */
            sim_time xs = mu_cable_ps(sc->phy.velocity_c, sc->positions_m[ev->station]);
            sim_time pd = sc->phy.topology == TOPOLOGY_STAR
                              ? xs
                              : xs - mu_cable_ps(sc->phy.velocity_c, sc->probe_m);
            MU_EQ(ev->probe_start, ev->tx_start + (pd < 0 ? -pd : pd),
                  "tx %llu: first bit at the probe", (unsigned long long)ev->tx_id);
        } else if (ev->kind == TRACE_JAM) {
            assert_null(tx[x].jam_ev);
            tx[x].jam_ev = ev;
        } else {
            assert_null(tx[x].coll_ev); /* one detect per transmission */
            tx[x].coll_ev = ev;
        }
    }

    /* Frames of a burst (1 Gb/s): they follow an extension of their own
     * station that ended, uncut, at their first bit. */
    for (size_t x = 0; x < ntx; x++) {
        ref_tx *a = &tx[x];
        if (a->kind != TRACE_TX_FRAME || a->prev_any < 0)
            continue;
        const ref_tx *e = &tx[a->prev_any];
        a->in_burst = e->kind == TRACE_TX_EXTENSION && e->end_ev &&
                      e->end_ev->jam_start == NEVER && e->end == a->start;
    }

    /* Signals at each station, sorted by arrival. */
    ival **iv = calloc(N, sizeof *iv);
    assert_non_null(iv);
    for (uint32_t j = 0; j < N; j++) {
        iv[j] = calloc(ntx ? ntx : 1, sizeof **iv);
        assert_non_null(iv[j]);
        for (size_t x = 0; x < ntx; x++) {
            sim_time dl = d[(size_t)tx[x].st * N + j];
            iv[j][x] = (ival){tx[x].start + dl, add_t(tx[x].end, dl), tx[x].st == j};
        }
        qsort(iv[j], ntx, sizeof **iv, ival_cmp);
    }

    /* The Deference process of each station, under the rule in force and
     * under the other one (to count attempts where the rule matters). */
    stretch **tl = calloc(N, sizeof *tl), **tl_alt = calloc(N, sizeof *tl_alt);
    size_t *n_tl = calloc(N, sizeof *n_tl), *n_tl_alt = calloc(N, sizeof *n_tl_alt);
    carrier_run *runs = calloc(ntx ? ntx : 1, sizeof *runs);
    ival *own = calloc(ntx ? ntx : 1, sizeof *own);
    assert_true(tl && tl_alt && n_tl && n_tl_alt && runs && own);
    for (uint32_t j = 0; j < N; j++) {
        size_t m = merge_runs(iv[j], ntx, runs), n_own = 0;
        for (size_t x = 0; x < ntx; x++)
            if (iv[j][x].own)
                own[n_own++] = iv[j][x];
        tl[j] = calloc(m ? m : 1, sizeof **tl);
        tl_alt[j] = calloc(m ? m : 1, sizeof **tl_alt);
        assert_true(tl[j] && tl_alt[j]);
        n_tl[j] = deference_timeline(runs, m, own, n_own, ifg, p1, p->two_part_deferral, tl[j]);
        n_tl_alt[j] =
            deference_timeline(runs, m, own, n_own, ifg, p1, !p->two_part_deferral, tl_alt[j]);
    }
    free(runs);
    free(own);

    /* 1. Collision detect, jam and the end of every frame transmission. */
    size_t y0 = 0; /* transmissions before tx[y0] ended before any signal matters */
    for (size_t x = 0; x < ntx; x++) {
        ref_tx *a = &tx[x];
        if (!a->end_ev)
            continue;
        const bool ext_tx = a->kind == TRACE_TX_EXTENSION;
        /* A frame: preamble/SFD and DA..FCS, extended to slotTime unless it
         * is in a burst (4.2.3.4); a burst's gap: interPacketGap bits of
         * extension (interPacketSignal). */
        uint32_t body_bits = 8u * a->bytes;
        if (p->extension && !a->in_burst && body_bits < p->slot_bits)
            body_bits = p->slot_bits;
        sim_time natural_end =
            ext_tx ? a->start + ifg : a->start + preamble + (sim_time)body_bits * bit;
        if (ext_tx) {
            /* It fills the gap right after its station's whole frame. */
            assert_true(a->prev_any >= 0);
            const ref_tx *f = &tx[a->prev_any];
            assert_int_equal(f->kind, TRACE_TX_FRAME);
            assert_non_null(f->end_ev);
            MU_EQ(f->end_ev->jam_start, NEVER, "tx %llu: an extension after a cut frame",
                  (unsigned long long)a->id);
            MU_EQ(a->start, f->end, "tx %llu: the extension starts as the frame ends",
                  (unsigned long long)a->id);
        }
        sim_time tc = NEVER;
        bool tie = false;
        while (y0 < x && tx[y0].start + max_len + maxd < a->start)
            y0++;
        for (size_t y = y0; y < ntx; y++) {
            const ref_tx *b = &tx[y];
            if (b->start > natural_end)
                break;
            if (b->st == a->st)
                continue;
            sim_time dl = d[(size_t)b->st * N + a->st];
            sim_time lo = b->start + dl > a->start ? b->start + dl : a->start;
            sim_time hi = add_t(b->end, dl);
            if (hi > natural_end)
                hi = natural_end;
            if (lo < hi && lo < tc) {
                tc = lo;
                tie = b->start + dl == a->start;
            }
        }
        cov->whole_checked += tc == NEVER;
        if (tc == NEVER) {
            assert_null(a->jam_ev);
            if (a->coll_ev) {
                print_error("tx %llu (station %u, start %lld): collision reported at %lld "
                            "but no foreign signal reaches it before %lld\n",
                            (unsigned long long)a->id, a->st, (long long)a->start,
                            (long long)a->coll_ev->time, (long long)natural_end);
                fail();
            }
            MU_EQ(a->end_ev->jam_start, NEVER, "tx %llu: jam_start of a whole frame",
                  (unsigned long long)a->id);
            MU_EQ(a->end, natural_end, "tx %llu (station %u, start %lld): end of a whole frame",
                  (unsigned long long)a->id, a->st, (long long)a->start);
            if (ext_tx)
                MU_EQ(a->end_ev->bits_on_wire, p->ifg_bits, "tx %llu: bits of an extension",
                      (unsigned long long)a->id);
            else if (!p->extension || a->in_burst)
                MU_EQ(a->end_ev->bits_on_wire, p->preamble_bits + 8u * a->bytes,
                      "tx %llu: bits on the wire of a whole frame", (unsigned long long)a->id);
            continue;
        }
        cov->collisions_checked++;
        cov->tie_at_gap_end += tie;
        if (!a->coll_ev) {
            print_error("tx %llu (station %u, start %lld): a foreign signal arrives at %lld "
                        "but no collision was reported\n",
                        (unsigned long long)a->id, a->st, (long long)a->start, (long long)tc);
            fail();
        }
        MU_EQ(a->coll_ev->time, tc, "tx %llu (station %u, start %lld): collision detect",
              (unsigned long long)a->id, a->st, (long long)a->start);
        /* The preamble/SFD is finished first (4.2.3.2.4); an extension has
         * none: the jam starts at once. */
        sim_time pre_end = ext_tx ? a->start : a->start + preamble;
        sim_time js = tc > pre_end ? tc : pre_end;
        cov->collisions_in_preamble += tc < pre_end;
        MU_EQ(a->end_ev->jam_start, js, "tx %llu (station %u, detect %lld): jam start",
              (unsigned long long)a->id, a->st, (long long)tc);
        MU_EQ(a->end, js + jam, "tx %llu (station %u): end of jam", (unsigned long long)a->id,
              a->st);
        /* JAM: reported when decided, at the detect (trace.h). */
        assert_non_null(a->jam_ev);
        MU_EQ(a->jam_ev->time, tc, "tx %llu: JAM reported at the detect",
              (unsigned long long)a->id);
        MU_EQ(a->jam_ev->jam_start, js, "tx %llu: JAM jam_start", (unsigned long long)a->id);
        MU_EQ(a->jam_ev->tx_end, js + jam, "tx %llu: JAM tx_end", (unsigned long long)a->id);
        MU_EQ(a->end_ev->bits_on_wire, (js + jam - a->start) / bit,
              "tx %llu: bits on the wire of a fragment", (unsigned long long)a->id);
        if (ext_tx || a->in_burst) {
            /* 4.2.3.2.7: every collision after a burst's first frame is late. */
            MU_EQ(a->coll_ev->late, true, "tx %llu: a collision in a burst is late",
                  (unsigned long long)a->id);
            cov->late_collisions++;
        } else if (tc - a->start != slot) {
            bool late = tc - a->start > slot;
            MU_EQ(a->coll_ev->late, late, "tx %llu: late flag (detect %lld after start)",
                  (unsigned long long)a->id, (long long)(tc - a->start));
            cov->late_collisions += late;
        }
    }

    /* 2. Deference: every frame attempt starts when the reference says. */
    for (size_t x = 0; x < ntx; x++) {
        ref_tx *a = &tx[x];
        if (a->kind != TRACE_TX_FRAME)
            continue;
        if (a->in_burst) { /* no deference inside a burst */
            cov->burst_frames++;
            continue;
        }
        sim_time R;
        if (a->attempt >= 2) {
            /* A retry: ready when the backoff drawn after the previous
             * attempt's collision ends, counted from the end of its jam. */
            assert_true(a->prev_tx >= 0);
            const ref_tx *prev = &tx[a->prev_tx];
            MU_EQ(prev->frame_id, a->frame_id, "tx %llu: a retry follows its own frame",
                  (unsigned long long)a->id);
            MU_EQ(prev->attempt, a->attempt - 1, "frame %llx: attempts are consecutive",
                  (unsigned long long)a->frame_id);
            assert_non_null(prev->end_ev);
            assert_non_null(prev->coll_ev);
            const trace_event *bo = a->bo;
            assert_non_null(bo);
            MU_EQ(bo->frame_id, a->frame_id, "tx %llu: the backoff belongs to the frame",
                  (unsigned long long)a->id);
            MU_EQ(bo->collisions, a->attempt - 1, "frame %llx: collisions at the backoff",
                  (unsigned long long)a->frame_id);
            R = prev->end + bo->backoff_ps;
        } else {
            /* A new frame: ready when it arrived, but not before the
             * station's previous frame was done (transmitOK or given up). */
            R = a->queued_at;
            if (a->prev_tx >= 0) {
                const trace_event *done = a->prev_done;
                assert_non_null(done);
                MU_EQ(done->frame_id, tx[a->prev_tx].frame_id,
                      "tx %llu: the previous frame was done first", (unsigned long long)a->id);
                if (done->time > R)
                    R = done->time;
            }
        }
        defer_info di, other;
        sim_time want = release_at(tl[a->st], n_tl[a->st], R, &di);
        a->waited = a->attempt == 1 && a->start > R;
        if (di.ambiguous) {
            cov->deference_skipped++;
            continue;
        }
        cov->attempts_checked++;
        if (want != a->start) {
            print_error("station %u frame %llx attempt %u: ready at %lld, the reference "
                        "starts it at %lld (two-part %d)\n",
                        a->st, (unsigned long long)a->frame_id, a->attempt, (long long)R,
                        (long long)want, p->two_part_deferral);
        }
        MU_EQ(a->start, want, "station %u frame %llx attempt %u: start", a->st,
              (unsigned long long)a->frame_id, a->attempt);
        sim_time alt = release_at(tl_alt[a->st], n_tl_alt[a->st], R, &other);
        cov->two_part_differs += alt != want;
        cov->at_once += !di.waited;
        cov->waited += di.waited;
        cov->restarts += di.restarted;
        cov->part2_ignored += di.part2_ignored;
        cov->own_part1_ignored += di.own_part1_ignored;
    }

    /* aFramesWithDeferredXmissions (30.3.1.1.9; 5.2.4.2 "deferred and
     * attempts = 1"): frames sent at their first attempt that had to wait
     * for deference when they became ready (in a burst nothing waits),
     * counted when the frame's last bit leaves, inside the window. */
    uint64_t *deferred = calloc(N, sizeof *deferred);
    assert_non_null(deferred);
    for (size_t x = 0; x < ntx; x++) {
        const ref_tx *a = &tx[x];
        if (a->kind == TRACE_TX_FRAME && a->attempt == 1 && a->waited && a->end_ev &&
            a->end_ev->jam_start == NEVER && a->end_ev->time >= sc->warmup)
            deferred[a->st]++;
    }
    for (uint32_t j = 0; j < N; j++)
        MU_EQ(run->st[j].c.frames_with_deferred_xmissions, deferred[j],
              "station %u: aFramesWithDeferredXmissions", j);
    free(deferred);

    /* 3. Reception. */
    for (size_t i = 0; i < t->n; i++) {
        const trace_event *ev = &t->ev[i];
        if (ev->kind != TRACE_DELIVER || ev->dest == TRACE_NO_DEST)
            continue;
        const ref_tx *a = NULL;
        for (size_t x = ntx; x-- > 0;)
            if (tx[x].frame_id == ev->frame_id && tx[x].kind == TRACE_TX_FRAME) {
                a = &tx[x];
                break;
            }
        assert_non_null(a);
        assert_non_null(a->end_ev);
        MU_EQ(a->end_ev->jam_start, NEVER, "frame %llx delivered but its last attempt was cut",
              (unsigned long long)ev->frame_id);
        uint32_t j = ev->dest;
        assert_true(j < N && j != a->st);
        sim_time dl = d[(size_t)a->st * N + j];
        MU_EQ(ev->time, a->end + dl, "frame %llx: delivery instant at station %u",
              (unsigned long long)ev->frame_id, j);
        sim_time lo = a->start + dl, hi = a->end + dl;
        bool overlapped = false;
        for (size_t y = 0; y < ntx && tx[y].start <= hi; y++) {
            if (&tx[y] == a)
                continue;
            sim_time dy = d[(size_t)tx[y].st * N + j];
            sim_time blo = tx[y].start + dy, bhi = add_t(tx[y].end, dy);
            if ((blo > lo ? blo : lo) < (bhi < hi ? bhi : hi))
                overlapped = true;
        }
        MU_EQ(ev->ok, !overlapped, "frame %llx from %u to %u (received %lld..%lld): ok",
              (unsigned long long)ev->frame_id, a->st, j, (long long)lo, (long long)hi);
        cov->deliveries_checked++;
        cov->deliveries_bad += overlapped;
    }
    /* Every whole transmission whose last bit reached its destination before
     * the end was delivered (so the checks above ran on all of them). */
    for (size_t x = 0; x < ntx; x++) {
        const ref_tx *a = &tx[x];
        if (a->kind != TRACE_TX_FRAME || !a->end_ev || a->end_ev->jam_start != NEVER)
            continue;
        const trace_event *ok = mu_find_frame(t, TRACE_TX_OK, a->frame_id, 0);
        if (!ok) {
            print_error("frame %llx was sent whole at %lld but has no TX_OK\n",
                        (unsigned long long)a->frame_id, (long long)a->end);
            fail();
        }
        MU_EQ(ok->attempt, a->attempt, "frame %llx: TX_OK attempt",
              (unsigned long long)a->frame_id);
        if (a->end + maxd < run->end && mu_find_frame(t, TRACE_DELIVER, a->frame_id, 0) == NULL) {
            print_error("frame %llx was sent whole at %lld but never delivered\n",
                        (unsigned long long)a->frame_id, (long long)a->end);
            fail();
        }
    }

    for (uint32_t j = 0; j < N; j++) {
        free(iv[j]);
        free(tl[j]);
        free(tl_alt[j]);
    }
    free(iv);
    free(tl);
    free(tl_alt);
    free(n_tl);
    free(n_tl_alt);
    free(tx);
    free(d);
}

/* ---- statistics ---------------------------------------------------- */

/* Regularized upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a). */
static double gamma_q(double a, double x)
{
    if (x <= 0)
        return 1.0;
    double lead = exp(-x + a * log(x) - lgamma(a));
    if (x < a + 1) { /* series for P(a, x) */
        double ap = a, sum = 1.0 / a, del = sum;
        for (int n = 0; n < 100000; n++) {
            ap += 1;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * 1e-15)
                break;
        }
        return 1.0 - sum * lead;
    }
    /* Continued fraction (modified Lentz). */
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 100000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return lead * h;
}

double mu_chi2_pvalue(double stat, unsigned df)
{
    return gamma_q(df / 2.0, stat / 2.0);
}
