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
#   network  a network's sweep: per-segment and per-repeater columns
#            (per-link and per-port ones with --all-columns only, the
#            rows the figure plots always)
#            (NAME.frames_sent, ...) and the budget's (pdv_bits, verdict),
#            summed segments equal the run's counts, a segment's or a
#            repeater's key as an axis (backbone.length, r1.delay), and
#            the cascaded-hubs and five-four-three presets give the
#            outcomes their headers document (default seed);
#   bridges  the hub-vs-switch, server-port and two-departments presets,
#            shrunk: a swept topology and duplex (a network at some
#            points only, the bridge ports' columns), dest = local:P as
#            an axis, and the outcomes their headers document (default
#            seed); hub-vs-switch's rows re-run alone with `run`;
#   groups   sweeps over any key (--grid), group keys and the per-group
#            columns: the weakest-link, mixed-storm and file-server
#            presets give the outcomes they document (exact counts with
#            the default seed), group sums equal the totals, --jobs 1 and
#            2 agree, and bad keys, groups and lists exit 2.
# Durations are tiny: the suite runs under ASan/UBSan in CI. Numbers are
# not judged here (tests/unit/test_sweep.c does the statistics), except
# the groups case's documented outcomes.
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
    # Far more work than a minute (400 points of 2 s simulated, up to 400
    # stations), the first points cheap: some are complete at the signal.
    # The rows are written at the end, so whether a point was done shows
    # only after it: on a loaded machine the signal is sent again later
    # (1.5 s, then 3, 6, ... 48) until some were.
    for wait_s in 1.5 3 6 12 24 48; do
        rm -f s.csv
        "$EXE" sweep --quiet --stations 1..400 --duration 2s --jobs 2 --csv s.csv 2> s.err &
        pid=$!
        sleep $wait_s
        kill -INT $pid
        wait $pid
        rc=$?
        [ $rc -eq 130 ] || fail "after SIGINT: exit $rc, expected 130 ($(cat s.err))"
        [ "$(wc -l < s.csv)" -gt 1 ] && break
    done
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
        shrink=(--duration 2ms --stations 2,5)
        # A key that moves with the stations (+load) keeps their list.
        "$EXE" presets --show "$name" | grep -q '^+' && shrink=(--duration 2ms)
        "$EXE" presets --show "$name" | grep -q '^outage' && shrink+=(--outage 0.5ms+0.5ms)
        # With groups the stations are the groups' own: the grid is kept,
        # and the runs long enough for a request to get its reply.
        "$EXE" presets --show "$name" | grep -q '^\[group ' &&
            shrink=(--duration 20ms "${shrink[@]:4}")
        sweep --preset "$name" --warmup 0 --reps 2 "${shrink[@]}" \
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
network)
    cat > net.ini <<'INI'
phy = 10base5
traffic = saturated
frame-size = 64
duration = 20ms
[segment backbone]
type = coax
length = 500
[segment lab]
type = hub
length = 100
uplink = backbone@250
[segment annex]
type = coax
length = 300
[repeater r1]
ports = backbone@500, annex@0
[group pcs]
stations = 3
segment = lab
[group servers]
stations = 2
segment = backbone
[group annexed]
stations = 2
segment = annex
INI
    # A segment's and a repeater's keys as axes, one replication each.
    sweep --scenario net.ini --grid annex.length=100,300 --grid r1.delay=8,60 --reps 2 \
        --csv net.csv --reps-csv netr.csv --plot net.svg \
        --plot-y pdv_bits,annex.late_collisions,r1.jams_sent || fail "network sweep"
    python3 "$HERE/check_plot.py" net.svg "annex: late collisions" "r1: jams sent" || fail "net.svg"
    python3 - net.csv netr.csv <<'PY' || fail "network columns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
reps = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(rows) == 4 and len(reps) == 8, (len(rows), len(reps))
head = list(rows[0].keys())
segs, repeaters = ("backbone", "lab", "annex"), ("r1", "lab-uplink")
fams = {"frames_sent", "frames_relayed", "collisions", "late_collisions", "frames_corrupted"}
rfams = {"transmit_collisions", "jams_sent", "fragments_extended", "readable_frames",
         "port_collisions"}
for s in segs:
    for m in fams:
        assert s + "." + m in head and s + "." + m + "_ci95" in head, (s, m)
for r in repeaters:
    for m in rfams:
        assert r + "." + m in head, (r, m)
for c in ("annex.length", "r1.delay", "pdv_bits", "pdv_limit_bits", "pvv_bits",
          "model_round_trip_bits", "verdict"):
    assert c in head, c
assert head.index("r1.delay") < head.index("point") < head.index("backbone.frames_sent")
assert "verdict" in reps[0] and "backbone.frames_sent_ci95" not in reps[0]
pt = {(r["annex.length"], r["r1.delay"]): r for r in rows}
assert sorted(pt) == [("100", "60"), ("100", "8"), ("300", "60"), ("300", "8")], sorted(pt)
for r in reps:
    # every frame sent whole is its segment's; the segments' late
    # collisions are the run's
    assert sum(int(float(r[s + ".frames_sent"])) for s in segs) == int(float(r["frames_ok"]))
    assert sum(int(float(r[s + ".late_collisions"])) for s in segs) == \
        int(float(r["late_collisions"])), r["late_collisions"]
    assert sum(int(float(r[s + ".frames_corrupted"])) for s in segs) == \
        int(float(r["frames_corrupted"])), r["frames_corrupted"]
for r in rows:
    assert float(r["pdv_limit_bits"]) == 575
    assert float(r["r1.readable_frames"]) > 0 and float(r["lab-uplink.readable_frames"]) > 0
# the longer annex and the slower repeater lengthen both round trips
for key in ("pdv_bits", "model_round_trip_bits"):
    assert float(pt[("300", "8")][key]) > float(pt[("100", "8")][key]), key
assert float(pt[("300", "60")]["model_round_trip_bits"]) > \
    float(pt[("300", "8")]["model_round_trip_bits"]) + 2 * 52 - 1e-6
# model round trip: twice (a lab station's 100 m drop, the hub's 8 bit
# times, the uplink's 100 m drop, all at 0.585c, 250 m of backbone at
# 0.77c to r1, r1's 8 bit times, 300 m of annex at 0.77c), in bit times
c = 299792458.0
one_way = (200 / (0.585 * c) + 250 / (0.77 * c) + 300 / (0.77 * c)) * 10e6 + 8 + 8
assert abs(float(pt[("300", "8")]["model_round_trip_bits"]) - 2 * one_way) < 0.01, \
    (pt[("300", "8")]["model_round_trip_bits"], 2 * one_way)
assert pt[("100", "8")]["verdict"] == "within", pt[("100", "8")]["verdict"]
print("network columns: %d; round trip %.2f bit times" % (len(head), 2 * one_way))
PY
    # A network key that is not one: exit 2 naming it.
    "$EXE" sweep --quiet --scenario net.ini --grid annex.colour=red --csv u.csv 2> err.txt
    [ $? -eq 2 ] || fail "annex.colour: not exit 2"
    grep -q "annex" err.txt && grep -q "colour" err.txt || fail "annex.colour: $(cat err.txt)"
    [ -e u.csv ] && fail "u.csv written"
    "$EXE" sweep --quiet --scenario net.ini --grid nowhere.length=5 --csv u.csv 2> err.txt
    [ $? -eq 2 ] || fail "nowhere.length: not exit 2"
    grep -q "no group, segment, repeater or bridge nowhere" err.txt || fail "nowhere: $(cat err.txt)"

    # cascaded-hubs: the budget's figures of Clause 29 (the standard's
    # worked example among them) and the model's late collisions with
    # the third hub only.
    sweep --preset cascaded-hubs --duration 30ms --reps 1 --csv ch.csv --plot ch.svg \
        || fail "cascaded-hubs"
    python3 "$HERE/check_plot.py" ch.svg "one Class I" "three Class II" \
        "Clause 29: path delay value at most 512 bit times" || fail "ch.svg"
    python3 - ch.csv <<'PY' || fail "cascaded-hubs outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["near.segment"], r["far.segment"]) for r in rows] == \
    [("classI", "classI"), ("hub1", "hub1"), ("hub1", "hub2"), ("hub1", "hub3")]
pdv = [float(r["pdv_bits"]) for r in rows]
want = [100 + 140 + 200 * 1.112, 100 + 92 + 200 * 1.112, 100 + 2 * 92 + 205 * 1.112,
        100 + 3 * 92 + 210 * 1.112]
assert all(abs(a - b) < 0.01 for a, b in zip(pdv, want)), (pdv, want)
assert [r["verdict"] == "within" for r in rows] == [True, True, True, False]
late = [float(r["late_collisions"]) for r in rows]
assert late[:3] == [0, 0, 0] and late[3] > 0, late
assert float(rows[2]["model_round_trip_bits"]) < 512 < float(rows[3]["model_round_trip_bits"])
print("cascaded-hubs: pdv %s, late %s" % (pdv, late))
PY

    # five-four-three: Clause 13's Model 2 values for a chain of 500 m
    # 10BASE5 segments (Table 13-3: left end 11.75, middle 46.5, right end
    # 169.5 bit times, plus 0.0866 per metre; Table 13-4: 16 for the
    # transmitting end, 11 per middle segment), Model 1's verdicts, the
    # model's round trip (cable at 0.77c, 23 bit times per repeater) past
    # the slotTime from the sixth repeater on, and frames lost silently
    # there only.
    sweep --preset five-four-three --duration 100ms --reps 1 --csv 543.csv --plot 543.svg \
        2>543.err || fail "five-four-three"
    python3 "$HERE/check_plot.py" 543.svg "Model 1 (5-4-3 rule): at most 4 repeaters" \
        "Model 2: path delay value at most 575 bit times" || fail "543.svg"
    python3 - 543.csv <<'PY' || fail "five-four-three outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["far.segment"] for r in rows] == ["s%d" % k for k in range(1, 8)]
mid = 46.5 + 500 * 0.0866
for k, r in enumerate(rows, 1):
    pdv = 11.75 + 500 * 0.0866 + (k - 1) * mid + 169.5 + 500 * 0.0866
    assert abs(float(r["pdv_bits"]) - pdv) < 0.01, (k, r["pdv_bits"], pdv)
    assert float(r["pvv_bits"]) == 16 + 11 * (k - 1), (k, r["pvv_bits"])
    one_way = (k + 1) * 500 / (0.77 * 299792458) * 1e7 + k * 23
    assert abs(float(r["model_round_trip_bits"]) - 2 * one_way) < 0.01, (k, r["model_round_trip_bits"])
# Model 1: at most 3 coax segments (k >= 3 breaks it), 4 repeaters, 5 segments
assert [r["verdict"] == "within" for r in rows] == [True, True] + [False] * 5
assert "5 repeaters" in rows[4]["verdict"] and "repeaters" not in rows[3]["verdict"]
lost = [float(r["frames_corrupted"]) for r in rows]
assert lost[:5] == [0] * 5 and lost[5] > 0 and lost[6] > 0, lost
print("five-four-three: lost %s" % lost)
PY
    ;;
bridges)
    # hub-vs-switch, shrunk (N = 2 and 8, 100 ms, one replication, the
    # default seed): the topology and the duplex as a swept series, a
    # link per station at the switch points only; the full-duplex switch
    # never collides and carries more than one link at N = 8, the hub
    # stays below 1; every row re-runs alone with `run`.
    sweep --preset hub-vs-switch --grid stations=2,8 --grid +load=0.6,2.4 --duration 100ms \
        --reps 1 --all-columns --csv hs.csv --plot hs.svg || fail "hub-vs-switch"
    # Without --all-columns: the same rows and values, but no column per
    # link, port or link's domain, so the CSV stays readable.
    sweep --preset hub-vs-switch --grid stations=2,8 --grid +load=0.6,2.4 --duration 100ms \
        --reps 1 --csv hsn.csv || fail "hub-vs-switch, narrow"
    python3 - hs.csv hsn.csv <<'PY' || fail "hub-vs-switch: the narrow CSV"
import csv, sys
wide, narrow = (list(csv.DictReader(open(f, newline=""))) for f in sys.argv[1:3])
head = list(narrow[0].keys())
assert not [c for c in head if "link" in c], [c for c in head if "link" in c][:5]
assert len(head) < 120 < len(wide[0]), (len(head), len(wide[0]))
assert "pdv_bits" in head and "throughput_ci95" in head, head
for w, n in zip(wide, narrow):
    assert all(w[c] == n[c] for c in head), "values differ"
PY
    python3 "$HERE/check_rows.py" "$EXE" hs.csv || fail "hs.csv: rows do not re-run"
    python3 "$HERE/check_plot.py" hs.svg "switch with full-duplex links" \
        "one hub (one collision domain)" "aggregate throughput (frame bits / one link's rate)" \
        "mean delay, queue to destination (µs)" || fail "hs.svg"
    python3 - hs.csv <<'PY' || fail "hub-vs-switch outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
head = list(rows[0].keys())
assert head.index("topology") + 1 == head.index("duplex"), head[:6]
pt = {(r["topology"], r["duplex"], int(r["stations"])): r for r in rows}
assert sorted(pt) == sorted((t, d, n) for t, d in (("star", "half"), ("switch", "half"),
                                                    ("switch", "full")) for n in (2, 8))
for n in (2, 8):
    assert pt[("star", "half", n)]["link1.frames_sent"] == ""  # no switch, no link
    assert float(pt[("switch", "full", n)]["collisions"]) == 0
    assert float(pt[("switch", "full", n)]["link1.domain_collisions"]) == 0
hub, half, full = (float(pt[k + (8,)]["throughput"]) for k in
                   (("star", "half"), ("switch", "half"), ("switch", "full")))
assert hub < 1 < half and 1 < full, (hub, half, full)
assert full > 2 * hub, (hub, full)
assert float(pt[("star", "half", 8)]["collisions"]) > 0
assert float(pt[("switch", "half", 8)]["collisions"]) > 0
assert float(pt[("star", "half", 8)]["mean_delay_us"]) > \
    10 * float(pt[("switch", "full", 8)]["mean_delay_us"])
# the eight links: as many ports, each its own collision domain
assert "link8.frames_sent" in head and "switch.link8.queue_delay_mean_us" in head
assert "link8.domain_throughput" in head and "link9.frames_sent" not in head
print("hub-vs-switch at N = 8: hub %.3f, half %.3f, full %.3f" % (hub, half, full))
PY
    # server-port, shrunk (K = 2, 8 and 20 clients, 300 ms): the hub
    # collides, the full-duplex switch never does; the switch's port to
    # the server (switch.link1) queues longer as K grows; the figure
    # says the hub has no such port.
    sweep --preset server-port --grid client.stations=2,8,20 --grid +client.load=0.1,0.4,1 \
        --duration 300ms --reps 1 --csv sp.csv --plot sp.svg || fail "server-port"
    python3 "$HERE/check_plot.py" sp.svg "switch.link1: mean queue delay (µs)" \
        "one hub (one collision domain): not in its network (no such segment or port)" \
        || fail "sp.svg"
    python3 - sp.csv <<'PY' || fail "server-port outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
pt = {(r["topology"], r["duplex"], int(r["client.stations"])): r for r in rows}
for k in (2, 8, 20):
    assert pt[("star", "half", k)]["switch.link1.queue_delay_mean_us"] == ""
    assert float(pt[("switch", "full", k)]["collisions"]) == 0
assert float(pt[("star", "half", 20)]["collisions"]) > 0
for d in ("half", "full"):
    q = [float(pt[("switch", d, k)]["switch.link1.queue_delay_mean_us"]) for k in (2, 8, 20)]
    assert q[0] < q[1] < q[2], (d, q)
    assert q[2] > 5 * q[0], (d, q)
# every client's frame goes to the server: the port to it forwards them all
full = pt[("switch", "full", 20)]
assert float(full["switch.link1.frames_sent"]) > 0
assert float(full["server.frames_ok"]) > 0 and float(full["client.responses"]) > 0
print("server-port: queue at the server's port %s us" %
      [pt[("switch", "full", k)]["switch.link1.queue_delay_mean_us"] for k in (2, 8, 20)])
PY
    # two-departments, shrunk (p = 0, 0.5 and 1, 200 ms): the repeater
    # keeps one channel whatever p; the bridge carries about twice as
    # much when every frame stays in its department, far less when all
    # cross, where its port's queue drops frames.
    sweep --preset two-departments --grid dest=local:0,local:0.5,local:1 --duration 200ms \
        --reps 1 --csv td.csv --plot td.svg || fail "two-departments"
    python3 "$HERE/check_plot.py" td.svg "joined by a bridge (two collision domains)" \
        || fail "td.svg"
    python3 - td.csv <<'PY' || fail "two-departments outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
pt = {(r["east.segment"], r["dest"]): float(r["throughput"]) for r in rows}
rep = [pt[("east-r", "local:%s" % p)] for p in ("0", "0.5", "1")]
bri = [pt[("east-b", "local:%s" % p)] for p in ("0", "0.5", "1")]
assert all(0.85 < s < 1 for s in rep), rep
assert bri[0] < 0.5 * rep[0] and bri[0] < bri[1] < bri[2], bri
assert 1.7 * rep[2] < bri[2] < 2, (rep, bri)  # two links at most
drop = {r["dest"]: float(r["b.east-b.frames_dropped"]) for r in rows if r["east.segment"] == "east-b"}
assert drop["local:0"] > drop["local:1"], drop
print("two-departments: repeater %s, bridge %s" % (rep, bri))
PY
    ;;
groups)
    # The weakest link, as the preset runs it (default seed): at N = 16 one
    # station that never backs off sends every frame that gets through,
    # the 15 BEB stations none; two such stations stop everyone.
    sweep --preset weakest-link --grid rogue.policy=none --jobs 2 --csv wl.csv --reps-csv wlr.csv \
        --plot wl.svg || fail "weakest-link"
    # The panels carry the lesson: the channel's throughput (one rogue
    # keeps it up, two bring it to 0), and two rogues' share of nothing
    # is no point at all, said under the key, never a share of 0.
    python3 "$HERE/check_plot.py" wl.svg "rogue: share of the bits delivered" \
        "throughput S (delivered frame bits / bit rate)" "rogue.stations" "N = 16" "N = 64" \
        "rogue: share of the bits delivered: N = 16: nothing was delivered at x = 2, 3" \
        || fail "wl.svg"
    python3 - wl.csv wlr.csv <<'PY' || fail "weakest-link outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 8, len(rows)
head = list(rows[0].keys())
# a column per grid key, named as the key; per-group measures
for c in ("rogue.policy", "rogue.stations", "beb.throughput", "beb.throughput_ci95",
          "rogue.share", "beb.frames_ok", "beb.frames_aborted", "rogue.frames_dropped",
          "beb.delay_mean_s", "beb.offered_load"):
    assert c in head, c
assert "beb.response_mean_s" not in head, "response columns without replies"
assert head.index("rogue.stations") < head.index("point") < head.index("beb.throughput")
pt = {(int(r["stations"]), int(r["rogue.stations"])): r for r in rows}
assert sorted(pt) == [(n, k) for n in (16, 64) for k in range(4)], sorted(pt)
one = pt[(16, 1)]
assert float(one["rogue.share"]) == 1.0, one["rogue.share"]
assert int(float(one["beb.frames_ok"])) == 0, one["beb.frames_ok"]
assert int(float(one["rogue.frames_ok"])) == 1149, one["rogue.frames_ok"]
assert int(float(one["beb.frames_aborted"])) > 0
for n in (16, 64):
    for k in (2, 3):
        assert float(pt[(n, k)]["throughput"]) == 0.0, (n, k, pt[(n, k)]["throughput"])
    assert float(pt[(n, 0)]["rogue.share"]) == 0.0
    assert float(pt[(n, 0)]["beb.share"]) == 1.0
    assert float(pt[(n, 1)]["rogue.share"]) == 1.0, n
    for k in (2, 3):  # nothing delivered: no share (0 / 0), not 0
        assert pt[(n, k)]["rogue.share"] == "" and pt[(n, k)]["beb.share"] == "", (n, k)
# the groups add up to the run: frames, throughput
for r in rows:
    for m in ("frames_ok", "frames_aborted", "frames_dropped"):
        assert float(r["beb." + m]) + float(r["rogue." + m]) == float(r[m]), (m, r[m])
    s = float(r["beb.throughput"]) + float(r["rogue.throughput"])
    assert abs(s - float(r["throughput"])) < 1e-9, (s, r["throughput"])
reps = list(csv.DictReader(open(sys.argv[2], newline="")))
assert [r["rogue.frames_ok"] for r in reps] == [r["rogue.frames_ok"] for r in rows]
print("weakest-link: 1 rogue among 15 sends all 1149 frames; 2 stop everyone")
PY
    # A grouped sweep's rows re-run with `run` (their NAME.group columns):
    # --load is the total in both, shared by the groups that set none.
    sweep --traffic poisson --load 0.3,0.6 --group 'a stations=2' \
        --group 'b stations=4 frame-size=64' --group 'c stations=1 load=0.05' \
        --duration 50ms --csv gl.csv --reps-csv glr.csv || fail "grouped load sweep"
    python3 "$HERE/check_rows.py" "$EXE" gl.csv || fail "gl.csv: rows do not re-run"
    python3 "$HERE/check_rows.py" "$EXE" glr.csv --reps || fail "glr.csv: rows do not re-run"
    python3 "$HERE/check_rows.py" "$EXE" wl.csv || fail "wl.csv: rows do not re-run"
    python3 - gl.csv <<'PY' || fail "grouped load sweep outcomes"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["a.group"] for r in rows] == ["a stations=2"] * 2, rows[0]["a.group"]
assert rows[0]["c.group"] == "c stations=1 load=0.05", rows[0]["c.group"]
for r in rows:
    g = float(r["load"])
    assert abs(float(r["a.offered_load"]) - g / 3) < 0.1 * g, (g, r["a.offered_load"])
PY
    # The same grouped sweep on one and two threads: byte-identical.
    for j in 1 2; do
        sweep --preset weakest-link --stations 16 --duration 20ms --reps 2 --jobs $j \
            --csv wl-$j.csv || fail "--jobs $j"
    done
    cmp wl-1.csv wl-2.csv || fail "grouped sweep: --jobs 1 and --jobs 2 differ"
    # Mixed storm: 0 to 100 % of 500 clients retry at a fixed interval;
    # the load (0.35) is shared by the groups in proportion to their
    # stations. Shrunk to two replications and three fractions.
    sweep --preset mixed-storm --reps 2 --grid fixed.stations=0,100,500 --csv ms.csv \
        --plot ms.svg || fail "mixed-storm"
    # A real key: what ran and what the points and bars are.
    python3 "$HERE/check_plot.py" ms.svg \
        "groups fixed (fixed:wait=2,jitter=2) and beb (beb); mean of 2 runs, bars: 95% CI" \
        || fail "ms.svg"
    python3 - ms.csv <<'PY' || fail "mixed-storm outcomes"
import csv, sys
rows = {int(r["fixed.stations"]): r for r in csv.DictReader(open(sys.argv[1], newline=""))}
assert sorted(rows) == [0, 100, 500]
for k, r in rows.items():
    assert int(r["stations"]) == 500
    g = float(r["fixed.offered_load"]) + float(r["beb.offered_load"])
    assert abs(g - float(r["offered_load"])) < 1e-9
    assert 0.3 < float(r["offered_load"]) < 0.4, r["offered_load"]
assert float(rows[0]["fixed.offered_load"]) == 0 and float(rows[500]["beb.offered_load"]) == 0
assert 0.05 < float(rows[100]["fixed.offered_load"]) < 0.09, rows[100]["fixed.offered_load"]
# BEB clears the storm; a fleet that all retries at a fixed interval never does
assert 0 < float(rows[0]["recovery_s"]) < 0.5, rows[0]["recovery_s"]
assert 0 < float(rows[100]["recovery_s"]) < 0.5, rows[100]["recovery_s"]
assert rows[500]["recovery_s"] == "", rows[500]["recovery_s"]
assert float(rows[500]["fixed.frames_queued"]) > 50, rows[500]["fixed.frames_queued"]
print("mixed-storm: loads shared; beb recovers, all-fixed never does")
PY
    # File server: replies to every request; +client.load moves with K.
    sweep --preset file-server --grid client.stations=1,8,32 \
        --grid +client.load=0.003,0.024,0.096 --reps 2 --csv fs.csv --reps-csv fsr.csv \
        --plot fs.svg || fail "file-server"
    python3 "$HERE/check_rows.py" "$EXE" fsr.csv --reps || fail "fsr.csv: rows do not re-run"
    python3 "$HERE/check_plot.py" fs.svg "server: share of the bits delivered" \
        "client: mean response time, request queued to reply received (s)" \
        "server: frames dropped (queue full)" "client.stations" || fail "fs.svg"
    python3 - fs.csv <<'PY' || fail "file-server outcomes"
import csv, sys
rows = {int(r["client.stations"]): r for r in csv.DictReader(open(sys.argv[1], newline=""))}
assert sorted(rows) == [1, 8, 32]
for k, r in rows.items():
    assert r["client.load"] == "%g" % (0.003 * k), r["client.load"]
    assert int(r["stations"]) == k + 1
    # every request whole gets its reply: the server sends what it answers
    assert float(r["server.frames_ok"]) > 0 and float(r["client.responses"]) > 0
    assert 0.85 < float(r["server.share"]) < 0.95, r["server.share"]
    assert float(r["server.offered_load"]) > 5 * float(r["client.offered_load"])
    assert float(r["server.response_mean_s"] or 0) == 0
resp = [float(rows[k]["client.response_mean_s"]) for k in (1, 8, 32)]
assert resp[0] < resp[1] < resp[2], resp
# a reply takes at least the request's and the reply's transmission
assert resp[0] > (64 + 1518) * 8 / 10e6, resp
print("file-server: server share %.3f, response %s s" % (float(rows[8]["server.share"]), resp))
PY
    # Bad grid keys, groups and lists: exit 2, one line, no file.
    n=0
    while IFS='|' read -r args want; do
        [ -z "$args" ] && continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$EXE" sweep --quiet --preset weakest-link --duration 1ms $args --csv u.csv \
            > out.txt 2> err.txt
        rc=$?
        [ $rc -eq 2 ] || fail "sweep $args: exit $rc, expected 2"
        [ "$(wc -l < err.txt)" -eq 1 ] || fail "sweep $args: not one line: $(cat err.txt)"
        grep -qF -- "$want" err.txt || fail "sweep $args: '$(cat err.txt)' lacks '$want'"
        [ ! -e u.csv ] || fail "sweep $args: wrote u.csv"
    done <<'CASES'
--grid colour=1,2|--grid: colour: unknown key
--grid nosuch.policy=beb|--grid: nosuch.policy: there is no group nosuch
--grid rogue.colour=1|--grid: rogue.colour: unknown key 'colour'
--grid rogue.duration=1ms|--grid: rogue.duration: duration is a key of the whole medium
--grid rogue.stations=0,x|--grid: rogue.stations: 'x' is not a whole number
--grid rogue.stations=1..3 --grid +rogue.load=0.1,0.2|--grid: +rogue.load: 2 values, but rogue.stations, which it moves with, has 3
--grid +rogue.load=0.1|+rogue.load moves with the axis given before it
--grid rogue.policy=none,nosuch|unknown policy 'nosuch'
--grid seed=1,2|--grid: seed: cannot be swept
--grid rogue.stations|--grid: 'rogue.stations' is not KEY=LIST
--stations 2|--stations: 2 in all, but the groups other than beb have 3
--plot-y rogue.nosuch|--plot-y: 'rogue.nosuch' is not a group's measure
--plot-x rogue.load|--plot-x: 'rogue.load' cannot be the x axis
CASES
    echo "groups: $n bad grid keys refused with exit 2 and one line"
    ;;
*)
    fail "unknown case $CASE"
    ;;
esac
exit 0
