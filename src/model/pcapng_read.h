/* pcapng_read.h - reads the packets of a pcapng file, whatever the link
 * types of its interfaces.
 *
 * libpcap reads pcapng, but refuses a file whose interfaces differ in link
 * type ("an interface has a type ... different from the type of the first
 * interface"), and that is exactly what csmacd writes: whole frames on an
 * Ethernet interface, collision fragments on a netANALYZER one. So the
 * replay (replay.h) reads pcapng here and classic pcap with libpcap.
 *
 * What it understands (the IETF draft "PCAP Next Generation (pcapng)
 * Capture File Format"): sections in either byte order, version 1.x, each
 * resetting the interfaces; Interface Description Blocks with their link
 * type, if_tsresol (powers of 10 or of 2), if_tsoffset and if_fcslen;
 * Enhanced Packet Blocks with epb_flags; Simple Packet Blocks and the
 * obsolete Packet Blocks. Every other block is skipped. Nothing in the
 * file is trusted: block lengths are checked against the file, their
 * trailer and a 64 MiB ceiling, lengths inside a block against the block,
 * interface numbers against the interfaces seen, time stamps against
 * overflow. Errors fill the caller's buffer with a reason (no path) and
 * return -1.
 */
#ifndef CSMACD_PCAPNG_READ_H
#define CSMACD_PCAPNG_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct pcapng_reader pcapng_reader;

#define PCAPNG_READ_FCS_UNKNOWN (-1)

typedef struct pcapng_record {
    uint16_t linktype;     /* of the record's interface */
    int64_t t_ns;          /* nanoseconds since 1970-01-01T00:00:00Z */
    uint32_t caplen, len;  /* octets captured, octets on the wire */
    const uint8_t *data;   /* caplen octets, valid until the next call */
    uint32_t flags;        /* epb_flags, 0 when absent */
    int fcs_bytes;         /* FCS octets at the end: from epb_flags, else
                              the interface's if_fcslen, else UNKNOWN */
} pcapng_record;

/* Whether the first four octets of a file are a pcapng section header. */
bool pcapng_read_magic(const uint8_t first[4]);

/* Starts reading at the beginning of fp (not closed here). Returns 0, or
 * -1 with a reason in err. */
int pcapng_read_open(FILE *fp, pcapng_reader **out, char *err, size_t errlen);
/* The next packet: 1, 0 at the end of the file, or -1 with a reason. */
int pcapng_read_next(pcapng_reader *r, pcapng_record *rec, char *err, size_t errlen);
void pcapng_read_close(pcapng_reader *r);

#endif
