/* test_parse.c - pins the value syntaxes of parse.h: exact integers
 * (1e3 is 1000, 1.5 is refused, 1e12 is out of range and said so), TIME to
 * the picosecond with integer arithmetic (0.1s, 1.5min, 1h, 5ps; refused:
 * 0.5ps, negatives, garbage, 99999999999h), METRES with m/km, RATE with
 * k/M/G and b/s, BOOL, time formatting, and the LIST forms (1,2,4,8; 1..64;
 * 1..1024:log; A..B:S; word lists with policy parameters).
 * It does not pin the exact wording of every message, only the parts a
 * user relies on (the echoed value and the range).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parse.h"

static char err[512];

static void test_u64(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(parse_u64("4096", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(parse_u64("+7", 0, 10, &v, err, sizeof err), 0);
    assert_int_equal(v, 7);
    assert_int_equal(parse_u64("4.096e3", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(parse_u64("1e3", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_int_equal(v, 1000);
    assert_int_equal(parse_u64("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(parse_u64("-0", 0, 5, &v, err, sizeof err), 0);
    assert_int_equal(v, 0);

    assert_int_equal(parse_u64("1e12", 1, 100000, &v, err, sizeof err), -1);
    assert_string_equal(err, "1e12 is out of range (1 to 100000)");
    assert_int_equal(parse_u64("0", 1, 100000, &v, err, sizeof err), -1);
    assert_string_equal(err, "0 is out of range (1 to 100000)");
    assert_int_equal(parse_u64("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(parse_u64("99999999999999999999999999", 0, 10, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(parse_u64("-3", 0, 10, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(parse_u64("1.5", 0, 10, &v, err, sizeof err), -1);
    assert_string_equal(err, "1.5 is not a whole number");
    assert_int_equal(parse_u64("abc", 0, 10, &v, err, sizeof err), -1);
    assert_string_equal(err, "'abc' is not a whole number");
    const char *bad[] = {"", " 4", "4 ", "4x", "0x10", "1e", "e3", ".", "--1", "1..2", "inf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(parse_u64(bad[i], 0, UINT64_MAX, &v, err, sizeof err), -1);
    /* A control byte is not echoed as is. */
    assert_int_equal(parse_u64("4\n\033[2J", 0, 10, &v, err, sizeof err), -1);
    assert_null(strchr(err, '\n'));
    assert_null(strchr(err, '\033'));
}

static void test_u32(void **state)
{
    (void)state;
    uint32_t v = 0;
    assert_int_equal(parse_u32("4294967295", 0, UINT32_MAX, &v, err, sizeof err), 0);
    assert_true(v == UINT32_MAX);
    assert_int_equal(parse_u32("4294967296", 0, UINT32_MAX, &v, err, sizeof err), -1);
}

static void test_double(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(parse_double("0.5", 0, 1, &v, err, sizeof err), 0);
    assert_true(v == 0.5);
    assert_int_equal(parse_double("2e-1", 0, 1, &v, err, sizeof err), 0);
    assert_true(v == 0.2);
    assert_int_equal(parse_double("1.5", 0, 1, &v, err, sizeof err), -1);
    assert_string_equal(err, "1.5 is out of range (0 to 1)");
    assert_int_equal(parse_double("nan", 0, 1, &v, err, sizeof err), -1);
    assert_int_equal(parse_double("inf", 0, 1e300, &v, err, sizeof err), -1);
    assert_int_equal(parse_double("1e999", 0, 1e300, &v, err, sizeof err), -1);
    assert_int_equal(parse_double("0x1p3", 0, 100, &v, err, sizeof err), -1);
    assert_int_equal(parse_double(" 1", 0, 100, &v, err, sizeof err), -1);
    assert_int_equal(parse_double("", 0, 100, &v, err, sizeof err), -1);
}

static sim_time time_ok(const char *text)
{
    sim_time t = -1;
    assert_int_equal(parse_time_ps(text, &t, err, sizeof err), 0);
    return t;
}

static void test_time(void **state)
{
    (void)state;
    assert_true(time_ok("2s") == 2 * SIM_PS_PER_S);
    assert_true(time_ok("2") == 2 * SIM_PS_PER_S);
    assert_true(time_ok("1.5s") == 1500 * SIM_PS_PER_MS);
    assert_true(time_ok("0.1s") == 100000000000LL);
    assert_true(time_ok("500ms") == 500 * SIM_PS_PER_MS);
    assert_true(time_ok("10us") == 10 * SIM_PS_PER_US);
    assert_true(time_ok("100ns") == 100 * SIM_PS_PER_NS);
    assert_true(time_ok("5ps") == 5);
    assert_true(time_ok("2min") == 120 * SIM_PS_PER_S);
    assert_true(time_ok("1.5min") == 90 * SIM_PS_PER_S);
    assert_true(time_ok("1h") == 3600 * SIM_PS_PER_S);
    assert_true(time_ok("0.25h") == 900 * SIM_PS_PER_S);
    assert_true(time_ok("0") == 0);
    assert_true(time_ok("51.2us") == 51200000LL); /* one 10 Mb/s slot */
    assert_true(time_ok("0.000000000001s") == 1);
    assert_true(time_ok("1e-3s") == SIM_PS_PER_MS);
    assert_true(time_ok("2400h") == (sim_time)2400 * 3600 * SIM_PS_PER_S);
    assert_true(time_ok("8640000000000000000ps") == PARSE_MAX_TIME_PS);

    sim_time t = 0;
    assert_int_equal(parse_time_ps("99999999999h", &t, err, sizeof err), -1);
    assert_string_equal(err, "99999999999h is out of range (at most 2400h)");
    assert_int_equal(parse_time_ps("2401h", &t, err, sizeof err), -1);
    assert_string_equal(err, "2401h is out of range (at most 2400h)");
    assert_int_equal(parse_time_ps("8640000000000000001ps", &t, err, sizeof err), -1);
    assert_int_equal(parse_time_ps("2563h", &t, err, sizeof err), -1);
    assert_int_equal(parse_time_ps("9223372036854775808ps", &t, err, sizeof err), -1);
    assert_int_equal(parse_time_ps("0.5ps", &t, err, sizeof err), -1);
    assert_string_equal(err, "0.5ps is finer than one picosecond");
    assert_int_equal(parse_time_ps("1.0000000000001s", &t, err, sizeof err), -1);
    assert_int_equal(parse_time_ps("-1s", &t, err, sizeof err), -1);
    assert_string_equal(err, "-1s is negative");
    assert_int_equal(parse_time_ps("abc", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "'abc' is not a time"));
    const char *bad[] = {"", "s", "ms", "2 s", "2sec", "2S", "1.5.s", "2s ", "--2s", "1e", "h1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(parse_time_ps(bad[i], &t, err, sizeof err), -1);
    /* Trailing zeros beyond the picosecond are exact, not refused. */
    assert_true(time_ok("1.000000000000000s") == SIM_PS_PER_S);
}

static void test_format_time(void **state)
{
    (void)state;
    char b[32];
    parse_format_time(0, b, sizeof b);
    assert_string_equal(b, "0s");
    parse_format_time(1500 * SIM_PS_PER_MS, b, sizeof b);
    assert_string_equal(b, "1.5s");
    parse_format_time(500 * SIM_PS_PER_MS, b, sizeof b);
    assert_string_equal(b, "500ms");
    parse_format_time(51200000, b, sizeof b);
    assert_string_equal(b, "51.2us");
    parse_format_time(7, b, sizeof b);
    assert_string_equal(b, "7ps");
    parse_format_time(1000000000001LL, b, sizeof b);
    assert_string_equal(b, "1.000000000001s");
    /* What it prints reads back as the same time. */
    sim_time t = 0;
    assert_int_equal(parse_time_ps("1.000000000001s", &t, err, sizeof err), 0);
    assert_true(t == 1000000000001LL);
}

static void test_metres_rate_bool(void **state)
{
    (void)state;
    double m = 0;
    assert_int_equal(parse_metres("500", 1e7, &m, err, sizeof err), 0);
    assert_true(m == 500);
    assert_int_equal(parse_metres("2.5km", 1e7, &m, err, sizeof err), 0);
    assert_true(m == 2500);
    assert_int_equal(parse_metres("12.5m", 1e7, &m, err, sizeof err), 0);
    assert_true(m == 12.5);
    assert_int_equal(parse_metres("-1", 1e7, &m, err, sizeof err), -1);
    assert_int_equal(parse_metres("1e8", 1e7, &m, err, sizeof err), -1);
    assert_int_equal(parse_metres("5 m", 1e7, &m, err, sizeof err), -1);
    assert_int_equal(parse_metres("m", 1e7, &m, err, sizeof err), -1);

    uint64_t r = 0;
    assert_int_equal(parse_rate_bps("10M", 1000, 1000000000000ULL, &r, err, sizeof err), 0);
    assert_true(r == 10000000);
    assert_int_equal(parse_rate_bps("100Mb/s", 1000, 1000000000000ULL, &r, err, sizeof err), 0);
    assert_true(r == 100000000);
    assert_int_equal(parse_rate_bps("2.5G", 1000, 1000000000000ULL, &r, err, sizeof err), 0);
    assert_true(r == 2500000000ULL);
    assert_int_equal(parse_rate_bps("1Gbps", 1000, 1000000000000ULL, &r, err, sizeof err), 0);
    assert_true(r == 1000000000ULL);
    assert_int_equal(parse_rate_bps("10000000", 1000, 1000000000000ULL, &r, err, sizeof err), 0);
    assert_true(r == 10000000);
    assert_int_equal(parse_rate_bps("1.5", 1000, 1000000000000ULL, &r, err, sizeof err), -1);
    assert_int_equal(parse_rate_bps("10X", 1000, 1000000000000ULL, &r, err, sizeof err), -1);
    assert_int_equal(parse_rate_bps("10", 1000, 1000000000000ULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));

    bool b = false;
    assert_int_equal(parse_bool("yes", &b, err, sizeof err), 0);
    assert_true(b);
    assert_int_equal(parse_bool("off", &b, err, sizeof err), 0);
    assert_false(b);
    assert_int_equal(parse_bool("maybe", &b, err, sizeof err), -1);
    assert_string_equal(err, "'maybe' is not yes or no");
}

static void test_list_u64(void **state)
{
    (void)state;
    uint64_t *v = NULL;
    size_t n = 0;
    assert_int_equal(parse_list_u64("1,2,4,8", 1, 100, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[3], 8);
    free(v);
    assert_int_equal(parse_list_u64("1..64", 1, 100, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 64);
    assert_int_equal(v[0], 1);
    assert_int_equal(v[63], 64);
    free(v);
    assert_int_equal(parse_list_u64("1..1024:log", 1, 100000, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 11);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], 1u << i);
    free(v);
    assert_int_equal(parse_list_u64("3..100:log", 1, 100000, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 6); /* 3 6 12 24 48 96 */
    assert_int_equal(v[5], 96);
    free(v);
    assert_int_equal(parse_list_u64("0..10:5,99", 0, 100, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[2], 10);
    assert_int_equal(v[3], 99);
    free(v);
    assert_int_equal(parse_list_u64("7", 1, 100, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    free(v);

    v = NULL;
    assert_int_equal(parse_list_u64("1,,2", 1, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("", 1, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("1,", 1, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("8..1", 1, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("0..8:log", 0, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("1..200", 1, 100, &v, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "200 is out of range (1 to 100)"));
    assert_int_equal(parse_list_u64("1..1e12", 1, UINT64_MAX, &v, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than"));
    assert_int_equal(parse_list_u64("1..8:0", 1, 100, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_u64("1..8:x", 1, 100, &v, &n, err, sizeof err), -1);
    assert_null(v);
}

static void test_list_double(void **state)
{
    (void)state;
    double *v = NULL;
    size_t n = 0;
    assert_int_equal(parse_list_double("0.1..1:0.1", 0, 10, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 10);
    assert_true(v[0] == 0.1);
    assert_true(v[9] == 1.0); /* the last lands on B exactly */
    free(v);
    assert_int_equal(parse_list_double("0.25,0.5,2", 0, 10, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_true(v[2] == 2.0);
    free(v);
    assert_int_equal(parse_list_double("0.125..2:log", 0, 10, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 5);
    assert_true(v[4] == 2.0);
    free(v);
    assert_int_equal(parse_list_double("0.1..1", 0, 10, &v, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs a step"));
    assert_int_equal(parse_list_double("0.1..1:0", 0, 10, &v, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_double("1,x", 0, 10, &v, &n, err, sizeof err), -1);
}

/* Both number lists share one reader: the same messages for an empty
 * range and a list too long (100 001 values: 0..100000 in steps of 1). */
static void test_list_shared(void **state)
{
    (void)state;
    uint64_t *u = NULL;
    double *v = NULL;
    size_t n = 0;
    assert_int_equal(parse_list_u64("8..2", 0, 100, &u, &n, err, sizeof err), -1);
    assert_string_equal(err, "'8..2' is an empty range");
    assert_int_equal(parse_list_double("8..2:1", 0, 100, &v, &n, err, sizeof err), -1);
    assert_string_equal(err, "'8..2' is an empty range");
    assert_int_equal(parse_list_u64("0..100000", 0, 1000000, &u, &n, err, sizeof err), -1);
    assert_string_equal(err, "the list has more than 100000 items (or no memory)");
    assert_int_equal(parse_list_double("0..100000:1", 0, 1e6, &v, &n, err, sizeof err), -1);
    assert_string_equal(err, "the list has more than 100000 items (or no memory)");
    assert_int_equal(parse_list_u64("1,0..99999", 0, 1000000, &u, &n, err, sizeof err), -1);
    assert_string_equal(err, "the list has more than 100000 items (or no memory)");
    assert_int_equal(parse_list_u64("5,0..99998", 0, 1000000, &u, &n, err, sizeof err), 0);
    assert_int_equal(n, 100000);
    assert_true(u[0] == 5 && u[1] == 0 && u[99999] == 99998);
    free(u);
}

static void test_list_words(void **state)
{
    (void)state;
    char **w = NULL;
    size_t n = 0;
    assert_int_equal(parse_list_words("beb,fixed:slots=4,limit=9,aloha", &w, &n, err, sizeof err),
                     0);
    assert_int_equal(n, 3);
    assert_string_equal(w[0], "beb");
    assert_string_equal(w[1], "fixed:slots=4,limit=9");
    assert_string_equal(w[2], "aloha");
    parse_list_free_words(w, n);
    assert_int_equal(parse_list_words("10base5", &w, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    parse_list_free_words(w, n);
    assert_int_equal(parse_list_words("a,,b", &w, &n, err, sizeof err), -1);
    assert_int_equal(parse_list_words("k=v,beb", &w, &n, err, sizeof err), -1);
}

/* DATE: ISO 8601 UTC, a day, or seconds; the calendar checked at known
 * instants (leap days, the 2038 bound) and both ways. */
static void test_date(void **state)
{
    (void)state;
    char why[256], buf[32];
    int64_t v = -1;
    const int64_t max = INT64_C(2147483647);
    assert_int_equal(parse_date_s("1970-01-01T00:00:00Z", max, &v, why, sizeof why), 0);
    assert_int_equal(v, 0);
    assert_int_equal(parse_date_s("2000-01-01T00:00:00Z", max, &v, why, sizeof why), 0);
    assert_int_equal(v, INT64_C(946684800));
    assert_int_equal(parse_date_s("2000-03-01", max, &v, why, sizeof why), 0);
    assert_int_equal(v, INT64_C(951868800)); /* 2000 is a leap year: 29 Feb counted */
    assert_int_equal(parse_date_s("2026-01-01T00:00:00Z", max, &v, why, sizeof why), 0);
    assert_int_equal(v, INT64_C(1767225600));
    assert_int_equal(parse_date_s("1767225600", max, &v, why, sizeof why), 0);
    assert_int_equal(v, INT64_C(1767225600));
    assert_int_equal(parse_date_s("2038-01-19T03:14:07Z", max, &v, why, sizeof why), 0);
    assert_int_equal(v, max);
    assert_int_equal(parse_date_s("2024-02-29T23:59:59Z", max, &v, why, sizeof why), 0);
    assert_int_equal(v, INT64_C(1709251199));
    parse_format_date(INT64_C(1709251199), buf, sizeof buf);
    assert_string_equal(buf, "2024-02-29T23:59:59Z");
    parse_format_date(max, buf, sizeof buf);
    assert_string_equal(buf, "2038-01-19T03:14:07Z");
    parse_format_date(0, buf, sizeof buf);
    assert_string_equal(buf, "1970-01-01T00:00:00Z");
    /* Refused: no such day, hour, zone; before 1970 or after the bound. */
    assert_int_equal(parse_date_s("2100-02-29", max, &v, why, sizeof why), -1);
    assert_string_equal(why, "2100-02-29 is not a valid date");
    assert_int_equal(parse_date_s("2026-01-01T24:00:00Z", max, &v, why, sizeof why), -1);
    assert_int_equal(parse_date_s("2026-01-01T00:00:00+01:00", max, &v, why, sizeof why), -1);
    assert_int_equal(parse_date_s("2026-1-1", max, &v, why, sizeof why), -1);
    assert_int_equal(parse_date_s("", max, &v, why, sizeof why), -1);
    assert_int_equal(parse_date_s("2038-01-19T03:14:08Z", max, &v, why, sizeof why), -1);
    assert_string_equal(why, "2038-01-19T03:14:08Z is out of range (1970-01-01T00:00:00Z to "
                             "2038-01-19T03:14:07Z)");
    assert_int_equal(parse_date_s("1969-12-31", max, &v, why, sizeof why), -1);
    assert_int_equal(parse_date_s("-1", max, &v, why, sizeof why), -1);
    assert_int_equal(v, INT64_C(1709251199)); /* untouched by the failures */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u64),        cmocka_unit_test(test_u32),
        cmocka_unit_test(test_double),     cmocka_unit_test(test_time),
        cmocka_unit_test(test_format_time), cmocka_unit_test(test_metres_rate_bool),
        cmocka_unit_test(test_list_u64),   cmocka_unit_test(test_list_double),
        cmocka_unit_test(test_list_words),  cmocka_unit_test(test_list_shared),
        cmocka_unit_test(test_date),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
