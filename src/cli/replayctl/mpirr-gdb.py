# mpirr-gdb.py: the mpirr gdb extension, loaded by `mpirr replay`'s `gdb R` (gdb_attach.c) and
# usable by hand (`source .../share/mpirr/mpirr-gdb.py`) in any gdb attached to an mpirr rank.
# It owns the gdb side of a replay session: selecting the application's frame (the first frame
# outside mpirr, the MPI library and libc), the convenience variable $mpirr_event (the rank's
# mpirr_current_event, refreshed at every stop) and function $mpirr_event_now(), and the
# commands `mpirr where|continue|step|stop|undo|resume`, which it sends to mpirr through the
# session socket named by MPIRR_SESSION_SOCKET (protocol: gdb_attach.h).
# docs/cli/replay.md, "Inside gdb: the mpirr extension".
import os
import socket

import gdb

# Objects whose frames are not the application's call site (by file name prefix).
_NOT_APP = ("libmpirr", "libmpi", "libpmpi", "libopen-", "mca_", "libmca", "libmpich",
            "libmpifort", "libmpicxx", "libmpl", "libpmix", "libevent", "libhwloc", "libucp", "libucs", "libuct", "libucm",
            "libfabric", "libpsm", "libc.so", "libc-", "libpthread", "libdl", "librt",
            "ld-linux", "ld64.so", "linux-vdso")
_HOLD_POINT = "mpirr_stopline_held"
# The runtime's own thread that talks to mpirr (src/runtime/control_channel.c): inside mpirr
# too, but never the one a stopline holds. It must keep running whenever the rank runs, so the
# extension never turns scheduler-locking on.
_CHANNEL_THREAD = "mpirr-control"
_NO_SESSION = "not in an mpirr replay session"


def _module(pc):
    """The shared object holding pc (its base name), or None for the main program."""
    name = gdb.current_progspace().solib_name(pc)
    return os.path.basename(name) if name else None


def _is_app(frame):
    if frame.type() not in (gdb.NORMAL_FRAME, gdb.INLINE_FRAME, gdb.TAILCALL_FRAME):
        return False
    mod = _module(frame.pc())
    return mod is None or not mod.startswith(_NOT_APP)


def _frames(limit=256):
    f = gdb.newest_frame()
    while f is not None and limit > 0:
        yield f
        f = f.older()
        limit -= 1


def _held_thread():
    """The thread inside mpirr (the one a stopline holds), else the selected one (else the
    first application thread, if the selected one is mpirr's channel thread)."""
    current = gdb.selected_thread()
    threads = [t for t in [current] + [t for t in gdb.selected_inferior().threads()
                                       if t != current] if t.name != _CHANNEL_THREAD]
    if threads and current.name == _CHANNEL_THREAD:
        current = threads[0]
    for t in threads:
        t.switch()
        try:
            if any((_module(f.pc()) or "").startswith("libmpirr") for f in _frames()):
                return t
        except gdb.error:
            continue
    current.switch()
    return current


def select_app_frame(quiet=False):
    """Selects the application's frame of the held thread; prints it unless quiet."""
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError("mpirr: no process")
    _held_thread()
    found = None
    for f in _frames():
        if _is_app(f):
            found = f
            break
    if found is None:
        gdb.newest_frame().select()
        print("mpirr: no application frame on this thread's stack (only mpirr, MPI, libc)")
    else:
        found.select()
    _refresh_event()
    if not quiet:
        gdb.execute("frame")


# ---- the application's stack, for the session's stacks and bt (rank_gdbs.c) ----

def _mpi_name(frame):
    name = frame.name() or ""
    if name.startswith("PMPI_"):
        name = name[1:]
    return name if name.startswith("MPI_") else None


def _app_stack():
    """The selected thread's stack as the session shows it, newest first: one line per
    application frame ("F<tab>func<tab>file<tab>line"), and each run of frames that are not the
    application's collapsed to the outermost MPI call in it ("M<tab>MPI_Recv"), or dropped when
    it has none (mpirr's runtime, libc)."""
    lines = []
    mpi = None
    in_run = False
    for f in _frames():
        if _is_app(f):
            if in_run and mpi:
                lines.append("M\t" + mpi)
            in_run, mpi = False, None
            sal = f.find_sal()
            name = os.path.basename(sal.symtab.filename) if sal.symtab else ""
            lines.append("F\t%s\t%s\t%d" % (f.name() or "??", name, sal.line))
        else:
            in_run = True
            mpi = _mpi_name(f) or mpi  # the outermost MPI_ name of the run wins
    if in_run and mpi:
        lines.append("M\t" + mpi)
    return lines


def stack_lines(threads=False):
    """The held thread's stack (_app_stack's lines); threads: every thread's, each headed by
    "T<tab>N" (gdb's thread number), in thread order. A thread with no line (mpirr's channel
    thread, the MPI library's progress threads: nothing of the application on their stacks) is
    left out."""
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError("mpirr: no process")
    if not threads:
        _held_thread()
        return _app_stack()
    current = gdb.selected_thread()
    lines = []
    try:
        for t in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
            if t.name == _CHANNEL_THREAD:
                continue
            t.switch()
            try:
                stack = _app_stack()
            except gdb.error:  # a thread gone meanwhile, or its registers unreadable
                continue
            if stack:
                lines.append("T\t%d" % t.num)
                lines.extend(stack)
    finally:
        if current is not None and current.is_valid():
            current.switch()
    return lines


# ---- $mpirr_event ----

def _current_event():
    try:
        return int(gdb.parse_and_eval("*(unsigned long long *)&mpirr_current_event"))
    except (gdb.error, gdb.MemoryError):
        return None


def _refresh_event():
    value = _current_event()
    if value is not None:
        gdb.set_convenience_variable("mpirr_event", value)


class _EventNow(gdb.Function):
    """$mpirr_event_now(): the rank's mpirr_current_event, read now."""

    def __init__(self):
        super().__init__("mpirr_event_now")

    def invoke(self):
        value = _current_event()
        if value is None:
            raise gdb.GdbError("mpirr: no mpirr_current_event here (not an mpirr run?)")
        return value


# The latest stop: the numbers of the breakpoints it hit, or the signal that stopped it.
_last_stop = {"breakpoints": (), "signal": None}


def _on_stop(event):
    _last_stop["breakpoints"] = tuple(b.number for b in getattr(event, "breakpoints", ())
                                      if b.is_valid())
    _last_stop["signal"] = getattr(event, "stop_signal", None)
    _refresh_event()


# ---- the session ----

def _rank():
    text = os.environ.get("MPIRR_SESSION_RANK")
    if not os.environ.get("MPIRR_SESSION_SOCKET") or text is None:
        raise gdb.GdbError(_NO_SESSION)
    return int(text)


def _request(line):
    """Sends one line to mpirr and returns its reply."""
    name = os.environ.get("MPIRR_SESSION_SOCKET")
    if not name:
        raise gdb.GdbError(_NO_SESSION)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect("\0" + name)
        s.sendall((line + "\n").encode())
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    except OSError as e:
        raise gdb.GdbError("mpirr: the replay session does not answer (%s)" % e.strerror)
    finally:
        s.close()
    return b"".join(chunks).decode(errors="replace")


def _show(text):
    if text:
        gdb.write(text if text.endswith("\n") else text + "\n")


def _go(rank):
    """Continues the rank (gdb_attach.h: "resume") until it holds at its stop again, then
    shows where every rank is."""
    how = _request("resume %d" % rank).strip()
    if how == "idle":
        return
    if how == "stay" or not gdb.selected_inferior().pid:
        _show(_request("wait"))
        return
    bp = gdb.Breakpoint(_HOLD_POINT, internal=True, temporary=True)
    number = bp.number
    _last_stop.update(breakpoints=(), signal=None)
    try:
        gdb.execute("continue")
    finally:
        if bp.is_valid():
            bp.delete()
    if not gdb.selected_inferior().pid:
        gdb.write("mpirr: rank %d's process has exited\n" % rank)
        _show(_request("wait"))
        return
    if number in _last_stop["breakpoints"]:
        _show(_request("wait"))
        select_app_frame()
    elif _last_stop["signal"] == "SIGINT":
        gdb.write("mpirr: rank %d does not reach its stop (blocked or ended): mpirr "
                  "interrupted it\n" % rank)
        _show(_request("wait"))
        select_app_frame()
    else:
        _request("disarm")
        gdb.write("mpirr: rank %d stopped before its stop; `mpirr resume` goes on to it\n"
                  % rank)


def _session_command(line):
    rank = _rank()
    _show(_request(line))
    _go(rank)


class _Mpirr(gdb.Command):
    """mpirr: replay session commands (docs/cli/replay.md, "Inside gdb").
mpirr frame        select the application's frame (the call site of the held MPI call)
mpirr frames [--threads]  the application's stack, one frame a line (MPI calls collapsed)
mpirr where        where every rank is
mpirr continue [R:E]   release the ranks to the next stopline (R:E: a new one)
mpirr step R [N]   let rank R make N more events (1)
mpirr stop R:E     set the next stopline (mpirr continue goes there)
mpirr undo         back to the previous stopline (the job runs again from its start)
mpirr resume       after gdb stopped this rank elsewhere: go on to its stop
$mpirr_event is this rank's mpirr_current_event at the last stop; $mpirr_event_now() reads it."""

    def __init__(self):
        super().__init__("mpirr", gdb.COMMAND_USER, prefix=True)


class _Frame(gdb.Command):
    """Select the application's frame: the first one outside mpirr, MPI and libc."""

    def __init__(self):
        super().__init__("mpirr frame", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        select_app_frame()


class _Frames(gdb.Command):
    """The application's stack, one frame a line (mpirr's runtime hidden, MPI calls collapsed):
the session's stacks and bt read it. mpirr frames --threads: every thread's, each after a line
"T<tab>N" (its gdb thread number); threads without application frames left out."""

    def __init__(self):
        super().__init__("mpirr frames", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if arg.strip() not in ("", "--threads"):
            raise gdb.GdbError("usage: mpirr frames [--threads]")
        lines = stack_lines(threads=arg.strip() == "--threads")
        gdb.write("".join(line + "\n" for line in lines))


class _Where(gdb.Command):
    """Where every rank of the replay is (the session's `where`)."""

    def __init__(self):
        super().__init__("mpirr where", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        _show(_request(("where " + arg).strip()))


class _SessionCommand(gdb.Command):
    """A session command; if it releases ranks, gdb continues this rank to its stop."""

    def __init__(self, word, usage):
        self.word = word
        self.usage = usage
        super().__init__("mpirr " + word, gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if self.usage and not arg.strip():
            raise gdb.GdbError("usage: mpirr %s %s" % (self.word, self.usage))
        self.dont_repeat()
        _session_command((self.word + " " + arg).strip())


def _session_command_class(word, usage, doc):
    """gdb takes a command's help from its class: one class per command."""
    return type("_Mpirr_" + word, (_SessionCommand,), {"__doc__": doc})(word, usage)


class _Undo(gdb.Command):
    """Back to the previous stopline: the job runs again; gdb follows this rank's new process."""

    def __init__(self):
        super().__init__("mpirr undo", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        rank = _rank()
        self.dont_repeat()
        if gdb.selected_inferior().pid:
            gdb.execute("detach")
        _show(_request("undo"))
        _show(_request("wait"))
        pid = _request("pid %d" % rank).strip()
        if not pid.isdigit() or pid == "0":
            raise gdb.GdbError("mpirr: rank %d has no process after undo (%s)" % (rank, pid))
        gdb.execute("attach " + pid)
        select_app_frame()


class _Resume(gdb.Command):
    """After gdb stopped this rank before its stop: continue it to the stop."""

    def __init__(self):
        super().__init__("mpirr resume", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        self.dont_repeat()
        _go(_rank())


_Mpirr()
_Frame()
_Frames()
_Where()
_session_command_class("continue", None, """Release the ranks to the next stopline: mpirr continue [R:E].
gdb continues this rank until it holds again, then shows where every rank is.""")
_session_command_class("step", "R [N]", """Let rank R make N more events (1): mpirr step R [N].
gdb continues this rank if it moves, then shows where it is.""")
_session_command_class("stop", "R:E", """Set the next stopline: mpirr stop R:E (mpirr continue goes there).""")
_Undo()
_Resume()
_EventNow()
gdb.events.stop.connect(_on_stop)
if gdb.selected_inferior().pid:
    _refresh_event()
