/* phy.c - the built-in PHY profiles (IEEE 802.3 Table 4-2 and PHY clauses).
 *
 * MAC parameters are those of Table 4-2 for <= 100 Mb/s and 1 Gb/s.
 * Media: velocity factors and lengths are the usual ones for each cable
 * (thick coax 0.77c, thin coax 0.65c, UTP 0.585c). Repeater delays are
 * one-way figures: 10BASE-T 8 bit times; a 100BASE-TX Class II repeater
 * 46 bit times (92 BT round trip, Clause 29's delay budget); a 1000BASE-T repeater 488 bit
 * times (an assumption that keeps the 200 m domain inside the 4096-bit
 * slot; the IEEE table was not available).
 */
#include "phy.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAC_10_100(rate)                                                       \
    .rate_bps = (rate), .slot_bits = 512, .ifg_bits = 96, .ifg_part1_bits = 64, \
    .jam_bits = 32, .preamble_bits = 64, .min_frame_bytes = 64,                \
    .max_frame_bytes = 1518, .attempt_limit = 16, .backoff_limit = 10,         \
    .two_part_deferral = true, .extension = false, .bursting = false,          \
    .burst_limit_bits = 0, .retry_late = true

static const phy_params profiles[] = {
    {.name = "10base5", MAC_10_100(10000000), .topology = TOPOLOGY_BUS,
     .velocity_c = 0.77, .length_m = 500, .max_length_m = 2500},
    {.name = "10base2", MAC_10_100(10000000), .topology = TOPOLOGY_BUS,
     .velocity_c = 0.65, .length_m = 185, .max_length_m = 925},
    {.name = "10baset", MAC_10_100(10000000), .topology = TOPOLOGY_STAR,
     .velocity_c = 0.585, .length_m = 100, .max_length_m = 100, .hub_delay_bits = 8},
    {.name = "100basetx", MAC_10_100(100000000), .topology = TOPOLOGY_STAR,
     .velocity_c = 0.585, .length_m = 100, .max_length_m = 102.5, .hub_delay_bits = 46},
    {.name = "1000baset", .rate_bps = 1000000000, .slot_bits = 4096, .ifg_bits = 96,
     .ifg_part1_bits = 64, .jam_bits = 32, .preamble_bits = 64, .min_frame_bytes = 64,
     .max_frame_bytes = 1518, .attempt_limit = 16, .backoff_limit = 10,
     .two_part_deferral = true, .extension = true, .bursting = true,
     .burst_limit_bits = 65536, .retry_late = false, .topology = TOPOLOGY_STAR,
     .velocity_c = 0.585, .length_m = 100, .max_length_m = 100, .hub_delay_bits = 488},
};

size_t phy_profile_count(void) { return sizeof profiles / sizeof profiles[0]; }

const phy_params *phy_profile_at(size_t i)
{
    return i < phy_profile_count() ? &profiles[i] : NULL;
}

/* Names as the standard writes them (10BASE5, 10BASE-T, 100BASE-TX) and
 * as the profiles are named (10base5, 10baset): compared without case and
 * without hyphens. */
const phy_params *phy_profile_find(const char *name)
{
    char key[sizeof profiles[0].name];
    size_t n = 0;
    for (const char *c = name; *c; c++) {
        if (*c == '-')
            continue;
        if (n + 1 == sizeof key)
            return NULL; /* longer than any profile's name */
        key[n++] = (char)tolower((unsigned char)*c);
    }
    key[n] = '\0';
    for (size_t i = 0; i < phy_profile_count(); i++)
        if (strcmp(profiles[i].name, key) == 0)
            return &profiles[i];
    return NULL;
}

int phy_validate(const phy_params *p, char *err, size_t errlen)
{
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
    if (p->rate_bps < 1000 || p->rate_bps > 1000000000000ULL ||
        1000000000000ULL % p->rate_bps != 0)
        FAIL("rate: %llu b/s does not give a whole number of picoseconds per bit",
             (unsigned long long)p->rate_bps);
    if (p->slot_bits < 8 || p->slot_bits > 1u << 20)
        FAIL("slot-bits: %u is out of range (8 to 1048576)", p->slot_bits);
    if (p->ifg_bits > 1u << 20)
        FAIL("ifg-bits: %u is out of range (0 to 1048576)", p->ifg_bits);
    if (p->ifg_part1_bits > p->ifg_bits)
        FAIL("ifg-part1-bits: %u is longer than the gap (%u bits)", p->ifg_part1_bits,
             p->ifg_bits);
    if (p->jam_bits < 1 || p->jam_bits > 1u << 16)
        FAIL("jam-bits: %u is out of range (1 to 65536)", p->jam_bits);
    if (p->preamble_bits > 1u << 16)
        FAIL("preamble-bits: %u is out of range (0 to 65536)", p->preamble_bits);
    if (p->min_frame_bytes < 18 || p->min_frame_bytes > p->max_frame_bytes)
        FAIL("min-frame: %u bytes must be at least 18 and at most max-frame (%u)",
             p->min_frame_bytes, p->max_frame_bytes);
    if (p->max_frame_bytes > 65535)
        FAIL("max-frame: %u bytes is out of range (at most 65535)", p->max_frame_bytes);
    if (p->attempt_limit < 1 || p->attempt_limit > 1000)
        FAIL("attempt-limit: %u is out of range (1 to 1000)", p->attempt_limit);
    if (p->backoff_limit > 62)
        FAIL("backoff-limit: %u is out of range (0 to 62)", p->backoff_limit);
    if (p->bursting && p->burst_limit_bits == 0)
        FAIL("burst-limit: bursting needs a burst limit above 0 bits");
    if (!(p->velocity_c > 0.0 && p->velocity_c <= 1.0))
        FAIL("velocity: %g is not a fraction of the speed of light in (0, 1]",
             p->velocity_c);
    if (!(p->length_m >= 0.0 && p->length_m <= 1e7))
        FAIL("length: %g m is out of range (0 to 10000 km)", p->length_m);
    if (p->hub_delay_bits > 1u << 20)
        FAIL("hub-delay-bits: %u is out of range", p->hub_delay_bits);
    return 0;
#undef FAIL
}

sim_time phy_cable_ps(const phy_params *p, double metres)
{
    return (sim_time)llround(metres / (p->velocity_c * PHY_SPEED_OF_LIGHT_M_S) * 1e12);
}

phy_timing phy_timing_of(const phy_params *p)
{
    sim_time bit = phy_bit_ps(p);
    return (phy_timing){
        .bit_ps = bit,
        .slot_ps = (sim_time)p->slot_bits * bit,
        .ifg_ps = (sim_time)p->ifg_bits * bit,
        .ifg_part1_ps = (sim_time)p->ifg_part1_bits * bit,
        .jam_ps = (sim_time)p->jam_bits * bit,
        .preamble_ps = (sim_time)p->preamble_bits * bit,
        .hub_ps = (sim_time)p->hub_delay_bits * bit,
    };
}

uint64_t phy_wire_bits(const phy_params *p, uint64_t frame_bits, bool in_burst)
{
    if (p->extension && !in_burst && frame_bits < p->slot_bits)
        return p->slot_bits;
    return frame_bits;
}

double phy_mean_wire_bits(const phy_params *p, double mean_bits)
{
    /* slotTime is whole, so a mean is below it exactly when its whole
     * part is: the rule is asked once, of the whole part. */
    uint64_t whole = mean_bits > 0 ? (uint64_t)mean_bits : 0;
    return phy_wire_bits(p, whole, false) != whole ? (double)p->slot_bits : mean_bits;
}
