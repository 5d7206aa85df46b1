/* ethframe.h - the bytes of the Ethernet frames csmacd puts in its traces.
 *
 * Pure functions, no I/O, no libpcap: the pcap sink (pcap_sink.c) builds
 * every record with them, the replay reader checks FCSs with them, and the
 * tests decode what was written with them.
 *
 * Station addresses are locally administered unicast addresses,
 * 02:00:00:00:00:NN for station NN counted from 1 (station index 0 is
 * 02:00:00:00:00:01); indexes above 254 use the low three octets
 * (02:00:00:00:01:00 is index 255). Broadcast frames go to ff:ff:ff:ff:ff:ff.
 *
 * Synthetic frames carry, after the EtherType 0x88B5 (IEEE Std 802 local
 * experimental EtherType 1), a 32-octet header, big-endian:
 *
 *   offset size field
 *        0    1 version            1
 *        1    1 header length      32 (octets, this header)
 *        2    2 attempt            1-based number of this transmission attempt
 *        4    4 station            the sender, counted from 1
 *        8    8 frame              the sender's own frame number, counted
 *                                  from 1 (ethframe_frame_number)
 *       16    4 collisions         collisions the frame had before this attempt
 *       20    4 backoff slots      slots drawn by the backoff that preceded
 *                                  this attempt (0 on a first attempt;
 *                                  saturates at 0xffffffff)
 *       24    8 queued ns          time the frame had waited when this attempt
 *                                  began: first preamble bit minus its
 *                                  arrival in the queue, in nanoseconds
 *                                  (rounded down)
 *
 * then zero padding up to the frame size, then the FCS. The Wireshark
 * dissector captures/csmacd.lua decodes this header. A frame shorter than
 * 14 + 32 + 4 octets (possible only with a min-frame override below 50)
 * carries the header cut short; the dissector marks it.
 *
 * Every whole frame ends with its FCS: the IEEE 802.3 CRC-32 (3.2.9) over
 * destination address through pad, sent least significant octet first, as
 * on the wire. Frame sizes in csmacd count destination address through FCS,
 * so a record's length is the frame size the run reports, and a collision
 * fragment (shorter than minFrameSize unless the collision was late) is
 * told apart by length alone: `frame.len < 64` in Wireshark.
 */
#ifndef CSMACD_ETHFRAME_H
#define CSMACD_ETHFRAME_H

#include <stddef.h>
#include <stdint.h>

#define ETHFRAME_ADDR_BYTES 6
#define ETHFRAME_HEADER_BYTES 14  /* DA, SA, EtherType */
#define ETHFRAME_FCS_BYTES 4
#define ETHFRAME_ETHERTYPE 0x88B5 /* IEEE local experimental EtherType 1 */
#define ETHFRAME_CSMACD_BYTES 32  /* the csmacd header after the EtherType */
#define ETHFRAME_CSMACD_VERSION 1
#define ETHFRAME_JAM_OCTET 0x55   /* a jam longer than 32 bits goes on with these */
#define ETHFRAME_JAM_MARK 0xC5    /* the jam's first octet (0xC6 when 0xC5 would make
                                     the jam the FCS of the octets before it) */
#define ETHFRAME_JAM_MARK_ALT 0xC6
#define ETHFRAME_BROADCAST UINT32_MAX

/* The csmacd header of a synthetic frame (units in the names). */
typedef struct ethframe_info {
    uint32_t station;        /* index, counted from 0 (written + 1) */
    uint32_t dest;           /* index, or ETHFRAME_BROADCAST */
    uint64_t frame_number;   /* the sender's own frame number, from 1 (written as is) */
    uint32_t attempt;        /* 1-based */
    uint32_t collisions;     /* before this attempt */
    uint64_t backoff_slots;  /* drawn before this attempt */
    uint64_t queued_ns;      /* waited when this attempt began */
} ethframe_info;

/* The decoded header, as read back from a frame. */
typedef struct ethframe_header {
    uint8_t version, length;
    uint16_t attempt;
    uint32_t station;        /* counted from 1, as written */
    uint64_t frame_number;
    uint32_t collisions;
    uint32_t backoff_slots;
    uint64_t queued_ns;
} ethframe_header;

/* The number a person reads for a frame: its sender's frames counted from
 * 1, as stations are. The engine's frame_id is station << 40 | n with n
 * counted from 0, so this is n + 1 (the event log's `frame` column too). */
uint64_t ethframe_frame_number(uint64_t frame_id);

/* IEEE 802.3 CRC-32 of n octets (the value whose octets, least significant
 * first, form the FCS). */
uint32_t ethframe_crc32(const uint8_t *p, size_t n);

/* The station's address (index counted from 0), or broadcast. */
void ethframe_station_addr(uint32_t station, uint8_t addr[ETHFRAME_ADDR_BYTES]);

/* Writes a whole synthetic frame of `frame_bytes` octets (DA through FCS,
 * at least 18) into buf: addresses, EtherType, header, zero pad, FCS. */
void ethframe_build_synthetic(const ethframe_info *info, uint32_t frame_bytes, uint8_t *buf);

/* Writes a whole frame of `frame_bytes` octets (at least 18) from replayed
 * bytes: `payload` (DA onwards, no FCS) cut or zero-padded to
 * frame_bytes - 4, then the FCS of that. */
void ethframe_build_replayed(const uint8_t *payload, uint32_t payload_len,
                             uint32_t frame_bytes, uint8_t *buf);

/* Appends the FCS of buf[0, n) at buf + n. */
void ethframe_put_fcs(uint8_t *buf, size_t n);

/* Whether the last 4 of n octets are the FCS of the others (n >= 5). */
int ethframe_fcs_ok(const uint8_t *buf, size_t n);

/* Length in octets of the fragment a collided attempt leaves on the wire:
 * `data_bits` of the frame (preamble and SFD excluded, capped at the frame's
 * own bits: carrier extension is not octets), then `jam_bits` of jam, in
 * whole octets (a trailing part octet is dribble bits no receiver keeps). */
uint32_t ethframe_fragment_bytes(uint64_t data_bits, uint32_t jam_bits, uint32_t frame_bytes);

/* The jam csmacd sends. 802.3 leaves its bits open (4.2.3.2.4), except
 * that it must not be the CRC of the partial frame sent before it; csmacd's
 * names its sender, so that a fragment says whose it was even when nothing
 * but the jam reached the wire (a collision in the preamble):
 *   octet 0  ETHFRAME_JAM_MARK (0xC5), or ETHFRAME_JAM_MARK_ALT (0xC6) when
 *            0xC5 would make the jam the FCS of the octets before it
 *   octet 1  the attempt, from 1 (255 for 255 and above)
 *   octets 2-3  the sender, counted from 1, big-endian (0 above 65535)
 * then ETHFRAME_JAM_OCTET (0x55) for a jam longer than 32 bits; a shorter
 * jam (a jam-bits override) keeps its first octets.
 *
 * Turns a whole frame in buf (frame_bytes octets) into the fragment of a
 * collided attempt of `station` (index, from 0), in place: whole octets of
 * data kept, the rest jam. Returns the fragment's length. */
uint32_t ethframe_make_fragment(uint8_t *buf, uint32_t frame_bytes, uint64_t data_bits,
                                uint32_t jam_bits, uint32_t station, uint32_t attempt);

/* Decodes the csmacd header of a frame of `len` octets. Returns 0, or -1
 * when the frame is not a csmacd frame or its header is cut short. */
int ethframe_parse(const uint8_t *buf, size_t len, ethframe_header *out);

#endif
