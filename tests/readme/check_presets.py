#!/usr/bin/env python3
"""check_presets.py - the numbers README.md quotes for the presets.

Usage: check_presets.py README.md CSMACD SCRATCH

Runs each preset whose paragraph quotes numbers as the README describes it (`csmacd sweep
--preset NAME`, its own reps, durations and seed) and checks that every
number the README's paragraph on it quotes is the run's, rounded as the
README rounds it: each check builds the README's phrase from the CSV and
looks for it in the README, so a stale paragraph (or a model change that
moves a number) fails here with the phrase the README should now say.
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
    col = [f(r, 'collisions') for r in rows]
    assert late[:3] == [0, 0, 0], late
    return [
        '%.1f, %.1f, %.2f (the standard\'s worked example, just within) and\n%.2f bit times'
        % tuple(pdv),
        'is %.0f, %.0f, %.0f and %.0f bit times' % tuple(rt),
        'about %.0f of them per\n100 ms run are late (0 with one or two hubs)' % late[3],
        'Throughput hardly moves\n(%.3f to %.3f)' % (min(s), max(s)),
        'nor do the collision events (%.0f to %.0f per run' % (min(col), max(col)),
    ]


def five_four_three(rows):
    pdv = [f(r, 'pdv_bits') for r in rows]
    rt = [f(r, 'model_round_trip_bits') for r in rows]
    lost = [f(r, 'frames_corrupted') for r in rows]
    late = [f(r, 'late_collisions') for r in rows]
    s = [f(r, 'throughput') for r in rows]
    col = [f(r, 'collisions') for r in rows]
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
        'Throughput hardly moves (%.3f\nto %.3f)' % (max(s), min(s)),
        'nor do the collision events\n(%.0f to %.0f per run' % (min(col), max(col)),
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


def at(rows, **want):
    """The one row whose columns have the values given."""
    found = [r for r in rows if all(r[k] == v for k, v in want.items())]
    assert len(found) == 1, (want, len(found))
    return found[0]


def throughput_vs_n(rows):
    s = [f(at(rows, stations='1024', frame_size_bytes=b), 'throughput') for b in ('64', '512', '1518')]
    return ['throughput is %.2f with 64-byte frames, %.2f with 512 and %.2f with 1518' % tuple(s)]


def throughput_vs_load(rows):
    s = {r['load']: f(r, 'throughput') for r in rows}
    assert s['0.8'] > 0.75 and s['0.9'] < 0.85, s  # follows G up to about 0.8
    return ['levels off near\n%.2f' % s['10']]


def cable_length(rows):
    short = [r for r in rows if r['frame_size_bytes'] == '64']
    clean = max(f(r, 'length_m') for r in short if f(r, 'frames_corrupted') == 0)
    lost = min(f(r, 'length_m') for r in short if f(r, 'frames_corrupted') > 0)
    assert clean < lost, (clean, lost)  # no clean length beyond the first loss
    return ['Beyond about %g km a 64-byte frame ends' % ((clean + lost) / 2000)]


def batch_contention(rows):
    r = at(rows, stations='256')
    return ['(about %s attempts\nper station at N = 256)'
            % {9: 'nine', 10: 'ten', 8: 'eight'}.get(round(f(r, 'attempts') / 256), '?')]


def policy_batch(rows):
    p = {r['policy']: r for r in rows if r['stations'] == '200'}
    for k in ('expo', 'none'):
        assert f(p[k], 'attempts') == 16 * 200 and f(p[k], 'frames_aborted') == 200, k
    return [
        'full jitter needs\nabout %.1f attempts per station and %.0f ms'
        % (f(p['full-jitter'], 'attempts') / 200, f(p['full-jitter'], 'completion_s') * 1e3),
        'sooner (%.0f ms)' % (f(p['decorrelated'], 'completion_s') * 1e3),
    ]


def policy_throughput_n(rows):
    s = lambda pol, n: f(at(rows, policy=pol, stations=n), 'throughput')
    fx = 'fixed:wait=2,jitter=2'
    assert s(fx, '128') == 0 and s('aloha', '16') < 0.005, (s(fx, '128'), s('aloha', '16'))
    return [
        'BEB holds %.2f of the channel at N = 1024' % s('beb', '1024'),
        '(%.2f at 64, nothing at 128)' % s(fx, '64'),
        'falls from %.2f with\n2 stations to %.2f with 8' % (s('aloha', '2'), s('aloha', '8')),
    ]


def capture(rows):
    beb = [r for r in rows if r['policy'] == 'beb']
    ca = {r['stations']: r for r in rows if r['policy'] == 'ca-beb'}
    run = [f(r, 'capture_mean_run') for r in beb]
    top = [f(r, 'capture_max_run') for r in beb]
    lost = [f(r, 'frames_aborted') for r in beb]
    words = {1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven'}
    jain = {r['stations']: f(r, 'jain_fairness') for r in beb}
    return [
        'runs of %.0f to %.0f frames on\naverage (the longest %.0f to %.0f'
        % (round(min(run), -1), round(max(run), -1), round(min(top), -1), round(max(top), -1)),
        '(%s to %s per window)' % (words[round(min(lost))], words[round(max(lost))]),
        'Jain index\n%.1f against %.2f' % (f(ca['2'], 'jain_fairness'), jain['2']),
        'rises only from %.2f to %.2f at N = 8' % (jain['8'], f(ca['8'], 'jain_fairness')),
    ]


def ideal_vs_real(rows):
    s = lambda pol, n: f(at(rows, policy=pol, stations=n), 'throughput')
    return ['(%.2f to %.2f)' % (s('beb', '2'), s('beb', '64'))]


def weakest_link(rows):
    pt = {(int(r['stations']), r['rogue.policy'], int(r['rogue.stations'])): r for r in rows}
    none = lambda n, k, m: f(pt[(n, 'none', k)], m)
    fixed = [pt[(16, 'fixed:wait=2,jitter=2', k)] for k in (1, 2, 3)]
    chan = [f(pt[(n, 'fixed:wait=2,jitter=2', k)], 'throughput') for n in (16, 64)
            for k in (1, 2, 3)]
    return [
        '(all %.0f in 0.5 s at N = 16, %.0f at N = 64; throughput\n%.2f and %.2f)'
        % (none(16, 1, 'rogue.frames_ok'), none(64, 1, 'rogue.frames_ok'),
           none(16, 1, 'throughput'), none(64, 1, 'throughput')),
        'abort theirs (%.0f\nand %.0f)' % (none(16, 1, 'beb.frames_aborted'),
                                          none(64, 1, 'beb.frames_aborted')),
        '%.2f with BEB\nalone, is %.2f with one rogue and %.0f with two'
        % (none(16, 0, 'throughput'), none(16, 1, 'throughput'), none(16, 2, 'throughput')),
        '(the channel keeps %.2f to %.2f)' % (min(chan), max(chan)),
        'the BEB stations keep %.2f to %.2f of the channel at\nN = 16'
        % (f(fixed[0], 'beb.throughput'), f(fixed[2], 'beb.throughput')),
        'abort frames too (%.0f to %.0f)' % (f(fixed[0], 'rogue.frames_aborted'),
                                            f(fixed[2], 'rogue.frames_aborted')),
    ]


def file_server(rows):
    pt = {int(r['client.stations']): r for r in rows}
    share = [f(pt[k], 'server.share') for k in (1, 2, 4, 8, 16)]
    assert max(share) - min(share) < 0.005, share
    r = 'client.response_mean_s'
    return [
        'carries %.2f of the bits delivered up to K = 16 (%.2f at 32;'
        % (share[0], f(pt[32], 'server.share')),
        'is %.1f ms with one client' % (f(pt[1], r) * 1e3),
        '%.1f ms at K = 16 and %.2f s at K = 32' % (f(pt[16], r) * 1e3, f(pt[32], r)),
        '(%.0f\nreplies dropped per run)' % f(pt[32], 'server.frames_dropped'),
    ]


def mixed_storm(rows):
    pt = {int(r['fixed.stations']): r for r in rows}
    rec = [f(pt[k], 'recovery_s') for k in (0, 25, 100, 250)]
    assert pt[500]['recovery_s'] == '', pt[500]['recovery_s']  # never recovers
    return [
        'within %.2f to %.2f s' % (min(rec), max(rec)),
        'never recovers (%.0f\nframes still queued at the end, throughput %.2f of 0.35 offered)'
        % (f(pt[500], 'fixed.frames_queued'), f(pt[500], 'throughput')),
    ]


def retry_storm(rows):
    pt = {(r['policy'].split(':')[0], r['load']): r for r in rows}
    loads = ('0.2', '0.35', '0.5')
    fixed = [pt[('fixed', g)] for g in loads]
    beb = [f(pt[('beb', g)], 'recovery_s') for g in loads]
    assert all(r['recovery_s'] == '' for r in fixed)  # fixed retry never recovers
    assert pt[('gaussian', '0.35')]['recovery_s'] == pt[('gaussian', '0.5')]['recovery_s'] == ''
    return [
        'falls to %.2f,\n%.2f and %.2f against 0.2, 0.35 and 0.5 offered'
        % tuple(f(r, 'throughput') for r in fixed),
        'gives up %.0f to\n%.0f frames per run' % (f(fixed[0], 'frames_aborted'),
                                                  f(fixed[2], 'frames_aborted')),
        'BEB recovers in %.2f, %.2f\nand %.2f s' % tuple(beb),
        'recovers only at G = 0.2 (%.2f s)' % f(pt[('gaussian', '0.2')], 'recovery_s'),
    ]


PRESETS = [('throughput-vs-n', throughput_vs_n), ('throughput-vs-load', throughput_vs_load),
           ('cable-length', cable_length), ('batch-contention', batch_contention), ('policy-batch', policy_batch),
           ('policy-throughput-n', policy_throughput_n), ('capture', capture),
           ('ideal-vs-real', ideal_vs_real), ('weakest-link', weakest_link), ('file-server', file_server),
           ('mixed-storm', mixed_storm), ('retry-storm', retry_storm),
           ('cascaded-hubs', cascaded), ('five-four-three', five_four_three),
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
