/* tui_commands.c - the TUI's commands (tui_driver_command): load, frame
 * size, PHY, policy and station count change the base scenario and start a
 * new sweep; c and w start the saves of tui_save.c (a trace being written is
 * cancelled by Esc).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phy.h"
#include "tui_driver_int.h"

/* The policies the b key cycles through: the reference, its
 * capture-avoiding variant, capped exponential backoff with and without
 * jitter, fixed retry, and the two textbook channels (ALOHA, p-persistent
 * CSMA; POLICIES.md), each with its default parameters. */
static const char *const policy_cycle[] = {"beb",   "ca-beb", "full-jitter", "expo",
                                           "fixed", "aloha",  "ppersistent"};
#define N_POLICIES (sizeof policy_cycle / sizeof policy_cycle[0])

static const uint32_t frame_ladder[] = {64, 128, 256, 512, 1024, 1518};
#define N_FRAMES (sizeof frame_ladder / sizeof frame_ladder[0])
/* Offered loads below saturation, total over all stations. */
static const double load_ladder[] = {0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0};
#define N_LOADS (sizeof load_ladder / sizeof load_ladder[0])

/* ------------------------------------------------------------------ */
/* Commands */

/* Applies keys to the base scenario (all or none), then starts a new sweep.
 * A key the scenario refuses becomes a message; the run goes on. */
static int change_base(tui_driver *d, const char *const *keys, const char *const *values,
                       size_t n, const char *what, char *err, size_t errlen)
{
    scenario trial;
    char e2[512], warn[512];
    if (scenario_copy(&trial, &d->base) != 0) {
        set_message(d, "out of memory");
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = scenario_set(&trial, keys[i], values[i], e2, sizeof e2);
    if (rc == 0) {
        /* Checked as the sweep will run it: N = 1 is special-cased in
         * start_engine, so check with at least two stations. */
        scenario check;
        if (scenario_copy(&check, &trial) != 0) {
            scenario_free(&trial);
            set_message(d, "out of memory");
            return 0;
        }
        if (check.n_stations < 2 && check.positions_m == NULL)
            check.n_stations = 2;
        rc = scenario_finish(&check, e2, sizeof e2, warn, sizeof warn);
        scenario_free(&check);
    }
    if (rc != 0) {
        set_message(d, "cannot change %s: %s", what, e2);
        scenario_free(&trial);
        return 0;
    }
    scenario old = d->base;
    d->base = trial;
    d->message[0] = '\0';
    if (restart_sweep(d, e2, sizeof e2) != 0) {
        /* No N of the sweep fits the change (a switch's ports): the
         * scenario stays as it was. */
        scenario_free(&d->base);
        d->base = old;
        if (restart_sweep(d, err, errlen) != 0)
            return -1;
        set_message(d, "cannot change %s: %s", what, e2);
        return 0;
    }
    scenario_free(&old);
    char fit[sizeof d->message];
    snprintf(fit, sizeof fit, "%s", d->message); /* what the sweep left out, if anything */
    set_message(d, "%s: %s; a new sweep started%s%s", what, values[n - 1], fit[0] ? "; " : "",
                fit);
    return 0;
}

static int cmd_load(tui_driver *d, int dir, char *err, size_t errlen)
{
    const traffic_config *t = &d->base.traffic;
    char v[32];
    if (t->kind == TRAFFIC_SATURATED) {
        if (dir > 0) {
            set_message(d, "offered load is already at the top: saturated stations");
            return 0;
        }
        snprintf(v, sizeof v, "%g", load_ladder[N_LOADS - 1]);
    } else {
        /* The next rung above or below the current load. */
        double g = t->load;
        size_t i = 0;
        if (dir > 0) {
            while (i < N_LOADS && load_ladder[i] <= g + 1e-9)
                i++;
            if (i == N_LOADS) {
                const char *k[] = {"traffic"}, *val[] = {"saturated"};
                return change_base(d, k, val, 1, "offered load", err, errlen);
            }
        } else {
            i = N_LOADS;
            while (i > 0 && load_ladder[i - 1] >= g - 1e-9)
                i--;
            if (i == 0) {
                set_message(d, "offered load is already at its lowest, G = %g", g);
                return 0;
            }
            i--;
        }
        snprintf(v, sizeof v, "%g", load_ladder[i]);
    }
    const char *k[] = {"traffic", "load"}, *val[] = {"poisson", v};
    return change_base(d, k, val, 2, "offered load G (poisson)", err, errlen);
}

static int cmd_frame(tui_driver *d, int dir, char *err, size_t errlen)
{
    double cur = scenario_frame_bytes_mean(&d->base);
    size_t i;
    char v[32];
    if (dir > 0) {
        for (i = 0; i < N_FRAMES && frame_ladder[i] <= cur + 1e-9; i++)
            ;
        if (i == N_FRAMES) {
            set_message(d, "frame size is already the largest, %u bytes",
                        frame_ladder[N_FRAMES - 1]);
            return 0;
        }
    } else {
        for (i = N_FRAMES; i > 0 && frame_ladder[i - 1] >= cur - 1e-9; i--)
            ;
        if (i == 0) {
            set_message(d, "frame size is already the smallest, %u bytes", frame_ladder[0]);
            return 0;
        }
        i--;
    }
    snprintf(v, sizeof v, "%u", frame_ladder[i]);
    const char *k[] = {"frame-size"}, *val[] = {v};
    return change_base(d, k, val, 1, "frame size (bytes)", err, errlen);
}

static int cmd_phy(tui_driver *d, char *err, size_t errlen)
{
    size_t n = phy_profile_count(), i;
    for (i = 0; i < n; i++)
        if (strcmp(phy_profile_at(i)->name, d->base.phy.name) == 0)
            break;
    const char *next = phy_profile_at(i < n ? (i + 1) % n : 0)->name;
    /* A new profile brings its own cable: explicit positions do not carry. */
    free(d->base.positions_m);
    d->base.positions_m = NULL;
    d->base.n_positions = 0;
    d->base.probe_m = 0;
    const char *k[] = {"phy"}, *val[] = {next};
    return change_base(d, k, val, 1, "PHY profile", err, errlen);
}

/* The next policy of policy_cycle after the current one, compared by name
 * (a spec with parameters, "fixed:wait=4", counts as its name); a policy
 * outside the list goes to the first. Parameters do not carry over. */
static int cmd_policy(tui_driver *d, char *err, size_t errlen)
{
    size_t len = strcspn(d->base.policy, ":"), i;
    for (i = 0; i < N_POLICIES; i++)
        if (strlen(policy_cycle[i]) == len && strncmp(policy_cycle[i], d->base.policy, len) == 0)
            break;
    const char *next = policy_cycle[i < N_POLICIES ? (i + 1) % N_POLICIES : 0];
    const char *k[] = {"policy"}, *val[] = {next};
    return change_base(d, k, val, 1, "backoff policy", err, errlen);
}

static int cmd_stations(tui_driver *d, int dir, char *err, size_t errlen)
{
    uint32_t n = d->n;
    if (dir < 0 && d->grouped && n <= d->others) {
        set_message(d, "group %s has no station left",
                    scenario_group_at(&d->base, d->grow)->name);
        return 0;
    }
    if (dir < 0 && n <= 1) {
        set_message(d, "at least one station");
        return 0;
    }
    if (dir > 0 && n >= DRIVER_MAX_N) {
        set_message(d, "at most %u stations here", DRIVER_MAX_N);
        return 0;
    }
    if (dir > 0 && d->base.switch_topology && n >= NET_MAX_BRIDGE_PORTS) {
        set_message(d, "a switch has at most %u ports (t: back to one bus or hub)",
                    NET_MAX_BRIDGE_PORTS);
        return 0;
    }
    n = dir > 0 ? n + 1 : n - 1;
    d->phase = TUI_SWEEP_MANUAL;
    snprintf(d->mark, sizeof d->mark, "N=%u", n);
    if (start_engine(d, n, true, err, errlen) != 0)
        return -1;
    d->message[0] = '\0'; /* (a step's words told of the run just replaced) */
    compute_ref(d);
    return 0;
}

/* The network a scenario runs, in a class's words. */
static const char *topology_words(const scenario *sc)
{
    if (sc->switch_topology)
        return sc->duplex_full ? "a switch, full duplex" : "a switch, half duplex";
    return sc->phy.topology == TOPOLOGY_STAR ? "a hub" : "a bus";
}

/* t: the same stations (their groups, traffic, load and seed) on the one
 * bus or hub, then a switch in half duplex, then in full duplex, and back:
 * a new engine at the same N, the plot's time view marking the moment.
 * A scenario with its own network ([segment] sections) is refused: its
 * segments are its own, and the swap is for one medium. */
static int cmd_swap(tui_driver *d, char *err, size_t errlen)
{
    if (d->base.net.n_segments > 0 && !d->base.net.switched) {
        set_message(d, "t: no swap: this scenario has its own network ([segment] sections)");
        return 0;
    }
    scenario trial;
    if (scenario_copy(&trial, &d->base) != 0) {
        set_message(d, "out of memory");
        return 0;
    }
    const char *mark, *what;
    if (!trial.switch_topology) { /* bus or hub -> switch, half duplex */
        trial.switch_topology = trial.duplex_given = true;
        trial.duplex_full = false;
        mark = "switch";
        what = "a collision domain per link (a station can still collide with its port). "
               "t: full duplex";
    } else if (!trial.duplex_full) { /* -> full duplex */
        trial.duplex_full = true;
        mark = "full dx";
        what = "no collisions: both ends of a link send at once. t: back to one collision "
               "domain";
    } else { /* -> the one bus or hub */
        trial.switch_topology = trial.duplex_given = trial.duplex_full = false;
        mark = trial.phy.topology == TOPOLOGY_STAR ? "hub" : "bus";
        what = "one collision domain again. t: a switch";
    }
    scenario check;
    char e2[512];
    if (driver_engine_scenario(d, &trial, d->n, &check, e2, sizeof e2) != 0) {
        set_message(d, "t: cannot put these %u stations on %s: %s", d->n, topology_words(&trial),
                    e2);
        scenario_free(&trial);
        return 0;
    }
    scenario_free(&check);
    scenario_free(&d->base);
    d->base = trial;
    /* The sweep's points were measured on the other network: they go, and
     * the plot follows the run over time, the swap marked. */
    d->n_points = 0;
    d->phase = TUI_SWEEP_MANUAL;
    d->time_view = true;
    snprintf(d->mark, sizeof d->mark, "%s", mark);
    if (start_engine(d, d->n, false, err, errlen) != 0)
        return -1;
    compute_ref(d);
    set_message(d, "t: %u stations on %s: %s", d->n, topology_words(&d->base), what);
    return 0;
}

int tui_driver_command(tui_driver *d, tui_command c, int table_rows, char *err, size_t errlen)
{
    int page = table_rows > 1 ? table_rows - 1 : 1;
    switch (c) {
    case TUI_CMD_NONE:
    case TUI_CMD_RESIZE:
    case TUI_CMD_COUNT:
        return 0;
    case TUI_CMD_QUIT:
        return 1;
    case TUI_CMD_PAUSE:
        d->paused = !d->paused;
        return 0;
    case TUI_CMD_STEP_EVENT:
        return driver_step(d, err, errlen);
    case TUI_CMD_STEP_SLOT:
        d->paused = true;
        return run_to(d, d->view_t + d->slot_ps, UINT64_MAX, err, errlen) < 0 ? -1 : 0;
    case TUI_CMD_SLOWER:
        if (d->speed_idx > 0)
            d->speed_idx--;
        return 0;
    case TUI_CMD_FASTER:
        if (d->speed_idx + 1 < N_SPEEDS)
            d->speed_idx++;
        return 0;
    case TUI_CMD_MORE_STATIONS:
        return cmd_stations(d, +1, err, errlen);
    case TUI_CMD_FEWER_STATIONS:
        return cmd_stations(d, -1, err, errlen);
    case TUI_CMD_LOAD_UP:
        return cmd_load(d, +1, err, errlen);
    case TUI_CMD_LOAD_DOWN:
        return cmd_load(d, -1, err, errlen);
    case TUI_CMD_FRAME_UP:
        return cmd_frame(d, +1, err, errlen);
    case TUI_CMD_FRAME_DOWN:
        return cmd_frame(d, -1, err, errlen);
    case TUI_CMD_NEXT_PHY:
        return cmd_phy(d, err, errlen);
    case TUI_CMD_NEXT_POLICY:
        return cmd_policy(d, err, errlen);
    case TUI_CMD_RESTART:
        if (restart_sweep(d, err, errlen) != 0)
            return -1;
        set_message(d, "sweep restarted");
        return 0;
    case TUI_CMD_TOGGLE_REF:
        d->show_ref = !d->show_ref;
        if (d->show_ref && d->n_ref == 0)
            set_message(d, "the reference model is for saturated stations only");
        return 0;
    case TUI_CMD_ZOOM:
        d->zoom = !d->zoom;
        set_message(d, d->zoom ? "S axis zoomed to the data (z: whole 0 .. 1)"
                               : "S axis from 0 to 1 (z: zoom to the data)");
        return 0;
    case TUI_CMD_SAVE_PCAP:
        driver_trace_start(d);
        return 0;
    case TUI_CMD_SAVE_CSV:
        driver_save_csv(d);
        return 0;
    case TUI_CMD_SWAP_TOPOLOGY:
        return cmd_swap(d, err, errlen);
    case TUI_CMD_HELP:
        d->show_help = !d->show_help;
        return 0;
    case TUI_CMD_CLOSE:
        d->show_help = false;
        driver_trace_cancel(d, "trace cancelled: nothing written");
        return 0;
    case TUI_CMD_SCROLL_UP:
        if (d->scroll > 0)
            d->scroll--;
        return 0;
    case TUI_CMD_SCROLL_DOWN:
        d->scroll++;
        break;
    case TUI_CMD_PAGE_UP:
        d->scroll = d->scroll > (size_t)page ? d->scroll - (size_t)page : 0;
        return 0;
    case TUI_CMD_PAGE_DOWN:
        d->scroll += (size_t)page;
        break;
    }
    /* Scrolling down: never past the last page. */
    size_t last = d->n > (uint32_t)table_rows && table_rows > 0 ? d->n - (size_t)table_rows : 0;
    if (d->scroll > last)
        d->scroll = last;
    return 0;
}
