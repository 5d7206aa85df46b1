/* presets.c - reading the embedded preset files (presets.h).
 *
 * A small reader of its own rather than libinih: the text is in memory,
 * the sections are few, and each key keeps its line number for the
 * messages of the command that applies it.
 */
#include "presets.h"

#include "network.h"
#include "phy.h"
#include "scenario.h"
#include "sweep.h"
#include "traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sim_time preset_frames_duration(const scenario *sc, uint64_t frames)
{
    const phy_params *phy = &sc->phy;
    traffic_kind k = sc->traffic.kind;
    if (frames == 0 || (k != TRAFFIC_SATURATED && k != TRAFFIC_POISSON && k != TRAFFIC_ONOFF))
        return 0;
    double mean_bits = 8.0 * frame_size_mean(&sc->traffic.size, phy->min_frame_bytes);
    double cycle_bits = phy->preamble_bits + phy_mean_wire_bits(phy, mean_bits) + phy->ifg_bits;
    double bits = cycle_bits;
    if (k != TRAFFIC_SATURATED && sc->traffic.load > 0 && mean_bits / sc->traffic.load > bits)
        bits = mean_bits / sc->traffic.load;
    double ps = (double)frames * bits * (double)phy_bit_ps(phy);
    double ms = ceil(ps / (double)SIM_PS_PER_MS);
    return sc->warmup + (sim_time)ms * SIM_PS_PER_MS;
}

size_t preset_count(void)
{
    const preset_source *s;
    return presets_embedded(&s);
}

const char *preset_name_at(size_t i)
{
    const preset_source *s;
    size_t n = presets_embedded(&s);
    return i < n ? s[i].name : NULL;
}

/* Copies [b, e) without surrounding blanks into out (at most cap - 1). */
static void trimmed(const char *b, const char *e, char *out, size_t cap)
{
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    size_t n = (size_t)(e - b);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, b, n);
    out[n] = '\0';
}

static int parse(preset *p, char *err, size_t errlen)
{
    enum { NONE, PRESET, SWEEP, SCENARIO } section = NONE;
    char group[SCENARIO_GROUP_NAME_MAX + 1] = ""; /* in [group NAME], [segment NAME], ... */
    int line = 0;
    for (const char *s = p->text; *s != '\0';) {
        const char *eol = strchr(s, '\n');
        if (eol == NULL)
            eol = s + strlen(s);
        line++;
        char text[PRESET_TEXT_MAX + 80];
        trimmed(s, eol, text, sizeof text);
        s = *eol ? eol + 1 : eol;
        if (text[0] == '\0' || text[0] == '#' || text[0] == ';')
            continue;
        if (text[0] == '[') {
            group[0] = '\0';
            size_t len = strlen(text);
            if (strncmp(text, "[group ", 7) == 0 && text[len - 1] == ']') {
                preset_kv kv = {.line = line, .group = true};
                trimmed(text + 7, text + len - 1, kv.value, sizeof kv.value);
                if (kv.value[0] == '\0' || strlen(kv.value) > SCENARIO_GROUP_NAME_MAX) {
                    snprintf(err, errlen, "preset %s:%d: a group needs a name of 1 to %d "
                                          "characters",
                             p->name, line, SCENARIO_GROUP_NAME_MAX);
                    return -1;
                }
                if (p->n_scenario == PRESET_MAX_KEYS) {
                    snprintf(err, errlen, "preset %s:%d: too many keys", p->name, line);
                    return -1;
                }
                snprintf(group, sizeof group, "%s", kv.value);
                p->scenario[p->n_scenario++] = kv;
                section = SCENARIO;
                continue;
            }
            bool seg = strncmp(text, "[segment ", 9) == 0, rep = strncmp(text, "[repeater ", 10) == 0,
                 bri = strncmp(text, "[bridge ", 8) == 0;
            if ((seg || rep || bri) && text[len - 1] == ']') {
                preset_kv kv = {.line = line, .net = seg ? 's' : rep ? 'r' : 'b'};
                trimmed(text + (seg ? 9 : rep ? 10 : 8), text + len - 1, kv.value,
                        sizeof kv.value);
                if (kv.value[0] == '\0' || strlen(kv.value) > SCENARIO_GROUP_NAME_MAX) {
                    snprintf(err, errlen, "preset %s:%d: a %s needs a name of 1 to %d "
                                          "characters",
                             p->name, line, seg ? "segment" : rep ? "repeater" : "bridge",
                             SCENARIO_GROUP_NAME_MAX);
                    return -1;
                }
                if (p->n_scenario == PRESET_MAX_KEYS) {
                    snprintf(err, errlen, "preset %s:%d: too many keys", p->name, line);
                    return -1;
                }
                snprintf(group, sizeof group, "%s", kv.value);
                p->scenario[p->n_scenario++] = kv;
                section = SCENARIO;
                continue;
            }
            if (strcmp(text, "[preset]") == 0)
                section = PRESET;
            else if (strcmp(text, "[sweep]") == 0)
                section = SWEEP;
            else if (strcmp(text, "[scenario]") == 0)
                section = SCENARIO;
            else {
                snprintf(err, errlen, "preset %s:%d: unknown section %.64s", p->name, line, text);
                return -1;
            }
            continue;
        }
        char *eq = strchr(text, '=');
        if (eq == NULL || section == NONE) {
            snprintf(err, errlen, "preset %s:%d: not a 'key = value' line in a section", p->name,
                     line);
            return -1;
        }
        preset_kv kv = {.line = line};
        if (group[0] != '\0') { /* a group's key: "NAME.key" */
            char bare[64];
            trimmed(text, eq, bare, sizeof bare);
            snprintf(kv.key, sizeof kv.key, "%s.%.30s", group, bare);
        } else {
            trimmed(text, eq, kv.key, sizeof kv.key);
        }
        trimmed(eq + 1, eq + strlen(eq), kv.value, sizeof kv.value);
        if (section == PRESET) {
            char *dst = strcmp(kv.key, "summary") == 0 ? p->summary
                        : strcmp(kv.key, "title") == 0 ? p->title
                        : strcmp(kv.key, "y") == 0     ? p->y
                        : strcmp(kv.key, "x") == 0     ? p->x
                        : strcmp(kv.key, "xlabel") == 0 ? p->xlabel
                        : strcmp(kv.key, "xtics") == 0 ? p->xtics
                        : strcmp(kv.key, "marks") == 0 ? p->marks
                        : strcmp(kv.key, "series") == 0 ? p->series
                                                       : NULL;
            if (dst == NULL) {
                snprintf(err, errlen, "preset %s:%d: unknown key '%.64s' in [preset]", p->name,
                         line, kv.key);
                return -1;
            }
            snprintf(dst, PRESET_TEXT_MAX, "%s", kv.value);
        } else {
            preset_kv *arr = section == SWEEP ? p->sweep : p->scenario;
            size_t *n = section == SWEEP ? &p->n_sweep : &p->n_scenario;
            if (*n == PRESET_MAX_KEYS) {
                snprintf(err, errlen, "preset %s:%d: too many keys", p->name, line);
                return -1;
            }
            arr[(*n)++] = kv;
        }
    }
    return 0;
}

int preset_parse_text(const char *name, const char *text, preset *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->name = name;
    out->text = text;
    return parse(out, err, errlen);
}

bool preset_text_is_preset(const char *text)
{
    for (const char *s = text; *s != '\0';) {
        const char *eol = strchr(s, '\n');
        if (eol == NULL)
            eol = s + strlen(s);
        char line[PRESET_TEXT_MAX + 80];
        trimmed(s, eol, line, sizeof line);
        if (strcmp(line, "[preset]") == 0)
            return true;
        s = *eol ? eol + 1 : eol;
    }
    return false;
}

int preset_load(const char *name, preset *out, char *err, size_t errlen)
{
    const preset_source *src;
    size_t n = presets_embedded(&src);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++)
        if (strcmp(src[i].name, name) == 0) {
            out->name = src[i].name;
            out->text = src[i].text;
            return parse(out, err, errlen);
        }
    int k = snprintf(err, errlen, "unknown preset '%.64s' (", name);
    for (size_t i = 0; i < n && k > 0 && (size_t)k < errlen; i++)
        k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? ", " : "", src[i].name);
    if (k > 0 && (size_t)k < errlen)
        snprintf(err + k, errlen - (size_t)k, "; csmacd presets lists them)");
    return -1;
}

/* The preset's [scenario], [group], [segment] and [repeater] keys (but
 * phy when skip_phy): the network's sections declared first, as a
 * scenario file's are, then every key in order. Returns 0, or -1 with
 * "preset NAME:LINE: reason". */
int preset_apply_scenario(const preset *pr, scenario *sc, bool skip_phy, char *err,
                          size_t errlen)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < pr->n_scenario; i++) {
            const preset_kv *kv = &pr->scenario[i];
            if ((pass == 0) != (kv->net != 0) || (skip_phy && strcmp(kv->key, "phy") == 0))
                continue;
            char reason[512];
            int rc = kv->net ? network_declare(&sc->net, kv->net, kv->value, kv->line, reason,
                                               sizeof reason)
                     : kv->group ? scenario_group_add(sc, kv->value, reason, sizeof reason)
                                 : scenario_set(sc, kv->key, kv->value, reason, sizeof reason);
            if (rc != 0) {
                snprintf(err, errlen, "preset %s:%d: %s", pr->name, kv->line, reason);
                return -1;
            }
        }
    return 0;
}

/* ", KEY = VALUE" after what point holds (cut short when it is full). */
static void say_value(char *point, size_t len, const char *key, const char *value)
{
    size_t at = strlen(point);
    if (at + 1 < len)
        snprintf(point + at, len - at, "%s%s = %s", at ? ", " : "", key, value);
}

int preset_first_point(const preset *pr, const char *stations, scenario *sc, char *point,
                       size_t pointlen, char *err, size_t errlen)
{
    sweep_grid g = {0};
    uint64_t frames = 0;
    char reason[1024];
    int rc = -1;
    point[0] = '\0';
    for (size_t i = 0; i < pr->n_sweep; i++) {
        const preset_kv *kv = &pr->sweep[i];
        if (strcmp(kv->key, "reps") == 0 || strcmp(kv->key, "precision") == 0 ||
            strcmp(kv->key, "max-reps") == 0)
            continue; /* how often a point runs, not what it is */
        if (strcmp(kv->key, "frames") == 0) {
            char *end;
            frames = strtoull(kv->value, &end, 10);
            if (*end == '\0' && frames > 0)
                continue;
            snprintf(err, errlen, "preset %s:%d: frames: '%s' is not a count", pr->name,
                     kv->line, kv->value);
            goto done;
        }
        if (sweep_grid_set_key(&g, kv->key, kv->value, reason, sizeof reason) != 0) {
            snprintf(err, errlen, "preset %s:%d: %s: %s", pr->name, kv->line, kv->key, reason);
            goto done;
        }
    }
    bool groups = false;
    for (size_t i = 0; i < pr->n_scenario; i++)
        groups |= pr->scenario[i].group;
    if (!groups)
        stations = NULL; /* the plain option, applied after the preset */
    if (stations != NULL &&
        sweep_grid_set(&g, SWEEP_AXIS_STATIONS, stations, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "--stations: %s", reason);
        goto done;
    }
    /* What the point is, in the order of the file's [sweep]. */
    for (size_t i = 0; i < pr->n_sweep; i++) {
        const char *key = pr->sweep[i].key;
        const char *bare = key[0] == '+' ? key + 1 : key;
        for (size_t c = 0; key[0] == '+' && c < g.n_with; c++)
            if (strcmp(g.with[c].key, bare) == 0)
                say_value(point, pointlen, bare, g.with[c].values[0]);
        int a = key[0] == '+' ? -1 : sweep_grid_find(&g, key);
        if (a >= 0 && g.n[a] > 0 && (a != SWEEP_AXIS_STATIONS || stations == NULL))
            say_value(point, pointlen, key, g.values[a][0]);
    }
    if (stations != NULL)
        say_value(point, pointlen, "stations", g.values[SWEEP_AXIS_STATIONS][0]);
    bool phy = g.n[SWEEP_AXIS_PHY] > 0;
    if (phy && scenario_set(sc, "phy", g.values[SWEEP_AXIS_PHY][0], err, errlen) != 0)
        goto done;
    if (preset_apply_scenario(pr, sc, phy, err, errlen) != 0)
        goto done;
    if (sweep_apply(&g, 0, sc, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "preset %s: %s", pr->name, reason);
        goto done;
    }
    sim_time sized = preset_frames_duration(sc, frames);
    if (sized > 0) {
        sc->duration = sized;
        char text[64];
        scenario_duration_text(sc, text, sizeof text);
        say_value(point, pointlen, "duration", text);
    }
    rc = 0;
done:
    sweep_grid_free(&g);
    return rc;
}
