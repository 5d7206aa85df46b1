#!/usr/bin/env bash
# bench_jobs.sh - the sweep's speed-up from threads: one fixed sweep (10base5,
# saturated stations, N = 8, 16, 32, 64 with 64 and 1518-byte frames: 8
# points, 2 replications of 30 s simulated each) run with --jobs 1 and with
# --jobs 2, alternately, ROUNDS times each (default 3). Prints for each the
# median wall time, the CPU time (user + system) and CPU time per point, the
# speed-up (wall at --jobs 1 over wall at --jobs 2) and the parallelism of
# the --jobs 2 runs (CPU time over wall time: 2 when both threads run all
# along), and the load average before and after: on a busy machine the
# wall times say little, the CPU time per point still says what a point
# costs. Also checks that both CSVs are byte-identical. Not a CTest test:
# the figures depend on the machine.
#
# usage: bench_jobs.sh CSMACD WORK_DIR [ROUNDS]
set -eu
EXE=$1
WORK=$2
ROUNDS=${3:-3}
mkdir -p "$WORK"
python3 - "$EXE" "$WORK" "$ROUNDS" "$(nproc)" <<'PY'
import os, resource, statistics, subprocess, sys, time

exe, work, rounds, cores = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
points = 8
sweep = [exe, "sweep", "--phy", "10base5", "--traffic", "saturated",
         "--stations", "8,16,32,64", "--frame-size", "64,1518", "--reps", "2",
         "--duration", "30s", "--warmup", "0", "--quiet"]


def load():
    return open("/proc/loadavg").read().split()[0]


def run(jobs):
    csv = os.path.join(work, "jobs%d.csv" % jobs)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(sweep + ["--jobs", str(jobs), "--csv", csv], check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


load0 = load()
res = {1: [], 2: []}
for _ in range(rounds):
    for jobs in (1, 2):
        res[jobs].append(run(jobs))
load1 = load()
same = open(os.path.join(work, "jobs1.csv"), "rb").read() == \
    open(os.path.join(work, "jobs2.csv"), "rb").read()
med = {j: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
       for j, r in res.items()}
print("sweep speed-up: %d points x 2 replications of 30 s simulated, %d rounds, "
      "%s cores, load average %s before, %s after" % (points, rounds, cores, load0, load1))
for j in (1, 2):
    w, c = med[j]
    print("  --jobs %d: wall %.2f s, CPU %.2f s (%.3f s per point)%s" % (
        j, w, c, c / points,
        ", parallelism %.2f" % (c / w) if j == 2 else ""))
print("  speed-up (wall at --jobs 1 / wall at --jobs 2): %.2f" % (med[1][0] / med[2][0]))
print("  CSVs at --jobs 1 and 2: %s" % ("byte-identical" if same else "DIFFERENT"))
sys.exit(0 if same else 1)
PY
