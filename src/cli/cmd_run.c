/* cmd_run.c - `csmacd run`: one scenario, its measures on standard output
 * (src/cli/CLI.md, "Outputs").
 *
 * Order of work, so that the exit statuses mean what they say:
 *   1. options and scenario (cli_parse, cli_finish) and the engine
 *      (engine_create: policy, capture replay): any problem is a usage or
 *      input error, exit 2, and no file has been touched yet;
 *   2. the output files are created (as temporaries, outfile.h): a path
 *      that cannot be written is a runtime error, exit 1, naming it;
 *   3. the run, in slices of RUN_SLICE_EVENTS events; between slices the
 *      signal flag is checked (SIGINT, SIGTERM) and a failed output stops
 *      the run early; then the series' intervals after the last event. The
 *      series' own guard (series_guard_fn) reads the flag and judges its
 *      growth every few thousand rows, since one event after a quiet spell,
 *      or the tail, can write millions of them;
 *   4. every output is written whole and renamed into place, also after a
 *      signal: then the measures cover the run so far, standard error says
 *      where it stopped, and the exit status is 130 or 143.
 * File outputs are trace sinks with open / sink / close / discard; a new
 * one (the pcap trace) is an option row, an open block and an entry in
 * `sinks`.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "eventlog.h"
#include "exit_status.h"
#include "medium.h"
#include "outfile.h"
#include "output.h"
#include "parse.h"
#include "pcap_sink.h"
#include "replay.h"
#include "series.h"

/* Events per slice: a few milliseconds of work even in a crowded
 * collision (where events are dearest), so a signal is answered at once
 * and the flag costs nothing. */
#define RUN_SLICE_EVENTS 20000

enum { OPT_FORMAT = 1, OPT_STATIONS_CSV, OPT_EVENTS, OPT_PCAP, OPT_PCAP_COLLISIONS,
       OPT_PCAP_FORMAT, OPT_PCAP_LINKTYPE, OPT_PCAP_EPOCH, OPT_PROBE_SEGMENT, OPT_SERIES, OPT_SERIES_INTERVAL,
       OPT_SERIES_MAX_ROWS, OPT_DURATION, OPT_PACE };

static const cli_option run_options[] = {
    {"format", CLI_ARG_REQUIRED, "text|json|csv", "how to print the measures (text)", OPT_FORMAT},
    {"stations-csv", CLI_ARG_REQUIRED, "FILE", "write per-station counters to FILE (CSV)",
     OPT_STATIONS_CSV},
    {"events", CLI_ARG_REQUIRED, "FILE", "write one CSV line per MAC event to FILE", OPT_EVENTS},
    {"pcap", CLI_ARG_REQUIRED, "FILE",
     "write what the probe saw to FILE, - for standard output (pcapng; classic pcap for a "
     "name ending in .pcap; see captures/README.md)", OPT_PCAP},
    {"pcap-format", CLI_ARG_REQUIRED, "pcapng|pcap",
     "the trace's format, whatever the file name (pcapng, or pcap for FILE.pcap)",
     OPT_PCAP_FORMAT},
    {"pcap-collisions", CLI_ARG_REQUIRED, "yes|no",
     "put collision fragments in the pcap trace too (yes)", OPT_PCAP_COLLISIONS},
    {"pcap-linktype", CLI_ARG_REQUIRED, "netanalyzer-transparent|netanalyzer|ethernet",
     "classic pcap only: netanalyzer-transparent (preamble and status: a collision reads as "
     "one in a plain Wireshark), netanalyzer (status) or ethernet (netanalyzer-transparent)",
     OPT_PCAP_LINKTYPE},
    {"pcap-epoch", CLI_ARG_REQUIRED, "DATE",
     "the date and time the run starts at in the trace: 2026-01-01T00:00:00Z, 2026-01-01 or "
     "seconds since 1970 (2000-01-01T00:00:00Z)",
     OPT_PCAP_EPOCH},
    {"probe-segment", CLI_ARG_REQUIRED, "NAME",
     "a network's trace from one segment's probe only: classic pcap holds one (the first "
     "segment), pcapng every segment's on its own interfaces unless this is given",
     OPT_PROBE_SEGMENT},
    {"series", CLI_ARG_REQUIRED, "FILE",
     "write a time series to FILE (CSV): throughput, attempts, backlog... per interval",
     OPT_SERIES},
    {"series-interval", CLI_ARG_REQUIRED, "TIME", "the series' interval (1ms; at least 1ns)",
     OPT_SERIES_INTERVAL},
    {"series-max-rows", CLI_ARG_REQUIRED, "N",
     "refuse a series of more rows than N (10000000)", OPT_SERIES_MAX_ROWS},
    {"pace", CLI_ARG_REQUIRED, "X",
     "run simulated time at X times the wall clock, for watching live: 1 = real time, "
     "0.001 = slow motion, 1e-6 to 1e12 (as fast as possible)",
     OPT_PACE},
    /* Shadows the scenario key: run alone may run without end. */
    {"duration", CLI_ARG_REQUIRED, "TIME|inf",
     "simulated time to run: 2s, 500ms, 10us, 1.5min (1s); inf runs until SIGINT or SIGTERM "
     "(with --pace only)",
     OPT_DURATION},
};

/* --pace's range: a microsecond of simulated time per second of the wall
 * clock at the slowest (ten bit times of 10 Mb/s; slower, a run of a
 * millisecond would take days), 10^12 times real time at the fastest. */
#define RUN_PACE_MIN 1e-6
#define RUN_PACE_MAX 1e12

typedef struct run_opts {
    output_format format;
    const char *stations_csv;
    const char *events;
    const char *pcap;
    bool pcap_collisions;
    bool pcap_collisions_set;
    pcap_sink_format pcap_format;
    bool pcap_format_set;
    bool pcap_linktype_set;
    bool pcap_epoch_set;
    const char *pcap_epoch; /* read once the container is known */
    const char *probe_segment; /* --probe-segment as given, NULL: not given */
    const char *series;
    sim_time series_interval; /* 0: not given */
    uint64_t series_max_rows; /* 0: not given */
    double pace;              /* simulated seconds per wall second, 0: not paced */
    const char *duration;     /* --duration as given, NULL: not given */
    bool capture;             /* for Wireshark (cmd_run_capture): no measures,
                                 a signal or a reader gone is the normal end */
} run_opts;

static int on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    run_opts *o = ctx;
    switch (id) {
    case OPT_FORMAT:
        if (output_format_parse(value, &o->format) != 0) {
            char q[64];
            snprintf(err, errlen, "unknown format '%s' (text, json, csv)",
                     parse_echo(value, q, sizeof q));
            return -1;
        }
        return 0;
    case OPT_PCAP_COLLISIONS:
        o->pcap_collisions_set = true;
        return parse_bool(value, &o->pcap_collisions, err, errlen);
    case OPT_PCAP_FORMAT:
        if (o->pcap_format_set) {
            snprintf(err, errlen, "given twice (one trace format)");
            return -1;
        }
        o->pcap_format_set = true;
        if (strcmp(value, "pcapng") == 0) {
            o->pcap_format.container = PCAP_SINK_PCAPNG;
        } else if (strcmp(value, "pcap") == 0) {
            o->pcap_format.container = PCAP_SINK_PCAP;
        } else {
            char q[64];
            snprintf(err, errlen, "unknown trace format '%s' (pcapng, pcap)",
                     parse_echo(value, q, sizeof q));
            return -1;
        }
        return 0;
    case OPT_PCAP_LINKTYPE:
        o->pcap_linktype_set = true;
        if (strcmp(value, "ethernet") == 0) {
            o->pcap_format.linktype = PCAP_SINK_ETHERNET;
        } else if (strcmp(value, "netanalyzer") == 0) {
            o->pcap_format.linktype = PCAP_SINK_NETANALYZER;
        } else if (strcmp(value, "netanalyzer-transparent") == 0) {
            o->pcap_format.linktype = PCAP_SINK_NETANALYZER_TRANSPARENT;
        } else {
            char q[64];
            snprintf(err, errlen,
                     "unknown link type '%s' (netanalyzer-transparent, netanalyzer, ethernet)",
                     parse_echo(value, q, sizeof q));
            return -1;
        }
        return 0;
    case OPT_PCAP_EPOCH:
        o->pcap_epoch_set = true;
        o->pcap_epoch = value;
        return 0;
    case OPT_SERIES_INTERVAL:
        if (parse_time_ps(value, &o->series_interval, err, errlen) != 0)
            return -1;
        if (o->series_interval <= 0) {
            snprintf(err, errlen, "the interval must be above 0");
            return -1;
        }
        return 0;
    case OPT_PACE: {
        /* parse_double refuses inf, nan and what is out of the range,
         * which it names. */
        double v;
        if (parse_double(value, RUN_PACE_MIN, RUN_PACE_MAX, &v, err, errlen) != 0) {
            size_t len = strlen(err);
            snprintf(err + len, errlen - len, ": 1 = real time, 0.001 = slow motion");
            return -1;
        }
        o->pace = v;
        return 0;
    }
    case OPT_DURATION:
        o->duration = value;
        return 0;
    case OPT_SERIES_MAX_ROWS:
        return parse_u64(value, 1, UINT64_MAX, &o->series_max_rows, err, errlen);
    case OPT_PROBE_SEGMENT:
        if (value[0] == '\0') {
            snprintf(err, errlen, "needs a segment's name");
            return -1;
        }
        if (o->probe_segment != NULL) {
            snprintf(err, errlen, "given twice (one segment's records, or every segment's "
                                  "without it)");
            return -1;
        }
        o->probe_segment = value;
        return 0;
    case OPT_PCAP:
    case OPT_STATIONS_CSV:
    case OPT_EVENTS:
    case OPT_SERIES:
        if (value[0] == '\0') {
            snprintf(err, errlen, "needs a file name");
            return -1;
        }
        if (id == OPT_PCAP && o->pcap != NULL) {
            snprintf(err, errlen, "given twice (one trace per run)");
            return -1;
        }
        if (id == OPT_SERIES)
            o->series = value;
        else if (id == OPT_PCAP)
            o->pcap = value;
        else if (id == OPT_EVENTS)
            o->events = value;
        else
            o->stations_csv = value;
        return 0;
    default:
        snprintf(err, errlen, "unhandled option");
        return -1;
    }
}

/* A file written by a trace sink during the run. */
typedef struct file_sink {
    void *obj;
    int (*close)(void *obj, char *err, size_t errlen);
    void (*discard)(void *obj);
} file_sink;

static int eventlog_close_fn(void *obj, char *err, size_t errlen)
{
    return eventlog_close(obj, err, errlen);
}

static void eventlog_discard_fn(void *obj) { eventlog_discard(obj); }

static int pcap_close_fn(void *obj, char *err, size_t errlen)
{
    return pcap_sink_close(obj, err, errlen);
}

static void pcap_discard_fn(void *obj) { pcap_sink_discard(obj); }

/* The time series: a series sink writing into an outfile; the rows up to
 * the end of the run are written when the run is over (series_finish). */
typedef struct series_file {
    outfile out;
    series *s;
} series_file;

static int series_close_fn(void *obj, char *err, size_t errlen)
{
    series_file *sf = obj;
    int rc = series_error(sf->s);
    series_destroy(sf->s);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", sf->out.path, strerror(rc));
        outfile_discard(&sf->out);
        return -1;
    }
    return outfile_commit(&sf->out, err, errlen);
}

static void series_discard_fn(void *obj)
{
    series_file *sf = obj;
    series_destroy(sf->s);
    outfile_discard(&sf->out);
}

/* Frames of a replayed capture that will not be offered are said once,
 * with why: "lan.pcap: 3 of 120 frames not replayed (3 over 1518 bytes)". */
static void warn_replay(const engine *e)
{
    const struct replay *rp = engine_replay(e);
    if (rp == NULL || replay_rejected(rp) == 0)
        return;
    replay_stats st;
    replay_get_stats(rp, &st);
    char why[256];
    int n = 0;
    why[0] = '\0';
    const struct { uint64_t count; const char *what; } parts[] = {
        {st.oversize, "over the maximum frame size"},
        {st.runt, "shorter than an Ethernet header"},
        {st.errored, "collision fragments or bad frames flagged by the capture"},
        {st.bad_fcs, "collision fragments without a valid FCS"},
        {st.undersize, "shorter than 64 octets"},
        {st.over_cap, "from sources beyond --pcap-max-stations"},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].count != 0 && n >= 0 && (size_t)n < sizeof why)
            n += snprintf(why + n, sizeof why - (size_t)n, "%s%llu %s", n ? ", " : "",
                          (unsigned long long)parts[i].count, parts[i].what);
    cli_warn("%s: %llu of %llu frames not replayed (%s)", engine_scenario(e)->pcap_path,
             (unsigned long long)replay_rejected(rp), (unsigned long long)st.frames_read, why);
}

/* Outputs that will be huge are said before they are: once the run has
 * reached 1/RUN_PILOT_FRACTION of its duration or written RUN_PILOT_BYTES
 * to a file, whichever comes first, each file's size is
 * extrapolated to the whole run (event rates barely change after the
 * start-up). Beyond RUN_WARN_BYTES: a warning with the figure; beyond the
 * room left on the file system: the run stops (exit 1, nothing kept). */
#define RUN_PILOT_FRACTION 1000
#define RUN_PILOT_BYTES (8ll << 20)
#define RUN_WARN_BYTES (1024.0 * 1024 * 1024)

static long long largest(const outfile *const *files, size_t n)
{
    long long m = 0;
    for (size_t i = 0; i < n; i++) {
        long long size = files[i] ? outfile_size(files[i]) : -1;
        if (size > m)
            m = size;
    }
    return m;
}

static int check_growth(const outfile *const *files, size_t n, sim_time now, sim_time duration,
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        long long size = files[i] ? outfile_size(files[i]) : -1;
        if (size <= 0 || now <= 0)
            continue;
        double total = (double)size * ((double)duration / (double)now);
        double per_s = (double)size / sim_time_to_s(now);
        long long room = outfile_room(files[i]);
        if (room >= 0 && total > (double)room) {
            snprintf(err, errlen,
                     "%s: about %.1f GB at %.0f MB per simulated second, more than the %.1f GB "
                     "free on its file system",
                     files[i]->path, total / 1e9, per_s / 1e6, (double)room / 1e9);
            return -1;
        }
        if (total > RUN_WARN_BYTES)
            cli_warn("%s: about %.1f GB at %.0f MB per simulated second", files[i]->path,
                     total / 1e9, per_s / 1e6);
    }
    return 0;
}

/* An endless run (--duration inf) has no whole to extrapolate: it watches
 * the disk instead. Every RUN_ROOM_CHECK_S of wall time, each file renamed
 * into place at the end is judged by how fast it grew since the last look:
 * once the room left on its file system is less than RUN_ROOM_RESERVE
 * plus RUN_ROOM_HORIZON_S of that growth, the run stops there as on a
 * signal (every output completed, covering the run so far), says why and
 * exits 1, before the disk is full. */
#define RUN_ROOM_CHECK_S 0.5
#define RUN_ROOM_HORIZON_S 10.0
#define RUN_ROOM_RESERVE (64.0 * 1024 * 1024)

static int check_room(const outfile *const *files, size_t n, long long *last, double dt,
                      char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        long long size = files[i] ? outfile_size(files[i]) : -1;
        long long room = files[i] ? outfile_room(files[i]) : -1;
        if (size < 0 || room < 0)
            continue;
        double per_s = dt > 0 && size > last[i] ? (double)(size - last[i]) / dt : 0;
        last[i] = size;
        if ((double)room < RUN_ROOM_RESERVE + per_s * RUN_ROOM_HORIZON_S) {
            snprintf(err, errlen,
                     "%s: %.0f MB written, at %.0f MB per second, with %.0f MB left free on "
                     "its file system",
                     files[i]->path, (double)size / 1e6, per_s / 1e6, (double)room / 1e6);
            return -1;
        }
    }
    return 0;
}

/* Outputs written in place (standard output, a pipe, a device) are
 * flushed this often while the run goes on; files renamed into place at
 * the end need not be. */
#define RUN_FLUSH_S 0.1

/* Returns whether an output written in place failed (a reader that left:
 * `--events - | head`): the error is kept (outfile_settle) and stops the
 * run, an endless one too. */
static bool flush_streams(pcap_sink *pcap, outfile *const *files, size_t n, bool *left)
{
    bool failed = false;
    /* A reader that left is noticed even when nothing is being written
     * (a slow pace, a quiet network): the run ends as a write would end it. */
    for (size_t i = 0; i < n; i++)
        if (files[i] != NULL && outfile_reader_gone(files[i])) {
            *left = true;
            failed = true;
        }
    if (pcap != NULL && pcap_sink_file(pcap)->tmp == NULL)
        failed |= pcap_sink_flush(pcap) != 0; /* an error is kept and stops the run */
    for (size_t i = 0; i < n; i++)
        if (files[i] != NULL && files[i]->f != NULL && files[i]->tmp == NULL &&
            (pcap == NULL || files[i] != pcap_sink_file(pcap))) {
            outfile_settle(files[i]);
            failed |= files[i]->error != 0;
        }
    return failed;
}

/* A paced run sleeps this long when it has caught up with the wall clock. */
#define RUN_PACE_TICK_S 0.01

static void sleep_s(double s)
{
    struct timespec ts = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL); /* a signal cuts it short: the loop looks at the flag */
}

/* The series' guard (series.h, "Bounds"): a signal halts it; so does a
 * file that will not fit, judged as the other outputs are, once it has
 * grown to RUN_PILOT_BYTES when the run loop has not judged it yet (a run
 * whose events end early writes its empty intervals after the loop). */
typedef struct series_guard {
    series_file *sf;
    sim_time duration;
    bool *estimated; /* the run loop's: the growth is judged once */
    bool failed;     /* it will not fit: err says why */
    char err[512];
} series_guard;

static int series_guard_fn(void *ctx)
{
    series_guard *g = ctx;
    if (cli_signal_caught() != 0)
        return 1;
    if (!*g->estimated && outfile_size(&g->sf->out) >= RUN_PILOT_BYTES) {
        *g->estimated = true;
        const outfile *f = &g->sf->out;
        if (check_growth(&f, 1, series_reached(g->sf->s), g->duration, g->err, sizeof g->err) !=
            0) {
            g->failed = true;
            return 1;
        }
    }
    return 0;
}

/* The last record's stamp, known once the stations are placed: a
 * transmission that starts by the end of the run reaches the probe up to
 * the longest station-to-probe delay later (pcap_sink.h, "Time stamps"),
 * which can carry it past 2038 when the duration alone does not. */
static int check_pcap_late(const engine *e, const pcap_sink_format *fmt)
{
    const scenario *sc = engine_scenario(e);
    sim_time late = 0;
    /* On a network, every segment's probe: its stations' and its relays'
     * taps (a relay starts by the end too). */
    uint32_t n_seg = engine_segment_count(e);
    for (uint32_t k = 0; k < (n_seg ? n_seg : 1); k++) {
        const medium *m = engine_segment_medium(e, k);
        uint32_t taps = n_seg ? medium_station_count(m) : sc->n_stations;
        for (uint32_t s = 0; s < taps; s++) {
            sim_time d = medium_probe_delay(m, s);
            if (d > late)
                late = d;
        }
    }
    /* (the derived times were checked: duration + delay fits the clock) */
    if (pcap_sink_fits_in(fmt->container, fmt->epoch_s, sc->duration + late))
        return 0;
    char from[32], last[32], dur[64], prop[64];
    parse_format_date(fmt->epoch_s, from, sizeof from);
    parse_format_date(pcap_sink_max_seconds(fmt->container), last, sizeof last);
    scenario_duration_text(sc, dur, sizeof dur);
    parse_format_time(late, prop, sizeof prop);
    cli_error("--pcap-epoch: a run of %s from %s, whose last frames reach the probe up to %s "
              "later (the propagation delay), would end after %s, beyond %s",
              dur, from, prop, last,
              fmt->container == PCAP_SINK_PCAPNG ? "pcapng's 64-bit nanoseconds"
                                                 : "pcap's 32-bit seconds");
    return -1;
}

static double wall_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The trace's format against the scenario, before any file is touched:
 * the link type must carry the PHY's records, and the whole run must fit
 * pcap's 32-bit seconds after the epoch. Prints the error; returns -1. */
static int check_pcap_format(const scenario *sc, const pcap_sink_format *fmt)
{
    char why[400];
    if (pcap_sink_check_format(&sc->phy, fmt, why, sizeof why) != 0) {
        cli_error("%s: %s",
                  fmt->container == PCAP_SINK_PCAPNG ? "--pcap-format" : "--pcap-linktype", why);
        return -1;
    }
    /* pcapng stamps are 64-bit nanoseconds: no 2038 limit, but 2554. */
    if (!pcap_sink_fits_in(fmt->container, fmt->epoch_s, sc->duration)) {
        char from[32], last[32], dur[64];
        parse_format_date(fmt->epoch_s, from, sizeof from);
        parse_format_date(pcap_sink_max_seconds(fmt->container), last, sizeof last);
        scenario_duration_text(sc, dur, sizeof dur);
        cli_error("--pcap-epoch: a run of %s from %s would end after %s, beyond %s", dur, from,
                  last,
                  fmt->container == PCAP_SINK_PCAPNG ? "pcapng's 64-bit nanoseconds"
                                                     : "pcap's 32-bit seconds");
        return -1;
    }
    return 0;
}

/* The pcapng trace's texts: the scenario the run made, seed included;
 * and where the probe sits, for the interfaces' descriptions. Nothing of
 * the machine, the wall clock or the output's name: reruns stay
 * byte-identical, to a file or to standard output. */
static void describe_trace(const scenario *sc, bool endless, pcap_sink_text *text,
                           pcap_sink_format *fmt)
{
    char dur[64];
    if (endless)
        snprintf(dur, sizeof dur, "until stopped");
    else
        parse_format_time(sc->duration, dur, sizeof dur);
    pcap_sink_describe_run(sc, dur, text, fmt);
}

/* --probe-segment against the (finished) scenario: a trace's option, for
 * a network, naming one of its segments. Sets the format's segment.
 * Prints the error; returns -1. */
static int choose_probe_segment(const scenario *sc, run_opts *o)
{
    o->pcap_format.probe_segment = 0;
    o->pcap_format.probe_segment_only = false;
    if (o->probe_segment == NULL)
        return 0;
    char q[64];
    parse_echo(o->probe_segment, q, sizeof q);
    if (o->pcap == NULL) {
        cli_error("--probe-segment: needs --pcap FILE");
        return -1;
    }
    if (sc->net.n_segments == 0) {
        cli_error("--probe-segment: '%s': the scenario has no segments (no [segment] "
                  "sections: its one medium has one probe)",
                  q);
        return -1;
    }
    uint32_t k = network_segment_find(&sc->net, o->probe_segment);
    if (k == UINT32_MAX) {
        char names[600] = "";
        size_t n = 0;
        for (uint32_t i = 0; i < sc->net.n_segments && n < sizeof names; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                                  sc->net.segments[i].name);
        cli_error("--probe-segment: no segment '%s' in the scenario (%s)", q, names);
        return -1;
    }
    o->pcap_format.probe_segment = k;
    o->pcap_format.probe_segment_only = true;
    return 0;
}

/* Whether a sink's message is a write to a reader that left. */
static bool broken_pipe(const char *msg)
{
    const char *why = strerror(EPIPE);
    size_t n = strlen(msg), w = strlen(why);
    return n >= w && strcmp(msg + n - w, why) == 0;
}

/* A reader that left an output (a pipe's, EPIPE) ends the program with
 * the conventional 141 and no message, whatever the output
 * (exit_status.h); a failure already said keeps its status. */
static void reader_left(int *status)
{
    if (*status == EXIT_STATUS_OK)
        *status = EXIT_STATUS_SIGPIPE;
}

static int run_main(int argc, char **argv, bool capture);

int cmd_run_main(int argc, char **argv) { return run_main(argc, argv, false); }

int cmd_run_capture(int argc, char **argv) { return run_main(argc, argv, true); }

const cli_option *cmd_run_options(size_t *n)
{
    *n = sizeof run_options / sizeof run_options[0];
    return run_options;
}

static int run_main(int argc, char **argv, bool capture)
{
    run_opts opts = {.format = OUTPUT_TEXT, .pcap_collisions = true,
                     .pcap_format = pcap_sink_default_format(), .capture = capture};
    const char *scenario_file = NULL;
    char preset_point[640] = "";
    const cli_command cmd = {
        .name = "run",
        .summary = "Runs one scenario and prints its measures: throughput, offered load, "
                   "collisions,\ndelay, fairness and capture, and per-station counters "
                   "with their IEEE 802.3\nClause 30 names. A measure that does not apply (a delay "
                   "when no frame was sent)\nis null in JSON, empty in CSV and - in text, "
                   "never 0.",
        .options = run_options,
        .n_options = sizeof run_options / sizeof run_options[0],
        .scenario_options = true,
        .on_option = on_option,
        .ctx = &opts,
        .scenario_file = &scenario_file,
        .preset_point = preset_point,
        .preset_point_len = sizeof preset_point,
        .presets = &cli_preset_layer,
    };
    char err[1024];
    scenario sc;
    scenario_defaults(&sc);

    /* 1. Input: exit 2, nothing written. */
    cli_status st = cli_parse(&cmd, argc, argv, &sc, err, sizeof err);
    if (st != CLI_OK) {
        scenario_free(&sc);
        return cli_parse_exit(st, err);
    }
    /* Which point of a preset this is; not to Wireshark, for which
     * standard error is an error. */
    if (preset_point[0] != '\0' && !capture)
        cli_note("%s", preset_point);
    /* --duration comes last, as if it were the last scenario option. */
    bool endless = opts.duration != NULL && strcmp(opts.duration, "inf") == 0;
    if (endless) {
        if (opts.pace <= 0) {
            cli_error("--duration: inf needs --pace X (an unpaced run must end)");
            scenario_free(&sc);
            return EXIT_STATUS_USAGE;
        }
        sc.duration = PARSE_MAX_TIME_PS;
        sc.endless = true;
    } else if (opts.duration != NULL &&
               scenario_set(&sc, "duration", opts.duration, err, sizeof err) != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    /* No output may be another output or an input (after links and "./"). */
    const outfile_role outs[] = {{"--events", opts.events}, {"--stations-csv", opts.stations_csv},
                                 {"--pcap", opts.pcap}, {"--series", opts.series}};
    const outfile_role ins[] = {
        {"the scenario file", scenario_file},
        {"the replayed capture", sc.traffic.kind == TRAFFIC_PCAP ? sc.pcap_path : NULL}};
    if (outfile_conflicts(outs, 4, ins, 2, err, sizeof err) != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    /* An output on standard output (-) carries nothing else: the measures
     * then go to standard error. */
    FILE *report = stdout;
    for (size_t i = 0; i < 4; i++)
        if (outs[i].path != NULL && outfile_is_stdout(outs[i].path))
            report = stderr;
    /* ... where an output on standard error would be mixed with them. */
    for (size_t i = 0; i < 4 && report == stderr && !opts.capture; i++)
        if (outs[i].path != NULL && !outfile_is_stdout(outs[i].path) &&
            outfile_is_stderr(outs[i].path)) {
            cli_error("%s: conflicting options: it writes standard error, where the measures "
                      "go when an output is on standard output",
                      outs[i].what);
            scenario_free(&sc);
            return EXIT_STATUS_USAGE;
        }
    if (opts.series_interval > 0 && opts.series == NULL) {
        cli_error("--series-interval: needs --series FILE");
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if ((opts.pcap_collisions_set || opts.pcap_linktype_set || opts.pcap_epoch_set ||
         opts.pcap_format_set) &&
        opts.pcap == NULL) {
        cli_error("%s: needs --pcap FILE", opts.pcap_collisions_set ? "--pcap-collisions"
                                           : opts.pcap_linktype_set ? "--pcap-linktype"
                                           : opts.pcap_format_set   ? "--pcap-format"
                                                                    : "--pcap-epoch");
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (opts.pcap != NULL && !opts.pcap_format_set)
        opts.pcap_format.container = pcap_sink_container_for_path(opts.pcap);
    if (opts.pcap_linktype_set && opts.pcap_format.container == PCAP_SINK_PCAPNG) {
        cli_error("--pcap-linktype: applies to classic pcap only (--pcap-format pcap, or a "
                  "name ending in .pcap): pcapng puts whole frames on an Ethernet interface "
                  "and fragments on a netANALYZER transparent one");
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    /* The epoch's range is the container's: pcap's 32-bit seconds end in
     * 2038, pcapng's 64-bit nanoseconds in 2554. */
    if (opts.pcap_epoch != NULL &&
        parse_date_s(opts.pcap_epoch, pcap_sink_max_seconds(opts.pcap_format.container),
                     &opts.pcap_format.epoch_s, err, sizeof err) != 0) {
        cli_error("--pcap-epoch: %s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (opts.series_max_rows > 0 && opts.series == NULL) {
        cli_error("--series-max-rows: needs --series FILE");
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (cli_finish(&sc, err, sizeof err) != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (opts.pcap != NULL && check_pcap_format(&sc, &opts.pcap_format) != 0) {
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (choose_probe_segment(&sc, &opts) != 0) {
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    if (opts.series_interval <= 0)
        opts.series_interval = SIM_PS_PER_S / 1000;
    if (opts.series != NULL &&
        scenario_check_series(&sc, opts.series_interval,
                              opts.series_max_rows ? opts.series_max_rows
                                                   : SCENARIO_SERIES_MAX_ROWS,
                              err, sizeof err) != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    engine *e = NULL;
    int created = engine_create(&sc, &e, err, sizeof err);
    if (created != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return created == ENGINE_NO_MEMORY ? EXIT_STATUS_RUNTIME : EXIT_STATUS_USAGE;
    }
    if (opts.pcap != NULL && check_pcap_late(e, &opts.pcap_format) != 0) {
        engine_destroy(e);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    warn_replay(e);

    /* 2. Output files: exit 1 naming the path. The signal handlers come
     * first: a signal while the temporaries are being created must not
     * kill the program and leave them behind. */
    file_sink sinks[4];
    size_t n_sinks = 0;
    series_file series_out = {0};
    bool estimated = endless; /* an endless run watches the disk instead */
    series_guard guard = {.sf = &series_out, .duration = sc.duration, .estimated = &estimated};
    outfile stations = {0};
    int status = EXIT_STATUS_OK;
    eventlog *log = NULL;
    if (cli_signals_install() != 0) {
        snprintf(err, sizeof err, "signal handlers: %s", strerror(errno));
        goto open_failed;
    }
    if (opts.events != NULL) {
        if (eventlog_open(opts.events, engine_scenario(e), &log, err, sizeof err) != 0)
            goto open_failed;
        sinks[n_sinks++] = (file_sink){log, eventlog_close_fn, eventlog_discard_fn};
        if (engine_add_sink(e, eventlog_sink(log)) != 0) {
            snprintf(err, sizeof err, "%s: cannot attach the event log", opts.events);
            goto open_failed;
        }
    }
    pcap_sink *pcap = NULL;
    pcap_sink_text trace_text;
    if (opts.pcap != NULL) {
        pcap_sink_options po = {.collisions = opts.pcap_collisions};
        describe_trace(engine_scenario(e), endless, &trace_text, &opts.pcap_format);
        if (pcap_sink_open_format(opts.pcap, &engine_scenario(e)->phy, &po, &opts.pcap_format,
                                  &pcap, err, sizeof err) != 0)
            goto open_failed;
        sinks[n_sinks++] = (file_sink){pcap, pcap_close_fn, pcap_discard_fn};
        if (engine_add_sink(e, pcap_sink_trace(pcap)) != 0) {
            snprintf(err, sizeof err, "%s: cannot attach the pcap trace", opts.pcap);
            goto open_failed;
        }
    }
    if (opts.stations_csv != NULL && outfile_open(&stations, opts.stations_csv, err, sizeof err) != 0)
        goto open_failed;
    if (opts.series != NULL) {
        if (outfile_open(&series_out.out, opts.series, err, sizeof err) != 0)
            goto open_failed;
        sim_time iv = opts.series_interval;
        if (series_create(series_out.out.f, iv, engine_scenario(e)->phy.rate_bps,
                          engine_judge_ps(e), &series_out.s) != 0) {
            outfile_discard(&series_out.out);
            snprintf(err, sizeof err, "%s: %s", opts.series, strerror(ENOMEM));
            goto open_failed;
        }
        series_set_guard(series_out.s, series_guard_fn, &guard);
        sinks[n_sinks++] = (file_sink){&series_out, series_close_fn, series_discard_fn};
        if (engine_add_sink(e, series_sink(series_out.s)) != 0) {
            snprintf(err, sizeof err, "%s: cannot attach the series", opts.series);
            goto open_failed;
        }
    }

    if (engine_start(e, err, sizeof err) != 0)
        goto open_failed;

    /* 3. The run, with a look at the files' growth early on. */
    /* (the outputs are this function's: flush_streams may keep an error) */
    outfile *growing[3] = {log ? (outfile *)eventlog_file(log) : NULL,
                           pcap ? (outfile *)pcap_sink_file(pcap) : NULL,
                           series_out.s ? &series_out.out : NULL};
    const outfile *const *judged = (const outfile *const *)growing;
    double t0 = wall_now_s();
    engine_status ran = ENGINE_RUNNING;
    double flushed = t0, roomed = t0;
    long long room_last[3] = {0, 0, 0};
    bool disk_stop = false; /* an endless run stopped for the disk */
    bool left = false;      /* an output's reader left (flush_streams) */
    char disk_why[1024] = "";
    uint64_t slice = 0;
    while (cli_signal_caught() == 0 && (log == NULL || eventlog_error(log) == 0) &&
           (pcap == NULL || pcap_sink_error(pcap) == 0) &&
           (series_out.s == NULL || (series_error(series_out.s) == 0 && !guard.failed))) {
        /* Pacing: the engine reads no clock, so it is run up to the
         * simulated time the wall clock has reached, then the program
         * sleeps a tick; simulated time never runs ahead of the pace. */
        sim_time until = sc.duration;
        if (opts.pace > 0) {
            double target_ps = (wall_now_s() - t0) * opts.pace * (double)SIM_PS_PER_S;
            if (target_ps < (double)sc.duration)
                until = (sim_time)target_ps;
            if (engine_now(e) >= until && until < sc.duration) {
                if (flush_streams(pcap, growing, 3, &left))
                    break;
                double now = wall_now_s();
                if (endless && now - roomed >= RUN_ROOM_CHECK_S) {
                    disk_stop = check_room(judged, 3, room_last, now - roomed, disk_why,
                                           sizeof disk_why) != 0;
                    roomed = now;
                    if (disk_stop)
                        break;
                }
                sleep_s(RUN_PACE_TICK_S);
                continue;
            }
        }
        slice = engine_slice_events(e, slice, RUN_SLICE_EVENTS);
        if ((ran = engine_run(e, until, slice)) != ENGINE_RUNNING)
            break;
        /* A reader at the other end of a pipe (`--pcap - | tshark -r -`)
         * sees the trace at most RUN_FLUSH_S late. */
        double now = wall_now_s();
        if (now - flushed >= RUN_FLUSH_S) {
            flushed = now;
            if (flush_streams(pcap, growing, 3, &left))
                break;
        }
        if (endless && now - roomed >= RUN_ROOM_CHECK_S) {
            disk_stop = check_room(judged, 3, room_last, now - roomed, disk_why,
                                   sizeof disk_why) != 0;
            roomed = now;
            if (disk_stop)
                break;
        }
        if (!estimated && !endless &&
            (engine_now(e) >= sc.duration / RUN_PILOT_FRACTION ||
             largest(judged, 3) >= RUN_PILOT_BYTES)) {
            estimated = true;
            if (check_growth(judged, 3, engine_now(e), sc.duration, err, sizeof err) != 0)
                goto open_failed;
        }
    }
    /* The series' intervals after the last event, under its guard. */
    if (series_out.s != NULL && ran != ENGINE_OUT_OF_MEMORY && !guard.failed)
        series_finish(series_out.s, engine_now(e)); /* a failure is reported at close */
    if (guard.failed) {
        snprintf(err, sizeof err, "%s", guard.err);
        goto open_failed;
    }
    double wall_s = wall_now_s() - t0;
    int sig = cli_signal_caught();
    if (ran == ENGINE_OUT_OF_MEMORY) {
        char at[32];
        parse_format_time(engine_now(e), at, sizeof at);
        snprintf(err, sizeof err, "out of memory at %s of simulated time (%u stations)", at,
                 sc.n_stations);
        goto open_failed;
    }

    /* The series halted by the signal short of the run's end. */
    double series_cut = series_out.s != NULL && series_halted(series_out.s)
                            ? sim_time_to_s(series_reached(series_out.s))
                            : -1;
    /* 4. Outputs, whole, also after a signal. */
    results r;
    engine_results(e, &r);
    output_run run = {.sc = engine_scenario(e), .r = &r, .wall_s = wall_s,
                      .interrupted = sig != 0, .replay = engine_replay(e) != NULL,
                      .replay_rejected = engine_replay(e) ? replay_rejected(engine_replay(e)) : 0};
    errno = 0;
    if (!opts.capture &&
        (output_write(report, opts.format, &run) != 0 || fflush(report) != 0 || ferror(report))) {
        /* A reader that left (`| head`) is the conventional silent 141;
         * the files below are still completed. */
        if (errno == EPIPE) {
            status = EXIT_STATUS_SIGPIPE;
        } else {
            cli_error("%s: %s", report == stdout ? "standard output" : "standard error",
                      strerror(errno ? errno : EIO));
            status = EXIT_STATUS_RUNTIME;
        }
    }
    if (stations.f != NULL) {
        errno = 0;
        if (output_write_stations_csv(stations.f, &r) != 0) {
            int why = errno ? errno : EIO;
            outfile_discard(&stations);
            if (why == EPIPE) {
                reader_left(&status);
            } else {
                cli_error("%s: %s", opts.stations_csv, strerror(why));
                status = EXIT_STATUS_RUNTIME;
            }
        } else if (outfile_commit(&stations, err, sizeof err) != 0) {
            if (broken_pipe(err)) {
                reader_left(&status);
            } else {
                cli_error("%s", err);
                status = EXIT_STATUS_RUNTIME;
            }
        }
    }
    for (size_t i = 0; i < n_sinks; i++)
        if (sinks[i].close(sinks[i].obj, err, sizeof err) != 0) {
            /* An output's reader left: Wireshark stopped the capture (the
             * normal end), or `--events - | head` (the silent 141). */
            if (broken_pipe(err)) {
                if (!(opts.capture && sinks[i].obj == pcap))
                    reader_left(&status);
                continue;
            }
            cli_error("%s", err);
            status = EXIT_STATUS_RUNTIME;
        }
    engine_destroy(e);
    scenario_free(&sc);
    if (left && !opts.capture)
        reader_left(&status);
    if (disk_stop) {
        cli_error("%s: stopped at %.6f s of simulated time (the outputs cover the run so far)",
                  disk_why, r.sim_time_s);
        return EXIT_STATUS_RUNTIME;
    }
    if (sig != 0 && opts.capture)
        return status; /* stopping the capture is how it ends */
    if (sig != 0 && series_cut >= 0) {
        cli_error("interrupted at %.6f s of simulated time (%s: rows up to %.6f s)",
                  r.sim_time_s, opts.series, series_cut);
        if (status == EXIT_STATUS_OK)
            status = cli_signal_exit_status(sig);
    } else if (sig != 0) {
        cli_error("interrupted at %.6f s of simulated time", r.sim_time_s);
        if (status == EXIT_STATUS_OK)
            status = cli_signal_exit_status(sig);
    }
    return status;

open_failed:
    cli_error("%s", err);
    for (size_t i = 0; i < n_sinks; i++)
        sinks[i].discard(sinks[i].obj);
    outfile_discard(&stations);
    engine_destroy(e);
    scenario_free(&sc);
    return EXIT_STATUS_RUNTIME;
}
