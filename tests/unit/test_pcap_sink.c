/* test_pcap_sink.c - pins the pcap sink on hand-made trace events.
 *
 * Pins: the file format (DLT_EN10MB, nanosecond stamps, snapshot 65535);
 * records stamped with probe_start rounded down to the nanosecond; records
 * written in (probe_start, tx_id) order although the engine ends them in
 * another order, and held back exactly while an earlier stamp can still
 * come (an open transmission with an earlier probe_start); whole frames as
 * built (addresses, header, pad, FCS), collision fragments as the octets
 * before the jam plus the jam, replayed octets kept; extension bursts and
 * unfinished transmissions not written; --pcap-collisions no; the temporary
 * file renamed into place only on a successful close, removed by discard;
 * "path: reason" errors for an unwritable directory and a full device;
 * the netANALYZER link type's status header (error bits, length), read
 * back by the replay reader; a collision fragment flagged in error even
 * when its octets read as a right frame (a 1 Gb/s collision in the
 * carrier extension with a jam shorter than an octet); 60000
 * transmissions under way at once handled in a bounded processor time.
 * A randomised run of 3000 overlapping transmissions checks the order and
 * the count. Does not pin what the engine reports (test_pcap_run.c does).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include <pcap/pcap.h>

#include "ethframe.h"
#include "pcap_read.h"
#include "pcap_sink.h"
#include "pcapng.h"
#include "scenario_text.h"
#include "pcapng_read.h"
#include "phy.h"
#include "replay.h"
#include "scenario.h"

#define BIT_PS 100000 /* 10 Mb/s */

static char dir[256];

static int setup_dir(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "sink");
}

static int remove_dir(void **state)
{
    (void)state;
    tmpdir_remove(dir);
    return 0;
}

static size_t count_entries(void)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) /* temporaries are hidden files: count them */
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static trace_event ev_start(uint64_t tx_id, uint32_t station, sim_time t, sim_time probe,
                            uint32_t attempt, uint64_t slots)
{
    trace_event e = {.kind = TRACE_TX_START, .time = t, .station = station,
                     .tx_id = tx_id, .tx_kind = TRACE_TX_FRAME, .tx_start = t,
                     .probe_start = probe, .attempt = attempt,
                     .collisions = attempt - 1, .backoff_slots = slots,
                     .jam_start = SIM_TIME_NEVER, .tx_end = SIM_TIME_NEVER};
    return e;
}

/* The TX_END of a transmission; jam_start SIM_TIME_NEVER for a whole frame. */
static trace_event ev_end(const trace_event *start, uint32_t dest, uint64_t frame_no,
                          uint32_t bytes, sim_time queued_at, sim_time jam_start,
                          uint64_t bits)
{
    trace_event e = *start;
    e.kind = TRACE_TX_END;
    e.dest = dest;
    e.frame_id = (uint64_t)start->station << 40 | frame_no;
    e.frame_bytes = bytes;
    e.queued_at = queued_at;
    e.jam_start = jam_start;
    e.bits_on_wire = bits;
    e.tx_end = start->tx_start + (sim_time)bits * BIT_PS;
    e.time = e.tx_end;
    /* At the end the engine counts the collision just seen. */
    e.collisions = start->collisions + (jam_start != SIM_TIME_NEVER);
    return e;
}

static void feed(pcap_sink *s, trace_event e) { pcap_sink_on_event(s, &e); }

static void open_sink(const char *path, bool collisions, pcap_sink **out)
{
    char err[512];
    pcap_sink_options o = {.collisions = collisions};
    /* Ethernet from t = 0: the records are the frames, stamped from 0. */
    pcap_sink_format f = {.linktype = PCAP_SINK_ETHERNET, .epoch_s = 0};
    int rc = pcap_sink_open_format(path, phy_profile_find("10base5"), &o, &f, out, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
}

static void close_sink(pcap_sink *s)
{
    char err[512];
    if (pcap_sink_close(s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* The trace at path, read back whole (pcap_read.h). */
static void read_trace(const char *path, pcap_contents *c)
{
    char err[512];
    if (pcap_read_all(path, c, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* The trace at path read by the replay reader (10 Mb/s frame sizes), and
 * its counts. */
static replay *read_replay(const char *path, replay_stats *st)
{
    char err[512];
    replay_options ro = {.time_scale = 1.0, .max_stations = 0};
    replay *r;
    if (replay_load(path, &ro, 64, 1518, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    replay_get_stats(r, st);
    return r;
}

/* The hand-made run used by several tests: X starts first and reaches the
 * probe at 3 us, Y starts later and reaches it at 4 us; Y ends first (a
 * collision fragment) and must wait until X has ended. */
static const uint8_t replayed[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, /* DA */
                                   0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, /* SA */
                                   0x08, 0x06, 0x00, 0x01, 0x08, 0x00};

typedef struct hand_seen {
    uint64_t records_before_x_end;
    size_t waiting_before_x_end, waiting_before_w, waiting_after_w;
} hand_seen;

static void hand_run(pcap_sink *s, hand_seen *seen)
{
    trace_event x = ev_start(10, 0, 0, 3000000, 2, 1);
    trace_event y = ev_start(11, 1, 1000000, 4000000, 1, 0);
    feed(s, x);
    feed(s, y);
    /* Y collides in its preamble: 64 bits, then 32 of jam. */
    feed(s, ev_end(&y, 0, 7, 64, 500000, 1000000 + 64 * BIT_PS, 96));
    seen->records_before_x_end = pcap_sink_records(s);
    seen->waiting_before_x_end = pcap_sink_waiting(s);
    /* An extension burst is not a record. */
    trace_event ext = ev_start(12, 0, 20000000, 21000000, 1, 0);
    ext.tx_kind = TRACE_TX_EXTENSION;
    feed(s, ext);
    feed(s, ev_end(&ext, 1, 0, 64, 0, SIM_TIME_NEVER, 96));
    /* X: a whole 64-octet frame to station 2, queued 1.5 us before. */
    feed(s, ev_end(&x, 1, 5, 64, -1500000, SIM_TIME_NEVER, 64 + 512));
    /* Z: replayed octets, stamped at 70000.999 ns. */
    trace_event z = ev_start(13, 2, 70000000, 70000999, 1, 0);
    feed(s, z);
    trace_event ze = ev_end(&z, TRACE_NO_DEST, 1, 64, 70000000, SIM_TIME_NEVER, 64 + 512);
    ze.payload = replayed;
    ze.payload_len = sizeof replayed;
    feed(s, ze);
    /* Far later: W begins and the run stops before it ends. */
    trace_event w = ev_start(14, 3, 123456789012345, 123456789012345, 1, 0);
    seen->waiting_before_w = pcap_sink_waiting(s);
    feed(s, w);
    seen->waiting_after_w = pcap_sink_waiting(s);
}

static void test_order_and_contents(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/hand.pcap", dir);
    pcap_sink *s;
    open_sink(path, true, &s);
    hand_seen seen;
    hand_run(s, &seen);
    /* Y finished first, but waits for X, under way and earlier at the probe. */
    assert_int_equal(seen.records_before_x_end, 1);
    assert_int_equal(seen.waiting_before_x_end, 1);
    /* Z waits: a transmission starting later could still reach the probe
     * first; once W has started at 123 s nothing can. */
    assert_int_equal(seen.waiting_before_w, 1);
    assert_int_equal(seen.waiting_after_w, 0);
    assert_int_equal(pcap_sink_records(s), 3);
    close_sink(s);

    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.linktype, DLT_EN10MB);
    assert_int_equal(c.snaplen, 65535);
    assert_true(c.nano);
    assert_int_equal(c.n, 3);

    /* X: 3000 ns, whole, station 1 -> station 2. */
    assert_int_equal(c.recs[0].ts_ns, 3000);
    assert_int_equal(c.recs[0].len, 64);
    assert_int_equal(c.recs[0].caplen, 64);
    uint8_t want[64];
    /* frame_id's per-station number 5 is the station's sixth frame. */
    ethframe_info info = {.station = 0, .dest = 1, .frame_number = 6, .attempt = 2,
                          .collisions = 1, .backoff_slots = 1, .queued_ns = 1500};
    ethframe_build_synthetic(&info, 64, want);
    assert_memory_equal(c.recs[0].data, want, 64);

    /* Y: 4000 ns, 4 octets of jam. */
    assert_int_equal(c.recs[1].ts_ns, 4000);
    assert_int_equal(c.recs[1].len, 4);
    /* Y's jam: station 2, attempt 1 (ev_start's). */
    assert_memory_equal(c.recs[1].data, ((uint8_t[]){0xC5, 0x01, 0x00, 0x02}), 4);

    /* Z: replayed octets, padded, FCS; 70000.999 ns rounds down. */
    assert_int_equal(c.recs[2].ts_ns, 70000);
    assert_int_equal(c.recs[2].len, 64);
    assert_memory_equal(c.recs[2].data, replayed, sizeof replayed);
    for (size_t i = sizeof replayed; i < 60; i++)
        assert_int_equal(c.recs[2].data[i], 0);
    assert_true(ethframe_fcs_ok(c.recs[2].data, 64));
    pcap_contents_free(&c);
}

/* Only TX_START moves the sink's clock: an event stamped later than the
 * moment it is reported (a JAM carries its jam's start) must not release a
 * record that a transmission starting meanwhile would precede. */
static void test_future_stamped_event(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/future.pcap", dir);
    pcap_sink *s;
    open_sink(path, true, &s);
    trace_event t = ev_start(1, 0, 0, 20000000, 1, 0);       /* probe at 20 us */
    trace_event r = ev_start(2, 1, 1000000, 11500000, 1, 0); /* probe at 11.5 us */
    feed(s, t);
    feed(s, r);
    feed(s, ev_end(&r, 0, 1, 64, 0, 1000000 + 64 * BIT_PS, 96)); /* ends at 10.6 us */
    trace_event jam = t;
    jam.kind = TRACE_JAM;
    jam.time = 12000000; /* reported now, stamped with the jam's start */
    feed(s, jam);
    assert_int_equal(pcap_sink_records(s), 1);
    assert_int_equal(pcap_sink_waiting(s), 1); /* the JAM's stamp released nothing */
    trace_event q = ev_start(3, 2, 11000000, 11000000, 1, 0); /* probe at 11 us */
    feed(s, q);
    feed(s, ev_end(&q, 0, 1, 64, 0, SIM_TIME_NEVER, 64 + 512));
    feed(s, ev_end(&t, 1, 1, 64, 0, 12000000, 120 + 32 + 64));
    close_sink(s);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.recs[0].ts_ns, 11000);
    assert_int_equal(c.recs[1].ts_ns, 11500);
    assert_int_equal(c.recs[2].ts_ns, 20000);
    pcap_contents_free(&c);
}

static uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The hand-made run and, after it, station 20's attempt cut by a
 * collision 44 bits into the frame (5 whole octets, a part octet dropped,
 * 4 of jam), written to path in format fmt (NULL: pcap_sink_open's
 * defaults) and read back into c. */
static void hand_trace(const char *path, const pcap_sink_format *fmt, pcap_contents *c)
{
    char err[512];
    pcap_sink_options o = {.collisions = true};
    pcap_sink *s;
    int rc = fmt ? pcap_sink_open_format(path, phy_profile_find("10base5"), &o, fmt, &s, err,
                                         sizeof err)
                 : pcap_sink_open(path, phy_profile_find("10base5"), &o, &s, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    hand_seen seen;
    hand_run(s, &seen);
    trace_event v = ev_start(20, 3, 130000000000000, 130000000000000, 1, 0);
    feed(s, v);
    feed(s, ev_end(&v, 0, 2, 64, v.time, v.time + (64 + 44) * BIT_PS, 64 + 44 + 32));
    close_sink(s);
    read_trace(path, c);
}

/* The netANALYZER link type: the same frames behind a status header whose
 * error bits flag fragments (FCS error, shorter than 64, alignment error
 * when a part octet was dropped), version 1, the frame's length. The
 * replay reader takes the whole frames back and rejects the flagged ones. */
static void test_netanalyzer(void **state)
{
    (void)state;
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/na.pcap", dir);
    pcap_sink_format na = {.linktype = PCAP_SINK_NETANALYZER, .epoch_s = 0};
    pcap_contents c;
    hand_trace(path, &na, &c);
    assert_int_equal(c.linktype, DLT_NETANALYZER);
    assert_int_equal(c.n, 4);
    /* X: whole, no error bits. */
    assert_int_equal(c.recs[0].len, 4 + 64);
    assert_int_equal(le32_at(c.recs[0].data), 1u << 10 | 64u << 16);
    uint8_t want[64];
    /* frame_id's per-station number 5 is the station's sixth frame. */
    ethframe_info info = {.station = 0, .dest = 1, .frame_number = 6, .attempt = 2,
                          .collisions = 1, .backoff_slots = 1, .queued_ns = 1500};
    ethframe_build_synthetic(&info, 64, want);
    assert_memory_equal(c.recs[0].data + 4, want, 64);
    /* Y: 4 octets of jam: FCS error, short. */
    assert_int_equal(c.recs[1].len, 4 + 4);
    assert_int_equal(le32_at(c.recs[1].data), 0x24u | 1u << 10 | 4u << 16);
    /* V: 9 octets, and an alignment error too. */
    assert_int_equal(c.recs[3].len, 4 + 9);
    assert_int_equal(le32_at(c.recs[3].data), 0x26u | 1u << 10 | 9u << 16);
    pcap_contents_free(&c);

    replay_stats st;
    replay *r = read_replay(path, &st);
    assert_int_equal(st.frames_loaded, 2);
    assert_int_equal(st.errored, 2);
    assert_int_equal(st.fcs_stripped, 2);
    replay_destroy(r);

    /* Frames longer than its 12-bit length field cannot be carried. */
    phy_params big = *phy_profile_find("10base5");
    big.max_frame_bytes = 9000;
    pcap_sink_options o = {.collisions = true};
    pcap_sink *s;
    assert_int_equal(
        pcap_sink_open_format(path, &big, &o, &na, &s, err, sizeof err), -1);
    char msg[600];
    snprintf(msg, sizeof msg,
             "%s: the netanalyzer link type carries frames of at most 4091 octets "
             "(max-frame is 9000)",
             path);
    assert_string_equal(err, msg);
}

static void test_no_collisions(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/frames.pcap", dir);
    pcap_sink *s;
    open_sink(path, false, &s);
    hand_seen seen;
    hand_run(s, &seen);
    assert_int_equal(seen.waiting_before_x_end, 0); /* no fragment to hold */
    assert_int_equal(pcap_sink_frames(s), 2);
    assert_int_equal(pcap_sink_fragments(s), 0);
    close_sink(s);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.recs[0].ts_ns, 3000);
    assert_int_equal(c.recs[1].ts_ns, 70000);
    pcap_contents_free(&c);
}

static void test_seconds_split(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/late.pcap", dir);
    pcap_sink *s;
    open_sink(path, true, &s);
    trace_event a = ev_start(1, 0, 123456789000000, 123456789012345, 1, 0);
    feed(s, a);
    feed(s, ev_end(&a, 1, 1, 100, a.time, SIM_TIME_NEVER, 64 + 800));
    close_sink(s);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.recs[0].ts_ns, 123456789012); /* 123 s + 456789012 ns */
    assert_int_equal(c.recs[0].len, 100);
    pcap_contents_free(&c);
}

static void test_temp_and_rename(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/out.pcap", dir);
    FILE *old = fopen(path, "w");
    fputs("previous", old);
    fclose(old);
    size_t before = count_entries();

    pcap_sink *s;
    open_sink(path, true, &s);
    assert_int_equal(count_entries(), before + 1); /* the temporary file */
    hand_seen seen;
    hand_run(s, &seen);
    size_t len;
    uint8_t *b = read_file_bytes(path, &len);
    assert_int_equal(len, 8); /* the previous file is untouched until close */
    free(b);
    close_sink(s);
    assert_int_equal(count_entries(), before);
    b = read_file_bytes(path, &len);
    assert_true(len > 24);
    free(b);

    /* discard: the previous file stays, the temporary file goes. */
    open_sink(path, true, &s);
    hand_run(s, &seen);
    pcap_sink_discard(s);
    assert_int_equal(count_entries(), before);
    pcap_contents c;
    char err[512];
    assert_int_equal(pcap_read_all(path, &c, err, sizeof err), 0);
    assert_int_equal(c.n, 3);
    pcap_contents_free(&c);
    assert_int_equal(pcap_sink_close(NULL, err, sizeof err), 0);
}

static void test_errors(void **state)
{
    (void)state;
    char err[512];
    pcap_sink_options o = {.collisions = true};
    pcap_sink *s = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/no/such/dir/x.pcap", dir);
    assert_int_equal(pcap_sink_open(path, phy_profile_find("10base5"), &o, &s, err, sizeof err),
                     -1);
    assert_null(s);
    char want[600];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(err, want);

    /* A full device: the error surfaces by close at the latest. */
    assert_int_equal(
        pcap_sink_open("/dev/full", phy_profile_find("10base5"), &o, &s, err, sizeof err), 0);
    for (uint64_t i = 0; i < 200; i++) {
        trace_event a = ev_start(i, 0, (sim_time)i * 200000000, (sim_time)i * 200000000, 1, 0);
        feed(s, a);
        feed(s, ev_end(&a, 1, i, 1518, a.time, SIM_TIME_NEVER, 64 + 1518 * 8));
    }
    /* 300 kB went through stdio's buffer: the error is already kept, so a
     * run can stop early. */
    assert_true(pcap_sink_error(s));
    assert_int_equal(pcap_sink_close(s, err, sizeof err), -1);
    assert_string_equal(err, "/dev/full: No space left on device");
}

/* 3000 transmissions from 8 stations, overlapping, each reaching the probe
 * 0 to 5 us after it starts: the file must be in (probe_start, tx_id)
 * order, every finished transmission present. */
typedef struct tx {
    sim_time start, end, probe;
    uint64_t id;
    bool collided;
} tx;

typedef struct evref {
    sim_time t;
    int is_end;
    size_t i;
} evref;

static int evref_cmp(const void *a, const void *b)
{
    const evref *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->is_end != y->is_end)
        return x->is_end ? -1 : 1; /* ends before starts at one instant */
    return x->i < y->i ? -1 : x->i > y->i;
}

static int tx_key_cmp(const void *a, const void *b)
{
    const tx *x = a, *y = b;
    if (x->probe != y->probe)
        return x->probe < y->probe ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void test_random_order(void **state)
{
    (void)state;
    enum { N = 3000 };
    static tx t[N];
    static evref evs[2 * N];
    uint64_t x = 12345;
    sim_time at = 0;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        at += (sim_time)(x >> 40) % (20 * BIT_PS * 8);
        t[i].start = at;
        t[i].id = i;
        t[i].collided = (x >> 20) % 3 == 0;
        uint64_t bits = t[i].collided ? 64 + 32 + (x >> 30) % 400 : 64 + 8 * (64 + (x >> 33) % 1455);
        t[i].end = at + (sim_time)bits * BIT_PS;
        t[i].probe = at + (sim_time)((x >> 11) % 5000001);
        evs[2 * i] = (evref){t[i].start, 0, i};
        evs[2 * i + 1] = (evref){t[i].end, 1, i};
    }
    qsort(evs, 2 * N, sizeof *evs, evref_cmp);

    char path[400];
    snprintf(path, sizeof path, "%s/random.pcap", dir);
    pcap_sink *s;
    open_sink(path, true, &s);
    for (size_t k = 0; k < 2 * N; k++) {
        const tx *p = &t[evs[k].i];
        trace_event st = ev_start(p->id, (uint32_t)(p->id % 8), p->start, p->probe, 1, 0);
        if (!evs[k].is_end) {
            feed(s, st);
            continue;
        }
        uint64_t bits = (uint64_t)((p->end - p->start) / BIT_PS);
        uint32_t bytes = p->collided ? 64 : (uint32_t)((bits - 64) / 8);
        feed(s, ev_end(&st, (uint32_t)((p->id + 1) % 8), p->id, bytes, p->start,
                       p->collided ? p->end - 32 * BIT_PS : SIM_TIME_NEVER, bits));
    }
    close_sink(s);

    qsort(t, N, sizeof *t, tx_key_cmp);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, N);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(c.recs[i].ts_ns, t[i].probe / 1000);
        if (t[i].collided) {
            uint64_t data_bits = (uint64_t)((t[i].end - t[i].start) / BIT_PS) - 96;
            assert_int_equal(c.recs[i].len, ethframe_fragment_bytes(data_bits, 32, 64));
        } else {
            ethframe_header h;
            assert_int_equal(ethframe_parse(c.recs[i].data, c.recs[i].len, &h), 0);
            assert_int_equal(h.frame_number, t[i].id + 1); /* read from 1 */
            assert_true(ethframe_fcs_ok(c.recs[i].data, c.recs[i].len));
        }
    }
    pcap_contents_free(&c);
}

/* Many transmissions under way at once, as when thousands of saturated
 * stations start together: each event costs the sink O(log n), not a scan
 * of every open transmission. Before, 7450 stations' 20 us capture spent
 * most of 40 s in those scans (fuzz_extcap, seed capture-7450-stations);
 * here 60000 open transmissions, each with a collision event, then their
 * ends in another order, took 10 s of processor time in the sanitized
 * build; now 0.3 s (the bound is 3 s). The records still come out in
 * time order. */
static void test_many_open(void **state)
{
    (void)state;
    enum { N = 60000 };
    char path[400];
    snprintf(path, sizeof path, "%s/many.pcap", dir);
    pcap_sink *s;
    open_sink(path, true, &s);
    clock_t t0 = clock();
    /* Starts 1 ns apart; probe_start in the reverse order of tx_id for the
     * first half, so the earliest open one is not the oldest. */
    for (uint32_t i = 0; i < N; i++) {
        sim_time probe = i < N / 2 ? (sim_time)(N - i) * 1000 : (sim_time)(N + i) * 1000;
        feed(s, ev_start(i, i % 1024, (sim_time)i * 1000, probe, 1, 0));
        trace_event c = ev_start(i, i % 1024, (sim_time)i * 1000, probe, 1, 0);
        c.kind = TRACE_COLLISION;
        feed(s, c);
    }
    assert_int_equal(pcap_sink_records(s), 0);
    for (uint32_t k = 0; k < N; k++) {
        uint32_t i = (uint32_t)(((uint64_t)k * 7919) % N); /* a permutation */
        sim_time probe = i < N / 2 ? (sim_time)(N - i) * 1000 : (sim_time)(N + i) * 1000;
        trace_event st = ev_start(i, i % 1024, (sim_time)i * 1000, probe, 1, 0);
        feed(s, ev_end(&st, (i + 1) % 1024, i, 64, st.time, SIM_TIME_NEVER, 64 + 512));
    }
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_int_equal(pcap_sink_records(s), N);
    close_sink(s);
    if (cpu > 3.0)
        fail_msg("%d open transmissions took %.1f s of processor time", N, cpu);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, N);
    for (size_t k = 1; k < c.n; k++)
        assert_true(c.recs[k - 1].ts_ns <= c.recs[k].ts_ns);
    /* The earliest: tx N/2 - 1, stamped (N/2 + 1) ns. */
    assert_int_equal(c.recs[0].ts_ns, (int64_t)(N - (N / 2 - 1)));
    pcap_contents_free(&c);
}

/* The default: netANALYZER transparent records (status header, preamble
 * and SFD, frame), stamped from the default epoch. */
static void test_transparent_default(void **state)
{
    (void)state;
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/tr.pcap", dir);
    pcap_contents c;
    hand_trace(path, NULL, &c);
    assert_int_equal(c.linktype, DLT_NETANALYZER_TRANSPARENT);
    assert_int_equal(c.n, 4);
    static const uint8_t pre[8] = {0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0xD5};
    /* X: whole, at 2000-01-01T00:00:00Z + 3 us; transparent, version 1,
     * 72 octets after the header. */
    assert_int_equal(c.recs[0].ts_ns, INT64_C(946684800) * 1000000000 + 3000);
    assert_int_equal(c.recs[0].len, 4 + 8 + 64);
    assert_int_equal(le32_at(c.recs[0].data), 1u << 9 | 1u << 10 | 72u << 16);
    assert_memory_equal(c.recs[0].data + 4, pre, 8);
    uint8_t want[64];
    ethframe_info info = {.station = 0, .dest = 1, .frame_number = 6, .attempt = 2,
                          .collisions = 1, .backoff_slots = 1, .queued_ns = 1500};
    ethframe_build_synthetic(&info, 64, want);
    assert_memory_equal(c.recs[0].data + 12, want, 64);
    /* Y: the preamble, then 4 octets of jam: FCS error, short. */
    assert_int_equal(c.recs[1].len, 4 + 8 + 4);
    assert_int_equal(le32_at(c.recs[1].data), 0x24u | 1u << 9 | 1u << 10 | 12u << 16);
    assert_memory_equal(c.recs[1].data + 4, pre, 8);
    /* V: 9 octets; the dropped part octet sets no alignment error here. */
    assert_int_equal(c.recs[3].len, 4 + 8 + 9);
    assert_int_equal(le32_at(c.recs[3].data), 0x24u | 1u << 9 | 1u << 10 | 17u << 16);
    pcap_contents_free(&c);

    /* The replay reader takes the whole frames and drops the preamble. */
    replay_stats st;
    replay *r = read_replay(path, &st);
    assert_int_equal(st.frames_loaded, 2);
    assert_int_equal(st.errored, 2);
    assert_int_equal(replay_frames(r, 0)[0].payload_len, 60);
    assert_memory_equal(replay_frames(r, 0)[0].payload, want, 60);
    replay_destroy(r);

    /* A preamble of part octets cannot be recorded. */
    phy_params odd = *phy_profile_find("10base5");
    odd.preamble_bits = 60;
    pcap_sink_options o = {.collisions = true};
    pcap_sink *s;
    assert_int_equal(pcap_sink_open(path, &odd, &o, &s, err, sizeof err), -1);
    char msg[600];
    snprintf(msg, sizeof msg,
             "%s: the netanalyzer-transparent link type records the preamble and SFD as "
             "whole octets (preamble-bits is 60; ethernet and netanalyzer do not record it)",
             path);
    assert_string_equal(err, msg);
}

/* A collision in the carrier extension of a 1 Gb/s frame, with a jam
 * shorter than an octet (a jam-bits override, its bits dropped as dribble
 * bits): the fragment's octets are the whole frame, FCS and all. It must
 * still say it is a collision: netANALYZER status bit 0 (RX_ER) where no
 * other error bit says it (the netanalyzer type's alignment error does),
 * and in pcapng the symbol-error flag too; the replay reader then offers
 * none of it. Before, such a fragment read "No error"
 * and replayed as a frame (fuzz_pcapng, seed gigabit-extension-3-bit-jam). */
static void one_extension_collision(const char *path, const pcap_sink_format *fmt)
{
    char err[512];
    phy_params gb = *phy_profile_find("1000baset");
    gb.jam_bits = 3;
    pcap_sink_options o = {.collisions = true};
    pcap_sink *s;
    if (pcap_sink_open_format(path, &gb, &o, fmt, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* Station 0's 64-octet frame went out whole, then 100 bits of carrier
     * extension before the collision, then 3 bits of jam. */
    trace_event x = ev_start(30, 0, 0, 1000, 1, 0);
    feed(s, x);
    feed(s, ev_end(&x, 1, 1, 64, 0, 1, gb.preamble_bits + 512 + 100 + 3));
    close_sink(s);
}

static void test_fragment_reading_as_frame(void **state)
{
    (void)state;
    char path[400];
    uint8_t whole[64];
    ethframe_info info = {.station = 0, .dest = 1, .frame_number = 2, .attempt = 1};
    ethframe_build_synthetic(&info, 64, whole);
    assert_true(ethframe_fcs_ok(whole, 64));
    static const struct {
        pcap_sink_linktype lt;
        uint32_t pre, error;
    } kinds[] = {
        {PCAP_SINK_NETANALYZER_TRANSPARENT, 8, 0x01}, /* RX_ER */
        {PCAP_SINK_NETANALYZER, 0, 0x02},             /* the dropped bits: alignment */
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        snprintf(path, sizeof path, "%s/ext%zu.pcap", dir, k);
        pcap_sink_format f = {.linktype = kinds[k].lt, .epoch_s = 0};
        one_extension_collision(path, &f);
        pcap_contents c;
        read_trace(path, &c);
        assert_int_equal(c.n, 1);
        uint32_t pre = kinds[k].pre;
        assert_int_equal(c.recs[0].len, 4 + pre + 64);
        assert_memory_equal(c.recs[0].data + 4 + pre, whole, 64);
        /* One error bit; the transparent bit, version 1, the length. */
        assert_int_equal(le32_at(c.recs[0].data),
                         kinds[k].error | (pre ? 1u << 9 : 0) | 1u << 10 | (pre + 64) << 16);
        pcap_contents_free(&c);
        replay_options ro = {.time_scale = 1.0, .max_stations = 0};
        replay *r;
        char err[512];
        /* Nothing to replay: refused, the fragment counted as flagged. */
        assert_int_not_equal(replay_load(path, &ro, 64, 1518, &r, err, sizeof err), 0);
        assert_non_null(strstr(err, "1 flagged in error"));
    }

    /* pcapng: on the fragments' interface, flagged a symbol error (the
     * FCS is right and it is 64 octets long: no other flag says it). */
    snprintf(path, sizeof path, "%s/ext.pcapng", dir);
    pcap_sink_format ng = {.container = PCAP_SINK_PCAPNG, .epoch_s = 0};
    one_extension_collision(path, &ng);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    pcapng_reader *rd;
    char why[200];
    assert_int_equal(pcapng_read_open(fp, &rd, why, sizeof why), 0);
    pcapng_record rec;
    assert_int_equal(pcapng_read_next(rd, &rec, why, sizeof why), 1);
    assert_int_equal(rec.linktype, PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT);
    assert_int_equal(rec.len, 4 + 8 + 64);
    assert_memory_equal(rec.data + 12, whole, 64);
    assert_int_equal(le32_at(rec.data), 0x01u | 1u << 9 | 1u << 10 | 72u << 16);
    assert_int_equal(rec.flags, PCAPNG_EPB_SYMBOL_ERROR);
    assert_int_equal(pcapng_read_next(rd, &rec, why, sizeof why), 0);
    pcapng_read_close(rd);
    fclose(fp);
}

/* The epoch: added to every stamp; the last second pcap holds is the last
 * a record may have. */
static void test_epoch(void **state)
{
    (void)state;
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/epoch.pcap", dir);
    pcap_sink_options o = {.collisions = true};
    pcap_sink_format f = {.linktype = PCAP_SINK_ETHERNET, .epoch_s = INT64_C(2147483646)};
    pcap_sink *s;
    if (pcap_sink_open_format(path, phy_profile_find("10base5"), &o, &f, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* Frames at 0.5 s and 1.999999999 s: seconds 2147483646 and ...95. */
    sim_time at[2] = {SIM_PS_PER_S / 2, 2 * SIM_PS_PER_S - 1000};
    for (int i = 0; i < 2; i++) {
        trace_event a = ev_start(30 + i, 0, at[i], at[i], 1, 0);
        feed(s, a);
        feed(s, ev_end(&a, 1, i, 64, a.time, SIM_TIME_NEVER, 64 + 512));
    }
    close_sink(s);
    pcap_contents c;
    read_trace(path, &c);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.recs[0].ts_ns, INT64_C(2147483646) * 1000000000 + 500000000);
    assert_int_equal(c.recs[1].ts_ns, INT64_C(2147483647) * 1000000000 + 999999999);
    pcap_contents_free(&c);
    /* One second more does not fit: an error, and no file. */
    if (pcap_sink_open_format(path, phy_profile_find("10base5"), &o, &f, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    trace_event b = ev_start(40, 0, 2 * SIM_PS_PER_S, 2 * SIM_PS_PER_S, 1, 0);
    feed(s, b);
    feed(s, ev_end(&b, 1, 0, 64, b.time, SIM_TIME_NEVER, 64 + 512));
    assert_int_equal(pcap_sink_close(s, err, sizeof err), -1);
    char msg[600];
    snprintf(msg, sizeof msg,
             "%s: a record falls after 2038-01-19T03:14:07Z, beyond pcap's 32-bit seconds "
             "(--pcap-epoch)",
             path);
    assert_string_equal(err, msg);
    assert_true(pcap_sink_fits(INT64_C(2147483646), 2 * SIM_PS_PER_S - 1));
    assert_false(pcap_sink_fits(INT64_C(2147483646), 2 * SIM_PS_PER_S));
    assert_true(pcap_sink_fits(0, 0));
    assert_false(pcap_sink_fits(INT64_C(2147483648), 0));
    /* pcapng: 64-bit nanoseconds, past 2038 up to 2554-07-21T23:34:33.709551615Z. */
    assert_true(pcap_sink_fits_in(PCAP_SINK_PCAPNG, INT64_C(4102444800), 3600 * SIM_PS_PER_S));
    assert_false(pcap_sink_fits_in(PCAP_SINK_PCAP, INT64_C(4102444800), 0));
    assert_true(pcap_sink_fits_in(PCAP_SINK_PCAPNG, PCAP_SINK_NG_MAX_SECONDS,
                                  709551615 * SIM_PS_PER_NS));
    assert_false(pcap_sink_fits_in(PCAP_SINK_PCAPNG, PCAP_SINK_NG_MAX_SECONDS,
                                   709551616 * SIM_PS_PER_NS));
    assert_false(pcap_sink_fits_in(PCAP_SINK_PCAPNG, PCAP_SINK_NG_MAX_SECONDS + 1, 0));
    assert_int_equal(pcap_sink_max_seconds(PCAP_SINK_PCAP), PCAP_SINK_MAX_SECONDS);
}

/* A network of two segments (pcap_sink.h, "Networks"): a frame sent
 * whole on west, relayed onto east 1 us later; a repeater's jam on east;
 * a relay of an extension alone. Classic pcap keeps one segment. */
static network two_segments;

static void network_run(const char *path, uint32_t probe_segment, pcap_contents *c)
{
    char err[512];
    assert_int_equal(network_reserve(&two_segments), 0); /* (kept to the end) */
    two_segments.n_segments = 2;
    snprintf(two_segments.segments[0].name, sizeof two_segments.segments[0].name, "west");
    snprintf(two_segments.segments[1].name, sizeof two_segments.segments[1].name, "east");
    pcap_sink_options o = {.collisions = true};
    pcap_sink_format f = {.linktype = PCAP_SINK_ETHERNET, .epoch_s = 0,
                          .network = &two_segments, .probe_segment = probe_segment};
    pcap_sink *s;
    if (pcap_sink_open_format(path, phy_profile_find("10base5"), &o, &f, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    trace_event a = ev_start(1, 0, 0, 0, 1, 0);
    feed(s, a);
    trace_event r = {.kind = TRACE_RELAY_START, .time = 1000000, .station = TRACE_NO_STATION,
                     .segment = 1, .dest = 4, .frame_id = 5, .frame_bytes = 64, .attempt = 1,
                     .tx_id = 2, .tx_start = 1000000, .tx_end = SIM_TIME_NEVER,
                     .jam_start = SIM_TIME_NEVER, .probe_start = 1500000, .relay_from = 0,
                     .relay_sent_at = 0};
    feed(s, r);
    feed(s, ev_end(&a, 4, 5, 64, 0, SIM_TIME_NEVER, 64 + 512));
    r.kind = TRACE_RELAY_END;
    r.tx_end = r.tx_start + (64 + 512) * BIT_PS;
    r.time = r.tx_end;
    r.bits_on_wire = 64 + 512;
    r.relay_whole = true;
    feed(s, r);
    /* The repeater's jam: 96 bits (64 of preamble, then 32 of jam). */
    trace_event j = {.kind = TRACE_RELAY_START, .time = 200000000, .station = TRACE_NO_STATION,
                     .segment = 1, .dest = TRACE_NO_DEST, .tx_id = 3, .tx_start = 200000000,
                     .tx_end = SIM_TIME_NEVER, .jam_start = SIM_TIME_NEVER,
                     .probe_start = 200500000, .relay_from = TRACE_NO_STATION,
                     .relay_sent_at = SIM_TIME_NEVER};
    feed(s, j);
    j.kind = TRACE_RELAY_END;
    j.tx_end = j.tx_start + 96 * BIT_PS;
    j.time = j.tx_end;
    j.jam_start = j.tx_start;
    j.bits_on_wire = 96;
    feed(s, j);
    /* An extension relayed alone: no record. */
    trace_event x = j;
    x.kind = TRACE_RELAY_START;
    x.tx_id = 4;
    x.time = x.tx_start = 300000000;
    x.probe_start = 300000000;
    x.jam_start = SIM_TIME_NEVER;
    feed(s, x);
    x.kind = TRACE_RELAY_END;
    x.tx_end = x.time = x.tx_start + 96 * BIT_PS;
    feed(s, x);
    close_sink(s);
    read_trace(path, c);
}

static void test_network_segments(void **state)
{
    (void)state;
    char west_path[512], east_path[512];
    snprintf(west_path, sizeof west_path, "%s/west.pcap", dir);
    snprintf(east_path, sizeof east_path, "%s/east.pcap", dir);
    pcap_contents w, e;
    network_run(west_path, 0, &w);
    network_run(east_path, 1, &e);
    /* West: the sender's frame alone, at its probe. */
    assert_int_equal(w.n, 1);
    assert_int_equal(w.recs[0].ts_ns, 0);
    assert_int_equal(w.recs[0].len, 64);
    /* East: the same frame, octet for octet, when it passed east's probe;
     * then the jam (no station named), and nothing for the extension. */
    assert_int_equal(e.n, 2);
    assert_int_equal(e.recs[0].ts_ns, 1500);
    assert_int_equal(e.recs[0].len, 64);
    assert_memory_equal(e.recs[0].data, w.recs[0].data, 64);
    assert_true(ethframe_fcs_ok(e.recs[0].data, 64));
    assert_int_equal(e.recs[1].ts_ns, 200500);
    assert_int_equal(e.recs[1].len, 4);
    assert_int_equal(e.recs[1].data[0], ETHFRAME_JAM_MARK);
    assert_int_equal(e.recs[1].data[2], 0);
    assert_int_equal(e.recs[1].data[3], 0);
    pcap_contents_free(&w);
    pcap_contents_free(&e);
}

/* The section's comment of a network's trace says what the network is,
 * every kind of element counted in its own number (bridges too). */
static void described(const char *text, const char *expect)
{
    scenario sc;
    scn_load_ok(&sc, text);
    char comment[1024], probe[128];
    pcap_sink_describe(&sc, "1ms", comment, sizeof comment, probe, sizeof probe);
    const char *at = strstr(comment, "stations, ");
    assert_non_null(at);
    at += strlen("stations, ");
    if (strncmp(at, expect, strlen(expect)) != 0 || at[strlen(expect)] != ',')
        fail_msg("%s (want \"%s\")", comment, expect);
    assert_string_equal(probe, "at each segment's probe");
    scenario_free(&sc);
}

static void test_describe_network(void **state)
{
    (void)state;
    described("phy = 10baset\n[segment a]\ntype = hub\n[group g]\nstations = 2\nsegment = a\n",
              "network of 1 segment");
    described("phy = 10base5\n[segment a]\ntype = coax\n[segment b]\ntype = coax\n"
              "[repeater r]\nports = a@0, b@0\n[group g]\nstations = 2\nsegment = a\n",
              "network of 2 segments and 1 repeater");
    described("phy = 10baset\n[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
              "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
              "network of 2 segments and 1 bridge");
    described("phy = 10baset\n[segment a]\ntype = hub\n[segment b]\ntype = hub\n"
              "[segment c]\ntype = coax\nlength = 100\n[segment d]\ntype = coax\nlength = 100\n"
              "[repeater r]\nports = c@0, d@0\n[repeater s]\nports = d@100, b@0\n"
              "[bridge x]\nports = a, b\n[group g]\nstations = 2\nsegment = a\n",
              "network of 4 segments, 2 repeaters and 1 bridge");
    described("phy = 10baset\ntopology = switch\nstations = 9\n",
              "switch of 9 links (a station on each)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_network),
        cmocka_unit_test(test_order_and_contents),
        cmocka_unit_test(test_future_stamped_event),
        cmocka_unit_test(test_no_collisions),
        cmocka_unit_test(test_netanalyzer),
        cmocka_unit_test(test_transparent_default),
        cmocka_unit_test(test_epoch),
        cmocka_unit_test(test_fragment_reading_as_frame),
        cmocka_unit_test(test_seconds_split),
        cmocka_unit_test(test_temp_and_rename),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_order),
        cmocka_unit_test(test_many_open),
        cmocka_unit_test(test_network_segments),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
