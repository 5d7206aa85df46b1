/* verdict.c - whether a frame reached its receiver whole; see verdict.h. */
#include "verdict.h"

#include <assert.h>

/* The frame's end-to-end verdict, on its sender's counters and traces. */
void verdict_final(segnet *n, const frame *f, uint64_t trace_id, uint32_t attempt, bool ok,
                   sim_time rx_start, sim_time now)
{
    uint32_t sender = (uint32_t)(f->id >> 40), tap;
    mac *m = station_mac(n, sender, &tap);
    mac_bridged_verdict(m, tap, trace_id, f, attempt, ok, rx_start, now);
}

void verdict_on_remote(void *ctx, uint32_t tap, uint64_t tx_id, uint64_t trace_id, const frame *f,
                       uint32_t attempt, sim_time now)
{
    seg_run *g = ctx;
    segnet *n = g->net;
    (void)attempt;
    uint32_t key = g->tap_key[tap];
    if (key == NONE) { /* out of memory when it began */
        *n->no_memory = true;
        return;
    }
    g->tap_key[tap] = NONE; /* the verdict owns it now */
    rec(n, key)->tx_id = tx_id;
    rec(n, key)->trace_id = trace_id;
    bool everywhere = f->dest == FRAME_BROADCAST || f->dest >= n->n_all;
    if (n->n_br > 0 && (everywhere ? tap >= g->rp_end : domain_of_station(n, f->dest) != g->domain)) {
        /* Beyond a bridge (or a copy of a broadcast): no verdict here; the
         * bridge ports hold what they judge. */
        medium_release(g->med, tx_id);
        key_release(n, key);
        return;
    }
    sim_time tail;
    if (everywhere) {
        tail = segnet_farthest(n, g->index, tap);
    } else {
        uint32_t to = n->seg_of_station[f->dest];
        bool found = segnet_path_delay(n, g->index, tap, to, n->seg[to].tap_of[f->dest], &tail);
        assert(found);
        (void)found;
    }
    push(n, now + tail, EV_VERDICT, MAC_PHASE_DELIVER, key, 0);
}

/* Whether the frame's relay onto segment s was whole and reached every
 * station `only` (or every station of s but its sender, for NONE) with
 * nothing overlapping it. */
static bool received_on(segnet *n, uint32_t key, uint32_t s, uint32_t only)
{
    const carried *c = rec(n, key);
    const seg_run *g = &n->seg[s];
    uint64_t tx = c->tx_id;
    if (s != c->seg) {
        size_t i = (size_t)key * n->n_seg + s;
        if (n->relay_st[i] != RELAY_WHOLE)
            return false;
        tx = n->relay_tx[i];
    }
    if (g->fd)
        return true; /* full duplex: nothing shares its direction */
    if (only != NONE)
        return !medium_overlapped_at(g->med, tx, only);
    for (uint32_t j = 0; j < g->n_st; j++)
        if (!(s == c->seg && j == c->tap) && medium_overlapped_at(g->med, tx, j))
            return false;
    return true;
}

void verdict_judge(segnet *n, uint32_t key, sim_time now)
{
    carried *c = rec(n, key);
    bool ok;
    if (c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all) {
        ok = true;
        for (uint32_t s = 0; s < n->n_seg; s++) {
            if (n->seg[s].domain != n->seg[c->seg].domain)
                continue; /* a bridge's copies are not judged */
            if (!received_on(n, key, s, NONE)) {
                ok = false;
                if (s != c->seg)
                    n->seg[s].corrupted++;
            }
        }
    } else {
        uint32_t s = n->seg_of_station[c->f.dest];
        ok = received_on(n, key, s, n->seg[s].tap_of[c->f.dest]);
        if (!ok)
            n->seg[s].corrupted++;
    }
    for (uint32_t s = 0; n->n_rep && s < n->n_seg; s++)
        relay_release(n, key, s);
    if (c->from_port) { /* the last hop of a frame that crossed bridges */
        medium_release(n->seg[c->seg].med, c->tx_id);
        verdict_final(n, &c->f, c->trace_id, c->attempt, ok, c->start + (now - c->end), now);
    } else {
        mac_remote_verdict(n->seg[c->seg].mac, c->tap, c->tx_id, c->trace_id, &c->f, c->attempt,
                           ok, c->start + (now - c->end), now);
    }
    key_release(n, key);
}
