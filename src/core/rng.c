/* rng.c - xoshiro256** with splitmix64 seeding; see rng.h. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
    /* Mix the stream id through splitmix64 first, so neighbouring stream
     * ids do not produce neighbouring seeds. */
    uint64_t x = stream;
    uint64_t mixed = seed ^ splitmix64(&x);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&mixed);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1; /* the all-zero state is the one forbidden state */
}

void rng_seed_station(rng *r, uint64_t seed, uint32_t station, unsigned purpose)
{
    rng_seed(r, seed, ((uint64_t)station << 8) | purpose);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_bits(rng *r, unsigned k)
{
    if (k == 0)
        return 0;
    uint64_t x = rng_next(r);
    return k >= 64 ? x : x >> (64 - k);
}

uint64_t rng_below(rng *r, uint64_t n)
{
    /* Lemire, "Fast random integer generation in an interval" (2019). */
    __uint128_t m = (__uint128_t)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (__uint128_t)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

double rng_exp(rng *r, double mean)
{
    /* 1 - u is in (0, 1], so the log is finite. */
    return -mean * log(1.0 - rng_unit(r));
}

double rng_normal(rng *r)
{
    double u1 = 1.0 - rng_unit(r), u2 = rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
