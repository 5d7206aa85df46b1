/* group.c - stations in groups (scenario.h; stations/MODEL.md,
 * "Stations in groups").
 *
 * A group keeps its own keys as text, in the order given. scenario_finish
 * resolves every group the same way: a scratch copy of the scenario's
 * per-station keys (the defaults), the group's keys applied over it with
 * scenario_key_set (keys.c, the one key table), and the result kept in the
 * group. So a group inherits every key it does not set, whichever order
 * the defaults and the groups came in (a file, then the command line), and
 * a group's key is checked by the very setter that checks it outside a
 * group. This file calls down to keys.c, never up to scenario.c.
 *
 * Without a declared group the scenario has one implicit group, "all",
 * whose fields are the scenario's own: the engine and the outputs treat
 * every scenario as groups, and a scenario without groups runs exactly as
 * before.
 */
#include "group_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "parse.h"

#define Q(v) parse_echo((v), (char[64]){0}, 64)

station_group *scenario_group_find(const scenario *sc, const char *name)
{
    for (uint32_t g = 0; g < sc->n_named; g++)
        if (strcmp(sc->groups[g].name, name) == 0)
            return &sc->groups[g];
    return NULL;
}

static void group_free(station_group *g)
{
    for (uint32_t k = 0; k < g->n_keys; k++) {
        free(g->keys[k].key);
        free(g->keys[k].value);
    }
    free(g->keys);
    free(g->positions_m);
    memset(g, 0, sizeof *g);
}

int scenario_group_add(scenario *sc, const char *name, char *err, size_t errlen)
{
    if (!scenario_group_name_ok(name)) {
        snprintf(err, errlen,
                 "group '%s': a name is 1 to %d letters, digits, '-' or '_', starting with a "
                 "letter",
                 Q(name), SCENARIO_GROUP_NAME_MAX);
        return -1;
    }
    if (scenario_group_find(sc, name) != NULL) {
        snprintf(err, errlen, "group %s: declared twice", name);
        return -1;
    }
    if (sc->n_named == SCENARIO_MAX_GROUPS) {
        snprintf(err, errlen, "group %s: more than %d groups", name, SCENARIO_MAX_GROUPS);
        return -1;
    }
    station_group *gs = realloc(sc->groups, (sc->n_named + 1) * sizeof *gs);
    if (gs == NULL) {
        snprintf(err, errlen, "group %s: out of memory", name);
        return -1;
    }
    sc->groups = gs;
    station_group *g = &gs[sc->n_named];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    sc->n_named++;
    return 0;
}

/* A group's stations are its count; a medium-wide key cannot be a
 * group's. */
static int check_group_key(const station_group *g, const char *key, char *err, size_t errlen)
{
    if (strcmp(key, "stations") == 0 || scenario_key_per_station(key))
        return 0;
    if (scenario_key_known(key))
        snprintf(err, errlen,
                 "group %s: %s is a key of the whole medium; set it outside the groups", g->name,
                 key);
    else
        snprintf(err, errlen, "group %s: unknown key '%s'", g->name, Q(key));
    return -1;
}

/* A scratch copy of the scenario for a group's keys: its per-station
 * fields are the defaults; it owns nothing (positions and groups none). */
static scenario scratch_of(const scenario *sc)
{
    scenario tmp = *sc;
    tmp.positions_m = NULL;
    tmp.n_positions = 0;
    tmp.groups = NULL;
    tmp.n_named = 0;
    return tmp;
}

/* Checks a value on a scratch copy of the scenario's per-station keys. */
static int try_value(const scenario *sc, station_group *g, const char *key, const char *value,
                     char *err, size_t errlen)
{
    char reason[512];
    if (strcmp(key, "stations") == 0) {
        uint32_t n = 0;
        if (parse_u32(value, 0, SCENARIO_MAX_STATIONS, &n, reason, sizeof reason) != 0) {
            snprintf(err, errlen, "group %s: stations: %s", g->name, reason);
            return -1;
        }
        return 0;
    }
    scenario tmp = scratch_of(sc);
    int rc = scenario_key_set(&tmp, key, value, reason, sizeof reason);
    free(tmp.positions_m);
    if (rc != 0) {
        snprintf(err, errlen, "group %s: %s", g->name, reason);
        return -1;
    }
    if (tmp.traffic.kind == TRAFFIC_PCAP) {
        snprintf(err, errlen,
                 "group %s: traffic: a replayed capture brings its own stations and cannot be a "
                 "group's",
                 g->name);
        return -1;
    }
    return 0;
}

int scenario_group_set(scenario *sc, station_group *g, const char *key, const char *value,
                       int line, bool replace, char *err, size_t errlen)
{
    if (check_group_key(g, key, err, errlen) != 0 || try_value(sc, g, key, value, err, errlen) != 0)
        return -1;
    for (uint32_t k = 0; replace && k < g->n_keys; k++) {
        if (strcmp(g->keys[k].key, key) == 0) {
            char *v = strdup(value);
            if (v == NULL)
                break;
            free(g->keys[k].value);
            g->keys[k].value = v;
            g->keys[k].line = line;
            return 0;
        }
    }
    struct group_key *ks = realloc(g->keys, (g->n_keys + 1) * sizeof *ks);
    if (ks == NULL) {
        snprintf(err, errlen, "group %s: out of memory", g->name);
        return -1;
    }
    g->keys = ks;
    ks[g->n_keys] = (struct group_key){strdup(key), strdup(value), line};
    if (ks[g->n_keys].key == NULL || ks[g->n_keys].value == NULL) {
        free(ks[g->n_keys].key);
        free(ks[g->n_keys].value);
        snprintf(err, errlen, "group %s: out of memory", g->name);
        return -1;
    }
    g->n_keys++;
    return 0;
}

int scenario_group_spec(scenario *sc, const char *spec, char *err, size_t errlen)
{
    char *text = strdup(spec), *save = NULL;
    if (text == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    const char *name = strtok_r(text, " \t", &save);
    if (name == NULL) {
        snprintf(err, errlen, "group: '%s' is not NAME KEY=VALUE ... (e.g. 'rogue stations=1 "
                              "policy=none')",
                 Q(spec));
        goto done;
    }
    station_group *g = scenario_group_find(sc, name);
    if (g == NULL) {
        if (scenario_group_add(sc, name, err, errlen) != 0)
            goto done;
        g = scenario_group_find(sc, name);
    }
    const char *seen[64];
    size_t n_seen = 0;
    for (char *kv; (kv = strtok_r(NULL, " \t", &save)) != NULL;) {
        char *eq = strchr(kv, '=');
        if (eq == NULL || eq == kv || eq[1] == '\0') {
            snprintf(err, errlen, "group %s: '%s' is not KEY=VALUE", name, Q(kv));
            goto done;
        }
        *eq = '\0';
        /* A key twice in one spec would silently keep the last, as a key
         * twice in one [group] section would: refused alike. */
        for (size_t i = 0; i < n_seen; i++)
            if (strcmp(seen[i], kv) == 0) {
                snprintf(err, errlen, "group %s: %s is given twice", name, Q(kv));
                goto done;
            }
        if (n_seen < sizeof seen / sizeof seen[0])
            seen[n_seen++] = kv;
        if (scenario_group_set(sc, g, kv, eq + 1, 0, true, err, errlen) != 0)
            goto done;
    }
    rc = 0;
done:
    free(text);
    return rc;
}

/* ---- copies ---- */

static int group_copy(station_group *dst, const station_group *src)
{
    *dst = *src;
    dst->keys = NULL;
    dst->positions_m = NULL;
    if (src->n_keys) {
        dst->keys = calloc(src->n_keys, sizeof *dst->keys);
        if (dst->keys == NULL)
            return -1;
        for (uint32_t k = 0; k < src->n_keys; k++) {
            dst->keys[k] = (struct group_key){strdup(src->keys[k].key),
                                              strdup(src->keys[k].value), src->keys[k].line};
            if (dst->keys[k].key == NULL || dst->keys[k].value == NULL)
                return -1;
        }
    }
    if (src->positions_m) {
        dst->positions_m = malloc(src->count * sizeof *dst->positions_m);
        if (dst->positions_m == NULL)
            return -1;
        memcpy(dst->positions_m, src->positions_m, src->count * sizeof *dst->positions_m);
    }
    return 0;
}

int scenario_groups_copy(scenario *dst, const scenario *src)
{
    dst->groups = NULL;
    dst->n_named = 0;
    if (src->n_named == 0)
        return 0;
    dst->groups = calloc(src->n_named, sizeof *dst->groups);
    if (dst->groups == NULL)
        return -1;
    for (uint32_t g = 0; g < src->n_named; g++) {
        dst->n_named = g + 1;
        if (group_copy(&dst->groups[g], &src->groups[g]) != 0) {
            scenario_groups_free(dst);
            return -1;
        }
    }
    return 0;
}

void scenario_groups_free(scenario *sc)
{
    for (uint32_t g = 0; g < sc->n_named; g++)
        group_free(&sc->groups[g]);
    free(sc->groups);
    sc->groups = NULL;
    sc->n_named = 0;
}

/* ---- resolution ---- */

/* The scenario's own per-station fields, as a group's. */
static void take_defaults(station_group *g, const scenario *sc)
{
    g->traffic = sc->traffic;
    memcpy(g->policy, sc->policy, sizeof g->policy);
    g->policy_spec = sc->policy_spec;
    g->queue_capacity = sc->queue_capacity;
    g->reply = sc->reply;
    memcpy(g->dest_group, sc->dest_group, sizeof g->dest_group);
    g->place = sc->place;
    g->place_from_m = sc->place_from_m;
    g->place_to_m = sc->place_to_m;
    memcpy(g->segment_name, sc->segment_name, sizeof g->segment_name);
}

/* Applies a group's keys over the defaults. */
static int resolve_one(const scenario *sc, station_group *g, char *err, size_t errlen)
{
    scenario tmp = scratch_of(sc);
    g->count = 0;
    free(g->positions_m);
    g->positions_m = NULL;
    for (uint32_t k = 0; k < g->n_keys; k++) {
        char reason[512];
        const struct group_key *gk = &g->keys[k];
        if (strcmp(gk->key, "stations") == 0) {
            if (parse_u32(gk->value, 0, SCENARIO_MAX_STATIONS, &g->count, reason,
                          sizeof reason) == 0)
                continue;
        } else if (scenario_key_set(&tmp, gk->key, gk->value, reason, sizeof reason) == 0) {
            continue;
        }
        free(tmp.positions_m);
        snprintf(err, errlen, "group %s: %s", g->name, reason);
        return -1;
    }
    take_defaults(g, &tmp);
    /* Its own `phy`: the profile, for its stations' links (network.c
     * refuses it but with topology = switch). */
    g->link_phy = NULL;
    for (uint32_t k = 0; k < g->n_keys; k++)
        if (strcmp(g->keys[k].key, "phy") == 0)
            g->link_phy = phy_profile_find(tmp.phy.name);
    if (tmp.positions_m != NULL && tmp.n_positions != g->count) {
        snprintf(err, errlen, "group %s: positions: %u given for %u station%s", g->name,
                 tmp.n_positions, g->count, g->count == 1 ? "" : "s");
        free(tmp.positions_m);
        return -1;
    }
    g->positions_m = tmp.positions_m;
    return 0;
}

/* Whether a group gives itself `key`. */
static bool group_sets(const station_group *g, const char *key)
{
    for (uint32_t k = 0; k < g->n_keys; k++)
        if (strcmp(g->keys[k].key, key) == 0)
            return true;
    return false;
}

static bool has_load(traffic_kind kind)
{
    return kind == TRAFFIC_POISSON || kind == TRAFFIC_ONOFF;
}

/* With groups, the scenario's `load` is the total of the groups that set
 * no load of their own and whose traffic has one, shared in proportion to
 * their stations (each of those stations offers the same); run and sweep
 * alike. A group of 0 stations offers nothing: its load is 0. */
static void share_load(scenario *sc)
{
    uint64_t sharing = 0;
    for (uint32_t i = 0; i < sc->n_named; i++) {
        const station_group *g = &sc->groups[i];
        if (!group_sets(g, "load") && has_load(g->traffic.kind))
            sharing += g->count;
    }
    for (uint32_t i = 0; i < sc->n_named; i++) {
        station_group *g = &sc->groups[i];
        if (g->count == 0)
            g->traffic.load = 0;
        else if (!group_sets(g, "load") && has_load(g->traffic.kind))
            g->traffic.load = sc->traffic.load * g->count / (double)sharing;
    }
}

/* A key a group gives itself that its traffic does not use is refused,
 * as the same option is outside groups (src/cli/cli.c). */
static int check_effect(const station_group *g, char *err, size_t errlen)
{
    traffic_kind t = g->traffic.kind;
    if (group_sets(g, "load") && !has_load(t)) {
        snprintf(err, errlen, "group %s: load: conflicts with %s traffic, which has no offered "
                              "load (traffic=poisson or onoff)",
                 g->name, scenario_traffic_name(t));
        return -1;
    }
    if (group_sets(g, "batch") && t != TRAFFIC_BATCH) {
        snprintf(err, errlen, "group %s: batch: conflicts with %s traffic (only traffic=batch "
                              "has batches)",
                 g->name, scenario_traffic_name(t));
        return -1;
    }
    if (group_sets(g, "on-off") && t != TRAFFIC_ONOFF) {
        snprintf(err, errlen, "group %s: on-off: conflicts with %s traffic (only traffic=onoff "
                              "has on and off periods)",
                 g->name, scenario_traffic_name(t));
        return -1;
    }
    return 0;
}

/* dest = local:P: the group's own stations, and a station elsewhere for
 * the rest; each side must have one whenever it is drawn. */
static int resolve_local(const scenario *sc, station_group *g, char *err, size_t errlen)
{
    traffic_config *t = &g->traffic;
    t->group_first = g->first;
    t->group_count = g->count;
    if (g->count == 0)
        return 0; /* no sender */
    const char *in = sc->n_named ? "group " : "", *name = sc->n_named ? g->name : "",
               *sep = sc->n_named ? ": " : "";
    if (t->local_p > 0 && g->count < 2) {
        snprintf(err, errlen,
                 "%s%s%sdest: local:%g sends that share of the frames to another station of "
                 "the group, and it has one station",
                 in, name, sep, t->local_p);
        return -1;
    }
    if (t->local_p < 1 && g->count >= sc->n_stations) {
        snprintf(err, errlen,
                 "%s%s%sdest: local:%g sends %g of the frames outside the %s, and there is no "
                 "station outside it%s",
                 in, name, sep, t->local_p, 1 - t->local_p, sc->n_named ? "group" : "stations",
                 sc->n_named ? "" : " (local is a share of the own group: [group NAME])");
        return -1;
    }
    return 0;
}

/* dest = group:NAME names the servers by their group. */
static int resolve_dest(const scenario *sc, station_group *g, char *err, size_t errlen)
{
    if (g->traffic.dest == DEST_LOCAL && g->dest_group[0] == '\0')
        return resolve_local(sc, g, err, errlen);
    if (g->dest_group[0] == '\0')
        return 0;
    const station_group *to = scenario_group_find(sc, g->dest_group);
    if (to == NULL || to->count == 0) {
        snprintf(err, errlen, "%s%s%sdest: group %s %s", sc->n_named ? "group " : "",
                 sc->n_named ? g->name : "", sc->n_named ? ": " : "", g->dest_group,
                 to == NULL ? "does not exist" : "has no station");
        return -1;
    }
    g->traffic.dest = DEST_SERVER;
    g->traffic.server = to->first;
    g->traffic.server_count = to->count;
    return 0;
}

void scenario_sync_implicit(scenario *sc)
{
    if (sc->n_named)
        return;
    station_group *g = &sc->all;
    /* Its segment, as scenario_finish resolved it: a finished scenario
     * synced again (the engine does) keeps its stations where they are. */
    uint32_t segment = g->segment, seg_rank = g->seg_rank;
    memset(g, 0, sizeof *g);
    g->segment = segment;
    g->seg_rank = seg_rank;
    snprintf(g->name, sizeof g->name, "all");
    g->count = sc->n_stations;
    take_defaults(g, sc);
}

int scenario_groups_resolve(scenario *sc, char *err, size_t errlen)
{
    if (sc->n_named == 0) {
        scenario_sync_implicit(sc);
        return resolve_dest(sc, &sc->all, err, errlen);
    }
    if (sc->stations_given) {
        snprintf(err, errlen,
                 "stations: the groups give the number of stations (each group's `stations`)");
        return -1;
    }
    if (sc->positions_m != NULL) {
        snprintf(err, errlen, "positions: with groups, give each group its own positions");
        return -1;
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < sc->n_named; i++) {
        station_group *g = &sc->groups[i];
        if (resolve_one(sc, g, err, errlen) != 0 || check_effect(g, err, errlen) != 0)
            return -1;
        g->first = (uint32_t)total;
        total += g->count;
        if (total > SCENARIO_MAX_STATIONS) {
            snprintf(err, errlen, "group %s: its %u stations make %llu in all (at most %u)",
                     g->name, g->count, (unsigned long long)total, SCENARIO_MAX_STATIONS);
            return -1;
        }
    }
    if (total == 0) {
        snprintf(err, errlen, "stations: every group has 0 stations");
        return -1;
    }
    sc->n_stations = (uint32_t)total;
    share_load(sc);
    for (uint32_t i = 0; i < sc->n_named; i++)
        if (resolve_dest(sc, &sc->groups[i], err, errlen) != 0)
            return -1;
    return 0;
}

/* The last group whose first station is at or before `station` (groups of
 * 0 stations share their first with the next: the later one is the
 * station's). Binary search: the trace sinks ask it for every record. */
uint32_t scenario_group_of(const scenario *sc, uint32_t station)
{
    uint32_t lo = 0, hi = sc->n_named; /* the answer is in [lo, hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (station >= sc->groups[mid].first)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double scenario_station_metres(const scenario *sc, uint32_t i)
{
    const phy_params *phy = &sc->phy;
    const station_group *g = scenario_group_at(sc, scenario_group_of(sc, i));
    uint32_t n = sc->n_stations;
    if (g->positions_m != NULL)
        return g->positions_m[i - g->first];
    if (g->place == PLACE_DROP)
        return g->place_from_m;
    if (g->place == PLACE_SPAN) {
        uint32_t k = i - g->first;
        return g->count > 1 ? g->place_from_m + (g->place_to_m - g->place_from_m) * k /
                                                    (g->count - 1)
                            : g->place_from_m;
    }
    if (sc->positions_m)
        return sc->positions_m[i];
    if (sc->net.switched)
        return 0; /* alone at its link's near end; the switch's port at the far end */
    if (sc->net.n_segments > 0 && g->segment < sc->net.n_segments) {
        /* On its segment, spread as a bus of that segment's stations. */
        const net_segment *s = &sc->net.segments[g->segment];
        uint32_t m = s->n_stations, k = g->seg_rank + (i - g->first);
        if (s->type == NET_SEG_HUB)
            return s->length_m;
        return m > 1 ? s->length_m * k / (m - 1) : 0;
    }
    if (phy->topology == TOPOLOGY_STAR)
        return phy->length_m;
    return n > 1 ? phy->length_m * i / (n - 1) : 0;
}
