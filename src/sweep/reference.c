/* reference.c - the PHY's costs for the throughput formula (reference.h). */
#include "reference.h"

analytic_mb_costs reference_mb_costs(const phy_params *phy, double frame_bytes)
{
    analytic_mb_costs c;
    c.frame_bits = frame_bytes * 8;
    c.wire_bits = phy_mean_wire_bits(phy, c.frame_bits);
    c.overhead_bits = (double)phy->preamble_bits + phy->ifg_bits;
    c.slot_bits = phy->slot_bits;
    return c;
}
