/* group_int.h - what scenario.c asks of group.c; not for other modules
 * (they read the groups through scenario.h). group.c calls down to keys.h,
 * never back to scenario.c. */
#ifndef CSMACD_GROUP_INT_H
#define CSMACD_GROUP_INT_H

#include "scenario.h"

station_group *scenario_group_find(const scenario *sc, const char *name);
/* Sets a group's key after checking it (a per-station key or `stations`,
 * its value on a scratch copy). replace: a key set before gets the new
 * value (the command line, a sweep); else the key is added again. line:
 * the file's line, 0 for none. */
int scenario_group_set(scenario *sc, station_group *g, const char *key, const char *value,
                       int line, bool replace, char *err, size_t errlen);
int scenario_groups_copy(scenario *dst, const scenario *src);
void scenario_groups_free(scenario *sc);
/* Resolves every group (or makes the implicit one), numbers the stations
 * group by group and sets n_stations. Returns 0, or -1 with a reason. */
int scenario_groups_resolve(scenario *sc, char *err, size_t errlen);

#endif
