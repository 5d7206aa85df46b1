/* reference.h - the analytic reference curves' inputs, taken from a PHY.
 *
 * The throughput formula of theory (analytic_mb_throughput) takes what a
 * frame costs on the wire as plain numbers; this is the one place that
 * reads them off a PHY profile, so the sweep's figures and the TUI's
 * curve draw the same model. It lives here rather than in src/theory,
 * which stays libm-only and knows no PHY.
 */
#ifndef CSMACD_REFERENCE_H
#define CSMACD_REFERENCE_H

#include "analytic.h"
#include "phy.h"

/* Metcalfe and Boggs' costs for frames of frame_bytes (DA through FCS; a
 * mean size may be given) on this PHY: the frame carrier-extended as
 * phy_mean_wire_bits says (never inside a burst: the formula sends one
 * frame per acquisition), preamble, SFD and gap as overhead, slotTime as the
 * contention slot. O(1). */
analytic_mb_costs reference_mb_costs(const phy_params *phy, double frame_bytes);

#endif
