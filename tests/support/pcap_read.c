/* pcap_read.c - see pcap_read.h. */
#include "pcap_read.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcap_read_all(const char *path, pcap_contents *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char eb[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, eb);
    if (!p) {
        snprintf(err, errlen, "%s: %s", path, eb);
        return -1;
    }
    out->linktype = pcap_datalink(p);
    out->snaplen = pcap_snapshot(p);
    out->nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
    size_t cap = 0;
    for (;;) {
        struct pcap_pkthdr *h;
        const u_char *d;
        int rc = pcap_next_ex(p, &h, &d);
        if (rc == PCAP_ERROR_BREAK)
            break;
        if (rc != 1) {
            snprintf(err, errlen, "%s: %s", path, pcap_geterr(p));
            pcap_close(p);
            pcap_contents_free(out);
            return -1;
        }
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            out->recs = realloc(out->recs, cap * sizeof *out->recs);
            if (!out->recs)
                abort();
        }
        pcap_rec *r = &out->recs[out->n++];
        r->ts_ns = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec;
        r->caplen = h->caplen;
        r->len = h->len;
        r->data = malloc(h->caplen ? h->caplen : 1);
        if (!r->data)
            abort();
        memcpy(r->data, d, h->caplen);
    }
    pcap_close(p);
    return 0;
}

void pcap_contents_free(pcap_contents *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->recs[i].data);
    free(c->recs);
    memset(c, 0, sizeof *c);
}

uint8_t *read_file_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    uint8_t *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    *len = n;
    return b;
}
