/* test_ethframe.c - pins the octets of csmacd's trace frames (ethframe.h).
 *
 * Pins: the IEEE 802.3 CRC-32 (check value of "123456789", a table-free
 * bitwise CRC on random data, FCS sent least significant octet first), the
 * station addresses (02:00:00:00:00:NN from 1, broadcast), the 0x88B5
 * header layout field by field, zero padding, fragment lengths and contents
 * (whole data octets, then 0x55 jam, a part octet dropped), and header
 * parsing. Does not pin how the sink orders records (test_pcap_sink.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ethframe.h"

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static void test_crc(void **state)
{
    (void)state;
    assert_int_equal(ethframe_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
    assert_int_equal(ethframe_crc32(NULL, 0), 0);
    uint8_t buf[1600];
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < sizeof buf; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    for (size_t n = 0; n <= sizeof buf; n += 97)
        assert_int_equal(ethframe_crc32(buf, n), crc_bitwise(buf, n));
    /* FCS: least significant octet first; the check then passes, and a
     * flipped bit anywhere makes it fail. */
    ethframe_put_fcs(buf, 60);
    uint32_t c = crc_bitwise(buf, 60);
    assert_int_equal(buf[60], c & 0xFF);
    assert_int_equal(buf[63], c >> 24);
    assert_true(ethframe_fcs_ok(buf, 64));
    buf[17] ^= 0x10;
    assert_false(ethframe_fcs_ok(buf, 64));
}

static void test_addresses(void **state)
{
    (void)state;
    uint8_t a[6];
    ethframe_station_addr(0, a);
    assert_memory_equal(a, ((uint8_t[]){0x02, 0, 0, 0, 0, 0x01}), 6);
    ethframe_station_addr(41, a);
    assert_memory_equal(a, ((uint8_t[]){0x02, 0, 0, 0, 0, 42}), 6);
    ethframe_station_addr(255, a);
    assert_memory_equal(a, ((uint8_t[]){0x02, 0, 0, 0, 0x01, 0x00}), 6);
    ethframe_station_addr(99999, a);
    assert_memory_equal(a, ((uint8_t[]){0x02, 0, 0, 0x01, 0x86, 0xA0}), 6);
    ethframe_station_addr(ETHFRAME_BROADCAST, a);
    assert_memory_equal(a, ((uint8_t[]){0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), 6);
}

static void test_synthetic_layout(void **state)
{
    (void)state;
    ethframe_info info = {.station = 2, .dest = 6, .frame_number = 0x0102030405u,
                          .attempt = 3, .collisions = 2, .backoff_slots = 5,
                          .queued_ns = 123456789012u};
    uint8_t f[64];
    memset(f, 0xEE, sizeof f);
    ethframe_build_synthetic(&info, 64, f);
    static const uint8_t want[60] = {
        0x02, 0, 0, 0, 0, 7,    /* DA: station index 6 is station 7 */
        0x02, 0, 0, 0, 0, 3,    /* SA */
        0x88, 0xB5,             /* EtherType */
        1, 32, 0, 3,            /* version, length, attempt */
        0, 0, 0, 3,             /* station (from 1) */
        0, 0, 0, 0x01, 0x02, 0x03, 0x04, 0x05, /* frame */
        0, 0, 0, 2,             /* collisions */
        0, 0, 0, 5,             /* backoff slots */
        0, 0, 0, 0x1C, 0xBE, 0x99, 0x1A, 0x14, /* queued ns = 123456789012 */
        /* zero pad to 60 */
    };
    assert_memory_equal(f, want, 60);
    assert_true(ethframe_fcs_ok(f, 64));

    ethframe_header h;
    assert_int_equal(ethframe_parse(f, 64, &h), 0);
    assert_int_equal(h.version, 1);
    assert_int_equal(h.length, 32);
    assert_int_equal(h.attempt, 3);
    assert_int_equal(h.station, 3);
    assert_int_equal(h.frame_number, 0x0102030405u);
    assert_int_equal(h.collisions, 2);
    assert_int_equal(h.backoff_slots, 5);
    assert_int_equal(h.queued_ns, 123456789012u);

    /* Broadcast destination; a large frame is padded with zeros. */
    info.dest = ETHFRAME_BROADCAST;
    info.backoff_slots = UINT64_C(1) << 40; /* saturates */
    uint8_t big[1518];
    ethframe_build_synthetic(&info, sizeof big, big);
    assert_memory_equal(big, ((uint8_t[]){0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), 6);
    assert_int_equal(ethframe_parse(big, sizeof big, &h), 0);
    assert_int_equal(h.backoff_slots, 0xFFFFFFFFu);
    for (size_t i = 46; i < sizeof big - 4; i++)
        assert_int_equal(big[i], 0);
    assert_true(ethframe_fcs_ok(big, sizeof big));

    /* A frame below 50 octets carries the header cut short. */
    uint8_t small[18];
    ethframe_build_synthetic(&info, sizeof small, small);
    assert_int_equal(small[12], 0x88);
    assert_int_equal(small[13], 0xB5);
    assert_true(ethframe_fcs_ok(small, sizeof small));
    assert_int_equal(ethframe_parse(small, sizeof small, &h), -1);
}

static void test_replayed(void **state)
{
    (void)state;
    uint8_t p[20];
    for (int i = 0; i < 20; i++)
        p[i] = (uint8_t)(i + 1);
    uint8_t f[64];
    ethframe_build_replayed(p, 20, 64, f);
    assert_memory_equal(f, p, 20);
    for (int i = 20; i < 60; i++)
        assert_int_equal(f[i], 0);
    assert_true(ethframe_fcs_ok(f, 64));
    /* Bytes beyond the frame are not copied. */
    uint8_t g[24];
    ethframe_build_replayed(p, 20, 24, g);
    assert_memory_equal(g, p, 20);
    assert_true(ethframe_fcs_ok(g, 24));
}

static void test_fragments(void **state)
{
    (void)state;
    /* Collision in the preamble: only the jam's 4 octets. */
    assert_int_equal(ethframe_fragment_bytes(0, 32, 64), 4);
    /* 44 data bits: 5 whole octets, the sixth mixes data and jam; the
     * fragment holds (44 + 32) / 8 = 9 octets. */
    assert_int_equal(ethframe_fragment_bytes(44, 32, 64), 9);
    /* A late collision in the FCS of a 64-octet frame. */
    assert_int_equal(ethframe_fragment_bytes(500, 32, 64), 66);
    /* Carrier extension (1 Gb/s): bits past the frame are not octets. */
    assert_int_equal(ethframe_fragment_bytes(4000, 32, 64), 68);

    ethframe_info info = {.station = 0, .dest = 1, .attempt = 1};
    uint8_t f[64 + 8];
    ethframe_build_synthetic(&info, 64, f);
    uint8_t whole[64];
    memcpy(whole, f, 64);
    /* Station index 2 (station 3), attempt 2: the jam C5 02 00 03. */
    uint32_t len = ethframe_make_fragment(f, 64, 44, 32, 2, 2);
    assert_int_equal(len, 9);
    assert_memory_equal(f, whole, 5);
    assert_memory_equal(f + 5, ((uint8_t[]){0xC5, 0x02, 0x00, 0x03}), 4);
    ethframe_build_synthetic(&info, 64, f);
    len = ethframe_make_fragment(f, 64, 500, 32, 299, 300);
    assert_int_equal(len, 66);
    assert_memory_equal(f, whole, 62);
    assert_memory_equal(f + 62, ((uint8_t[]){0xC5, 0xFF, 0x01, 0x2C}), 4); /* 255+, 300 */
    /* A longer jam goes on with 0x55; a shorter one keeps its first octets. */
    ethframe_build_synthetic(&info, 64, f);
    assert_int_equal(ethframe_make_fragment(f, 64, 0, 48, 0, 1), 6);
    assert_memory_equal(f, ((uint8_t[]){0xC5, 0x01, 0x00, 0x01, 0x55, 0x55}), 6);
    ethframe_build_synthetic(&info, 64, f);
    assert_int_equal(ethframe_make_fragment(f, 64, 0, 16, 0, 1), 2);
    assert_memory_equal(f, ((uint8_t[]){0xC5, 0x01}), 2);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    uint8_t f[64] = {0};
    ethframe_header h;
    f[12] = 0x08; /* IPv4 */
    assert_int_equal(ethframe_parse(f, 64, &h), -1);
    f[12] = 0x88, f[13] = 0xB5, f[14] = 2; /* unknown version */
    assert_int_equal(ethframe_parse(f, 64, &h), -1);
    f[14] = 1;
    assert_int_equal(ethframe_parse(f, 64, &h), 0);
    assert_int_equal(ethframe_parse(f, 45, &h), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_synthetic_layout),
        cmocka_unit_test(test_replayed),
        cmocka_unit_test(test_fragments),
        cmocka_unit_test(test_parse_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
