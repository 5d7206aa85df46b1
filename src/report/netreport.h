/* netreport.h - a network of segments and its 802.3 budget, for people
 * and for programs: `csmacd check`'s listing, the line of run's text
 * header and the `network` object of run's JSON (src/cli/CLI.md,
 * "csmacd check"; stations/MODEL.md, "Networks of segments").
 *
 * Everything reads a finished scenario; the budget is budget.h's. Without
 * segments the listing and check's JSON show the one bus or star as a
 * single segment (scenario_network_view); run's header line and JSON
 * object exist only with segments, so that every output of a scenario
 * without them is as it was.
 */
#ifndef CSMACD_NETREPORT_H
#define CSMACD_NETREPORT_H

#include <stddef.h>
#include <stdio.h>

#include "scenario.h"

/* csmacd check: the segments, the repeaters, the budget and the verdict.
 * Returns 0, or -1 with errno set (a write error). */
int netreport_write_check(FILE *f, const scenario *sc);

/* One line for run's text header: "3 segments, 2 repeaters; worst path
 * lab..annex: path delay value 314.89 of 575 bit times, ...: within". */
void netreport_summary(const scenario *sc, char *buf, size_t len);

/* Significant digits of a real in JSON and CSV outputs (run's, check's). */
#define REPORT_REAL_DIGITS 12

/* run --format json: {"segments": {NAME: {...}}, "repeaters": {NAME:
 * {...}}, "domains": [{...}]} (a jansson json_t), or NULL when out of
 * memory. Without segments, of the one bus or star as check reads it (run
 * puts the object in its JSON only with segments). */
struct json_t *netreport_json(const scenario *sc);

/* check --format json: netreport_json's object, printed as run prints
 * its JSON. Returns 0, or -1 with errno set. */
int netreport_write_json(FILE *f, const scenario *sc);

#endif
