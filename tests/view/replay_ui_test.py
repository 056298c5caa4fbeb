#!/usr/bin/env python3
# replay_ui_test.py MPIRR IMPL PROGRAM: `mpirr replay REC --ui` end to end, in real headless
# Chromium driven over the DevTools protocol (--remote-debugging-pipe: no socket, no extra
# module). wildcard_storm (3 ranks) is recorded with its event history; the session starts
# without --stop, every rank held just after MPI_Init; the page's `stop` then its continue
# button take it to rank 0's 7th wildcard receive (round 3, k 0, as
# tests/integration/session_gdb.sh). Checked:
#  - the server: only on 127.0.0.1 (/proc/net/tcp, nothing in tcp6), 403 without the token or
#    with a wrong one, 404 on an unknown path, 405 DELETE, 431 a 9 KB head, 413 a 100 KB body,
#    400 a command body without "cmd";
#  - without --stop: every rank held just after event 1 (MPI_Init), in the state and the page;
#  - the continue button runs to the stopline `stop 0:E` set: rank 0 held there;
#  - the page: loads with no console error, every request it makes goes to the server; the
#    where table shows the held ranks with their source line;
#  - print 0 round (the session's `print`, rank 0's kept gdb) gives 3; rank 0's stack button
#    is the session's `bt 0`;
#  - a click on rank 1's call, then "stop here": rank 1 held before that event (state JSON, the
#    page's table, the stopline drawn across the lanes, the call's frontiers drawn);
#  - step 1: rank 1's stop moves one event; undo: back to the previous stopline;
#  - the merged stacks button: the session's `stacks` tree, its top branches every held or
#    blocked rank in main;
#  - a typed `where` on mpirr's standard input works alongside, and `quit` ends the session:
#    exit 0, the port closed, the ranks' processes gone.
import fcntl, json, os, re, select, shutil, socket, subprocess, sys, tempfile, urllib.error, urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
TIMEOUT = 120
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return cond


class Browser:
    """Chromium over --remote-debugging-pipe: NUL-separated JSON on fds 3 (to it) and 4."""

    def __init__(self, tmp):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        prof = tempfile.mkdtemp(dir=tmp)

        def fds():  # the pipes' ends as fds 3 and 4 (Python's own fds close at exec)
            a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.p = subprocess.Popen([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + prof,
                                   "--window-size=1400,900", "--remote-debugging-pipe", "--no-first-run",
                                   "--disable-background-networking", "--disable-component-update",
                                   "about:blank"], close_fds=False, preexec_fn=fds,
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "chromium.err"), "w"))
        os.close(to_r)
        os.close(from_w)
        self.buf, self.id, self.events, self.session = b"", 0, [], None

    def _read(self):
        while b"\0" not in self.buf:
            r, _, _ = select.select([self.from_r], [], [], TIMEOUT)
            if not r:
                raise RuntimeError("chromium: no answer in %d s" % TIMEOUT)
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True):
        self.id += 1
        msg = {"id": self.id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("page: %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def http_status(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def raw(port, request):
    """Sends request bytes as they are; the response's bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        try:
            c.sendall(request)
        except OSError:
            pass  # (the server may answer and close before all of a long request is sent)
        out = b""
        while True:
            try:
                chunk = c.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        return out


def listening(port):
    """The local addresses listening on port, from /proc/net/tcp and tcp6."""
    found = []
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(f) as fh:
            for line in fh.readlines()[1:]:
                w = line.split()
                addr, p = w[1].split(":")
                if int(p, 16) == port and w[3] == "0A":
                    found.append((f, addr))
    return found


def running(pid):
    """Whether pid is a process that has not ended (a zombie has: the launcher's ranks are
    reparented to a pid 1 that may not reap them in a container)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            return not re.search(r"^State:\s+Z", f.read(), re.M)
    except OSError:
        return False


def main():
    mpirr, impl, program = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs", "wildcard_storm.c")
    tmp = tempfile.mkdtemp(prefix="mpirr-ui-")
    launcher = {"openmpi": ["mpirun.openmpi", "-np", "3"], "mpich": ["mpiexec.mpich", "-n", "3"]}[impl]
    rec = os.path.join(tmp, "rec")
    p = subprocess.run([mpirr, "record", "--events", "-o", rec, "--"] + launcher + [program, "6"],
                       capture_output=True, text=True, timeout=TIMEOUT)
    if not check(p.returncode == 0, "record: %d %s" % (p.returncode, p.stderr[-2000:])):
        return
    ev = subprocess.run([mpirr, "events", rec, "--rank", "0"], capture_output=True, text=True).stdout
    wild = [int(m.group(1)) for m in re.finditer(r"^0:(\d+) MPI_Recv .*peer=any", ev, re.M)]
    E = wild[6]
    out = open(os.path.join(tmp, "session.out"), "w")
    err_path = os.path.join(tmp, "session.err")
    sess = subprocess.Popen([mpirr, "replay", rec, "--ui"], stdin=subprocess.PIPE,
                            stdout=out, stderr=open(err_path, "w"), text=True, start_new_session=True)
    browser = None
    pids = []
    try:
        url = None
        while url is None and sess.poll() is None:  # the address is the first thing it prints
            with open(err_path) as f:
                m = re.search(r"^mpirr: the replay's page: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))$", f.read(), re.M)
            if m:
                url, port, token = m.group(1), int(m.group(2)), m.group(3)
            else:
                select.select([], [], [], 0.05)  # (the file has no readiness to wait on)
        if not check(url, "no page address on stderr: %s" % open(err_path).read()):
            return
        base = "http://127.0.0.1:%d" % port
        # the server
        addrs = listening(port)
        check(addrs == [("/proc/net/tcp", "0100007F")], "port %d listens on %s, not 127.0.0.1 alone" % (port, addrs))
        check(http_status(base + "/")[0] == 403, "the page without the token is not refused")
        check(http_status(base + "/api/state?token=" + "0" * 32)[0] == 403, "a wrong token is not refused")
        check(http_status(base + "/api/state", {"X-Mpirr-Token": "x"})[0] == 403, "a wrong token header is not refused")
        check(http_status(base + "/nothing?token=" + token)[0] == 404, "an unknown path is not 404")
        check(raw(port, b"DELETE /api/state?token=%s HTTP/1.1\r\n\r\n" % token.encode()).startswith(b"HTTP/1.1 405 "), "DELETE is not 405")
        check(raw(port, b"GET /?token=%s HTTP/1.1\r\nX-Junk: %s\r\n\r\n" % (token.encode(), b"x" * 9000)).startswith(b"HTTP/1.1 431 "),
              "a 9 KB head is not refused")
        check(raw(port, b"POST /api/command?token=%s HTTP/1.1\r\nContent-Length: 100000\r\n\r\n" % token.encode()).startswith(b"HTTP/1.1 413 "),
              "a 100 KB body is not refused")
        check(raw(port, b"POST /api/command?token=%s HTTP/1.1\r\nContent-Length: 7\r\n\r\n{\"x\":1}" % token.encode()).startswith(b"HTTP/1.1 400 "),
              "a body without cmd is not 400")
        st, body = http_status(base + "/api/state?wait=1&token=" + token)
        state = json.loads(body)
        check(st == 200 and not state["running"], "state: %d %s" % (st, body[:300]))
        check([(r["state"], r["event"], r["after"]) for r in state["ranks"]] == [("held", 1, True)] * 3
              and "MPI_Init" in state["stopline"], "without --stop, not every rank held after MPI_Init: %s" % state)
        pids = [int(m.group(1)) for r in state["ranks"] for m in [re.search(r" pid (\d+) ", r["where"])] if m]

        # the page
        browser = Browser(tmp)
        target = browser.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        browser.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for d in ("Runtime", "Log", "Network", "Page"):
            browser.call(d + ".enable")
        browser.call("Page.navigate", {"url": url})
        browser.wait_event("Page.loadEventFired")
        browser.eval("mpirrView.live.settled()")
        rows = browser.eval("[...document.querySelectorAll('#live-where tr')].map(t => [t.dataset.state, t.dataset.event])")
        check(rows == [["held", "1"]] * 3, "where table at MPI_Init: %s" % rows)
        # the stopline, then the continue button
        browser.eval("liveCommand('stop 0:%d')" % E)
        check("next stopline: rank 0 stops before event %d" % E in browser.eval("mpirrView.live.lastOutput"),
              "stop 0:%d: %r" % (E, browser.eval("mpirrView.live.lastOutput")))
        browser.eval("document.getElementById('live-continue').click(); mpirrView.live.settled()")
        page_state = browser.eval("mpirrView.live.state")
        check(page_state and not page_state["running"] and page_state["ranks"][0]["event"] == E, "page state: %s" % page_state)
        r0 = json.loads(http_status(base + "/api/state?token=" + token)[1])["ranks"][0]
        check(r0["state"] == "held" and r0["event"] == E and "wildcard_storm.c" in r0.get("site", "")
              and "MPI_Recv" in r0.get("source", ""), "rank 0 at the stopline after continue: %s" % r0)
        rows = browser.eval("[...document.querySelectorAll('#live-where tr')].map(t => [t.dataset.rank, t.dataset.state, t.dataset.event, t.textContent])")
        check(len(rows) == 3 and rows[0][1] == "held" and rows[0][2] == str(E) and "MPI_Recv(msg" in rows[0][3],
              "where table: %s" % rows)

        # print a variable of the held rank
        browser.eval("document.getElementById('print-rank').value = '0'; document.getElementById('print-expr').value = 'round'; "
                     "document.getElementById('print-go').click(); mpirrView.live.settled()")
        check(browser.eval("mpirrView.live.lastPrint") == "3", "print 0 round: %r (%r)"
              % (browser.eval("mpirrView.live.lastPrint"), browser.eval("mpirrView.live.lastOutput")))
        check(browser.eval("mpirrView.live.lastOutput") == "rank 0  round = 3\n",
              "print 0 round is not the session's print: %r" % browser.eval("mpirrView.live.lastOutput"))
        browser.eval("document.querySelector('#live-where tr[data-rank=\"0\"] button.stack').click(); mpirrView.live.settled()")
        bt = browser.eval("mpirrView.live.lastOutput")
        check(re.fullmatch(r"rank 0  MPI_Recv <- (.* <- )?main \(wildcard_storm\.c:\d+\)\n", bt),
              "rank 0's stack button is not `bt 0`: %r" % bt)

        # click rank 1's call F (with the mouse, at its pixels), then "stop here"
        # (a call that its neighbours do not hide at the zoom it gets, a few events ahead, else
        # from the start when rank 1 is near its end at the frontier: the recorded orders decide;
        # never its last two calls, so that the step below stays inside its recording)
        F, x, y = browser.eval("""(() => {
            const R = V.D.ranks[1], r = V.canvas.getBoundingClientRect(), ahead = evIndex(R, %d) + 2;
            const order = [];
            for (let i = ahead; i < R.n - 2; i++) order.push(i);
            for (let i = 2; i < Math.min(ahead, R.n - 2); i++) order.push(i);
            for (const i of order) {
              centerOn(1, i); frameNow();
              const x = Math.round(r.left + (X(beginOf(1)[i]) + X(endOf(1)[i])) / 2) - r.left, y = laneMid(1);
              const hits = [x - 1, x, x + 1].map((px) => eventAt(px, y));
              if (hits.every((h) => h && h.q === 1 && h.i === i)) return [evNumber(R, i), r.left + x, r.top + y];
            }
            return [0, 0, 0];
          })()""" % page_state["ranks"][1]["event"])
        check(F > 0, "no call of rank 1 to click on")
        xy = [x, y]
        for t in ("mousePressed", "mouseReleased"):
            browser.call("Input.dispatchMouseEvent", {"type": t, "x": xy[0], "y": xy[1], "button": "left", "clickCount": 1})
        sel = browser.eval("V.sel && [V.sel.q, evNumber(V.D.ranks[V.sel.q], V.sel.i)]")
        check(sel == [1, F], "the click selected %s, not 1:%d" % (sel, F))
        browser.eval("document.getElementById('stop-here').click(); mpirrView.live.settled()")
        state = json.loads(http_status(base + "/api/state?token=" + token)[1])
        after_stop = state["stops"]
        check(state["stops"][1] == {"event": F, "after": False} and state["ranks"][1]["state"] == "held"
              and state["ranks"][1]["event"] == F, "stop here 1:%d: %s" % (F, state))
        row1 = browser.eval("(() => { const t = document.querySelector('#live-where tr[data-rank=\"1\"]'); return [t.dataset.state, t.dataset.event]; })()")
        check(row1 == ["held", str(F)], "page row of rank 1 after stop here: %s" % row1)
        drawn = browser.eval("frameNow(); [mpirrView.live.stoplineDrawn, !!V.front, V.front && V.front.past.length]")
        check(drawn == [3, True, 3], "after stop here: stopline drawn across %s ranks, frontiers %s" % (drawn[0], drawn[1:]))
        check(browser.eval("LIVE.state.stopline") == state["stopline"] and "rank 1 stops before event %d" % F in state["stopline"],
              "the page's stopline: %s" % browser.eval("LIVE.state.stopline"))

        # step rank 1, then undo
        browser.eval("document.querySelector('#live-where tr[data-rank=\"1\"] button.step').click(); mpirrView.live.settled()")
        state = json.loads(http_status(base + "/api/state?token=" + token)[1])
        check(state["stops"][1] == {"event": F + 1, "after": False} and state["ranks"][1]["state"] in ("held", "blocked")
              and "stepped" in state["stopline"], "step 1: %s" % state)
        check(browser.eval("document.querySelector('#live-where tr[data-rank=\"1\"]').dataset.event") in (str(F), str(F + 1)),
              "page row of rank 1 after step")
        browser.eval("document.getElementById('live-undo').click(); mpirrView.live.settled()")
        state = json.loads(http_status(base + "/api/state?token=" + token)[1])
        check(state["stops"] == after_stop and state["ranks"][1]["state"] == "held" and state["ranks"][1]["event"] == F,
              "undo: %s, want stops %s" % (state, after_stop))
        check(browser.eval("document.querySelector('#live-where tr[data-rank=\"1\"]').dataset.event") == str(F), "page row after undo")
        check("re-executing the replay" in browser.eval("document.getElementById('live-output').textContent"), "undo's output not shown")

        browser.eval("document.getElementById('live-stacks').click(); mpirrView.live.settled()")
        tree = browser.eval("(() => { const t = document.getElementById('live-stacks-out'); return t.hidden ? '' : t.textContent; })()")
        check(tree == browser.eval("mpirrView.live.lastOutput"), "the page's tree is not what `stacks` printed: %r" % tree)
        # its top-level branches (main at each line it calls from) cover every held or blocked rank
        stopped = sorted(r["rank"] for r in state["ranks"] if r["state"] in ("held", "blocked"))
        lines = [l for l in tree.splitlines() if "(running or ended" not in l]
        tops = [re.fullmatch(r"([0-9][0-9,-]*)  (.* <- )?main \(wildcard_storm\.c:\d+\)", l) for l in lines if not l.startswith(" ")]
        covered = sorted(r for m in tops if m for part in m.group(1).split(",")
                         for r in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1))
        check(lines and all(tops) and covered == stopped and all(re.match(r" +[0-9][0-9,-]*  \S", l) for l in lines if l.startswith(" ")),
              "merged stacks are not a tree of the stopped ranks %s rooted in main: %r" % (stopped, tree))
        groups = browser.eval("mpirrView.live.mergedStacks()")
        check(groups == len(lines), "mergedStacks() counts %s lines of %r" % (groups, tree))
        pids = [int(m.group(1)) for r in state["ranks"] for m in [re.search(r" pid (\d+) ", r["where"])] if m]

        # what the page logged and reached
        errors = browser.eval("pageErrors")
        check(not errors, "page errors: %s" % errors)
        console = [m for m in browser.events if m.get("method") in ("Runtime.exceptionThrown",) or
                   (m.get("method") == "Runtime.consoleAPICalled" and m["params"]["type"] in ("error", "warning", "assert")) or
                   (m.get("method") == "Log.entryAdded" and m["params"]["entry"]["level"] in ("error", "warning"))]
        check(not console, "console: %s" % console)
        reqs = [m["params"]["request"]["url"] for m in browser.events if m.get("method") == "Network.requestWillBeSent"]
        check(reqs and all(u.startswith(base + "/") for u in reqs), "requests outside %s: %s" % (base, reqs))
        print("%s: page at %s: %d requests, all to it; MPI_Init, continue to 0:%d, stop here 1:%d, step, undo, "
              "print round = 3, bt 0, stacks of %d lines" % (impl, base, len(reqs), E, F, groups))

        # typed commands work alongside, and quit ends it all
        sess.stdin.write("where\nquit\n")
        sess.stdin.flush()
        rc = sess.wait(timeout=TIMEOUT)
        transcript = open(os.path.join(tmp, "session.out")).read()
        check(rc == 0, "the session exited %d" % rc)
        check(re.search(r"^\(mpirr\) where\nstopline: ", transcript, re.M), "typed where: %s" % transcript[-1000:])
        check("(mpirr page) step 1" in transcript, "the page's commands are not in the transcript")
        check(not listening(port), "port %d still listening" % port)
        alive = [p for p in pids if running(p)]
        check(pids and not alive, "rank processes left running: %s (of %s)" % (alive, pids))
    finally:
        if sess.poll() is None:  # (SIGTERM: mpirr ends its job, then itself)
            sess.terminate()
            try:
                sess.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(sess.pid, 9)
                sess.wait()
            check(False, "the session had to be ended")
        if browser:
            browser.close()
        if failures:
            print("kept " + tmp, file=sys.stderr)
            print(open(err_path).read()[-3000:], file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
        check(False, "error: %s" % e)
    sys.exit(1 if failures else 0)
