/* traffic.c - frame sizes, destinations and arrival processes; see traffic.h.
 *
 * Offered load G counts frame bits (DA through FCS) per bit time of the
 * channel, over the stations that share it (all of them, or a group's):
 * each of those N stations generates frames at
 * lambda = G * rate / (N * mean frame bits) per second.
 * onoff: exponential on and off periods (means on_mean_s, off_mean_s);
 * while on, Poisson arrivals at lambda * (on + off) / on, so the long-run
 * rate is lambda and the load G.
 */
#include "traffic.h"

#include <math.h>

double frame_size_mean(const frame_size_spec *s, uint32_t pad_bytes)
{
    double a = s->min_bytes, b = s->max_bytes, m = pad_bytes;
    switch (s->kind) {
    case FRAME_SIZE_FIXED:
        return a > m ? a : m;
    case FRAME_SIZE_RANGE:
        /* uniform over the integers a..b, those below m sent as m */
        if (m <= a)
            return (a + b) / 2.0;
        if (m > b)
            return m;
        return (m * (m - a) + (m + b) * (b - m + 1) / 2.0) / (b - a + 1);
    case FRAME_SIZE_MIX: {
        double sum = 0, w = 0;
        for (uint32_t i = 0; i < s->n_mix; i++) {
            double x = s->mix_bytes[i] > pad_bytes ? s->mix_bytes[i] : pad_bytes;
            sum += x * s->mix_weight[i];
            w += s->mix_weight[i];
        }
        return w > 0 ? sum / w : 0;
    }
    }
    return 0;
}

uint32_t frame_size_draw(const frame_size_spec *s, rng *r)
{
    switch (s->kind) {
    case FRAME_SIZE_FIXED:
        return s->min_bytes;
    case FRAME_SIZE_RANGE:
        return s->min_bytes + (uint32_t)rng_below(r, (uint64_t)s->max_bytes - s->min_bytes + 1);
    case FRAME_SIZE_MIX: {
        uint64_t total = 0;
        for (uint32_t i = 0; i < s->n_mix; i++)
            total += s->mix_weight[i];
        uint64_t x = rng_below(r, total);
        for (uint32_t i = 0; i < s->n_mix; i++) {
            if (x < s->mix_weight[i])
                return s->mix_bytes[i];
            x -= s->mix_weight[i];
        }
        return s->mix_bytes[s->n_mix - 1];
    }
    }
    return s->min_bytes;
}

/* A station other than self, uniform (self when it is alone). */
static uint32_t random_other(uint32_t self, uint32_t n, rng *r)
{
    if (n < 2)
        return self;
    uint32_t d = (uint32_t)rng_below(r, n - 1);
    return d >= self ? d + 1 : d;
}

/* dest = local:P: the own group with probability P, else outside it. */
static uint32_t local_draw(const traffic_config *t, uint32_t self, uint32_t n, rng *r)
{
    uint32_t first = t->group_first, k = t->group_count;
    bool own = rng_unit(r) < t->local_p;
    if (own && k >= 2) {
        uint32_t d = first + (uint32_t)rng_below(r, k - 1);
        return d >= self ? d + 1 : d;
    }
    if (!own && k < n) {
        uint32_t d = (uint32_t)rng_below(r, n - k);
        return d < first ? d : d + k;
    }
    return random_other(self, n, r); /* a side with no station: refused by the scenario */
}

uint32_t traffic_dest_draw(const traffic_config *t, uint32_t self, uint32_t n, rng *r)
{
    switch (t->dest) {
    case DEST_BROADCAST:
        return FRAME_BROADCAST;
    case DEST_LOCAL:
        return local_draw(t, self, n, r);
    case DEST_SERVER: {
        uint32_t k = t->server_count > 1 ? t->server_count : 1; /* the servers */
        bool server = self >= t->server && self - t->server < k;
        if (!server || n < 2)
            return k > 1 ? t->server + (uint32_t)rng_below(r, k) : t->server;
        /* a server sends to a random other station */
        return random_other(self, n, r);
    }
    case DEST_RANDOM:
        return random_other(self, n, r);
    }
    return self;
}

double traffic_station_rate(const traffic_config *t, uint32_t n, uint64_t rate_bps,
                            uint32_t pad_bytes)
{
    if (n == 0)
        return 0;
    double bits = frame_size_mean(&t->size, pad_bytes) * 8.0;
    return t->load * (double)rate_bps / ((double)n * bits); /* frames per second */
}

static sim_time seconds_to_ps(double s)
{
    double ps = s * 1e12;
    return ps >= 9.0e18 ? SIM_TIME_NEVER : (sim_time)llround(ps);
}

void arrival_init(arrival_state *a, const traffic_config *t, uint64_t seed, uint32_t station)
{
    rng_seed_station(&a->r, seed, station, RNG_PURPOSE_TRAFFIC);
    a->on = false;
    a->period_end = 0;
    if (t->kind == TRAFFIC_ONOFF) {
        /* Start in a random phase: on with probability on/(on+off). */
        double p_on = t->on_mean_s / (t->on_mean_s + t->off_mean_s);
        a->on = rng_unit(&a->r) < p_on;
        a->period_end = seconds_to_ps(rng_exp(&a->r, a->on ? t->on_mean_s : t->off_mean_s));
    }
}

sim_time arrival_next(arrival_state *a, const traffic_config *t, sim_time now, double lambda)
{
    if (!(lambda > 0))
        return SIM_TIME_NEVER;
    if (t->kind == TRAFFIC_POISSON) {
        sim_time gap = seconds_to_ps(rng_exp(&a->r, 1.0 / lambda));
        if (gap == SIM_TIME_NEVER || now > SIM_TIME_NEVER - gap - 1)
            return SIM_TIME_NEVER;
        return now + (gap > 0 ? gap : 1);
    }
    if (t->kind != TRAFFIC_ONOFF)
        return SIM_TIME_NEVER;
    double lambda_on = lambda * (t->on_mean_s + t->off_mean_s) / t->on_mean_s;
    sim_time cursor = now;
    for (;;) {
        if (a->on) {
            sim_time gap = seconds_to_ps(rng_exp(&a->r, 1.0 / lambda_on));
            if (gap == SIM_TIME_NEVER)
                return SIM_TIME_NEVER;
            sim_time at = cursor + (gap > 0 ? gap : 1);
            if (at < a->period_end)
                return at;
            /* The on period ended first; memorylessness lets us restart. */
            cursor = a->period_end;
            a->on = false;
            a->period_end = cursor + seconds_to_ps(rng_exp(&a->r, t->off_mean_s));
        } else {
            if (a->period_end > cursor)
                cursor = a->period_end;
            a->on = true;
            a->period_end = cursor + seconds_to_ps(rng_exp(&a->r, t->on_mean_s));
        }
    }
}
