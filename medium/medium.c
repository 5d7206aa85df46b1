/* medium.c - geometry, live transmissions and signal queries; see medium.h.
 *
 * Live transmissions sit in a window of one array, ordered by start time,
 * so the record of id k is live[k - first_id] and retiring moves the
 * window's front. When the window reaches the array's end it slides back
 * to the start (or the array doubles, when more than half of it is live):
 * the hot loops over live records index one pointer, with no wrap.
 *
 * A record may be retired once nothing can need it:
 *   - it has ended and its last bit has left the cable everywhere, plus
 *     retain_ps (a station's inter-frame gap may still be timed from it);
 *   - no reception that began before its signal died out is still to be
 *     judged (holds): a reception is judged against every overlapping
 *     signal, so while any record is held, no record whose signal could
 *     overlap it (any earlier one whose tail reaches past the held one's
 *     start) is retired.
 */
#include "medium.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Stations whose leaves in an index changed while it rested. Repairing
 * them costs O(d log n) for d stations; past `limit` (n / log2 n, where a
 * whole rebuild in O(n) costs as much) they are no longer listed and the
 * whole tree is rebuilt instead. The trees themselves are not touched
 * while resting, so they stay consistent with their old leaves. */
typedef struct dirty_set {
    uint32_t *list;
    uint8_t *mark; /* per station: listed */
    uint32_t count, limit;
    bool all;      /* too many: rebuild everything */
} dirty_set;

static int dirty_init(dirty_set *d, uint32_t n, uint32_t tsize)
{
    size_t n1 = n ? n : 1;
    uint32_t lg = 1;
    while ((1u << lg) < tsize)
        lg++;
    d->limit = tsize / lg ? tsize / lg : 1;
    d->list = malloc((d->limit < n1 ? d->limit : n1) * sizeof *d->list);
    d->mark = calloc(n1, sizeof *d->mark);
    d->count = 0;
    d->all = false;
    return d->list && d->mark ? 0 : -1;
}

static void dirty_free(dirty_set *d)
{
    free(d->list);
    free(d->mark);
}

static inline void dirty_add(dirty_set *d, uint32_t s)
{
    if (d->all || d->mark[s])
        return;
    if (d->count == d->limit) {
        for (uint32_t i = 0; i < d->count; i++)
            d->mark[d->list[i]] = 0;
        d->count = 0;
        d->all = true;
        return;
    }
    d->mark[s] = 1;
    d->list[d->count++] = s;
}

static void dirty_clear(dirty_set *d)
{
    for (uint32_t i = 0; i < d->count; i++)
        d->mark[d->list[i]] = 0;
    d->count = 0;
    d->all = false;
}

static inline size_t dirty_bytes(const dirty_set *d, uint32_t n)
{
    return (d->limit < n ? d->limit : n) * sizeof *d->list + n * sizeof *d->mark;
}

struct medium {
    uint32_t n;
    topology_kind topology;
    sim_time *pos_ps;
    sim_time hub_ps;
    sim_time probe_pos_ps;
    sim_time max_delay;
    sim_time retain_ps, chain_ps, chain_cap_ps;
    bool fault;                   /* fault_start < fault_end */
    sim_time fault_start, fault_end;

    medium_tx *ring;         /* cap records, of which live[0..count) */
    medium_tx *live;
    size_t cap, count;
    uint64_t first_id, next_id;
    size_t held;             /* records with holds > 0 */
    uint64_t held_from;      /* no record before this id is held */
    /* medium_retire's scan of the front cluster, kept between calls: the
     * first scan_k records are finished and not held (which they stay:
     * holds are taken only on a new record), die out by scan_dead, and
     * none closes the cluster. Reset when the front is popped. */
    size_t scan_k;
    sim_time scan_dead;
    /* Global silence: no signal anywhere. n_open transmissions are under
     * way; every finished one has died out everywhere by dead_all (its end
     * plus the longest delay); [quiet_from, quiet_until) is the last
     * silence that a start ended. */
    uint32_t n_open;
    sim_time dead_all;
    sim_time quiet_from, quiet_until;

    /* The carrier index (medium.h): per station, the start of the
     * transmission under way (SIM_TIME_NEVER: none) and the start and end
     * of the last finished one (end INT64_MIN: none yet); segment trees
     * over the stations in position order (bus) or index order (star),
     * leaves at tsize + rank. For a leaf left of the asking station the
     * key is value - p (bus), for one right of it value + p; on a star
     * both are value + p. */
    sim_time *open_start, *last_start, *last_end;
    uint32_t *rank;          /* station -> leaf */
    uint32_t tsize;          /* leaves: a power of two >= n */
    sim_time *open_l, *open_r; /* minima of the keys of open_start */
    sim_time *end_l, *end_r;   /* maxima of the keys of last_end */
    uint32_t *end_l_who, *end_r_who;
    /* The index rests while at most `quiet` live records remain (no
     * caller asks it then): starts and ends only note the station in
     * `stale`, and the next question repairs the trees first. */
    size_t quiet;            /* medium_quiet */
    bool resting;
    dirty_set stale;
    /* The latest instant at which a retired record's carrier may end
     * anywhere (its end plus the longest delay): a scan of the live
     * records finds the latest end at a station when it is later. */
    sim_time retired_dead;
    /* The last answers of the two walks, for station memo_j (CI_NONE:
     * none): the MAC asks about one station twice at one instant (its
     * deference when a backoff ends, then collision detect at the start
     * that follows), and in between only that station's own transmission
     * begins, which its own questions do not see. Any other station's
     * start or end forgets them. */
    uint32_t memo_j;
    bool memo_open_ok, memo_closed_ok;
    sim_time memo_open, memo_closed;
    uint32_t memo_closed_who;
};

#define CI_NONE UINT32_MAX
#define CI_EMPTY_MIN INT64_MAX
#define CI_EMPTY_MAX INT64_MIN

/* A walk from a leaf up reads, at each level, the sibling on one side:
 * which side follows the bits of the station's rank, which no branch
 * predictor can guess. Node 0 of every tree is never a node (the root is
 * 1) and always holds the empty key, so a walk reads node 0 instead of
 * the sibling it must skip: one load at a computed index, no branch. */
static inline size_t sibling_if(bool take, size_t i)
{
    return (i ^ 1) & -(size_t)take;
}

/* ---- the carrier index --------------------------------------------------- */

/* Leaves in order of position on a bus (ties by index), of index on a
 * star (every signal crosses the hub, so any order serves). A merge sort
 * of the station numbers, then inverted into m->rank: O(n log n) once.
 * Returns 0, or -1 when memory cannot be had. */
static int rank_stations(medium *m)
{
    uint32_t n = m->n;
    if (n == 0)
        return 0;
    uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    if (m->topology == TOPOLOGY_BUS) {
        for (uint32_t w = 1; w < n; w *= 2) {
            for (uint32_t lo = 0; lo < n; lo += 2 * w) {
                uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
                uint32_t i = lo, j = mid, k = lo;
                while (i < mid && j < hi) {
                    /* stable: ties keep index order */
                    if (m->pos_ps[a[j]] < m->pos_ps[a[i]])
                        b[k++] = a[j++];
                    else
                        b[k++] = a[i++];
                }
                while (i < mid)
                    b[k++] = a[i++];
                while (j < hi)
                    b[k++] = a[j++];
            }
            uint32_t *t = a;
            a = b;
            b = t;
        }
    }
    for (uint32_t r = 0; r < n; r++)
        m->rank[a[r]] = r;
    free(a);
    free(b);
    return 0;
}

/* The key of a value (a start or an end) of station s for a leaf left of
 * (left = true) or right of the asking station. */
static inline sim_time key_of(const medium *m, uint32_t s, sim_time v, bool left)
{
    return m->topology == TOPOLOGY_BUS && left ? v - m->pos_ps[s] : v + m->pos_ps[s];
}

/* From a key back to the instant at station j. */
static inline sim_time at_station(const medium *m, uint32_t j, sim_time key, bool left)
{
    if (m->topology == TOPOLOGY_STAR)
        return key + m->hub_ps + m->pos_ps[j];
    return left ? key + m->pos_ps[j] : key - m->pos_ps[j];
}

/* The leaves of station s from open_start / last_end. */
static void open_leaf(medium *m, uint32_t s)
{
    sim_time start = m->open_start[s];
    size_t i = m->tsize + m->rank[s];
    m->open_l[i] = start == SIM_TIME_NEVER ? CI_EMPTY_MIN : key_of(m, s, start, true);
    m->open_r[i] = start == SIM_TIME_NEVER ? CI_EMPTY_MIN : key_of(m, s, start, false);
}

static void closed_leaf(medium *m, uint32_t s)
{
    size_t i = m->tsize + m->rank[s];
    sim_time end = m->last_end[s];
    bool none = end == CI_EMPTY_MAX;
    m->end_l[i] = none ? CI_EMPTY_MAX : key_of(m, s, end, true);
    m->end_r[i] = none ? CI_EMPTY_MAX : key_of(m, s, end, false);
    m->end_l_who[i] = m->end_r_who[i] = none ? CI_NONE : s;
}

/* Node i of each tree from its children. */
static inline void open_node(medium *m, size_t i)
{
    sim_time a = m->open_l[2 * i], b = m->open_l[2 * i + 1];
    m->open_l[i] = a < b ? a : b;
    a = m->open_r[2 * i], b = m->open_r[2 * i + 1];
    m->open_r[i] = a < b ? a : b;
}

static inline void closed_node(medium *m, size_t i)
{
    size_t c = m->end_l[2 * i] >= m->end_l[2 * i + 1] ? 2 * i : 2 * i + 1;
    m->end_l[i] = m->end_l[c];
    m->end_l_who[i] = m->end_l_who[c];
    c = m->end_r[2 * i] >= m->end_r[2 * i + 1] ? 2 * i : 2 * i + 1;
    m->end_r[i] = m->end_r[c];
    m->end_r_who[i] = m->end_r_who[c];
}

/* The nodes above a leaf, after it changed. The value climbing up is
 * carried in registers: each level reads only the sibling (whose address
 * is known in advance, so the loads overlap), never the node written one
 * level below, which would chain every level through a store and a load.
 * (Stopping at the first node that stays as it was costs more than it
 * saves when the leaf rose, at an end: the ending transmission, among
 * the first to start, held most nodes above it. Measured.) When the
 * leaf fell, at a start, a node changes exactly while the new key is
 * below it, and the climb stops at the first that is not: a new start is
 * the latest, below few of the keys of the others under way. */
static void open_path(medium *m, size_t leaf, bool lowered)
{
    sim_time vl = m->open_l[leaf], vr = m->open_r[leaf];
    if (lowered) {
        size_t i;
        for (i = leaf / 2; i >= 1 && m->open_l[i] > vl; i /= 2)
            m->open_l[i] = vl;
        for (i = leaf / 2; i >= 1 && m->open_r[i] > vr; i /= 2)
            m->open_r[i] = vr;
        return;
    }
    for (size_t i = leaf; i > 1; i /= 2) {
        sim_time sl = m->open_l[i ^ 1], sr = m->open_r[i ^ 1];
        vl = sl < vl ? sl : vl;
        vr = sr < vr ? sr : vr;
        m->open_l[i / 2] = vl;
        m->open_r[i / 2] = vr;
    }
}

/* The same for the closed tree, whose nodes also name their station: of
 * equal keys the left child's (closed_node), so a node holds the largest
 * key below it, ties to the leftmost leaf. A station's last end only
 * grows (its transmissions follow one another), so its leaf's keys only
 * grow: a node becomes the leaf's (key, station) exactly when that beats
 * the node, and the climb stops at the first node it does not beat,
 * whose value, hence every value above it, stays as it was. A level
 * costs one comparison with the node, no sibling read and no mask (the
 * latest end in a crowd usually climbs most of the way). */
static void closed_climb(sim_time *key, uint32_t *who, const uint32_t *rank, size_t leaf,
                         uint32_t rank_s)
{
    sim_time v = key[leaf];
    uint32_t s = who[leaf];
    for (size_t i = leaf / 2; i >= 1; i /= 2) {
        sim_time p = key[i];
        /* (equal keys: the node's station is a real one, v being one) */
        if (p > v || (p == v && rank[who[i]] <= rank_s))
            break;
        key[i] = v;
        who[i] = s;
    }
}

static void closed_path(medium *m, size_t leaf)
{
    uint32_t r = (uint32_t)(leaf - m->tsize);
    closed_climb(m->end_l, m->end_l_who, m->rank, leaf, r);
    closed_climb(m->end_r, m->end_r_who, m->rank, leaf, r);
}

/* Station s's carrier changes: answers memoised for another station go. */
static inline void memo_forget(medium *m, uint32_t s)
{
    if (s != m->memo_j)
        m->memo_j = CI_NONE;
}

static void set_open(medium *m, uint32_t s, sim_time start)
{
    memo_forget(m, s);
    m->open_start[s] = start;
    if (m->resting) {
        dirty_add(&m->stale, s);
        return;
    }
    size_t leaf = m->tsize + m->rank[s];
    sim_time old = m->open_l[leaf];
    open_leaf(m, s);
    open_path(m, leaf, m->open_l[leaf] < old);
}

static void set_closed(medium *m, uint32_t s, sim_time start, sim_time end)
{
    memo_forget(m, s);
    m->last_start[s] = start;
    m->last_end[s] = end;
    if (m->resting) {
        dirty_add(&m->stale, s);
        return;
    }
    closed_leaf(m, s);
    closed_path(m, m->tsize + m->rank[s]);
}

/* Brings a resting index up to date before a question: the stale
 * stations' leaves and their paths, O(d log n), or the whole trees, O(n).
 * Either gives the trees that eager upkeep would have built (a node is a
 * function of its children). */
static void index_wake(medium *m)
{
    if (!m->resting)
        return;
    m->resting = false;
    if (m->stale.all) {
        for (uint32_t s = 0; s < m->n; s++) {
            open_leaf(m, s);
            closed_leaf(m, s);
        }
        for (size_t i = m->tsize; i-- > 1;) {
            open_node(m, i);
            closed_node(m, i);
        }
    } else {
        for (uint32_t k = 0; k < m->stale.count; k++) {
            uint32_t s = m->stale.list[k];
            size_t leaf = m->tsize + m->rank[s];
            sim_time ol = m->open_l[leaf], el = m->end_l[leaf];
            open_leaf(m, s);
            closed_leaf(m, s);
            if (m->open_l[leaf] != ol)
                open_path(m, leaf, m->open_l[leaf] < ol);
            if (m->end_l[leaf] != el)
                closed_path(m, leaf);
        }
    }
    dirty_clear(&m->stale);
}

/* The earliest arrival at the station of leaf r of a signal under way,
 * less the station's own term (p_r on a bus, hub + p_r on a star): the
 * minimum of open_l over the leaves left of r and of open_r - off over
 * those right of it, off = 2 p_r on a bus (a right key less p_r is an
 * arrival, a left key plus p_r), 0 on a star. One walk from the leaf to
 * the root: a node that is a right child has every leaf of its left
 * sibling left of r, and conversely, so each level reads one sibling
 * and keeps one minimum, no branch. An empty side's key (CI_EMPTY_MIN,
 * less off at most) stays above every real one, which are instants of
 * the run, far below INT64_MAX less the cable's length. */
static sim_time walk_open(const medium *m, size_t r, sim_time off)
{
    sim_time best = CI_EMPTY_MIN;
    /* (the tree chosen by a load, not a branch, which would go one way or
     * the other at random) */
    const sim_time *tree[2] = {m->open_r, m->open_l};
    for (size_t i = m->tsize + r; i > 1; i /= 2) {
        size_t is_right = i & 1;
        sim_time v = tree[is_right][i ^ 1] - (off & ((sim_time)is_right - 1));
        best = v < best ? v : best;
    }
    return best;
}

/* The same with maxima, and the stations holding them (of equal keys on
 * one side, the one met first from the leaf up). */
static void walk_max(const medium *m, size_t r, sim_time *left, uint32_t *left_who,
                     sim_time *right, uint32_t *right_who)
{
    sim_time bl = CI_EMPTY_MAX, br = CI_EMPTY_MAX;
    uint32_t wl = CI_NONE, wr = CI_NONE;
    for (size_t i = m->tsize + r; i > 1; i /= 2) {
        bool is_right = i & 1;
        size_t il = sibling_if(is_right, i), ir = sibling_if(!is_right, i);
        sim_time a = m->end_l[il], b = m->end_r[ir];
        uint32_t a_who = m->end_l_who[il], b_who = m->end_r_who[ir];
        bool ta = a > bl, tb = b > br;
        wl = ta ? a_who : wl;
        bl = ta ? a : bl;
        wr = tb ? b_who : wr;
        br = tb ? b : br;
    }
    *left = bl;
    *left_who = wl;
    *right = br;
    *right_who = wr;
}

/* Starts memoising answers for station j, if it is not the one already. */
static inline void memo_for(medium *m, uint32_t j)
{
    if (m->memo_j != j) {
        m->memo_j = j;
        m->memo_open_ok = m->memo_closed_ok = false;
    }
}

static inline medium_tx *slot(const medium *m, size_t i) { return &m->live[i]; }

sim_time medium_delay_off(const medium *m, uint32_t j)
{
    return m->topology == TOPOLOGY_BUS ? -m->pos_ps[j] : m->hub_ps + m->pos_ps[j];
}

/* A record's transmitter's delay to the station of `off` (medium_delay_off). */
static inline sim_time delay_via(const medium_tx *t, sim_time off)
{
    sim_time d = t->pos + off;
    return d < 0 ? -d : d;
}

/* Whether questions scan the live records rather than wake the index:
 * a handful of them (the index rests). */
static inline bool scan_instead(const medium *m)
{
    return m->resting && m->count <= m->quiet;
}

sim_time medium_open_arrival(medium *m, uint32_t j)
{
    if (m->memo_j == j && m->memo_open_ok)
        return m->memo_open;
    if (scan_instead(m)) { /* every transmission under way is live */
        sim_time best = SIM_TIME_NEVER;
        const sim_time off = medium_delay_off(m, j);
        for (size_t i = 0; i < m->count; i++) {
            const medium_tx *t = slot(m, i);
            if (t->end == SIM_TIME_NEVER && t->station != j) {
                sim_time a = t->start + delay_via(t, off);
                best = a < best ? a : best;
            }
        }
        return best;
    }
    index_wake(m);
    bool bus = m->topology == TOPOLOGY_BUS;
    sim_time off = bus ? 2 * m->pos_ps[j] : 0;
    sim_time k = walk_open(m, m->rank[j], off);
    sim_time best = k >= CI_EMPTY_MIN - off ? SIM_TIME_NEVER
                                            : k + m->pos_ps[j] + (bus ? 0 : m->hub_ps);
    memo_for(m, j);
    m->memo_open = best;
    m->memo_open_ok = true;
    return best;
}

/* The latest end of carrier at j of other stations' finished
 * transmissions, and who sent it; CI_EMPTY_MAX when none. */
static sim_time foreign_closed_end(medium *m, uint32_t j, uint32_t *who)
{
    if (m->memo_j == j && m->memo_closed_ok) {
        *who = m->memo_closed_who;
        return m->memo_closed;
    }
    index_wake(m);
    uint32_t wl, wr;
    sim_time best = CI_EMPTY_MAX, kl, kr;
    *who = CI_NONE;
    walk_max(m, m->rank[j], &kl, &wl, &kr, &wr);
    if (kl != CI_EMPTY_MAX) {
        best = at_station(m, j, kl, true);
        *who = wl;
    }
    if (kr != CI_EMPTY_MAX) {
        sim_time e = at_station(m, j, kr, false);
        if (e > best) {
            best = e;
            *who = wr;
        }
    }
    memo_for(m, j);
    m->memo_closed = best;
    m->memo_closed_who = *who;
    m->memo_closed_ok = true;
    return best;
}

sim_time medium_closed_end(medium *m, uint32_t j, uint32_t *who, sim_time *from)
{
    sim_time best = foreign_closed_end(m, j, who);
    if (m->last_end[j] != CI_EMPTY_MAX && m->last_end[j] > best) {
        best = m->last_end[j];
        *who = j;
    }
    if (*who != CI_NONE)
        *from = m->last_start[*who] + medium_delay(m, *who, j);
    return best;
}

sim_time medium_closed_end_from(medium *m, uint32_t j, sim_time floor, uint32_t *who,
                                sim_time *from)
{
    if (!scan_instead(m) || m->retired_dead >= floor)
        return medium_closed_end(m, j, who, from);
    /* Every retired record's carrier ended everywhere before floor, and a
     * station's last finished transmission ends after its earlier ones:
     * the latest end of the live records (and j's own last) is the
     * answer when that is floor or later; when it is not, neither is the
     * answer. */
    sim_time best = m->last_end[j];
    *who = best != CI_EMPTY_MAX ? j : CI_NONE;
    const sim_time off = medium_delay_off(m, j);
    for (size_t i = 0; i < m->count; i++) {
        const medium_tx *t = slot(m, i);
        if (t->end != SIM_TIME_NEVER && t->station != j) {
            sim_time e = t->end + delay_via(t, off);
            if (e > best) {
                best = e;
                *who = t->station;
            }
        }
    }
    if (*who != CI_NONE)
        *from = m->last_start[*who] + medium_delay(m, *who, j);
    return best;
}

sim_time medium_own_end(const medium *m, uint32_t j) { return m->last_end[j]; }
sim_time medium_own_start(const medium *m, uint32_t j) { return m->last_start[j]; }

/* Whether [lo, hi) holds an instant outside the fault. */
static bool clear_of_fault(const medium *m, sim_time lo, sim_time hi)
{
    if (lo >= hi)
        return false;
    return !m->fault || m->fault_start > lo || m->fault_end < hi;
}

bool medium_silent_within(const medium *m, sim_time a, sim_time b, sim_time now)
{
    sim_time lo = a > m->quiet_from ? a : m->quiet_from;
    sim_time hi = b < m->quiet_until ? b : m->quiet_until;
    if (m->quiet_until > m->quiet_from && clear_of_fault(m, lo, hi))
        return true;
    if (m->n_open == 0) { /* silent since dead_all, up to now at least */
        lo = a > m->dead_all ? a : m->dead_all;
        hi = b < now ? b : now;
        return clear_of_fault(m, lo, hi);
    }
    return false;
}

bool medium_fault(const medium *m, sim_time *start, sim_time *end)
{
    *start = m->fault_start;
    *end = m->fault_end;
    return m->fault;
}

int medium_create(const medium_config *cfg, medium **out)
{
    medium *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->n = cfg->n_stations;
    m->topology = cfg->topology;
    m->hub_ps = cfg->hub_ps;
    m->probe_pos_ps = cfg->probe_pos_ps;
    m->retain_ps = cfg->retain_ps;
    m->chain_ps = cfg->chain_ps;
    m->chain_cap_ps = cfg->chain_cap_ps;
    m->fault = cfg->fault_end_ps > cfg->fault_start_ps;
    m->fault_start = cfg->fault_start_ps;
    m->fault_end = cfg->fault_end_ps;
    size_t n1 = cfg->n_stations ? cfg->n_stations : 1;
    m->pos_ps = malloc(n1 * sizeof *m->pos_ps);
    m->cap = 16;
    m->ring = malloc(m->cap * sizeof *m->ring);
    m->live = m->ring;
    m->tsize = 1;
    while (m->tsize < n1)
        m->tsize *= 2;
    size_t nodes = 2 * (size_t)m->tsize;
    m->open_start = malloc(n1 * sizeof *m->open_start);
    m->last_start = malloc(n1 * sizeof *m->last_start);
    m->last_end = malloc(n1 * sizeof *m->last_end);
    m->rank = malloc(n1 * sizeof *m->rank);
    m->open_l = malloc(nodes * sizeof *m->open_l);
    m->open_r = malloc(nodes * sizeof *m->open_r);
    m->end_l = malloc(nodes * sizeof *m->end_l);
    m->end_r = malloc(nodes * sizeof *m->end_r);
    m->end_l_who = malloc(nodes * sizeof *m->end_l_who);
    m->end_r_who = malloc(nodes * sizeof *m->end_r_who);
    if (!m->pos_ps || !m->ring || !m->open_start || !m->last_start || !m->last_end ||
        !m->rank || !m->open_l || !m->open_r || !m->end_l || !m->end_r || !m->end_l_who ||
        !m->end_r_who) {
        medium_destroy(m);
        return -1;
    }
    for (size_t i = 0; i < nodes; i++) {
        m->open_l[i] = m->open_r[i] = CI_EMPTY_MIN;
        m->end_l[i] = m->end_r[i] = CI_EMPTY_MAX;
        m->end_l_who[i] = m->end_r_who[i] = CI_NONE;
    }
    sim_time lo = 0, hi = 0, d1 = 0, d2 = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        sim_time p = cfg->pos_ps[i];
        m->pos_ps[i] = p;
        if (i == 0 || p < lo)
            lo = p;
        if (i == 0 || p > hi)
            hi = p;
        /* the two longest drops, for the star's diameter */
        if (p > d1) {
            d2 = d1;
            d1 = p;
        } else if (p > d2) {
            d2 = p;
        }
    }
    if (m->topology == TOPOLOGY_BUS)
        m->max_delay = hi - lo;
    else
        m->max_delay = m->n > 1 ? d1 + d2 + m->hub_ps : 0;
    if (rank_stations(m) != 0 || dirty_init(&m->stale, m->n, m->tsize) != 0) {
        medium_destroy(m);
        return -1;
    }
    m->dead_all = INT64_MIN;
    m->memo_j = CI_NONE;
    m->resting = true; /* (every leaf is empty, as the trees are) */
    /* (at 16 stations a bound of 24 made the fixed-retry collapse 6 %
     * slower, at 5000 it made the hub 8 % faster: MEDIUM_QUIET) */
    m->quiet = m->n > 2 * MEDIUM_QUIET ? MEDIUM_QUIET_WIDE : MEDIUM_QUIET;
    m->retired_dead = INT64_MIN;
    for (uint32_t i = 0; i < m->n; i++) {
        m->open_start[i] = SIM_TIME_NEVER;
        m->last_start[i] = SIM_TIME_NEVER;
        m->last_end[i] = CI_EMPTY_MAX;
    }
    *out = m;
    return 0;
}

void medium_destroy(medium *m)
{
    if (m) {
        free(m->pos_ps);
        free(m->ring);
        free(m->open_start);
        free(m->last_start);
        free(m->last_end);
        free(m->rank);
        free(m->open_l);
        free(m->open_r);
        free(m->end_l);
        free(m->end_r);
        free(m->end_l_who);
        free(m->end_r_who);
        dirty_free(&m->stale);
        free(m);
    }
}

uint32_t medium_station_count(const medium *m) { return m->n; }
topology_kind medium_topology(const medium *m) { return m->topology; }
sim_time medium_station_pos(const medium *m, uint32_t s) { return m->pos_ps[s]; }

sim_time medium_delay(const medium *m, uint32_t a, uint32_t b)
{
    if (m->topology == TOPOLOGY_BUS) {
        sim_time d = m->pos_ps[a] - m->pos_ps[b];
        return d < 0 ? -d : d;
    }
    return a == b ? 0 : m->pos_ps[a] + m->hub_ps + m->pos_ps[b];
}

sim_time medium_probe_delay(const medium *m, uint32_t s)
{
    if (m->topology == TOPOLOGY_BUS) {
        sim_time d = m->pos_ps[s] - m->probe_pos_ps;
        return d < 0 ? -d : d;
    }
    /* The probe sits at the hub: the signal has crossed the drop cable.
     * (The repeater's own delay is counted on the way out to a station.) */
    return m->pos_ps[s];
}

sim_time medium_max_delay(const medium *m) { return m->max_delay; }

uint64_t medium_tx_begin(medium *m, uint32_t station, sim_time start, uint64_t user)
{
    assert(station < m->n);
    assert(m->count == 0 || slot(m, m->count - 1)->start <= start);
    if (m->live + m->count == m->ring + m->cap) {
        if (2 * m->count > m->cap) {
            medium_tx *r = malloc(2 * m->cap * sizeof *r);
            if (!r)
                return UINT64_MAX;
            memcpy(r, m->live, m->count * sizeof *r);
            free(m->ring);
            m->ring = r;
            m->cap *= 2;
        } else {
            memmove(m->ring, m->live, m->count * sizeof *m->ring);
        }
        m->live = m->ring;
    }
    if (m->count == 0)
        m->first_id = m->next_id;
    medium_tx *t = slot(m, m->count++);
    *t = (medium_tx){.id = m->next_id++, .station = station, .start = start,
                     .pos = m->pos_ps[station],
                     .end = SIM_TIME_NEVER, .user = user};
    assert(m->open_start[station] == SIM_TIME_NEVER);
    if (m->n_open++ == 0 && m->dead_all < start) {
        m->quiet_from = m->dead_all;
        m->quiet_until = start;
    }
    set_open(m, station, start);
    return t->id;
}

medium_tx *medium_tx_get(medium *m, uint64_t id)
{
    if (id - m->first_id >= m->count) /* (an id before first_id wraps round) */
        return NULL;
    return slot(m, (size_t)(id - m->first_id));
}

void medium_tx_end(medium *m, uint64_t id, sim_time end)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t && t->end == SIM_TIME_NEVER && end > t->start);
    t->end = end;
    m->n_open--;
    if (end + m->max_delay > m->dead_all)
        m->dead_all = end + m->max_delay;
    set_open(m, t->station, SIM_TIME_NEVER);
    set_closed(m, t->station, t->start, end);
}

void medium_hold(medium *m, uint64_t id)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t);
    if (t->holds++ == 0)
        m->held++;
    if (id < m->held_from)
        m->held_from = id;
    if (id - m->first_id < m->scan_k)
        m->scan_k = 0; /* (the MAC holds only new records) */
}

void medium_release(medium *m, uint64_t id)
{
    medium_tx *t = medium_tx_get(m, id);
    assert(t && t->holds > 0);
    if (--t->holds == 0)
        m->held--;
}

static void pop_front(medium *m, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        sim_time dead = m->live[i].end + m->max_delay;
        m->retired_dead = dead > m->retired_dead ? dead : m->retired_dead;
    }
    m->live += k;
    m->count -= k;
    m->first_id += k;
    m->scan_k = 0;
    if (m->count <= m->quiet)
        m->resting = true;
}

void medium_retire(medium *m, sim_time now)
{
    if (m->count == 0 || slot(m, 0)->end == SIM_TIME_NEVER || slot(m, 0)->holds)
        return; /* the oldest record must stay, hence every later one */
    /* The earliest start among held records bounds what may go. The first
     * held record only moves on (holds are released; new ones are taken
     * on new records), so finding it costs O(1) amortised. */
    sim_time held_start = SIM_TIME_NEVER;
    if (m->held) {
        if (m->held_from < m->first_id)
            m->held_from = m->first_id;
        while (!medium_tx_get(m, m->held_from)->holds)
            m->held_from++;
        held_start = medium_tx_get(m, m->held_from)->start;
    }
    sim_time quiet = m->retain_ps + m->max_delay;
    for (;;) {
        /* The front cluster: records each starting less than chain_ps
         * after every earlier one died out. It goes as a whole once it is
         * closed (the next record, or now, is chain_ps past its death).
         * The scan resumes where the last call stopped: O(1) amortised. */
        sim_time dead = m->scan_k ? m->scan_dead : INT64_MIN;
        size_t k = m->scan_k;
        bool closed = false, blocked = false;
        for (; k < m->count; k++) {
            const medium_tx *t = slot(m, k);
            if (k > 0 && t->start >= dead + m->chain_ps) {
                closed = true;
                break;
            }
            if (t->end == SIM_TIME_NEVER || t->holds) {
                blocked = true;
                break;
            }
            sim_time d = t->end + m->max_delay;
            if (d > dead)
                dead = d;
            m->scan_k = k + 1;
            m->scan_dead = dead;
        }
        if (k == 0 || blocked)
            break;
        if (!closed && now < dead + m->chain_ps)
            break;
        if (dead + quiet >= now || dead > held_start)
            break;
        pop_front(m, k);
    }
    /* A cluster that never closes (signals forever less than chain_ps
     * apart) would grow without bound: its oldest records go after
     * chain_cap_ps. */
    while (m->count) {
        const medium_tx *t = slot(m, 0);
        if (t->holds || t->end == SIM_TIME_NEVER)
            break;
        sim_time dead = t->end + m->max_delay;
        if (dead + quiet + m->chain_cap_ps >= now || dead > held_start)
            break;
        pop_front(m, 1);
    }
}

sim_time medium_unjudged_from(const medium *m)
{
    if (m->n_open == 0 && m->held == 0)
        return SIM_TIME_NEVER;
    for (size_t k = 0; k < m->count; k++) {
        const medium_tx *t = slot(m, k);
        if (t->end == SIM_TIME_NEVER || t->holds)
            return t->start; /* records are in order of start */
    }
    return SIM_TIME_NEVER;
}

size_t medium_live_count(const medium *m) { return m->count; }
size_t medium_quiet(const medium *m) { return m->quiet; }
const medium_tx *medium_live_at(const medium *m, size_t i) { return slot(m, i); }

size_t medium_signal_count(const medium *m) { return m->count + (m->fault ? 1 : 0); }

/* The order of signals at a station: by arrival, then by place in the
 * live order (medium_signals_at). */
static inline bool signal_before(const medium_signal *a, const medium_signal *b)
{
    return a->from < b->from || (a->from == b->from && a->seq < b->seq);
}

/* Puts x into out[0..k), which is in order, after every entry before it:
 * one step of an insertion sort. */
static inline void insert_signal(medium_signal *out, size_t k, medium_signal x)
{
    while (k > 0 && signal_before(&x, &out[k - 1])) {
        out[k] = out[k - 1];
        k--;
    }
    out[k] = x;
}

/* Sorts signals (signal_before): insertion sort for short runs (the usual
 * case: a handful of live signals, nearly in order), quicksort with a
 * median-of-three pivot above that (a crowded collision). Keys are
 * distinct (no two signals share a place in the live order), so the
 * result does not depend on the algorithm. The comparison is inlined,
 * which is what makes it cheaper than qsort here. */
static void sort_signals(medium_signal *a, size_t n)
{
    while (n > 24) {
        const medium_signal *x = &a[0], *y = &a[n / 2], *z = &a[n - 1];
        medium_signal pivot = signal_before(x, y)
                                  ? (signal_before(y, z) ? *y : (signal_before(x, z) ? *z : *x))
                                  : (signal_before(x, z) ? *x : (signal_before(y, z) ? *z : *y));
        size_t i = 0, j = n - 1;
        for (;;) {
            while (signal_before(&a[i], &pivot))
                i++;
            while (signal_before(&pivot, &a[j]))
                j--;
            if (i >= j)
                break;
            medium_signal t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
        /* recurse into the smaller part, loop on the larger */
        size_t left = j + 1;
        if (left < n - left) {
            sort_signals(a, left);
            a += left;
            n -= left;
        } else {
            sort_signals(a + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++)
        insert_signal(a, i, a[i]);
}

/* Appends x to out[0..k), or inserts it in order. */
static inline void put_signal(medium_signal *out, size_t k, medium_signal x, bool insert)
{
    if (insert)
        insert_signal(out, k, x);
    else
        out[k] = x;
}

size_t medium_signals_at(const medium *m, uint32_t j, medium_signal *out, size_t cap)
{
    size_t n = medium_signal_count(m);
    if (n > cap)
        n = cap;
    /* A handful of signals (the usual case) are sorted as they are made;
     * a crowd is made, then sorted. */
    bool insert = n <= 24;
    size_t k = 0;
    for (size_t i = 0; i < m->count && k < cap; i++) {
        const medium_tx *t = slot(m, i);
        sim_time d = medium_delay(m, t->station, j);
        medium_signal x = {t->start + d, t->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : t->end + d,
                           t->station, (uint32_t)i, t->station == j};
        put_signal(out, k++, x, insert);
    }
    if (m->fault && k < cap) { /* present everywhere at once: no delay */
        medium_signal x = {m->fault_start, m->fault_end, MEDIUM_FAULT_STATION,
                           (uint32_t)m->count, false};
        put_signal(out, k++, x, insert);
    }
    if (!insert)
        sort_signals(out, k);
    return k;
}

size_t medium_signals_since(const medium *m, uint32_t j, sim_time t0, medium_signal *out,
                            size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < m->count && k < cap; i++) {
        const medium_tx *t = slot(m, i);
        sim_time d = medium_delay(m, t->station, j);
        if (t->end != SIM_TIME_NEVER && t->end + d < t0)
            continue;
        out[k++] = (medium_signal){t->start + d,
                                   t->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : t->end + d,
                                   t->station, (uint32_t)i, t->station == j};
    }
    if (m->fault && m->fault_end >= t0 && k < cap)
        out[k++] = (medium_signal){m->fault_start, m->fault_end, MEDIUM_FAULT_STATION,
                                   (uint32_t)m->count, false};
    if (k <= 24) {
        for (size_t i = 1; i < k; i++)
            insert_signal(out, i, out[i]);
    } else {
        sort_signals(out, k);
    }
    return k;
}

sim_time medium_foreign_signal_from(medium *m, uint32_t j, sim_time t)
{
    uint32_t who;
    /* (a handful of live records: the scan below is cheaper) */
    sim_time open = m->count > m->quiet ? medium_open_arrival(m, j) : SIM_TIME_NEVER;
    if (open <= t)
        return t; /* a signal under way is present at j now (a crowd's usual case) */
    if (m->count > m->quiet && foreign_closed_end(m, j, &who) <= t) {
        /* No finished signal passes j after t: only those under way
         * count (at most one per station), and the fault. */
        sim_time best = open;
        if (m->fault && m->fault_end > t) {
            sim_time at = m->fault_start > t ? m->fault_start : t;
            if (at < best)
                best = at;
        }
        return best;
    }
    sim_time best = SIM_TIME_NEVER;
    const sim_time off = medium_delay_off(m, j);
    for (size_t i = 0; i < m->count; i++) {
        const medium_tx *x = slot(m, i);
        if (x->station == j)
            continue;
        sim_time d = delay_via(x, off);
        sim_time from = x->start + d;
        if (x->end != SIM_TIME_NEVER && x->end + d <= t)
            continue; /* passed j before t */
        sim_time at = from > t ? from : t;
        if (at < best)
            best = at;
    }
    if (m->fault && m->fault_end > t) {
        sim_time at = m->fault_start > t ? m->fault_start : t;
        if (at < best)
            best = at;
    }
    return best;
}

bool medium_overlapped_at(const medium *m, uint64_t rx, uint32_t j)
{
    const medium_tx *r = medium_tx_get((medium *)m, rx);
    assert(r && r->end != SIM_TIME_NEVER);
    sim_time dr = medium_delay(m, r->station, j);
    sim_time a = r->start + dr, b = r->end + dr;
    if (m->fault && m->fault_start < b && a < m->fault_end)
        return true;
    for (size_t i = 0; i < m->count; i++) {
        const medium_tx *x = slot(m, i);
        if (x->id == rx)
            continue;
        sim_time d = medium_delay(m, x->station, j);
        sim_time xa = x->start + d;
        sim_time xb = x->end == SIM_TIME_NEVER ? SIM_TIME_NEVER : x->end + d;
        if (xa < b && a < xb)
            return true;
    }
    return false;
}

size_t medium_bytes(const medium *m)
{
    size_t nodes = 2 * (size_t)m->tsize;
    return sizeof *m + m->n * (sizeof *m->pos_ps + 3 * sizeof(sim_time) + sizeof(uint32_t)) +
           m->cap * sizeof *m->ring + nodes * (4 * sizeof(sim_time) + 2 * sizeof(uint32_t)) +
           dirty_bytes(&m->stale, m->n);
}

/* ---- reach indexes -------------------------------------------------------- */

/* Up to this many stations with a deadline still to come, a query scans
 * them instead of asking the tree, which rests (its stale stations wait
 * for the next query that needs it). In a crowd of transmitters, most
 * have already heard a collision: few still watch. */
#define REACH_SCAN 16

struct medium_reach {
    const medium *m;
    uint32_t tsize;
    sim_time *dl;            /* per station: the deadline */
    /* The stations given a deadline since they were last seen without
     * one: every station whose deadline is to come, and some whose
     * deadline has passed (pruned by a scan or a sweep). */
    uint32_t *act;
    uint8_t *listed;         /* per station: in act */
    uint32_t n_act;
    uint32_t n_swept;        /* n_act after the last sweep */
    uint32_t n_dropped;      /* deadlines set to none since (an upper bound on
                                the listed stations without one) */
    sim_time last_t;         /* the last query's t (queries come in order) */
    dirty_set stale;         /* stations whose deadline the tree does not know yet */
    sim_time *key_l, *key_r; /* maxima of the keys; leaves at tsize + rank */
    uint32_t *who;           /* leaf -> station (CI_NONE: no station) */
};

/* The key of a deadline for a leaf left of (or right of) the sender:
 * t + delay < deadline  <=>  key > threshold (reach_threshold). */
static inline sim_time reach_key(const medium *m, uint32_t k, sim_time dl, bool left)
{
    if (m->topology == TOPOLOGY_BUS && left)
        return dl + m->pos_ps[k];
    return dl - m->pos_ps[k];
}

static inline sim_time reach_threshold(const medium *m, uint32_t src, sim_time t, bool left)
{
    if (m->topology == TOPOLOGY_STAR)
        return t + m->pos_ps[src] + m->hub_ps;
    return left ? t + m->pos_ps[src] : t - m->pos_ps[src];
}

int medium_reach_create(const medium *m, medium_reach **out)
{
    medium_reach *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->m = m;
    r->tsize = m->tsize;
    size_t nodes = 2 * (size_t)r->tsize;
    r->key_l = malloc(nodes * sizeof *r->key_l);
    r->key_r = malloc(nodes * sizeof *r->key_r);
    r->who = malloc(r->tsize * sizeof *r->who);
    r->dl = malloc((m->n ? m->n : 1) * sizeof *r->dl);
    r->act = malloc((m->n ? m->n : 1) * sizeof *r->act);
    r->listed = calloc(m->n ? m->n : 1, sizeof *r->listed);
    if (!r->key_l || !r->key_r || !r->who || !r->dl || !r->act || !r->listed ||
        dirty_init(&r->stale, m->n, r->tsize) != 0) {
        medium_reach_destroy(r);
        return -1;
    }
    for (size_t i = 0; i < nodes; i++)
        r->key_l[i] = r->key_r[i] = MEDIUM_REACH_NONE;
    for (uint32_t i = 0; i < r->tsize; i++)
        r->who[i] = CI_NONE;
    for (uint32_t k = 0; k < m->n; k++) {
        r->who[m->rank[k]] = k;
        r->dl[k] = MEDIUM_REACH_NONE;
    }
    r->last_t = INT64_MIN;
    *out = r;
    return 0;
}

void medium_reach_destroy(medium_reach *r)
{
    if (r) {
        free(r->key_l);
        free(r->key_r);
        free(r->who);
        free(r->dl);
        free(r->act);
        free(r->listed);
        dirty_free(&r->stale);
        free(r);
    }
}

/* Station s's leaf from its deadline, then the path above it while it
 * changes. O(log n). */
static void reach_fix(medium_reach *r, uint32_t s)
{
    sim_time deadline = r->dl[s];
    size_t i = r->tsize + r->m->rank[s];
    sim_time kl = deadline == MEDIUM_REACH_NONE ? deadline : reach_key(r->m, s, deadline, true);
    sim_time kr = deadline == MEDIUM_REACH_NONE ? deadline : reach_key(r->m, s, deadline, false);
    if (r->key_l[i] == kl && r->key_r[i] == kr)
        return;
    r->key_l[i] = kl;
    r->key_r[i] = kr;
    /* (the climbing maxima in registers, as in open_path) */
    for (; i > 1; i /= 2) {
        sim_time sl = r->key_l[i ^ 1], sr = r->key_r[i ^ 1];
        kl = sl > kl ? sl : kl;
        kr = sr > kr ? sr : kr;
        if (r->key_l[i / 2] == kl && r->key_r[i / 2] == kr)
            break; /* nothing above changes */
        r->key_l[i / 2] = kl;
        r->key_r[i / 2] = kr;
    }
}

/* Only notes the station: a deadline often changes several times between
 * two questions (a transmitter's start, its collision, its end), and the
 * question repairs it once. */
void medium_reach_set(medium_reach *r, uint32_t s, sim_time deadline)
{
    r->dl[s] = deadline;
    dirty_add(&r->stale, s);
    if (deadline == MEDIUM_REACH_NONE) {
        r->n_dropped++; /* (perhaps not listed, or dropped already: this
                           only decides when to sweep) */
    } else if (!r->listed[s]) {
        r->listed[s] = 1;
        r->act[r->n_act++] = s;
    }
}

/* Takes act[i] out of the list (the last entry moves into its place). */
static inline void reach_unlist(medium_reach *r, uint32_t i)
{
    r->listed[r->act[i]] = 0;
    r->act[i] = r->act[--r->n_act];
}

static inline void reach_swept(medium_reach *r)
{
    r->n_swept = r->n_act;
    r->n_dropped = 0;
}

/* Drops from act the stations whose deadline is t or earlier (those with
 * none among them): queries come in order of time, so no later one
 * reaches them. */
static void reach_sweep(medium_reach *r, sim_time t)
{
    for (uint32_t i = 0; i < r->n_act;) {
        if (r->dl[r->act[i]] <= t)
            reach_unlist(r, i);
        else
            i++;
    }
    reach_swept(r);
}

/* Every leaf under node i with key > thr, appended to out. */
static size_t reach_collect(const medium_reach *r, const sim_time *key, size_t i, sim_time thr,
                            uint32_t *out, size_t k)
{
    if (key[i] <= thr)
        return k;
    if (i >= r->tsize) {
        out[k++] = r->who[i - r->tsize];
        return k;
    }
    k = reach_collect(r, key, 2 * i, thr, out, k);
    return reach_collect(r, key, 2 * i + 1, thr, out, k);
}

/* The leaves [lo, hi) with key > thr. Whether a level adds a node at
 * either end follows the bits of lo and hi, unpredictable; that it holds
 * a key above thr is rare. One branch tests both, so it is taken only
 * when something is found. */
static size_t reach_range(const medium_reach *r, const sim_time *key, size_t lo, size_t hi,
                          sim_time thr, uint32_t *out, size_t k)
{
    for (lo += r->tsize, hi += r->tsize; lo < hi; lo /= 2, hi /= 2) {
        /* (lo < hi here, so both lo and hi - 1 are nodes of the tree) */
        bool take_lo = lo & 1, take_hi = hi & 1;
        if ((int)take_lo & (key[lo] > thr))
            k = reach_collect(r, key, lo, thr, out, k);
        lo += take_lo;
        size_t last = hi - 1; /* the node at the upper end, if taken */
        hi -= take_hi;
        if ((int)take_hi & (key[last] > thr))
            k = reach_collect(r, key, last, thr, out, k);
    }
    return k;
}

/* The tree from the deadlines: the stale stations' paths, O(d log n), or
 * the whole tree, O(n). */
static void reach_wake(medium_reach *r)
{
    if (!r->stale.all) {
        for (uint32_t k = 0; k < r->stale.count; k++)
            reach_fix(r, r->stale.list[k]);
        dirty_clear(&r->stale);
        return;
    }
    dirty_clear(&r->stale);
    const medium *m = r->m;
    for (uint32_t i = 0; i < r->tsize; i++) {
        uint32_t k = r->who[i];
        sim_time dl = k == CI_NONE ? MEDIUM_REACH_NONE : r->dl[k];
        bool none = dl == MEDIUM_REACH_NONE;
        r->key_l[r->tsize + i] = none ? dl : reach_key(m, k, dl, true);
        r->key_r[r->tsize + i] = none ? dl : reach_key(m, k, dl, false);
    }
    for (size_t i = r->tsize; i-- > 1;) {
        sim_time a = r->key_l[2 * i], b = r->key_l[2 * i + 1];
        r->key_l[i] = a > b ? a : b;
        a = r->key_r[2 * i], b = r->key_r[2 * i + 1];
        r->key_r[i] = a > b ? a : b;
    }
}

size_t medium_reach_find(medium_reach *r, uint32_t src, sim_time t, uint32_t *out)
{
    const medium *m = r->m;
    assert(t >= r->last_t);
    r->last_t = t;
    /* A sweep when few of act may still have a deadline, or act doubled:
     * it costs O(act), paid for by the deadlines dropped or the stations
     * listed since the last one. */
    if (r->n_act > REACH_SCAN &&
        (r->n_act <= REACH_SCAN + r->n_dropped || r->n_act > 2 * r->n_swept))
        reach_sweep(r, t);
    if (r->n_act <= REACH_SCAN) { /* a scan, which sweeps too */
        size_t k = 0;
        for (uint32_t i = 0; i < r->n_act;) {
            uint32_t s = r->act[i];
            sim_time dl = r->dl[s];
            if (dl <= t) {
                reach_unlist(r, i);
                continue;
            }
            if (s != src && t + medium_delay(m, src, s) < dl)
                out[k++] = s;
            i++;
        }
        reach_swept(r);
        return k;
    }
    reach_wake(r);
    size_t rank = m->rank[src];
    sim_time thr_l = reach_threshold(m, src, t, true), thr_r = reach_threshold(m, src, t, false);
    /* The root holds each side's maximum over every station, and a
     * station reached on either side passes both thresholds (on a bus
     * |p_k - p_src| >= p_k - p_src and >= p_src - p_k; on a star the two
     * are the same): when one root fails, nothing is reached (nine
     * questions in ten in a crowd or a collapse, where most deadlines
     * have passed) and the walks are skipped. */
    if (r->key_l[1] <= thr_l || r->key_r[1] <= thr_r)
        return 0;
    size_t k = reach_range(r, r->key_l, 0, rank, thr_l, out, 0);
    return reach_range(r, r->key_r, rank + 1, r->tsize, thr_r, out, k);
}

size_t medium_reach_bytes(const medium_reach *r)
{
    return sizeof *r + 2 * (size_t)r->tsize * 2 * sizeof(sim_time) + r->tsize * sizeof *r->who +
           r->m->n * (sizeof *r->dl + sizeof *r->act + sizeof *r->listed) +
           dirty_bytes(&r->stale, r->m->n);
}
