/* tui_keys.c - the key bindings, in one const table that both the keys and
 * the help overlay read (so the help cannot disagree with the keys), and
 * the mapping of an input event to a command.
 */
#include "tui_layout.h"

#include <stddef.h>

/* Entries with a NULL help are aliases, or the second half of a pair whose
 * help line the first entry carries. */
static const tui_binding bindings[] = {
    {' ', TUI_CMD_PAUSE, "space", "pause / resume"},
    {'p', TUI_CMD_PAUSE, NULL, NULL},
    {'s', TUI_CMD_STEP_EVENT, "s", "single step: the next event, told in words (pauses)"},
    {'.', TUI_CMD_STEP_EVENT, NULL, NULL},
    {'S', TUI_CMD_STEP_SLOT, "S", "single step: one slot time"},
    {'<', TUI_CMD_SLOWER, "< >", "slower / faster (slow motion .. full speed)"},
    {'>', TUI_CMD_FASTER, NULL, NULL},
    {'+', TUI_CMD_MORE_STATIONS, "+ -", "add / remove a station (leaves the sweep)"},
    {'=', TUI_CMD_MORE_STATIONS, NULL, NULL},
    {'-', TUI_CMD_FEWER_STATIONS, NULL, NULL},
    {'l', TUI_CMD_LOAD_DOWN, "l L", "offered load down / up (top: saturated)"},
    {'L', TUI_CMD_LOAD_UP, NULL, NULL},
    {'f', TUI_CMD_FRAME_DOWN, "f F", "frame size down / up (64 .. 1518 bytes)"},
    {'F', TUI_CMD_FRAME_UP, NULL, NULL},
    {'m', TUI_CMD_NEXT_PHY, "m", "next PHY profile (medium, bit rate)"},
    {'b', TUI_CMD_NEXT_POLICY, "b", "next backoff policy (beb, ca-beb, ... ppersistent)"},
    {'r', TUI_CMD_RESTART, "r", "restart the sweep"},
    {'a', TUI_CMD_TOGGLE_REF, "a", "show / hide the analytic reference curve"},
    {'z', TUI_CMD_ZOOM, "z", "S axis: zoomed to the data / the whole 0 .. 1"},
    {'w', TUI_CMD_SAVE_PCAP, "w", "write the trace of the run's last 10 s (pcapng)"},
    {'c', TUI_CMD_SAVE_CSV, "c", "save the plot data (CSV)"},
    {'t', TUI_CMD_SWAP_TOPOLOGY, "t", "swap: hub (or bus) -> switch half -> full duplex"},
    {TUI_KEY_UP, TUI_CMD_SCROLL_UP, "Up Down", "scroll the station table (PgUp PgDn: a page)"},
    {'k', TUI_CMD_SCROLL_UP, NULL, NULL},
    {TUI_KEY_DOWN, TUI_CMD_SCROLL_DOWN, NULL, NULL},
    {'j', TUI_CMD_SCROLL_DOWN, NULL, NULL},
    {TUI_KEY_PGUP, TUI_CMD_PAGE_UP, NULL, NULL},
    {TUI_KEY_PGDN, TUI_CMD_PAGE_DOWN, NULL, NULL},
    {'?', TUI_CMD_HELP, "?", "show / hide this help"},
    {'h', TUI_CMD_HELP, NULL, NULL},
    {TUI_KEY_F1, TUI_CMD_HELP, NULL, NULL},
    {TUI_KEY_ESC, TUI_CMD_CLOSE, "Esc", "close this help; cancel a trace being written"},
    {'q', TUI_CMD_QUIT, "q", "quit"},
    {'Q', TUI_CMD_QUIT, NULL, NULL},
};

size_t tui_binding_count(void)
{
    return sizeof bindings / sizeof bindings[0];
}

const tui_binding *tui_binding_at(size_t i)
{
    return i < tui_binding_count() ? &bindings[i] : NULL;
}

tui_command tui_key_command(int key, bool can_save_pcap)
{
    for (size_t i = 0; i < tui_binding_count(); i++) {
        if (bindings[i].key != key)
            continue;
        if (bindings[i].cmd == TUI_CMD_SAVE_PCAP && !can_save_pcap)
            return TUI_CMD_NONE;
        return bindings[i].cmd;
    }
    return TUI_CMD_NONE;
}

tui_command tui_input_command(const tui_input *in, const tui_grid *g, bool can_save_pcap)
{
    switch (in->kind) {
    case TUI_IN_KEY:
        return tui_key_command(in->key, can_save_pcap);
    case TUI_IN_CLICK:
        return g ? tui_grid_hit(g, in->x, in->y) : TUI_CMD_NONE;
    case TUI_IN_WHEEL_UP:
        return TUI_CMD_SCROLL_UP;
    case TUI_IN_WHEEL_DOWN:
        return TUI_CMD_SCROLL_DOWN;
    case TUI_IN_RESIZE:
        return TUI_CMD_RESIZE;
    case TUI_IN_NONE:
        break;
    }
    return TUI_CMD_NONE;
}
