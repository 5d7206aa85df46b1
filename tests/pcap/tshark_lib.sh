# tshark_lib.sh - what the tshark tests share, sourced with the work folder
# in W: skipped (exit 77) without tshark, a fresh W as the current folder,
# tshark blind to an installed csmacd (tshark_isolate.sh),
# TS (tshark, failing on any message but the warning it gives root),
# fail, and same (two files the same, else their difference and a failure).
if ! command -v tshark >/dev/null 2>&1; then
    echo "tshark is not installed: skipped"
    exit 77
fi
csmacd_pcap_tests=$(cd "$(dirname "$0")" && pwd)
rm -rf "$W"
mkdir -p "$W"
cd "$W"
# tshark: the installed csmacd's dissector out of its sight.
. "$csmacd_pcap_tests/tshark_isolate.sh"
# tshark warns on standard error when run as root; nothing else may appear.
TS() { tshark "$@" 2>ts.err; grep -v 'Running as user "root"' ts.err >ts.err2 || true; if [ -s ts.err2 ]; then echo "tshark $*: unexpected messages:"; cat ts.err2; exit 1; fi; }
fail() { echo "FAIL: $*"; exit 1; }
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head -50; fail "$3"; }; }
