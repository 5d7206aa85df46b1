#!/bin/sh
# test_pcap_bridge.sh - pins what a bridge's ports send in the traces
# (pcap_sink.h, "Networks"; captures/README.md, "A network of segments").
#
# Usage: test_pcap_bridge.sh CSMACD LUA WORKDIR
#
# On net_bridge.ini (two hubs and a bridge; every time hand-computed in
# the file): a frame the bridge floods (destination unknown) and one it
# forwards (destination known) appear once on each segment they cross,
# as the same octets (the sender's addresses and header), stamped to the
# nanosecond as store and forward says, with a comment naming the bridge,
# the port, forwarded or flooded and the time queued in the port; a
# filtered frame is on its own segment only; the classic pcap with
# --probe-segment holds that segment's records with the same stamps; the
# dissector's csmacd.bridge fields; the event log's bridge lines and its
# bridge column. Then a half-duplex switch whose ports collide (every
# bridge_tx_end of the event log is one record of the trace, the collided
# ones fragments whose comment says collision and retry, whose jam names
# no station) and a full queue whose dropped copies are bridge_drop lines
# and no record. Exit 77 (skipped) when tshark is not installed.
set -eu
CSMACD=$1
LUA=$2
W=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tshark_lib.sh"
LX="-X lua_script:$LUA"
# lines_are N PATTERN FILE WHAT: exactly N lines of FILE match PATTERN.
lines_are() {
    got=$(grep -c -- "$2" "$3" || true)
    [ "$got" -eq "$1" ] || fail "$4: $got lines, not $1"
}

"$CSMACD" run --scenario "$HERE/net_bridge.ini" --pcap br.pcapng --events br.csv >br.txt

# 1. Every record: interface, stamp (ns after the epoch, 2000-01-01),
# addresses and comment, exactly as net_bridge.ini works them out.
TS -r br.pcapng -T fields -E separator=';' -e frame.interface_name -e frame.time_epoch \
    -e eth.src -e eth.dst -e frame.comment >recs.txt
cat >recs.want <<'W'
a-frames;946684800.000000114;02:00:00:00:00:02;02:00:00:00:00:01;station 2, frame 1, attempt 1, sent whole, queued 0.000 us, group near, segment a
b-frames;946684800.000000114;02:00:00:00:00:03;02:00:00:00:00:01;station 3, frame 1, attempt 1, sent whole, queued 0.000 us, group far, segment b
a-frames;946684800.000068342;02:00:00:00:00:01;02:00:00:00:00:02;station 1, frame 1, attempt 1, sent whole, queued 9.600 us, group srv, segment a
b-frames;946684800.000097142;02:00:00:00:00:02;02:00:00:00:00:01;flooded by bridge sw, port b: station 2, frame 1, attempt 1, sent whole, queued 33.400 us in the port, group near, segment b
a-frames;946684800.000136570;02:00:00:00:00:03;02:00:00:00:00:01;flooded by bridge sw, port a: station 3, frame 1, attempt 1, sent whole, queued 44.028 us in the port, group far, segment a
a-frames;946684800.000233598;02:00:00:00:00:01;02:00:00:00:00:03;station 1, frame 2, attempt 1, sent whole, queued 9.600 us, group srv, segment a
b-frames;946684800.000297226;02:00:00:00:00:01;02:00:00:00:00:03;forwarded by bridge sw, port b: station 1, frame 2, attempt 1, sent whole, queued 0.000 us in the port, group srv, segment b
W
same recs.want recs.txt "the bridged network's records"
# The filtered reply (station 1's frame 1) is on a only.
lines_are 1 'station 1, frame 1,' recs.txt "the filtered frame left its segment"

# 2. A frame crossing the bridge is the same octets on both segments (the
# forwarded reply's header says attempt 1, queued 9.600 us: its sender's),
# and its FCS is good.
for story in "station 2, frame 1," "station 3, frame 1," "station 1, frame 2,"; do
    TS -r br.pcapng -Y "frame.comment contains \"$story\"" -x >hex.txt
    rm -f rec*.hex
    awk 'BEGIN { k = 0 } /^$/ { k++; next } { print > ("rec" k ".hex") }' hex.txt
    [ -s rec0.hex ] && [ -s rec1.hex ] && cmp -s rec0.hex rec1.hex ||
        fail "$story: the bridge's copy differs from the sender's octets"
done
grep -q '^0010  00 01 00 00 00 01 00 00 00 00 00 00 00 02 00 00' rec0.hex ||
    fail "the forwarded reply's header is not station 1's frame 2, attempt 1"
grep -q '^0020  00 00 00 00 00 00 00 00 00 00 00 00 25 80 00 00' rec0.hex ||
    fail "the forwarded reply's header does not say queued 9600 ns"
TS -r br.pcapng -o eth.check_fcs:TRUE -Y 'eth.fcs.status != 1' >badfcs.txt
[ ! -s badfcs.txt ] || fail "a frame with a bad FCS"

# 3. Classic pcap, --probe-segment b: b's three records, the same stamps.
"$CSMACD" run --scenario "$HERE/net_bridge.ini" --pcap b.pcap --probe-segment b \
    --pcap-linktype ethernet >/dev/null
TS -r b.pcap -T fields -E separator=';' -e frame.time_epoch -e eth.src -e eth.dst -e frame.len >b.txt
cat >b.want <<'W'
946684800.000000114;02:00:00:00:00:03;02:00:00:00:00:01;100
946684800.000097142;02:00:00:00:00:02;02:00:00:00:00:01;64
946684800.000297226;02:00:00:00:00:01;02:00:00:00:00:03;64
W
same b.want b.txt "classic pcap of segment b"
"$CSMACD" run --scenario "$HERE/net_bridge.ini" --pcap a.pcap --probe-segment a \
    --pcap-linktype ethernet >/dev/null
TS -r a.pcap -T fields -e frame.time_epoch >a.txt
printf '946684800.000000114\n946684800.000068342\n946684800.000136570\n946684800.000233598\n' >a.want
same a.want a.txt "classic pcap of segment a"

# 4. The dissector's fields.
TS $LX -r br.pcapng -Y 'csmacd.bridge' -T fields -E separator=';' -e csmacd.bridge \
    -e csmacd.bridge.port -e csmacd.bridge.action -e csmacd.bridge.queued_ns -e csmacd.station >d.txt
printf 'sw;b;flooded;33400;2\nsw;a;flooded;44028;3\nsw;b;forwarded;0;1\n' >d.want
same d.want d.txt "csmacd.bridge fields"

# 5. The event log: the bridge's decisions and its ports' transmissions,
# its name in a last column (empty on other lines).
[ "$(head -1 br.csv)" = "time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes,group,segment,bridge" ] ||
    fail "event log header: $(head -1 br.csv)"
grep ',bridge_' br.csv >bl.txt
cat >bl.want <<'W'
58628078,2,bridge_learn,1,0,2,1,64,near,a,sw
58628078,2,bridge_flood,1,0,2,1,64,near,a,sw
87428078,3,bridge_learn,1,0,3,1,100,far,b,sw
87428078,3,bridge_flood,1,0,3,1,100,far,b,sw
97028078,2,bridge_tx_start,1,0,2,1,64,near,b,sw
126856156,1,bridge_learn,1,0,1,1,64,srv,a,sw
126856156,1,bridge_filter,1,0,1,1,64,srv,a,sw
136456156,3,bridge_tx_start,1,0,3,1,100,far,a,sw
154628078,2,bridge_tx_end,1,0,2,1,64,near,b,sw
222856156,3,bridge_tx_end,1,0,3,1,100,far,a,sw
292112312,1,bridge_forward,1,0,1,2,64,srv,a,sw
297112312,1,bridge_tx_start,1,0,1,2,64,srv,b,sw
354712312,1,bridge_tx_end,1,0,1,2,64,srv,b,sw
W
same bl.want bl.txt "the event log's bridge lines"
[ "$(grep -v ',bridge_' br.csv | grep -c ',sw$' || true)" -eq 0 ] || fail "a bridge named on a station's line"

# 6. A half-duplex switch: its ports collide with their stations. Every
# bridge_tx_end line is one record on its segment; a collided attempt is a
# fragment ("collision N"), a retry says so, and its jam names station 0
# (no station) and the port's attempt.
"$CSMACD" run --phy 10baset --topology switch --duplex half --stations 4 --frame-size 512 \
    --duration 10ms --pcap sw.pcapng --events sw.csv >/dev/null
TS -r sw.pcapng -T fields -E separator=';' -e frame.interface_name -e frame.comment >swc.txt
for k in 1 2 3 4; do
    lines=$(grep -c ",bridge_tx_end,.*,link$k,switch$" sw.csv || true)
    recs=$(grep -c "^link$k-[a-z]*;[a-z]* by bridge switch, port link$k: " swc.txt || true)
    [ "$lines" -gt 0 ] && [ "$lines" -eq "$recs" ] ||
        fail "link$k: $lines bridge_tx_end lines, $recs records of the switch"
done
grep -q '^link[1-4]-fragments;[a-z]* by bridge switch, port link[1-4]: station [1-4], frame [0-9]*, attempt [0-9]*[^;]*, collision [0-9]' swc.txt ||
    fail "no collided attempt of a switch port"
grep -q '^link[1-4]-frames;[a-z]* by bridge switch, port link[1-4]: station [1-4], frame [0-9]*, attempt [2-9] (retry), sent whole, backoff [0-9]* slots*, queued [0-9.]* us in the port, segment link[1-4]$' swc.txt ||
    fail "no retry of a switch port sent whole"
lines_are "$(grep -c ',bridge_tx_end,' sw.csv)" 'by bridge' swc.txt "records of the switch"
# The jam of a port's first attempt: c5 01 00 00 (attempt 1, no station).
TS -r sw.pcapng -Y 'frame.comment contains "by bridge" && frame.comment contains "attempt 1, collision 1,"' \
    -x >jam.txt
[ -s jam.txt ] || fail "no first attempt of a port collided"
# (each record's octets from the hex dump; a blank line ends a record)
awk 'function check() { if (n > 0 && last != "c5010000") bad++; n = 0 }
     /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / { for (i = 2; i <= 17 && $i ~ /^[0-9a-f][0-9a-f]$/; i++) {
                                                  b[n++] = $i }
                                              last = (n >= 4) ? b[n-4] b[n-3] b[n-2] b[n-1] : ""; next }
     /^$/ { check() } END { check(); exit bad ? 1 : 0 }' jam.txt ||
    fail "a port's jam does not name attempt 1 and no station"

# 7. A full queue: the dropped copies are bridge_drop lines on the output
# port's segment, never records. Two stations send 10 frames each at line
# rate to a third through a port of 4 frames (stations/MODEL.md, "Bridges:
# measures": 7 of the 20 are dropped, 13 sent).
cat >q.ini <<'W'
phy = 10baset
duration = 60ms
[segment l1]
type = link
duplex = full
[segment l2]
type = link
duplex = full
[segment l3]
type = link
duplex = full
[bridge sw]
ports = l1, l2, l3
queue = 4
[group a]
stations = 1
segment = l1
traffic = batch
batch = 10
frame-size = 1518
dest = server:3
[group b]
stations = 1
segment = l2
traffic = batch
batch = 10
frame-size = 1518
dest = server:3
[group c]
stations = 1
segment = l3
traffic = none
W
"$CSMACD" run --scenario q.ini --pcap q.pcapng --events q.csv >/dev/null
lines_are 7 ',bridge_drop,0,0,[0-9]*,[0-9]*,1518,[ab],l3,sw$' q.csv "bridge_drop lines on l3"
lines_are 7 ',bridge_drop,' q.csv "bridge_drop lines anywhere"
TS -r q.pcapng -Y 'frame.interface_name == "l3-frames"' -T fields -e frame.comment >l3.txt
lines_are 13 'by bridge sw, port l3: ' l3.txt "copies on l3"
echo "pcap bridge: ok"
