/* eventlog.c - the CSV event log sink (eventlog.h).
 *
 * A busy run produces millions of events, so lines are formatted by hand
 * into a small buffer and written with one fwrite each: no printf parsing
 * per field. stdio's buffer (outfile.h sets 64 KiB) batches the writes.
 */
#include "eventlog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"

struct eventlog {
    outfile out;
    const scenario *groups; /* names the stations' groups, or NULL */
    const network *net;     /* names the segments (a network), or NULL */
    bool bridges;           /* the network has bridges: a column names them */
    uint64_t lines;
    int err; /* first errno seen, 0 while all is well */
};

static const char header[] =
    "time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes";

/* Appends the decimal digits of v at p; returns the new end. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0)
        *p++ = tmp[--n];
    return p;
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static void on_event(void *ctx, const trace_event *ev)
{
    eventlog *l = ctx;
    if (l->err != 0)
        return;
    char line[264]; /* the longest line, a group's, a segment's and a bridge's names included */
    char *p = line;
    if (ev->time < 0)
        *p++ = '-';
    p = put_u64(p, ev->time < 0 ? (uint64_t)0 - (uint64_t)ev->time : (uint64_t)ev->time);
    *p++ = ',';
    if (ev->station != TRACE_NO_STATION) /* a relay: no station sent it */
        p = put_u64(p, (uint64_t)ev->station + 1);
    *p++ = ',';
    p = put_str(p, trace_kind_name(ev->kind));
    *p++ = ',';
    p = put_u64(p, ev->attempt);
    *p++ = ',';
    p = put_u64(p, ev->kind == TRACE_BACKOFF ? ev->backoff_slots : 0);
    *p++ = ',';
    /* The frame as the trace names it: the engine's frame_id is sender <<
     * 40 | its number from 0 (trace.h). A relay of jam alone has none. */
    bool no_frame = (ev->kind == TRACE_RELAY_START || ev->kind == TRACE_RELAY_JAM ||
                     ev->kind == TRACE_RELAY_END) &&
                    ev->relay_from == TRACE_NO_STATION;
    if (!no_frame)
        p = put_u64(p, (ev->frame_id >> 40) + 1);
    *p++ = ',';
    if (!no_frame)
        p = put_u64(p, (ev->frame_id & ((UINT64_C(1) << 40) - 1)) + 1);
    *p++ = ',';
    p = put_u64(p, ev->frame_bytes);
    if (l->groups != NULL) {
        *p++ = ',';
        if (ev->station != TRACE_NO_STATION)
            p = put_str(p, scenario_group_at(l->groups, scenario_group_of(l->groups, ev->station))
                               ->name);
    }
    if (l->net != NULL) {
        *p++ = ',';
        if (ev->segment < l->net->n_segments)
            p = put_str(p, l->net->segments[ev->segment].name);
    }
    if (l->bridges) {
        *p++ = ',';
        if (ev->kind >= TRACE_BRIDGE_LEARN && ev->kind <= TRACE_BRIDGE_ABORT &&
            ev->bridge->bridge < l->net->n_bridges)
            p = put_str(p, l->net->bridges[ev->bridge->bridge].name);
    }
    *p++ = '\n';
    size_t len = (size_t)(p - line);
    errno = 0;
    if (fwrite(line, 1, len, l->out.f) != len) {
        l->err = errno ? errno : EIO;
        return;
    }
    l->lines++;
}

int eventlog_open(const char *path, const scenario *sc, eventlog **out, char *err,
                  size_t errlen)
{
    eventlog *l = calloc(1, sizeof *l);
    if (l == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
        return -1;
    }
    if (outfile_open(&l->out, path, err, errlen) != 0) {
        free(l);
        return -1;
    }
    l->groups = sc != NULL && sc->n_named ? sc : NULL;
    l->net = sc != NULL && sc->net.n_segments > 0 ? &sc->net : NULL;
    l->bridges = l->net != NULL && l->net->n_bridges > 0;
    errno = 0;
    if (fputs(header, l->out.f) == EOF || fputs(l->groups ? ",group" : "", l->out.f) == EOF ||
        fputs(l->net ? ",segment" : "", l->out.f) == EOF ||
        fputs(l->bridges ? ",bridge\n" : "\n", l->out.f) == EOF)
        l->err = errno ? errno : EIO;
    *out = l;
    return 0;
}

trace_sink eventlog_sink(eventlog *l) { return (trace_sink){.on_event = on_event, .ctx = l}; }

uint64_t eventlog_lines(const eventlog *l) { return l->lines; }

int eventlog_error(const eventlog *l) { return l->err; }
const outfile *eventlog_file(const eventlog *l) { return &l->out; }

int eventlog_close(eventlog *l, char *err, size_t errlen)
{
    int rc = 0;
    if (l->err != 0) {
        snprintf(err, errlen, "%s: %s", l->out.path, strerror(l->err));
        outfile_discard(&l->out);
        rc = -1;
    } else {
        rc = outfile_commit(&l->out, err, errlen);
    }
    free(l);
    return rc;
}

void eventlog_discard(eventlog *l)
{
    if (l == NULL)
        return;
    outfile_discard(&l->out);
    free(l);
}
