#!/bin/sh
# test_tshark.sh - pins what Wireshark makes of csmacd's traces.
#
# Usage: test_tshark.sh CSMACD LUA WORKDIR
#
# Pins, on `csmacd run --pcap` traces checked against the same run's
# --events log: tshark reads the trace with no error; with the dissector
# (captures/csmacd.lua) no Lua error, one record per transmission that
# ended (tx_end lines), Wireshark's FCS check good on every whole frame,
# csmacd.fragment on exactly the collided attempts
# (jam lines), which a plain `frame.len < 64` finds too; the filter
# `csmacd.attempt > 1 && !csmacd.fragment` returns exactly the frames that
# got through after colliding (tx_ok lines with attempt > 1), with their
# station, frame number and last backoff draw; a one-line Info summary and
# the expert item on fragments; the I/O graph statistics of the README run;
# late-collision fragments (64 octets or more) still marked; --pcap-collisions
# no leaves only whole frames; --pcap-linktype
# netanalyzer has Wireshark flag the fragments (FCS error, short frame)
# without the plugin and check every frame's FCS; the same seed gives a
# byte-identical trace; a run stopped by SIGINT leaves a readable trace;
# captures/lan-small.pcap replayed decodes to the same protocols and Info
# lines as the original, with good FCSs. Exit 77 (skipped) when tshark is not installed.
# Does not pin the frames' octets (test_pcap_run.c reads them back).
set -eu
CSMACD=$1
LUA=$2
W=$3
if ! command -v tshark >/dev/null 2>&1; then
    echo "tshark is not installed: skipped"
    exit 77
fi
rm -rf "$W"
mkdir -p "$W"
cd "$W"
# tshark warns on standard error when run as root; nothing else may appear.
TS() { tshark "$@" 2>ts.err; grep -v 'Running as user "root"' ts.err >ts.err2 || true; if [ -s ts.err2 ]; then echo "tshark $*: unexpected messages:"; cat ts.err2; exit 1; fi; }
LX="-X lua_script:$LUA"
fail() { echo "FAIL: $*"; exit 1; }
count() { TS $LX -r t.pcap -Y "$1" | wc -l; }

"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap t.pcap --events ev.csv >run.txt

# 1. Plain tshark opens it.
TS -r t.pcap >plain.txt
records=$(wc -l <plain.txt)
tx_end=$(grep -c ',tx_end,' ev.csv)
jams=$(grep -c ',jam,' ev.csv)
[ "$records" -eq "$tx_end" ] || fail "records $records, tx_end events $tx_end"
[ "$jams" -gt 10 ] || fail "the run had only $jams collided attempts"

# 2. With the dissector: fragments are the collided attempts.
[ "$(count 'csmacd.fragment')" -eq "$jams" ] || fail "csmacd.fragment != $jams"
[ "$(count 'frame.len < 64')" -eq "$jams" ] || fail "frame.len < 64 != $jams"
[ "$(count '!csmacd.fragment && csmacd.station')" -eq $((records - jams)) ] ||
    fail "whole frames decoded != $((records - jams))"

# Wireshark's own FCS check passes on every whole frame.
good=$(TS -o eth.fcs:Always -o eth.check_fcs:TRUE -r t.pcap -Y 'eth.fcs.status == 1' | wc -l)
[ "$good" -eq $((records - jams)) ] || fail "good FCS on $good of $((records - jams)) frames"

# 3. csmacd.attempt > 1 on whole frames == frames sent OK after colliding,
#    with station, frame number and the last backoff drawn for the frame.
awk -F, 'NR > 1 && $3 == "backoff" { slots[$6] = $5 }
         NR > 1 && $3 == "tx_ok" && $4 > 1 {
             n = $6 - int($6 / 1099511627776) * 1099511627776
             printf "%d %d %d %d\n", $2, n, $4, slots[$6] }' ev.csv | sort >want.txt
TS $LX -r t.pcap -Y 'csmacd.attempt > 1 && !csmacd.fragment' -T fields \
    -e csmacd.station -e csmacd.frame -e csmacd.attempt -e csmacd.backoff_slots |
    tr '\t' ' ' | sort >got.txt
[ -s want.txt ] || fail "no frame got through after a collision"
cmp -s want.txt got.txt || { diff want.txt got.txt | head; fail "attempt > 1 differs"; }
# Fragments of retries that still carry their attempt field are the rest.
more=$(count 'csmacd.attempt > 1')
[ "$more" -ge "$(wc -l <want.txt)" ] || fail "csmacd.attempt > 1 lost frames"
[ "$more" -eq $(($(wc -l <want.txt) + $(count 'csmacd.attempt > 1 && csmacd.fragment'))) ] ||
    fail "csmacd.attempt > 1 is neither a whole frame nor a fragment"

# 4. Info column and expert item.
TS $LX -r t.pcap -Y '!csmacd.fragment' >whole.txt
head -n 1 whole.txt >first.txt
grep -q 'CSMACD .*Station [0-9]* frame [0-9]*, attempt [0-9]*' first.txt ||
    fail "no Info summary: $(cat first.txt)"
TS $LX -r t.pcap -Y 'csmacd.fragment' -V >frag.txt
[ "$(grep -c 'Expert Info (Warning/Sequence): Collision fragment' frag.txt)" -eq "$jams" ] ||
    fail "expert items != $jams"
TS $LX -r t.pcap -Y 'csmacd.fragment' >frag1.txt
[ "$(grep -c 'Collision fragment, [0-9]* octets' frag1.txt)" -eq "$jams" ] ||
    fail "fragment Info lines != $jams"

# 5. The README's I/O graph numbers: one row per millisecond.
TS -r t.pcap -q -z io,stat,0.001,'SUM(frame.len)frame.len && frame.len >= 64','COUNT(frame)frame.len < 64' >io.txt
[ "$(grep -c '<>' io.txt)" -ge 20 ] || fail "io,stat gave $(grep -c '<>' io.txt) rows"

# 6. Frames only.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap f.pcap --pcap-collisions no >/dev/null
[ "$(TS -r f.pcap | wc -l)" -eq $((records - jams)) ] || fail "--pcap-collisions no"
[ "$(TS -r f.pcap -Y 'frame.len < 64' | wc -l)" -eq 0 ] || fail "fragments in f.pcap"

# 6b. Late collisions (8 km of coax, far beyond the 2500 m allowed) leave
#     fragments of 64 octets or more: the dissector still marks them, by
#     their jam and their bad FCS.
"$CSMACD" run --length 8000 --frame-size 200 --duration 50ms --seed 3 \
    --pcap late.pcap --events late.csv >/dev/null 2>late.err
late_jams=$(grep -c ',jam,' late.csv)
[ "$(TS $LX -r late.pcap -Y 'csmacd.fragment' | wc -l)" -eq "$late_jams" ] ||
    fail "late: csmacd.fragment != $late_jams"
[ "$(TS $LX -r late.pcap -Y 'csmacd.fragment && frame.len >= 64' | wc -l)" -gt 0 ] ||
    fail "late: no fragment of 64 octets or more"

# 7. The netANALYZER link type: Wireshark flags the fragments itself.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap na.pcap --pcap-linktype netanalyzer >/dev/null
[ "$(TS -r na.pcap | wc -l)" -eq "$records" ] || fail "netanalyzer record count"
for f in netanalyzer.packetstatus.fcs_error netanalyzer.packetstatus.short_frame; do
    [ "$(TS -r na.pcap -Y "$f" | wc -l)" -eq "$jams" ] || fail "$f != $jams"
done
[ "$(TS -o eth.check_fcs:TRUE -r na.pcap -Y 'eth.fcs.status == 1' | wc -l)" -eq $((records - jams)) ] ||
    fail "netanalyzer: FCS not good on every whole frame"
[ "$(TS $LX -r na.pcap -Y 'csmacd.fragment' | wc -l)" -eq "$jams" ] ||
    fail "netanalyzer: csmacd.fragment != $jams"

# 8. Determinism.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap t2.pcap >/dev/null
cmp t.pcap t2.pcap || fail "same seed, different traces"
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 8 --pcap t3.pcap >/dev/null
if cmp -s t.pcap t3.pcap; then fail "another seed, same trace"; fi
# 9. An interrupted run (SIGINT) still leaves a whole, readable trace and
#    no temporary file.
rc=0
timeout --preserve-status -s INT 0.3 "$CSMACD" run --stations 4 --frame-size 1518 \
    --duration 1h --pcap int.pcap >/dev/null 2>int.err || rc=$?
[ "$rc" -eq 130 ] || fail "interrupted run: exit status $rc, not 130"
grep -q 'interrupted at' int.err || fail "interrupted run: $(cat int.err)"
# capinfos (beside tshark) reads every record header, much faster than a
# dissection of the tens of megabytes written in 0.3 s.
int_records=$(capinfos -M -c int.pcap 2>ts.err | sed -n 's/^Number of packets: *//p')
[ -s ts.err ] && fail "capinfos: $(cat ts.err)"
int_records=${int_records:-0}
[ "$int_records" -gt 100 ] || fail "interrupted run: $int_records records"
if ls -A | grep -q "\.tmp$"; then fail "temporary file left behind"; fi
rm -f int.pcap
# 10. A replayed capture: the same protocols and Info lines as the input,
#     every FCS good (the input has none; the trace adds them).
lan="$(dirname "$LUA")/lan-small.pcap"
"$CSMACD" run --traffic pcap:"$lan" --duration 50ms --pcap lan.pcap >/dev/null
TS -r "$lan" -T fields -e frame.protocols -e _ws.col.Info >lan-in.txt
TS -o eth.fcs:Always -r lan.pcap -T fields -e frame.protocols -e _ws.col.Info >lan-out.txt
cmp -s lan-in.txt lan-out.txt || { diff lan-in.txt lan-out.txt | head; fail "replay changed the frames"; }
[ "$(TS -o eth.fcs:Always -o eth.check_fcs:TRUE -r lan.pcap -Y 'eth.fcs.status == 1' | wc -l)" -eq 17 ] ||
    fail "replay: FCS not good on all 17 frames"

echo "ok: $records records, $jams fragments, $(wc -l <want.txt) frames after collisions"
