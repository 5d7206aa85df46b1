/* test_cli.c - pins the shared command line of cli.h in-process: every
 * scenario option listed in --help is a scenario key; the layers (file,
 * then command line; phy first in each); a command option shadowing a
 * scenario key (what sweep's --stations LIST relies on); "--key=value";
 * refusals with their messages (unknown and abbreviated options, a missing
 * value, a value given to a switch, positional arguments, --scenario
 * twice, conflicting traffic options); the --scenario path handed back;
 * help; messages cleaned of what could forge terminal output
 * (cli_clean_message: controls, invalid UTF-8, C1 controls; valid UTF-8
 * kept). The exit statuses and the program's output are pinned by
 * tests/cli/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

static char err[1024];

typedef struct seen {
    int calls;
    int last_id;
    char last_value[256];
} seen;

static int on_option(void *ctx, int id, const char *value, char *e, size_t elen)
{
    seen *s = ctx;
    s->calls++;
    s->last_id = id;
    snprintf(s->last_value, sizeof s->last_value, "%s", value ? value : "(switch)");
    if (value != NULL && strcmp(value, "bad") == 0) {
        snprintf(e, elen, "'bad' is bad");
        return -1;
    }
    return 0;
}

static const cli_option test_options[] = {
    {"stations", CLI_ARG_REQUIRED, "LIST", "shadows the scenario key", 1},
    {"quiet", CLI_ARG_NONE, NULL, "a switch", 2},
    {"csv", CLI_ARG_REQUIRED, "FILE", "an output", 3},
};

static seen calls;

static cli_command command(void)
{
    memset(&calls, 0, sizeof calls);
    return (cli_command){.name = "test",
                         .summary = "A command for the tests.",
                         .options = test_options,
                         .n_options = 3,
                         .scenario_options = true,
                         .on_option = on_option,
                         .ctx = &calls};
}

/* Parses a NULL-terminated list of words (the command's name first). */
static cli_status parse(scenario *sc, const char *const *words)
{
    char *argv[64];
    int argc = 0;
    for (; words[argc] != NULL; argc++)
        argv[argc] = strdup(words[argc]);
    argv[argc] = NULL;
    cli_command cmd = command();
    scenario_defaults(sc);
    cli_status st = cli_parse(&cmd, argc, argv, sc, err, sizeof err);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return st;
}

#define PARSE(sc, ...) parse(sc, (const char *const[]){"test", __VA_ARGS__, NULL})

static void test_options_are_keys(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cli_print_scenario_options(f);
    assert_int_equal(fclose(f), 0);
    int n = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char name[64];
        if (sscanf(line, " --%63[a-z0-9-]", name) != 1)
            continue;
        if (strcmp(name, "scenario") == 0 || strcmp(name, "group") == 0)
            continue;
        scenario sc;
        scenario_defaults(&sc);
        scenario_set(&sc, name, "?", err, sizeof err);
        if (strstr(err, "unknown key") != NULL)
            fail_msg("--%s is listed but is no scenario key", name);
        scenario_free(&sc);
        n++;
    }
    free(text);
    assert_int_equal(n, 44); /* every key of scenario.c (duplex the last) */
}

static void test_layers(void **state)
{
    (void)state;
    char path[] = "/tmp/test_cli.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "length = 300\nphy = 10base2\nstations = 4\nseed = 9\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);

    scenario sc;
    assert_int_equal(PARSE(&sc, "--scenario", path), CLI_OK);
    assert_string_equal(sc.phy.name, "10base2");
    assert_true(sc.phy.length_m == 300); /* phy first within the file */
    scenario_free(&sc);

    /* The command line comes after the file, phy first again. */
    assert_int_equal(PARSE(&sc, "--length=250", "--scenario", path, "--phy", "100basetx",
                           "--seed", "10"),
                     CLI_OK);
    assert_string_equal(sc.phy.name, "100basetx");
    assert_true(sc.phy.length_m == 250);
    assert_true(sc.seed == 10);
    assert_int_equal(sc.n_stations, 4); /* from the file */
    scenario_free(&sc);

    /* A command-line phy resets the file's PHY overrides (documented). */
    assert_int_equal(PARSE(&sc, "--scenario", path, "--phy", "10base5"), CLI_OK);
    assert_true(sc.phy.length_m == 500);
    scenario_free(&sc);
    unlink(path);

    assert_int_equal(PARSE(&sc, "--scenario", path), CLI_ERROR);
    assert_non_null(strstr(err, ": No such file or directory"));
    scenario_free(&sc);
}

static void test_command_options(void **state)
{
    (void)state;
    scenario sc;
    /* --stations belongs to the command here: the scenario keeps 8. */
    assert_int_equal(PARSE(&sc, "--stations", "1..64:log", "--quiet"), CLI_OK);
    assert_int_equal(sc.n_stations, 8);
    assert_int_equal(calls.calls, 2);
    assert_int_equal(calls.last_id, 2);
    assert_string_equal(calls.last_value, "(switch)");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--csv=out.csv"), CLI_OK);
    assert_string_equal(calls.last_value, "out.csv");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--csv", "bad"), CLI_ERROR);
    assert_string_equal(err, "--csv: 'bad' is bad");
    scenario_free(&sc);
}

/* The --scenario path is handed back for the command's own checks. */
static void test_scenario_file_out(void **state)
{
    (void)state;
    char path[] = "/tmp/test_cli_file.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "seed = 5\n", 9), 9);
    close(fd);
    const char *file = "unset";
    cli_command cmd = command();
    cmd.scenario_file = &file;
    char *argv[] = {"test", "--scenario", path, NULL};
    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(cli_parse(&cmd, 3, argv, &sc, err, sizeof err), CLI_OK);
    assert_string_equal(file, path);
    assert_true(sc.seed == 5);
    scenario_free(&sc);
    char *argv2[] = {"test", "--seed", "3", NULL};
    scenario_defaults(&sc);
    assert_int_equal(cli_parse(&cmd, 3, argv2, &sc, err, sizeof err), CLI_OK);
    assert_null(file);
    scenario_free(&sc);
    unlink(path);
}

static void test_refusals(void **state)
{
    (void)state;
    scenario sc;
    assert_int_equal(PARSE(&sc, "--colour", "red"), CLI_ERROR);
    assert_string_equal(err, "--colour: unknown option (csmacd test --help lists them)");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--dur", "2s"), CLI_ERROR); /* no abbreviations */
    assert_non_null(strstr(err, "--dur: unknown option"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "-x"), CLI_ERROR);
    assert_non_null(strstr(err, "-x: unknown option"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--seed"), CLI_ERROR);
    assert_string_equal(err, "--seed: needs a value");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--quiet=yes"), CLI_ERROR);
    assert_string_equal(err, "--quiet: takes no value");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--seed", "3", "extra"), CLI_ERROR);
    assert_string_equal(err, "'extra': unexpected argument (options start with --)");
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--scenario", "a", "--scenario", "b"), CLI_ERROR);
    assert_non_null(strstr(err, "--scenario: given twice"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--duration", "abc"), CLI_ERROR);
    assert_non_null(strstr(err, "duration: 'abc' is not a time"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--phy", "10base9"), CLI_ERROR);
    assert_non_null(strstr(err, "phy: unknown profile '10base9'"));
    scenario_free(&sc);

    /* Options that could not have an effect. */
    assert_int_equal(PARSE(&sc, "--load", "0.3"), CLI_ERROR); /* saturated by default */
    assert_non_null(strstr(err, "--load: conflicts with saturated traffic"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--traffic", "batch", "--load", "0.3"), CLI_ERROR);
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--batch", "4"), CLI_ERROR);
    assert_non_null(strstr(err, "--batch: conflicts"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--on-off", "1ms/9ms", "--traffic", "poisson"), CLI_ERROR);
    assert_non_null(strstr(err, "--on-off: conflicts"));
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--load", "0.3", "--traffic", "poisson"), CLI_OK);
    assert_true(sc.traffic.load == 0.3);
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--traffic", "onoff", "--on-off", "1ms/9ms", "--load", "1"),
                     CLI_OK);
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "--traffic", "batch", "--batch", "3"), CLI_OK);
    assert_int_equal(sc.traffic.batch_frames, 3);
    scenario_free(&sc);
}

static void test_help(void **state)
{
    (void)state;
    scenario sc;
    /* Help wins over what follows; it goes to standard output. */
    assert_int_equal(PARSE(&sc, "--seed", "3", "--help", "--colour"), CLI_HELP);
    scenario_free(&sc);
    assert_int_equal(PARSE(&sc, "-h"), CLI_HELP);
    scenario_free(&sc);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cli_command cmd = command();
    cli_print_help(f, &cmd);
    fclose(f);
    /* The usage line is the option table's. */
    assert_non_null(strstr(text, "usage: csmacd test [scenario options] [--stations LIST] "
                                 "[--quiet] [--csv FILE]\n"));
    assert_non_null(strstr(text, "--stations LIST"));
    assert_null(strstr(text, "--stations N")); /* shadowed: listed once */
    assert_non_null(strstr(text, "--duration TIME"));
    assert_non_null(strstr(text, "--quiet "));
    free(text);
    /* A required option has no brackets; a long line wraps under the
     * command's name. */
    static const cli_option many[] = {
        {"alpha-option", CLI_ARG_REQUIRED, "FILE", "a", 1},
        {"beta-option", CLI_ARG_REQUIRED, "FILE", "b", 2},
        {"gamma-option", CLI_ARG_REQUIRED, "FILE", "c", 3},
        {"delta-option", CLI_ARG_NONE, NULL, "d", 4},
        {"hidden", CLI_ARG_NONE, NULL, NULL, 5},
    };
    cmd.options = many;
    cmd.n_options = 5;
    cmd.scenario_options = false;
    cmd.required = (const char *const[]){"beta-option", NULL};
    f = open_memstream(&text, &len);
    cli_print_help(f, &cmd);
    fclose(f);
    assert_non_null(strstr(text, "usage: csmacd test [--alpha-option FILE] --beta-option FILE\n"
                                 "       [--gamma-option FILE] [--delta-option]\n"));
    assert_null(strstr(text, "--hidden"));
    free(text);
}

static void test_clean_message(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        {"lab.ini:3: unknown key 'x'", "lab.ini:3: unknown key 'x'"},
        {"a\nb\033[2J: No such file", "a?b?[2J: No such file"},
        {"\xff\xfe.ini", "??.ini"},
        {"r\xc3\xa9sum\xc3\xa9.ini", "r\xc3\xa9sum\xc3\xa9.ini"}, /* é kept */
        {"\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80"},
        {"\xc2\x9b""2J", "??2J"},       /* C1 CSI */
        {"\xc0\xaf", "??"},             /* overlong '/' */
        {"\xed\xa0\x80", "???"},       /* a surrogate */
        {"\xe2\x82", "??"},             /* cut short at the end */
        {"tab\there\x7f", "tab?here?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i].in);
        cli_clean_message(buf);
        assert_string_equal(buf, cases[i].out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_are_keys), cmocka_unit_test(test_layers),
        cmocka_unit_test(test_command_options),  cmocka_unit_test(test_scenario_file_out),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_clean_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
