/* tui_model.h - what the TUI shows, and what it can ask the program to do.
 *
 * The TUI library never calls the engine and includes no engine header:
 * the program copies what it wants shown into a tui_snapshot (plain data,
 * read through a const pointer) and the TUI answers with tui_commands. So
 * the screen can be drawn and tested from hand-made snapshots, and the
 * engine can change without touching the TUI.
 *
 * Units are in the names (_s seconds, _bps bits per second, _bytes). Every
 * pointer in a snapshot is owned by whoever filled it and must stay valid
 * while the snapshot is rendered; a NULL array with a zero count is fine.
 * Stations are numbered from 1 on screen; `index` below is 0-based.
 */
#ifndef CSMACD_TUI_MODEL_H
#define CSMACD_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the TUI can ask for. The program decides what each one means
 * (htop's Action.c: keys map to actions, the loop reacts). */
typedef enum tui_command {
    TUI_CMD_NONE = 0,
    TUI_CMD_PAUSE,          /* pause or resume */
    TUI_CMD_STEP_EVENT,     /* single step: one engine event (pauses first) */
    TUI_CMD_STEP_SLOT,      /* single step: one slot time of simulated time */
    TUI_CMD_SLOWER,
    TUI_CMD_FASTER,
    TUI_CMD_MORE_STATIONS,
    TUI_CMD_FEWER_STATIONS,
    TUI_CMD_LOAD_UP,
    TUI_CMD_LOAD_DOWN,
    TUI_CMD_FRAME_UP,
    TUI_CMD_FRAME_DOWN,
    TUI_CMD_NEXT_PHY,
    TUI_CMD_NEXT_POLICY,    /* next backoff policy of a fixed list */
    TUI_CMD_RESTART,        /* restart the sweep */
    TUI_CMD_TOGGLE_REF,     /* show or hide the analytic reference curve */
    TUI_CMD_ZOOM,           /* S axis: zoomed to the data, or the whole 0..1 */
    TUI_CMD_SAVE_PCAP,      /* save the current engine's trace */
    TUI_CMD_SAVE_CSV,       /* save the plot data */
    TUI_CMD_SWAP_TOPOLOGY,  /* the same stations on a hub, a switch (half duplex),
                               a switch (full duplex), and back */
    TUI_CMD_HELP,           /* show or hide the help overlay */
    TUI_CMD_CLOSE,          /* Esc: close the help overlay if it is open */
    TUI_CMD_SCROLL_UP,      /* station table, one row */
    TUI_CMD_SCROLL_DOWN,
    TUI_CMD_PAGE_UP,        /* station table, one page */
    TUI_CMD_PAGE_DOWN,
    TUI_CMD_QUIT,
    TUI_CMD_RESIZE,         /* the terminal changed size: redraw */
    TUI_CMD_COUNT
} tui_command;

/* A station's state, as the MAC reports it. */
typedef enum tui_station_state {
    TUI_ST_IDLE,     /* nothing to send */
    TUI_ST_DEFER,    /* frame ready, waiting for a quiet channel and the gap */
    TUI_ST_TX,       /* transmitting */
    TUI_ST_JAM,      /* collision detected: jamming */
    TUI_ST_BACKOFF,  /* waiting out a backoff (slots_left) */
    TUI_ST_BURST,    /* 1 Gb/s burst: extension between frames */
} tui_station_state;

typedef struct tui_station_row {
    uint32_t index;            /* 0-based; shown from 1 */
    tui_station_state state;
    uint32_t attempt;          /* attempt of the current frame, 0 when idle */
    uint64_t backoff_slots_left; /* TUI_ST_BACKOFF: slots still to wait */
    uint64_t successes;        /* frames sent OK (aFramesTransmittedOK) */
    uint64_t collisions;       /* collisions seen */
    /* Frames lost, in `csmacd run`'s words (one word per counter): */
    uint64_t aborted;          /* given up after 16 collisions, attemptLimit
                                  (aFramesAbortedDueToXSColls) */
    uint64_t late_discarded;   /* given up after a late collision (1 Gb/s) */
    uint64_t dropped;          /* lost to a full queue */
    double share;              /* of the bits delivered, 0..1 */
    const char *group;         /* its group's name, NULL when there are none */
    /* A network of segments (tui_snapshot.segments): the segment it sits
     * on, its index there, and station_pos is its place on that segment's
     * drawing. NULL / 0 without a network. */
    const char *segment;
    uint32_t seg;
} tui_station_row;

/* A group of stations (a scenario with groups) and its share of the bits. */
typedef struct tui_group {
    const char *name;
    uint32_t stations;
    double share;              /* 0..1 */
    bool grown;                /* the group the N axis grows */
    const char *policy;        /* its backoff policy, "beb", or NULL */
    const char *traffic;       /* its traffic, "saturated", "poisson G=0.30", or NULL */
    uint32_t frame_bytes;      /* its frames' mean size, DA through FCS */
} tui_group;

/* One measured point of the sweep. */
typedef struct tui_point {
    uint32_t n;                /* stations */
    double s;                  /* throughput S, 0..1 of the bit rate */
    double s_ci95;             /* half-width of its 95 % confidence interval */
    double coll_per_frame;     /* collisions per successful frame */
    double sim_s;              /* simulated seconds it took */
    /* Frames over the point's run, all stations (for the saved CSV). */
    uint64_t frames_ok, frames_aborted, frames_late_discarded, frames_dropped;
} tui_point;

/* One point of the analytic reference curve (n is real: the curve is
 * drawn through these by straight segments). */
typedef struct tui_ref_point {
    double n;
    double s;
} tui_ref_point;

/* Channel state over one cell of the timeline strip, at the probe. */
typedef enum tui_chan {
    TUI_CHAN_IDLE,
    TUI_CHAN_FRAME,      /* one transmission */
    TUI_CHAN_JAM,        /* a jam, nothing else */
    TUI_CHAN_COLLISION,  /* two or more transmissions overlap */
} tui_chan;

/* A stretch of the cable carrying one transmission's signal now, as
 * fractions of the drawing (0 = the left end, 1 = the right end). */
typedef struct tui_span {
    double from, to;
    bool jam;
    uint32_t station;          /* the transmitter, 0-based; on a segment a
                                  repeater port's relay: TUI_SPAN_JOINT | its
                                  joint's index there */
} tui_span;

#define TUI_SPAN_JOINT 0x80000000u

/* A joint of a network: where a repeater's port (or a hub's uplink), or
 * a bridge's port, taps a segment. */
#define TUI_NO_BRIDGE UINT32_MAX
typedef struct tui_joint {
    const char *label;         /* the repeater's or bridge's name, or "uplink" for a hub's */
    const char *peer;          /* the segment(s) it leads to, "annex" or "lab,annex" */
    double pos;                /* along the segment's drawing, 0..1 */
    uint32_t bridge;           /* a bridge port: its bridge (tui_snapshot.bridges) and */
    uint32_t port;             /* port there; TUI_NO_BRIDGE for a repeater's */
} tui_joint;

/* A bridge port now: its output queue, and what it lost over the run. */
typedef struct tui_bridge_port {
    const char *segment;       /* the segment it sits on (its name) */
    tui_station_state state;   /* its MAC's (a port sends, defers, backs off) */
    uint32_t queue_len;        /* frames in its output queue now, the one being sent included */
    uint64_t dropped;          /* copies lost to its full queue */
    uint64_t sent;             /* copies sent whole */
    double queue_delay_us;     /* mean, queue entry to the end of its transmission; NAN: none */
} tui_bridge_port;

/* A bridge (a switch: one station per port). Its ports' queues all hold
 * `queue` frames. */
typedef struct tui_bridge {
    const char *name;
    uint32_t queue;
    const tui_bridge_port *ports;
    size_t n_ports;
} tui_bridge;

/* A collision domain (the segments repeaters join; a bridge's port ends
 * one), named after its first segment and told apart on screen by a
 * letter and a colour (tui_domain_letter, tui_domain_attr). */
typedef struct tui_domain {
    const char *name;
    uint32_t segments, stations;
    bool full_duplex;          /* a full-duplex link: no collisions at all */
    uint64_t collisions;       /* collision events on its segments over the run */
    uint64_t frames_sent;      /* its stations' frames sent whole */
} tui_domain;

/* One sample of the run's history (the time view of the plot): the
 * aggregate throughput over a stretch of simulated time, every link's
 * delivered bits over one link's capacity (above 1 when several domains
 * carry frames at once), and collisions per frame over it. */
typedef struct tui_sample {
    double t_s;                /* end of the stretch, seconds since the history began */
    double s;                  /* delivered bits / (rate * stretch) */
    double collisions;         /* collision events in the stretch */
    double frames;             /* frames sent whole in the stretch */
} tui_sample;

/* A moment of the history where the network changed (the swap key, or a
 * station added): a vertical mark labelled "switch", "hub", "N=17"... */
typedef struct tui_mark {
    double t_s;
    const char *label;
} tui_mark;

/* One segment of a network, as tui_snapshot's medium is for one cable:
 * its joints and the signals on it now (a coax segment: stretches of its
 * cable; a hub: what each station and port hears, around its place). */
typedef struct tui_segment {
    const char *name;
    bool hub;                  /* a repeater hub (else a coax cable or a link) */
    double length_m;           /* coax, link: the cable; hub: every drop cable */
    uint32_t n_stations;
    const tui_joint *joints;
    size_t n_joints;
    const tui_span *spans;
    size_t n_spans;
    bool link;                 /* a point-to-point link (a switch's) */
    bool full_duplex;          /* a link in full duplex */
    uint32_t domain;           /* its collision domain (tui_snapshot.domains; with bridges) */
} tui_segment;

typedef enum tui_sweep_phase {
    TUI_SWEEP_RUNNING,   /* measuring sweep point `sweep_index` */
    TUI_SWEEP_MANUAL,    /* the user chose N with +/-: measuring that N */
    TUI_SWEEP_DONE,      /* every point measured; the last N keeps running */
} tui_sweep_phase;

#define TUI_TIMELINE_MAX 512

typedef struct tui_snapshot {
    /* The scenario's groups (none: every station alike). */
    const tui_group *groups;
    size_t n_groups;
    /* The scenario, for the header (with groups, the header shows each
     * group's stations, policy, traffic and frames instead of the four
     * fields below them here). */
    const char *phy_name;      /* "10base5" */
    double rate_bps;
    bool star;                 /* topology: star (hub) instead of bus */
    double length_m;           /* bus length, or each drop cable (star) */
    const char *traffic;       /* "saturated", "poisson G=0.50" */
    uint32_t frame_bytes;      /* DA through FCS */
    const char *policy;        /* "beb" */
    uint64_t seed;
    double slot_s;             /* slotTime in seconds */

    /* The sweep: the plot. */
    tui_sweep_phase phase;
    uint32_t n_min, n_max;     /* x axis range */
    bool log_x;
    size_t sweep_index, sweep_count; /* point being measured, of how many */
    const tui_point *points;   /* measured points, in any order */
    size_t n_points;
    bool has_current;          /* the point being measured, once it has an estimate */
    tui_point current;         /* s_ci95 < 0: no interval yet (fewer than 2 batches) */
    double target_rel_ci;      /* stop when s_ci95 / s <= this */
    uint32_t batches;          /* batches measured for the current point (warm-up excluded) */
    uint32_t min_batches;      /* a point takes at least this many */
    double batch_s;            /* simulated seconds per batch */
    const tui_ref_point *ref;  /* the reference curve, increasing n */
    size_t n_ref;
    bool show_ref;
    const char *ref_label;     /* "Metcalfe-Boggs" */
    double s_axis_min;         /* lower end of the S axis: 0, or 0.5 .. 0.9 when
                                  zoomed in (the plot marks the cut) */

    /* The engine being watched. */
    uint32_t n_stations;
    double sim_time_s;
    uint64_t events;
    bool measuring;            /* the run is measuring a point (else: watched only) */
    double throughput, throughput_ci95; /* so far in this run; CI < 0: none yet */
    double offered_load;
    double coll_per_frame;
    double jain;               /* Jain's fairness index, 0..1; NAN: nothing delivered yet */
    double capture_mean_run;   /* consecutive successes by one station */
    uint64_t capture_max_run;
    uint64_t frames_aborted;   /* all stations, as in tui_station_row */
    uint64_t frames_late_discarded;
    uint64_t frames_dropped;
    const tui_station_row *rows; /* n_stations rows, by index */
    size_t n_rows;
    size_t scroll;             /* first row shown (clamped by the layout) */

    /* The medium now: station positions along the drawing (0..1) and the
     * signals on it. For a star, the drawing is the hub's view: each
     * station's position stands for its drop cable. */
    const double *station_pos; /* n_rows entries, or NULL */
    const tui_span *spans;
    size_t n_spans;

    /* A network of segments ([segment] sections), drawn one line each in
     * place of the one medium above (whose spans are then unused); none
     * when n_segments is 0. */
    const tui_segment *segments;
    size_t n_segments;
    const char *probe_segment; /* the segment whose probe the strip shows */
    /* With bridges: the collision domains and the bridges (none when 0). */
    const tui_domain *domains;
    size_t n_domains;
    const tui_bridge *bridges;
    size_t n_bridges;
    bool switched;             /* `topology = switch`: every station alone on a link */
    uint64_t collisions;       /* collision events over the run, every domain */

    /* The run's history (tui_sample), oldest first, and its marks; the
     * plot shows it instead of S against N when time_view is set. */
    const tui_sample *history;
    size_t n_history;
    const tui_mark *marks;
    size_t n_marks;
    bool time_view;

    /* The channel at the probe: one cell per `cell_s`, oldest first, the
     * last one ending now. */
    const uint8_t *timeline;   /* tui_chan values */
    size_t n_timeline;
    double cell_s;

    /* Controls. */
    double speed;              /* simulated seconds per wall second; 0 = as fast as possible */
    bool paused;
    bool show_help;
    bool can_save_pcap;        /* the program can write a pcap trace */
    const char *save_dir;      /* where c and w write, as a person reads it */
    const char *message;       /* one line for the status bar, or NULL */
} tui_snapshot;

#endif
