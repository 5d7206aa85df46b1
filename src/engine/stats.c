/* stats.c - measures as a trace sink; see stats.h. */
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Delay histogram: log-linear buckets over picoseconds, 2^SUB per power of
 * two, so a percentile is within 1/32 (3 %) of the true value. */
#define SUB_BITS 5
#define SUB (1u << SUB_BITS)
#define BUCKETS (64u * SUB)

struct stats {
    stats_config cfg;
    sim_time batch_ps;
    uint64_t offered_bits;
    uint64_t delivered_bits; /* frames received whole, by their verdict's instant */
    uint64_t *station_bits;  /* delivered, per sender */
    /* Pro rata (prorata.h): the credit over [warmup, ever) of every frame
     * received whole, per batch too, and the spans of the frames judged
     * within the last judge_ps, whose credit past E stats_fill takes back. */
    double credited_bits;
    double *batch_bits;
    uint32_t batch_k;  /* the batch the last frame ended in ... */
    sim_time batch_hi; /* ... and its end */
    prorata *recent;
    bool no_memory;
    uint64_t delay_count;
    double delay_sum_ps;
    sim_time delay_max_ps;
    uint64_t hist[BUCKETS];
    uint32_t run_station;
    uint64_t run_len, runs, run_max, successes;
    uint64_t run_hist[RESULTS_RUN_BUCKETS]; /* ended runs by floor(log2 length) */
    sim_time last_done; /* TX_OK or ABORT, for completion */
    /* Recovery from an outage: the backlog (frames queued or in service),
     * its level when the outage began, and when it got back to it. */
    int64_t backlog;
    int64_t backlog_before;  /* -1 until the outage has begun */
    sim_time recovered_at;   /* -1 until recovered */
    /* Request/response times, when there are replies (allocated then). */
    uint64_t resp_count;
    double resp_sum_ps;
    sim_time resp_max_ps;
    uint64_t *resp_hist;
};

static unsigned bucket_of(sim_time v)
{
    uint64_t x = (uint64_t)(v < 0 ? 0 : v);
    if (x < SUB)
        return (unsigned)x;
    unsigned top = 63u - (unsigned)__builtin_clzll(x); /* >= SUB_BITS */
    unsigned sub = (unsigned)(x >> (top - SUB_BITS)) & (SUB - 1);
    return (top - SUB_BITS + 1) * SUB + sub;
}

/* Midpoint of a bucket's range. */
static double bucket_value(unsigned b)
{
    if (b < SUB)
        return b;
    unsigned top = b / SUB - 1 + SUB_BITS, sub = b % SUB;
    double lo = ldexp((double)(SUB + sub), (int)top - SUB_BITS);
    double width = ldexp(1.0, (int)top - SUB_BITS);
    return lo + width / 2;
}

/* The value of rank `want` (1-based) in a histogram, in us, at most the
 * largest value (a bucket's midpoint may exceed it). */
static double hist_rank_us(const uint64_t *hist, uint64_t want, sim_time max_ps)
{
    uint64_t cum = 0;
    double max = sim_time_to_us(max_ps);
    for (unsigned b = 0; b < BUCKETS; b++) {
        cum += hist[b];
        if (cum >= want) {
            double v = bucket_value(b) / 1e6;
            return v > max ? max : v;
        }
    }
    return max;
}

/* floor(log2(len)) for len >= 1: the capture histogram's bucket. */
static unsigned run_bucket(uint64_t len)
{
    unsigned b = 63u - (unsigned)__builtin_clzll(len);
    return b < RESULTS_RUN_BUCKETS ? b : RESULTS_RUN_BUCKETS - 1;
}

/* Tracks the backlog through an outage. Called before each event is
 * applied (so the levels are those just before the event's instant) and
 * after it (a departure may be the one that clears the backlog). */
static void track_recovery(stats *s, sim_time t, bool after)
{
    if (s->cfg.outage_end <= s->cfg.outage_start || s->recovered_at >= 0)
        return;
    if (!after && s->backlog_before < 0 && t >= s->cfg.outage_start)
        s->backlog_before = s->backlog;
    if (s->backlog_before >= 0 && t >= s->cfg.outage_end && s->backlog <= s->backlog_before)
        s->recovered_at = after ? t : s->cfg.outage_end;
}

/* A frame received whole that was on the wire during [a, b), b after the
 * warm-up: its credit, and its span kept for as long as a fill may need
 * to take back its part after E (E >= now - judge_ps). */
__attribute__((noinline)) /* keeps on_event's other kinds as cheap as before */
static void credit(stats *s, uint64_t bits, sim_time a, sim_time b)
{
    assert(a < b);
    /* Most frames lie after the warm-up and inside one batch: the batch
     * the last one ended in, or a later one (frames end in order). */
    double whole = (double)(int64_t)bits; /* (a frame's bits fit easily) */
    if (a >= s->cfg.warmup)
        s->credited_bits += whole;
    else
        s->credited_bits += prorata_share(bits, a, b, s->cfg.warmup, SIM_TIME_NEVER);
    if (s->batch_ps > 0) {
        while (b > s->batch_hi && s->batch_k + 1 < s->cfg.batches) {
            s->batch_k++;
            s->batch_hi += s->batch_ps;
        }
        if (a >= s->batch_hi - s->batch_ps && b <= s->batch_hi)
            s->batch_bits[s->batch_k] += whole;
        else
            prorata_spread(s->batch_bits, s->cfg.batches, s->cfg.warmup, s->batch_ps, bits, a,
                           b);
    }
    prorata_forget(s->recent, b - s->cfg.judge_ps);
    if (prorata_push(s->recent, bits, a, b) != 0)
        s->no_memory = true;
}

static void add_delay(stats *s, sim_time d)
{
    s->delay_count++;
    s->delay_sum_ps += (double)d;
    if (d > s->delay_max_ps)
        s->delay_max_ps = d;
    s->hist[bucket_of(d)]++;
}

/* to_delivery: stats_config.delay_to_delivery, a constant in each of the
 * two sinks below (so that runs without bridges pay nothing for it). */
static inline __attribute__((always_inline)) void handle(stats *s, const trace_tally *ev,
                                                         bool to_delivery)
{
    track_recovery(s, ev->time, false);
    if (ev->kind == TRACE_ARRIVAL)
        s->backlog++;
    else if (ev->kind == TRACE_TX_OK || ev->kind == TRACE_ABORT)
        s->backlog--;
    track_recovery(s, ev->time, true);
    bool in_window = ev->time >= s->cfg.warmup;
    switch (ev->kind) {
    case TRACE_ARRIVAL:
    case TRACE_DROP:
        if (in_window)
            s->offered_bits += 8ull * ev->frame_bytes;
        break;
    case TRACE_TX_OK:
        s->last_done = ev->time;
        if (!in_window)
            break;
        if (!to_delivery)
            add_delay(s, ev->time - ev->queued_at);
        s->successes++;
        if (s->run_len && ev->station == s->run_station) {
            s->run_len++;
        } else {
            if (s->run_len) {
                s->runs++;
                s->run_hist[run_bucket(s->run_len)]++;
                if (s->run_len > s->run_max)
                    s->run_max = s->run_len;
            }
            s->run_station = ev->station;
            s->run_len = 1;
        }
        break;
    case TRACE_ABORT:
        s->last_done = ev->time;
        break;
    case TRACE_DELIVER:
        if (!ev->ok)
            break;
        if (in_window) {
            s->delivered_bits += 8ull * ev->frame_bytes;
            s->station_bits[ev->station - s->cfg.first_station] += 8ull * ev->frame_bytes;
            if (to_delivery)
                add_delay(s, ev->time - ev->queued_at);
        }
        if (ev->time > s->cfg.warmup)
            credit(s, 8ull * ev->frame_bytes, ev->tx_start, ev->time);
        break;
    default:
        break;
    }
}

int stats_create(const stats_config *cfg, stats **out)
{
    stats *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->cfg = *cfg;
    s->backlog_before = -1;
    s->recovered_at = -1;
    s->station_bits = calloc(cfg->n_stations ? cfg->n_stations : 1, sizeof *s->station_bits);
    s->batch_bits = calloc(cfg->batches ? cfg->batches : 1, sizeof *s->batch_bits);
    if (!s->station_bits || !s->batch_bits || prorata_create(&s->recent) != 0) {
        stats_destroy(s);
        return -1;
    }
    /* The batches end judge_ps before the run does, so that every frame on
     * the wire during them has had its verdict when it ends. */
    sim_time grid_end = cfg->duration - cfg->judge_ps;
    if (cfg->batches && grid_end > cfg->warmup)
        s->batch_ps = (grid_end - cfg->warmup) / cfg->batches;
    s->batch_hi = cfg->warmup + s->batch_ps;
    *out = s;
    return 0;
}

void stats_destroy(stats *s)
{
    if (s) {
        free(s->station_bits);
        free(s->batch_bits);
        free(s->resp_hist);
        prorata_destroy(s->recent);
        free(s);
    }
}

static void on_tally(void *ctx, const trace_tally *t) { handle(ctx, t, false); }
static void on_tally_bridged(void *ctx, const trace_tally *t) { handle(ctx, t, true); }

static void on_event(void *ctx, const trace_event *ev)
{
    trace_tally t = trace_tally_of(ev);
    handle(ctx, &t, false);
}

static void on_event_bridged(void *ctx, const trace_event *ev)
{
    trace_tally t = trace_tally_of(ev);
    handle(ctx, &t, true);
}

trace_sink stats_sink(stats *s)
{
    bool b = s->cfg.delay_to_delivery;
    return (trace_sink){.on_event = b ? on_event_bridged : on_event, .ctx = s,
                        .on_tally = b ? on_tally_bridged : on_tally};
}

uint32_t stats_sink_kinds(void)
{
    return TRACE_TALLY_KINDS; /* (what handle reads: trace_tally) */
}

double stats_t975(unsigned df)
{
    static const double t[] = {0,      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                               2.306,  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                               2.120,  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                               2.064,  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return INFINITY;
    if (df < sizeof t / sizeof t[0])
        return t[df];
    /* Cornish-Fisher expansion around the normal quantile. */
    double z = 1.959963984540054, n = df;
    return z + (z * z * z + z) / (4 * n) +
           (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

bool stats_out_of_memory(const stats *s) { return s->no_memory; }

void stats_fill(const stats *s, sim_time now, sim_time judged_until, results *r,
                station_result *per)
{
    double rate = (double)s->cfg.rate_bps;
    sim_time warmup = s->cfg.warmup;
    sim_time window = now > warmup ? now - warmup : 0;
    r->measured_s = sim_time_to_s(window);
    double cap_bits = rate * r->measured_s;
    r->offered_load = cap_bits > 0 ? (double)s->offered_bits / cap_bits : 0;

    /* Throughput over [warmup, E): what the wire carried up to E, less the
     * part after E of frames already judged (those are all held in
     * `recent`, as E >= now - judge_ps). */
    sim_time e = judged_until < now ? judged_until : now;
    assert(e >= now - s->cfg.judge_ps);
    double judged_bits = rate * sim_time_to_s(e > warmup ? e - warmup : 0);
    r->throughput = 0;
    if (judged_bits > 0) {
        double bits = s->credited_bits - prorata_credit(s->recent, e, SIM_TIME_NEVER);
        r->throughput = bits / judged_bits;
    }
    r->throughput_mbps = r->throughput * rate / 1e6;

    /* Batch means over the batches that end by E: every frame on the
     * wire during them has had its verdict, so their credit is final. */
    /* Undefined with fewer than two batches, and when nothing was
     * received whole (an interval around no delivery at all says nothing
     * about the channel): NAN, printed as null. */
    r->throughput_ci95 = NAN;
    if (s->batch_ps > 0 && r->throughput > 0) {
        sim_time done = e > warmup ? (e - warmup) / s->batch_ps : 0;
        unsigned k = (unsigned)(done < (sim_time)s->cfg.batches ? done : s->cfg.batches);
        if (k >= 2) {
            double batch_cap = rate * sim_time_to_s(s->batch_ps), mean = 0, m2 = 0;
            for (unsigned i = 0; i < k; i++)
                mean += s->batch_bits[i] / batch_cap;
            mean /= k;
            for (unsigned i = 0; i < k; i++) {
                double d = s->batch_bits[i] / batch_cap - mean;
                m2 += d * d;
            }
            r->throughput_ci95 = stats_t975(k - 1) * sqrt(m2 / (k - 1) / k);
        }
    }

    /* No frame sent: no delay to speak of (NAN, printed as null). */
    r->mean_delay_us = r->p50_delay_us = r->p99_delay_us = r->max_delay_us = NAN;
    if (s->delay_count) {
        r->mean_delay_us = s->delay_sum_ps / (double)s->delay_count / 1e6;
        r->max_delay_us = sim_time_to_us(s->delay_max_ps);
        uint64_t n = s->delay_count;
        r->p50_delay_us = hist_rank_us(s->hist, (n + 1) / 2, s->delay_max_ps);
        r->p99_delay_us = hist_rank_us(s->hist, (n * 99 + 99) / 100, s->delay_max_ps);
    }

    double sum = 0, sum2 = 0;
    for (uint32_t i = 0; i < s->cfg.n_stations; i++) {
        double x = (double)s->station_bits[i];
        sum += x;
        sum2 += x * x;
        per[i].bits_delivered = s->station_bits[i];
        per[i].share = s->delivered_bits ? x / (double)s->delivered_bits : NAN; /* 0/0 */
    }
    /* Undefined when nothing was delivered: NAN, printed as null. */
    r->jain_fairness = sum2 > 0 ? sum * sum / ((double)s->cfg.n_stations * sum2) : NAN;

    uint64_t runs = s->runs + (s->run_len ? 1 : 0);
    uint64_t max = s->run_len > s->run_max ? s->run_len : s->run_max;
    r->capture_mean_run = runs ? (double)s->successes / (double)runs : NAN; /* no success */
    r->capture_max_run = max;
    memcpy(r->capture_runs, s->run_hist, sizeof r->capture_runs);
    if (s->run_len)
        r->capture_runs[run_bucket(s->run_len)]++;
    r->recovery_s = s->recovered_at >= 0 ? sim_time_to_s(s->recovered_at - s->cfg.outage_end) : -1;
    r->completion_s = -1;
    if (s->cfg.batch_traffic)
        r->completion_s = sim_time_to_s(s->last_done); /* the engine checks all are done */
}

void stats_add_response(stats *s, sim_time now, sim_time response)
{
    if (now < s->cfg.warmup)
        return;
    if (s->resp_hist == NULL && (s->resp_hist = calloc(BUCKETS, sizeof *s->resp_hist)) == NULL)
        return; /* the measure is lost, not the run */
    s->resp_count++;
    s->resp_sum_ps += (double)response;
    if (response > s->resp_max_ps)
        s->resp_max_ps = response;
    s->resp_hist[bucket_of(response)]++;
}

void stats_responses(const stats *s, uint64_t *count, double *mean_us, double *p99_us)
{
    *count = s->resp_count;
    *mean_us = *p99_us = NAN;
    if (s->resp_count == 0)
        return;
    *mean_us = s->resp_sum_ps / (double)s->resp_count / 1e6;
    *p99_us = hist_rank_us(s->resp_hist, (s->resp_count * 99 + 99) / 100, s->resp_max_ps);
}

size_t stats_bytes(const stats *s)
{
    return sizeof *s + s->cfg.n_stations * sizeof *s->station_bits +
           s->cfg.batches * sizeof *s->batch_bits + prorata_bytes(s->recent);
}
