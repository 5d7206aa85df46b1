/* test_pcap_replay.c - pins capture replay through the engine
 * (--traffic pcap:FILE), read back from the pcap sink.
 *
 * Pins: on an idle 10 Mb/s bus the committed capture captures/lan-small.pcap
 * (17 frames, 2.5 ms apart, four talkers) comes out as the same 17 frames in
 * the same order, every octet kept (then zero pad and a valid FCS), each
 * sent the instant it arrived: stamped at its capture time relative to the
 * first frame plus the propagation to the probe, never more; the station
 * count is the number of source addresses. On a busy network (a capture
 * generated here: 12 talkers, 3000 frames at about twice the channel's
 * capacity, a queue of 8 frames) every frame the reader kept is accounted
 * for: offered == loaded == sent OK + aborted + dropped + still queued, the
 * trace holds one whole frame per frame sent OK, and each station's frames
 * leave in the order they were captured. Does not pin the reader's
 * mapping rules (test_replay.c does).
 */
#include <dirent.h>
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
#include <pcap/pcap.h>

#include "engine.h"
#include "ethframe.h"
#include "pcap_read.h"
#include "pcap_sink.h"
#include "replay.h"
#include "scenario.h"

#ifndef CSMACD_SOURCE_DIR
#error "CSMACD_SOURCE_DIR must name the source tree"
#endif

static char dir[256];

static int setup_dir(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "preplay");
}

static int remove_dir(void **state)
{
    (void)state;
    tmpdir_remove(dir);
    return 0;
}

/* A replay scenario set field by field: 10base5, 500 m, probe at 0 m. */
static void replay_scenario(scenario *sc, const char *capture, sim_time duration,
                            uint32_t queue)
{
    memset(sc, 0, sizeof *sc);
    sc->phy = *phy_profile_find("10base5");
    sc->n_stations = 2; /* replaced by the capture's talkers */
    sc->traffic.kind = TRAFFIC_PCAP;
    sc->traffic.size.kind = FRAME_SIZE_FIXED;
    sc->traffic.size.min_bytes = sc->traffic.size.max_bytes = 64;
    sc->traffic.dest = DEST_RANDOM;
    snprintf(sc->pcap_path, sizeof sc->pcap_path, "%s", capture);
    snprintf(sc->policy, sizeof sc->policy, "beb");
    sc->queue_capacity = queue;
    sc->duration = duration;
    sc->seed = 9;
    sc->batches = 10;
}

typedef struct replayed_run {
    results r;
    uint32_t n_stations;
    pcap_contents out;
} replayed_run;

static void run_replay(const scenario *sc, const char *name, replayed_run *out)
{
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    engine *e;
    if (engine_create(sc, &e, err, sizeof err) != 0)
        fail_msg("engine_create: %s", err);
    pcap_sink *ps;
    pcap_sink_options po = {.collisions = true};
    pcap_sink_format f = {.linktype = PCAP_SINK_ETHERNET, .epoch_s = 0};
    if (pcap_sink_open_format(path, &engine_scenario(e)->phy, &po, &f, &ps, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(engine_add_sink(e, pcap_sink_trace(ps)), 0);
    engine_run_all(e);
    engine_results(e, &out->r);
    out->n_stations = engine_scenario(e)->n_stations;
    if (pcap_sink_close(ps, err, sizeof err) != 0)
        fail_msg("%s", err);
    engine_destroy(e);
    if (pcap_read_all(path, &out->out, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_idle_network(void **state)
{
    (void)state;
    const char *capture = CSMACD_SOURCE_DIR "/captures/lan-small.pcap";
    pcap_contents in;
    char err[512];
    if (pcap_read_all(capture, &in, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(in.n, 17);

    scenario sc;
    replay_scenario(&sc, capture, 100 * SIM_PS_PER_MS, 64);
    replayed_run run;
    run_replay(&sc, "idle.pcap", &run);
    assert_int_equal(run.n_stations, 4); /* the printer never speaks */
    assert_int_equal(run.r.frames_offered, 17);
    assert_int_equal(run.r.frames_ok, 17);
    assert_int_equal(run.r.collisions_seen, 0);
    assert_int_equal(run.out.n, 17);

    /* Stations sit evenly on 500 m of thick coax, the probe at 0 m: the
     * farthest is 500 / (0.77 c) = 2166 ns away. */
    const int64_t max_delay_ns = 2166;
    for (size_t i = 0; i < 17; i++) {
        const pcap_rec *a = &in.recs[i], *b = &run.out.recs[i];
        uint32_t want_len = a->len + 4 < 64 ? 64 : a->len + 4;
        assert_int_equal(b->len, want_len);
        assert_memory_equal(b->data, a->data, a->len);
        for (uint32_t k = a->len; k < want_len - 4; k++)
            assert_int_equal(b->data[k], 0);
        assert_true(ethframe_fcs_ok(b->data, b->len));
        int64_t rel_ns = a->ts_ns - in.recs[0].ts_ns;
        if (b->ts_ns < rel_ns || b->ts_ns > rel_ns + max_delay_ns)
            fail_msg("frame %zu: stamped %lld ns, captured at %lld ns", i + 1,
                     (long long)b->ts_ns, (long long)rel_ns);
    }
    pcap_contents_free(&in);
    pcap_contents_free(&run.out);
}

/* 12 talkers, 3000 frames of 64 to 1518 octets, exponential gaps giving
 * about twice what 10 Mb/s carries. */
static void write_busy_capture(const char *path, pcap_contents *frames_out)
{
    pcap_t *dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
                                                        PCAP_TSTAMP_PRECISION_NANO);
    pcap_dumper_t *d = pcap_dump_open(dead, path);
    assert_non_null(d);
    uint64_t x = 88172645463325252u;
    int64_t t = 0;
    uint8_t f[1514];
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t len = 60 + (uint32_t)(x % 1455);  /* 60..1514 without FCS */
        uint32_t src = (uint32_t)(x >> 20) % 12, dst = (uint32_t)(x >> 28) % 12;
        /* Mean frame ~800 octets = 640 us at 10 Mb/s; mean gap 320 us. */
        t += (int64_t)((x >> 33) % 640000);
        uint8_t da[6] = {0x00, 0x1b, 0x21, 0x00, 0x01, (uint8_t)dst};
        uint8_t sa[6] = {0x00, 0x1b, 0x21, 0x00, 0x01, (uint8_t)src};
        memcpy(f, da, 6);
        memcpy(f + 6, sa, 6);
        f[12] = 0x08, f[13] = 0x00;
        for (uint32_t k = 14; k < len; k++)
            f[k] = (uint8_t)(i * 7 + k);
        memcpy(f + 14, &i, sizeof i); /* a serial number in every frame */
        struct pcap_pkthdr h = {.caplen = len, .len = len};
        h.ts.tv_sec = (time_t)(t / 1000000000);
        h.ts.tv_usec = (suseconds_t)(t % 1000000000);
        pcap_dump((u_char *)d, &h, f);
    }
    pcap_dump_close(d);
    pcap_close(dead);
    char err[512];
    assert_int_equal(pcap_read_all(path, frames_out, err, sizeof err), 0);
}

static void test_busy_network(void **state)
{
    (void)state;
    char capture[400];
    snprintf(capture, sizeof capture, "%s/busy-in.pcap", dir);
    pcap_contents in;
    write_busy_capture(capture, &in);

    scenario sc;
    /* Half the capture's span: frames are still queued at the end. */
    replay_scenario(&sc, capture, 500 * SIM_PS_PER_MS, 8);
    replayed_run run;
    run_replay(&sc, "busy.pcap", &run);
    const results *r = &run.r;
    assert_int_equal(run.n_stations, 12);
    assert_true(r->frames_offered > 1000 && r->frames_offered <= 3000);
    assert_int_equal(r->frames_offered,
                     r->frames_ok + r->frames_aborted + r->frames_dropped + r->frames_queued);
    assert_true(r->frames_dropped > 0); /* the queues did overflow */
    assert_true(r->collisions_seen > 0);

    /* One whole frame per frame sent OK; each station's frames in capture
     * order (their serial numbers increase). */
    int last_serial[12];
    for (int s = 0; s < 12; s++)
        last_serial[s] = -1;
    uint64_t whole = 0;
    for (size_t i = 0; i < run.out.n; i++) {
        const pcap_rec *b = &run.out.recs[i];
        if (!ethframe_fcs_ok(b->data, b->len) || b->len < 64)
            continue; /* a collision fragment */
        whole++;
        int serial;
        memcpy(&serial, b->data + 14, sizeof serial);
        assert_true(serial >= 0 && serial < 3000);
        const pcap_rec *a = &in.recs[serial];
        assert_memory_equal(b->data, a->data, a->len);
        int s = b->data[11];
        assert_true(serial > last_serial[s]);
        last_serial[s] = serial;
    }
    assert_int_equal(whole, r->frames_ok);
    pcap_contents_free(&in);
    pcap_contents_free(&run.out);
}

static void test_bad_capture(void **state)
{
    (void)state;
    char capture[400];
    snprintf(capture, sizeof capture, "%s/not-a-capture.pcap", dir);
    FILE *f = fopen(capture, "w");
    fputs("hello\n", f);
    fclose(f);
    scenario sc;
    replay_scenario(&sc, capture, SIM_PS_PER_MS, 8);
    engine *e = NULL;
    char err[512] = "";
    assert_int_equal(engine_create(&sc, &e, err, sizeof err), -1);
    char want[600];
    snprintf(want, sizeof want, "%s: not a pcap or pcapng capture (unknown file format)",
             capture);
    assert_string_equal(err, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_network),
        cmocka_unit_test(test_busy_network),
        cmocka_unit_test(test_bad_capture),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
