#!/bin/sh
# make_man.sh BINARY OUTPUT DATADIR DOCDIR - writes the man page csmacd(1) from the
# program's own help texts (csmacd --help, csmacd COMMAND --help, csmacd
# presets), so the page cannot drift from them: the build runs this after
# linking csmacd, and tests/install/test_install.sh renders the installed page
# with man -l.
# Only the framing (name, files, see also) is written here.
set -eu
bin=$1
out=$2
datadir=$3 # where the dissector is installed (csmacd/csmacd.lua)
docdir=$4
version=$("$bin" --version | sed 's/^csmacd //')

# Help text as roff, unfilled: the repository's documents named by where
# they are installed (the page is read on installed systems, where no
# source tree is), backslashes escaped, a leading dot or quote protected,
# hyphens made minus signs (so options copy and paste).
roff() {
    sed -e "s|captures/README\\.md|$docdir/CAPTURES.md|g" \
        -e "s|medium/README\\.md|$docdir/MEDIUM.md|g" \
        -e "s|stations/MODEL\\.md|$docdir/MODEL.md|g" \
        -e "s|stations/POLICIES\\.md|$docdir/POLICIES.md|g" \
        -e "s|src/cli/CLI\\.md|$docdir/CLI.md|g" |
        sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

section() { # section TITLE: the command's help, unfilled
    printf '.SS "%s"\n.nf\n' "$1"
    roff
    printf '.fi\n'
}

tmp=$out.tmp
{
    printf '.TH CSMACD 1 "" "csmacd %s" "User Commands"\n' "$version"
    printf '.nh\n'
    printf '.SH NAME\ncsmacd \\- an emulator of half\\-duplex Ethernet (IEEE 802.3 CSMA/CD)\n'
    printf '.SH SYNOPSIS\n.nf\n'
    "$bin" --help | sed -n '/^usage:/,/^$/p' | sed 's/^usage: //; s/^       //' | roff
    printf '.fi\n.SH DESCRIPTION\n.nf\n'
    "$bin" --help | sed '1,/^$/d' | roff
    printf '.fi\n.PP\nRun on a terminal with no command, csmacd starts the live screen (csmacd tui).\n'
    printf '.SH COMMANDS\n'
    for cmd in run check tui sweep extcap; do
        "$bin" "$cmd" --help | section "csmacd $cmd"
    done
    "$bin" presets | section "csmacd presets"
    printf '.SH FILES\n.TP\n.I %s/csmacd/csmacd.lua\n' "$datadir"
    printf 'The Wireshark dissector for csmacd'"'"'s traces, from any folder:\n'
    printf '\\fBwireshark \\-X lua_script:%s/csmacd/csmacd.lua trace.pcapng\\fR\n' \
        "$(printf '%s' "$datadir" | sed 's/-/\\-/g')"
    cat <<'ROFF'
(\fBcsmacd extcap \-\-install\-user\fR copies it to \fI~/.local/lib/wireshark/plugins/\fR,
where Wireshark loads it by itself).
.TP
.I ~/.config/wireshark/extcap/csmacd
A link to csmacd made by \fBcsmacd extcap \-\-install\-user\fR: Wireshark then lists
csmacd among its capture interfaces (\fBcmake \-\-install\fR puts the same link in
Wireshark's own extcap folder, as \fBtshark \-G folders\fR names it).
.TP
ROFF
    printf '.I %s/\n' "$docdir"
    cat <<'ROFF'
README.md (every command with examples, the presets), CAPTURES.md (reading traces),
MODEL.md (the model's specification, with the 802.3 clauses), MEDIUM.md (PHY profiles,
propagation, signals), POLICIES.md (the backoff policies and their sources), CLI.md
(messages, exit statuses, outputs), ARCHITECTURE.md (the layers of the code).
.SH SEE ALSO
.BR wireshark (1),
.BR tshark (1),
.BR gnuplot (1)
ROFF
} >"$tmp"
mv "$tmp" "$out"
