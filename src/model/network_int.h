/* network_int.h - what scenario.c asks of network.c; not
 * for other modules (they read the network through scenario.h and
 * network.h). */
#ifndef CSMACD_NETWORK_INT_H
#define CSMACD_NETWORK_INT_H

#include "scenario.h"

/* scenario_finish's part for the network, after the groups are resolved:
 * defaults, uplinks made repeaters, every refusal, the stations placed on
 * their segments, and the budget's verdict as a warning when a rule is
 * broken. Without segments it only checks that no group names one.
 * Returns 0, or -1 with "FILE:LINE: [segment NAME] reason" (or
 * "group NAME: reason") in err. */
int network_resolve(scenario *sc, char *err, size_t errlen, char *warn, size_t warnlen);
/* Appends warning line `text` to warn (lines apart by '\n'), whole
 * (here, below scenario.c, for both files' warnings):
 * never a line cut short, and when the buffer cannot take it, the line
 * "more warnings than fit here: the rest are left out" instead (room for
 * it is always kept), so that no warning is dropped unsaid. */
void network_warn_add(char *warn, size_t warnlen, const char *text);
/* Twice the longest one-way delay between two stations, as the model
 * times it, in picoseconds (0 without a network). */
double network_round_trip_ps(const scenario *sc);

#endif
