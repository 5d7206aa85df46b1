#!/usr/bin/env bash
# run.sh - the golden outputs: every scenario of scenarios.txt, rerun and
# compared byte for byte with what is stored in out/.
#
# usage: run.sh BINARY                 rerun and compare (the CTest test)
#        run.sh --regenerate BINARY    rerun and store the outputs in out/
#
# Each scenario writes four files: NAME.json (the --format json output
# without its wall_s line, the one field that is not a function of the
# scenario), NAME.stations.csv, NAME.events.csv and NAME.pcap; a sweep
# (ARGS starting with "sweep") writes NAME.sweep.csv and NAME.reps.csv. A file of
# at most MAX_STORED bytes is stored as it is; a larger one as its SHA-256
# (NAME.EXT.sha256), which keeps out/ small. The JSON's "events" count (events
# the engine handled, stale ones included) is compared apart: fewer events
# than stored is reported but passes (the same run with fewer stale events
# in the queue), more fails. Scenarios run from the source tree's root, so
# their pcap:captures/... paths resolve. Exit 0 when everything matches,
# 1 on any difference (each one named), 2 on bad usage.
set -u
set -f # scenario arguments are split on blanks, never globbed
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
MAX_STORED=40960

regenerate=0
if [ "${1:-}" = "--regenerate" ]; then
    regenerate=1
    shift
fi
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: run.sh [--regenerate] BINARY" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/csmacd-golden.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Runs scenario $1 with arguments $2 into directory $3, and sets exts to
# the files it wrote. ARGS starting with "sweep " are a sweep, one job:
# NAME.sweep.csv and NAME.reps.csv.
run_one() {
    local name=$1 args=$2 dir=$3
    if [ "${args%% *}" = sweep ]; then
        exts="sweep.csv reps.csv"
        # shellcheck disable=SC2086 # the arguments are meant to be split
        (cd "$SRC" && "$BIN" $args --quiet --jobs 1 --csv "$dir/$name.sweep.csv" \
            --reps-csv "$dir/$name.reps.csv")
        return
    fi
    exts="json stations.csv events.csv pcap"
    # shellcheck disable=SC2086 # the arguments are meant to be split
    (cd "$SRC" && "$BIN" run $args --format json --stations-csv "$dir/$name.stations.csv" \
        --events "$dir/$name.events.csv" --pcap "$dir/$name.pcap") >"$dir/$name.json.raw" ||
        return 1
    grep -v '^  "wall_s": ' "$dir/$name.json.raw" >"$dir/$name.json"
    rm -f "$dir/$name.json.raw"
}

events_of() { grep -Eo '^  "events": [0-9]+' "$1" | grep -Eo '[0-9]+$'; }

fails=0
count=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

if [ $regenerate = 1 ]; then
    rm -rf "$HERE/out.new"
    mkdir -p "$HERE/out.new"
fi
while read -r name args; do
    case $name in '' | '#'*) continue ;; esac
    count=$((count + 1))
    if ! run_one "$name" "$args" "$WORK"; then
        fail "$name: csmacd failed"
        continue
    fi
    for ext in $exts; do
        new=$WORK/$name.$ext
        if [ $regenerate = 1 ]; then
            if [ "$(stat -c %s "$new")" -le $MAX_STORED ]; then
                cp "$new" "$HERE/out.new/$name.$ext"
            else
                (cd "$WORK" && sha256sum "$name.$ext") >"$HERE/out.new/$name.$ext.sha256"
            fi
            continue
        fi
        old=$HERE/out/$name.$ext
        if [ -f "$old" ]; then
            if [ $ext = json ]; then
                ev_old=$(events_of "$old")
                ev_new=$(events_of "$new")
                if ! cmp -s <(grep -v '^  "events": ' "$old") <(grep -v '^  "events": ' "$new"); then
                    fail "$name: $name.json differs:"
                    diff <(grep -v '^  "events": ' "$old") <(grep -v '^  "events": ' "$new") | head -20
                elif [ "$ev_new" -gt "$ev_old" ]; then
                    fail "$name: $name.json: events $ev_new, stored $ev_old (more events)"
                elif [ "$ev_new" -lt "$ev_old" ]; then
                    echo "note: $name: events $ev_new, stored $ev_old (fewer stale events)"
                fi
            elif ! cmp -s "$old" "$new"; then
                fail "$name: $name.$ext differs: $(cmp "$old" "$new" 2>&1 | head -1)"
            fi
        elif [ -f "$old.sha256" ]; then
            if ! (cd "$WORK" && sha256sum --quiet -c "$old.sha256" >/dev/null 2>&1); then
                fail "$name: $name.$ext differs (its SHA-256 is not the stored one)"
            fi
        else
            fail "$name: nothing stored for $name.$ext (run.sh --regenerate)"
        fi
    done
done <"$HERE/scenarios.txt"

if [ $regenerate = 1 ]; then
    if [ $fails -gt 0 ]; then
        rm -rf "$HERE/out.new"
        echo "$fails failure(s); out/ left as it was"
        exit 1
    fi
    rm -rf "$HERE/out"
    mv "$HERE/out.new" "$HERE/out"
    echo "stored the outputs of $count scenarios in $HERE/out ($(du -sh "$HERE/out" | cut -f1))"
    exit 0
fi
if [ $fails -gt 0 ]; then
    echo "$fails difference(s) in $count scenarios"
    exit 1
fi
echo "all $count scenarios match"
