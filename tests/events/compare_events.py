#!/usr/bin/env python3
"""compare_events.py [--rank R] SELF_LOG EVENTS: one rank's self-log (written by selflog.c)
against that rank's event history as `mpirr events DIR --rank R` dumps it.

Self-log lines: `NAME key=value ...` (keys peer rpeer tag rtag bytes src ndone dsrc).
Dump lines: `R:E NAME fields... t~BEGIN+DUR at=FILE:LINE (FUNCTION)` (t= for exact times);
`#` lines (definitions) and blank lines are skipped. Checks:
  - every dump line is rank R (if given) and event numbers go up by exactly 1;
  - the call names are the same sequence, one to one;
  - peer, rpeer, tag, rtag, bytes, src are equal wherever the self-log has them, and a dump
    that shows a match (src=) where the self-log has none (an unsuccessful Iprobe) differs;
  - ndone = the number of done= items (0 without done=), dsrc = the src of its receive items,
    in order.
Prints `ok: ...` and exits 0, or prints one line saying what differs and exits 1 (2: bad
usage or unreadable input). `--self-test` checks the checker on made-up inputs."""
import re
import sys

KEYS = ("peer", "rpeer", "tag", "rtag", "bytes", "src")
DUMP_LINE = re.compile(r"^(\d+):(\d+)\s+(\S+)(.*)$")
ITEM = re.compile(r"^(\d+)(?:\((.*)\))?$")


class Mismatch(Exception):
    pass


def fields(tokens):
    out = {}
    for tok in tokens:
        key, eq, value = tok.partition("=")
        if eq and re.fullmatch(r"[a-z]+", key) and key not in out:
            out[key] = value
    return out


def parse_self(lines):
    calls = []
    for no, text in enumerate(lines, 1):
        text = text.rstrip("\n")
        if not text.strip():
            continue
        words = text.split()
        calls.append((no, text, words[0], fields(words[1:])))
    return calls


def split_items(value):
    """done=0(src=1,tag=5,got=12),3,4(cancelled) -> ['0(src=1,tag=5,got=12)', '3', '4(cancelled)']"""
    items, depth, cur = [], 0, ""
    for ch in value:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced ')'")
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise ValueError("unbalanced '('")
    items.append(cur)
    return items


def done_items(value):
    """[(slot, src or None)]: src is set for completed receives only."""
    out = []
    for item in split_items(value):
        m = ITEM.match(item)
        if not m:
            raise ValueError("bad done= item '%s'" % item)
        inner = m.group(2)
        src = None
        if inner is not None and inner != "cancelled":
            kv = dict(p.partition("=")[::2] for p in inner.split(","))
            if "src" not in kv:
                raise ValueError("done= item '%s' has no src" % item)
            src = kv["src"]
        out.append((int(m.group(1)), src))
    return out


def parse_dump(lines, rank):
    events = []
    prev = None
    for no, text in enumerate(lines, 1):
        text = text.rstrip("\n")
        if not text.strip() or text.startswith("#"):
            continue
        m = DUMP_LINE.match(text)
        if not m:
            raise Mismatch("events line %d is not 'R:E NAME ...': '%s'" % (no, text))
        r, e, name = int(m.group(1)), int(m.group(2)), m.group(3)
        if rank is not None and r != rank:
            raise Mismatch("events line %d is rank %d, expected rank %d: '%s'" % (no, r, rank, text))
        if prev is not None and e != prev + 1:
            raise Mismatch("events line %d: event %d follows event %d (not +1): '%s'" % (no, e, prev, text))
        prev = e
        f = fields(m.group(4).split())
        try:
            f["_done"] = done_items(f["done"]) if "done" in f else []
        except ValueError as err:
            raise Mismatch("events line %d: %s: '%s'" % (no, err, text))
        events.append((no, text, name, f))
    return events


def compare_one(s, d):
    """None if self-log call s agrees with dump event d, else why not."""
    _, _, sname, sf = s
    _, _, dname, df = d
    if sname != dname:
        return "different calls"
    for k in KEYS:
        if k in sf and df.get(k) != sf[k]:
            return "%s=%s in the self-log, %s in events" % (
                k, sf[k], "%s=%s" % (k, df[k]) if k in df else "no " + k)
    if "src" in df and "src" not in sf:
        return "events has src=%s, the self-log no match" % df["src"]
    if "ndone" in sf:
        items = df["_done"]
        if str(len(items)) != sf["ndone"]:
            return "ndone=%s in the self-log, %d done= items in events" % (sf["ndone"], len(items))
        want = sf["dsrc"].split(",") if "dsrc" in sf else []
        got = [src for _, src in items if src is not None]
        if got != want:
            return "dsrc=%s in the self-log, receive sources %s in events" % (
                ",".join(want) or "(none)", ",".join(got) or "(none)")
    return None


def compare(self_lines, dump_lines, rank):
    """Returns an ok message; raises Mismatch."""
    who = "rank %d: " % rank if rank is not None else ""
    try:
        calls = parse_self(self_lines)
        events = parse_dump(dump_lines, rank)
    except Mismatch as err:
        raise Mismatch(who + str(err))
    if not events:
        raise Mismatch(who + "events has no call records")
    for i, (s, d) in enumerate(zip(calls, events)):
        why = compare_one(s, d)
        if why:
            raise Mismatch("%scall %d: %s: self-log line %d '%s' vs events line %d '%s'" % (
                who, i + 1, why, s[0], s[1], d[0], d[1]))
    if len(calls) != len(events):
        if len(calls) > len(events):
            s = calls[len(events)]
            extra = "first missing from events: self-log line %d '%s'" % (s[0], s[1])
        else:
            d = events[len(calls)]
            extra = "first not in the self-log: events line %d '%s'" % (d[0], d[1])
        raise Mismatch("%sthe self-log has %d calls, events %d; %s" % (who, len(calls), len(events), extra))
    first = DUMP_LINE.match(events[0][1]).group(2)
    return "%s%d calls agree (events %s..%d)" % (who, len(calls), first, int(first) + len(events) - 1)


# ---- the checker's own check ----

SELF = """MPI_Init
MPI_Comm_rank
MPI_Recv peer=any tag=any bytes=16 src=2
MPI_Recv peer=null tag=36 bytes=12 src=null
MPI_Sendrecv peer=1 rpeer=any tag=30 rtag=30 bytes=12 src=3
MPI_Iprobe peer=any tag=any
MPI_Iprobe peer=any tag=any src=3
MPI_Waitall ndone=4 dsrc=3,1
MPI_Test ndone=0
MPI_Waitsome ndone=2 dsrc=2,1
MPI_Wait ndone=1
MPI_Finalize
"""
DUMP = """# comm 0 world 0,1,2,3
# site 1 selflog+0x1234
0:1 MPI_Init t~0+10 at=selflog+0x10
0:2 MPI_Comm_rank comm=0 t~11+0 at=selflog+0x20
0:3 MPI_Recv comm=1 peer=any tag=any bytes=16 src=2 mtag=102 got=8 t~12+3 at=selflog+0x30
0:4 MPI_Recv comm=0 peer=null tag=36 bytes=12 src=null mtag=any t~16+0 at=selflog+0x38
0:5 MPI_Sendrecv comm=0 peer=1 tag=30 bytes=12 rpeer=any rtag=30 src=3 mtag=30 got=12 t~17+2 at=selflog+0x40
0:6 MPI_Iprobe comm=1 peer=any tag=any t~20+0 at=selflog+0x50
0:7 MPI_Iprobe comm=1 peer=any tag=any src=3 mtag=32 got=12 t~21+0 at=selflog+0x50
0:8 MPI_Waitall done=4(src=3,tag=22,got=12),5,6(src=1,tag=22,got=12),7 t~22+5 at=selflog+0x60
0:9 MPI_Test t~28+0 at=selflog+0x70
0:10 MPI_Waitsome done=2(src=2,tag=24,got=12),0(src=1,tag=24,got=12) t~29+1 at=selflog+0x80
0:11 MPI_Wait done=3 t~31+0 at=selflog+0x90
0:12 MPI_Finalize t~32+100 at=selflog+0xa0
"""


def self_test():
    def expect(self_text, dump_text, rank, pattern):
        try:
            msg = compare(self_text.splitlines(True), dump_text.splitlines(True), rank)
            if pattern is not None:
                raise AssertionError("accepted a bad pair (wanted '%s'): %s" % (pattern, msg))
        except Mismatch as err:
            if pattern is None:
                raise AssertionError("rejected a good pair: %s" % err)
            if not re.search(pattern, str(err)):
                raise AssertionError("message '%s' lacks '%s'" % (err, pattern))

    def edit(text, old, new):
        assert old in text, old
        return text.replace(old, new, 1)

    expect(SELF, DUMP, 0, None)
    expect(SELF, DUMP, None, None)
    expect(SELF, DUMP.replace("\n0:", "\n5:"), 5, None)
    expect(SELF, DUMP, 1, r"rank 0, expected rank 1")
    expect(SELF, edit(DUMP, "0:9 ", "0:10 "), 0, r"event 10 follows event 8")
    expect(SELF, edit(DUMP, "MPI_Comm_rank", "MPI_Comm_size"), 0, r"call 2: different calls.*line 2 'MPI_Comm_rank'.*'0:2 MPI_Comm_size")
    expect(SELF, edit(DUMP, "src=2 mtag=102", "src=1 mtag=102"), 0, r"call 3: src=2 in the self-log, src=1 in events")
    expect(SELF, edit(DUMP, "bytes=16", "bytes=8"), 0, r"bytes=16 in the self-log, bytes=8")
    expect(SELF, edit(DUMP, "peer=null", "peer=-2"), 0, r"peer=null in the self-log, peer=-2")
    expect(SELF, edit(DUMP, "rpeer=any", "rpeer=0"), 0, r"call 5: rpeer=any")
    expect(SELF, edit(DUMP, " rtag=30", ""), 0, r"call 5: rtag=30 in the self-log, no rtag")
    expect(SELF, edit(DUMP, "0:6 MPI_Iprobe comm=1 peer=any tag=any", "0:6 MPI_Iprobe comm=1 peer=any tag=any src=1"), 0,
           r"call 6: events has src=1, the self-log no match")
    expect(SELF, edit(DUMP, ",7 t~22", " t~22"), 0, r"call 8: ndone=4 in the self-log, 3 done= items")
    expect(SELF, edit(DUMP, "6(src=1,tag=22", "6(src=2,tag=22"), 0, r"call 8: dsrc=3,1 in the self-log, receive sources 3,2")
    expect(SELF, edit(DUMP, "done=2(src=2,tag=24,got=12),0(src=1,tag=24,got=12)", "done=0(src=1,tag=24,got=12),2(src=2,tag=24,got=12)"),
           0, r"call 10: dsrc=2,1 .* 1,2")
    expect(SELF, edit(DUMP, "0:9 MPI_Test", "0:9 MPI_Test done=3"), 0, r"call 9: ndone=0 in the self-log, 1 done=")
    expect(SELF, edit(DUMP, "0:11 MPI_Wait done=3", "0:11 MPI_Wait"), 0, r"call 11: ndone=1 in the self-log, 0 done=")
    expect(SELF, edit(DUMP, "done=3 ", "done=3(cancelled) "), 0, None)
    expect(SELF, edit(DUMP, "done=3 ", "done=3(src=1,tag=2,got=0) "), 0, r"call 11: dsrc=\(none\) .* 1")
    expect(SELF, edit(DUMP, "done=3 ", "done=3(src=1 "), 0, r"unbalanced")
    expect(SELF, "\n".join(DUMP.splitlines()[:-1]) + "\n", 0, r"self-log has 12 calls, events 11; first missing .* 'MPI_Finalize'")
    expect(SELF, DUMP + "0:13 MPI_Wtime t~140+0 at=x+0x1\n", 0, r"events 13; first not in the self-log: events line 15 '0:13 MPI_Wtime")
    expect(SELF, DUMP.replace("0:1 MPI_Init", "garbage"), 0, r"not 'R:E NAME")
    expect(SELF, "# nothing\n", 0, r"no call records")
    return "ok: compare_events.py self-test"


def main(argv):
    if argv[1:] == ["--self-test"]:
        try:
            print(self_test())
        except AssertionError as err:
            print("compare_events.py self-test: %s" % err, file=sys.stderr)
            return 1
        return 0
    args = argv[1:]
    rank = None
    if len(args) == 4 and args[0] == "--rank":
        rank = int(args[1])
        args = args[2:]
    if len(args) != 2:
        print("usage: compare_events.py [--rank R] SELF_LOG EVENTS | --self-test", file=sys.stderr)
        return 2
    try:
        with open(args[0]) as f:
            self_lines = f.readlines()
        with open(args[1]) as f:
            dump_lines = f.readlines()
    except OSError as err:
        print("compare_events.py: %s" % err, file=sys.stderr)
        return 2
    try:
        print("ok: " + compare(self_lines, dump_lines, rank))
    except Mismatch as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
