#!/usr/bin/env python3
"""make_corpus.py - writes the fuzz seed corpus (tests/fuzz/corpus/).

Tiny captures that reach every branch of the replay reader's input side:
classic pcap in both byte orders and both time stamp precisions, frames
with and without FCS, a snapped frame, an oversize and a runt frame,
netANALYZER (with an error-flagged frame and a GPIO event), the
transparent netANALYZER form, a pcapng file, and one laid out as csmacd
writes them (two interfaces of different link types, nanosecond stamps,
FCS lengths, packet flags and comments, a big-endian section after it).
Run it from anywhere:
    python3 tests/fuzz/make_corpus.py
The output is deterministic, so the committed files regenerate identically.
"""
import os
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

A = bytes.fromhex("001b2100000a")
B = bytes.fromhex("001b2100000b")
C = bytes.fromhex("001b2100000c")
BCAST = b"\xff" * 6


def frame(da, sa, length, tag=0):
    body = bytes((tag + i) & 0xFF for i in range(14, length))
    return da + sa + b"\x08\x00" + body


def fcs(f):
    return f + struct.pack("<I", zlib.crc32(f) & 0xFFFFFFFF)


def pcap(records, linktype=1, nano=False, big=False):
    e = ">" if big else "<"
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for t, data, orig in records:
        sub = t % (1_000_000_000 if nano else 1_000_000)
        sec = t // (1_000_000_000 if nano else 1_000_000)
        out += struct.pack(e + "IIII", sec, sub, len(data), orig) + data
    return out


def block(btype, body):
    body += b"\0" * (-len(body) % 4)
    total = 12 + len(body)
    return struct.pack("<II", btype, total) + body + struct.pack("<I", total)


def pcapng(frames):
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", 1, 0, 65535))
    for us, data in frames:
        out += block(6, struct.pack("<IIIII", 0, us >> 32, us & 0xFFFFFFFF,
                                    len(data), len(data)) + data)
    return out


def option(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


def csmacd_pcapng():
    """Section, an Ethernet interface (ns, FCS 32 bits) and a netANALYZER
    transparent one, a whole frame and a flagged fragment with comments;
    then a big-endian section with a microsecond interface."""
    opts_end = struct.pack("<I", 0)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) +
                option(4, b"csmacd") + opts_end)
    out += block(1, struct.pack("<HHI", 1, 0, 65535) + option(9, b"\x09") +
                 option(13, b"\x20") + opts_end)
    out += block(1, struct.pack("<HHI", 241, 0, 65535) + option(9, b"\x09") + opts_end)
    whole = fcs(frame(B, A, 60, 15))
    t = 946_684_800_000_000_309
    out += block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, 64, 64) + whole +
                 option(1, b"station 1, frame 1, attempt 1, sent whole") +
                 option(2, struct.pack("<I", 4 << 5)) + opts_end)
    frag = struct.pack("<I", 1 << 10 | 1 << 9 | 0x24 | 16 << 16) + b"\x55" * 7 + b"\xd5" + \
        frame(B, C, 14, 16)[:4] + b"\xc5\x01\x00\x03"
    out += block(6, struct.pack("<IIIII", 1, t >> 32, (t + 700) & 0xFFFFFFFF, len(frag),
                                len(frag)) + frag +
                 option(2, struct.pack("<I", 1 << 24 | 1 << 26)) + opts_end)
    be = struct.pack(">IHHq", 0x1A2B3C4D, 1, 0, -1)
    out += struct.pack(">II", 0x0A0D0D0A, 12 + len(be)) + be + struct.pack(">I", 12 + len(be))
    idb = struct.pack(">HHI", 1, 0, 65535)
    out += struct.pack(">II", 1, 12 + len(idb)) + idb + struct.pack(">I", 12 + len(idb))
    f = frame(A, B, 60, 17)
    us = 946_684_800_000_000 + 2_000
    epb = struct.pack(">IIIII", 0, us >> 32, us & 0xFFFFFFFF, len(f), len(f)) + f
    out += struct.pack(">II", 6, 12 + len(epb)) + epb + struct.pack(">I", 12 + len(epb))
    return out


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(HERE, exist_ok=True)
    write("en10mb-us.pcap", pcap([
        (1_000_000, frame(B, A, 60, 1), 60),
        (1_000_250, frame(BCAST, B, 42, 2), 42),
        (1_000_900, frame(A, C, 100, 3), 100),
    ]))
    write("en10mb-ns-be.pcap", pcap([
        (5_000_000_000, frame(B, A, 60, 4), 60),
        (5_000_000_100, frame(A, B, 64, 5), 64),
    ], nano=True, big=True))
    big = frame(B, A, 1515, 6)
    write("en10mb-mixed.pcap", pcap([
        (0, fcs(frame(B, A, 60, 7)), 64),     # with FCS
        (10, frame(C, A, 200, 8)[:40], 200),  # snapped
        (20, big[:64], len(big)),             # oversize, snapped
        (30, b"\x01\x02\x03\x04\x05\x06\x07\x08", 8),  # runt
        (5, frame(A, B, 60, 9), 60),          # earlier stamp
    ], nano=True))
    na_good = struct.pack("<I", 1 << 10) + fcs(frame(B, A, 60, 10))
    na_bad = struct.pack("<I", 1 << 10 | 0x24) + fcs(frame(B, A, 60, 11))[:30]
    gpio = struct.pack("<I", 1 << 8)
    write("netanalyzer.pcap", pcap([
        (0, na_good, len(na_good)), (1, na_bad, len(na_bad)), (2, gpio, 4),
    ], linktype=240))
    pre = b"\x55" * 7 + b"\xd5"
    na_t = struct.pack("<I", 1 << 10 | 1 << 9) + pre + fcs(frame(A, B, 60, 12))
    write("netanalyzer-transparent.pcap", pcap([(0, na_t, len(na_t))], linktype=241))
    write("two.pcapng", pcapng([
        (1_000_000, frame(B, A, 60, 13)),
        (1_000_250, frame(A, B, 60, 14)),
    ]))
    write("csmacd.pcapng", csmacd_pcapng())


if __name__ == "__main__":
    main()
