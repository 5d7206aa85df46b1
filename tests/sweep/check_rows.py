#!/usr/bin/env python3
"""check_rows.py - re-runs sweep rows alone with `csmacd run`.

Pins: every row of a sweep CSV (one replication per point) and every row
of a --reps-csv file, turned back into `csmacd run` options from its
scenario columns, its groups' NAME.group columns and its seed, prints exactly the same measures (the same
text, so the same numbers to the last printed digit) as the sweep did.
Also pins the tidy shape: one header, the same number of fields on every
row. It does not judge the values themselves.

usage: check_rows.py CSMACD FILE.csv [--reps]
"""
import csv
import subprocess
import sys

# Column -> run option. Columns not listed (point, reps, ...) are results.
OPTIONS = {
    "phy": "phy", "stations": "stations", "topology": "topology", "duplex": "duplex",
    "length_m": "length", "probe_m": "probe", "traffic": "traffic",
    "load": "load", "frame_size_bytes": "frame-size", "dest": "dest",
    "batch_frames": "batch", "queue_frames": "queue", "policy": "policy",
    "duration_s": "duration", "warmup_s": "warmup", "batches": "batches",
    "rate_bps": "rate", "slot_bits": "slot-bits", "ifg_bits": "ifg-bits",
    "ifg_part1_bits": "ifg-part1-bits", "jam_bits": "jam-bits",
    "preamble_bits": "preamble-bits", "min_frame_bytes": "min-frame",
    "max_frame_bytes": "max-frame", "attempt_limit": "attempt-limit",
    "backoff_limit": "backoff-limit", "two_part_deferral": "two-part-deferral",
    "extension": "extension", "bursting": "bursting",
    "burst_limit_bits": "burst-limit", "retry_late": "retry-late",
    "velocity_c": "velocity", "hub_delay_bits": "hub-delay-bits",
}


def same_real(name, a, b):
    """A domain's throughput and a port's queue delays: run's CSV prints
    them with 6 significant digits, the sweep's with 12."""
    if not name.endswith(("domain_throughput", "queue_delay_mean_us", "queue_delay_p99_us")):
        return False
    if a == "" or b == "":
        return a == b
    return abs(float(a) - float(b)) <= 1e-5 * max(abs(float(a)), abs(float(b)))


def run_args(row):
    args = []
    traffic = row["traffic"]
    # With groups, a NAME.group column per group holds it as --group takes
    # it; the stations column is then their total (run takes the groups'),
    # and load, batch and on-off are defaults that any group may use.
    groups = [v for k, v in row.items() if k.endswith(".group")]
    for col, opt in OPTIONS.items():
        if col not in row:  # duplex: only when some point is a switch
            continue
        if row[col] == "":  # not given: a switch's probe_m
            continue
        if opt == "stations" and groups:
            continue
        # Options that `run` refuses as conflicting with the traffic kind.
        if opt == "load" and traffic not in ("poisson", "onoff") and not groups:
            continue
        if opt == "batch" and traffic != "batch" and not groups:
            continue
        args += ["--" + opt, row[col]]
    if traffic == "onoff" or groups:
        args += ["--on-off", row["on_mean_s"] + "s/" + row["off_mean_s"] + "s"]
    for spec in groups:
        args += ["--group", spec]
    args += ["--seed", row["seed"]]
    return args


def main():
    exe, path = sys.argv[1], sys.argv[2]
    reps = len(sys.argv) > 3 and sys.argv[3] == "--reps"
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert body, "no rows"
    for r in body:
        assert len(r) == len(header), "ragged row: %r" % r
    checked = 0
    for r in body:
        row = dict(zip(header, r))
        if not reps and row["reps"] != "1":
            continue
        out = subprocess.run([exe, "run", "--format", "csv"] + run_args(row),
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        run = dict(zip(lines[0].split(","), lines[1].split(",")))
        for name, value in run.items():
            if name in ("wall_s", "interrupted") or name not in row:
                continue
            if name == "throughput_ci95" and not reps:
                pass  # one replication: the batch-means interval, compared too
            if same_real(name, row[name], value):
                continue
            assert row[name] == value, "point %s: %s is %s in the sweep, %s alone (%s)" % (
                row["point"], name, row[name], value, " ".join(run_args(row)))
        if any(k.endswith(".group") for k in row):  # the groups' measures too
            for name, value in run.items():
                if "." in name and name in row:
                    assert row[name] == value, "point %s: %s is %s in the sweep, %s alone" % (
                        row["point"], name, row[name], value)
        checked += 1
    assert checked > 0, "no row had one replication"
    print("%s: %d rows re-run alone, identical" % (path, checked))


if __name__ == "__main__":
    main()
