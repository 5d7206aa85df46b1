#!/usr/bin/env python3
"""make_lan_small.py - writes captures/lan-small.pcap, a tiny LAN capture.

Seventeen real-looking frames between four hosts, as tcpdump on Linux
would save them (Ethernet, microsecond stamps, no FCS): ARP, ICMP echo,
DNS over UDP through a router, a TCP handshake with one full-size
segment, an IPv6 neighbour solicitation (multicast), LLDP, and a packet
to a printer that never speaks. Frames are 2.5 ms apart, so on an idle
10 Mb/s network none waits for another. Checksums are correct.

Used by test_pcap_replay.c (replay on an idle and on a busy network) and
by the README's replay example. Regenerate (output is deterministic):
    python3 captures/make_lan_small.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lan-small.pcap")

H1 = bytes.fromhex("001b213a0001")
H2 = bytes.fromhex("001b213a0002")
H3 = bytes.fromhex("001b213a0003")
GW = bytes.fromhex("001b213a00fe")
PRN = bytes.fromhex("001b213a0010")
BCAST = b"\xff" * 6
IP = {H1: "10.0.0.1", H2: "10.0.0.2", H3: "10.0.0.3", GW: "10.0.0.254", PRN: "10.0.0.16"}


def ip4(a):
    return bytes(int(x) for x in a.split("."))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def eth(da, sa, etype, payload):
    return da + sa + struct.pack("!H", etype) + payload


def ipv4(src, dst, proto, payload, ident):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0x4000, 64,
                    proto, 0, ip4(src), ip4(dst))
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def l4sum(src, dst, proto, seg):
    pseudo = ip4(src) + ip4(dst) + struct.pack("!BBH", 0, proto, len(seg))
    return csum(pseudo + seg)


def icmp_echo(kind, ident, seq):
    data = bytes(range(0x10, 0x10 + 48)) + b"csmacd!!"
    h = struct.pack("!BBHHH", kind, 0, 0, ident, seq) + data
    return h[:2] + struct.pack("!H", csum(h)) + h[4:]


def udp(src, dst, sport, dport, data):
    seg = struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data
    return seg[:6] + struct.pack("!H", l4sum(src, dst, 17, seg) or 0xFFFF) + seg[8:]


def tcp(src, dst, sport, dport, seq, ack, flags, data=b"", opts=b""):
    off = (20 + len(opts)) // 4
    seg = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, off << 4, flags, 64240, 0, 0)
    seg += opts + data
    return seg[:16] + struct.pack("!H", l4sum(src, dst, 6, seg)) + seg[18:]


def arp(op, sha, spa, tha, tpa):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, ip4(spa), tha, ip4(tpa))


def dns_query(name, ident):
    q = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    return struct.pack("!HHHHHH", ident, 0x0100, 1, 0, 0, 0) + q + struct.pack("!HH", 1, 1)


def dns_answer(name, ident, addr):
    q = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    return (struct.pack("!HHHHHH", ident, 0x8180, 1, 1, 0, 0) + q + struct.pack("!HH", 1, 1)
            + struct.pack("!HHHIH4s", 0xC00C, 1, 1, 300, 4, ip4(addr)))


def frames():
    f = []
    f.append(eth(BCAST, H1, 0x0806, arp(1, H1, IP[H1], b"\0" * 6, IP[H2])))
    f.append(eth(H1, H2, 0x0806, arp(2, H2, IP[H2], H1, IP[H1])))
    f.append(eth(H2, H1, 0x0800, ipv4(IP[H1], IP[H2], 1, icmp_echo(8, 0x4242, 1), 0x1001)))
    f.append(eth(H1, H2, 0x0800, ipv4(IP[H2], IP[H1], 1, icmp_echo(0, 0x4242, 1), 0x2001)))
    q = dns_query("csmacd.example.org", 0xBEEF)
    f.append(eth(GW, H1, 0x0800, ipv4(IP[H1], "192.0.2.53", 17, udp(IP[H1], "192.0.2.53", 40000, 53, q), 0x1002)))
    a = dns_answer("csmacd.example.org", 0xBEEF, "198.51.100.7")
    f.append(eth(H1, GW, 0x0800, ipv4("192.0.2.53", IP[H1], 17, udp("192.0.2.53", IP[H1], 53, 40000, a), 0x3001)))
    mss = b"\x02\x04\x05\xb4\x04\x02\x08\x0a\x00\x00\x00\x01\x00\x00\x00\x00\x01\x03\x03\x07"
    f.append(eth(H2, H3, 0x0800, ipv4(IP[H3], IP[H2], 6, tcp(IP[H3], IP[H2], 51000, 80, 1000, 0, 0x02, opts=mss), 0x4001)))
    f.append(eth(H3, H2, 0x0800, ipv4(IP[H2], IP[H3], 6, tcp(IP[H2], IP[H3], 80, 51000, 5000, 1001, 0x12, opts=mss), 0)))
    f.append(eth(H2, H3, 0x0800, ipv4(IP[H3], IP[H2], 6, tcp(IP[H3], IP[H2], 51000, 80, 1001, 5001, 0x10), 0x4002)))
    head = b"GET / HTTP/1.1\r\nHost: 10.0.0.2\r\nX-Pad: "
    body = head + b"x" * (1460 - len(head) - 4) + b"\r\n\r\n"
    f.append(eth(H2, H3, 0x0800, ipv4(IP[H3], IP[H2], 6, tcp(IP[H3], IP[H2], 51000, 80, 1001, 5001, 0x18, body), 0x4003)))
    f.append(eth(H3, H2, 0x0800, ipv4(IP[H2], IP[H3], 6, tcp(IP[H2], IP[H3], 80, 51000, 5001, 2461, 0x10), 0)))
    # IPv6 neighbour solicitation for fe80::2 (ICMPv6 checksum over the pseudo-header).
    src6 = bytes.fromhex("fe800000000000000200000000000003")
    dst6 = bytes.fromhex("ff0200000000000000000001ff000002")
    tgt6 = bytes.fromhex("fe800000000000000200000000000002")
    ns = struct.pack("!BBHI", 135, 0, 0, 0) + tgt6 + b"\x01\x01" + H3
    pseudo = src6 + dst6 + struct.pack("!IxxxB", len(ns), 58)
    ns = ns[:2] + struct.pack("!H", csum(pseudo + ns)) + ns[4:]
    ip6 = struct.pack("!IHBB", 0x60000000, len(ns), 58, 255) + src6 + dst6 + ns
    f.append(eth(bytes.fromhex("3333ff000002"), H3, 0x86DD, ip6))
    # LLDP: chassis id (MAC), port id, TTL, end.
    def tlv(t, v):
        return struct.pack("!H", t << 9 | len(v)) + v
    lldp = tlv(1, b"\x04" + H2) + tlv(2, b"\x07eth0") + tlv(3, b"\x00\x78") + b"\0\0"
    f.append(eth(bytes.fromhex("0180c200000e"), H2, 0x88CC, lldp))
    job = b"\x1b%-12345X@PJL JOB NAME=\"csmacd\"\r\n"
    f.append(eth(PRN, H3, 0x0800, ipv4(IP[H3], IP[PRN], 17, udp(IP[H3], IP[PRN], 41000, 9100, job), 0x4004)))
    f.append(eth(H1, H2, 0x0800, ipv4(IP[H2], IP[H1], 1, icmp_echo(8, 0x4343, 7), 0x2002)))
    f.append(eth(H2, H1, 0x0800, ipv4(IP[H1], IP[H2], 1, icmp_echo(0, 0x4343, 7), 0x1003)))
    f.append(eth(BCAST, H3, 0x0806, arp(1, H3, IP[H3], b"\0" * 6, IP[GW])))
    return f


def main():
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1)
    t_us = 1_700_000_000 * 1_000_000
    for i, fr in enumerate(frames()):
        t = t_us + 2500 * i
        out += struct.pack("<IIII", t // 1_000_000, t % 1_000_000, len(fr), len(fr)) + fr
    with open(OUT, "wb") as fh:
        fh.write(out)


if __name__ == "__main__":
    main()
