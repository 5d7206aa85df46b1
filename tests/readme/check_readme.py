#!/usr/bin/env python3
"""check_readme.py README BINDIR SOURCE_DIR SCRATCH - the README's examples hold.

Every fenced block of README.md whose first line starts with "$ " is an
example: its "$ " lines are run in order by one bash (so `echo $?` sees the
command before it) in a scratch folder, with csmacd on the PATH, and what
they print (standard output and error) must equal the lines the README
shows under each, numbers included. Only the wall-clock figures may differ:
"N.NNN s wall" and "wall_s". With --fix, the README is rewritten with what
the program prints (then review the diff).

Every example shown without its output (a fenced block of `csmacd ...`
lines, or an indented one) runs as written, with the ```ini files the
README shows saved under the name the text gives them (a file of the
tree, such as tests/cli/data/lab.ini, must equal the block); and so does
every example of the --help texts, so of the man page made from them:
`Example:` lines, the values given after "e.g." and the LIST examples of
sweep's options. Each must exit 0, or still run after a few seconds
(check_shown, check_help).

Every row of an options table (`| \`--name\` | value | meaning (default) |`)
must name an option that some command's --help lists; where the row gives a
range ("1 to 10000") or a default (the last parenthesis, up to a ";"), the
help line of that option must give the same.

The install line (the README's first line) and CI's (.ci/run) agree: every
Debian package the README installs is in .ci/run's apt-get line, and the
README's includes bash-completion, without which the installed completion
does not load on a stock Debian.
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


COMMANDS = ('run', 'sweep', 'tui', 'presets')
ROW = re.compile(r'^\| `(--[a-z0-9-]+)` \| ([^|]*) \| (.*) \|$')
RANGE = re.compile(r'(-?[0-9][0-9.e^]*) to (-?[0-9][0-9.e^]*)')


def help_lines(bindir):
    """option -> [help lines naming it first], over every command."""
    found = {}
    for c in COMMANDS:
        out = subprocess.run([os.path.join(bindir, 'csmacd'), c, '--help'], capture_output=True,
                             text=True, env=dict(os.environ, LC_ALL='C')).stdout
        for line in out.split('\n'):
            m = re.match(r'^\s+(--[a-z0-9-]+)', line)
            if m:
                found.setdefault(m.group(1), []).append(line.strip())
    return found


def default_of(text):
    m = re.search(r'\(([^()]*)\)\s*$', text)
    return m.group(1).split(';')[0].strip() if m else None


def check_options(text, bindir, readme):
    """The README's option tables against the commands' --help."""
    helps, failures, checked = help_lines(bindir), 0, 0
    for n, line in enumerate(text.split('\n'), 1):
        m = ROW.match(line)
        if not m:
            continue
        opt, value, meaning = m.groups()
        checked += 1
        lines = helps.get(opt)
        if not lines:
            print(f'{readme}:{n}: {opt} is in no command\'s --help')
            failures += 1
            continue
        want_range = RANGE.search(value)
        if want_range and not any(want_range.group(0) in h for h in lines):
            print(f'{readme}:{n}: {opt}: the README says "{want_range.group(0)}", --help says: '
                  + ' / '.join(lines))
            failures += 1
        want = default_of(meaning)  # a value, not a remark such as "(see ...)"
        have = [default_of(h) for h in lines]
        if want is not None and ' ' not in want and all(d is not None for d in have) and \
                want not in have:
            print(f'{readme}:{n}: {opt}: the README gives the default ({want}), --help says: '
                  + ' / '.join(lines))
            failures += 1
    return checked, failures


def apt_packages(line):
    """The packages of the first `apt-get install` in line."""
    m = re.search(r'apt-get install (?:-y )?((?:[a-z0-9][a-z0-9.+-]+ ?)+)', line)
    return set(m.group(1).split()) if m else set()


def check_install_line(text, source, readme):
    """The README's install line against .ci/run's; returns failures."""
    first = text.split('\n', 1)[0]
    want = apt_packages(first)
    ci = open(os.path.join(source, '.ci', 'run'), encoding='utf-8').read()
    ci_line = re.search(r'apt-get install -y \\\n((?:.*\\\n)*.*)', ci)
    have = set(ci_line.group(1).replace('\\', ' ').split()) if ci_line else set()
    failures = 0
    if 'bash-completion' not in want:
        print(f'{readme}:1: the install line lacks bash-completion (completion would not load)')
        failures += 1
    for p in sorted(want - have):
        print(f'{readme}:1: {p} is installed by the README but not by .ci/run')
        failures += 1
    print(f'{len(want)} packages of the install line checked against .ci/run')
    return failures


# Examples shown without output (a fenced block of commands, or an indented
# one) and the examples of the --help texts (so of the man page, made from
# them) must run as written: each is run in a scratch folder, HOME there
# too, and must exit 0, or still be running without a word after DEADLINE
# seconds (a long sweep, an endless run: every input is checked before the
# work starts, so a refused option shows at once); it is then stopped.
DEADLINE = 10
INI_NAME = re.compile(r'`(?:csmacd [^`]*--scenario )?([A-Za-z0-9_./-]+\.ini)`')


def shown_examples(text):
    """(line, command) of the README's examples shown without output, and
    (name, lines) of its ```ini files, named by the last `NAME.ini` the text
    before the block mentions."""
    lines, cmds, inis = text.split('\n'), [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('```'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            body = lines[i + 1:j]
            if line.strip() == '```ini':
                before = ' '.join(lines[max(0, i - 8):i])
                names = INI_NAME.findall(before)
                if names:
                    inis.append((i + 1, names[-1], body))
            elif body and not body[0].startswith('$ '):
                cmds += [(i + 2 + k, b) for k, b in enumerate(body)
                         if re.match(r'^csmacd( [a-z-]+)?( |$)', b) and
                         not re.match(r'^csmacd [a-z]+:', b)]
            i = j + 1
            continue
        if line.startswith('    csmacd ') and (i == 0 or lines[i - 1].strip() == '' or
                                              lines[i - 1].startswith('    ')):
            cmds.append((i + 1, line.strip()))
        i += 1
    return cmds, inis


def start_example(cmd, bindir, folder):
    """Runs one example; returns None when it passes, else what it printed."""
    import signal
    head, _, tail = cmd.partition(' | ')
    if tail and not tail.startswith('csmacd'):
        cmd = head + ' >/dev/null'  # a reader we do not have here (wireshark)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ['PATH'], LC_ALL='C',
               HOME=os.path.join(folder, 'home'))
    env.pop('XDG_CONFIG_HOME', None)
    os.makedirs(env['HOME'], exist_ok=True)
    p = subprocess.Popen(['bash', '-c', cmd], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=DEADLINE)
        return None if p.returncode == 0 else f'exit {p.returncode}: {err.strip()}'
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        return None


def check_shown(text, bindir, source, scratch, readme):
    """The README's examples shown without output, with its ini files."""
    folder = os.path.join(scratch, 'shown')
    os.makedirs(folder, exist_ok=True)
    link = os.path.join(folder, 'tests')
    if not os.path.lexists(link):
        os.symlink(os.path.join(source, 'tests'), link)
    cmds, inis = shown_examples(text)
    failures = 0
    for line, name, body in inis:
        shown = '\n'.join(body).rstrip('\n') + '\n'
        real = os.path.join(source, name)
        if '/' in name and os.path.exists(real):
            if open(real, encoding='utf-8').read() != shown:
                print(f'{readme}:{line}: the ini block differs from {name}')
                failures += 1
        else:
            open(os.path.join(folder, os.path.basename(name)), 'w', encoding='utf-8').write(shown)
    for line, cmd in cmds:
        why = start_example(cmd, bindir, folder)
        if why is not None:
            print(f'{readme}:{line}: `{cmd}` does not run as written: {why}')
            failures += 1
    print(f'{len(cmds)} README examples shown without output run, {len(inis)} ini files')
    return failures


# The option examples of the --help texts, each tried in a command that
# gives it a context (a scenario option in run; {v} is the example).
HELP_CONTEXT = {
    'sweep': 'csmacd sweep --quiet --duration 100us --csv ex.csv --{o} {v}',
    'sweep load': 'csmacd sweep --quiet --duration 100us --csv ex.csv --traffic poisson '
                  '--load {v}',
    'sweep grid': "csmacd sweep --quiet --duration 100us --csv ex.csv "
                  "--group 'rogue policy=none' --group 'good stations=4' --grid {v}",
    'run': 'csmacd run --duration 1ms --{o} {v}',
    'run outage': 'csmacd run --duration 200ms --outage {v}',
}


def help_examples(bindir):
    """(where, command) for every example of the --help texts."""
    import shlex
    out = []
    for c in ('',) + COMMANDS + ('extcap',):
        args = [os.path.join(bindir, 'csmacd')] + ([c] if c else []) + ['--help']
        text = subprocess.run(args, capture_output=True, text=True,
                              env=dict(os.environ, LC_ALL='C')).stdout
        where = f'csmacd {c} --help'.replace('  ', ' ')
        for line in text.split('\n'):
            m = re.match(r'^Example: (csmacd .*)$', line)
            if m:
                out.append((where, m.group(1)))
            m = re.match(r'^\s+--([a-z0-9-]+) (\S+)\s+(.*)$', line)
            if not m:
                continue
            opt, arg, helptext = m.groups()
            values = []
            e = re.search(r"e\.g\. ('[^']*'|[^()]*?)(?: \(|$)", helptext)
            if e:
                v = e.group(1)
                values += [v.strip("'")] if v.startswith("'") else v.split(', ')
            if c == 'sweep' and 'LIST' in arg:
                tail = re.sub(r' \([^)]*\)$', '', helptext.rsplit(': ', 1)[-1])
                if ': ' in helptext:
                    values += tail.split(' or ')
            if c in ('tui', 'sweep') and not ('LIST' in arg and c == 'sweep'):
                continue  # scenario options: tried once, under run
            for v in values:
                ctx = HELP_CONTEXT.get(f'{c} {opt}') or HELP_CONTEXT.get(c)
                if ctx:
                    out.append((f'{where}, --{opt}', ctx.format(o=opt, v=shlex.quote(v))))
    return out


def check_help(bindir, scratch):
    folder = os.path.join(scratch, 'help')
    os.makedirs(folder, exist_ok=True)
    failures = 0
    examples = help_examples(bindir)
    for where, cmd in examples:
        why = start_example(cmd, bindir, folder)
        if why is not None:
            print(f'{where}: the example `{cmd}` does not run: {why}')
            failures += 1
    print(f'{len(examples)} examples of the --help texts run')
    return failures


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
    readme, bindir, source, scratch = [os.path.abspath(a) for a in sys.argv[1:] if a != '--fix']
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
    failures += check_install_line(text, source, readme)
    failures += check_shown(text, bindir, source, scratch, readme)
    failures += check_help(bindir, scratch)
    rows, wrong = check_options(text, bindir, readme)
    print(f'{rows} README option rows checked, {wrong} disagree with --help')
    failures += wrong
    if fix:
        for start, end, new in reversed(edits):
            lines[start:end] = new
        open(readme, 'w', encoding='utf-8').write('\n'.join(lines))
    print(f'{checked} README examples checked, {failures} differ')
    return 1 if failures and not fix else 0


if __name__ == '__main__':
    sys.exit(main())
