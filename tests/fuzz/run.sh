#!/usr/bin/env bash
# run.sh - runs every libFuzzer harness of tests/fuzz for a while, one
# after the other, with a corpus that grows from run to run outside the
# repository, and prints per harness: executions, coverage, crashes.
#
#   tests/fuzz/run.sh DURATION [HARNESS...]
#
# DURATION is each harness's time: 90 (seconds), 30s, 10m, 2h. HARNESS
# names some of the table below (default: all). Environment:
#   CSMACD_FUZZ_DIR    corpora, crashes and logs
#                      (${XDG_CACHE_HOME:-~/.cache}/csmacd-fuzz)
#   CSMACD_FUZZ_BUILD  the build folder (build-fuzz at the top of the
#                      repository): configured with clang and built here
#   CSMACD_FUZZ_RUNS   also stop a harness after this many executions
#   CSMACD_FUZZ_NICE   the niceness the fuzzers run at (10)
# Per harness, under CSMACD_FUZZ_DIR/NAME: corpus/ (grows; the committed
# seeds of tests/fuzz are read too, never written), crashes/ (one
# reproducer per crash, leak, timeout or out-of-memory) and log (the last
# session's libFuzzer output). A crash ends the fuzzer; it is restarted for
# the rest of the time (at most 5 times per harness). The exit status is 1
# when any harness crashed, 2 on a usage error, else 0. See README.md.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# The harnesses: name, seeds (a folder of tests/fuzz), -max_len, and
# libFuzzer options of their own (- for none). A new harness is one line
# here and one csmacd_fuzz() in tests/CMakeLists.txt.
# fuzz_network: libFuzzer's entropic schedule keeps every feature seen
# fewer than 255 times in a list it searches for each feature of each run;
# the network harness has some 70000 features, and the search took three
# quarters of its time. With a threshold of 8 the list stays short.
harness_table="
replay   corpus          65536 -
scenario corpus-scenario 4096  -
cli      corpus-cli      1024  -
parse    corpus-parse    256   -
group    corpus-group    2048  -
pcapng   corpus-pcapng   512   -
extcap   corpus-extcap   1024  -
network  corpus-network  4096  -entropic_feature_frequency_threshold=8
"

usage() {
    echo "usage: tests/fuzz/run.sh DURATION [HARNESS...]   (DURATION: 90, 30s, 10m, 2h)" >&2
    echo "harnesses:" $(echo "$harness_table" | awk 'NF { print $1 }') >&2
    exit 2
}

[ $# -ge 1 ] || usage
case $1 in
    -h | --help) usage ;;
esac
if [[ $1 =~ ^([0-9]+)([smh]?)$ ]]; then
    n=${BASH_REMATCH[1]}
    case ${BASH_REMATCH[2]} in
        m) seconds=$((n * 60)) ;;
        h) seconds=$((n * 3600)) ;;
        *) seconds=$n ;;
    esac
else
    echo "run.sh: '$1' is not a duration (90, 30s, 10m, 2h)" >&2
    usage
fi
[ "$seconds" -gt 0 ] || { echo "run.sh: the duration must be above 0" >&2; usage; }
shift
max_runs=${CSMACD_FUZZ_RUNS:-0}
[[ $max_runs =~ ^[0-9]+$ ]] || { echo "run.sh: CSMACD_FUZZ_RUNS: not a number" >&2; exit 2; }
niceness=${CSMACD_FUZZ_NICE:-10}

selected=()
if [ $# -eq 0 ]; then
    selected=($(echo "$harness_table" | awk 'NF { print $1 }'))
else
    for h in "$@"; do
        echo "$harness_table" | awk -v h="$h" '$1 == h { found = 1 } END { exit !found }' || {
            echo "run.sh: unknown harness '$h'" >&2
            usage
        }
        selected+=("$h")
    done
fi

root=${CSMACD_FUZZ_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/csmacd-fuzz}
build=${CSMACD_FUZZ_BUILD:-$top/build-fuzz}
mkdir -p "$root" || exit 1

# The harnesses are built with clang whatever compiler the other builds
# use (tests/CMakeLists.txt, csmacd_fuzz); -O1 and the sanitizers are the
# harnesses' own flags.
if [ ! -f "$build/CMakeCache.txt" ]; then
    clang=$(command -v clang || command -v clang-16 || command -v clang-15 || command -v clang-14) || {
        echo "run.sh: needs clang (with libFuzzer)" >&2
        exit 1
    }
    CC=$clang cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCSMACD_TESTS=ON >"$root/configure.log" 2>&1 || {
        echo "run.sh: configuring $build failed (see $root/configure.log)" >&2
        exit 1
    }
fi
targets=()
for h in "${selected[@]}"; do targets+=(--target "fuzz_${h}_harness"); done
cmake --build "$build" -j2 "${targets[@]}" >"$root/build.log" 2>&1 || {
    echo "run.sh: building the harnesses failed (see $root/build.log)" >&2
    exit 1
}

# Reproducers in a folder: crashes, leaks, timeouts, out of memory (not
# libFuzzer's slow-unit-* files: an input slower than 10 s, kept to look at).
count() { ls "$1" | grep -cE '^(crash|leak|timeout|oom)-'; }

# The last "cov: N ft: M" libFuzzer printed in a log (grep -a: a log may
# hold an input's bytes, and grep would only say "binary file matches").
coverage() { grep -ao 'cov: [0-9]* ft: [0-9]*' "$1" | tail -n 1; }

status=0
summary=()
for h in "${selected[@]}"; do
    read -r _ seeds max_len options < <(echo "$harness_table" | awk -v h="$h" '$1 == h')
    [ "$options" = - ] && options=
    bin=$build/tests/fuzz_$h
    dir=$root/$h
    mkdir -p "$dir/corpus" "$dir/crashes"
    : >"$dir/log"
    before=$(count "$dir/crashes")
    start=$(date +%s)
    execs=0
    restarts=0
    echo "== fuzz_$h: up to ${seconds}s$([ "$max_runs" -gt 0 ] && echo ", $max_runs executions")"
    while :; do
        left=$((seconds - ($(date +%s) - start)))
        [ "$left" -gt 0 ] || break
        runs=-1
        if [ "$max_runs" -gt 0 ]; then
            runs=$((max_runs - execs))
            [ "$runs" -gt 0 ] || break
        fi
        session=$dir/session.log
        nice -n "$niceness" "$bin" -max_total_time="$left" -runs="$runs" -max_len="$max_len" \
            -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
            -artifact_prefix="$dir/crashes/" $options "$dir/corpus" "$here/$seeds" >"$session" 2>&1
        rc=$?
        cat "$session" >>"$dir/log"
        n=$(grep -ao 'stat::number_of_executed_units: [0-9]*' "$session" | tail -n 1 | awk '{ print $2 }')
        execs=$((execs + ${n:-0}))
        wrote=$(grep -ac 'Test unit written to' "$session")
        rm -f "$session"
        [ "$rc" -eq 0 ] && break
        # Stopped on a crash (its reproducer is in crashes/) or killed.
        if [ "$wrote" -eq 0 ]; then
            echo "run.sh: fuzz_$h stopped with status $rc and no reproducer (see $dir/log)" >&2
            status=1
            break
        fi
        restarts=$((restarts + 1))
        [ "$restarts" -lt 5 ] || break
    done
    after=$(count "$dir/crashes")
    crashes=$((after - before))
    cov=$(coverage "$dir/log")
    line=$(printf '%-9s %12s executions  %-22s %d crash(es)  corpus %d inputs' \
        "$h" "$execs" "${cov:-cov: ?}" "$crashes" "$(ls "$dir/corpus" | wc -l)")
    summary+=("$line")
    echo "$line"
    if [ "$crashes" -gt 0 ]; then
        status=1
        ls -t "$dir/crashes" | grep -E '^(crash|leak|timeout|oom)-' | head -n "$crashes" | while read -r f; do
            echo "   reproducer: $dir/crashes/$f"
            echo "   replay it:  $bin $dir/crashes/$f"
        done
    fi
done
echo "== summary (corpora and reproducers under $root)"
printf '%s\n' "${summary[@]}"
exit $status
