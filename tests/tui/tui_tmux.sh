#!/usr/bin/env bash
# tui_tmux.sh - end-to-end test of `csmacd tui` in a real terminal (tmux).
#
# Pins, at 80x24 and 200x60: the screen comes up with the plot's axes and
# labels, fills in measured points, and shows the station table (one word
# per state, the backoff slots in a column of their own); the keys work as
# the help says (space pauses: the clock stops; s steps to the next event
# and says in words what it was, S one slot, while paused; + adds a station and leaves the sweep; ? opens the help
# (which names the save folder) and Esc closes it; z zooms the S axis,
# marked cut, and z again shows 0 to 1; c saves the CSV under a name that
# carries PHY, frame size, policy, traffic and seed, and after b (the next
# policy, shown in the header, a new sweep) c saves a file of its own and c
# again a -2, the first file untouched; the bus row keeps the numbers of its
# first and last station at 80x24); a resize redraws at the new size, a
# too-small window says so and a larger one brings the screen back; q exits
# with status 0 and the terminal is restored (alternate screen left, cursor
# shown, echo and canonical mode back). At 200x60 with --save-dir, c and w
# write into that folder and nothing into the current one, and w's message
# names the file and the span it holds (pcapng, as run writes it). With
# groups the header shows them (at 120 and 80 columns), c saves each
# group's columns, a step's words wrap at 120 columns, never cut, and w
# a trace that a plain tshark decodes, every record
# naming its group, fragments included. At 500 fixed-retry stations w writes
# in steps while the screen keeps redrawing, and q ends the program at once
# leaving no file. Three stations in slow motion show no capture note after
# a few frames. Also the other exit paths (and SIGINT/SIGTERM at random
# moments, from start-up on): SIGTERM (status 143), Ctrl-C (status 130) and
# an abort (SIGABRT, as a failed assertion raises: status 134) restore the
# terminal too, and `csmacd` with no arguments on a terminal starts the TUI.
# A network of segments (--scenario with [segment] sections), at 80x24 and
# 160x50: each segment's line with its name, type and labelled joints, a
# relay seen on a segment whose station never sends, the segment column of
# the station table, + growing the chosen group.
# The swap key t on a running hub demo, at 120x40 and 80x24: a switch in
# half duplex (collisions go on), in full duplex (the collision counter
# stays at 0, the goodput passes one link), and the hub again; each swap
# marked on the time plot; refused, with the reason, for a scenario with
# its own network; listed in the help.
# A preset (--preset two-departments) opens with its network. Every
# wait polls the screen for what it expects, with a generous deadline
# (TUI_TMUX_SLACK seconds), so a loaded machine is slower, never wrong.
# It does not check measured values (the driver and validation tests do)
# nor colours (test_tui_layout pins the attributes).
#
# usage: tui_tmux.sh PATH/TO/csmacd
set -u
CSMACD=$(readlink -f "$1")
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed"
    exit 77
fi
WORK=$(mktemp -d)
# One tmux server per session, its socket in $WORK (removed at the end), so
# that one session's trouble cannot take the others down and no socket is
# left behind in /tmp/tmux-UID.
T() { local s=$1; shift; tmux -S "$WORK/tmux-$s" "$@"; }
SESSIONS=""
cleanup() {
    for s in $SESSIONS; do T "$s" kill-server >/dev/null 2>&1; done
    rm -rf "$WORK"
}
trap cleanup EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

screen() { T "$1" capture-pane -p -t "$1"; }
# Every wait is for a condition on the screen, polled, with a deadline
# generous enough for a machine under load (at least SLACK seconds, 60 by
# default: the waits end as soon as the condition holds, so only a failure
# takes that long). Nothing is judged after a fixed sleep.
SLACK=${TUI_TMUX_SLACK:-60}
# wait_for SESSION PATTERN [SECONDS]: until the screen matches (grep -E).
wait_for() {
    local s=$1 pat=$2 secs=${3:-20} i
    ((secs < SLACK)) && secs=$SLACK
    for ((i = 0; i < secs * 10; i++)); do
        if screen "$s" | grep -Eq -- "$pat"; then return 0; fi
        sleep 0.1
    done
    return 1
}
# wait_gone SESSION PATTERN: until the screen no longer matches.
wait_gone() {
    local s=$1 pat=$2 i
    for ((i = 0; i < SLACK * 10; i++)); do
        if ! screen "$s" | grep -Eq -- "$pat"; then return 0; fi
        sleep 0.1
    done
    return 1
}
# wait_change SESSION FUNCTION OLD: prints FUNCTION SESSION's value once it
# is not empty and differs from OLD (the last value at the deadline).
wait_change() {
    local s=$1 fn=$2 old=$3 i v=
    for ((i = 0; i < SLACK * 10; i++)); do
        v=$("$fn" "$s")
        if [ -n "$v" ] && [ "$v" != "$old" ]; then break; fi
        sleep 0.1
    done
    echo "$v"
}
sim_time() { screen "$1" | grep -Eo 'at t = [0-9.]+ s' | head -1; }
# wait_time SESSION SECONDS: until the simulated clock shows at least SECONDS.
wait_time() {
    local s=$1 want=$2 i v
    for ((i = 0; i < SLACK * 10; i++)); do
        v=$(sim_time "$s" | grep -Eo '[0-9.]+')
        if [ -n "$v" ] && awk -v v="$v" -v w="$want" 'BEGIN { exit !(v >= w) }'; then return 0; fi
        sleep 0.1
    done
    return 1
}
check() { # check SESSION PATTERN WHAT
    if screen "$1" | grep -Eq -- "$2"; then ok "$3"; else fail "$3"; screen "$1"; fi
}

# start SESSION W H ARGS...: a shell in a W x H pane running csmacd; its exit
# status is printed as EXIT=n, its pid kept in $WORK/SESSION.pid.
start() {
    local s=$1 w=$2 h=$3
    shift 3
    SESSIONS="$SESSIONS $s"
    T "$s" new-session -d -s "$s" -x "$w" -y "$h" "bash --norc --noprofile -i"
    T "$s" set-option -g window-size manual >/dev/null 2>&1
    wait_for "$s" '.' || fail "$s: no shell in the pane"
    T "$s" send-keys -t "$s" "cd $WORK; export PS1='PROMPT\$ ' NO_COLOR= TERM=xterm-256color" Enter
    T "$s" send-keys -t "$s" "clear; bash -c 'echo \$\$ > $WORK/$s.pid; exec $CSMACD $*'; echo EXIT=\$?" Enter
}

restored() { # restored SESSION STATUS WHAT
    local s=$1 st=$2 what=$3
    if ! wait_for "$s" "EXIT=$st" 15; then fail "$what: exit status $st"; screen "$s"; return; fi
    ok "$what: exit status $st"
    [ "$(T "$s" display-message -p -t "$s" '#{alternate_on}')" = 0 ] &&
        ok "$what: alternate screen left" || fail "$what: still on the alternate screen"
    [ "$(T "$s" display-message -p -t "$s" '#{cursor_flag}')" = 1 ] &&
        ok "$what: cursor visible" || fail "$what: cursor hidden"
    T "$s" send-keys -t "$s" "clear; stty -a | tr ' ' '\\n' | grep -Ex -- '-?(echo|icanon)' | sort | tr '\\n' ' '; echo" Enter
    if wait_for "$s" '^echo icanon *$' 5; then ok "$what: echo and canonical mode back"; else
        fail "$what: terminal modes not restored"; screen "$s"; fi
}

# ---------------------------------------------------------------- 80x24
start a 80 24 tui --seed 1
wait_for a 'Throughput S' 20 && ok "80x24: the screen comes up" || { fail "80x24: no screen"; screen a; }
check a '^ *1\.00?┤' "80x24: y axis labelled 1.0"
check a '^ *0\.[0-9]+┤' "80x24: y axis labelled below"
check a '└┬' "80x24: x axis"
check a 'stations N \(log scale\)' "80x24: x axis name with its scale"
check a '1 +2 +4 +8 +16 +32 +64' "80x24: x ticks 1..64"
check a 'Stations \(N = [0-9]+\)' "80x24: station table title"
check a '# state +wait +try +ok +coll +abort +share' "80x24: station table header"
check a 'Channel at the probe' "80x24: timeline strip"
check a 'Bus \(500 m\): signals at t = ' "80x24: the bus with the time"
# At least three measured points: the sweep is past its third point and the
# plot holds three markers besides the legend's.
if wait_for a 'Point ([4-9]|1[0-2])/12' 40; then ok "80x24: the sweep moves on"; else
    fail "80x24: fewer than 3 points measured"; screen a; fi
n=$(screen a | head -12 | grep -o '●' | wc -l)
[ "$n" -ge 3 ] && ok "80x24: $n measured points on the plot" || { fail "80x24: $n points"; screen a; }

# space: paused, and the clock stops.
T a send-keys -t a ' '
wait_for a 'PAUSED' 5 && ok "space: PAUSED shown" || fail "space: no PAUSED"
# (A paused clock never moves: the second reading, a second later, must
# be the first, however loaded the machine.)
t1=$(sim_time a); sleep 1; t2=$(sim_time a)
[ -n "$t1" ] && [ "$t1" = "$t2" ] && ok "space: time stands still ($t1)" || fail "space: time moved ($t1 -> $t2)"
# s: one event; S: one slot (51.2 us, shown to the microsecond).
T a send-keys -t a 's'; t3=$(wait_change a sim_time "$t2")
T a send-keys -t a 's'; t4=$(wait_change a sim_time "$t3")
[ "$t3" != "" ] && [ "$t4" != "$t2" ] && ok "s: single steps move the clock ($t2 -> $t4)" || fail "s: no step ($t2 $t3 $t4)"
# Each step says in words what happened, station numbers as on screen.
check a '^t = [0-9.]+ (us|ms|s): .*station [0-9]+' "s: the step is told in words"
T a send-keys -t a 'S'; t5=$(wait_change a sim_time "$t4")
d=$(awk -v a="${t4//[!0-9.]/}" -v b="${t5//[!0-9.]/}" 'BEGIN { printf "%.6f", b - a }')
case "$d" in 0.000051|0.000052) ok "S: one slot step (+$d s)";; *) fail "S: stepped $d s";; esac
check a 'PAUSED' "steps keep the pause"
# +: one more station, out of the sweep.
before=$(screen a | grep -Eo 'Stations \(N = [0-9]+' | grep -Eo '[0-9]+$')
T a send-keys -t a '+'
if wait_for a "Stations \\(N = $((before + 1))\\)" 5 && wait_for a 'You chose N' 5; then
    ok "+: N $before -> $((before + 1)), manual mode"; else fail "+: no new station"; screen a; fi
# The bus row: station numbers, the first and the last among them.
nums=$(screen a | grep -A1 '^Bus (500 m)' | tail -1)
if echo "$nums" | grep -Eq "^ 1 .* $((before + 1)) *\$"; then ok "80x24: bus numbered 1 .. $((before + 1))"; else
    fail "80x24: bus numbers '$nums'"; screen a; fi
# ?: help; Esc closes it.
T a send-keys -t a '?'
wait_for a 'Help: keys' 5 && ok "?: help shown" || { fail "?: no help"; screen a; }
check a 'single step: the next event, told in words' "?: help lists the step key"
check a 'write the trace of the run.s last 10 s \(pcapng\)' "?: help lists the pcap key"
check a "c and w save into (\\.\\.\\.)?.*$(basename "$WORK") \\(--save-dir DIR\\)" "?: help names the save folder"
T a send-keys -t a Escape
wait_gone a 'Help: keys' && ok "Esc: help closed" || fail "Esc: help still shown"
# Resize: larger, too small, back.
T a resize-window -t a -x 120 -y 40
if wait_for a 'Measured points|Throughput S \(fraction of 10 Mb/s\)' 5; then ok "resize 120x40: redrawn"; else fail "resize 120x40"; screen a; fi
w=$(screen a | head -1 | awk '{ print length($0) }')
[ "$w" -gt 100 ] && ok "resize 120x40: header spans the width ($w)" || fail "resize 120x40: header $w wide"
T a resize-window -t a -x 60 -y 20
wait_for a 'Terminal too small: 60x20' 5 && ok "resize 60x20: too-small message" || { fail "resize 60x20"; screen a; }
check a 'at least 80x24' "resize 60x20: says the minimum"
T a resize-window -t a -x 80 -y 24
wait_for a 'Throughput S' 5 && ok "resize 80x24: screen back" || { fail "resize back"; screen a; }
# The S axis opens at 0 .. 1; z zooms, marked as a cut axis; z again: 0 .. 1.
check a '^ *0\.00?┤' "S axis from 0 at first"
T a send-keys -t a 'z'
if wait_for a 'S axis zoomed to the data' 5 && wait_for a '^ cut≈' 5 && wait_for a 'S axis cut: 0\.[5-9]0' 5; then
    ok "z: zoomed, the cut marked"; else fail "z: no cut axis"; screen a; fi
T a send-keys -t a 'z'
if wait_for a '^ *0\.00?┤' 5 && wait_for a 'S axis from 0 to 1' 5; then ok "z again: whole S axis from 0"; else
    fail "z again: no full axis"; screen a; fi
# c: the plot data as CSV, named by what it holds; the status line names it.
CSV1=csmacd-sweep-10base5-512B-beb-saturated-seed1.csv
T a send-keys -t a 'c'
if wait_for a "saved $CSV1 \\(the plot data" 5 && head -1 "$WORK/$CSV1" | grep -q '^stations,throughput,throughput_ci95'; then
    ok "c: CSV saved with its header, the status line names it"; else fail "c: no CSV"; screen a; fi
sum1=$(md5sum <"$WORK/$CSV1")
# b: the next backoff policy, in the header line, and a new sweep.
header_has() { # header_has SESSION PATTERN [SECONDS]
    local i
    for ((i = 0; i < SLACK * 10; i++)); do
        if screen "$1" | head -1 | grep -Eq -- "$2"; then return 0; fi
        sleep 0.1
    done
    return 1
}
header_has a '│ beb( |$)' 1 && ok "header shows the policy beb" || { fail "no beb in the header"; screen a; }
T a send-keys -t a 'b'
if header_has a '│ ca-beb( |$)' && wait_for a 'backoff policy: ca-beb; a new sweep started' 5; then
    ok "b: policy ca-beb in the header, a new sweep"; else fail "b: no ca-beb"; screen a; fi
# c after b: the new policy's curve in a file of its own, and c again a
# third file (-2): no save replaces another.
CSV2=csmacd-sweep-10base5-512B-ca-beb-saturated-seed1.csv
T a send-keys -t a 'c'
wait_for a "saved $CSV2 " 5 && [ -s "$WORK/$CSV2" ] && ok "c after b: $CSV2" || { fail "c after b"; screen a; ls "$WORK"; }
T a send-keys -t a 'c'
wait_for a "saved ${CSV2%.csv}-2.csv " 5 && [ -s "$WORK/${CSV2%.csv}-2.csv" ] && ok "c again: ${CSV2%.csv}-2.csv" ||
    { fail "c again: no -2"; screen a; ls "$WORK"; }
[ "$(md5sum <"$WORK/$CSV1")" = "$sum1" ] && ok "c: the first policy's curve left as it was" || fail "c: $CSV1 changed"
T a send-keys -t a 'b'
header_has a '│ full-jitter' && ok "b again: full-jitter" || { fail "b again: no full-jitter"; screen a; }
# q: exit 0, terminal restored.
T a send-keys -t a 'q'
restored a 0 "q"

# ---------------------------------------------------------------- 200x60
mkdir "$WORK/saved"
start b 200 60 tui --seed 1 --save-dir "$WORK/saved"
wait_for b 'Throughput S \(fraction of 10 Mb/s\) vs number of stations N' 20 && ok "200x60: the long title" || { fail "200x60: no screen"; screen b; }
check b '^ *1\.00?┤' "200x60: y axis labelled 1.0"
check b '^ *0\.[0-9]+┤' "200x60: y axis labelled below"
check b 'number of stations N \(log scale\)' "200x60: x axis name"
check b '# state +slots left +attempt +sent OK +collis\. +aborted +late-disc\. +dropped +share' "200x60: the wide station table"
check b 'Jain fairness [0-9.]+ \(1 = equal shares\)' "200x60: fairness"
if wait_for b '^ +3 +0\.[0-9]{3} +±0\.[0-9]{3}' 40; then ok "200x60: measured points listed with their CI"; else
    fail "200x60: no point table rows"; screen b; fi
check b 'Measured points \(sorted by N\)' "200x60: table of points"
# One word per state, the same on every row: the slots left of a backoff
# in a column of their own (from the third point on, stations back off).
if screen b | grep -Eq '│ +[0-9]+ (backoff|bkoff) [0-9]+'; then fail "200x60: a backoff with its slots in the state column"; screen b; fi
states=$(screen b | grep -Eo '│ +[0-9]+ [A-Za-z]+ ' | awk '{ print $3 }' | sort -u | tr '\n' ' ')
echo "$states" | grep -Eq '^((SEND|JAM|backoff|defer|idle|burst) )+$' && ok "200x60: state words: $states" ||
    { fail "200x60: state words '$states'"; screen b; }
# c and w into --save-dir, nothing into the current folder.
T b send-keys -t b 'c'
wait_for b 'saved csmacd-sweep-10base5-512B-beb-saturated-seed1\.csv \(the plot data, [0-9]+ points\) in ' 5 ||
    { fail "--save-dir c: no message"; screen b; }
T b send-keys -t b 'w'
# The status line names the file and the span it holds (in s, ms or us as
# the run's length asks); a run past 10 s keeps its most recent 10 s. The
# replay may take a while on a busy machine: the status line says how far
# it is meanwhile.
if wait_for b 'saved csmacd-10base5-N[0-9]+-512B-beb-saturated-seed1\.pcapng \(the (whole run|last 10 s \(the most a save holds\)), t = [0-9.]+ (s|ms|us) to [0-9.]+ (s|ms|us), [0-9]+ records\) in ' 240; then
    ok "--save-dir w: the status line names the file and its span"; else
    fail "--save-dir w: no message naming the file and its span"; screen b | grep -E 'saved|writing|trace'; fi
if [ -s "$WORK/saved/csmacd-sweep-10base5-512B-beb-saturated-seed1.csv" ] && ls "$WORK"/saved/csmacd-10base5-N*-seed1.pcapng >/dev/null 2>&1 &&
    [ "$(head -c 4 "$WORK"/saved/csmacd-10base5-N*-seed1.pcapng | od -An -tx1 | tr -d ' ')" = 0a0d0d0a ]; then
    ok "--save-dir: c and w write there (the trace is pcapng, as run writes it)"; else fail "--save-dir: files missing"; ls -l "$WORK" "$WORK/saved"; fi
ls "$WORK"/*.pcap* >/dev/null 2>&1 && fail "--save-dir: a trace in the current folder" || ok "--save-dir: nothing in the current folder"
T b send-keys -t b 'q'
restored b 0 "200x60 q"

# ------------------------------------------------- groups
# With groups, the header shows them (each group's stations, policy,
# traffic and frames) instead of one traffic, frame size and policy; c
# saves each group's columns; w saves pcapng, which a plain tshark decodes
# (Ethernet frames of csmacd's EtherType), every record's comment naming
# its group, and the dissector shows csmacd.group on fragments too.
mkdir "$WORK/groups"
printf '[group rogue]\nstations = 1\npolicy = none\n\n[group good]\nstations = 3\n' >"$WORK/groups.ini"
start k 120 40 tui --scenario "$WORK/groups.ini" --seed 1 --save-dir "$WORK/groups"
wait_for k 'Throughput S' 20 || { fail "groups: no screen"; screen k; }
if screen k | head -1 | grep -q 'rogue (1): none, saturated, 512 B │ good\* ([0-9]*): beb, saturated, 512 B │ seed 1' &&
    ! screen k | head -1 | grep -Eq 'byte frames|backoff'; then ok "groups: the header shows the groups"; else
    fail "groups: header '$(screen k | head -1)'"; fi
# At 120 columns a step's words wrap onto the lines they need, never cut.
T k send-keys -t k ' '
wait_for k 'PAUSED' 5 || fail "groups: no pause"
told=0; cut=0
step_line() { screen "$1" | grep -E '^t = [0-9.]+ [mu]*s: ' | head -1; }
last=$(step_line k)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    T k send-keys -t k 's'
    last=$(wait_change k step_line "$last")
    msg=$(screen k | sed -n '/^t = [0-9.]* [mu]*s: /,/^\(Bus\|N = \|Run with\)/p' | grep -v '^\(Bus\|N = \|Run with\)')
    [ -n "$msg" ] && told=$((told + 1))
    echo "$msg" | grep -q '\.\.\.$' && cut=$((cut + 1))
done
[ "$told" -eq 12 ] && [ "$cut" -eq 0 ] && ok "120 columns: 12 steps told, none cut" ||
    { fail "120 columns: $told steps told, $cut cut"; screen k; }
T k send-keys -t k ' '
T k resize-window -t k -x 80 -y 24
if wait_for k '^ 10base5 10 Mb/s bus 500 m │ rogue 1, good\* [0-9]+ │ seed 1' 5; then ok "groups at 80x24: the short header"; else
    fail "groups at 80x24: header '$(screen k | head -1)'"; fi
T k send-keys -t k 'c'
GCSV="$WORK/groups/csmacd-sweep-10base5-512B-beb-2-groups-seed1.csv"
if wait_for k 'saved csmacd-sweep-10base5-512B-beb-2-groups-seed1\.csv' 5 &&
    head -1 "$GCSV" | grep -q ',seed,rogue\.stations,rogue\.policy,rogue\.throughput,rogue\.share,.*,good\.frames_dropped$'; then
    ok "groups: c saves each group's columns"; else fail "groups: CSV header '$(head -1 "$GCSV" 2>&1)'"; fi
T k send-keys -t k 'w'
if wait_for k 'saved csmacd-10base5-N[0-9]+-512B-beb-2-groups-seed1\.pcapng \(the whole run' 120; then
    ok "groups: w saves a pcapng trace"; else fail "groups: no trace saved"; screen k | tail -3; fi
T k send-keys -t k 'q'
restored k 0 "groups, q"
if command -v tshark >/dev/null 2>&1; then
    TR=$(ls "$WORK"/groups/*.pcapng | head -1)
    ts() { tshark -o gui.column.format:'"No.","%m"' "$@" 2>/dev/null; }
    eth=$(ts -r "$TR" -Y 'eth.type == 0x88b5 && frame.len == 512' | wc -l)
    all=$(ts -r "$TR" | wc -l)
    named=$(ts -r "$TR" -Y 'frame.comment contains ", group rogue" || frame.comment contains ", group good"' | wc -l)
    [ "$eth" -gt 10 ] && ok "groups: a plain tshark decodes the trace's $eth frames" || fail "groups: plain tshark decodes $eth frames"
    [ "$named" -eq "$all" ] && ok "groups: every record names its group" || fail "groups: $named of $all records name a group"
    LUA="$(dirname "$0")/../../captures/csmacd.lua"
    frags=$(ts -X lua_script:"$LUA" -r "$TR" -Y 'csmacd.fragment' | wc -l)
    gfrags=$(ts -X lua_script:"$LUA" -r "$TR" -Y 'csmacd.fragment && csmacd.group' | wc -l)
    [ "$frags" -gt 0 ] && [ "$gfrags" -eq "$frags" ] && ok "groups: csmacd.group on all $frags fragments" ||
        fail "groups: csmacd.group on $gfrags of $frags fragments"
else
    echo "note: tshark not installed, the trace's decoding is not checked"
fi

# ------------------------------------------------- w at 500 fixed-retry stations
# The trace is written in steps: the screen keeps redrawing (the clock
# moves) while the status line says how far it is; q then ends the program
# at once, and no trace nor temporary is left.
mkdir "$WORK/storm"
start g 120 40 tui --policy fixed --stations 500 --speed max --save-dir "$WORK/storm"
wait_for g 'Throughput S' 20 || fail "500 stations: no screen"
wait_time g 0.01 || fail "500 stations: the clock did not reach 10 ms"
T g send-keys -t g 'w'
if wait_for g 'writing the trace of t = 0\.000 s to [0-9.]+ s \(about [0-9.]+ [kM]B\): Esc cancels|writing the trace of t = .*: [0-9]+% \(Esc cancels\)' 10; then
    ok "w at 500 stations: the save says its span, its size and Esc"; else fail "w at 500 stations: no progress"; screen g; fi
t1=$(sim_time g); t2=$(wait_change g sim_time "$t1")
[ -n "$t1" ] && [ "$t1" != "$t2" ] && ok "w at 500 stations: the screen keeps redrawing ($t1 -> $t2)" ||
    fail "w at 500 stations: the screen froze ($t1 -> $t2)"
check g 'writing the trace of t = ' "w at 500 stations: still writing"
T g send-keys -t g 'q'
restored g 0 "q while a trace is written"
[ -z "$(ls -A "$WORK/storm")" ] && ok "q while a trace is written: nothing left" || { fail "partial files left"; ls -la "$WORK/storm"; }

# ------------------------------------------------- no note before the evidence
# Three stations in slow motion: after a few frames there is no evidence of
# any effect, and the screen names none.
start h 200 60 tui --stations 3 --speed 1ms --seed 1
wait_for h 'Throughput S' 20 || fail "3 stations: no screen"
wait_time h 0.002 || fail "3 stations: the clock did not reach 2 ms"
screen h | grep -q 'Capture effect' && { fail "3 stations at 1 ms/s: a capture note after a few frames"; screen h; } ||
    ok "3 stations at 1 ms/s: no capture note on a few frames"
T h send-keys -t h 'q'
restored h 0 "3 stations, q"

# ---------------------------------------------------------------- signals
start c 80 24 tui --seed 2
wait_for c 'Throughput S' 20 || fail "SIGTERM: no screen"
kill -TERM "$(cat "$WORK/c.pid")"
restored c 143 "SIGTERM"

start d 80 24 tui --seed 3
wait_for d 'Throughput S' 20 || fail "Ctrl-C: no screen"
T d send-keys -t d C-c
restored d 130 "Ctrl-C"

# An assertion or a crash (SIGABRT here) still puts the terminal back.
start f 80 24 tui --seed 4
wait_for f 'Throughput S' 20 || fail "SIGABRT: no screen"
kill -ABRT "$(cat "$WORK/f.pid")"
restored f 134 "SIGABRT (a failed assertion)"

# Signals at random moments: SIGINT and SIGTERM alternately after
# a delay drawn from a fixed seed, 0 to 3 s, so some arrive while the
# program starts (before or while curses takes the terminal) and some
# while it runs. Every time: the status of that signal, the terminal back.
RANDOM=2026
for i in 1 2 3 4 5 6; do
    sig=$([ $((i % 2)) = 1 ] && echo INT || echo TERM)
    want=$([ "$sig" = INT ] && echo 130 || echo 143)
    delay=$(printf '%d.%02d' $((RANDOM % 3)) $((RANDOM % 100)))
    start "r$i" 80 24 tui --seed "$i"
    for ((k = 0; k < SLACK * 10; k++)); do [ -s "$WORK/r$i.pid" ] && break; sleep 0.1; done
    sleep "$delay"
    kill -"$sig" "$(cat "$WORK/r$i.pid")"
    restored "r$i" "$want" "SIG$sig after ${delay} s"
done

# ------------------------------------------------- a network of segments
# --scenario with [segment] sections: one line per segment, named, with
# its joints labelled; annex's one station never sends, so a signal on
# annex's cable is a relay of r1 (a frame or a jam from the backbone).
# Each station row names its segment; + grows the chosen group (pcs).
cat > "$WORK/net.ini" <<'INI'
phy = 10base5
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
stations = 2
segment = lab
[group servers]
stations = 4
segment = backbone
[group annexed]
stations = 1
segment = annex
traffic = none
INI
for size in "80 24" "160 50"; do
    set -- $size
    s="net$1"
    start "$s" "$1" "$2" tui --scenario net.ini --grow pcs --stations 2 --speed 10us --seed 1
    wait_for "$s" 'Network \(3 segments\): signals at t = ' 20 &&
        ok "$1x$2 network: the title" || { fail "$1x$2 network: no title"; screen "$s"; }
    check "$s" '^backbone +[SJbdi]' "$1x$2 network: backbone's line with its stations"
    check "$s" '^coax 500 m ' "$1x$2 network: backbone is 500 m of coax"
    check "$s" '^lab ' "$1x$2 network: lab's line"
    check "$s" '^hub 100 m ' "$1x$2 network: lab is a hub"
    check "$s" '^annex ' "$1x$2 network: annex's line"
    check "$s" 'r1→annex' "$1x$2 network: r1's joint on backbone, labelled"
    check "$s" 'uplink→lab' "$1x$2 network: lab's uplink on backbone, labelled"
    check "$s" 'r1→backbone' "$1x$2 network: r1's joint on annex, labelled"
    check "$s" ' lab +(SEND|JAM|backoff|defer|idle)' "$1x$2 network: a station row names its segment"
    # a signal on annex's cable: r1 relaying (annex's station never sends)
    if wait_for "$s" '^coax 300 m ┼?[─┼]*[━▒╳]' 30; then ok "$1x$2 network: a relay on annex"; else
        fail "$1x$2 network: no relay seen on annex"; screen "$s"; fi
    T "$s" send-keys -t "$s" '+'
    wait_for "$s" 'Stations \(N = 8\)' 10 && ok "$1x$2 network: + grows pcs (N = 8)" ||
        { fail "$1x$2 network: + did not grow pcs"; screen "$s"; }
    if [ "$1" = 160 ]; then
        check "$s" "Channel at backbone's probe" "$1x$2 network: the strip at backbone's probe"
        check "$s" '10base5 10 Mb/s network of 3 segments' "$1x$2 network: the header says network"
        # a step told in words across the segments (arrivals along the
        # path, carrier from a repeater): a station or a repeater named
        # (a hub's uplink by its hub)
        T "$s" send-keys -t "$s" 's'
        wait_for "$s" "t = [0-9.]+ [mµu]?s: .*(station [0-9]+|repeater [a-z0-9]+|[a-z0-9]+'s uplink)" 10 &&
            ok "$1x$2 network: s tells the step in words" ||
            { fail "$1x$2 network: no step told"; screen "$s"; }
        T "$s" send-keys -t "$s" 's'
        T "$s" send-keys -t "$s" 's'
        check "$s" 'Network \(3 segments\)' "$1x$2 network: still drawn after steps"
    fi
    if [ "$1" = 80 ]; then
        # t refuses a network of the scenario's own, and says why
        T "$s" send-keys -t "$s" 't'
        wait_for "$s" 'this scenario has its own network \(\[segment\] sections\)' 5 &&
            ok "$1x$2 network: t refused, with the reason" || { fail "$1x$2 network: t not refused"; screen "$s"; }
        check "$s" 'Network \(([0-9] of )?3 segments' "$1x$2 network: still the scenario's network after t"
    fi
    T "$s" send-keys -t "$s" 'q'
    restored "$s" 0 "$1x$2 network, q"
done

# ------------------------------------------------- t: hub, switch, and back
# A running hub demo (8 saturated stations, 10BASE-T, full speed): t puts
# the same stations on a switch in half duplex (the header says so, the
# plot turns to throughput over time with the swap marked, collisions go
# on: a station and its port share a link), t again in full duplex (the
# run's collision counter stays at 0 while the goodput passes one link, in
# links and Mb/s), t again back to the hub (collisions per frame again).
# At 120x40 the status has the run's line; at 80x24 the 8 links fit.
collisions_now() { screen "$1" | grep -Eo 'collisions [0-9.]+k?( \(| in)' | grep -Eo '[0-9.]+k?' | head -1; }
for size in "120 40" "80 24"; do
    set -- $size
    s="sw$1"
    start "$s" "$1" "$2" tui --phy 10baseT --stations 8 --seed 1
    wait_for "$s" 'star hub, 100 m drops' 20 && ok "$1x$2 swap: a hub first" || { fail "$1x$2 swap: no hub"; screen "$s"; }
    wait_time "$s" 0.5 || fail "$1x$2 swap: the hub's clock did not reach 0.5 s"
    T "$s" send-keys -t "$s" 't'
    if wait_for "$s" 'switch, 8 links half duplex' 10 && wait_for "$s" 'Throughput (over|vs) time' 5 &&
        wait_for "$s" '┊switch' 5; then ok "$1x$2 swap: t puts the stations on a switch, the swap marked"; else
        fail "$1x$2 swap: no switch after t"; screen "$s"; fi
    check "$s" '8 collision domains A\.\.H' "$1x$2 swap: the collision domains named"
    check "$s" '^A link1 +[SJbdi]' "$1x$2 swap: link1 in domain A, its station on it"
    check "$s" '▣' "$1x$2 swap: the switch's ports drawn as boxes"
    if [ "$1" = 120 ]; then
        check "$s" 'Run with N = 8: goodput [0-9.]+ links = [0-9.]+ Mb/s; collisions' \
            "$1x$2 swap: goodput in links and Mb/s, collisions"
        c1=$(wait_change "$s" collisions_now ""); c2=$(wait_change "$s" collisions_now "$c1")
        [ -n "$c1" ] && [ "$c1" != "$c2" ] && ok "$1x$2 swap: half duplex still collides ($c1 -> $c2)" ||
            { fail "$1x$2 swap: half-duplex collisions $c1 -> $c2"; screen "$s"; }
    fi
    T "$s" send-keys -t "$s" 't'
    if wait_for "$s" 'switch, 8 links full duplex' 10 && wait_for "$s" '┊full dx' 5; then
        ok "$1x$2 swap: t again: full duplex, marked"; else fail "$1x$2 swap: no full duplex"; screen "$s"; fi
    if [ "$1" = 120 ]; then
        # The run's clock moves on twice (the screen redrawn each time) and
        # the collision counter stays at 0.
        c1=$(collisions_now "$s"); t1=$(sim_time "$s")
        t2=$(wait_change "$s" sim_time "$t1"); t3=$(wait_change "$s" sim_time "$t2")
        c2=$(collisions_now "$s")
        [ "$c1" = 0 ] && [ "$c2" = 0 ] && ok "$1x$2 swap: full duplex: collisions stay at 0" ||
            { fail "$1x$2 swap: full-duplex collisions $c1 -> $c2"; screen "$s"; }
        g=$(screen "$s" | grep -Eo 'goodput [0-9.]+ links' | grep -Eo '[0-9.]+' | head -1)
        awk -v g="$g" 'BEGIN { exit !(g > 1.5) }' && ok "$1x$2 swap: goodput past one link ($g links)" ||
            { fail "$1x$2 swap: goodput $g"; screen "$s"; }
    fi
    # the time view's own line: now, in links and Mb/s, no collisions
    if wait_for "$s" 'Now: N = 8 on a switch, full duplex(,|:) (throughput )?[2-9]\.[0-9]+ links = [0-9.]+ Mb/s, 0\.00 coll' 15; then
        ok "$1x$2 swap: now past one link, 0 collisions"; else fail "$1x$2 swap: no 'Now' line"; screen "$s"; fi
    T "$s" send-keys -t "$s" 't'
    if wait_for "$s" 'star hub, 100 m drops' 10 && wait_for "$s" '┊hub' 5; then
        ok "$1x$2 swap: t a third time: the hub again, marked"; else fail "$1x$2 swap: no hub again"; screen "$s"; fi
    if wait_for "$s" 'Now: N = 8 on a hub.* 0\.[0-9]+ links = [0-9.]+ Mb/s, 0\.[0-9]*[1-9][0-9]* coll' 15; then
        ok "$1x$2 swap: the hub collides again, under one link"; else fail "$1x$2 swap: hub line"; screen "$s"; fi
    if [ "$1" = 80 ]; then
        T "$s" send-keys -t "$s" '?'
        wait_for "$s" 'swap: hub \(or bus\) -> switch half -> full duplex' 5 &&
            ok "$1x$2 swap: the help lists t" || { fail "$1x$2 swap: t not in the help"; screen "$s"; }
        check "$s" 'q +quit' "$1x$2 swap: the help still lists every key"
        T "$s" send-keys -t "$s" Escape
    fi
    T "$s" send-keys -t "$s" 'q'
    restored "$s" 0 "$1x$2 swap, q"
done

# A preset's network opens in the TUI (its first point): two departments,
# the four hubs drawn, the two east hubs told apart in the station table.
start p 80 24 tui --preset two-departments
if wait_for p 'network of 4 segments' 20 && wait_for p '^A east-r ' && wait_for p ' eas~r '; then
    ok "tui --preset two-departments: its network at 80x24"; else
    fail "tui --preset two-departments"; screen p; fi
T p send-keys -t p 'q'
restored p 0 "tui --preset, q"

# csmacd alone on a terminal is the TUI.
start e 80 24
wait_for e 'Throughput S' 20 && ok "csmacd alone starts the TUI" || { fail "csmacd alone"; screen e; }
T e send-keys -t e 'q'
restored e 0 "csmacd alone, q"

if [ "$FAILS" -ne 0 ]; then
    echo "$FAILS check(s) failed"
    exit 1
fi
echo "all checks passed"
