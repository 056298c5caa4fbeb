#!/usr/bin/env python3
"""check_export.py: checks `mpirr export` output against mpirr's own view of the recording.

  check_export.py perfetto TRACE.json EVENTS.txt RACES.json [TIMES]
  check_export.py otf2 PRINT.txt DEFS.txt EVENTS.txt TRACE.json [TIMES]
  check_export.py bounds EVENTS_EXACT.txt [TICK_US]

TIMES is "rounded" (the default: a recording's log2 time codes) or "exact" (recorded with
MPIRR_EVENTS_EXACT=1): what every slice and call must say its times are.
EVENTS.txt is `mpirr events DIR`, RACES.json `mpirr races --json DIR`, PRINT.txt and DEFS.txt
`otf2-print` and `otf2-print -G` of the archive. Prints what it checked; the first failed
check is one line "FAIL: ..." and exit status 1."""
import collections
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def calls_per_rank(events_txt):
    """The history's calls per rank: the lines RANK:EVENT CALL of `mpirr events`."""
    n = collections.Counter()
    with open(events_txt) as f:
        for line in f:
            m = re.match(r"(\d+):\d+ MPI_", line)
            if m:
                n[int(m.group(1))] += 1
    return n


def load_perfetto(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except ValueError as e:
        fail("%s is not JSON: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    return doc


def inside(slices, ts):
    """The slice of a sorted, non-overlapping list that holds ts, or None."""
    lo, hi = 0, len(slices)
    while lo < hi:
        mid = (lo + hi) // 2
        if slices[mid][0] + slices[mid][1] < ts:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(slices) and slices[lo][0] <= ts <= slices[lo][0] + slices[lo][1]:
        return slices[lo]
    return None


def flows_of(doc):
    """(sender rank, receiver rank) of every flow, after checking they pair up."""
    ends = collections.defaultdict(dict)
    for e in doc["traceEvents"]:
        if e.get("ph") in ("s", "f"):
            if e["ph"] in ends[e.get("id")]:
                fail("flow id %s has two '%s' events" % (e.get("id"), e["ph"]))
            ends[e.get("id")][e["ph"]] = e
    pairs = []
    for fid, d in ends.items():
        if set(d) != {"s", "f"}:
            fail("flow id %s has only %s" % (fid, list(d)))
        if d["f"].get("bp") != "e":
            fail("flow id %s: its end does not bind to the enclosing slice (bp e)" % fid)
        if (d["s"].get("cat"), d["s"].get("name")) != (d["f"].get("cat"), d["f"].get("name")):
            fail("flow id %s: start and end differ in cat/name" % fid)
        pairs.append((d["s"]["pid"] - 1, d["f"]["pid"] - 1))
    return pairs


def check_times(doc, times):
    """Every slice says whether its times are exact or rounded, as the recording has them
    (TIMES: exact with MPIRR_EVENTS_EXACT=1, else rounded), and gives the range its exact
    duration lies in; the metadata note says the same."""
    note = doc["otherData"].get("times", "")
    if not note.startswith("times " + times):
        fail("otherData.times %r, expected times %s" % (note, times))
    want = "exact" if times == "exact" else "rounded (log2 time code)"
    for e in doc["traceEvents"]:
        if e.get("ph") != "X":
            continue
        a = e["args"]
        if a.get("time") != want:
            fail("slice says time %r, the recording's times are %s: %s" % (a.get("time"), times, e))
        lo, hi = a.get("duration_min_us"), a.get("duration_max_us")
        if lo is None or hi is None or not lo < hi:
            fail("no duration range on %s" % e)
    print("perfetto: every slice's times marked %s, with the range of its exact duration" % times)


def check_bounds(events_exact_txt, tick_us="32.768"):
    """On a recording with both times (`mpirr events --exact` of an MPIRR_EVENTS_EXACT=1 run),
    every exact duration lies in the range the exports give for the rounded one, computed
    here from the reconstructed times alone (docs/events.md: a clock move of d ticks stood
    for [d, 2d), no move for at most the slack of one tick)."""
    tick = float(tick_us)
    line_re = re.compile(r"^(\d+):(\d+) \S+ .*\bt~([\d.]+)us\+([\d.]+)us exact=[\d.]+us\+([\d.]+)us")
    prev_end, n, tight = {}, 0, 0
    with open(events_exact_txt) as f:
        for line in f:
            m = line_re.match(line)
            if not m:
                continue
            rank = int(m.group(1))
            b, d, x = (round(float(m.group(k)) / tick) for k in (3, 4, 5))
            spread = lambda delta: delta if delta > 0 else 2
            lo, hi = max(0, d - spread(b - prev_end.get(rank, 0))), d + spread(d)
            prev_end[rank] = b + d
            if not lo <= x <= hi:
                fail("rank %d event %s: exact duration %d ticks outside the rounded range [%d, %d]"
                     % (rank, m.group(2), x, lo, hi))
            n += 1
            tight += hi - lo <= 2 * max(x, 1)
    if not n:
        fail("no call with exact times in %s" % events_exact_txt)
    print("bounds: %d exact durations within their rounded ranges (%d ranges within 2x)" % (n, tight))


def check_perfetto(trace, events_txt, races_json, times="rounded"):
    doc = load_perfetto(trace)
    evs = doc["traceEvents"]
    check_times(doc, times)
    names = {}
    for e in evs:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[e["pid"]] = e["args"]["name"]
    threads = {(e["pid"], e["tid"]) for e in evs if e.get("ph") == "M" and e.get("name") == "thread_name"}
    slices = collections.defaultdict(list)
    for e in evs:
        if e.get("ph") != "X":
            continue
        for k in ("ts", "dur", "pid", "tid", "name"):
            if k not in e:
                fail("an X event lacks %s: %s" % (k, e))
        if not isinstance(e["ts"], (int, float)) or not isinstance(e["dur"], (int, float)) or e["dur"] <= 0:
            fail("bad ts/dur: %s" % e)
        if e["pid"] not in names or (e["pid"], e["tid"]) not in threads:
            fail("slice on an undeclared process or thread: %s" % e)
        if names[e["pid"]] != "rank %d" % (e["pid"] - 1):
            fail("process %d is named %r" % (e["pid"], names[e["pid"]]))
        # in integer ns: a slice may end exactly where the next begins, floats would say
        # they overlap
        slices[(e["pid"], e["tid"])].append((round(e["ts"] * 1000), round(e["dur"] * 1000), e))
    for key, sl in slices.items():
        sl.sort(key=lambda s: s[0])
        for a, b in zip(sl, sl[1:]):
            if a[0] + a[1] > b[0]:
                fail("slices overlap on process %d: %s and %s" % (key[0], a[2]["name"], b[2]["name"]))
    want = calls_per_rank(events_txt)
    got = collections.Counter({pid - 1: len(sl) for (pid, _), sl in slices.items()})
    if got != want:
        fail("slices per rank %s, the history's calls per rank %s" % (dict(got), dict(want)))
    print("perfetto: %d slices, as many as the history's calls per rank, none overlapping" % sum(got.values()))
    for e in evs:
        if e.get("ph") not in ("s", "f"):
            continue
        at = inside(slices[(e["pid"], e["tid"])], round(e["ts"] * 1000))
        if at is None:
            fail("flow event outside every slice of its rank: %s" % e)
        # the arrow leaves a call that sent and lands on one that completed a receive
        if ("sends" if e["ph"] == "s" else "receives") not in at[2]["args"]:
            fail("flow %s %s lies on %s, which has no message of its kind" % (e["ph"], e["id"], at[2]))
    pairs = flows_of(doc)
    with open(races_json) as f:
        summary = json.load(f)["summary"]
    matched = summary["messages"] - summary["unreceived_sends"]
    if len(pairs) != matched:
        fail("%d flows, mpirr races matched %d messages" % (len(pairs), matched))
    flagged = [r for e in evs if e.get("ph") == "X" for r in e["args"].get("races", [])]
    if len(flagged) != summary["racing_receives"]:
        fail("%d racing receives flagged, mpirr races found %d" % (len(flagged), summary["racing_receives"]))
    if any(len(r["candidates"]) < 2 for r in flagged):
        fail("a racing receive lists fewer than 2 candidate messages")
    print("perfetto: %d flows (matched messages), each inside a slice at both ends; %d racing receives flagged"
          % (len(pairs), len(flagged)))


def comm_members(defs_txt):
    """Communicator id -> world rank of each member, from otf2-print -G."""
    groups, comms = {}, {}
    with open(defs_txt) as f:
        for line in f:
            m = re.match(r"GROUP\s+(\d+)\s+.*Type: COMM_GROUP.*Members?: (.*)", line)
            if m:
                groups[int(m.group(1))] = [int(x) for x in re.findall(r"(\d+) \(\"rank", m.group(2))]
            m = re.match(r"COMM\s+(\d+)\s+.*Group: .*<(\d+)>", line)
            if m:
                comms[int(m.group(1))] = int(m.group(2))
    return {c: groups[g] for c, g in comms.items()}


def otf2_attributes(print_txt):
    """Per location, each ENTER's and LEAVE's additional attributes {name: value} in order."""
    out = collections.defaultdict(lambda: {"ENTER": [], "LEAVE": []})
    last = None
    with open(print_txt) as f:
        for line in f:
            m = re.match(r"(ENTER|LEAVE)\s+(\d+)\s", line)
            if m:
                last = {}
                out[int(m.group(2))][m.group(1)].append(last)
                continue
            if not re.match(r"\S", line) and "ADDITIONAL ATTRIBUTES" in line and last is not None:
                for name, value in re.findall(r'\("(mpirr::\w+)" <\d+>; \w+; ("[^"]*"|\d+)', line):
                    last[name] = value.strip('"')
            elif re.match(r"\S", line):
                last = None
    return out


def check_otf2_attributes(print_txt, trace, times):
    """The call sites, racing receives and rounded durations the Perfetto export carries are
    attributes of the same calls in the OTF2 archive."""
    attrs = otf2_attributes(print_txt)
    doc = load_perfetto(trace)
    slices = collections.defaultdict(list)
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            slices[e["pid"] - 1].append(e)
    located = raced = ranged = 0
    for rank, sl in slices.items():
        enters, leaves = attrs[rank]["ENTER"], attrs[rank]["LEAVE"]
        if len(enters) != len(sl):
            fail("rank %d: %d ENTER, %d slices" % (rank, len(enters), len(sl)))
        for e, a, l in zip(sl, enters, leaves):
            site = e["args"].get("site")
            if a.get("mpirr::source") != site:
                fail("rank %d event %s: otf2 source %r, perfetto site %r" % (rank, e["args"]["event"], a.get("mpirr::source"), site))
            fl = re.match(r"(.*:\d+) \(", site or "")
            if fl:
                if a.get("mpirr::source_location") != fl.group(1):
                    fail("rank %d event %s: source location %r, expected %r" % (rank, e["args"]["event"], a.get("mpirr::source_location"), fl.group(1)))
                located += 1
            if ("mpirr::racing_receive" in a) != bool(e["args"].get("races")):
                fail("rank %d event %s: racing_receive attribute %r, perfetto races %r" % (rank, e["args"]["event"], a.get("mpirr::racing_receive"), e["args"].get("races")))
            if "mpirr::racing_receive" in a:
                if int(a["mpirr::racing_receive"]) != len(e["args"]["races"][0]["candidates"]):
                    fail("rank %d event %s: racing_receive %s candidates, perfetto %r" % (rank, e["args"]["event"], a["mpirr::racing_receive"], e["args"]["races"]))
                raced += 1
            rounded = "mpirr::duration_min_ns" in l and "mpirr::duration_max_ns" in l
            if rounded != (times == "rounded"):
                fail("rank %d event %s: LEAVE attributes %r with %s times" % (rank, e["args"]["event"], l, times))
            ranged += rounded
    if not located:
        fail("no call has a source location")
    print("otf2: source line and file:line on every call as perfetto has them (%d with file:line), "
          "%d calls flagged racing, %d rounded durations with their range" % (located, raced, ranged))


def check_otf2(print_txt, defs_txt, events_txt, trace, times="rounded"):
    check_otf2_attributes(print_txt, trace, times)
    members = comm_members(defs_txt)
    count = collections.defaultdict(collections.Counter)
    sends, recvs = collections.Counter(), collections.Counter()
    with open(print_txt) as f:
        for line in f:
            m = re.match(r"(\S+)\s+(\d+)\s+(\d+)\s*(.*)", line)
            if not m:
                continue
            kind, loc, rest = m.group(1), int(m.group(2)), m.group(4)
            count[kind][loc] += 1
            p = re.search(r"(Receiver|Sender): (\d+) .*Communicator: .*<(\d+)>, Tag: (\d+)", rest)
            if kind in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
                if not p:
                    fail("cannot read %s" % line.strip())
                peer = members[int(p.group(3))][int(p.group(2))]
                if p.group(1) == "Receiver":
                    sends[(loc, peer, int(p.group(4)))] += 1
                else:
                    recvs[(peer, loc, int(p.group(4)))] += 1
    want = calls_per_rank(events_txt)
    for kind in ("ENTER", "LEAVE"):
        if collections.Counter(count[kind]) != want:
            fail("%s records per rank %s, the history's calls per rank %s" % (kind, dict(count[kind]), dict(want)))
    print("otf2: ENTER and LEAVE per rank equal the history's calls per rank (%d)" % sum(want.values()))
    for a, b in (("MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END"),
                 ("NON_BLOCKING_COLLECTIVE_REQUEST", "NON_BLOCKING_COLLECTIVE_COMPLETE"),
                 ("MPI_ISEND", "MPI_ISEND_COMPLETE"), ("MPI_IRECV_REQUEST", "MPI_IRECV")):
        if count[a] != count[b]:
            fail("%s per rank %s but %s %s" % (a, dict(count[a]), b, dict(count[b])))
    if sends != recvs:
        diff = {k: (sends[k], recvs[k]) for k in set(sends) | set(recvs) if sends[k] != recvs[k]}
        fail("sends and receives per (sender, receiver, tag) differ: %s" % diff)
    flows = collections.Counter(flows_of(load_perfetto(trace)))
    by_pair = collections.Counter()
    for (s, r, _), n in sends.items():
        by_pair[(s, r)] += n
    if by_pair != flows:
        fail("otf2 messages per (sender, receiver) %s, mpirr's matching %s" % (dict(by_pair), dict(flows)))
    print("otf2: %d sends and receives pair up per (sender, receiver, tag) and equal mpirr's matching; "
          "collectives and requests begin and end alike" % sum(sends.values()))


if __name__ == "__main__":
    if len(sys.argv) in (5, 6) and sys.argv[1] == "perfetto":
        check_perfetto(*sys.argv[2:])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "bounds":
        check_bounds(*sys.argv[2:])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "otf2":
        check_otf2(*sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
