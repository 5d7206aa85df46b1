#!/usr/bin/env bash
# soak.sh - the soak benchmark: does memory stay flat over a
# long run of a busy segment?
#
# Runs `csmacd run` on 10base5 with 32 stations offered Poisson traffic at
# G = 1.2 (overloaded: every queue fills to its 64 frames and then drops,
# so whatever grows with time would show), 64-1518-byte frames, for one
# simulated hour (or DURATION: 24h for a day), and samples the process's
# resident set (VmRSS) and peak (VmHWM) from /proc every 0.2 s. It prints
# the peak after the first wall second ("start"), the peak at the end, the
# events and the simulated seconds per wall second, and exits 1 when the
# peak at the end exceeds the start's by more than 10 % + 4 MiB (memory
# that grows with simulated time), 0 otherwise. Not a CTest test (minutes
# of wall time); build in Release:
#   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DCSMACD_TESTS=ON && cmake --build build-bench -j2 --target bench-soak
# or run it on any build: tests/bench/soak.sh build/src/csmacd [24h]
set -u
EXE=$1
DURATION=${2:-1h}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$EXE" run --stations 32 --traffic poisson --load 1.2 --frame-size 64-1518 \
    --duration "$DURATION" --format json >"$out" &
pid=$!
kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status" 2>/dev/null; }
t0=$(date +%s.%N)
start_hwm="" start_rss="" end_hwm="" end_rss=""
while kill -0 $pid 2>/dev/null; do
    hwm=$(kb VmHWM) rss=$(kb VmRSS)
    if [[ -n $hwm ]]; then
        end_hwm=$hwm end_rss=$rss
        if [[ -z $start_hwm ]] &&
            awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a >= 1) }'; then
            start_hwm=$hwm start_rss=$rss
        fi
    fi
    sleep 0.2
done
wait $pid
rc=$?
[[ $rc == 0 ]] || { echo "soak: csmacd exited $rc"; exit 1; }
[[ -n $start_hwm ]] || { echo "soak: the run ended within a second: use a longer DURATION"; exit 1; }
read -r events sim wall < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["events"], r["sim_time_s"], r["wall_s"])' "$out")
echo "soak: 10base5, 32 stations, poisson G=1.2, 64-1518 B frames, $DURATION simulated"
printf '  events            %s\n' "$events"
printf '  simulated/wall    %.0f x real time (%.1f s of wall time)\n' \
    "$(awk -v s="$sim" -v w="$wall" 'BEGIN { print s / w }')" "$wall"
printf '  peak RSS, start   %d KiB (RSS %d KiB, after 1 s of wall time)\n' "$start_hwm" "$start_rss"
printf '  peak RSS, end     %d KiB (RSS %d KiB, last sample)\n' "$end_hwm" "$end_rss"
limit=$((start_hwm + start_hwm / 10 + 4096))
if ((end_hwm > limit)); then
    echo "soak: FAIL: the peak grew from $start_hwm to $end_hwm KiB (limit $limit)"
    exit 1
fi
echo "soak: memory flat (end peak within 10 % + 4 MiB of the start's)"
