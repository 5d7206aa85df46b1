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
        [TRACE_BRIDGE_LEARN] = "bridge_learn", [TRACE_BRIDGE_FORWARD] = "bridge_forward",
        [TRACE_BRIDGE_FLOOD] = "bridge_flood", [TRACE_BRIDGE_FILTER] = "bridge_filter",
        [TRACE_BRIDGE_DROP] = "bridge_drop",   [TRACE_BRIDGE_TX_START] = "bridge_tx_start",
        [TRACE_BRIDGE_TX_END] = "bridge_tx_end", [TRACE_BRIDGE_ABORT] = "bridge_abort",
    };
    return (unsigned)k < TRACE_KIND_COUNT ? names[k] : "?";
}
