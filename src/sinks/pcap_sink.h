/* pcap_sink.h - a trace sink that writes what the probe saw as a pcap file.
 *
 * The file is a classic pcap (libpcap's pcap_dump), link type DLT_EN10MB,
 * nanosecond time stamps, snapshot length 65535 (more only when max-frame
 * is overridden close to 64 KiB), every record whole (caplen == len). Each transmission that
 * left its transmitter whole or collided (a TRACE_TX_END of a frame attempt)
 * becomes one record:
 *   - a whole frame: the Ethernet frame as built (ethframe.h), destination
 *     address through FCS, padded to the minimum size: its length is the
 *     frame size the run reports (so a minimum frame is 64 octets);
 *   - a collided attempt: the fragment actually on the wire, the whole
 *     octets of the frame sent before the jam, then the jam (0x55 octets):
 *     (bits_on_wire - preamble/SFD bits) / 8 octets, rounded down. Normal
 *     collisions give fragments shorter than 64 octets, so `frame.len < 64`
 *     finds them in a plain Wireshark. `collisions = false` leaves them out.
 * Extension bursts between the frames of a 1 Gb/s burst are not records
 * (they carry no octets), and carrier extension is not part of a record.
 * Replayed frames carry their original bytes (trace_event.payload) padded
 * to the frame size, then a freshly computed FCS.
 *
 * Link type: DLT_EN10MB by default. PCAP_SINK_NETANALYZER writes the
 * same frames (FCS included, which this link type states for every record)
 * behind the 4-octet little-endian header of Hilscher's netANALYZER
 * (LINKTYPE_NETANALYZER): error bits 0-7 (bit 1 alignment error: the
 * fragment held a part octet, dropped; bit 2 FCS error: its last 4 octets
 * are not its FCS; bit 5 shorter than 64 octets), header version 1 in bits
 * 10-13, the frame's length in bits 16-27. Wireshark then marks collision
 * fragments as errored frames with no plugin, and knows where the FCS is.
 * It carries frames up to 4095 octets, so the PHY's max-frame must allow
 * for that (checked at open).
 *
 * Time stamps: each record is stamped with the instant its first preamble
 * bit passes the probe (trace_event.probe_start), counted from the start of
 * the run (so Wireshark shows dates in January 1970), rounded DOWN to the
 * nanosecond. Rounding down is monotonic, so the file's order survives it;
 * at 10 and 100 Mb/s a bit lasts a whole number of nanoseconds, so a gap of
 * 96 bit times between two frames stamped at bit boundaries stays exact.
 * Records are written in order of (probe_start, transmission id), which is
 * non-decreasing time: the engine ends transmissions in another order than
 * they reach the probe, so finished records wait in a heap until no earlier
 * stamp can come (see pcap_sink.c). A transmission still under way when the
 * run stops is not written. Output is a pure function of the events, so a
 * scenario and a seed give a byte-identical file.
 *
 * Files: the sink writes through an outfile (outfile.h): a temporary in
 * the target's folder, renamed over `path` when pcap_sink_close succeeds,
 * so `path` is either the previous file or a complete trace; links,
 * devices and permissions are handled there. Errors (open, write, flush,
 * rename) are kept as the first, sticky
 * "path: reason" and returned by pcap_sink_close; events after an error are
 * ignored.
 */
#ifndef CSMACD_PCAP_SINK_H
#define CSMACD_PCAP_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phy.h"
#include "trace.h"

typedef struct pcap_sink pcap_sink;

typedef enum pcap_sink_linktype {
    PCAP_SINK_ETHERNET,    /* DLT_EN10MB: frames with FCS, fragments by length */
    PCAP_SINK_NETANALYZER, /* DLT_NETANALYZER: the same, each after a status
                              header that flags fragments natively */
} pcap_sink_linktype;

typedef struct pcap_sink_options {
    bool collisions; /* write collision fragments too (--pcap-collisions yes) */
} pcap_sink_options;

/* Opens the output, link type Ethernet. `phy` gives the preamble, jam and
 * frame sizes; it is copied. Returns 0, or -1 with "path: reason" in err. */
int pcap_sink_open(const char *path, const phy_params *phy, const pcap_sink_options *opt,
                   pcap_sink **out, char *err, size_t errlen);

/* The same with a chosen link type (--pcap-linktype). */
int pcap_sink_open_linktype(const char *path, const phy_params *phy,
                            const pcap_sink_options *opt, pcap_sink_linktype linktype,
                            pcap_sink **out, char *err, size_t errlen);

/* The trace sink to hand to engine_add_sink (ctx is the pcap_sink). */
trace_sink pcap_sink_trace(pcap_sink *s);

/* The sink's callback (what pcap_sink_trace points at). */
void pcap_sink_on_event(void *ctx, const trace_event *ev);

/* Writes the records still waiting, flushes, checks for errors, closes and
 * renames the file into place; frees the sink. Returns 0, or -1 with the
 * first error "path: reason" in err (the temporary file is then removed).
 * s may be NULL (returns 0). */
int pcap_sink_close(pcap_sink *s, char *err, size_t errlen);

/* Gives up: closes and removes the temporary file, frees the sink. For
 * error paths where the run's outputs must not appear. NULL is allowed. */
void pcap_sink_discard(pcap_sink *s);

/* Nonzero once an error is kept (the run may stop early; close reports it). */
int pcap_sink_error(const pcap_sink *s);
/* The file being written (outfile.h), for its size. */
const struct outfile *pcap_sink_file(const pcap_sink *s);

/* Records in the trace so far, and of them whole frames and fragments:
 * written, or finished and waiting to be written in order (a successful
 * close writes them all). */
uint64_t pcap_sink_records(const pcap_sink *s);
/* Of them, those still waiting for earlier stamps (not yet written). */
size_t pcap_sink_waiting(const pcap_sink *s);
uint64_t pcap_sink_frames(const pcap_sink *s);
uint64_t pcap_sink_fragments(const pcap_sink *s);

#endif
