/* analytic.c - the closed forms of analytic.h.
 *
 * Each formula is written as its source states it (cited in analytic.h)
 * and pinned by tests/unit/test_analytic.c against tables computed
 * independently from the same closed forms. Cost: O(1) each, a few
 * exp/pow calls.
 */
#include "analytic.h"

#include <math.h>

double analytic_mb_acquisition(double q)
{
    if (!(q >= 1.0))
        return NAN;
    if (q == 1.0)
        return 1.0; /* 0^0: one station always acquires */
    return pow(1.0 - 1.0 / q, q - 1.0);
}

double analytic_mb_wasted_slots(double q)
{
    double a = analytic_mb_acquisition(q);
    return (1.0 - a) / a;
}

double analytic_mb_efficiency(double q, double frame_bits, double slot_bits)
{
    return frame_bits / (frame_bits + analytic_mb_wasted_slots(q) * slot_bits);
}

double analytic_mb_throughput(double q, const analytic_mb_costs *c)
{
    return c->frame_bits /
           (c->wire_bits + c->overhead_bits + analytic_mb_wasted_slots(q) * c->slot_bits);
}

double analytic_aloha_pure(double g)
{
    return g < 0 ? NAN : g * exp(-2.0 * g);
}

double analytic_aloha_slotted(double g)
{
    return g < 0 ? NAN : g * exp(-g);
}

double analytic_csma_nonpersistent(double g, double a)
{
    if (g < 0 || a < 0)
        return NAN;
    double x = exp(-a * g);
    return g * x / (g * (1.0 + 2.0 * a) + x);
}

double analytic_csma_slotted_nonpersistent(double g, double a)
{
    if (g < 0 || !(a > 0))
        return NAN;
    double x = exp(-a * g);
    return a * g * x / (1.0 - x + a);
}

double analytic_csma_1persistent(double g, double a)
{
    if (g < 0 || a < 0)
        return NAN;
    double num = g * (1.0 + g + a * g * (1.0 + g + a * g / 2.0)) * exp(-g * (1.0 + 2.0 * a));
    double den = g * (1.0 + 2.0 * a) - (1.0 - exp(-a * g)) + (1.0 + a * g) * exp(-g * (1.0 + a));
    return num / den;
}

double analytic_csma_slotted_1persistent(double g, double a)
{
    if (g < 0 || !(a > 0))
        return NAN;
    double num = g * exp(-g * (1.0 + a)) * (1.0 + a - exp(-a * g));
    double den = (1.0 + a) * (1.0 - exp(-a * g)) + a * exp(-g * (1.0 + a));
    return num / den;
}

/* Tobagi and Hunt (1980) slotted non-persistent CSMA/CD, as a renewal
 * process (analytic.h): per cycle, the idle mini-slots, then a success
 * (1 + a, probability y / (1 - x)) or a collision (2a + b):
 *     S = y / (y + b (1 - x - y) + a (2 - x - y)),  x = e^{-aG}, y = aG x. */
double analytic_csmacd_slotted_nonpersistent(double g, double a, double b)
{
    if (g < 0 || !(a > 0) || b < 0)
        return NAN;
    double x = exp(-a * g);
    double y = a * g * x;
    return y / (y + b * (1.0 - x - y) + a * (2.0 - x - y));
}

double analytic_efficiency_ka(double a, double k)
{
    return a < 0 ? NAN : 1.0 / (1.0 + k * a);
}
