/* repeater.c - the repeater of 802.3 Clause 9 and Clause 27; see
 * repeater.h.
 *
 * After the inputs of an instant have changed, the repeater decides once
 * (the states of the repeater state diagrams of Clause 9, 9.6, and of
 * Clause 27, 27.3):
 *   - idle, and one port active with one signal: repeat it to every other
 *     port (Clause 9.5, 27.3);
 *   - two ports active: TRANSMIT COLLISION, jam every port, the active
 *     ones included (collision handling: 9.5.6, 27.3);
 *   - one port active with two signals (the port's transceiver sees a
 *     collision on its segment), the repeater idle or repeating: RECEIVE
 *     COLLISION, jam every other port until that one falls silent; its
 *     own segment carries the collision already;
 *   - jamming every port, and one port left active (with one signal or
 *     more: the other repeaters' jam there is the collision being
 *     handled, not a new one): ONE PORT LEFT, jam every port but that one
 *     until it falls silent;
 *   - nothing active: stop, every output lasting at least 96 bit times
 *     (a shorter fragment is extended: Clause 9's and 27's fragment
 *     extension).
 * What it decides at t happens at its ports at t + its delay.
 */
#include "repeater.h"

#include <assert.h>
#include <stdlib.h>

#include "bridge_port.h"

/* ---- what the ports hear -------------------------------------------------- */

void rep_port_signal(segnet *n, seg_run *g, uint32_t tap, bool begin, sim_time now)
{
    port_run *p = &n->port[g->port_of[tap - g->n_st]];
    uint32_t key = begin ? (p->out == OUT_FRAME ? p->key : NONE) : p->end_key;
    bool whole = p->out_whole;
    if (!begin) {
        p->end_key = NONE; /* its reference goes to the ends pushed below */
    } else {
        key_ref(n, key);   /* balanced by the release below */
        p->out_relay_new = true; /* (episode_output) */
    }
    if (!begin && whole && key != NONE && g->n_taps > g->rp_end) {
        g->bits_whole += 8ull * rec(n, key)->f.bytes;
        bport_hear(n, g, tap, key, UINT64_MAX, now);
    }
    rep_hear(n, g, tap, key, begin, whole, now);
    key_release(n, key);
}

/* ---- a port's output ---------------------------------------------------- */

/* An output event's argument: the frame (its reference travels with the
 * event), an extended end's stamp (24 bits), the episode's slot (5 bits),
 * whole, the action. */
#define GEN_NONE 0xffffffu
static uint64_t out_arg(uint32_t key, uint32_t gen, uint32_t slot, bool whole, int act)
{
    return (uint64_t)key << 32 | (uint64_t)gen << 8 | (uint64_t)slot << 3 | (uint64_t)whole << 2 |
           (uint64_t)act;
}

static void bump(port_run *p)
{
    p->end_gen = (p->end_gen + 1) % GEN_NONE;
}

/* What the output of p carries, for the trace. */
static mac_carried carried_by(const segnet *n, const port_run *p)
{
    mac_carried w = {.f = NULL, .sent_at = SIM_TIME_NEVER};
    if (p->key != NONE) {
        const carried *c = rec(n, p->key);
        w = (mac_carried){.f = &c->f, .sender = c->sender, .attempt = c->attempt,
                          .backoff_slots = c->backoff_slots, .sent_at = c->start};
        if (c->from_port) { /* a bridge's copy: the frame as its sender sent it */
            w.attempt = c->sent_attempt;
            w.backoff_slots = c->sent_backoff;
            w.sent_at = c->sent_at;
        }
    }
    return w;
}

static void out_begin(segnet *n, port_run *p, uint8_t out, uint32_t key, sim_time u)
{
    seg_run *g = &n->seg[p->seg];
    p->out = out;
    p->key = key;
    key_ref(n, key);
    p->cut = false;
    p->out_whole = false;
    p->out_begin = u;
    /* The relay a verdict will read is held: onto the receiver's segment
     * (every segment, for a broadcast), unless the frame has already
     * failed. */
    bool hold = false;
    size_t i = (size_t)key * n->n_seg + p->seg;
    if (key != NONE) {
        const carried *c = rec(n, key);
        bool everywhere = c->f.dest == FRAME_BROADCAST || c->f.dest >= n->n_all;
        hold = (everywhere || n->seg_of_station[c->f.dest] == p->seg ||
                g->n_taps > g->rp_end) &&
               (c->end == SIM_TIME_NEVER || c->whole) && n->relay_st[i] == RELAY_NONE;
    }
    mac_carried what = carried_by(n, p);
    p->relay_tx = mac_relay_begin(g->mac, p->tap, u, hold, &what);
    if (hold && p->relay_tx != UINT64_MAX) {
        n->relay_tx[i] = p->relay_tx;
        n->relay_st[i] = RELAY_ON;
    }
}

static void out_end(segnet *n, port_run *p, bool whole, sim_time u)
{
    seg_run *g = &n->seg[p->seg];
    sim_time min_out_ps = n->rep[p->rep].min_out_ps;
    if (u < p->out_begin + min_out_ps) { /* a fragment: extended with jam */
        p->cut = true;
        bump(p);
        if (p->relay_tx != UINT64_MAX) {
            mac_carried what = carried_by(n, p);
            mac_relay_jam(g->mac, p->tap, u, &what);
        }
        n->rep[p->rep].fragments_extended++;
        push(n, p->out_begin + min_out_ps, EV_OUT, PH_DECIDE_END, (uint32_t)(p - n->port),
             out_arg(NONE, p->end_gen, 0, false, ACT_END));
        return;
    }
    p->out_whole = whole && p->out == OUT_FRAME && !p->cut && p->key != NONE;
    if (p->key != NONE) {
        size_t i = (size_t)p->key * n->n_seg + p->seg;
        if (n->relay_st[i] == RELAY_ON && n->relay_tx[i] == p->relay_tx)
            n->relay_st[i] = p->out_whole ? RELAY_WHOLE : RELAY_CUT;
    }
    if (p->out_whole)
        g->relayed++;
    mac_carried what = carried_by(n, p);
    p->end_key = p->out == OUT_FRAME ? p->key : NONE; /* the reference moves there */
    if (p->out != OUT_FRAME)
        key_release(n, p->key);
    mac_relay_end(g->mac, p->tap, u, &what, p->out_whole);
    p->out = OUT_NONE;
    p->key = NONE;
}

/* Carries out at u what the repeater decided for port p. `gen`: for an
 * end, the stamp of an extended end (GEN_NONE: a decision's own). */
static void episode_output(segnet *n, rep_run *r, port_run *p, uint32_t slot, bool queued);

static void apply(segnet *n, port_run *p, int act, uint32_t key, bool whole, uint32_t gen,
                  uint32_t slot, bool queued, sim_time u)
{
    rep_run *r = &n->rep[p->rep];
    switch (act) {
    case ACT_FRAME:
        if (p->out == OUT_NONE) {
            out_begin(n, p, OUT_FRAME, key, u);
        } else { /* the extension of a fragment still runs: the two merge */
            bump(p);
            p->cut = true;
        }
        break;
    case ACT_JAM:
        /* Jam decided, then at the same instant this port left alone
         * active (a collision of two signals on it, then no other port
         * active): the end that decision sent came first at u (ends
         * before starts), so the jam is not begun, rather than run for
         * good (the port left is never ended again). */
        if (r->delay_ps > 0 && p->left_at == u - r->delay_ps)
            break;
        r->jams_sent++;
        if (p->out == OUT_NONE) {
            out_begin(n, p, OUT_JAM, NONE, u);
        } else {
            bump(p);
            p->cut = true;
            p->out = OUT_JAM;
        }
        if (p->relay_tx != UINT64_MAX) { /* the trace says so (TRACE_RELAY_JAM) */
            mac_carried what = carried_by(n, p);
            mac_relay_jam(n->seg[p->seg].mac, p->tap, u, &what);
        }
        break;
    case ACT_END:
        if (p->out == OUT_NONE || (gen != GEN_NONE && gen != p->end_gen))
            break;
        out_end(n, p, whole, u);
        break;
    }
    if (n->dev && act != ACT_END)
        episode_output(n, r, p, slot, queued);
}

/* A decision taken at t for port p: at once when the repeater has no
 * delay of its own (a hub's uplink), else its delay later. */
static inline void decide_port(segnet *n, rep_run *r, uint32_t pi, int act, uint32_t key,
                               bool whole, sim_time t)
{
    if (r->delay_ps == 0) {
        apply(n, &n->port[pi], act, key, whole, GEN_NONE, r->ep_cur, false, t);
        return;
    }
    if (n->dev && act != ACT_END)
        r->ep[r->ep_cur].pending++;
    key_ref(n, key);
    push(n, t + r->delay_ps, EV_OUT, act == ACT_END ? PH_DECIDE_END : PH_DECIDE_START, pi,
         out_arg(key, GEN_NONE, r->ep_cur, whole, act));
}

/* ---- the repeater's episodes (domain_events.h) ---------------------------- */

/* A decision with some port active: the repeater leaving idle opens an
 * episode, and every input present overlaps at it (an input that comes
 * while one is under way joins it at once: rep_input). */
static void episode_inputs(segnet *n, rep_run *r)
{
    if (r->ep_open != NONE)
        return;
    uint32_t slot = r->ep_cur; /* a free slot, the next one first */
    for (uint32_t i = 1; i <= REP_EPISODES; i++)
        if (r->ep[(r->ep_cur + i) % REP_EPISODES].node == NONE) {
            slot = (r->ep_cur + i) % REP_EPISODES;
            break;
        }
    r->ep_cur = slot;
    struct rep_episode *e = &r->ep[slot];
    if (e->node != NONE) {
        /* Every slot's outputs still on their way (a repeater delay
         * longer than REP_EPISODES episodes): the last one goes on, which
         * can only join two events that should be two. */
        e->idle = false;
    } else {
        e->node = domain_events_node(n->dev, n->seg[n->port[r->first_port].seg].domain);
        e->pending = 0;
        e->idle = false;
        if (e->node == NONE)
            *n->no_memory = true;
    }
    r->ep_open = e->node;
    for (uint32_t pi = r->first_port; pi < r->first_port + r->n_ports; pi++)
        for (uint32_t k = 0; k < n->port[pi].n_in; k++)
            seg_join(&n->seg[n->port[pi].seg], n->port[pi].in[k].tap, n->port[pi].in[k].start,
                     e->node, 0);
}

static void episode_close_if_done(segnet *n, struct rep_episode *e)
{
    if (e->idle && e->pending == 0 && e->node != NONE) {
        domain_events_close(n->dev, e->node, 0);
        e->node = NONE;
    }
}

/* A decision with nothing active: the episode is over once its outputs
 * have begun. */
static void episode_idle(segnet *n, rep_run *r)
{
    struct rep_episode *e = &r->ep[r->ep_cur];
    r->ep_open = NONE;
    if (e->node != NONE && !e->idle) {
        e->idle = true;
        episode_close_if_done(n, e);
    }
}

/* An output the episode in `slot` decided (begun, or carried on by a port
 * already sending) belongs to it. */
static void episode_output(segnet *n, rep_run *r, port_run *p, uint32_t slot, bool queued)
{
    struct rep_episode *e = &r->ep[slot];
    if (p->out != OUT_NONE) { /* a relay is no station's transmission: taken off once */
        seg_join(&n->seg[p->seg], p->tap, p->out_begin, e->node, p->out_relay_new ? -1 : 0);
        p->out_relay_new = false;
    }
    if (queued)
        e->pending--;
    episode_close_if_done(n, e);
}

/* ---- the repeater ------------------------------------------------------- */

void rep_decide(segnet *n, uint32_t ri, sim_time t, bool starts)
{
    rep_run *r = &n->rep[ri];
    r->decide_at[starts] = -1; /* a change after this one asks again */
    uint32_t active = 0, one = NONE;
    bool multi = false;
    for (uint32_t pi = r->first_port; pi < r->first_port + r->n_ports; pi++) {
        const port_run *p = &n->port[pi];
        if (p->n_in) {
            active++;
            one = pi;
            multi |= p->n_in > 1; /* two signals on its segment */
        }
    }
    if (n->dev && active)
        episode_inputs(n, r);
    uint32_t end = r->first_port + r->n_ports;
    if (active > 1) {
        /* TRANSMIT COLLISION (activity on two ports at once): jam every
         * port. Counted when entered from any state but ONE PORT LEFT
         * (Clause 30's aTransmitCollisions). */
        if (r->state == R_IDLE || r->state == R_REPEAT) {
            r->transmit_collisions++;
            for (uint32_t pi = r->first_port; pi < end; pi++) {
                n->port[pi].left_at = -1;
                decide_port(n, r, pi, ACT_JAM, NONE, false, t);
            }
        } else if (r->src != NONE) { /* another port is active again: jam the one left too */
            if (r->state == R_RX_COL)
                r->transmit_collisions++;
            n->port[r->src].left_at = -1;
            decide_port(n, r, r->src, ACT_JAM, NONE, false, t);
        }
        r->state = R_JAM;
        r->src = NONE;
        for (uint32_t pi = r->first_port; pi < end; pi++)
            if (n->port[pi].n_in)
                n->port[pi].collisions++;
        return;
    }
    if (multi && (r->state == R_IDLE || r->state == R_REPEAT)) {
        /* RECEIVE COLLISION: two signals on the one active port, a
         * collision its segment already carries. Jam every OTHER port,
         * until that port falls silent (or another port becomes active:
         * TRANSMIT COLLISION). Jamming it back would only make its
         * collision last longer, and a hub's uplink would answer every
         * collision of the hub's own stations so. While it jams, two
         * signals on the port active are no new collision either (in
         * ONE PORT LEFT, the jam of the other repeaters on that segment,
         * or a collision of its own stations). */
        for (uint32_t pi = r->first_port; pi < end; pi++) {
            if (pi == one)
                continue;
            n->port[pi].left_at = -1;
            decide_port(n, r, pi, ACT_JAM, NONE, false, t);
        }
        r->state = R_RX_COL;
        r->src = one;
        n->port[one].collisions++;
        return;
    }
    switch (r->state) {
    case R_IDLE:
        if (active == 1) {
            r->state = R_REPEAT;
            r->src = one;
            r->key = n->port[one].in[0].key;
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != one)
                    decide_port(n, r, pi, ACT_FRAME, r->key, false, t);
        }
        break;
    case R_REPEAT:
        if (active == 0) {
            const port_run *src = &n->port[r->src];
            bool whole = src->last_whole && src->last_key == r->key;
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != r->src)
                    decide_port(n, r, pi, ACT_END, NONE, whole, t);
            r->state = R_IDLE;
            r->src = NONE;
        }
        break;
    case R_JAM:
    case R_RX_COL:
        if (active == 0) {
            for (uint32_t pi = r->first_port; pi < end; pi++)
                if (pi != r->src)
                    decide_port(n, r, pi, ACT_END, NONE, false, t);
            r->state = R_IDLE;
            r->src = NONE;
        } else if (r->src == NONE) { /* ONE PORT LEFT: stop jamming it */
            r->src = one;
            n->port[one].left_at = t;
            decide_port(n, r, one, ACT_END, NONE, false, t);
        }
        break;
    }
    if (n->dev && active == 0)
        episode_idle(n, r);
}

/* Queues the repeater's decision at t after the inputs of this phase
 * (once, however many inputs change before it; a change that comes after
 * it at the same instant, from a tap at the port's own place, queues
 * another). */
static void want_decision(segnet *n, uint32_t ri, sim_time t, bool starts)
{
    rep_run *r = &n->rep[ri];
    if (r->decide_at[starts] == t)
        return;
    r->decide_at[starts] = t;
    push(n, t, EV_DECIDE, starts ? PH_DECIDE_START : PH_DECIDE_END, ri, starts);
}

void rep_input(segnet *n, const sim_event *ev, bool begin)
{
    port_run *p = &n->port[ev->target];
    uint32_t key = (uint32_t)(ev->arg >> 32);
    uint32_t tap = (uint32_t)(ev->arg >> 1) & 0x7fffffffu;
    bool whole = ev->arg & 1;
    if (begin) {
        if (p->n_in == p->cap_in) {
            uint32_t cap = p->cap_in ? 2 * p->cap_in : 4;
            in_sig *in = realloc(p->in, cap * sizeof *in);
            if (!in) {
                *n->no_memory = true;
                return;
            }
            p->in = in;
            p->cap_in = cap;
        }
        /* its transmission began at the tap the cable's delay ago */
        seg_run *g = &n->seg[p->seg];
        sim_time start = 0;
        if (n->dev) {
            start = ev->time - medium_delay(g->med, tap, p->tap);
            uint32_t open = n->rep[p->rep].ep_open;
            if (open != NONE)
                seg_join(g, tap, start, open, 0);
        }
        p->in[p->n_in++] = (in_sig){tap, key, start}; /* the event's reference moves here */
    } else {
        uint32_t i = 0;
        while (i < p->n_in && p->in[i].tap != tap)
            i++;
        assert(i < p->n_in);
        key_release(n, p->in[i].key);
        p->in[i] = p->in[--p->n_in];
        p->last_whole = whole;
        p->last_key = key;
        if (whole && key != NONE)
            p->readable++;
        key_release(n, key);
    }
    want_decision(n, p->rep, ev->time, begin);
}

void rep_output(segnet *n, const sim_event *ev)
{
    uint32_t key = (uint32_t)(ev->arg >> 32);
    int act = (int)(ev->arg & 3);
    bool whole = (ev->arg >> 2) & 1;
    uint32_t gen = (uint32_t)(ev->arg >> 8) & GEN_NONE;
    uint32_t slot = (uint32_t)(ev->arg >> 3) & (REP_EPISODES - 1);
    apply(n, &n->port[ev->target], act, key, whole, gen, slot, true, ev->time);
    key_release(n, key);
}

void rep_counts(const segnet *n, uint32_t r, uint64_t out[5])
{
    const rep_run *x = &n->rep[r];
    out[0] = x->transmit_collisions;
    out[1] = x->jams_sent;
    out[2] = x->fragments_extended;
    out[3] = out[4] = 0;
    for (uint32_t p = x->first_port; p < x->first_port + x->n_ports; p++) {
        out[3] += n->port[p].readable;
        out[4] += n->port[p].collisions;
    }
}
