#!/usr/bin/env python3
"""check_readme.py README BINDIR SOURCE_DIR SCRATCH - the README's examples hold.

Every fenced block of README.md whose first line starts with "$ " is an
example: its "$ " lines are run in order by one bash (so `echo $?` sees the
command before it) in a scratch folder, with csmacd on the PATH, and what
they print (standard output and error) must equal the lines the README
shows under each, numbers included. Only the wall-clock figures may differ:
"N.NNN s wall" and "wall_s". With --fix, the README is rewritten with what
the program prints (then review the diff).
"""
import os
import re
import subprocess
import sys

WALL = [(re.compile(r'\d+\.\d+ s wall'), 'N s wall'),
        (re.compile(r'("wall_s": )[0-9.e+-]+'), r'\1N')]


def masked(line):
    for pat, rep in WALL:
        line = pat.sub(rep, line)
    return line


def examples(text):
    """(first line index, [(command, [expected lines])]) per example block."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        if lines[i].startswith('```') and i + 1 < len(lines) and lines[i + 1].startswith('$ '):
            j, steps = i + 1, []
            while not lines[j].startswith('```'):
                if lines[j].startswith('$ '):
                    steps.append((lines[j][2:], []))
                else:
                    steps[-1][1].append(lines[j])
                j += 1
            yield i + 1, j, steps
            i = j
        i += 1


def run_block(steps, bindir, source, scratch):
    marker = '@@csmacd-readme-step@@'
    # each step sees the exit status of the one before it (`echo $?`)
    script = '__st=0\n' + ''.join(f"printf '%s\\n' '{marker}'\n(exit $__st)\n{cmd} 2>&1\n__st=$?\n"
                                  for cmd, _ in steps)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ['PATH'], LC_ALL='C')
    os.makedirs(scratch, exist_ok=True)
    link = os.path.join(scratch, 'tests')
    if not os.path.lexists(link):
        os.symlink(os.path.join(source, 'tests'), link)
    out = subprocess.run(['bash', '-c', script], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=600).stdout
    parts = out.split(marker + '\n')[1:]
    return [p.rstrip('\n').split('\n') if p.strip('\n') else [] for p in parts]


def main():
    fix = '--fix' in sys.argv
    readme, bindir, source, scratch = [a for a in sys.argv[1:] if a != '--fix']
    text = open(readme, encoding='utf-8').read()
    lines = text.split('\n')
    failures, checked, edits = 0, 0, []
    for start, end, steps in examples(text):
        got = run_block(steps, bindir, source, scratch)
        new = []
        for (cmd, want), have in zip(steps, got):
            checked += 1
            new.append('$ ' + cmd)
            new.extend(have)
            if [masked(x) for x in want] != [masked(x) for x in have]:
                failures += 1
                print(f'{readme}:{start + 1}: `{cmd}` prints other lines than the README shows:')
                for x in want:
                    print('  README: ' + x)
                for x in have:
                    print('  prints: ' + x)
        edits.append((start, end, new))
    if fix:
        for start, end, new in reversed(edits):
            lines[start:end] = new
        open(readme, 'w', encoding='utf-8').write('\n'.join(lines))
    print(f'{checked} README examples checked, {failures} differ')
    return 1 if failures and not fix else 0


if __name__ == '__main__':
    sys.exit(main())
