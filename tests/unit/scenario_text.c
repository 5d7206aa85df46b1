/* scenario_text.c - see scenario_text.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "scenario_text.h"

char scn_err[1024], scn_warn[2048];
static char path[64];

int scn_load(scenario *sc, const char *text)
{
    scenario_defaults(sc);
    snprintf(path, sizeof path, "/tmp/csmacd-test-scenario-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    scn_warn[0] = '\0';
    int rc = scenario_load_file(sc, path, scn_err, sizeof scn_err);
    if (rc == 0)
        rc = scenario_finish(sc, scn_err, sizeof scn_err, scn_warn, sizeof scn_warn);
    unlink(path);
    return rc;
}

void scn_load_ok(scenario *sc, const char *text)
{
    if (scn_load(sc, text) != 0)
        fail_msg("refused: %s", scn_err);
}

void scn_refused(const char *text, const char *expect)
{
    scenario sc;
    if (scn_load(&sc, text) == 0)
        fail_msg("accepted, expected: %s", expect);
    size_t n = strlen(path);
    const char *msg = strncmp(scn_err, path, n) == 0 ? scn_err + n : scn_err;
    if (strcmp(msg, expect) != 0)
        fail_msg("message\n  %s\nexpected\n  %s", msg, expect);
    scenario_free(&sc);
}

trace_event scn_ev[SCN_MAX_EVENTS];
trace_bridge scn_br[SCN_MAX_EVENTS];
size_t scn_n;

static void record(void *ctx, const trace_event *ev)
{
    (void)ctx;
    if (scn_n < SCN_MAX_EVENTS) {
        if (ev->kind >= TRACE_BRIDGE_LEARN && ev->kind <= TRACE_BRIDGE_ABORT)
            scn_br[scn_n] = *ev->bridge;
        scn_ev[scn_n++] = *ev;
    }
}

engine *scn_run(const scenario *sc, results *r)
{
    engine *e = NULL;
    char e_[512];
    if (engine_create(sc, &e, e_, sizeof e_) != 0)
        fail_msg("%s", e_);
    scn_n = 0;
    assert_int_equal(engine_add_sink(e, (trace_sink){.on_event = record}), 0);
    while (engine_run(e, SIM_TIME_NEVER, 0) == ENGINE_RUNNING)
        ;
    engine_results(e, r);
    return e;
}

int64_t scn_cable_ps(double metres, double velocity)
{
    return llround(metres / (velocity * 299792458.0) * 1e12);
}

const bridge_port_result *scn_port(const results *r, const char *bridge, const char *seg)
{
    for (uint32_t b = 0; b < r->n_bridges; b++)
        for (uint32_t p = 0; p < r->bridges[b].n_ports; p++)
            if (strcmp(r->bridges[b].name, bridge) == 0 &&
                strcmp(r->bridges[b].ports[p].name, seg) == 0)
                return &r->bridges[b].ports[p];
    fail_msg("no port %s.%s", bridge, seg);
    return NULL;
}
