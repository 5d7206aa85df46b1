/* figure.c - the figure of a sweep (figure.h): curves, panels and the
 * analytic reference curves, handed to plot.c.
 */
#include "figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analytic.h"
#include "parse.h"
#include "presets.h"
#include "reference.h"

const sweep_axis figure_x_axes[FIGURE_N_X_AXES] = {SWEEP_AXIS_STATIONS, SWEEP_AXIS_LOAD,
                                                   SWEEP_AXIS_LENGTH, SWEEP_AXIS_FRAME_SIZE};

static const char *x_label(const sweep_grid *g, sweep_axis a)
{
    switch (a) {
    case SWEEP_AXIS_STATIONS: return "stations N";
    case SWEEP_AXIS_LOAD: return "offered load G (all stations, Poisson)";
    case SWEEP_AXIS_LENGTH: return "cable length (m)";
    case SWEEP_AXIS_FRAME_SIZE: return "frame size (bytes, DA through FCS)";
    default: return sweep_grid_key(g, a); /* a keyed axis: its key, "rogue.stations" */
    }
}

/* A group's measure ("rogue.share"): "rogue: share of the bits
 * delivered". */
static const char *group_y_label(const char *measure, char *buf, size_t len)
{
    static const struct { const char *name, *label; } labels[] = {
        {"throughput", "throughput S (its frames received whole)"},
        {"share", "share of the bits delivered"},
        {"offered_load", "offered load G"},
        {"frames_ok", "frames sent"},
        {"frames_aborted", "frames aborted (attempt limit)"},
        {"frames_dropped", "frames dropped (queue full)"},
        {"frames_queued", "frames still queued at the end"},
        {"delay_mean_s", "mean delay, queue arrival to last bit sent (s)"},
        {"delay_p99_s", "99th percentile delay (s)"},
        {"response_mean_s", "mean response time, request queued to reply received (s)"},
        {"response_p99_s", "99th percentile response time (s)"},
        /* a segment's and a repeater's (stations/MODEL.md) */
        {"frames_sent", "frames sent on it"},
        {"frames_relayed", "frames relayed onto it"},
        {"collisions", "collisions seen"},
        {"late_collisions", "late collisions (after 512 bit times)"},
        {"frames_corrupted", "frames from elsewhere received corrupted"},
        {"transmit_collisions", "collisions it answered with jam"},
        {"jams_sent", "jams sent"},
        {"fragments_extended", "fragments extended"},
        {"readable_frames", "whole frames at its ports"},
        {"port_collisions", "collisions at its ports"},
        /* a collision domain's and a bridge port's (stations/MODEL.md) */
        {"domain_frames_sent", "frames its stations sent"},
        {"domain_collisions", "collisions in the domain"},
        {"domain_throughput", "throughput of the domain's own capacity"},
        {"frames_received", "frames received whole"},
        {"frames_forwarded", "frames forwarded"},
        {"frames_flooded", "frames flooded"},
        {"frames_filtered", "frames filtered"},
        {"frames_queued", "frames queued for output"},
        {"frames_lost", "frames lost (attempt limit)"},
        {"queue_delay_mean_us", "mean queue delay (µs)"},
        {"queue_delay_p99_us", "99th percentile queue delay (µs)"},
    };
    /* the row is all before the last dot: "switch.link1" for a port */
    const char *dot = strrchr(measure, '.');
    const char *what = dot + 1;
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (strcmp(labels[i].name, what) == 0)
            what = labels[i].label;
    snprintf(buf, len, "%.*s: %s", (int)(dot - measure), measure, what);
    return buf;
}

static const char *y_label(const char *measure, char *buf, size_t len)
{
    if (strchr(measure, '.') != NULL)
        return group_y_label(measure, buf, len);
    static const struct { const char *name, *label; } labels[] = {
        {"throughput", "throughput S (delivered frame bits / bit rate)"},
        {"throughput_mbps", "throughput (Mb/s)"},
        {"offered_load", "offered load G"},
        /* The delay of stations/MODEL.md's measures: from the frame's
         * arrival in its queue (a saturated source's frame arrives when
         * the one before it is done) to its last bit leaving the sender. */
        {"mean_delay_us", "mean delay, queue arrival to last bit sent (µs)"},
        {"p50_delay_us", "median delay, queue arrival to last bit sent (µs)"},
        {"p99_delay_us", "99th percentile delay, queue arrival to last bit sent (µs)"},
        {"max_delay_us", "maximum delay, queue arrival to last bit sent (µs)"},
        {"completion_s", "time until the last frame is through (s)"},
        {"recovery_s", "time for the backlog to clear after the outage (s)"},
        {"attempts", "transmission attempts (all stations)"},
        {"frames_corrupted", "frames corrupted at the receiver"},
        {"late_collisions", "late collisions (after 512 bit times)"},
        {"pdv_bits", "path delay value, 802.3's budget (bit times)"},
        {"pvv_bits", "path variability value (bit times)"},
        {"model_round_trip_bits", "the model's round trip (bit times)"},
        {"collisions_per_frame", "collisions per frame sent"},
        {"collisions", "collision events (every segment)"},
        {"jain_fairness", "Jain's fairness index"},
    };
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (strcmp(labels[i].name, measure) == 0)
            return labels[i].label;
    int k = sweep_measure_find(measure);
    const char *unit = k >= 0 ? sweep_measure_at((size_t)k)->unit : "";
    snprintf(buf, len, unit[0] ? "%s (%s)" : "%s", measure, unit);
    return buf;
}

/* Whether a measure is a fraction of something, whose axis ends at 1
 * (a group's too: "rogue.share"). */
static bool is_fraction(const char *measure)
{
    const char *dot = strchr(measure, '.');
    if (dot != NULL)
        measure = dot + 1;
    return strcmp(measure, "throughput") == 0 || strcmp(measure, "jain_fairness") == 0 ||
           (dot != NULL && strcmp(measure, "share") == 0);
}

/* The value of axis a at one point, as a number for the x axis. */
static double axis_number(const sweep_grid *g, sweep_axis a, size_t i)
{
    return g->n[a] > 0 ? strtod(g->values[a][i], NULL) : NAN;
}

static void value_label(const sweep_grid *g, sweep_axis a, const char *v, char *buf, size_t len)
{
    switch (a) {
    case SWEEP_AXIS_STATIONS: snprintf(buf, len, "N = %s", v); break;
    case SWEEP_AXIS_LOAD: snprintf(buf, len, "G = %s", v); break;
    case SWEEP_AXIS_LENGTH: snprintf(buf, len, "%s m", v); break;
    case SWEEP_AXIS_FRAME_SIZE: snprintf(buf, len, "%s B", v); break;
    case SWEEP_AXIS_POLICY:
    case SWEEP_AXIS_PHY: snprintf(buf, len, "%s", v); break;
    default: snprintf(buf, len, "%.60s = %s", sweep_grid_key(g, a), v); break;
    }
}

/* One-way propagation between the two farthest stations, in bit times. */
static double end_to_end_bits(const scenario *sc)
{
    double metres = sc->phy.length_m * (sc->phy.topology == TOPOLOGY_STAR ? 2 : 1);
    double s = metres / (sc->phy.velocity_c * PHY_SPEED_OF_LIGHT_M_S);
    double bits = s * (double)sc->phy.rate_bps;
    if (sc->phy.topology == TOPOLOGY_STAR)
        bits += sc->phy.hub_delay_bits;
    return bits;
}

#define REF_SAMPLES 120

typedef struct figure {
    plot_curve *curves;
    size_t n_curves;
    plot_ref *refs;
    size_t n_refs, cap_refs;
} figure;

static plot_ref *add_ref(figure *fg, const char *label, double x0, double x1, bool logx)
{
    if (fg->n_refs == fg->cap_refs) {
        size_t cap = fg->cap_refs ? 2 * fg->cap_refs : 8;
        plot_ref *r = realloc(fg->refs, sizeof *r * cap);
        if (r == NULL)
            return NULL;
        fg->refs = r;
        fg->cap_refs = cap;
    }
    plot_ref *r = &fg->refs[fg->n_refs];
    memset(r, 0, sizeof *r);
    r->x = malloc(sizeof(double) * REF_SAMPLES);
    r->y = malloc(sizeof(double) * REF_SAMPLES);
    if (r->x == NULL || r->y == NULL) {
        free(r->x);
        free(r->y);
        return NULL;
    }
    snprintf(r->label, sizeof r->label, "%s", label);
    r->n = REF_SAMPLES;
    for (size_t i = 0; i < REF_SAMPLES; i++) {
        double t = (double)i / (REF_SAMPLES - 1);
        r->x[i] = logx && x0 > 0 ? x0 * pow(x1 / x0, t) : x0 + (x1 - x0) * t;
    }
    fg->n_refs++;
    return r;
}

static void figure_free(figure *fg)
{
    for (size_t c = 0; c < fg->n_curves; c++) {
        free(fg->curves[c].x);
        free((void *)fg->curves[c].done); /* allocated by compose */
        for (size_t p = 0; p < PLOT_MAX_PANELS; p++) {
            free(fg->curves[c].y[p]);
            free(fg->curves[c].err[p]);
        }
    }
    free(fg->curves);
    for (size_t r = 0; r < fg->n_refs; r++) {
        free(fg->refs[r].x);
        free(fg->refs[r].y);
    }
    free(fg->refs);
}

/* Whether the figure already has a reference of that label. */
static bool has_ref(const figure *fg, const char *label)
{
    for (size_t r = 0; r < fg->n_refs; r++)
        if (strcmp(fg->refs[r].label, label) == 0)
            return true;
    return false;
}

/* Appends to label the values of the swept axes in `which` at the point
 * of index idx: what a model depends on, so that series that differ only
 * in what it ignores (the policy) share one reference curve. */
static void ref_label(char *label, size_t len, const sweep_grid *g, const size_t *idx,
                      const sweep_axis *which, size_t n_which)
{
    size_t used = strlen(label);
    for (size_t i = 0; i < n_which; i++) {
        sweep_axis a = which[i];
        if (g->n[a] <= 1 || used >= len)
            continue;
        char v[128];
        value_label(g, a, g->values[a][idx[a]], v, sizeof v);
        int k = snprintf(label + used, len - used, ", %s", v);
        if (k > 0)
            used += (size_t)k;
    }
}

/* The analytic references of one series whose first point is `sc` (grid
 * index idx), for the x axis xa over [x0, x1]. Each label says it is a
 * model and names it by its authors (src/theory/analytic.h; K-T: Kleinrock
 * and Tobagi 1975), whether it detects collisions ("no CD": a collided
 * frame holds the channel for its whole length) and the swept values it
 * depends on; a curve already drawn for another series is not repeated.
 * The README lists them with sources. */
static void series_refs(figure *fg, const scenario *sc, sweep_axis xa, double x0, double x1,
                        bool logx, const sweep_grid *g, const size_t *idx)
{
    char label[160];
    double frame_bytes = frame_size_mean(&sc->traffic.size, sc->phy.min_frame_bytes);
    double frame_bits = frame_bytes * 8;
    plot_ref *r;
    if (sc->traffic.kind == TRAFFIC_SATURATED &&
        (xa == SWEEP_AXIS_STATIONS || xa == SWEEP_AXIS_FRAME_SIZE)) {
        static const sweep_axis by_n[] = {SWEEP_AXIS_PHY, SWEEP_AXIS_FRAME_SIZE};
        static const sweep_axis by_size[] = {SWEEP_AXIS_PHY, SWEEP_AXIS_STATIONS};
        snprintf(label, sizeof label, "Metcalfe-Boggs CSMA/CD model");
        ref_label(label, sizeof label, g, idx, xa == SWEEP_AXIS_STATIONS ? by_n : by_size, 2);
        if (has_ref(fg, label) || (r = add_ref(fg, label, x0, x1, logx)) == NULL)
            return;
        for (size_t i = 0; i < r->n; i++) {
            double q = xa == SWEEP_AXIS_STATIONS ? r->x[i] : sc->n_stations;
            double fb = xa == SWEEP_AXIS_FRAME_SIZE ? r->x[i] : frame_bytes;
            analytic_mb_costs c = reference_mb_costs(&sc->phy, fb);
            r->y[i] = analytic_mb_throughput(q, &c);
        }
    } else if (sc->traffic.kind == TRAFFIC_SATURATED && xa == SWEEP_AXIS_LENGTH) {
        static const sweep_axis by_len[] = {SWEEP_AXIS_PHY, SWEEP_AXIS_FRAME_SIZE};
        snprintf(label, sizeof label, "textbook CSMA/CD model 1/(1+5a)");
        ref_label(label, sizeof label, g, idx, by_len, 2);
        if (has_ref(fg, label) || (r = add_ref(fg, label, x0, x1, logx)) == NULL)
            return;
        for (size_t i = 0; i < r->n; i++) {
            scenario s = *sc;
            s.phy.length_m = r->x[i];
            r->y[i] = analytic_efficiency_ka(end_to_end_bits(&s) / frame_bits, 5.0);
        }
    } else if ((sc->traffic.kind == TRAFFIC_POISSON || sc->traffic.kind == TRAFFIC_ONOFF) &&
               xa == SWEEP_AXIS_LOAD) {
        /* a: end-to-end propagation over the frame time; b: the jam that
         * follows a collision's detection, over the frame time. a names
         * the curve (it holds the length, the frame size and the PHY). */
        double a = end_to_end_bits(sc) / frame_bits;
        double b = (double)sc->phy.jam_bits / frame_bits;
        if (a > 0) { /* the model's mini-slot is a: none without a cable */
            snprintf(label, sizeof label, "Tobagi-Hunt CSMA/CD model, a=%.3g", a);
            if (!has_ref(fg, label) && (r = add_ref(fg, label, x0, x1, logx)) != NULL)
                for (size_t i = 0; i < r->n; i++)
                    r->y[i] = analytic_csmacd_slotted_nonpersistent(r->x[i], a, b);
        }
        snprintf(label, sizeof label, "K-T non-persistent CSMA, no CD, a=%.3g", a);
        if (!has_ref(fg, label) && (r = add_ref(fg, label, x0, x1, logx)) != NULL)
            for (size_t i = 0; i < r->n; i++)
                r->y[i] = analytic_csma_nonpersistent(r->x[i], a);
        snprintf(label, sizeof label, "K-T 1-persistent CSMA, no CD, a=%.3g", a);
        if (!has_ref(fg, label) && (r = add_ref(fg, label, x0, x1, logx)) != NULL)
            for (size_t i = 0; i < r->n; i++)
                r->y[i] = analytic_csma_1persistent(r->x[i], a);
    }
}

/* What a done point without a value means, for the measures that can
 * have none (output.h). */
static const char *no_value_meaning(const char *measure, const scenario *sc)
{
    if (strcmp(measure, "recovery_s") == 0)
        return sc->outage_duration > 0 ? "never recovered within the run"
                                       : "the scenario has no outage (--outage)";
    if (strcmp(measure, "completion_s") == 0)
        return sc->traffic.kind == TRAFFIC_BATCH ? "not every frame was done within the run"
                                                 : "only batch traffic completes";
    /* The others that can be undefined (stations/MODEL.md, "Measures that
     * do not apply"); a group's by its measure's name. */
    const char *dot = strchr(measure, '.');
    const char *m = dot ? dot + 1 : measure;
    if (strcmp(m, "jain_fairness") == 0 || strcmp(m, "share") == 0)
        return "nothing was delivered";
    if (strstr(m, "delay") != NULL || strcmp(m, "collisions_per_frame") == 0 ||
        strcmp(m, "capture_mean_run") == 0)
        return "no frame was sent";
    if (strncmp(m, "response_", 9) == 0)
        return "no reply came";
    if (strcmp(m, "throughput_ci95") == 0)
        return "fewer than two batches, or nothing received whole";
    if (dot != NULL && strcmp(m, "load") == 0)
        return "the group's traffic has no load";
    return NULL;
}

/* The legend of a figure's one series (nothing swept but x): what it
 * ran, the policy, or each group's with its name ("groups fixed
 * (fixed:wait=2,jitter=2) and beb (beb)"), and, over replications, what
 * the point and its bars are. */
static void single_label(const scenario *sc, const sweep_result *r, char *buf, size_t len)
{
    size_t used;
    if (sc->n_named == 0) {
        used = (size_t)snprintf(buf, len, "csmacd, policy %.100s", sc->policy);
    } else {
        used = (size_t)snprintf(buf, len, "groups");
        for (uint32_t g = 0; g < sc->n_named && used < len; g++) {
            const station_group *sg = scenario_group_at(sc, g);
            used += (size_t)snprintf(buf + used, len - used, "%s %s (%.60s)",
                                     g == 0                  ? ""
                                     : g + 1 == sc->n_named ? " and"
                                                             : ",",
                                     sg->name, sg->policy);
        }
    }
    if (r->n_reps > 1 && used < len)
        snprintf(buf + used, len - used, "; mean of %u runs, bars: 95%% CI", r->n_reps);
}

/* A label as a title's words: without its parenthesis ("throughput S
 * (delivered frame bits / bit rate)" -> "throughput S"). */
static void title_words(const char *label, char *buf, size_t len)
{
    const char *paren = strstr(label, " (");
    snprintf(buf, len, "%.*s", paren ? (int)(paren - label) : (int)strlen(label), label);
}

/* Whether panel i has a value above 1 (a fraction that is not one: the
 * throughput of several links at once). */
static bool above_one(const figure *fg, size_t i)
{
    for (size_t c = 0; c < fg->n_curves; c++)
        for (size_t x = 0; fg->curves[c].y[i] != NULL && x < fg->curves[c].n; x++)
            if (fg->curves[c].y[i][x] > 1)
                return true;
    return false;
}

/* Whether text is one number, all of it. */
static bool is_number(const char *text)
{
    char *end = NULL;
    (void)strtod(text, &end);
    return end != text && *end == '\0';
}

/* The x axis's ticks (plot_spec.xtic_*): the request's labels when there
 * is one per value, else the axis's values when one of them is not a
 * number. pos[i] is where value i goes; labels point into words or into
 * g. Returns the words to free (may be NULL). */
static char **x_ticks(const figure_request *rq, const sweep_grid *g, sweep_axis xa,
                      plot_spec *spec, double *pos, size_t *n_words)
{
    size_t nx = g->n[xa];
    char **words = NULL;
    *n_words = 0;
    char reason[256];
    if (rq->xtics != NULL && nx > 0 &&
        parse_list_words(rq->xtics, &words, n_words, reason, sizeof reason) == 0 &&
        *n_words != nx) {
        parse_list_free_words(words, *n_words);
        words = NULL;
        *n_words = 0;
    }
    const char *const *labels = words ? (const char *const *)words
                                      : nx > 0 ? (const char *const *)g->values[xa] : NULL;
    bool numbers = true;
    for (size_t i = 0; labels != NULL && i < nx; i++)
        numbers = numbers && is_number(labels[i]);
    if (labels == NULL || nx > PLOT_MAX_XTICS || (words == NULL && numbers))
        return words; /* the axis's own numbers */
    spec->xcategories = !numbers;
    spec->n_xtics = nx;
    for (size_t i = 0; i < nx; i++) {
        pos[i] = numbers ? strtod(labels[i], NULL) : (double)(i + 1);
        spec->xtic_label[i] = labels[i];
        spec->xtic_at[i] = pos[i];
    }
    return words;
}

/* The request's limits (figure_request.marks) on the panels of ys. */
static void add_marks(const char *marks, char **ys, size_t n_y, plot_spec *spec)
{
    for (const char *m = marks; m != NULL && *m != '\0' && spec->n_marks < PLOT_MAX_MARKS;) {
        const char *end = strchr(m, ';');
        size_t len = end ? (size_t)(end - m) : strlen(m);
        char item[256], key[64];
        snprintf(item, sizeof item, "%.*s", (int)(len < 255 ? len : 255), m);
        m = end ? end + 1 : m + len;
        char *eq = strchr(item, '='), *colon = eq ? strchr(eq, ':') : NULL;
        if (eq == NULL || colon == NULL)
            continue;
        char *k = item;
        while (*k == ' ')
            k++;
        snprintf(key, sizeof key, "%.*s", (int)(eq - k), k);
        for (size_t i = strlen(key); i > 0 && key[i - 1] == ' '; i--)
            key[i - 1] = '\0';
        plot_mark *pm = &spec->marks[spec->n_marks];
        pm->value = strtod(eq + 1, NULL);
        const char *label = colon + 1;
        while (*label == ' ')
            label++;
        snprintf(pm->label, sizeof pm->label, "%s", label);
        pm->vertical = strcmp(key, "x") == 0;
        bool found = pm->vertical;
        for (size_t i = 0; !found && i < n_y; i++)
            if (strcmp(ys[i], key) == 0) {
                pm->panel = i;
                found = true;
            }
        if (found)
            spec->n_marks++;
    }
}

/* Builds the figure, then draws it into fig (script == NULL) or writes
 * its script to `script` in format fmt, drawing into the file `path`. */
static int compose(const figure_request *rq, const sweep_grid *g, const scenario *points,
                   const sweep_result *res, const char *path, outfile *fig, FILE *script,
                   plot_format fmt, plot_message_fn say, void *ctx, char *err, size_t errlen)
{
    /* The panels. */
    const char *ylist = rq->y_list;
    char **ys = NULL;
    size_t n_y = 0;
    if (parse_list_words(ylist, &ys, &n_y, err, errlen) != 0)
        return -1;
    if (n_y > PLOT_MAX_PANELS)
        n_y = PLOT_MAX_PANELS;

    /* The x axis: the first of stations, load, length, frame-size with
     * several values; else stations (one point per series). */
    sweep_axis xa = SWEEP_AXIS_STATIONS;
    for (size_t i = 0; i < FIGURE_N_X_AXES; i++)
        if (g->n[figure_x_axes[i]] > 1) {
            xa = figure_x_axes[i];
            break;
        }
    for (size_t a = SWEEP_N_AXES; g->n[xa] <= 1 && a < SWEEP_MAX_AXES; a++)
        if (g->n[a] > 1) /* else the first keyed axis swept */
            xa = (sweep_axis)a;
    if (rq->x_axis >= 0 && g->n[rq->x_axis] > 1)
        xa = (sweep_axis)rq->x_axis;
    size_t nx = g->n[xa] > 0 ? g->n[xa] : 1;
    plot_spec spec = {0};
    double xpos[PLOT_MAX_XTICS];
    size_t n_tick_words = 0;
    char **tick_words = x_ticks(rq, g, xa, &spec, xpos, &n_tick_words);
    size_t n_points = sweep_grid_points(g);
    size_t n_series = n_points / nx;

    /* The request's series labels, when there is one per series. */
    char **series_words = NULL;
    size_t n_series_words = 0;
    if (rq->series != NULL) {
        char reason[256];
        if (parse_list_words(rq->series, &series_words, &n_series_words, reason,
                             sizeof reason) == 0 &&
            n_series_words != n_series) {
            parse_list_free_words(series_words, n_series_words);
            series_words = NULL;
            n_series_words = 0;
        }
    }

    figure fg = {0};
    fg.curves = calloc(n_series, sizeof *fg.curves);
    int rc = fg.curves == NULL ? -1 : 0;
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t p = 0; rc == 0 && p < n_points; p++) {
        size_t idx[SWEEP_MAX_AXES];
        sweep_grid_index(g, p, idx);
        /* The series: p with the x digit taken out. */
        size_t s = 0;
        for (int a = 0; a < SWEEP_MAX_AXES; a++)
            if ((sweep_axis)a != xa && g->n[a] > 0)
                s = s * g->n[a] + idx[a];
        plot_curve *cv = &fg.curves[s];
        if (cv->x == NULL) {
            fg.n_curves = s + 1 > fg.n_curves ? s + 1 : fg.n_curves;
            cv->x = calloc(nx, sizeof(double));
            for (size_t i = 0; i < n_y; i++) {
                cv->y[i] = calloc(nx, sizeof(double));
                cv->err[i] = calloc(nx, sizeof(double));
                if (cv->y[i] == NULL || cv->err[i] == NULL)
                    rc = -1;
            }
            bool *done = calloc(nx, sizeof *done);
            cv->done = done;
            if (cv->x == NULL || done == NULL)
                rc = -1;
            cv->n = nx;
            size_t used = 0;
            cv->label[0] = '\0';
            for (int a = 0; a < SWEEP_MAX_AXES && rc == 0; a++)
                if ((sweep_axis)a != xa && g->n[a] > 1) {
                    char v[128];
                    value_label(g, (sweep_axis)a, g->values[a][idx[a]], v, sizeof v);
                    int k = snprintf(cv->label + used, sizeof cv->label - used, "%s%s",
                                     used ? ", " : "", v);
                    if (k > 0 && used + (size_t)k < sizeof cv->label)
                        used += (size_t)k;
                    /* the keys that move with it ("+duplex") tell series apart too */
                    for (size_t w = 0; w < g->n_with; w++) {
                        if (g->with[w].axis != (size_t)a)
                            continue;
                        k = snprintf(cv->label + used, sizeof cv->label - used, ", %.40s = %s",
                                     g->with[w].key, g->with[w].values[idx[a]]);
                        if (k > 0 && used + (size_t)k < sizeof cv->label)
                            used += (size_t)k;
                    }
                }
            if (series_words != NULL && s < n_series_words)
                used = (size_t)snprintf(cv->label, sizeof cv->label, "%s", series_words[s]);
            if (used == 0)
                single_label(&points[p], &res[p], cv->label, sizeof cv->label);
        }
        if (rc != 0)
            break;
        size_t xi = g->n[xa] > 0 ? idx[xa] : 0;
        double x = spec.n_xtics > 0  ? xpos[xi]
                   : g->n[xa] > 0     ? axis_number(g, xa, xi)
                                      : points[p].n_stations;
        cv->x[xi] = x;
        ((bool *)cv->done)[xi] = res[p].done; /* allocated here, above */
        if (isfinite(x)) {
            xmin = x < xmin ? x : xmin;
            xmax = x > xmax ? x : xmax;
        }
        for (size_t i = 0; i < n_y; i++) {
            /* found at each point: the points' networks may differ */
            int yk = sweep_value_find(&points[p], ys[i]);
            if (yk < 0)
                cv->absent[i] = true;
            double mean = NAN, ci = NAN;
            if (res[p].done && yk >= 0)
                sweep_point_value(&res[p], (size_t)yk, &mean, &ci);
            cv->y[i][xi] = mean;
            cv->err[i][xi] = ci;
        }
    }

    int xlog = 0;
    if (rc == 0 && xmin > 0 && isfinite(xmax) && spec.n_xtics == 0) {
        /* a number of stations, a group's too ("client.stations") */
        const char *xkey = sweep_grid_key(g, xa), *xdot = strchr(xkey, '.');
        bool stations = strcmp(xdot ? xdot + 1 : xkey, "stations") == 0;
        if (stations && xmax / xmin >= 16)
            xlog = 2;
        else if (!stations && xmax / xmin >= 50)
            xlog = 10;
    }
    /* References on the throughput panel, one set per series. */
    size_t ref_panel = 0;
    bool want_refs = false;
    for (size_t i = 0; i < n_y; i++)
        if (strcmp(ys[i], "throughput") == 0) {
            ref_panel = i;
            want_refs = true;
            break;
        }
    if (rc == 0 && want_refs && isfinite(xmin) && xmax > xmin) {
        for (size_t s = 0; s < fg.n_curves; s++) {
            /* The series' first point. */
            size_t p = 0;
            for (; p < n_points; p++) {
                size_t idx[SWEEP_MAX_AXES], k = 0;
                sweep_grid_index(g, p, idx);
                for (int a = 0; a < SWEEP_MAX_AXES; a++)
                    if ((sweep_axis)a != xa && g->n[a] > 0)
                        k = k * g->n[a] + idx[a];
                if (k == s)
                    break;
            }
            if (p < n_points) {
                size_t idx[SWEEP_MAX_AXES];
                sweep_grid_index(g, p, idx);
                series_refs(&fg, &points[p], xa, xmin, xmax, xlog != 0, g, idx);
            }
        }
        const scenario *sc0 = &points[0];
        if ((sc0->traffic.kind == TRAFFIC_POISSON || sc0->traffic.kind == TRAFFIC_ONOFF) &&
            xa == SWEEP_AXIS_LOAD) {
            plot_ref *r = add_ref(&fg, "pure ALOHA model", xmin, xmax, xlog != 0);
            for (size_t i = 0; r != NULL && i < r->n; i++)
                r->y[i] = analytic_aloha_pure(r->x[i]);
            r = add_ref(&fg, "slotted ALOHA model", xmin, xmax, xlog != 0);
            for (size_t i = 0; r != NULL && i < r->n; i++)
                r->y[i] = analytic_aloha_slotted(r->x[i]);
        }
    }

    if (rc == 0) {
        char title[PRESET_TEXT_MAX];
        char ybuf[PLOT_MAX_PANELS][128];
        if (rq->title) {
            snprintf(title, sizeof title, "%s", rq->title);
        } else {
            /* The panels' names as words, "throughput S and collisions per
             * frame sent vs stations N", never the raw key list. */
            size_t used = (size_t)snprintf(title, sizeof title, "csmacd sweep: ");
            for (size_t i = 0; i < n_y && used < sizeof title; i++) {
                char words[128];
                title_words(y_label(ys[i], ybuf[i], sizeof ybuf[i]), words, sizeof words);
                used += (size_t)snprintf(title + used, sizeof title - used, "%s%s",
                                         i == 0 ? "" : i + 1 == n_y ? " and " : ", ", words);
            }
            char xw[128];
            title_words(rq->xlabel ? rq->xlabel : x_label(g, xa), xw, sizeof xw);
            if (used < sizeof title)
                snprintf(title + used, sizeof title - used, " vs %s", xw);
        }
        spec.title = title;
        spec.xlabel = rq->xlabel ? rq->xlabel : x_label(g, xa);
        spec.xlog_base = xlog;
        spec.n_panels = n_y;
        spec.curves = fg.curves;
        spec.n_curves = fg.n_curves;
        spec.refs = fg.refs;
        spec.n_refs = fg.n_refs;
        spec.ref_panel = ref_panel;
        add_marks(rq->marks, ys, n_y, &spec);
        /* With bridges the throughput counts every link at once, over one
         * link's rate (stations/MODEL.md): it may exceed 1. */
        bool bridged = false;
        for (size_t p = 0; p < n_points; p++)
            bridged = bridged || points[p].net.n_bridges > 0;
        for (size_t i = 0; i < n_y; i++) {
            spec.ylabel[i] = bridged && strcmp(ys[i], "throughput") == 0
                                 ? "aggregate throughput (frame bits / one link's rate)"
                             : bridged && strcmp(ys[i], "mean_delay_us") == 0
                                 ? "mean delay, queue to destination (µs)"
                                 : y_label(ys[i], ybuf[i], sizeof ybuf[i]);
            spec.ylog[i] = xlog && (strstr(ys[i], "delay") != NULL ||
                                    strstr(ys[i], "response_") != NULL);
            spec.yfraction[i] = is_fraction(ys[i]) && !above_one(&fg, i);
            spec.no_value[i] = no_value_meaning(ys[i], &points[0]);
        }
        if (script == NULL) {
            rc = plot_render(&spec, fig, say, ctx, err, errlen);
        } else if ((rc = plot_write_script(script, &spec, fmt, path)) != 0) {
            snprintf(err, errlen, "%s: cannot write the script", path);
        }
    } else {
        snprintf(err, errlen, "%s: out of memory", path);
    }
    figure_free(&fg);
    parse_list_free_words(ys, n_y);
    parse_list_free_words(tick_words, n_tick_words);
    parse_list_free_words(series_words, n_series_words);
    return rc;
}

int figure_draw(const figure_request *rq, const sweep_grid *g, const scenario *points,
                const sweep_result *res, outfile *fig, plot_message_fn say, void *ctx, char *err,
                size_t errlen)
{
    return compose(rq, g, points, res, fig->path, fig, NULL, PLOT_SVG, say, ctx, err, errlen);
}

int figure_write_script(const figure_request *rq, const sweep_grid *g, const scenario *points,
                        const sweep_result *res, FILE *f, plot_format fmt, const char *path,
                        char *err, size_t errlen)
{
    return compose(rq, g, points, res, path, NULL, f, fmt, NULL, NULL, err, errlen);
}
