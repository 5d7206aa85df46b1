#!/usr/bin/env bash
# retry_storm.sh - the retry storm and recovery experiment: 500 Poisson
# stations offering half the channel (G = 0.5, 512-byte frames) on 10BASE5,
# retrying until they get through (--attempt-limit 1000), the medium down
# from 100 ms for 100 ms (--outage), for 500 ms; `fixed:wait=2,jitter=2`,
# `beb` and `gaussian` with the same seed, so the arrivals are the same. Each run writes its time series in 5 ms intervals
# (run --series); the figure shows throughput, backlog and frames given up
# over time.
#
# usage: retry_storm.sh PATH/TO/csmacd OUTDIR [FIGURE.svg]
# Writes OUTDIR/retry-storm-POLICY.csv and .json and, when gnuplot is
# installed, the figure (default OUTDIR/retry-storm.svg). Checks what it
# can without gnuplot: every series sums to its run's totals, and the
# outage shows (no frame sent OK inside it). Regenerate the README's
# figure with: retry_storm.sh build/src/csmacd /tmp/rs tests/sweep/figures/retry-storm.svg
set -eu
CSMACD=$1
OUT=$2
FIG=${3:-$OUT/retry-storm.svg}
mkdir -p "$OUT"
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

for spec in fixed:wait=2,jitter=2 beb gaussian; do
    p=${spec%%:*}
    "$CSMACD" run --stations 500 --traffic poisson --load 0.5 --frame-size 512 \
        --attempt-limit 1000 --duration 500ms --outage 100ms+100ms --policy "$spec" --seed 1 \
        --series "$OUT/retry-storm-$p.csv" --series-interval 5ms --format json \
        >"$OUT/retry-storm-$p.json"
    # Column sums against the run's totals; nothing sent OK inside the outage.
    read -r ok ab last inside rows < <(awk -F, 'NR > 1 { ok += $4; ab += $9; last = $11; rows++
        if ($1 >= 0.1 && $2 <= 0.2) inside += $4 } END { print ok, ab, last, inside + 0, rows }' \
        "$OUT/retry-storm-$p.csv")
    want_ok=$(grep -Eo '"frames_ok": [0-9]+' "$OUT/retry-storm-$p.json" | grep -Eo '[0-9]+$')
    want_ab=$(grep -Eo '"frames_aborted": [0-9]+' "$OUT/retry-storm-$p.json" | grep -Eo '[0-9]+$')
    want_q=$(grep -Eo '"frames_queued": [0-9]+' "$OUT/retry-storm-$p.json" | grep -Eo '[0-9]+$')
    [ "$ok" = "$want_ok" ] || fail "$p: frames_ok $ok in the series, $want_ok in the run"
    [ "$ab" = "$want_ab" ] || fail "$p: aborted $ab in the series, $want_ab in the run"
    [ "$last" = "$want_q" ] || fail "$p: last backlog $last, frames_queued $want_q"
    [ "$inside" = 0 ] || fail "$p: $inside frames sent OK during the outage"
    [ "$rows" = 100 ] || fail "$p: $rows rows, want 100"
    echo "$p: $ok frames sent OK, $ab given up, $want_q queued at the end"
done

# The experiment's point: retrying forever, fixed retry never gets the
# backlog down again; binary exponential backoff does.
grep -q '"recovery_s": null' "$OUT/retry-storm-fixed.json" ||
    fail "fixed: recovered ($(grep -Eo '"recovery_s": [^,]*' "$OUT/retry-storm-fixed.json"))"
grep -Eq '"recovery_s": [0-9]' "$OUT/retry-storm-beb.json" || fail "beb: did not recover"

if command -v gnuplot >/dev/null 2>&1; then
    gnuplot <<EOF
set terminal svg size 960,900 dynamic noenhanced font 'Sans,12' background rgb 'white'
set output '$FIG'
set datafile separator ','
set grid
set key outside right top box opaque Left reverse
set lmargin at screen 0.09
set rmargin at screen 0.72
set xrange [0:500]
set style rect fc rgb '#dddddd' fs solid 0.5 noborder
set obj 1 rect from 100, graph 0 to 200, graph 1 back
set multiplot layout 3,1 title '10BASE5, 500 Poisson stations at G = 0.5 retrying, medium down 100-200 ms: retry storm and recovery'
set ylabel 'throughput S (5 ms)'
set yrange [0:1]
plot '$OUT/retry-storm-fixed.csv' every ::1 using (\$1*1000):3 with steps lw 2 title 'fixed:wait=2,jitter=2', \
     '$OUT/retry-storm-beb.csv' every ::1 using (\$1*1000):3 with steps lw 2 title 'beb', \
     '$OUT/retry-storm-gaussian.csv' every ::1 using (\$1*1000):3 with steps lw 2 title 'gaussian'
set ylabel 'backlog (frames queued)'
set yrange [0:*]
plot '$OUT/retry-storm-fixed.csv' every ::1 using (\$2*1000):11 with lines lw 2 title 'fixed:wait=2,jitter=2', \
     '$OUT/retry-storm-beb.csv' every ::1 using (\$2*1000):11 with lines lw 2 title 'beb', \
     '$OUT/retry-storm-gaussian.csv' every ::1 using (\$2*1000):11 with lines lw 2 title 'gaussian'
set ylabel 'frames given up (total)'
set xlabel 'simulated time (ms)'
plot '$OUT/retry-storm-fixed.csv' every ::1 using (\$2*1000):9 smooth cumulative lw 2 title 'fixed:wait=2,jitter=2', \
     '$OUT/retry-storm-beb.csv' every ::1 using (\$2*1000):9 smooth cumulative lw 2 title 'beb', \
     '$OUT/retry-storm-gaussian.csv' every ::1 using (\$2*1000):9 smooth cumulative lw 2 title 'gaussian'
unset multiplot
EOF
    [ -s "$FIG" ] || fail "no figure written to $FIG"
else
    echo "gnuplot not installed: no figure"
fi

if [ "$FAILS" -ne 0 ]; then
    echo "$FAILS check(s) failed"
    exit 1
fi
echo "all checks passed"
