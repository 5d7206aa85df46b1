#!/usr/bin/env bash
# faults.sh - faults while csmacd runs (issue 7): the outputs stay whole.
#
# Pins:
#   sigpipe   standard output closed by its reader (`run | true`, and
#             `run | head -c 10` for every format): SIGPIPE is ignored, the
#             run exits at once with 141 and nothing on standard error (the
#             conventional silent exit, exit_status.h), and its --events,
#             --pcap and --stations-csv files are complete and valid, with no
#             temporary left;
#   fsize     a file-size limit (`ulimit -f`, SIGXFSZ ignored so the write
#             fails with EFBIG) on --events, --pcap and sweep --csv: exit 1,
#             one message naming the path, no file and no temporary left (an
#             older file of that name is kept as it was);
#   signals   SIGINT or SIGTERM after a random delay, 20 times each for run
#             and sweep: the status is 0 (finished first), 130/143 with
#             "interrupted" (outputs complete and valid), or death by the
#             signal before the handlers were installed (then no output at
#             all); never a temporary, a ragged CSV row, a JSON object that
#             does not parse or a pcap cut inside a record.
# Validity is checked by tests/cli/check_outputs.py (CSV: header and whole
# rows of as many fields, newline-terminated; JSON: parses; pcap: the global
# header and every record to the exact end of the file).
# Not pinned here: the TUI under signals (tests/tui/tui_tmux.sh), a full
# disk (run_cases.sh uses /dev/full).
#
# usage: faults.sh CSMACD WORK_DIR [CASE...]   (all cases by default)
set -u
EXE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WORK=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="python3 $HERE/check_outputs.py"
cases=("$@")
((${#cases[@]})) || cases=(sigpipe fsize signals)
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
failures=0
early=0 finished=0 interrupted=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
no_temps() { # DIR WHAT
    local t
    t=$(find "$1" -name '*.tmp' | head -3)
    [[ -z $t ]] || fail "$2: temporaries left: $t"
}

case_sigpipe() {
    local d=sigpipe rc err
    rm -rf $d && mkdir $d && cd $d || return
    # true exits at once: the first write to standard output meets a closed pipe.
    "$EXE" run --duration 300ms --events ev.csv --pcap p.pcap --stations-csv st.csv \
        --format json 2>err | true
    rc=${PIPESTATUS[0]}
    [[ $rc == 141 ]] || fail "sigpipe: run | true: exit $rc, expected 141"
    [[ ! -s err ]] || fail "sigpipe: run | true: standard error: $(head -2 err)"
    $CHECK csv ev.csv csv st.csv pcap p.pcap || fail "sigpipe: outputs not valid"
    no_temps . "sigpipe"
    for fmt in text json csv; do
        local t0=$SECONDS
        "$EXE" run --duration 2s --stations 64 --format $fmt --stations-csv st-$fmt.csv \
            2>err-$fmt | head -c 10 >/dev/null
        rc=${PIPESTATUS[0]}
        # The measures fit a pipe's buffer, so the run may also end with 0.
        [[ $rc == 141 || $rc == 0 ]] || fail "sigpipe: --format $fmt | head: exit $rc"
        [[ ! -s err-$fmt ]] || fail "sigpipe: --format $fmt | head: $(head -2 err-$fmt)"
        ((SECONDS - t0 < 60)) || fail "sigpipe: --format $fmt | head took $((SECONDS - t0)) s"
        $CHECK csv st-$fmt.csv || fail "sigpipe: --format $fmt: st-$fmt.csv not valid"
    done
    no_temps . "sigpipe | head"
    cd ..
}

case_fsize() {
    local d=fsize rc opt file
    rm -rf $d && mkdir $d && cd $d || return
    for opt in events pcap; do
        file=out-$opt
        # 64 blocks of bash's ulimit (64 KiB), far below what 1 s of traffic writes.
        (ulimit -f 64 && exec "$EXE" run --duration 1s --$opt $file >/dev/null 2>err-$opt)
        rc=$?
        [[ $rc == 1 ]] || fail "fsize: --$opt: exit $rc, expected 1 ($(head -2 err-$opt))"
        [[ $(wc -l <err-$opt) == 1 ]] && grep -q "^csmacd: $file: File too large$" err-$opt ||
            fail "fsize: --$opt: message: $(head -3 err-$opt)"
        [[ ! -e $file ]] || fail "fsize: --$opt: $file left behind"
    done
    # An older file of the same name is kept as it was.
    printf 'old\n' >kept.csv
    (ulimit -f 64 && exec "$EXE" run --duration 1s --events kept.csv >/dev/null 2>err-kept)
    rc=$?
    [[ $rc == 1 && $(cat kept.csv) == old ]] || fail "fsize: the older kept.csv was replaced"
    # sweep --csv: 40 rows are about 15 KiB, over a limit of 4 KiB (which
    # also applies to err-sweep: a limit of 0 would silence the message).
    (ulimit -f 4 && exec "$EXE" sweep --quiet --stations 1..40 --duration 1ms --csv s.csv \
        2>err-sweep)
    rc=$?
    [[ $rc == 1 ]] || fail "fsize: sweep --csv: exit $rc, expected 1 ($(head -2 err-sweep))"
    grep -q "^csmacd: s.csv: File too large$" err-sweep ||
        fail "fsize: sweep --csv: message: $(head -3 err-sweep)"
    [[ ! -e s.csv ]] || fail "fsize: sweep --csv: s.csv left behind"
    no_temps . "fsize"
    cd ..
}

# One run killed after a random delay; judges what it left.
#   kill_one MODE SIGNAL DELAY_S
kill_one() {
    local mode=$1 sig=$2 delay=$3 d rc pid
    d=sig-$mode-$RANDOM$RANDOM
    mkdir $d && cd $d || return
    if [[ $mode == run ]]; then
        "$EXE" run --duration 60s --stations 32 --events ev.csv --pcap p.pcap \
            --stations-csv st.csv --format json >out.json 2>err &
    else
        "$EXE" sweep --quiet --stations 1..200 --duration 200ms --jobs 2 --csv s.csv \
            --reps-csv r.csv 2>err &
    fi
    pid=$!
    sleep "$delay"
    kill -"$sig" $pid 2>/dev/null
    wait $pid
    rc=$?
    local want=130
    [[ $sig == TERM ]] && want=143
    if [[ $rc == "$want" ]] && ! grep -q "interrupted" err; then
        # Killed by the signal before the handlers were installed: no output.
        local left
        early=$((early + 1))
        left=$(ls -A | grep -v '^err$' | grep -v '^out.json$')
        [[ -z $left ]] || fail "$mode SIG$sig after ${delay}s: killed early, left: $left"
        [[ ! -s out.json ]] || fail "$mode SIG$sig after ${delay}s: killed early, printed"
    elif [[ $rc == "$want" || $rc == 0 ]]; then
        [[ $rc == 0 ]] && finished=$((finished + 1)) || interrupted=$((interrupted + 1))
        if [[ $mode == run ]]; then
            $CHECK json out.json csv ev.csv csv st.csv pcap p.pcap ||
                fail "run SIG$sig after ${delay}s (exit $rc): outputs not valid"
        else
            $CHECK csv s.csv csv r.csv ||
                fail "sweep SIG$sig after ${delay}s (exit $rc): outputs not valid"
        fi
    else
        fail "$mode SIG$sig after ${delay}s: exit $rc ($(head -2 err))"
    fi
    no_temps . "$mode SIG$sig after ${delay}s"
    cd ..
    [[ $failures != 0 ]] || rm -rf $d
}

case_signals() {
    local i mode sig delay
    rm -rf signals && mkdir signals && cd signals || return
    for mode in run sweep; do
        for i in $(seq 20); do
            ((i % 2)) && sig=INT || sig=TERM
            # 0 to 0.8 s: from startup (before the handlers) to mid-run.
            delay=$(printf '0.%03d' $((RANDOM % 800)))
            kill_one $mode $sig "$delay"
        done
    done
    cd ..
    echo "faults: signals: $interrupted interrupted, $finished finished first," \
        "$early killed before the handlers"
}

for c in "${cases[@]}"; do
    before=$failures
    case_$c
    ((failures == before)) && echo "faults: $c: ok"
done
((failures == 0)) || { echo "faults: $failures failure(s)"; exit 1; }
