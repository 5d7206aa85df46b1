/* scenario_text.h - test helper: a scenario given as the text of its
 * file, loaded and finished as `csmacd run --scenario FILE` would, and run
 * with its trace recorded (the network tests' common setup). */
#ifndef CSMACD_TEST_SCENARIO_TEXT_H
#define CSMACD_TEST_SCENARIO_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "scenario.h"
#include "trace.h"

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

/* The trace of the last scn_run, in the order reported (its first
 * SCN_MAX_EVENTS events); a bridge's event's own trace_bridge is copied
 * beside it in scn_br (its pointer does not outlive the call). */
#define SCN_MAX_EVENTS 20000
extern trace_event scn_ev[SCN_MAX_EVENTS];
extern trace_bridge scn_br[SCN_MAX_EVENTS];
extern size_t scn_n;

/* Runs a finished scenario to its end, recording its trace; results
 * copied into *r (the engine is returned: its arrays back r's). */
engine *scn_run(const scenario *sc, results *r);

/* The port of bridge `bridge` on segment `seg` in r (fails the test when
 * there is none). */
const bridge_port_result *scn_port(const results *r, const char *bridge, const char *seg);

/* |a - b| <= tol, or the values printed (fabs: math.h; fail_msg: cmocka.h). */
#undef assert_double_equal
#define assert_double_equal(a, b, tol)                                                    \
    do {                                                                                  \
        double a_ = (a), b_ = (b);                                                        \
        if (!(fabs(a_ - b_) <= (tol)))                                                    \
            fail_msg("%s = %.12g, expected %.12g (+/- %g)", #a, a_, b_, (double)(tol));   \
    } while (0)

/* Propagation over `metres` at `velocity` (a fraction of c), in ps,
 * rounded to the nearest. */
int64_t scn_cable_ps(double metres, double velocity);

#endif
