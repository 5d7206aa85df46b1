/* fuzz_cli.c - libFuzzer harness for the command line (cli.h).
 *
 * The input is split at NUL bytes and line breaks into at most 64
 * arguments and given to cli_parse after a command name, then, when it
 * parses, to scenario_finish: the path `csmacd run` and `csmacd sweep`
 * take before the engine is created (the engine itself is not run). The
 * first byte picks the command: a run-like one (run's own options:
 * --format, --events, --stations-csv, --pcap, --pcap-collisions,
 * --pcap-linktype) or a sweep-like one whose --stations, --load,
 * --frame-size, --length, --policy and --phy take a LIST, parsed with the
 * LIST parsers the sweep uses. cli_parse never exits: it returns CLI_OK,
 * CLI_HELP (help printed on standard output, sent to /dev/null here) or
 * CLI_ERROR with one message (the program's exit 2). What is checked is
 * what the user sees: the message printed by cli_error, as the program
 * prints it, and the warnings cli_finish prints; each printed line is
 * "csmacd: " and text (fuzz_common.h: no control byte, nothing that is not
 * UTF-8), and a refusal prints exactly one error line. The raw message may
 * hold any byte of a file name (--scenario "a<ESC>b"): the printing cleans
 * it, and that cleaning is what is under test.
 * Standard input is /dev/null so that "--scenario /dev/stdin" cannot
 * block.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_cli -runs=20000 build/tests/fuzz-cli-corpus tests/fuzz/corpus-cli
 * Long run (the corpus grows under ~/.cache/csmacd-fuzz):
 *   tests/fuzz/run.sh 1h cli   (tests/fuzz/README.md)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_common.h"
#include "parse.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

enum { OPT_FORMAT = 1, OPT_FILE, OPT_BOOL, OPT_LINKTYPE, OPT_LIST_U64, OPT_LIST_DOUBLE,
       OPT_LIST_WORDS, OPT_COUNT, OPT_SWITCH };

static const cli_option run_options[] = {
    {"format", CLI_ARG_REQUIRED, "text|json|csv", "format", OPT_FORMAT},
    {"stations-csv", CLI_ARG_REQUIRED, "FILE", "csv", OPT_FILE},
    {"events", CLI_ARG_REQUIRED, "FILE", "events", OPT_FILE},
    {"pcap", CLI_ARG_REQUIRED, "FILE", "pcap", OPT_FILE},
    {"pcap-collisions", CLI_ARG_REQUIRED, "yes|no", "collisions", OPT_BOOL},
    {"pcap-linktype", CLI_ARG_REQUIRED, "TYPE", "linktype", OPT_LINKTYPE},
};

static const cli_option sweep_options[] = {
    {"stations", CLI_ARG_REQUIRED, "LIST", "stations", OPT_LIST_U64},
    {"load", CLI_ARG_REQUIRED, "LIST", "loads", OPT_LIST_DOUBLE},
    {"frame-size", CLI_ARG_REQUIRED, "LIST", "sizes", OPT_LIST_U64},
    {"length", CLI_ARG_REQUIRED, "LIST", "lengths", OPT_LIST_DOUBLE},
    {"phy", CLI_ARG_REQUIRED, "LIST", "phys", OPT_LIST_WORDS},
    {"policy", CLI_ARG_REQUIRED, "LIST", "policies", OPT_LIST_WORDS},
    {"reps", CLI_ARG_REQUIRED, "R", "reps", OPT_COUNT},
    {"jobs", CLI_ARG_REQUIRED, "J", "jobs", OPT_COUNT},
    {"quiet", CLI_ARG_NONE, NULL, "quiet", OPT_SWITCH},
    {"csv", CLI_ARG_REQUIRED, "FILE", "csv", OPT_FILE},
};

static int on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    (void)ctx;
    switch (id) {
    case OPT_FORMAT:
        if (strcmp(value, "text") && strcmp(value, "json") && strcmp(value, "csv")) {
            snprintf(err, errlen, "unknown format");
            return -1;
        }
        return 0;
    case OPT_FILE:
        if (value[0] == '\0') {
            snprintf(err, errlen, "needs a file name");
            return -1;
        }
        return 0;
    case OPT_BOOL: {
        bool b;
        return parse_bool(value, &b, err, errlen);
    }
    case OPT_LINKTYPE:
        if (strcmp(value, "ethernet") && strcmp(value, "netanalyzer")) {
            snprintf(err, errlen, "unknown link type");
            return -1;
        }
        return 0;
    case OPT_LIST_U64: {
        uint64_t *v = NULL;
        size_t n = 0;
        int rc = parse_list_u64(value, 1, 10000, &v, &n, err, errlen);
        free(v);
        return rc;
    }
    case OPT_LIST_DOUBLE: {
        double *v = NULL;
        size_t n = 0;
        int rc = parse_list_double(value, 0.0, 1e7, &v, &n, err, errlen);
        free(v);
        return rc;
    }
    case OPT_LIST_WORDS: {
        char **w = NULL;
        size_t n = 0;
        int rc = parse_list_words(value, &w, &n, err, errlen);
        if (rc == 0)
            parse_list_free_words(w, n);
        return rc;
    }
    case OPT_COUNT: {
        uint32_t v;
        return parse_u32(value, 1, 1000000, &v, err, errlen);
    }
    case OPT_SWITCH:
        if (value != NULL)
            abort();
        return 0;
    default:
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_silence_stdio();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int sweep = data[0] & 1;
    char *text = malloc(size);
    if (text == NULL)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = sweep ? "sweep" : "run";
    char *p = text, *end = text + size - 1;
    while (argc < MAX_ARGS + 1 && p <= end) {
        argv[argc++] = p;
        while (p < end && *p != '\n' && *p != '\0')
            p++;
        *p = '\0';
        p++;
    }
    argv[argc] = NULL;

    const char *scenario_file = NULL;
    const cli_command cmd = {
        .name = sweep ? "sweep" : "run",
        .summary = "fuzz",
        .options = sweep ? sweep_options : run_options,
        .n_options = sweep ? sizeof sweep_options / sizeof sweep_options[0]
                           : sizeof run_options / sizeof run_options[0],
        .scenario_options = true,
        .on_option = on_option,
        .ctx = NULL,
        .scenario_file = &scenario_file,
    };
    scenario sc;
    scenario_defaults(&sc);
    char err[1024];
    err[0] = '\0';
    cli_status st = cli_parse(&cmd, argc, argv, &sc, err, sizeof err);
    if (st == CLI_ERROR) {
        fuzz_check_refusal(err);
    } else if (st == CLI_OK) {
        /* cli_finish prints the remarks as warnings; they are checked as
         * printed, and a refusal adds one error line. */
        fuzz_finish(&sc, err, sizeof err, NULL, NULL);
    } else if (st != CLI_HELP) {
        abort();
    }
    scenario_free(&sc);
    free(text);
    return 0;
}
