#!/bin/sh
# test_two_copies.sh - a system copy of the dissector beside a user's (or
# beside a -X script) leaves Wireshark working, with one dissector loaded.
#
# Usage: test_two_copies.sh CSMACD LUA WORKDIR
#
# Pins, with Wireshark's global folders seen as copies in WORKDIR
# (tshark_isolate.sh) where a "system" copy is put as `cmake --install`
# does: with a system copy of this version and the user's from `csmacd
# extcap --install-user`, tshark starts, lists its interfaces and reads a
# trace without a message, "csmacd" is registered once and it is the
# user's copy, and --install-user says so; with a system copy older than
# the rule of two copies (its first lines cut out), the older one is
# registered, nothing is printed, and --install-user says that one is
# loaded; a -X script beside an installed copy steps aside without a word;
# the system copy alone is loaded when the user has none. Exit 77
# (skipped) without tshark.
set -eu
CSMACD=$1
LUA=$2
W=$3
. "$(dirname "$0")/tshark_lib.sh"

"$CSMACD" run --stations 4 --duration 5ms --pcap trace.pcapng >/dev/null
# Which copy registered: each is marked in its protocol's description.
mark() { sed "s|\"csmacd CSMA/CD emulator\"|\"csmacd CSMA/CD emulator ($1)\"|" "$LUA"; }
registered() { TS -G protocols | awk -F '\t' '$3 == "csmacd" { print $1 }'; }
frags() { TS -r trace.pcapng -Y csmacd.fragment "$@" | wc -l; }
plain=$(tshark -r trace.pcapng 2>/dev/null | wc -l)

# The system copy alone.
mark system >"$W/ws-plugins/csmacd.lua"
[ "$(registered)" = "csmacd CSMA/CD emulator (system)" ] || fail "the system copy alone: $(registered)"
n=$(frags)
[ "$n" -gt 0 ] || fail "the system copy decodes no fragment"

# The user's copy installed beside the system's: tshark starts without a
# message, the copy described "$2" is the one registered, it decodes as
# one dissector, and --install-user's output matches "$3".
#   beside_user CASE DESCRIPTION MESSAGE
user_lua="$HOME/.local/lib/wireshark/plugins/csmacd.lua"
beside_user() {
    in_view "$CSMACD" extcap --install-user >install.txt
    TS -D >/dev/null
    [ "$(registered)" = "$2" ] || fail "$1: $(registered) registered"
    [ "$(frags)" -eq "$n" ] || fail "$1: not one dissector"
    grep -q "$3" install.txt || fail "$1: --install-user says: $(cat install.txt)"
}

# ... and the user's, of this version: the user's is loaded.
beside_user "system and user" "csmacd CSMA/CD emulator" \
    "^Wireshark loads $user_lua; the system's copy .*/csmacd.lua steps aside for it$"

# A -X script beside them steps aside.
[ "$(frags -X "lua_script:$LUA")" -eq "$n" ] || fail "a -X script beside an installed copy"

# An older system copy (before the rule): it is loaded, and the user's
# steps aside.
mark older | awk '/^-- Two copies\./ { cut = 1 } cut && /^rawset\(_G, "csmacd_dissector_file"/ { cut = 0; print "local p_csmacd = Proto(\"csmacd\", \"csmacd CSMA/CD emulator (older)\")"; next } !cut' \
    >"$W/ws-plugins/csmacd.lua"
grep -q csmacd_dissector_file "$W/ws-plugins/csmacd.lua" && fail "the older copy keeps the rule"
beside_user "older system and user" "csmacd CSMA/CD emulator (older)" \
    "^Wireshark loads the system's copy .*/csmacd.lua, an older csmacd's, and $user_lua steps aside"
[ "$(tshark -r trace.pcapng 2>/dev/null | wc -l)" -eq "$plain" ] || fail "records lost"
echo "two copies: one dissector loaded, the user's unless the system's is older; --install-user says which"
