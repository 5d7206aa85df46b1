/* fuzz_replay.c - libFuzzer harness for the capture reader (replay.h).
 *
 * Feeds arbitrary octets to replay_load_stream through fmemopen, as if
 * they were a capture file given to --traffic pcap:FILE, with two option
 * sets (no cap at real time; two stations at half time). The reader must
 * either fail with one "fuzz: reason" message or return a replay whose
 * every invariant holds (checked below); ASan and UBSan catch the rest.
 *
 * Build and run (the build does it when clang is found; see
 * tests/CMakeLists.txt):
 *   build/tests/fuzz_replay -runs=20000 build/tests/fuzz-corpus tests/fuzz/corpus
 * Long run (the corpus grows under ~/.cache/csmacd-fuzz):
 *   tests/fuzz/run.sh 1h replay   (tests/fuzz/README.md)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const replay *r, const replay_options *o)
{
    replay_stats st;
    replay_get_stats(r, &st);
    uint32_t n = replay_station_count(r);
    if (n == 0 || (o->max_stations && n > o->max_stations))
        abort();
    size_t total = 0;
    for (uint32_t s = 0; s < n; s++) {
        const replay_frame *f = replay_frames(r, s);
        size_t k = replay_frame_count(r, s);
        total += k;
        for (size_t i = 0; i < k; i++) {
            if (f[i].time < 0 || (i > 0 && f[i].time < f[i - 1].time))
                abort();
            if (f[i].bytes < 64 || f[i].bytes > 1518 || f[i].payload_len + 4 > f[i].bytes)
                abort();
            if (f[i].dest != REPLAY_BROADCAST && (f[i].dest >= n || f[i].dest == s))
                abort();
            /* Every payload octet must be readable (ASan checks). */
            volatile uint8_t sum = 0;
            for (uint32_t j = 0; j < f[i].payload_len; j++)
                sum ^= f[i].payload[j];
            (void)sum;
            if (f[i].payload_len >= 12 && memcmp(f[i].payload + 6, replay_station_addr(r, s), 6))
                abort();
        }
    }
    if (total != st.frames_loaded ||
        st.frames_read != st.frames_loaded + replay_rejected(r))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const replay_options opts[2] = {{1.0, 0}, {0.5, 2}};
    for (int i = 0; i < 2; i++) {
        if (size == 0)
            return 0; /* fmemopen refuses an empty buffer; the test suite covers it */
        FILE *f = fmemopen((void *)data, size, "rb");
        if (!f)
            return 0;
        replay *r = NULL;
        char err[512];
        if (replay_load_stream(f, "fuzz", &opts[i], 64, 1518, &r, err, sizeof err) == 0) {
            check(r, &opts[i]);
            replay_destroy(r);
        } else if (strncmp(err, "fuzz: ", 6) != 0 || r != NULL) {
            abort();
        }
    }
    return 0;
}
