#!/bin/sh
# test_pcap_network.sh - pins the traces of a network of segments
# (pcap_sink.h, "Networks"; captures/README.md).
#
# Usage: test_pcap_network.sh CSMACD LUA WORKDIR
#
# Pins, on net_two.ini (two coax segments and a repeater, geometry in the
# file) and the office LAN of tests/cli/data/net_lan.ini: the pcapng trace
# has two interfaces per segment, NAME-frames (2k) and NAME-fragments
# (2k + 1), in the network's order, read by a plain tshark with no error;
# every record's comment ends in ", segment NAME" of its interface; a frame
# sent whole on east appears on west's frames interface as the same octets,
# "relayed: ", 1233.18 ns later (the path's delay, hand-computed in
# net_two.ini); a station's own records are on its segment's interfaces
# only; the dissector's csmacd.segment on every record; classic pcap holds
# one segment (the first, or --probe-segment's) and pcapng with
# --probe-segment only that segment's records; the event log's segment
# column and relay lines with an empty station; the same seed gives a
# byte-identical trace. Exit 77 (skipped) when tshark is not installed.
set -eu
CSMACD=$1
LUA=$2
W=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tshark_lib.sh"
LX="-X lua_script:$LUA"

"$CSMACD" run --scenario "$HERE/net_two.ini" --pcap two.pcapng --events two.csv >two.txt

# 1. The interfaces: two per segment, named after it, in the network's order.
TS -r two.pcapng -T fields -e frame.interface_id -e frame.interface_name >ifaces.txt
sort -u ifaces.txt >ifaces.u
printf '0\twest-frames\n1\twest-fragments\n2\teast-frames\n3\teast-fragments\n' >ifaces.want
cmp -s ifaces.u ifaces.want || { cat ifaces.u; fail "interfaces are not west/east frames/fragments 0-3"; }

# 2. Every comment names the segment of its interface.
TS -r two.pcapng -T fields -E separator=';' -e frame.interface_name -e frame.comment >comments.txt
[ -s comments.txt ] || fail "no records"
bad=$(awk -F';' '{ seg = $1; sub(/-(frames|fragments)$/, "", seg);
                   n = length(", segment " seg);
                   if (substr($2, length($2) - n + 1) != ", segment " seg) print }' comments.txt | wc -l)
[ "$bad" -eq 0 ] || fail "$bad comments do not end in their interface's segment"
# Station 1 sits on west, station 2 on east: their own records stay there.
[ "$(grep -c '^east-[a-z]*;station 1,' comments.txt || true)" -eq 0 ] || fail "station 1's own record on east"
[ "$(grep -c '^west-[a-z]*;station 2,' comments.txt || true)" -eq 0 ] || fail "station 2's own record on west"
# Relays on both sides, whole frames among them.
grep -q '^west-frames;relayed: station 2, ' comments.txt || fail "no frame of station 2 relayed onto west"
grep -q '^east-frames;relayed: station 1, ' comments.txt || fail "no frame of station 1 relayed onto east"
grep -q '^east-fragments;relayed: jam, segment east$' comments.txt || fail "no jam relayed onto east"

# 3. A frame sent whole on east, relayed onto west: 1233 ns later, the same octets.
story=$(grep '^east-frames;station 2, ' comments.txt | head -1 | cut -d';' -f2 | sed 's/, segment east$//')
[ -n "$story" ] || fail "no whole frame of station 2"
TS -r two.pcapng -Y "frame.comment contains \"$story\"" -T fields -e frame.interface_name \
    -e frame.time_epoch >pair.txt
[ "$(wc -l <pair.txt)" -eq 2 ] || { cat pair.txt; fail "the frame is not on exactly both segments"; }
first=$(sed -n 1p pair.txt | cut -f1)
second=$(sed -n 2p pair.txt | cut -f1)
[ "$first" = east-frames ] && [ "$second" = west-frames ] || fail "order: $first then $second"
d=$(awk -F'\t' '{ split($2, t, "."); s[NR] = t[1]; n[NR] = t[2] + 0 }
                 END { print (s[2] - s[1]) * 1000000000 + n[2] - n[1] }' pair.txt)
# (each stamp is rounded down to the nanosecond: 1233.18 ns apart reads 1233 or 1234)
[ "$d" -ge 1233 ] && [ "$d" -le 1234 ] || fail "relayed onto west $d ns after east, the path says 1233.18"
TS -r two.pcapng -Y "frame.comment contains \"$story\"" -x >hex.txt
awk 'BEGIN { k = 0 } /^$/ { k++; next } { print > ("rec" k ".hex") }' hex.txt
cut -c1-54 rec0.hex >a.hex
cut -c1-54 rec1.hex >b.hex
[ -s a.hex ] && cmp -s a.hex b.hex || fail "the relayed frame's octets differ from the sender's"
# Wireshark checks the relayed frames' FCS as good.
TS -r two.pcapng -o eth.check_fcs:TRUE -Y 'frame.interface_name matches "-frames$" && eth.fcs.status != 1' >badfcs.txt
[ ! -s badfcs.txt ] || fail "a whole frame with a bad FCS"

# 4. The dissector: csmacd.segment on every record, as the interface says.
recs=$(wc -l <comments.txt)
for seg in west east; do
    n=$(grep -c "^$seg-" comments.txt)
    got=$(TS $LX -r two.pcapng -Y "csmacd.segment == \"$seg\"" | wc -l)
    [ "$got" -eq "$n" ] || fail "csmacd.segment == $seg: $got records of $n"
done
TS $LX -r two.pcapng -T fields -e csmacd.segment >segs.txt
[ "$(grep -c . segs.txt)" -eq "$recs" ] || fail "a record without csmacd.segment"

# 5. Classic pcap: the first segment by default, --probe-segment's otherwise.
west=$(grep -c '^west-' comments.txt)
east=$(grep -c '^east-' comments.txt)
"$CSMACD" run --scenario "$HERE/net_two.ini" --pcap two.pcap >/dev/null
[ "$(TS -r two.pcap | wc -l)" -eq "$west" ] || fail "classic pcap: not west's $west records"
"$CSMACD" run --scenario "$HERE/net_two.ini" --pcap east.pcap --probe-segment east >/dev/null
[ "$(TS -r east.pcap | wc -l)" -eq "$east" ] || fail "--probe-segment east: not east's $east records"
"$CSMACD" run --scenario "$HERE/net_two.ini" --pcap east.pcapng --probe-segment east >/dev/null
TS -r east.pcapng -T fields -e frame.interface_name | sort -u >east.ifaces
printf 'east-fragments\neast-frames\n' >east.want
cmp -s east.ifaces east.want || fail "pcapng --probe-segment east: records of another segment"
[ "$(TS -r east.pcapng | wc -l)" -eq "$east" ] || fail "pcapng --probe-segment east: not $east records"

# 6. The event log: a segment column, relays with an empty station.
[ "$(head -1 two.csv)" = "time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes,group,segment" ] ||
    fail "event log header: $(head -1 two.csv)"
[ "$(grep -c '^[0-9]*,1,.*,talkers,west$' two.csv)" -eq "$(grep -c '^[0-9]*,1,' two.csv)" ] ||
    fail "station 1's lines do not all name west"
[ "$(grep -c '^[0-9]*,2,.*,listeners,east$' two.csv)" -eq "$(grep -c '^[0-9]*,2,' two.csv)" ] ||
    fail "station 2's lines do not all name east"
relay_lines=$(grep -c '^[0-9]*,,relay_\(start\|jam\|end\),[0-9]*,0,[0-9]*,[0-9]*,[0-9]*,,\(west\|east\)$' two.csv)
[ "$relay_lines" -gt 0 ] && [ "$relay_lines" -eq "$(grep -c ',relay_' two.csv)" ] ||
    fail "relay lines: $relay_lines of $(grep -c ',relay_' two.csv) well formed"
# Every relay that ended began (one per port may still run at the end).
starts=$(grep -c ',relay_start,' two.csv)
ends=$(grep -c ',relay_end,' two.csv)
[ "$ends" -le "$starts" ] && [ "$ends" -ge $((starts - 2)) ] || fail "relays: $starts starts, $ends ends"
# The relays that carried a frame name it: as many relay_end lines of
# station 2's frames onto west as records of them there.

# 7. The office LAN: three segments, a hub among them; reruns byte-identical.
"$CSMACD" run --scenario "$HERE/../cli/data/net_lan.ini" --duration 5ms --seed 2 --pcap lan.pcapng >/dev/null
"$CSMACD" run --scenario "$HERE/../cli/data/net_lan.ini" --duration 5ms --seed 2 --pcap - >lan2.pcapng 2>/dev/null
cmp -s lan.pcapng lan2.pcapng || fail "a rerun differs"
TS -r lan.pcapng -T fields -e frame.interface_id -e frame.interface_name | sort -u >lan.ifaces
printf '0\tbackbone-frames\n1\tbackbone-fragments\n2\tlab-frames\n3\tlab-fragments\n4\tannex-frames\n5\tannex-fragments\n' >lan.want
cmp -s lan.ifaces lan.want || { cat lan.ifaces; fail "office LAN interfaces"; }
TS -r lan.pcapng -V >lanv.txt
grep -q 'Interface description: csmacd probe at the hub of segment lab, ' lanv.txt || fail "the hub's interface description"
grep -q 'Interface description: csmacd probe at 0 m on segment annex (coax), ' lanv.txt || fail "annex's interface description"
if grep -q 'Malformed' lanv.txt; then fail "Malformed records"; fi
echo "pcap network: ok"
