/* fuzz_parse.c - libFuzzer harness for the value syntaxes (parse.h):
 * TIME, METRES, RATE, BOOL, integers, decimals and the three LISTs.
 *
 * The first input byte picks the parser, the rest is the value text
 * (NUL-terminated copy). Besides ASan and UBSan, it checks each parser's
 * contract: an accepted value lies in the bounds asked for, a LIST has
 * 1..PARSE_LIST_MAX items each in bounds, a time formats back with
 * parse_format_time and parses to the same picoseconds; a refused value
 * leaves one message of printable ASCII.
 *
 * Build and run (the build does it when clang can link libFuzzer; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_parse -runs=20000 build/tests/fuzz-parse-corpus tests/fuzz/corpus-parse
 * Long run (the corpus grows under ~/.cache/csmacd-fuzz):
 *   tests/fuzz/run.sh 1h parse   (tests/fuzz/README.md)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int rc, const char *err, int ok)
{
    if (rc != 0)
        fuzz_check_ascii(err);
    else if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t which = data[0];
    char *text = malloc(size);
    if (text == NULL)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char err[512];
    err[0] = '\0';
    int rc;
    switch (which % 10) {
    case 0: {
        uint64_t v = 0;
        rc = parse_u64(text, 3, 1000000, &v, err, sizeof err);
        check(rc, err, v >= 3 && v <= 1000000);
        rc = parse_u64(text, 0, UINT64_MAX, &v, err, sizeof err);
        check(rc, err, 1);
        break;
    }
    case 1: {
        uint32_t v = 0;
        rc = parse_u32(text, 1, 10000, &v, err, sizeof err);
        check(rc, err, v >= 1 && v <= 10000);
        break;
    }
    case 2: {
        double v = 0;
        rc = parse_double(text, -1.0, 1e6, &v, err, sizeof err);
        check(rc, err, isfinite(v) && v >= -1.0 && v <= 1e6);
        break;
    }
    case 3: {
        sim_time ps = -1;
        rc = parse_time_ps(text, &ps, err, sizeof err);
        check(rc, err, ps >= 0);
        if (rc == 0) {
            char buf[64], err2[512];
            sim_time back = -1;
            parse_format_time(ps, buf, sizeof buf);
            if (parse_time_ps(buf, &back, err2, sizeof err2) != 0 || back != ps)
                abort();
        }
        break;
    }
    case 4: {
        double m = -1;
        rc = parse_metres(text, 1e7, &m, err, sizeof err);
        check(rc, err, m >= 0 && m <= 1e7);
        break;
    }
    case 5: {
        uint64_t bps = 0;
        rc = parse_rate_bps(text, 1000, 100000000000ull, &bps, err, sizeof err);
        check(rc, err, bps >= 1000 && bps <= 100000000000ull);
        break;
    }
    case 6: {
        bool b;
        rc = parse_bool(text, &b, err, sizeof err);
        check(rc, err, 1);
        break;
    }
    case 7: {
        uint64_t *v = NULL;
        size_t n = 0;
        rc = parse_list_u64(text, 1, 10000, &v, &n, err, sizeof err);
        check(rc, err, n >= 1 && n <= PARSE_LIST_MAX);
        for (size_t i = 0; rc == 0 && i < n; i++)
            if (v[i] < 1 || v[i] > 10000)
                abort();
        free(v);
        break;
    }
    case 8: {
        double *v = NULL;
        size_t n = 0;
        rc = parse_list_double(text, 0.0, 100.0, &v, &n, err, sizeof err);
        check(rc, err, n >= 1 && n <= PARSE_LIST_MAX);
        for (size_t i = 0; rc == 0 && i < n; i++)
            if (!(v[i] >= 0.0 && v[i] <= 100.0))
                abort();
        free(v);
        break;
    }
    default: {
        char **w = NULL;
        size_t n = 0;
        rc = parse_list_words(text, &w, &n, err, sizeof err);
        check(rc, err, n >= 1);
        if (rc == 0)
            parse_list_free_words(w, n);
        char echo[64];
        parse_echo(text, echo, sizeof echo);
        if (strlen(echo) >= sizeof echo)
            abort();
        for (const unsigned char *p = (const unsigned char *)echo; *p; p++)
            if (*p < 0x20 || *p > 0x7e)
                abort();
        break;
    }
    }
    free(text);
    return 0;
}
