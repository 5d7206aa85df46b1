/* test_phy_profiles.c - every field of every built-in PHY profile against
 * the standard's tables.
 *
 * MAC parameters: IEEE 802.3 4.4.2 Table 4-2 ("MAC parameters"):
 * slotTime 512 bit times at 10 and 100 Mb/s and 4096 at 1 Gb/s;
 * interPacketGap 96 bits; attemptLimit 16; backoffLimit 10; jamSize 32
 * bits; maxBasicFrameSize 1518 octets; minFrameSize 512 bits (64 octets);
 * burstLimit 65 536 bits at 1 Gb/s (not applicable below). The preamble
 * (56 bits) and SFD (8 bits) of 4.2.5-4.2.6 make 64 bits; 4.2.7.2 splits
 * the gap into interPacketGapPart1 = 64 bits and part 2 = 32. Carrier
 * extension (4.2.3.4) applies where slotTime exceeds minFrameSize, i.e. at
 * 1 Gb/s only; frame bursting is optional at 1 Gb/s, on by default here;
 * a late collision is retried at 10 and 100 Mb/s and ends the frame at
 * 1 Gb/s (stations/MODEL.md).
 *
 * Media (stations/MODEL.md, "PHY values that needed a choice"): 10BASE5
 * thick coax at 0.77 c, 500 m segments, a 2500 m collision domain (5-4-3
 * rule); 10BASE2 thin coax at 0.65 c, 185 m segments, 925 m; 10BASE-T,
 * 100BASE-TX and 1000BASE-T on UTP at 0.585 c with 100 m drops from a
 * repeater hub: 8 bit times one way through a 10BASE-T repeater, 46 (a
 * Class II repeater: 92 bit times round trip, Clause 29) at 100 Mb/s, 488
 * at 1 Gb/s; 100BASE-TX's collision domain allows 102.5 m drops (205 m
 * across two Class II repeaters' worth of copper). A profile that changes
 * must change here too, with the clause that says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "phy.h"

typedef struct expected {
    const char *name;
    uint64_t rate_bps;
    uint32_t slot_bits;
    bool extension, bursting, retry_late;
    uint32_t burst_limit_bits;
    topology_kind topology;
    double velocity_c, length_m, max_length_m;
    uint32_t hub_delay_bits;
} expected;

static const expected table[] = {
    /* name        rate        slot  ext    burst  retry  burstLimit topology      v      len    max    hub */
    {"10base5",   10000000,   512,  false, false, true,  0,     TOPOLOGY_BUS,  0.77,  500, 2500,  0},
    {"10base2",   10000000,   512,  false, false, true,  0,     TOPOLOGY_BUS,  0.65,  185, 925,   0},
    {"10baset",   10000000,   512,  false, false, true,  0,     TOPOLOGY_STAR, 0.585, 100, 100,   8},
    {"100basetx", 100000000,  512,  false, false, true,  0,     TOPOLOGY_STAR, 0.585, 100, 102.5, 46},
    {"1000baset", 1000000000, 4096, true,  true,  false, 65536, TOPOLOGY_STAR, 0.585, 100, 100,   488},
};

/* Exactly the five profiles, in this order (the order of `csmacd presets`
 * and of the README's table), each found by name. */
static void test_profile_list(void **state)
{
    (void)state;
    assert_int_equal(phy_profile_count(), sizeof table / sizeof table[0]);
    for (size_t i = 0; i < phy_profile_count(); i++) {
        assert_string_equal(phy_profile_at(i)->name, table[i].name);
        assert_ptr_equal(phy_profile_find(table[i].name), phy_profile_at(i));
    }
    assert_null(phy_profile_at(phy_profile_count()));
}

/* Table 4-2's rows common to every rate, and the preamble and gap split. */
/* Names as users write them: the standard's spellings in any case, with
 * or without the hyphen, find the profile; anything else does not. */
static void test_profile_spellings(void **state)
{
    (void)state;
    static const struct { const char *typed, *profile; } ok[] = {
        {"10BASE5", "10base5"},     {"10Base5", "10base5"},     {"10BASE2", "10base2"},
        {"10BASE-T", "10baset"},    {"10baseT", "10baset"},     {"10base-t", "10baset"},
        {"100BASE-TX", "100basetx"}, {"100baseTX", "100basetx"}, {"100base-tx", "100basetx"},
        {"1000BASE-T", "1000baset"}, {"1000baset", "1000baset"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const phy_params *p = phy_profile_find(ok[i].typed);
        if (p == NULL || strcmp(p->name, ok[i].profile) != 0)
            fail_msg("%s: found %s, want %s", ok[i].typed, p ? p->name : "nothing",
                     ok[i].profile);
    }
    static const char *bad[] = {"10BASE-X", "10 BASE 5", "", "10base5x", "100basetxxxxxxxxxxx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_null(phy_profile_find(bad[i]));
}

static void test_table_4_2_common(void **state)
{
    (void)state;
    for (size_t i = 0; i < phy_profile_count(); i++) {
        const phy_params *p = phy_profile_at(i);
        print_message("%s\n", p->name);
        assert_int_equal(p->ifg_bits, 96);        /* interPacketGap */
        assert_int_equal(p->ifg_part1_bits, 64);  /* 4.2.7.2 interPacketGapPart1 */
        assert_int_equal(p->jam_bits, 32);        /* jamSize */
        assert_int_equal(p->preamble_bits, 64);   /* 56 preamble + 8 SFD (4.2.5, 4.2.6) */
        assert_int_equal(p->min_frame_bytes, 64); /* minFrameSize 512 bits */
        assert_int_equal(p->max_frame_bytes, 1518); /* maxBasicFrameSize */
        assert_int_equal(p->attempt_limit, 16);   /* attemptLimit */
        assert_int_equal(p->backoff_limit, 10);   /* backoffLimit */
        assert_true(p->two_part_deferral);        /* 4.2.3.2.1, the NOTE */
        assert_int_equal(phy_validate(p, (char[128]){0}, 128), 0);
    }
}

/* The rows that depend on the rate, and each profile's medium. */
static void test_rate_and_medium(void **state)
{
    (void)state;
    for (size_t i = 0; i < phy_profile_count(); i++) {
        const phy_params *p = phy_profile_at(i);
        const expected *e = &table[i];
        print_message("%s\n", p->name);
        assert_int_equal(p->rate_bps, e->rate_bps);
        assert_int_equal(p->slot_bits, e->slot_bits);         /* slotTime */
        assert_int_equal(p->extension, e->extension);         /* 4.2.3.4 */
        assert_int_equal(p->bursting, e->bursting);           /* 4.2.3.4, optional */
        assert_int_equal(p->burst_limit_bits, e->burst_limit_bits); /* burstLimit */
        assert_int_equal(p->retry_late, e->retry_late);
        assert_int_equal(p->topology, e->topology);
        assert_true(p->velocity_c == e->velocity_c);
        assert_true(p->length_m == e->length_m);
        assert_true(p->max_length_m == e->max_length_m);
        assert_int_equal(p->hub_delay_bits, e->hub_delay_bits);
    }
}

/* Derived figures: one bit in picoseconds, and the extension's longest
 * stretch (slotTime - minFrameSize = 448 octets at 1 Gb/s, none below). */
static void test_derived(void **state)
{
    (void)state;
    assert_int_equal(phy_bit_ps(phy_profile_find("10base5")), 100000);
    assert_int_equal(phy_bit_ps(phy_profile_find("100basetx")), 10000);
    assert_int_equal(phy_bit_ps(phy_profile_find("1000baset")), 1000);
    const phy_params *g = phy_profile_find("1000baset");
    assert_int_equal(g->slot_bits - 8 * g->min_frame_bytes, 448 * 8);
    const phy_params *t = phy_profile_find("10baset");
    assert_int_equal(t->slot_bits, 8 * t->min_frame_bytes);
    /* maxDeferTime (5.2.4.1): 2 x (burstLimit + maxBasicFrameSize x 8 +
     * headerSize) = 155 488 bit times above 100 Mb/s. */
    assert_int_equal(2 * (g->burst_limit_bits + g->max_frame_bytes * 8 + 64), 155488);
    /* Propagation: metres / (v c), rounded to the picosecond. 500 m of
     * thick coax: 500 / (0.77 x 299 792 458) s = 2 166 000.6... ps. */
    const phy_params *c = phy_profile_find("10base5");
    assert_int_equal(phy_cable_ps(c, 500), 2166001);
    assert_int_equal(phy_cable_ps(c, 0), 0);
    /* 100 m of UTP: 100 / (0.585 x 299 792 458) s = 570 195.03... ps. */
    assert_int_equal(phy_cable_ps(t, 100), 570195);
}

/* The timing every layer asks for, by hand: at 10 Mb/s one bit is
 * 100 000 ps, so slotTime (512 bits) is 51.2 us, the gap (96) 9.6 us, its
 * first part (64) 6.4 us, the jam (32) 3.2 us, the preamble and SFD (64)
 * 6.4 us; 10BASE-T's repeater adds 8 bits, 0.8 us. At 1 Gb/s slotTime is
 * 4096 bits of 1000 ps and the repeater 488 bits. */
static void test_timing(void **state)
{
    (void)state;
    phy_timing t = phy_timing_of(phy_profile_find("10baset"));
    assert_int_equal(t.bit_ps, 100000);
    assert_int_equal(t.slot_ps, 51200000);
    assert_int_equal(t.ifg_ps, 9600000);
    assert_int_equal(t.ifg_part1_ps, 6400000);
    assert_int_equal(t.jam_ps, 3200000);
    assert_int_equal(t.preamble_ps, 6400000);
    assert_int_equal(t.hub_ps, 800000);
    t = phy_timing_of(phy_profile_find("1000baset"));
    assert_int_equal(t.bit_ps, 1000);
    assert_int_equal(t.slot_ps, 4096000);
    assert_int_equal(t.hub_ps, 488000);
}

/* Carrier extension (4.2.3.4): at 1 Gb/s a minimum frame (512 bits) is
 * extended to slotTime (4096), a frame of slotTime or more is not, nor is
 * a frame inside a burst; below 1 Gb/s nothing is extended. A mean frame
 * length follows the same rule. */
static void test_wire_bits(void **state)
{
    (void)state;
    const phy_params *g = phy_profile_find("1000baset");
    assert_int_equal(phy_wire_bits(g, 512, false), 4096);
    assert_int_equal(phy_wire_bits(g, 4095, false), 4096);
    assert_int_equal(phy_wire_bits(g, 4096, false), 4096);
    assert_int_equal(phy_wire_bits(g, 12144, false), 12144);
    assert_int_equal(phy_wire_bits(g, 512, true), 512);
    assert_true(phy_mean_wire_bits(g, 1000.5) == 4096);
    assert_true(phy_mean_wire_bits(g, 4095.5) == 4096);
    assert_true(phy_mean_wire_bits(g, 4096) == 4096);
    assert_true(phy_mean_wire_bits(g, 4096.5) == 4096.5);
    const phy_params *f = phy_profile_find("100basetx");
    assert_int_equal(phy_wire_bits(f, 512, false), 512);
    assert_true(phy_mean_wire_bits(f, 1000.5) == 1000.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_list),
        cmocka_unit_test(test_profile_spellings),
        cmocka_unit_test(test_table_4_2_common),
        cmocka_unit_test(test_rate_and_medium),
        cmocka_unit_test(test_derived),
        cmocka_unit_test(test_timing),
        cmocka_unit_test(test_wire_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
