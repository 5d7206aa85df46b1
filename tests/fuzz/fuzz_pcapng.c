/* fuzz_pcapng.c - libFuzzer harness for the trace writer (pcap_sink.h,
 * pcapng.h): random scenarios run with a trace, the file read back by the
 * project's own readers, every record accounted for.
 *
 * The first 14 input octets choose the run: the container (pcapng or
 * classic pcap), the classic link type, whether collision fragments are
 * written, the epoch (the default, 1970, or up to 15 s before pcap's last
 * second, 2038-01-19), the PHY, stations (1-32, or unset for groups),
 * traffic, load, frame size, policy, duration (1 us - 4 ms) and seed. The
 * rest is lines,
 * "key=value" given to scenario_set or "group NAME KEY=VALUE ..." given to
 * scenario_group_spec (a refused line is skipped): groups, positions, PHY
 * overrides such as min-frame or jam-bits. A scenario
 * scenario_finish refuses, or that the format cannot carry (as
 * `csmacd run` checks: pcap_sink_check_format, the epoch plus the run and
 * its propagation must fit 32-bit seconds), is not run. Otherwise the
 * engine runs (at most 4000 events) with the trace sink and a counting
 * sink of this file, and then:
 *   - the trace closes without error;
 *   - read back (pcapng: pcapng_read.h; classic: libpcap, which replay.c
 *     uses), the file holds exactly one record per transmission that ended
 *     (TRACE_TX_END of a frame), fragments left out when asked: the same
 *     multiset of (time stamp, interface, length) as computed here from
 *     the events: the stamp is the epoch plus probe_start rounded down to
 *     the nanosecond; a whole frame is its frame_bytes long, a fragment
 *     (min(data bits, frame bits) + jam bits) / 8 octets, after the link
 *     type's header (netANALYZER: 4 octets, transparent: plus the
 *     preamble); in pcapng whole frames of 64 octets or more are on the
 *     Ethernet interface, the rest on the netANALYZER transparent one;
 *   - records are in time order, whole frames carry a right FCS, the
 *     netANALYZER header gives the record's length, fragments never do;
 *   - the capture replays (replay.h) when it holds a whole frame, with
 *     every whole frame loaded, and is otherwise refused with a message
 *     naming it. In pcapng and the netANALYZER types every fragment is
 *     flagged in error, so exactly the whole frames load, and every source
 *     is a station's address (02:00:00:00:00:01 ...). Classic Ethernet
 *     flags nothing: the replay takes a fragment it cannot tell from a
 *     frame captured without its FCS as a frame, and one whose jam began
 *     inside the source address (fewer than 12 octets of the frame, 14 or
 *     more with the jam: at 1 Gb/s, 10 octets and a 32-bit jam) names a
 *     source that is no station's (02:00:00:00:c5:06: the jam's first
 *     octets); there, at most one source per such fragment is not a
 *     station's.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_pcapng -runs=300 build/tests/fuzz-pcapng-corpus tests/fuzz/corpus-pcapng
 * Long run: tests/fuzz/run.sh 30m pcapng (tests/fuzz/README.md).
 */
#define _GNU_SOURCE
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "ethframe.h"
#include "fuzz_common.h"
#include "medium.h"
#include "pcap_sink.h"
#include "pcapng.h"
#include "pcapng_read.h"
#include "replay.h"
#include "scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD 14
#define RUN_EVENTS 4000
#define NA_HEADER 4

static char dir[64];
static char trace_path[96];

static void cleanup(void)
{
    unlink(trace_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/fuzz-pcapng-XXXXXX");
    if (mkdtemp(dir) == NULL)
        abort();
    snprintf(trace_path, sizeof trace_path, "%s/trace", dir);
    atexit(cleanup);
    return 0;
}

/* A record as expected or as read. */
typedef struct rec {
    int64_t t_ns;
    uint32_t iface; /* pcapng: 0 frames, 1 fragments; classic: 0 */
    uint32_t len;
} rec;

typedef struct counter {
    rec *recs;
    size_t n, cap;
    uint64_t whole;      /* whole frames of 64 octets or more, up to max-frame */
    uint64_t cut_sources; /* fragments the replay can read whose source address
                             the jam overwrote (in part or whole) */
    int64_t epoch_ns;
    bool collisions, ng;
    uint32_t link_bytes; /* classic: the header before each record */
    phy_params phy;
    bool failed;         /* out of memory */
} counter;

static void count_event(void *ctx, const trace_event *ev)
{
    counter *c = ctx;
    if (ev->kind != TRACE_TX_END || ev->tx_kind != TRACE_TX_FRAME)
        return;
    bool collided = ev->jam_start != SIM_TIME_NEVER;
    if (collided && !c->collisions)
        return;
    uint32_t fb = ev->frame_bytes;
    uint32_t len = fb;
    if (collided) {
        uint64_t overhead = (uint64_t)c->phy.preamble_bits + c->phy.jam_bits;
        uint64_t data_bits = ev->bits_on_wire > overhead ? ev->bits_on_wire - overhead : 0;
        uint64_t frame_bits = (uint64_t)fb * 8;
        uint64_t kept = data_bits < frame_bits ? data_bits : frame_bits;
        len = (uint32_t)((kept + c->phy.jam_bits) / 8);
        /* The replay reads a source from 14 octets on (an Ethernet header). */
        if (kept / 8 < 2 * ETHFRAME_ADDR_BYTES && len >= ETHFRAME_HEADER_BYTES)
            c->cut_sources++;
    }
    bool short_record = collided || fb < 64;
    rec r = {.t_ns = c->epoch_ns + ev->probe_start / SIM_PS_PER_NS};
    if (c->ng) {
        r.iface = short_record ? 1 : 0;
        r.len = len + (short_record ? NA_HEADER + c->phy.preamble_bits / 8 : 0);
    } else {
        r.len = len + c->link_bytes;
    }
    if (!collided && fb >= 64)
        c->whole++;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        rec *p = realloc(c->recs, cap * sizeof *p);
        if (p == NULL) {
            c->failed = true;
            return;
        }
        c->recs = p;
        c->cap = cap;
    }
    c->recs[c->n++] = r;
}

static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->t_ns != y->t_ns)
        return x->t_ns < y->t_ns ? -1 : 1;
    if (x->iface != y->iface)
        return x->iface < y->iface ? -1 : 1;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* The netANALYZER status header of a record of caplen octets. */
static void check_na_header(const uint8_t *d, uint32_t caplen, bool transparent, uint32_t pre)
{
    if (caplen < NA_HEADER)
        abort();
    uint32_t h = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
    if (((h >> 16) & 0xfff) != caplen - NA_HEADER || ((h >> 10) & 0xf) != 1)
        abort();
    if (((h >> 9) & 1) != (transparent ? 1u : 0u))
        abort();
    if (transparent) {
        if (caplen < NA_HEADER + pre || pre == 0)
            abort();
        for (uint32_t i = 0; i + 1 < pre; i++)
            if (d[NA_HEADER + i] != 0x55)
                abort();
        if (d[NA_HEADER + pre - 1] != 0xd5)
            abort();
    }
}

/* Reads the pcapng trace back into got[]; checks each record. */
static size_t read_pcapng(FILE *f, const counter *c, rec *got, size_t max)
{
    pcapng_reader *r = NULL;
    char err[256];
    if (pcapng_read_open(f, &r, err, sizeof err) != 0)
        abort();
    size_t n = 0;
    int64_t last = INT64_MIN;
    pcapng_record pr;
    int rc;
    while ((rc = pcapng_read_next(r, &pr, err, sizeof err)) == 1) {
        if (n == max || pr.caplen != pr.len || pr.t_ns < last)
            abort();
        last = pr.t_ns;
        bool frag = pr.linktype == PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT;
        if (!frag && pr.linktype != PCAPNG_LINKTYPE_ETHERNET)
            abort();
        if (frag) {
            uint32_t pre = c->phy.preamble_bits / 8;
            check_na_header(pr.data, pr.caplen, true, pre);
            /* A short whole frame keeps its FCS; a fragment never has one. */
            if (pr.len < NA_HEADER + pre + 64 && !(pr.flags & PCAPNG_EPB_TOO_SHORT))
                abort();
        } else if (pr.fcs_bytes != 4 || pr.len < 64 || !ethframe_fcs_ok(pr.data, pr.len)) {
            abort();
        }
        got[n++] = (rec){.t_ns = pr.t_ns, .iface = frag ? 1 : 0, .len = pr.len};
    }
    if (rc != 0)
        abort();
    pcapng_read_close(r);
    return n;
}

/* The same with libpcap for the classic file. */
static size_t read_pcap(FILE *f, const counter *c, pcap_sink_linktype lt, rec *got, size_t max)
{
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (p == NULL)
        abort();
    int dlt = pcap_datalink(p);
    if (dlt != (lt == PCAP_SINK_ETHERNET ? DLT_EN10MB
                : lt == PCAP_SINK_NETANALYZER ? DLT_NETANALYZER
                                              : DLT_NETANALYZER_TRANSPARENT))
        abort();
    size_t n = 0;
    int64_t last = INT64_MIN;
    struct pcap_pkthdr *h;
    const u_char *d;
    int rc;
    while ((rc = pcap_next_ex(p, &h, &d)) == 1) {
        int64_t t = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec;
        if (n == max || h->caplen != h->len || t < last)
            abort();
        last = t;
        if (lt != PCAP_SINK_ETHERNET)
            check_na_header(d, h->caplen, lt == PCAP_SINK_NETANALYZER_TRANSPARENT,
                            c->phy.preamble_bits / 8);
        got[n++] = (rec){.t_ns = t, .iface = 0, .len = h->caplen};
    }
    if (rc != PCAP_ERROR_BREAK)
        abort();
    pcap_close(p); /* closes f */
    return n;
}

static void check_replay(const counter *c, const scenario *sc)
{
    FILE *f = fopen(trace_path, "rb");
    if (f == NULL)
        abort();
    replay_options opt = {1.0, 0};
    replay *r = NULL;
    char err[512];
    int rc = replay_load_stream(f, "trace", &opt, 64, 65535, &r, err, sizeof err);
    if (rc == REPLAY_NO_MEMORY)
        return;
    if (c->whole > 0 && rc != 0)
        abort(); /* a whole frame of csmacd's own is always replayable */
    if (rc != 0) {
        if (strncmp(err, "trace: ", 7) != 0 || err[7] == '\0')
            abort();
        return;
    }
    replay_stats st;
    replay_get_stats(r, &st);
    /* Fragments and frames under 64 octets are flagged in error (pcapng's
     * epb_flags, the netANALYZER status) and skipped, even a fragment whose
     * octets read as a right frame. In classic Ethernet nothing is
     * flagged: a fragment replays as a frame that lacks its FCS (always
     * when the trace holds no right FCS at all, else when 64 octets or
     * more), and one cut inside its source address names a source that
     * is no station's (the contract above). */
    bool flagged = c->ng || c->link_bytes > 0;
    uint64_t foreign = 0; /* sources that are no station's address */
    for (uint32_t i = 0; i < replay_station_count(r); i++) {
        const uint8_t *a = replay_station_addr(r, i);
        uint32_t nn = (uint32_t)a[3] << 16 | (uint32_t)a[4] << 8 | a[5];
        uint8_t want[ETHFRAME_ADDR_BYTES];
        ethframe_station_addr(nn - 1, want);
        foreign += nn == 0 || nn > sc->n_stations || memcmp(a, want, sizeof want) != 0;
    }
    if (st.frames_loaded < c->whole || (flagged && st.frames_loaded != c->whole) ||
        st.frames_read < st.frames_loaded || foreign > (flagged ? 0 : c->cut_sources))
        abort();
    replay_destroy(r);
}

/* Picks from a table with one octet. */
#define PICK(table, octet) (table[(octet) % (sizeof table / sizeof table[0])])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const phys[] = {"10base5", "10base2", "10baset", "100basetx", "1000baset"};
    static const char *const traffic[] = {"saturated", "poisson", "batch", "onoff"};
    static const char *const sizes[] = {"64", "512", "1518", "64-1518", "100-200", "65"};
    static const char *const policies[] = {"beb", "none", "fixed:wait=4", "linear", "expo",
                                           "full-jitter", "decorrelated", "beb:limit=3"};
    if (size < HEAD)
        return 0;
    scenario sc;
    scenario_defaults(&sc);
    char err[1024] = "", warn[1024], value[64];
    uint8_t mode = data[0];
    bool ng = mode & 1;
    pcap_sink_linktype lt = (pcap_sink_linktype)((mode >> 1) % 3);
    bool collisions = !(mode & 8);
    int64_t epoch = (mode & 0x30) == 0x10 ? 0
                  : (mode & 0x30) == 0x20 ? PCAP_SINK_MAX_SECONDS - (data[13] & 15)
                                          : PCAP_SINK_DEFAULT_EPOCH_S;
    unsigned dur_us = 1 + ((unsigned)data[7] << 8 | data[8]) % 4000;
    uint64_t seed = (uint64_t)data[9] | (uint64_t)data[10] << 8 | (uint64_t)data[11] << 16 |
                    (uint64_t)data[12] << 24;
    int bad = 0;
    bad |= scenario_set(&sc, "phy", PICK(phys, data[1]), err, sizeof err);
    if (!(data[2] & 0x80)) { /* else the default, or the groups' */
        snprintf(value, sizeof value, "%u", 1 + data[2] % 32);
        bad |= scenario_set(&sc, "stations", value, err, sizeof err);
    }
    const char *t = PICK(traffic, data[3]);
    bad |= scenario_set(&sc, "traffic", t, err, sizeof err);
    if (strcmp(t, "poisson") == 0 || strcmp(t, "onoff") == 0) {
        snprintf(value, sizeof value, "%g", 0.05 + (data[4] % 40) * 0.05);
        bad |= scenario_set(&sc, "load", value, err, sizeof err);
    } else if (strcmp(t, "batch") == 0) {
        snprintf(value, sizeof value, "%u", 1 + data[4] % 8);
        bad |= scenario_set(&sc, "batch", value, err, sizeof err);
    }
    bad |= scenario_set(&sc, "frame-size", PICK(sizes, data[5]), err, sizeof err);
    bad |= scenario_set(&sc, "policy", PICK(policies, data[6]), err, sizeof err);
    snprintf(value, sizeof value, "%uus", dur_us);
    bad |= scenario_set(&sc, "duration", value, err, sizeof err);
    snprintf(value, sizeof value, "%llu", (unsigned long long)seed);
    bad |= scenario_set(&sc, "seed", value, err, sizeof err);
    if (bad)
        abort(); /* the table's own values */
    /* The rest: key=value lines, each applied if accepted. */
    char *text = malloc(size - HEAD + 1);
    if (text == NULL) {
        scenario_free(&sc);
        return 0;
    }
    memcpy(text, data + HEAD, size - HEAD);
    text[size - HEAD] = '\0';
    for (char *line = text, *next; line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *eq = strchr(line, '=');
        if (strncmp(line, "group ", 6) == 0)
            (void)scenario_group_spec(&sc, line + 6, err, sizeof err);
        else if (eq != NULL) {
            *eq = '\0';
            (void)scenario_set(&sc, line, eq + 1, err, sizeof err);
        }
    }
    free(text);
    err[0] = '\0';

    engine *e = NULL;
    pcap_sink *ps = NULL;
    counter c = {.collisions = collisions, .ng = ng};
    if (scenario_finish(&sc, err, sizeof err, warn, sizeof warn) != 0 ||
        sc.traffic.kind == TRAFFIC_PCAP || engine_create(&sc, &e, err, sizeof err) != 0)
        goto out;
    pcap_sink_format fmt = pcap_sink_default_format();
    fmt.container = ng ? PCAP_SINK_PCAPNG : PCAP_SINK_PCAP;
    fmt.linktype = lt;
    fmt.epoch_s = epoch;
    fmt.application = "fuzz_pcapng";
    fmt.comment = "a fuzzed scenario";
    fmt.probe = "at the probe";
    fmt.groups = &sc;
    sim_time late = 0;
    for (uint32_t s = 0; s < sc.n_stations; s++) {
        sim_time d = medium_probe_delay(engine_medium(e), s);
        late = d > late ? d : late;
    }
    if (pcap_sink_check_format(&sc.phy, &fmt, err, sizeof err) != 0 ||
        (!ng && !pcap_sink_fits(epoch, sc.duration + late)))
        goto out;
    pcap_sink_options popt = {.collisions = collisions};
    if (pcap_sink_open_format(trace_path, &sc.phy, &popt, &fmt, &ps, err, sizeof err) != 0)
        abort(); /* a folder of our own */
    c.phy = sc.phy;
    c.epoch_ns = epoch * 1000000000;
    c.link_bytes = lt == PCAP_SINK_ETHERNET ? 0
                 : lt == PCAP_SINK_NETANALYZER ? NA_HEADER
                                               : NA_HEADER + sc.phy.preamble_bits / 8;
    if (engine_add_sink(e, pcap_sink_trace(ps)) != 0 ||
        engine_add_sink(e, (trace_sink){count_event, &c, NULL}) != 0)
        abort();
    if (engine_start(e, err, sizeof err) != 0)
        goto out;
    engine_status st = engine_run(e, sc.duration, RUN_EVENTS);
    if (st == ENGINE_OUT_OF_MEMORY || c.failed)
        goto out;
    uint64_t records = pcap_sink_records(ps);
    if (records != c.n)
        abort();
    int closed = pcap_sink_close(ps, err, sizeof err);
    ps = NULL;
    if (closed != 0)
        abort();

    /* Read back: the same records. */
    rec *got = malloc((c.n + 1) * sizeof *got);
    FILE *f = fopen(trace_path, "rb");
    if (got == NULL || f == NULL)
        abort();
    size_t n;
    if (ng) {
        n = read_pcapng(f, &c, got, c.n + 1);
        fclose(f);
    } else {
        n = read_pcap(f, &c, lt, got, c.n + 1);
    }
    if (n != c.n)
        abort();
    if (n > 0) {
        qsort(got, n, sizeof *got, rec_cmp);
        qsort(c.recs, c.n, sizeof *c.recs, rec_cmp);
        if (memcmp(got, c.recs, n * sizeof *got) != 0)
            abort();
    }
    if (fuzz_verbose())
        fprintf(stderr, "%s: %zu records, %llu whole frames of 64 octets or more\n",
                ng ? "pcapng" : "pcap", n, (unsigned long long)c.whole);
    free(got);
    check_replay(&c, &sc);
out:
    if (fuzz_verbose() && c.recs == NULL && err[0] != '\0')
        fprintf(stderr, "not run: %s\n", err);
    if (ps != NULL)
        pcap_sink_discard(ps);
    if (e != NULL)
        engine_destroy(e);
    free(c.recs);
    scenario_free(&sc);
    return 0;
}
