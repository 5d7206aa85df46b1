/* fuzz_common.h - what the harnesses of the program's surfaces check about
 * a message: what the user sees, not the raw buffer.
 *
 * The program prints every message through cli_error / cli_warn
 * (cli.h), which clean it first: control bytes, bytes that are not UTF-8
 * and the C1 controls become '?', valid UTF-8 is kept. So a message that
 * echoes a file name with an escape byte is fine as long as the PRINTED
 * line is. These helpers capture standard error (or standard output) in
 * memory for one call, and check what was printed, with a UTF-8 decoder of
 * their own (not the program's cleaner, which they check).
 *
 * A harness that captures swaps the stdio stream, not the descriptor:
 * AddressSanitizer and libFuzzer write their reports to descriptor 2
 * directly, so a crash report is never swallowed by the capture.
 *
 * The checks every harness makes of a message live here, once: a model's
 * message (fuzz_check_ascii), a refusal and cli_finish as printed
 * (fuzz_check_refusal, fuzz_finish: for the harnesses that include cli.h
 * first), and the silenced standard input and output.
 *
 * Header-only (static functions), so each harness stays one file.
 */
#ifndef CSMACD_FUZZ_COMMON_H
#define CSMACD_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The length of the UTF-8 sequence at s that a terminal shows as text:
 * 1 for printable ASCII, 2-4 for a well-formed sequence of a code point
 * that is not a C1 control (U+0080-U+009F), a surrogate or beyond U+10FFFF;
 * 0 for anything else (control bytes, DEL, broken or overlong sequences). */
static size_t fuzz_utf8_char(const unsigned char *s)
{
    if (s[0] >= 0x20 && s[0] < 0x7f)
        return 1;
    size_t n;
    unsigned cp;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        cp = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        cp = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    static const unsigned min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
        (cp >= 0x80 && cp <= 0x9f))
        return 0;
    return n;
}

/* A line as a terminal shows it: not empty, text only (no control byte,
 * no line break, nothing that is not UTF-8). Aborts otherwise. */
static void fuzz_check_text(const char *line, size_t len)
{
    if (len == 0)
        abort();
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < len;) {
        size_t n = fuzz_utf8_char(s + i);
        if (n == 0 || i + n > len)
            abort();
        i += n;
    }
}

/* Standard error or output captured in memory between fuzz_capture_begin
 * and fuzz_capture_end (the text, NUL-terminated, the caller frees it). */
typedef struct fuzz_capture {
    FILE *saved;
    FILE *mem;
    char *buf;
    size_t len;
} fuzz_capture;

static void fuzz_capture_begin(fuzz_capture *c, FILE **stream)
{
    c->buf = NULL;
    c->len = 0;
    c->saved = *stream;
    c->mem = open_memstream(&c->buf, &c->len);
    if (c->mem == NULL)
        abort();
    fflush(*stream);
    *stream = c->mem;
}

static char *fuzz_capture_end(fuzz_capture *c, FILE **stream, size_t *len)
{
    *stream = c->saved;
    if (fclose(c->mem) != 0)
        abort();
    *len = c->len;
    return c->buf;
}

/* Checks what the program printed on standard error: lines each ended by
 * '\n', each "csmacd: " then text (fuzz_check_text). Returns the number of
 * error lines (those that are not "csmacd: warning: " or a note the caller
 * does not count: every line counts unless it is a warning). */
static size_t fuzz_check_printed(const char *text, size_t len)
{
    size_t errors = 0;
    const char *p = text, *end = text + len;
    if (len > 0 && end[-1] != '\n')
        abort(); /* a message without its line end */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            abort();
        if ((size_t)(nl - p) <= 8 || memcmp(p, "csmacd: ", 8) != 0)
            abort();
        fuzz_check_text(p + 8, (size_t)(nl - p) - 8);
        if ((size_t)(nl - p) < 17 || memcmp(p, "csmacd: warning: ", 17) != 0)
            errors++;
        p = nl + 1;
    }
    return errors;
}

/* A message the model returns (a parser's, a scenario's): one line of
 * printable ASCII, not empty. Aborts otherwise. */
static void fuzz_check_ascii(const char *msg)
{
    if (msg[0] == '\0')
        abort();
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            abort();
}

/* CSMACD_FUZZ_VERBOSE=1 in the environment: the harnesses tell what
 * each input did on standard error (to read a reproducer's story). */
static bool fuzz_verbose(void)
{
    static int v = -1;
    if (v < 0)
        v = getenv("CSMACD_FUZZ_VERBOSE") != NULL;
    return v;
}

/* What the program printed, told when verbose. */
static void fuzz_tell(const char *printed)
{
    if (fuzz_verbose() && printed[0] != '\0')
        fprintf(stderr, "%s", printed);
}

/* Standard input and output to /dev/null (LLVMFuzzerInitialize): what the
 * program would print there is not the harness's to show. */
static void fuzz_silence_stdio(void)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        close(null);
    }
}

/* The harnesses that link the command line (cli.h included before this
 * file): a refusal and cli_finish as the program prints them. */
#ifdef CSMACD_CLI_H
/* A refusal as printed by cli_error: exactly one error line of text
 * (told when verbose). Aborts otherwise. */
static void fuzz_check_refusal(const char *msg)
{
    if (msg[0] == '\0')
        abort();
    fuzz_capture cap;
    fuzz_capture_begin(&cap, &stderr);
    cli_error("%s", msg);
    size_t len;
    char *out = fuzz_capture_end(&cap, &stderr, &len);
    if (fuzz_check_printed(out, len) != 1)
        abort();
    fuzz_tell(out);
    free(out);
}

/* cli_finish with its warnings printed, then its refusal (err, errlen)
 * through cli_error: no error line when it succeeds, exactly one when it
 * refuses, and a refusal has a reason. Returns cli_finish's status;
 * what was printed goes to *printed (the caller frees it) when printed
 * is not NULL. */
static int fuzz_finish(scenario *sc, char *err, size_t errlen, char **printed, size_t *plen)
{
    err[0] = '\0';
    fuzz_capture cap;
    fuzz_capture_begin(&cap, &stderr);
    int rc = cli_finish(sc, err, errlen);
    if (rc != 0)
        cli_error("%s", err);
    size_t len;
    char *out = fuzz_capture_end(&cap, &stderr, &len);
    if (fuzz_check_printed(out, len) != (rc != 0 ? 1u : 0u) || (rc != 0 && err[0] == '\0'))
        abort();
    fuzz_tell(out);
    if (printed != NULL) {
        *printed = out;
        *plen = len;
    } else {
        free(out);
    }
    return rc;
}
#endif

#endif
