#!/usr/bin/env python3
# gen_trace.py: writes an mpirr_tracegen script (tests/analysis/tracegen.c) of about EVENTS
# calls on RANKS ranks, for the view's size and speed tests: a ring of Isend / wildcard Recv
# / Wait with compute calls, an Allreduce every 4th step, and every 8th step all ranks send
# to rank 0, which takes them with wildcard receives (racing receives).
#   gen_trace.py EVENTS [RANKS] > script.trace
import sys

events = int(sys.argv[1])
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
out = sys.stdout
out.write("ranks %d\n" % n)
per_step = 5 * n  # calls per step, all ranks (the extra ones are few)
steps = max(1, events // per_step)
lines = []
for k in range(steps):
    for r in range(n):
        lines.append("%d: isend %d tag=1 req=a" % (r, (r + 1) % n))
    for r in range(n):
        lines.append("%d: recv any tag=1 got=%d" % (r, (r - 1) % n))
        lines.append("%d: wait req=a" % r)
        lines.append("%d: compute" % r)
    if k % 4 == 3:
        lines.append("*: allreduce bytes=8")
    else:
        for r in range(n):
            lines.append("%d: compute" % r)
    if k % 8 == 7:
        for r in range(1, n):
            lines.append("%d: send 0 tag=2" % r)
        for r in range(1, n):
            lines.append("0: recv any tag=2 got=%d" % r)
    if len(lines) > 100000:
        out.write("\n".join(lines) + "\n")
        lines = []
out.write("\n".join(lines) + "\n")
