/* replay.c - reading a capture into per-station arrivals (replay.h).
 *
 * One pass over the file with libpcap collects every frame that can be
 * replayed (time stamp, source station, destination address, size, octets
 * in one arena); then destinations are resolved (a destination address may
 * first appear as a source later in the file), times are made relative and
 * scaled, and the frames are sorted by (station, time, file order) so each
 * station's list is contiguous and in time order. Cost: O(F log F) for F
 * frames, memory about the capture's size.
 *
 * Nothing here trusts the file: lengths are clamped to what was captured,
 * time stamps are checked for overflow, and libpcap reports malformed or
 * truncated records, whose message is passed on with the path.
 */
#define _GNU_SOURCE /* fopencookie */
#include "replay.h"

#include <errno.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ethframe.h"
#include "pcapng_read.h"

/* The smallest whole frame, destination address through FCS (802.3
 * minFrameSize): anything shorter on the wire is a fragment or a runt. */
#define WHOLE_FRAME_MIN_BYTES 64

struct replay {
    uint32_t n_stations;
    uint8_t *addrs;        /* 6 octets per station */
    replay_frame *frames;  /* all frames, grouped by station */
    size_t *first;         /* station s owns frames[first[s], first[s + 1]) */
    uint8_t *arena;        /* every payload, back to back */
    replay_stats stats;
};

/* A frame as read, before it is sorted and resolved. */
typedef struct raw_frame {
    int64_t t_ns;
    uint64_t seq;          /* position in the file */
    uint64_t da;           /* destination address as a 48-bit number */
    uint32_t station;
    uint32_t bytes;
    size_t off;            /* payload offset in the arena */
    uint32_t len;
    bool suspect;          /* Ethernet without a valid FCS, in a capture that
                              may carry FCSs: decided once the file is read */
} raw_frame;

/* Address -> station, open addressing. OVER_CAP marks a source beyond the
 * cap (seen, not replayed). */
#define MAP_EMPTY UINT64_MAX
#define OVER_CAP (UINT32_MAX - 1)

typedef struct addr_map {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, count;
} addr_map;

static size_t map_hash(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static int map_grow(addr_map *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = MAP_EMPTY;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == MAP_EMPTY)
            continue;
        size_t j = map_hash(m->keys[i], cap);
        while (keys[j] != MAP_EMPTY)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

/* The slot of key k (found or where it would go). */
static size_t map_slot(const addr_map *m, uint64_t k)
{
    size_t j = map_hash(k, m->cap);
    while (m->keys[j] != MAP_EMPTY && m->keys[j] != k)
        j = (j + 1) & (m->cap - 1);
    return j;
}

static bool map_find(const addr_map *m, uint64_t k, uint32_t *val)
{
    if (m->cap == 0)
        return false;
    size_t j = map_slot(m, k);
    if (m->keys[j] != k)
        return false;
    *val = m->vals[j];
    return true;
}

static int map_put(addr_map *m, uint64_t k, uint32_t val)
{
    if (2 * (m->count + 1) > m->cap && map_grow(m) != 0)
        return -1;
    size_t j = map_slot(m, k);
    if (m->keys[j] == MAP_EMPTY)
        m->count++;
    m->keys[j] = k;
    m->vals[j] = val;
    return 0;
}

static uint64_t addr_u64(const uint8_t *a)
{
    uint64_t v = 0;
    for (int i = 0; i < 6; i++)
        v = v << 8 | a[i];
    return v;
}

/* Everything one load holds while it runs. */
typedef struct loader {
    const char *name;
    char *err;
    size_t errlen;
    replay_options opt;
    uint32_t min_bytes, max_bytes;
    int linktype;
    addr_map map;
    raw_frame *raw;
    size_t n_raw, cap_raw;
    uint8_t *arena;
    size_t arena_len, arena_cap;
    uint8_t *addrs;        /* station addresses, 6 octets each */
    uint32_t n_stations;
    size_t cap_addrs;
    replay_stats st;
    uint64_t seq;
    uint64_t fcs_seen;     /* Ethernet records that ended in a valid FCS */
    bool nomem; /* the failure is memory, not the input */
} loader;

static int fail(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(loader *L, const char *fmt, ...)
{
    char reason[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(L->err, L->errlen, "%s: %s", L->name, reason);
    /* libpcap's own allocations fail with "malloc: Cannot allocate memory"
     * or "out of memory". */
    if (strstr(reason, strerror(ENOMEM)) != NULL || strstr(reason, "out of memory") != NULL)
        L->nomem = true;
    return -1;
}

static int no_memory(loader *L) { return fail(L, "%s", strerror(ENOMEM)); }

static int add_station(loader *L, const uint8_t *sa, uint32_t *station)
{
    if (L->n_stations == L->cap_addrs) {
        size_t cap = L->cap_addrs ? 2 * L->cap_addrs : 16;
        uint8_t *a = realloc(L->addrs, cap * 6);
        if (!a)
            return -1;
        L->addrs = a;
        L->cap_addrs = cap;
    }
    memcpy(L->addrs + (size_t)L->n_stations * 6, sa, 6);
    *station = L->n_stations++;
    return 0;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One record as read, from libpcap or pcapng_read. */
typedef struct record_in {
    int linktype;
    int64_t t_ns;
    uint32_t caplen, len;
    const uint8_t *data;
    uint32_t flags;        /* pcapng epb_flags (0: none) */
    int fcs_bytes;         /* 4 or 0 when the file says, else PCAPNG_READ_FCS_UNKNOWN */
} record_in;

/* Takes one record. Returns 0 (kept or counted as rejected) or -1. */
static int take(loader *L, const record_in *in)
{
    const uint8_t *f = in->data;
    uint32_t len = in->len;
    uint32_t cap = in->caplen < in->len ? in->caplen : in->len;
    bool has_fcs = false, suspect = false;

    if (in->linktype != DLT_EN10MB && in->linktype != DLT_NETANALYZER &&
        in->linktype != DLT_NETANALYZER_TRANSPARENT) {
        L->st.other_link++; /* a pcapng interface of another kind */
        return 0;
    }
    if (in->flags & 0xFFFF0000u) {
        /* pcapng: the capture flagged a link-layer error (CRC, too short...). */
        L->st.frames_read++;
        L->st.errored++;
        return 0;
    }
    if (in->linktype == DLT_NETANALYZER || in->linktype == DLT_NETANALYZER_TRANSPARENT) {
        /* 4-octet little-endian header: error bits 0-7, GPIO flag bit 8. */
        if (cap < 4) {
            L->st.frames_read++;
            L->st.runt++;
            return 0;
        }
        uint32_t status = le32(f);
        if (status & 0x100)
            return 0; /* a GPIO event, not a frame */
        L->st.frames_read++;
        if (status & 0xFF) {
            L->st.errored++; /* collision fragment, bad FCS, ...: not a frame to offer */
            return 0;
        }
        f += 4, cap -= 4, len -= 4;
        if (in->linktype == DLT_NETANALYZER_TRANSPARENT) {
            static const uint8_t pre[8] = {0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0xD5};
            if (cap < 8 || memcmp(f, pre, 8) != 0) {
                L->st.errored++;
                return 0;
            }
            f += 8, cap -= 8, len -= 8;
        }
        has_fcs = true;
        if (cap == len && !ethframe_fcs_ok(f, len)) {
            L->st.bad_fcs++;
            return 0;
        }
    } else if (in->fcs_bytes != PCAPNG_READ_FCS_UNKNOWN) {
        /* pcapng says whether the frames end in their FCS. */
        L->st.frames_read++;
        has_fcs = in->fcs_bytes == ETHFRAME_FCS_BYTES;
        if (has_fcs && cap == len && !ethframe_fcs_ok(f, len)) {
            L->st.bad_fcs++;
            return 0;
        }
    } else {
        L->st.frames_read++;
        has_fcs = cap == len && len >= ETHFRAME_HEADER_BYTES + ETHFRAME_FCS_BYTES &&
                  ethframe_fcs_ok(f, len);
        if (has_fcs)
            L->fcs_seen++;
        else
            suspect = len < WHOLE_FRAME_MIN_BYTES;
    }
    if (has_fcs) {
        if (len < ETHFRAME_FCS_BYTES) {
            L->st.runt++;
            return 0;
        }
        if (len < WHOLE_FRAME_MIN_BYTES) {
            L->st.undersize++; /* a collision fragment or a runt, FCS and all */
            return 0;
        }
        len -= ETHFRAME_FCS_BYTES;
        if (cap > len)
            cap = len;
    }
    if (len < ETHFRAME_HEADER_BYTES || cap < 2 * ETHFRAME_ADDR_BYTES) {
        L->st.runt++;
        return 0;
    }
    uint64_t wire = (uint64_t)len + ETHFRAME_FCS_BYTES;
    if (wire > L->max_bytes) {
        L->st.oversize++;
        return 0;
    }
    if (wire < L->min_bytes)
        wire = L->min_bytes;

    int64_t t_ns = in->t_ns;

    uint64_t sa = addr_u64(f + 6);
    uint32_t station;
    if (!map_find(&L->map, sa, &station)) {
        L->st.sources++;
        if (L->opt.max_stations == 0 || L->n_stations < L->opt.max_stations) {
            if (add_station(L, f + 6, &station) != 0)
                return no_memory(L);
        } else {
            station = OVER_CAP;
        }
        if (map_put(&L->map, sa, station) != 0)
            return no_memory(L);
    }
    if (station == OVER_CAP) {
        L->st.over_cap++;
        return 0;
    }
    if (has_fcs)
        L->st.fcs_stripped++;
    if (cap < len)
        L->st.snapped++;

    if (L->arena_len + cap > L->arena_cap) {
        size_t ncap = L->arena_cap ? L->arena_cap : 65536;
        while (ncap < L->arena_len + cap)
            ncap *= 2;
        uint8_t *a = realloc(L->arena, ncap);
        if (!a)
            return no_memory(L);
        L->arena = a;
        L->arena_cap = ncap;
    }
    memcpy(L->arena + L->arena_len, f, cap);
    if (L->n_raw == L->cap_raw) {
        size_t ncap = L->cap_raw ? 2 * L->cap_raw : 256;
        raw_frame *r = realloc(L->raw, ncap * sizeof *r);
        if (!r)
            return no_memory(L);
        L->raw = r;
        L->cap_raw = ncap;
    }
    L->raw[L->n_raw++] = (raw_frame){
        .t_ns = t_ns, .seq = L->seq++, .da = addr_u64(f), .station = station,
        .bytes = (uint32_t)wire, .off = L->arena_len, .len = cap, .suspect = suspect,
    };
    L->arena_len += cap;
    return 0;
}

static int raw_cmp(const void *a, const void *b)
{
    const raw_frame *x = a, *y = b;
    if (x->station != y->station)
        return x->station < y->station ? -1 : 1;
    if (x->t_ns != y->t_ns)
        return x->t_ns < y->t_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const char *linktype_text(int dlt, char *buf, size_t n)
{
    const char *name = pcap_datalink_val_to_name(dlt);
    const char *desc = pcap_datalink_val_to_description(dlt);
    if (name)
        snprintf(buf, n, "%s (%s)", name, desc ? desc : "no description");
    else
        snprintf(buf, n, "%d", dlt);
    return buf;
}

static int read_all(loader *L, pcap_t *p)
{
    L->linktype = pcap_datalink(p);
    if (L->linktype != DLT_EN10MB && L->linktype != DLT_NETANALYZER &&
        L->linktype != DLT_NETANALYZER_TRANSPARENT) {
        char lt[128];
        return fail(L, "link type %s is not Ethernet (csmacd replays EN10MB, "
                       "NETANALYZER and NETANALYZER_TRANSPARENT captures)",
                    linktype_text(L->linktype, lt, sizeof lt));
    }
    for (;;) {
        struct pcap_pkthdr *h;
        const u_char *data;
        int rc = pcap_next_ex(p, &h, &data);
        if (rc == PCAP_ERROR_BREAK)
            return 0; /* end of file */
        if (rc != 1)
            return fail(L, "%s", pcap_geterr(p));
        record_in in = {.linktype = L->linktype, .caplen = h->caplen, .len = h->len,
                        .data = data, .fcs_bytes = PCAPNG_READ_FCS_UNKNOWN};
        if (__builtin_mul_overflow((int64_t)h->ts.tv_sec, (int64_t)1000000000, &in.t_ns) ||
            __builtin_add_overflow(in.t_ns, (int64_t)h->ts.tv_usec, &in.t_ns))
            return fail(L, "frame %llu: time stamp out of range",
                        (unsigned long long)L->st.frames_read + 1);
        if (take(L, &in) != 0)
            return -1;
    }
}

/* pcapng, read here: libpcap refuses interfaces of different link types. */
static int read_pcapng(loader *L, FILE *fp)
{
    pcapng_reader *r = NULL;
    char why[200];
    if (pcapng_read_open(fp, &r, why, sizeof why) != 0)
        return fail(L, "%s", why);
    int rc;
    pcapng_record rec;
    while ((rc = pcapng_read_next(r, &rec, why, sizeof why)) == 1) {
        record_in in = {.linktype = rec.linktype, .t_ns = rec.t_ns, .caplen = rec.caplen,
                        .len = rec.len, .data = rec.data, .flags = rec.flags,
                        .fcs_bytes = rec.fcs_bytes};
        if (take(L, &in) != 0) {
            pcapng_read_close(r);
            return -1;
        }
    }
    pcapng_read_close(r);
    if (rc < 0)
        return fail(L, "%s", why);
    if (L->st.frames_read == 0 && L->st.other_link > 0)
        return fail(L, "no interface of the capture is Ethernet (csmacd replays EN10MB, "
                       "NETANALYZER and NETANALYZER_TRANSPARENT captures)");
    return 0;
}

/* In a classic Ethernet capture whose records carry FCSs (one valid FCS
 * is proof: a false match has probability 2^-32), a record shorter than
 * 64 octets without a valid FCS is not a whole frame: a collision
 * fragment or a runt, as a trace written with --pcap-linktype ethernet
 * holds. Those are dropped and counted (bad_fcs), and stations that only
 * sent such records are dropped too (the others keep their order of first
 * appearance). A longer record without a valid FCS is taken as a frame
 * captured without it (captures may mix both; pcap does not say): a late
 * collision's fragment in such a trace is still offered. pcapng and
 * netANALYZER captures say it themselves and are judged record by record. */
static int drop_suspects(loader *L)
{
    if (L->fcs_seen == 0)
        return 0;
    size_t kept = 0;
    for (size_t i = 0; i < L->n_raw; i++) {
        if (L->raw[i].suspect)
            L->st.bad_fcs++;
        else
            L->raw[kept++] = L->raw[i];
    }
    if (kept == L->n_raw)
        return 0;
    L->n_raw = kept;
    uint32_t *remap = malloc(((size_t)L->n_stations + 1) * sizeof *remap);
    if (!remap)
        return no_memory(L);
    for (uint32_t s = 0; s < L->n_stations; s++)
        remap[s] = UINT32_MAX;
    for (size_t i = 0; i < L->n_raw; i++)
        remap[L->raw[i].station] = 0;
    uint32_t n = 0;
    for (uint32_t s = 0; s < L->n_stations; s++)
        if (remap[s] == 0) {
            memmove(L->addrs + (size_t)n * 6, L->addrs + (size_t)s * 6, 6);
            remap[s] = n++;
        }
    for (size_t i = 0; i < L->n_raw; i++)
        L->raw[i].station = remap[L->raw[i].station];
    for (size_t j = 0; j < L->map.cap; j++)
        if (L->map.keys[j] != MAP_EMPTY && L->map.vals[j] != OVER_CAP)
            L->map.vals[j] = remap[L->map.vals[j]] == UINT32_MAX ? OVER_CAP : remap[L->map.vals[j]];
    L->n_stations = n;
    free(remap);
    return 0;
}

/* Relative, scaled times; destinations; grouping by station. */
static int build(loader *L, replay *r)
{
    int64_t base = INT64_MAX;
    for (size_t i = 0; i < L->n_raw; i++)
        if (L->raw[i].t_ns < base)
            base = L->raw[i].t_ns;
    for (size_t i = 0; i < L->n_raw; i++) {
        int64_t rel_ns;
        if (__builtin_sub_overflow(L->raw[i].t_ns, base, &rel_ns))
            return fail(L, "time stamps span too long a time to replay");
        int64_t ps;
        if (L->opt.time_scale == 1.0) {
            if (__builtin_mul_overflow(rel_ns, (int64_t)SIM_PS_PER_NS, &ps))
                return fail(L, "time stamps span too long a time to replay");
        } else {
            double v = (double)rel_ns * (double)SIM_PS_PER_NS * L->opt.time_scale;
            if (!(v < 9.0e18))
                return fail(L, "time stamps span too long a time to replay at time scale %g",
                            L->opt.time_scale);
            ps = llround(v);
        }
        L->raw[i].t_ns = ps; /* from here on: picoseconds from the start */
    }
    qsort(L->raw, L->n_raw, sizeof *L->raw, raw_cmp);

    r->n_stations = L->n_stations;
    r->frames = malloc(L->n_raw * sizeof *r->frames);
    r->first = calloc((size_t)L->n_stations + 1, sizeof *r->first);
    if (!r->frames || !r->first)
        return no_memory(L);
    for (size_t i = 0; i < L->n_raw; i++) {
        const raw_frame *w = &L->raw[i];
        uint32_t dest = REPLAY_BROADCAST, d;
        bool group = (w->da >> 40) & 1; /* I/G bit of the first octet */
        if (!group && map_find(&L->map, w->da, &d) && d != OVER_CAP && d != w->station)
            dest = d;
        r->frames[i] = (replay_frame){
            .time = w->t_ns, .bytes = w->bytes, .dest = dest,
            .payload = L->arena + w->off, .payload_len = w->len,
        };
        r->first[w->station + 1]++;
    }
    for (uint32_t s = 0; s < L->n_stations; s++)
        r->first[s + 1] += r->first[s];
    return 0;
}

/* A stream that cannot seek (a pipe) after its first octets were read to
 * tell the format: a stream that gives those octets back, then the rest
 * as it comes. Both readers read straight through, so nothing is held in
 * memory but what they keep (a pipe of zeros is refused at its first four
 * octets, not after being read whole). */
typedef struct prefixed {
    FILE *fp;
    uint8_t head[4];
    size_t n_head, at;
} prefixed;

static ssize_t prefixed_read(void *cookie, char *buf, size_t size)
{
    prefixed *pf = cookie;
    if (pf->at < pf->n_head) {
        size_t n = pf->n_head - pf->at < size ? pf->n_head - pf->at : size;
        memcpy(buf, pf->head + pf->at, n);
        pf->at += n;
        return (ssize_t)n;
    }
    size_t n = fread(buf, 1, size, pf->fp);
    return n == 0 && ferror(pf->fp) ? -1 : (ssize_t)n;
}

static int prefixed_close(void *cookie)
{
    prefixed *pf = cookie;
    int rc = fclose(pf->fp);
    free(pf);
    return rc;
}

/* fp with head[0..n) put back in front; fp is closed with it (or now, on
 * failure: NULL with errno). */
static FILE *put_back(FILE *fp, const uint8_t *head, size_t n)
{
    prefixed *pf = calloc(1, sizeof *pf);
    if (pf == NULL) {
        fclose(fp);
        errno = ENOMEM;
        return NULL;
    }
    pf->fp = fp;
    memcpy(pf->head, head, n);
    pf->n_head = n;
    FILE *f = fopencookie(pf, "rb",
                          (cookie_io_functions_t){.read = prefixed_read, .close = prefixed_close});
    if (f == NULL) {
        int e = errno;
        fclose(fp);
        free(pf);
        errno = e ? e : ENOMEM;
    }
    return f;
}

/* Whether four octets open a classic pcap file: the magic of microsecond,
 * nanosecond or Kuznetzov's modified files, in either byte order. */
static bool pcap_magic(const uint8_t m[4])
{
    static const uint32_t magics[] = {0xa1b2c3d4u, 0xa1b23c4du, 0xa1b2cd34u};
    uint32_t le = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 |
                  (uint32_t)m[3] << 24;
    uint32_t be = (uint32_t)m[3] | (uint32_t)m[2] << 8 | (uint32_t)m[1] << 16 |
                  (uint32_t)m[0] << 24;
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (le == magics[i] || be == magics[i])
            return true;
    return false;
}

int replay_load_stream(FILE *fp, const char *name, const replay_options *opt,
                       uint32_t min_frame_bytes, uint32_t max_frame_bytes, replay **out,
                       char *err, size_t errlen)
{
    *out = NULL;
    loader L = {.name = name, .err = err, .errlen = errlen, .opt = *opt,
                .min_bytes = min_frame_bytes, .max_bytes = max_frame_bytes};
    replay *r = NULL;
    pcap_t *p = NULL;
    int rc = -1;

    if (!(opt->time_scale > 0.0 && isfinite(opt->time_scale))) {
        fail(&L, "time scale %g is not a positive number", opt->time_scale);
        fclose(fp);
        return -1;
    }
    int c = fgetc(fp);
    if (c == EOF) {
        if (ferror(fp))
            fail(&L, "%s", strerror(errno));
        else
            fail(&L, "empty file");
        fclose(fp);
        return -1;
    }
    ungetc(c, fp);
    /* The first four octets choose the reader, which reads from the start:
     * a file is rewound, a stream that cannot seek (a pipe) gets them put
     * back in front of the rest. Neither format: refused at once. */
    uint8_t magic[4] = {0};
    bool seekable = fseek(fp, 0, SEEK_CUR) == 0;
    size_t got = fread(magic, 1, 4, fp);
    if (got < 4 || (!pcapng_read_magic(magic) && !pcap_magic(magic))) {
        fail(&L, "%s",
             ferror(fp) ? strerror(errno ? errno : EIO)
                        : "not a pcap or pcapng capture (unknown file format)");
        fclose(fp);
        return -1;
    }
    if (seekable) {
        rewind(fp);
    } else if ((fp = put_back(fp, magic, got)) == NULL) {
        fail(&L, "%s", strerror(errno ? errno : ENOMEM));
        return L.nomem ? REPLAY_NO_MEMORY : -1;
    }
    if (pcapng_read_magic(magic)) {
        if (read_pcapng(&L, fp) != 0) {
            fclose(fp);
            goto out;
        }
        fclose(fp);
        goto loaded;
    }

    char errbuf[PCAP_ERRBUF_SIZE] = "";
    p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p) {
        /* libpcap leaves the stream to the caller when it fails. */
        fclose(fp);
        if (strcmp(errbuf, "unknown file format") == 0)
            fail(&L, "not a pcap or pcapng capture (unknown file format)");
        else
            fail(&L, "%s", errbuf);
        return -1;
    }
    if (read_all(&L, p) != 0)
        goto out;
loaded:
    if (drop_suspects(&L) != 0)
        goto out;
    if (L.n_raw == 0) {
        if (L.st.frames_read == 0)
            fail(&L, "the capture holds no frames");
        else
        {
            char more[128] = "";
            if (L.st.bad_fcs + L.st.undersize > 0)
                snprintf(more, sizeof more, ", %llu with a bad FCS, %llu shorter than 64 octets",
                         (unsigned long long)L.st.bad_fcs, (unsigned long long)L.st.undersize);
            fail(&L, "none of the %llu frames can be replayed (%llu over %u bytes, %llu "
                     "shorter than an Ethernet header, %llu flagged in error%s)",
                 (unsigned long long)L.st.frames_read, (unsigned long long)L.st.oversize,
                 max_frame_bytes, (unsigned long long)L.st.runt,
                 (unsigned long long)L.st.errored, more);
        }
        goto out;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        no_memory(&L);
        goto out;
    }
    if (build(&L, r) != 0)
        goto out;
    L.st.frames_loaded = L.n_raw;
    r->arena = L.arena;
    L.arena = NULL;
    r->addrs = L.addrs;
    L.addrs = NULL;
    r->stats = L.st;
    *out = r;
    r = NULL;
    rc = 0;
out:
    if (p)
        pcap_close(p); /* closes fp */
    replay_destroy(r);
    free(L.map.keys);
    free(L.map.vals);
    free(L.raw);
    free(L.arena);
    free(L.addrs);
    return rc != 0 && L.nomem ? REPLAY_NO_MEMORY : rc;
}

int replay_load(const char *path, const replay_options *opt, uint32_t min_frame_bytes,
                uint32_t max_frame_bytes, replay **out, char *err, size_t errlen)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return errno == ENOMEM ? REPLAY_NO_MEMORY : -1;
    }
    return replay_load_stream(fp, path, opt, min_frame_bytes, max_frame_bytes, out, err,
                              errlen);
}

void replay_destroy(replay *r)
{
    if (!r)
        return;
    free(r->addrs);
    free(r->frames);
    free(r->first);
    free(r->arena);
    free(r);
}

uint32_t replay_station_count(const replay *r) { return r->n_stations; }

size_t replay_frame_count(const replay *r, uint32_t station)
{
    return station < r->n_stations ? r->first[station + 1] - r->first[station] : 0;
}

const replay_frame *replay_frames(const replay *r, uint32_t station)
{
    return station < r->n_stations ? r->frames + r->first[station] : NULL;
}

const uint8_t *replay_station_addr(const replay *r, uint32_t station)
{
    return station < r->n_stations ? r->addrs + (size_t)station * 6 : NULL;
}

uint64_t replay_rejected(const replay *r)
{
    return r->stats.oversize + r->stats.runt + r->stats.errored + r->stats.over_cap +
           r->stats.bad_fcs + r->stats.undersize;
}

void replay_get_stats(const replay *r, replay_stats *out) { *out = r->stats; }
