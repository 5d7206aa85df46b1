#!/usr/bin/env python3
"""check_markdown.py - every Markdown file of the repository renders as written.

A reader sees the Markdown files rendered (a forge, a viewer, pandoc), and
a CommonMark renderer does not forgive what a reader's eye does: a code
fence closed with text after it ("``` Segments, ...") is no closing fence,
so everything after it, headings included, becomes code. This check parses
each .md file with a real CommonMark parser, cmark (Debian package cmark),
and fails, naming file and line, on:

  - a fenced code block that is never closed (it runs to the end of the
    file);
  - a line inside a fenced code block that looks like its closing fence
    but has text after it (CommonMark reads it as code);
  - a heading line ("# Title" to "###### Title", outside the fences as a
    reader counts them: any line starting with ``` or ~~~ opens or closes
    one) that the parser does not read as a heading.

Not read: .git and build trees (a folder holding CMakeCache.txt).

Usage: check_markdown.py REPO_ROOT    exit 0 when clean, 1 with one line
                                      per problem on standard output
       check_markdown.py --self-test  plants each fault in a scratch tree
                                      and checks that exactly those are
                                      reported
Exit 2 on a usage error, 77 (skipped) when cmark is not installed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://commonmark.org/xml/1.0}"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+\S.*)?$")


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git"
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def parse(path):
    """cmark's tree of the file, with source positions."""
    out = subprocess.run(["cmark", "--sourcepos", "-t", "xml", path], check=True,
                         capture_output=True).stdout
    return ET.fromstring(out)


def lines_of(sourcepos):
    start, end = sourcepos.split("-")
    return int(start.split(":")[0]), int(end.split(":")[0])


def check_file(path, shown):
    problems = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    tree = parse(path)
    for block in tree.iter(NS + "code_block"):
        first, last = lines_of(block.get("sourcepos"))
        opener = FENCE.match(lines[first - 1])
        if opener is None:
            continue  # an indented code block
        mark = opener.group(1)
        closer = FENCE.match(lines[last - 1]) if last > first else None
        closed = (closer is not None and closer.group(1)[0] == mark[0]
                  and len(closer.group(1)) >= len(mark) and closer.group(2).strip() == "")
        for n in range(first + 1, last if closed else last + 1):
            inner = FENCE.match(lines[n - 1])
            if inner and inner.group(1)[0] == mark[0] and len(inner.group(1)) >= len(mark) \
                    and inner.group(2).strip() != "":
                problems.append(f"{shown}:{n}: a closing fence with text after it "
                                f"(CommonMark reads it, and all up to line {last}, as code "
                                f"of the block opened at line {first})")
        if not closed:
            problems.append(f"{shown}:{first}: a code fence never closed (it runs to the "
                            "end of the file)")
    headings = {lines_of(h.get("sourcepos"))[0] for h in tree.iter(NS + "heading")}
    in_fence = False
    for n, line in enumerate(lines, 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and HEADING.match(line) and n not in headings:
            problems.append(f"{shown}:{n}: a heading the parser does not read as one: "
                            f"{line.strip()[:60]}")
    return problems


def check_tree(root):
    problems = []
    for path in markdown_files(root):
        problems += check_file(path, os.path.relpath(path, root))
    return problems


def self_test():
    MD = ".md"  # apart, so that check_refs.py reads no file name here
    cases = {
        "good" + MD: "# Title\n\n```\n$ csmacd run\n```\n\n## Next\n\n~~~ini\n[segment a]\n~~~\n\n"
                   "    indented code\n\n### Last\n",
        "trailing" + MD: "# Title\n\n```\ncode\n``` Text after the fence\n\n## Swallowed\n\n"
                       "```\nmore\n```\n",
        "open" + MD: "# Title\n\n```\nnever closed\n",
        "heading" + MD: "# Title\n\n<div>\n# Not a heading in HTML\n</div>\n",
    }
    want = {
        "trailing" + MD + ":5: a closing fence with text after it",
        "trailing" + MD + ":7: a heading the parser does not read as one",
        "trailing" + MD + ":11: a code fence never closed",  # the fences' parity turned
        "open" + MD + ":3: a code fence never closed",
        "heading" + MD + ":4: a heading the parser does not read as one",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in cases.items():
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        got = check_tree(root)
    found = {p for p in want if any(g.startswith(p) for g in got)}
    extra = [g for g in got if not any(g.startswith(p) for p in want)]
    if found != want or extra:
        print("self-test: missed", sorted(want - found), "extra", extra)
        return 1
    print(f"self-test: {len(got)} planted faults reported, nothing else")
    return 0


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    if shutil.which("cmark") is None:
        print("cmark is not installed: skipped")
        return 77
    if argv[1] == "--self-test":
        return self_test()
    problems = check_tree(argv[1])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
