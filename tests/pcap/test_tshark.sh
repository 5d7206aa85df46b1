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
# no leaves only whole frames; the default link type (netANALYZER
# transparent) reads with no Malformed Packet and no Error expert item in a
# plain tshark, fragments flagged by their status, while Ethernet does
# read Malformed; frame and collision numbers from 1; the epoch (as a date,
# as seconds, by default); csmacd replays its own traces in every link
# type; --pcap-linktype
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
. "$(dirname "$0")/tshark_lib.sh"
LX="-X lua_script:$LUA"
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
# The default link type (netANALYZER transparent): no plugin, yet no
# "Malformed Packet" and no Error expert item; every fragment flagged by
# the record's status (FCS error, shorter than 64 octets), no whole frame.
TS -r t.pcap -V -z expert >plainv.txt
if grep -q 'Malformed' plainv.txt; then fail "plain tshark: Malformed on the default link type"; fi
if grep -q '^Errors' plainv.txt; then fail "plain tshark: Error expert items on the default link type"; fi
[ "$(grep -c '^netANALYZER .*Status: FCS error, Frame smaller 64 bytes), Transparent Mode' plainv.txt)" -eq "$jams" ] ||
    fail "plain tshark: fragments flagged != $jams"
[ "$(grep -c '^netANALYZER .*Status: No Error), Transparent Mode' plainv.txt)" -eq $((records - jams)) ] ||
    fail "plain tshark: whole frames without error != $((records - jams))"
for f in netanalyzer.packetstatus.fcs_error netanalyzer.packetstatus.short_frame; do
    [ "$(TS -r t.pcap -Y "$f == 1" | wc -l)" -eq "$jams" ] || fail "default: $f != $jams"
done
# The same run in the Ethernet link type does read Malformed (the reason
# for the default): a fragment of the jam alone is shorter than a header.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap eth.pcap --pcap-linktype ethernet >/dev/null
TS -r eth.pcap -V >ethv.txt
grep -q 'Malformed' ethv.txt || fail "ethernet: no Malformed: the default's reason is gone"

# 2. With the dissector: fragments are the collided attempts.
[ "$(count 'csmacd.fragment')" -eq "$jams" ] || fail "csmacd.fragment != $jams"
[ "$(TS -r eth.pcap -Y 'frame.len < 64' | wc -l)" -eq "$jams" ] || fail "ethernet: frame.len < 64 != $jams"
[ "$(count '!csmacd.fragment && csmacd.station')" -eq $((records - jams)) ] ||
    fail "whole frames decoded != $((records - jams))"

# Wireshark's own FCS check passes on every whole frame.
good=$(TS $LX -o eth.check_fcs:TRUE -r t.pcap -Y 'eth.fcs.status == 1' | wc -l)
[ "$good" -eq $((records - jams)) ] || fail "good FCS on $good of $((records - jams)) frames"

# 3. csmacd.attempt > 1 on whole frames == frames sent OK after colliding,
#    with station, frame number and the last backoff drawn for the frame.
#    The event log names a frame as the trace does: frame_station, frame.
awk -F, 'NR > 1 && $3 == "backoff" { slots[$6 "," $7] = $5 }
         NR > 1 && $3 == "tx_ok" && $4 > 1 {
             if ($6 != $2) { print "frame_station " $6 " on station " $2 "'"'"'s line"; exit 1 }
             printf "%d %d %d %d\n", $6, $7, $4, slots[$6 "," $7] }' ev.csv | sort >want.txt
TS $LX -r t.pcap -Y 'csmacd.attempt > 1 && !csmacd.fragment' -T fields \
    -e csmacd.station -e csmacd.frame -e csmacd.attempt -e csmacd.backoff_slots |
    tr '\t' ' ' | sort >got.txt
[ -s want.txt ] || fail "no frame got through after a collision"
same want.txt got.txt "attempt > 1 differs"
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
[ "$(grep -c 'Collision [0-9]*: fragment of [0-9]* octets' frag1.txt)" -eq "$jams" ] ||
    fail "fragment Info lines != $jams"
# Every fragment names its sender and attempt (from the jam): the same
# pairs as the event log's jam lines.
awk -F, 'NR > 1 && $3 == "jam" { print $2, $4 }' ev.csv | sort >jam-want.txt
TS $LX -r t.pcap -Y 'csmacd.fragment' -T fields -E occurrence=l -e csmacd.station \
    -e csmacd.attempt | tr '\t' ' ' | sort >jam-got.txt
same jam-want.txt jam-got.txt "fragments' station and attempt"
[ "$(grep -c 'Collision [0-9]*: fragment of [0-9]* octets from station [0-9]*, attempt [0-9]*$' frag1.txt)" -eq "$jams" ] ||
    fail "fragment Info lines without station and attempt"
# Frame numbers, as a person reads them, start at 1 (section 3 pins them
# against the event log's frame column): none is 0, and frames 1 got through.
[ "$(TS $LX -r t.pcap -Y 'csmacd.frame == 0' | wc -l)" -eq 0 ] || fail "a frame numbered 0"
[ "$(TS $LX -r t.pcap -Y 'csmacd.frame == 1 && !csmacd.fragment' | wc -l)" -ge 4 ] ||
    fail "too few stations' frame 1 got through"
# Collisions are numbered from 1; in this saturated run each collision
# (the jam events of one instant, at the probe) holds 2 or more fragments.
TS $LX -r t.pcap -Y 'csmacd.fragment' -T fields -e csmacd.collision >coll.txt
[ "$(head -n 1 coll.txt)" = 1 ] || fail "the first collision is not 1"
ncoll=$(sort -u coll.txt | wc -l)
[ "$ncoll" -ge 2 ] && [ "$ncoll" -lt "$jams" ] || fail "$ncoll collisions for $jams fragments"
[ "$(tail -n 1 coll.txt)" -eq "$ncoll" ] || fail "collisions not numbered 1..$ncoll"

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

# 6c. The epoch: the first record (station 1 at the probe, t = 0) is at the
#     option's instant, written as a date or as seconds; 2000-01-01 by default.
"$CSMACD" run --stations 1 --duration 1ms --pcap ep1.pcap --pcap-epoch 2026-01-01T00:00:00Z >/dev/null
"$CSMACD" run --stations 1 --duration 1ms --pcap ep2.pcap --pcap-epoch 1767225600 >/dev/null
"$CSMACD" run --stations 1 --duration 1ms --pcap ep3.pcap >/dev/null
[ "$(TS -r ep1.pcap -c 1 -T fields -e frame.time_epoch)" = 1767225600.000000000 ] ||
    fail "epoch: first record at $(TS -r ep1.pcap -c 1 -T fields -e frame.time_epoch)"
cmp -s ep1.pcap ep2.pcap || fail "epoch as a date and as seconds differ"
[ "$(TS -r ep3.pcap -c 1 -T fields -e frame.time_epoch)" = 946684800.000000000 ] ||
    fail "default epoch: first record at $(TS -r ep3.pcap -c 1 -T fields -e frame.time_epoch)"

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
#    The signal is sent once the trace's temporary file exists (the signal
#    handlers come first), then 0.3 s later: a fixed delay from the start
#    raced a slow start (sanitizers on a busy machine).
rc=0
"$CSMACD" run --stations 4 --frame-size 1518 --duration 1h --pcap int.pcap >/dev/null 2>int.err &
pid=$!
i=0
while ! ls -A | grep -q "\.tmp$"; do
    i=$((i + 1))
    [ "$i" -le 300 ] || { kill "$pid"; fail "interrupted run: no temporary file after 30 s"; }
    sleep 0.1
done
sleep 0.3
kill -INT "$pid"
wait "$pid" || rc=$?
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
"$CSMACD" run --traffic pcap:"$lan" --duration 50ms --pcap lan.pcap --pcap-linktype ethernet >/dev/null
TS -r "$lan" -T fields -e frame.protocols -e _ws.col.Info >lan-in.txt
TS -o eth.fcs:Always -r lan.pcap -T fields -e frame.protocols -e _ws.col.Info >lan-out.txt
same lan-in.txt lan-out.txt "replay changed the frames"
[ "$(TS -o eth.fcs:Always -o eth.check_fcs:TRUE -r lan.pcap -Y 'eth.fcs.status == 1' | wc -l)" -eq 17 ] ||
    fail "replay: FCS not good on all 17 frames"

# ... and with the dissector, the default link type decodes the same.
"$CSMACD" run --traffic pcap:"$lan" --duration 50ms --pcap lant.pcap >/dev/null
TS $LX -r lant.pcap -T fields -e frame.protocols -e _ws.col.Info |
    sed 's/^netanalyzer:eth:ethertype:/eth:ethertype:/; s/^netanalyzer:data:eth:ethertype:/eth:ethertype:/' >lan-tr.txt
cut -f2 lan-in.txt >lan-in-info.txt
cut -f2 lan-tr.txt >lan-tr-info.txt
same lan-in-info.txt lan-tr-info.txt "transparent replay: Info differs"
# 11. csmacd replays its own traces in every link type: the frames of a
#     trace written without fragments are the frames replayed.
for lt in netanalyzer-transparent netanalyzer ethernet; do
    "$CSMACD" run --stations 4 --traffic poisson --load 0.3 --duration 20ms --seed 5 \
        --pcap "own-$lt.pcap" --pcap-linktype "$lt" --pcap-collisions no >/dev/null
    n=$(TS -r "own-$lt.pcap" | wc -l)
    "$CSMACD" run --traffic pcap:"own-$lt.pcap" --duration 40ms --format json >"own-$lt.json"
    grep -q "\"frames_offered\": *$n," "own-$lt.json" || fail "replay of $lt: $n frames, $(grep frames_offered "own-$lt.json")"
done

echo "ok: $records records, $jams fragments, $(wc -l <want.txt) frames after collisions"
