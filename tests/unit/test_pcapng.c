/* test_pcapng.c - pins the pcapng writer's bytes and the record comment.
 *
 * Pins: the section header block byte for byte (type, lengths at both
 * ends, little-endian byte-order magic, version 1.0, section length -1,
 * options padded to 4 and ended by opt_endofopt); an interface's
 * if_tsresol 9 and if_fcslen 32; an enhanced packet block's 64-bit
 * nanosecond stamp split high/low, data padded, comment and epb_flags;
 * blocks without options carry no opt_endofopt; the comment of a whole
 * frame, a retry, a late collision and with a group; the reader
 * (pcapng_read.h) on what the writer wrote (two interfaces of different
 * link types, stamps, flags, FCS lengths), on a big-endian section with
 * millisecond stamps and an offset, and its refusals (a bad trailer, a
 * truncated block, a packet on an undescribed interface). Does not pin
 * what Wireshark makes of the file (tests/pcap/test_pcapng.sh does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pcap_sink.h"
#include "pcapng.h"
#include "pcapng_read.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Writes with fn into memory; returns the bytes (caller frees). */
static uint8_t *in_memory(size_t *len, int (*fn)(FILE *f))
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    assert_int_equal(fn(f), 0);
    assert_int_equal(fclose(f), 0);
    return (uint8_t *)buf;
}

static int write_shb(FILE *f) { return pcapng_write_section(f, "csmacd 1", "abcde"); }

static void test_section(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = in_memory(&len, write_shb);
    /* 8 header + 16 body + (4 + 8 "abcde" padded) + (4 + 8 "csmacd 1") + 4 end + 4 */
    assert_int_equal(len, 56);
    static const uint8_t head[] = {0x0A, 0x0D, 0x0D, 0x0A, 56, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A,
                                   1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                   1, 0, 5, 0, 'a', 'b', 'c', 'd', 'e', 0, 0, 0,
                                   4, 0, 8, 0, 'c', 's', 'm', 'a', 'c', 'd', ' ', '1',
                                   0, 0, 0, 0, 56, 0, 0, 0};
    assert_memory_equal(b, head, sizeof head);
    free(b);
}

static int write_idb(FILE *f)
{
    pcapng_interface i = {.linktype = 1, .snaplen = 65535, .fcs_bits = 32};
    return pcapng_write_interface(f, &i);
}

static void test_interface(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = in_memory(&len, write_idb);
    /* 8 + 8 body + tsresol (4 + 4) + fcslen (4 + 4) + end 4 + 4 */
    assert_int_equal(len, 40);
    assert_int_equal(le32(b), 1);
    assert_int_equal(b[8], 1);
    assert_int_equal(le32(b + 12), 65535);
    assert_int_equal(le32(b + 16), 9 | 1 << 16);
    assert_int_equal(b[20], 9);
    assert_int_equal(le32(b + 24), 13 | 1 << 16);
    assert_int_equal(b[28], 32);
    assert_int_equal(le32(b + 32), 0);
    assert_int_equal(le32(b + 36), 40);
    free(b);
}

static int write_epb(FILE *f)
{
    static const uint8_t data[5] = {1, 2, 3, 4, 5};
    return pcapng_write_packet(f, 1, UINT64_C(0x0000000100000002), data, 5,
                               PCAPNG_EPB_CRC_ERROR | PCAPNG_EPB_TOO_SHORT, "hi");
}

static int write_bare_epb(FILE *f)
{
    static const uint8_t data[4] = {1, 2, 3, 4};
    return pcapng_write_packet(f, 0, 7, data, 4, 0, NULL);
}

static void test_packet(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = in_memory(&len, write_epb);
    /* 8 + 20 + 8 data + comment (4 + 4) + flags (4 + 4) + end 4 + 4 */
    assert_int_equal(len, 60);
    assert_int_equal(le32(b), 6);
    assert_int_equal(le32(b + 8), 1);
    assert_int_equal(le32(b + 12), 1); /* high */
    assert_int_equal(le32(b + 16), 2); /* low */
    assert_int_equal(le32(b + 20), 5);
    assert_int_equal(le32(b + 24), 5);
    static const uint8_t tail[] = {1, 2, 3, 4, 5, 0, 0, 0, 1, 0, 2, 0, 'h', 'i', 0, 0,
                                   2, 0, 4, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 60, 0, 0, 0};
    assert_memory_equal(b + 28, tail, sizeof tail);
    free(b);
    b = in_memory(&len, write_bare_epb);
    assert_int_equal(len, 36); /* no options: no opt_endofopt */
    assert_int_equal(le32(b + 32), 36);
    free(b);
}

static trace_event story_event(void)
{
    trace_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TRACE_TX_END;
    ev.station = 2;
    ev.frame_id = (UINT64_C(2) << 40) | 16;
    ev.attempt = 1;
    ev.queued_at = 0;
    ev.tx_start = 12300 * SIM_PS_PER_NS + 999; /* rounded down to the ns */
    ev.jam_start = SIM_TIME_NEVER;
    return ev;
}

static void test_story(void **state)
{
    (void)state;
    char buf[256];
    trace_event ev = story_event();
    pcap_sink_story(buf, sizeof buf, &ev, NULL);
    assert_string_equal(buf, "station 3, frame 17, attempt 1, sent whole, queued 12.300 us");
    ev.attempt = 3;
    ev.collisions = 2;
    ev.backoff_slots = 5;
    ev.jam_start = ev.tx_start + 1;
    ev.late = true;
    pcap_sink_story(buf, sizeof buf, &ev, NULL);
    assert_string_equal(buf, "station 3, frame 17, attempt 3 (retry), collision 3 (late), "
                             "backoff 5 slots, queued 12.300 us");
    ev.late = false;
    ev.backoff_slots = 1;
    ev.jam_start = SIM_TIME_NEVER;
    pcap_sink_story(buf, sizeof buf, &ev, "servers");
    assert_string_equal(buf, "station 3, frame 17, attempt 3 (retry), sent whole, backoff 1 "
                             "slot, queued 12.300 us, group servers");
    /* Cut short, still terminated. */
    assert_int_equal(pcap_sink_story(buf, 8, &ev, NULL), 7);
    assert_string_equal(buf, "station");
}

static void test_container_for_path(void **state)
{
    (void)state;
    assert_int_equal(pcap_sink_container_for_path("a.pcap"), PCAP_SINK_PCAP);
    assert_int_equal(pcap_sink_container_for_path("A.PCAP"), PCAP_SINK_PCAP);
    assert_int_equal(pcap_sink_container_for_path("a.pcapng"), PCAP_SINK_PCAPNG);
    assert_int_equal(pcap_sink_container_for_path("-"), PCAP_SINK_PCAPNG);
    assert_int_equal(pcap_sink_container_for_path("pcap"), PCAP_SINK_PCAPNG);
    assert_int_equal(pcap_sink_container_for_path(".pcap"), PCAP_SINK_PCAP);
}

static int write_two_interfaces(FILE *f)
{
    static const uint8_t frame[64] = {1, 2, 3};
    static const uint8_t frag[8] = {9, 9};
    pcapng_interface eth = {.linktype = PCAPNG_LINKTYPE_ETHERNET, .snaplen = 65535,
                            .name = "a", .fcs_bits = 32};
    pcapng_interface na = {.linktype = PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT,
                           .snaplen = 65535, .description = "b"};
    if (pcapng_write_section(f, "x", NULL) || pcapng_write_interface(f, &eth) ||
        pcapng_write_interface(f, &na))
        return -1;
    if (pcapng_write_packet(f, 0, UINT64_C(946684800000000309), frame, 64,
                            PCAPNG_EPB_FCS_LEN(4), "whole"))
        return -1;
    return pcapng_write_packet(f, 1, UINT64_C(946684800000001000), frag, 8,
                               PCAPNG_EPB_CRC_ERROR | PCAPNG_EPB_TOO_SHORT, NULL);
}

/* Reads every record of buf; returns how many, or -1 with the reason. */
static int read_all(const uint8_t *buf, size_t len, pcapng_record *out, int max, char *why)
{
    FILE *f = fmemopen((void *)buf, len, "rb");
    assert_non_null(f);
    pcapng_reader *r;
    assert_int_equal(pcapng_read_open(f, &r, why, 200), 0);
    int n = 0, rc;
    pcapng_record rec;
    while ((rc = pcapng_read_next(r, &rec, why, 200)) == 1) {
        if (n < max) {
            out[n] = rec;
            out[n].data = NULL; /* valid only until the next call */
        }
        n++;
    }
    pcapng_read_close(r);
    fclose(f);
    return rc < 0 ? -1 : n;
}

static void test_read_back(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = in_memory(&len, write_two_interfaces);
    assert_true(pcapng_read_magic(b));
    pcapng_record rec[4];
    char why[200];
    assert_int_equal(read_all(b, len, rec, 4, why), 2);
    assert_int_equal(rec[0].linktype, 1);
    assert_int_equal(rec[0].t_ns, INT64_C(946684800000000309));
    assert_int_equal(rec[0].caplen, 64);
    assert_int_equal(rec[0].fcs_bytes, 4);
    assert_int_equal(rec[1].linktype, 241);
    assert_int_equal(rec[1].len, 8);
    assert_int_equal(rec[1].flags, PCAPNG_EPB_CRC_ERROR | PCAPNG_EPB_TOO_SHORT);
    assert_int_equal(rec[1].fcs_bytes, PCAPNG_READ_FCS_UNKNOWN);

    /* The trailer of the last block differs from its length. */
    b[len - 1] ^= 1;
    assert_int_equal(read_all(b, len, rec, 4, why), -1);
    assert_string_equal(why, "pcapng block trailer differs from its length");
    b[len - 1] ^= 1;
    /* Cut inside the last block. */
    assert_int_equal(read_all(b, len - 6, rec, 4, why), -1);
    assert_string_equal(why, "truncated pcapng block");
    free(b);
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void test_read_big_endian(void **state)
{
    (void)state;
    uint8_t f[256];
    memset(f, 0, sizeof f);
    /* SHB, 28 octets: big-endian magic, version 1.0, length -1. */
    be32(f, 0x0A0D0D0A), be32(f + 4, 28), be32(f + 8, 0x1A2B3C4D), f[13] = 1;
    memset(f + 16, 0xFF, 8);
    be32(f + 24, 28);
    /* IDB at 28, 48 octets: Ethernet; if_tsresol 3 (ms), if_tsoffset 100 s. */
    uint8_t *i = f + 28;
    be32(i, 1), be32(i + 4, 48), i[9] = 1, be32(i + 12, 65535);
    i[17] = 9, i[19] = 1, i[20] = 3;             /* tsresol: ms */
    i[25] = 14, i[27] = 8, i[35] = 100;          /* tsoffset: 100 s */
    be32(i + 44, 48);
    /* EPB at 76, 32 + 4 octets of data. */
    uint8_t *e = f + 76;
    be32(e, 6), be32(e + 4, 36), be32(e + 16, 1500); /* 1.5 s */
    be32(e + 20, 4), be32(e + 24, 4);
    be32(e + 32, 36);
    pcapng_record rec[2];
    char why[200];
    assert_int_equal(read_all(f, 112, rec, 2, why), 1);
    assert_int_equal(rec[0].linktype, 1);
    assert_int_equal(rec[0].t_ns, INT64_C(101500000000));
    /* A packet on interface 1, never described. */
    be32(e + 8, 1);
    assert_int_equal(read_all(f, 112, rec, 2, why), -1);
    assert_string_equal(why, "pcapng packet on an interface never described");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_section),
        cmocka_unit_test(test_interface),
        cmocka_unit_test(test_packet),
        cmocka_unit_test(test_story),
        cmocka_unit_test(test_container_for_path),
        cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_read_big_endian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
