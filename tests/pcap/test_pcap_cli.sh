#!/bin/sh
# test_pcap_cli.sh - pins the command line of traces and replay.
#
# Usage: test_pcap_cli.sh CSMACD SOURCE_DIR WORKDIR
#
# Pins the exit status and the one message of every bad use of --pcap,
# --pcap-collisions, --pcap-linktype, --pcap-epoch and --traffic pcap:FILE (2 for usage
# and input errors, 1 for a file that cannot be written), that nothing is
# left behind by a failed run, that a replayed capture runs, that
# --pcap-max-stations reports what it leaves out, and that a capture
# squeezed by --pcap-time-scale accounts for every frame. Does not
# pin the traces' contents (test_pcap_run.c, test_tshark.sh).
set -eu
CSMACD=$1
SRC=$2
W=$3
rm -rf "$W"
mkdir -p "$W"
cd "$W"
fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS MESSAGE ARGS...: runs csmacd run ARGS, checks the status and
# that standard error is exactly "csmacd: MESSAGE".
expect() {
    want_rc=$1
    want_msg=$2
    shift 2
    rc=0
    "$CSMACD" run --duration 1ms "$@" >out.txt 2>err.txt || rc=$?
    [ "$rc" -eq "$want_rc" ] || fail "csmacd run $*: exit $rc, want $want_rc ($(cat err.txt))"
    got=$(grep -v '^csmacd: warning' err.txt || true)
    [ "$got" = "csmacd: $want_msg" ] || fail "csmacd run $*: said '$got', want 'csmacd: $want_msg'"
}

expect 2 "--pcap-collisions: needs --pcap FILE" --pcap-collisions no
expect 2 "--pcap-linktype: needs --pcap FILE" --pcap-linktype netanalyzer
expect 2 "--pcap-linktype: unknown link type 'tokenring' (netanalyzer-transparent, netanalyzer, ethernet)" \
    --pcap t.pcap --pcap-linktype tokenring
expect 2 "--pcap-linktype: the netanalyzer-transparent link type records the preamble and SFD as whole octets (preamble-bits is 60; ethernet and netanalyzer do not record it)" \
    --pcap t.pcap --preamble-bits 60
expect 2 "--pcap-epoch: needs --pcap FILE" --pcap-epoch 2026-01-01
expect 2 "--pcap-epoch: 2026-02-30 is not a valid date" --pcap t.pcap --pcap-epoch 2026-02-30
expect 2 "--pcap-epoch: 2038-01-19T03:14:08Z is out of range (1970-01-01T00:00:00Z to 2038-01-19T03:14:07Z)" \
    --pcap t.pcap --pcap-epoch 2038-01-19T03:14:08Z
expect 2 "--pcap-epoch: a run of 2s from 2038-01-19T03:14:06Z would end after 2038-01-19T03:14:07Z, beyond pcap's 32-bit seconds" \
    --pcap t.pcap --pcap-epoch 2038-01-19T03:14:06Z --duration 2s
expect 2 "--events, --pcap: conflicting options: both write same.out" \
    --pcap same.out --events same.out
expect 1 "$W/no/such/dir/t.pcap: No such file or directory" --pcap "$W/no/such/dir/t.pcap"
expect 1 "$W: Is a directory" --pcap "$W"
expect 1 "/dev/full: No space left on device" --pcap /dev/full --duration 50ms
rc=0
"$CSMACD" run --duration 1ms --pcap-collisions maybe --pcap t.pcap >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 2 ] && grep -q '^csmacd: --pcap-collisions: ' err.txt ||
    fail "--pcap-collisions maybe: exit $rc, $(cat err.txt)"

# Replay input errors: exit 2, one message naming the file, nothing written.
expect 2 "missing.pcap: No such file or directory" --traffic pcap:missing.pcap --pcap t.pcap
printf 'not a capture\n' >text.pcap
expect 2 "text.pcap: not a pcap or pcapng capture (unknown file format)" \
    --traffic pcap:text.pcap --pcap t.pcap
: >empty.pcap
expect 2 "empty.pcap: empty file" --traffic pcap:empty.pcap
head -c 100 "$SRC/captures/lan-small.pcap" >cut.pcap
rc=0
"$CSMACD" run --duration 1ms --traffic pcap:cut.pcap >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 2 ] && grep -q '^csmacd: cut.pcap: truncated dump file' err.txt ||
    fail "truncated capture: exit $rc, $(cat err.txt)"
[ ! -e t.pcap ] || fail "a failed run left t.pcap"
if ls -A | grep -q "\.tmp$"; then fail "a failed run left a temporary file"; fi

# A replayed capture runs and writes its trace.
"$CSMACD" run --traffic pcap:"$SRC/captures/lan-small.pcap" --duration 50ms \
    --pcap replay.pcap --format json >replay.json
grep -q '"frames_ok": *17' replay.json || fail "replay: $(cat replay.json)"
[ -s replay.pcap ] || fail "replay: no trace"
# The cap: the first two talkers (4 + 6 frames); the rest is counted, and
# said, never silently dropped.
"$CSMACD" run --traffic pcap:"$SRC/captures/lan-small.pcap" --pcap-max-stations 2 \
    --duration 50ms --format json >cap.json 2>cap.err
grep -q '"frames_offered": *10,' cap.json || fail "cap: $(cat cap.json)"
grep -q '"replay_rejected": *7,' cap.json || fail "cap: replay_rejected"
grep -q 'lan-small.pcap: 7 of 17 frames not replayed' cap.err || fail "cap: $(cat cap.err)"

# Squeezed 1000 times the frames contend: every one is still accounted for.
"$CSMACD" run --traffic pcap:"$SRC/captures/lan-small.pcap" --pcap-time-scale 0.001 \
    --duration 50ms --format json >busy.json
num() { sed -n "s/^  \"$1\": *\([0-9]*\),*\$/\1/p" busy.json; }
[ "$(num frames_offered)" -eq 17 ] || fail "busy: offered $(num frames_offered)"
[ $(($(num frames_ok) + $(num frames_aborted) + $(num frames_dropped) + $(num frames_queued))) -eq 17 ] ||
    fail "busy: frames not accounted for"
[ "$(num collisions)" -gt 0 ] || fail "busy: no collision at 1000 times the pace"

# A capture on a pipe is read as it comes: both formats replay as from the
# file; what is neither is refused at its first octets, not after being
# read whole (an endless stream of zeros ends at once), exit 2.
for f in captures/lan-small.pcap captures/sample-10base5.pcapng; do
    "$CSMACD" run --traffic pcap:/dev/stdin --duration 50ms --format json <"$SRC/$f" >pipe.json 2>/dev/null ||
        true
    cat "$SRC/$f" | "$CSMACD" run --traffic pcap:/dev/stdin --duration 50ms --format json \
        >piped.json 2>/dev/null || fail "$f through a pipe: exit $?"
    [ "$(grep -v wall_s piped.json)" = "$(grep -v wall_s pipe.json)" ] ||
        fail "$f through a pipe: other measures than from the file"
done
rc=0
timeout 20 sh -c "cat /dev/zero | '$CSMACD' run --traffic pcap:/dev/stdin --duration 1ms" \
    >/dev/null 2>zeros.err || rc=$?
[ "$rc" -eq 2 ] && grep -qx 'csmacd: /dev/stdin: not a pcap or pcapng capture (unknown file format)' zeros.err ||
    fail "zeros on a pipe: exit $rc, $(head -2 zeros.err)"
echo ok
