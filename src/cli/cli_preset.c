/* cli_preset.c - the command line's preset layer (cli.h, cli_presets):
 * `--preset NAME` and a preset's file given as --scenario FILE, each run
 * as one scenario, the first point of the preset's sweep
 * (presets.h, preset_first_point). Apart from cli.c so that the shared
 * command line needs no sweep library: a command takes presets by
 * pointing its cli_command.presets at cli_preset_layer.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "presets.h"

/* The text of a file that is a preset's (it has a [preset] section:
 * `csmacd presets --show NAME` wrote it), or NULL for any other file
 * (read as a scenario file, which says what is wrong with it) and for
 * what is not a regular file (a pipe is read once, by the scenario's
 * reader). */
static char *preset_file_text(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text != NULL && n + 1 < cap) {
        size_t got = fread(text + n, 1, cap - 1 - n, f);
        if (got == 0)
            break;
        n += got;
    }
    bool whole = feof(f) && !ferror(f);
    fclose(f);
    if (text == NULL || !whole) { /* a preset's file is small */
        free(text);
        return NULL;
    }
    text[n] = '\0';
    if (strlen(text) != n || !preset_text_is_preset(text)) {
        free(text);
        return NULL;
    }
    return text;
}

static bool is_file(const char *path)
{
    char *text = preset_file_text(path);
    free(text);
    return text != NULL;
}

/* The point is said on standard error (or given to the command:
 * cli_command.preset_point) so that a run's numbers are never taken for
 * the sweep's. */
static int apply(const cli_command *cmd, const char *name, bool file, const char *stations,
                 scenario *sc, char *err, size_t errlen)
{
    preset *pr = malloc(sizeof *pr);
    char *text = file ? preset_file_text(name) : NULL;
    char point[512], reason[1024];
    int rc = -1;
    if (pr == NULL || (file && text == NULL)) {
        snprintf(err, errlen, "%s", pr == NULL ? "out of memory" : "cannot read it again");
        goto done;
    }
    if (file ? preset_parse_text(name, text, pr, reason, sizeof reason) != 0
             : preset_load(name, pr, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s%s", file ? "" : "--preset: ", reason);
        goto done;
    }
    if (preset_first_point(pr, stations, sc, point, sizeof point, reason, sizeof reason) != 0) {
        snprintf(err, errlen, "%s", reason);
        goto done;
    }
    if (point[0] == '\0')
        ;
    else if (cmd->preset_point != NULL)
        snprintf(cmd->preset_point, cmd->preset_point_len,
                 "preset %s: one point, the first of its sweep: %s", name, point);
    else
        cli_note("preset %s: one point, the first of its sweep: %s", name, point);
    rc = 0;
done:
    free(text);
    free(pr);
    return rc;
}

const cli_presets cli_preset_layer = {is_file, apply};
