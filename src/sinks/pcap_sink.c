/* pcap_sink.c - the probe's view of a run, written through libpcap
 * (classic pcap) or pcapng.h.
 *
 * Ordering. The engine reports events in simulated-time order, but a
 * record's stamp is its probe_start, which is neither its TX_START time nor
 * its TX_END time: a long frame far from the probe can end after a short
 * one that passed the probe later. So finished records wait in a min-heap
 * keyed by (probe_start, tx_id) and are written once no record with a
 * smaller key can still come. A record not yet finished is either
 *   - under way: it had a TX_START, whose probe_start is known and kept in
 *     the `open` list until its TX_END; or
 *   - not begun: transmissions begin in non-decreasing order of tx_start
 *     (medium.h), so it will start at or after the latest TX_START's
 *     tx_start, and probe_start >= tx_start.
 * The horizon is therefore min(latest tx_start, smallest open probe_start),
 * and every waiting record stamped strictly before it is final. Only
 * TX_START events move the clock: other events' times are not relied on
 * (an event may be stamped later than the instant it is reported, as JAM
 * events once were). Records stamped exactly at the horizon wait (a later
 * one could tie and have a smaller tx_id), which keeps the file a pure
 * function of the events however the engine slices its run. The open list holds the transmissions under way at
 * once (a handful), so scanning it costs little; the heap holds the records
 * finished within about one frame time of each other.
 *
 * Errors. pcap_dump() returns nothing: after every record the stream's
 * error flag is checked, and pcap_dump_flush() at close; the first failure
 * is kept with errno's text and later events are ignored. libpcap's
 * pcap_dump_close() cannot report fclose's result; a write error surfaces
 * at pcap_dump_flush() (the data has then reached the kernel), and only a
 * network file system could still fail at close.
 */
#include "pcap_sink.h"
#include "scenario.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ethframe.h"
#include "outfile.h"
#include "pcapng.h"

#define PCAP_SINK_SNAPLEN 65535
#define NA_HEADER_BYTES 4          /* netANALYZER status header */
#define NA_MAX_FRAME_BYTES 4095    /* its 12-bit length field */
#define NA_ERROR_BITS 0xFFu        /* bits 0-7 */
#define NA_RX_ERROR (1u << 0)      /* the PHY's receive error (MII RX_ER) */
#define NA_ALIGNMENT_ERROR (1u << 1)
#define NA_FCS_ERROR (1u << 2)
#define NA_SHORT_FRAME (1u << 5)
#define NA_TRANSPARENT (1u << 9)   /* preamble and SFD recorded */
#define NA_VERSION (1u << 10)      /* header version 1, bits 10-13 */
#define PREAMBLE_OCTET 0x55        /* 10101010 on the wire, least significant bit first */
#define SFD_OCTET 0xD5             /* 10101011: the SFD ends the preamble (4.2.5, 4.2.6) */

typedef struct open_tx {
    uint64_t tx_id;
    sim_time probe_start;
    uint32_t collisions;     /* before this attempt */
    uint64_t backoff_slots;  /* drawn before this attempt */
    bool late;               /* its collision was late */
} open_tx;

/* What both heaps order by: an instant, then the transmission. The heap
 * of starts (horizon_at) holds these alone; the heap of waiting records
 * holds records, each beginning with one. */
typedef struct heap_key {
    sim_time at;
    uint64_t tx_id;
} heap_key;

/* A binary min-heap of elements of `size` bytes, each beginning with its
 * heap_key. */
typedef struct key_heap {
    unsigned char *v;
    size_t n, cap, size;
} key_heap;

#define NO_TX UINT64_MAX     /* an empty slot of the open map (no trace uses it) */

typedef struct record {
    heap_key key;            /* at: its stamp, the probe_start, ps */
    uint32_t len;            /* octets in data (link header included) */
    bool fragment;
    uint32_t iface;          /* pcapng: 2k whole frames, 2k + 1 fragments (k: segment) */
    uint32_t flags;          /* pcapng: epb_flags */
    uint8_t *data;           /* the record, then (pcapng) its comment, NUL-terminated */
} record;

#define IFACE_FRAMES 0
#define IFACE_FRAGMENTS 1
#define STORY_MAX 400

struct pcap_sink {
    phy_params phy;
    pcap_sink_options opt;
    pcap_sink_format fmt;
    uint32_t link_bytes;     /* octets before the frame: header (and preamble) */
    char *path;              /* the user's path */
    outfile out;             /* the file (outfile.h); out.f is the dumper's stream */
    pcap_t *dead;            /* classic pcap only */
    pcap_dumper_t *dumper;
    bool ng;                 /* pcapng: written by pcapng.h to out.f */
    uint32_t ng_link_bytes;  /* pcapng: octets before a fragment (its interface's) */
    uint32_t n_segments;     /* of fmt.network, 0 without a network */
    char err[512];           /* sticky first error, "" when none */

    /* Transmissions under way, in no order; found by tx_id through the
     * map (open addressing, map_cap a power of two, at most half full),
     * and the earliest probe_start through the heap of starts, whose
     * entries of ended transmissions are dropped when they come on top.
     * Each event then costs O(log n), not O(n): thousands of stations
     * colliding at once made the sink quadratic. */
    open_tx *open;
    size_t n_open, cap_open;
    uint64_t *map_ids;
    size_t *map_at;          /* index in open[] */
    size_t map_cap;
    key_heap starts;         /* heap_key: the open transmissions' starts */
    key_heap waiting;        /* record: finished, not yet written */

    sim_time clock;          /* tx_start of the latest TX_START: no later
                                transmission starts before it */
    sim_time last_stamp;     /* of the last record written (ordering check) */
    uint64_t records, frames, fragments;
};

static void set_error(pcap_sink *s, const char *reason)
{
    if (s->err[0] == '\0')
        snprintf(s->err, sizeof s->err, "%s: %s", s->path, reason);
}

static void set_errno(pcap_sink *s, int e)
{
    set_error(s, strerror(e ? e : EIO));
}

static char *dup_str(const char *p)
{
    size_t n = strlen(p) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, p, n);
    return d;
}

static void sink_free(pcap_sink *s)
{
    for (size_t i = 0; i < s->waiting.n; i++)
        free(((record *)(void *)(s->waiting.v + i * sizeof(record)))->data);
    free(s->waiting.v);
    free(s->open);
    free(s->map_ids);
    free(s->map_at);
    free(s->starts.v);
    outfile_discard(&s->out);
    free(s->path);
    if (s->dead)
        pcap_close(s->dead);
    free(s);
}

pcap_sink_format pcap_sink_default_format(void)
{
    pcap_sink_format f = {.linktype = PCAP_SINK_DEFAULT_LINKTYPE,
                          .epoch_s = PCAP_SINK_DEFAULT_EPOCH_S,
                          .container = PCAP_SINK_PCAP};
    return f;
}

pcap_sink_container pcap_sink_container_for_path(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcasecmp(path + n - 5, ".pcap") == 0 ? PCAP_SINK_PCAP
                                                            : PCAP_SINK_PCAPNG;
}

/* "1 repeater", "2 bridges". */
static int count_of(char *buf, size_t n, uint32_t k, const char *what)
{
    return snprintf(buf, n, "%u %s%s", k, what, k == 1 ? "" : "s");
}

/* What the network is, every kind of element named: "network of 4
 * segments, 1 repeater and 1 bridge", "network of 2 segments and 1
 * repeater", "switch of 9 links (a station on each)". */
static void describe_network(const network *net, char *where, size_t n)
{
    if (net->switched) {
        snprintf(where, n, "switch of %u link%s (a station on each)", net->n_segments,
                 net->n_segments == 1 ? "" : "s");
        return;
    }
    char parts[3][32];
    size_t k = 0;
    count_of(parts[k++], sizeof parts[0], net->n_segments, "segment");
    if (net->n_repeaters > 0)
        count_of(parts[k++], sizeof parts[0], net->n_repeaters, "repeater");
    if (net->n_bridges > 0)
        count_of(parts[k++], sizeof parts[0], net->n_bridges, "bridge");
    if (k == 1)
        snprintf(where, n, "network of %s", parts[0]);
    else if (k == 2)
        snprintf(where, n, "network of %s and %s", parts[0], parts[1]);
    else
        snprintf(where, n, "network of %s, %s and %s", parts[0], parts[1], parts[2]);
}

/* The one place the comment is built: a later field (the group) is one
 * more clause here. Integers only, so the text is the same everywhere. */
void pcap_sink_describe(const scenario *sc, const char *duration, char *comment, size_t n,
                        char *probe, size_t pn)
{
    char where[128];
    if (sc->net.n_segments > 0)
        describe_network(&sc->net, where, sizeof where);
    else
        snprintf(where, sizeof where, "%s %.0f m",
                 sc->phy.topology == TOPOLOGY_STAR ? "star, drops of" : "bus of",
                 sc->phy.length_m);
    snprintf(comment, n,
             "scenario: %s, %u stations, %s, %s traffic, policy %s, duration %s, seed %llu",
             sc->phy.name, sc->n_stations, where, scenario_traffic_name(sc->traffic.kind),
             sc->policy, duration, (unsigned long long)sc->seed);
    if (sc->net.n_segments > 0) /* each interface names its segment's probe */
        snprintf(probe, pn, "at each segment's probe");
    else if (sc->phy.topology == TOPOLOGY_STAR)
        snprintf(probe, pn, "at the hub");
    else
        snprintf(probe, pn, "at %.0f m on the bus", sc->probe_m);
}

void pcap_sink_describe_run(const scenario *sc, const char *duration, pcap_sink_text *text,
                            pcap_sink_format *fmt)
{
    snprintf(text->application, sizeof text->application, "csmacd %s", CSMACD_VERSION);
    pcap_sink_describe(sc, duration, text->comment, sizeof text->comment, text->probe,
                       sizeof text->probe);
    fmt->application = text->application;
    fmt->comment = text->comment;
    fmt->probe = text->probe;
    fmt->groups = sc;
    fmt->network = &sc->net;
}

/* pcap_sink_story, with `where` after the time queued (a bridge's
 * record: " in the port"). */
static size_t story(char *buf, size_t n, const trace_event *ev, const char *where,
                    const char *group)
{
    bool collided = ev->jam_start != SIM_TIME_NEVER;
    sim_time waited = ev->tx_start - ev->queued_at;
    uint64_t ns = waited > 0 ? (uint64_t)(waited / SIM_PS_PER_NS) : 0;
    char collision[48] = "sent whole";
    if (collided)
        snprintf(collision, sizeof collision, "collision %u%s", ev->collisions + 1,
                 ev->late ? " (late)" : "");
    char backoff[48] = "";
    if (ev->attempt > 1)
        snprintf(backoff, sizeof backoff, ", backoff %llu slot%s",
                 (unsigned long long)ev->backoff_slots, ev->backoff_slots == 1 ? "" : "s");
    int w = snprintf(buf, n,
                     "station %u, frame %llu, attempt %u%s, %s%s, queued %llu.%03llu us%s%s%s",
                     ev->station + 1, (unsigned long long)ethframe_frame_number(ev->frame_id),
                     ev->attempt, ev->attempt > 1 ? " (retry)" : "", collision, backoff,
                     (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000), where,
                     group ? ", group " : "", group ? group : "");
    if (w < 0)
        w = 0;
    return (size_t)w < n ? (size_t)w : (n ? n - 1 : 0);
}

size_t pcap_sink_story(char *buf, size_t n, const trace_event *ev, const char *group)
{
    return story(buf, n, ev, "", group);
}

bool pcap_sink_fits(int64_t epoch_s, sim_time duration)
{
    /* Records are of transmissions that started by the run's end; one far
     * from the probe is stamped up to a propagation delay later (the
     * caller adds it; write_record still refuses a record past the last
     * second). */
    return epoch_s >= 0 && duration >= 0 && epoch_s <= PCAP_SINK_MAX_SECONDS &&
           duration / SIM_PS_PER_S <= PCAP_SINK_MAX_SECONDS - epoch_s;
}

int64_t pcap_sink_max_seconds(pcap_sink_container c)
{
    return c == PCAP_SINK_PCAPNG ? PCAP_SINK_NG_MAX_SECONDS : PCAP_SINK_MAX_SECONDS;
}

bool pcap_sink_fits_in(pcap_sink_container c, int64_t epoch_s, sim_time duration)
{
    if (c != PCAP_SINK_PCAPNG)
        return pcap_sink_fits(epoch_s, duration);
    /* Every stamp, epoch_s x 10^9 + the run's nanoseconds, within 64 bits. */
    return epoch_s >= 0 && duration >= 0 && epoch_s <= PCAP_SINK_NG_MAX_SECONDS &&
           (uint64_t)(duration / SIM_PS_PER_NS) <= UINT64_MAX - (uint64_t)epoch_s * 1000000000u;
}

int pcap_sink_open(const char *path, const phy_params *phy, const pcap_sink_options *opt,
                   pcap_sink **out, char *err, size_t errlen)
{
    pcap_sink_format f = pcap_sink_default_format();
    return pcap_sink_open_format(path, phy, opt, &f, out, err, errlen);
}

static const char *linktype_name(pcap_sink_linktype t)
{
    return t == PCAP_SINK_NETANALYZER_TRANSPARENT ? "netanalyzer-transparent"
           : t == PCAP_SINK_NETANALYZER           ? "netanalyzer"
                                                  : "ethernet";
}

int pcap_sink_check_format(const phy_params *phy, const pcap_sink_format *fmt, char *err,
                           size_t errlen)
{
    /* pcapng keeps fragments in the transparent type, which has the same
     * limits as the classic file of that type. */
    pcap_sink_linktype lt = fmt->container == PCAP_SINK_PCAPNG
                                ? PCAP_SINK_NETANALYZER_TRANSPARENT
                                : fmt->linktype;
    if (fmt->epoch_s < 0 || fmt->epoch_s > pcap_sink_max_seconds(fmt->container)) {
        snprintf(err, errlen, "epoch %lld is beyond %s", (long long)fmt->epoch_s,
                 fmt->container == PCAP_SINK_PCAPNG ? "pcapng's 64-bit nanoseconds"
                                                    : "pcap's 32-bit seconds");
        return -1;
    }
    if (lt == PCAP_SINK_NETANALYZER_TRANSPARENT &&
        (phy->preamble_bits < 8 || phy->preamble_bits % 8 != 0)) {
        snprintf(err, errlen,
                 "the %s link type records the preamble and SFD as whole octets "
                 "(preamble-bits is %u; ethernet and netanalyzer do not record it)",
                 linktype_name(lt), phy->preamble_bits);
        return -1;
    }
    uint64_t pre = lt == PCAP_SINK_NETANALYZER_TRANSPARENT ? phy->preamble_bits / 8 : 0;
    uint64_t fixed = pre + phy->jam_bits / 8;
    if (lt != PCAP_SINK_ETHERNET && fixed + phy->max_frame_bytes > NA_MAX_FRAME_BYTES) {
        snprintf(err, errlen, "the %s link type carries frames of at most %llu octets "
                              "(max-frame is %u)",
                 linktype_name(lt),
                 (unsigned long long)(fixed < NA_MAX_FRAME_BYTES ? NA_MAX_FRAME_BYTES - fixed : 0),
                 phy->max_frame_bytes);
        return -1;
    }
    return 0;
}

/* "10 Mb/s", "1 Gb/s", "2500 b/s": an interface's rate in its description. */
static void rate_text(uint64_t bps, char *rate, size_t len)
{
    if (bps % 1000000000 == 0)
        snprintf(rate, len, "%llu Gb/s", (unsigned long long)(bps / 1000000000));
    else if (bps % 1000000 == 0)
        snprintf(rate, len, "%llu Mb/s", (unsigned long long)(bps / 1000000));
    else
        snprintf(rate, len, "%llu b/s", (unsigned long long)bps);
}

/* A network's pcapng header: the section, then two interfaces per
 * segment k, NAME-frames (2k) and NAME-fragments (2k + 1), each at that
 * segment's capture point. */
static int write_segment_interfaces(pcap_sink *s, const char *path, const pcap_sink_format *fmt,
                                    uint32_t snaplen, const char *rate, pcap_sink **out,
                                    char *err, size_t errlen)
{
    const network *net = fmt->network;
    int rc = pcapng_write_section(s->out.f, fmt->application, fmt->comment);
    for (uint32_t k = 0; k < s->n_segments && rc == 0; k++) {
        const net_segment *g = &net->segments[k];
        /* Each segment at its own PHY (stations/MODEL.md, "Segments at
         * different rates"): one of the scenario's keeps the text given. */
        const phy_params *phy = g->phy.rate_bps ? &g->phy : &s->phy;
        uint64_t bps = phy->rate_bps;
        char own_rate[32];
        const char *rt = rate;
        if (phy != &s->phy) {
            rate_text(bps, own_rate, sizeof own_rate);
            rt = own_rate;
        }
        char probe[160], name[2][NET_NAME_MAX + 16], desc[2][480];
        if (g->type == NET_SEG_HUB)
            snprintf(probe, sizeof probe, "at the hub of segment %s", g->name);
        else
            snprintf(probe, sizeof probe, "at %.0f m on segment %s (coax)", g->probe_m, g->name);
        snprintf(name[0], sizeof name[0], "%s-frames", g->name);
        snprintf(name[1], sizeof name[1], "%s-fragments", g->name);
        snprintf(desc[0], sizeof desc[0],
                 "csmacd probe %s, %s at %s: frames received whole (Ethernet with FCS)", probe,
                 phy->name, rt);
        snprintf(desc[1], sizeof desc[1],
                 "csmacd probe %s, %s at %s: collision fragments, jam and frames shorter than "
                 "64 octets (netANALYZER transparent: status, preamble, SFD, octets)",
                 probe, phy->name, rt);
        pcapng_interface i0 = {.linktype = PCAPNG_LINKTYPE_ETHERNET, .snaplen = snaplen,
                               .name = name[0], .description = desc[0], .speed_bps = bps,
                               .fcs_bits = 32};
        pcapng_interface i1 = {.linktype = PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT,
                               .snaplen = snaplen, .name = name[1], .description = desc[1],
                               .speed_bps = bps};
        rc = pcapng_write_interface(s->out.f, &i0);
        if (rc == 0)
            rc = pcapng_write_interface(s->out.f, &i1);
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        sink_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* The pcapng file's header: the section, then the interfaces. */
static int open_pcapng(pcap_sink *s, const char *path, const pcap_sink_format *fmt,
                       pcap_sink **out, char *err, size_t errlen)
{
    s->ng = true;
    s->link_bytes = 0; /* whole frames: the Ethernet frame alone */
    s->ng_link_bytes = NA_HEADER_BYTES + s->phy.preamble_bits / 8;
    uint64_t longest = (uint64_t)s->phy.max_frame_bytes + s->phy.jam_bits / 8 + s->ng_link_bytes;
    uint32_t snaplen = longest > PCAP_SINK_SNAPLEN ? (uint32_t)longest : PCAP_SINK_SNAPLEN;
    if (outfile_open(&s->out, path, err, errlen) != 0) {
        sink_free(s);
        return -1;
    }
    char rate[32], frames[400], fragments[400];
    uint64_t bps = s->phy.rate_bps;
    rate_text(bps, rate, sizeof rate);
    if (s->n_segments > 0)
        return write_segment_interfaces(s, path, fmt, snaplen, rate, out, err, errlen);
    const char *probe = fmt->probe ? fmt->probe : "on the medium";
    snprintf(frames, sizeof frames,
             "csmacd probe %s, %s at %s: frames received whole (Ethernet with FCS)", probe,
             s->phy.name, rate);
    snprintf(fragments, sizeof fragments,
             "csmacd probe %s, %s at %s: collision fragments and frames shorter than 64 "
             "octets (netANALYZER transparent: status, preamble, SFD, octets)",
             probe, s->phy.name, rate);
    pcapng_interface ifaces[2] = {
        {.linktype = PCAPNG_LINKTYPE_ETHERNET, .snaplen = snaplen, .name = "csmacd-frames",
         .description = frames, .speed_bps = bps, .fcs_bits = 32},
        {.linktype = PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT, .snaplen = snaplen,
         .name = "csmacd-fragments", .description = fragments, .speed_bps = bps},
    };
    if (pcapng_write_section(s->out.f, fmt->application, fmt->comment) != 0 ||
        pcapng_write_interface(s->out.f, &ifaces[0]) != 0 ||
        pcapng_write_interface(s->out.f, &ifaces[1]) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        sink_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int pcap_sink_open_format(const char *path, const phy_params *phy,
                          const pcap_sink_options *opt, const pcap_sink_format *fmt,
                          pcap_sink **out, char *err, size_t errlen)
{
    *out = NULL;
    pcap_sink *s = calloc(1, sizeof *s);
    if (!s || !(s->path = dup_str(path))) {
        snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
        free(s);
        return -1;
    }
    s->phy = *phy;
    s->opt = *opt;
    s->fmt = *fmt;
    s->last_stamp = INT64_MIN;
    s->starts.size = sizeof(heap_key);
    s->waiting.size = sizeof(record);
    s->clock = INT64_MIN;
    s->n_segments = fmt->network != NULL ? fmt->network->n_segments : 0;
    if (s->n_segments > 0 && fmt->probe_segment >= s->n_segments) {
        snprintf(err, errlen, "%s: no segment %u to probe (the network has %u)", path,
                 fmt->probe_segment + 1, s->n_segments);
        sink_free(s);
        return -1;
    }

    char why[300];
    if (pcap_sink_check_format(phy, fmt, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        sink_free(s);
        return -1;
    }
    if (fmt->container == PCAP_SINK_PCAPNG)
        return open_pcapng(s, path, fmt, out, err, errlen);
    pcap_sink_linktype lt = fmt->linktype;
    bool na = lt != PCAP_SINK_ETHERNET;
    bool transparent = lt == PCAP_SINK_NETANALYZER_TRANSPARENT;
    s->link_bytes = (na ? NA_HEADER_BYTES : 0) + (transparent ? phy->preamble_bits / 8 : 0);
    /* 65535 holds every record of the standard PHYs; a max-frame override
     * near 64 KiB gets room for the fragment's jam and the link header. */
    uint64_t longest = (uint64_t)phy->max_frame_bytes + phy->jam_bits / 8 + s->link_bytes;
    int snaplen = longest > PCAP_SINK_SNAPLEN ? (int)longest : PCAP_SINK_SNAPLEN;
    int dlt = transparent ? DLT_NETANALYZER_TRANSPARENT : na ? DLT_NETANALYZER : DLT_EN10MB;
    s->dead = pcap_open_dead_with_tstamp_precision(dlt, snaplen, PCAP_TSTAMP_PRECISION_NANO);
    if (!s->dead) {
        snprintf(err, errlen, "%s: libpcap could not create a capture handle", path);
        sink_free(s);
        return -1;
    }
    if (outfile_open(&s->out, path, err, errlen) != 0) {
        sink_free(s);
        return -1;
    }
    /* pcap_dump_fopen writes the file header and owns the stream from here
     * on: pcap_dump_close closes it, outfile_commit_closed renames. */
    s->dumper = pcap_dump_fopen(s->dead, s->out.f);
    if (!s->dumper) {
        snprintf(err, errlen, "%s: %s", path, pcap_geterr(s->dead));
        sink_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

trace_sink pcap_sink_trace(pcap_sink *s)
{
    trace_sink t = {.on_event = pcap_sink_on_event, .ctx = s};
    return t;
}

static bool key_less(const heap_key *a, const heap_key *b)
{
    return a->at < b->at || (a->at == b->at && a->tx_id < b->tx_id);
}

static const heap_key *heap_at(const key_heap *h, size_t i)
{
    return (const heap_key *)(void *)(h->v + i * h->size);
}

static void heap_put(key_heap *h, size_t i, const void *e)
{
    memcpy(h->v + i * h->size, e, h->size);
}

/* Room for one more element. Returns 0 or -1 (no memory). */
static int heap_reserve(key_heap *h)
{
    if (h->n < h->cap)
        return 0;
    size_t cap = h->cap ? 2 * h->cap : 16;
    unsigned char *v = realloc(h->v, cap * h->size);
    if (!v)
        return -1;
    h->v = v;
    h->cap = cap;
    return 0;
}

/* Inserts a copy of e (room reserved). */
static void heap_push(key_heap *h, const void *e)
{
    size_t i = h->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!key_less(e, heap_at(h, p)))
            break;
        heap_put(h, i, heap_at(h, p));
        i = p;
    }
    heap_put(h, i, e);
}

/* Removes the top, copied to *out unless out is NULL. */
static void heap_pop(key_heap *h, void *out)
{
    if (out)
        memcpy(out, h->v, h->size);
    size_t n = --h->n, i = 0;
    const heap_key *last = heap_at(h, n); /* stays put: the hole moves down above it */
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && key_less(heap_at(h, c + 1), heap_at(h, c)))
            c++;
        if (!key_less(heap_at(h, c), last))
            break;
        heap_put(h, i, heap_at(h, c));
        i = c;
    }
    if (n > 0)
        heap_put(h, i, last);
}

static void write_record(pcap_sink *s, const record *r)
{
    /* The heap hands out records in key order; a stamp going backwards
     * means an event broke trace.h's contract (time order, or a
     * probe_start before its tx_start). */
    assert(r->key.at >= s->last_stamp);
    s->last_stamp = r->key.at;
    if (s->err[0])
        return;
    /* Round down to the nanosecond (times are >= 0). */
    int64_t ns = r->key.at / SIM_PS_PER_NS;
    int64_t sec = ns / 1000000000;
    if (s->ng) {
        /* 64-bit nanoseconds: room until the year 2554. */
        uint64_t base = (uint64_t)s->fmt.epoch_s * 1000000000u;
        if ((uint64_t)ns > UINT64_MAX - base) {
            set_error(s, "a record falls after 2554-07-21T23:34:33Z, beyond pcapng's 64-bit "
                         "nanoseconds (--pcap-epoch)");
            return;
        }
        uint64_t ts = base + (uint64_t)ns;
        if (pcapng_write_packet(s->out.f, r->iface, ts, r->data, r->len, r->flags,
                                (const char *)r->data + r->len) != 0)
            set_errno(s, errno);
        return;
    }
    if (sec > PCAP_SINK_MAX_SECONDS - s->fmt.epoch_s) {
        set_error(s, "a record falls after 2038-01-19T03:14:07Z, beyond pcap's 32-bit "
                     "seconds (--pcap-epoch)");
        return;
    }
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)(s->fmt.epoch_s + sec);
    /* With nanosecond precision, libpcap stores tv_usec as nanoseconds. */
    h.ts.tv_usec = (suseconds_t)(ns % 1000000000);
    h.caplen = r->len;
    h.len = r->len;
    errno = 0;
    pcap_dump((u_char *)s->dumper, &h, r->data);
    if (ferror(pcap_dump_file(s->dumper))) {
        set_errno(s, errno);
        return;
    }
}

static void flush_before(pcap_sink *s, sim_time horizon)
{
    while (s->waiting.n > 0 && heap_at(&s->waiting, 0)->at < horizon) {
        record r;
        heap_pop(&s->waiting, &r);
        write_record(s, &r);
        free(r.data);
    }
}

/* The open map's home slot of a transmission id. */
static size_t map_home(const pcap_sink *s, uint64_t id)
{
    uint64_t h = id * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ h >> 32) & (s->map_cap - 1);
}

/* The map's slot holding id, or the empty slot where it would go. */
static size_t map_slot(const pcap_sink *s, uint64_t id)
{
    size_t i = map_home(s, id);
    while (s->map_ids[i] != NO_TX && s->map_ids[i] != id)
        i = (i + 1) & (s->map_cap - 1);
    return i;
}

/* Empties slot i, moving back the entries after it that belong before. */
static void map_remove(pcap_sink *s, size_t i)
{
    size_t mask = s->map_cap - 1;
    for (size_t j = (i + 1) & mask; s->map_ids[j] != NO_TX; j = (j + 1) & mask) {
        size_t k = map_home(s, s->map_ids[j]);
        /* The entry at j may fill i unless its home lies in (i, j]. */
        bool stays = i < j ? (k > i && k <= j) : (k > i || k <= j);
        if (!stays) {
            s->map_ids[i] = s->map_ids[j];
            s->map_at[i] = s->map_at[j];
            i = j;
        }
    }
    s->map_ids[i] = NO_TX;
}

/* Makes room for one more open transmission. Returns 0 or -1. */
static int open_reserve(pcap_sink *s)
{
    if (s->n_open == s->cap_open) {
        size_t cap = s->cap_open ? 2 * s->cap_open : 8;
        open_tx *o = realloc(s->open, cap * sizeof *o);
        if (!o)
            return -1;
        s->open = o;
        s->cap_open = cap;
    }
    if (2 * (s->n_open + 1) > s->map_cap) {
        size_t cap = s->map_cap ? 2 * s->map_cap : 16;
        uint64_t *ids = malloc(cap * sizeof *ids);
        size_t *at = malloc(cap * sizeof *at);
        if (!ids || !at) {
            free(ids);
            free(at);
            return -1;
        }
        free(s->map_ids);
        free(s->map_at);
        s->map_ids = ids;
        s->map_at = at;
        s->map_cap = cap;
        for (size_t i = 0; i < cap; i++)
            ids[i] = NO_TX;
        for (size_t k = 0; k < s->n_open; k++) {
            size_t i = map_slot(s, s->open[k].tx_id);
            ids[i] = s->open[k].tx_id;
            at[i] = k;
        }
    }
    return heap_reserve(&s->starts);
}

/* The open transmission of tx_id, or NULL. */
static open_tx *open_find(const pcap_sink *s, uint64_t tx_id)
{
    if (s->map_cap == 0)
        return NULL;
    size_t i = map_slot(s, tx_id);
    return s->map_ids[i] == tx_id ? &s->open[s->map_at[i]] : NULL;
}

/* Removes the open transmission of tx_id, copied to *out; false when none. */
static bool open_take(pcap_sink *s, uint64_t tx_id, open_tx *out)
{
    if (s->map_cap == 0)
        return false;
    size_t i = map_slot(s, tx_id);
    if (s->map_ids[i] != tx_id)
        return false;
    size_t k = s->map_at[i];
    *out = s->open[k];
    map_remove(s, i);
    if (k != --s->n_open) {
        s->open[k] = s->open[s->n_open];
        s->map_at[map_slot(s, s->open[k].tx_id)] = k;
    }
    return true;
}

/* The earliest probe_start of an open transmission, or now if earlier:
 * nothing can still be recorded before it. Starts of transmissions
 * already ended are dropped on the way. */
static sim_time horizon_at(pcap_sink *s, sim_time now)
{
    while (s->starts.n > 0) {
        const heap_key *top = heap_at(&s->starts, 0);
        const open_tx *o = open_find(s, top->tx_id);
        if (o != NULL && o->probe_start == top->at)
            return top->at < now ? top->at : now;
        heap_pop(&s->starts, NULL);
    }
    return now;
}

static void on_tx_start(pcap_sink *s, const trace_event *ev)
{
    if (open_find(s, ev->tx_id) != NULL)
        return; /* trace.h: tx_id is unique per transmission */
    if (s->starts.n >= 2 * s->n_open + 16) {
        /* Mostly ended ones (a long transmission holds them below it):
         * rebuilt from the open ones, so the heap stays in proportion. */
        s->starts.n = 0;
        for (size_t k = 0; k < s->n_open; k++)
            heap_push(&s->starts, &(heap_key){s->open[k].probe_start, s->open[k].tx_id});
    }
    if (open_reserve(s) != 0) {
        set_errno(s, ENOMEM);
        return;
    }
    size_t k = s->n_open++;
    s->open[k] = (open_tx){
        .tx_id = ev->tx_id,
        .probe_start = ev->probe_start,
        .collisions = ev->collisions,
        .backoff_slots = ev->backoff_slots,
    };
    size_t i = map_slot(s, ev->tx_id);
    s->map_ids[i] = ev->tx_id;
    s->map_at[i] = k;
    heap_push(&s->starts, &(heap_key){ev->probe_start, ev->tx_id});
}

static void on_collision(pcap_sink *s, const trace_event *ev)
{
    open_tx *o = open_find(s, ev->tx_id);
    if (o != NULL)
        o->late = o->late || ev->late;
}

/* What one record holds, from a transmission's TX_END or a relay's
 * RELAY_END. */
typedef struct record_src {
    const trace_event *ev;   /* its end event */
    uint32_t sender;         /* the frame's station, TRACE_NO_STATION: none (jam alone) */
    uint32_t collisions;     /* before the attempt */
    uint64_t backoff_slots;  /* drawn before the attempt */
    sim_time sent_at;        /* when the sender began the attempt */
    bool late;
    bool collided;           /* a fragment: data_bits of the frame, then jam_bits of jam */
    uint64_t data_bits;
    uint32_t jam_bits;
    uint32_t jam_station, jam_attempt; /* what the jam names */
    const trace_bridge *bridge; /* a bridge port's copy: the frame as its sender
                                   sent it (its octets); NULL otherwise */
} record_src;

/* The name of segment k, for the comments (NULL without a network). */
static const char *segment_name(const pcap_sink *s, uint32_t k)
{
    return s->n_segments > 0 && k < s->n_segments ? s->fmt.network->segments[k].name : NULL;
}

/* The comment of a record (pcapng), after `len` octets of it. */
static void record_story(const pcap_sink *s, const record_src *src, char *out)
{
    const trace_event *ev = src->ev;
    const char *seg = segment_name(s, ev->segment);
    const scenario *sc = s->fmt.groups;
    const char *group = sc != NULL && sc->n_named
                            ? scenario_group_at(sc, scenario_group_of(sc, src->sender))->name
                            : NULL;
    size_t n = 0;
    if (src->bridge != NULL) {
        /* "forwarded by bridge sw, port b: " then the port's own attempt,
         * its wait from the copy's entry into its queue */
        const trace_bridge *b = src->bridge;
        const network *net = s->fmt.network;
        const char *bridge = net != NULL && b->bridge < net->n_bridges
                                 ? net->bridges[b->bridge].name : "?";
        n = (size_t)snprintf(out, STORY_MAX, "%s by bridge %s, port %s: ",
                             b->flooded ? "flooded" : "forwarded", bridge, seg ? seg : "?");
        trace_event st = *ev;
        st.collisions = src->collisions;
        st.backoff_slots = src->backoff_slots;
        st.late = src->late;
        st.queued_at = b->entered;
        n += story(out + n, STORY_MAX - n, &st, " in the port", group);
        if (seg != NULL && n < STORY_MAX)
            snprintf(out + n, STORY_MAX - n, ", segment %s", seg);
        return;
    }
    if (ev->kind == TRACE_RELAY_END) {
        n = (size_t)snprintf(out, STORY_MAX, "relayed: ");
        if (src->sender == TRACE_NO_STATION) {
            n += (size_t)snprintf(out + n, STORY_MAX - n, "jam");
            if (seg != NULL)
                snprintf(out + n, STORY_MAX - n, ", segment %s", seg);
            return;
        }
    }
    trace_event story = *ev;
    story.station = src->sender;
    story.tx_start = src->sent_at;
    story.collisions = src->collisions;
    story.backoff_slots = src->backoff_slots;
    story.late = src->late;
    if (ev->kind == TRACE_RELAY_END && !ev->relay_whole)
        story.jam_start = ev->tx_start; /* a fragment of it */
    n += pcap_sink_story(out + n, STORY_MAX - n, &story, group);
    if (seg != NULL && n < STORY_MAX)
        snprintf(out + n, STORY_MAX - n, ", segment %s", seg);
}

static void add_record(pcap_sink *s, const record_src *src)
{
    const trace_event *ev = src->ev;
    bool collided = src->collided;
    uint32_t fb = src->sender == TRACE_NO_STATION ? 0 : ev->frame_bytes;
    assert(src->sender == TRACE_NO_STATION || (fb >= 18 && fb <= 65535));
    /* pcapng: a collided attempt, and a frame shorter than the minimum a
     * receiver accepts, go to the fragments' interface (header and
     * preamble first); whole frames to the Ethernet one. */
    bool short_record = collided || fb < 64;
    uint32_t hl = s->ng ? (short_record ? s->ng_link_bytes : 0) : s->link_bytes;
    /* Room for a fragment: the frame's octets, the jam's, and the octet in
     * which the jam began; then (pcapng) the comment. */
    size_t room = hl + (size_t)fb + src->jam_bits / 8 + 2;
    uint8_t *data = calloc(1, room + (s->ng ? STORY_MAX : 0));
    if (!data) {
        set_errno(s, ENOMEM);
        return;
    }
    uint8_t *buf = data + hl;
    if (fb == 0) {
        /* jam alone: no frame under it */
    } else if (ev->payload) {
        ethframe_build_replayed(ev->payload, ev->payload_len, fb, buf);
    } else {
        sim_time waited = src->sent_at - ev->queued_at;
        ethframe_info info = {
            .station = src->sender,
            .dest = ev->dest == TRACE_NO_DEST ? ETHFRAME_BROADCAST : ev->dest,
            .frame_number = ethframe_frame_number(ev->frame_id),
            .attempt = ev->attempt,
            .collisions = src->collisions,
            .backoff_slots = src->backoff_slots,
            .queued_ns = waited > 0 ? (uint64_t)(waited / SIM_PS_PER_NS) : 0,
        };
        if (src->bridge != NULL) { /* the frame as its sender sent it */
            const trace_bridge *b = src->bridge;
            waited = b->sent_at - ev->queued_at;
            info.attempt = b->sent_attempt;
            info.collisions = b->sent_attempt > 0 ? b->sent_attempt - 1 : 0;
            info.backoff_slots = b->sent_backoff_slots;
            info.queued_ns = waited > 0 ? (uint64_t)(waited / SIM_PS_PER_NS) : 0;
        }
        ethframe_build_synthetic(&info, fb, buf);
    }
    uint32_t len = fb;
    uint32_t status = 0;
    if (collided) {
        uint64_t frame_bits = (uint64_t)fb * 8;
        uint64_t sent = src->data_bits < frame_bits ? src->data_bits : frame_bits;
        len = ethframe_make_fragment(buf, fb, src->data_bits, src->jam_bits, src->jam_station,
                                     src->jam_attempt);
        /* Dribble bits were dropped. In transparent mode the bit would
         * announce a half octet kept at the end, which is not there. */
        if ((sent + src->jam_bits) % 8 != 0 && !s->ng &&
            s->fmt.linktype == PCAP_SINK_NETANALYZER)
            status |= NA_ALIGNMENT_ERROR;
    }
    uint32_t flags = 0;
    if (s->ng) {
        if (!short_record) {
            flags = PCAPNG_EPB_FCS_LEN(4);
        } else {
            if (!ethframe_fcs_ok(buf, len))
                flags |= PCAPNG_EPB_CRC_ERROR;
            if (len < 64)
                flags |= PCAPNG_EPB_TOO_SHORT;
            /* A fragment whose octets read as a right frame (below) is
             * still one: the receiver saw the collision. */
            if (collided && flags == 0)
                flags |= PCAPNG_EPB_SYMBOL_ERROR;
        }
        record_story(s, src, (char *)data + hl + len);
    }
    if (hl > 0) {
        if (!ethframe_fcs_ok(buf, len))
            status |= NA_FCS_ERROR;
        if (len < 64)
            status |= NA_SHORT_FRAME;
        /* A fragment always carries an error bit. Its octets alone can
         * read as a right frame: at 1 Gb/s a collision in the carrier
         * extension leaves the whole frame, and a jam shorter than an
         * octet (a jam-bits override) is dropped as dribble bits, so the
         * FCS is right and the length 64 or more. The PHY's receive error
         * (on a GMII, a carrier-extend error) says it then. */
        if (collided && (status & NA_ERROR_BITS) == 0)
            status |= NA_RX_ERROR;
        uint32_t pre = hl - NA_HEADER_BYTES; /* preamble and SFD octets, if recorded */
        if (pre > 0) {
            status |= NA_TRANSPARENT;
            memset(data + NA_HEADER_BYTES, PREAMBLE_OCTET, pre - 1);
            data[hl - 1] = SFD_OCTET;
        }
        uint32_t h = status | NA_VERSION | (pre + len) << 16;
        data[0] = (uint8_t)h;
        data[1] = (uint8_t)(h >> 8);
        data[2] = (uint8_t)(h >> 16);
        data[3] = (uint8_t)(h >> 24);
    }
    uint32_t iface = short_record ? IFACE_FRAGMENTS : IFACE_FRAMES;
    if (s->n_segments > 0)
        iface += 2 * ev->segment;
    record r = {.key = {ev->probe_start, ev->tx_id}, .len = hl + len, .fragment = collided,
                .data = data, .flags = flags, .iface = iface};
    if (heap_reserve(&s->waiting) != 0) {
        free(data);
        set_errno(s, ENOMEM);
        return;
    }
    heap_push(&s->waiting, &r);
    s->records++;
    if (collided)
        s->fragments++;
    else
        s->frames++;
}

/* Whether the records seen on segment k go in the file: every segment's
 * in pcapng, one in classic pcap or when one is chosen; without the
 * network's description (fmt.network), the first segment's. */
static bool segment_written(const pcap_sink *s, uint32_t k)
{
    if (s->n_segments == 0)
        return k == 0;
    return (s->ng && !s->fmt.probe_segment_only) || k == s->fmt.probe_segment;
}

/* Takes the transmission off the open list; fills what its start fixed. */
static void close_open(pcap_sink *s, const trace_event *ev, record_src *src)
{
    open_tx o;
    if (open_take(s, ev->tx_id, &o)) {
        src->collisions = o.collisions;
        src->backoff_slots = o.backoff_slots;
        src->late = o.late;
    }
}

/* The record of a transmission that ended (ev: its TX_END or the
 * bridge's), a fragment when it collided, unless it is not written: a
 * collision without --pcap-collisions, or another segment's. */
static void end_record(pcap_sink *s, const trace_event *ev, record_src *src)
{
    src->collided = ev->jam_start != SIM_TIME_NEVER;
    if (src->collided && !s->opt.collisions)
        return;
    if (!segment_written(s, ev->segment))
        return;
    if (src->collided) {
        uint64_t overhead = (uint64_t)s->phy.preamble_bits + s->phy.jam_bits;
        src->data_bits = ev->bits_on_wire > overhead ? ev->bits_on_wire - overhead : 0;
    }
    add_record(s, src);
}

static void on_tx_end(pcap_sink *s, const trace_event *ev)
{
    /* What the frame carried was fixed when the attempt began. */
    record_src src = {.ev = ev, .sender = ev->station, .sent_at = ev->tx_start,
                      .collisions = ev->attempt > 0 ? ev->attempt - 1 : 0,
                      .backoff_slots = ev->backoff_slots,
                      .jam_bits = s->phy.jam_bits, .jam_station = ev->station,
                      .jam_attempt = ev->attempt};
    close_open(s, ev, &src);
    end_record(s, ev, &src);
}

/* A relay's record (networks): a whole frame as the frame it carries;
 * otherwise a fragment, the carried frame's octets until the relay turned
 * to jam, then the jam. A relay of an extension alone is no record. */
static void on_relay_end(pcap_sink *s, const trace_event *ev)
{
    record_src src = {.ev = ev, .sender = ev->relay_from, .sent_at = ev->relay_sent_at,
                      .collisions = ev->collisions, .backoff_slots = ev->backoff_slots,
                      .jam_station = TRACE_NO_STATION, .jam_attempt = 0};
    close_open(s, ev, &src);
    src.collisions = ev->collisions;
    src.backoff_slots = ev->backoff_slots;
    src.late = false;
    bool has_frame = ev->relay_from != TRACE_NO_STATION;
    if (!has_frame && ev->jam_start == SIM_TIME_NEVER)
        return;
    src.collided = !(has_frame && ev->relay_whole);
    if (src.collided && !s->opt.collisions)
        return;
    if (!segment_written(s, ev->segment))
        return;
    if (src.collided) {
        /* the bit time of the relay's segment (its own PHY's) */
        const network *net = s->fmt.network;
        const phy_params *sp = net && ev->segment < s->n_segments &&
                                       net->segments[ev->segment].phy.rate_bps
                                   ? &net->segments[ev->segment].phy
                                   : &s->phy;
        uint64_t bit = (uint64_t)phy_bit_ps(sp);
        sim_time cut = ev->jam_start != SIM_TIME_NEVER ? ev->jam_start : ev->tx_end;
        uint64_t before = cut > ev->tx_start ? (uint64_t)(cut - ev->tx_start) / bit : 0;
        if (before > ev->bits_on_wire)
            before = ev->bits_on_wire;
        src.data_bits = has_frame && before > s->phy.preamble_bits ? before - s->phy.preamble_bits : 0;
        /* The jam: what followed, preamble bits the frame never reached
         * included; at most what a record can hold. */
        uint64_t jam = ev->bits_on_wire - before;
        if (before < s->phy.preamble_bits)
            jam = ev->bits_on_wire > s->phy.preamble_bits ? ev->bits_on_wire - s->phy.preamble_bits : 0;
        uint64_t most = ((uint64_t)s->phy.max_frame_bytes + s->phy.jam_bits / 8) * 8;
        src.jam_bits = (uint32_t)(jam < most ? jam : most);
    }
    add_record(s, &src);
}

/* A bridge port's copy (networks with bridges): the frame its sender
 * sent, octet for octet, on the port's segment; collided, a fragment of
 * it whose jam names no station (0) and the port's attempt. */
static void on_bridge_end(pcap_sink *s, const trace_event *ev)
{
    record_src src = {.ev = ev, .sender = ev->station, .sent_at = ev->tx_start,
                      .collisions = ev->attempt > 0 ? ev->attempt - 1 : 0,
                      .backoff_slots = ev->backoff_slots, .jam_bits = s->phy.jam_bits,
                      .jam_station = TRACE_NO_STATION, .jam_attempt = ev->attempt,
                      .bridge = ev->bridge};
    close_open(s, ev, &src);
    src.late = ev->late;
    end_record(s, ev, &src);
}

void pcap_sink_on_event(void *ctx, const trace_event *ev)
{
    pcap_sink *s = ctx;
    if (s->err[0])
        return;
    if (ev->kind == TRACE_TX_START && ev->tx_start > s->clock)
        s->clock = ev->tx_start; /* extension bursts bound later starts too */
    if ((ev->kind == TRACE_TX_START || ev->kind == TRACE_TX_END) &&
        ev->tx_kind == TRACE_TX_FRAME) {
        if (ev->kind == TRACE_TX_START)
            on_tx_start(s, ev);
        else
            on_tx_end(s, ev);
    } else if (ev->kind == TRACE_RELAY_START) {
        if (ev->tx_start > s->clock)
            s->clock = ev->tx_start;
        on_tx_start(s, ev);
    } else if (ev->kind == TRACE_RELAY_END) {
        on_relay_end(s, ev);
    } else if (ev->kind == TRACE_BRIDGE_TX_START && ev->tx_kind == TRACE_TX_FRAME) {
        if (ev->tx_start > s->clock)
            s->clock = ev->tx_start;
        on_tx_start(s, ev);
    } else if (ev->kind == TRACE_BRIDGE_TX_END && ev->tx_kind == TRACE_TX_FRAME) {
        on_bridge_end(s, ev);
    } else if (ev->kind == TRACE_COLLISION && s->ng) {
        on_collision(s, ev);
    }
    flush_before(s, horizon_at(s, s->clock));
}

static int finish(pcap_sink *s)
{
    /* The run is over: nothing else can start, and what is still under
     * way will never be written. (Every waiting record ended, so its
     * stamp is finite.) */
    flush_before(s, SIM_TIME_NEVER);
    char e2[sizeof s->err];
    if (s->ng) {
        if (outfile_commit(&s->out, e2, sizeof e2) != 0 && s->err[0] == '\0')
            snprintf(s->err, sizeof s->err, "%s", e2);
        else if (s->err[0] != '\0')
            outfile_discard(&s->out);
        return s->err[0] ? -1 : 0;
    }
    if (s->err[0] == '\0') {
        errno = 0;
        if (pcap_dump_flush(s->dumper) != 0 || ferror(pcap_dump_file(s->dumper)))
            set_errno(s, errno);
    }
    pcap_dump_close(s->dumper);
    s->dumper = NULL;
    if (outfile_commit_closed(&s->out, s->err[0] ? EIO : 0, e2, sizeof e2) != 0 &&
        s->err[0] == '\0')
        snprintf(s->err, sizeof s->err, "%s", e2);
    return s->err[0] ? -1 : 0;
}

int pcap_sink_close(pcap_sink *s, char *err, size_t errlen)
{
    if (!s)
        return 0;
    int rc = finish(s);
    if (rc != 0)
        snprintf(err, errlen, "%s", s->err);
    sink_free(s);
    return rc;
}

void pcap_sink_discard(pcap_sink *s)
{
    if (!s)
        return;
    if (s->dumper) {
        pcap_dump_close(s->dumper);
        s->out.f = NULL; /* closed with the dumper; sink_free removes the temporary */
    }
    sink_free(s);
}

int pcap_sink_flush(pcap_sink *s)
{
    if (s->err[0] == '\0') {
        errno = 0;
        int rc = s->ng ? fflush(s->out.f) : pcap_dump_flush(s->dumper);
        if (rc != 0 || ferror(s->out.f))
            set_errno(s, errno);
    }
    return s->err[0] ? -1 : 0;
}

int pcap_sink_error(const pcap_sink *s) { return s->err[0] != '\0'; }
const outfile *pcap_sink_file(const pcap_sink *s) { return &s->out; }
uint64_t pcap_sink_records(const pcap_sink *s) { return s->records; }
size_t pcap_sink_waiting(const pcap_sink *s) { return s->waiting.n; }
uint64_t pcap_sink_frames(const pcap_sink *s) { return s->frames; }
uint64_t pcap_sink_fragments(const pcap_sink *s) { return s->fragments; }
