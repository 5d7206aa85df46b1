/* cmd_check.c - `csmacd check`: a scenario's network checked against
 * 802.3's delay budget, without running it (src/cli/CLI.md, "csmacd
 * check"). It reads the scenario options as run does, finishes the
 * scenario (every refusal is run's: exit 2) and prints the segments, the
 * repeaters, the worst path, its path delay value against the standard's
 * limit and the simulation's own round trip, and the verdict. Over budget
 * is a verdict, not an error: exit 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "exit_status.h"
#include "netreport.h"
#include "replay.h"

int cmd_check_main(int argc, char **argv)
{
    const cli_command cmd = {
        .name = "check",
        .summary = "Checks a scenario's network of segments against IEEE 802.3's delay budget\n"
                   "(Clause 13 at 10 Mb/s, Clause 29 at 100 Mb/s, one repeater at 1 Gb/s) without\n"
                   "running it: the segments, the repeaters, the worst path's path delay value\n"
                   "and its limit, the simulation's own round trip, and the verdict. Without\n"
                   "[segment] sections the one bus or star is checked as a single segment.\n"
                   "Each collision domain is judged at its own rate (a [segment]'s phy).\n"
                   "Over budget is reported, not refused (exit 0).",
        .scenario_options = true,
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
    /* A replayed capture is read as run reads it: a file that cannot be
     * read is the input's fault (exit 2), as in run. */
    if (sc.traffic.kind == TRAFFIC_PCAP) {
        struct replay *rp = NULL;
        int loaded = engine_load_replay(&sc, &rp, err, sizeof err);
        replay_destroy(rp);
        if (loaded != 0) {
            cli_error("%s", err);
            scenario_free(&sc);
            return loaded == ENGINE_NO_MEMORY ? EXIT_STATUS_RUNTIME : EXIT_STATUS_USAGE;
        }
    }
    errno = 0;
    int rc = netreport_write_check(stdout, &sc);
    scenario_free(&sc);
    if (rc == 0 && fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_STATUS_OK;
    if (errno == EPIPE)
        return EXIT_STATUS_SIGPIPE; /* the reader left (`| head`): silent */
    cli_error("standard output: %s", strerror(errno ? errno : EIO));
    return EXIT_STATUS_RUNTIME;
}
