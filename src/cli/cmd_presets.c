/* cmd_presets.c - `csmacd presets`: the built-in experiments, one line
 * each (name and purpose); `--show NAME` prints one preset's INI file, the
 * starting point of a scenario of one's own (presets.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "exit_status.h"
#include "presets.h"

enum { OPT_SHOW = 1 };

static const cli_option presets_options[] = {
    {"show", CLI_ARG_REQUIRED, "NAME", "print the preset's scenario file", OPT_SHOW},
};

static int on_option(void *ctx, int id, const char *value, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    if (id == OPT_SHOW)
        *(const char **)ctx = value;
    return 0;
}

int cmd_presets_main(int argc, char **argv)
{
    const char *show = NULL;
    const cli_command cmd = {
        .name = "presets",
        .summary = "Lists the built-in experiments, one line each; run one with\n"
                   "`csmacd sweep --preset NAME --csv FILE [--plot FILE.svg]` (command-line\n"
                   "options override the preset's). `csmacd run --preset NAME` and `csmacd tui\n"
                   "--preset NAME` take one point of it, the first of its sweep (and say\n"
                   "which); the file --show prints is a scenario file of that point too, to\n"
                   "edit and give to --scenario.",
        .options = presets_options,
        .n_options = sizeof presets_options / sizeof presets_options[0],
        .scenario_options = false,
        .on_option = on_option,
        .ctx = &show,
    };
    char err[1024];
    scenario sc;
    scenario_defaults(&sc);
    cli_status st = cli_parse(&cmd, argc, argv, &sc, err, sizeof err);
    scenario_free(&sc);
    if (st != CLI_OK)
        return cli_parse_exit(st, err);
    if (show != NULL) {
        preset p;
        if (preset_load(show, &p, err, sizeof err) != 0) {
            cli_error("--show: %s", err);
            return EXIT_STATUS_USAGE;
        }
        fputs(p.text, stdout);
    } else {
        for (size_t i = 0; i < preset_count(); i++) {
            preset p;
            if (preset_load(preset_name_at(i), &p, err, sizeof err) != 0) {
                cli_error("%s", err);
                return EXIT_STATUS_RUNTIME;
            }
            printf("%-20s %s\n", p.name, p.summary);
        }
    }
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno == EPIPE)
            return EXIT_STATUS_SIGPIPE; /* the reader left (`| head`): silent */
        cli_error("standard output: write error");
        return EXIT_STATUS_RUNTIME;
    }
    return EXIT_STATUS_OK;
}
