/* fuzz_extcap.c - libFuzzer harness for `csmacd extcap`'s arguments
 * (cmd_extcap.c): what Wireshark passes (--extcap-interfaces,
 * --extcap-dlts, --extcap-config, --capture --fifo PATH, the dialog's
 * fields, empty ones included), and, through a capture, `csmacd run`'s
 * whole command line (cmd_run_capture).
 *
 * The input is split at line breaks and NUL bytes into at most 64
 * arguments after the program's name and given to cmd_extcap_main, the
 * function main.c calls, with standard output and standard error
 * captured in memory (the stdio streams, not the descriptors: a crash
 * report still reaches the terminal). So that an input can neither write
 * outside a folder of its own nor run for ever:
 *   - --install-user is turned into an unknown word (it writes into the
 *     user's home; tests/cli covers it with a HOME of its own);
 *   - the value of every option that names a file to write (--fifo,
 *     --pcap, --events, --stations-csv, --series; "--opt VALUE" or
 *     "--opt=VALUE") has its '/' turned into '_' and is put in that
 *     folder, emptied after each input ("-" stays standard output); any
 *     other argument that starts with '/' or holds ".." has its '/'
 *     turned into '_' too, and cmd_extcap_main is called from that
 *     folder, so a name the capture pairs with another option ("--events
 *     --fifo F X" gives run "--events X") lands there as well;
 *   - "--duration=20us --pace=1000" end every command line: a capture
 *     runs 20 us of simulated time in about 20 ns (the options given
 *     before are still parsed, last one wins); an option that ends the
 *     input without its value gets an empty one first, as Wireshark
 *     passes a field left empty, so the tail is never taken for a value
 *     (--fifo --duration=20us would capture for ever).
 * What must hold besides ASan and UBSan: the exit status is 0, 1 or 2;
 * standard error is lines "csmacd: " and text as printed (fuzz_common.h),
 * with exactly one error line on exit 2, at least one on exit 1 and none
 * on exit 0; on exit 0 a query's answer is lines of extcap's grammar
 * ("extcap {", "interface {", "dlt {", "arg {", "value {", or the help's
 * "usage:") and a capture's trace (--fifo FILE) reads back whole with
 * pcapng_read.h (or, when run's parser met -h in a cluster such as
 * "-h--stations", run's help was printed instead).
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_extcap -runs=2000 build/tests/fuzz-extcap-corpus tests/fuzz/corpus-extcap
 * Long run: tests/fuzz/run.sh 30m extcap (tests/fuzz/README.md).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fuzz_common.h"
#include "pcapng_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64
#define PATH_CAP 256

static char dir[64];

/* Empties the folder (files only: nothing here makes folders). */
static void empty_dir(void)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (unlinkat(dirfd(d), de->d_name, 0) != 0)
            abort(); /* something made a folder: an input escaped the rules */
    }
    closedir(d);
}

static void cleanup(void)
{
    empty_dir();
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/fuzz-extcap-XXXXXX");
    if (mkdtemp(dir) == NULL)
        abort();
    atexit(cleanup);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        close(null);
    }
    return 0;
}

static const char *const writes[] = {"--fifo", "--pcap", "--events", "--stations-csv",
                                     "--series"};

/* The option of `arg` that writes a file: its length, or 0. */
static size_t writing_option(const char *arg)
{
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        size_t n = strlen(writes[i]);
        if (strncmp(arg, writes[i], n) == 0 && (arg[n] == '\0' || arg[n] == '='))
            return n;
    }
    return 0;
}

/* VALUE as a file of the folder, into out (PATH_CAP octets). */
static void confine(const char *prefix, const char *value, char *out)
{
    if (strcmp(value, "-") == 0 || value[0] == '\0') {
        snprintf(out, PATH_CAP, "%s%s", prefix, value);
        return;
    }
    int n = snprintf(out, PATH_CAP, "%s%s/%.120s", prefix, dir, value);
    for (char *p = out + strlen(prefix) + strlen(dir) + 1; n > 0 && *p; p++)
        if (*p == '/')
            *p = '_';
}

/* A value that could name a file outside the current folder (from '/',
 * or through "..") has its '/' turned into '_': with the call made from
 * the folder (see below), every file an input writes is in it, whichever
 * option the capture's reordering pairs the value with. */
static void outside_in(char *arg)
{
    char *v = arg;
    if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL)
        v = strchr(arg, '=') + 1;
    if (v[0] != '/' && strstr(v, "..") == NULL)
        return;
    for (; *v; v++)
        if (*v == '/')
            *v = '_';
}

/* Each line is one of extcap's answers, or the help. */
static void check_answer(const char *out, size_t len)
{
    static const char *const starts[] = {"extcap {", "interface {", "dlt {", "arg {",
                                         "value {", "usage: ", "       ", "csmacd as ",
                                         "Options:", "  --", "    ", "The other",
                                         "its options", "policy,", "seed, pace",
                                         "pcapng", "\"", ""};
    const char *p = out, *end = out + len;
    if (len == 0)
        abort();
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            abort();
        bool known = false;
        for (size_t i = 0; i < sizeof starts / sizeof starts[0] && !known; i++) {
            size_t n = strlen(starts[i]);
            known = n <= (size_t)(nl - p) && memcmp(p, starts[i], n) == 0;
        }
        if (!known)
            abort();
        if (nl > p)
            fuzz_check_text(p, (size_t)(nl - p));
        p = nl + 1;
    }
}

/* The capture's trace reads back to its end. */
static void check_trace(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        abort(); /* exit 0 promised the file */
    pcapng_reader *r = NULL;
    char err[256];
    if (pcapng_read_open(f, &r, err, sizeof err) != 0)
        abort();
    pcapng_record rec;
    int rc;
    while ((rc = pcapng_read_next(r, &rec, err, sizeof err)) == 1)
        ;
    if (rc != 0)
        abort();
    pcapng_read_close(r);
    fclose(f);
}

/* The --fifo a capture writes to, read as Wireshark's arguments are
 * (cmd_extcap.c, capture: the values of --extcap-interface and the like,
 * of --preset and of an option left empty are skipped). */
static const char *capture_fifo(int argc, char **argv)
{
    const char *fifo = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--capture") == 0 || strncmp(a, "--extcap-version", 16) == 0)
            continue;
        if (next == NULL)
            break;
        if (strcmp(a, "--fifo") == 0) {
            fifo = argv[++i];
        } else if (strcmp(a, "--extcap-interface") == 0 ||
                   strcmp(a, "--extcap-capture-filter") == 0 ||
                   strcmp(a, "--extcap-control-in") == 0 ||
                   strcmp(a, "--extcap-control-out") == 0 || strcmp(a, "--preset") == 0 ||
                   (strncmp(a, "--", 2) == 0 && next[0] == '\0')) {
            i++;
        }
    }
    return fifo;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 5]; /* the name, the arguments, "", the tail, NULL */
    static char confined[MAX_ARGS][PATH_CAP];
    int argc = 0, n_conf = 0;
    argv[argc++] = "csmacd";
    bool capture = false, query = false;
    char *end = text + size;
    for (char *p = text; argc < MAX_ARGS + 1 && p < end;) {
        char *a = p;
        while (p < end && *p != '\n' && *p != '\0')
            p++;
        *p = '\0';
        p++;
        capture |= strcmp(a, "--capture") == 0;
        /* What cmd_extcap_main answers before a capture. */
        query |= strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
                 strcmp(a, "--extcap-interfaces") == 0 || strcmp(a, "--extcap-dlts") == 0 ||
                 strcmp(a, "--extcap-config") == 0;
        if (strcmp(a, "--install-user") == 0)
            a = "--install-user-not-while-fuzzing";
        outside_in(a);
        size_t n = writing_option(a);
        if (n > 0 && a[n] == '=') {
            char prefix[32];
            snprintf(prefix, sizeof prefix, "%.*s", (int)n + 1, a);
            confine(prefix, a + n + 1, confined[n_conf]);
            a = confined[n_conf++];
        } else if (argc > 1 && writing_option(argv[argc - 1]) > 0 &&
                   strchr(argv[argc - 1], '=') == NULL) {
            confine("", a, confined[n_conf]);
            a = confined[n_conf++];
        }
        argv[argc++] = a;
    }
    /* An option left without its value takes an empty one, so that the
     * tail is never read as a value (--fifo --duration=20us). */
    if (argc > 1 && strncmp(argv[argc - 1], "--", 2) == 0 && strchr(argv[argc - 1], '=') == NULL)
        argv[argc++] = "";
    argv[argc++] = "--duration=20us";
    argv[argc++] = "--pace=1000";
    argv[argc] = NULL;
    const char *fifo = capture_fifo(argc, argv);
    capture = capture && !query;

    struct sigaction old_int, old_term;
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    fuzz_capture cap_out, cap_err;
    /* From the folder: a relative name the rules above did not confine
     * (the capture drops --fifo PATH and the like, so run may pair
     * "--events" with another value) is written there too. */
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (here < 0 || chdir(dir) != 0)
        abort();
    fuzz_capture_begin(&cap_out, &stdout);
    fuzz_capture_begin(&cap_err, &stderr);
    int status = cmd_extcap_main(argc, argv);
    if (fchdir(here) != 0)
        abort();
    close(here);
    size_t out_len, err_len;
    char *err = fuzz_capture_end(&cap_err, &stderr, &err_len);
    char *out = fuzz_capture_end(&cap_out, &stdout, &out_len);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    size_t errors = fuzz_check_printed(err, err_len);
    fuzz_tell(err);
    if (fuzz_verbose())
        fprintf(stderr, "exit %d\n", status);
    if (status == 2 ? errors != 1 : status == 1 ? errors == 0 : status == 0 ? errors != 0 : true)
        abort();
    if (status == 0 && !capture)
        check_answer(out, out_len);
    /* A capture that exits 0 wrote its trace, unless run's own parser
     * met -h first ("-h--stations": -h and more) and printed the help. */
    bool helped = out_len >= 7 && memcmp(out, "usage: ", 7) == 0;
    if (status == 0 && capture && helped)
        check_answer(out, out_len);
    else if (status == 0 && capture && fifo != NULL && strcmp(fifo, "-") != 0) {
        char path[PATH_CAP + 80];
        snprintf(path, sizeof path, "%s%s%s", fifo[0] == '/' ? "" : dir,
                 fifo[0] == '/' ? "" : "/", fifo);
        check_trace(path);
    }
    free(out);
    free(err);
    empty_dir();
    free(text);
    return 0;
}
