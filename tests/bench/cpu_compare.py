#!/usr/bin/env python3
"""cpu_compare.py - is one csmacd binary slower than another on a run?

    tests/bench/cpu_compare.py [--runs N] [--copies K] OLD NEW -- RUN ARGUMENTS...

Runs `OLD run ARGUMENTS` and `NEW run ARGUMENTS` alternately, each pinned
to the same CPU, and measures the child's CPU time (user + system), which
a busy machine disturbs far less than the wall clock. Each binary runs
from K copies of its file: where a binary's pages fall weighs as much as
its instructions (two byte-identical copies of one binary have differed
by 6 % here, steadily), so one copy proves nothing. The copies of OLD
against each other give the noise floor: a difference between OLD and
NEW no larger than it is not a difference.

Prints, for each binary, the median and the minimum CPU time over all its
runs; the ratio NEW / OLD (median of the runs paired by copy and round);
each copy's own ratio; and the floor. README.md here, "Networks of
segments: what one medium pays for them", says why.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile


def fail(message):
    print(f"cpu_compare: {message}", file=sys.stderr)
    sys.exit(2)


def cpu_seconds(binary, shown, args, cpu):
    """The CPU time of one run of binary (a copy of `shown`), in seconds;
    exits on a failed run."""
    pid = os.fork()
    if pid == 0:
        try:
            os.sched_setaffinity(0, {cpu})
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.execv(binary, [binary, "run"] + args)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail(f"{shown} run {' '.join(args)} failed (status {status})")
    return usage.ru_utime + usage.ru_stime


def main():
    p = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    p.add_argument("--runs", type=int, default=10, help="rounds (default 10)")
    p.add_argument("--copies", type=int, default=3, help="copies of each binary (default 3)")
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("args", nargs=argparse.REMAINDER)
    o = p.parse_args()
    args = o.args[1:] if o.args[:1] == ["--"] else o.args
    if o.runs < 1 or o.copies < 2:
        fail("--runs must be at least 1 and --copies at least 2")
    for b in (o.old, o.new):
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            fail(f"{b}: not an executable file")
    cpu = max(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="cpu_compare.") as tmp:
        copies, shown = {}, {"old": o.old, "new": o.new}
        for name, b in shown.items():
            copies[name] = []
            for k in range(o.copies):
                path = os.path.join(tmp, f"{name}{k}")
                shutil.copy2(b, path)
                copies[name].append(path)
        times = {(name, k): [] for name in copies for k in range(o.copies)}
        for r in range(o.runs):
            for k in range(o.copies):
                order = ("old", "new") if (r + k) % 2 == 0 else ("new", "old")
                for name in order:
                    times[name, k].append(cpu_seconds(copies[name][k], shown[name], args, cpu))
    def every(name):
        return [t for k in range(o.copies) for t in times[name, k]]
    for name, b in (("old", o.old), ("new", o.new)):
        t = every(name)
        print(f"{name} {b}: median {statistics.median(t):.3f} s, minimum {min(t):.3f} s "
              f"of CPU, {len(t)} runs")
    paired = [n / d for k in range(o.copies) for n, d in zip(times["new", k], times["old", k])]
    per_copy = [statistics.median([n / d for n, d in zip(times["new", k], times["old", k])])
                for k in range(o.copies)]
    floor = max(statistics.median(times["old", k]) for k in range(o.copies)) / \
        min(statistics.median(times["old", k]) for k in range(o.copies))
    print(f"new / old: {statistics.median(paired):.4f} (each copy: "
          + ", ".join(f"{x:.4f}" for x in per_copy) + ")")
    print(f"noise floor: the copies of old differ by up to {100 * (floor - 1):.1f} %")


if __name__ == "__main__":
    main()
