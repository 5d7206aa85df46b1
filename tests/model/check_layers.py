#!/usr/bin/env python3
"""The layers inside a folder: no file calls back up.

1. The layers of a scenario (src/model): keys.c (the one key table and its
   setters), then group.c, then network.c, then scenario.c. A file may call
   the functions of the files below it, never those of a file above: this
   fails when a lower file calls (or takes the address of) a function
   defined in a higher one, as group.c once called back scenario_set.
2. No circle inside a folder: in each source folder (FOLDERS), the files' uses of
   each other's functions form no circle (a.c uses b.c's, b.c uses c.c's,
   c.c uses a.c's), whatever the files: a name shared by two files belongs
   in a third below both.

usage: check_layers.py SOURCE_DIR
       check_layers.py --self-test   (a circle and a call upward are caught)
"""
import glob
import os
import re
import sys
import tempfile

LAYERS = ["src/model/keys.c", "src/model/group.c", "src/model/network.c",
          "src/model/scenario.c"]
FOLDERS = ["src/core", "medium", "stations", "src/model", "src/engine", "src/sinks",
           "src/report", "src/theory", "src/sweep", "src/live", "src/cli", "tui"]
DEF = re.compile(r"^(?!static\b|typedef\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\((?:[^;]*$|.*\{)", re.M)


def code_of(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def uses(files):
    """{file: {other file: [names of other's functions file uses]}}, and the
    files whose functions the pattern found none of."""
    codes = {f: code_of(f) for f in files}
    defined = {f: set(m.group(1) for m in DEF.finditer(c)) for f, c in codes.items()}
    graph = {}
    for a in files:
        graph[a] = {}
        for b in files:
            if a == b:
                continue
            names = [n for n in sorted(defined[b]) if re.search(rf"\b{n}\b", codes[a])]
            if names:
                graph[a][b] = names
    return graph, [f for f in files if not defined[f]]


def upward(root):
    """Problems of the fixed order LAYERS."""
    files = [f"{root}/{f}" for f in LAYERS]
    graph, empty = uses(files)
    bad = [f"{f}: no function found (the pattern no longer reads the file)" for f in empty]
    for low, f in enumerate(files):
        for high in range(low + 1, len(files)):
            for name in graph[f].get(files[high], []):
                bad.append(f"{LAYERS[low]} uses {name}, defined in {LAYERS[high]} "
                           "(a layer above it)")
    return bad


def circles(folder):
    """Each circle of uses among the .c files of folder, once."""
    files = sorted(glob.glob(f"{folder}/*.c"))
    graph, _ = uses(files)
    found, seen = [], set()

    def walk(path):
        for nxt in graph[path[-1]]:
            if nxt == path[0]:
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append(path[:])
            elif nxt not in path and nxt > path[0]:  # each circle from its least file
                walk(path + [nxt])

    for f in files:
        walk([f])
    bad = []
    for c in found:
        steps = [f"{os.path.basename(a)} uses {graph[a][b][0]} of "
                 f"{os.path.basename(b)}" for a, b in zip(c, c[1:] + c[:1])]
        bad.append(f"{folder}: a circle: " + "; ".join(steps))
    return bad


def check(root):
    bad = upward(root)
    for folder in FOLDERS:
        bad += circles(f"{root}/{folder}")
    for b in bad:
        print(b)
    return 1 if bad else 0


def self_test():
    """A folder with a circle of three files, and a call upward, must fail;
    the same folder without them must pass."""
    with tempfile.TemporaryDirectory() as root:
        model = f"{root}/src/model"
        os.makedirs(model)
        files = {"keys.c": "int k_a(void) { return 1; }\n",
                 "group.c": "int g_a(void) { return k_a(); }\n",
                 "network.c": "int n_a(void) { return g_a(); }\n",
                 "scenario.c": "int s_a(void) { return n_a() + k_a(); }\n",
                 "x.c": "int x_a(void) { return y_a(); }\n",
                 "y.c": "int y_a(void) { return z_a(); }\n",
                 "z.c": "int z_a(void) { return 0; }\n"}
        for name, text in files.items():
            open(f"{model}/{name}", "w").write(text)
        if upward(root) or circles(model):
            print("self-test: a folder without a circle fails")
            return 1
        open(f"{model}/z.c", "w").write("int z_a(void) { return x_a(); }\n")
        if not circles(model):
            print("self-test: x.c -> y.c -> z.c -> x.c is not caught")
            return 1
        open(f"{model}/z.c", "w").write(files["z.c"])
        open(f"{model}/keys.c", "w").write("int k_a(void) { return s_a(); }\n")
        if not upward(root):
            print("self-test: keys.c calling scenario.c is not caught")
            return 1
    print("self-test: circles and calls upward are caught")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    sys.exit(check(sys.argv[1]))
