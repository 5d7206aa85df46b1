/* test_replay.c - pins the capture reader behind --traffic pcap:FILE.
 *
 * Pins, on captures generated here with libpcap (and one pcapng written
 * octet by octet): one station per source address in order of first
 * appearance, capped by max_stations (the rest counted, not replayed);
 * destinations resolved to stations (also to a source that appears later),
 * group, unknown and own addresses as broadcast; sizes on the wire (+4 for
 * the FCS, padded to 64) and an FCS found at the end kept once; oversize
 * and runt frames rejected and counted, never cut; snapped frames keeping
 * their length; times relative to the earliest stamp, scaled, and each
 * station's list in time order; netANALYZER headers, error flags, GPIO
 * events and preambles; and one "path: reason" error for every unreadable
 * input (missing, empty, garbage, truncated, not Ethernet, no frames, no
 * frame that fits, a bad time scale). Does not pin how the engine offers
 * the frames (test_pcap_run.c).
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
#include <pcap/pcap.h>

#include "ethframe.h"
#include "replay.h"

static char dir[256];

static int setup_dir(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "replay");
}

static int remove_dir(void **state)
{
    (void)state;
    tmpdir_remove(dir);
    return 0;
}

/* A capture being written. */
typedef struct cap {
    pcap_t *dead;
    pcap_dumper_t *d;
    char path[400];
} cap;

static void cap_open(cap *c, const char *name, int dlt)
{
    snprintf(c->path, sizeof c->path, "%s/%s", dir, name);
    c->dead = pcap_open_dead_with_tstamp_precision(dlt, 65535, PCAP_TSTAMP_PRECISION_NANO);
    c->d = pcap_dump_open(c->dead, c->path);
    assert_non_null(c->d);
}

static void cap_add(cap *c, int64_t t_ns, const uint8_t *data, uint32_t caplen, uint32_t len)
{
    struct pcap_pkthdr h = {.caplen = caplen, .len = len};
    h.ts.tv_sec = (time_t)(t_ns / 1000000000);
    h.ts.tv_usec = (suseconds_t)(t_ns % 1000000000);
    pcap_dump((u_char *)c->d, &h, data);
}

static void cap_close(cap *c)
{
    pcap_dump_close(c->d);
    pcap_close(c->dead);
}

static const uint8_t MAC_A[6] = {0x00, 0x1b, 0x21, 0x00, 0x00, 0x0a};
static const uint8_t MAC_B[6] = {0x00, 0x1b, 0x21, 0x00, 0x00, 0x0b};
static const uint8_t MAC_C[6] = {0x00, 0x1b, 0x21, 0x00, 0x00, 0x0c};
static const uint8_t MAC_R[6] = {0x00, 0x1b, 0x21, 0x00, 0x00, 0x99}; /* never a source */
static const uint8_t BCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t MCAST[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};

/* An Ethernet frame of len octets (no FCS) from sa to da, the rest filled
 * with a pattern that depends on `tag`. */
static uint32_t mkframe(uint8_t *f, uint32_t len, const uint8_t *da, const uint8_t *sa,
                        uint8_t tag)
{
    memcpy(f, da, 6);
    memcpy(f + 6, sa, 6);
    f[12] = 0x08, f[13] = 0x00;
    for (uint32_t i = 14; i < len; i++)
        f[i] = (uint8_t)(tag + i);
    return len;
}

static replay *load_ok(const char *path, double scale, uint32_t max_st)
{
    replay_options o = {.time_scale = scale, .max_stations = max_st};
    replay *r = NULL;
    char err[512];
    if (replay_load(path, &o, 64, 1518, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

static void load_fails(const char *path, const char *reason)
{
    replay_options o = {.time_scale = 1.0, .max_stations = 0};
    replay *r = (replay *)&o; /* must be reset to NULL */
    char err[512] = "";
    assert_int_equal(replay_load(path, &o, 64, 1518, &r, err, sizeof err), -1);
    assert_null(r);
    char want[1024];
    snprintf(want, sizeof want, "%s: %s", path, reason);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("got '%s', want '%s...'", err, want);
}

static void test_stations_and_destinations(void **state)
{
    (void)state;
    cap c;
    cap_open(&c, "basic.pcap", DLT_EN10MB);
    uint8_t f[1600];
    const int64_t t0 = 1700000000LL * 1000000000LL; /* absolute stamps */
    cap_add(&c, t0 + 0, f, mkframe(f, 100, MAC_B, MAC_A, 1), 100);      /* A -> B */
    cap_add(&c, t0 + 500000000, f, mkframe(f, 42, BCAST, MAC_B, 2), 42); /* B -> all */
    cap_add(&c, t0 + 1000000000, f, mkframe(f, 60, MAC_C, MAC_A, 3), 60); /* A -> C (later) */
    cap_add(&c, t0 + 1250000000, f, mkframe(f, 1514, MAC_R, MAC_C, 4), 1514); /* C -> router */
    cap_add(&c, t0 + 1250000001, f, mkframe(f, 70, MAC_C, MAC_C, 5), 70); /* C -> itself */
    cap_add(&c, t0 + 1300000000, f, mkframe(f, 64, MCAST, MAC_B, 6), 64); /* multicast */
    cap_close(&c);

    replay *r = load_ok(c.path, 1.0, 0);
    assert_int_equal(replay_station_count(r), 3);
    assert_memory_equal(replay_station_addr(r, 0), MAC_A, 6);
    assert_memory_equal(replay_station_addr(r, 1), MAC_B, 6);
    assert_memory_equal(replay_station_addr(r, 2), MAC_C, 6);
    assert_int_equal(replay_frame_count(r, 0), 2);
    assert_int_equal(replay_frame_count(r, 1), 2);
    assert_int_equal(replay_frame_count(r, 2), 2);
    assert_int_equal(replay_frame_count(r, 3), 0);
    assert_null(replay_frames(r, 3));
    assert_int_equal(replay_rejected(r), 0);

    const replay_frame *a = replay_frames(r, 0);
    assert_int_equal(a[0].time, 0);
    assert_int_equal(a[0].bytes, 104);
    assert_int_equal(a[0].dest, 1);
    assert_int_equal(a[0].payload_len, 100);
    mkframe(f, 100, MAC_B, MAC_A, 1);
    assert_memory_equal(a[0].payload, f, 100);
    assert_int_equal(a[1].time, 1000000000000LL);
    assert_int_equal(a[1].bytes, 64);
    assert_int_equal(a[1].dest, 2); /* C appears as a source only later */

    const replay_frame *b = replay_frames(r, 1);
    assert_int_equal(b[0].time, 500000000000LL);
    assert_int_equal(b[0].bytes, 64); /* 42 + 4 padded to 64 */
    assert_int_equal(b[0].payload_len, 42);
    assert_int_equal(b[0].dest, REPLAY_BROADCAST);
    assert_int_equal(b[1].dest, REPLAY_BROADCAST); /* multicast */

    const replay_frame *cc = replay_frames(r, 2);
    assert_int_equal(cc[0].bytes, 1518);
    assert_int_equal(cc[0].dest, REPLAY_BROADCAST); /* not a station */
    assert_int_equal(cc[1].time, 1250000001000LL);
    assert_int_equal(cc[1].dest, REPLAY_BROADCAST); /* to itself */

    replay_stats st;
    replay_get_stats(r, &st);
    assert_int_equal(st.frames_read, 6);
    assert_int_equal(st.frames_loaded, 6);
    assert_int_equal(st.sources, 3);
    assert_int_equal(st.fcs_stripped, 0);
    replay_destroy(r);
}

static void test_sizes_fcs_and_rejects(void **state)
{
    (void)state;
    cap c;
    cap_open(&c, "sizes.pcap", DLT_EN10MB);
    uint8_t f[2000];
    uint32_t n = mkframe(f, 1514, MAC_B, MAC_A, 1);
    cap_add(&c, 0, f, n, n);                    /* 1518 on the wire: kept */
    n = mkframe(f, 1515, MAC_B, MAC_A, 2);
    cap_add(&c, 1000, f, n, n);                 /* 1519: rejected */
    n = mkframe(f, 1518, MAC_B, MAC_A, 3);      /* VLAN-sized: rejected */
    cap_add(&c, 2000, f, n, n);
    n = mkframe(f, 60, MAC_B, MAC_A, 4);
    ethframe_put_fcs(f, 60);                    /* captured with its FCS */
    cap_add(&c, 3000, f, 64, 64);
    n = mkframe(f, 1514, MAC_B, MAC_A, 5);
    ethframe_put_fcs(f, 1514);                  /* 1518 with FCS: kept as is */
    cap_add(&c, 4000, f, 1518, 1518);
    cap_add(&c, 5000, f, 10, 10);               /* runt */
    n = mkframe(f, 1000, MAC_B, MAC_A, 6);
    cap_add(&c, 6000, f, 96, 1000);             /* snapped at 96 octets */
    cap_close(&c);

    replay *r = load_ok(c.path, 1.0, 0);
    replay_stats st;
    replay_get_stats(r, &st);
    assert_int_equal(st.frames_read, 7);
    assert_int_equal(st.frames_loaded, 4);
    assert_int_equal(st.oversize, 2);
    assert_int_equal(st.runt, 1);
    assert_int_equal(st.fcs_stripped, 2);
    assert_int_equal(st.snapped, 1);
    assert_int_equal(replay_rejected(r), 3);
    assert_int_equal(replay_station_count(r), 1);
    const replay_frame *a = replay_frames(r, 0);
    assert_int_equal(replay_frame_count(r, 0), 4);
    assert_int_equal(a[0].bytes, 1518);
    assert_int_equal(a[0].payload_len, 1514);
    assert_int_equal(a[1].bytes, 64);
    assert_int_equal(a[1].payload_len, 60);
    assert_int_equal(a[1].time, 3000000);
    assert_int_equal(a[2].bytes, 1518);
    assert_int_equal(a[2].payload_len, 1514);
    assert_int_equal(a[3].bytes, 1004);
    assert_int_equal(a[3].payload_len, 96);
    mkframe(f, 1000, MAC_B, MAC_A, 6);
    assert_memory_equal(a[3].payload, f, 96);
    replay_destroy(r);
}

static void test_cap_scale_and_order(void **state)
{
    (void)state;
    cap c;
    cap_open(&c, "order.pcap", DLT_EN10MB);
    uint8_t f[200];
    /* Stamps out of file order (pcapng merges do this); B is earliest. */
    cap_add(&c, 5000000, f, mkframe(f, 60, MAC_B, MAC_A, 1), 60);
    cap_add(&c, 2000000, f, mkframe(f, 60, MAC_C, MAC_B, 2), 60);
    cap_add(&c, 3000000, f, mkframe(f, 61, MAC_B, MAC_A, 3), 61);
    cap_add(&c, 3000000, f, mkframe(f, 62, MAC_B, MAC_A, 4), 62);
    cap_add(&c, 9000000, f, mkframe(f, 60, MAC_A, MAC_C, 5), 60);
    cap_close(&c);

    replay *r = load_ok(c.path, 0.5, 2);
    assert_int_equal(replay_station_count(r), 2);
    replay_stats st;
    replay_get_stats(r, &st);
    assert_int_equal(st.over_cap, 1);
    assert_int_equal(st.sources, 3);
    assert_int_equal(replay_rejected(r), 1);
    const replay_frame *a = replay_frames(r, 0);
    assert_int_equal(replay_frame_count(r, 0), 3);
    /* Relative to the earliest stamp (2 ms), halved, in time order, equal
     * stamps in file order. */
    assert_int_equal(a[0].time, 500000000);
    assert_int_equal(a[0].payload_len, 61);
    assert_int_equal(a[1].time, 500000000);
    assert_int_equal(a[1].payload_len, 62);
    assert_int_equal(a[2].time, 1500000000);
    const replay_frame *b = replay_frames(r, 1);
    assert_int_equal(b[0].time, 0);
    assert_int_equal(b[0].dest, REPLAY_BROADCAST); /* C is over the cap */
    replay_destroy(r);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void test_netanalyzer(void **state)
{
    (void)state;
    uint8_t f[200];
    for (int transparent = 0; transparent < 2; transparent++) {
        cap c;
        cap_open(&c, transparent ? "na-t.pcap" : "na.pcap",
                 transparent ? DLT_NETANALYZER_TRANSPARENT : DLT_NETANALYZER);
        uint32_t hl = transparent ? 12 : 4;
        /* A good 64-octet frame (with FCS, as netANALYZER captures). */
        mkframe(f + hl, 60, MAC_B, MAC_A, 1);
        ethframe_put_fcs(f + hl, 60);
        put_le32(f, 1u << 10 | (transparent ? 1u << 9 : 0));
        if (transparent)
            memcpy(f + 4, (uint8_t[]){0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0xD5}, 8);
        cap_add(&c, 0, f, hl + 64, hl + 64);
        /* The same with "FCS error" and "shorter than 64" flags. */
        put_le32(f, 1u << 10 | 0x24);
        cap_add(&c, 100, f, hl + 30, hl + 30);
        /* A GPIO event: not a frame. */
        put_le32(f, 1u << 8);
        cap_add(&c, 200, f, 4, 4);
        cap_close(&c);

        replay *r = load_ok(c.path, 1.0, 0);
        replay_stats st;
        replay_get_stats(r, &st);
        assert_int_equal(st.frames_read, 2);
        assert_int_equal(st.errored, 1);
        assert_int_equal(st.fcs_stripped, 1);
        assert_int_equal(replay_station_count(r), 1);
        const replay_frame *a = replay_frames(r, 0);
        assert_int_equal(a[0].bytes, 64);
        assert_int_equal(a[0].payload_len, 60);
        assert_memory_equal(a[0].payload, f + hl, 60);
        replay_destroy(r);
    }
}

/* A minimal pcapng: section header, one Ethernet interface (microsecond
 * stamps, the default), two enhanced packet blocks. */
static size_t put_block(uint8_t *p, uint32_t type, const uint8_t *body, uint32_t body_len)
{
    uint32_t total = 12 + ((body_len + 3) & ~3u);
    put_le32(p, type);
    put_le32(p + 4, total);
    memset(p + 8, 0, total - 12);
    memcpy(p + 8, body, body_len);
    put_le32(p + total - 4, total);
    return total;
}

static void test_pcapng(void **state)
{
    (void)state;
    uint8_t file[1024], body[256], f[64];
    size_t n = 0;
    uint8_t shb[16] = {0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0};
    memset(shb + 8, 0xFF, 8); /* section length unknown */
    n += put_block(file + n, 0x0A0D0D0A, shb, sizeof shb);
    uint8_t idb[8] = {1, 0, 0, 0, 0xFF, 0xFF, 0, 0}; /* LINKTYPE_ETHERNET, snaplen 65535 */
    n += put_block(file + n, 1, idb, sizeof idb);
    for (int i = 0; i < 2; i++) {
        uint32_t len = mkframe(f, 60, i ? MAC_A : MAC_B, i ? MAC_B : MAC_A, (uint8_t)i);
        uint64_t us = 1000000 + 250 * (uint64_t)i;
        put_le32(body, 0);                      /* interface 0 */
        put_le32(body + 4, (uint32_t)(us >> 32));
        put_le32(body + 8, (uint32_t)us);
        put_le32(body + 12, len);
        put_le32(body + 16, len);
        memcpy(body + 20, f, len);
        n += put_block(file + n, 6, body, 20 + len);
    }
    char path[400];
    snprintf(path, sizeof path, "%s/two.pcapng", dir);
    FILE *fp = fopen(path, "wb");
    fwrite(file, 1, n, fp);
    fclose(fp);

    replay *r = load_ok(path, 1.0, 0);
    assert_int_equal(replay_station_count(r), 2);
    assert_int_equal(replay_frames(r, 0)[0].dest, 1);
    assert_int_equal(replay_frames(r, 1)[0].dest, 0);
    assert_int_equal(replay_frames(r, 1)[0].time, 250000000); /* 250 us */
    replay_destroy(r);

    /* Cut inside the second packet block: truncated. */
    fp = fopen(path, "wb");
    fwrite(file, 1, n - 30, fp);
    fclose(fp);
    load_fails(path, "truncated");
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(p, 1, n, f);
    fclose(f);
}

static void test_errors(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/missing.pcap", dir);
    load_fails(path, "No such file or directory");

    snprintf(path, sizeof path, "%s/empty.pcap", dir);
    write_bytes(path, "", 0);
    load_fails(path, "empty file");

    snprintf(path, sizeof path, "%s/text.pcap", dir);
    write_bytes(path, "this is not a capture at all\n", 29);
    load_fails(path, "not a pcap or pcapng capture");

    snprintf(path, sizeof path, "%s/short-header.pcap", dir);
    write_bytes(path, "\xd4\xc3\xb2\xa1\x02\x00", 6);
    load_fails(path, "truncated dump file");

    load_fails(dir, "Is a directory");

    /* A record cut short. */
    cap c;
    cap_open(&c, "cut.pcap", DLT_EN10MB);
    uint8_t f[200];
    cap_add(&c, 0, f, mkframe(f, 100, MAC_B, MAC_A, 1), 100);
    cap_add(&c, 1, f, mkframe(f, 100, MAC_B, MAC_A, 1), 100);
    cap_close(&c);
    if (truncate(c.path, 24 + 16 + 100 + 16 + 50) != 0)
        fail();
    load_fails(c.path, "truncated dump file; tried to read 100 captured bytes, only got 50");

    cap_open(&c, "raw.pcap", DLT_RAW);
    cap_add(&c, 0, f, 40, 40);
    cap_close(&c);
    load_fails(c.path, "link type RAW (Raw IP) is not Ethernet");

    cap_open(&c, "none.pcap", DLT_EN10MB);
    cap_close(&c);
    load_fails(c.path, "the capture holds no frames");

    cap_open(&c, "big.pcap", DLT_EN10MB);
    cap_add(&c, 0, f, 64, 9000); /* a jumbo frame, snapped */
    cap_add(&c, 1, f, 8, 8);
    cap_close(&c);
    load_fails(c.path, "none of the 2 frames can be replayed (1 over 1518 bytes, 1 shorter "
                       "than an Ethernet header, 0 flagged in error)");

    cap_open(&c, "ok.pcap", DLT_EN10MB);
    cap_add(&c, 0, f, mkframe(f, 100, MAC_B, MAC_A, 1), 100);
    cap_close(&c);
    replay_options o = {.time_scale = 0.0};
    replay *r;
    char err[512];
    assert_int_equal(replay_load(c.path, &o, 64, 1518, &r, err, sizeof err), -1);
    char want[600];
    snprintf(want, sizeof want, "%s: time scale 0 is not a positive number", c.path);
    assert_string_equal(err, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stations_and_destinations),
        cmocka_unit_test(test_sizes_fcs_and_rejects),
        cmocka_unit_test(test_cap_scale_and_order),
        cmocka_unit_test(test_netanalyzer),
        cmocka_unit_test(test_pcapng),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
