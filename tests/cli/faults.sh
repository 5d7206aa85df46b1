#!/usr/bin/env bash
# faults.sh - faults while csmacd runs: the outputs stay whole.
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
#   symlinks  links planted where csmacd writes: a link at the output path
#             has its target replaced and stays a link; a link to nothing is
#             refused (exit 1); links planted at the old temporary names
#             (PATH.PID.tmp) and at a dead process's temporary name are
#             neither followed nor written through; /dev/stdout stays the
#             system's link; a 254-byte output name works;
#   stdio     standard output closed (`>&-`): exit 1 with "standard output:
#             Bad file descriptor", and --events, --pcap, --stations-csv are
#             whole files holding only their own content;
#   owner     a file owned by root that another user may not write, in a
#             folder anyone may write: run as nobody, exit 1 "Permission
#             denied", the file unchanged (skipped where the machine does not
#             let root run a command as nobody); a replaced file keeps its
#             mode;
#   stale     a temporary left by a killed process (SIGKILL) is removed by
#             the next run writing to that folder; a live process's is kept;
#   conflicts sweep outputs over its inputs (a scenario named x.svg under
#             --plot, the capture through a symlink): exit 2, inputs intact.
#   limits    a capture with more source addresses than the station limit
#             (exit 2, naming --pcap-max-stations); memory running out
#             while the stations are built (ulimit -v, where the build can
#             start under it: not under the sanitizers), and in the middle
#             of a run or of a sweep's point (ulimit -v, or AddressSanitizer's
#             soft RSS limit): exit 1 "out of memory", never an abort, no
#             file kept by run, the finished rows kept by sweep; a replayed
#             capture too large for memory: exit 1 (not 2), in run and
#             sweep; `TERM=dumb csmacd tui` refused; an
#             output that will be large is announced with its size.
#   fulldisk  (a 64 KiB tmpfs, where the machine lets root mount one) sweep
#             --csv and --reps-csv filling the disk in the middle of their
#             rows: each named with "No space left on device" (the second
#             too, though the first one's temporary is gone by then), exit
#             1, nothing left on the disk;
#   endless   (a 100 MB tmpfs, where root may mount one) an endless run as
#             fast as it goes (--pace 1e12 --duration inf --events) stops
#             before the disk is full: exit 1, the reason and where it
#             stopped said, the outputs whole; a finite run as large is
#             refused early, no file kept;
#   tail      a series' empty intervals after the last event (batch
#             traffic, a long run): SIGINT stops them within seconds, exit
#             130, the series whole up to where it stopped and the message
#             saying where; a tail larger than the free space is refused
#             once 8 MB are written, exit 1, no file kept;
#   slow      signals far slower than 802.3's (--velocity 1e-9: every frame
#             in flight for half an hour of simulated time, each event
#             looking at thousands of them): SIGINT to run and to sweep is
#             honoured within a second, exit 130 (the slices shrink with
#             the signals in flight); a longer run is refused (cases.txt);
#   keep      a sweep that finishes no point (no worker thread can start:
#             a stack limit beyond the address space, or `ulimit -v 20000` where
#             the build starts under it) leaves the older CSVs and figure
#             byte for byte, exit 1, the message naming them; fewer threads
#             than --jobs (a process limit, as nobody) run the sweep on
#             those, said once, exit 0;
#   gnuplot   (with a stand-in gnuplot on PATH in front of the real one)
#             Ctrl-C to the sweep's process group while gnuplot draws: the
#             drawing finishes, the rows and the figure are both the new
#             ones, exit 130; a gnuplot that fails: the rows are written,
#             the older figure is left as it was and the message says so,
#             exit 1;
#             gnuplot's warnings are said as csmacd's, naming no temporary.
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
((${#cases[@]})) || cases=(sigpipe fsize signals symlinks stdio owner stale conflicts limits fulldisk endless tail slow keep gnuplot)
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
failures=0
early=0 finished=0 interrupted=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
no_temps() { # DIR WHAT
    local t
    t=$(find "$1" -name '*.tmp' ! -name 'planted-*' | head -3)
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

# md5 of a file, or "none".
sum_of() { [[ -e $1 ]] && md5sum <"$1" | cut -d' ' -f1 || echo none; }

case_symlinks() {
    local d=symlinks rc pid i name
    rm -rf $d && mkdir $d && cd $d || return
    # A link at the output path: the file it points to is replaced.
    printf 'victim\n' >victim.csv
    ln -s victim.csv ev.csv
    "$EXE" run --duration 1ms --events ev.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 0 && -L ev.csv && $(readlink ev.csv) == victim.csv ]] ||
        fail "symlinks: the link ev.csv was replaced (exit $rc, $(head -1 err))"
    $CHECK csv victim.csv || fail "symlinks: the link's target is not the event log"
    # A link to nothing: refused, nothing created where it points.
    ln -s "$PWD/nowhere/../made-by-csmacd" dangling.csv
    "$EXE" run --duration 1ms --events dangling.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 1 ]] && grep -qx "csmacd: dangling.csv: a symbolic link to a file that does not exist" err ||
        fail "symlinks: dangling link: exit $rc, $(head -1 err)"
    [[ ! -e made-by-csmacd ]] || fail "symlinks: the dangling link's target was created"
    # Links planted at the temporary names of the next PIDs (the old
    # PATH.PID.tmp) and at a dead process's temporary: none is written through.
    printf 'precious\n' >precious
    pid=$(sh -c 'echo $$')
    for ((i = 1; i <= 200; i++)); do
        ln -s precious "out.csv.$((pid + i)).tmp"
        ln -s precious "out.csv.$((pid + i)).gp"
    done
    ln -s precious ".csmacd-$pid-00000000.tmp"
    "$EXE" run --duration 1ms --events out.csv --stations-csv st.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 0 && $(cat precious) == precious ]] ||
        fail "symlinks: a planted link was followed (exit $rc, $(head -1 err))"
    [[ -L .csmacd-$pid-00000000.tmp ]] || fail "symlinks: a planted link was removed"
    $CHECK csv out.csv csv st.csv || fail "symlinks: outputs not valid"
    rm -f out.csv.*.tmp out.csv.*.gp .csmacd-*.tmp
    # /dev/stdout is written through, the system's link is kept; it then
    # carries the event log alone, the measures go to standard error.
    "$EXE" run --duration 1ms --events /dev/stdout >stdout.txt 2>err
    rc=$?
    [[ $rc == 0 && -L /dev/stdout ]] || fail "symlinks: --events /dev/stdout: exit $rc"
    head -1 stdout.txt | grep -q '^time_ps,station,event' && grep -q 'csmacd run: ' err &&
        ! grep -q 'csmacd run: ' stdout.txt ||
        fail "symlinks: --events /dev/stdout: not the event log alone on standard output"
    # A legal name of 254 bytes: the temporary does not grow from it.
    name=$(printf 'n%.0s' $(seq 250)).csv
    "$EXE" run --duration 1ms --events "$name" >/dev/null 2>err
    rc=$?
    [[ $rc == 0 ]] && $CHECK csv "$name" || fail "symlinks: a 254-byte name: exit $rc, $(head -1 err)"
    no_temps . "symlinks"
    cd ..
}

case_stdio() {
    local d=stdio rc
    rm -rf $d && mkdir $d && cd $d || return
    "$EXE" run --duration 10ms --events ev.csv --pcap p.pcap --stations-csv st.csv \
        --format json >&- 2>err
    rc=$?
    [[ $rc == 1 ]] || fail "stdio: run >&-: exit $rc, expected 1"
    [[ $(cat err) == "csmacd: standard output: Bad file descriptor" ]] ||
        fail "stdio: run >&-: message: $(head -2 err)"
    $CHECK csv ev.csv csv st.csv pcap p.pcap || fail "stdio: outputs not valid"
    ! grep -q '"throughput"' ev.csv st.csv || fail "stdio: the measures landed in a file"
    head -1 st.csv | grep -q '^station,' || fail "stdio: st.csv does not start with its header"
    # Standard error closed as well: still no file gets the measures.
    "$EXE" run --duration 10ms --events ev2.csv >&- 2>&-
    rc=$?
    [[ $rc == 1 ]] || fail "stdio: run >&- 2>&-: exit $rc, expected 1"
    $CHECK csv ev2.csv || fail "stdio: ev2.csv not valid"
    no_temps . "stdio"
    cd ..
}

case_owner() {
    local d=owner rc
    rm -rf $d && mkdir $d && cd $d || return
    # A replaced file keeps its mode.
    printf 'old\n' >mode.csv
    chmod 640 mode.csv
    "$EXE" run --duration 1ms --events mode.csv >/dev/null 2>err
    [[ $(stat -c %a mode.csv) == 640 ]] || fail "owner: mode.csv's mode became $(stat -c %a mode.csv)"
    # A file the user may not write, in a folder anyone may write.
    if [[ $(id -u) != 0 ]] || ! setpriv --reuid nobody --regid nogroup --clear-groups true 2>/dev/null; then
        echo "faults: owner: not root or no setpriv: the other-user case is skipped"
        cd ..
        return
    fi
    chmod 1777 .
    printf 'root file\n' >theirs.csv
    chmod 644 theirs.csv
    local before
    before=$(sum_of theirs.csv)
    setpriv --reuid nobody --regid nogroup --clear-groups \
        "$EXE" run --duration 1ms --events theirs.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 1 && $(cat err) == "csmacd: theirs.csv: Permission denied" ]] ||
        fail "owner: another user's file: exit $rc, $(head -2 err)"
    [[ $(sum_of theirs.csv) == "$before" && $(stat -c %U theirs.csv) == root ]] ||
        fail "owner: another user's file was changed"
    # Not sticky: rename could replace it, the permission check still refuses.
    chmod 0777 .
    setpriv --reuid nobody --regid nogroup --clear-groups \
        "$EXE" sweep --quiet --stations 1,2 --duration 1ms --csv theirs.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 1 && $(cat err) == "csmacd: theirs.csv: Permission denied" ]] ||
        fail "owner: sweep over another user's file: exit $rc, $(head -2 err)"
    [[ $(sum_of theirs.csv) == "$before" ]] || fail "owner: sweep changed another user's file"
    no_temps . "owner"
    chmod 755 .
    cd ..
}

case_stale() {
    local d=stale rc dead
    rm -rf $d && mkdir $d && cd $d || return
    # A run killed by SIGKILL leaves its temporary.
    "$EXE" run --duration 1h --stations 32 --events big.csv >/dev/null 2>/dev/null &
    local pid=$!
    while kill -0 $pid 2>/dev/null && ! ls -A | grep -q '^\.csmacd-.*\.tmp$'; do
        sleep 0.1 # its temporary, however loaded the machine
    done
    kill -KILL $pid
    wait $pid 2>/dev/null
    local left
    left=$(ls -A | grep -c '^\.csmacd-.*\.tmp$')
    [[ $left == 1 ]] || fail "stale: SIGKILL left $left temporaries, expected 1"
    [[ ! -e big.csv ]] || fail "stale: SIGKILL left big.csv"
    # A live process's temporary is kept (this shell's PID).
    : >".csmacd-$$-0000abcd.tmp"
    "$EXE" run --duration 1ms --events small.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 0 ]] || fail "stale: the next run: exit $rc, $(head -1 err)"
    left=$(ls -A | grep '^\.csmacd-.*\.tmp$' | grep -vc "^\.csmacd-$$-")
    [[ $left == 0 ]] || fail "stale: $left temporaries of dead processes left"
    [[ -e .csmacd-$$-0000abcd.tmp ]] || fail "stale: a live process's temporary was removed"
    rm -f ".csmacd-$$-0000abcd.tmp"
    cd ..
}

case_conflicts() {
    local d=conflicts rc before
    rm -rf $d && mkdir $d && cd $d || return
    printf 'stations = 2\nduration = 1ms\n' >lab.svg
    cp "$HERE/../../captures/lan-small.pcap" lan.pcap
    ln -s lan.pcap link.csv
    before=$(sum_of lab.svg)$(sum_of lan.pcap)
    "$EXE" sweep --quiet --stations 1,2 --csv s.csv --plot ./lab.svg --scenario lab.svg \
        >/dev/null 2>err
    rc=$?
    [[ $rc == 2 && $(cat err) == "csmacd: ./lab.svg: conflicting options: --plot would overwrite the scenario file" ]] ||
        fail "conflicts: --plot over the scenario: exit $rc, $(head -2 err)"
    "$EXE" sweep --quiet --stations 1,2 --traffic pcap:lan.pcap --csv s.csv --plot l.svg \
        --reps-csv link.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 2 && $(cat err) == "csmacd: link.csv: conflicting options: --reps-csv would overwrite the replayed capture" ]] ||
        fail "conflicts: --reps-csv through a link to the capture: exit $rc, $(head -2 err)"
    "$EXE" run --duration 1ms --traffic pcap:lan.pcap --series link.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 2 ]] || fail "conflicts: run --series over the capture: exit $rc"
    [[ $(sum_of lab.svg)$(sum_of lan.pcap) == "$before" ]] || fail "conflicts: an input changed"
    [[ $(ls -A | sort | tr '\n' ' ') == "err lab.svg lan.pcap link.csv " ]] ||
        fail "conflicts: files appeared: $(ls -A | tr '\n' ' ')"
    cd ..
}

case_limits() {
    local d=limits rc v seen=0
    rm -rf $d && mkdir $d && cd $d || return
    python3 - <<'PY'
import struct
with open("many.pcap", "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i in range(10001):
        frame = b"\xff" * 6 + bytes([2, 0]) + struct.pack(">I", i) + b"\x08\x00" + bytes(46)
        f.write(struct.pack("<IIII", i, 0, len(frame), len(frame)) + frame)
PY
    "$EXE" run --traffic pcap:many.pcap --duration 1ms >/dev/null 2>err
    rc=$?
    [[ $rc == 2 && $(cat err) == "csmacd: many.pcap: more than 10000 source addresses, one station each (at most 10000; --pcap-max-stations N replays the first N)" ]] ||
        fail "limits: a capture of 10001 sources: exit $rc, $(head -2 err)"
    "$EXE" run --traffic pcap:many.pcap --pcap-max-stations 10 --duration 1ms >/dev/null 2>err
    rc=$?
    [[ $rc == 0 ]] || fail "limits: --pcap-max-stations 10: exit $rc, $(head -2 err)"
    # Out of memory while building 10000 stations (light traffic, so that
    # the run itself needs little more): one message, exit 1, no file.
    for ((v = 8000; v <= 40000; v += 1000)); do
        (ulimit -v $v && exec "$EXE" --version) >/dev/null 2>&1 || continue
        (ulimit -v $v && exec "$EXE" run --stations 10000 --traffic poisson --load 0.01 \
            --duration 1us --events ev.csv) >/dev/null 2>err
        rc=$?
        if [[ $rc == 1 ]]; then
            grep -Eqx 'csmacd: out of memory( \(building 10000 stations\))?' err ||
                fail "limits: ulimit -v $v: message: $(head -2 err)"
            [[ ! -e ev.csv ]] || fail "limits: ulimit -v $v: out of memory left ev.csv"
            seen=$((seen + 1))
        elif [[ $rc != 0 ]]; then
            fail "limits: ulimit -v $v: exit $rc, $(head -2 err)"
        fi
        rm -f ev.csv
    done
    ((seen > 0)) || echo "faults: limits: no memory limit both started csmacd and stopped it"
    # Out of memory in the middle of a run: two stations offered 50 times
    # what the cable carries fill queues of a million frames each (about
    # 100 MB), past an 80 MB limit. A runtime failure: one message naming
    # the instant, exit 1, no file kept. A sweep keeps the rows of the
    # points finished before the one that ran out, and says so.
    # A sanitizer build cannot start under ulimit -v; there AddressSanitizer
    # makes malloc fail past a resident-size limit instead (its own line on
    # standard error is left out of the comparison).
    local limit=(ulimit -v 80000) asan=
    if ! (ulimit -v 80000 && exec "$EXE" --version) >/dev/null 2>&1; then
        limit=(true)
        asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:soft_rss_limit_mb=60
    fi
    ("${limit[@]}" && ASAN_OPTIONS=$asan exec "$EXE" run --stations 2 --traffic poisson --load 50 \
        --queue 1000000 --duration 100s --stations-csv st.csv) >/dev/null 2>err
    rc=$?
    grep -v '^==[0-9]*==' err >err.own
    [[ $rc == 1 && $(cat err.own) =~ ^csmacd:\ out\ of\ memory\ at\ [0-9.]+s\ of\ simulated\ time\ \(2\ stations\)$ ]] ||
        fail "limits: out of memory mid-run: exit $rc, $(head -2 err)"
    [[ ! -e st.csv ]] || fail "limits: out of memory mid-run left st.csv"
    ("${limit[@]}" && ASAN_OPTIONS=$asan exec "$EXE" sweep --quiet --jobs 1 --reps 1 --load 0.1,50 \
        --traffic poisson --stations 2 --queue 1000000 --duration 20s --csv sw.csv) \
        >/dev/null 2>err
    rc=$?
    grep -v '^==[0-9]*==' err >err.own
    [[ $rc == 1 ]] && grep -Eq '^csmacd: out of memory at [0-9.]+s of simulated time' err.own &&
        grep -qx 'csmacd: stopped: 1 of 2 points complete in sw.csv' err.own ||
        fail "limits: sweep out of memory: exit $rc, $(head -3 err)"
    [[ $(wc -l <sw.csv) == 2 ]] && grep -q '^10base5,2,bus,500,0,poisson,0.1,' sw.csv ||
        fail "limits: sweep out of memory did not keep the finished row: $(cut -c1-80 sw.csv)"
    # Out of memory while a capture is loaded (800000 frames, about 100 MB
    # once read): a resource failure, exit 1 as in the middle of a run, not
    # the 2 of a bad input; in run and in sweep alike.
    python3 - <<'PY'
import struct
frame = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0]) + bytes(86)
with open("huge.pcap", "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    buf = bytearray()
    for i in range(800000):
        buf += struct.pack("<IIII", i // 1000, (i % 1000) * 1000, len(frame), len(frame)) + frame
    f.write(buf)
PY
    ("${limit[@]}" && ASAN_OPTIONS=$asan exec "$EXE" run --traffic pcap:huge.pcap --duration 1ms) \
        >/dev/null 2>err
    rc=$?
    grep -v '^==[0-9]*==' err >err.own
    [[ $rc == 1 && $(cat err.own) == "csmacd: huge.pcap: Cannot allocate memory" ]] ||
        fail "limits: run, a capture too large for memory: exit $rc, $(head -2 err)"
    ("${limit[@]}" && ASAN_OPTIONS=$asan exec "$EXE" sweep --quiet --traffic pcap:huge.pcap \
        --duration 1ms --frame-size 64,128 --csv cap.csv) >/dev/null 2>err
    rc=$?
    grep -v '^==[0-9]*==' err >err.own
    [[ $rc == 1 && $(cat err.own) == "csmacd: huge.pcap: Cannot allocate memory" ]] ||
        fail "limits: sweep, a capture too large for memory: exit $rc, $(head -2 err)"
    [[ ! -e cap.csv ]] || fail "limits: sweep, a capture too large for memory: cap.csv written"
    # The same capture on a pipe: read as it comes, out of memory said as
    # such (exit 1), never as a truncated record.
    (cat huge.pcap | ("${limit[@]}" && ASAN_OPTIONS=$asan exec "$EXE" run \
        --traffic pcap:/dev/stdin --duration 1ms)) >/dev/null 2>err
    rc=$?
    grep -v '^==[0-9]*==' err >err.own
    [[ $rc == 1 && $(cat err.own) == "csmacd: /dev/stdin: Cannot allocate memory" ]] ||
        fail "limits: run, a capture on a pipe too large for memory: exit $rc, $(head -2 err)"
    rm -f huge.pcap
    # A terminal that cannot move the cursor.
    if command -v script >/dev/null; then
        TERM=dumb script -qec "$EXE tui" /dev/null </dev/null >out 2>&1
        rc=$?
        [[ $rc == 1 ]] && grep -q "csmacd: tui: cannot use the terminal (TERM=dumb): it cannot move the cursor" out ||
            fail "limits: TERM=dumb tui: exit $rc, $(head -2 out)"
    fi
    # A large output is announced: 50 simulated minutes of events (about
    # 2 GB, twice the 1 GB that is announced), interrupted once the
    # estimate is out.
    "$EXE" run --duration 3000s --events big.csv >/dev/null 2>err &
    local pid=$!
    # The estimate comes after 8 MB of events, however long that takes on a
    # loaded machine (before the run could end: 1 GB).
    while kill -0 $pid 2>/dev/null && ! grep -q "big.csv" err; do
        sleep 0.1
    done
    kill -INT $pid
    wait $pid
    grep -Eq '^csmacd: (warning: )?big.csv: about [0-9.]+ GB at [0-9]+ MB per simulated second' err ||
        fail "limits: no size announced for big.csv: $(head -2 err)"
    rm -f big.csv
    no_temps . "limits"
    cd ..
}

case_fulldisk() {
    local d=fulldisk rc free log=$PWD/fulldisk.err
    rm -rf $d && mkdir $d || return
    if [[ $(id -u) != 0 ]] || ! mount -t tmpfs -o size=64k tmpfs $d 2>/dev/null; then
        echo "faults: fulldisk: cannot mount a tmpfs: skipped"
        return
    fi
    cd $d || return
    for free in 4 40; do
        rm -f fill
        dd if=/dev/zero of=fill bs=1k count=$((64 - free)) 2>/dev/null
        "$EXE" sweep --quiet --stations 1..300 --duration 100us --csv a.csv --reps-csv b.csv \
            >/dev/null 2>"$log"
        rc=$?
        [[ $rc == 1 && $(cat "$log") == $'csmacd: a.csv: No space left on device\ncsmacd: b.csv: No space left on device' ]] ||
            fail "fulldisk: $free KiB free: exit $rc, $(head -3 "$log")"
        [[ $(ls -A) == fill ]] || fail "fulldisk: $free KiB free: left $(ls -A | tr '\n' ' ')"
    done
    cd ..
    umount $d
}

case_endless() {
    local d=endless rc free
    rm -rf $d && mkdir $d || return
    if [[ $(id -u) != 0 ]] || ! mount -t tmpfs -o size=100m tmpfs $d 2>/dev/null; then
        echo "faults: endless: cannot mount a tmpfs: skipped"
        return
    fi
    cd $d || return
    # An endless run as fast as it goes watches the disk: it stops before
    # the disk is full, its outputs whole, and says why, exit 1.
    timeout 300 "$EXE" run --pace 1e12 --duration inf --events ev.csv --format json \
        >out.json 2>err
    rc=$?
    free=$(df -B1M --output=avail . | tail -1)
    [[ $rc == 1 ]] && grep -Eqx 'csmacd: ev.csv: [0-9]+ MB written, at [0-9]+ MB per second, with [0-9]+ MB left free on its file system: stopped at [0-9.]+ s of simulated time \(the outputs cover the run so far\)' err ||
        fail "endless: exit $rc, $(head -2 err)"
    ((free >= 16)) || fail "endless: the run left $free MB free"
    $CHECK csv ev.csv json out.json || fail "endless: outputs not valid"
    # A finite run that large is refused once 8 MB are written, no file kept.
    rm -f ev.csv
    "$EXE" run --duration 10000s --events big.csv >/dev/null 2>err
    rc=$?
    [[ $rc == 1 ]] && grep -Eqx 'csmacd: big.csv: about [0-9.]+ GB at [0-9]+ MB per simulated second, more than the [0-9.]+ GB free on its file system' err ||
        fail "endless: a finite run larger than the disk: exit $rc, $(head -2 err)"
    [[ ! -e big.csv ]] || fail "endless: a finite run larger than the disk was kept"
    no_temps . "endless"
    cd ..
    umount $d
}

case_tail() {
    local d=tail rc pid t0 rows room dur
    rm -rf $d && mkdir $d && cd $d || return
    # 10^7 rows once the two frames are sent: before, SIGINT was ignored.
    "$EXE" run --traffic batch --stations 2 --duration 10000s --series s.csv \
        --series-interval 1ms --format json >out.json 2>err &
    pid=$!
    # Once the tail has begun (its rows reach the temporary); a SIGINT
    # ignored there would let all 10^7 rows out, which the count below sees.
    while kill -0 $pid 2>/dev/null &&
        [[ -z $(find . -maxdepth 1 -name '.csmacd-*.tmp' -size +0 2>/dev/null) ]]; do
        sleep 0.1
    done
    kill -INT $pid
    wait $pid
    rc=$?
    [[ $rc == 130 ]] && grep -Eqx 'csmacd: interrupted at 10000.000000 s of simulated time \(s.csv: rows up to [0-9.]+ s\)' err ||
        fail "tail: SIGINT: exit $rc, $(head -2 err)"
    rows=$(($(wc -l <s.csv) - 1))
    ((rows > 0 && rows < 10000000)) || fail "tail: SIGINT: $rows rows"
    [[ $(tail -1 s.csv | cut -d, -f2) == "$(grep -Eo '[0-9.]+ s\)' err | cut -d' ' -f1)000" ]] ||
        fail "tail: the last row does not end where the message says: $(tail -1 s.csv)"
    grep -q '"interrupted": true' out.json || fail "tail: the measures do not say interrupted"
    $CHECK csv s.csv json out.json || fail "tail: outputs not valid"
    # A tail that will not fit: rows of at least 40 bytes, twice the room.
    room=$(df -B1 --output=avail . | tail -1)
    dur=$((room / 40 * 2 / 1000000 + 1))
    "$EXE" run --traffic batch --stations 2 --duration ${dur}s --series big.csv \
        --series-interval 1us --series-max-rows 1e15 >/dev/null 2>err
    rc=$?
    [[ $rc == 1 ]] && grep -Eqx 'csmacd: big.csv: about [0-9.]+ GB at [0-9]+ MB per simulated second, more than the [0-9.]+ GB free on its file system' err ||
        fail "tail: a series larger than the disk: exit $rc, $(head -2 err)"
    [[ ! -e big.csv ]] || fail "tail: a series larger than the disk was kept"
    no_temps . "tail"
    cd ..
}

# The processor time process $1 has used, in clock ticks (0 when gone).
cpu_ticks() {
    awk '{ print $14 + $15 }' /proc/$1/stat 2>/dev/null || echo 0
}

case_slow() {
    local d=slow rc pid t0 ms mode
    rm -rf $d && mkdir $d && cd $d || return
    for mode in run sweep; do
        if [[ $mode == run ]]; then
            "$EXE" run --stations 8 --velocity 1e-9 --duration 1s >out 2>err &
        else
            "$EXE" sweep --quiet --jobs 1 --stations 8 --velocity 1e-9 --duration 1s \
                --csv s.csv >out 2>err &
        fi
        pid=$!
        sleep 1.5
        # Honoured promptly: within a second of the processor time it had
        # used at the signal (its own clock, whatever the machine's load),
        # read from /proc while it is a zombie, before wait reaps it.
        t0=$(cpu_ticks $pid)
        kill -INT $pid
        while [[ -e /proc/$pid && $(awk '{ print $3 }' /proc/$pid/stat 2>/dev/null) != Z ]]; do
            sleep 0.05
        done
        ms=$((($(cpu_ticks $pid) - t0) * 1000 / $(getconf CLK_TCK)))
        wait $pid
        rc=$?
        ((ms <= 1000)) || fail "slow: $mode: SIGINT honoured after $ms ms of processor time"
        [[ $rc == 130 || $rc == 0 ]] || fail "slow: $mode: exit $rc, $(head -2 err)"
    done
    $CHECK csv s.csv || fail "slow: sweep: s.csv not valid"
    no_temps . "slow"
    cd ..
}

case_keep() {
    local d=keep rc args
    rm -rf $d && mkdir $d && cd $d || return
    args=(sweep --quiet --jobs 4 --stations 1,2,4 --duration 1ms --csv k.csv --reps-csv r.csv)
    command -v gnuplot >/dev/null && args+=(--plot k.svg)
    "$EXE" "${args[@]}" 2>err || fail "keep: the first sweep: $(head -2 err)"
    md5sum k.* r.csv >sums
    # No thread can start: each would take a stack larger than the address space.
    (ulimit -s 1000000000000 && exec "$EXE" "${args[@]}") >/dev/null 2>err
    rc=$?
    [[ $rc == 1 ]] && grep -qx "csmacd: worker threads: none could start: .*" err &&
        grep -qx "csmacd: stopped: 0 of 3 points complete (older files left as they were: k.csv, r.csv.*)" err ||
        fail "keep: no thread: exit $rc, $(head -3 err)"
    md5sum --quiet -c sums || fail "keep: no thread: an older output was changed"
    # The issue's own case, where the build starts under the limit (not
    # under the sanitizers): whatever fails, the older files stay.
    if (ulimit -v 20000 && exec "$EXE" --version) >/dev/null 2>&1; then
        (ulimit -v 20000 && exec "$EXE" "${args[@]}") >/dev/null 2>err
        rc=$?
        [[ $rc == 1 ]] || fail "keep: ulimit -v 20000: exit $rc, $(head -3 err)"
        md5sum --quiet -c sums || fail "keep: ulimit -v 20000: an older output was changed"
    fi
    # With no older file, the CSV of a sweep that finished nothing is the
    # header alone (a valid file).
    (ulimit -s 1000000000000 && exec "$EXE" sweep --quiet --stations 1 --duration 1ms --csv new.csv) \
        >/dev/null 2>err
    [[ $(wc -l <new.csv) == 1 ]] && grep -qx "csmacd: stopped: 0 of 1 points complete in new.csv" err ||
        fail "keep: a new CSV: $(head -3 err)"
    no_temps . "keep"
    # Fewer threads than asked (a process limit): the sweep runs on those.
    if [[ $(id -u) == 0 ]] && setpriv --reuid nobody --regid nogroup --clear-groups true 2>/dev/null; then
        local procs
        procs=$(ps -u nobody -L --no-headers 2>/dev/null | wc -l)
        chmod 1777 .
        (ulimit -u $((procs + 3)) && exec setpriv --reuid nobody --regid nogroup --clear-groups \
            "$EXE" sweep --quiet --jobs 8 --stations 1,2,4 --duration 1ms --csv few.csv) >/dev/null 2>err
        rc=$?
        [[ $rc == 0 && $(wc -l <err) == 1 && $(wc -l <few.csv) == 4 ]] &&
            grep -Eqx "csmacd: warning: --jobs 8: only [1-7] worker threads? could start \(Resource temporarily unavailable\); the sweep runs on (it|those)" err ||
            fail "keep: fewer threads: exit $rc, $(head -3 err)"
        chmod 755 .
    fi
    cd ..
}

case_gnuplot() {
    local d=gnuplot rc real
    real=$(command -v gnuplot) || { echo "faults: gnuplot: not installed, skipped"; return; }
    rm -rf $d && mkdir -p $d/slow $d/broken $d/chatty && cd $d || return
    printf '#!/bin/sh\n: >"%s/drawing"\nsleep 1\nexec %s "$@"\n' "$PWD" "$real" >slow/gnuplot
    printf '#!/bin/sh\necho "line 3: unexpected thing" >&2\nexit 1\n' >broken/gnuplot
    printf '#!/bin/sh\necho "\\"/tmp/x.gp\\" line 9: warning: Skipping data file with no valid points" >&2\nexec %s "$@"\n' \
        "$real" >chatty/gnuplot
    chmod +x slow/gnuplot broken/gnuplot chatty/gnuplot
    # Ctrl-C (SIGINT to the process group) while gnuplot draws.
    printf 'old\n' >f.svg
    PATH=$PWD/slow:$PATH setsid "$EXE" sweep --quiet --stations 1,2 --duration 1ms --csv f.csv \
        --plot f.svg 2>err &
    local pid=$!
    while kill -0 $pid 2>/dev/null && [[ ! -e drawing ]]; do
        sleep 0.1 # while gnuplot draws, however loaded the machine
    done
    kill -INT -- -$pid 2>/dev/null || kill -INT $pid
    wait $pid
    rc=$?
    [[ $rc == 130 ]] || fail "gnuplot: Ctrl-C while drawing: exit $rc, $(head -2 err)"
    grep -q '<svg' f.svg || fail "gnuplot: Ctrl-C while drawing: f.svg is not the new figure"
    $CHECK csv f.csv || fail "gnuplot: Ctrl-C while drawing: f.csv not valid"
    # gnuplot fails: no figure of other data is left beside the new rows.
    printf 'old\n' >b.svg
    PATH=$PWD/broken:$PATH "$EXE" sweep --quiet --stations 1,2 --duration 1ms --csv b.csv \
        --plot b.svg 2>err
    rc=$?
    [[ $rc == 1 && $(cat err) == "csmacd: b.svg: gnuplot failed: unexpected thing (the older figure was left as it was; it does not show these rows)" ]] ||
        fail "gnuplot: a failing gnuplot: exit $rc, $(head -2 err)"
    [[ $(cat b.svg) == old ]] || fail "gnuplot: a failing gnuplot changed the older figure"
    $CHECK csv b.csv || fail "gnuplot: a failing gnuplot: the rows were not written"
    # Warnings in words, no script name.
    PATH=$PWD/chatty:$PATH "$EXE" sweep --quiet --stations 1,2 --duration 1ms --csv c.csv \
        --plot c.svg 2>err
    rc=$?
    [[ $rc == 0 && $(cat err) == "csmacd: warning: c.svg: a curve has no finite value to draw" ]] ||
        fail "gnuplot: warnings: exit $rc, $(head -2 err)"
    no_temps . "gnuplot"
    cd ..
}

for c in "${cases[@]}"; do
    before=$failures
    case_$c
    ((failures == before)) && echo "faults: $c: ok"
done
((failures == 0)) || { echo "faults: $failures failure(s)"; exit 1; }
