#!/usr/bin/env bash
# run_checks.sh - CLI tests of good runs of `csmacd run` and their outputs.
#
# Pins: --format json has every field of src/cli/CLI.md, "Outputs" (and stations
# with the Clause 30 names), with counts that add up; --format csv is a
# header and one row with the same columns; --stations-csv has a header and
# one row per station; --events has its header and well-formed lines for
# every kind of event a contended run produces; the text summary carries
# units (and "no CI" with one batch, null in JSON, empty in both sweep
# CSVs); a scenario file gives the same run as the same options on the
# command line, and may be a pipe; batch runs report their completion time;
# a lone station's frames count as delivered; determinism (same seed:
# byte-identical JSON without wall_s, event log and station CSV; another
# seed differs); SIGINT and SIGTERM in the middle of a long run leave
# complete, valid outputs and exit 130 / 143 with the simulated time
# reached; standard output on a full disk exits 1; a reader leaving any
# output written to a pipe (endless paced runs too) ends the run with 141
# and no message; help and version.
# It does not check the model's numbers beyond sanity bounds (the unit and
# validation tests do).
#
# Usage: run_checks.sh CSMACD
set -euo pipefail

bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$(dirname "$0")/data" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

pass=0
fail=0
check() { # NAME COMMAND...: runs a check in a subshell with errexit, counts it
    local name=$1 rc=0
    shift
    # Not inside `if`: there bash would switch errexit off for the check.
    set +e
    (set -e; "$@") >"$work/check.log" 2>&1
    rc=$?
    set -e
    if ((rc == 0)); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        sed 's/^/     /' "$work/check.log" | head -20
    fi
}

# --- one contended run with every output
run_all() {
    "$bin" run --stations 6 --duration 200ms --seed 7 --format json \
        --events ev.csv --stations-csv st.csv >run.json 2>run.err
    [[ ! -s run.err ]]
}
check run_with_all_outputs run_all

json_fields() {
    python3 - run.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
need = ["throughput", "throughput_ci95", "throughput_mbps", "offered_load", "frames_ok",
        "frames_offered", "frames_aborted", "frames_dropped", "attempts", "collisions",
        "late_collisions", "completion_s", "mean_delay_us", "p99_delay_us", "jain_fairness",
        "capture_mean_run", "capture_max_run", "sim_time_s", "events", "wall_s", "stations"]
missing = [k for k in need if k not in d]
assert not missing, f"missing fields: {missing}"
assert d["interrupted"] is False
assert d["sim_time_s"] == 0.2, d["sim_time_s"]
assert 0 < d["throughput"] < 1, d["throughput"]
assert d["completion_s"] is None  # saturated traffic
st = d["stations"]
assert isinstance(st, list) and len(st) == 6, len(st)
clause30 = ["aFramesTransmittedOK", "aSingleCollisionFrames", "aMultipleCollisionFrames",
            "aOctetsTransmittedOK", "aFramesWithDeferredXmissions", "aLateCollisions",
            "aFramesAbortedDueToXSColls"]
for i, s in enumerate(st):
    assert s["station"] == i + 1
    for k in clause30 + ["frames_offered", "frames_dropped", "collisions"]:
        assert isinstance(s[k], int) and s[k] >= 0, (k, s.get(k))
assert sum(s["aFramesTransmittedOK"] for s in st) == d["frames_ok"]
assert d["frames_offered"] == (d["frames_ok"] + d["frames_aborted"] + d["frames_dropped"]
                               + d["frames_queued"]), "offered = ok + aborted + dropped + queued"
assert d["collisions"] > 0, "six saturated stations collide"
assert d["scenario"]["seed"] == 7 and d["scenario"]["stations"] == 6
EOF
}
check json_has_every_field json_fields

stations_csv() {
    local header
    header=$(head -1 st.csv)
    [[ $header == station,aFramesTransmittedOK,aSingleCollisionFrames,aMultipleCollisionFrames,aOctetsTransmittedOK,aFramesWithDeferredXmissions,aLateCollisions,aFramesAbortedDueToXSColls,* ]]
    [[ $(wc -l <st.csv) == 7 ]] # header + 6 stations
    python3 - st.csv run.json <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
assert [int(r["station"]) for r in rows] == list(range(1, 7))
for r, s in zip(rows, d["stations"]):
    assert int(r["aFramesTransmittedOK"]) == s["aFramesTransmittedOK"]
    assert int(r["aOctetsTransmittedOK"]) == s["aOctetsTransmittedOK"]
EOF
}
check stations_csv_rows stations_csv

events_csv() {
    [[ $(head -1 ev.csv) == time_ps,station,event,attempt,backoff_slots,frame_station,frame,bytes ]]
    [[ $(wc -l <ev.csv) -gt 100 ]]
    # Every line has 8 fields, integers except the event name; stations
    # 1..6; times never decrease; a station's own MAC events name its
    # frames as the trace does (frame_station is the station).
    awk -F, 'NR > 1 {
        if (NF != 8) { print "line " NR ": " NF " fields"; bad = 1 }
        if ($3 ~ /^(tx_start|tx_end|backoff|tx_ok)$/ && $6 != $2) { print "line " NR ": frame_station " $6; bad = 1 }
        if ($2 < 1 || $2 > 6) { print "line " NR ": station " $2; bad = 1 }
        if ($1 + 0 < last) { print "line " NR ": time goes back"; bad = 1 }
        last = $1 + 0; kinds[$3] = 1
    } END {
        split("arrival tx_start collision jam tx_end backoff tx_ok deliver", want, " ")
        for (i in want) if (!(want[i] in kinds)) { print "no " want[i] " event"; bad = 1 }
        exit bad
    }' ev.csv
    # Backoff lines carry the slots drawn, which are below 2^attempt.
    awk -F, '$3 == "backoff" && $5 >= 2 ^ ($4 > 10 ? 10 : $4) { print; bad = 1 } END { exit bad }' ev.csv
}
check events_csv_lines events_csv

csv_format() {
    "$bin" run --stations 3 --duration 50ms --format csv >run.csv
    [[ $(wc -l <run.csv) == 2 ]]
    python3 - run.csv <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) == 2 and len(rows[0]) == len(rows[1]), rows
h = dict(zip(rows[0], rows[1]))
for k in ["throughput", "frames_ok", "collisions", "wall_s", "sim_time_s", "completion_s"]:
    assert k in h, k
assert h["completion_s"] == "" and float(h["sim_time_s"]) == 0.05 and h["interrupted"] == "0"
EOF
}
check csv_header_and_row csv_format

text_format() {
    "$bin" run --stations 3 --duration 50ms >run.txt
    grep -q '^csmacd run: 10base5, 3 stations, bus 500 m' run.txt
    grep -Eq '^  throughput +0\.[0-9]{4} \+/- 0\.[0-9]{4} \(95%\), [0-9.]+ Mb/s$' run.txt
    grep -Eq '^  delay +mean [0-9.]+ us, p50 [0-9.]+ us, p99 [0-9.]+ us, max [0-9.]+ us$' run.txt
    grep -Eq '^  simulated time +0\.050000 s of 50ms' run.txt
}
check text_summary_with_units text_format

# One batch: the interval is undefined, never a zero width.
one_batch() {
    "$bin" run --stations 3 --duration 50ms --batches 1 >one.txt
    grep -Eq '^  throughput +0\.[0-9]{4} \(no CI: fewer than 2 batches\), [0-9.]+ Mb/s$' one.txt
    "$bin" run --stations 3 --duration 50ms --batches 1 --format json >one.json
    python3 -c 'import json; d = json.load(open("one.json")); assert d["throughput_ci95"] is None and d["throughput"] > 0, d'
    "$bin" run --stations 3 --duration 50ms --batches 1 --format csv >one.csv
    "$bin" sweep --quiet --stations 2,3 --duration 50ms --batches 1 --csv sw.csv --reps-csv swr.csv
    python3 - <<'PY'
import csv
run = list(csv.DictReader(open("one.csv")))
assert run[0]["throughput_ci95"] == "" and float(run[0]["throughput"]) > 0, run
for name in ("sw.csv", "swr.csv"):
    rows = list(csv.DictReader(open(name)))
    assert len(rows) == 2, (name, rows)
    for r in rows:
        assert r["throughput_ci95"] == "" and float(r["throughput"]) > 0, (name, r)
        assert r.get("throughput_rel_ci95", "") == "", (name, r)
PY
}
check one_batch_no_interval one_batch

# Measures that do not apply are null in JSON, empty in CSV and "-" in
# text, never 0 (stations/MODEL.md, "Measures that do not apply"): in run,
# in a group, in both sweep CSVs.
undefined_measures() {
    "$bin" run --traffic none --duration 10ms --format json >none.json
    "$bin" run --traffic none --duration 10ms --format csv >none.csv
    "$bin" run --traffic none --duration 10ms >none.txt
    grep -Eq '^  delay +- \(no frame sent\)$' none.txt
    grep -Eq '^  collisions +0 on the medium, - per frame sent, 0 late$' none.txt
    grep -Eq '^  throughput +0\.0000 \(no CI: nothing received whole\)' none.txt
    # Collisions without a frame sent: no ratio, however many collisions.
    "$bin" run --stations 2 --attempt-limit 1 --duration 5ms --format json >coll.json
    # A group that sends nothing beside one that does; then nothing at all.
    "$bin" run --duration 20ms --group 'a stations=2' --group 'b stations=2 traffic=none' \
        --format json >grp.json
    "$bin" run --duration 20ms --group 'a stations=2' --group 'b stations=2 traffic=none' \
        >grp.txt
    "$bin" run --duration 20ms --traffic none --group 'a stations=2' --group 'b stations=1' \
        --format json >grp0.json
    "$bin" sweep --quiet --duration 20ms --reps 2 --group 'a stations=2' \
        --group 'b stations=2 traffic=none' --grid a.stations=1,2 --csv gsw.csv --reps-csv gswr.csv
    "$bin" sweep --quiet --duration 10ms --traffic none --stations 2,3 --csv nsw.csv \
        --reps-csv nswr.csv
    python3 - <<'PY'
import csv, json
undefined = ["mean_delay_us", "p50_delay_us", "p99_delay_us", "max_delay_us",
             "collisions_per_frame", "capture_mean_run", "throughput_ci95", "jain_fairness"]
d = json.load(open("none.json"))
for k in undefined:
    assert d[k] is None, (k, d[k])
assert all(s["share"] is None for s in d["stations"]), d["stations"][0]
assert d["throughput"] == 0.0 and d["frames_ok"] == 0
row = list(csv.DictReader(open("none.csv")))[0]
for k in undefined:
    assert row[k] == "", (k, row[k])
c = json.load(open("coll.json"))
assert c["collisions"] > 100 and c["frames_ok"] == 0, c
assert c["collisions_per_frame"] is None and c["mean_delay_us"] is None, c
g = json.load(open("grp.json"))["groups"]
for k in ["delay_mean_s", "delay_p99_s", "throughput_ci95", "jain_fairness"]:
    assert g["b"][k] is None, (k, g["b"][k])
    assert g["a"][k] is not None and g["a"][k] > 0, (k, g["a"][k])
assert g["b"]["share"] == 0.0 and g["a"]["share"] == 1.0, g  # 0 of what was delivered
g0 = json.load(open("grp0.json"))["groups"]
for name in "ab":
    for k in ["share", "delay_mean_s", "delay_p99_s", "throughput_ci95"]:
        assert g0[name][k] is None, (name, k, g0[name][k])
for name in ("gsw.csv", "gswr.csv"):
    rows = list(csv.DictReader(open(name)))
    assert len(rows) == (2 if name == "gsw.csv" else 4), (name, len(rows))
    for r in rows:
        assert r["b.delay_mean_s"] == "" and r["b.delay_p99_s"] == "", (name, r)
        assert float(r["a.delay_mean_s"]) > 0 and float(r["mean_delay_us"]) > 0, (name, r)
        if name == "gswr.csv":
            assert r["b.throughput_ci95"] == "", r
for name in ("nsw.csv", "nswr.csv"):
    for r in csv.DictReader(open(name)):
        for k in ["mean_delay_us", "p99_delay_us", "collisions_per_frame", "capture_mean_run",
                  "jain_fairness"]:
            assert r[k] == "", (name, k, r[k])
            if name == "nsw.csv":
                assert r[k + "_ci95"] == "", (name, k)
PY
    grep -Eq '^ +b +2 +none +0\.0000 +0\.0000 +0\.0% +0 +0 +0 +- +- +-$' grp.txt
}
check undefined_measures_are_null undefined_measures

# A station's frames_delivered / frames_corrupted count the frames it sent
# (their sums are the run's); the old names, which read as Clause 30's
# aFramesReceivedOK, are gone.
station_delivered() {
    "$bin" run --stations 3 --duration 20ms --format json >sd.json
    "$bin" run --stations 3 --duration 20ms --stations-csv sd.csv >/dev/null
    python3 - <<'PY'
import csv, json
d = json.load(open("sd.json"))
st = d["stations"]
assert sum(s["frames_delivered"] for s in st) == d["frames_delivered"] > 0
assert sum(s["frames_corrupted"] for s in st) == d["frames_corrupted"]
assert all("frames_received_ok" not in s for s in st)
# Every frame a station sent whole reached its destination (no faults): so
# its frames_delivered is its own aFramesTransmittedOK, not what it received.
assert all(s["frames_delivered"] == s["aFramesTransmittedOK"] for s in st), st
h = next(csv.reader(open("sd.csv")))
assert "frames_delivered" in h and "frames_received_ok" not in h, h
PY
}
check station_counts_its_sent_frames station_delivered

# With groups a top-level load is the total, shared by the groups that set
# none in proportion to their stations, in run as in sweep (0.6 over 2 + 4
# stations: 0.2 and 0.4); a group of 0 stations has no load and no first
# station; "1 group", not "1 groups".
group_loads_and_empty() {
    "$bin" run --traffic poisson --load 0.6 --duration 20ms --group 'a stations=2' \
        --group 'b stations=4' --group 'c stations=0' --group 'd stations=1 load=0.05' \
        --format json >gl.json
    "$bin" run --traffic poisson --load 0.6 --duration 20ms --group 'a stations=2' \
        --group 'b stations=4' --group 'c stations=0' >gl.txt
    "$bin" run --duration 1ms --group 'a stations=1' >one.txt
    python3 - <<'PY'
import json
g = json.load(open("gl.json"))["groups"]
assert abs(g["a"]["load"] - 0.2) < 1e-12 and abs(g["b"]["load"] - 0.4) < 1e-12, g
assert g["d"]["load"] == 0.05, g["d"]
assert g["c"]["load"] is None and g["c"]["first_station"] is None, g["c"]
assert g["a"]["first_station"] == 1 and g["d"]["first_station"] == 7
PY
    grep -Eq '^ +c +0 +- +0\.0000 ' gl.txt
    grep -Eq '^  load +0\.6 \(the groups. loads added\)$' gl.txt
    grep -q '^csmacd run: 10base5, 1 station in 1 group (below)' one.txt
}
check group_loads_and_empty group_loads_and_empty

# extcap captures the group presets (Wireshark's dialog offers them): each
# group as one --group, sized by the sweep's first point.
extcap_group_presets() {
    for p in file-server weakest-link mixed-storm; do
        "$bin" extcap --capture --extcap-interface csmacd --fifo "x-$p.pcapng" --preset "$p" \
            --duration 400ms --pace 1000 2>"x-$p.err"
        [[ -s x-$p.pcapng && ! -s x-$p.err ]] || { cat "x-$p.err"; return 1; }
    done
    "$bin" extcap --capture --extcap-interface csmacd --fifo x4.pcapng --preset weakest-link \
        --stations 4 --duration 20ms --pace 1000
    [[ -s x4.pcapng ]]
}
check extcap_group_presets extcap_group_presets

batch_completion() {
    "$bin" run --stations 4 --traffic batch --batch 2 --duration 1s --format json >b.json
    python3 -c '
import json, sys
d = json.load(open("b.json"))
assert d["frames_offered"] == 8 and d["frames_ok"] + d["frames_aborted"] == 8, d
assert d["completion_s"] is not None and 0 < d["completion_s"] < 1, d["completion_s"]'
}
check batch_completion_time batch_completion

# One station, default "random" destination: its frames are judged where
# they were sent, so they count as delivered (scenario.c documents this).
lone_station() {
    "$bin" run --stations 1 --frame-size 1518 --duration 100ms --format json >one.json
    python3 -c '
import json
d = json.load(open("one.json"))
assert d["frames_ok"] > 0 and d["frames_delivered"] == d["frames_ok"], d
assert d["collisions"] == 0 and 0.98 < d["throughput"] < 0.99, d["throughput"]'
}
check lone_station_delivers lone_station

file_equals_options() {
    "$bin" run --scenario "$data/lab.ini" --format json | grep -v '"wall_s"' >file.json
    "$bin" run --phy 10base5 --stations 8 --length 500 --traffic poisson --load 0.6 \
        --frame-size 64-1518 --duration 500ms --warmup 50ms --seed 42 --format json |
        grep -v '"wall_s"' >opts.json
    cmp file.json opts.json
}
check scenario_file_equals_options file_equals_options

# A scenario may come through a pipe (process substitution).
piped_scenario() {
    "$bin" run --scenario <(printf '# piped\nstations = 3\nduration = 10ms\n') --format json >p.json
    python3 -c '
import json
d = json.load(open("p.json"))
assert d["n_stations"] == 3 and d["sim_time_s"] == 0.01, d'
}
check piped_scenario_file piped_scenario

# --- determinism
determinism() {
    local args=(run --stations 5 --duration 100ms --traffic poisson --load 0.9 --format json)
    "$bin" "${args[@]}" --seed 11 --events e1.csv --stations-csv s1.csv | grep -v '"wall_s"' >j1
    "$bin" "${args[@]}" --seed 11 --events e2.csv --stations-csv s2.csv | grep -v '"wall_s"' >j2
    "$bin" "${args[@]}" --seed 12 --events e3.csv --stations-csv s3.csv | grep -v '"wall_s"' >j3
    cmp j1 j2
    cmp e1.csv e2.csv
    cmp s1.csv s2.csv
    if cmp -s j1 j3; then echo "seeds 11 and 12 give the same JSON"; return 1; fi
    if cmp -s e1.csv e3.csv; then echo "seeds 11 and 12 give the same events"; return 1; fi
}
check same_seed_same_bytes determinism

# --- signals: a long run stopped in the middle
interrupted() { # SIGNAL STATUS FORMAT
    local sig=$1 want=$2 fmt=$3 got=0
    rm -f out.* ev.csv st.csv
    timeout --preserve-status -s "$sig" 2 "$bin" run --stations 50 --duration 1h --format "$fmt" \
        --events ev.csv --stations-csv st.csv >"out.$fmt" 2>sig.err || got=$?
    [[ $got == "$want" ]] || { echo "exit status $got, expected $want"; return 1; }
    grep -Eq '^csmacd: interrupted at [0-9]+\.[0-9]{6} s of simulated time$' sig.err
    # An hour of events is announced as large; nothing else is said.
    [[ $(grep -cv '^csmacd: warning: ev.csv: about [0-9.]* GB at ' sig.err) == 1 ]]
    ls -A | grep -q '\.tmp$' && { echo "temporary files left"; return 1; }
    # Whole lines only: every file ends with a newline, every row is full.
    for f in ev.csv st.csv "out.$fmt"; do
        [[ -s $f && $(tail -c 1 "$f" | od -An -c | tr -d ' ') == '\n' ]] || {
            echo "$f does not end with a newline"
            return 1
        }
    done
    awk -F, 'NR == 1 { n = NF } NF != n { print FILENAME ":" FNR; bad = 1 } END { exit bad }' ev.csv
    awk -F, 'NR == 1 { n = NF } NF != n { print FILENAME ":" FNR; bad = 1 } END { exit bad }' st.csv
    [[ $(wc -l <st.csv) == 51 ]]
    if [[ $fmt == json ]]; then
        python3 -c '
import json, sys
d = json.load(open("out.json"))
assert d["interrupted"] is True and 0 < d["sim_time_s"] < 3600, d["sim_time_s"]
assert len(d["stations"]) == 50'
    else
        [[ $(wc -l <"out.$fmt") == 2 ]]
        tail -1 "out.$fmt" | grep -q ',1$'
    fi
}
check sigint_json interrupted INT 130 json
check sigterm_csv interrupted TERM 143 csv

stdout_full() {
    local got=0
    "$bin" run --duration 10ms --format json >/dev/full 2>full.err || got=$?
    [[ $got == 1 ]] && grep -q '^csmacd: standard output: No space left on device$' full.err
}
check stdout_on_full_disk stdout_full

# A reader that leaves (`| head`) ends every output alike: exit 141, not
# a word, an endless paced run included (it must notice, not run on).
reader_leaves() { # OUTPUT-OPTIONS...: run's status when head leaves at once
    local rc
    set +e
    timeout 60 "$bin" run --stations 8 "$@" 2>left.err | head -c 100 >/dev/null
    rc=${PIPESTATUS[0]}
    set -e
    [[ $rc == 141 ]] || { echo "$*: exit $rc"; cat left.err; return 1; }
    if grep -q '^csmacd:' left.err; then echo "$*: a message"; cat left.err; return 1; fi
}
readers_leave() {
    reader_leaves --duration 2s --events -
    reader_leaves --duration 2s --series - --series-interval 1us
    reader_leaves --duration 2s --pcap -
    reader_leaves --duration inf --pace 0.01 --events -
    reader_leaves --duration inf --pace 0.01 --series - --series-max-rows 100000000000
    reader_leaves --duration inf --pace 0.01 --pcap -
}
check reader_leaves_141 readers_leave

# Replies waiting out their think time are bounded like a queue: a server
# with queue = 5 holds at most 5, and the sixth request's reply is dropped
# at once (a drop event at its reception, long before the 50 ms think time
# could bring any reply to its queue), counted as offered and dropped.
replies_bounded() {
    "$bin" run --traffic poisson --duration 200ms --seed 3 \
        --group 'server stations=1 traffic=none reply=64 think=50ms queue=5' \
        --group 'clients stations=10 load=0.5 frame-size=64 dest=group:server' \
        --events rep.csv --format json >rep.json
    local first drops
    first=$(awk -F, '$2 == 1 && $3 == "drop" { print $1; exit }' rep.csv)
    [[ -n $first ]] && ((first < 50000000000)) || { echo "first drop at ${first:-never}"; return 1; }
    drops=$(awk -F, '$2 == 1 && $3 == "drop"' rep.csv | wc -l)
    python3 - "$drops" <<'PY'
import json, sys
d = json.load(open("rep.json"))
s = d["stations"][0]
assert s["frames_dropped"] == int(sys.argv[1]) > 0, (s["frames_dropped"], sys.argv[1])
assert d["groups"]["server"]["frames_dropped"] == s["frames_dropped"]
assert s["frames_offered"] >= s["frames_dropped"] + s["aFramesTransmittedOK"]
PY
}
check replies_bounded replies_bounded

# An endless run says "inf" where a finite one gives its duration.
endless_says_inf() {
    local rc=0
    timeout --preserve-status -s INT 2 "$bin" run --stations 2 --pace 1000 --duration inf >inf.txt 2>inf.err || rc=$?
    [[ $rc == 130 ]] || { echo "exit $rc"; return 1; }
    grep -Eq '^  simulated time +[0-9.]+ s of inf \(warm-up 0s\)' inf.txt || { cat inf.txt; return 1; }
}
check endless_says_inf endless_says_inf

# Every preset runs as one scenario: `run --preset NAME` says which point
# (the first of its sweep) and nothing else on standard error; the
# preset's file (presets --show) given to --scenario is the same run, and
# a user's copy of it with a key changed runs as edited.
presets_run() {
    local p
    for p in $("$bin" presets | awk '{ print $1 }'); do
        "$bin" run --preset "$p" --format json >"p-$p.json" 2>"p-$p.err" ||
            { echo "run --preset $p: $(cat "p-$p.err")"; return 1; }
        if grep -v "^csmacd: preset $p: one point, the first of its sweep: " "p-$p.err" | grep -q .; then
            echo "run --preset $p said: $(cat "p-$p.err")"; return 1
        fi
        "$bin" presets --show "$p" >"$p.ini"
        "$bin" run --scenario "$p.ini" --format json >"f-$p.json" 2>"f-$p.err" ||
            { echo "run --scenario $p.ini: $(cat "f-$p.err")"; return 1; }
        grep -q "^csmacd: preset $p.ini: one point, the first of its sweep: " "f-$p.err" ||
            [[ ! -s "p-$p.err" ]] || { echo "$p.ini: $(cat "f-$p.err")"; return 1; }
        python3 - "p-$p.json" "f-$p.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d.pop("wall_s", None)
assert a == b, "run --preset and run --scenario of its file differ"
PY
    done
    grep -q 'east.segment = east-r, west.segment = west-r, dest = local:0' p-two-departments.err
    jq -e ".scenario.stations == 16" p-two-departments.json >/dev/null
    sed 's/^seed = .*//; s/^\[scenario\]$/[scenario]\nseed = 9/' two-departments.ini >mine.ini
    "$bin" run --scenario mine.ini --format json --duration 30ms 2>/dev/null | jq -e ".scenario.seed == 9" >/dev/null
    # The dialog's total of stations for a preset with groups, as the sweep's.
    "$bin" run --preset hub-vs-switch --stations 5 --duration 30ms --format json 2>/dev/null |
        jq -e ".scenario.stations == 5" >/dev/null
}
check presets_run presets_run

help_texts() {
    "$bin" >usage.txt
    grep -q '^usage: csmacd COMMAND' usage.txt
    "$bin" --help | grep -Eq '^  run +run one scenario'
    "$bin" run --help >run-help.txt
    grep -q '^usage: csmacd run ' run-help.txt
    for opt in format stations-csv events scenario phy stations topology length positions probe \
        traffic load frame-size dest batch on-off queue duration warmup seed policy batches rate \
        slot-bits two-part-deferral velocity hub-delay-bits; do
        grep -q -- "--$opt " run-help.txt || { echo "--$opt is not in run --help"; return 1; }
    done
    "$bin" --version | grep -Eq '^csmacd [0-9]+\.[0-9]+\.[0-9]+$'
}
check help_and_version help_texts

# check --format json is run's JSON `network` object (one code path); a
# switch's run records the switch, its duplex and its links' length (the
# PHY's 500 m is not what ran), in the JSON and in a sweep's CSV; check of
# a replayed capture counts its source addresses as the stations.
switch_records() {
    "$bin" check --format json --phy 100basetx --topology switch --length 5000 --stations 2 \
        >check.json 2>/dev/null
    "$bin" run --format json --phy 100basetx --topology switch --length 5000 --stations 2 \
        --duration 2ms >sw.json 2>/dev/null
    "$bin" run --format json --topology switch --stations 2 --duration 1ms >sw100.json
    "$bin" sweep --quiet --topology switch --stations 2 --duration 1ms --batches 2 --csv sw.csv
    "$bin" check --traffic "pcap:$data/../../../captures/lan-small.pcap" >pcap-check.txt
    python3 - check.json sw.json sw100.json sw.csv pcap-check.txt <<'EOF'
import csv, json, sys
check, run, run100 = (json.load(open(p)) for p in sys.argv[1:4])
assert check == run["network"], "check --format json is not run's network object"
dom = check["domains"][0]
assert dom["within"] is False and dom["from_bridge"] == "switch", dom
assert run["late_collisions"] > 0, "5000 m links: late collisions"
s = run["scenario"]
assert (s["topology"], s["duplex"], s["length_m"]) == ("switch", "half", 5000), s
s = run100["scenario"]
assert (s["topology"], s["length_m"]) == ("switch", 100), s
row = next(csv.DictReader(open(sys.argv[4])))
assert (row["topology"], row["duplex"], float(row["length_m"])) == ("switch", "half", 100), row
first = open(sys.argv[5]).readline()
assert "4 stations (one per source address of " in first, first
EOF
}
check switch_records_what_ran switch_records

echo "cli runs: $pass passed, $fail failed"
((fail == 0))
