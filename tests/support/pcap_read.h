/* pcap_read.h - test helper: reads a whole pcap file back with libpcap.
 *
 * Tests trust a trace only after reading it back: this loads every record
 * (nanosecond time stamp, length, octets) into memory, and reports the
 * file's link type, snapshot length and time stamp precision.
 */
#ifndef CSMACD_TEST_PCAP_READ_H
#define CSMACD_TEST_PCAP_READ_H

#include <stddef.h>
#include <stdint.h>

typedef struct pcap_rec {
    int64_t ts_ns;   /* seconds * 1e9 + nanoseconds */
    uint32_t caplen, len;
    uint8_t *data;
} pcap_rec;

typedef struct pcap_contents {
    int linktype;
    int snaplen;
    int nano;        /* the file's own precision is nanoseconds */
    size_t n;
    pcap_rec *recs;
} pcap_contents;

/* Returns 0, or -1 with libpcap's message in err. */
int pcap_read_all(const char *path, pcap_contents *out, char *err, size_t errlen);
void pcap_contents_free(pcap_contents *c);
/* The whole file's octets (for byte-identical comparisons); NULL on error. */
uint8_t *read_file_bytes(const char *path, size_t *len);

#endif
