#!/usr/bin/env python3
"""run.py - the mutation check: how many planted faults does the suite catch?

Copies the source tree to a scratch folder, configures a quick build there
(Debug, -O1, no LTO, no sanitizers, no fuzzers), builds it once and checks
that the suite passes. Then, for each mutant of the list (mutants.txt), it
replaces the mutant's original text (which must occur exactly once in its
file) by the replacement, rebuilds incrementally, runs the tests one by one
in ORDER (the fast tests that see the model first) and stops at the first
failure, and restores the file. A mutant is

  caught     a test failed or timed out (the test is named);
  survived   every test passed;
  error      its text is not in the file exactly once, or it does not
             build: the list needs fixing; not counted in the score;
  equivalent marked so in the list (it cannot change behaviour): not run
             unless --run-equivalent, not counted in the score.

A test that exceeds --test-timeout fails like any other (CTest reports it);
a suite that exceeds --mutant-timeout as a whole is reported as TIMEOUT and
counted as caught (the run did not pass). With --compare REGEX the tests
it matches run last, only when all the others have passed, so one run also
gives the score the suite gets without them.

The score is caught / (caught + survived). Exit status: 0 when the score
is at least --min-score (default 0) and no mutant is an error, 1 otherwise,
2 on bad usage. Usage and the list's format: README.md beside this file.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Tests run in this order: the model's fast unit tests first (most mutants
# die there, cheaply), then the pcap and output tests, then the command
# line tests, and the slow ones last. Tests not named here run after these,
# in CTest's order.
ORDER = [
    "test_rules", "test_phy_profiles", "test_timing", "test_counters", "test_medium",
    "test_backoff", "test_policies", "test_contention", "test_outage",
    "test_determinism", "test_capture_runs", "test_series", "test_recovery",
    "test_evq", "test_rng", "test_policy_theory", "test_frame_sizes",
    "test_stats", "test_defaults", "test_pcap_sink", "test_pcap_run", "test_ethframe", "test_replay",
    "test_pcap_replay", "test_scenario", "test_parse", "test_cli", "test_outputs",
    "test_analytic", "test_timeline_sink", "test_tui_driver", "test_tui_layout",
    "test_sweep", "pcap_cli", "cli_runs", "cli_cases", "retry_storm",
]
# Left out: they cannot see the model, or only through what the tests
# above already read, and they are slow (tmux drives the TUI's screen;
# the fuzzers look for crashes in the parsers; MPI needs mpirun; tshark
# re-reads traces that test_pcap_run checks field by field; the fault
# test kills runs at random moments to check the outputs stay whole).
EXCLUDE = re.compile(r"^(tui_tmux|fuzz_.*|sweep_mpi|pcap_tshark|cli_faults)$")


def parse_list(path):
    """Reads the mutant list: blocks of `key: value` lines separated by
    blank lines; '#' starts a comment line. Keys: id, file, from, to,
    rule, and optionally equivalent (the reason). A value is the text
    after "key: ", trailing spaces removed (leading ones are kept, so that
    an indented line can be told from a longer one that contains it)."""
    mutants, cur, errors = [], {}, []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                cur.setdefault("line", no)
                mutants.append(cur)
                cur = {}
            continue
        m = re.match(r"^(id|file|from|to|rule|equivalent):(?: (.*))?$", line)
        if not m:
            errors.append(f"{path}:{no}: not 'key: value' (keys: id file from to rule equivalent)")
            continue
        key, value = m.group(1), (m.group(2) or "").rstrip()
        if key in cur:
            errors.append(f"{path}:{no}: {key} given twice in one mutant")
        cur[key] = value
        cur.setdefault("start", no)
    ids = set()
    for mu in mutants:
        where = f"{path}:{mu['start']}"
        for key in ("id", "file", "from", "to", "rule"):
            if key not in mu:
                errors.append(f"{where}: the mutant has no '{key}'")
        if mu.get("from") == mu.get("to"):
            errors.append(f"{where}: 'from' and 'to' are the same text")
        if mu.get("id") in ids:
            errors.append(f"{where}: id '{mu.get('id')}' used twice")
        ids.add(mu.get("id"))
    return mutants, errors


def run(cmd, cwd=None, timeout=None, log=None):
    """Runs cmd; returns (status, output). A timeout gives status None."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return None, out
    if log is not None:
        log.write(p.stdout)
    return p.returncode, p.stdout


def sync_tree(src, dst):
    """Makes dst a copy of src (without .git and build folders), writing
    only the files that differ, so that a reused build stays incremental."""
    skip = re.compile(r"^(\.git|build.*|__pycache__)$")
    for d, dirs, files in os.walk(src):
        dirs[:] = [x for x in dirs if not skip.match(x)]
        rel = os.path.relpath(d, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            a, b = os.path.join(d, name), os.path.join(dst, rel, name)
            with open(a, "rb") as f:
                data = f.read()
            try:
                with open(b, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                with open(b, "wb") as f:
                    f.write(data)
                shutil.copymode(a, b)


def list_tests(build):
    status, out = run(["ctest", "--test-dir", build, "-N"])
    if status != 0:
        sys.exit("csmacd-mutation: ctest -N: cannot list the tests\n" + out)
    names = re.findall(r"Test +#\d+: (\S+)", out)
    ordered = [t for t in ORDER if t in names]
    ordered += [t for t in names if t not in ordered]
    return [t for t in ordered if not EXCLUDE.match(t)]


def run_suite(build, tests, test_timeout, budget):
    """Runs the tests in order, stopping at the first failure. Returns
    (None, seconds) when all passed, else (test name and why, seconds)."""
    t0 = time.monotonic()
    for t in tests:
        left = budget - (time.monotonic() - t0)
        if left <= 0:
            return f"TIMEOUT (the suite's {budget:.0f} s, before {t})", time.monotonic() - t0
        status, out = run(["ctest", "--test-dir", build, "--stop-on-failure",
                           "--timeout", str(test_timeout), "-R", f"^{re.escape(t)}$"],
                          timeout=min(left, test_timeout + 30))
        if status is None:
            return f"{t} (time limit)", time.monotonic() - t0
        if status != 0:
            why = " (timeout)" if "Timeout" in out else ""
            return t + why, time.monotonic() - t0
    return None, time.monotonic() - t0


def on_signal(signum, frame):
    raise SystemExit(128 + signum)  # unwinds through the finally that restores a file


def main():
    signal.signal(signal.SIGTERM, on_signal)
    ap = argparse.ArgumentParser(description="Mutation check of the csmacd test suite.")
    ap.add_argument("--list", default=os.path.join(HERE, "mutants.txt"),
                    help="the mutant list (default: mutants.txt beside this script)")
    ap.add_argument("--only", default="",
                    help="comma-separated mutant ids, or id prefixes ending in '*'")
    ap.add_argument("--work", default="",
                    help="scratch folder (default: a new temporary one, removed at the end); "
                         "an existing one from an earlier --keep run is reused")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="build jobs (default 2)")
    ap.add_argument("--test-timeout", type=int, default=120,
                    help="seconds per test (default 120)")
    ap.add_argument("--mutant-timeout", type=int, default=600,
                    help="seconds for the whole suite per mutant (default 600)")
    ap.add_argument("--run-equivalent", action="store_true",
                    help="also run the mutants marked equivalent (they should survive)")
    ap.add_argument("--check", action="store_true",
                    help="only check the list against the tree (each text found once)")
    ap.add_argument("--compare", default="", metavar="REGEX",
                    help="run the tests matching REGEX last, and also print the score "
                         "the suite gets without them")
    ap.add_argument("--shard", default="", metavar="K/N",
                    help="run only mutants K, K+N, K+2N... (K from 1): N runs in parallel, "
                         "each with its own --work")
    ap.add_argument("--no-baseline", action="store_true",
                    help="do not run the suite on the unmutated tree first (when iterating)")
    ap.add_argument("--min-score", type=float, default=0.0,
                    help="exit 1 when the score (percent) is below this")
    args = ap.parse_args()

    mutants, errors = parse_list(args.list)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 2
    if args.shard:
        m = re.match(r"^(\d+)/(\d+)$", args.shard)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            print(f"csmacd-mutation: --shard: '{args.shard}' is not K/N with 1 <= K <= N",
                  file=sys.stderr)
            return 2
        k, n = int(m.group(1)), int(m.group(2))
        mutants = mutants[k - 1::n]
    if args.only:
        want = [w.strip() for w in args.only.split(",") if w.strip()]

        def picked(i):
            return any(i == w or (w.endswith("*") and i.startswith(w[:-1])) for w in want)
        mutants = [m for m in mutants if picked(m["id"])]
        if not mutants:
            print(f"csmacd-mutation: --only: no mutant matches '{args.only}'", file=sys.stderr)
            return 2

    def text_problem(tree, mu):
        path = os.path.join(tree, mu["file"])
        if not os.path.isfile(path):
            return f"file {mu['file']} not found"
        with open(path, encoding="utf-8") as f:
            n = f.read().count(mu["from"])
        if n != 1:
            return ("original text not found" if n == 0 else
                    f"original text found {n} times (it must be unique)")
        return None

    if args.check:
        bad = 0
        for mu in mutants:
            p = text_problem(ROOT, mu)
            if p:
                bad += 1
                print(f"{mu['id']:<28} error: {p}")
        print(f"{len(mutants)} mutants, {bad} errors")
        return 1 if bad else 0

    work = args.work or tempfile.mkdtemp(prefix="csmacd-mutation-")
    tree, build = os.path.join(work, "src"), os.path.join(work, "build")
    fresh = not os.path.isdir(build)
    try:
        print(f"copying the tree to {tree}", flush=True)
        sync_tree(ROOT, tree)
        if fresh:
            # Ninja, when there is one, rebuilds in half the time of make.
            gen = ["-G", "Ninja"] if shutil.which("ninja") else []
            status, out = run(["cmake", *gen, "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Debug",
                               "-DCMAKE_C_FLAGS_DEBUG=-O1", "-DCSMACD_SANITIZE=OFF",
                               "-DCSMACD_WERROR=OFF", "-DCSMACD_FUZZ=OFF",
                               "-DCSMACD_VALGRIND=OFF"])
            if status != 0:
                print(out, file=sys.stderr)
                print("csmacd-mutation: cmake: configuration failed", file=sys.stderr)
                return 1
        print("building", flush=True)
        status, out = run(["cmake", "--build", build, "-j", str(args.jobs)])
        if status != 0:
            print(out[-4000:], file=sys.stderr)
            print("csmacd-mutation: the unmutated tree does not build", file=sys.stderr)
            return 1
        tests = list_tests(build)
        print(f"{len(tests)} tests, in this order: {' '.join(tests)}", flush=True)
        if not args.no_baseline:
            print("running the suite on the unmutated tree", flush=True)
            failed, secs = run_suite(build, tests, args.test_timeout, args.mutant_timeout * 4)
            if failed:
                print(f"csmacd-mutation: the unmutated tree fails {failed}: fix that first",
                      file=sys.stderr)
                return 1
            print(f"all pass ({secs:.0f} s)\n", flush=True)

        # --compare: the tests it names run last, after all the others have
        # passed, so one run gives the score with and without them.
        late = re.compile(args.compare) if args.compare else None
        first = [t for t in tests if not (late and late.search(t))]
        last = [t for t in tests if late and late.search(t)]
        if late:
            print(f"compared: {' '.join(last)}", flush=True)
        caught = caught_late = survived = equivalent = errs = timeouts = 0
        survivors, late_caught = [], []
        for mu in mutants:
            label = f"{mu['id']:<28}"
            if "equivalent" in mu and not args.run_equivalent:
                equivalent += 1
                print(f"{label} equivalent: {mu['equivalent']}", flush=True)
                continue
            problem = text_problem(tree, mu)
            if problem:
                errs += 1
                print(f"{label} ERROR: {mu['file']}: {problem}", flush=True)
                continue
            path = os.path.join(tree, mu["file"])
            with open(path, encoding="utf-8") as f:
                original = f.read()
            t0 = time.monotonic()
            failed = failed_late = None
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original.replace(mu["from"], mu["to"], 1))
                status, out = run(["cmake", "--build", build, "-j", str(args.jobs)])
                if status != 0:
                    errs += 1
                    print(f"{label} ERROR: does not build", flush=True)
                    continue
                failed, secs = run_suite(build, first, args.test_timeout, args.mutant_timeout)
                if not failed and last:
                    failed_late, _ = run_suite(build, last, args.test_timeout,
                                               max(60, args.mutant_timeout - secs))
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
            secs = time.monotonic() - t0
            tag = " (marked equivalent)" if "equivalent" in mu else ""
            verdict = failed or failed_late
            if verdict and verdict.startswith("TIMEOUT"):
                timeouts += 1
            if "equivalent" in mu:
                equivalent += 1
            elif failed:
                caught += 1
            elif failed_late:
                caught_late += 1
                late_caught.append(mu)
            else:
                survived += 1
                survivors.append(mu)
            if failed:
                print(f"{label} caught by {failed}{tag} [{secs:.0f} s]", flush=True)
            elif failed_late:
                print(f"{label} caught by {failed_late}, compared: survived the others{tag} "
                      f"[{secs:.0f} s]", flush=True)
            else:
                print(f"{label} SURVIVED{tag} [{secs:.0f} s]", flush=True)

        counted = caught + caught_late + survived
        print()
        for mu in survivors:
            print(f"survivor {mu['id']}: {mu['file']}: {mu['rule']}")
        print(f"mutants: {len(mutants)}; equivalent: {equivalent}; errors: {errs}; "
              f"caught: {caught + caught_late}; survived: {survived}"
              + (f"; suite timeouts (counted as caught): {timeouts}" if timeouts else ""))
        if late:
            print(f"without the compared tests: {caught}/{counted} = "
                  f"{100.0 * caught / counted if counted else 100.0:.1f} %"
                  f" ({len(late_caught)} caught only by them: "
                  f"{' '.join(m['id'] for m in late_caught)})")
        score = 100.0 * (caught + caught_late) / counted if counted else 100.0
        print(f"score: {caught + caught_late}/{counted} = {score:.1f} %")
        return 0 if errs == 0 and score >= args.min_score else 1
    finally:
        if not args.keep and not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
