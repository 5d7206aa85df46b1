/* scenario.c - defaults, scenario files, "NAME.key" and cross-checks
 * (scenario.h).
 *
 * The layers of a scenario, each calling only the ones below it: keys.c
 * holds the one key table and every setter; group.c keeps the groups'
 * keys and resolves them through that table; this file reads scenario
 * files, sends a plain key to keys.c and a "NAME.key" to its group, and
 * finishes (cross-checks) the whole. Checks that involve several keys
 * (warm-up against duration, positions against stations, frame sizes
 * against the PHY) wait for scenario_finish, so keys may come in any order.
 *
 * One exception to "any order": `phy` replaces every PHY field with the
 * named profile, overrides included (topology, length, rate, ...). So that
 * "phy = 10base2" and "length = 300" mean the same in either order,
 * scenario_load_file applies the file's `phy` before its other keys, and the
 * program does the same with the command line (file first, then options).
 *
 * Scenario files are read with libinih: "key = value" lines, comments
 * starting with ';' or '#' at the start of a line (and " ;" inline), an
 * optional [scenario] section. Our own line reader feeds inih so that a
 * line too long for inih's buffer (which it would silently split in two)
 * and an indented continuation line (which inih would hand over as a second
 * value) are refused with their line numbers instead.
 */
#include "scenario.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backoff.h"
#include "group_int.h"
#include "keys.h"
#include "network_int.h"
#include "parse.h"

/* A value shown in a message (parse_echo): Q(v) in a printf argument list. */
#define Q(v) parse_echo((v), (char[64]){0}, 64)

/* Longest duration or warm-up (parse.h). */
#define SCENARIO_MAX_TIME_PS PARSE_MAX_TIME_PS
/* Largest scenario file: real ones are a few hundred bytes. The cap keeps
 * a wrong path (a log, a device, an endless pipe) from being read, and
 * its keys kept, without end. */
#define SCENARIO_FILE_MAX_BYTES (1024 * 1024)
/* Most frames all queues together may hold (stations x queue): queues
 * grow on demand up to their capacity (stations/mac.c), so this bounds
 * their memory at about 400 MB (40-byte frames) whatever the load. */
#define SCENARIO_MAX_QUEUED_FRAMES 10000000ull

void scenario_defaults(scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->phy = *phy_profile_find("10base5");
    sc->n_stations = 8;
    sc->positions_m = NULL;
    sc->n_positions = 0;
    sc->probe_m = 0.0;
    sc->pcap_time_scale = 1.0;
    sc->pcap_max_stations = 0;
    sc->traffic.kind = TRAFFIC_SATURATED;
    sc->traffic.load = 0.5;
    sc->traffic.size.kind = FRAME_SIZE_FIXED;
    sc->traffic.size.min_bytes = 512;
    sc->traffic.size.max_bytes = 512;
    sc->traffic.dest = DEST_RANDOM;
    sc->traffic.server = 0;
    sc->traffic.batch_frames = 1;
    sc->traffic.on_mean_s = 0.01;
    sc->traffic.off_mean_s = 0.09;
    snprintf(sc->policy, sizeof sc->policy, "beb");
    sc->queue_capacity = 64;
    sc->duration = SIM_PS_PER_S;
    sc->warmup = 0;
    sc->seed = 1;
    sc->batches = 20;
}

void scenario_free(scenario *sc)
{
    scenario_groups_free(sc);
    free(sc->positions_m);
    sc->positions_m = NULL;
    sc->n_positions = 0;
    network_free(&sc->net);
}

int scenario_copy(scenario *dst, const scenario *src)
{
    double *pos = NULL;
    if (src->positions_m != NULL && src->n_positions > 0) {
        pos = malloc(sizeof *pos * src->n_positions);
        if (pos == NULL)
            return -1;
        memcpy(pos, src->positions_m, sizeof *pos * src->n_positions);
    }
    *dst = *src;
    dst->positions_m = pos;
    if (network_copy(&dst->net, &src->net) != 0 || scenario_groups_copy(dst, src) != 0) {
        free(pos);
        dst->positions_m = NULL;
        network_free(&dst->net);
        return -1;
    }
    return 0;
}

/* ---- keys: a plain key goes to the key table, NAME.key to its group ---- */

/* "NAME.key": a per-station key of group NAME (declared before), or a
 * key of segment, repeater or bridge NAME; the last value wins. */
static int set_dotted(scenario *sc, const char *key, const char *value, char *err,
                      size_t errlen)
{
    const char *dot = strchr(key, '.');
    char name[SCENARIO_GROUP_NAME_MAX + 1];
    size_t len = (size_t)(dot - key);
    if (len == 0 || len > SCENARIO_GROUP_NAME_MAX) {
        snprintf(err, errlen, "%s: unknown key", Q(key));
        return -1;
    }
    memcpy(name, key, len);
    name[len] = '\0';
    station_group *g = scenario_group_find(sc, name);
    /* A segment's or a repeater's key ("backbone.length", "r1.delay"),
     * as in its section of the scenario file. */
    uint32_t seg = g == NULL ? network_segment_find(&sc->net, name) : UINT32_MAX;
    uint32_t rep = g == NULL ? network_repeater_find(&sc->net, name) : UINT32_MAX;
    uint32_t bri = g == NULL ? network_bridge_find(&sc->net, name) : UINT32_MAX;
    if (g == NULL && seg == UINT32_MAX && rep == UINT32_MAX && bri == UINT32_MAX) {
        if (sc->net.n_segments)
            snprintf(err, errlen, "%s: there is no group, segment, repeater or bridge %s",
                     Q(key), Q(name));
        else
            snprintf(err, errlen,
                     "%s: there is no group %s (declare it with --group or [group %s])", Q(key),
                     Q(name), Q(name));
        return -1;
    }
    if (value == NULL || value[0] == '\0') {
        snprintf(err, errlen, "%s: needs a value", key);
        return -1;
    }
    /* The key after the dot, copied as the name is: the sections' tables
     * compare it with strcmp, and GCC's link-time optimisation, which
     * cannot see that a key without a dot never comes here, warned of
     * reading past its end (-Wstringop-overread). A key longer than any
     * is unknown. */
    char sub[64];
    if (snprintf(sub, sizeof sub, "%s", dot + 1) >= (int)sizeof sub) {
        snprintf(err, errlen, "%s: unknown key", Q(key));
        return -1;
    }
    if (g == NULL)
        return network_set(&sc->net, seg != UINT32_MAX ? 's' : rep != UINT32_MAX ? 'r' : 'b',
                           seg != UINT32_MAX ? seg : rep != UINT32_MAX ? rep : bri, sub,
                           value, 0, err, errlen);
    return scenario_group_set(sc, g, sub, value, 0, true, err, errlen);
}

/* Where the scenario's own topology, length or probe was set (network.h). */
static int *scenario_key_line(scenario *sc, const char *key)
{
    return strcmp(key, "topology") == 0 ? &sc->net.topology_line
           : strcmp(key, "length") == 0 ? &sc->net.length_line
           : strcmp(key, "probe") == 0  ? &sc->net.probe_line
                                        : NULL;
}

int scenario_set(scenario *sc, const char *key, const char *value, char *err, size_t errlen)
{
    int *line = scenario_key_line(sc, key);
    if (line != NULL)
        *line = 0; /* the command line's until the file's reader says */
    if (!scenario_key_known(key) && strchr(key, '.') != NULL)
        return set_dotted(sc, key, value, err, errlen);
    return scenario_key_set(sc, key, value, err, errlen);
}

/* ---- scenario files ---- */

typedef struct file_entry {
    char *key, *value;
    int line;
    int section; /* index in file_reader.sections, -1 outside any */
} file_entry;

/* A section header as read: [scenario], [group NAME], or a network's
 * [segment NAME] or [repeater NAME] (network.c reads their keys). */
typedef struct file_section {
    char *group;  /* the group's name, NULL for [scenario] */
    char *net;    /* the segment's or repeater's name, or NULL */
    char net_kind; /* 's' segment, 'r' repeater, 'b' bridge */
    int line;
} file_section;

typedef struct file_reader {
    FILE *f;
    const char *path;
    char *dir;          /* the file's directory, for relative pcap: paths */
    int line;           /* lines read so far */
    bool indented;      /* the line just read starts with a blank */
    int err_line;       /* first problem found (0: none) */
    char err[512];
    long bytes;         /* read so far (SCENARIO_FILE_MAX_BYTES) */
    file_entry *entries;
    size_t n, cap;
    file_section *sections;
    size_t n_sections;
    int section;        /* the section the lines now read belong to (-1: none) */
} file_reader;

static const char *net_kind_word(char kind)
{
    return kind == 's' ? "segment" : kind == 'r' ? "repeater" : "bridge";
}

/* Keeps the first problem: "path:line: msg". */
static void reader_fail(file_reader *r, int line, const char *msg)
{
    if (r->err_line != 0)
        return;
    r->err_line = line;
    snprintf(r->err, sizeof r->err, "%.300s:%d: %s", r->path, line, msg);
}

/* A section header: [scenario] (the keys outside any group) or
 * [group NAME]. Sections are read here, not from inih, so that a group
 * without keys is still declared and two of one name are found. */
static void reader_section(file_reader *r, const char *text)
{
    char name[160];
    size_t len = strcspn(text, "]");
    if (text[len] != ']' || len >= sizeof name)
        return; /* inih refuses the line */
    /* After the ']' only blanks or a comment: "[group a]]" would be read
     * as [group a] by inih. */
    const char *after = text + len + 1;
    after += strspn(after, " \t\r\n");
    if (*after != '\0' && *after != ';' && *after != '#') {
        char msg[200], rest[64];
        snprintf(rest, sizeof rest, "%.*s", (int)strcspn(after, "\r\n"), after);
        snprintf(msg, sizeof msg,
                 "'%s' after the section's ']' ([scenario], [group NAME], [segment NAME], "
                 "[repeater NAME] or [bridge NAME])",
                 Q(rest));
        reader_fail(r, r->line, msg);
        return;
    }
    memcpy(name, text, len);
    name[len] = '\0';
    char *group = NULL;
    char kind = strncmp(name, "segment ", 8) == 0    ? 's'
                : strncmp(name, "repeater ", 9) == 0 ? 'r'
                : strncmp(name, "bridge ", 7) == 0   ? 'b'
                                                     : 0;
    if (kind != 0) {
        const char *n = name + (kind == 's' ? 8 : kind == 'r' ? 9 : 7);
        n += strspn(n, " ");
        char bad[200];
        if (network_name_check(kind, n, bad, sizeof bad) != 0) {
            reader_fail(r, r->line, bad);
            return;
        }
        for (size_t i = 0; i < r->n_sections; i++)
            if (r->sections[i].net && r->sections[i].net_kind == kind &&
                strcmp(r->sections[i].net, n) == 0) {
                char msg[200];
                snprintf(msg, sizeof msg, "[%s %s] given twice (first at line %d)",
                         net_kind_word(kind), Q(n), r->sections[i].line);
                reader_fail(r, r->line, msg);
                return;
            }
        file_section *ss = realloc(r->sections, (r->n_sections + 1) * sizeof *ss);
        char *copy = strdup(n);
        if (ss != NULL)
            r->sections = ss;
        if (ss == NULL || copy == NULL) {
            free(copy);
            reader_fail(r, r->line, "out of memory");
            return;
        }
        ss[r->n_sections] = (file_section){NULL, copy, kind, r->line};
        r->section = (int)r->n_sections++;
        return;
    }
    if (strncmp(name, "group ", 6) == 0) {
        const char *g = name + 6 + strspn(name + 6, " ");
        for (size_t i = 0; i < r->n_sections; i++)
            if (r->sections[i].group && strcmp(r->sections[i].group, g) == 0) {
                char msg[160];
                snprintf(msg, sizeof msg, "[group %s] given twice (first at line %d)", Q(g),
                         r->sections[i].line);
                reader_fail(r, r->line, msg);
                return;
            }
        group = strdup(g);
    } else if (strcmp(name, "scenario") != 0) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "unknown section [%s] ([scenario], [group NAME], [segment NAME], "
                 "[repeater NAME] or [bridge NAME]; keys need no section)",
                 Q(name));
        reader_fail(r, r->line, msg);
        return;
    }
    file_section *ss = realloc(r->sections, (r->n_sections + 1) * sizeof *ss);
    if (ss == NULL || (group == NULL && strncmp(name, "group ", 6) == 0)) {
        free(group);
        if (ss != NULL)
            r->sections = ss;
        reader_fail(r, r->line, "out of memory");
        return;
    }
    r->sections = ss;
    ss[r->n_sections] = (file_section){group, NULL, 0, r->line};
    r->section = (int)r->n_sections++;
}

/* An fgets for inih that counts lines and refuses what inih would misread. */
static char *reader_gets(char *str, int num, void *stream)
{
    file_reader *r = stream;
    if (r->err_line != 0)
        return NULL;
    int c = 0, len = 0;
    while (len < num - 1 && (c = getc(r->f)) != EOF) {
        if (c == '\0') {
            reader_fail(r, r->line + 1, "the file contains a NUL byte");
            return NULL;
        }
        str[len++] = (char)c;
        if (c == '\n')
            break;
    }
    if (len == 0)
        return NULL;
    str[len] = '\0';
    r->line++;
    r->bytes += len;
    if (r->bytes > SCENARIO_FILE_MAX_BYTES) {
        char msg[80];
        snprintf(msg, sizeof msg, "the file is larger than %d bytes", SCENARIO_FILE_MAX_BYTES);
        reader_fail(r, r->line, msg);
        return NULL;
    }
    if (str[len - 1] != '\n' && c != EOF) {
        int next = getc(r->f);
        if (next != EOF) {
            char msg[80];
            snprintf(msg, sizeof msg, "the line is longer than %d characters", num - 3);
            reader_fail(r, r->line, msg);
            return NULL;
        }
    }
    r->indented = str[0] == ' ' || str[0] == '\t';
    if (str[strspn(str, " \t")] == '[')
        reader_section(r, str + strspn(str, " \t") + 1);
    return str;
}

/* The group a section declares, or NULL. */
static const char *entry_group(const file_reader *r, const file_entry *e)
{
    return e->section >= 0 ? r->sections[e->section].group : NULL;
}

/* Whether a section is a network's ([segment] or [repeater]). */
static bool section_is_net(const file_reader *r, int section)
{
    return section >= 0 && r->sections[section].net != NULL;
}

/* Whether two entries' sections are one for "given twice": every
 * [scenario] section is one, each other section is its own. */
static bool same_section(const file_reader *r, int a, int b)
{
    if (section_is_net(r, a) || section_is_net(r, b))
        return a == b;
    const char *ga = a >= 0 ? r->sections[a].group : NULL;
    const char *gb = b >= 0 ? r->sections[b].group : NULL;
    return ga == gb;
}

static int reader_handler(void *user, const char *section, const char *name,
                          const char *value)
{
    file_reader *r = user;
    if (r->err_line != 0)
        return 0;
    (void)section; /* read by reader_section, with its line */
    if (r->indented) {
        reader_fail(r, r->line, "indented line: a value must be on one line with its key");
        return 0;
    }
    if (!section_is_net(r, r->section) && !scenario_key_known(name)) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown key '%s'", Q(name));
        reader_fail(r, r->line, msg);
        return 0;
    }
    /* A key given twice in one section would silently keep the last (two
     * [scenario] sections are one). */
    for (size_t i = 0; i < r->n; i++)
        if (same_section(r, r->entries[i].section, r->section) &&
            strcmp(r->entries[i].key, name) == 0) {
            char msg[180], where[80] = "";
            if (section_is_net(r, r->section))
                snprintf(where, sizeof where, "[%s %s] ",
                         net_kind_word(r->sections[r->section].net_kind),
                         Q(r->sections[r->section].net));
            snprintf(msg, sizeof msg, "%s%s is given twice (first at line %d)", where, Q(name),
                     r->entries[i].line);
            reader_fail(r, r->line, msg);
            return 0;
        }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        file_entry *e = realloc(r->entries, cap * sizeof *e);
        if (e == NULL) {
            reader_fail(r, r->line, "out of memory");
            return 0;
        }
        r->entries = e;
        r->cap = cap;
    }
    file_entry *e = &r->entries[r->n];
    e->key = strdup(name);
    /* A relative capture path is read relative to the scenario file. */
    if (strcmp(name, "traffic") == 0 && strncmp(value, "pcap:", 5) == 0 && value[5] != '/' &&
        value[5] != '\0' && r->dir != NULL) {
        size_t len = strlen(r->dir) + strlen(value) + 2;
        e->value = malloc(len);
        if (e->value != NULL)
            snprintf(e->value, len, "pcap:%s/%s", r->dir, value + 5);
    } else {
        e->value = strdup(value);
    }
    e->line = r->line;
    e->section = r->section;
    if (e->key == NULL || e->value == NULL) {
        free(e->key);
        free(e->value);
        reader_fail(r, r->line, "out of memory");
        return 0;
    }
    r->n++;
    return 1;
}

/* The network's sections: every one declared first (a key may name a
 * segment further down), then the segments' keys, then the repeaters'. */
static int apply_network(scenario *sc, const file_reader *r, char *err, size_t errlen)
{
    char reason[512];
    uint32_t index[3] = {sc->net.n_segments, sc->net.n_repeaters, sc->net.n_bridges};
    int *first = calloc(r->n_sections + 1, sizeof *first);
    if (first == NULL) {
        snprintf(err, errlen, "%s: out of memory", r->path);
        return -1;
    }
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < r->n_sections; k++) {
        const file_section *sec = &r->sections[k];
        if (sec->net == NULL)
            continue;
        first[k] = (int)index[sec->net_kind == 's' ? 0 : sec->net_kind == 'r' ? 1 : 2]++;
        if (network_declare(&sc->net, sec->net_kind, sec->net, sec->line, reason,
                            sizeof reason) != 0) {
            snprintf(err, errlen, "%s:%d: %s", r->path, sec->line, reason);
            rc = -1;
        }
    }
    if (rc == 0 && (index[0] > 0 || index[1] > 0 || index[2] > 0))
        snprintf(sc->net.file, sizeof sc->net.file, "%s", r->path);
    for (int pass = 0; rc == 0 && pass < 3; pass++)
        for (size_t i = 0; rc == 0 && i < r->n; i++) {
            const file_entry *e = &r->entries[i];
            if (!section_is_net(r, e->section) ||
                r->sections[e->section].net_kind != "srb"[pass])
                continue;
            const file_section *sec = &r->sections[e->section];
            if (network_set(&sc->net, sec->net_kind, (uint32_t)first[e->section], e->key,
                            e->value, e->line, reason, sizeof reason) != 0) {
                snprintf(err, errlen, "%s:%d: %s", r->path, e->line, reason);
                rc = -1;
            }
        }
    free(first);
    return rc;
}

/* Applies what the file holds: its `phy` first (it resets every PHY field,
 * see the file comment), then the other keys outside the groups, then the
 * groups in file order, each with its keys. */
static int apply_file(scenario *sc, const file_reader *r, char *err, size_t errlen)
{
    char reason[512];
    /* the file that scenario_finish's refusals name with a line */
    snprintf(sc->net.file, sizeof sc->net.file, "%s", r->path);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->n; i++) {
            const file_entry *e = &r->entries[i];
            bool is_phy = strcmp(e->key, "phy") == 0;
            if (entry_group(r, e) != NULL || section_is_net(r, e->section) ||
                is_phy != (pass == 0))
                continue;
            if (scenario_set(sc, e->key, e->value, reason, sizeof reason) != 0) {
                snprintf(err, errlen, "%s:%d: %s", r->path, e->line, reason);
                return -1;
            }
            int *line = scenario_key_line(sc, e->key);
            if (line != NULL)
                *line = e->line;
        }
    if (apply_network(sc, r, err, errlen) != 0)
        return -1;
    for (size_t k = 0; k < r->n_sections; k++) {
        const file_section *sec = &r->sections[k];
        if (sec->group == NULL)
            continue;
        if (scenario_group_add(sc, sec->group, reason, sizeof reason) != 0) {
            snprintf(err, errlen, "%s:%d: %s", r->path, sec->line, reason);
            return -1;
        }
        station_group *g = scenario_group_find(sc, sec->group);
        for (size_t i = 0; i < r->n; i++) {
            const file_entry *e = &r->entries[i];
            if (e->section == (int)k &&
                scenario_group_set(sc, g, e->key, e->value, e->line, false, reason,
                                   sizeof reason) != 0) {
                snprintf(err, errlen, "%s:%d: %s", r->path, e->line, reason);
                return -1;
            }
        }
    }
    return 0;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return NULL;
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(len + 1);
    if (d != NULL) {
        memcpy(d, path, len);
        d[len] = '\0';
    }
    return d;
}

int scenario_load_file(scenario *sc, const char *path, char *err, size_t errlen)
{
    file_reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.section = -1;
    r.f = fopen(path, "r");
    if (r.f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* fopen succeeds on a directory; reading it would look like an empty
     * file. Pipes (--scenario <(...)) and devices are read as they come. */
    struct stat st;
    if (fstat(fileno(r.f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", path);
        fclose(r.f);
        return -1;
    }
    r.dir = dir_of(path);
    int rc = ini_parse_stream(reader_gets, &r, reader_handler, &r);
    int read_errno = ferror(r.f) ? errno : 0;
    fclose(r.f);
    int status = -1;
    if (read_errno != 0)
        snprintf(err, errlen, "%s: %s", path, strerror(read_errno));
    else if (r.err_line != 0)
        snprintf(err, errlen, "%s", r.err);
    else if (rc > 0)
        snprintf(err, errlen, "%s:%d: not a 'key = value' line", path, rc);
    else if (rc < 0)
        snprintf(err, errlen, "%s: cannot be read (out of memory)", path);
    else
        status = 0;
    if (status == 0)
        status = apply_file(sc, &r, err, errlen);
    for (size_t i = 0; i < r.n; i++) {
        free(r.entries[i].key);
        free(r.entries[i].value);
    }
    for (size_t i = 0; i < r.n_sections; i++) {
        free(r.sections[i].group);
        free(r.sections[i].net);
    }
    free(r.sections);
    free(r.entries);
    free(r.dir);
    return status;
}

/* ---- cross-checks ---- */

/* The engine adds derived times to the clock: the propagation delay, the
 * slotTime, a frame's time on the wire, the longest backoff wait. Each is
 * checked once, here, in floating point (where nothing wraps), against an
 * eighth of what the clock has left after the duration, so that a few of
 * them added at the end of the run still fit 64 bits. Without this a
 * picosecond count could wrap: a negative event time (an assertion) or,
 * on the star, a delay that silently wraps to about 0. */
static int derived_too_long(const char *key, const char *what, double ps, double budget,
                            char *err, size_t errlen)
{
    if (ps >= 0 && ps <= budget)
        return 0;
    char t[32];
    if (budget >= 3600e12)
        snprintf(t, sizeof t, "%.0fh", floor(budget / 3600e12));
    else
        snprintf(t, sizeof t, "%.3gs", budget / 1e12);
    if (ps >= 0 && ps < 1e30)
        snprintf(err, errlen, "%s: %s of %.3gs is longer than the clock allows with this "
                              "duration (at most %s)",
                 key, what, ps / 1e12, t);
    else
        snprintf(err, errlen, "%s: %s is longer than the clock allows with this duration "
                              "(at most %s)",
                 key, what, t);
    return -1;
}

/* Signals slower than a slotTime across the cable (far outside 802.3)
 * pile up: a station hears nobody for the propagation delay, so each
 * sends back to back and every frame stays in flight until it has crossed
 * the cable. Each event looks at every signal in flight, so the work grows
 * with their square: refused beyond SCENARIO_MAX_IN_FLIGHT (about ten
 * seconds of work; 37600 took 43 s). */
#define SCENARIO_MAX_IN_FLIGHT 20000.0

static int check_in_flight(const scenario *sc, const phy_timing *t, double prop_ps,
                           const char *key, char *err, size_t errlen)
{
    if (prop_ps <= (double)t->slot_ps)
        return 0;
    double deaf_ps = fmin((double)sc->duration, prop_ps), in_flight = 0;
    for (uint32_t g = 0; g < scenario_group_count(sc); g++) {
        const station_group *grp = scenario_group_at(sc, g);
        double frame_bits = 8.0 * frame_size_mean(&grp->traffic.size, sc->phy.min_frame_bytes);
        double cycle_ps =
            (double)t->preamble_ps + frame_bits * (double)t->bit_ps + (double)t->ifg_ps;
        in_flight += (double)grp->count * deaf_ps / cycle_ps;
    }
    if (in_flight <= SCENARIO_MAX_IN_FLIGHT)
        return 0;
    char d[32];
    scenario_duration_text(sc, d, sizeof d);
    snprintf(err, errlen,
             "%s: signals take %.3gs to cross the cable: over %s about %.0f frames of %u "
             "stations would be in flight at once, each event looking at all of them (at most "
             "%.0f; shorten the duration, or use fewer stations or a faster velocity)",
             key, prop_ps / 1e12, d, in_flight, sc->n_stations, SCENARIO_MAX_IN_FLIGHT);
    return -1;
}

static int check_derived_times(const scenario *sc, double longest_m, char *err, size_t errlen)
{
    const phy_params *phy = &sc->phy;
    double budget = (double)(INT64_MAX - sc->duration) / 8;
    const phy_timing t = phy_timing_of(phy);
    double bit_ps = (double)t.bit_ps;
    /* Bus: end to end; star: two drop cables and the repeater. */
    double metres = phy->topology == TOPOLOGY_STAR ? 2 * longest_m : longest_m;
    double prop_ps = metres / (phy->velocity_c * PHY_SPEED_OF_LIGHT_M_S) * 1e12 +
                     (double)t.hub_ps;
    if (sc->net.n_segments > 0) /* the network's longest one-way delay */
        prop_ps = network_round_trip_ps(sc) / 2;
    const char *prop_key = phy->velocity_c < 0.01 ? "velocity" : "length";
    /* In a network: the slowest segment's key, in its section. */
    char seg_key[NET_NAME_MAX + 360];
    const net_segment *slowest = NULL;
    for (uint32_t i = 0; i < sc->net.n_segments; i++) {
        const net_segment *s = &sc->net.segments[i];
        if (slowest == NULL ||
            s->length_m / s->velocity_c > slowest->length_m / slowest->velocity_c)
            slowest = s;
    }
    if (slowest != NULL) {
        const char *what = slowest->velocity_c < 0.01 ? "velocity" : "length";
        if (slowest->line > 0 && sc->net.file[0] != '\0')
            snprintf(seg_key, sizeof seg_key, "%.300s:%d: [segment %s] %s", sc->net.file,
                     slowest->line, slowest->name, what);
        else
            snprintf(seg_key, sizeof seg_key, "[segment %s] %s", slowest->name, what);
        prop_key = seg_key;
    }
    if (derived_too_long(prop_key, "the propagation delay", prop_ps, budget, err, errlen) != 0 ||
        check_in_flight(sc, &t, prop_ps, prop_key, err, errlen) != 0)
        return -1;
    double slot_ps = (double)t.slot_ps;
    if (derived_too_long("slot-bits", "the slotTime", slot_ps, budget, err, errlen) != 0)
        return -1;
    /* Preamble, SFD and the largest frame, with room for a jam. */
    double frame_bits = 64.0 + 8.0 * phy->max_frame_bytes + phy->jam_bits;
    double frame_ps = frame_bits * bit_ps;
    if (derived_too_long(phy->rate_bps < 1e6 ? "rate" : "max-frame", "a frame's time on the wire",
                         frame_ps, budget, err, errlen) != 0)
        return -1;
    /* The longest wait the policy declares, at every collision count up to
     * its attempt limit (the bounds stop growing well before 64). A wrapped
     * parameter shows as a negative or inverted bound. */
    backoff_state st = {.frame_ps = (sim_time)frame_ps, .attempt_ps = (sim_time)frame_ps};
    backoff_env env = {
        .slot_ps = t.slot_ps,
        .attempt_limit = phy->attempt_limit,
        .backoff_limit = phy->backoff_limit,
        .n_stations = sc->n_stations,
    };
    for (uint32_t g = 0; g < scenario_group_count(sc); g++) {
        const backoff_spec *spec = &scenario_group_at(sc, g)->policy_spec;
        uint32_t limit = backoff_spec_attempt_limit(spec, &env);
        if (limit == 0 || limit > 64)
            limit = 64;
        for (uint32_t n = 1; n <= limit; n++) {
            sim_time lo = 0, hi = 0;
            backoff_spec_bounds(spec, &env, &st, n, &lo, &hi);
            if (lo < 0 || hi < lo || (double)hi > budget)
                return derived_too_long("policy", "the longest backoff wait",
                                        lo < 0 || hi < lo ? -1.0 : (double)hi, budget, err,
                                        errlen);
        }
    }
    /* A reply is queued `think` after its request. */
    for (uint32_t g = 0; g < scenario_group_count(sc); g++)
        if (derived_too_long("think", "the think time", (double)scenario_group_at(sc, g)->reply.think,
                             budget, err, errlen) != 0)
            return -1;
    return 0;
}

int scenario_check_series(const scenario *sc, sim_time interval_ps, uint64_t max_rows,
                          char *err, size_t errlen)
{
    char t[32], d[32];
    parse_format_time(interval_ps, t, sizeof t);
    if (interval_ps < SIM_PS_PER_NS) {
        snprintf(err, errlen, "series-interval: %s is below 1ns (the time columns' resolution)",
                 t);
        return -1;
    }
    uint64_t rows = (uint64_t)(sc->duration / interval_ps) + (sc->duration % interval_ps != 0);
    if (rows > max_rows) {
        if (sc->endless)
            snprintf(d, sizeof d, "%.0fh", (double)sc->duration / 3600e12);
        else
            parse_format_time(sc->duration, d, sizeof d);
        if (sc->endless)
            snprintf(err, errlen,
                     "series-interval: %s over --duration inf (up to %s) makes up to %llu "
                     "rows (at most %llu; --series-max-rows lifts it)",
                     t, d, (unsigned long long)rows, (unsigned long long)max_rows);
        else
            snprintf(err, errlen,
                     "series-interval: %s over %s makes %llu rows (at most %llu; "
                     "--series-max-rows lifts it)",
                     t, d, (unsigned long long)rows, (unsigned long long)max_rows);
        return -1;
    }
    return 0;
}

/* A group's problem: "group NAME: reason" when the scenario names groups,
 * the reason alone otherwise (a scenario without groups reads as before). */
static int group_fail(const scenario *sc, const station_group *g, const char *reason, char *err,
                      size_t errlen)
{
    if (sc->n_named)
        snprintf(err, errlen, "group %s: %s", g->name, reason);
    else
        snprintf(err, errlen, "%s", reason);
    return -1;
}

/* Queues and batches: every frame all queues may hold, together. */
static int check_queues(const scenario *sc, char *err, size_t errlen)
{
    uint64_t queued = 0, batched = 0;
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        const station_group *g = scenario_group_at(sc, i);
        queued += (uint64_t)g->count * g->queue_capacity;
        if (g->traffic.kind == TRAFFIC_BATCH)
            batched += (uint64_t)g->count * g->traffic.batch_frames;
    }
    const station_group *g0 = scenario_group_at(sc, 0);
    if (queued > SCENARIO_MAX_QUEUED_FRAMES) {
        if (sc->n_named)
            snprintf(err, errlen, "queue: the groups' queues could hold %llu frames (at most %llu "
                                  "in all)",
                     (unsigned long long)queued, SCENARIO_MAX_QUEUED_FRAMES);
        else
            snprintf(err, errlen,
                     "queue: %u stations of %u frames could hold %llu frames (at most %llu in all)",
                     sc->n_stations, g0->queue_capacity, (unsigned long long)queued,
                     SCENARIO_MAX_QUEUED_FRAMES);
        return -1;
    }
    /* A batch is queued at t = 0, inside one event: its frames are capped
     * as the queues are. */
    if (batched > SCENARIO_MAX_QUEUED_FRAMES) {
        if (sc->n_named)
            snprintf(err, errlen, "batch: the groups' batches make %llu frames (at most %llu in "
                                  "all)",
                     (unsigned long long)batched, SCENARIO_MAX_QUEUED_FRAMES);
        else
            snprintf(err, errlen,
                     "batch: %u stations of %u frames make %llu frames (at most %llu in all)",
                     sc->n_stations, g0->traffic.batch_frames, (unsigned long long)batched,
                     SCENARIO_MAX_QUEUED_FRAMES);
        return -1;
    }
    return 0;
}

/* Placement. Bus positions lie on the cable [0, length]; star positions
 * are drop-cable lengths. Sets *longest_m: the longest drop (star). */
static int check_placement(const scenario *sc, double *longest_m, char *err, size_t errlen,
                           char *warn, size_t warnlen)
{
    char buf[512];
    const phy_params *phy = &sc->phy;
    *longest_m = phy->length_m;
    /* A replayed capture brings its own station count (one per source
     * address), known only when the engine reads it: the engine checks
     * positions against it. */
    if (sc->positions_m != NULL && sc->traffic.kind != TRAFFIC_PCAP) {
        size_t n_pos = sc->n_positions;
        if (n_pos != sc->n_stations) {
            snprintf(err, errlen, "positions: %zu position%s given for %u station%s", n_pos,
                     n_pos == 1 ? "" : "s", sc->n_stations, sc->n_stations == 1 ? "" : "s");
            return -1;
        }
    }
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        const station_group *g = scenario_group_at(sc, i);
        if (g->place == PLACE_SPAN && phy->topology != TOPOLOGY_BUS)
            return group_fail(sc, g, "span: a stretch of cable needs a bus (on a star, drop)",
                              err, errlen);
        if (g->place == PLACE_DROP && phy->topology != TOPOLOGY_STAR)
            return group_fail(sc, g, "drop: drop cables need a star (on a bus, span)", err,
                              errlen);
    }
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        const station_group *g = scenario_group_at(sc, i);
        if (g->place == PLACE_SPAN && g->place_to_m > phy->length_m) {
            snprintf(buf, sizeof buf, "span: %g m is beyond the end of the %g m cable (set length)",
                     g->place_to_m, phy->length_m);
            return group_fail(sc, g, buf, err, errlen);
        }
    }
    /* A replayed capture's stations are counted by the engine: only the
     * positions given are known here. */
    bool replay = sc->traffic.kind == TRAFFIC_PCAP;
    uint32_t n = replay ? (sc->positions_m ? sc->n_positions : 0) : sc->n_stations;
    for (uint32_t s = 0; s < n; s++) {
        double x = replay ? sc->positions_m[s] : scenario_station_metres(sc, s);
        if (phy->topology == TOPOLOGY_BUS && x > phy->length_m) {
            snprintf(buf, sizeof buf,
                     "positions: station %u at %g m is beyond the end of the %g m cable "
                     "(set length)",
                     s + 1, x, phy->length_m);
            return group_fail(sc, scenario_group_at(sc, scenario_group_of(sc, s)), buf, err, errlen);
        }
        if (phy->topology == TOPOLOGY_STAR && x > *longest_m)
            *longest_m = x;
    }
    if (phy->topology == TOPOLOGY_BUS && sc->probe_m > phy->length_m) {
        snprintf(err, errlen, "probe: %g m is beyond the end of the %g m cable", sc->probe_m,
                 phy->length_m);
        return -1;
    }
    if (phy->topology == TOPOLOGY_STAR && sc->probe_m != 0.0)
        network_warn_add(warn, warnlen, "probe: ignored on a star (the probe sits at the hub)");
    if (*longest_m > phy->max_length_m) {
        snprintf(buf, sizeof buf,
                 "length: %g m is longer than %s allows (%g m%s); collisions may be detected "
                 "late or not at all",
                 *longest_m, phy->name, phy->max_length_m,
                 phy->topology == TOPOLOGY_STAR ? " per drop cable" : "");
        network_warn_add(warn, warnlen, buf);
    }
    return 0;
}

/* The smallest and largest frame of a size spec. */
static void size_bounds(const frame_size_spec *z, uint32_t *min_bytes, uint32_t *max_bytes)
{
    *max_bytes = z->kind == FRAME_SIZE_MIX ? 0 : z->max_bytes;
    *min_bytes = z->kind == FRAME_SIZE_MIX ? UINT32_MAX : z->min_bytes;
    for (uint32_t i = 0; z->kind == FRAME_SIZE_MIX && i < z->n_mix; i++) {
        if (z->mix_bytes[i] > *max_bytes)
            *max_bytes = z->mix_bytes[i];
        if (z->mix_bytes[i] < *min_bytes)
            *min_bytes = z->mix_bytes[i];
    }
}

/* Frame sizes against the PHY: too long is refused, too short is padded
 * (4.2.3.3) and said, since the throughput counts the padded frame. */
static int check_sizes(const scenario *sc, const station_group *g, const frame_size_spec *z,
                       const char *key, char *err, size_t errlen, char *warn, size_t warnlen)
{
    char buf[400];
    uint32_t min_bytes, max_bytes;
    size_bounds(z, &min_bytes, &max_bytes);
    uint32_t pad = sc->phy.min_frame_bytes;
    if (g->traffic.kind != TRAFFIC_PCAP && min_bytes < pad) {
        if (max_bytes < pad)
            snprintf(buf, sizeof buf,
                     "%s: every frame is shorter than the %u-byte minimum and padded to it: "
                     "%u-byte frames are sent",
                     key, pad, pad);
        else
            snprintf(buf, sizeof buf, "%s: frames shorter than %u bytes are padded to that minimum",
                     key, pad);
        char line[480];
        if (sc->n_named)
            snprintf(line, sizeof line, "group %s: %s", g->name, buf);
        network_warn_add(warn, warnlen, sc->n_named ? line : buf);
    }
    if (max_bytes > sc->phy.max_frame_bytes) {
        snprintf(buf, sizeof buf, "%s: %u bytes is above max-frame (%u bytes)", key, max_bytes,
                 sc->phy.max_frame_bytes);
        return group_fail(sc, g, buf, err, errlen);
    }
    if (min_bytes < 18) {
        snprintf(buf, sizeof buf, "%s: %u bytes is below 18 (addresses, type and FCS)", key,
                 min_bytes);
        return group_fail(sc, g, buf, err, errlen);
    }
    return 0;
}

/* One group's traffic and policy (the implicit group's are the
 * scenario's). Parses the policy once, so that it is reported now rather
 * than when the engine starts; the engine builds it from policy_spec. */
static int check_group(scenario *sc, station_group *g, char *err, size_t errlen, char *warn,
                       size_t warnlen)
{
    char buf[400];
    const traffic_config *t = &g->traffic;
    if (check_sizes(sc, g, &t->size, "frame-size", err, errlen, warn, warnlen) != 0 ||
        (g->reply.on && check_sizes(sc, g, &g->reply.size, "reply", err, errlen, warn,
                                    warnlen) != 0))
        return -1;
    if ((t->kind == TRAFFIC_POISSON || t->kind == TRAFFIC_ONOFF) && !(t->load > 0.0) &&
        g->count > 0) { /* 0 stations offer nothing */
        snprintf(buf, sizeof buf, "load: %s traffic needs a load above 0",
                 t->kind == TRAFFIC_POISSON ? "poisson" : "onoff");
        return group_fail(sc, g, buf, err, errlen);
    }
    if (t->kind == TRAFFIC_PCAP && sc->pcap_path[0] == '\0') {
        snprintf(err, errlen, "traffic: pcap: needs a file name (pcap:FILE)");
        return -1;
    }
    if (t->kind == TRAFFIC_PCAP && sc->n_named) {
        snprintf(err, errlen, "traffic: a replayed capture makes one station per source "
                              "address and cannot be used with groups");
        return -1;
    }
    if (t->dest == DEST_SERVER && t->server >= sc->n_stations && t->kind != TRAFFIC_PCAP) {
        snprintf(buf, sizeof buf, "dest: server %u does not exist (stations are 1 to %u)",
                 t->server + 1, sc->n_stations);
        return group_fail(sc, g, buf, err, errlen);
    }
    /* A lone station has no other station to send to: frames addressed
     * "to a random other station" go to the station itself, whatever the
     * traffic, and are judged where they were sent. So one saturated
     * station measures the channel's efficiency, 12144 / (12144 + 64 + 96)
     * with 1518-byte frames, and a sweep over N may start at 1. */
    if (backoff_spec_parse(g->policy, &g->policy_spec, buf, sizeof buf) != 0)
        return group_fail(sc, g, buf, err, errlen);
    /* A reply is queued think after its request, within the run: a think
     * time as long as the run answers nothing. */
    if (g->reply.on && g->count > 0 && !sc->endless && g->reply.think >= sc->duration) {
        char th[32], du[32], line[160];
        parse_format_time(g->reply.think, th, sizeof th);
        parse_format_time(sc->duration, du, sizeof du);
        snprintf(line, sizeof line, "think: %s is not shorter than the run (%s): no reply is "
                                    "sent",
                 th, du);
        if (sc->n_named)
            snprintf(buf, sizeof buf, "group %s: %s", g->name, line);
        else
            snprintf(buf, sizeof buf, "%s", line);
        network_warn_add(warn, warnlen, buf);
    }
    return 0;
}

int scenario_finish(scenario *sc, char *err, size_t errlen, char *warn, size_t warnlen)
{
    char t1[32], t2[32];
    if (warnlen > 0)
        warn[0] = '\0';

    if (sc->n_named == 0 &&
        (sc->n_stations < 1 || sc->n_stations > SCENARIO_MAX_STATIONS)) {
        snprintf(err, errlen, "stations: %u is out of range (1 to %u)", sc->n_stations,
                 SCENARIO_MAX_STATIONS);
        return -1;
    }
    if (phy_validate(&sc->phy, err, errlen) != 0)
        return -1;
    if (sc->duration <= 0 || sc->duration > SCENARIO_MAX_TIME_PS) {
        snprintf(err, errlen, "duration: out of range (above 0 to 2400h)");
        return -1;
    }
    if (sc->warmup < 0 || sc->warmup >= sc->duration) {
        parse_format_time(sc->warmup, t1, sizeof t1);
        scenario_duration_text(sc, t2, sizeof t2);
        snprintf(err, errlen, "warmup: %s is not shorter than the duration (%s)", t1, t2);
        return -1;
    }
    if (sc->outage_duration > 0 &&
        (sc->outage_start >= sc->duration ||
         sc->outage_duration > sc->duration - sc->outage_start)) {
        char o[80];
        scenario_outage_text(sc, o, sizeof o);
        scenario_duration_text(sc, t2, sizeof t2);
        snprintf(err, errlen, "outage: %s does not end within the run (duration %s)", o, t2);
        return -1;
    }
    /* The defaults' policy, for whoever reads the scenario's own fields. */
    if (backoff_spec_parse(sc->policy, &sc->policy_spec, err, errlen) != 0)
        return -1;
    if (scenario_groups_resolve(sc, err, errlen) != 0 || check_queues(sc, err, errlen) != 0)
        return -1;
    double longest_m = 0;
    if (network_resolve(sc, err, errlen, warn, warnlen) != 0)
        return -1;
    if (sc->net.n_segments == 0 && check_placement(sc, &longest_m, err, errlen, warn, warnlen) != 0)
        return -1;
    for (uint32_t i = 0; i < scenario_group_count(sc); i++) {
        station_group *g = sc->n_named ? &sc->groups[i] : &sc->all;
        if (check_group(sc, g, err, errlen, warn, warnlen) != 0)
            return -1;
    }
    return check_derived_times(sc, longest_m, err, errlen);
}

double scenario_frame_bytes_mean(const scenario *sc)
{
    return frame_size_mean(&sc->traffic.size, sc->phy.min_frame_bytes);
}

void scenario_duration_text(const scenario *sc, char *buf, size_t len)
{
    if (sc->endless)
        snprintf(buf, len, "inf");
    else
        parse_format_time(sc->duration, buf, len);
}
