/* cmd_check.c - `csmacd check`: a scenario's network checked against
 * 802.3's delay budget, without running it (src/cli/CLI.md, "csmacd
 * check"). It reads the scenario options as run does, finishes the
 * scenario and builds it as run would (every refusal is run's: exit 2; a
 * replayed capture is read, since its source addresses are the
 * stations), and prints the segments, the repeaters, the worst path, its
 * path delay value against the standard's limit and the simulation's own
 * round trip, and the verdict; with --format json the object of run's
 * JSON `network` (netreport.h). Over budget is a verdict, not an error:
 * exit 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "exit_status.h"
#include "netreport.h"
#include "parse.h"

enum { OPT_FORMAT = 1 };

static int on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    bool *json = ctx;
    (void)id; /* --format, the one option */
    if (strcmp(value, "text") != 0 && strcmp(value, "json") != 0) {
        char q[64];
        snprintf(err, errlen, "unknown format '%s' (text, json)", parse_echo(value, q, sizeof q));
        return -1;
    }
    *json = strcmp(value, "json") == 0;
    return 0;
}

int cmd_check_main(int argc, char **argv)
{
    static const cli_option options[] = {
        {"format", CLI_ARG_REQUIRED, "text|json",
         "how to print it (text; json: the network object of run's JSON)", OPT_FORMAT},
    };
    bool json = false;
    const cli_command cmd = {
        .name = "check",
        .summary = "Checks a scenario's network of segments against IEEE 802.3's delay budget\n"
                   "(Clause 13 at 10 Mb/s, Clause 29 at 100 Mb/s, one repeater at 1 Gb/s) without\n"
                   "running it: the segments, the repeaters, the worst path's path delay value\n"
                   "and its limit, the simulation's own round trip, and the verdict. Without\n"
                   "[segment] sections the one bus or star is checked as a single segment; a\n"
                   "replayed capture's stations are its source addresses. Each collision domain\n"
                   "is judged at its own rate (a [segment]'s phy); a bridge's or a switch's port\n"
                   "on a half-duplex segment is an end of its paths, as a station is.\n"
                   "Over budget is reported, not refused (exit 0).",
        .options = options,
        .n_options = sizeof options / sizeof options[0],
        .scenario_options = true,
        .presets = &cli_preset_layer,
        .on_option = on_option,
        .ctx = &json,
        .network_keys = true,
    };
    char err[1024];
    scenario sc;
    scenario_defaults(&sc);
    cli_status st = cli_parse(&cmd, argc, argv, &sc, err, sizeof err);
    if (st != CLI_OK) {
        scenario_free(&sc);
        return cli_parse_exit(st, err);
    }
    if (cli_finish(&sc, err, sizeof err) != 0) {
        cli_error("%s", err);
        scenario_free(&sc);
        return EXIT_STATUS_USAGE;
    }
    /* Built as run builds it: a replayed capture sets the stations. */
    engine *e = NULL;
    int created = engine_create(&sc, &e, err, sizeof err);
    scenario_free(&sc);
    if (created != 0) {
        cli_error("%s", err);
        return created == ENGINE_NO_MEMORY ? EXIT_STATUS_RUNTIME : EXIT_STATUS_USAGE;
    }
    errno = 0;
    int rc = json ? netreport_write_json(stdout, engine_scenario(e))
                  : netreport_write_check(stdout, engine_scenario(e));
    engine_destroy(e);
    if (rc == 0 && fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_STATUS_OK;
    if (errno == EPIPE)
        return EXIT_STATUS_SIGPIPE; /* the reader left (`| head`): silent */
    cli_error("standard output: %s", strerror(errno ? errno : EIO));
    return EXIT_STATUS_RUNTIME;
}
