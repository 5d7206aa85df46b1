/* pcapng.c - the pcapng blocks csmacd writes (pcapng.h).
 *
 * A block is: type (32 bits), total length (32 bits), the body padded to
 * 4 octets, options (code 16 bits, length 16 bits, value padded to 4),
 * opt_endofopt, and the total length again. Each block is assembled in a
 * buffer and written at once, so a reader of a stream (a pipe to tshark)
 * never waits on half a block longer than stdio's buffering.
 */
#include "pcapng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define BYTE_ORDER_MAGIC 0x1A2B3C4Du

#define OPT_ENDOFOPT 0
#define OPT_COMMENT 1
#define SHB_USERAPPL 4
#define IF_NAME 2
#define IF_DESCRIPTION 3
#define IF_SPEED 8
#define IF_TSRESOL 9
#define IF_FCSLEN 13
#define EPB_FLAGS 2

#define MAX_OPTION_OCTETS 65532u /* a 16-bit length, padded to 4 */

typedef struct block {
    uint8_t *p;
    size_t len, cap;
    int failed;
} block;

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

static void reserve(block *b, size_t more)
{
    if (b->failed || b->len + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (p == NULL) {
        b->failed = 1;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static void put(block *b, const void *data, size_t n)
{
    reserve(b, pad4(n));
    if (b->failed)
        return;
    memcpy(b->p + b->len, data, n);
    memset(b->p + b->len + n, 0, pad4(n) - n);
    b->len += pad4(n);
}

static void put_u16_pair(block *b, uint16_t a, uint16_t c)
{
    uint8_t v[4] = {(uint8_t)a, (uint8_t)(a >> 8), (uint8_t)c, (uint8_t)(c >> 8)};
    put(b, v, 4);
}

static void put_u32(block *b, uint32_t x)
{
    uint8_t v[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
    put(b, v, 4);
}

static void put_u64(block *b, uint64_t x)
{
    put_u32(b, (uint32_t)x);
    put_u32(b, (uint32_t)(x >> 32));
}

static void put_option(block *b, uint16_t code, const void *value, size_t n)
{
    if (n > MAX_OPTION_OCTETS)
        n = MAX_OPTION_OCTETS;
    put_u16_pair(b, code, (uint16_t)n);
    put(b, value, n);
}

static void put_string(block *b, uint16_t code, const char *s)
{
    if (s != NULL && s[0] != '\0')
        put_option(b, code, s, strlen(s));
}

static void begin(block *b, uint32_t type)
{
    memset(b, 0, sizeof *b);
    put_u32(b, type);
    put_u32(b, 0); /* total length, set by finish */
}

/* Ends the options (when any were written after `body_end`), closes the
 * block with its length and writes it. */
static int finish(block *b, FILE *f, size_t body_end)
{
    if (b->len > body_end)
        put_u32(b, OPT_ENDOFOPT);
    put_u32(b, 0);
    int rc = -1;
    if (b->failed) {
        errno = ENOMEM;
    } else {
        uint32_t total = (uint32_t)b->len;
        for (int i = 0; i < 4; i++) {
            b->p[4 + i] = (uint8_t)(total >> (8 * i));
            b->p[b->len - 4 + (size_t)i] = (uint8_t)(total >> (8 * i));
        }
        errno = 0;
        if (fwrite(b->p, 1, b->len, f) == b->len && !ferror(f))
            rc = 0;
        else if (errno == 0)
            errno = EIO;
    }
    free(b->p);
    return rc;
}

int pcapng_write_section(FILE *f, const char *application, const char *comment)
{
    block b;
    begin(&b, BT_SHB);
    put_u32(&b, BYTE_ORDER_MAGIC);
    put_u16_pair(&b, 1, 0);    /* version 1.0 */
    put_u64(&b, UINT64_MAX);  /* section length: -1, not known */
    size_t body = b.len;
    put_string(&b, OPT_COMMENT, comment);
    put_string(&b, SHB_USERAPPL, application);
    return finish(&b, f, body);
}

int pcapng_write_interface(FILE *f, const pcapng_interface *iface)
{
    block b;
    begin(&b, BT_IDB);
    put_u16_pair(&b, iface->linktype, 0);
    put_u32(&b, iface->snaplen);
    size_t body = b.len;
    put_string(&b, IF_NAME, iface->name);
    put_string(&b, IF_DESCRIPTION, iface->description);
    if (iface->speed_bps != 0) {
        uint8_t v[8];
        for (int i = 0; i < 8; i++)
            v[i] = (uint8_t)(iface->speed_bps >> (8 * i));
        put_option(&b, IF_SPEED, v, 8);
    }
    uint8_t nanoseconds = 9; /* 10^-9 s */
    put_option(&b, IF_TSRESOL, &nanoseconds, 1);
    if (iface->fcs_bits != 0)
        put_option(&b, IF_FCSLEN, &iface->fcs_bits, 1);
    return finish(&b, f, body);
}

int pcapng_write_packet(FILE *f, uint32_t iface, uint64_t ts_ns, const uint8_t *data,
                        uint32_t len, uint32_t flags, const char *comment)
{
    block b;
    begin(&b, BT_EPB);
    put_u32(&b, iface);
    put_u32(&b, (uint32_t)(ts_ns >> 32));
    put_u32(&b, (uint32_t)ts_ns);
    put_u32(&b, len);
    put_u32(&b, len);
    put(&b, data, len);
    size_t body = b.len;
    put_string(&b, OPT_COMMENT, comment);
    if (flags != 0) {
        uint8_t v[4] = {(uint8_t)flags, (uint8_t)(flags >> 8), (uint8_t)(flags >> 16),
                        (uint8_t)(flags >> 24)};
        put_option(&b, EPB_FLAGS, v, 4);
    }
    return finish(&b, f, body);
}
