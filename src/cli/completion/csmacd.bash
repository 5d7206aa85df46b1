# bash completion for csmacd. The commands, each command's options and the
# values of the options that take a fixed set come from the program's own
# help texts (csmacd COMMAND --help, csmacd presets), so they cannot drift;
# sweep --grid completes a scenario key (run --help, "Scenario options") and
# its "=".
# Installed to share/bash-completion/completions/csmacd.

_csmacd_words() { # _csmacd_words PROGRAM COMMAND OPTION: the option's values
    local help set
    help=$("$1" "$2" --help 2>/dev/null)
    # "--format text|json|csv", in the usage or the option's line ...
    set=$(printf '%s\n' "$help" | grep -oE -- "$3 [a-z0-9-]+(\|[a-z0-9-]+)+" | head -n 1)
    if [ -n "$set" ]; then
        printf '%s\n' "${set#* }" | tr '|' ' '
        return
    fi
    # ... or "--phy NAME   PHY profile: a, b, c (default)"
    set=$(printf '%s\n' "$help" | grep -E -- "^ +$3 " | sed -n 's/.*: //p')
    printf '%s\n' "${set% (*}" | tr ',' ' '
}

_csmacd_keys() { # _csmacd_keys PROGRAM: the scenario keys, "KEY=" (sweep --grid)
    "$1" run --help 2>/dev/null | sed -n '/^Scenario options/,/^$/p' |
        grep -oE -- '^ +--[a-z][a-z0-9-]*' | sed 's/^ *--//; s/$/=/' | sort -u
}

_csmacd() {
    local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "run check tui sweep presets extcap --help --version" -- "$cur"))
        return
    fi
    case $prev in
        --preset)
            COMPREPLY=($(compgen -W "$("$prog" presets 2>/dev/null | awk '{print $1}')" -- "$cur"))
            return ;;
        --phy)
            COMPREPLY=($(compgen -W "$(_csmacd_words "$prog" run --phy)" -- "$cur"))
            return ;;
        --grid)
            COMPREPLY=($(compgen -W "$(_csmacd_keys "$prog")" -- "$cur"))
            compopt -o nospace 2>/dev/null
            return ;;
        --plot-x)
            COMPREPLY=($(compgen -W "stations load length frame-size" -- "$cur"))
            return ;;
        --format|--topology|--duplex|--pcap-collisions|--pcap-format|--pcap-linktype|--two-part-deferral|--extension|--bursting|--retry-late)
            COMPREPLY=($(compgen -W "$(_csmacd_words "$prog" "$cmd" "$prev")" -- "$cur"))
            return ;;
    esac
    case $cur in
        -*)
            COMPREPLY=($(compgen -W "$("$prog" "$cmd" --help 2>/dev/null |
                grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur")) ;;
        *)
            COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _csmacd csmacd
