#!/usr/bin/env bash
# run_cases.sh - the table-driven CLI tests (tcpdump TESTLIST style).
#
# Pins, for every case of cases.txt: the exit status; that standard error
# matches the case's pattern (an extended regex; "-" means standard error
# must be empty); that every line on standard error starts "csmacd: "; that
# a usage or input error (status 2) is exactly ONE line; and that a failed
# run (status 1 or 2) wrote nothing: the case's scratch directory holds
# exactly the files it held before, unchanged (the fixtures: an empty
# fixture.txt, lab.ini from data/ and lan.pcap, a copy of
# captures/lan-small.pcap), with no temporary left over.
#
# Usage: run_cases.sh CSMACD CASES
# A case is one line of shell words: NAME STATUS PATTERN ARGS...
# In ARGS and PATTERN, @TMP@ is the case's scratch directory (also its
# working directory) and @DATA@ is tests/cli/data.
set -euo pipefail

bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$2
data=$(cd "$(dirname "$cases")/data" && pwd)
capture=$(cd "$(dirname "$cases")/../../captures" && pwd)/lan-small.pcap
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass=0
fail=0
n=0
while IFS= read -r line || [[ -n $line ]]; do
    [[ -z ${line//[[:space:]]/} || $line =~ ^[[:space:]]*# ]] && continue
    n=$((n + 1))
    tmp="$work/case$n"
    mkdir -p "$tmp"
    : > "$tmp/fixture.txt"
    cp "$data/lab.ini" "$tmp/lab.ini"
    cp "$capture" "$tmp/lan.pcap"
    line=${line//@TMP@/$tmp}
    line=${line//@DATA@/$data}
    eval "set -- $line"
    name=$1 want=$2 pattern=$3
    shift 3
    before=$(cd "$tmp" && ls -A | sort && md5sum -- * 2>/dev/null)
    set +e
    (cd "$tmp" && "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null)
    got=$?
    set -e
    after=$(cd "$tmp" && ls -A | sort && md5sum -- * 2>/dev/null)
    problems=()
    [[ $got == "$want" ]] || problems+=("exit status $got, expected $want")
    if [[ $pattern == - ]]; then
        [[ ! -s $work/err ]] || problems+=("standard error is not empty")
    elif ! grep -Eq -- "$pattern" "$work/err"; then
        problems+=("standard error does not match /$pattern/")
    fi
    if grep -qv '^csmacd: ' "$work/err"; then
        problems+=("a line on standard error does not start with 'csmacd: '")
    fi
    if [[ $want == 2 && $(wc -l <"$work/err") != 1 ]]; then
        problems+=("a usage error must be one line, got $(wc -l <"$work/err")")
    fi
    if [[ $want != 0 && $before != "$after" ]]; then
        problems+=("files were created or changed: $(diff <(echo "$before") <(echo "$after") | grep '^>' | tr '\n' ' ')")
    fi
    if ((${#problems[@]} == 0)); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: csmacd $*"
        for p in "${problems[@]}"; do echo "     $p"; done
        sed 's/^/     stderr: /' "$work/err" | head -5
    fi
done <"$cases"

echo "cli cases: $pass passed, $fail failed, of $n"
((fail == 0 && n > 0))
