/* phy.h - PHY profiles: the parameters of IEEE 802.3 Table 4-2 (4.4.2) and
 * of the media each profile runs on.
 *
 * A profile is plain data. The engine copies one and lets the scenario
 * override any field ("what if the cable were 5 km long?"); phy_validate
 * then checks the result. Units are in the names: bits, bytes, metres,
 * picoseconds. Every profile, with the clause behind each value:
 * medium/README.md, "PHY profiles"; the values that needed a choice:
 * stations/MODEL.md, "PHY values that needed a choice".
 */
#ifndef CSMACD_PHY_H
#define CSMACD_PHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

typedef enum topology_kind {
    TOPOLOGY_BUS,  /* one cable; delay = |x_i - x_j| / v */
    TOPOLOGY_STAR, /* repeater hub; delay = L_i/v + hub + L_j/v */
} topology_kind;

#define PHY_SPEED_OF_LIGHT_M_S 299792458.0

typedef struct phy_params {
    char name[16];             /* profile name, e.g. "10base5" */
    uint64_t rate_bps;         /* 10e6, 100e6, 1e9; 1e12 / rate must be whole */
    uint32_t slot_bits;        /* slotTime: 512, or 4096 at 1 Gb/s */
    uint32_t ifg_bits;         /* interPacketGap: 96 */
    uint32_t ifg_part1_bits;   /* restartable first part of the gap: 64 */
    uint32_t jam_bits;         /* jamSize: 32 */
    uint32_t preamble_bits;    /* preamble (56) + SFD (8) = 64 */
    uint32_t min_frame_bytes;  /* minFrameSize: 64 (DA through FCS) */
    uint32_t max_frame_bytes;  /* maxBasicFrameSize: 1518 */
    uint32_t attempt_limit;    /* attemptLimit: 16 */
    uint32_t backoff_limit;    /* backoffLimit: 10 */
    bool two_part_deferral;    /* 4.2.3.2.1 NOTE: restart only in part 1 */
    bool extension;            /* carrier extension to slotTime (1 Gb/s) */
    bool bursting;             /* frame bursting (1 Gb/s, optional) */
    uint32_t burst_limit_bits; /* burstLimit: 65 536 */
    bool retry_late;           /* retry after a late collision (<= 100 Mb/s) */
    topology_kind topology;
    double velocity_c;         /* signal speed as a fraction of c */
    double length_m;           /* bus: cable length; star: each drop cable */
    double max_length_m;       /* longest the standard allows (warned beyond) */
    uint32_t hub_delay_bits;   /* star: one-way delay through the repeater */
} phy_params;

/* The built-in profiles, in a const table. */
size_t phy_profile_count(void);
const phy_params *phy_profile_at(size_t i);
/* A profile by name, in any case, with or without hyphens: "10base5",
 * "10BASE5", "10BASE-T", "100base-tx" (the standard's spellings and the
 * profiles' own). NULL when the name is unknown. */
const phy_params *phy_profile_find(const char *name);

/* Picoseconds per bit (rate must divide 1e12; phy_validate checks). */
static inline sim_time phy_bit_ps(const phy_params *p)
{
    return (sim_time)(1000000000000ULL / p->rate_bps);
}

/* The times a profile's bit counts stand for, in picoseconds: the one
 * place in the program where slotTime, the gap, the jam and the preamble
 * of Table 4-2 become times (bits x bit time, exact integers). For a
 * profile that passed phy_validate every value is below 2^51 ps. */
typedef struct phy_timing {
    sim_time bit_ps;       /* one bit time */
    sim_time slot_ps;      /* slotTime */
    sim_time ifg_ps;       /* interPacketGap */
    sim_time ifg_part1_ps; /* its restartable first part (two-part deferral) */
    sim_time jam_ps;       /* jamSize */
    sim_time preamble_ps;  /* preamble and SFD */
    sim_time hub_ps;       /* star: one-way delay through the repeater */
} phy_timing;

/* Computed once by whoever needs them (the engine, the MAC, the TUI);
 * O(1). */
phy_timing phy_timing_of(const phy_params *p);

/* Bits a frame of frame_bits (DA through FCS, already padded to
 * minFrameSize) occupies on the wire, preamble not counted. With carrier
 * extension (4.2.3.4, 1 Gb/s) a frame shorter than slotTime is extended
 * to it, except a second or later frame of a burst (in_burst), which
 * needs none. Integers only: the MAC times frames with it. */
uint64_t phy_wire_bits(const phy_params *p, uint64_t frame_bits, bool in_burst);

/* The same rule for a mean frame length (the throughput formula's, never
 * in a burst): mean_bits if it is not extended, else slotTime. */
double phy_mean_wire_bits(const phy_params *p, double mean_bits);

/* Checks a (possibly overridden) parameter set. Returns 0, or -1 with a
 * message naming the parameter in err. */
int phy_validate(const phy_params *p, char *err, size_t errlen);

/* Propagation time over `metres` of this medium, rounded to the picosecond. */
sim_time phy_cable_ps(const phy_params *p, double metres);

#endif
