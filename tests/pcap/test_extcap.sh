#!/bin/sh
# test_extcap.sh - pins csmacd as a Wireshark capture interface (extcap).
#
# Usage: test_extcap.sh CSMACD WORKDIR
#
# Pins, with HOME set to a scratch folder: `csmacd extcap --install-user`
# links the program into ~/.config/wireshark/extcap and writes the
# dissector into ~/.local/lib/wireshark/plugins; then `tshark -D` lists
# csmacd; `tshark -i csmacd -a duration:2` captures whole frames (Ethernet
# interface) and collision fragments (netANALYZER transparent), never
# Malformed, paced (about 2 s of simulated time) and ends the extcap (no
# csmacd left running); a plain tshark there decodes csmacd.fragment
# without -X (the plugin loaded); an option set for the interface
# (-o extcap.csmacd.stations:3) reaches the run, and a preset's scenario
# too, and every preset (one point of it, network included) from the
# dialog and directly; every field of the dialog is an option of `csmacd run --help`, each
# with its help as tooltip; the probe segment chosen for a scenario of
# segments keeps that segment's records only; a wrong interface is exit 2; a capture stopped
# by SIGTERM ends with status 0 and a complete trace. Exit 77 (skipped)
# when tshark is not installed.
set -eu
CSMACD=$1
W=$2
if ! command -v tshark >/dev/null 2>&1; then
    echo "tshark is not installed: skipped"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$W"
mkdir -p "$W/home"
cd "$W"
# HOME the scratch W/home, tshark blind to an installed csmacd.
. "$here/tshark_isolate.sh"
fail() { echo "FAIL: $*"; exit 1; }
TS() { tshark "$@" 2>ts.err; grep -v 'Running as user "root"' ts.err | grep -v 'Main MESSAGE' | grep -v '^tshark: $' | grep -v 'packets captured' | grep -v '^Capturing on' >ts.err2 || true; if [ -s ts.err2 ]; then echo "tshark $*: unexpected messages:"; cat ts.err2; exit 1; fi; }

in_view "$CSMACD" extcap --install-user >install.txt
[ -L "$HOME/.config/wireshark/extcap/csmacd" ] || fail "no extcap link"
[ -s "$HOME/.local/lib/wireshark/plugins/csmacd.lua" ] || fail "no dissector"
TS -D >ifaces.txt
grep -q 'csmacd (csmacd: simulated half-duplex Ethernet' ifaces.txt || fail "tshark -D: $(cat ifaces.txt)"

# A two-second capture: frames and fragments, paced, the extcap gone after.
TS -i csmacd -a duration:2 -w cap.pcapng
frames=$(tshark -r cap.pcapng -Y 'frame.interface_id == 0 && eth.type == 0x88b5' 2>/dev/null | wc -l)
frags=$(tshark -r cap.pcapng -Y 'frame.interface_id == 1' 2>/dev/null | wc -l)
[ "$frames" -gt 100 ] || fail "only $frames whole frames"
[ "$frags" -gt 10 ] || fail "only $frags fragments"
tshark -r cap.pcapng -V 2>/dev/null | grep -q Malformed && fail "Malformed in the capture"
last=$(tshark -r cap.pcapng -T fields -e frame.time_relative 2>/dev/null | tail -n 1)
awk -v t="$last" 'BEGIN { exit !(t > 1.0 && t < 3.5) }' || fail "not paced: last record at $last s"
capinfos cap.pcapng | grep -q 'duration until stopped' || fail "section comment"
sleep 0.5
# Wireshark runs the extcap by its link's path, which is this test's own.
if pgrep -f "^$HOME/.config/wireshark/extcap/csmacd " >/dev/null; then
    fail "the extcap still runs after the capture"
fi
# The dissector loads from the plugins folder: no -X.
[ "$(tshark -r cap.pcapng -Y csmacd.fragment 2>/dev/null | wc -l)" -eq "$frags" ] ||
    fail "the plain tshark did not load the dissector"

# Options and presets reach the run.
TS -i csmacd -o extcap.csmacd.stations:3 -a duration:1 -w three.pcapng
capinfos three.pcapng | grep -q 'scenario: 10base5, 3 stations' || fail "--stations 3 not applied"
[ "$(tshark -r three.pcapng -Y 'frame.comment contains "station 4,"' 2>/dev/null | wc -l)" -eq 0 ] ||
    fail "a fourth station with --stations 3"
TS -i csmacd -o extcap.csmacd.preset:capture -a duration:1 -w preset.pcapng
capinfos preset.pcapng | grep -q 'bus of 25 m' || fail "the preset's scenario not applied"
# A preset of segments from the dialog: its network, each segment's interfaces.
TS -i csmacd -o extcap.csmacd.preset:two-departments -a duration:1 -w td.pcapng
capinfos td.pcapng | grep -q 'network of 4 segments, 1 repeater and 1 bridge' ||
    fail "two-departments: $(capinfos td.pcapng | grep -i comment)"
tshark -r td.pcapng -T fields -e frame.interface_name 2>/dev/null | sort -u >td.ifaces
grep -q '^east-r-frames$' td.ifaces || fail "two-departments: no east-r records"
# Every preset, directly: one point of it, its trace complete (stopped by
# SIGTERM as Wireshark stops a capture, once the trace has begun).
for p in $("$CSMACD" presets | awk '{ print $1 }'); do
    rm -f "p-$p.pcapng" pf
    mkfifo pf
    cat pf >"p-$p.pcapng" &
    cat_pid=$!
    "$CSMACD" --capture --extcap-interface csmacd --fifo pf --preset "$p" --pace 0.01 \
        2>"p-$p.err" &
    pid=$!
    i=0
    while [ "$(stat -c %s "p-$p.pcapng" 2>/dev/null || echo 0)" -lt 200 ] && kill -0 $pid 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 600 ] || { kill -TERM $pid; fail "preset $p: no trace after 60 s"; }
        sleep 0.1
    done
    kill -TERM $pid 2>/dev/null || true
    rc=0
    wait $pid || rc=$?
    wait $cat_pid
    [ "$rc" -eq 0 ] || fail "preset $p: exit $rc ($(cat "p-$p.err"))"
    if grep -v "^csmacd: preset $p: one point, the first of its sweep" "p-$p.err" | grep -q .; then
        fail "preset $p: $(cat "p-$p.err")"
    fi
    capinfos "p-$p.pcapng" >/dev/null 2>&1 || fail "preset $p: not a whole trace"
done

# The dialog comes from run's option tables.
"$CSMACD" --extcap-config --extcap-interface csmacd >config.txt
"$CSMACD" run --help >run-help.txt
n=0
for call in $(sed -n 's/^arg {number=[0-9]*}{call=\(--[a-z-]*\)}.*/\1/p' config.txt); do
    n=$((n + 1))
    [ "$call" = --preset ] && continue
    grep -q -- "^  $call " run-help.txt || fail "dialog field $call is not a run option"
    help=$(grep -- "^  $call " run-help.txt | sed 's/^  --[a-z-]* [^ ]* *//' | head -n 1)
    grep -qF "{call=$call}" config.txt && grep -F "{call=$call}" config.txt | grep -qF "{tooltip=$help" ||
        fail "dialog field $call: tooltip is not the option's help"
done
[ "$n" -eq 11 ] || fail "the dialog has $n fields, not 11"

# A network's segment, chosen in the dialog: only its probe's records.
# (Wireshark names an option's preference after its call without the
# dashes: --probe-segment is extcap.csmacd.probesegment.)
printf '[segment west]\ntype = coax\nlength = 100\n[segment east]\ntype = coax\nlength = 100\n[repeater r]\nports = west@100, east@0\n[group a]\nstations = 2\nsegment = west\n[group b]\nstations = 2\nsegment = east\n' >net.ini
TS -i csmacd -o "extcap.csmacd.scenario:$PWD/net.ini" -o extcap.csmacd.probesegment:east \
    -a duration:1 -w seg.pcapng
tshark -r seg.pcapng -T fields -e frame.interface_name 2>/dev/null | sort -u >seg.ifaces
[ -s seg.ifaces ] || fail "probe segment east: no records"
if grep -qv '^east-' seg.ifaces; then fail "probe segment east: records of $(cat seg.ifaces)"; fi

# Bad input, and a stop by SIGTERM.
rc=0
"$CSMACD" --extcap-dlts --extcap-interface eth0 2>bad.err || rc=$?
[ "$rc" -eq 2 ] || fail "wrong interface: exit $rc"
mkfifo f
cat f >fifo.pcapng &
cat_pid=$!
"$CSMACD" --capture --extcap-interface csmacd --fifo f 2>stop.err &
pid=$!
sleep 1
kill -TERM $pid
rc=0
wait $pid || rc=$?
wait $cat_pid
[ "$rc" -eq 0 ] || fail "stopped capture: exit $rc ($(cat stop.err))"
[ ! -s stop.err ] || fail "stopped capture: $(cat stop.err)"
[ "$(tshark -r fifo.pcapng 2>/dev/null | wc -l)" -gt 100 ] || fail "stopped capture: trace"
echo "extcap: ok ($frames frames, $frags fragments in 2 s)"
