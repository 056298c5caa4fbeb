#!/usr/bin/env python3
# view_test.py: tests of `mpirr view` in real headless Chromium. The page runs its scripted
# checks during load when the URL's fragment asks (#test=..., src/cli/view/page/testhook.js)
# and writes the result as JSON into <pre id=test-result>, which --dump-dom prints; console
# messages come on Chromium's stderr (--enable-logging=stderr). No sleeps: the dump happens
# after the load event, when the checks are done.
#   view_test.py known MPIRR TRACEGEN TRACE...       frontiers of every event = mpirr frontier
#   view_test.py mpi MPIRR IMPL PROGRAM              a real 4-rank recording: arrows, clicks,
#                                                    input, logical time, frontiers, no errors
#   view_test.py perf MPIRR TRACEGEN EVENTS [OUT]    loads, draws, pans, zooms; numbers to OUT
#   view_test.py crash MPIRR IMPL PROGRAM            a crashed rank: its mark on its lane
#   view_test.py bad MPIRR                           bad input: one line, exit status 2
# Every page is also checked as loaded (loaded_view): zoomed on the communication, not on the
# whole run with MPI_Init's prefix; the lanes fill the canvas's height; #select=R:E shows the
# call, zoomed in, in the middle of the view.
import html, json, os, random, re, shutil, subprocess, sys, tempfile

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


def page(tmp, path, fragment, size="1400,800"):
    """Loads path#fragment; returns (result dict, console lines)."""
    prof = tempfile.mkdtemp(dir=tmp)
    p = run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + prof,
             "--window-size=" + size, "--enable-logging=stderr", "--v=0", "--dump-dom",
             "file://" + os.path.abspath(path) + "#" + fragment])
    m = re.search(r'<pre id="test-result"[^>]*>(.*?)</pre>', p.stdout, re.S)
    res = json.loads(html.unescape(m.group(1))) if m and m.group(1) else None
    # console messages of the page; Chrome's own advice on canvas read-backs (the test hook
    # reads a pixel back to time frames) is not the page's
    console = [l for l in p.stderr.splitlines() if "CONSOLE" in l and "willReadFrequently" not in l]
    return res, console


def loaded_view(res, what, select=None):
    """The page as it opened: the communication fills the view; the lanes fill the height; the
    call of #select=R:E is selected, in view and a few pixels wide at least."""
    lv = res["loaded"]
    c, shown, full = lv["comm"], lv["shown"], lv["all"]
    if select is None and c:
        width = shown["hi"] - shown["lo"]
        check(shown["lo"] <= c["lo"] and shown["hi"] >= c["hi"] and width <= 1.2 * (c["hi"] - c["lo"]) + 1,
              "%s: opened on %s, not on the communication %s (whole run %s)" % (what, shown, c, full))
    check(lv["lanesBottom"] >= lv["H"] - 8 or lv["laneH"] == 3, "%s: lanes end at %s of %s px" % (what, lv["lanesBottom"], lv["H"]))
    if select:
        s = lv.get("selected")
        check(s and (s["rank"], s["event"]) == select and 60 < s["x0"] and s["x1"] < s["W"] and s["x1"] - s["x0"] >= 0,
              "%s: #select=%d:%d: %s" % (what, select[0], select[1], s))
        check(s and abs((s["x0"] + s["x1"]) / 2 - (70 + s["W"]) / 2) < 2, "%s: #select not centred: %s" % (what, s))


def view(mpirr, rec, out):
    p = run([mpirr, "view", rec, "-o", out])
    check(p.returncode == 0, "mpirr view %s: status %d: %s" % (rec, p.returncode, p.stderr))
    return out


def frontiers_agree(mpirr, tmp, rec, html_path, points):
    points = list(points)
    for k in range(0, len(points), 60):
        chunk = points[k:k + 60]
        res, console = page(tmp, html_path, "test=frontier&at=" + ",".join("%d:%d" % p for p in chunk))
        check(res is not None, "frontier page gave no result")
        if res is None:
            return
        check(not res["errors"] and not console, "frontier page errors: %s %s" % (res["errors"], console))
        for got in res["frontiers"]:
            p = run([mpirr, "frontier", rec, "--at", "%d:%d" % (got["rank"], got["event"]), "--json"])
            want = json.loads(p.stdout)
            check(got.get("past") == want["past"] and got.get("future") == want["future"],
                  "%s %d:%d: page %s/%s, mpirr frontier %s/%s" % (rec, got["rank"], got["event"], got.get("past"),
                                                              got.get("future"), want["past"], want["future"]))


def events_of(mpirr, rec):
    """Every call event of every rank, from mpirr events."""
    p = run([mpirr, "events", rec])
    pts = []
    for line in p.stdout.splitlines():
        m = re.match(r"(\d+):(\d+) MPI_", line)
        if m:
            pts.append((int(m.group(1)), int(m.group(2))))
    return pts


def known(mpirr, tracegen, traces, tmp):
    for t in traces:
        name = os.path.splitext(os.path.basename(t))[0]
        rec = os.path.join(tmp, name)
        p = run([tracegen, t, rec])
        check(p.returncode == 0, "tracegen %s: %s" % (t, p.stderr))
        out = view(mpirr, rec, rec + ".html")
        pts = events_of(mpirr, rec)
        check(len(pts) > 0, "%s: no events listed" % name)
        frontiers_agree(mpirr, tmp, rec, out, pts)
        print("%s: %d frontiers agree" % (name, len(pts)))


DURATION = r"(\d+\.\d) (µs|ms)"


def to_us(v, unit):
    return float(v) * (1000 if unit == "ms" else 1)


def times_shown(res, exact, what):
    """The legend says whether the times are exact or rounded, and the selected call's duration
    row says it too: a rounded one as "≈ D (rounded: log2 time code, the exact value is between
    A and B)" with A <= D <= B, an exact one as "D (exact, to the T tick)"."""
    note = res["loaded"].get("timesNote") or ""
    check(note.startswith("times exact" if exact else "times rounded"), "%s: legend note %r" % (what, note))
    dur = (res["loaded"].get("selected") or {}).get("duration") or ""
    print("%s: legend %r, duration %r" % (what, note[:40], dur))
    if exact:
        check(re.fullmatch(DURATION + r" \(exact, to the " + DURATION + r" tick\)", dur), "%s: duration %r" % (what, dur))
        return
    m = re.fullmatch("≈ " + DURATION + r" \(rounded: log2 time code, the exact value is between " + DURATION +
                     " and " + DURATION + r"\)", dur)
    check(m, "%s: duration %r" % (what, dur))
    if m:
        d, lo, hi = (to_us(m.group(k), m.group(k + 1)) for k in (1, 3, 5))
        check(lo <= d <= hi and lo < hi, "%s: duration %s not within its range" % (what, dur))


def exact_times(mpirr, launcher, program, tmp, impl):
    """A recording with MPIRR_EVENTS_EXACT=1: the page shows exact times."""
    rec = os.path.join(tmp, "exact")
    p = run([mpirr, "record", "--events", "-o", rec, "--"] + launcher + [program],
            env=dict(os.environ, MPIRR_EVENTS_EXACT="1"))
    check(p.returncode == 0, "record (exact): status %d: %s" % (p.returncode, p.stderr[-2000:]))
    out = view(mpirr, rec, os.path.join(tmp, "exact.html"))
    pts = events_of(mpirr, rec)
    res, console = page(tmp, out, "test=frontier&select=%d:%d" % pts[len(pts) // 2])
    check(res is not None and not console, "exact select page: %s" % console)
    if res:
        times_shown(res, True, impl + " exact")


def mpi(mpirr, impl, program, tmp):
    rec = os.path.join(tmp, "run")
    launcher = {"openmpi": ["mpirun.openmpi", "-np", "4"], "mpich": ["mpiexec.mpich", "-n", "4"]}[impl]
    exact_times(mpirr, launcher, program, tmp, impl)
    p = run([mpirr, "record", "--events", "-o", rec, "--"] + launcher + [program])
    check(p.returncode == 0, "record: status %d: %s" % (p.returncode, p.stderr[-2000:]))
    races = json.loads(run([mpirr, "races", rec, "--json"]).stdout)
    summary = races.get("summary", races)
    matched = summary["messages"] - summary["unreceived_sends"]
    out = view(mpirr, rec, os.path.join(tmp, "run.html"))
    res, console = page(tmp, out, "test=basic")
    check(res is not None, "basic page gave no result")
    if res is None:
        return
    loaded_view(res, impl)
    pts = events_of(mpirr, rec)
    # a call longer than the view (the middle rank's MPI_Init) and a short one (a racing receive)
    for sel in [pts[len(pts) // 2]] + [(r["rank"], r["event"]) for r in races.get("receives", [])][:1]:
        sres, sconsole = page(tmp, out, "test=frontier&select=%d:%d" % sel)
        check(sres is not None and not sconsole, "select page: %s" % sconsole)
        if sres:
            loaded_view(sres, impl + " #select", sel)
            times_shown(sres, False, impl + " #select %d:%d" % sel)
    c = res["countsAtFit"]
    print("%s: %d events, %d matched messages, %d racing; arrows drawn %d, racing drawn %d, dashed %d, bands %d"
          % (impl, c["events"], matched, c["racing"], c["arrowsDrawn"], c["racingDrawn"], c["candidateArrowsDrawn"], c["bands"]))
    check(matched > 0, "no matched messages in the recording")
    check(c["arrows"] == matched and c["arrowsDrawn"] == matched, "arrows %d drawn %d, matched messages %d" % (c["arrows"], c["arrowsDrawn"], matched))
    check(c["racing"] == summary["racing_receives"], "racing %d, mpirr races %d" % (c["racing"], summary["racing_receives"]))
    check(c["racingDrawn"] == c["racing"], "racing receives drawn %d of %d" % (c["racingDrawn"], c["racing"]))
    check(not res["errors"], "page errors: %s" % res["errors"])
    check(not console, "console messages: %s" % console)
    check(res["resources"] == 0, "the page loaded %d resources" % res["resources"])
    it = res["interaction"]
    check(it["wheelZooms"] and it["dragPans"] and it["keyPans"], "input: %s" % it)
    check(it["logical"]["on"] and it["logical"]["backwardArrows"] == 0 and it["logical"]["arrowsDrawn"] == matched,
          "logical time: %s" % it["logical"])
    cl = it["click"]
    check(cl["selected"] and cl["stopline"] == "mpirr replay %s --stop %d:%d" % (rec, cl["rank"], cl["event"]),
          "click: %s" % cl)
    check(res["searchRecv"] > 0 and res["searchRank"] > 0, "search: %s %s" % (res["searchRecv"], res["searchRank"]))
    # frontiers: every racing receive, and a sample of the other events
    random.seed(14)
    sample = [(r["rank"], r["event"]) for r in races.get("receives", [])][:30] + random.sample(pts, min(40, len(pts)))
    frontiers_agree(mpirr, tmp, rec, out, sample)
    print("%s: %d frontiers agree with mpirr frontier" % (impl, len(sample)))


def crash(mpirr, impl, program, tmp):
    """crash_on_order with 2 ranks: rank 1's message is always first, so rank 0 dies of SIGSEGV."""
    rec = os.path.join(tmp, "run")
    launcher = {"openmpi": ["mpirun.openmpi", "-np", "2"], "mpich": ["mpiexec.mpich", "-n", "2"]}[impl]
    p = run([mpirr, "record", "--events", "-o", rec, "--"] + launcher + [program])
    check(p.returncode != 0, "crash_on_order did not crash: %s" % p.stdout)
    out = view(mpirr, rec, os.path.join(tmp, "run.html"))
    res, console = page(tmp, out, "test=basic")
    check(res is not None, "crash page gave no result")
    if res is None:
        return
    lv = res["loaded"]
    e0, e1 = lv["endings"][0], lv["endings"][1]
    check(e0 and e0["crash"] and "signal 11" in e0["text"], "rank 0's ending: %s" % e0)
    check(e1 is None or not e1["crash"], "rank 1's ending: %s" % e1)
    check(lv["endMarks"] >= 1, "no crash mark drawn: %s" % lv)
    check(not res["errors"] and not console, "errors: %s %s" % (res["errors"], console))
    loaded_view(res, impl + " crash")
    print("%s: rank 0 ended %s, marked" % (impl, e0["text"] if e0 else None))


def gen_history(mpirr, tracegen, events, tmp):
    script = os.path.join(tmp, "h%d.trace" % events)
    with open(script, "w") as f:
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_trace.py"),
                        str(events), "8"], stdout=f, check=True)
    rec = os.path.join(tmp, "h%d" % events)
    p = run([tracegen, script, rec])
    check(p.returncode == 0, "tracegen: %s" % p.stderr)
    return rec


def perf(mpirr, tracegen, events, tmp, out=None):
    rec = gen_history(mpirr, tracegen, events, tmp)
    html_path = view(mpirr, rec, rec + ".html")
    res, console = page(tmp, html_path, "test=perf")
    check(res is not None, "perf page gave no result")
    if res is None:
        return
    size = os.path.getsize(html_path)
    line = ("%d events: page %.1f MB (%.1f bytes/event), first frame %.0f ms (decode %.0f ms, draw %.0f ms); "
            "pan at full view median %.1f ms p95 %.1f ms; pan zoomed median %.1f ms p95 %.1f ms; "
            "zoom median %.1f ms; logical switch %.0f ms; click+frontier %.0f ms"
            % (res["events"], size / 1e6, size / res["events"], res["firstFrameMs"], res["timing"]["decodeMs"],
               res["timing"]["drawMs"], res["pan"]["fit"]["median"], res["pan"]["fit"]["p95"],
               res["pan"]["zoomed"]["median"], res["pan"]["zoomed"]["p95"], res["zoom"]["median"],
               res["logicalSwitchMs"], res["clickFrontierMs"]))
    print(line)
    if out:
        with open(out, "a") as f:
            f.write(json.dumps({"events": res["events"], "bytes": size, "firstFrameMs": res["firstFrameMs"],
                                "timing": res["timing"], "pan": res["pan"], "zoom": res["zoom"],
                                "logicalSwitchMs": res["logicalSwitchMs"], "clickFrontierMs": res["clickFrontierMs"]}) + "\n")
    check(not res["errors"] and not console, "errors: %s %s" % (res["errors"], console))
    check(res["frontierFound"], "click gave no frontier")
    # how fast is measured by bench/view/view_bench.sh, never asserted here (a loaded machine is
    # not a slow page): the test asserts that a million events load, draw, pan and zoom at all
    check(res["firstFrameMs"] > 0 and res["pan"]["fit"]["median"] > 0 and res["pan"]["zoomed"]["median"] > 0,
          "no frame drawn, panned or zoomed: %s" % res["pan"])


def bad(mpirr, tmp):
    def one_line(args, what):
        p = run([mpirr] + args)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and lines[0].startswith("mpirr: "),
              "%s: status %d, stderr %r" % (what, p.returncode, p.stderr))
    notrec = os.path.join(tmp, "notrec")
    os.mkdir(notrec)
    one_line(["view", notrec, "-o", os.path.join(tmp, "x.html")], "not a recording")
    one_line(["view", os.path.join(tmp, "missing"), "-o", os.path.join(tmp, "x.html")], "no such directory")
    # a recording without an event history: a generated one with its histories removed
    script = os.path.join(tmp, "s.trace")
    with open(script, "w") as f:
        f.write("ranks 2\n0: send 1 tag=1\n1: recv 0 tag=1\n")
    rec = os.path.join(tmp, "noev")
    run([os.environ["TRACEGEN"], script, rec])
    good = os.path.join(tmp, "good")
    shutil.copytree(rec, good)
    for f in os.listdir(rec):
        if f.endswith(".events"):
            os.unlink(os.path.join(rec, f))
    one_line(["view", rec, "-o", os.path.join(tmp, "x.html")], "no event history")
    blocker = os.path.join(tmp, "file")
    open(blocker, "w").close()
    one_line(["view", good, "-o", os.path.join(blocker, "x.html")], "unwritable output")
    check(not os.path.exists(os.path.join(tmp, "x.html")), "a failed view left a page")
    p = run([mpirr, "view", good, "-o", os.path.join(tmp, "ok.html")])
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, "ok.html")) > 0, "good recording: %s" % p.stderr)


def main():
    mode, mpirr = sys.argv[1], os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="mpirr-view-")
    try:
        if mode == "known":
            os.environ["TRACEGEN"] = sys.argv[3]
            known(mpirr, sys.argv[3], sys.argv[4:], tmp)
        elif mode == "mpi":
            mpi(mpirr, sys.argv[3], sys.argv[4], tmp)
        elif mode == "crash":
            crash(mpirr, sys.argv[3], sys.argv[4], tmp)
        elif mode == "perf":
            perf(mpirr, sys.argv[3], int(sys.argv[4]), tmp, sys.argv[5] if len(sys.argv) > 5 else None)
        elif mode == "bad":
            os.environ["TRACEGEN"] = sys.argv[3]
            bad(mpirr, tmp)
        else:
            sys.exit("unknown mode " + mode)
    finally:
        if not failures:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept " + tmp, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
