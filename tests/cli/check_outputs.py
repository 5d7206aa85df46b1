#!/usr/bin/env python3
"""check_outputs.py - is each output file of csmacd whole? (tests/cli/faults.sh)

usage: check_outputs.py KIND FILE [KIND FILE ...]    KIND: csv, json, pcap

  csv   a header row, then rows with as many fields (csv module quoting),
        the file ending with a newline: no row cut short;
  json  one JSON document that parses;
  pcap  a classic pcap global header (either byte order, us or ns stamps)
        and whole records to the exact end of the file: a record header's
        incl_len never runs past the end and is at most the snap length.
Exit 0 when every file is valid, else 1 with one line per problem.
"""
import csv
import json
import struct
import sys


def check_csv(path):
    data = open(path, "rb").read()
    if not data:
        return "empty"
    if not data.endswith(b"\n"):
        return "the last row is not terminated"
    rows = list(csv.reader(data.decode("utf-8").splitlines()))
    width = len(rows[0])
    for i, r in enumerate(rows[1:], 2):
        if len(r) != width:
            return "row %d has %d fields, the header %d" % (i, len(r), width)
    return None


def check_json(path):
    try:
        json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        return "does not parse: %s" % e
    return None


def check_pcap(path):
    data = open(path, "rb").read()
    if len(data) < 24:
        return "shorter than a pcap header (%d bytes)" % len(data)
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        return "not a classic pcap file (magic %s)" % magic.hex()
    snap = struct.unpack(end + "I", data[16:20])[0]
    off, n = 24, 0
    while off < len(data):
        if off + 16 > len(data):
            return "record %d: header cut at byte %d" % (n + 1, off)
        incl, orig = struct.unpack(end + "II", data[off + 8:off + 16])
        if incl > snap or incl > orig:
            return "record %d: bad lengths %d/%d" % (n + 1, incl, orig)
        if off + 16 + incl > len(data):
            return "record %d: data cut (%d of %d bytes)" % (n + 1, len(data) - off - 16, incl)
        off += 16 + incl
        n += 1
    return None


def main(argv):
    checks = {"csv": check_csv, "json": check_json, "pcap": check_pcap}
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bad = 0
    for kind, path in zip(argv[0::2], argv[1::2]):
        try:
            why = checks[kind](path)
        except OSError as e:
            why = str(e)
        if why:
            print("%s: %s" % (path, why))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
