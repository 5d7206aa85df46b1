/* simtime.h - simulated time: a signed 64-bit count of picoseconds.
 *
 * Every bit time, slot, gap and propagation delay in csmacd is an integer
 * number of picoseconds, so runs are exact and reproducible on any machine
 * (1 bit = 100 000 ps at 10 Mb/s, 10 000 ps at 100 Mb/s, 1 000 ps at 1 Gb/s).
 * INT64_MAX picoseconds is about 106 days, far beyond any run.
 * No floating point is used in the timing path; the conversions to seconds
 * below are for reporting only.
 */
#ifndef CSMACD_SIMTIME_H
#define CSMACD_SIMTIME_H

#include <stdint.h>

typedef int64_t sim_time;

#define SIM_TIME_NEVER INT64_MAX
#define SIM_PS_PER_NS ((sim_time)1000)
#define SIM_PS_PER_US ((sim_time)1000000)
#define SIM_PS_PER_MS ((sim_time)1000000000)
#define SIM_PS_PER_S  ((sim_time)1000000000000)

static inline double sim_time_to_s(sim_time t) { return (double)t / 1e12; }
static inline double sim_time_to_us(sim_time t) { return (double)t / 1e6; }

#endif
