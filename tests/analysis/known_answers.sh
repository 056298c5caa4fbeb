#!/bin/sh
# known_answers.sh [--readable] MPIRR_CLI TRACEGEN TRACES_DIR|SCRIPT...
#
# For each trace script (every traces/*.trace of a directory, or the scripts named): writes its
# event history with TRACEGEN into a temporary recording directory, then
#  - checks that `MPIRR_CLI events DIR` reads every rank to a clean end with nothing on stderr
#    and that `TRACEGEN --labels` names (rank, event) pairs of the trace;
#  - unless --readable: runs `MPIRR_CLI races DIR --json` and, for each `#expect frontier`
#    line, `MPIRR_CLI frontier DIR --at R:E --before|--after --json`, and compares them with
#    the script's `#expect` lines (README.md lists their forms).
# Each mismatch is one line `SCRIPT:LINE: ...`; the exit status is 1 if there was any.
# Needs python3.
exec python3 - "$@" <<'PYEOF'
import json, os, re, shutil, subprocess, sys, tempfile

args = sys.argv[1:]
readable_only = bool(args) and args[0] == '--readable'
if readable_only:
    args = args[1:]
if len(args) < 3:
    sys.stderr.write('usage: known_answers.sh [--readable] MPIRR_CLI TRACEGEN TRACES_DIR|SCRIPT...\n')
    sys.exit(2)
mpirr, tracegen, targets = args[0], args[1], args[2:]
scripts = []
for t in targets:
    if os.path.isdir(t):
        scripts += sorted(os.path.join(t, f) for f in os.listdir(t) if f.endswith('.trace'))
    else:
        scripts.append(t)
if not scripts:
    sys.stderr.write('known_answers.sh: no .trace scripts in %s\n' % ' '.join(targets))
    sys.exit(2)

failures = 0


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


class Script:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.bad = 0
        self.labels = {}   # label -> (rank, event)
        self.names = {}    # (rank, event) -> label
        self.expects = []  # (line, kind, rest)

    def fail(self, line, msg):
        global failures
        failures += 1
        self.bad += 1
        print('%s:%s: %s' % (self.name, line if line else '-', msg))

    def label(self, line, name):
        if name not in self.labels:
            self.fail(line, 'unknown label @%s in #expect' % name)
            return None
        return self.labels[name]

    def show(self, key):
        return '@' + self.names[key] if key in self.names else '%d:%d' % key


def obj_key(o):
    return (int(o['rank']), int(o['event']))


def parse_expects(s):
    with open(s.path) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*#expect\s+(\S+)\s*(.*?)\s*$', line)
            if m:
                s.expects.append((n, m.group(1), m.group(2)))


def check_readable(s, d):
    rc, out, err = run([mpirr, 'events', d])
    if rc != 0 or err.strip():
        s.fail(0, '`mpirr events` of the generated trace: exit %d: %s' % (rc, (err.strip() or 'no message').split('\n')[0]))
        return
    ranks = set()
    for line in out.split('\n'):
        m = re.match(r'(\d+):(\d+) MPI_', line)
        if m:
            ranks.add(int(m.group(1)))
    finals = re.findall(r'^(\d+):(\d+) MPI_Finalize', out, re.M)
    if len(finals) != len(ranks) or not ranks:
        s.fail(0, '`mpirr events`: %d ranks printed, %d end with MPI_Finalize' % (len(ranks), len(finals)))
    events = set((int(r), int(e)) for r, e in re.findall(r'^(\d+):(\d+) MPI_', out, re.M))
    for name, key in s.labels.items():
        if key not in events:
            s.fail(0, 'label @%s = %d:%d is not an event of the trace' % ((name,) + key))


def check_races(s, d):
    exp = [e for e in s.expects if e[1] != 'frontier']
    if not exp:
        return
    rc, out, err = run([mpirr, 'races', d, '--json'])
    try:
        j = json.loads(out)
    except ValueError:
        s.fail(0, '`mpirr races %s --json`: exit %d, no JSON on stdout: %s' % (
            os.path.basename(d), rc, (err.strip() or out.strip() or 'no output').split('\n')[0]))
        return
    consistent = all(not (k in ('unmatched-recv', 'unreceived-send') and r != 'none') for _, k, r in exp)
    if rc != 0 and consistent:
        s.fail(0, '`mpirr races` exited %d on a consistent trace: %s' % (rc, err.strip().split('\n')[0]))
    summary = j.get('summary', {})
    receives = {}
    for o in j.get('receives', []):
        receives[obj_key(o)] = o
    chu = {}
    for o in j.get('chu_huang', []):
        chu[obj_key(o)] = o

    def keys(line, names):
        out = []
        for n in names:
            k = s.label(line, n)
            if k is not None:
                out.append(k)
        return out

    def fmt(ks):
        return ' '.join(sorted(s.show(k) for k in ks)) or '(none)'

    def number(line, what, field, text):
        m = re.fullmatch(r'(\d+)(?:\.\.(\d+))?', text)
        if not m:
            s.fail(line, 'bad #expect %s: expected N or A..B' % what)
            return
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if field not in summary:
            s.fail(line, 'summary has no "%s"' % field)
            return
        v = summary[field]
        if not isinstance(v, int) or not lo <= v <= hi:
            s.fail(line, '%s: expected %s, mpirr races says %s' % (field, text, v))

    racing_lines, chu_lines = {}, {}
    racing_seen = chu_seen = False
    for line, kind, rest in exp:
        if kind == 'racing':
            racing_seen = True
            if rest == 'none':
                continue
            m = re.fullmatch(r'(\S+)\s*=\s*(.+)', rest)
            if not m:
                s.fail(line, 'bad #expect racing: expected RECV = GOT OTHER... or none')
                continue
            r = s.label(line, m.group(1))
            cands = keys(line, m.group(2).split())
            if r is None:
                continue
            racing_lines[r] = line
            o = receives.get(r)
            if o is None:
                s.fail(line, '%s should race (candidates %s), mpirr races does not list it' % (s.show(r), fmt(cands)))
                continue
            got = [obj_key(c) for c in o.get('candidates', [])]
            if set(got) != set(cands) or len(got) != len(cands):
                s.fail(line, '%s: candidates should be %s, mpirr races says %s' % (s.show(r), fmt(cands), fmt(got)))
            matched = o.get('matched')
            if cands and (matched is None or obj_key(matched) != cands[0]):
                s.fail(line, '%s: matched should be %s, mpirr races says %s' % (
                    s.show(r), s.show(cands[0]), 'null' if matched is None else s.show(obj_key(matched))))
        elif kind == 'no-race':
            for r in keys(line, rest.split()):
                if r in receives:
                    s.fail(line, '%s should not race, mpirr races lists it with %s' % (
                        s.show(r), fmt(obj_key(c) for c in receives[r].get('candidates', []))))
        elif kind == 'chu-huang':
            chu_seen = True
            if rest == 'none':
                continue
            m = re.fullmatch(r'(.+?)\s*=\s*(.+)', rest)
            if not m:
                s.fail(line, 'bad #expect chu-huang: expected RECV... = MSG... or none')
                continue
            reach = keys(line, m.group(2).split())
            for r in keys(line, m.group(1).split()):
                chu_lines[r] = line
                o = chu.get(r)
                if o is None:
                    s.fail(line, '%s should be reported by Chu & Huang (%s), mpirr races does not list it' % (s.show(r), fmt(reach)))
                    continue
                got = [obj_key(c) for c in o.get('reach', [])]
                if set(got) != set(reach) or len(got) != len(reach):
                    s.fail(line, '%s: Chu & Huang messages should be %s, mpirr races says %s' % (s.show(r), fmt(reach), fmt(got)))
        elif kind in ('unmatched-recv', 'unreceived-send'):
            field = 'unmatched_receives' if kind == 'unmatched-recv' else 'unreceived_sends'
            want = set() if rest == 'none' else set(keys(line, rest.split()))
            if field not in j:
                s.fail(line, 'mpirr races prints no "%s"' % field)
                continue
            got = set(obj_key(o) for o in j[field])
            if got != want:
                s.fail(line, '%s should be %s, mpirr races says %s' % (field, fmt(want), fmt(got)))
        elif kind == 'probe':
            m = re.fullmatch(r'(\S+)\s*=\s*(\S+)', rest)
            if not m:
                s.fail(line, 'bad #expect probe: expected PROBE = MSG')
                continue
            pr, msg = s.label(line, m.group(1)), s.label(line, m.group(2))
            seen = {obj_key(o): o.get('saw') for o in j.get('probes', [])}
            if pr not in seen:
                s.fail(line, 'mpirr races lists no probe %s' % s.show(pr))
            elif seen[pr] is None or obj_key(seen[pr]) != msg:
                s.fail(line, 'probe %s should have seen %s, mpirr races says %s' % (
                    s.show(pr), s.show(msg), 'nothing' if seen[pr] is None else s.show(obj_key(seen[pr]))))
        elif kind == 'messages':
            number(line, kind, 'messages', rest)
        elif kind == 'race-edges':
            number(line, kind, 'race_edges', rest)
        elif kind == 'cover':
            number(line, kind, 'min_cover', rest)
        elif kind == 'matching-bound':
            number(line, kind, 'matching_lower_bound', rest)
        elif kind == 'on-the-fly':
            number(line, kind, 'on_the_fly', rest)
        else:
            s.fail(line, 'unknown expectation #expect %s' % kind)
    # the racing (and Chu & Huang) lines of a script are complete lists
    if racing_seen:
        for r, o in receives.items():
            if r not in racing_lines:
                s.fail(0, '%s should not race, mpirr races lists it with %s' % (
                    s.show(r), fmt(obj_key(c) for c in o.get('candidates', []))))
        if summary.get('racing_receives') != len(racing_lines):
            s.fail(0, 'racing_receives: expected %d, mpirr races says %s' % (len(racing_lines), summary.get('racing_receives')))
    if chu_seen:
        for r, o in chu.items():
            if r not in chu_lines:
                s.fail(0, '%s should not be reported by Chu & Huang, mpirr races lists it with %s' % (
                    s.show(r), fmt(obj_key(c) for c in o.get('reach', []))))


def check_frontiers(s, d):
    for line, kind, rest in s.expects:
        if kind != 'frontier':
            continue
        m = re.fullmatch(r'(before|after)\s+(\S+)\s+past\s*=\s*([\d\s]+?)\s+future\s*=\s*([\d\s]+)', rest)
        if not m:
            s.fail(line, 'bad #expect frontier: expected before|after LABEL past = N... future = N...')
            continue
        when, lab = m.group(1), m.group(2)
        past, future = [int(x) for x in m.group(3).split()], [int(x) for x in m.group(4).split()]
        k = s.label(line, lab)
        if k is None:
            continue
        cmd = [mpirr, 'frontier', d, '--at', '%d:%d' % k, '--' + when, '--json']
        rc, out, err = run(cmd)
        try:
            j = json.loads(out)
        except ValueError:
            s.fail(line, '`mpirr frontier --at %d:%d --%s --json`: exit %d, no JSON: %s' % (
                k + (when, rc, (err.strip() or out.strip() or 'no output').split('\n')[0])))
            continue
        if rc != 0:
            s.fail(line, '`mpirr frontier` exited %d' % rc)
        where = '%s @%s (%d:%d)' % (when, lab, k[0], k[1])
        if (j.get('rank'), j.get('event'), j.get('when')) != (k[0], k[1], when):
            s.fail(line, 'frontier %s: the JSON names rank %s event %s %s' % (where, j.get('rank'), j.get('event'), j.get('when')))
        if j.get('past') != past:
            s.fail(line, 'frontier %s: past should be %s, mpirr frontier says %s' % (where, past, j.get('past')))
        if j.get('future') != future:
            s.fail(line, 'frontier %s: future should be %s, mpirr frontier says %s' % (where, future, j.get('future')))


for path in scripts:
    s = Script(path)
    parse_expects(s)
    tmp = tempfile.mkdtemp(prefix='mpirr-known-')
    try:
        d = os.path.join(tmp, os.path.splitext(s.name)[0])
        rc, out, err = run([tracegen, path, d])
        if rc != 0:
            s.fail(0, 'mpirr_tracegen failed (exit %d): %s' % (rc, err.strip().split('\n')[0] if err.strip() else ''))
            continue
        rc, out, err = run([tracegen, '--labels', path])
        if rc != 0:
            s.fail(0, 'mpirr_tracegen --labels failed (exit %d)' % rc)
            continue
        for line in out.split('\n'):
            if line.strip():
                name, r, e = line.split()
                s.labels[name] = (int(r), int(e))
                s.names[(int(r), int(e))] = name
        check_readable(s, d)
        if not readable_only and not s.bad:
            check_races(s, d)
            check_frontiers(s, d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('%s: %s' % (s.name, 'ok' if not s.bad else '%d mismatch%s' % (s.bad, 'es' if s.bad > 1 else '')))
sys.exit(1 if failures else 0)
PYEOF
