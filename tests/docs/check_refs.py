#!/usr/bin/env python3
"""check_refs.py - every reference in the repository resolves inside it.

A clone of csmacd is all a reader has, so a comment or doc may point only
to files of the repository. This check reads the tree as it is on disk
(not git's index: a file moved but not yet committed counts where it now
is) and fails, naming file and line, on:

  - a citation of something outside the repository: DESIGN.md, ../shared,
    an issue number ("issue 5", "issues 5 and 6", "issue-5", "#5" after
    "issue"), or the tags of a notes file that is not here ("refs a.6",
    "refs S32", "refs a:");
  - a repository path that does not exist: any path whose first component
    is a top-level file or folder of the repository (`src/engine.c`,
    `tests/bench`), any path of a .md, .c, .h, .py or .sh file below a
    folder of the tree (`core/evq.h`, `unit/model_util.c`), and any bare
    name of a Markdown or Python file (`MODEL.md`, `analytic.py`, which
    must exist somewhere in the tree or be installed under that name by a
    CMake `RENAME`). A path resolves against the citing file's folder,
    then the top, then as the tail of a path in the tree;
  - a section of a Markdown file that does not exist. The one form of a
    section reference is

        stations/MODEL.md, "Deference in a crowd"

    (the path may be in backquotes; in a comment the quote may go on the
    next line). The quoted text must be a heading of that file (any level),
    or its start up to " (", ":" or "," (`"Counters"` names "Counters
    (Clause 30, ...)"). Other forms next to a .md path (`MODEL.md
    ("Counters")`, `MODEL.md "Counters"`, `MODEL.md#counters`) are refused,
    so that every reference is checked.

Not read: .git, build trees (a folder holding CMakeCache.txt), binary
files, and this script (its patterns and examples).

Usage: check_refs.py REPO_ROOT    exit 0 when clean, 1 with one line per
                                  problem on standard output
       check_refs.py --self-test  plants each kind of broken reference in
                                  a scratch tree and checks that exactly
                                  those are reported
Exit 2 on a usage error.
"""
import os
import re
import sys

# Extensions whose bare names (no folder) must exist somewhere in the tree.
# Not .c or .h: comments name system headers (pcap.h, ncurses.h).
BARE_CHECKED = (".md", ".py")

FORBIDDEN = [
    (re.compile(r"DESIGN\.md"), "cites DESIGN.md, which is not in the repository"),
    (re.compile(r"\.\./shared\b"), "points to ../shared, outside the repository"),
    (re.compile(r"\b[Ii]ssues?\s*(?:#\s*)?\d+"), "cites an issue number"),
    (re.compile(r"\b[Ii]ssue-\d+"), "cites an issue number"),
    (re.compile(r"\brefs\s+(?:[ab]\.\d|[ab]:|S\d)"), "cites a notes file that is not in the repository"),
]

# Paths below a folder of the tree that is not at the top (core/evq.h,
# unit/model_util.c) are checked when they name a file of these kinds.
CHECKED_EXT = (".md", ".c", ".h", ".py", ".sh")
# A placeholder in a path pattern: NAME, SEEDS, PID, or a wildcard. A
# Markdown file is a doc, not a pattern (README.md, MODEL.md).
PLACEHOLDER_RE = re.compile(r"(?:^|[^A-Za-z])[A-Z]{3,}(?:$|[^A-Za-z])|[*?<>{}]")


def is_placeholder(component):
    if re.search(r"[*?<>{}]", component):
        return True
    return not component.endswith(".md") and PLACEHOLDER_RE.search(component) is not None

# A path with at least one slash, starting at a word boundary that is not
# inside a longer path, URL, shell/CMake variable or <system/header.h>.
# "./x" names a user's file in examples and is not checked.
PATH_RE = re.compile(r"(?<![\w./:$}@%~<-])((?:\.\.?/)*[\w.+-]+(?:/[\w.+-]+)+/?)")
# A bare Markdown or Python file name.
BARE_RE = re.compile(r"(?<![\w./:$}@%~-])([\w+-][\w.+-]*\.(?:md|py))\b(?![\w/])")
# A .md path followed by what may be a section reference. The standard form
# is group 2 == ", " with a double-quoted heading; comment leaders (" * ",
# "# ", "// ") may stand between when the line breaks.
LEADER = r"(?:\s*(?:\*|#|//)?\s*)"
SECTION_RE = re.compile(
    r"(?<![\w./-])`?((?:\.\.?/)*[\w.+-]+(?:/[\w.+-]+)*\.md)`?"
    r"(,"  + LEADER + r"|\s*\(\s*|\s+|#)"
    r"(\"([^\"\n]|\n" + LEADER + r"){1,160}?\"|[\w-]+)")


def is_text(path):
    try:
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return False
    return b"\0" not in head


def walk(root):
    """Every file of the tree, relative to root, but .git and build trees."""
    out = []
    for d, dirs, files in os.walk(root):
        keep = []
        for x in dirs:
            full = os.path.join(d, x)
            if x in (".git", "__pycache__"):
                continue
            if os.path.exists(os.path.join(full, "CMakeCache.txt")):
                continue  # a build tree (cmake -B build-test)
            keep.append(x)
        dirs[:] = sorted(keep)
        if d != root:
            out.append(os.path.relpath(d, root) + "/")
        for x in sorted(files):
            if x == ".git":
                continue  # a worktree's pointer to its repository
            out.append(os.path.relpath(os.path.join(d, x), root))
    return out


def norm_heading(s):
    s = re.sub(r"\n" + LEADER, " ", s)
    s = s.replace("`", "").replace("*", "")
    return " ".join(s.split())


def headings(path, cache):
    if path not in cache:
        hs = []
        fence = False
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("```"):
                    fence = not fence
                    continue
                m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    hs.append(norm_heading(m.group(1)))
        cache[path] = hs
    return cache[path]


def heading_matches(text, hs):
    for h in hs:
        if h == text:
            return True
        for sep in (" (", ":", ","):
            if h.startswith(text + sep):
                return True
    return False


class Tree:
    def __init__(self, root, entries):
        self.root = root
        files = [e for e in entries if not e.endswith("/")]
        self.files = set(files)
        self.dirs = {e.rstrip("/") for e in entries if e.endswith("/")}
        for f in files:
            p = os.path.dirname(f)
            while p:
                self.dirs.add(p)
                p = os.path.dirname(p)
        self.top = {f.split("/")[0] for f in files}
        self.basenames = {os.path.basename(f) for f in files}
        self.dirnames = {os.path.basename(d) for d in self.dirs}
        # Names a file is installed under (install(... RENAME NAME)): the
        # installed docs and the man page cite them.
        for f in files:
            if os.path.basename(f) == "CMakeLists.txt":
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    self.basenames.update(re.findall(r"\bRENAME\s+([\w.+-]+)", fh.read()))

    def exists(self, rel):
        rel = os.path.normpath(rel).rstrip("/")
        return rel in self.files or rel in self.dirs

    def resolve(self, name, citing):
        """The repository path NAME means in CITING's text, or None."""
        here = os.path.dirname(citing)
        for base in (here, ""):
            cand = os.path.normpath(os.path.join(base, name))
            if not cand.startswith("..") and self.exists(cand):
                return cand.rstrip("/")
        if name.startswith("."):
            return None
        first = name.split("/")[0]
        if first in self.top:
            return None  # names a top-level entry: must resolve from the top
        tail = "/" + name.rstrip("/")
        hits = [f for f in self.files | self.dirs if ("/" + f).endswith(tail)]
        return min(hits) if hits else None


def check_file(tree, rel, problems, hcache):
    try:
        with open(os.path.join(tree.root, rel), encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return
    line_of = lambda pos: text.count("\n", 0, pos) + 1

    forbidden = []  # spans already reported: no second problem for them
    for rx, why in FORBIDDEN:
        for m in rx.finditer(text):
            forbidden.append(m.span())
            problems.append(f"{rel}:{line_of(m.start())}: {why}: {m.group(0)!r}")
    reported = lambda m: any(a < m.end(1) and m.start(1) < b for a, b in forbidden)

    for m in PATH_RE.finditer(text):
        name = m.group(1).rstrip(".,;:")
        if reported(m):
            continue
        parts = [x for x in name.split("/") if x]
        if any(is_placeholder(x) or x.endswith("_") for x in parts):
            continue  # a pattern: tests/unit/NAME, fuzz_NAME.c, fuzz_*
        first = parts[0]
        checked = (first in tree.top or name.startswith("../")
                   or (first in tree.dirnames and name.endswith(CHECKED_EXT)))
        if not checked:
            continue
        if tree.resolve(name, rel) is None:
            problems.append(f"{rel}:{line_of(m.start())}: no such path in the repository: {name}")

    for m in BARE_RE.finditer(text):
        name = m.group(1)
        if reported(m):
            continue
        if name.endswith(BARE_CHECKED) and name not in tree.basenames:
            problems.append(f"{rel}:{line_of(m.start())}: no file of that name in the repository: {name}")

    for m in SECTION_RE.finditer(text):
        path, sep, target = m.group(1), m.group(2), m.group(3)
        quoted = target.startswith('"')
        if not quoted and sep != "#":
            continue  # "MODEL.md and ..." is no section reference
        where = f"{rel}:{line_of(m.start())}"
        if sep == "#" or not sep.startswith(","):
            problems.append(f"{where}: section reference not in the form "
                            f"'{path}, \"Heading\"': {m.group(0)!r}")
            continue
        doc = tree.resolve(path, rel)
        if doc is None:
            continue  # reported above as a missing path
        text_h = norm_heading(target[1:-1])
        if not heading_matches(text_h, headings(os.path.join(tree.root, doc), hcache)):
            problems.append(f"{where}: {doc} has no section \"{text_h}\"")


def check_tree(root):
    """The problems of the tree at root, one line each."""
    entries = walk(root)
    tree = Tree(root, entries)
    files = [e for e in entries if not e.endswith("/")]
    problems, hcache = [], {}
    me = os.path.relpath(os.path.abspath(__file__), root)
    for rel in files:
        if rel == me:
            continue  # its own patterns and examples
        if is_text(os.path.join(root, rel)):
            check_file(tree, rel, problems, hcache)
    return problems, len(files)


# The self-test's tree: file -> text. Every line marked BAD must be
# reported (once per BAD), and nothing else.
SELF_TEST_TREE = {
    "README.md": "# Top\n## Options\n",
    "CMakeLists.txt": "install(FILES captures/README.md DESTINATION doc RENAME CAPTURES.md)\n",
    "captures/README.md": "# Captures\n",
    "docs/MODEL.md": ("# Model\n## Counters (Clause 30)\n## The measured window: which instant\n"
                      "```\n## not a heading\n```\n"),
    "src/engine/engine.c": (
        "/* good: docs/MODEL.md, \"Counters\"; `docs/MODEL.md`, \"The measured window\"\n"
        " * good: docs/MODEL.md,\n * \"Counters (Clause 30)\"; ../../README.md, \"Options\"\n"
        " * good: src/engine, src/engine/, tests/unit/NAME.c, fuzz_*.c, <pcap/pcap.h>\n"
        " * good: https://example.org/a/b.md, ./lab.ini, CAPTURES.md, MODEL.md and more\n"
        " * BAD: DESIGN.md\n"
        " * BAD: ../shared/x\n"
        " * BAD: issue 5\n"
        " * BAD: see issues 5 and 6\n"
        " * BAD: issue-12\n"
        " * BAD: refs a.6\n"
        " * BAD: 5.2.4.1, refs a: a burst\n"
        " * BAD: src/engine.c moved\n"
        " * BAD: tests/gone\n"
        " * BAD: GONE.md\n"
        " * BAD: helper.py\n"
        " * BAD: docs/MODEL.md, \"Countersx\"\n"
        " * BAD: docs/MODEL.md, \"not a heading\"\n"
        " * BAD: docs/MODEL.md (\"Counters\")\n"
        " * BAD: docs/MODEL.md#counters\n"
        " * BAD: ../README.md, \"Options\" (one folder too few)\n"
        " */\n"),
    "tests/unit/x.c": "/* good: unit/x.c, core/y.h (no core/), a/b.txt */\n",
    "build/CMakeCache.txt": "DESIGN.md issue 5\n",
}


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST_TREE.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(root, "blob.bin"), "wb") as f:
            f.write(b"\0DESIGN.md issue 5")
        problems, _ = check_tree(root)
    expected = {}
    for rel, text in SELF_TEST_TREE.items():
        if rel.startswith("build/"):
            continue
        for n, line in enumerate(text.split("\n"), 1):
            if "BAD" in line:
                expected[f"{rel}:{n}"] = expected.get(f"{rel}:{n}", 0) + 1
    got = {}
    for p in problems:
        where = ":".join(p.split(":")[:2])
        got[where] = got.get(where, 0) + 1
    ok = got == expected
    if not ok:
        print("self-test failed; reported:")
        for p in problems:
            print("  " + p)
        print("expected one problem on each of: " + ", ".join(sorted(expected)))
    else:
        print(f"check_refs self-test: {len(problems)} planted problems found, nothing else")
    return 0 if ok else 1


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: check_refs.py REPO_ROOT | --self-test", file=sys.stderr)
        return 2
    problems, n_files = check_tree(os.path.abspath(argv[1]))
    for p in problems:
        print(p)
    print(f"check_refs: {n_files} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
