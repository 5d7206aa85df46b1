# tshark_isolate.sh - a Wireshark that sees no installed csmacd, sourced by
# the tshark tests (tshark_lib.sh, test_extcap.sh) with a scratch work
# folder in W.
#
# An installed csmacd puts its dissector among Wireshark's Lua plugins and
# a link to itself among its extcaps: `cmake --install` in the global
# folders, `csmacd extcap --install-user` in the user's. Wireshark loads
# them all, so a test's own captures/csmacd.lua (given with -X, or
# installed in a scratch HOME) would meet a copy of another version, and
# the test's extcap another csmacd. So the tests see Wireshark's global
# folders as copies in W, less csmacd's files (W/ws-plugins, W/ws-extcap:
# a test may put a "system" copy there), and their HOME is a scratch
# folder of W:
#   - for a user, WIRESHARK_PLUGIN_DIR and WIRESHARK_EXTCAP_DIR name them;
#   - root, whom Wireshark never lets move its folders, runs tshark (and
#     what must see what tshark sees: `in_view COMMAND...`) in a mount
#     namespace of its own where they are bound over the global folders.
#     Where root may not make one (a container without CAP_SYS_ADMIN),
#     tshark sees the machine's folders, and the test says so.
# `tshark` is a function that shadows the command. Nothing outside W
# changes, and other users of tshark see no change.
HOME=$W/home
export HOME
unset XDG_CONFIG_HOME
mkdir -p "$HOME" "$W/ws-plugins" "$W/ws-extcap"
csmacd_ws_folders=$(command tshark -G folders 2>/dev/null)
csmacd_ws_lua=$(echo "$csmacd_ws_folders" | sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
csmacd_ws_extcap=$(echo "$csmacd_ws_folders" | sed -n 's/^Extcap path:[[:space:]]*//p')
# The binds of the namespace: "FOLDER|ONTO" lines.
: >"$W/ws-binds"
# A copy of folder $1 in $2 without csmacd's files: its files copied, its
# folders linked (a user) or bound in the namespace (root).
csmacd_ws_mirror() {
    [ -d "$1" ] || return 0
    for f in "$1"/* "$1"/.[!.]*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        case ${f##*/} in csmacd | csmacd.lua) continue ;; esac
        if [ -d "$f" ] && [ "$(id -u)" = 0 ]; then
            mkdir -p "$2/${f##*/}"
            echo "$f|$2/${f##*/}" >>"$W/ws-binds"
        elif [ -d "$f" ]; then
            ln -s "$f" "$2/"
        else
            cp -P "$f" "$2/"
        fi
    done
}
csmacd_ws_mirror "$csmacd_ws_lua" "$W/ws-plugins"
csmacd_ws_mirror "$csmacd_ws_extcap" "$W/ws-extcap"
csmacd_ws_ns=false
if [ "$(id -u)" != 0 ]; then
    WIRESHARK_PLUGIN_DIR=$W/ws-plugins
    WIRESHARK_EXTCAP_DIR=$W/ws-extcap
    export WIRESHARK_PLUGIN_DIR WIRESHARK_EXTCAP_DIR
elif [ -d "$csmacd_ws_lua" ] && [ -d "$csmacd_ws_extcap" ] && unshare -m true 2>/dev/null; then
    csmacd_ws_ns=true
    echo "$W/ws-plugins|$csmacd_ws_lua" >>"$W/ws-binds"
    echo "$W/ws-extcap|$csmacd_ws_extcap" >>"$W/ws-binds"
else
    echo "note: root cannot hide Wireshark's global folders here (no mount namespace):" \
        "an installed csmacd is seen beside the test's"
fi
# in_view COMMAND...: runs COMMAND seeing Wireshark's folders as tshark does.
in_view() {
    if $csmacd_ws_ns; then
        unshare -m sh -c '
            while IFS="|" read -r from onto; do
                mount --bind "$from" "$onto" || exit 125
            done <"$0"
            exec "$@"' "$W/ws-binds" "$@"
    else
        "$@"
    fi
}
tshark() { in_view tshark "$@"; }
