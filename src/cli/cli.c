/* cli.c - option parsing, help, messages and signals for every command
 * (cli.h).
 *
 * The scenario options are a const table here (name, argument, help); each
 * name is also a key of scenario_set, which does all the validation, so the
 * command line and scenario files cannot drift apart (test_cli pins that
 * every name here is a key there).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backoff.h"
#include "exit_status.h"
#include "phy.h"

typedef struct scenario_option {
    const char *name;
    const char *arg_name;
    const char *help;
} scenario_option;

static const scenario_option scenario_options[] = {
    {"phy", "NAME", "PHY profile: 10base5, 10base2, 10baset, 100basetx, 1000baset (10base5)"},
    {"stations", "N", "number of stations, 1 to 10000 (8)"},
    {"topology", "bus|star|switch", "override the profile's topology; switch: every station alone on a link to one bridge"},
    {"duplex", "half|full", "topology switch: the links' duplex (half)"},
    {"length", "METRES", "bus: cable length; star: each drop cable (500 on 10base5)"},
    {"positions", "M,M,...", "explicit positions (bus) or drop lengths (star), one per station"},
    {"span", "FROM-TO", "bus: spread the stations evenly from FROM to TO metres (a group's place)"},
    {"drop", "METRES", "star: every station's drop cable (a group's place)"},
    {"probe", "METRES", "bus: where the capture probe sits on the cable (0)"},
    {"segment", "NAME", "the stations' segment (or a group's): a [segment NAME] of the scenario file"},
    {"traffic", "KIND", "saturated, poisson, onoff, batch, none or pcap:FILE (saturated)"},
    {"pcap-time-scale", "X", "pcap traffic: factor on the capture's times, 0.5 = twice as fast (1)"},
    {"pcap-max-stations", "N", "pcap traffic: replay at most N source stations, 0 = all (0)"},
    {"load", "G", "offered load of all stations (or a group's) together, poisson and onoff; with groups the total of those that set none (0.5)"},
    {"frame-size", "BYTES", "N, MIN-MAX or a mix SIZE:WEIGHT,SIZE:WEIGHT,... (512)"},
    {"dest", "DEST", "random, server[:K] (station K, from 1), group:NAME, local:P (own group with probability P) or broadcast (random)"},
    {"batch", "K", "frames per station at t = 0 for batch traffic (1)"},
    {"on-off", "ON/OFF", "mean on and off periods for onoff traffic (10ms/90ms)"},
    {"queue", "FRAMES", "transmit queue capacity per station (64)"},
    {"reply", "BYTES|none", "answer each frame received whole with a reply of this size (none)"},
    {"think", "TIME", "replies: from a request's reception to its reply's queueing (0)"},
    {"duration", "TIME", "simulated time to run: 2s, 500ms, 10us, 1.5min (1s)"},
    {"warmup", "TIME", "initial time left out of the measures (0)"},
    {"seed", "S", "master random seed, 0 to 2^64-1 (1)"},
    {"outage", "START+DUR", "the whole medium jammed from START for DUR, e.g. 100ms+50ms (none)"},
    {"policy", "SPEC", "backoff policy, NAME or NAME:key=value,... (beb)"},
    {"batches", "B", "batch means for the throughput confidence interval, 1 to 1000 (20)"},
    {"rate", "BPS", "PHY override: bit rate, e.g. 10M, 1G"},
    {"slot-bits", "BITS", "PHY override: slotTime"},
    {"ifg-bits", "BITS", "PHY override: interFrameGap"},
    {"ifg-part1-bits", "BITS", "PHY override: restartable first part of the gap"},
    {"jam-bits", "BITS", "PHY override: jamSize"},
    {"preamble-bits", "BITS", "PHY override: preamble and SFD"},
    {"min-frame", "BYTES", "PHY override: minFrameSize"},
    {"max-frame", "BYTES", "PHY override: maximum frame size"},
    {"attempt-limit", "N", "PHY override: attemptLimit"},
    {"backoff-limit", "N", "PHY override: backoffLimit"},
    {"two-part-deferral", "yes|no", "PHY override: the two-part inter-frame gap"},
    {"extension", "yes|no", "PHY override: carrier extension to slotTime"},
    {"bursting", "yes|no", "PHY override: frame bursting"},
    {"burst-limit", "BITS", "PHY override: burstLimit"},
    {"retry-late", "yes|no", "PHY override: retry after a late collision"},
    {"velocity", "FRACTION", "PHY override: signal speed as a fraction of c"},
    {"hub-delay-bits", "BITS", "PHY override: one-way repeater delay (star)"},
};

#define N_SCENARIO_OPTIONS (sizeof scenario_options / sizeof scenario_options[0])

/* Ids in getopt's table: where an option came from. */
enum {
    ID_HELP = 1000,
    ID_SCENARIO_FILE,
    ID_GROUP,
    ID_PRESET,
    ID_COMMAND_BASE = 2000,   /* + index into cmd->options */
    ID_SCENARIO_BASE = 10000, /* + index into scenario_options */
};

/* The program's globals: which signal asked us to stop, and when (seconds
 * of the monotonic clock), both written only by the handler. */
static volatile sig_atomic_t caught_signal;
static volatile sig_atomic_t caught_at_s;

static sig_atomic_t monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe (POSIX) */
    return (sig_atomic_t)ts.tv_sec;
}

/* The first signal asks the run to stop and finish its outputs; a repeat
 * at least a second later (the user insists, or the program is stuck) ends
 * the program at once the default way, leaving at most temporary files
 * behind. A repeat within the second is the same request delivered twice:
 * `timeout` and `kill -- -PGID` send the signal to the process and to its
 * group. Only async-signal-safe calls here. */
static void on_signal(int sig)
{
    if (caught_signal == 0) {
        caught_at_s = monotonic_s();
        caught_signal = sig;
        return;
    }
    if (monotonic_s() - caught_at_s < 1)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

int cli_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
        return -1;
    return 0;
}

int cli_signal_caught(void) { return caught_signal; }

int cli_signal_exit_status(int sig)
{
    return sig == SIGTERM ? EXIT_STATUS_SIGTERM : sig == SIGINT ? EXIT_STATUS_SIGINT : 128 + sig;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when it is not
 * one. C1 controls (U+0080..U+009F) count as invalid: some terminals obey
 * them like escape sequences. */
static size_t utf8_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        if (c == 0xC2)
            lo = 0xA0;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

void cli_clean_message(char *msg)
{
    unsigned char *s = (unsigned char *)msg;
    while (*s != '\0') {
        size_t n = utf8_sequence(s);
        if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7F))) {
            *s++ = '?';
            continue;
        }
        s += n;
    }
}

/* Messages name files and values that came from outside; a name with a
 * line break or an escape sequence must not forge lines on the user's
 * terminal, so the whole line is cleaned (cli_clean_message). */
static void print_message(const char *prefix, const char *fmt, va_list ap)
{
    char buf[8192];
    vsnprintf(buf, sizeof buf, fmt, ap);
    cli_clean_message(buf);
    fprintf(stderr, "%s%s\n", prefix, buf);
}

int cli_parse_exit(cli_status st, const char *err)
{
    if (st == CLI_HELP)
        return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
    cli_error("%s", err);
    return EXIT_STATUS_USAGE;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("csmacd: ", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("csmacd: warning: ", fmt, ap);
    va_end(ap);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("csmacd: ", fmt, ap);
    va_end(ap);
}

static void print_option(FILE *f, const char *name, const char *arg_name, const char *help)
{
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", name, arg_name ? " " : "", arg_name ? arg_name : "");
    fprintf(f, "  %-28s %s\n", left, help);
}

/* Whether the command has an option of this name (it shadows a key). */
static bool command_has(const cli_command *cmd, const char *name)
{
    for (size_t i = 0; i < cmd->n_options; i++)
        if (strcmp(cmd->options[i].name, name) == 0)
            return true;
    return false;
}

#define GROUP_ARG "'NAME KEY=V ...'"
#define GROUP_HELP "a group of stations with its own keys, e.g. 'rogue stations=1 policy=none' (repeatable)"
#define PRESET_HELP "start from a built-in experiment (csmacd presets): its network and keys at the first point of its sweep, said on standard error; a --scenario file that is a preset's (presets --show) does the same"

void cli_print_scenario_options(FILE *f)
{
    print_option(f, "scenario", "FILE", "read scenario keys from FILE (INI: key = value)");
    print_option(f, "group", GROUP_ARG, GROUP_HELP);
    for (size_t i = 0; i < N_SCENARIO_OPTIONS; i++)
        print_option(f, scenario_options[i].name, scenario_options[i].arg_name,
                     scenario_options[i].help);
}

bool cli_scenario_option_at(size_t i, const char **name, const char **arg_name,
                            const char **help)
{
    if (i >= N_SCENARIO_OPTIONS)
        return false;
    *name = scenario_options[i].name;
    *arg_name = scenario_options[i].arg_name;
    *help = scenario_options[i].help;
    return true;
}

/* The usage line, made from the option table so that it lists every
 * option the command takes: "usage: csmacd NAME [scenario options]
 * [--name ARG] ...", a required option without brackets, wrapped at 79
 * columns under the command's name. */
static void print_usage(FILE *f, const cli_command *cmd)
{
    int col = fprintf(f, "usage: csmacd %s", cmd->name);
    const int indent = 7; /* under "csmacd" */
    if (cmd->scenario_options)
        col += fprintf(f, " [scenario options]");
    for (size_t i = 0; i < cmd->n_options; i++) {
        const cli_option *o = &cmd->options[i];
        if (o->help == NULL)
            continue;
        bool required = false;
        for (size_t k = 0; cmd->required != NULL && cmd->required[k] != NULL; k++)
            required = required || strcmp(cmd->required[k], o->name) == 0;
        char word[128];
        bool arg = o->arg == CLI_ARG_REQUIRED && o->arg_name != NULL;
        snprintf(word, sizeof word, "%s--%s%s%s%s", required ? "" : "[", o->name,
                 arg ? " " : "", arg ? o->arg_name : "", required ? "" : "]");
        if (col + 1 + (int)strlen(word) > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else {
            fputc(' ', f);
            col++;
        }
        col += fprintf(f, "%s", word);
    }
    fputc('\n', f);
}

/* The sections' keys from the parser's table (network.h): key, value,
 * default, meaning. */
static void print_network_keys(FILE *f)
{
    static const struct { char section; const char *title; } sections[] = {
        {'s', "[segment NAME]"}, {'r', "[repeater NAME]"}, {'b', "[bridge NAME]"}};
    size_t n;
    const net_key_doc *docs = network_key_docs(&n);
    fprintf(f, "\nScenario file sections of a network (key = value; the default in "
               "parentheses):\n");
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        fprintf(f, "%s\n", sections[s].title);
        for (size_t i = 0; i < n; i++) {
            if (docs[i].section != sections[s].section)
                continue;
            char help[600];
            snprintf(help, sizeof help, "%s: %s (default: %s)", docs[i].value, docs[i].meaning,
                     docs[i].deflt);
            fprintf(f, "  %-28s %s\n", docs[i].key, help);
        }
    }
}

void cli_print_help(FILE *f, const cli_command *cmd)
{
    print_usage(f, cmd);
    fprintf(f, "\n%s\n", cmd->summary);
    fprintf(f, "\nOptions:\n");
    for (size_t i = 0; i < cmd->n_options; i++)
        if (cmd->options[i].help != NULL)
            print_option(f, cmd->options[i].name,
                         cmd->options[i].arg == CLI_ARG_REQUIRED ? cmd->options[i].arg_name : NULL,
                         cmd->options[i].help);
    print_option(f, "help", NULL, "show this help (also -h)");
    if (cmd->scenario_options) {
        fprintf(f, "\nScenario options (each also a key of a --scenario file):\n");
        if (cmd->presets != NULL)
            print_option(f, "preset", "NAME", PRESET_HELP);
        print_option(f, "scenario", "FILE", "read scenario keys from FILE (INI: key = value)");
        print_option(f, "group", GROUP_ARG, GROUP_HELP);
        for (size_t i = 0; i < N_SCENARIO_OPTIONS; i++)
            if (!command_has(cmd, scenario_options[i].name))
                print_option(f, scenario_options[i].name, scenario_options[i].arg_name,
                             scenario_options[i].help);
        fprintf(f, "\nBackoff policies (--policy):\n");
        for (size_t i = 0; i < backoff_policy_count(); i++)
            fprintf(f, "  %-28s %s\n", backoff_policy_name_at(i), backoff_policy_summary_at(i));
        fprintf(f, "\nTIME: a number and a unit (h, min, s, ms, us, ns, ps); a bare number "
                   "is seconds.\n"
                   "A preset is applied first, then a scenario file, then the options; in each, phy is "
                   "applied\nfirst because it resets every PHY field to the profile. Groups "
                   "(--group, [group NAME])\ninherit every per-station option they do not "
                   "set themselves.\nA group's phy sets its stations' links (topology switch); "
                   "a [segment]'s phy, that\nsegment's own PHY.\n");
    }
    if (cmd->network_keys)
        print_network_keys(f);
}

/* A scenario option as written on the command line. */
typedef struct pending {
    const char *key, *value;
} pending;

/* The name of the option in argv element `text` ("--stat=4" -> "stat"),
 * at most cap - 1 characters. */
static void option_text(const char *text, char *out, size_t cap)
{
    size_t len = strcspn(text, "=");
    if (len >= cap)
        len = cap - 1;
    memcpy(out, text, len);
    out[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] >= 0x7f)
            out[i] = '?';
}

cli_status cli_parse(const cli_command *cmd, int argc, char **argv, scenario *sc, char *err,
                     size_t errlen)
{
    size_t n_opts = cmd->n_options + (cmd->scenario_options ? N_SCENARIO_OPTIONS + 3 : 0) + 2;
    struct option *opts = calloc(n_opts, sizeof *opts);
    pending *pend = calloc((size_t)argc + 1, sizeof *pend);
    const char **groups = calloc((size_t)argc + 1, sizeof *groups);
    size_t n_pend = 0, n_groups = 0, k = 0;
    const char *file = NULL, *preset_name = NULL;
    bool explicit_load = false, explicit_batch = false, explicit_onoff = false;
    bool explicit_replay = false;
    cli_status status = CLI_ERROR;
    if (opts == NULL || pend == NULL || groups == NULL) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < cmd->n_options; i++)
        opts[k++] = (struct option){cmd->options[i].name,
                                    cmd->options[i].arg == CLI_ARG_REQUIRED ? required_argument
                                                                           : no_argument,
                                    NULL, ID_COMMAND_BASE + (int)i};
    if (cmd->scenario_options) {
        opts[k++] = (struct option){"scenario", required_argument, NULL, ID_SCENARIO_FILE};
        opts[k++] = (struct option){"group", required_argument, NULL, ID_GROUP};
        if (cmd->presets != NULL)
            opts[k++] = (struct option){"preset", required_argument, NULL, ID_PRESET};
        for (size_t i = 0; i < N_SCENARIO_OPTIONS; i++)
            if (!command_has(cmd, scenario_options[i].name))
                opts[k++] = (struct option){scenario_options[i].name, required_argument, NULL,
                                            ID_SCENARIO_BASE + (int)i};
    }
    opts[k++] = (struct option){"help", no_argument, NULL, ID_HELP};
    opts[k] = (struct option){NULL, 0, NULL, 0};

    optind = 0; /* GNU getopt: start afresh */
    opterr = 0; /* our own messages */
    for (;;) {
        int at = optind == 0 ? 1 : optind;
        const char *cur = at < argc ? argv[at] : "";
        int longindex = -1;
        /* '+': stop at the first non-option; ':': report a missing value. */
        int c = getopt_long(argc, argv, "+:h", opts, &longindex);
        if (c == -1)
            break;
        char name[64];
        option_text(cur, name, sizeof name);
        if (c == '?' || c == ':') {
            const struct option *o = NULL;
            for (size_t i = 0; opts[i].name != NULL; i++)
                if (strncmp(cur, "--", 2) == 0 && strcmp(opts[i].name, name + 2) == 0)
                    o = &opts[i];
            if (c == ':')
                snprintf(err, errlen, "%s: needs a value", name);
            else if (o != NULL && o->has_arg == no_argument && strchr(cur, '=') != NULL)
                snprintf(err, errlen, "%s: takes no value", name);
            else if (strncmp(cur, "--", 2) != 0 && optopt != 0)
                snprintf(err, errlen, "-%c: unknown option (csmacd %s --help lists them)",
                         (optopt >= 0x20 && optopt < 0x7f) ? optopt : '?', cmd->name);
            else
                snprintf(err, errlen, "%s: unknown option (csmacd %s --help lists them)", name,
                         cmd->name);
            goto done;
        }
        /* getopt_long accepts unambiguous abbreviations; we do not. */
        if (c != 'h' && (longindex < 0 || strncmp(cur, "--", 2) != 0 ||
                         strcmp(name + 2, opts[longindex].name) != 0)) {
            snprintf(err, errlen, "%s: unknown option (csmacd %s --help lists them)", name,
                     cmd->name);
            goto done;
        }
        if (c == 'h' || c == ID_HELP) {
            cli_print_help(stdout, cmd);
            status = CLI_HELP;
            goto done;
        }
        if (c == ID_SCENARIO_FILE) {
            if (file != NULL) {
                snprintf(err, errlen, "--scenario: given twice (one scenario file per run)");
                goto done;
            }
            file = optarg;
        } else if (c == ID_PRESET) {
            if (preset_name != NULL) {
                snprintf(err, errlen, "--preset: given twice (one preset per run)");
                goto done;
            }
            preset_name = optarg;
        } else if (c == ID_GROUP) {
            /* One --group per group, as one [group NAME] per file: a
             * second would mix its keys into the first unseen. */
            size_t len = strcspn(optarg, " \t");
            for (size_t i = 0; i < n_groups; i++)
                if (strncmp(groups[i], optarg, len) == 0 &&
                    strcspn(groups[i], " \t") == len && len > 0) {
                    snprintf(err, errlen, "--group: %.*s given twice (one --group per group, as "
                                          "one [group %.*s] per file)",
                             (int)(len < 40 ? len : 40), optarg, (int)(len < 40 ? len : 40),
                             optarg);
                    goto done;
                }
            groups[n_groups++] = optarg;
        } else if (c >= ID_SCENARIO_BASE) {
            const char *key = scenario_options[c - ID_SCENARIO_BASE].name;
            pend[n_pend++] = (pending){key, optarg};
            explicit_load |= strcmp(key, "load") == 0;
            explicit_batch |= strcmp(key, "batch") == 0;
            explicit_onoff |= strcmp(key, "on-off") == 0;
            explicit_replay |= strncmp(key, "pcap-", 5) == 0;
        } else if (c >= ID_COMMAND_BASE) {
            const cli_option *o = &cmd->options[c - ID_COMMAND_BASE];
            char reason[512];
            if (cmd->on_option(cmd->ctx, o->id, o->arg == CLI_ARG_REQUIRED ? optarg : NULL,
                               reason, sizeof reason) != 0) {
                snprintf(err, errlen, "--%s: %s", o->name, reason);
                goto done;
            }
        }
    }
    if (optind < argc) {
        char word[64];
        option_text(argv[optind], word, sizeof word);
        snprintf(err, errlen, "'%s': unexpected argument (options start with --)", word);
        goto done;
    }

    /* The layers: file, then command line; phy first within each. */
    if (cmd->scenario_file != NULL)
        *cmd->scenario_file = file;
    /* A preset first (cli_command.presets): --preset NAME, or a --scenario
     * file that is a preset's; --stations is then its point's, as in the
     * sweep. */
    bool preset_file = file != NULL && cmd->presets != NULL && cmd->presets->is_file(file);
    const char *stations = NULL;
    for (size_t i = 0; i < n_pend && (preset_name != NULL || preset_file); i++)
        if (strcmp(pend[i].key, "stations") == 0) {
            stations = pend[i].value;
            memmove(&pend[i], &pend[i + 1], (n_pend - i - 1) * sizeof *pend);
            n_pend--;
            i--;
        }
    if (preset_name != NULL &&
        cmd->presets->apply(cmd, preset_name, false, stations, sc, err, errlen) != 0)
        goto done;
    if (file != NULL && (preset_file ? cmd->presets->apply(cmd, file, true, stations, sc, err, errlen)
                                     : scenario_load_file(sc, file, err, errlen)) != 0)
        goto done;
    if (stations != NULL && sc->n_named == 0 &&
        scenario_set(sc, "stations", stations, err, errlen) != 0)
        goto done; /* a preset without groups: the plain option */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n_pend; i++) {
            bool is_phy = strcmp(pend[i].key, "phy") == 0;
            if (is_phy != (pass == 0))
                continue;
            if (scenario_set(sc, pend[i].key, pend[i].value, err, errlen) != 0)
                goto done;
        }
    for (size_t i = 0; i < n_groups; i++)
        if (scenario_group_spec(sc, groups[i], err, errlen) != 0)
            goto done;

    /* With groups these are defaults, for whichever groups' traffic has
     * them (scenario_finish checks each group). */
    traffic_kind t = sc->traffic.kind;
    if (sc->n_named)
        explicit_load = explicit_batch = explicit_onoff = explicit_replay = false;
    if (explicit_load && t != TRAFFIC_POISSON && t != TRAFFIC_ONOFF) {
        snprintf(err, errlen, "--load: conflicts with %s traffic, which has no offered load "
                              "(use --traffic poisson or onoff)",
                 t == TRAFFIC_SATURATED ? "saturated" : t == TRAFFIC_BATCH ? "batch" : "replayed");
        goto done;
    }
    if (explicit_batch && t != TRAFFIC_BATCH) {
        snprintf(err, errlen, "--batch: conflicts with the traffic kind (only --traffic batch "
                              "has batches)");
        goto done;
    }
    if (explicit_onoff && t != TRAFFIC_ONOFF) {
        snprintf(err, errlen, "--on-off: conflicts with the traffic kind (only --traffic onoff "
                              "has on and off periods)");
        goto done;
    }
    if (explicit_replay && t != TRAFFIC_PCAP) {
        snprintf(err, errlen, "--pcap-time-scale, --pcap-max-stations: conflict with the traffic "
                              "kind (only --traffic pcap:FILE replays a capture)");
        goto done;
    }
    status = CLI_OK;
done:
    free(opts);
    free(pend);
    free(groups);
    return status;
}

int cli_finish(scenario *sc, char *err, size_t errlen)
{
    char warn[2048];
    if (scenario_finish(sc, err, errlen, warn, sizeof warn) != 0)
        return -1;
    for (char *line = warn, *next; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        cli_warn("%s", line);
    }
    return 0;
}
