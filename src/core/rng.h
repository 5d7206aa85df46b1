/* rng.h - seeded, independent random streams.
 *
 * xoshiro256** seeded through splitmix64 (Blackman and Vigna). A stream is
 * derived from (seed, stream id), so every station owns a stream that does
 * not depend on how many other stations there are or in which order they
 * draw: a scenario and a seed give the same numbers on any machine and with
 * any number of threads. The generator state is plain data and may be
 * embedded in other structures; nothing here is global.
 */
#ifndef CSMACD_RNG_H
#define CSMACD_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Stream ids used by the engine: one per (station, purpose). */
enum {
    RNG_PURPOSE_BACKOFF = 1,
    RNG_PURPOSE_TRAFFIC = 2,
    RNG_PURPOSE_PLACEMENT = 3,
    RNG_PURPOSE_PORT = 4, /* a bridge port's backoff: "station" = bridge << 8 | port */
};

/* Seeds r for stream `stream` of master seed `seed`. */
void rng_seed(rng *r, uint64_t seed, uint64_t stream);

/* Convenience for per-station streams: stream = station index and purpose. */
void rng_seed_station(rng *r, uint64_t seed, uint32_t station, unsigned purpose);

uint64_t rng_next(rng *r);

/* The top k bits of one draw (0 <= k <= 64): uniform over [0, 2^k) with no
 * modulo bias. This is the backoff draw of 802.3 4.2.3.2.5. */
uint64_t rng_bits(rng *r, unsigned k);

/* Uniform integer in [0, n), n >= 1, without bias (Lemire's method). */
uint64_t rng_below(rng *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits. */
double rng_unit(rng *r);

/* Exponentially distributed with the given mean (> 0). */
double rng_exp(rng *r, double mean);

/* Standard normal (Box-Muller, one value per call). */
double rng_normal(rng *r);

#endif
