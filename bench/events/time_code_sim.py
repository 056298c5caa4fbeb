#!/usr/bin/env python3
"""time_code_sim.py MPIRR DIR [TICK_NS]: what finer-rounded time codes would cost, simulated
over a recording made with MPIRR_EVENTS_EXACT=1 (docs/benchmarks.md, "Rounded or exact times").

For each rank's exact times (`mpirr events --exact`) it codes every call's begin and end as the
history's writer does (a delta against the reconstructed clock, 0 up to the slack of one tick),
with M mantissa bits kept below the leading one: M = 0 is today's log2 code (the reconstructed
delta is 2^e), M = 2 or 3 keeps the next bits (delta (1.b1 b2 b3) x 2^e, an error under
2^-M of the delta). Each scheme's codes go through one adaptive binary model shaped like the
time column's coder (time_coder.c, TC_V3): a decision "both codes 0" in context (call site,
previous end code), the exponents as 6 decisions in context (site, previous end code, and for
the end the begin code), each mantissa bit in context (site, exponent, the bits before it);
probabilities adapt at 1/(n + 1.5), then 1/32. It prints bits per call for each M and the
mean relative error of the durations longer than a few ticks. Only differences between the schemes are meant to be
read: the real coder's absolute size is `history_sizes --ablate`'s."""
import collections, math, re, subprocess, sys

SLACK = 1
LINE = re.compile(r"^(\d+):\d+ (\S+).* exact=([\d.]+)us\+([\d.]+)us(?: at=(.*))?$")


class Bit:
    __slots__ = ("p", "n")

    def __init__(self):
        self.p, self.n = 0.5, 0


def cost(models, ctx, bit):
    m = models.get(ctx)
    if m is None:
        m = models[ctx] = Bit()
    p = m.p if bit else 1 - m.p
    rate = 1 / (m.n + 1.5) if m.n < 30 else 1 / 32
    m.p += ((1 if bit else 0) - m.p) * rate
    m.n += 1
    return -math.log2(max(p, 1e-9))


def code(delta, mbits):
    """(exponent code, mantissa bits, reconstructed delta) of a delta of ticks."""
    if delta <= SLACK:
        return 0, (), 0
    e = delta.bit_length() - 1
    k = min(mbits, e)
    mant = (delta >> (e - k)) & ((1 << k) - 1)
    bits = tuple((mant >> (k - 1 - i)) & 1 for i in range(k))
    return e + 1, bits, ((1 << k) | mant) << (e - k)


def simulate(calls, mbits):
    models, bits, recon, prev_ce, err, nerr = {}, 0.0, 0, 0, 0.0, 0
    for site, xb, xe in calls:
        cb, mb, db = code(xb - recon, mbits)
        tb = recon + db
        ce, me, de = code(xe - tb, mbits)
        te = tb + de
        zero = cb == 0 and ce == 0
        bits += cost(models, ("z", site, prev_ce), zero)
        if not zero:
            for part, c, mant, ctx in (("b", cb, mb, (site, prev_ce)), ("e", ce, me, (site, cb, prev_ce))):
                for i in range(6):
                    bits += cost(models, (part, ctx, i, c >> (6 - i)), (c >> (5 - i)) & 1)
                for i, b in enumerate(mant):
                    bits += cost(models, (part + "m", site, c, i, mant[:i]), b)
        if xe - xb > 4 * SLACK:  # a few ticks: below that the tick, not the code, decides
            err += abs((te - tb) - (xe - xb)) / (xe - xb)
            nerr += 1
        recon, prev_ce = te, ce
    return bits, err / max(nerr, 1)


def main():
    mpirr, d = sys.argv[1], sys.argv[2]
    tick_us = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 32.768
    ranks = collections.defaultdict(list)
    out = subprocess.run([mpirr, "events", d, "--exact"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            b = round(float(m.group(3)) / tick_us)
            ranks[int(m.group(1))].append((m.group(5) or "?", b, b + round(float(m.group(4)) / tick_us)))
    n = sum(len(c) for c in ranks.values())
    print("%s: %d calls, %d ranks" % (d, n, len(ranks)))
    for mbits in (0, 2, 3):
        tot, err = 0.0, 0.0
        for calls in ranks.values():
            b, e = simulate(calls, mbits)
            tot += b
            err += e * len(calls)
        print("mantissa bits %d: %.4f bytes/call, mean duration error of calls over 4 ticks %.1f%%" % (mbits, tot / 8 / n, 100 * err / n))


if __name__ == "__main__":
    main()
