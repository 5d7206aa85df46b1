/* fuzz_scenario.c - libFuzzer harness for scenario keys and scenario files
 * (scenario.h).
 *
 * Each input is used twice:
 *   1. as "key=value" lines, each given to scenario_set (a line without
 *      '=' is a key with an empty value), then scenario_finish;
 *   2. as the text of an INI file, read by scenario_load_file from a memfd
 *      through /proc/self/fd/N, then scenario_finish.
 * What must hold besides ASan and UBSan: a failure leaves one message of
 * printable ASCII (no line break, no byte of the input echoed raw: the
 * message goes to the user's terminal), and a success leaves a scenario
 * that scenario_copy and scenario_free handle.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_scenario -runs=20000 build/tests/fuzz-scenario-corpus \
 *       tests/fuzz/corpus-scenario
 * Long run (the corpus grows under ~/.cache/csmacd-fuzz):
 *   tests/fuzz/run.sh 1h scenario   (tests/fuzz/README.md)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void finish(scenario *sc)
{
    char err[1024], warn[1024];
    err[0] = warn[0] = '\0';
    if (scenario_finish(sc, err, sizeof err, warn, sizeof warn) != 0) {
        fuzz_check_ascii(err);
    } else {
        /* Remarks are one per line (the program prints each on its own). */
        for (char *line = warn, *next; line != NULL && *line != '\0'; line = next) {
            next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            fuzz_check_ascii(line);
        }
        scenario copy;
        if (scenario_copy(&copy, sc) == 0)
            scenario_free(&copy);
    }
}

static void as_keys(const uint8_t *data, size_t size)
{
    scenario sc;
    scenario_defaults(&sc);
    char *text = malloc(size + 1);
    if (text == NULL)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    int failed = 0;
    for (char *line = text, *next; line != NULL && !failed; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *eq = strchr(line, '=');
        const char *value = "";
        if (eq != NULL) {
            *eq = '\0';
            value = eq + 1;
        }
        char err[1024];
        err[0] = '\0';
        if (scenario_set(&sc, line, value, err, sizeof err) != 0) {
            fuzz_check_ascii(err);
            failed = 1;
        }
    }
    if (!failed)
        finish(&sc);
    scenario_free(&sc);
    free(text);
}

static void as_file(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-scenario", 0);
    if (fd < 0)
        return;
    if (size > 0 && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    scenario sc;
    scenario_defaults(&sc);
    char err[1024];
    err[0] = '\0';
    if (scenario_load_file(&sc, path, err, sizeof err) != 0)
        fuzz_check_ascii(err);
    else
        finish(&sc);
    scenario_free(&sc);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_keys(data, size);
    as_file(data, size);
    return 0;
}
