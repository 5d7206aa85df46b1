#!/usr/bin/env bash
# test_sweep_cli.sh - `csmacd sweep` and `csmacd presets` end to end.
# One case per CTest test:
#   jobs     the CSV is byte-identical for --jobs 1 and --jobs 2, with
#            fixed replications and with --precision (whose number of
#            replications is decided while running);
#   rerun    every row re-run alone with `csmacd run` (the seed and the
#            scenario columns) prints the same measures (check_rows.py),
#            for saturated, poisson, onoff and batch traffic and a phy list;
#   plot     --plot draws valid SVG, PNG and PDF files with the series,
#            axis labels and analytic references asked for; measures
#            without a value are said on the figure, never warned; a
#            preset's own long cables are not warned about; a sweep
#            says which files it wrote (one line each); without
#            gnuplot the CSV is still written and the message says how to
#            install it (exit 1);
#   usage    bad inputs exit 2 with one line on standard error and no file;
#   signal   SIGINT during a sweep leaves a valid CSV of the completed
#            points (exit 130);
#   presets  `csmacd presets` lists every preset, one line each, and each
#            one runs (shrunk by command-line overrides) and draws; a
#            preset's `frames` sizes each point's run (exact durations).
# Durations are tiny: the suite runs under ASan/UBSan in CI. Numbers are
# not judged here (tests/unit/test_sweep.c does the statistics).
#
# usage: test_sweep_cli.sh CSMACD TESTS_SWEEP_DIR WORK_DIR CASE
set -u
EXE=$1
HERE=$2
WORK=$3
CASE=$4
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
sweep() { "$EXE" sweep --quiet "$@"; }

case "$CASE" in
jobs)
    for j in 1 2; do
        sweep --stations 1,3,8 --frame-size 64,1518 --duration 10ms --reps 2 --seed 7 \
            --jobs $j --csv fixed-$j.csv || fail "sweep --jobs $j"
        sweep --stations 2,16 --frame-size 64 --duration 5ms --precision 0.02 --max-reps 12 \
            --jobs $j --csv prec-$j.csv || fail "sweep --precision --jobs $j"
    done
    cmp fixed-1.csv fixed-2.csv || fail "--reps 2: --jobs 1 and --jobs 2 differ"
    cmp prec-1.csv prec-2.csv || fail "--precision: --jobs 1 and --jobs 2 differ"
    [ "$(wc -l < fixed-1.csv)" -eq 7 ] || fail "expected a header and 6 rows"
    echo "jobs: byte-identical CSVs"
    ;;
rerun)
    sweep --phy 10base5,100basetx --stations 1,3 --frame-size 64,1518 --duration 4ms \
        --warmup 1ms --csv sat.csv || fail "saturated sweep"
    sweep --traffic poisson --stations 5 --load 0.2,1.5 --length 0,2500 --frame-size 64-1518 \
        --duration 5ms --csv poisson.csv || fail "poisson sweep"
    sweep --traffic onoff --on-off 1ms/3ms --stations 4 --load 0.4 --dest server:2 \
        --duration 5ms --reps 3 --csv onoff.csv --reps-csv onoff-reps.csv || fail "onoff sweep"
    sweep --traffic batch --batch 2 --stations 2,9 --duration 1s --csv batch.csv \
        || fail "batch sweep"
    for f in sat.csv poisson.csv batch.csv; do
        python3 "$HERE/check_rows.py" "$EXE" $f || fail "$f: rows do not re-run"
    done
    python3 "$HERE/check_rows.py" "$EXE" onoff-reps.csv --reps || fail "replication rows"
    ;;
plot)
    sweep --stations 1,2,4,8,16 --frame-size 64,1518 --duration 3ms --csv n.csv \
        --plot n.svg --plot-y throughput,mean_delay_us || fail "svg sweep"
    python3 "$HERE/check_plot.py" n.svg "stations N" "throughput S" \
        "mean delay, queue arrival to last bit sent (µs)" \
        "64 B" "1518 B" "Metcalfe-Boggs CSMA/CD model, 64 B" || fail "n.svg"
    sweep --traffic poisson --stations 8 --load 0.2,0.8,2 --duration 3ms --csv g.csv \
        --plot g.svg || fail "load sweep"
    python3 "$HERE/check_plot.py" g.svg "offered load G" "pure ALOHA model" \
        "slotted ALOHA model" "Tobagi-Hunt CSMA/CD model" "K-T 1-persistent CSMA, no CD" \
        "K-T non-persistent CSMA, no CD" || fail "g.svg"
    sweep --stations 1,2 --duration 2ms --csv p.csv --plot p.png || fail "png sweep"
    python3 "$HERE/check_plot.py" p.png || fail "p.png"
    sweep --stations 1,2 --duration 2ms --csv d.csv --plot d.pdf || fail "pdf sweep"
    python3 "$HERE/check_plot.py" d.pdf || fail "d.pdf"
    ls -A | grep -q "\.tmp$" && fail "temporary files left behind"
    # No gnuplot on PATH: the CSV is written, the message says what to install.
    PATH=/nonexistent "$EXE" sweep --quiet --stations 1,2 --duration 2ms --csv nognu.csv \
        --plot nognu.svg 2> nognu.err
    rc=$?
    [ $rc -eq 1 ] || fail "without gnuplot: exit $rc, expected 1"
    [ -s nognu.csv ] || fail "without gnuplot: no CSV"
    [ ! -e nognu.svg ] || fail "without gnuplot: a figure appeared"
    grep -q "apt-get install gnuplot-nox" nognu.err || fail "message: $(cat nognu.err)"
    # A measure with no value at any point (no outage: no recovery_s) is
    # drawn, said on its panel, with nothing on standard error (gnuplot
    # failed on it: "x range is invalid").
    "$EXE" sweep --quiet --stations 2,4 --duration 2ms --plot-y recovery_s,throughput \
        --csv nv.csv --plot nv.svg 2> nv.err || fail "--plot-y recovery_s: $(cat nv.err)"
    [ ! -s nv.err ] || fail "--plot-y recovery_s said: $(cat nv.err)"
    python3 "$HERE/check_plot.py" nv.svg "no value at any point" \
        "the scenario has no outage" || fail "nv.svg"
    # retry-storm, shrunk: fixed retry never recovers; the figure says so
    # under its key, and nothing is warned.
    "$EXE" sweep --quiet --preset retry-storm --load 0.35 --duration 300ms \
        --outage 50ms+100ms --reps 2 --csv rs.csv --plot rs.svg 2> rs.err || fail "retry-storm"
    [ ! -s rs.err ] || fail "retry-storm said: $(cat rs.err)"
    python3 "$HERE/check_plot.py" rs.svg "fixed:wait=2,jitter=2: never recovered within the run" \
        || fail "rs.svg"
    # cable-length sweeps beyond 2500 m on purpose: no warning for its own
    # lengths; a length given on the command line still warns.
    "$EXE" sweep --quiet --preset cable-length --frame-size 64 --duration 101ms --csv cl.csv \
        2> cl.err || fail "cable-length"
    [ ! -s cl.err ] || fail "cable-length warned: $(cat cl.err)"
    "$EXE" sweep --quiet --preset cable-length --length 3000 --frame-size 64,512 \
        --duration 101ms --csv cl2.csv 2> cl2.err || fail "cable-length --length 3000"
    [ "$(grep -c 'longer than 10base5 allows' cl2.err)" = 1 ] || fail "no warning: $(cat cl2.err)"
    # Without --quiet and without a terminal, one line per file written.
    "$EXE" sweep --stations 1,2 --duration 2ms --reps 2 --csv w.csv --reps-csv w-reps.csv \
        --plot w.svg 2> w.err < /dev/null || fail "sweep saying what it wrote"
    printf '%s\n' "csmacd: wrote w.csv: 2 of 2 points" \
        "csmacd: wrote w-reps.csv: the replications of 2 points" \
        "csmacd: wrote w.svg: the figure of 2 points" | cmp -s - w.err ||
        fail "what the sweep said: $(cat w.err)"
    echo "plot: svg, png and pdf valid; missing gnuplot reported; missing values said"
    ;;
usage)
    n=0
    while IFS='|' read -r args want; do
        [ -z "$args" ] && continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$EXE" sweep --quiet $args > out.txt 2> err.txt
        rc=$?
        [ $rc -eq 2 ] || fail "sweep $args: exit $rc, expected 2"
        [ "$(wc -l < err.txt)" -eq 1 ] || fail "sweep $args: not one line: $(cat err.txt)"
        grep -q -- "$want" err.txt || fail "sweep $args: '$(cat err.txt)' lacks '$want'"
        [ ! -e u.csv ] || fail "sweep $args: wrote u.csv"
    done <<'CASES'
--stations 1,2|--csv: required
--stations 0 --csv u.csv|--stations:
--stations abc --csv u.csv|--stations:
--stations 1..8:log --frame-size 10 --csv u.csv|--frame-size:
--stations 2 --load 0.5 --csv u.csv|--load: conflicts with saturated
--stations 2 --traffic poisson --load -1 --csv u.csv|--load:
--stations 2 --phy 10base5,nosuch --csv u.csv|unknown profile 'nosuch'
--stations 2 --policy nosuch --csv u.csv|nosuch
--stations 2 --plot u.jpg --csv u.csv|--plot:
--stations 2 --plot-y nosuch --csv u.csv|--plot-y: unknown measure
--stations 2 --precision 2 --csv u.csv|--precision:
--stations 2 --reps 0 --csv u.csv|--reps:
--stations 2 --max-reps 9 --csv u.csv|--max-reps: only applies with --precision
--stations 2 --jobs 0 --csv u.csv|--jobs:
--preset nosuch --csv u.csv|--preset: unknown preset 'nosuch'
--stations 2 --warmup 2s --csv u.csv|warmup:
--stations 2 --csv u.csv --reps-csv u.csv|conflicting options
--stations 2 --positions 0,1 --csv u.csv|--positions: not supported
--stations 2 --csv u.csv extra|unexpected argument
CASES
    echo "usage: $n bad command lines refused with exit 2 and one line"
    ;;
signal)
    # Far more work than a second (400 points of 2 s simulated, up to 400
    # stations), the first points cheap: some are complete at the signal.
    "$EXE" sweep --quiet --stations 1..400 --duration 2s --jobs 2 --csv s.csv 2> s.err &
    pid=$!
    sleep 1.5
    kill -INT $pid
    wait $pid
    rc=$?
    [ $rc -eq 130 ] || fail "after SIGINT: exit $rc, expected 130 ($(cat s.err))"
    python3 - s.csv <<'PY' || fail "the CSV after SIGINT is not valid"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "phy", rows[0][:3]
assert all(len(r) == len(rows[0]) for r in rows), "ragged"
assert 0 < len(rows) - 1 < 400, "%d rows: expected some points, not all" % (len(rows) - 1)
points = [int(r[rows[0].index("point")]) for r in rows[1:]]
assert points == sorted(points), "rows out of order"
print("signal: %d of 400 points in the CSV" % (len(rows) - 1))
PY
    grep -q "interrupted" s.err || fail "no message: $(cat s.err)"
    ls -A | grep -q "\.tmp$" && fail "temporary file left behind"
    ;;
presets)
    "$EXE" presets > list.txt || fail "csmacd presets"
    [ -s list.txt ] || fail "no presets"
    while read -r name summary; do
        [ -n "$summary" ] || fail "preset $name has no summary"
        "$EXE" presets --show "$name" | grep -q '^\[sweep\]' || fail "presets --show $name"
        # Shrunk: short runs, few replications, the preset's grid (an
        # outage shrunk with the run, so that it still falls inside it).
        shrink=()
        "$EXE" presets --show "$name" | grep -q '^outage' && shrink=(--outage 0.5ms+0.5ms)
        sweep --preset "$name" --duration 2ms --warmup 0 --reps 2 --stations 2,5 "${shrink[@]}" \
            --csv "$name.csv" --plot "$name.svg" || fail "sweep --preset $name"
        python3 "$HERE/check_plot.py" "$name.svg" || fail "$name.svg"
        [ "$(head -1 "$name.csv" | cut -d, -f1)" = phy ] || fail "$name.csv"
    done < list.txt
    # A preset's scenario keys count for the cross-checks of the options:
    # --batch is accepted because the preset's traffic is batch.
    sweep --preset batch-contention --batch 2 --stations 2,3 --reps 2 --csv b2.csv \
        || fail "--preset batch-contention --batch 2"
    # A preset sized by frames (frames = 2000): one saturated station
    # with 1518-byte frames runs its 20 ms warm-up and then 2000 frames
    # back to back, 2000 x 12304 bit times = 2460.8 ms, rounded up to
    # 2461 ms: duration 2.481 s, 2000 frames sent; 64-byte frames need
    # 2000 x 672 bit times = 134.4 ms: 0.155 s. --duration overrides it.
    sweep --preset throughput-vs-n --stations 1 --frame-size 64,1518 --csv tvn.csv \
        || fail "--preset throughput-vs-n sized by frames"
    python3 - tvn.csv <<'PY' || fail "the points are not sized by frames"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["duration_s"], r["frames_ok"]) for r in rows]
assert [d for d, _ in got] == ["0.155", "2.481"], got
assert all(int(f) >= 2000 for _, f in got), got
PY
    sweep --preset throughput-vs-n --stations 1 --frame-size 1518 --duration 50ms \
        --csv tvn2.csv || fail "--preset throughput-vs-n --duration 50ms"
    grep -q ',0.05,' tvn2.csv || fail "--duration did not override frames: $(cat tvn2.csv)"
    echo "presets: $(wc -l < list.txt) listed, each runs and draws; frames size the runs"
    ;;
*)
    fail "unknown case $CASE"
    ;;
esac
exit 0
