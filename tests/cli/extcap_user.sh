#!/usr/bin/env bash
# extcap_user.sh - `csmacd extcap --install-user` and the options Wireshark
# passes, without Wireshark (tests/pcap/test_extcap.sh has it).
#
# Pins: a fresh HOME gets the link and the dissector, and a second install
# replaces only those; a link that is not csmacd's, or a csmacd.lua of the
# user's own, is left alone (exit 1) and nothing else is made (all or
# nothing); an older dissector of csmacd's is replaced; a HOME too long
# for Wireshark's folders is refused whole (exit 2, no folder made);
# --fifo=PATH and --extcap-interface=csmacd work as --fifo PATH and
# --extcap-interface csmacd; an empty --fifo names --fifo; a FIFO whose
# reader left is noticed while nothing is being written (the capture
# ends within seconds, status 0).
#
# Usage: extcap_user.sh CSMACD WORKDIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$2
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
unset XDG_CONFIG_HOME
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
link_of() { echo "$1/.config/wireshark/extcap/csmacd"; }
lua_of() { echo "$1/.local/lib/wireshark/plugins/csmacd.lua"; }

# 1. A fresh HOME, then a second install over csmacd's own.
h=$W/fresh
HOME=$h "$bin" extcap --install-user >out 2>err || fail "fresh: exit $?: $(cat err)"
[[ -L $(link_of "$h") && $(readlink "$(link_of "$h")") == */csmacd ]] || fail "fresh: no link"
[[ -s $(lua_of "$h") ]] || fail "fresh: no dissector"
HOME=$h "$bin" extcap --install-user >out 2>err || fail "again: exit $?: $(cat err)"

# 2. A link of the user's: left alone, and no dissector written.
h=$W/theirs
mkdir -p "$(dirname "$(link_of "$h")")"
ln -s /bin/true "$(link_of "$h")"
HOME=$h "$bin" extcap --install-user >out 2>err
rc=$?
[[ $rc == 1 ]] && grep -qx "csmacd: $(link_of "$h"): exists and is not a link to csmacd: left alone (move it away to install)" err ||
    fail "a user's link: exit $rc, $(cat err)"
[[ $(readlink "$(link_of "$h")") == /bin/true ]] || fail "a user's link was replaced"
[[ ! -e $(lua_of "$h") ]] || fail "a user's link: the dissector was written all the same"

# 3. A csmacd.lua of the user's own: left alone, and no link made.
h=$W/ownlua
mkdir -p "$(dirname "$(lua_of "$h")")"
echo '-- my own dissector' >"$(lua_of "$h")"
HOME=$h "$bin" extcap --install-user >out 2>err
rc=$?
[[ $rc == 1 ]] && grep -qx "csmacd: $(lua_of "$h"): exists and is not csmacd's dissector: left alone (move it away to install)" err ||
    fail "a user's csmacd.lua: exit $rc, $(cat err)"
[[ $(cat "$(lua_of "$h")") == '-- my own dissector' ]] || fail "a user's csmacd.lua was overwritten"
[[ ! -e $(link_of "$h") && ! -L $(link_of "$h") ]] || fail "a user's csmacd.lua: the link was made all the same"

# 4. An older dissector of csmacd's (its first line, other text): replaced.
h=$W/older
mkdir -p "$(dirname "$(lua_of "$h")")"
{ head -n 1 "$(lua_of "$W/fresh")"; echo 'return nil'; } >"$(lua_of "$h")"
HOME=$h "$bin" extcap --install-user >out 2>err || fail "an older dissector: exit $?: $(cat err)"
cmp -s "$(lua_of "$h")" "$(lua_of "$W/fresh")" || fail "an older dissector was not replaced"

# 5. A HOME too long for the folders: refused whole, nothing made.
long=$W/long/$(printf 'd%.0s' $(seq 1 200))
for _ in $(seq 1 19); do long=$long/$(printf 'd%.0s' $(seq 1 200)); done
HOME=$long "$bin" extcap --install-user >out 2>err
rc=$?
[[ $rc == 2 ]] && grep -q "^csmacd: --install-user: HOME is too long: Wireshark's folders under it would exceed [0-9]* characters; nothing was installed$" err ||
    fail "a long HOME: exit $rc, $(cat err)"
[[ ! -e $W/long ]] || fail "a long HOME: folders were made"

# 6. Wireshark's option forms, and an empty --fifo.
"$bin" extcap --extcap-dlts --extcap-interface=csmacd >dlts 2>err ||
    fail "--extcap-interface=csmacd: exit $?: $(cat err)"
grep -q '^dlt {number=1}' dlts || fail "--extcap-interface=csmacd: $(cat dlts)"
"$bin" extcap --capture --extcap-interface=csmacd --fifo="$W/f.pcapng" --duration 10ms \
    --pace 1000 >out 2>err || fail "--fifo=PATH: exit $?: $(cat err)"
[[ $(head -c 4 "$W/f.pcapng" | od -An -tx1 | tr -d ' ') == 0a0d0d0a ]] ||
    fail "--fifo=PATH: no pcapng written there"
for form in "--fifo=" "--fifo ''"; do
    eval "\"\$bin\" extcap --capture --extcap-interface csmacd $form" >out 2>err
    rc=$?
    [[ $rc == 2 ]] && grep -qx 'csmacd: --fifo: needs a path (the FIFO Wireshark reads)' err ||
        fail "an empty $form: exit $rc, $(cat err)"
done

# 7. Wireshark closes the FIFO while the run has nothing to write: a
# network with almost no traffic, in slow motion.
mkfifo fifo
"$bin" extcap --capture --extcap-interface csmacd --fifo fifo --traffic poisson \
    --load 0.0001 --pace 0.001 >out 2>err &
pid=$!
python3 -c 'import sys; f = open(sys.argv[1], "rb"); f.read(28); f.close()' fifo
t0=$SECONDS
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
    fail "a FIFO whose reader left: the capture still runs after 10 s"
    kill -TERM $pid
fi
wait $pid
rc=$?
[[ $rc == 0 && ! -s err ]] || fail "a FIFO whose reader left: exit $rc, $(cat err)"
echo "extcap_user: $((SECONDS - t0)) s to notice the reader gone"

((failures == 0)) && echo PASS
((failures == 0))
