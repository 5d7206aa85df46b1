#!/bin/bash
# instructions.sh - instructions per event of the benchmark's shapes, by
# valgrind's callgrind: repeatable on a busy machine, where wall clocks are
# not (README.md here, "Instructions per event").
#
#   tests/bench/instructions.sh BUILD/src/csmacd
#
# Each shape runs twice, a short and a long simulated time, and the figure
# is (instructions of the long run - of the short) / (events of the long -
# of the short): start-up and the output cancel. Prints one line per shape.
set -euo pipefail

bin=${1:?usage: instructions.sh path/to/csmacd}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: prints "instructions events".
measure() {
    local out=$tmp/cg.out json=$tmp/run.json
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" run "$@" --seed 1 \
        --format json >"$json" 2>/dev/null
    local ir events
    ir=$(sed -n 's/^summary: *//p' "$out")
    events=$(sed -n 's/^ *"events": *\([0-9]*\),*$/\1/p' "$json")
    echo "$ir $events"
}

# shape NAME SHORT_S LONG_S ARGS...: one line of the table.
shape() {
    local name=$1 short=$2 long=$3
    shift 3
    read -r i1 e1 < <(measure "$@" --duration "$short")
    read -r i2 e2 < <(measure "$@" --duration "$long")
    awk -v n="$name" -v i1="$i1" -v e1="$e1" -v i2="$i2" -v e2="$e2" \
        'BEGIN { printf "%-30s %10d events %8.0f instructions per event\n", n, e2 - e1, (i2 - i1) / (e2 - e1) }'
}

shape "(a) 10base5 N=64 64 B" 0.1 0.3 --phy 10base5 --stations 64 --traffic saturated --frame-size 64
shape "(b) 10base5 N=1024 1518 B" 0.1 0.3 --phy 10base5 --stations 1024 --traffic saturated \
    --frame-size 1518
shape "(c) 100basetx N=256 G=0.8" 0.1 0.3 --phy 100basetx --stations 256 --traffic poisson \
    --load 0.8 --frame-size 512
collapse="--phy 10base5 --traffic saturated --frame-size 512 --policy fixed"
# shellcheck disable=SC2086
shape "collapse N=16" 0.010 0.030 $collapse --stations 16
# shellcheck disable=SC2086
shape "collapse N=64" 0.003 0.009 $collapse --stations 64
# shellcheck disable=SC2086
shape "collapse N=256" 0.001 0.003 $collapse --stations 256
# shellcheck disable=SC2086
shape "collapse N=1024" 0.001 0.002 $collapse --stations 1024
# (f): 5 coax segments of 100 saturated stations and 4 repeaters
shape "(f) 5 coax x 100, 4 repeaters" 0.05 0.25 --scenario "$(dirname "$0")/net_f.ini"
# (g0) and (g): one bus against a 64-port full-duplex switch, 1518 B
shape "(g0) 10base5 N=64 1518 B" 0.5 1.5 --phy 10base5 --stations 64 --traffic saturated \
    --frame-size 1518
shape "(g) FD switch N=64 1518 B" 0.1 0.3 --phy 10baset --topology switch --duplex full \
    --stations 64 --traffic saturated --frame-size 1518
# (h0) and (h): a bus of 5000 against a hub of 5000 (drops of one length),
# after the first 30 ms (the start's pile-up of 5000 first frames)
shape "(h0) 10base5 N=5000 512 B" 0.03 0.08 --phy 10base5 --stations 5000 --traffic saturated \
    --frame-size 512
shape "(h) 10baset hub N=5000 512 B" 0.03 0.08 --phy 10baset --stations 5000 --traffic saturated \
    --frame-size 512
