#!/usr/bin/env bash
# bench_sweep.sh - the standard sweep, timed: 10base5, saturated
# stations, N = 1, 2, 4, ..., 1024, frames of 64, 512 and 1518 bytes (33
# points), each point replicated until the 95 % half-width of its
# throughput is within 1 % of the mean (--precision 0.01; at least 3 and
# at most 100 replications of 1 s simulated after a 100 ms warm-up), on
# every core. Prints the wall time against the 60 s target, and how the
# work split up. Not a CTest test: the figure depends on the machine.
#
# usage: bench_sweep.sh CSMACD WORK_DIR [extra sweep options]
set -eu
EXE=$1
WORK=$2
shift 2
mkdir -p "$WORK"
CSV=$WORK/standard-sweep.csv
t0=$(date +%s.%N)
"$EXE" sweep --phy 10base5 --traffic saturated --stations 1..1024:log \
    --frame-size 64,512,1518 --precision 0.01 --duration 1s --warmup 100ms \
    --csv "$CSV" "$@"
t1=$(date +%s.%N)
python3 - "$CSV" "$t0" "$t1" "$(nproc)" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
wall = float(sys.argv[3]) - float(sys.argv[2])
reps = sum(int(r["reps"]) for r in rows)
met = sum(r["precision_met"] == "1" for r in rows)
events = sum(float(r["events"]) * int(r["reps"]) for r in rows)
worst = max(rows, key=lambda r: float(r["throughput_rel_ci95"] or 0))
print("standard sweep: %d points, %d replications (%d simulated s), %d of %d points "
      "within 1 %%" % (len(rows), reps, reps, met, len(rows)))
print("  widest interval: N=%s, %s B: S = %.4f +/- %.4f (%.2f %%)" % (
    worst["stations"], worst["frame_size_bytes"], float(worst["throughput"]),
    float(worst["throughput_ci95"]), 100 * float(worst["throughput_rel_ci95"])))
print("  %.3g events, %.1f M events/s over %s cores" % (events, events / wall / 1e6, sys.argv[4]))
print("  wall time %.1f s (target < 60 s): %s" % (wall, "met" if wall < 60 else "MISSED"))
PY
echo "rows: $CSV"
