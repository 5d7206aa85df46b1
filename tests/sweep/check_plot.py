#!/usr/bin/env python3
"""check_plot.py - the figure of `csmacd sweep --plot` is a valid file of
its format and shows what was asked.

Pins: an .svg parses as XML (xml.etree) and its text contains every
string given (series titles, axis labels, reference curves); a .png starts
with the PNG signature and has an IHDR chunk; a .pdf starts with %PDF-.
It does not judge the drawing itself.

usage: check_plot.py FILE [TEXT ...]
"""
import sys
import xml.etree.ElementTree as ET


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    data = open(path, "rb").read()
    if path.endswith(".svg"):
        root = ET.fromstring(data)
        assert root.tag.endswith("svg"), root.tag
        text = " ".join(t for t in root.itertext())
        for w in wanted:
            assert w in text, "%s: no text %r" % (path, w)
    elif path.endswith(".png"):
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "%s: not a PNG" % path
        assert data[12:16] == b"IHDR", "%s: no IHDR" % path
    elif path.endswith(".pdf"):
        assert data[:5] == b"%PDF-", "%s: not a PDF" % path
    else:
        raise SystemExit("unknown format: " + path)
    print("%s: valid (%d bytes)" % (path, len(data)))


if __name__ == "__main__":
    main()
