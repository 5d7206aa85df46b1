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

/* The same measures one by one, in the CSV's order (the sweep's
 * columns): a domain's ("domain_frames_sent", "domain_collisions",
 * "domain_throughput") and a port's ("frames_received" ...
 * "queue_delay_p99_us"), each value as a double (NaN: none). */
size_t bridgereport_domain_measure_count(void);
const char *bridgereport_domain_measure_name(size_t j);
double bridgereport_domain_value(const domain_result *d, size_t j);
size_t bridgereport_port_measure_count(void);
const char *bridgereport_port_measure_name(size_t j);
double bridgereport_port_value(const bridge_port_result *p, size_t j);

#endif
