#!/bin/sh
# test_pcapng.sh - pins what a plain Wireshark (no plugin) makes of
# csmacd's default trace, pcapng.
#
# Usage: test_pcapng.sh CSMACD LUA WORKDIR
#
# Pins, on a `csmacd run --pcap t.pcapng` trace checked against the same
# run's --events log: one record per transmission that ended; whole frames
# on interface 0 (Ethernet, every FCS good by Wireshark's own check) and
# exactly the collided attempts on interface 1 (netANALYZER transparent),
# each flagged CRC error and too short in its packet flags; no "Malformed"
# and no Error expert item anywhere; a comment on every record, which
# `frame.comment contains "attempt 3"` filters to exactly the tx_end lines
# of third attempts, "station 3," to station 3's, "retry" and "sent
# whole" to the frames that got through after colliding; late collisions
# marked "(late)"; the section names csmacd, its version, the scenario and
# the seed, the interfaces the probe, PHY and rate; nanosecond stamps; the
# same seed gives a byte-identical file, to a file or to standard output;
# --pcap - through a pipe to tshark, the measures on standard error;
# pacing (a paced run takes its wall time; an endless one is readable
# while it runs and complete after SIGTERM); a live pipe into a capture
# ends csmacd silently when the reader leaves; replay of csmacd's own
# traces offers exactly the frames sent whole and says what it skipped;
# --pcap-format pcap and a name
# ending in .pcap write classic pcap, --pcap-format pcapng overrides the
# name; the dissector (LUA) decodes the pcapng trace as the classic one:
# csmacd.fragment on exactly the collided attempts, the csmacd header on
# every whole frame, no Lua error. Exit 77 (skipped) when tshark is not installed.
set -eu
CSMACD=$1
LUA=$2
W=$3
. "$(dirname "$0")/tshark_lib.sh"
count() { TS -r "$1" -Y "$2" | wc -l; }

"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap t.pcapng --events ev.csv >run.txt

# 1. One record per transmission; frames and fragments on their interfaces.
records=$(TS -r t.pcapng | wc -l)
tx_end=$(grep -c ',tx_end,' ev.csv)
jams=$(grep -c ',jam,' ev.csv)
[ "$records" -eq "$tx_end" ] || fail "records $records, tx_end events $tx_end"
[ "$jams" -gt 10 ] || fail "the run had only $jams collided attempts"
[ "$(count t.pcapng 'frame.interface_id == 1')" -eq "$jams" ] || fail "interface 1 != $jams"
[ "$(count t.pcapng 'frame.interface_id == 0 && eth.type == 0x88b5')" -eq $((records - jams)) ] ||
    fail "Ethernet frames decoded != $((records - jams))"
[ "$(TS -r t.pcapng -o eth.check_fcs:TRUE -Y 'eth.fcs.status == 1' | wc -l)" -eq $((records - jams)) ] ||
    fail "good FCSs != $((records - jams))"
[ "$(count t.pcapng 'frame.packet_flags_crc_error == 1 && frame.packet_flags_packet_too_short_error == 1 && netanalyzer.packetstatus.fcs_error == 1')" -eq "$jams" ] ||
    fail "fragments flagged != $jams"
[ "$(count t.pcapng 'frame.packet_flags_crc_error == 1 && frame.interface_id == 0')" -eq 0 ] ||
    fail "a whole frame flagged in error"

# 2. No Malformed, no Error expert item, in a plain tshark.
TS -r t.pcapng -V -z expert >v.txt
if grep -q 'Malformed' v.txt; then fail "plain tshark: Malformed"; fi
if grep -q '^Errors' v.txt; then fail "plain tshark: Error expert items"; fi

# 2b. What the READMEs say a plain Wireshark shows is what it shows: the
# fragment's netANALYZER line, a whole frame's summary, its FCS unverified
# by default (Good once eth.check_fcs is on).
src=$(cd "$(dirname "$LUA")/.." && pwd)
TS -r t.pcapng >summary.txt
for doc in README.md captures/README.md; do
    tr -s ' \n' '  ' <"$src/$doc" >doc.txt
    grep -o '`netANALYZER (Port[^`]*`' doc.txt | tr -d '`' >said.txt
    [ -s said.txt ] || fail "$doc shows no fragment line"
    while IFS= read -r said; do
        grep -qF "$said" v.txt || fail "$doc says a fragment reads '$said'; tshark: $(grep -m1 -o 'netANALYZER (Port.*' v.txt)"
    done <said.txt
    grep -o '`02:00:00:00:00:0[0-9] → [^`]*`' doc.txt | tr -d '`' >said.txt
    while IFS= read -r said; do
        grep -qF "$said" summary.txt || fail "$doc says a frame reads '$said'"
    done <said.txt
done
tr -s ' \n' '  ' <"$src/README.md" | grep -q 'FCS shown `\[unverified\]`' ||
    fail "README.md does not say the FCS shows [unverified]"
grep -q 'Frame check sequence: 0x[0-9a-f]* \[unverified\]' v.txt || fail "the FCS is not [unverified]"

# 3. The comments: the MAC's story, filterable.
[ "$(count t.pcapng 'frame.comment')" -eq "$records" ] || fail "records without a comment"
a3=$(awk -F, '$3 == "tx_end" && $4 == 3' ev.csv | wc -l)
[ "$a3" -gt 0 ] || fail "no third attempt in the run"
[ "$(count t.pcapng 'frame.comment contains "attempt 3"')" -eq "$a3" ] ||
    fail "attempt 3 filter != $a3"
s3=$(awk -F, '$3 == "tx_end" && $2 == 3' ev.csv | wc -l)
[ "$(count t.pcapng 'frame.comment contains "station 3,"')" -eq "$s3" ] ||
    fail "station 3 filter != $s3"
retried_ok=$(awk -F, '$3 == "tx_ok" && $4 > 1' ev.csv | wc -l)
[ "$retried_ok" -gt 0 ] || fail "no retried frame got through"
[ "$(count t.pcapng 'frame.comment contains "(retry), sent whole"')" -eq "$retried_ok" ] ||
    fail "retried frames sent whole != $retried_ok"
[ "$(count t.pcapng 'frame.comment contains "collision" && frame.interface_id == 0')" -eq 0 ] ||
    fail "a whole frame's comment names a collision"
"$CSMACD" run --length 8000 --frame-size 200 --duration 50ms --seed 3 \
    --pcap late.pcapng >/dev/null 2>late.err
[ "$(count late.pcapng 'frame.comment contains "(late)" && frame.len >= 64 && frame.interface_id == 1')" -gt 0 ] ||
    fail "no late collision marked"

# 4. Section and interfaces; nanoseconds.
version=$("$CSMACD" --version | awk '{print $2}')
capinfos t.pcapng >cap.txt 2>&1 || fail "capinfos"
grep -q "Capture application: *csmacd $version\$" cap.txt || fail "application"
grep -q "seed 7" cap.txt || fail "no seed in the section comment"
grep -q "10base5, 8 stations" cap.txt || fail "no scenario in the section comment"
grep -q "Description = csmacd probe at 0 m on the bus, 10base5 at 10 Mb/s: frames" cap.txt ||
    fail "interface 0 description"
grep -q "Encapsulation = Hilscher netANALYZER-Transparent" cap.txt || fail "interface 1 type"
grep -q "Time precision = nanoseconds" cap.txt || fail "nanosecond stamps"
TS -r t.pcapng -c 3 -T fields -e frame.time_epoch >ts.txt
[ "$(sed -n 2p ts.txt)" = "946684800.000000309" ] || fail "second stamp $(sed -n 2p ts.txt)"

# 5. Reruns are byte-identical; the format follows the name or the option.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap t.pcapng --events ev.csv >/dev/null
cp t.pcapng t1.pcapng
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap t.pcapng --events ev.csv >/dev/null
cmp t.pcapng t1.pcapng || fail "rerun differs"
"$CSMACD" run --stations 2 --duration 1ms --pcap c.pcap >/dev/null
"$CSMACD" run --stations 2 --duration 1ms --pcap n.pcap --pcap-format pcapng >/dev/null
"$CSMACD" run --stations 2 --duration 1ms --pcap c2 --pcap-format pcap >/dev/null
"$CSMACD" run --stations 2 --duration 1ms --pcap n2 >/dev/null
for f in c.pcap c2; do
    capinfos -t "$f" | grep -q 'Wireshark/tcpdump/... - nanosecond pcap$' || fail "$f: not classic pcap"
done
for f in n.pcap n2; do
    capinfos -t "$f" | grep -q 'pcapng' || fail "$f: not pcapng"
done
# 6. The dissector reads both formats alike.
[ "$(TS -X lua_script:"$LUA" -r t.pcapng -Y csmacd.fragment | wc -l)" -eq "$jams" ] ||
    fail "dissector: csmacd.fragment != $jams"
[ "$(TS -X lua_script:"$LUA" -r t.pcapng -Y '!csmacd.fragment && csmacd.station' | wc -l)" -eq $((records - jams)) ] ||
    fail "dissector: whole frames != $((records - jams))"
TS -X lua_script:"$LUA" -r t.pcapng -V >lua.txt
if grep -qi 'lua error' lua.txt; then fail "dissector: Lua error"; fi

# 7. Replay reads pcapng, its own included, and offers only whole frames:
#    the fragments of either format are skipped and said so, once.
"$CSMACD" run --stations 4 --traffic poisson --load 0.9 --frame-size 64-200 --duration 20ms --length 2500 \
    --seed 5 --pcap own.pcapng --format json >own.json
"$CSMACD" run --stations 4 --traffic poisson --load 0.9 --frame-size 64-200 --duration 20ms --length 2500 \
    --seed 5 --pcap own-eth.pcap --pcap-linktype ethernet >/dev/null
ok=$(sed -n 's/.*"frames_ok": *\([0-9]*\).*/\1/p' own.json | head -n 1)
frags=$(count own.pcapng 'frame.interface_id == 1')
[ "$frags" -gt 0 ] || fail "own.pcapng: no fragment to skip"
for f in own.pcapng own-eth.pcap; do
    "$CSMACD" run --traffic pcap:$f --duration 40ms --format json >re.json 2>re.err
    offered=$(sed -n 's/.*"frames_offered": *\([0-9]*\).*/\1/p' re.json | head -n 1)
    [ "$offered" -eq "$ok" ] || fail "$f: $offered frames offered, $ok were sent whole"
    [ "$(wc -l <re.err)" -eq 1 ] || fail "$f: not one line on standard error"
    grep -q "^csmacd: warning: $f: $frags of $((ok + frags)) frames not replayed (" re.err ||
        fail "$f: $(cat re.err)"
done
grep -q "collision fragments without a valid FCS)" re.err || fail "own-eth.pcap: reason"

# 8. `--pcap -` is standard output, with nothing but the trace; the
#    measures go to standard error. Other outputs take - too.
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap - 2>rep.txt | tshark -r - >pipe.txt 2>/dev/null
[ "$(wc -l <pipe.txt)" -eq "$records" ] || fail "through a pipe: $(wc -l <pipe.txt) records"
grep -q '^  throughput' rep.txt || fail "the measures are not on standard error"
"$CSMACD" run --phy 10base5 --stations 8 --traffic saturated --frame-size 100 \
    --duration 20ms --seed 7 --pcap - 2>/dev/null >stdout.pcapng
cmp stdout.pcapng t1.pcapng || fail "--pcap - differs from the file"
"$CSMACD" run --stations 2 --duration 1ms --events - --format json 2>rep.json >ev-out.csv
head -n 1 ev-out.csv | grep -q '^time_ps,station,event' || fail "--events -: no log"
grep -q '"throughput"' rep.json || fail "--events -: measures not on standard error"
# A file that is standard output by another name is written through it.
"$CSMACD" run --stations 2 --duration 1ms --pcap same.pcapng >same.pcapng 2>same.txt
[ "$(TS -r same.pcapng | wc -l)" -gt 0 ] || fail "same file as standard output"
grep -q '^  throughput' same.txt || fail "same file: measures not on standard error"

# 9. Pacing: simulated time at a multiple of the wall clock; an endless
#    run to standard output is readable while it runs (flushed at least
#    every 100 ms) and valid after SIGTERM.
start=$(date +%s%N)
"$CSMACD" run --stations 4 --duration 400ms --pace 1 --format json >paced.json
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$took" -ge 390 ] || fail "--pace 1: 400 ms simulated in $took ms of wall time"
# Readable while it runs: records appear (polled: however loaded the
# machine, the first ones come within the run's 100 ms flushes of its
# start); then SIGTERM. The pace bounds simulated time from above: at 0.01
# it cannot run ahead of a hundredth of the wall time it ran (a loaded
# machine only makes it lag).
start=$(date +%s%N)
"$CSMACD" run --stations 4 --duration inf --pace 0.01 --pcap - >live.pcapng 2>live.err &
pid=$!
n1=0
for i in $(seq 600); do
    n1=$(tshark -r live.pcapng 2>/dev/null | wc -l)
    [ "$n1" -gt 0 ] && break
    sleep 0.1
done
kill -TERM $pid
rc=0
wait $pid || rc=$?
ran_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 143 ] || fail "endless run after SIGTERM: exit $rc"
[ "$n1" -gt 0 ] || fail "nothing readable while the paced run went on"
n2=$(TS -r live.pcapng | wc -l)
[ "$n2" -ge "$n1" ] || fail "fewer records after the end ($n2) than during the run ($n1)"
last=$(TS -r live.pcapng -T fields -e frame.time_relative | tail -n 1)
awk -v t="$last" -v ms="$ran_ms" 'BEGIN { exit !(t > 0 && t <= 0.01 * ms / 1000 + 0.001) }' ||
    fail "a pace of 0.01 for $ran_ms ms of wall time reached $last s of simulated time"
grep -q '^csmacd: interrupted at ' live.err || fail "no interruption message"

# 10. The live pipe into a capture (what `| wireshark -k -i -` does):
#     dumpcap reads the stream, both interfaces; when the reader leaves,
#     csmacd ends silently (141, the conventional status).
( rc=0; "$CSMACD" run --stations 8 --pace 0.01 --duration inf --pcap - 2>pipe.err || rc=$?
  echo $rc >pipe.rc ) | tshark -i - -a duration:2 -w piped.pcapng >/dev/null 2>&1
[ "$(cat pipe.rc)" -eq 141 ] || fail "after the reader left: exit $(cat pipe.rc) ($(cat pipe.err))"
if grep -q '^csmacd: ' pipe.err; then fail "after the reader left: $(grep '^csmacd: ' pipe.err)"; fi
[ "$(count piped.pcapng 'frame.interface_id == 0')" -gt 5 ] || fail "live pipe: no frames"
[ "$(count piped.pcapng 'frame.interface_id == 1')" -gt 5 ] || fail "live pipe: no fragments"

# 11. Groups: every record's comment names its station's group, and so
#     does the dissector (csmacd.group).
"$CSMACD" run --duration 5ms --group 'rogue stations=1 policy=none' --group 'good stations=3' \
    --pcap groups.pcapng >/dev/null
rogue=$(count groups.pcapng 'frame.comment contains "group rogue"')
good=$(count groups.pcapng 'frame.comment contains "group good"')
all=$(count groups.pcapng 'frame')
[ "$rogue" -gt 0 ] && [ "$good" -gt 0 ] || fail "groups: $rogue rogue and $good good records"
[ $((rogue + good)) -eq "$all" ] || fail "groups: $rogue + $good of $all records name a group"
bad=$(count groups.pcapng 'frame.comment contains "group rogue" && !(frame.comment contains "station 1,")')
[ "$bad" -eq 0 ] || fail "groups: $bad records of stations 2-4 named rogue"
# Every record of the group, collision fragments included.
n=$(TS -X lua_script:"$LUA" -r groups.pcapng -Y 'csmacd.group == "rogue"' | wc -l)
[ "$n" -eq "$rogue" ] || fail "dissector: $n of the $rogue records of group rogue"
nf=$(TS -X lua_script:"$LUA" -r groups.pcapng -Y 'csmacd.fragment && csmacd.group == "good"' | wc -l)
wf=$(TS -r groups.pcapng -Y 'frame.comment contains "group good" && frame.interface_id == 1' | wc -l)
[ "$nf" -eq "$wf" ] && [ "$nf" -gt 0 ] || fail "dissector: $nf of the $wf fragments of group good"

echo "pcapng: ok ($records records, $jams fragments)"
