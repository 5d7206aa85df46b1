/* scenario_text.h - test helper: a scenario given as the text of its
 * file, loaded and finished as `csmacd run --scenario FILE` would (the
 * network tests' common setup). */
#ifndef CSMACD_TEST_SCENARIO_TEXT_H
#define CSMACD_TEST_SCENARIO_TEXT_H

#include "scenario.h"

/* The last load's message (a refusal, after its "PATH:"), and warnings. */
extern char scn_err[1024], scn_warn[2048];

/* Writes text to a temporary file, loads and finishes it; returns 0, or
 * the status of whichever step refused (the message in scn_err). */
int scn_load(scenario *sc, const char *text);
/* scn_load, failing the test if the text is refused. */
void scn_load_ok(scenario *sc, const char *text);
/* Fails the test unless the text is refused with exactly `expect` (the
 * message after the file's path). */
void scn_refused(const char *text, const char *expect);

#endif
