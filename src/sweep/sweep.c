/* sweep.c - grid, seeds, statistics and worker threads of a sweep
 * (sweep.h).
 *
 * Threading: one mutex guards the results and the hand-out of work; a
 * worker takes the lowest point that still wants a replication, runs it
 * unlocked into its own buffer, and copies the values in under the lock.
 * Whoever finishes a point's last outstanding replication decides, from
 * replications 0 .. n-1 only, whether the point is done or wants more, so
 * the outcome never depends on which thread ran what.
 */
#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridgereport.h"
#include "budget.h"
#include "engine.h"
#include "parse.h"
#include "stats.h"

/* Events per engine slice between looks at the stop flag: a few ms. */
#define SWEEP_SLICE_EVENTS 200000

static const char *const axis_keys[SWEEP_N_AXES] = {
    "policy", "phy", "frame-size", "length", "load", "stations",
};

const char *sweep_axis_key(sweep_axis a)
{
    return a < SWEEP_N_AXES ? axis_keys[a] : "?";
}

int sweep_axis_find(const char *key)
{
    for (int a = 0; a < SWEEP_N_AXES; a++)
        if (strcmp(key, axis_keys[a]) == 0)
            return a;
    return -1;
}

static char **words_from_u64(const uint64_t *v, size_t n)
{
    char **w = calloc(n, sizeof *w);
    for (size_t i = 0; w != NULL && i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRIu64, v[i]);
        if ((w[i] = strdup(buf)) == NULL) {
            parse_list_free_words(w, i);
            return NULL;
        }
    }
    return w;
}

/* 15 significant digits: a range's accumulated rounding ("0.1..1:0.1"
 * computes 0.30000000000000004) is dropped, so the point is the 0.3 the
 * user meant, applied from the text "0.3". */
static char **words_from_double(const double *v, size_t n)
{
    char **w = calloc(n, sizeof *w);
    for (size_t i = 0; w != NULL && i < n; i++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.15g", v[i]);
        if ((w[i] = strdup(buf)) == NULL) {
            parse_list_free_words(w, i);
            return NULL;
        }
    }
    return w;
}

/* A value that is one item of its key's own syntax rather than a list
 * ("2km", "64-1518", "64:3,1518:1"): kept whole, checked by scenario_set. */
static char **single_word(const char *text)
{
    char **w = calloc(1, sizeof *w);
    if (w != NULL && (w[0] = strdup(text)) == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

int sweep_grid_set(sweep_grid *g, sweep_axis a, const char *list, char *err, size_t errlen)
{
    for (size_t i = 0; i < g->n_with; i++)
        if (g->with[i].axis == (size_t)a) {
            snprintf(err, errlen, "a key moves with it (+%s): give it once", g->with[i].key);
            return -1;
        }
    char **words = NULL;
    size_t n = 0;
    uint64_t *u = NULL;
    double *d = NULL;
    switch (a) {
    case SWEEP_AXIS_STATIONS:
        if (parse_list_u64(list, 1, SCENARIO_MAX_STATIONS, &u, &n, err, errlen) != 0)
            return -1;
        words = words_from_u64(u, n);
        break;
    case SWEEP_AXIS_FRAME_SIZE:
        if (strpbrk(list, ":") != NULL || (strchr(list, '-') != NULL && !strstr(list, ".."))) {
            words = single_word(list);
            n = 1;
            break;
        }
        if (parse_list_u64(list, 1, 65535, &u, &n, err, errlen) != 0)
            return -1;
        words = words_from_u64(u, n);
        break;
    case SWEEP_AXIS_LOAD:
    case SWEEP_AXIS_LENGTH:
        if (a == SWEEP_AXIS_LENGTH && list[0] != '\0' && list[strlen(list) - 1] == 'm' &&
            strchr(list, ',') == NULL && strstr(list, "..") == NULL) {
            words = single_word(list); /* "2km", "500m" */
            n = 1;
            break;
        }
        if (parse_list_double(list, 0, 1e12, &d, &n, err, errlen) != 0)
            return -1;
        words = words_from_double(d, n);
        break;
    case SWEEP_AXIS_PHY:
    case SWEEP_AXIS_POLICY:
        if (parse_list_words(list, &words, &n, err, errlen) != 0)
            return -1;
        break;
    default:
        snprintf(err, errlen, "not a sweep axis");
        return -1;
    }
    free(u);
    free(d);
    if (words == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    parse_list_free_words(g->values[a], g->n[a]);
    g->values[a] = words;
    g->n[a] = n;
    g->last_set = (size_t)a + 1;
    return 0;
}

void sweep_grid_free(sweep_grid *g)
{
    for (size_t i = 0; i < g->n_with; i++) /* as many values as their axis */
        parse_list_free_words(g->with[i].values, g->n[g->with[i].axis]);
    for (int a = 0; a < SWEEP_MAX_AXES; a++) {
        parse_list_free_words(g->values[a], g->n[a]);
        g->values[a] = NULL;
        g->n[a] = 0;
        g->key[a][0] = '\0';
    }
    g->n_keyed = 0;
    g->n_with = 0;
    g->last_set = 0;
}

bool sweep_grid_has_companion(const sweep_grid *g, const char *key)
{
    for (size_t i = 0; i < g->n_with; i++)
        if (strcmp(g->with[i].key, key) == 0)
            return true;
    return false;
}

void sweep_grid_follow(sweep_grid *g, const char *key)
{
    int a = sweep_grid_find(g, key);
    if (a >= 0)
        g->last_set = (size_t)a + 1;
}

const char *sweep_grid_key(const sweep_grid *g, size_t a)
{
    return a < SWEEP_N_AXES ? axis_keys[a] : a < SWEEP_MAX_AXES ? g->key[a] : "?";
}

int sweep_grid_find(const sweep_grid *g, const char *key)
{
    int a = sweep_axis_find(key);
    for (size_t i = 0; a < 0 && i < g->n_keyed; i++)
        if (strcmp(g->key[SWEEP_N_AXES + i], key) == 0)
            a = (int)(SWEEP_N_AXES + i);
    return a;
}

/* The part of a key after its group's name: "stations" of
 * "rogue.stations". */
static const char *bare_key(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? dot + 1 : key;
}

/* The values of a keyed axis. A group's size may be 0; a key that is
 * also a named axis ("rogue.load") reads its LIST as that axis does;
 * others take a range of numbers or words. */
static int keyed_words(const char *key, const char *list, char ***out, size_t *n, char *err,
                       size_t errlen)
{
    const char *bare = bare_key(key);
    int named = sweep_axis_find(bare);
    uint64_t *u = NULL;
    double *d = NULL;
    if (strcmp(bare, "stations") == 0) {
        if (parse_list_u64(list, 0, SCENARIO_MAX_STATIONS, &u, n, err, errlen) != 0)
            return -1;
        *out = words_from_u64(u, *n);
        free(u);
    } else if (named >= 0) {
        sweep_grid tmp = {0};
        if (sweep_grid_set(&tmp, (sweep_axis)named, list, err, errlen) != 0)
            return -1;
        *out = tmp.values[named];
        *n = tmp.n[named];
        return 0;
    } else if (strstr(list, "..") != NULL) {
        /* Whole numbers step by 1 (queue=1..4), as the documented A..B
         * says; other ranges need their step (0.1..0.5:0.1). */
        char ignored[256];
        if (parse_list_u64(list, 0, UINT64_MAX, &u, n, ignored, sizeof ignored) == 0) {
            *out = words_from_u64(u, *n);
            free(u);
        } else {
            if (parse_list_double(list, -1e300, 1e300, &d, n, err, errlen) != 0)
                return -1;
            *out = words_from_double(d, *n);
            free(d);
        }
    } else if (parse_list_words(list, out, n, err, errlen) != 0) {
        return -1;
    }
    if (*out == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* "+KEY=LIST": a companion of the axis set last. */
static int set_companion(sweep_grid *g, const char *key, const char *list, char *err,
                         size_t errlen)
{
    if (g->last_set == 0) {
        snprintf(err, errlen, "+%s moves with the axis given before it, and there is none", key);
        return -1;
    }
    size_t i = 0;
    while (i < g->n_with && strcmp(g->with[i].key, key) != 0)
        i++;
    if (i == SWEEP_MAX_KEYED) {
        snprintf(err, errlen, "at most %d keys that move with an axis", SWEEP_MAX_KEYED);
        return -1;
    }
    char **words = NULL;
    size_t n = 0;
    if (keyed_words(key, list, &words, &n, err, errlen) != 0)
        return -1;
    size_t axis = g->last_set - 1;
    if (n != g->n[axis]) {
        snprintf(err, errlen, "%zu value%s, but %s, which it moves with, has %zu", n,
                 n == 1 ? "" : "s", sweep_grid_key(g, axis), g->n[axis]);
        parse_list_free_words(words, n);
        return -1;
    }
    if (i < g->n_with) {
        parse_list_free_words(g->with[i].values, g->n[g->with[i].axis]);
    } else {
        g->n_with++;
        snprintf(g->with[i].key, sizeof g->with[i].key, "%s", key);
    }
    g->with[i].axis = axis;
    g->with[i].values = words;
    return 0;
}

int sweep_grid_set_key(sweep_grid *g, const char *key, const char *list, char *err,
                       size_t errlen)
{
    if (key[0] == '+')
        return set_companion(g, key + 1, list, err, errlen);
    int named = sweep_axis_find(key);
    if (named >= 0) {
        if (sweep_grid_set(g, (sweep_axis)named, list, err, errlen) != 0)
            return -1;
        g->last_set = (size_t)named + 1;
        return 0;
    }
    if (key[0] == '\0' || strlen(key) >= SWEEP_KEY_MAX) {
        snprintf(err, errlen, "'%.64s' is not a scenario key", key);
        return -1;
    }
    if (strcmp(key, "seed") == 0) {
        snprintf(err, errlen, "cannot be swept: every run's seed comes from the master seed "
                              "(--seed) and the point");
        return -1;
    }
    int a = sweep_grid_find(g, key);
    if (a < 0 && g->n_keyed == SWEEP_MAX_KEYED) {
        snprintf(err, errlen, "at most %d keys besides the named axes", SWEEP_MAX_KEYED);
        return -1;
    }
    char **words = NULL;
    size_t n = 0;
    if (keyed_words(key, list, &words, &n, err, errlen) != 0)
        return -1;
    for (size_t i = 0; a >= 0 && i < g->n_with; i++)
        if (g->with[i].axis == (size_t)a) {
            snprintf(err, errlen, "a key moves with it (+%s): give it once", g->with[i].key);
            parse_list_free_words(words, n);
            return -1;
        }
    if (a < 0) {
        a = (int)(SWEEP_N_AXES + g->n_keyed++);
        snprintf(g->key[a], sizeof g->key[a], "%s", key);
    }
    parse_list_free_words(g->values[a], g->n[a]);
    g->values[a] = words;
    g->n[a] = n;
    g->last_set = (size_t)a + 1;
    return 0;
}

size_t sweep_grid_points(const sweep_grid *g)
{
    size_t n = 1;
    for (int a = 0; a < SWEEP_MAX_AXES; a++)
        if (g->n[a] > 0)
            n *= g->n[a];
    return n;
}

void sweep_grid_index(const sweep_grid *g, size_t p, size_t idx[SWEEP_MAX_AXES])
{
    for (int a = SWEEP_MAX_AXES - 1; a >= 0; a--) {
        size_t n = g->n[a] > 0 ? g->n[a] : 1;
        idx[a] = p % n;
        p /= n;
    }
}

/* The value a group gives itself for key, or NULL (the last wins). */
static const char *group_own(const station_group *gr, const char *key)
{
    const char *v = NULL;
    for (uint32_t k = 0; k < gr->n_keys; k++)
        if (strcmp(gr->keys[k].key, key) == 0)
            v = gr->keys[k].value;
    return v;
}

/* With groups, the stations axis is the total: the one group without a
 * `stations` key of its own gets what the others leave. */
static int set_total(scenario *sc, const char *value, char *err, size_t errlen)
{
    uint32_t total = (uint32_t)strtoul(value, NULL, 10), others = 0;
    const station_group *rest = NULL;
    for (uint32_t i = 0; i < sc->n_named; i++) {
        const station_group *gr = &sc->groups[i];
        const char *count = group_own(gr, "stations");
        if (count == NULL && rest != NULL) {
            snprintf(err, errlen, "--stations: with groups it is the total, and the one group "
                                  "without `stations` takes the rest: %s and %s both have none",
                     rest->name, gr->name);
            return -1;
        }
        if (count == NULL)
            rest = gr;
        else
            others += (uint32_t)strtoul(count, NULL, 10);
    }
    if (rest == NULL) {
        snprintf(err, errlen, "--stations: with groups it is the total, and one group without "
                              "`stations` takes the rest: every group sets its own");
        return -1;
    }
    if (others > total) {
        snprintf(err, errlen, "--stations: %u in all, but the groups other than %s have %u",
                 total, rest->name, others);
        return -1;
    }
    char key[SCENARIO_GROUP_NAME_MAX + 16], count[16];
    snprintf(key, sizeof key, "%s.stations", rest->name);
    snprintf(count, sizeof count, "%u", total - others);
    return scenario_set(sc, key, count, err, errlen);
}

/* One named axis's value. */
static int apply_named(scenario *sc, sweep_axis a, const char *v, char *err, size_t errlen)
{
    char reason[1024];
    bool groups = sc->n_named > 0;
    /* With groups `load` is the total as in run: scenario_finish shares
     * it among the groups that set none (src/model/group.c). */
    int rc = groups && a == SWEEP_AXIS_STATIONS
                 ? set_total(sc, v, reason, sizeof reason)
                 : scenario_set(sc, sweep_axis_key(a), v, reason, sizeof reason);
    if (rc == 0)
        return 0;
    if (strncmp(reason, "--", 2) == 0)
        snprintf(err, errlen, "%s", reason);
    else
        snprintf(err, errlen, "--%s: %s", sweep_axis_key(a),
                 strchr(reason, ':') ? strchr(reason, ':') + 2 : reason);
    return -1;
}

int sweep_apply(const sweep_grid *g, size_t p, scenario *sc, char *err, size_t errlen)
{
    static const sweep_axis order[] = {SWEEP_AXIS_POLICY, SWEEP_AXIS_FRAME_SIZE,
                                       SWEEP_AXIS_LENGTH, SWEEP_AXIS_LOAD, SWEEP_AXIS_STATIONS};
    size_t idx[SWEEP_MAX_AXES];
    sweep_grid_index(g, p, idx);
    char reason[1024];
    for (size_t i = 0; i < g->n_keyed; i++) {
        size_t a = SWEEP_N_AXES + i;
        if (scenario_set(sc, g->key[a], g->values[a][idx[a]], reason, sizeof reason) != 0) {
            /* The setter says "KEY: reason", or for a group's key
             * "group NAME: key: reason": the key is said once. */
            const char *r = reason, *key = g->key[a], *dot = strchr(key, '.');
            size_t kl = strlen(key);
            if (strncmp(r, key, kl) == 0 && r[kl] == ':')
                r += kl + 2;
            else if (dot != NULL && strncmp(r, "group ", 6) == 0 &&
                     strncmp(r + 6, key, (size_t)(dot - key)) == 0 && r[6 + (dot - key)] == ':')
                r += 6 + (dot - key) + 2;
            snprintf(err, errlen, "--grid: %s: %s", key, r);
            return -1;
        }
    }
    for (size_t i = 0; i < g->n_with; i++) {
        const sweep_companion *c = &g->with[i];
        if (scenario_set(sc, c->key, c->values[idx[c->axis]], reason, sizeof reason) != 0) {
            snprintf(err, errlen, "--grid: +%s: %s", c->key, reason);
            return -1;
        }
    }
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        sweep_axis a = order[i];
        if (g->n[a] > 0 && apply_named(sc, a, g->values[a][idx[a]], err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* splitmix64's output function (Steele, Lea and Flood 2014). */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t sweep_seed(uint64_t master, uint64_t point, uint64_t rep)
{
    return mix64(mix64(mix64(master) ^ point) ^ rep);
}

/* ---- measures ---- */

static bool recorded(const output_measure *m) { return strcmp(m->name, "wall_s") != 0; }

size_t sweep_measure_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < output_measure_count(); i++)
        n += recorded(output_measure_at(i));
    return n;
}

const output_measure *sweep_measure_at(size_t k)
{
    for (size_t i = 0; i < output_measure_count(); i++) {
        const output_measure *m = output_measure_at(i);
        if (recorded(m) && k-- == 0)
            return m;
    }
    return NULL;
}

int sweep_measure_find(const char *name)
{
    for (size_t k = 0; k < sweep_measure_count(); k++)
        if (strcmp(sweep_measure_at(k)->name, name) == 0)
            return (int)k;
    return -1;
}

/* The measures of each named group (results.h, group_result), in the
 * order recorded. throughput_ci95 is the group's batch-means interval,
 * used as the throughput's interval with one replication (as the run's). */
static const sweep_group_measure group_measures[] = {
    {"throughput", ""},         {"throughput_ci95", ""},  {"share", ""},
    {"offered_load", ""},       {"frames_ok", "frames"},  {"frames_aborted", "frames"},
    {"frames_dropped", "frames"}, {"frames_queued", "frames"}, {"delay_mean_s", "s"},
    {"delay_p99_s", "s"},
    {"jain_fairness", ""},      {"responses", "frames"},  {"response_mean_s", "s"},
    {"response_p99_s", "s"},
};
#define N_GROUP_MEASURES (sizeof group_measures / sizeof group_measures[0])

size_t sweep_group_measure_count(void) { return N_GROUP_MEASURES; }

const sweep_group_measure *sweep_group_measure_at(size_t j)
{
    return j < N_GROUP_MEASURES ? &group_measures[j] : NULL;
}

int sweep_group_measure_find(const char *name)
{
    for (size_t j = 0; j < N_GROUP_MEASURES; j++)
        if (strcmp(group_measures[j].name, name) == 0)
            return (int)j;
    return -1;
}

/* A group's values in the order of group_measures. A share of nothing
 * delivered (the run delivered no bit: 0 / 0) has no value, never 0. */
static void group_values(const group_result *gr, bool delivered, double *v)
{
    double values[N_GROUP_MEASURES] = {
        gr->throughput,
        gr->throughput_ci95,
        delivered ? gr->share : NAN,
        gr->offered_load,
        (double)gr->frames_ok,
        (double)gr->frames_aborted,
        (double)gr->frames_dropped,
        (double)gr->frames_queued,
        gr->mean_delay_us * 1e-6,
        gr->p99_delay_us * 1e-6,
        gr->jain_fairness,
        (double)gr->responses,
        gr->responses ? gr->response_mean_us * 1e-6 : NAN,
        gr->responses ? gr->response_p99_us * 1e-6 : NAN,
    };
    memcpy(v, values, sizeof values);
}

/* The budget's figures of a network (budget.h), recorded per run. */
static const char *const budget_names[] = {"pdv_bits", "pdv_limit_bits", "pvv_bits",
                                           "model_round_trip_bits"};
#define N_BUDGET (sizeof budget_names / sizeof budget_names[0])

size_t sweep_budget_count(void) { return N_BUDGET; }

const char *sweep_budget_name(size_t j) { return j < N_BUDGET ? budget_names[j] : NULL; }

void sweep_budget_values(const scenario *sc, double *v, char *verdict, size_t len)
{
    /* the worst collision domain, judged at its own rate, as run's
     * header names it */
    network view = {0};
    net_budget b;
    net_domain_tally t;
    bool ok = network_worst_budget(&sc->net, 0, &view, &b, &t) != NULL;
    network_free(&view);
    v[0] = ok && b.pdv_defined ? b.pdv_bits : NAN;
    v[1] = ok && b.pdv_defined ? b.pdv_limit_bits : NAN;
    v[2] = ok && b.pvv_defined ? b.pvv_bits : NAN;
    v[3] = ok ? b.model_round_trip_bits : NAN;
    if (verdict != NULL)
        snprintf(verdict, len, "%s", ok ? b.verdict : "");
}

/* A network's families of rows (sweep.h): segments and repeaters
 * (output.h's tables), and with bridges the collision domains and the
 * bridge ports (bridgereport.h's). */
uint32_t sweep_net_rows(const scenario *sc, int family)
{
    const network *net = &sc->net;
    if (net->n_segments == 0)
        return 0;
    switch (family) {
    case 0: return net->n_segments;
    case 1: return net->n_repeaters;
    case 2: return net->n_bridges > 0 ? net->n_domains : 0;
    case 3: {
        uint32_t n = 0;
        for (uint32_t b = 0; b < net->n_bridges; b++)
            n += net->bridges[b].n_ports;
        return n;
    }
    default: return 0;
    }
}

/* Bridge port i of the network in order (bridge by bridge): its bridge
 * and its index there. */
static void port_at(const network *net, uint32_t i, uint32_t *bridge, uint32_t *port)
{
    uint32_t b = 0;
    while (b + 1 < net->n_bridges && i >= net->bridges[b].n_ports)
        i -= net->bridges[b++].n_ports;
    *bridge = b;
    *port = i;
}

void sweep_net_row_name(const scenario *sc, int family, uint32_t i, char *buf, size_t len)
{
    const network *net = &sc->net;
    buf[0] = '\0';
    if (i >= sweep_net_rows(sc, family))
        return;
    if (family == 0)
        snprintf(buf, len, "%s", net->segments[i].name);
    else if (family == 1)
        snprintf(buf, len, "%s", net->repeaters[i].name);
    else if (family == 2)
        snprintf(buf, len, "%s", net->segments[net->domain_first[i]].name);
    else {
        uint32_t b, p;
        port_at(net, i, &b, &p);
        snprintf(buf, len, "%s.%s", net->bridges[b].name,
                 net->segments[net->bridges[b].ports[p].segment].name);
    }
}

size_t sweep_net_measure_count(int family)
{
    return family < OUTPUT_NET_FAMILIES ? output_net_measure_count(family)
           : family == 2                ? bridgereport_domain_measure_count()
           : family == 3                ? bridgereport_port_measure_count()
                                        : 0;
}

const char *sweep_net_measure_name(int family, size_t j)
{
    return family < OUTPUT_NET_FAMILIES ? output_net_measure_name(family, j)
           : family == 2                ? bridgereport_domain_measure_name(j)
           : family == 3                ? bridgereport_port_measure_name(j)
                                        : NULL;
}

/* Measure j of row i of a family in a run's results (NaN when the run
 * has no such row). */
static double net_value(const scenario *sc, const results *r, int family, uint32_t i, size_t j)
{
    if (family == 0)
        return i < r->n_segments ? (double)output_net_value(r, 0, i, j) : NAN;
    if (family == 1)
        return i < r->n_repeaters ? (double)output_net_value(r, 1, i, j) : NAN;
    if (family == 2)
        return i < r->n_domains ? bridgereport_domain_value(&r->domains[i], j) : NAN;
    uint32_t b, p;
    port_at(&sc->net, i, &b, &p);
    return b < r->n_bridges && p < r->bridges[b].n_ports
               ? bridgereport_port_value(&r->bridges[b].ports[p], j)
               : NAN;
}

size_t sweep_net_from(const scenario *sc)
{
    return sweep_measure_count() + (size_t)sc->n_named * N_GROUP_MEASURES;
}

size_t sweep_run_width(const scenario *sc)
{
    size_t w = sweep_net_from(sc);
    if (sc->net.n_segments == 0)
        return w;
    for (int f = 0; f < SWEEP_NET_FAMILIES; f++)
        w += (size_t)sweep_net_rows(sc, f) * sweep_net_measure_count(f);
    return w + N_BUDGET;
}

int sweep_net_value_find(const scenario *sc, int family, uint32_t i, size_t j)
{
    if (sc->net.n_segments == 0 || family < 0 || family >= SWEEP_NET_FAMILIES ||
        i >= sweep_net_rows(sc, family) || j >= sweep_net_measure_count(family))
        return -1;
    size_t k = sweep_net_from(sc);
    for (int f = 0; f < family; f++)
        k += (size_t)sweep_net_rows(sc, f) * sweep_net_measure_count(f);
    return (int)(k + (size_t)i * sweep_net_measure_count(family) + j);
}

int sweep_value_find(const scenario *sc, const char *name)
{
    const char *dot = strchr(name, '.');
    if (dot == NULL) {
        int k = sweep_measure_find(name);
        for (size_t j = 0; k < 0 && sc->net.n_segments && j < N_BUDGET; j++)
            if (strcmp(name, budget_names[j]) == 0)
                k = (int)(sweep_run_width(sc) - N_BUDGET + j);
        return k;
    }
    size_t len = (size_t)(dot - name);
    int j = sweep_group_measure_find(dot + 1);
    for (uint32_t g = 0; j >= 0 && g < sc->n_named; g++)
        if (strlen(sc->groups[g].name) == len && strncmp(sc->groups[g].name, name, len) == 0)
            return (int)(sweep_measure_count() + g * N_GROUP_MEASURES + (size_t)j);
    /* "ROW.measure": a bridge port's row is "BRIDGE.SEGMENT" */
    for (int f = 0; f < SWEEP_NET_FAMILIES; f++)
        for (uint32_t i = 0; i < sweep_net_rows(sc, f); i++) {
            char row[2 * NET_NAME_MAX + 4];
            sweep_net_row_name(sc, f, i, row, sizeof row);
            size_t rl = strlen(row);
            if (strncmp(name, row, rl) != 0 || name[rl] != '.')
                continue;
            for (size_t m = 0; m < sweep_net_measure_count(f); m++)
                if (strcmp(sweep_net_measure_name(f, m), name + rl + 1) == 0)
                    return sweep_net_value_find(sc, f, i, m);
        }
    return -1;
}

size_t sweep_result_width(const sweep_result *r)
{
    return r->width ? r->width : sweep_measure_count();
}

void sweep_summarise(const sweep_result *r, size_t k, double *mean, double *ci95)
{
    size_t m = sweep_result_width(r);
    uint32_t n = r->n_reps;
    *mean = NAN;
    *ci95 = NAN;
    if (n == 0)
        return;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        double v = r->values[(size_t)i * m + k];
        if (isnan(v))
            return;
        sum += v;
    }
    *mean = sum / n;
    if (n < 2)
        return;
    /* Two passes: the variance of nearly equal values stays accurate. */
    double ss = 0;
    for (uint32_t i = 0; i < n; i++) {
        double dv = r->values[(size_t)i * m + k] - *mean;
        ss += dv * dv;
    }
    *ci95 = stats_t975(n - 1) * sqrt(ss / (n - 1)) / sqrt((double)n);
}

void sweep_point_value(const sweep_result *r, size_t k, double *mean, double *ci95)
{
    sweep_summarise(r, k, mean, ci95);
    if ((int)k == sweep_measure_find("throughput") && r->n_reps == 1)
        *ci95 = r->values[sweep_measure_find("throughput_ci95")];
    /* A group's throughput: its own batch-means interval likewise. */
    size_t m = sweep_measure_count(), end = r->net_from ? r->net_from : sweep_result_width(r);
    if (k >= m && k < end && (k - m) % N_GROUP_MEASURES == 0 && r->n_reps == 1) {
        double v = r->values[k + 1];
        *ci95 = isfinite(v) ? v : NAN;
    }
}

int sweep_run_one(const scenario *sc, const struct replay *shared, uint64_t seed, double *values,
                  const atomic_int *stop, char *err, size_t errlen)
{
    scenario s;
    if (scenario_copy(&s, sc) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s.seed = seed;
    engine *e = NULL;
    int rc = engine_create_shared(&s, shared, &e, err, errlen);
    if (rc == 0 && (rc = engine_start(e, err, errlen)) != 0)
        engine_destroy(e);
    if (rc != 0) {
        scenario_free(&s);
        return -1;
    }
    engine_status st;
    uint64_t slice = 0;
    while ((st = engine_run(e, SIM_TIME_NEVER,
                            slice = engine_slice_events(e, slice, SWEEP_SLICE_EVENTS))) ==
           ENGINE_RUNNING)
        if (stop != NULL && atomic_load(stop)) {
            engine_destroy(e);
            scenario_free(&s);
            return 1;
        }
    if (st == ENGINE_OUT_OF_MEMORY) {
        char at[32];
        parse_format_time(engine_now(e), at, sizeof at);
        snprintf(err, errlen, "out of memory at %s of simulated time (%u stations)", at,
                 s.n_stations);
        engine_destroy(e);
        scenario_free(&s);
        return -1;
    }
    results r;
    engine_results(e, &r);
    output_run run = {.sc = &s, .r = &r, .wall_s = 0, .interrupted = false};
    size_t m = sweep_measure_count();
    for (size_t k = 0; k < m; k++) {
        output_value v = sweep_measure_at(k)->get(&run);
        values[k] = v.kind == OUTPUT_UINT ? (double)v.u : v.kind == OUTPUT_REAL ? v.d : NAN;
    }
    bool delivered = false;
    for (uint32_t i = 0; i < r.n_stations; i++)
        delivered = delivered || r.stations[i].bits_delivered > 0;
    for (uint32_t g = 0; g < s.n_named; g++) {
        if (g < r.n_groups)
            group_values(&r.groups[g], delivered, values + m + (size_t)g * N_GROUP_MEASURES);
        else
            for (size_t j = 0; j < N_GROUP_MEASURES; j++)
                values[m + (size_t)g * N_GROUP_MEASURES + j] = NAN;
    }
    if (s.net.n_segments > 0) {
        double *v = values + sweep_net_from(&s);
        for (int f = 0; f < SWEEP_NET_FAMILIES; f++)
            for (uint32_t i = 0; i < sweep_net_rows(&s, f); i++)
                for (size_t j = 0; j < sweep_net_measure_count(f); j++)
                    *v++ = net_value(&s, &r, f, i, j);
        sweep_budget_values(&s, v, NULL, 0);
    }
    engine_destroy(e);
    scenario_free(&s);
    return 0;
}

void sweep_result_free(sweep_result *r)
{
    free(r->values);
    memset(r, 0, sizeof *r);
}

/* ---- the workers ---- */

typedef struct exec {
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* new work, or time to stop */
    pthread_cond_t main_cv; /* a point finished, or a failure */
    const scenario *points;
    size_t n_points;
    const bool *owned;
    const sweep_options *o;
    sweep_result *res;
    double *weight;  /* estimated cost of one replication of each point */
    size_t max_width; /* the widest point's values per replication */
    size_t hint;     /* no point below this wants work */
    size_t n_owned, n_done;
    double work_done;
    atomic_int stopping;
    bool failed;
    char err[512];
} exec;

static bool owns(const exec *x, size_t p) { return x->owned == NULL || x->owned[p]; }

/* Decides, from a point's finished replications, whether it is done.
 * Called with the lock held when finished == wanted. Returns -1 if more
 * replications cannot be stored. */
static int decide(exec *x, size_t p)
{
    sweep_result *r = &x->res[p];
    const sweep_options *o = x->o;
    r->n_reps = r->finished;
    size_t m = sweep_result_width(r);
    if (o->precision <= 0) {
        r->done = true;
        r->precision_met = true;
        return 0;
    }
    double mean, ci;
    sweep_summarise(r, (size_t)sweep_measure_find("throughput"), &mean, &ci);
    uint32_t n = r->n_reps;
    double target = o->precision * fabs(mean);
    if (n >= 2 && (ci <= target || ci == 0)) {
        r->done = true;
        r->precision_met = true;
        return 0;
    }
    if (n >= o->max_reps) {
        r->done = true;
        r->precision_met = false;
        return 0;
    }
    double need = target > 0 && n >= 2 ? ceil(n * (ci / target) * (ci / target)) : 2.0 * n;
    uint32_t want = need > o->max_reps ? o->max_reps : (uint32_t)need;
    if (want < n + 1)
        want = n + 1;
    double *v = realloc(r->values, sizeof *v * m * want);
    if (v == NULL)
        return -1;
    r->values = v;
    r->wanted = want;
    return 0;
}

static void *worker(void *arg)
{
    exec *x = arg;
    double *buf = malloc(sizeof *buf * x->max_width);
    char err[512];
    pthread_mutex_lock(&x->mu);
    if (buf == NULL) {
        x->failed = true;
        snprintf(x->err, sizeof x->err, "out of memory");
        pthread_cond_broadcast(&x->main_cv);
    }
    while (buf != NULL && !x->failed && !atomic_load(&x->stopping)) {
        while (x->hint < x->n_points && (!owns(x, x->hint) || x->res[x->hint].done))
            x->hint++;
        size_t p = x->hint;
        while (p < x->n_points && (!owns(x, p) || x->res[p].done ||
                                   x->res[p].issued >= x->res[p].wanted))
            p++;
        if (p == x->n_points) {
            if (x->n_done == x->n_owned)
                break;
            pthread_cond_wait(&x->work_cv, &x->mu);
            continue;
        }
        uint32_t rep = x->res[p].issued++;
        uint64_t seed = sweep_seed(x->o->seed, p, rep);
        pthread_mutex_unlock(&x->mu);
        const scenario *pt = &x->points[p];
        const struct replay *shared = x->o->replay != NULL && x->o->replay_for != NULL &&
                                              engine_replay_same(x->o->replay_for, pt)
                                          ? x->o->replay
                                          : NULL;
        int rc = sweep_run_one(pt, shared, seed, buf, &x->stopping, err, sizeof err);
        pthread_mutex_lock(&x->mu);
        if (rc == 1)
            break;
        if (rc < 0) {
            if (!x->failed)
                snprintf(x->err, sizeof x->err, "%s", err);
            x->failed = true;
            pthread_cond_broadcast(&x->work_cv);
            pthread_cond_broadcast(&x->main_cv);
            break;
        }
        sweep_result *r = &x->res[p];
        size_t m = sweep_result_width(r);
        memcpy(r->values + (size_t)rep * m, buf, sizeof *buf * m);
        r->finished++;
        x->work_done += x->weight[p];
        if (r->finished == r->wanted) {
            if (decide(x, p) != 0) {
                x->failed = true;
                snprintf(x->err, sizeof x->err, "out of memory");
            } else if (r->done) {
                x->n_done++;
            }
            pthread_cond_broadcast(&x->work_cv);
            pthread_cond_broadcast(&x->main_cv);
        }
    }
    pthread_cond_broadcast(&x->main_cv);
    pthread_mutex_unlock(&x->mu);
    free(buf);
    return NULL;
}

/* The cost of one replication, for the progress estimate: simulated time
 * times a slowly growing function of N (the engine's cost per event grows
 * with log N, its events per second of simulated time only a little). */
static double weight_of(const scenario *sc)
{
    return sim_time_to_s(sc->duration) * (1.0 + log2((double)sc->n_stations));
}

int sweep_execute(const scenario *points, size_t n_points, const bool *owned,
                  const sweep_options *o, sweep_result *res, sweep_progress_fn progress,
                  void *ctx, int (*stop)(void), char *err, size_t errlen)
{
    exec x;
    memset(&x, 0, sizeof x);
    x.points = points;
    x.n_points = n_points;
    x.owned = owned;
    x.o = o;
    x.res = res;
    atomic_init(&x.stopping, 0);
    x.max_width = sweep_measure_count();
    for (size_t p = 0; p < n_points; p++) {
        res[p].width = sweep_run_width(&points[p]);
        res[p].net_from = sweep_net_from(&points[p]);
        if (res[p].width > x.max_width)
            x.max_width = res[p].width;
    }
    uint32_t first = o->reps < 1 ? 1 : o->reps;
    if (o->precision > 0 && first < SWEEP_PRECISION_MIN_REPS)
        first = SWEEP_PRECISION_MIN_REPS;
    if (o->precision > 0 && first > o->max_reps)
        first = o->max_reps;
    x.weight = calloc(n_points ? n_points : 1, sizeof *x.weight);
    if (x.weight == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double work_total = 0;
    for (size_t p = 0; p < n_points; p++) {
        if (!owns(&x, p))
            continue;
        x.n_owned++;
        x.weight[p] = weight_of(&points[p]);
        res[p].wanted = first;
        res[p].values = malloc(sizeof(double) * res[p].width * first);
        if (res[p].values == NULL) {
            free(x.weight);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    pthread_mutex_init(&x.mu, NULL);
    pthread_cond_init(&x.work_cv, NULL);
    pthread_cond_init(&x.main_cv, NULL);

    unsigned jobs = o->jobs < 1 ? 1 : o->jobs;
    pthread_t *th = calloc(jobs, sizeof *th);
    unsigned started = 0;
    int rc = 0;
    if (th == NULL) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    /* As many workers as will start (memory, a process limit): the sweep
     * runs on those, and fails only when none does. */
    int start_error = 0;
    for (; rc == 0 && started < jobs; started++)
        if ((start_error = pthread_create(&th[started], NULL, worker, &x)) != 0)
            break;
    if (rc == 0 && started == 0) {
        snprintf(err, errlen, "worker threads: none could start: %s", strerror(start_error));
        rc = -1;
    } else if (rc == 0 && started < jobs && o->fewer_jobs != NULL) {
        o->fewer_jobs(started, jobs, start_error);
    }

    pthread_mutex_lock(&x.mu);
    while (rc == 0 && x.n_done < x.n_owned && !x.failed && !atomic_load(&x.stopping)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&x.main_cv, &x.mu, &ts);
        size_t done = x.n_done;
        work_total = 0;
        for (size_t p = 0; p < n_points; p++)
            if (owns(&x, p))
                work_total += x.weight[p] * res[p].wanted;
        double frac = work_total > 0 ? x.work_done / work_total : 1.0;
        pthread_mutex_unlock(&x.mu);
        if (stop != NULL && stop() != 0) {
            pthread_mutex_lock(&x.mu);
            atomic_store(&x.stopping, 1);
            pthread_cond_broadcast(&x.work_cv);
            break;
        }
        if (progress != NULL)
            progress(ctx, done, x.n_owned, frac);
        pthread_mutex_lock(&x.mu);
    }
    pthread_cond_broadcast(&x.work_cv);
    pthread_mutex_unlock(&x.mu);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (rc == 0 && x.failed) {
        snprintf(err, errlen, "%s", x.err);
        rc = -1;
    }
    if (rc == 0 && progress != NULL)
        progress(ctx, x.n_done, x.n_owned,
                 x.n_done == x.n_owned ? 1.0 : x.work_done / (work_total > 0 ? work_total : 1));
    free(th);
    free(x.weight);
    pthread_cond_destroy(&x.work_cv);
    pthread_cond_destroy(&x.main_cv);
    pthread_mutex_destroy(&x.mu);
    return rc;
}
