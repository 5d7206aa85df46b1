/* parse.h - the value syntaxes of csmacd's options and scenario keys.
 *
 * Every parser takes the whole text of one value and either accepts all of
 * it or rejects it: no leading or trailing blanks, no trailing garbage.
 * On failure a parser returns -1 and writes a reason to `err` without the
 * key in front ("'abc' is not a time (e.g. 2s, 500ms, 10us)"), so the
 * caller can prefix the option or key it came from. Nothing is printed and
 * nothing is global.
 *
 * Numbers are read exactly: an integer may be written 4096, +4096, 4.096e3
 * or 1e12 (then refused as out of range, not as a syntax error), and a
 * TIME is turned into integer picoseconds with integer arithmetic only, so
 * "0.1s" is exactly 100 000 000 000 ps. Values finer than one picosecond
 * and values beyond the type are refused, never rounded or wrapped.
 *
 * Syntaxes:
 *   TIME     a decimal number and a unit: h, min, s, ms, us, ns, ps
 *            ("2s", "1.5s", "500ms", "10us", "2min", "1h"); a bare number
 *            is seconds. Not negative; at most INT64_MAX picoseconds.
 *   METRES   a decimal number, optionally followed by "m" or "km".
 *   RATE     bits per second: an exact decimal number with an optional
 *            k, M or G (powers of ten) and an optional "b/s" or "bps":
 *            "10M", "100Mb/s", "2.5G", "10000000".
 *   BOOL     yes, no, true, false, on, off, 1, 0.
 *   DATE     an instant in UTC: ISO 8601 "2026-01-01T00:00:00Z" (the "T"
 *            and the "Z" required, no fractions, no other time zones),
 *            a day "2026-01-01" (its midnight), or a whole number of
 *            seconds since 1970-01-01T00:00:00Z.
 *   LIST     items separated by commas; an item is a value or a range
 *            A..B (integers: every value from A to B), A..B:S (step S),
 *            A..B:log (A, 2A, 4A, ... up to B: "1..1024:log" gives the
 *            powers of two). Lists are for sweeps: `--stations 1..64:log`.
 */
#ifndef CSMACD_PARSE_H
#define CSMACD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

/* The longest TIME any option takes: 2400 h (100 days), far enough from
 * INT64_MAX picoseconds (about 2562 h) that the engine may add the
 * derived times (propagation, backoff waits, frames) to it without
 * overflow (scenario.c checks those). */
#define PARSE_MAX_TIME_PS ((sim_time)2400 * 3600 * SIM_PS_PER_S)

/* The most items a LIST may expand to (a guard against "1..1e12"). */
#define PARSE_LIST_MAX 100000u

/* A value as it may appear in a message: at most 48 characters (then
 * "..."), every byte outside printable ASCII shown as '?', so that a
 * hostile argument or file cannot forge lines on the user's terminal.
 * Returns buf. */
const char *parse_echo(const char *text, char *buf, size_t buflen);

/* An unsigned integer in [min, max]. */
int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *err,
              size_t errlen);
int parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *out, char *err,
              size_t errlen);

/* A finite decimal number in [min, max] (strtod syntax, no hex, no inf or
 * nan). For reporting quantities only (loads, fractions, metres), never for
 * simulated time. */
int parse_double(const char *text, double min, double max, double *out, char *err,
                 size_t errlen);

/* A TIME (see above) in picoseconds, 0 <= *out_ps <= PARSE_MAX_TIME_PS
 * (beyond: "T is out of range (at most 2400h)"). */
int parse_time_ps(const char *text, sim_time *out_ps, char *err, size_t errlen);

/* METRES in [0, max_m]. */
int parse_metres(const char *text, double max_m, double *out_m, char *err, size_t errlen);

/* RATE in [min_bps, max_bps]. */
int parse_rate_bps(const char *text, uint64_t min_bps, uint64_t max_bps, uint64_t *out_bps,
                   char *err, size_t errlen);

int parse_bool(const char *text, bool *out, char *err, size_t errlen);

/* A DATE (see above), in seconds since 1970-01-01T00:00:00Z, within
 * [0, max_s]. Out of range: "D is out of range (1970-01-01T00:00:00Z to
 * <max_s as a date>)". */
int parse_date_s(const char *text, int64_t max_s, int64_t *out_s, char *err, size_t errlen);

/* Writes seconds since 1970 (>= 0) as "YYYY-MM-DDTHH:MM:SSZ". */
void parse_format_date(int64_t s, char *buf, size_t buflen);

/* Formats a time for a person: "1.5s", "500ms", "10us", "0s": the largest
 * unit that shows the value exactly. Always NUL-terminates. */
void parse_format_time(sim_time ps, char *buf, size_t buflen);

/* A LIST of integers, each in [min, max], expanded. *out is allocated
 * (free() it) and holds *n >= 1 values in the order written. */
int parse_list_u64(const char *text, uint64_t min, uint64_t max, uint64_t **out, size_t *n,
                   char *err, size_t errlen);

/* A LIST of numbers, each in [min, max]: values, A..B:S ranges (step S > 0,
 * the values A + i*S up to B, with B included when the step lands on it
 * within a relative 1e-9) and A..B:log (A > 0 doubling). */
int parse_list_double(const char *text, double min, double max, double **out, size_t *n,
                      char *err, size_t errlen);

/* A LIST of words (names, policy specs): split at commas, except that a
 * piece containing '=' but no ':' continues the previous item, so
 * "beb,fixed:slots=4,limit=9,aloha" gives "beb", "fixed:slots=4,limit=9"
 * and "aloha". No ranges. *out is an allocated array of allocated strings;
 * free it with parse_list_free_words. */
int parse_list_words(const char *text, char ***out, size_t *n, char *err, size_t errlen);
void parse_list_free_words(char **words, size_t n);

#endif
