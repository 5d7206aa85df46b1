/* pcap_sink.h - a trace sink that writes what the probe saw as a pcap or
 * pcapng file.
 *
 * Two containers (pcap_sink_format.container):
 *   - PCAP_SINK_PCAPNG (what `csmacd run --pcap` writes unless the file
 *     name ends in ".pcap" or --pcap-format says otherwise; written by
 *     pcapng.h, libpcap cannot write pcapng): whole frames go to interface
 *     0, of link type Ethernet with the FCS (if_fcslen 32 bits, and the FCS
 *     length in each record's epb_flags), so a plain Wireshark decodes their
 *     addresses, type and payload; collision fragments and anything shorter
 *     than 64 octets go to interface 1, netANALYZER transparent (below), so
 *     Wireshark shows them with their status and never as "Malformed",
 *     each also flagged in epb_flags (CRC error when the last 4 octets are
 *     not the FCS of the rest, packet too short under 64 octets). The
 *     interfaces' descriptions name the probe, the PHY and its rate;
 *     stamps are nanoseconds (if_tsresol 9) in 64 bits, so no 2038 limit;
 *     the section header names the program and version
 *     (pcap_sink_format.application) and carries the scenario and seed
 *     (pcap_sink_format.comment). Every record carries a comment with the
 *     MAC's story (pcap_sink_story). The link type option does not apply.
 *   - PCAP_SINK_PCAP, the classic format (libpcap's pcap_dump), one link
 *     type for every record, no comments; described below.
 * Both are written as a stream (no seeking back), so standard output and
 * pipes work; pcap_sink_flush pushes what is written so far to the reader.
 *
 * The classic file has nanosecond time
 * stamps, snapshot length 65535 (more only when max-frame is overridden
 * close to 64 KiB), every record whole (caplen == len). Each transmission
 * that left its transmitter whole or collided (a TRACE_TX_END of a frame
 * attempt) becomes one record, which holds (after the link type's header,
 * below):
 *   - a whole frame: the Ethernet frame as built (ethframe.h), destination
 *     address through FCS, padded to the minimum size: its length is the
 *     frame size the run reports (so a minimum frame is 64 octets);
 *   - a collided attempt: the fragment actually on the wire, the whole
 *     octets of the frame sent before the jam, then the jam, which names
 *     its sender and attempt (ethframe_make_fragment):
 *     (bits_on_wire - preamble/SFD bits) / 8 octets, rounded down. Normal
 *     collisions at 10 and 100 Mb/s give fragments shorter than 64 octets
 *     (with the Ethernet link type, `frame.len < 64` finds them in a plain
 *     Wireshark); at 1 Gb/s a collision in the carrier extension is not
 *     late, and its fragment is the whole frame, then the jam. A fragment
 *     is always flagged in error where the format can say it (pcapng, the
 *     netANALYZER types), even when its octets read as a right frame (a
 *     jam shorter than an octet, dropped, after a whole frame): then by
 *     the receive-error bit and pcapng's symbol-error flag.
 *     `collisions = false` leaves them out.
 * Extension bursts between the frames of a 1 Gb/s burst are not records
 * (they carry no octets), and carrier extension is not part of a record.
 * Replayed frames carry their original bytes (trace_event.payload) padded
 * to the frame size, then a freshly computed FCS.
 *
 * Link types (pcap_sink_format.linktype):
 *   - PCAP_SINK_NETANALYZER_TRANSPARENT, the default: LINKTYPE_NETANALYZER_
 *     TRANSPARENT (241), Hilscher's netANALYZER in transparent mode. Each
 *     record is a 4-octet little-endian status header, then every whole
 *     octet on the wire: the preamble and SFD (0x55 ... 0xD5, preamble_bits
 *     / 8 octets), then the frame or fragment as above. Header: error bits
 *     0-7 (bit 2 FCS error: the last 4 octets are not the FCS of the frame
 *     before them; bit 5 frame shorter than 64 octets; bit 0 receive
 *     error, RX_ER, on a fragment no other bit flags), bit 9 transparent
 *     mode, header version 1 in bits 10-13, the octets after the header in
 *     bits 16-27. Wireshark shows such a record as raw octets with its
 *     status, never hands it to its Ethernet dissector, so a collision
 *     fragment of any length reads "FCS error, Frame smaller 64 bytes" with
 *     no plugin and no "Malformed Packet". A part octet at the end of a
 *     fragment is dropped as in the other types; the alignment-error bit
 *     is not set here, because in transparent mode it announces a half
 *     octet kept at the end, which is not there. The preamble must be whole
 *     octets (checked at open).
 *   - PCAP_SINK_NETANALYZER: LINKTYPE_NETANALYZER (240), the same header
 *     without bit 9 before the frame (no preamble); bit 1 (alignment error)
 *     is set when a fragment held a part octet, which was dropped.
 *     Wireshark hands each record to its Ethernet dissector, which knows
 *     the FCS is there; fragments shorter than 18 octets (a header and an
 *     FCS) then read "Malformed Packet".
 *   - PCAP_SINK_ETHERNET: DLT_EN10MB, the frames alone: every tool reads
 *     them, fragments are told apart by length (`frame.len < 64`).
 * The netANALYZER types carry records of at most 4095 octets after the
 * header (its 12-bit length field), so the PHY's max-frame must allow for
 * that (checked at open).
 * Time stamps: each record is stamped with the instant its first preamble
 * bit passes the probe (trace_event.probe_start), rounded DOWN to the
 * nanosecond, plus the trace's epoch (pcap_sink_format.epoch_s: the date
 * and time the run's t = 0 stands for; PCAP_SINK_DEFAULT_EPOCH_S, a fixed
 * date, so that reruns stay byte-identical). A pcap record holds 32-bit
 * seconds, read signed by libpcap: a record that would fall after
 * 2038-01-19T03:14:07Z (PCAP_SINK_MAX_SECONDS) is an error (kept as the sink's first error; callers check the epoch plus
 * the run's length first, pcap_sink_fits). Rounding down is monotonic, so the file's order survives it;
 * at 10 and 100 Mb/s a bit lasts a whole number of nanoseconds, so a gap of
 * 96 bit times between two frames stamped at bit boundaries stays exact.
 * Records are written in order of (probe_start, transmission id), which is
 * non-decreasing time: the engine ends transmissions in another order than
 * they reach the probe, so finished records wait in a heap until no earlier
 * stamp can come (see pcap_sink.c). A transmission still under way when the
 * run stops is not written. Output is a pure function of the events, so a
 * scenario and a seed give a byte-identical file.
 *
 * Networks (fmt.network with segments; stations/MODEL.md, "Networks of
 * segments"): every segment has its own capture point (its segment's
 * probe: on a coax segment at its probe position, on a hub at the hub),
 * and every record is what that point saw.
 *   - pcapng: two interfaces per segment k, in the network's order:
 *     "NAME-frames" (id 2k, Ethernet with FCS) and "NAME-fragments"
 *     (id 2k + 1, netANALYZER transparent), NAME the segment's; their
 *     descriptions say where the capture point is. A station's
 *     transmission is recorded on its own segment's interfaces. A
 *     repeater's relay onto a segment (TRACE_RELAY_END) is recorded there
 *     too: a frame it carried whole is the frame itself, byte for byte as
 *     its sender's record (same stamp rule: when its first preamble bit
 *     passes that segment's probe); a relay cut short, and a repeater's
 *     jam, is a fragment: the carried frame's octets until the relay
 *     turned to jam, then jam octets (ETHFRAME_JAM_MARK and sender 0: no
 *     station sent it), at most max-frame plus the jam's octets. A relay
 *     of a 1 Gb/s burst's extension alone is no record. Every comment
 *     ends in ", segment NAME"; a relay's begins "relayed: " (then the
 *     frame's story, or "jam"). A bridge port's attempt
 *     (TRACE_BRIDGE_TX_END, trace.h's trace_bridge) is a record of its
 *     segment as a station's: whole, the frame as its sender sent it
 *     (the sender's addresses and header: trace_bridge's sent_attempt,
 *     sent_backoff_slots, sent_at); collided, a fragment of it whose jam
 *     names no station (0) and the port's attempt. Its comment begins
 *     "forwarded by bridge NAME, port SEGMENT: " or "flooded by ...",
 *     then the story of the port's attempt with "queued U us in the
 *     port" (from the copy's entry into the port's queue to the
 *     attempt's first bit).
 *   - classic pcap: one capture point, the segment fmt.probe_segment
 *     (index; `csmacd run --probe-segment NAME`, the first by default);
 *     records of the other segments are left out. pcapng with
 *     fmt.probe_segment_only (--probe-segment given) keeps every
 *     segment's interfaces, and only that segment's records.
 * Without a network the file is as before: two interfaces, "csmacd-frames"
 * (0) and "csmacd-fragments" (1), no segment in the comments (a sink
 * opened without fmt.network on a network's run keeps the first
 * segment's records only, as classic pcap does).
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

typedef enum pcap_sink_container {
    PCAP_SINK_PCAP,   /* classic pcap through libpcap (zero: the old default) */
    PCAP_SINK_PCAPNG, /* pcapng: two interfaces, comments, flags */
} pcap_sink_container;

typedef enum pcap_sink_linktype {
    PCAP_SINK_ETHERNET,    /* DLT_EN10MB: frames with FCS, fragments by length */
    PCAP_SINK_NETANALYZER, /* DLT_NETANALYZER: the same, each after a status
                              header that flags fragments natively */
    PCAP_SINK_NETANALYZER_TRANSPARENT, /* DLT_NETANALYZER_TRANSPARENT: status
                              header, preamble and SFD, then the frame */
} pcap_sink_linktype;

#define PCAP_SINK_DEFAULT_LINKTYPE PCAP_SINK_NETANALYZER_TRANSPARENT
/* 2000-01-01T00:00:00Z, in seconds since 1970-01-01T00:00:00Z. */
#define PCAP_SINK_DEFAULT_EPOCH_S INT64_C(946684800)
/* The last second a pcap record can hold for every reader: the field is 32
 * bits, and libpcap (tcpdump, csmacd's own replay) reads it signed, so an
 * instant after 2038-01-19T03:14:07Z would read back as 1901. */
#define PCAP_SINK_MAX_SECONDS INT64_C(2147483647)
/* pcapng's stamps are 64-bit nanoseconds since 1970 (if_tsresol 9): the
 * last whole second they hold, 2554-07-21T23:34:33Z. */
#define PCAP_SINK_NG_MAX_SECONDS INT64_C(18446744073)

typedef struct pcap_sink_options {
    bool collisions; /* write collision fragments too (--pcap-collisions yes) */
} pcap_sink_options;

/* How the records are written (--pcap-format, --pcap-linktype,
 * --pcap-epoch). The strings are copied at open; NULL leaves them out. */
typedef struct pcap_sink_format {
    pcap_sink_linktype linktype; /* classic pcap only */
    int64_t epoch_s; /* seconds since 1970-01-01T00:00:00Z that t = 0 stands for,
                        0 to pcap_sink_max_seconds(container) */
    pcap_sink_container container;
    const char *application; /* pcapng: shb_userappl, "csmacd 1.2.0" */
    const char *comment;     /* pcapng: the section's comment (scenario, seed) */
    const char *probe;       /* pcapng: where the probe is, for the interfaces'
                                descriptions ("at 0 m on the bus") */
    const struct scenario *groups; /* pcapng: names each station's group in the
                                comments when it names groups (not copied: it
                                must outlive the sink), or NULL */
    const struct network *network; /* a network of segments (not copied), or NULL
                                (or none of segments): see "Networks" above */
    uint32_t probe_segment;  /* on a network: the segment written by classic pcap,
                                and by pcapng when probe_segment_only */
    bool probe_segment_only; /* pcapng: that segment's records only */
} pcap_sink_format;

/* The defaults: classic pcap, PCAP_SINK_DEFAULT_LINKTYPE,
 * PCAP_SINK_DEFAULT_EPOCH_S (what pcap_sink_open writes). */
pcap_sink_format pcap_sink_default_format(void);

/* The container a file name asks for: classic pcap when it ends in ".pcap"
 * (any case), pcapng otherwise ("-", "x.pcapng", "trace"). */
pcap_sink_container pcap_sink_container_for_path(const char *path);

/* The MAC's story of one record, the comment pcapng puts on it, in buf
 * (always terminated). `ev` is the record's TX_END event, with `collisions`
 * the collisions the frame had before this attempt, `backoff_slots` the
 * draw that preceded it and `late` whether this attempt's collision was
 * late; `group` the station's group name, or NULL. Examples:
 *   "station 3, frame 17, attempt 1, sent whole, queued 12.300 us"
 *   "station 3, frame 17, attempt 3 (retry), collision 3 (late), backoff 5
 *    slots, queued 812.300 us"
 * so that `frame.comment contains "station 3,"`, "retry", "late" or
 * "attempt 3" filter in a plain Wireshark. Returns the length written. */
size_t pcap_sink_story(char *buf, size_t n, const trace_event *ev, const char *group);

/* What a pcapng trace says of its run (what `run --pcap` and the TUI's
 * `w` write): the section's comment, "scenario: 10base5, 8 stations, bus
 * of 500 m, saturated traffic, policy beb, duration 1s, seed 1" (the
 * duration as given: "1s", "until stopped"), and where the probe sits, for
 * the interfaces' descriptions ("at 0 m on the bus", "at the hub").
 * Nothing of the machine or the wall clock: reruns stay byte-identical. */
void pcap_sink_describe(const struct scenario *sc, const char *duration, char *comment,
                        size_t n, char *probe, size_t pn);

/* The texts a run's pcapng trace carries (pcap_sink_describe_run fills
 * them; the format points into them, so they must outlive the sink's open). */
typedef struct pcap_sink_text {
    char application[64];
    char comment[1024];
    char probe[128];
} pcap_sink_text;

/* A run's trace as `run --pcap` and the TUI's `w` both write it (one code
 * path, so the two files agree): fills text (the program and version, the
 * section's comment of pcap_sink_describe, the probe) and points fmt's
 * application, comment and probe at it, its groups at sc and its network
 * at sc's (one named interface pair per segment or link, every record's
 * comment naming its segment). sc must outlive the sink. The container,
 * link type, epoch and probe segment are left as they are. */
void pcap_sink_describe_run(const struct scenario *sc, const char *duration,
                            pcap_sink_text *text, pcap_sink_format *fmt);

/* Whether every record of a run `duration` long (picoseconds) fits the
 * 32-bit seconds of pcap when t = 0 is epoch_s. A record can be stamped up
 * to the longest station-to-probe delay after the run's end: pass
 * duration plus that delay for the true bound (run does, once the stations
 * are placed). */
bool pcap_sink_fits(int64_t epoch_s, sim_time duration);
/* The same for a container: classic pcap's 32-bit seconds, or pcapng's
 * 64-bit nanoseconds (no 2038 limit: up to PCAP_SINK_NG_MAX_SECONDS). */
bool pcap_sink_fits_in(pcap_sink_container c, int64_t epoch_s, sim_time duration);
/* The last second a record of the container can be stamped with. */
int64_t pcap_sink_max_seconds(pcap_sink_container c);

/* Whether the format can carry this PHY's records: the epoch in range, a
 * preamble of whole octets for the transparent type, frames within the
 * netANALYZER's 12-bit length. Returns 0, or -1 with a reason (no path) in
 * err. pcap_sink_open_format checks the same. */
int pcap_sink_check_format(const phy_params *phy, const pcap_sink_format *fmt, char *err,
                           size_t errlen);

/* Opens the output in the default format (pcap_sink_default_format). `phy`
 * gives the preamble, jam and frame sizes; it is copied. Returns 0, or -1
 * with "path: reason" in err. */
int pcap_sink_open(const char *path, const phy_params *phy, const pcap_sink_options *opt,
                   pcap_sink **out, char *err, size_t errlen);

/* The same in a chosen format. */
int pcap_sink_open_format(const char *path, const phy_params *phy,
                          const pcap_sink_options *opt, const pcap_sink_format *fmt,
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

/* Hands what is written so far to the file or pipe (records still
 * waiting for earlier stamps stay waiting): for a reader at the other end
 * of a pipe. Returns 0, or -1 once an error is kept. */
int pcap_sink_flush(pcap_sink *s);

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
