/* parse.c - exact parsing of numbers, times, rates and lists (parse.h).
 *
 * The core is exact_read: a decimal number is read as an integer mantissa
 * and a power of ten, so a TIME becomes picoseconds by integer
 * multiplication and division only. A value that would need rounding
 * (finer than the unit of the result) or that does not fit is refused.
 * Texts echoed in messages are shortened and stripped of control bytes, so
 * a hostile argument cannot forge lines on the user's terminal.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECHO_MAX 48

const char *parse_echo(const char *s, char *buf, size_t buflen)
{
    size_t j = 0;
    for (size_t i = 0; s[i] != '\0' && j + 4 < buflen; i++) {
        if (i == ECHO_MAX) {
            memcpy(buf + j, "...", 3);
            j += 3;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        buf[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    buf[j] = '\0';
    return buf;
}

typedef enum exact_status {
    EXACT_OK = 0,
    EXACT_SYNTAX,   /* not a decimal number */
    EXACT_DIGITS,   /* more significant digits than 64 bits hold */
    EXACT_RANGE,    /* does not fit the result */
    EXACT_FRACTION, /* finer than the result's unit */
} exact_status;

/* Whether m * 10 + d fits in 64 bits. */
static bool fits_digit(uint64_t m, unsigned d)
{
    return m < UINT64_MAX / 10 || (m == UINT64_MAX / 10 && d <= UINT64_MAX % 10);
}

/* Reads [+-]digits[.digits][(e|E)[+-]digits] from s[0, len): the value is
 * (*neg ? -1 : 1) * *mant * 10^*exp10, with *mant free of trailing zeros. */
static exact_status exact_read(const char *s, size_t len, uint64_t *mant, int *exp10,
                               bool *neg)
{
    size_t i = 0;
    uint64_t m = 0;
    long e = 0;
    bool any_digit = false;

    *neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        *neg = s[i] == '-';
        i++;
    }
    for (; i < len && isdigit((unsigned char)s[i]); i++) {
        unsigned d = (unsigned)(s[i] - '0');
        any_digit = true;
        if (fits_digit(m, d))
            m = m * 10 + d;
        else if (d != 0)
            return EXACT_DIGITS;
        else
            e++;
    }
    if (i < len && s[i] == '.') {
        i++;
        for (; i < len && isdigit((unsigned char)s[i]); i++) {
            unsigned d = (unsigned)(s[i] - '0');
            any_digit = true;
            if (fits_digit(m, d)) {
                m = m * 10 + d;
                e--;
            } else if (d != 0) {
                return EXACT_DIGITS;
            }
        }
    }
    if (!any_digit)
        return EXACT_SYNTAX;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        bool eneg = false;
        long x = 0;
        bool any_exp = false;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        for (; i < len && isdigit((unsigned char)s[i]); i++) {
            any_exp = true;
            if (x < 100000)
                x = x * 10 + (s[i] - '0');
        }
        if (!any_exp)
            return EXACT_SYNTAX;
        e += eneg ? -x : x;
    }
    if (i != len)
        return EXACT_SYNTAX;
    while (m != 0 && m % 10 == 0) {
        m /= 10;
        e++;
    }
    if (m == 0)
        e = 0;
    if (e > 100000)
        e = 100000;
    if (e < -100000)
        e = -100000;
    *mant = m;
    *exp10 = (int)e;
    return EXACT_OK;
}

/* mant * 10^exp10 * mult * 10^pow10 as an exact unsigned integer. */
static exact_status exact_scale(uint64_t mant, int exp10, uint64_t mult, int pow10,
                                uint64_t *out)
{
    if (mant != 0 && mult > UINT64_MAX / mant)
        return EXACT_RANGE;
    uint64_t p = mant * mult;
    long f = (long)exp10 + pow10;
    if (p == 0) {
        *out = 0;
        return EXACT_OK;
    }
    for (; f > 0; f--) {
        if (p > UINT64_MAX / 10)
            return EXACT_RANGE;
        p *= 10;
    }
    for (; f < 0; f++) {
        if (p % 10 != 0)
            return EXACT_FRACTION;
        p /= 10;
    }
    *out = p;
    return EXACT_OK;
}

int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *err,
              size_t errlen)
{
    char e[ECHO_MAX + 8];
    uint64_t m = 0, v = 0;
    int x = 0;
    bool neg = false;
    exact_status st = exact_read(text, strlen(text), &m, &x, &neg);
    if (st == EXACT_OK && neg && m != 0)
        st = EXACT_RANGE;
    if (st == EXACT_OK)
        st = exact_scale(m, x, 1, 0, &v);
    if (st == EXACT_OK && (v < min || v > max))
        st = EXACT_RANGE;
    switch (st) {
    case EXACT_OK:
        *out = v;
        return 0;
    case EXACT_FRACTION:
        snprintf(err, errlen, "%s is not a whole number", parse_echo(text, e, sizeof e));
        return -1;
    case EXACT_RANGE:
    case EXACT_DIGITS:
        snprintf(err, errlen, "%s is out of range (%llu to %llu)", parse_echo(text, e, sizeof e),
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    case EXACT_SYNTAX:
    default:
        snprintf(err, errlen, "'%s' is not a whole number", parse_echo(text, e, sizeof e));
        return -1;
    }
}

int parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out, char *err,
              size_t errlen)
{
    uint64_t v = 0;
    if (parse_u64(text, min, max, &v, err, errlen) != 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* strtod over the whole text, refusing blanks, hex, inf and nan. */
static int read_double(const char *text, size_t len, double *out)
{
    char buf[128];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        if (!(isdigit((unsigned char)c) || c == '.' || c == '+' || c == '-' || c == 'e' ||
              c == 'E'))
            return -1;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || buf[0] == '\0')
        return -1;
    if (errno == ERANGE && fabs(v) > 1.0)
        v = v > 0 ? HUGE_VAL : -HUGE_VAL;
    *out = v;
    return 0;
}

int parse_double(const char *text, double min, double max, double *out, char *err,
                 size_t errlen)
{
    char e[ECHO_MAX + 8];
    double v = 0;
    if (read_double(text, strlen(text), &v) != 0) {
        snprintf(err, errlen, "'%s' is not a number", parse_echo(text, e, sizeof e));
        return -1;
    }
    if (!isfinite(v) || v < min || v > max) {
        snprintf(err, errlen, "%s is out of range (%g to %g)", parse_echo(text, e, sizeof e), min,
                 max);
        return -1;
    }
    *out = v;
    return 0;
}

typedef struct time_unit {
    const char *suffix;
    uint64_t mult; /* the unit is mult * 10^pow10 picoseconds */
    int pow10;
} time_unit;

/* Longer suffixes first: "ms" must not be read as "m" + "s". */
static const time_unit time_units[] = {
    {"min", 6, 13}, {"ms", 1, 9}, {"us", 1, 6}, {"ns", 1, 3}, {"ps", 1, 0},
    {"s", 1, 12},   {"h", 36, 14},
};

int parse_time_ps(const char *text, sim_time *out_ps, char *err, size_t errlen)
{
    char e[ECHO_MAX + 8];
    size_t len = strlen(text);
    const time_unit *u = &time_units[5]; /* a bare number is seconds */
    for (size_t i = 0; i < sizeof time_units / sizeof time_units[0]; i++) {
        size_t sl = strlen(time_units[i].suffix);
        if (len > sl && strcmp(text + len - sl, time_units[i].suffix) == 0) {
            u = &time_units[i];
            len -= sl;
            break;
        }
    }
    uint64_t m = 0, v = 0;
    int x = 0;
    bool neg = false;
    exact_status st = exact_read(text, len, &m, &x, &neg);
    if (st == EXACT_OK && neg && m != 0) {
        snprintf(err, errlen, "%s is negative", parse_echo(text, e, sizeof e));
        return -1;
    }
    if (st == EXACT_OK)
        st = exact_scale(m, x, u->mult, u->pow10, &v);
    if (st == EXACT_OK && v > (uint64_t)PARSE_MAX_TIME_PS)
        st = EXACT_RANGE;
    switch (st) {
    case EXACT_OK:
        *out_ps = (sim_time)v;
        return 0;
    case EXACT_FRACTION:
        snprintf(err, errlen, "%s is finer than one picosecond", parse_echo(text, e, sizeof e));
        return -1;
    case EXACT_RANGE:
    case EXACT_DIGITS:
        snprintf(err, errlen, "%s is out of range (at most 2400h)", parse_echo(text, e, sizeof e));
        return -1;
    case EXACT_SYNTAX:
    default:
        snprintf(err, errlen, "'%s' is not a time (e.g. 2s, 500ms, 10us, 1.5min)",
                 parse_echo(text, e, sizeof e));
        return -1;
    }
}

int parse_metres(const char *text, double max_m, double *out_m, char *err, size_t errlen)
{
    char e[ECHO_MAX + 8];
    size_t len = strlen(text);
    double mult = 1.0;
    if (len > 2 && strcmp(text + len - 2, "km") == 0) {
        mult = 1000.0;
        len -= 2;
    } else if (len > 1 && text[len - 1] == 'm') {
        len -= 1;
    }
    double v = 0;
    if (read_double(text, len, &v) != 0) {
        snprintf(err, errlen, "'%s' is not a length in metres", parse_echo(text, e, sizeof e));
        return -1;
    }
    v *= mult;
    if (!isfinite(v) || v < 0.0 || v > max_m) {
        snprintf(err, errlen, "%s is out of range (0 to %g m)", parse_echo(text, e, sizeof e), max_m);
        return -1;
    }
    *out_m = v;
    return 0;
}

int parse_rate_bps(const char *text, uint64_t min_bps, uint64_t max_bps, uint64_t *out_bps,
                   char *err, size_t errlen)
{
    char e[ECHO_MAX + 8];
    size_t len = strlen(text);
    int pow10 = 0;
    if (len > 3 && (strcmp(text + len - 3, "b/s") == 0 || strcmp(text + len - 3, "bps") == 0))
        len -= 3;
    if (len > 1) {
        switch (text[len - 1]) {
        case 'k': case 'K': pow10 = 3; len--; break;
        case 'M': pow10 = 6; len--; break;
        case 'G': pow10 = 9; len--; break;
        default: break;
        }
    }
    uint64_t m = 0, v = 0;
    int x = 0;
    bool neg = false;
    exact_status st = exact_read(text, len, &m, &x, &neg);
    if (st == EXACT_OK && neg && m != 0)
        st = EXACT_RANGE;
    if (st == EXACT_OK)
        st = exact_scale(m, x, 1, pow10, &v);
    if (st == EXACT_OK && (v < min_bps || v > max_bps))
        st = EXACT_RANGE;
    switch (st) {
    case EXACT_OK:
        *out_bps = v;
        return 0;
    case EXACT_FRACTION:
        snprintf(err, errlen, "%s is not a whole number of bits per second",
                 parse_echo(text, e, sizeof e));
        return -1;
    case EXACT_RANGE:
    case EXACT_DIGITS:
        snprintf(err, errlen, "%s is out of range (%llu to %llu b/s)", parse_echo(text, e, sizeof e),
                 (unsigned long long)min_bps, (unsigned long long)max_bps);
        return -1;
    case EXACT_SYNTAX:
    default:
        snprintf(err, errlen, "'%s' is not a bit rate (e.g. 10M, 100Mb/s, 1G)",
                 parse_echo(text, e, sizeof e));
        return -1;
    }
}

int parse_bool(const char *text, bool *out, char *err, size_t errlen)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    char e[ECHO_MAX + 8];
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(text, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcmp(text, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    snprintf(err, errlen, "'%s' is not yes or no", parse_echo(text, e, sizeof e));
    return -1;
}

void parse_format_time(sim_time ps, char *buf, size_t buflen)
{
    static const struct { const char *name; uint64_t ps; int digits; } units[] = {
        {"s", 1000000000000ULL, 12}, {"ms", 1000000000ULL, 9}, {"us", 1000000ULL, 6},
        {"ns", 1000ULL, 3},          {"ps", 1ULL, 0},
    };
    if (ps <= 0) {
        snprintf(buf, buflen, "%s0s", ps < 0 ? "-" : "");
        if (ps == 0)
            return;
    }
    uint64_t v = ps < 0 ? 0 : (uint64_t)ps;
    size_t k = 0;
    while (k + 1 < sizeof units / sizeof units[0] && v < units[k].ps)
        k++;
    uint64_t whole = v / units[k].ps, frac = v % units[k].ps;
    if (frac == 0) {
        snprintf(buf, buflen, "%llu%s", (unsigned long long)whole, units[k].name);
        return;
    }
    char f[16];
    snprintf(f, sizeof f, "%0*llu", units[k].digits, (unsigned long long)frac);
    size_t fl = strlen(f);
    while (fl > 0 && f[fl - 1] == '0')
        f[--fl] = '\0';
    snprintf(buf, buflen, "%llu.%s%s", (unsigned long long)whole, f, units[k].name);
}

/* A growable array of items for the list parsers. */
typedef struct list_buf {
    void *items;
    size_t n, cap, size;
} list_buf;

static int list_push(list_buf *b, const void *item)
{
    if (b->n == PARSE_LIST_MAX)
        return -1;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        void *p = realloc(b->items, cap * b->size);
        if (p == NULL)
            return -1;
        b->items = p;
        b->cap = cap;
    }
    memcpy((char *)b->items + b->n * b->size, item, b->size);
    b->n++;
    return 0;
}

/* Splits item "A..B[:S]" into its three parts (copies into a, b, s).
 * Returns 1 for a range, 0 for a plain value, -1 when too long. */
static int split_range(const char *item, size_t len, char *a, char *b, char *s, size_t cap)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (item[i] == '.' && item[i + 1] == '.') {
            dots = item + i;
            break;
        }
    if (len >= cap)
        return -1;
    if (dots == NULL) {
        memcpy(a, item, len);
        a[len] = '\0';
        return 0;
    }
    size_t al = (size_t)(dots - item);
    memcpy(a, item, al);
    a[al] = '\0';
    const char *rest = dots + 2;
    size_t rl = len - al - 2;
    const char *colon = memchr(rest, ':', rl);
    size_t bl = colon ? (size_t)(colon - rest) : rl;
    memcpy(b, rest, bl);
    b[bl] = '\0';
    if (colon) {
        size_t sl = rl - bl - 1;
        memcpy(s, colon + 1, sl);
        s[sl] = '\0';
    } else {
        s[0] = '\0';
    }
    return 1;
}

static int too_many(char *err, size_t errlen)
{
    snprintf(err, errlen, "the list has more than %u items (or no memory)", PARSE_LIST_MAX);
    return -1;
}

/* Splits the next comma-separated item of `text`, at *p, into a, hi and
 * step (split_range), and moves *p past it: to the next item, or NULL
 * after the last. Returns the item's kind (0 a value, else a range), or -1
 * with a message in err. */
static int next_item(const char **p, const char *text, char *a, char *hi, char *step,
                     size_t size, char *err, size_t errlen)
{
    const char *comma = strchr(*p, ',');
    size_t len = comma ? (size_t)(comma - *p) : strlen(*p);
    int kind = split_range(*p, len, a, hi, step, size);
    if (len == 0 || kind < 0) {
        char e[ECHO_MAX + 8];
        snprintf(err, errlen, "'%s' has an empty or overlong item", parse_echo(text, e, sizeof e));
        return -1;
    }
    *p = comma ? comma + 1 : NULL;
    return kind;
}

/* One item of a number list, already split by next_item: pushes its
 * value, or the values of its range A..B[:STEP], onto b. Returns 0, -1
 * with a message in err, or LIST_FULL (more than PARSE_LIST_MAX items, or
 * no memory). */
#define LIST_FULL (-2)
typedef int (*list_item_fn)(list_buf *b, int kind, const char *a, const char *hi,
                            const char *step, const void *bounds, char *err, size_t errlen);

static int empty_range(const char *a, const char *hi, char *err, size_t errlen)
{
    char e[ECHO_MAX + 8];
    snprintf(err, errlen, "'%s..%s' is an empty range", parse_echo(a, e, sizeof e), hi);
    return -1;
}

/* The reader both number lists share: comma-separated items, each a value
 * or a range that `item` expands; one message for a list too long. On
 * success the caller owns *out (n items of `size` bytes). */
static int parse_list(const char *text, size_t size, list_item_fn item, const void *bounds,
                      void **out, size_t *n, char *err, size_t errlen)
{
    list_buf b = {.size = size};
    const char *p = text;
    for (;;) {
        char a[128], hi[128], step[128];
        int kind = next_item(&p, text, a, hi, step, sizeof a, err, errlen);
        if (kind < 0)
            goto fail;
        int rc = item(&b, kind, a, hi, step, bounds, err, errlen);
        if (rc == LIST_FULL)
            too_many(err, errlen);
        if (rc != 0)
            goto fail;
        if (p == NULL)
            break;
    }
    *out = b.items;
    *n = b.n;
    return 0;
fail:
    free(b.items);
    return -1;
}

typedef struct u64_bounds {
    uint64_t min, max;
} u64_bounds;

/* A..B (step 1), A..B:S (whole S >= 1) or A..B:log (doubling from A > 0),
 * each stopping at B or before the values would wrap. */
static int u64_item(list_buf *b, int kind, const char *a, const char *hi, const char *step,
                    const void *bounds, char *err, size_t errlen)
{
    const u64_bounds *r = bounds;
    uint64_t va = 0, vb = 0, vs = 1;
    if (parse_u64(a, r->min, r->max, &va, err, errlen) != 0)
        return -1;
    if (kind == 0)
        return list_push(b, &va) != 0 ? LIST_FULL : 0;
    bool log2 = strcmp(step, "log") == 0;
    if (parse_u64(hi, r->min, r->max, &vb, err, errlen) != 0)
        return -1;
    if (!log2 && step[0] != '\0' && parse_u64(step, 1, UINT64_MAX, &vs, err, errlen) != 0)
        return -1;
    if (va > vb || (log2 && va == 0))
        return empty_range(a, hi, err, errlen);
    for (uint64_t v = va;;) {
        if (list_push(b, &v) != 0)
            return LIST_FULL;
        uint64_t next = log2 ? v * 2 : v + vs;
        if ((log2 && v > UINT64_MAX / 2) || next < v || next > vb)
            break;
        v = next;
    }
    return 0;
}

int parse_list_u64(const char *text, uint64_t min, uint64_t max, uint64_t **out, size_t *n,
                   char *err, size_t errlen)
{
    u64_bounds r = {min, max};
    void *items = NULL;
    if (parse_list(text, sizeof(uint64_t), u64_item, &r, &items, n, err, errlen) != 0)
        return -1;
    *out = items;
    return 0;
}

typedef struct double_bounds {
    double min, max;
} double_bounds;

/* A..B:S (S > 0 required: a real range has no natural step) or A..B:log
 * (doubling from A > 0). The last value within 1e-9 of B (relative) is B
 * itself, so 0.1..1:0.1 ends at exactly 1. */
static int double_item(list_buf *b, int kind, const char *a, const char *hi, const char *step,
                       const void *bounds, char *err, size_t errlen)
{
    const double_bounds *r = bounds;
    char e[ECHO_MAX + 8];
    double va = 0, vb = 0, vs = 0;
    if (parse_double(a, r->min, r->max, &va, err, errlen) != 0)
        return -1;
    if (kind == 0)
        return list_push(b, &va) != 0 ? LIST_FULL : 0;
    bool log2 = strcmp(step, "log") == 0;
    if (parse_double(hi, r->min, r->max, &vb, err, errlen) != 0)
        return -1;
    if (!log2) {
        if (step[0] == '\0') {
            snprintf(err, errlen, "'%s..%s' needs a step (A..B:STEP or A..B:log)",
                     parse_echo(a, e, sizeof e), hi);
            return -1;
        }
        if (parse_double(step, 0, INFINITY, &vs, err, errlen) != 0)
            return -1;
        if (vs <= 0) {
            snprintf(err, errlen, "step %s is not above 0", parse_echo(step, e, sizeof e));
            return -1;
        }
    }
    if (va > vb || (log2 && va <= 0))
        return empty_range(a, hi, err, errlen);
    double tol = 1e-9 * fmax(fabs(va), fabs(vb));
    if (log2) {
        for (double v = va; v <= vb + tol; v *= 2)
            if (list_push(b, &v) != 0)
                return LIST_FULL;
        return 0;
    }
    double count = floor((vb - va) / vs + 1e-9);
    if (count >= PARSE_LIST_MAX)
        return LIST_FULL;
    for (size_t i = 0; i <= (size_t)count; i++) {
        double v = va + (double)i * vs;
        if (fabs(v - vb) <= tol)
            v = vb;
        if (list_push(b, &v) != 0)
            return LIST_FULL;
    }
    return 0;
}

int parse_list_double(const char *text, double min, double max, double **out, size_t *n,
                      char *err, size_t errlen)
{
    double_bounds r = {min, max};
    void *items = NULL;
    if (parse_list(text, sizeof(double), double_item, &r, &items, n, err, errlen) != 0)
        return -1;
    *out = items;
    return 0;
}

void parse_list_free_words(char **words, size_t n)
{
    if (words == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

int parse_list_words(const char *text, char ***out, size_t *n, char *err, size_t errlen)
{
    char e[ECHO_MAX + 8];
    list_buf b = {.size = sizeof(char *)};
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            snprintf(err, errlen, "'%s' has an empty item", parse_echo(text, e, sizeof e));
            goto fail;
        }
        bool has_eq = memchr(p, '=', len) != NULL, has_colon = memchr(p, ':', len) != NULL;
        if (has_eq && !has_colon) {
            if (b.n == 0) {
                snprintf(err, errlen, "'%s' starts with a parameter, not a name",
                         parse_echo(text, e, sizeof e));
                goto fail;
            }
            char **last = (char **)b.items + b.n - 1;
            size_t ll = strlen(*last);
            char *joined = realloc(*last, ll + 1 + len + 1);
            if (joined == NULL)
                goto fail_many;
            joined[ll] = ',';
            memcpy(joined + ll + 1, p, len);
            joined[ll + 1 + len] = '\0';
            *last = joined;
        } else {
            char *w = malloc(len + 1);
            if (w == NULL)
                goto fail_many;
            memcpy(w, p, len);
            w[len] = '\0';
            if (list_push(&b, &w) != 0) {
                free(w);
                goto fail_many;
            }
        }
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    *out = b.items;
    *n = b.n;
    return 0;
fail_many:
    too_many(err, errlen);
fail:
    parse_list_free_words(b.items, b.n);
    return -1;
}

/* Days from 1970-01-01 to year y, month m (1-12), day d of the proleptic
 * Gregorian calendar: eras of 400 years (146097 days) counted from March,
 * so the leap day ends a year (the usual civil-from-days inverse). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void parse_format_date(int64_t s, char *buf, size_t buflen)
{
    int64_t z = s / 86400 + 719468, sod = s % 86400;
    int64_t era = z / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (m <= 2);
    snprintf(buf, buflen, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y,
             (long long)m, (long long)d, (long long)(sod / 3600), (long long)(sod / 60 % 60),
             (long long)(sod % 60));
}

/* n decimal digits at p, into *v. */
static bool digits(const char *p, int n, int *v)
{
    int x = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        x = x * 10 + (p[i] - '0');
    }
    *v = x;
    return true;
}

int parse_date_s(const char *text, int64_t max_s, int64_t *out_s, char *err, size_t errlen)
{
    char e[ECHO_MAX + 8], last[32];
    size_t n = strlen(text);
    int64_t v;
    parse_format_date(max_s, last, sizeof last);
    if ((n == 10 || n == 20) && text[4] == '-') {
        int y, mo, d, h = 0, mi = 0, sec = 0;
        bool ok = digits(text, 4, &y) && text[4] == '-' && digits(text + 5, 2, &mo) &&
                  text[7] == '-' && digits(text + 8, 2, &d);
        if (ok && n == 20)
            ok = text[10] == 'T' && digits(text + 11, 2, &h) && text[13] == ':' &&
                 digits(text + 14, 2, &mi) && text[16] == ':' && digits(text + 17, 2, &sec) &&
                 text[19] == 'Z';
        if (!ok) {
            snprintf(err, errlen,
                     "'%s' is not a date (e.g. 2026-01-01T00:00:00Z, 2026-01-01, or "
                     "seconds since 1970)",
                     parse_echo(text, e, sizeof e));
            return -1;
        }
        static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
            h > 23 || mi > 59 || sec > 59) {
            snprintf(err, errlen, "%s is not a valid date", parse_echo(text, e, sizeof e));
            return -1;
        }
        v = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    } else {
        uint64_t u;
        char e2[160];
        if (parse_u64(text, 0, UINT64_MAX, &u, e2, sizeof e2) != 0) {
            snprintf(err, errlen,
                     "'%s' is not a date (e.g. 2026-01-01T00:00:00Z, 2026-01-01, or "
                     "seconds since 1970)",
                     parse_echo(text, e, sizeof e));
            return -1;
        }
        v = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
    }
    if (v < 0 || v > max_s) {
        snprintf(err, errlen, "%s is out of range (1970-01-01T00:00:00Z to %s)",
                 parse_echo(text, e, sizeof e), last);
        return -1;
    }
    *out_s = v;
    return 0;
}
