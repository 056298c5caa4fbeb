#!/usr/bin/env python3
"""fortran_mpich_f08_entries.py LIBMPIRR PROGRAM: checks the MPICH runtime's `use mpi_f08` entry
points (src/runtime/fortran_mpich_f08.c, chosen per row by scripts/gen_mpi_calls.py) against the
libmpichfort PROGRAM (a `use mpi_f08` program built with mpif90.mpich) is linked with, read
from its machine code (objdump): the functions each entry reaches and the PLT calls they make.
  1. every `_f08_` / `_f08_large_` entry LIBMPIRR defines that libmpichfort has too calls
     PMPI_<call> there and never the C MPI_<call>: the runtime's replaces an entry that is
     unseen, never one that reaches the C wrapper (which would count the call twice);
  2. every row of the tables whose libmpichfort `_f08_` entry calls PMPI_<call> is bound, or
     is one the generator leaves out with a reason (the docs list them);
  3. every row whose entry is `_f08ts_` (a choice buffer) reaches the C MPI_<call> there, and
     the runtime defines no `_f08ts_` name.
Prints one line per broken rule and exits 1; else a summary line."""
import bisect
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_mpi_calls  # noqa: E402  (the rows, their choice and their symbol names)


def sh(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def reached_calls(lib):
    """{exported function: the PLT targets it reaches through the library's own functions}."""
    names, ins = {}, []
    for line in sh("objdump", "-d", "--no-show-raw-insn", lib).splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:", line)
        if m:
            names[int(m.group(1), 16)] = m.group(2).split("@@")[0]
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(call|jmp)\s+([0-9a-f]+) <", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2), int(m.group(3), 16)))
    # a static helper has no symbol: every call target starts a function too
    starts = sorted(set(names) | {t for _, op, t in ins if op == "call"})
    body = collections.defaultdict(set)
    for a, _, t in ins:
        s = starts[bisect.bisect_right(starts, a) - 1]
        if t in names or (t in starts and t != s):
            body[s].add(t)

    def reach(s, seen):
        out = set()
        for t in body[s]:
            n = names.get(t, "")
            if n.endswith("@plt"):
                out.add(n[:-len("@plt")])
            elif t not in seen:
                seen.add(t)
                out |= reach(t, seen)
        return out
    return {n: reach(a, {a}) for a, n in names.items() if re.match(r"^mpi_\w+_f08", n)}


def main():
    libmpirr, prog = sys.argv[1:3]
    m = re.search(r"=> (\S*libmpichfort\.so\S*)", sh("ldd", prog))
    if not m:
        sys.exit("FAIL: %s is not linked with libmpichfort" % prog)
    calls = reached_calls(m.group(1))
    ours = set(re.findall(r"\s[TW] (mpi_\w+_f08\w*)$", sh("nm", "-D", "--defined-only", libmpirr), re.M))
    rows = {n: w for n, w, _ in gen_mpi_calls.mpich_f08_rows()}
    bad = []
    for name, why in sorted(rows.items()):
        sym = gen_mpi_calls.mpich_f08_symbol(name)
        ts = sym.replace("_f08_", "_f08ts_")
        if sym in calls:
            direct = "P" + name in calls[sym] and name not in calls[sym]
            if sym in ours and not direct:
                bad.append("%s: the runtime defines %s, whose libmpichfort code does not call "
                           "PMPI_%s alone (%s)" % (name, sym, name, " ".join(sorted(calls[sym]))))
            if direct and sym not in ours and not why:
                bad.append("%s: libmpichfort's %s calls PMPI_%s, the runtime does not define it "
                           "and the generator gives no reason" % (name, sym, name))
        elif ts in calls and name not in calls[ts]:
            bad.append("%s: libmpichfort's %s does not reach the C %s" % (name, ts, name))
    bad += ["the runtime defines %s, a choice-buffer entry" % s for s in sorted(ours) if "_f08ts_" in s]
    for b in bad:
        print("FAIL: " + b)
    if bad:
        return 1
    direct = sum(1 for s in ours if s in calls)
    print("ok: %d rows; the runtime defines %d mpi_f08 entries (%d of them in %s, each calling "
          "PMPI_* there); every row's entry calling PMPI_* is bound or left out with a reason"
          % (len(rows), len(ours), direct, os.path.basename(m.group(1))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
