/* trace.c - names of trace events (used by the event log and tests). */
#include "trace.h"

const char *trace_kind_name(trace_kind k)
{
    static const char *const names[TRACE_KIND_COUNT] = {
        [TRACE_ARRIVAL] = "arrival",   [TRACE_DROP] = "drop",
        [TRACE_TX_START] = "tx_start", [TRACE_COLLISION] = "collision",
        [TRACE_JAM] = "jam",           [TRACE_TX_END] = "tx_end",
        [TRACE_BACKOFF] = "backoff",   [TRACE_TX_OK] = "tx_ok",
        [TRACE_ABORT] = "abort",       [TRACE_DELIVER] = "deliver",
        [TRACE_RELAY_START] = "relay_start", [TRACE_RELAY_END] = "relay_end",
        [TRACE_RELAY_JAM] = "relay_jam",
    };
    return (unsigned)k < TRACE_KIND_COUNT ? names[k] : "?";
}
