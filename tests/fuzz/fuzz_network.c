/* fuzz_network.c - libFuzzer harness for networks of segments
 * (stations/MODEL.md, "Networks of segments" and "Repeaters: how a
 * network runs"): [segment] and [repeater] sections, uplinks, groups on
 * segments, the 802.3 budget (budget.h), `csmacd check`'s listing and
 * run's network report (netreport.h), and the engine's segments
 * (segments.h) run for at most 2000 events (like fuzz_group's points).
 *
 * The input is a scenario file, as `csmacd run --scenario FILE` reads it,
 * or, when its first octet is 0, octets from which this file writes one:
 * a PHY (10BASE5, 10BASE2, 10BASE-T, 100BASE-TX, 1000BASE-T, sometimes
 * another rate), up to 8 segments (coax or hub, lengths, velocities,
 * probes, classes, delays), each joined to an earlier one by a repeater,
 * a hub's uplink or a port added to the last repeater, and up to 4
 * groups on the segments (positions, span, drop, traffic, destinations).
 * Three inputs in four write a network that should be accepted (a tree,
 * ports and positions on their cables); the fourth also writes, now and
 * then, a loop, a segment left alone, two ports on one segment, a
 * missing type, a class at a rate without classes, a group nowhere. CSMACD_FUZZ_VERBOSE=1 prints the scenario written.
 * The scenario is given through a memfd; its duration is set to 3 ms
 * (the warm-up kept when it is shorter, else 0).
 *
 * What must hold besides ASan and UBSan:
 *   - a refusal (scenario_load_file, cli_finish, engine_create) prints,
 *     through cli_error as the program does, one error line of text
 *     (fuzz_common.h); the "[segment NAME]" or "[repeater NAME]" a reason
 *     starts with is a section of the input (NAME is in the text), a
 *     "FILE:LINE: " it starts with is a line of the input; warnings are
 *     lines of text;
 *   - an accepted network's budget (net_budget_compute): its rules are
 *     the rate's (Clause 13, Clause 29, Clauses 41 and 42, none), its
 *     numbers finite and at least 0, the limits the rate's (575 and 49,
 *     512, 4096), a path delay or variability value above its limit is
 *     not within; the verdict is "within" exactly when nothing is broken,
 *     else each "; "-separated part names a rule (5-4-3, Model 1, the
 *     single repeater of 1000 Mb/s, path delay value, path variability
 *     value, coax above 10 Mb/s, a segment's length), but a last "..."
 *     (the parts that did not fit whole); the worst path's
 *     ends are segments with stations and stations on them (none with
 *     fewer than two stations); the over-budget warning is printed
 *     exactly when it is not within; the budget's model round trip is at
 *     most twice the engine's bound of the longest path (segnet_max_delay);
 *   - `csmacd check`'s listing is lines of text, one per segment and
 *     repeater, and its verdict line is the budget's; run's summary line
 *     and JSON object are made;
 *   - the run ends: at most RUN_EVENTS events, and simulated time must
 *     advance within any STALL events (a hang is events that do not move
 *     the clock: the most one instant can hold is bounded by the taps,
 *     stations and repeater ports, squared); a run that reaches the event
 *     cap with its clock moving is only busy, and is stopped there;
 *   - the results, at every slice of the run (before the warm-up too: the
 *     window is then empty) and at its end: as many segments and
 *     repeaters as the network, named as it names them, each segment's
 *     stations those whose `segment` is it; the segments' frames_sent
 *     and late_collisions sum to the run's frames_ok and late_collisions,
 *     and (with no warm-up) the run's collisions, its collision domains'
 *     (each once), are at most the segments' and the repeaters' transmit
 *     collisions together; a repeater's port_collisions are at
 *     least its transmit_collisions; without broadcasts the segments'
 *     frames_corrupted are at most the run's; and with no warm-up, frames
 *     account (offered = ok + aborted + late_discarded + dropped +
 *     queued), a repeater reads at most as many whole frames as the
 *     stations sent whole, and the segments' frames_relayed are at most
 *     the repeaters' readable frames times their other ports.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_network -runs=1000 build/tests/fuzz-network-corpus tests/fuzz/corpus-network
 * Long run: tests/fuzz/run.sh 30m network (tests/fuzz/README.md).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "budget.h"
#include "cli.h"
#include "engine.h"
#include "fuzz_common.h"
#include "netreport.h"
#include "network.h"
#include "scenario.h"
#include "segments.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DURATION "3ms"
/* The simulated work per input is bounded, as fuzz_group's: 2000 events,
 * checked every 250 (the checks hold at every slice, so a shorter run
 * loses counts, not checks). 20000 events made each input take four times
 * as long. */
#define RUN_EVENTS 2000u
#define SLICE_EVENTS 250u

/* Aborts with a reason on standard error (the reproducer's story). */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_network: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* ---- the scenario written from octets ----------------------------------- */

typedef struct gen {
    const uint8_t *p;
    size_t n;
    char *buf;
    size_t len, cap;
} gen;

static unsigned pick(gen *g, unsigned k)
{
    if (g->n == 0)
        return 0;
    g->n--;
    return *g->p++ % k;
}

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        g->len += (size_t)n < g->cap - g->len ? (size_t)n : g->cap - g->len - 1;
}

#define MAX_GEN_SEGMENTS 8
#define MAX_GEN_GROUPS 4

static const char *const metres[] = {"0", "1", "5", "50", "100", "101", "185", "250", "500", "2500"};
static const double metres_v[] = {0, 1, 5, 50, 100, 101, 185, 250, 500, 2500};
#define N_METRES (sizeof metres / sizeof metres[0])

typedef struct gen_net {
    bool chaos;                     /* anomalies (refusals) now and then */
    bool hub[MAX_GEN_SEGMENTS];
    double length[MAX_GEN_SEGMENTS];
} gen_net;

/* Metres up to max (any, sometimes, in chaos). */
static const char *pick_metres(gen *g, const gen_net *w, double max)
{
    unsigned fit = 0;
    while (fit < N_METRES && metres_v[fit] <= max)
        fit++;
    if (fit == 0 || (w->chaos && pick(g, 8) == 0))
        return metres[pick(g, N_METRES)];
    return metres[pick(g, fit)];
}

/* A port on segment s: a position on coax, a drop (or the default) on a hub. */
static void put_port(gen *g, const gen_net *w, unsigned s)
{
    if (w->hub[s] && pick(g, 3) == 0)
        put(g, "s%u", s);
    else
        put(g, "s%u@%s", s, pick_metres(g, w, w->hub[s] ? 1e9 : w->length[s]));
}

static size_t generate(const uint8_t *data, size_t size, char *buf, size_t cap)
{
    gen g = {.p = data, .n = size, .buf = buf, .cap = cap};
    gen_net w = {.chaos = pick(&g, 4) == 0};
    static const char *const phys[] = {"10base5", "10base2", "10baset", "100basetx", "1000baset"};
    static const double bus_m[] = {500, 185, 0, 0, 0}, star_m[] = {0, 0, 100, 100, 100};
    unsigned phy = pick(&g, 5);
    bool at100 = phy == 3;
    put(&g, "phy = %s\n", phys[phy]);
    if (pick(&g, 16) == 0) {
        put(&g, "rate = %s\n", pick(&g, 2) ? "20M" : "1M");
        at100 = false;
    }
    put(&g, "seed = %u\n", pick(&g, 256));
    static const char *const traffic[] = {"saturated", "poisson", "onoff", "batch", "none"};
    unsigned t = pick(&g, 5);
    put(&g, "traffic = %s\n", traffic[t]);
    if (t == 1 || t == 2)
        put(&g, "load = %s\n", pick(&g, 2) ? "0.3" : "2");
    if (t == 3)
        put(&g, "batch = %u\n", 1 + pick(&g, 8));
    static const char *const sizes[] = {"64", "512", "1518", "64-1518"};
    put(&g, "frame-size = %s\n", sizes[pick(&g, 4)]);
    if (pick(&g, 8) == 0)
        put(&g, "dest = broadcast\n");
    if (pick(&g, 8) == 0)
        put(&g, "warmup = 1ms\n");
    if (pick(&g, 16) == 0)
        put(&g, "%s\n", pick(&g, 2) ? "preamble-bits = 8" : "jam-bits = 8");

    unsigned n_seg = 1 + pick(&g, MAX_GEN_SEGMENTS);
    for (unsigned i = 0; i < n_seg; i++)
        w.hub[i] = pick(&g, 2);
    /* How each segment after the first joins an earlier one. */
    char reps[MAX_GEN_SEGMENTS][256];
    unsigned n_reps = 0;
    for (unsigned i = 0; i < n_seg; i++) {
        bool hub = w.hub[i];
        put(&g, "[segment s%u]\n", i);
        if (!w.chaos || pick(&g, 16) != 0)
            put(&g, "type = %s\n", hub ? "hub" : "coax");
        w.length[i] = hub ? (star_m[phy] > 0 ? star_m[phy] : 100)
                          : (bus_m[phy] > 0 ? bus_m[phy] : 500);
        if (pick(&g, 2)) {
            unsigned m = pick(&g, N_METRES);
            put(&g, "length = %s\n", metres[m]);
            w.length[i] = metres_v[m];
        }
        if (pick(&g, 4) == 0) {
            static const char *const v[] = {"0.585", "0.65", "0.77", "1"};
            put(&g, "velocity = %s\n", v[pick(&g, 4)]);
        }
        if (!hub && pick(&g, 4) == 0)
            put(&g, "probe = %s\n", pick_metres(&g, &w, w.length[i]));
        if (hub && (at100 || w.chaos) && pick(&g, 4) == 0)
            put(&g, "class = %s\n", pick(&g, 2) ? "I" : "II");
        if (hub && pick(&g, 4) == 0) {
            static const char *const d[] = {"0", "1", "8", "46", "70", "488"};
            put(&g, "delay = %s\n", d[pick(&g, 6)]);
        }
        if (i == 0)
            continue;
        unsigned parent = pick(&g, i);
        unsigned how = pick(&g, 8);
        if (w.chaos && pick(&g, 8) == 0)
            how = 8 + pick(&g, 3); /* a loop, nothing, two ports on one segment */
        if (how >= 4 && how <= 5 && hub) {
            put(&g, "uplink = s%u@%s\n", parent,
                pick_metres(&g, &w, w.hub[parent] ? 1e9 : w.length[parent]));
        } else if (how == 6 && n_reps > 0 && strlen(reps[n_reps - 1]) < 200) {
            gen r = g;
            r.buf = reps[n_reps - 1];
            r.len = strlen(r.buf);
            r.cap = sizeof reps[0];
            put(&r, ", ");
            put_port(&r, &w, i);
            g.p = r.p;
            g.n = r.n;
        } else if (how != 9) {
            gen r = g;
            r.buf = reps[n_reps];
            r.len = 0;
            r.cap = sizeof reps[0];
            put_port(&r, &w, parent);
            put(&r, ", ");
            put_port(&r, &w, how == 10 ? parent : i);
            if (how == 8 && i >= 2)
                put(&r, ", s%u@0", (parent + 1) % i); /* a second way in: a loop */
            g.p = r.p;
            g.n = r.n;
            n_reps++;
        }
    }
    for (unsigned r = 0; r < n_reps; r++) {
        put(&g, "[repeater r%u]\nports = %s\n", r, reps[r]);
        if (pick(&g, 4) == 0) {
            static const char *const d[] = {"0", "8", "46", "70"};
            put(&g, "delay = %s\n", d[pick(&g, 4)]);
        }
        if ((at100 || w.chaos) && pick(&g, 4) == 0)
            put(&g, "class = %s\n", pick(&g, 2) ? "I" : "II");
    }
    unsigned n_groups = 1 + pick(&g, MAX_GEN_GROUPS);
    for (unsigned k = 0; k < n_groups; k++) {
        unsigned s = pick(&g, n_seg);
        unsigned n = w.chaos ? pick(&g, 7) : 1 + pick(&g, 6);
        put(&g, "[group g%u]\nstations = %u\n", k, n);
        unsigned where = w.chaos ? pick(&g, 8) : 2;
        if (where == 0)
            put(&g, "segment = nowhere\n");
        else if (where != 1)
            put(&g, "segment = s%u\n", s);
        switch (pick(&g, 8)) {
        case 0:
            if (!w.hub[s] || w.chaos)
                put(&g, "span = %s-%s\n", metres[pick(&g, 4)],
                    pick_metres(&g, &w, w.hub[s] ? 1e9 : w.length[s]));
            break;
        case 1:
            if (w.hub[s] || w.chaos)
                put(&g, "drop = %s\n", metres[pick(&g, N_METRES)]);
            break;
        case 2:
            if (n > 0) {
                put(&g, "positions = ");
                for (unsigned i = 0; i < n; i++)
                    put(&g, "%s%s", i ? "," : "",
                        pick_metres(&g, &w, w.hub[s] ? 1e9 : w.length[s]));
                put(&g, "\n");
            }
            break;
        case 3:
            put(&g, "traffic = poisson\nload = 0.%u\n", 1 + pick(&g, 9));
            break;
        case 4:
            if (k > 0)
                put(&g, "dest = group:g0\n");
            break;
        default:
            break;
        }
    }
    return g.len;
}

/* ---- refusals ----------------------------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}


static const char *text_of_input; /* the scenario */
static size_t len_of_input, lines_of_input;

/* The section a refusal is about (its reason starts "[segment NAME] " or
 * "[repeater NAME] ", after "PATH:LINE: ") is the input's: its name is
 * in the text. */
static void check_named_section(const char *msg, const char *path)
{
    size_t n = strlen(path);
    if (strncmp(msg, path, n) == 0 && msg[n] == ':') {
        const char *p = msg + n + 1;
        while (isdigit((unsigned char)*p))
            p++;
        if (p[0] == ':' && p[1] == ' ')
            msg = p + 2;
    }
    static const char *const kinds[] = {"[segment ", "[repeater "};
    for (int k = 0; k < 2; k++) {
        if (!starts(msg, kinds[k]))
            continue;
        const char *name = msg + strlen(kinds[k]);
        size_t len = 0;
        while (isalnum((unsigned char)name[len]) || name[len] == '-' || name[len] == '_')
            len++;
        if (len == 0 || name[len] != ']')
            return; /* an echoed name that is not one (the reason says so) */
        if (len > NET_NAME_MAX)
            fail("a section name longer than %d: %s", NET_NAME_MAX, msg);
        if (memmem(text_of_input, len_of_input, name, len) == NULL)
            fail("the refusal names a section the input does not have: %s", msg);
    }
}

/* "PATH:LINE: ..." names a line of the input. */
static void check_line(const char *msg, const char *path)
{
    size_t n = strlen(path);
    if (strncmp(msg, path, n) != 0 || msg[n] != ':')
        return;
    char *end;
    long line = strtol(msg + n + 1, &end, 10);
    if (end == msg + n + 1)
        return;
    if (line < 1 || (size_t)line > lines_of_input)
        fail("line %ld of an input of %zu lines: %s", line, lines_of_input, msg);
}

/* A refusal as printed: exactly one error line of text. */
static void check_refusal(const char *msg, const char *path)
{
    fuzz_check_refusal(msg);
    check_named_section(msg, path);
    check_line(msg, path);
}

/* ---- the budget --------------------------------------------------------- */

/* Each part of a verdict that is not within names a rule. */
static void check_verdict(const net_budget *b)
{
    const char *v = b->verdict;
    if (b->within) {
        if (!starts(v, "within"))
            fail("within, but the verdict says: %s", v);
        return;
    }
    if (starts(v, "within") || v[0] == '\0')
        fail("not within, but the verdict says: '%s'", v);
    fuzz_check_text(v, strlen(v));
    char copy[sizeof b->verdict];
    snprintf(copy, sizeof copy, "%s", v);
    for (char *part = copy, *next; part != NULL; part = next) {
        next = strstr(part, "; ");
        if (next != NULL) {
            *next = '\0';
            next += 2;
        }
        if (next == NULL && strcmp(part, "...") == 0)
            continue; /* the parts that did not fit whole */
        if (!(starts(part, "5-4-3: ") || starts(part, "Model 1: ") ||
              starts(part, "path delay value ") || starts(part, "path variability value ") ||
              starts(part, "coax at ") || starts(part, "segment ") ||
              strstr(part, " repeaters in the collision domain (at most one") != NULL))
            fail("a verdict's part names no rule: '%s' in '%s'", part, v);
    }
}

static void check_budget(const scenario *sc, const net_budget *b)
{
    const network *net = &sc->net;
    uint64_t rate = sc->phy.rate_bps;
    const char *rules = rate == 10000000ull     ? "Clause 13"
                        : rate == 100000000ull  ? "Clause 29"
                        : rate == 1000000000ull ? "Clauses 41 and 42"
                                                : "none";
    double pdv_limit = rate == 10000000ull     ? 575
                       : rate == 100000000ull  ? 512
                       : rate == 1000000000ull ? 4096
                                               : 0;
    if (b->rate_bps != rate || strcmp(b->rules, rules) != 0)
        fail("budget rules %s at %llu b/s", b->rules, (unsigned long long)rate);
    if (b->pdv_limit_bits != pdv_limit || b->pvv_limit_bits != (rate == 10000000ull ? 49 : 0))
        fail("budget limits %g and %g at %llu b/s", b->pdv_limit_bits, b->pvv_limit_bits,
             (unsigned long long)rate);
    if (!isfinite(b->model_round_trip_bits) || b->model_round_trip_bits < 0)
        fail("model round trip %g", b->model_round_trip_bits);
    if (b->pdv_defined && (!isfinite(b->pdv_bits) || b->pdv_bits < 0 || pdv_limit == 0))
        fail("path delay value %g (limit %g)", b->pdv_bits, pdv_limit);
    if (b->pvv_defined && (!isfinite(b->pvv_bits) || b->pvv_bits < 0 || rate != 10000000ull))
        fail("path variability value %g", b->pvv_bits);
    if ((b->pdv_defined && b->pdv_bits > b->pdv_limit_bits) ||
        (b->pvv_defined && b->pvv_bits > b->pvv_limit_bits)) {
        if (b->within)
            fail("over a limit (%g of %g, %g of %g) yet within", b->pdv_bits, b->pdv_limit_bits,
                 b->pvv_bits, b->pvv_limit_bits);
    }
    if (b->max_coax > b->max_segments)
        fail("%u coax segments on a path of %u segments", b->max_coax, b->max_segments);
    check_verdict(b);
    if (sc->n_stations < 2) {
        if (b->from_segment != NET_BUDGET_NONE || b->pdv_defined || b->pvv_defined ||
            b->model_round_trip_bits != 0)
            fail("a path among fewer than two stations");
        return;
    }
    if (b->from_segment >= net->n_segments || b->to_segment >= net->n_segments)
        fail("worst path's segments %u..%u of %u", b->from_segment, b->to_segment,
             net->n_segments);
    if (b->from_station >= sc->n_stations || b->to_station >= sc->n_stations ||
        b->from_station == b->to_station)
        fail("worst path's stations %u..%u of %u", b->from_station, b->to_station,
             sc->n_stations);
    if (scenario_station_segment(sc, b->from_station) != b->from_segment ||
        scenario_station_segment(sc, b->to_station) != b->to_segment)
        fail("worst path's stations are not on its segments");
    if (b->max_segments == 0)
        fail("a path of no segment");
}

/* check's listing: lines of text, its verdict the budget's. */
static void check_listing(const scenario *sc, const net_budget *b)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    if (netreport_write_check(f, sc) != 0)
        fail("netreport_write_check failed");
    if (fclose(f) != 0)
        abort();
    unsigned segments = 0, repeaters = 0;
    bool verdict = false;
    for (char *p = out; p < out + len;) {
        char *nl = memchr(p, '\n', (size_t)(out + len - p));
        if (nl == NULL)
            fail("check's listing ends without a line end");
        fuzz_check_text(p, (size_t)(nl - p));
        *nl = '\0';
        segments += starts(p, "  segment ");
        repeaters += starts(p, "  repeater ");
        if (starts(p, "  verdict ")) {
            const char *v = p + strlen("  verdict ");
            while (*v == ' ')
                v++;
            if (strcmp(v, b->verdict) != 0)
                fail("check's verdict '%s', the budget's '%s'", v, b->verdict);
            verdict = true;
        }
        p = nl + 1;
    }
    if (segments != sc->net.n_segments || repeaters != sc->net.n_repeaters || !verdict)
        fail("check lists %u segments and %u repeaters of %u and %u%s", segments, repeaters,
             sc->net.n_segments, sc->net.n_repeaters, verdict ? "" : ", and no verdict");
    free(out);
    char line[1024];
    netreport_summary(sc, line, sizeof line);
    fuzz_check_text(line, strlen(line));
    json_t *j = netreport_json(sc);
    if (j != NULL) {
        char *s = json_dumps(j, JSON_COMPACT);
        if (s == NULL || strstr(s, "\"domains\"") == NULL)
            fail("run's network object: %s", s ? s : "(null)");
        free(s);
        json_decref(j);
    }
}

/* ---- the run ------------------------------------------------------------ */

static bool has_broadcast(const scenario *sc)
{
    for (uint32_t g = 0; g < scenario_group_count(sc); g++)
        if (scenario_group_at(sc, g)->traffic.dest == DEST_BROADCAST)
            return true;
    return sc->n_stations < 2;
}

static void check_results(const scenario *sc, const results *r, bool before_warmup)
{
    const network *net = &sc->net;
    if (r->n_segments != net->n_segments || r->n_repeaters != net->n_repeaters)
        fail("results: %u segments and %u repeaters, the network %u and %u", r->n_segments,
             r->n_repeaters, net->n_segments, net->n_repeaters);
    if (r->n_stations != sc->n_stations)
        fail("results: %u stations of %u", r->n_stations, sc->n_stations);
    uint64_t sent = 0, late = 0, coll = 0, corrupted = 0;
    for (uint32_t s = 0; s < r->n_segments; s++) {
        const segment_result *x = &r->segments[s];
        if (strcmp(x->name, net->segments[s].name) != 0)
            fail("results: segment %u is %s, the network's %s", s, x->name,
                 net->segments[s].name);
        uint32_t on = 0;
        for (uint32_t i = 0; i < r->n_stations; i++)
            on += r->stations[i].segment == s;
        if (x->stations != on || on != net->segments[s].n_stations)
            fail("segment %s: %u stations, %u sit on it, the network says %u", x->name,
                 x->stations, on, net->segments[s].n_stations);
        if (before_warmup && (x->frames_sent || x->frames_relayed || x->collisions ||
                              x->late_collisions || x->frames_corrupted))
            fail("segment %s counts before the warm-up (sent %llu, relayed %llu, collisions "
                 "%llu, corrupted %llu): the window is empty",
                 x->name, (unsigned long long)x->frames_sent,
                 (unsigned long long)x->frames_relayed, (unsigned long long)x->collisions,
                 (unsigned long long)x->frames_corrupted);
        sent += x->frames_sent;
        late += x->late_collisions;
        coll += x->collisions;
        corrupted += x->frames_corrupted;
    }
    for (uint32_t i = 0; i < r->n_stations; i++)
        if (r->stations[i].segment != scenario_station_segment(sc, i) ||
            r->stations[i].segment >= r->n_segments)
            fail("station %u on segment %u", i, r->stations[i].segment);
    /* the run counts each collision domain's collisions once: one seen on
     * several segments counts on each of them, and one only a repeater
     * saw (two of its ports active) is a transmit collision of its
     * (stations/MODEL.md, "Collision events"). A domain's event counts
     * when all of it is over, its parts on the segments earlier: across
     * a warm-up's end the windows can differ, so the bound is checked
     * without one. */
    for (uint32_t i = 0; i < r->n_repeaters; i++)
        coll += r->repeaters[i].transmit_collisions;
    if (sent != r->frames_ok || late != r->late_collisions ||
        (sc->warmup == 0 && coll < r->collisions))
        fail("the segments' frames_sent %llu, late_collisions %llu, collisions %llu (with the "
             "repeaters' transmit collisions); the run's %llu, %llu, %llu (at most those)",
             (unsigned long long)sent, (unsigned long long)late, (unsigned long long)coll,
             (unsigned long long)r->frames_ok, (unsigned long long)r->late_collisions,
             (unsigned long long)r->collisions);
    if (!has_broadcast(sc) && corrupted > r->frames_corrupted)
        fail("the segments' frames_corrupted %llu > the run's %llu", (unsigned long long)corrupted,
             (unsigned long long)r->frames_corrupted);
    uint64_t relayed_bound = 0;
    for (uint32_t i = 0; i < r->n_repeaters; i++) {
        const repeater_result *x = &r->repeaters[i];
        if (strcmp(x->name, net->repeaters[i].name) != 0 || x->ports != net->repeaters[i].n_ports)
            fail("results: repeater %u is %s of %u ports, the network's %s of %u", i, x->name,
                 x->ports, net->repeaters[i].name, net->repeaters[i].n_ports);
        if (x->port_collisions < x->transmit_collisions)
            fail("repeater %s: %llu port collisions < %llu transmit collisions", x->name,
                 (unsigned long long)x->port_collisions,
                 (unsigned long long)x->transmit_collisions);
        if (before_warmup && (x->transmit_collisions || x->jams_sent || x->fragments_extended ||
                              x->readable_frames || x->port_collisions))
            fail("repeater %s counts before the warm-up: the window is empty", x->name);
        if (sc->warmup == 0 && x->readable_frames > r->frames_ok)
            fail("repeater %s read %llu whole frames, the stations sent %llu whole", x->name,
                 (unsigned long long)x->readable_frames, (unsigned long long)r->frames_ok);
        relayed_bound += x->readable_frames * (x->ports - 1);
    }
    uint64_t relayed = 0;
    for (uint32_t s = 0; s < r->n_segments; s++)
        relayed += r->segments[s].frames_relayed;
    if (sc->warmup == 0 && relayed > relayed_bound)
        fail("the segments' frames_relayed %llu > %llu (the repeaters' readable frames times "
             "their other ports)",
             (unsigned long long)relayed, (unsigned long long)relayed_bound);
    if (sc->warmup == 0 && r->frames_offered != r->frames_ok + r->frames_aborted +
                                                    r->frames_late_discarded +
                                                    r->frames_dropped + r->frames_queued)
        fail("frames offered %llu != ok %llu + aborted %llu + late %llu + dropped %llu + "
             "queued %llu",
             (unsigned long long)r->frames_offered, (unsigned long long)r->frames_ok,
             (unsigned long long)r->frames_aborted, (unsigned long long)r->frames_late_discarded,
             (unsigned long long)r->frames_dropped, (unsigned long long)r->frames_queued);
}

static uint64_t taps_of(const scenario *sc)
{
    uint64_t taps = sc->n_stations;
    for (uint32_t i = 0; i < sc->net.n_repeaters; i++)
        taps += sc->net.repeaters[i].n_ports;
    return taps;
}

static void run(const scenario *sc)
{
    engine *e = NULL;
    char err[1024];
    err[0] = '\0';
    int rc = engine_create(sc, &e, err, sizeof err);
    if (rc == ENGINE_NO_MEMORY)
        return;
    if (rc != 0) {
        check_refusal(err, sc->net.file);
        return;
    }
    if (engine_start(e, err, sizeof err) != 0) {
        engine_destroy(e);
        return;
    }
    uint64_t taps = taps_of(sc);
    uint64_t stall = 64 * taps * taps + 8 * SLICE_EVENTS;
    sim_time moved_at_time = 0;
    uint64_t moved_at_event = 0;
    engine_status st = ENGINE_RUNNING;
    results r;
    bool stuck = false;
    /* Past the cap only while the clock stands still (to tell a hang). */
    while (st == ENGINE_RUNNING && (engine_events(e) < RUN_EVENTS || stuck)) {
        st = engine_run(e, sc->duration, SLICE_EVENTS);
        if (st == ENGINE_OUT_OF_MEMORY)
            fail("out of memory within %u events", RUN_EVENTS);
        sim_time now = engine_now(e);
        stuck = now == moved_at_time;
        if (!stuck) {
            moved_at_time = now;
            moved_at_event = engine_events(e);
        } else if (st == ENGINE_RUNNING && engine_events(e) - moved_at_event > stall) {
            fail("a hang: %llu events at %lld ps without the clock moving (%llu taps)",
                 (unsigned long long)(engine_events(e) - moved_at_event), (long long)now,
                 (unsigned long long)taps);
        }
        engine_results(e, &r);
        check_results(sc, &r, now < sc->warmup);
    }
    if (fuzz_verbose())
        fprintf(stderr, "ran %u stations on %u segments, %u repeaters: %llu events to %lld ps%s\n",
                sc->n_stations, sc->net.n_segments, sc->net.n_repeaters,
                (unsigned long long)engine_events(e), (long long)engine_now(e),
                st == ENGINE_DONE ? "" : " (busy: stopped at the event cap)");
    engine_destroy(e);
}

/* ---- one input ---------------------------------------------------------- */

static void network_input(const char *text, size_t len)
{
    text_of_input = text;
    len_of_input = len;
    lines_of_input = 1;
    for (size_t i = 0; i < len; i++)
        lines_of_input += text[i] == '\n';
    int fd = memfd_create("fuzz-network", 0);
    if (fd < 0)
        return;
    if (len > 0 && write(fd, text, len) != (ssize_t)len) {
        close(fd);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    scenario sc;
    scenario_defaults(&sc);
    char err[2048];
    err[0] = '\0';
    if (scenario_load_file(&sc, path, err, sizeof err) != 0) {
        check_refusal(err, path);
        goto done;
    }
    if (scenario_set(&sc, "duration", DURATION, err, sizeof err) != 0)
        fail("duration = %s refused: %s", DURATION, err);
    if (sc.warmup >= sc.duration)
        sc.warmup = 0;
    sc.endless = false;
    char *printed;
    size_t plen;
    int rc = fuzz_finish(&sc, err, sizeof err, &printed, &plen);
    if (rc != 0) {
        free(printed);
        check_refusal(err, path);
        goto done;
    }
    if (sc.net.n_segments == 0) { /* no network: the other harnesses' */
        free(printed);
        goto done;
    }
    net_budget b;
    net_budget_compute(&sc.net, sc.phy.rate_bps, &b);
    check_budget(&sc, &b);
    bool warned = strstr(printed, "csmacd: warning: network: over 802.3's budget: ") != NULL;
    /* cli_finish's warnings share 2048 octets: a long list may leave it out. */
    if (warned != !b.within && !(warned == false && plen > 1200))
        fail("verdict '%s', the over-budget warning %s printed", b.verdict,
             warned ? "is" : "is not");
    free(printed);
    check_listing(&sc, &b);
    segnet *n = NULL;
    if (segnet_create(&sc, &n) == 0) {
        double bound_ps = 2.0 * (double)segnet_max_delay(n);
        double model_ps = b.model_round_trip_bits * 1e12 / (double)sc.phy.rate_bps;
        /* the engine rounds each cable to the picosecond */
        double slack = 2.0 * (sc.net.n_segments + sc.net.n_repeaters + 2) + bound_ps * 1e-9;
        if (model_ps > bound_ps + slack)
            fail("the budget's model round trip %.0f ps > twice the engine's longest path %.0f "
                 "ps",
                 model_ps, bound_ps);
    }
    segnet_destroy(n);
    run(&sc);
done:
    scenario_free(&sc);
    close(fd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_silence_stdio();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 0) {
        static char text[16384];
        size_t len = generate(data + 1, size - 1, text, sizeof text);
        if (fuzz_verbose())
            fprintf(stderr, "---- scenario written\n%s----\n", text);
        network_input(text, len);
        return 0;
    }
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    network_input(text, size);
    free(text);
    return 0;
}
