#!/usr/bin/env python3
"""check_presets.py - the numbers README.md quotes for the network presets.

Usage: check_presets.py README.md CSMACD SCRATCH

Runs each network preset as the README describes it (`csmacd sweep
--preset NAME`, its own reps, durations and seed) and checks that every
number the README's paragraph on it quotes is the run's, rounded as the
README rounds it: each check builds the README's phrase from the CSV and
looks for it in the README, so a stale paragraph (or a model change that
moves a number) fails here with the phrase the README should now say.
The weakest-link, retry-storm and file-server presets' numbers are
checked by tests/sweep (test_sweep_cli.sh, retry_storm.sh).
"""
import csv
import os
import subprocess
import sys


def sweep(bindir_exe, scratch, name):
    path = os.path.join(scratch, name + '.csv')
    subprocess.run([bindir_exe, 'sweep', '--preset', name, '--quiet', '--jobs', '2', '--csv',
                    path], check=True, stderr=subprocess.DEVNULL)
    return list(csv.DictReader(open(path, newline='')))


def f(row, key):
    return float(row[key])


def by_topology(rows, n_key):
    """The three series of a hub-or-switch preset: each a function of N
    (n_key's value) and a measure."""
    pt = {(r['topology'], r['duplex'], int(r[n_key])): r for r in rows}
    return [lambda n, k, t=t, d=d: f(pt[(t, d, n)], k)
            for t, d in (('star', 'half'), ('switch', 'half'), ('switch', 'full'))]


def cascaded(rows):
    pdv = [f(r, 'pdv_bits') for r in rows]
    rt = [f(r, 'model_round_trip_bits') for r in rows]
    late = [f(r, 'late_collisions') for r in rows]
    s = [f(r, 'throughput') for r in rows]
    assert late[:3] == [0, 0, 0], late
    return [
        '%.1f, %.1f, %.2f (the standard\'s worked example, just within) and\n%.2f bit times'
        % tuple(pdv),
        'is %.0f, %.0f, %.0f and %.0f bit times' % tuple(rt),
        'about %.0f of them per\n100 ms run are late (0 with one or two hubs)' % late[3],
        'Throughput hardly moves\n(%.3f to %.3f)' % (min(s), max(s)),
    ]


def five_four_three(rows):
    pdv = [f(r, 'pdv_bits') for r in rows]
    rt = [f(r, 'model_round_trip_bits') for r in rows]
    lost = [f(r, 'frames_corrupted') for r in rows]
    late = [f(r, 'late_collisions') for r in rows]
    s = [f(r, 'throughput') for r in rows]
    assert lost[:5] == [0] * 5 and late[:5] == [0] * 5, (lost, late)
    # "about 70": the lost frames per run with six and seven repeaters, to the ten
    about = round((lost[5] + lost[6]) / 2, -1)
    return [
        '%.2f\nwith one, %.2f with four (within 575), %.2f with five' % (pdv[0], pdv[3], pdv[4]),
        '%.0f with four\nrepeaters, exactly the limit' % f(rows[3], 'pvv_bits'),
        'is %.1f bit times with one repeater, %.1f with five and\n%.1f with six'
        % (rt[0], rt[4], rt[5]),
        'about %.0f frames per 500 ms run are lost so' % about,
        'is late (%.1f to %.1f per run)' % (min(late[5:]), max(late[5:])),
        'Throughput hardly moves (%.2f\nto %.2f)' % (max(s), min(s)),
    ]


def hub_vs_switch(rows):
    hub, half, full = by_topology(rows, 'stations')
    t = 'throughput'
    return [
        '(%.2f at N =\n4, %.2f at 8, %.2f at 32)' % (hub(4, t), hub(8, t), hub(32, t)),
        '(mean delay %.0f ms at N = 4, %.2f s at 32)'
        % (hub(4, 'mean_delay_us') / 1e3, hub(32, 'mean_delay_us') / 1e6),
        'dropped (%.0f frames per run at 32)' % hub(32, 'frames_dropped'),
        '%.2f to %.2f at N = 4, %.2f at 8, %.1f at 16 (the full-duplex one %.2f at 32)'
        % (min(half(4, t), full(4, t)), max(half(4, t), full(4, t)), half(8, t), half(16, t),
           full(32, t)),
        '(%.0f collision events per\nrun at N = 8 against %.0f on the hub'
        % (half(8, 'collisions'), hub(8, 'collisions')),
        'loses %.0f frames per run to full\nqueues (%.2f, delay %.0f ms)'
        % (half(32, 'frames_dropped'), half(32, t), half(32, 'mean_delay_us') / 1e3),
    ] + ([] if all(full(n, 'collisions') == 0 for n in (2, 4, 8, 16, 32))
         else ['full duplex collides'])


def two_departments(rows):
    pt = {(r['east.segment'], r['dest']): r for r in rows}
    rep = [f(pt[('east-r', d)], 'throughput') for d in
           ('local:0', 'local:0.25', 'local:0.5', 'local:0.75', 'local:0.9', 'local:1')]
    bri = lambda d, k: f(pt[('east-b', d)], k)
    assert max(rep) - min(rep) < 0.005, rep
    return [
        'the throughput is\n%.2f whatever p' % rep[0],
        '%.2f in all' % bri('local:1', 'throughput'),
        'breaks even with the\nrepeater (%.2f)' % bri('local:0.5', 'throughput'),
        'queue drops %.0f frames per run: %.2f' % (bri('local:0', 'b.east-b.frames_dropped'),
                                                  bri('local:0', 'throughput')),
        'mean delay of %.2f s' % (bri('local:0', 'mean_delay_us') / 1e6),
    ]


def server_port(rows):
    hub, half, full = by_topology(rows, 'client.stations')
    q = 'switch.link1.queue_delay_mean_us'
    r = 'client.response_mean_s'
    return [
        'the hub stops at %.2f (K = 24), the switches at %.2f and\n%.2f'
        % (hub(24, 'throughput'), half(24, 'throughput'), full(24, 'throughput')),
        '(%.0f collision events per run at K = 24)' % hub(24, 'collisions'),
        '(%.0f of them dropped at its full queue)' % hub(24, 'server.frames_dropped'),
        'is %.0f ms at K = 16 and %.2f s at 24' % (hub(16, r) * 1e3, hub(24, r)),
        'grows from %.1f ms (one client: a frame\'s time) to %.1f\nms at K = 16, %.0f ms at 20 '
        'and %.0f ms at 24' % (full(1, q) / 1e3, full(16, q) / 1e3, full(20, q) / 1e3,
                               full(24, q) / 1e3),
        'overflows (%.0f frames dropped per run)' % full(24, 'switch.link1.frames_dropped'),
        'the response time stays %.1f ms at\nK = 16' % (full(16, r) * 1e3),
        '(%.0f acknowledgements dropped at K = 24)' % half(24, 'server.frames_dropped'),
        'waits twice as long behind a switch (%.1f ms against %.1f ms on the hub)'
        % (full(1, r) * 1e3, hub(1, r) * 1e3),
    ]


PRESETS = [('cascaded-hubs', cascaded), ('five-four-three', five_four_three),
           ('hub-vs-switch', hub_vs_switch), ('two-departments', two_departments),
           ('server-port', server_port)]


def main():
    readme, exe, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    text = open(readme, encoding='utf-8').read()
    flat = ' '.join(text.split())  # the README wraps its lines anywhere
    failures = checked = 0
    for name, phrases in PRESETS:
        for want in phrases(sweep(exe, scratch, name)):
            checked += 1
            if ' '.join(want.split()) not in flat:
                print('%s: the README should say "%s"' % (name, ' '.join(want.split())))
                failures += 1
    print('preset numbers: %d checked, %d stale' % (checked, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
