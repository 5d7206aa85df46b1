#!/bin/sh
# test_install.sh BUILD_DIR SCRATCH - csmacd installs like a Unix tool.
#
# Pins: `cmake --install` into a scratch prefix puts the program in bin/,
# the man page csmacd(1) in share/man/man1 (and man -l renders it without
# a warning, naming every option of every command's --help, citing only
# installed paths), bash and zsh completion, the dissector and the
# documentation, the extcap link and the dissector in Wireshark's folders
# under a --prefix other than the configured one, and in the folders
# tshark names when the install runs (not when the build was configured);
# the installed program
# runs; bash completion offers the commands, a command's options, the
# presets and the values of a fixed-set option. The man page check is
# skipped where man is not installed; zsh's only where zsh is not.
set -eu
build=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"
for f in bin/csmacd share/man/man1/csmacd.1 share/bash-completion/completions/csmacd \
         share/zsh/vendor-completions/_csmacd share/csmacd/csmacd.lua \
         share/doc/csmacd/README.md share/doc/csmacd/MODEL.md \
         share/doc/csmacd/POLICIES.md share/doc/csmacd/CAPTURES.md \
         share/doc/csmacd/MEDIUM.md share/doc/csmacd/CLI.md share/doc/csmacd/ARCHITECTURE.md; do
    [ -s "$prefix/$f" ] || fail "$f not installed"
done
bin=$prefix/bin/csmacd
"$bin" --version | grep -q '^csmacd [0-9]' || fail "the installed csmacd does not run"
# Wireshark's folders under the prefix: the extcap (a link to the
# program, which answers as one) and the dissector as a Lua plugin.
extcap=$(find "$prefix" -path '*/wireshark/extcap/csmacd' | head -n 1)
[ -n "$extcap" ] && [ -L "$extcap" ] || fail "no extcap link in a wireshark/extcap folder"
"$extcap" --extcap-interfaces | grep -q '^interface {value=csmacd}' || fail "the extcap link does not answer"
[ -n "$(find "$prefix" -path '*/wireshark/plugins/csmacd.lua')" ] || fail "no dissector among the Lua plugins"
# To the configured prefix (staged with DESTDIR): Wireshark's own folders,
# as tshark names them, so that Wireshark lists csmacd with no other step.
if command -v tshark >/dev/null 2>&1; then
    ws_extcap=$(tshark -G folders 2>/dev/null | sed -n 's/^Extcap path:[[:space:]]*//p')
    ws_lua=$(tshark -G folders 2>/dev/null | sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
    DESTDIR=$scratch/staged cmake --install "$build" >"$scratch/staged.log"
    [ -L "$scratch/staged$ws_extcap/csmacd" ] || fail "no extcap link in $ws_extcap"
    [ -s "$scratch/staged$ws_lua/csmacd.lua" ] || fail "no dissector in $ws_lua"
fi
# The folders are asked when the install runs, not when the build was
# configured: a Wireshark installed or moved since then (here a tshark
# first on the PATH that names other folders) is where the next install
# puts them.
mkdir -p "$scratch/fakebin"
cat >"$scratch/fakebin/tshark" <<'EOF'
#!/bin/sh
[ "$1 $2" = "-G folders" ] || exit 2
printf 'Personal Lua Plugins:\t/nowhere/personal\n'
printf 'Global Lua Plugins:  \t/opt/ws-later/plugins\n'
printf 'Extcap path:         \t/opt/ws-later/extcap\n'
EOF
chmod +x "$scratch/fakebin/tshark"
PATH=$scratch/fakebin:$PATH DESTDIR=$scratch/later cmake --install "$build" >"$scratch/later.log"
[ -L "$scratch/later/opt/ws-later/extcap/csmacd" ] ||
    fail "no extcap link in the folder tshark names at install time (/opt/ws-later/extcap)"
[ -s "$scratch/later/opt/ws-later/plugins/csmacd.lua" ] ||
    fail "no dissector in the folder tshark names at install time (/opt/ws-later/plugins)"

# The man page: renders cleanly and holds every option of every command.
if command -v man >/dev/null 2>&1; then
    MANWIDTH=100 man --warnings -l "$prefix/share/man/man1/csmacd.1" >"$scratch/man.txt" \
        2>"$scratch/man.err" || fail "man -l failed: $(cat "$scratch/man.err")"
    [ ! -s "$scratch/man.err" ] || fail "man -l warns: $(cat "$scratch/man.err")"
    for cmd in run tui sweep; do
        grep -q "csmacd $cmd" "$scratch/man.txt" || fail "the man page has no csmacd $cmd"
        for opt in $("$bin" "$cmd" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
            grep -q -- "$opt" "$scratch/man.txt" || fail "the man page lacks $cmd $opt"
        done
    done
    # The network sections' keys, each with its default (check's help,
    # from the parser's table).
    for sec in segment repeater bridge; do
        grep -q "^ *\[$sec NAME\]" "$scratch/man.txt" || fail "the man page has no [$sec NAME]"
    done
    for key in type length velocity probe class delay uplink duplex phy ports queue latency ageing; do
        grep -qE "^ +$key +.*\(default: " "$scratch/man.txt" ||
            fail "the man page lacks the key $key with its default"
    done
    grep -q "share/csmacd/csmacd.lua" "$scratch/man.txt" ||
        fail "the man page does not say where the dissector is"
    # Installed paths only: no document by its place in the source tree,
    # and a dissector example that works from any folder.
    grep -nE "(captures|stations|medium|src)/[A-Za-z_]+\.(md|h|c)" "$scratch/man.txt" &&
        fail "the man page cites a path of the source tree"
    grep -q "share/doc/csmacd/CAPTURES.md" "$scratch/man.txt" ||
        fail "the man page does not cite the installed CAPTURES.md"
    tr -s ' \n' ' ' <"$scratch/man.txt" | grep -q "lua_script:/[^ ]*/share/csmacd/csmacd.lua trace.pcap" ||
        fail "the dissector example is not an absolute path"
    echo "man page: renders without warnings, every option present"
else
    echo "man not installed: man page rendering not checked"
fi

# bash completion, as bash calls it: COMP_WORDS and COMP_CWORD set.
complete_words() { # complete_words WORD...: what bash offers for the last word
    PATH=$prefix/bin:$PATH bash -c '
        . "$0"
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _csmacd
        printf "%s\n" "${COMPREPLY[@]}"' \
        "$prefix/share/bash-completion/completions/csmacd" csmacd "$@"
}
got=$(complete_words "")
for w in run tui sweep presets; do
    printf '%s\n' "$got" | grep -qx "$w" || fail "bash completion: no command $w"
done
complete_words run --sta | grep -qx -- --stations || fail "bash completion: run --sta"
complete_words run --stations-c | grep -qx -- --stations-csv || fail "bash completion: --stations-c"
complete_words sweep --pre | grep -qx -- --precision || fail "bash completion: sweep --pre"
complete_words sweep --preset retry | grep -qx retry-storm || fail "bash completion: --preset"
complete_words run --phy 100 | grep -qx 100basetx || fail "bash completion: --phy"
complete_words run --format j | grep -qx json || fail "bash completion: --format"
complete_words run --pcap-linktype n | grep -qx netanalyzer || fail "bash completion: linktype"
complete_words run --pcap-linktype n | grep -qx netanalyzer-transparent || fail "bash completion: linktype"
echo "bash completion: commands, options, presets and values"

if command -v zsh >/dev/null 2>&1; then
    zsh -n "$prefix/share/zsh/vendor-completions/_csmacd" || fail "zsh completion: syntax"
    echo "zsh completion: parses"
fi
echo "PASS"
