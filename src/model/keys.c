/* keys.c - the one key table (keys.h): every key a scenario knows, its
 * setter and whether a group may set it, and the values written back as a
 * user would type them.
 *
 * Every setter validates the text (parse.h) before it touches the
 * scenario, so a failed scenario_key_set leaves the scenario as it was.
 * Checks that involve several keys (warm-up against duration, positions
 * against stations, frame sizes against the PHY) wait for scenario_finish
 * (scenario.c), so keys may come in any order.
 *
 * This is the bottom layer of src/model's scenario: it calls parse.h and
 * nothing above it. group.c and scenario.c call down to it; it never calls
 * back.
 */
#include "keys.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* A value shown in a message (parse_echo): Q(v) in a printf argument list. */
#define Q(v) parse_echo((v), (char[64]){0}, 64)

/* Longest duration or warm-up (parse.h). */
#define SCENARIO_MAX_TIME_PS PARSE_MAX_TIME_PS
#define SCENARIO_MAX_METRES 1e7
#define SCENARIO_MAX_QUEUE 1000000u
#define SCENARIO_MAX_BATCH 10000000u
#define SCENARIO_MIN_ON_OFF_PS SIM_PS_PER_US

bool scenario_group_name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > SCENARIO_GROUP_NAME_MAX || !isalpha((unsigned char)name[0]))
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && c != '-' && c != '_')
            return false;
    }
    return true;
}

/* ---- setters: each validates first, then writes ---- */

typedef int (*key_setter)(scenario *sc, const char *key, const char *v, char *err,
                          size_t errlen);

/* Writes "key: " then the parser's reason. */
static int key_fail(const char *key, const char *reason, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", key, reason);
    return -1;
}

/* Runs a parser that writes its reason to `rs`; on failure returns
 * "key: reason". The call names the buffer: CHECK(parse_u32(v, ..., RS)). */
#define RS rs_, sizeof rs_
#define CHECK(call)                                                                    \
    do {                                                                               \
        char rs_[400];                                                                 \
        if ((call) != 0)                                                               \
            return key_fail(key, rs_, err, errlen);                                    \
    } while (0)

static int set_phy(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    const phy_params *p = phy_profile_find(v);
    if (p == NULL) {
        int n = snprintf(err, errlen, "%s: unknown profile '%s' (", key, Q(v));
        for (size_t i = 0; i < phy_profile_count() && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s%s", i ? ", " : "",
                          phy_profile_at(i)->name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    }
    sc->phy = *p;
    return 0;
}

static int set_stations(scenario *sc, const char *key, const char *v, char *err,
                        size_t errlen)
{
    uint32_t n = 0;
    CHECK(parse_u32(v, 1, SCENARIO_MAX_STATIONS, &n, RS));
    sc->n_stations = n;
    sc->stations_given = true;
    return 0;
}

static int set_topology(scenario *sc, const char *key, const char *v, char *err,
                        size_t errlen)
{
    if (strcmp(v, "switch") == 0) {
        /* every station alone on a link to one bridge (network.c) */
        sc->switch_topology = true;
        return 0;
    }
    if (strcmp(v, "bus") == 0)
        sc->phy.topology = TOPOLOGY_BUS;
    else if (strcmp(v, "star") == 0)
        sc->phy.topology = TOPOLOGY_STAR;
    else {
        snprintf(err, errlen, "%s: unknown topology '%s' (bus, star, switch)", key, Q(v));
        return -1;
    }
    sc->switch_topology = false;
    sc->topology_given = true;
    return 0;
}

/* duplex = half | full: the links of `topology = switch`. */
static int set_duplex(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    if (strcmp(v, "half") != 0 && strcmp(v, "full") != 0) {
        snprintf(err, errlen, "%s: '%s' is not half or full", key, Q(v));
        return -1;
    }
    sc->duplex_full = strcmp(v, "full") == 0;
    sc->duplex_given = true;
    return 0;
}

static int set_length(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    double m = 0;
    CHECK(parse_metres(v, SCENARIO_MAX_METRES, &m, RS));
    sc->phy.length_m = m;
    sc->length_given = true;
    return 0;
}

/* positions: one METRES per station. The count is checked against
 * `stations` in scenario_finish, since either may be set first. */
static int set_positions(scenario *sc, const char *key, const char *v, char *err,
                         size_t errlen)
{
    char **words = NULL;
    size_t n = 0;
    if (strstr(v, "..") != NULL) {
        snprintf(err, errlen, "%s: ranges are not allowed; give one position per station", key);
        return -1;
    }
    CHECK(parse_list_words(v, &words, &n, RS));
    if (n > SCENARIO_MAX_STATIONS) {
        parse_list_free_words(words, n);
        snprintf(err, errlen, "%s: more than %u positions", key, SCENARIO_MAX_STATIONS);
        return -1;
    }
    double *pos = malloc(sizeof *pos * n);
    if (pos == NULL) {
        parse_list_free_words(words, n);
        snprintf(err, errlen, "%s: out of memory", key);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        char reason[400];
        if (parse_metres(words[i], SCENARIO_MAX_METRES, &pos[i], reason, sizeof reason) != 0) {
            snprintf(err, errlen, "%s: position %zu: %s", key, i + 1, reason);
            free(pos);
            parse_list_free_words(words, n);
            return -1;
        }
    }
    parse_list_free_words(words, n);
    free(sc->positions_m);
    sc->positions_m = pos;
    sc->n_positions = (uint32_t)n;
    return 0;
}

/* pcap-time-scale: a factor on the capture's relative times (0.5 replays
 * twice as fast). */
static int set_pcap_time_scale(scenario *sc, const char *key, const char *v, char *err,
                               size_t errlen)
{
    double x = 0;
    CHECK(parse_double(v, 0.0, 1e6, &x, RS));
    if (x <= 0.0) {
        snprintf(err, errlen, "%s: %s is not above 0", key, Q(v));
        return -1;
    }
    sc->pcap_time_scale = x;
    return 0;
}

static int set_pcap_max_stations(scenario *sc, const char *key, const char *v, char *err,
                                 size_t errlen)
{
    CHECK(parse_u32(v, 0, SCENARIO_MAX_STATIONS, &sc->pcap_max_stations, RS));
    return 0;
}

static int set_probe(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    double m = 0;
    CHECK(parse_metres(v, SCENARIO_MAX_METRES, &m, RS));
    sc->probe_m = m;
    sc->probe_given = true;
    return 0;
}

const char *scenario_traffic_name(traffic_kind kind)
{
    switch (kind) {
    case TRAFFIC_SATURATED: return "saturated";
    case TRAFFIC_POISSON: return "poisson";
    case TRAFFIC_ONOFF: return "onoff";
    case TRAFFIC_BATCH: return "batch";
    case TRAFFIC_PCAP: return "pcap";
    case TRAFFIC_NONE: return "none";
    }
    return "?";
}

void scenario_frame_size_text(const frame_size_spec *s, char *buf, size_t len)
{
    if (s->kind == FRAME_SIZE_FIXED) {
        snprintf(buf, len, "%u", s->min_bytes);
    } else if (s->kind == FRAME_SIZE_RANGE) {
        snprintf(buf, len, "%u-%u", s->min_bytes, s->max_bytes);
    } else {
        size_t used = 0;
        buf[0] = '\0';
        for (uint32_t i = 0; i < s->n_mix && used < len; i++) {
            int n = snprintf(buf + used, len - used, "%s%u:%u", i ? "," : "", s->mix_bytes[i],
                             s->mix_weight[i]);
            if (n < 0)
                break;
            used += (size_t)n;
        }
    }
}

void scenario_dest_text(const traffic_config *t, char *buf, size_t len)
{
    if (t->dest == DEST_SERVER)
        snprintf(buf, len, "server:%u", t->server + 1);
    else if (t->dest == DEST_LOCAL)
        snprintf(buf, len, "local:%.15g", t->local_p);
    else
        snprintf(buf, len, "%s", t->dest == DEST_BROADCAST ? "broadcast" : "random");
}

static int set_traffic(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    static const traffic_kind kinds[] = {TRAFFIC_SATURATED, TRAFFIC_POISSON, TRAFFIC_ONOFF,
                                         TRAFFIC_BATCH, TRAFFIC_NONE};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(v, scenario_traffic_name(kinds[i])) == 0) {
            sc->traffic.kind = kinds[i];
            sc->pcap_path[0] = '\0';
            return 0;
        }
    if (strncmp(v, "pcap:", 5) == 0) {
        const char *path = v + 5;
        if (path[0] == '\0') {
            snprintf(err, errlen, "%s: pcap: needs a file name (pcap:FILE)", key);
            return -1;
        }
        if (strlen(path) >= sizeof sc->pcap_path) {
            snprintf(err, errlen, "%s: the capture's file name is too long", key);
            return -1;
        }
        sc->traffic.kind = TRAFFIC_PCAP;
        snprintf(sc->pcap_path, sizeof sc->pcap_path, "%s", path);
        return 0;
    }
    snprintf(err, errlen,
             "%s: unknown kind '%s' (saturated, poisson, onoff, batch, none, pcap:FILE)", key,
             Q(v));
    return -1;
}

static int set_load(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    double g = 0;
    CHECK(parse_double(v, 0.0, 1000.0, &g, RS));
    sc->traffic.load = g;
    return 0;
}

/* frame-size: N | MIN-MAX | S:W,S:W,... (at most FRAME_SIZE_MIX_MAX; a
 * size without ":W" weighs 1). */
static int frame_size_parse(const char *key, const char *v, frame_size_spec *out, char *err,
                            size_t errlen)
{
    frame_size_spec s;
    memset(&s, 0, sizeof s);
    if (strchr(v, ':') != NULL || strchr(v, ',') != NULL) {
        const char *p = v;
        s.kind = FRAME_SIZE_MIX;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char item[64];
            if (s.n_mix == FRAME_SIZE_MIX_MAX) {
                snprintf(err, errlen, "%s: a mix has at most %d sizes", key, FRAME_SIZE_MIX_MAX);
                return -1;
            }
            if (len == 0 || len >= sizeof item) {
                snprintf(err, errlen, "%s: '%s' is not SIZE:WEIGHT,SIZE:WEIGHT,...", key, Q(v));
                return -1;
            }
            memcpy(item, p, len);
            item[len] = '\0';
            char *colon = strchr(item, ':');
            const char *weight_txt = "1";
            if (colon != NULL) {
                *colon = '\0';
                weight_txt = colon + 1;
            }
            CHECK(parse_u32(item, 18, 65535, &s.mix_bytes[s.n_mix], RS));
            CHECK(parse_u32(weight_txt, 1, 1000000, &s.mix_weight[s.n_mix], RS));
            s.n_mix++;
            if (comma == NULL)
                break;
            p = comma + 1;
        }
        s.min_bytes = s.max_bytes = s.mix_bytes[0];
        for (uint32_t i = 0; i < s.n_mix; i++) {
            if (s.mix_bytes[i] < s.min_bytes)
                s.min_bytes = s.mix_bytes[i];
            if (s.mix_bytes[i] > s.max_bytes)
                s.max_bytes = s.mix_bytes[i];
        }
    } else if (v[0] != '-' && strchr(v, '-') != NULL) {
        const char *dash = strchr(v, '-');
        char lo[64];
        size_t len = (size_t)(dash - v);
        if (len >= sizeof lo) {
            snprintf(err, errlen, "%s: '%s' is not MIN-MAX", key, Q(v));
            return -1;
        }
        memcpy(lo, v, len);
        lo[len] = '\0';
        s.kind = FRAME_SIZE_RANGE;
        CHECK(parse_u32(lo, 18, 65535, &s.min_bytes, RS));
        CHECK(parse_u32(dash + 1, 18, 65535, &s.max_bytes, RS));
        if (s.min_bytes > s.max_bytes) {
            snprintf(err, errlen, "%s: the range %u-%u is empty", key, s.min_bytes, s.max_bytes);
            return -1;
        }
        if (s.min_bytes == s.max_bytes)
            s.kind = FRAME_SIZE_FIXED;
    } else {
        s.kind = FRAME_SIZE_FIXED;
        CHECK(parse_u32(v, 18, 65535, &s.min_bytes, RS));
        s.max_bytes = s.min_bytes;
    }
    *out = s;
    return 0;
}

static int set_frame_size(scenario *sc, const char *key, const char *v, char *err,
                          size_t errlen)
{
    return frame_size_parse(key, v, &sc->traffic.size, err, errlen);
}

static int set_dest(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    sc->dest_group[0] = '\0';
    if (strncmp(v, "group:", 6) == 0) {
        /* resolved to the group's stations by scenario_finish */
        if (!scenario_group_name_ok(v + 6)) {
            snprintf(err, errlen, "%s: '%s' does not name a group (group:NAME)", key, Q(v));
            return -1;
        }
        memcpy(sc->dest_group, v + 6, strlen(v + 6) + 1);
        sc->traffic.dest = DEST_SERVER;
        sc->traffic.server = 0;
    } else if (strncmp(v, "local:", 6) == 0) {
        /* resolved to the group's stations by scenario_finish */
        double p = 0;
        CHECK(parse_double(v + 6, 0.0, 1.0, &p, RS));
        sc->traffic.dest = DEST_LOCAL;
        sc->traffic.local_p = p;
    } else if (strcmp(v, "random") == 0) {
        sc->traffic.dest = DEST_RANDOM;
    } else if (strcmp(v, "broadcast") == 0) {
        sc->traffic.dest = DEST_BROADCAST;
    } else if (strcmp(v, "server") == 0) {
        sc->traffic.dest = DEST_SERVER;
        sc->traffic.server = 0;
    } else if (strncmp(v, "server:", 7) == 0) {
        uint32_t k = 0;
        CHECK(parse_u32(v + 7, 1, SCENARIO_MAX_STATIONS, &k, RS));
        sc->traffic.dest = DEST_SERVER;
        sc->traffic.server = k - 1; /* users number stations from 1 */
    } else {
        snprintf(err, errlen,
                 "%s: unknown destination '%s' (random, server[:K], group:NAME, local:P, "
                 "broadcast)",
                 key,
                 Q(v));
        return -1;
    }
    return 0;
}

static int set_batch(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    uint32_t k = 0;
    CHECK(parse_u32(v, 1, SCENARIO_MAX_BATCH, &k, RS));
    sc->traffic.batch_frames = k;
    return 0;
}

/* on-off: ON/OFF, two TIMEs, the mean on and off periods. */
static int set_on_off(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    const char *slash = strchr(v, '/');
    char on_txt[64];
    sim_time on_ps = 0, off_ps = 0;
    if (slash == NULL || (size_t)(slash - v) >= sizeof on_txt) {
        snprintf(err, errlen, "%s: '%s' is not ON/OFF (e.g. 10ms/90ms)", key, Q(v));
        return -1;
    }
    memcpy(on_txt, v, (size_t)(slash - v));
    on_txt[slash - v] = '\0';
    CHECK(parse_time_ps(on_txt, &on_ps, RS));
    CHECK(parse_time_ps(slash + 1, &off_ps, RS));
    /* Below a microsecond (a few bytes at 10 Mb/s) a period holds no frame,
     * and the traffic source would spin through millions of empty periods
     * inside one event, deaf to signals. */
    if (on_ps < SCENARIO_MIN_ON_OFF_PS || off_ps < SCENARIO_MIN_ON_OFF_PS ||
        on_ps > SCENARIO_MAX_TIME_PS || off_ps > SCENARIO_MAX_TIME_PS) {
        snprintf(err, errlen, "%s: both periods must be at least 1us and at most 2400h", key);
        return -1;
    }
    sc->traffic.on_mean_s = sim_time_to_s(on_ps);
    sc->traffic.off_mean_s = sim_time_to_s(off_ps);
    return 0;
}

static int set_queue(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    CHECK(parse_u32(v, 1, SCENARIO_MAX_QUEUE, &sc->queue_capacity, RS));
    return 0;
}

static int set_time(const char *key, const char *v, sim_time min_ps, sim_time *out,
                    char *err, size_t errlen)
{
    sim_time t = 0;
    CHECK(parse_time_ps(v, &t, RS));
    if (t < min_ps || t > SCENARIO_MAX_TIME_PS) {
        snprintf(err, errlen, "%s: %s is out of range (%s to 2400h)", key, Q(v),
                 min_ps > 0 ? "above 0" : "0");
        return -1;
    }
    *out = t;
    return 0;
}

static int set_duration(scenario *sc, const char *key, const char *v, char *err,
                        size_t errlen)
{
    return set_time(key, v, 1, &sc->duration, err, errlen);
}

static int set_warmup(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    return set_time(key, v, 0, &sc->warmup, err, errlen);
}

/* START+DURATION, two TIMEs: the medium is down during [START, START +
 * DURATION). That the outage lies inside the run is checked by
 * scenario_finish, when the duration is known. */
static int set_outage(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    const char *plus = strchr(v, '+');
    char start[64];
    size_t len = plus ? (size_t)(plus - v) : 0;
    if (!plus || len == 0 || len >= sizeof start || plus[1] == '\0') {
        snprintf(err, errlen, "%s: %s is not START+DURATION (e.g. 100ms+50ms)", key, Q(v));
        return -1;
    }
    memcpy(start, v, len);
    start[len] = '\0';
    sim_time a = 0, d = 0;
    CHECK(parse_time_ps(start, &a, RS));
    CHECK(parse_time_ps(plus + 1, &d, RS));
    if (d <= 0) {
        snprintf(err, errlen, "%s: the duration of the outage must be above 0", key);
        return -1;
    }
    if (a > SCENARIO_MAX_TIME_PS || d > SCENARIO_MAX_TIME_PS) {
        snprintf(err, errlen, "%s: %s is out of range (at most 2400h each)", key, Q(v));
        return -1;
    }
    sc->outage_start = a;
    sc->outage_duration = d;
    return 0;
}

void scenario_outage_text(const scenario *sc, char *buf, size_t len)
{
    char a[32], d[32];
    if (sc->outage_duration <= 0) {
        snprintf(buf, len, "%s", "");
        return;
    }
    parse_format_time(sc->outage_start, a, sizeof a);
    parse_format_time(sc->outage_duration, d, sizeof d);
    snprintf(buf, len, "%s+%s", a, d);
}

static int set_seed(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    CHECK(parse_u64(v, 0, UINT64_MAX, &sc->seed, RS));
    return 0;
}

static int set_policy(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    size_t len = strlen(v);
    if (len == 0 || len >= sizeof sc->policy) {
        snprintf(err, errlen, "%s: the spec must have 1 to %zu characters", key,
                 sizeof sc->policy - 1);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c <= 0x20 || c >= 0x7f) {
            snprintf(err, errlen, "%s: the spec may not contain blanks or control characters",
                     key);
            return -1;
        }
    }
    memcpy(sc->policy, v, len + 1);
    return 0;
}

static int set_batches(scenario *sc, const char *key, const char *v, char *err,
                       size_t errlen)
{
    CHECK(parse_u32(v, 1, 1000, &sc->batches, RS));
    return 0;
}

static int set_rate(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    CHECK(parse_rate_bps(v, 1000, 1000000000000ULL, &sc->phy.rate_bps, RS));
    return 0;
}

/* PHY integer fields: one row each with its range (phy_validate checks the
 * same ranges again, and the relations between fields, in scenario_finish). */
typedef struct phy_u32_key {
    const char *name;
    size_t offset;
    uint32_t min, max;
} phy_u32_key;

static const phy_u32_key phy_u32_keys[] = {
    {"slot-bits", offsetof(phy_params, slot_bits), 8, 1u << 20},
    {"ifg-bits", offsetof(phy_params, ifg_bits), 0, 1u << 20},
    {"ifg-part1-bits", offsetof(phy_params, ifg_part1_bits), 0, 1u << 20},
    {"jam-bits", offsetof(phy_params, jam_bits), 1, 1u << 16},
    {"preamble-bits", offsetof(phy_params, preamble_bits), 0, 1u << 16},
    {"min-frame", offsetof(phy_params, min_frame_bytes), 18, 65535},
    {"max-frame", offsetof(phy_params, max_frame_bytes), 18, 65535},
    {"attempt-limit", offsetof(phy_params, attempt_limit), 1, 1000},
    {"backoff-limit", offsetof(phy_params, backoff_limit), 0, 62},
    {"burst-limit", offsetof(phy_params, burst_limit_bits), 0, UINT32_MAX},
    {"hub-delay-bits", offsetof(phy_params, hub_delay_bits), 0, 1u << 20},
};

static int set_phy_u32(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof phy_u32_keys / sizeof phy_u32_keys[0]; i++) {
        const phy_u32_key *k = &phy_u32_keys[i];
        if (strcmp(k->name, key) == 0) {
            uint32_t x = 0;
            CHECK(parse_u32(v, k->min, k->max, &x, RS));
            memcpy((char *)&sc->phy + k->offset, &x, sizeof x);
            return 0;
        }
    }
    snprintf(err, errlen, "%s: unknown key", key);
    return -1;
}

typedef struct phy_bool_key {
    const char *name;
    size_t offset;
} phy_bool_key;

static const phy_bool_key phy_bool_keys[] = {
    {"two-part-deferral", offsetof(phy_params, two_part_deferral)},
    {"extension", offsetof(phy_params, extension)},
    {"bursting", offsetof(phy_params, bursting)},
    {"retry-late", offsetof(phy_params, retry_late)},
};

static int set_phy_bool(scenario *sc, const char *key, const char *v, char *err,
                        size_t errlen)
{
    for (size_t i = 0; i < sizeof phy_bool_keys / sizeof phy_bool_keys[0]; i++) {
        if (strcmp(phy_bool_keys[i].name, key) == 0) {
            bool b = false;
            CHECK(parse_bool(v, &b, RS));
            memcpy((char *)&sc->phy + phy_bool_keys[i].offset, &b, sizeof b);
            return 0;
        }
    }
    snprintf(err, errlen, "%s: unknown key", key);
    return -1;
}

static int set_velocity(scenario *sc, const char *key, const char *v, char *err,
                        size_t errlen)
{
    double c = 0;
    CHECK(parse_double(v, 0.0, 1.0, &c, RS));
    if (c <= 0.0) {
        snprintf(err, errlen, "%s: %s is not a fraction of the speed of light in (0, 1]",
                 key, Q(v));
        return -1;
    }
    sc->phy.velocity_c = c;
    return 0;
}


static int set_reply(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    if (strcmp(v, "none") == 0) {
        sc->reply.on = false;
        return 0;
    }
    frame_size_spec size;
    if (frame_size_parse(key, v, &size, err, errlen) != 0)
        return -1;
    sc->reply.on = true;
    sc->reply.size = size;
    return 0;
}

static int set_think(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    sim_time t = 0;
    char reason[400];
    if (parse_time_ps(v, &t, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s: %s", key, reason);
        return -1;
    }
    if (t < 0 || t > PARSE_MAX_TIME_PS) {
        snprintf(err, errlen, "%s: %s is out of range (0 to 2400h)", key, Q(v));
        return -1;
    }
    sc->reply.think = t;
    return 0;
}

/* span = FROM-TO (metres along the bus). */
static int set_span(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    const char *dash = strchr(v, '-');
    char from[64], reason[400];
    double a = 0, b = 0;
    size_t len = dash ? (size_t)(dash - v) : 0;
    if (dash == NULL || len == 0 || len >= sizeof from) {
        snprintf(err, errlen, "%s: '%s' is not FROM-TO (metres, e.g. 0-100)", key, Q(v));
        return -1;
    }
    memcpy(from, v, len);
    from[len] = '\0';
    if (parse_metres(from, 1e7, &a, reason, sizeof reason) != 0 ||
        parse_metres(dash + 1, 1e7, &b, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s: %s", key, reason);
        return -1;
    }
    if (b < a) {
        snprintf(err, errlen, "%s: %s runs backwards (FROM must not exceed TO)", key, Q(v));
        return -1;
    }
    sc->place = PLACE_SPAN;
    sc->place_from_m = a;
    sc->place_to_m = b;
    return 0;
}

/* drop = METRES (every drop cable of the group, star). */
static int set_drop(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    double m = 0;
    char reason[400];
    if (parse_metres(v, 1e7, &m, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s: %s", key, reason);
        return -1;
    }
    sc->place = PLACE_DROP;
    sc->place_from_m = sc->place_to_m = m;
    return 0;
}

/* `segment = NAME`: the name is looked up by scenario_finish (network.c). */
static int set_segment(scenario *sc, const char *key, const char *v, char *err, size_t errlen)
{
    if (!scenario_group_name_ok(v) || strlen(v) > NET_NAME_MAX) {
        snprintf(err, errlen, "%s: '%s' does not name a segment", key, Q(v));
        return -1;
    }
    snprintf(sc->segment_name, sizeof sc->segment_name, "%s", v);
    return 0;
}

/* per_station: a key a group may set for its own stations (the others
 * belong to the whole medium or run). */
typedef struct scenario_key {
    const char *name;
    key_setter set;
    bool per_station;
} scenario_key;

static const scenario_key keys[] = {
    {"phy", set_phy, true}, /* a group's: its links' (topology = switch) */
    {"stations", set_stations, false},
    {"topology", set_topology, false},
    {"duplex", set_duplex, false},
    {"length", set_length, false},
    {"positions", set_positions, true},
    {"span", set_span, true},
    {"drop", set_drop, true},
    {"probe", set_probe, false},
    {"traffic", set_traffic, true},
    {"pcap-time-scale", set_pcap_time_scale, false},
    {"pcap-max-stations", set_pcap_max_stations, false},
    {"load", set_load, true},
    {"frame-size", set_frame_size, true},
    {"dest", set_dest, true},
    {"batch", set_batch, true},
    {"on-off", set_on_off, true},
    {"queue", set_queue, true},
    {"reply", set_reply, true},
    {"think", set_think, true},
    {"duration", set_duration, false},
    {"warmup", set_warmup, false},
    {"seed", set_seed, false},
    {"outage", set_outage, false},
    {"policy", set_policy, true},
    {"batches", set_batches, false},
    {"rate", set_rate, false},
    {"slot-bits", set_phy_u32, false},
    {"ifg-bits", set_phy_u32, false},
    {"ifg-part1-bits", set_phy_u32, false},
    {"jam-bits", set_phy_u32, false},
    {"preamble-bits", set_phy_u32, false},
    {"min-frame", set_phy_u32, false},
    {"max-frame", set_phy_u32, false},
    {"attempt-limit", set_phy_u32, false},
    {"backoff-limit", set_phy_u32, false},
    {"two-part-deferral", set_phy_bool, false},
    {"extension", set_phy_bool, false},
    {"bursting", set_phy_bool, false},
    {"burst-limit", set_phy_u32, false},
    {"retry-late", set_phy_bool, false},
    {"velocity", set_velocity, false},
    {"hub-delay-bits", set_phy_u32, false},
    {"segment", set_segment, true},
};

static const scenario_key *key_find(const char *name)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

bool scenario_key_known(const char *key) { return key_find(key) != NULL; }

bool scenario_key_per_station(const char *key)
{
    const scenario_key *k = key_find(key);
    return k != NULL && k->per_station;
}

int scenario_key_set(scenario *sc, const char *key, const char *value, char *err, size_t errlen)
{
    const scenario_key *k = key_find(key);
    if (k == NULL) {
        snprintf(err, errlen, "%s: unknown key", Q(key));
        return -1;
    }
    if (value == NULL || value[0] == '\0') {
        snprintf(err, errlen, "%s: needs a value", key);
        return -1;
    }
    return k->set(sc, key, value, err, errlen);
}
