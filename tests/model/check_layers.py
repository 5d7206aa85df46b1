#!/usr/bin/env python3
"""The layers of a scenario (src/model): keys.c (the one key table and its
setters), then group.c, then scenario.c. A file may call the functions of
the files below it, never those of a file above: this test fails when a
lower file calls (or takes the address of) a function defined in a higher
one, as group.c once called back scenario_set.

usage: check_layers.py SOURCE_DIR
"""
import re
import sys

LAYERS = ["src/model/keys.c", "src/model/group.c", "src/model/scenario.c"]
DEF = re.compile(r"^(?!static\b|typedef\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\((?:[^;]*$|.*\{)", re.M)


def code_of(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def main():
    root = sys.argv[1]
    codes = [code_of(f"{root}/{f}") for f in LAYERS]
    defined = [set(m.group(1) for m in DEF.finditer(c)) for c in codes]
    for name_set, f in zip(defined, LAYERS):
        if not name_set:
            print(f"{f}: no function found (the pattern no longer reads the file)")
            return 1
    bad = []
    for low, code in enumerate(codes):
        for high in range(low + 1, len(LAYERS)):
            for name in sorted(defined[high]):
                if re.search(rf"\b{name}\b", code):
                    bad.append(f"{LAYERS[low]} uses {name}, defined in {LAYERS[high]} "
                               "(a layer above it)")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
