/* tui_help.c - the help overlay (drawn from the key table of tui_keys.c,
 * so it lists exactly the keys there are) and the message shown when the
 * terminal is smaller than TUI_MIN_W x TUI_MIN_H.
 */
#include "tui_int.h"

#include <stdio.h>

static bool help_shows(const tui_snapshot *s, const tui_binding *b)
{
    return b->help && (b->cmd != TUI_CMD_SAVE_PCAP || s->can_save_pcap);
}

static void help_box(ctx *c, int bx, int by, int bw, int bh)
{
    for (int r = 0; r < bh; r++)
        tui_fill(c, bx, by + r, bw, ' ', TUI_A_PLAIN);
    tui_put(c, bx, by, c->gl->box_tl, TUI_A_TITLE);
    tui_put(c, bx + bw - 1, by, c->gl->box_tr, TUI_A_TITLE);
    tui_put(c, bx, by + bh - 1, c->gl->box_bl, TUI_A_TITLE);
    tui_put(c, bx + bw - 1, by + bh - 1, c->gl->box_br, TUI_A_TITLE);
    tui_fill(c, bx + 1, by, bw - 2, c->gl->box_h, TUI_A_TITLE);
    tui_fill(c, bx + 1, by + bh - 1, bw - 2, c->gl->box_h, TUI_A_TITLE);
    for (int r = 1; r < bh - 1; r++) {
        tui_put(c, bx, by + r, c->gl->box_v, TUI_A_TITLE);
        tui_put(c, bx + bw - 1, by + r, c->gl->box_v, TUI_A_TITLE);
    }
    tui_text(c, bx + 2, by, bw - 4, " Help: keys ", TUI_A_TITLE);
}

/* Where c and w write, and the option that chooses it, on two rows or
 * one. A path too long for the box keeps its end (the folder's own name),
 * after "...". */
static void help_files(ctx *c, int x, int y, int w, int rows)
{
    const char *dir = c->s->save_dir ? c->s->save_dir : ".";
    const char *keys = c->s->can_save_pcap ? "c and w save into" : "c saves into";
    const char *opt = rows >= 2 ? "" : " (--save-dir DIR)";
    char line[256];
    const char *tail = dir;
    for (;;) {
        snprintf(line, sizeof line, "%s %s%s%s", keys, tail == dir ? "" : "...", tail, opt);
        if (tui_text_width(line) <= w || !*tail)
            break;
        tail++;
    }
    tui_text(c, x, y, w, line, TUI_A_PLAIN);
    if (rows >= 2)
        tui_text(c, x, y + 1, w, "(folder chosen with csmacd tui --save-dir DIR)", TUI_A_DIM);
}

/* The keys of tui_keys.c, then where files go; the two notes on the mouse
 * and on new sweeps are the first thing left out of a short terminal. */
void tui_draw_help(ctx *c)
{
    const tui_snapshot *s = c->s;
    int w = c->g->w, h = c->g->h;
    int keys = 0;
    for (size_t i = 0; i < tui_binding_count(); i++)
        keys += help_shows(s, tui_binding_at(i));
    int bw = w - 8 < 66 ? w - 8 : 66;
    int bh = keys + 2 + 2 + 3; /* borders, files, blank line and notes */
    if (bh > h - 2)
        bh = h - 2;
    bool notes = bh >= keys + 2 + 2 + 3;
    int file_rows = bh >= keys + 2 + 2 ? 2 : 1;
    int bx = (w - bw) / 2, by = (h - bh) / 2;
    help_box(c, bx, by, bw, bh);
    int last = by + bh - 1 - file_rows - (notes ? 3 : 0); /* first row after the keys */
    int y = by + 1;
    for (size_t i = 0; i < tui_binding_count() && y < last; i++) {
        const tui_binding *b = tui_binding_at(i);
        if (!help_shows(s, b))
            continue;
        tui_text(c, bx + 2, y, 10, b->key_label, TUI_A_KEY);
        tui_text(c, bx + 13, y, bw - 15, b->help, TUI_A_PLAIN);
        y++;
    }
    help_files(c, bx + 2, last, bw - 4, file_rows);
    if (!notes)
        return;
    tui_text(c, bx + 2, by + bh - 3, bw - 4,
             "Mouse: click a key in the bottom bar, wheel scrolls the table.", TUI_A_DIM);
    tui_text(c, bx + 2, by + bh - 2, bw - 4,
             "Changing load, frame size, PHY or policy starts a new sweep.", TUI_A_DIM);
}

void tui_draw_too_small(ctx *c)
{
    int w = c->g->w, h = c->g->h;
    char l1[96], l2[96];
    snprintf(l1, sizeof l1, "Terminal too small: %dx%d", w, h);
    snprintf(l2, sizeof l2, "csmacd needs at least %dx%d.", TUI_MIN_W, TUI_MIN_H);
    const char *l3 = "Enlarge the window, or press q to quit.";
    const char *lines[3] = {l1, l2, l3};
    int y0 = h / 2 - 1;
    if (y0 < 0)
        y0 = 0;
    for (int i = 0; i < 3; i++) {
        int lw = tui_text_width(lines[i]);
        int x = lw >= w ? 0 : (w - lw) / 2;
        tui_text(c, x, y0 + i, w, lines[i], i == 0 ? TUI_A_WARN : TUI_A_PLAIN);
    }
}
