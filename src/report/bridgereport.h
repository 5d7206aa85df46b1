/* bridgereport.h - a run's collision domains and bridges (results.h's
 * domain_result, bridge_result) as text lines, CSV columns and JSON
 * objects keyed by name (stations/MODEL.md, "Bridges: measures"). Without
 * bridges (r->n_bridges 0) every function writes nothing. */
#ifndef CSMACD_BRIDGEREPORT_H
#define CSMACD_BRIDGEREPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "results.h"

/* Text: one line per domain, then per bridge port. Returns 0 or -1. */
int bridgereport_text(FILE *f, const results *r);
/* CSV: the header's columns (values false: ",DOMAIN.measure",
 * ",BRIDGE.PORT.measure") or the row's values. Returns 0 or -1. */
int bridgereport_csv(FILE *f, const results *r, bool values);
/* JSON: "domains" and "bridges" (each with "ports") put into root.
 * Returns 0 or -1. */
int bridgereport_json(json_t *root, const results *r);

#endif
