/* pcapng_read.c - the packets of a pcapng file (pcapng_read.h).
 *
 * One block at a time: its header (type, length), then the whole block
 * into a buffer that grows to the largest block seen, checked for its
 * trailer before anything in it is read.
 */
#include "pcapng_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_PB 0x00000002u  /* obsolete Packet Block */
#define BT_SPB 0x00000003u
#define BT_EPB 0x00000006u
#define MAGIC 0x1A2B3C4Du
#define MAGIC_SWAPPED 0x4D3C2B1Au
#define MAX_BLOCK (64u << 20)
#define MAX_INTERFACES 65536u

#define OPT_ENDOFOPT 0
#define IF_TSRESOL 9
#define IF_FCSLEN 13
#define IF_TSOFFSET 14
#define EPB_FLAGS 2

typedef struct iface {
    uint16_t linktype;
    uint32_t snaplen;
    uint8_t tsresol;     /* as in the file: bit 7 set for powers of 2 */
    int64_t tsoffset_s;
    int fcs_bytes;
} iface;

struct pcapng_reader {
    FILE *fp;
    bool swapped;        /* the section's byte order is not the reader's (little-endian) */
    bool in_section;
    iface *ifaces;
    uint32_t n_ifaces, cap_ifaces;
    uint8_t *buf;
    size_t cap_buf;
};

bool pcapng_read_magic(const uint8_t first[4])
{
    return first[0] == 0x0A && first[1] == 0x0D && first[2] == 0x0D && first[3] == 0x0A;
}

static uint32_t rd32(const pcapng_reader *r, const uint8_t *p)
{
    if (r->swapped)
        return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const pcapng_reader *r, const uint8_t *p)
{
    return r->swapped ? (uint16_t)(p[1] | p[0] << 8) : (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t rd64(const pcapng_reader *r, const uint8_t *p)
{
    uint64_t a = rd32(r, p), b = rd32(r, p + 4);
    return r->swapped ? a << 32 | b : b << 32 | a;
}

static int fail(char *err, size_t errlen, const char *reason)
{
    snprintf(err, errlen, "%s", reason);
    return -1;
}

int pcapng_read_open(FILE *fp, pcapng_reader **out, char *err, size_t errlen)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return fail(err, errlen, strerror(ENOMEM));
    (*out)->fp = fp;
    return 0;
}

void pcapng_read_close(pcapng_reader *r)
{
    if (r == NULL)
        return;
    free(r->ifaces);
    free(r->buf);
    free(r);
}

/* Reads exactly n octets: 1, 0 at a clean end of file (nothing read), -1. */
static int read_exact(pcapng_reader *r, uint8_t *p, size_t n, bool may_end, char *err,
                      size_t errlen)
{
    size_t got = fread(p, 1, n, r->fp);
    if (got == n)
        return 1;
    if (ferror(r->fp))
        return fail(err, errlen, strerror(errno ? errno : EIO));
    if (got == 0 && may_end)
        return 0;
    return fail(err, errlen, "truncated pcapng block");
}

/* Walks the options in [p, end): calls back per option. */
typedef void (*option_fn)(pcapng_reader *r, void *ctx, uint16_t code, const uint8_t *v,
                          uint16_t len);

static int options(pcapng_reader *r, const uint8_t *p, const uint8_t *end, option_fn fn,
                   void *ctx, char *err, size_t errlen)
{
    while (end - p >= 4) {
        uint16_t code = rd16(r, p), len = rd16(r, p + 2);
        p += 4;
        if (code == OPT_ENDOFOPT)
            return 0;
        size_t padded = ((size_t)len + 3) & ~(size_t)3;
        if ((size_t)(end - p) < padded)
            return fail(err, errlen, "pcapng option runs past its block");
        fn(r, ctx, code, p, len);
        p += padded;
    }
    return 0;
}

static void idb_option(pcapng_reader *r, void *ctx, uint16_t code, const uint8_t *v, uint16_t len)
{
    iface *f = ctx;
    if (code == IF_TSRESOL && len >= 1)
        f->tsresol = v[0];
    else if (code == IF_TSOFFSET && len >= 8)
        f->tsoffset_s = (int64_t)rd64(r, v);
    else if (code == IF_FCSLEN && len >= 1)
        /* The draft counts bits; some writers put octets (4). */
        f->fcs_bytes = v[0] == 4 ? 4 : v[0] / 8;
}

static void epb_option(pcapng_reader *r, void *ctx, uint16_t code, const uint8_t *v, uint16_t len)
{
    if (code == EPB_FLAGS && len >= 4)
        *(uint32_t *)ctx = rd32(r, v);
}

/* A time stamp in the interface's units, as nanoseconds since 1970. */
static int to_ns(const iface *f, uint64_t ts, int64_t *ns)
{
    uint64_t v;
    if (f->tsresol & 0x80) {
        unsigned e = f->tsresol & 0x7F;
        if (e >= 64)
            return -1;
        unsigned __int128 x = (unsigned __int128)ts * 1000000000u;
        x >>= e;
        if (x > INT64_MAX)
            return -1;
        v = (uint64_t)x;
    } else {
        unsigned e = f->tsresol;
        if (e > 19)
            return -1;
        v = ts;
        for (unsigned i = e; i < 9; i++)
            if (__builtin_mul_overflow(v, 10u, &v))
                return -1;
        for (unsigned i = 9; i < e; i++)
            v /= 10;
        if (v > INT64_MAX)
            return -1;
    }
    int64_t off;
    if (__builtin_mul_overflow(f->tsoffset_s, (int64_t)1000000000, &off) ||
        __builtin_add_overflow((int64_t)v, off, ns))
        return -1;
    return 0;
}

static int section(pcapng_reader *r, const uint8_t *b, uint32_t total, char *err, size_t errlen)
{
    if (total < 28)
        return fail(err, errlen, "pcapng section header too short");
    uint16_t major = rd16(r, b + 12);
    if (major != 1)
        return fail(err, errlen, "pcapng version is not 1.x");
    r->n_ifaces = 0;
    r->in_section = true;
    return 0;
}

static int interface(pcapng_reader *r, const uint8_t *b, uint32_t total, char *err,
                     size_t errlen)
{
    if (total < 20)
        return fail(err, errlen, "pcapng interface block too short");
    if (r->n_ifaces == MAX_INTERFACES)
        return fail(err, errlen, "too many pcapng interfaces");
    if (r->n_ifaces == r->cap_ifaces) {
        uint32_t cap = r->cap_ifaces ? 2 * r->cap_ifaces : 4;
        iface *n = realloc(r->ifaces, cap * sizeof *n);
        if (n == NULL)
            return fail(err, errlen, strerror(ENOMEM));
        r->ifaces = n;
        r->cap_ifaces = cap;
    }
    iface f = {.linktype = rd16(r, b + 8), .snaplen = rd32(r, b + 12), .tsresol = 6,
               .fcs_bytes = PCAPNG_READ_FCS_UNKNOWN};
    if (options(r, b + 16, b + total - 4, idb_option, &f, err, errlen) != 0)
        return -1;
    r->ifaces[r->n_ifaces++] = f;
    return 0;
}

/* A packet block of any of the three kinds. Returns 1 with rec filled, or -1. */
static int packet(pcapng_reader *r, uint32_t type, const uint8_t *b, uint32_t total,
                  pcapng_record *rec, char *err, size_t errlen)
{
    uint32_t id, caplen, len, hdr;
    uint64_t ts = 0;
    if (type == BT_SPB) {
        if (total < 16)
            return fail(err, errlen, "pcapng simple packet block too short");
        id = 0;
        len = rd32(r, b + 8);
        hdr = 12;
        caplen = len;
    } else {
        if (total < 32)
            return fail(err, errlen, "pcapng packet block too short");
        id = type == BT_PB ? rd16(r, b + 8) : rd32(r, b + 8);
        ts = (uint64_t)rd32(r, b + 12) << 32 | rd32(r, b + 16);
        caplen = rd32(r, b + 20);
        len = rd32(r, b + 24);
        hdr = 28;
    }
    if (id >= r->n_ifaces)
        return fail(err, errlen, "pcapng packet on an interface never described");
    const iface *f = &r->ifaces[id];
    if (type == BT_SPB && f->snaplen != 0 && caplen > f->snaplen)
        caplen = f->snaplen;
    size_t room = (size_t)total - 4 - hdr;
    if (type == BT_SPB && caplen > room)
        caplen = (uint32_t)room;
    if (caplen > room)
        return fail(err, errlen, "pcapng packet longer than its block");
    if (len < caplen)
        len = caplen;
    rec->linktype = f->linktype;
    rec->caplen = caplen;
    rec->len = len;
    rec->data = b + hdr;
    rec->flags = 0;
    rec->t_ns = 0;
    if (type != BT_SPB && to_ns(f, ts, &rec->t_ns) != 0)
        return fail(err, errlen, "pcapng time stamp out of range");
    if (type == BT_EPB) {
        size_t opt = hdr + (((size_t)caplen + 3) & ~(size_t)3);
        if (opt <= (size_t)total - 4 &&
            options(r, b + opt, b + total - 4, epb_option, &rec->flags, err, errlen) != 0)
            return -1;
    }
    uint32_t fcs_flag = (rec->flags >> 5) & 0xF;
    rec->fcs_bytes = fcs_flag ? (int)fcs_flag : f->fcs_bytes;
    return 1;
}

int pcapng_read_next(pcapng_reader *r, pcapng_record *rec, char *err, size_t errlen)
{
    for (;;) {
        uint8_t head[12];
        int rc = read_exact(r, head, 8, true, err, errlen);
        if (rc <= 0)
            return rc;
        uint32_t type = rd32(r, head);
        if (type == BT_SHB) {
            /* The byte order is the section's: read it before the length. */
            if (read_exact(r, head + 8, 4, false, err, errlen) < 0)
                return -1;
            uint32_t magic = (uint32_t)head[8] | (uint32_t)head[9] << 8 |
                             (uint32_t)head[10] << 16 | (uint32_t)head[11] << 24;
            if (magic == MAGIC)
                r->swapped = false;
            else if (magic == MAGIC_SWAPPED)
                r->swapped = true;
            else
                return fail(err, errlen, "pcapng section with an unknown byte-order magic");
        } else if (!r->in_section) {
            return fail(err, errlen, "pcapng file does not begin with a section header");
        }
        uint32_t total = rd32(r, head + 4);
        if (total < 12 || total % 4 != 0 || total > MAX_BLOCK)
            return fail(err, errlen, "pcapng block of an impossible length");
        if (r->cap_buf < total) {
            uint8_t *nb = realloc(r->buf, total);
            if (nb == NULL)
                return fail(err, errlen, strerror(ENOMEM));
            r->buf = nb;
            r->cap_buf = total;
        }
        size_t have = type == BT_SHB ? 12 : 8;
        memcpy(r->buf, head, have);
        if (read_exact(r, r->buf + have, total - have, false, err, errlen) < 0)
            return -1;
        if (rd32(r, r->buf + total - 4) != total)
            return fail(err, errlen, "pcapng block trailer differs from its length");
        const uint8_t *b = r->buf;
        switch (type) {
        case BT_SHB:
            if (section(r, b, total, err, errlen) != 0)
                return -1;
            break;
        case BT_IDB:
            if (interface(r, b, total, err, errlen) != 0)
                return -1;
            break;
        case BT_EPB:
        case BT_SPB:
        case BT_PB:
            return packet(r, type, b, total, rec, err, errlen);
        default:
            break; /* statistics, name resolution, custom blocks: not needed */
        }
    }
}
