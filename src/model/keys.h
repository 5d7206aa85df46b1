/* keys.h - the one key table (keys.c); for src/model only (other modules
 * set keys through scenario_set, scenario.h).
 *
 * The bottom layer of a scenario: group.c and scenario.c call down to it,
 * it calls nothing above it.
 */
#ifndef CSMACD_KEYS_H
#define CSMACD_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* Whether `key` is a row of the table (a plain key, no "NAME."). */
bool scenario_key_known(const char *key);
/* Sets a plain key from its text, validating it first: returns 0, or -1
 * with "key: reason" (the scenario unchanged). */
int scenario_key_set(scenario *sc, const char *key, const char *value, char *err,
                     size_t errlen);
/* 1 to SCENARIO_GROUP_NAME_MAX letters, digits, '-', '_', starting with a
 * letter (a group's name; `dest = group:NAME` checks it too). */
bool scenario_group_name_ok(const char *name);

#endif
