/* test_pcap_run.c - pins the traces of real runs, read back with libpcap.
 *
 * Pins, on runs of the engine with the pcap sink and a recording sink side
 * by side: one record per finished transmission attempt (whole frames ==
 * frames sent whole, fragments == collided attempts; on batch runs that
 * finish, records == frames_ok + collisions seen); stamps non-decreasing
 * and equal to probe_start rounded down; gaps between consecutive whole
 * frames at the probe never shorter than the interFrameGap (1 ns of slack
 * for the rounding); every whole frame's octets equal to the frame the
 * recording sink says was sent (addresses, header fields, pad, FCS); the
 * fragments of two stations starting together at a known distance as long
 * as the geometry predicts (the jam begins at max(delay, preamble end));
 * 1 Gb/s extension and bursts (extension bursts are not records);
 * --pcap-collisions no; byte-identical files for one seed whatever the
 * engine's slicing, different files for another seed.
 * Does not pin the MAC's timing itself (test_timing.c does) nor replay
 * (test_pcap_replay.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "engine.h"
#include "ethframe.h"
#include <math.h>

#include "scenario.h"
#include "pcap_read.h"
#include "pcap_sink.h"

static char dir[256];

static int setup_dir(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "run");
}

static int remove_dir(void **state)
{
    (void)state;
    tmpdir_remove(dir);
    return 0;
}

/* Every trace event of a run (payload pointers dropped: not kept). */
typedef struct rec_trace {
    trace_event *ev;
    size_t n, cap;
} rec_trace;

static void rec_sink(void *ctx, const trace_event *ev)
{
    rec_trace *t = ctx;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
        if (!t->ev)
            abort();
    }
    t->ev[t->n] = *ev;
    t->ev[t->n].payload = NULL;
    t->n++;
}

/* A scenario set field by field (no parser): `phy` unchanged but for the
 * cable, n stations evenly spaced over length_m (bus) or on drops of
 * length_m (star), fixed frames to random destinations, beb. */
static void make_scenario(scenario *sc, const char *phy, uint32_t n, double length_m,
                          traffic_kind kind, uint32_t frame_bytes, sim_time duration,
                          uint64_t seed)
{
    memset(sc, 0, sizeof *sc);
    const phy_params *p = phy_profile_find(phy);
    assert_non_null(p);
    sc->phy = *p;
    if (length_m >= 0)
        sc->phy.length_m = length_m;
    sc->n_stations = n;
    sc->positions_m = NULL;
    sc->probe_m = 0;
    sc->traffic.kind = kind;
    sc->traffic.load = 0.5;
    sc->traffic.size.kind = FRAME_SIZE_FIXED;
    sc->traffic.size.min_bytes = frame_bytes;
    sc->traffic.size.max_bytes = frame_bytes;
    sc->traffic.dest = DEST_RANDOM;
    sc->traffic.batch_frames = 1;
    sc->traffic.on_mean_s = 1e-3;
    sc->traffic.off_mean_s = 1e-3;
    snprintf(sc->policy, sizeof sc->policy, "beb");
    sc->queue_capacity = 64;
    sc->duration = duration;
    sc->seed = seed;
    sc->batches = 10;
}

typedef struct traced {
    rec_trace tr;
    results r;
    uint64_t pcap_frames, pcap_fragments;
} traced;

/* Runs sc with a pcap sink writing `name` (and a recording sink); slices
 * of max_events events when slice > 0. */
static void run_traced(const scenario *sc, const char *name, bool collisions, uint64_t slice,
                       traced *out, char *path, size_t pathlen)
{
    memset(out, 0, sizeof *out);
    snprintf(path, pathlen, "%s/%s", dir, name);
    engine *e = NULL;
    char err[512] = "";
    if (engine_create(sc, &e, err, sizeof err) != 0)
        fail_msg("engine_create: %s", err);
    pcap_sink *ps;
    pcap_sink_options po = {.collisions = collisions};
    pcap_sink_format f = {.linktype = PCAP_SINK_ETHERNET, .epoch_s = 0};
    if (pcap_sink_open_format(path, &engine_scenario(e)->phy, &po, &f, &ps, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(engine_add_sink(e, pcap_sink_trace(ps)), 0);
    trace_sink rec = {rec_sink, &out->tr, NULL};
    assert_int_equal(engine_add_sink(e, rec), 0);
    if (slice)
        while (engine_run(e, SIM_TIME_NEVER, slice) == ENGINE_RUNNING)
            ;
    else
        engine_run_all(e);
    engine_results(e, &out->r);
    out->pcap_frames = pcap_sink_frames(ps);
    out->pcap_fragments = pcap_sink_fragments(ps);
    if (pcap_sink_close(ps, err, sizeof err) != 0)
        fail_msg("%s", err);
    engine_destroy(e);
}

static int tx_end_cmp(const void *a, const void *b)
{
    const trace_event *x = *(const trace_event *const *)a, *y = *(const trace_event *const *)b;
    if (x->probe_start != y->probe_start)
        return x->probe_start < y->probe_start ? -1 : 1;
    return x->tx_id < y->tx_id ? -1 : x->tx_id > y->tx_id;
}

/* Checks a trace against what the recording sink saw. */
static void check_trace(const scenario *sc, const traced *t, const char *path, bool collisions)
{
    pcap_contents c;
    char err[512];
    if (pcap_read_all(path, &c, err, sizeof err) != 0)
        fail_msg("%s", err);

    /* The expected records: every TX_END of a frame attempt, in probe
     * order. TX_START carries what the frame said when it began. */
    size_t n_end = 0;
    const trace_event **ends = calloc(t->tr.n + 1, sizeof *ends);
    uint64_t whole = 0, collided = 0;
    for (size_t i = 0; i < t->tr.n; i++) {
        const trace_event *ev = &t->tr.ev[i];
        if (ev->kind != TRACE_TX_END || ev->tx_kind != TRACE_TX_FRAME)
            continue;
        if (ev->jam_start == SIM_TIME_NEVER)
            whole++;
        else
            collided++;
        if (ev->jam_start == SIM_TIME_NEVER || collisions)
            ends[n_end++] = ev;
    }
    qsort(ends, n_end, sizeof *ends, tx_end_cmp);
    /* TX_START by transmission id (ids are consecutive from 0). */
    uint64_t max_id = 0;
    for (size_t i = 0; i < t->tr.n; i++)
        if (t->tr.ev[i].kind == TRACE_TX_START && t->tr.ev[i].tx_id > max_id)
            max_id = t->tr.ev[i].tx_id;
    const trace_event **starts = calloc(max_id + 1, sizeof *starts);
    for (size_t i = 0; i < t->tr.n; i++)
        if (t->tr.ev[i].kind == TRACE_TX_START)
            starts[t->tr.ev[i].tx_id] = &t->tr.ev[i];
    assert_int_equal(c.n, n_end);
    assert_int_equal(t->pcap_frames, whole);
    assert_int_equal(t->pcap_fragments, collisions ? collided : 0);

    sim_time bit_ps = phy_bit_ps(&sc->phy);
    const trace_event *prev = NULL;
    int64_t prev_end_ns = 0;
    uint64_t gaps_checked = 0;
    uint8_t *buf = malloc(70000);
    for (size_t i = 0; i < c.n; i++) {
        const pcap_rec *r = &c.recs[i];
        const trace_event *ev = ends[i];
        assert_int_equal(r->ts_ns, ev->probe_start / 1000);
        if (i > 0)
            assert_true(r->ts_ns >= c.recs[i - 1].ts_ns);
        bool is_whole = ev->jam_start == SIM_TIME_NEVER;
        if (is_whole) {
            /* What the frame said when its attempt began. */
            assert_true(ev->tx_id <= max_id);
            const trace_event *st = starts[ev->tx_id];
            assert_non_null(st);
            ethframe_info info = {
                .station = ev->station,
                .dest = ev->dest == TRACE_NO_DEST ? ETHFRAME_BROADCAST : ev->dest,
                /* the station's frames counted from 1 */
                .frame_number = (ev->frame_id & ((UINT64_C(1) << 40) - 1)) + 1,
                .attempt = ev->attempt, .collisions = st->collisions,
                .backoff_slots = st->backoff_slots,
                .queued_ns = (uint64_t)((ev->tx_start - ev->queued_at) / 1000)};
            ethframe_build_synthetic(&info, ev->frame_bytes, buf);
            assert_int_equal(r->len, ev->frame_bytes);
            assert_int_equal(r->caplen, ev->frame_bytes);
            assert_memory_equal(r->data, buf, r->len);
            ethframe_header h;
            assert_int_equal(ethframe_parse(r->data, r->len, &h), 0);
            assert_int_equal(h.attempt, ev->attempt);
            assert_int_equal(h.station, ev->station + 1);
            assert_true(ethframe_fcs_ok(r->data, r->len));

            /* The gap since the previous record, if both were whole. At
             * 1 Gb/s a short frame's carrier is extended to slotTime. */
            uint64_t on_bits = (uint64_t)r->len * 8;
            if (sc->phy.extension && on_bits < sc->phy.slot_bits)
                on_bits = sc->phy.slot_bits;
            int64_t end_ns = r->ts_ns + (int64_t)((sc->phy.preamble_bits + on_bits) * bit_ps / 1000);
            if (prev && prev->jam_start == SIM_TIME_NEVER) {
                int64_t gap_ns = r->ts_ns - prev_end_ns;
                int64_t ifg_ns = (int64_t)sc->phy.ifg_bits * bit_ps / 1000;
                if (gap_ns < ifg_ns - 1)
                    fail_msg("record %zu: gap %lld ns after a whole frame, IFG %lld ns", i + 1,
                             (long long)gap_ns, (long long)ifg_ns);
                gaps_checked++;
            }
            prev_end_ns = end_ns;
        } else {
            uint64_t data_bits = ev->bits_on_wire - sc->phy.preamble_bits - sc->phy.jam_bits;
            assert_int_equal(r->len, ethframe_fragment_bytes(data_bits, sc->phy.jam_bits,
                                                             ev->frame_bytes));
            /* The jam names the sender and the attempt. */
            const uint8_t *j = r->data + r->len - 4;
            assert_true(j[0] == ETHFRAME_JAM_MARK || j[0] == ETHFRAME_JAM_MARK_ALT);
            assert_int_equal(j[1], ev->attempt);
            assert_int_equal((uint32_t)j[2] << 8 | j[3], ev->station + 1);
        }
        prev = ev;
    }
    if (whole > 10)
        assert_true(gaps_checked > 0);
    free(buf);
    free(starts);
    free(ends);
    pcap_contents_free(&c);
}

static void test_saturated_bus(void **state)
{
    (void)state;
    scenario sc;
    make_scenario(&sc, "10base5", 8, 500, TRAFFIC_SATURATED, 100, 20 * SIM_PS_PER_MS, 7);
    sc.probe_m = 200;
    traced t;
    char path[400];
    run_traced(&sc, "sat.pcap", true, 0, &t, path, sizeof path);
    assert_true(t.pcap_fragments > 10); /* the run did collide */
    assert_true(t.pcap_frames > 100);
    check_trace(&sc, &t, path, true);
    free(t.tr.ev);

    run_traced(&sc, "sat-frames.pcap", false, 0, &t, path, sizeof path);
    check_trace(&sc, &t, path, false);
    free(t.tr.ev);
    
}

static void test_star_and_gigabit(void **state)
{
    (void)state;
    const char *phys[] = {"10baset", "100basetx", "1000baset"};
    for (int k = 0; k < 3; k++) {
        scenario sc;
        make_scenario(&sc, phys[k], 6, -1, TRAFFIC_POISSON, 64 + 300 * k,
                    (k == 2 ? 2 : 10) * SIM_PS_PER_MS, 11);
        sc.traffic.load = 0.9;
        if (k == 2)
            sc.phy.bursting = false; /* extension only; bursts in test_gigabit_burst */
        traced t;
        char path[400], name[64];
        snprintf(name, sizeof name, "%s.pcap", phys[k]);
        run_traced(&sc, name, true, 0, &t, path, sizeof path);
        assert_true(t.pcap_frames > 20);
        check_trace(&sc, &t, path, true);
        free(t.tr.ev);
        
    }
}

/* 1 Gb/s with frame bursting: the extension that fills the gaps inside a
 * burst is not a record, and the frames of a burst are still a gap apart
 * at the probe. Frames of 600 octets are longer than slotTime (512
 * octets), so no carrier extension lengthens them. */
static void test_gigabit_burst(void **state)
{
    (void)state;
    scenario sc;
    make_scenario(&sc, "1000baset", 4, -1, TRAFFIC_POISSON, 600, 2 * SIM_PS_PER_MS, 17);
    sc.traffic.load = 0.95;
    traced t;
    char path[400];
    run_traced(&sc, "burst.pcap", true, 0, &t, path, sizeof path);
    uint64_t extensions = 0;
    for (size_t i = 0; i < t.tr.n; i++)
        extensions += t.tr.ev[i].kind == TRACE_TX_END && t.tr.ev[i].tx_kind == TRACE_TX_EXTENSION;
    assert_true(extensions > 0); /* the run did burst */
    check_trace(&sc, &t, path, true);
    free(t.tr.ev);
}

/* Two stations D metres apart, one frame each at t = 0: they collide at
 * once. Each detects the other's signal after the one-way delay d; the jam
 * begins at max(d, 64 bit times) (the preamble and SFD are finished
 * first) and lasts 32 bit times, so the fragment is
 * floor((max(d, 64 b) + 32 b) / b) - 64 bits long, in whole octets. The
 * probe at 0 m sees station 1's fragment at 0 and station 2's at d. */
static void test_fragment_geometry(void **state)
{
    (void)state;
    const double lengths[] = {500, 1500, 2500, 4000};
    for (int k = 0; k < 4; k++) {
        scenario sc;
        make_scenario(&sc, "10base5", 2, lengths[k], TRAFFIC_BATCH, 64, 50 * SIM_PS_PER_MS, 3);
        traced t;
        char path[400];
        run_traced(&sc, "pair.pcap", true, 0, &t, path, sizeof path);
        /* Batch runs finish: every attempt ended and is a record. */
        assert_int_equal(t.r.frames_ok, 2);
        assert_int_equal(t.pcap_frames, t.r.frames_ok);
        assert_int_equal(t.pcap_fragments, t.r.collisions_seen);
        check_trace(&sc, &t, path, true);

        sim_time bit = 100000;
        /* Thick coax: 0.77 c, rounded to the picosecond
         * (medium/README.md, "Topology and propagation"). */
        sim_time d = llround(lengths[k] / (0.77 * 299792458.0) * 1e12);
        sim_time jam_at = d > 64 * bit ? d : 64 * bit;
        uint32_t want = (uint32_t)(((jam_at + 32 * bit) / bit - 64) / 8);
        pcap_contents c;
        char err[512];
        assert_int_equal(pcap_read_all(path, &c, err, sizeof err), 0);
        assert_true(c.n >= 2);
        assert_int_equal(c.recs[0].ts_ns, 0);
        assert_int_equal(c.recs[0].len, want);
        assert_int_equal(c.recs[1].ts_ns, d / 1000);
        assert_int_equal(c.recs[1].len, want);
        if (lengths[k] <= 1500)
            assert_int_equal(want, 4); /* inside the preamble: only the jam */
        pcap_contents_free(&c);
        free(t.tr.ev);
        
    }
}

static void test_batch_counts(void **state)
{
    (void)state;
    scenario sc;
    make_scenario(&sc, "10base5", 16, 500, TRAFFIC_BATCH, 64, 200 * SIM_PS_PER_MS, 5);
    sc.traffic.batch_frames = 4;
    traced t;
    char path[400];
    run_traced(&sc, "batch.pcap", true, 0, &t, path, sizeof path);
    assert_true(t.r.completion_s > 0);
    assert_int_equal(t.pcap_frames + t.pcap_fragments, t.r.frames_ok + t.r.collisions_seen);
    assert_int_equal(t.pcap_frames, t.r.frames_ok);
    assert_int_equal(t.pcap_frames + t.pcap_fragments, t.r.attempts);
    check_trace(&sc, &t, path, true);
    free(t.tr.ev);
    
}

static void test_determinism(void **state)
{
    (void)state;
    scenario sc;
    make_scenario(&sc, "10base5", 12, 440, TRAFFIC_POISSON, 200, 10 * SIM_PS_PER_MS, 42);
    sc.traffic.load = 1.2;
    traced t;
    char a[400], b[400], c[400];
    run_traced(&sc, "det-a.pcap", true, 0, &t, a, sizeof a);
    free(t.tr.ev);
    run_traced(&sc, "det-b.pcap", true, 13, &t, b, sizeof b); /* 13-event slices */
    free(t.tr.ev);
    sc.seed = 43;
    run_traced(&sc, "det-c.pcap", true, 0, &t, c, sizeof c);
    free(t.tr.ev);
    size_t la, lb, lc;
    uint8_t *fa = read_file_bytes(a, &la), *fb = read_file_bytes(b, &lb),
            *fc = read_file_bytes(c, &lc);
    assert_true(la > 10000);
    assert_int_equal(la, lb);
    assert_memory_equal(fa, fb, la);
    assert_true(la != lc || memcmp(fa, fc, la) != 0);
    free(fa);
    free(fb);
    free(fc);
    
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saturated_bus),
        cmocka_unit_test(test_star_and_gigabit),
        cmocka_unit_test(test_fragment_geometry),
        cmocka_unit_test(test_batch_counts),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_gigabit_burst),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
