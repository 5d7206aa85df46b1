/* tui_grid.c - the grid of cells a screen is drawn into, its text and
 * attribute dumps (what the tests compare), and the hot spots that map a
 * click to a command. See tui_layout.h for the contract.
 */
#include "tui_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tui_grid_init(tui_grid *g, int w, int h)
{
    memset(g, 0, sizeof *g);
    return tui_grid_resize(g, w, h);
}

int tui_grid_resize(tui_grid *g, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    tui_cell *c = calloc((size_t)w * (size_t)h, sizeof *c);
    if (!c)
        return -1;
    free(g->cells);
    g->cells = c;
    g->w = w;
    g->h = h;
    g->n_hot = 0;
    return 0;
}

void tui_grid_free(tui_grid *g)
{
    free(g->cells);
    g->cells = NULL;
    g->w = g->h = 0;
}

static size_t utf8_put(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t tui_grid_text(const tui_grid *g, char *buf, size_t cap)
{
    size_t n = 0;
    for (int y = 0; y < g->h; y++) {
        for (int x = 0; x <= g->w; x++) {
            char tmp[4];
            size_t k = x < g->w ? utf8_put(g->cells[y * g->w + x].ch, tmp) : (tmp[0] = '\n', 1);
            for (size_t i = 0; i < k; i++, n++)
                if (n + 1 < cap)
                    buf[n] = tmp[i];
        }
    }
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

size_t tui_grid_attrs(const tui_grid *g, char *buf, size_t cap)
{
    static const char codes[TUI_A_COUNT] = {'.', 'b', 'r', 'd', 'u', 'A', 'B', 'C', 'D', 'E',
                                            'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N',
                                            'O', 'P', 'Q', 'R'};
    size_t n = 0;
    for (int y = 0; y < g->h; y++) {
        for (int x = 0; x <= g->w; x++, n++) {
            char c = x < g->w ? codes[g->cells[y * g->w + x].attr % TUI_A_COUNT] : '\n';
            if (n + 1 < cap)
                buf[n] = c;
        }
    }
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

tui_command tui_grid_hit(const tui_grid *g, int x, int y)
{
    for (int i = 0; i < g->n_hot; i++) {
        const tui_hotspot *h = &g->hot[i];
        if (y == h->y && x >= h->x && x < h->x + h->w)
            return h->cmd;
    }
    return TUI_CMD_NONE;
}
