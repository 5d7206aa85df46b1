/* pcapng.h - a small writer of the pcapng capture format.
 *
 * libpcap reads pcapng but cannot write it, and csmacd needs what only
 * pcapng carries: two interfaces of different link types in one file
 * (whole frames as Ethernet, collision fragments in a type that shows them
 * without "Malformed"), a comment and error flags on every record, and
 * nanosecond stamps past 2038. libwiretap (Wireshark's own library) could
 * write it, but it is not packaged as a development library on Debian and
 * would pull Wireshark's GLib stack into a C11 program for four block
 * types. The format is small, stable and documented (the IETF draft "PCAP
 * Next Generation (pcapng) Capture File Format"), so this writer emits
 * exactly the blocks csmacd uses and nothing else:
 *   - a Section Header Block (version 1.0, section length -1: unknown, so
 *     the file can be written as a stream, never seeking back), with
 *     shb_userappl and opt_comment;
 *   - Interface Description Blocks with if_name, if_description, if_speed,
 *     if_tsresol (always 9: nanoseconds) and if_fcslen;
 *   - Enhanced Packet Blocks with opt_comment and epb_flags.
 * Every field is written little-endian (the byte-order magic says so), so
 * a file is the same on every machine. Strings are written as given
 * (UTF-8, no terminating NUL) and are cut at 65532 octets (an option's
 * length is 16 bits, padded to 4). Each function builds its block in
 * memory and writes it with one fwrite: it returns 0, or -1 when the
 * stream reports an error (errno is left as the write set it) or memory
 * ran out (errno ENOMEM). It knows nothing of Ethernet or of csmacd.
 */
#ifndef CSMACD_PCAPNG_H
#define CSMACD_PCAPNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Link types (the tcpdump.org registry) csmacd writes. */
#define PCAPNG_LINKTYPE_ETHERNET 1
#define PCAPNG_LINKTYPE_NETANALYZER_TRANSPARENT 241

/* epb_flags: the FCS length in octets (bits 5-8) and the link-layer
 * errors of bits 16-31. */
#define PCAPNG_EPB_FCS_LEN(octets) ((uint32_t)(octets) << 5)
#define PCAPNG_EPB_CRC_ERROR (1u << 24)
#define PCAPNG_EPB_TOO_LONG (1u << 25)
#define PCAPNG_EPB_TOO_SHORT (1u << 26)
#define PCAPNG_EPB_SYMBOL_ERROR (1u << 31)

typedef struct pcapng_interface {
    uint16_t linktype;
    uint32_t snaplen;
    const char *name;        /* if_name, or NULL */
    const char *description; /* if_description, or NULL */
    uint64_t speed_bps;      /* if_speed, 0 to leave it out */
    uint8_t fcs_bits;        /* if_fcslen (the draft counts it in bits), 0 to leave it out */
} pcapng_interface;

/* The section header: `application` (shb_userappl) and `comment`
 * (opt_comment, may hold several lines) may be NULL. */
int pcapng_write_section(FILE *f, const char *application, const char *comment);

/* An interface; the first written in a section is number 0. */
int pcapng_write_interface(FILE *f, const pcapng_interface *iface);

/* A record of `len` octets captured whole on interface `iface`, stamped
 * `ts_ns` nanoseconds after 1970-01-01T00:00:00Z; `flags` (epb_flags) is
 * left out when 0, `comment` when NULL. */
int pcapng_write_packet(FILE *f, uint32_t iface, uint64_t ts_ns, const uint8_t *data,
                        uint32_t len, uint32_t flags, const char *comment);

#endif
