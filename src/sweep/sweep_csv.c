/* sweep_csv.c - the sweep's CSV files (sweep_csv.h): the table of
 * scenario columns and the writers.
 */
#include "sweep_csv.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void fmt_double(double v, char *buf, size_t len)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Exact seconds from picoseconds: "0.2", "1e-06" would lose nothing but
 * a decimal string is what TIME reads back exactly. */
static void fmt_seconds(sim_time ps, char *buf, size_t len)
{
    long long s = (long long)(ps / SIM_PS_PER_S), frac = (long long)(ps % SIM_PS_PER_S);
    if (frac == 0) {
        snprintf(buf, len, "%lld", s);
        return;
    }
    char digits[16];
    snprintf(digits, sizeof digits, "%012lld", frac);
    for (int i = 11; i > 0 && digits[i] == '0'; i--)
        digits[i] = '\0';
    snprintf(buf, len, "%lld.%s", s, digits);
}

/* The scenario columns: the name (with its unit) and the value as text
 * that the matching option of `csmacd run` reads back exactly. */
typedef void (*column_fn)(const scenario *sc, char *buf, size_t len);

#define COL_U(fn, expr)                                                                       \
    static void fn(const scenario *sc, char *buf, size_t len)                                \
    {                                                                                         \
        snprintf(buf, len, "%" PRIu64, (uint64_t)(expr));                                     \
    }
#define COL_B(fn, expr)                                                                       \
    static void fn(const scenario *sc, char *buf, size_t len)                                \
    {                                                                                         \
        snprintf(buf, len, "%s", (expr) ? "yes" : "no");                                      \
    }
#define COL_D(fn, expr)                                                                       \
    static void fn(const scenario *sc, char *buf, size_t len) { fmt_double((expr), buf, len); }
COL_U(col_stations, sc->n_stations)
COL_D(col_length, scenario_length_m(sc)) /* a switch's: its links' */
COL_D(col_load, sc->traffic.load)
COL_U(col_batch, sc->traffic.batch_frames)
COL_U(col_queue, sc->queue_capacity)
COL_U(col_batches, sc->batches)
COL_U(col_rate, sc->phy.rate_bps)
COL_U(col_slot, sc->phy.slot_bits)
COL_U(col_ifg, sc->phy.ifg_bits)
COL_U(col_ifg1, sc->phy.ifg_part1_bits)
COL_U(col_jam, sc->phy.jam_bits)
COL_U(col_preamble, sc->phy.preamble_bits)
COL_U(col_min_frame, sc->phy.min_frame_bytes)
COL_U(col_max_frame, sc->phy.max_frame_bytes)
COL_U(col_attempt_limit, sc->phy.attempt_limit)
COL_U(col_backoff_limit, sc->phy.backoff_limit)
COL_B(col_two_part, sc->phy.two_part_deferral)
COL_B(col_extension, sc->phy.extension)
COL_B(col_bursting, sc->phy.bursting)
COL_U(col_burst_limit, sc->phy.burst_limit_bits)
COL_B(col_retry_late, sc->phy.retry_late)
COL_D(col_velocity, sc->phy.velocity_c)
COL_U(col_hub_delay, sc->phy.hub_delay_bits)
#undef COL_U
#undef COL_B
#undef COL_D

static void col_phy(const scenario *sc, char *buf, size_t len)
{
    snprintf(buf, len, "%s", sc->phy.name);
}
/* A switch has no shared cable to tap (--probe is refused with it): empty. */
static void col_probe(const scenario *sc, char *buf, size_t len)
{
    if (sc->switch_topology && len > 0)
        buf[0] = '\0';
    else
        fmt_double(sc->probe_m, buf, len);
}
static void col_topology(const scenario *sc, char *buf, size_t len)
{
    snprintf(buf, len, "%s", sc->switch_topology              ? "switch"
                             : sc->phy.topology == TOPOLOGY_BUS ? "bus"
                                                                : "star");
}
static void col_traffic(const scenario *sc, char *buf, size_t len)
{
    if (sc->traffic.kind == TRAFFIC_PCAP)
        snprintf(buf, len, "pcap:%s", sc->pcap_path);
    else
        snprintf(buf, len, "%s", scenario_traffic_name(sc->traffic.kind));
}
static void col_frame_size(const scenario *sc, char *buf, size_t len)
{
    scenario_frame_size_text(&sc->traffic.size, buf, len);
}
static void col_dest(const scenario *sc, char *buf, size_t len)
{
    if (sc->traffic.dest == DEST_LOCAL)
        scenario_dest_text(&sc->traffic, buf, len);
    else if (sc->traffic.dest == DEST_SERVER)
        snprintf(buf, len, "server:%u", sc->traffic.server + 1);
    else
        snprintf(buf, len, "%s", sc->traffic.dest == DEST_BROADCAST ? "broadcast" : "random");
}
static void col_on(const scenario *sc, char *buf, size_t len)
{
    fmt_seconds((sim_time)llround(sc->traffic.on_mean_s * 1e12), buf, len);
}
static void col_off(const scenario *sc, char *buf, size_t len)
{
    fmt_seconds((sim_time)llround(sc->traffic.off_mean_s * 1e12), buf, len);
}
static void col_policy(const scenario *sc, char *buf, size_t len)
{
    snprintf(buf, len, "%s", sc->policy);
}
static void col_duration(const scenario *sc, char *buf, size_t len)
{
    fmt_seconds(sc->duration, buf, len);
}
static void col_warmup(const scenario *sc, char *buf, size_t len)
{
    fmt_seconds(sc->warmup, buf, len);
}

typedef struct column {
    const char *name;
    column_fn fn;
} column;

/* The order of the scenario columns (README "Sweeps and experiments"
 * gives the matching `run` options). */
static const column scenario_columns[] = {
    {"phy", col_phy},
    {"stations", col_stations},
    {"topology", col_topology},
    {"length_m", col_length},
    {"probe_m", col_probe},
    {"traffic", col_traffic},
    {"load", col_load},
    {"frame_size_bytes", col_frame_size},
    {"dest", col_dest},
    {"batch_frames", col_batch},
    {"on_mean_s", col_on},
    {"off_mean_s", col_off},
    {"queue_frames", col_queue},
    {"policy", col_policy},
    {"duration_s", col_duration},
    {"warmup_s", col_warmup},
    {"batches", col_batches},
    {"rate_bps", col_rate},
    {"slot_bits", col_slot},
    {"ifg_bits", col_ifg},
    {"ifg_part1_bits", col_ifg1},
    {"jam_bits", col_jam},
    {"preamble_bits", col_preamble},
    {"min_frame_bytes", col_min_frame},
    {"max_frame_bytes", col_max_frame},
    {"attempt_limit", col_attempt_limit},
    {"backoff_limit", col_backoff_limit},
    {"two_part_deferral", col_two_part},
    {"extension", col_extension},
    {"bursting", col_bursting},
    {"burst_limit_bits", col_burst_limit},
    {"retry_late", col_retry_late},
    {"velocity_c", col_velocity},
    {"hub_delay_bits", col_hub_delay},
};

#define N_SCENARIO_COLUMNS (sizeof scenario_columns / sizeof scenario_columns[0])

/* One CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s, bool first)
{
    if (!first)
        fputc(',', f);
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_real(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.12g", v);
    else
        fputc(',', f);
}

/* The scenario's fields; with a switch at some point, `duplex` after
 * `topology` (half on a bus or a star, which are). */
static void write_scenario_fields(FILE *f, const sweep_csv_layout *l, const scenario *sc)
{
    for (size_t i = 0; i < N_SCENARIO_COLUMNS; i++) {
        char buf[SCENARIO_PATH_MAX + 16];
        scenario_columns[i].fn(sc, buf, sizeof buf);
        csv_field(f, buf, i == 0);
        if (l->switched && scenario_columns[i].fn == col_topology)
            csv_field(f, sc->switch_topology && sc->duplex_full ? "full" : "half", false);
    }
}

static void write_scenario_names(FILE *f, const sweep_csv_layout *l)
{
    for (size_t i = 0; i < N_SCENARIO_COLUMNS; i++) {
        csv_field(f, scenario_columns[i].name, i == 0);
        if (l->switched && scenario_columns[i].fn == col_topology)
            csv_field(f, "duplex", false);
    }
}

/* Adds family fam's row `name` to the layout's network rows unless it is
 * there. Returns 0, or -1 out of memory. */
static int add_net_row(sweep_csv_layout *l, int fam, const char *name)
{
    for (size_t i = 0; i < l->n_net_rows; i++)
        if (l->net_rows[i].family == fam && strcmp(l->net_rows[i].name, name) == 0)
            return 0;
    sweep_csv_net_row *rows = realloc(l->net_rows, sizeof *rows * (l->n_net_rows + 1));
    if (rows == NULL)
        return -1;
    l->net_rows = rows;
    rows[l->n_net_rows].family = fam;
    snprintf(rows[l->n_net_rows].name, sizeof rows[l->n_net_rows].name, "%s", name);
    l->n_net_rows++;
    return 0;
}

/* Whether a name of the comma-separated list `wanted` is a measure of
 * row `name` ("NAME.measure"). */
static bool row_wanted(const char *wanted, const char *name)
{
    size_t n = strlen(name);
    for (const char *w = wanted; w != NULL && *w != '\0';) {
        size_t len = strcspn(w, ",");
        if (len > n && strncmp(w, name, n) == 0 && w[n] == '.')
            return true;
        w += len;
        w += *w == ',';
    }
    return false;
}

/* Whether family fam's rows in sc are one per station or per port: a
 * bridge's ports; a switch's links and their collision domains. */
static bool per_station(const scenario *sc, int fam)
{
    return fam == 3 || (sc->net.switched && fam != 1);
}

int sweep_csv_layout_init(sweep_csv_layout *l, const sweep_grid *g, const scenario *points,
                          size_t n_points, bool all_rows, const char *wanted)
{
    memset(l, 0, sizeof *l);
    l->grid = g;
    l->first = n_points > 0 ? &points[0] : NULL;
    for (size_t p = 0; p < n_points && !l->responses; p++)
        for (uint32_t k = 0; k < points[p].n_named; k++)
            l->responses |= points[p].groups[k].reply.on;
    for (size_t p = 0; p < n_points; p++) {
        l->switched |= points[p].switch_topology;
        l->network |= points[p].net.n_segments > 0;
    }
    /* Family by family, the rows of every point in order of appearance. */
    for (int fam = 0; fam < SWEEP_NET_FAMILIES; fam++)
        for (size_t p = 0; p < n_points; p++)
            for (uint32_t i = 0; i < sweep_net_rows(&points[p], fam); i++) {
                char name[sizeof l->net_rows->name];
                sweep_net_row_name(&points[p], fam, i, name, sizeof name);
                if (!all_rows && per_station(&points[p], fam) && !row_wanted(wanted, name))
                    continue;
                if (add_net_row(l, fam, name) != 0) {
                    sweep_csv_layout_free(l);
                    return -1;
                }
            }
    return 0;
}

void sweep_csv_layout_free(sweep_csv_layout *l)
{
    free(l->net_rows);
    l->net_rows = NULL;
    l->n_net_rows = 0;
}

/* Whether group measure j has a column: the responses need a group that
 * answers; throughput_ci95 (a run's batch-means interval) is a column of
 * the replications' rows only, as the run's is: a point's row has the
 * throughput's _ci95. */
static bool group_column(const sweep_csv_layout *l, size_t j, bool point_row)
{
    const char *name = sweep_group_measure_at(j)->name;
    if (strcmp(name, "throughput_ci95") == 0)
        return !point_row;
    return l->responses || strncmp(name, "response", 8) != 0;
}

static uint32_t n_groups(const sweep_csv_layout *l)
{
    return l->first != NULL ? l->first->n_named : 0;
}

/* The keyed axes' values at point p. */
static void write_keyed_fields(FILE *f, const sweep_csv_layout *l, size_t p)
{
    size_t idx[SWEEP_MAX_AXES];
    sweep_grid_index(l->grid, p, idx);
    for (size_t i = 0; i < l->grid->n_keyed; i++) {
        size_t a = SWEEP_N_AXES + i;
        csv_field(f, l->grid->values[a][idx[a]], false);
    }
    for (size_t i = 0; i < l->grid->n_with; i++)
        csv_field(f, l->grid->with[i].values[idx[l->grid->with[i].axis]], false);
}

static void write_keyed_names(FILE *f, const sweep_csv_layout *l)
{
    for (size_t i = 0; i < l->grid->n_keyed; i++)
        csv_field(f, l->grid->key[SWEEP_N_AXES + i], false);
    for (size_t i = 0; i < l->grid->n_with; i++)
        csv_field(f, l->grid->with[i].key, false);
}

/* With groups, a column per group, "NAME.group": the group as `run
 * --group` takes it ("NAME stations=K key=value ..."), its own keys at
 * this point (a keyed axis's value included), so that a row re-runs with
 * `run`: these --group options, the scenario columns but `stations` (the
 * groups' total) as options, and the seed. Blanks inside a value (a
 * file's "positions = 0, 100") are left out: --group splits on them. */
static void write_group_specs(FILE *f, const sweep_csv_layout *l, const scenario *sc)
{
    for (uint32_t g = 0; g < n_groups(l) && g < sc->n_named; g++) {
        const station_group *gr = &sc->groups[g];
        size_t cap = 64 + strlen(gr->name), used = 0;
        for (uint32_t k = 0; k < gr->n_keys; k++)
            cap += strlen(gr->keys[k].key) + strlen(gr->keys[k].value) + 2;
        char *spec = malloc(cap);
        if (spec == NULL) {
            csv_field(f, "", false); /* the stream's error is the writer's to report */
            continue;
        }
        used += (size_t)snprintf(spec, cap, "%s stations=%" PRIu32, gr->name, gr->count);
        for (uint32_t k = 0; k < gr->n_keys; k++) {
            if (strcmp(gr->keys[k].key, "stations") == 0)
                continue;
            used += (size_t)snprintf(spec + used, cap - used, " %s=", gr->keys[k].key);
            for (const char *c = gr->keys[k].value; *c; c++)
                if (*c != ' ' && *c != '\t')
                    spec[used++] = *c;
            spec[used] = '\0';
        }
        csv_field(f, spec, false);
        free(spec);
    }
}

static void write_group_spec_names(FILE *f, const sweep_csv_layout *l)
{
    for (uint32_t g = 0; g < n_groups(l); g++)
        fprintf(f, ",%s.group", l->first->groups[g].name);
}

/* "NAME.measure" and, for the points' rows (ci), "NAME.measure_ci95". */
static void write_group_names(FILE *f, const sweep_csv_layout *l, bool ci)
{
    for (uint32_t g = 0; g < n_groups(l); g++)
        for (size_t j = 0; j < sweep_group_measure_count(); j++) {
            if (!group_column(l, j, ci))
                continue;
            const char *gn = l->first->groups[g].name, *mn = sweep_group_measure_at(j)->name;
            fprintf(f, ",%s.%s", gn, mn);
            if (ci)
                fprintf(f, ",%s.%s_ci95", gn, mn);
        }
}

/* A network's columns: each segment's, repeater's, collision domain's
 * and bridge port's measures as "NAME.measure" (with "NAME.measure_ci95"
 * on the points' rows), over the rows of every point, then the budget's
 * figures and verdict, the same at every replication of a point (no
 * interval). A point without a row has empty fields there. Nothing when
 * no point has segments. */
static void write_net_names(FILE *f, const sweep_csv_layout *l, bool ci)
{
    if (!l->network)
        return;
    for (size_t i = 0; i < l->n_net_rows; i++) {
        const sweep_csv_net_row *row = &l->net_rows[i];
        for (size_t j = 0; j < sweep_net_measure_count(row->family); j++) {
            const char *mn = sweep_net_measure_name(row->family, j);
            fprintf(f, ",%s.%s", row->name, mn);
            if (ci)
                fprintf(f, ",%s.%s_ci95", row->name, mn);
        }
    }
    for (size_t j = 0; j < sweep_budget_count(); j++)
        fprintf(f, ",%s", sweep_budget_name(j));
    fputs(",verdict", f);
}

/* The index of family fam's row `name` in sc, or -1. */
static long net_row_index(const scenario *sc, int fam, const char *name)
{
    for (uint32_t i = 0; i < sweep_net_rows(sc, fam); i++) {
        char row[sizeof ((sweep_csv_net_row *)0)->name];
        sweep_net_row_name(sc, fam, i, row, sizeof row);
        if (strcmp(row, name) == 0)
            return (long)i;
    }
    return -1;
}

/* The values of those columns: rep < 0, the point's (mean and interval);
 * else replication rep's. */
static void write_net_values(FILE *f, const sweep_csv_layout *l, const scenario *sc,
                             const sweep_result *r, long rep)
{
    if (!l->network)
        return;
    size_t w = sweep_result_width(r);
    for (size_t i = 0; i < l->n_net_rows; i++) {
        const sweep_csv_net_row *row = &l->net_rows[i];
        long at = net_row_index(sc, row->family, row->name);
        for (size_t j = 0; j < sweep_net_measure_count(row->family); j++) {
            int k = at >= 0 ? sweep_net_value_find(sc, row->family, (uint32_t)at, j) : -1;
            double mean = NAN, ci = NAN;
            if (k >= 0 && rep < 0)
                sweep_point_value(r, (size_t)k, &mean, &ci);
            else if (k >= 0)
                mean = r->values[(size_t)rep * w + (size_t)k];
            csv_real(f, mean);
            if (rep < 0)
                csv_real(f, ci);
        }
    }
    double v[8];
    char verdict[600] = "";
    if (sc->net.n_segments > 0) {
        sweep_budget_values(sc, v, verdict, sizeof verdict);
    } else {
        for (size_t j = 0; j < sweep_budget_count(); j++)
            v[j] = NAN;
    }
    for (size_t j = 0; j < sweep_budget_count(); j++)
        csv_real(f, v[j]);
    csv_field(f, verdict, false);
}

void sweep_csv_header(FILE *f, const sweep_csv_layout *l)
{
    write_scenario_names(f, l);
    write_keyed_names(f, l);
    write_group_spec_names(f, l);
    fputs(",point,reps,seed,master_seed,precision_met", f);
    for (size_t k = 0; k < sweep_measure_count(); k++) {
        const char *name = sweep_measure_at(k)->name;
        if (strcmp(name, "throughput_ci95") == 0)
            continue;
        fprintf(f, ",%s,%s_ci95", name, name);
    }
    fputs(",throughput_rel_ci95", f);
    write_group_names(f, l, true);
    write_net_names(f, l, true);
    fputc('\n', f);
}

void sweep_csv_row(FILE *f, const sweep_csv_layout *l, const scenario *sc, size_t p,
                   const sweep_result *r, const sweep_options *so)
{
    write_scenario_fields(f, l, sc);
    write_keyed_fields(f, l, p);
    write_group_specs(f, l, sc);
    fprintf(f, ",%zu,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%s", p, r->n_reps,
            sweep_seed(so->seed, p, 0), so->seed,
            so->precision > 0 ? (r->precision_met ? "1" : "0") : "");
    double thr = NAN, thr_ci = NAN;
    int k_throughput = sweep_measure_find("throughput");
    int k_throughput_ci = sweep_measure_find("throughput_ci95");
    size_t m = sweep_measure_count();
    for (size_t k = 0; k < m; k++) {
        if ((int)k == k_throughput_ci)
            continue;
        double mean, ci;
        sweep_point_value(r, k, &mean, &ci);
        if ((int)k == k_throughput) {
            thr = mean;
            thr_ci = ci;
        }
        csv_real(f, mean);
        csv_real(f, ci);
    }
    csv_real(f, thr != 0 ? thr_ci / thr : NAN);
    for (uint32_t g = 0; g < n_groups(l); g++)
        for (size_t j = 0; j < sweep_group_measure_count(); j++) {
            if (!group_column(l, j, true))
                continue;
            double mean, ci;
            sweep_point_value(r, m + g * sweep_group_measure_count() + j, &mean, &ci);
            csv_real(f, mean);
            csv_real(f, ci);
        }
    write_net_values(f, l, sc, r, -1);
    fputc('\n', f);
}

void sweep_csv_reps_header(FILE *f, const sweep_csv_layout *l)
{
    write_scenario_names(f, l);
    write_keyed_names(f, l);
    write_group_spec_names(f, l);
    fputs(",point,rep,seed", f);
    for (size_t k = 0; k < sweep_measure_count(); k++)
        fprintf(f, ",%s", sweep_measure_at(k)->name);
    write_group_names(f, l, false);
    write_net_names(f, l, false);
    fputc('\n', f);
}

void sweep_csv_reps_rows(FILE *f, const sweep_csv_layout *l, const scenario *sc, size_t p,
                         const sweep_result *r, uint64_t master)
{
    size_t m = sweep_measure_count(), w = sweep_result_width(r);
    for (uint32_t rep = 0; rep < r->n_reps; rep++) {
        write_scenario_fields(f, l, sc);
        write_keyed_fields(f, l, p);
        write_group_specs(f, l, sc);
        fprintf(f, ",%zu,%" PRIu32 ",%" PRIu64, p, rep, sweep_seed(master, p, rep));
        const double *v = r->values + (size_t)rep * w;
        for (size_t k = 0; k < m; k++)
            csv_real(f, v[k]);
        for (uint32_t g = 0; g < n_groups(l); g++)
            for (size_t j = 0; j < sweep_group_measure_count(); j++)
                if (group_column(l, j, false))
                    csv_real(f, v[m + g * sweep_group_measure_count() + j]);
        write_net_values(f, l, sc, r, (long)rep);
        fputc('\n', f);
    }
}
