/* tui_step.c - `s`, the single step, and what it says.
 *
 * A step runs the engine to the next event that changes something a
 * student can see: a trace event (a frame queued, sent, collided, jammed,
 * backed off, delivered, given up, dropped) or a station's state (a
 * backoff or a deference ending). Events that change nothing (a timer
 * overtaken by what happened since) are run through on the way, at most
 * STEP_MAX_EVENTS of them. The status line then says in words what the
 * step was, station numbers from 1 as on screen:
 *
 *   "t = 1.234567 ms: station 5 detects a collision (station 2's frame
 *    reached it) and jams; meanwhile station 5's jam reaches station 3"
 *
 * "meanwhile" lists the signals that reached other stations during the
 * step (a frame's first bit, a jam's first bit), which the engine computes
 * rather than simulates as events, and which the bus row shows moving.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "medium.h"
#include "tui_driver_int.h"

#define STEP_MAX_EVENTS 10000
#define STEP_MAX_ARRIVALS 3 /* stations named per signal; the rest counted */

/* Appends to a sentence being built, with "; " between clauses. */
typedef struct text {
    char *buf;
    size_t cap, len;
    int clauses;
} text;

static void say(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(text *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->cap)
        return;
    if (t->clauses++ > 0)
        t->len += (size_t)snprintf(t->buf + t->len, t->cap - t->len, "; ");
    if (t->len + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->len += (size_t)k < t->cap - t->len ? (size_t)k : t->cap - t->len - 1;
}

/* Station s's medium and its tap there: on a network, its segment's,
 * where the taps are the segment's stations in station order, then the
 * repeaters' ports (engine.h). */
static const medium *station_medium(tui_driver *d, uint32_t s, uint32_t *tap)
{
    const scenario *sc = engine_scenario(d->e);
    if (engine_segment_count(d->e) == 0) {
        *tap = s;
        return engine_medium(d->e);
    }
    uint32_t seg = scenario_station_segment(sc, s);
    *tap = 0;
    for (uint32_t i = 0; i < s; i++)
        *tap += scenario_station_segment(sc, i) == seg;
    return engine_segment_medium(d->e, seg);
}

/* The station at tap `tap` of station s's segment, UINT32_MAX for a
 * repeater's port. */
static uint32_t tap_station(tui_driver *d, uint32_t s, uint32_t tap)
{
    const scenario *sc = engine_scenario(d->e);
    if (engine_segment_count(d->e) == 0)
        return tap;
    uint32_t seg = scenario_station_segment(sc, s);
    for (uint32_t i = 0; i < d->n; i++)
        if (scenario_station_segment(sc, i) == seg && tap-- == 0)
            return i;
    return UINT32_MAX;
}

/* Whether station s hears a carrier other than its own at t, and whose
 * (the first one found; UINT32_MAX: the outage or a repeater; *relay
 * tells which). */
static bool carrier_at(tui_driver *d, uint32_t s, sim_time t, uint32_t *who, bool *relay)
{
    uint32_t tap;
    const medium *m = station_medium(d, s, &tap);
    medium_signal sig[64];
    size_t n = medium_signals_at(m, tap, sig, sizeof sig / sizeof sig[0]);
    for (size_t i = 0; i < n; i++)
        if (!sig[i].own && sig[i].from <= t && (sig[i].until == SIM_TIME_NEVER || sig[i].until > t)) {
            uint32_t from = sig[i].station;
            *who = from < d->n ? tap_station(d, s, from) : UINT32_MAX;
            *relay = from < d->n && *who == UINT32_MAX;
            return true;
        }
    return false;
}

static const trace_event *find(const tui_driver *d, trace_kind k, uint32_t s)
{
    size_t n = d->n_step_ev < DRIVER_STEP_EVENTS ? d->n_step_ev : DRIVER_STEP_EVENTS;
    for (size_t i = 0; i < n; i++)
        if (d->step_ev[i].kind == k && d->step_ev[i].station == s)
            return &d->step_ev[i];
    return NULL;
}

/* What a station waiting to send does at t: defers to a carrier, or
 * waits out the interframe gap. */
static void waits(tui_driver *d, uint32_t s, sim_time t, char *out, size_t cap)
{
    uint32_t who;
    bool relay = false;
    if (!carrier_at(d, s, t, &who, &relay))
        snprintf(out, cap, "waits out the interframe gap");
    else if (relay)
        snprintf(out, cap, "senses carrier (a repeater's) and defers");
    else if (who == UINT32_MAX)
        snprintf(out, cap, "senses carrier (the outage) and defers");
    else
        snprintf(out, cap, "senses carrier (station %u's signal) and defers", who + 1);
}

/* The repeater whose port is tap `tap` of segment seg (the segment's
 * stations first, then the repeaters' ports on it in repeater order:
 * trace.h), in words: "repeater r1", "lab's uplink"; "a repeater" when
 * the tap is none of them. */
static void repeater_words(tui_driver *d, uint32_t seg, uint32_t tap, char *out, size_t cap)
{
    const scenario *sc = engine_scenario(d->e);
    const network *net = &sc->net;
    uint32_t k = tap;
    for (uint32_t i = 0; i < sc->n_stations && k != UINT32_MAX; i++)
        if (scenario_station_segment(sc, i) == seg)
            k = k > 0 ? k - 1 : UINT32_MAX;
    for (uint32_t r = 0; r < net->n_repeaters && k != UINT32_MAX; r++)
        for (uint32_t p = 0; p < net->repeaters[r].n_ports; p++) {
            if (net->repeaters[r].ports[p].segment != seg)
                continue;
            if (k-- > 0)
                continue;
            const net_repeater *rp = &net->repeaters[r];
            /* An uplink is made from a hub's `uplink` key: named after it. */
            size_t n = strlen(rp->name);
            if (rp->uplink && n > 7 && strcmp(rp->name + n - 7, "-uplink") == 0)
                snprintf(out, cap, "%.*s's uplink", (int)(n - 7), rp->name);
            else
                snprintf(out, cap, "repeater %s", rp->name);
            return;
        }
    snprintf(out, cap, "a repeater");
}

/* The events of the step, station by station, in the engine's order. */
static void tell_events(tui_driver *d, const mac_state *before, sim_time t, text *out)
{
    size_t n = d->n_step_ev < DRIVER_STEP_EVENTS ? d->n_step_ev : DRIVER_STEP_EVENTS;
    char w[128];
    for (size_t i = 0; i < n; i++) {
        const trace_event *ev = &d->step_ev[i];
        if (ev->station == TRACE_NO_STATION) { /* a relay */
            const network *net = &engine_scenario(d->e)->net;
            const char *seg = ev->segment < net->n_segments ? net->segments[ev->segment].name : "?";
            char who[80];
            repeater_words(d, ev->segment, ev->tap, who, sizeof who);
            say(out, ev->kind == TRACE_RELAY_START ? "%s starts sending onto segment %s"
                     : ev->kind == TRACE_RELAY_JAM ? "%s sends jam onto segment %s"
                                                   : "%s stops sending onto segment %s",
                who, seg);
            continue;
        }
        uint32_t s = ev->station, S = s + 1;
        mac_station_view v;
        engine_station_view(d->e, s, &v);
        switch (ev->kind) {
        case TRACE_RELAY_START:
        case TRACE_RELAY_JAM:
        case TRACE_RELAY_END:
            break; /* told above */
        case TRACE_ARRIVAL:
            if (before[s] == MAC_IDLE && v.state == MAC_DEFER) {
                waits(d, s, t, w, sizeof w);
                say(out, "a frame arrives in station %u's queue; it %s", S, w);
            } else if (before[s] == MAC_IDLE && v.state == MAC_TX) {
                say(out, "a frame arrives in station %u's queue", S);
            } else {
                say(out, "a frame arrives in station %u's queue (%u waiting)", S, v.queue_len);
            }
            break;
        case TRACE_DROP:
            say(out, "station %u's queue is full: a new frame is dropped", S);
            break;
        case TRACE_TX_START:
            if (ev->tx_kind == TRACE_TX_EXTENSION)
                say(out, "station %u extends its carrier between the frames of a burst", S);
            else if (before[s] == MAC_BACKOFF)
                say(out, "station %u's backoff ends; it starts sending (attempt %u)", S,
                    ev->attempt);
            else if (before[s] == MAC_DEFER)
                say(out, "station %u's deference ends; it starts sending (attempt %u)", S,
                    ev->attempt);
            else
                say(out, "station %u starts sending (attempt %u)", S, ev->attempt);
            break;
        case TRACE_COLLISION: {
            uint32_t who;
            bool relay = false;
            const trace_event *jam = find(d, TRACE_JAM, s);
            char from[64] = "";
            if (carrier_at(d, s, t, &who, &relay))
                snprintf(from, sizeof from,
                         relay               ? " (a repeater's signal reached it)"
                         : who == UINT32_MAX ? " (the outage reached it)"
                                             : " (station %u's signal reached it)",
                         who + 1);
            say(out, "station %u detects a %scollision%s%s", S, ev->late ? "late " : "", from,
                jam ? " and jams" : "");
            break;
        }
        case TRACE_JAM:
            if (!find(d, TRACE_COLLISION, s))
                say(out, "station %u jams", S);
            break;
        case TRACE_TX_END:
            if (ev->tx_kind == TRACE_TX_EXTENSION)
                break;
            if (ev->jam_start != SIM_TIME_NEVER)
                say(out, "station %u's jam ends: it stops sending", S);
            else
                say(out, "station %u's frame has left it whole", S);
            break;
        case TRACE_BACKOFF:
            if (ev->backoff_slots > 0 || ev->backoff_ps == 0)
                say(out, "station %u backs off %llu slot%s (collision %u of this frame)", S,
                    (unsigned long long)ev->backoff_slots, ev->backoff_slots == 1 ? "" : "s",
                    ev->collisions);
            else
                say(out, "station %u backs off %.1f us (collision %u of this frame)", S,
                    sim_time_to_s(ev->backoff_ps) * 1e6, ev->collisions);
            break;
        case TRACE_TX_OK:
            if (!find(d, TRACE_TX_END, s))
                say(out, "station %u's frame is sent", S);
            break;
        case TRACE_ABORT:
            say(out, "station %u gives its frame up after %u collisions%s", S, ev->collisions,
                ev->abort_reason == TRACE_ABORT_LATE_COLLISION ? " (a late one)" : "");
            break;
        case TRACE_DELIVER:
            if (ev->dest == TRACE_NO_DEST)
                say(out, "station %u's broadcast has passed every station%s", S,
                    ev->ok ? "" : ", damaged");
            else
                say(out, "station %u's frame %s station %u", S,
                    ev->ok ? "is received whole at" : "arrives damaged at", ev->dest + 1);
            break;
        case TRACE_BRIDGE_LEARN:
        case TRACE_BRIDGE_FORWARD:
        case TRACE_BRIDGE_FLOOD:
        case TRACE_BRIDGE_FILTER:
        case TRACE_BRIDGE_DROP:
        case TRACE_BRIDGE_TX_START:
        case TRACE_BRIDGE_TX_END:
        case TRACE_BRIDGE_ABORT:
        case TRACE_KIND_COUNT:
            break;
        }
    }
}

/* State changes the events above did not tell. */
static void tell_states(tui_driver *d, const mac_state *before, sim_time t, text *out)
{
    char w[128];
    for (uint32_t s = 0; s < d->n; s++) {
        mac_station_view v;
        engine_station_view(d->e, s, &v);
        if (v.state == before[s] || find(d, TRACE_TX_START, s) || find(d, TRACE_ARRIVAL, s) ||
            find(d, TRACE_BACKOFF, s) || find(d, TRACE_COLLISION, s))
            continue;
        if (before[s] == MAC_BACKOFF && v.state == MAC_DEFER) {
            waits(d, s, t, w, sizeof w);
            say(out, "station %u's backoff ends; it %s", s + 1, w);
        } else if (v.state == MAC_DEFER) {
            waits(d, s, t, w, sizeof w);
            say(out, "station %u %s", s + 1, w);
        } else if (v.state == MAC_IDLE) {
            say(out, "station %u has nothing left to send", s + 1);
        }
    }
}

/* Signals that reached other stations during (t0, t1]: a frame's first
 * bit, a jam's first bit; one clause per signal, "station 2's frame
 * reaches stations 1, 3 and 4" (at most STEP_MAX_ARRIVALS stations named,
 * the others counted). */
static void tell_arrivals(tui_driver *d, sim_time t0, sim_time t1, text *out)
{
    char all[400];
    size_t len = 0;
    size_t cnt = timeline_sink_count(d->tl);
    size_t first = cnt > 64 ? cnt - 64 : 0;
    for (size_t i = first; i < cnt && len + 1 < sizeof all; i++) {
        const timeline_tx *r = timeline_sink_at(d->tl, i);
        if (r->station >= d->n)
            continue;
        for (int k = 0; k < 2; k++) {
            sim_time at = k == 0 ? r->start : r->jam_start;
            if (at == SIM_TIME_NEVER)
                continue;
            uint32_t to[STEP_MAX_ARRIVALS];
            size_t named = 0, reached = 0;
            for (uint32_t j = 0; j < d->n; j++) {
                sim_time dl = engine_station_delay(d->e, r->station, j);
                if (j == r->station || at + dl <= t0 || at + dl > t1)
                    continue;
                if (named < STEP_MAX_ARRIVALS)
                    to[named++] = j;
                reached++;
            }
            if (reached == 0)
                continue;
            char who[96];
            size_t wl = 0;
            for (size_t q = 0; q < named; q++)
                wl += (size_t)snprintf(who + wl, sizeof who - wl, "%s%u",
                                       q == 0                               ? ""
                                       : q + 1 == named && reached == named ? " and "
                                                                            : ", ",
                                       to[q] + 1);
            if (reached > named)
                snprintf(who + wl, sizeof who - wl, " and %zu more", reached - named);
            int n = snprintf(all + len, sizeof all - len, "%s station %u's %s reaches station%s %s",
                             len ? "," : "meanwhile", r->station + 1, k == 0 ? "frame" : "jam",
                             reached > 1 ? "s" : "", who);
            if (n > 0)
                len += (size_t)n < sizeof all - len ? (size_t)n : sizeof all - len - 1;
        }
    }
    if (len > 0)
        say(out, "%s", all);
}

int driver_step(tui_driver *d, char *err, size_t errlen)
{
    d->paused = true;
    mac_state *before = malloc((d->n ? d->n : 1) * sizeof *before);
    if (!before) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t s = 0; s < d->n; s++) {
        mac_station_view v;
        engine_station_view(d->e, s, &v);
        before[s] = v.state;
    }
    sim_time t0 = engine_now(d->e);
    uint64_t gen = d->engine_gen, events = 0;
    bool changed = false;
    d->n_step_ev = 0;
    d->stepping = true;
    while (!changed && events < STEP_MAX_EVENTS) {
        int64_t ran = run_to(d, SIM_TIME_NEVER, 1, err, errlen);
        if (ran < 0) {
            d->stepping = false;
            free(before);
            return -1;
        }
        if (d->engine_gen != gen)
            break; /* a new run began (the point was measured) */
        events += (uint64_t)ran;
        changed = d->n_step_ev > 0;
        for (uint32_t s = 0; s < d->n && !changed; s++) {
            mac_station_view v;
            engine_station_view(d->e, s, &v);
            changed = v.state != before[s];
        }
        if (ran == 0 && !changed)
            break; /* nothing left to run */
    }
    d->stepping = false;
    char msg[sizeof d->message], clock[48];
    text out = {msg, sizeof msg, 0, 0};
    if (d->engine_gen != gen) {
        set_message(d, "step: the point was measured; a new run with N = %u starts at t = 0",
                    d->n);
        free(before);
        return 0;
    }
    sim_time t1 = engine_now(d->e);
    double us = sim_time_to_s(t1) * 1e6;
    if (us < 1000)
        snprintf(clock, sizeof clock, "t = %.4f us", us);
    else if (us < 1e6)
        snprintf(clock, sizeof clock, "t = %.6f ms", us / 1e3);
    else
        snprintf(clock, sizeof clock, "t = %.9f s", us / 1e6);
    tell_events(d, before, t1, &out);
    tell_states(d, before, t1, &out);
    if (out.clauses == 0)
        say(&out, "nothing changes (%llu event%s run)", (unsigned long long)events,
            events == 1 ? "" : "s");
    tell_arrivals(d, t0, t1, &out);
    set_message(d, "%s: %s", clock, msg);
    free(before);
    return 0;
}
