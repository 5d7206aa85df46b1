/* cmd_extcap.c - `csmacd extcap`: csmacd as a Wireshark capture interface
 * (Wireshark's extcap protocol, extcap(4)).
 *
 * Wireshark runs every program in its extcap folders with
 *   --extcap-interfaces [--extcap-version=V]   which interfaces: "csmacd"
 *   --extcap-dlts --extcap-interface csmacd     its link type
 *   --extcap-config --extcap-interface csmacd   the options dialog
 *   --capture --extcap-interface csmacd --fifo PATH [options]
 * and stops a capture with SIGTERM (or by closing the fifo). The program
 * itself sits in the extcap folder (a link to it): main.c sends a first
 * argument of that form here, and `csmacd extcap ARGS` is the same.
 *
 * The dialog is generated from the option tables `csmacd run --help`
 * prints (cli.c's scenario options, cmd_run.c's own): each field's
 * tooltip is the option's help, and the choices of a selector are the
 * program's own lists (PHY profiles, traffic kinds, backoff policies,
 * presets), so the dialog cannot drift from the command line. Only which
 * options appear and their labels are chosen here. Fields start empty
 * (a selector on "default (X)", X the help's "(default)"): Wireshark
 * passes only what the user set, so a scenario file or a preset is not
 * overridden by the dialog's defaults, and an option that conflicts with
 * the traffic (--load with saturated) is not given unasked.
 *
 * A capture is `csmacd run` (cmd_run_capture) with --pcap FIFO (pcapng,
 * streamed), --pace 1 and --duration inf unless the dialog set them; a
 * preset is run's --preset (a capture is one scenario: the first point
 * of the preset's sweep, network and groups included; run's layers put
 * it before the dialog's options).
 *
 * `csmacd extcap --install-user` links the program into the user's
 * extcap folder and writes the dissector into the user's Lua plugins
 * folder, for a user without root. It replaces only csmacd's own (a link
 * naming a csmacd, a csmacd.lua whose first line is the dissector's), and
 * does all or nothing: every path is checked before a folder is made, and
 * the dissector is removed again if the link cannot be made. Where the
 * system has its own (cmake --install's, in the folders `tshark -G
 * folders` names), it says which dissector Wireshark loads (the user's,
 * unless the system's is older than the dissector's rule of two copies)
 * and which csmacd it runs.
 */
#define _GNU_SOURCE /* realpath's PATH_MAX use, strdup */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backoff.h"
#include "cli.h"
#include "commands.h"
#include "exit_status.h"
#include "outfile.h"
#include "phy.h"
#include "presets.h"
#include "scenario.h"
#include "sweep.h"

#define INTERFACE "csmacd"

/* The dissector's text, embedded at build time (embed_lua.cmake). */
extern const char csmacd_dissector_lua[];

typedef enum field_kind { F_SELECTOR, F_UNSIGNED, F_LONG, F_DOUBLE, F_STRING, F_FILE } field_kind;

/* What the dialog shows, in this order: the option's name (in run's or
 * the scenario's table), its label, its kind. */
typedef struct field {
    const char *option;
    const char *display;
    field_kind kind;
} field;

static const field fields[] = {
    {"phy", "PHY", F_SELECTOR},
    {"stations", "Stations", F_UNSIGNED},
    {"traffic", "Traffic", F_SELECTOR},
    {"load", "Offered load G (poisson, onoff)", F_DOUBLE},
    {"frame-size", "Frame size (octets)", F_STRING},
    {"policy", "Backoff policy", F_SELECTOR},
    {"seed", "Seed", F_LONG},
    {"pace", "Pace (simulated seconds per second; empty: 1)", F_DOUBLE},
    {"scenario", "Scenario file", F_FILE},
    {"preset", "Preset (its scenario)", F_SELECTOR},
    /* A network's segments are named by its scenario file or preset,
     * which the dialog reads only at capture time: a name, checked then. */
    {"probe-segment", "Probe segment (a network's; empty: every segment)", F_STRING},
};

#define N_FIELDS (sizeof fields / sizeof fields[0])

/* Text for extcap's {key=value} grammar: braces would end the value. */
static void put_text(const char *s)
{
    for (; *s; s++)
        putchar(*s == '{' ? '(' : *s == '}' ? ')' : *s);
}

/* The help of an option from the tables, or NULL. */
static const char *option_help(const char *name)
{
    size_t n;
    const cli_option *run = cmd_run_options(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(run[i].name, name) == 0)
            return run[i].help;
    const char *o, *arg, *help;
    for (size_t i = 0; cli_scenario_option_at(i, &o, &arg, &help); i++)
        if (strcmp(o, name) == 0)
            return help;
    if (strcmp(name, "scenario") == 0)
        return "read scenario keys from FILE (INI: key = value), before the options here";
    if (strcmp(name, "preset") == 0)
        return "a built-in experiment of csmacd presets: its network and keys at the first "
               "point of its sweep (run --preset), before the options here";
    return NULL;
}

/* The "(default)" that ends a help text, into buf; "" when none. */
static void help_default(const char *help, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t len = help ? strlen(help) : 0;
    if (len < 3 || help[len - 1] != ')')
        return;
    const char *open = strrchr(help, '(');
    if (open == NULL)
        return;
    snprintf(buf, n, "%.*s", (int)(help + len - 1 - (open + 1)), open + 1);
}

static void print_value(size_t arg, const char *value, const char *display, bool is_default)
{
    printf("value {arg=%zu}{value=", arg);
    put_text(value);
    printf("}{display=");
    put_text(display);
    printf("}{default=%s}\n", is_default ? "true" : "false");
}

static void print_choices(size_t arg, const char *option, const char *def)
{
    char display[160];
    snprintf(display, sizeof display, "default (%s)", def[0] ? def : "none");
    print_value(arg, "", display, true);
    if (strcmp(option, "phy") == 0) {
        for (size_t i = 0; i < phy_profile_count(); i++) {
            const phy_params *p = phy_profile_at(i);
            print_value(arg, p->name, p->name, false);
        }
    } else if (strcmp(option, "traffic") == 0) {
        /* Every kind but a replayed capture (a file: the scenario's). */
        for (int k = TRAFFIC_SATURATED; k < TRAFFIC_PCAP; k++) {
            const char *name = scenario_traffic_name((traffic_kind)k);
            print_value(arg, name, name, false);
        }
    } else if (strcmp(option, "policy") == 0) {
        for (size_t i = 0; i < backoff_policy_count(); i++) {
            char line[256];
            snprintf(line, sizeof line, "%s: %s", backoff_policy_name_at(i),
                     backoff_policy_summary_at(i));
            print_value(arg, backoff_policy_name_at(i), line, false);
        }
    } else if (strcmp(option, "preset") == 0) {
        for (size_t i = 0; i < preset_count(); i++)
            print_value(arg, preset_name_at(i), preset_name_at(i), false);
    }
}

static int print_config(void)
{
    static const char *const kinds[] = {"selector", "unsigned", "long", "double", "string",
                                        "fileselect"};
    for (size_t i = 0; i < N_FIELDS; i++) {
        const field *f = &fields[i];
        const char *help = option_help(f->option);
        char def[128];
        help_default(help, def, sizeof def);
        printf("arg {number=%zu}{call=--%s}{display=", i, f->option);
        put_text(f->display);
        printf("}{type=%s}", kinds[f->kind]);
        if (help != NULL) {
            printf("{tooltip=");
            put_text(help);
            printf("}");
        }
        if (f->kind == F_FILE)
            printf("{mustexist=true}");
        printf("\n");
        if (f->kind == F_SELECTOR)
            print_choices(i, f->option, def);
    }
    return 0;
}

/* Whether argument a is Wireshark's option `name`, as "--name VALUE" (the
 * value then argv[i + 1]) or "--name=VALUE"; *value is set either way
 * (NULL when "--name" ends the command line). */
static bool extcap_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return false;
    if (a[n] == '=') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] != '\0')
        return false;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return true;
}

static int capture(int argc, char **argv)
{
    /* run's argv: the dialog's options, the preset, then the trace. */
    char **run = calloc((size_t)argc + 16, sizeof *run);
    int n = 0;
    if (run == NULL) {
        cli_error("out of memory");
        return EXIT_STATUS_RUNTIME;
    }
    run[n++] = "run";
    const char *fifo = NULL, *preset_name = NULL, *stations = NULL;
    bool pace = false, duration = false;
    bool fifo_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        const char *value = NULL;
        if (strcmp(a, "--capture") == 0 || strncmp(a, "--extcap-version", 16) == 0)
            continue;
        if (extcap_option(argc, argv, &i, "--fifo", &value)) {
            fifo = value;
            fifo_given = true;
        } else if (extcap_option(argc, argv, &i, "--extcap-interface", &value) ||
                   extcap_option(argc, argv, &i, "--extcap-capture-filter", &value) ||
                   extcap_option(argc, argv, &i, "--extcap-control-in", &value) ||
                   extcap_option(argc, argv, &i, "--extcap-control-out", &value)) {
            /* one interface (checked by the caller); no filter or toolbar */
        } else if (extcap_option(argc, argv, &i, "--preset", &value)) {
            preset_name = value;
        } else if (strcmp(a, "--stations") == 0 && next && next[0] != '\0') {
            stations = argv[++i];
        } else if (strncmp(a, "--", 2) == 0 && next != NULL && next[0] == '\0') {
            i++; /* a field left empty in the dialog */
        } else {
            pace |= strcmp(a, "--pace") == 0 || strncmp(a, "--pace=", 7) == 0;
            duration |= strcmp(a, "--duration") == 0 || strncmp(a, "--duration=", 11) == 0;
            run[n++] = argv[i];
        }
    }
    if (fifo == NULL || fifo[0] == '\0') {
        if (fifo_given)
            cli_error("--fifo: needs a path (the FIFO Wireshark reads)");
        else
            cli_error("--capture: needs --fifo PATH (Wireshark gives it)");
        free(run);
        return EXIT_STATUS_USAGE;
    }
    /* A preset is run's own --preset (the first point of its sweep, its
     * network included), and the dialog's Stations its --stations (with
     * groups the total, as the sweep takes it). */
    if (preset_name != NULL && preset_name[0] != '\0') {
        run[n++] = "--preset";
        run[n++] = (char *)preset_name;
    }
    if (stations != NULL) {
        run[n++] = "--stations";
        run[n++] = (char *)stations;
    }
    run[n++] = "--pcap";
    run[n++] = (char *)fifo;
    run[n++] = "--pcap-format";
    run[n++] = "pcapng";
    if (!pace) {
        run[n++] = "--pace";
        run[n++] = "1";
    }
    if (!duration) {
        run[n++] = "--duration";
        run[n++] = "inf";
    }
    run[n] = NULL;
    int status = cmd_run_capture(n, run);
    free(run);
    return status;
}

/* mkdir -p for a folder of the user's (mode 0755 less the umask). */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Whether the link at path is csmacd's: it names a program called csmacd
 * (this one, or another build or install of it). */
static bool our_link(const char *path)
{
    char target[PATH_MAX];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0)
        return false;
    target[n] = '\0';
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    return strcmp(base, "csmacd") == 0 || strcmp(base, "csmacd-mpi") == 0;
}

/* Whether the file at path is csmacd's dissector (this version or
 * another): a regular file whose first line is the embedded one's. */
static bool our_dissector(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[256];
    bool ours = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    size_t n = strcspn(csmacd_dissector_lua, "\n");
    return ours && strncmp(line, csmacd_dissector_lua, n) == 0 &&
           (line[n] == '\n' || line[n] == '\0');
}

/* What is at path may be replaced: nothing, or csmacd's own (a link to
 * csmacd, or its dissector). Else says why and returns false. */
static bool replaceable(const char *path, bool link)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return true;
        cli_error("%s: %s", path, strerror(errno));
        return false;
    }
    if (link ? S_ISLNK(st.st_mode) && our_link(path)
             : S_ISREG(st.st_mode) && our_dissector(path))
        return true;
    cli_error("%s: exists and is not %s: left alone (move it away to install)", path,
              link ? "a link to csmacd" : "csmacd's dissector");
    return false;
}

/* Wireshark's global Lua plugins and extcap folders, as `tshark -G
 * folders` names them ("Global Lua Plugins:", "Extcap path:"), into lua
 * and extcap (each "" when not named, or without tshark). */
static void wireshark_folders(char *lua, char *extcap, size_t len)
{
    lua[0] = extcap[0] = '\0';
    FILE *p = popen("tshark -G folders 2>/dev/null", "r");
    if (p == NULL)
        return;
    static const char *const labels[] = {"Global Lua Plugins:", "Extcap path:"};
    char *out[] = {lua, extcap};
    char line[PATH_MAX + 64];
    while (fgets(line, sizeof line, p) != NULL)
        for (int k = 0; k < 2; k++) {
            size_t n = strlen(labels[k]);
            if (out[k][0] != '\0' || strncmp(line, labels[k], n) != 0)
                continue;
            const char *v = line + n + strspn(line + n, " \t");
            size_t vlen = strcspn(v, "\r\n");
            if (vlen < len) {
                memcpy(out[k], v, vlen);
                out[k][vlen] = '\0';
            }
        }
    pclose(p);
}

/* Whether the dissector at path knows of two copies (captures/csmacd.lua,
 * "Two copies"): a system copy that does steps aside for the user's; one
 * older than the rule registers first, and the user's steps aside. */
static bool dissector_yields(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[512];
    bool yields = false;
    while (!yields && fgets(line, sizeof line, f) != NULL)
        yields = strstr(line, "csmacd_dissector_file") != NULL;
    fclose(f);
    return yields;
}

/* Says which dissector and which capture interface Wireshark will use,
 * when the system has its own (cmake --install's) beside the user's. */
static void tell_system_copies(const char *lua, const char *link_path)
{
    char lua_dir[PATH_MAX], extcap_dir[PATH_MAX], path[PATH_MAX + 16];
    wireshark_folders(lua_dir, extcap_dir, sizeof lua_dir);
    if (lua_dir[0] != '\0' &&
        snprintf(path, sizeof path, "%s/csmacd.lua", lua_dir) < (int)sizeof path &&
        strcmp(path, lua) != 0 && our_dissector(path)) {
        if (dissector_yields(path))
            printf("Wireshark loads %s; the system's copy %s steps aside for it\n", lua, path);
        else
            printf("Wireshark loads the system's copy %s, an older csmacd's, and %s steps "
                   "aside for it (one dissector is loaded): to use this one, remove that one "
                   "or install this csmacd with cmake --install\n",
                   path, lua);
    }
    if (extcap_dir[0] != '\0' &&
        snprintf(path, sizeof path, "%s/" INTERFACE, extcap_dir) < (int)sizeof path &&
        strcmp(path, link_path) != 0 && our_link(path))
        printf("Wireshark runs %s for \"" INTERFACE "\"; the system's %s is set aside (Wireshark "
               "notes it at start)\n",
               link_path, path);
}

static int install_user(void)
{
    const char *home = getenv("HOME");
    if (home == NULL || home[0] != '/') {
        cli_error("--install-user: HOME is not set to a folder");
        return EXIT_STATUS_USAGE;
    }
    char self[PATH_MAX];
    if (realpath("/proc/self/exe", self) == NULL) {
        cli_error("/proc/self/exe: %s", strerror(errno));
        return EXIT_STATUS_RUNTIME;
    }
    /* Wireshark's personal folders: its configuration under
     * $XDG_CONFIG_HOME (else ~/.config), Lua plugins under ~/.local/lib.
     * Every path is checked whole before anything is made: all or
     * nothing, never a folder cut short. */
    const char *xdg = getenv("XDG_CONFIG_HOME");
    char extcap[PATH_MAX], plugins[PATH_MAX], link_path[PATH_MAX], lua[PATH_MAX];
    int n1 = xdg != NULL && xdg[0] == '/'
                 ? snprintf(extcap, sizeof extcap, "%s/wireshark/extcap", xdg)
                 : snprintf(extcap, sizeof extcap, "%s/.config/wireshark/extcap", home);
    int n2 = snprintf(plugins, sizeof plugins, "%s/.local/lib/wireshark/plugins", home);
    int n3 = snprintf(link_path, sizeof link_path, "%s/" INTERFACE, extcap);
    int n4 = snprintf(lua, sizeof lua, "%s/csmacd.lua", plugins);
    /* (+ 40: the temporary the dissector is written to beside it) */
    if (n1 < 0 || n2 < 0 || n3 < 0 || n4 < 0 || (size_t)n3 + 40 >= sizeof link_path ||
        (size_t)n4 + 40 >= sizeof lua) {
        cli_error("--install-user: %s is too long: Wireshark's folders under it would exceed "
                  "%d characters; nothing was installed",
                  xdg != NULL && xdg[0] == '/' && (size_t)n3 + 40 >= sizeof link_path
                      ? "XDG_CONFIG_HOME"
                      : "HOME",
                  PATH_MAX - 1);
        return EXIT_STATUS_USAGE;
    }
    /* Only csmacd's own link and dissector are replaced. */
    if (!replaceable(link_path, true) || !replaceable(lua, false))
        return EXIT_STATUS_RUNTIME;
    if (make_dirs(extcap) != 0) {
        cli_error("%s: %s", extcap, strerror(errno));
        return EXIT_STATUS_RUNTIME;
    }
    if (make_dirs(plugins) != 0) {
        cli_error("%s: %s", plugins, strerror(errno));
        return EXIT_STATUS_RUNTIME;
    }
    /* The dissector first (renamed into place whole), then the link,
     * itself made beside and renamed over: either fails, nothing new
     * stays. */
    struct stat st;
    bool had_lua = lstat(lua, &st) == 0;
    outfile out;
    char err[1024];
    if (outfile_open(&out, lua, err, sizeof err) != 0) {
        cli_error("%s", err);
        return EXIT_STATUS_RUNTIME;
    }
    fputs(csmacd_dissector_lua, out.f);
    if (outfile_commit(&out, err, sizeof err) != 0) {
        cli_error("%s", err);
        return EXIT_STATUS_RUNTIME;
    }
    char tmp_link[PATH_MAX + 32];
    snprintf(tmp_link, sizeof tmp_link, "%s.csmacd-%ld.tmp", link_path, (long)getpid());
    (void)unlink(tmp_link);
    if (symlink(self, tmp_link) != 0 || rename(tmp_link, link_path) != 0) {
        cli_error("%s: %s", link_path, strerror(errno));
        (void)unlink(tmp_link);
        if (!had_lua)
            (void)unlink(lua);
        return EXIT_STATUS_RUNTIME;
    }
    printf("%s -> %s (Wireshark's capture interface \"" INTERFACE "\")\n%s (the dissector)\n",
           link_path, self, lua);
    tell_system_copies(lua, link_path);
    return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
}

static void print_help(void)
{
    printf("usage: csmacd extcap --extcap-interfaces | --extcap-dlts | --extcap-config\n"
           "       csmacd extcap --capture --fifo PATH [run options]\n"
           "       csmacd extcap --install-user\n\n"
           "csmacd as a Wireshark capture interface (extcap): Wireshark lists \"" INTERFACE
           "\",\nits options dialog offers the PHY, stations, traffic, load, frame size, "
           "policy,\nseed, pace, a scenario file or a preset, and a capture streams a paced "
           "pcapng\ntrace until Wireshark stops it.\n\n"
           "Options:\n"
           "  --install-user               link csmacd into ~/.config/wireshark/extcap and "
           "put\n"
           "                               the dissector in ~/.local/lib/wireshark/plugins\n"
           "  --help                       show this help (also -h)\n"
           "The other options are Wireshark's (extcap(4)) and csmacd run's.\n");
}

int cmd_extcap_main(int argc, char **argv)
{
    bool interfaces = false, dlts = false, config = false, cap = false, install = false;
    const char *iface = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
        }
        interfaces |= strcmp(a, "--extcap-interfaces") == 0;
        dlts |= strcmp(a, "--extcap-dlts") == 0;
        config |= strcmp(a, "--extcap-config") == 0;
        cap |= strcmp(a, "--capture") == 0;
        install |= strcmp(a, "--install-user") == 0;
        if (strcmp(a, "--extcap-interface") == 0 && i + 1 < argc)
            iface = argv[i + 1];
        else if (strncmp(a, "--extcap-interface=", 19) == 0)
            iface = a + 19; /* Wireshark may pass either form */
    }
    if (install)
        return install_user();
    if (interfaces) {
        printf("extcap {version=%s}{display=csmacd, an emulator of IEEE 802.3 CSMA/CD}\n",
               CSMACD_VERSION);
        printf("interface {value=" INTERFACE "}{display=csmacd: simulated half-duplex "
               "Ethernet (CSMA/CD)}\n");
        return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
    }
    if ((dlts || config || cap) && (iface == NULL || strcmp(iface, INTERFACE) != 0)) {
        cli_error("--extcap-interface: %s is not csmacd's (it has one: " INTERFACE ")",
                  iface ? iface : "not given, and");
        return EXIT_STATUS_USAGE;
    }
    if (dlts) {
        printf("dlt {number=1}{name=EN10MB}{display=Ethernet (pcapng: collision fragments "
               "on a netANALYZER transparent interface)}\n");
        return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
    }
    if (config) {
        print_config();
        return fflush(stdout) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_RUNTIME;
    }
    if (cap)
        return capture(argc, argv);
    cli_error("extcap: needs --extcap-interfaces, --extcap-dlts, --extcap-config, --capture or "
              "--install-user (csmacd extcap --help)");
    return EXIT_STATUS_USAGE;
}
