/* csmacd_bench - the speed benchmark (not a CTest test).
 *
 * Runs, each in its own child process pinned to one CPU (so peak memory is
 * that run's and the runs do not share a core):
 *   (a) 10base5, 64 saturated stations, 64-byte frames, 60 s simulated;
 *   (b) 10base5, 1024 saturated stations, 1518-byte frames, 60 s;
 *   (c) 100basetx, 256 stations, Poisson G = 0.8, 512-byte frames, 10 s;
 *   (d) 10base5, 500 saturated stations, 512-byte frames, fixed retry
 *       (--policy fixed), 20 s: a collapse, hundreds of overlapping signals;
 *   (e) the cost per event in that collapse at N = 16, 64, 256, 1024
 *       (about five million events each), printed as a series;
 *   (f0)/(f), (g0)/(g) a network and a switch against one bus;
 *   (h0)/(h) a 10BASE-T hub of 5000 saturated stations against a 10BASE5
 *       bus of 5000, 0.1 s each: the hub's cost per event over the bus's;
 * then the cost per event at N = 64, 256, 1024 in two shapes: (b)'s (every
 * station saturated, 10 s each), where contention itself grows with N, and
 * Poisson G = 0.8 of all stations together (100 s each), where the work
 * per event does not, so any growth is the engine's. For each run it prints events, wall seconds,
 * events per second, simulated seconds per wall second and memory per
 * station (engine_bytes() / N, the child's peak RSS / N, and the
 * anonymous memory the engine added / N), and the targets next to
 * them.
 *
 * Usage: csmacd_bench [--quick]   (--quick: a tenth of the simulated time)
 * Build it in Release (see README.md here); the build type is printed.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "phy.h"
#include "scenario.h"

#ifndef CSMACD_BENCH_BUILD_TYPE
#define CSMACD_BENCH_BUILD_TYPE "unknown"
#endif

typedef struct bench_case {
    const char *name;
    const char *phy;
    uint32_t n;
    traffic_kind kind;
    double load;
    uint32_t frame_bytes;
    double sim_s;
    double target_x; /* simulated s per wall s; 0 = none */
    const char *policy;  /* NULL: beb */
    double min_mevps;    /* target, M events per second; 0: 10 */
    double max_wall_s;   /* target, wall seconds for the run; 0: none */
    uint32_t segments;   /* > 0: a chain of this many coax segments of
                            length_m / segments each, joined by repeaters,
                            n / segments stations on each */
    bool switched;       /* `topology = switch`, full duplex: a link per station */
} bench_case;

typedef struct bench_out {
    int ok;
    char err[256];
    uint64_t events;
    double wall_s, sim_s;
    size_t engine_bytes;
    double throughput;
    uint64_t frames_ok, attempts, collision_events;
    long anon_kib; /* anonymous memory the engine added by the end of the run */
} bench_out;

/* A chain of coax segments, each with its share of the stations evenly
 * on it (a named group per segment), joined end to start by repeaters
 * of the PHY's default delay (8 bit times at 10 Mb/s). */
static void fill_network(scenario *sc, const bench_case *c)
{
    network *net = &sc->net;
    double len = sc->phy.length_m / c->segments;
    uint32_t per = c->n / c->segments;
    sc->groups = calloc(c->segments, sizeof *sc->groups);
    if (!sc->groups || network_reserve(net) != 0)
        exit(1);
    for (uint32_t k = 0; k < c->segments; k++) {
        net_segment *g = &net->segments[net->n_segments++];
        snprintf(g->name, sizeof g->name, "s%u", k + 1);
        g->type = NET_SEG_COAX;
        g->length_m = len;
        g->velocity_c = sc->phy.velocity_c;
        station_group *grp = &sc->groups[sc->n_named++];
        snprintf(grp->name, sizeof grp->name, "g%u", k + 1);
        grp->count = per;
        grp->first = k * per;
        grp->traffic = sc->traffic;
        grp->policy_spec = sc->policy_spec;
        grp->queue_capacity = sc->queue_capacity;
        grp->segment = k;
        grp->place = PLACE_SPAN;
        grp->place_from_m = 0;
        grp->place_to_m = len;
        if (k > 0) {
            net_repeater *r = &net->repeaters[net->n_repeaters++];
            snprintf(r->name, sizeof r->name, "r%u", k);
            r->delay_bits = 8;
            r->n_ports = 2;
            r->ports[0] = (net_port){.segment = k - 1, .metres = len};
            r->ports[1] = (net_port){.segment = k, .metres = 0};
        }
    }
    sc->n_stations = per * c->segments;
}

static void fill(scenario *sc, const bench_case *c, double *pos)
{
    memset(sc, 0, sizeof *sc);
    const phy_params *p = phy_profile_find(c->phy);
    sc->phy = *p;
    sc->n_stations = c->n;
    for (uint32_t i = 0; i < c->n; i++)
        pos[i] = p->topology == TOPOLOGY_BUS
                     ? (c->n > 1 ? p->length_m * i / (c->n - 1) : 0.0)
                     : p->length_m;
    pos[c->n] = NAN; /* scenario_copy counts positions up to a NaN */
    sc->positions_m = pos;
    sc->n_positions = c->n;
    sc->pcap_time_scale = 1.0;
    sc->probe_m = 0;
    sc->traffic.kind = c->kind;
    sc->traffic.load = c->load;
    sc->traffic.size.kind = FRAME_SIZE_FIXED;
    sc->traffic.size.min_bytes = c->frame_bytes;
    sc->traffic.size.max_bytes = c->frame_bytes;
    sc->traffic.dest = DEST_RANDOM;
    sc->traffic.batch_frames = 1;
    sc->traffic.on_mean_s = 1e-3;
    sc->traffic.off_mean_s = 1e-3;
    snprintf(sc->policy, sizeof sc->policy, "%s", c->policy ? c->policy : "beb");
    char err[256]; /* the engine builds from the parsed spec (scenario.h) */
    if (backoff_spec_parse(sc->policy, &sc->policy_spec, err, sizeof err) != 0) {
        fprintf(stderr, "csmacd_bench: %s\n", err);
        exit(2);
    }
    sc->queue_capacity = 64;
    sc->duration = (sim_time)(c->sim_s * 1e12);
    sc->warmup = 0;
    sc->seed = 1;
    sc->batches = 10;
    if (c->segments > 0)
        fill_network(sc, c);
    if (c->switched) { /* through the keys: scenario_finish builds the switch */
        char n[16], d[32], w[256];
        scenario_defaults(sc);
        snprintf(n, sizeof n, "%u", c->n);
        snprintf(d, sizeof d, "%gs", c->sim_s);
        const char *kv[][2] = {{"phy", c->phy},        {"stations", n},   {"topology", "switch"},
                               {"duplex", "full"},     {"frame-size", "1518"},
                               {"duration", d},        {"batches", "10"}};
        for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
            if (scenario_set(sc, kv[i][0], kv[i][1], err, sizeof err) != 0) {
                fprintf(stderr, "csmacd_bench: %s\n", err);
                exit(2);
            }
        if (scenario_finish(sc, err, sizeof err, w, sizeof w) != 0) {
            fprintf(stderr, "csmacd_bench: %s\n", err);
            exit(2);
        }
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The process's resident anonymous memory (RssAnon of /proc/self/status)
 * in KiB, or -1. Unlike the peak RSS it leaves out the code and libraries
 * the run faults in, which vary from run to run by a hundred KiB. */
static long rss_anon_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "RssAnon: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* Runs one case in a child pinned to CPU `cpu`; returns its figures and
 * peak RSS in KiB. */
static int run_child(const bench_case *c, int cpu, bench_out *out, long *maxrss_kib)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
        bench_out o = {0};
        double *pos = calloc((size_t)c->n + 1, sizeof *pos);
        scenario sc;
        fill(&sc, c, pos);
        engine *e = NULL;
        long anon_before = rss_anon_kib();
        if (pos && engine_create(&sc, &e, o.err, sizeof o.err) == 0) {
            double t0 = now_s();
            engine_run_all(e);
            o.wall_s = now_s() - t0;
            long anon_after = rss_anon_kib();
            o.anon_kib = anon_before >= 0 && anon_after > anon_before ? anon_after - anon_before : 0;
            results r;
            engine_results(e, &r);
            o.events = engine_events(e);
            o.sim_s = sim_time_to_s(engine_now(e));
            o.engine_bytes = engine_bytes(e);
            o.throughput = r.throughput;
            o.frames_ok = r.frames_ok;
            o.attempts = r.attempts;
            o.collision_events = r.collisions;
            o.ok = 1;
            engine_destroy(e);
        }
        free(pos);
        ssize_t w = write(fd[1], &o, sizeof o);
        _exit(w == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], out, sizeof *out);
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || got != (ssize_t)sizeof *out)
        return -1;
    *maxrss_kib = ru.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* "E events per frame sent" into buf, or "no frame sent" (a collapse, or
 * a crowd that has not got a frame through yet, sends none). */
static const char *per_frame(char *buf, size_t size, uint64_t events, uint64_t frames)
{
    if (frames == 0)
        snprintf(buf, size, "no frame sent");
    else
        snprintf(buf, size, "%.1f events per frame sent", (double)events / (double)frames);
    return buf;
}

/* Runs the bus `base` then `other`, prints each one's cost per event and
 * their ratio against the target (`other` at most twice the bus), and
 * returns the ratio, or -1 when a run fails. */
static double cost_ratio(const bench_case *base, const bench_case *other, const char *what,
                         int cpu)
{
    double ns[2];
    const bench_case *c[2] = {base, other};
    for (int i = 0; i < 2; i++) {
        bench_out o;
        long rss = 0;
        if (run_child(c[i], cpu, &o, &rss) != 0 || !o.ok) {
            fprintf(stderr, "csmacd_bench: %s failed: %s\n", c[i]->name, o.err);
            return -1;
        }
        ns[i] = o.wall_s * 1e9 / (double)o.events;
        char pf[48];
        printf("  %-40s %12llu events %8.3f s %8.1f ns/event, throughput %.4f, %s\n",
               c[i]->name, (unsigned long long)o.events, o.wall_s, ns[i], o.throughput,
               per_frame(pf, sizeof pf, o.events, o.frames_ok));
    }
    double ratio = ns[1] / ns[0];
    printf("  the %s costs %.2fx per event what the bus does (target <= 2): %s\n", what, ratio,
           ratio <= 2 ? "ok" : "MISSED");
    return ratio;
}

/* A network of 5 coax segments of 100 stations each, against one bus of
 * the same 500 stations on the same 500 m: the cost per event of each
 * and their ratio (target: the network at most twice the bus). */
static double network_cost(int cpu, double scale)
{
    printf("\na network of segments against one bus (10base5, 500 saturated stations, 512 B, "
           "%g s simulated each):\n", 2 * scale);
    const bench_case bus = {"(f0) one bus, 500 stations", "10base5", 500, TRAFFIC_SATURATED, 0,
                            512, 2 * scale, 0, NULL, 0, 0, 0, false};
    const bench_case net = {"(f) 5 coax segments x 100, 4 repeaters", "10base5", 500,
                            TRAFFIC_SATURATED, 0, 512, 2 * scale, 0, NULL, 0, 0, 5, false};
    return cost_ratio(&bus, &net, "network", cpu);
}

/* A 64-port full-duplex switch with 64 saturated stations of 1518-byte
 * frames at 10 Mb/s, against one bus of the same 64 stations: events per
 * second and simulated seconds per wall second of each (targets: the
 * switch at least 20x real time, at no fewer events per second than the
 * bus). Returns 0 when both are met, 1 when not, -1 when a run fails. */
static int switch_cost(int cpu, double scale)
{
    /* (the bus has a tenth of the switch's events per simulated second:
     * 60 s of it take about as long as 10 s of the switch) */
    printf("\na full-duplex switch against one bus (10 Mb/s, 64 saturated stations, 1518 B, "
           "%g and %g s simulated):\n", 60 * scale, 10 * scale);
    const bench_case bus = {"(g0) one bus, 64 stations", "10base5", 64, TRAFFIC_SATURATED, 0,
                            1518, 60 * scale, 0, NULL, 0, 0, 0, false};
    const bench_case sw = {"(g) 64-port full-duplex switch", "10baset", 64, TRAFFIC_SATURATED, 0,
                           1518, 10 * scale, 0, NULL, 0, 0, 0, true};
    double evps[2], x[2];
    const bench_case *c[2] = {&bus, &sw};
    for (int i = 0; i < 2; i++) {
        bench_out o;
        long rss = 0;
        if (run_child(c[i], cpu, &o, &rss) != 0 || !o.ok) {
            fprintf(stderr, "csmacd_bench: %s failed: %s\n", c[i]->name, o.err);
            return -1;
        }
        evps[i] = (double)o.events / o.wall_s;
        x[i] = o.sim_s / o.wall_s;
        printf("  %-40s %12llu events %8.3f s %8.2f M events/s %10.1fx real time, throughput "
               "%.4f\n",
               c[i]->name, (unsigned long long)o.events, o.wall_s, evps[i] / 1e6, x[i],
               o.throughput);
    }
    bool ok = x[1] >= 20 && evps[1] >= evps[0];
    printf("  the switch: %.1fx real time (target >= 20), %.2fx the bus's events per second "
           "(target >= 1): %s\n",
           x[1], evps[1] / evps[0], ok ? "ok" : "MISSED");
    return ok ? 0 : 1;
}

/* Runs case c at N = 64, 256 and 1024 and prints the cost per event;
 * returns ns/event at 1024 over ns/event at 64, or -1 when a run fails. */
static double growth(const bench_case *shape, int cpu, const char *what)
{
    printf("\ncost per event against N, %s (%g s simulated each):\n", what, shape->sim_s);
    const uint32_t ns[] = {64, 256, 1024};
    double ns_per_event[3];
    for (size_t i = 0; i < 3; i++) {
        bench_case c = *shape;
        c.n = ns[i];
        bench_out o;
        long rss = 0;
        if (run_child(&c, cpu, &o, &rss) != 0 || !o.ok) {
            fprintf(stderr, "csmacd_bench: N = %u failed: %s\n", ns[i], o.err);
            return -1;
        }
        ns_per_event[i] = o.wall_s * 1e9 / o.events;
        char pf[48];
        printf("  N = %4u: %10llu events, %7.1f ns/event, %27s, "
               "%5.1f transmissions per busy period, %8.0f engine bytes/station\n",
               ns[i], (unsigned long long)o.events, ns_per_event[i],
               per_frame(pf, sizeof pf, o.events, o.frames_ok),
               o.frames_ok + o.collision_events
                   ? (double)o.attempts / (double)(o.frames_ok + o.collision_events)
                   : 0.0,
               (double)o.engine_bytes / ns[i]);
    }
    double g = ns_per_event[2] / ns_per_event[0];
    printf("  ns/event N=1024 / N=64 = %.2f (logarithmic bound log2(1024)/log2(64) = 1.67, "
           "linear 16): %s\n", g, g <= 10.0 / 6.0 ? "ok" : "grows faster than log N");
    return g;
}

/* (e): the cost per event under a fixed-retry collapse (10base5,
 * saturated, 512-byte frames, --policy fixed) at N = 16, 64, 256, 1024,
 * each run long enough for about five million events (0.1 s x 1024 / N
 * simulated). Returns ns/event at 1024 over ns/event at 16 (target <= 2),
 * or -1 when a run fails. */
static double collapse_series(int cpu, double scale)
{
    const uint32_t ns[] = {16, 64, 256, 1024};
    double ns_per_event[4];
    printf("\n(e) cost per event under fixed-retry collapse (10base5, saturated, 512 B, "
           "--policy fixed):\n");
    for (size_t i = 0; i < 4; i++) {
        bench_case c = {"(e)", "10base5", ns[i], TRAFFIC_SATURATED, 0, 512,
                        0.1 * 1024.0 / ns[i] * scale, 0, "fixed", 0, 0, 0, false};
        bench_out o;
        long rss = 0;
        if (run_child(&c, cpu, &o, &rss) != 0 || !o.ok) {
            fprintf(stderr, "csmacd_bench: (e) N = %u failed: %s\n", ns[i], o.err);
            return -1;
        }
        ns_per_event[i] = o.wall_s * 1e9 / o.events;
        printf("  N = %4u: %6.2f s simulated, %10llu events, %7.3f s wall, %7.1f ns/event, "
               "%6.2f M events/s, %5.1f transmissions per busy period\n",
               ns[i], o.sim_s, (unsigned long long)o.events, o.wall_s, ns_per_event[i],
               o.events / o.wall_s / 1e6,
               o.frames_ok + o.collision_events
                   ? (double)o.attempts / (double)(o.frames_ok + o.collision_events)
                   : 0.0);
    }
    double g = ns_per_event[3] / ns_per_event[0];
    printf("  series (ns/event, N = 16 64 256 1024): %.1f %.1f %.1f %.1f\n", ns_per_event[0],
           ns_per_event[1], ns_per_event[2], ns_per_event[3]);
    printf("  ns/event N=1024 / N=16 = %.2f (target <= 2): %s\n", g, g <= 2.0 ? "ok" : "GROWS");
    return g;
}

/* (h0) and (h): a 10BASE-T hub of 5000 saturated stations (drops of one
 * length, so every station hears every signal at one instant) against a
 * 10BASE5 bus of 5000, 512-byte frames, 100 ms each: the cost per event
 * of each and their ratio (target: the hub at most twice the bus).
 * Returns the ratio, or -1 when a run fails. */
static double hub_cost(int cpu, double scale)
{
    printf("\na crowded hub against a bus (5000 saturated stations, 512 B, %.0f ms simulated "
           "each):\n", 100 * scale);
    const bench_case bus = {"(h0) 10base5 bus, 5000 stations", "10base5", 5000,
                            TRAFFIC_SATURATED, 0, 512, 0.1 * scale, 0, NULL, 0, 0, 0, false};
    const bench_case hub = {"(h) 10baset hub, 5000 stations", "10baset", 5000,
                            TRAFFIC_SATURATED, 0, 512, 0.1 * scale, 0, NULL, 0, 0, 0, false};
    return cost_ratio(&bus, &hub, "hub", cpu);
}

int main(int argc, char **argv)
{
    double scale = (argc > 1 && strcmp(argv[1], "--quick") == 0) ? 0.1 : 1.0;
    int cpu = sched_getcpu();
    if (cpu < 0)
        cpu = 0;
    printf("csmacd_bench: build type %s, one child per run pinned to CPU %d%s\n",
           CSMACD_BENCH_BUILD_TYPE, cpu, scale < 1 ? ", --quick (1/10 of the time)" : "");

    printf("\n");
    const bench_case cases[] = {
        {"(a) 10base5 N=64 saturated 64 B", "10base5", 64, TRAFFIC_SATURATED, 0, 64, 60, 250,
         NULL, 0, 0, 0, false},
        {"(b) 10base5 N=1024 saturated 1518 B", "10base5", 1024, TRAFFIC_SATURATED, 0, 1518, 60,
         100, NULL, 0, 0, 0, false},
        {"(c) 100basetx N=256 poisson G=0.8 512 B", "100basetx", 256, TRAFFIC_POISSON, 0.8, 512,
         10, 60, NULL, 0, 0, 0, false},
        {"(d) 10base5 N=500 saturated 512 B fixed", "10base5", 500, TRAFFIC_SATURATED, 0, 512, 20,
         0, "fixed", 5, 30, 0, false},
    };
    printf("%-40s %12s %8s %10s %10s %9s %9s %9s %s\n", "scenario", "events", "wall s",
           "Mevents/s", "sim x", "eng B/st", "RSS KiB/st", "anon B/st", "targets");
    int all_ok = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bench_case c = cases[i];
        c.sim_s *= scale;
        bench_out o;
        long rss = 0;
        if (run_child(&c, cpu, &o, &rss) != 0 || !o.ok) {
            fprintf(stderr, "csmacd_bench: %s failed: %s\n", c.name, o.err);
            return 1;
        }
        double evps = o.events / o.wall_s, x = o.sim_s / o.wall_s;
        double eng_per = (double)o.engine_bytes / c.n;
        double rss_per = (double)rss / c.n;
        /* The engine's anonymous memory at the end of the run (it only
         * grows during a run), fixed parts included, per station. */
        double net_per = (double)o.anon_kib * 1024.0 / c.n;
        double min_mevps = c.min_mevps > 0 ? c.min_mevps : 10;
        int ok_x = x >= c.target_x && (c.max_wall_s <= 0 || o.wall_s < c.max_wall_s * scale);
        int ok_ev = evps >= min_mevps * 1e6;
        int ok_mem = eng_per <= 2048 && net_per <= 2048;
        all_ok &= ok_x && ok_ev && ok_mem;
        printf("%-40s %12llu %8.3f %10.2f %10.1f %9.0f %9.2f %9.0f %s %s %s\n", c.name,
               (unsigned long long)o.events, o.wall_s, evps / 1e6, x, eng_per, rss_per, net_per,
               ok_x ? "speed ok" : "SPEED LOW", ok_ev ? "ev/s ok" : "EV/S LOW",
               ok_mem ? "mem ok" : "MEM HIGH");
        /* (a case without a target against real time, (d), names none) */
        char speed_target[64] = "", pf[48];
        if (c.target_x > 0)
            snprintf(speed_target, sizeof speed_target, ">= %.0fx real time", c.target_x);
        if (c.max_wall_s > 0)
            snprintf(speed_target + strlen(speed_target), sizeof speed_target - strlen(speed_target),
                     "%s< %g s wall", c.target_x > 0 ? ", " : "", c.max_wall_s * scale);
        printf("%-40s throughput %.4f, %s (%.1f per attempt); targets: %s, >= %.0f M "
               "events/s, <= 2 KiB per station\n", "",
               o.throughput, per_frame(pf, sizeof pf, o.events, o.frames_ok),
               o.attempts ? (double)o.events / (double)o.attempts : 0.0, speed_target, min_mevps);
    }

    double g_net = network_cost(cpu, scale);
    if (g_net < 0)
        return 1;
    all_ok &= g_net <= 2.0;

    int g_sw = switch_cost(cpu, scale);
    if (g_sw < 0)
        return 1;
    all_ok &= g_sw == 0;

    double g_col = collapse_series(cpu, scale);
    if (g_col < 0)
        return 1;
    all_ok &= g_col <= 2.0;

    double g_hub = hub_cost(cpu, scale);
    if (g_hub < 0)
        return 1;
    all_ok &= g_hub <= 2.0;

    /* log2 N goes 6 -> 8 -> 10: logarithmic growth allows at most
     * 10/6 = 1.67x from N = 64 to 1024; linear growth would be 16x. */
    bench_case sat = {"scale", "10base5", 0, TRAFFIC_SATURATED, 0, 1518, 10 * scale, 0, NULL, 0, 0, 0,
                      false};
    double g_sat = growth(&sat, cpu, "(b)'s shape: saturated, so collisions grow with N");
    bench_case fix = {"scale", "10base5", 0, TRAFFIC_POISSON, 0.8, 1518, 100 * scale, 0, NULL, 0,
                      0, 0, false};
    double g_fix = growth(&fix, cpu, "Poisson G = 0.8 of all stations together: the same work for every N");
    if (g_sat < 0 || g_fix < 0)
        return 1;
    all_ok &= g_fix <= 10.0 / 6.0;
    printf("\n%s\n", all_ok ? "all targets met" : "some targets missed (see above)");
    return 0;
}
