/* replay.h - a real capture as offered load (--traffic pcap:FILE).
 *
 * replay_load reads a classic pcap file with libpcap, or a pcapng file
 * with pcapng_read.h (libpcap refuses a pcapng whose interfaces differ in
 * link type, as csmacd's own do), and turns it into per-station arrival
 * lists. Only whole, valid frames are offered:
 *   - records a capture flags in error are skipped (netANALYZER status
 *     bits, pcapng epb_flags link-layer errors): csmacd's own collision
 *     fragments are, in both its formats;
 *   - a frame that ends in an FCS (netANALYZER always; pcapng when the
 *     interface's if_fcslen or the record's epb_flags say so; classic
 *     Ethernet when the last 4 octets match) must have the right FCS
 *     (else bad_fcs) and be at least 64 octets (else undersize);
 *   - in a classic Ethernet capture that carries FCSs, a record shorter
 *     than 64 octets without a valid FCS is a fragment (bad_fcs);
 *   - pcapng interfaces of other link types are skipped (other_link).
 * In detail:
 *   - Link types: DLT_EN10MB (Ethernet), and DLT_NETANALYZER /
 *     DLT_NETANALYZER_TRANSPARENT (Hilscher netANALYZER: a 4-octet
 *     little-endian status header before an Ethernet frame that includes
 *     its FCS; the transparent form also keeps the preamble and SFD, which
 *     are checked and dropped). Any other link type is an error: cooked
 *     captures (LINUX_SLL) lack the destination address and cannot be
 *     mapped to Ethernet frames faithfully.
 *   - Stations: every source address becomes a station, in order of first
 *     appearance in the file, up to `max_stations` (0: no cap); frames of
 *     sources beyond the cap are not replayed and are counted
 *     (replay_stats.over_cap).
 *   - Sizes: `bytes` is the frame's size on the wire, destination address
 *     through FCS, padded to min_frame_bytes: the captured length, plus the
 *     4-octet FCS a sending MAC appends when the capture lacks it. Whether
 *     an Ethernet capture holds FCSs is not recorded in pcap files, so a
 *     frame whose last 4 octets are the CRC-32 of the rest is taken to end
 *     with its FCS (a false match has probability 2^-32); netANALYZER
 *     frames always do. Frames whose size would exceed max_frame_bytes
 *     (VLAN-tagged maximum frames, offloaded super-frames) are rejected and
 *     counted, never split or cut; so are frames shorter than an Ethernet
 *     header and frames a netANALYZER flagged as received in error.
 *   - Payload: the original octets, destination address onwards, without
 *     the FCS (the trace recomputes it). A frame captured with a snapshot
 *     length shorter than the frame keeps its full original size; the
 *     octets not captured are zeros in the output (counted: snapped).
 *   - Times: each frame's time stamp minus the earliest in the file, times
 *     time_scale (0.5 replays twice as fast), in picoseconds (rounded to
 *     the nearest; exact when time_scale is 1). Each station's frames are
 *     in time order (a stable sort, so equal stamps keep file order):
 *     pcapng files merged from several interfaces need not be.
 *   - Destinations: the station whose address the frame is sent to; group
 *     (broadcast, multicast) addresses, addresses of no station (a router
 *     beyond the segment, a source over the cap) and a frame's own source
 *     give REPLAY_BROADCAST.
 *
 * The whole capture is held in memory (about its own size). Errors
 * (unreadable, malformed, truncated or empty files, non-Ethernet link
 * types, a capture with no frame that can be replayed) fill the caller's
 * buffer with one message "path: reason" and return -1; the program exits
 * with status 2.
 */
#ifndef CSMACD_REPLAY_H
#define CSMACD_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "simtime.h"

#define REPLAY_BROADCAST UINT32_MAX /* the same value as FRAME_BROADCAST */

typedef struct replay replay;

typedef struct replay_options {
    double time_scale;     /* > 0; 1 replays in real time */
    uint32_t max_stations; /* 0: one station per source address, no cap */
} replay_options;

typedef struct replay_frame {
    sim_time time;         /* arrival, from the start of the run */
    uint32_t bytes;        /* on the wire: DA through FCS, padded */
    uint32_t dest;         /* station index or REPLAY_BROADCAST */
    const uint8_t *payload;/* original octets from the DA, no FCS */
    uint32_t payload_len;  /* octets in payload (may be < bytes - 4) */
} replay_frame;

typedef struct replay_stats {
    uint64_t frames_read;    /* records in the file that are frames */
    uint64_t frames_loaded;  /* frames to replay, all stations together */
    uint64_t oversize;       /* rejected: larger than max_frame_bytes */
    uint64_t runt;           /* rejected: shorter than an Ethernet header */
    uint64_t errored;        /* rejected: flagged in error by the capture */
    uint64_t over_cap;       /* not replayed: source beyond max_stations */
    uint64_t bad_fcs;        /* rejected: FCS wrong, where the capture carries FCSs */
    uint64_t undersize;      /* rejected: shorter than 64 octets with the FCS */
    uint64_t other_link;     /* pcapng records on interfaces that are not Ethernet
                                (skipped, not counted as frames) */
    uint64_t fcs_stripped;   /* frames that held their FCS */
    uint64_t snapped;        /* frames captured short of their length */
    uint64_t sources;        /* distinct source addresses seen */
} replay_stats;

/* Loads a capture. Returns 0 and a replay in *out, or -1 with
 * "path: reason" in err (the input is at fault), or REPLAY_NO_MEMORY with
 * "path: Cannot allocate memory" (a resource failure, not the input's). */
#define REPLAY_NO_MEMORY (-2)
int replay_load(const char *path, const replay_options *opt, uint32_t min_frame_bytes,
                uint32_t max_frame_bytes, replay **out, char *err, size_t errlen);

/* The same from an open stream (the fuzz harness uses fmemopen). `name`
 * stands for the path in messages. The stream is closed in every case. */
int replay_load_stream(FILE *fp, const char *name, const replay_options *opt,
                       uint32_t min_frame_bytes, uint32_t max_frame_bytes, replay **out,
                       char *err, size_t errlen);

void replay_destroy(replay *r);

/* Stations: one per source address kept, numbered in order of first
 * appearance from 0. */
uint32_t replay_station_count(const replay *r);
/* A station's frames, in time order; valid until replay_destroy. */
size_t replay_frame_count(const replay *r, uint32_t station);
const replay_frame *replay_frames(const replay *r, uint32_t station);
/* The source address of a station (6 octets). */
const uint8_t *replay_station_addr(const replay *r, uint32_t station);
/* Frames read but not replayed (oversize + runt + errored + over_cap +
 * bad_fcs + undersize). */
uint64_t replay_rejected(const replay *r);
void replay_get_stats(const replay *r, replay_stats *out);

#endif
