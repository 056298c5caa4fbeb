#!/bin/bash
# roundtrip.sh IMPL BUILD_DIR SRC_DIR
# The event history round trip: selflog (4 ranks) logs every MPI call it makes to
# $TMP/self/self-<rank>.txt; `mpirr record --events` of it, in sources and in races mode, must
# dump (`mpirr events DIR --rank R`) exactly those calls for every rank: the same sequence of
# names, the same peers, tags, sizes and matched sources, the same completions
# (compare_events.py). The whole dump is the per-rank dumps in rank order, every record of the
# rank logs falls on an event of its own call (`mpirr events --check`), and the recording
# replays: the replay succeeds and the program's own log of its calls comes out the same. Every
# call's times are marked as what they are: t~ rounded (races mode), t= exact (sources mode,
# recorded with MPIRR_EVENTS_EXACT=1).
. "$3/tests/integration/lib.sh"
IMPL=$1 BUILD=$2 SRC=$3
NP=4
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/tests/events/$IMPL/selflog
COMPARE=$SRC/tests/events/compare_events.py
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

[ -x "$MPIRR" ] || fail "no mpirr at $MPIRR"
[ -x "$PROG" ] || fail "no selflog program at $PROG"
python3 "$COMPARE" --self-test >/dev/null 2>"$TMP/selftest.err" || fail "$(head -1 "$TMP/selftest.err")"

# non-'#' lines: the call records of a dump
calls() { grep -v '^#' "$1"; }

for mode in sources races; do
    mode_opt=()
    [ "$mode" = sources ] || mode_opt=(--mode="$mode")
    rm -rf "$TMP/rec" "$TMP/self" "$TMP/self.rec"
    mkdir -p "$TMP/self"

    # sources mode also stores exact times, to check the reconstructed ones against
    exact=0
    [ "$mode" = sources ] && exact=1
    MPIRR_EVENTS_EXACT=$exact run "$TMP/record" "$MPIRR" record --events "${mode_opt[@]}" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" "$TMP/self"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "$mode: recording selflog exited $STATUS"; }

    total=0
    for r in $(seq 0 $((NP - 1))); do
        self=$TMP/self/self-$r.txt
        [ -s "$self" ] || fail "$mode: rank $r wrote no self-log ($self)"
        [ "$(tail -n 1 "$self")" = MPI_Finalize ] || fail "$mode: rank $r's self-log does not end with MPI_Finalize"
        "$MPIRR" events "$TMP/rec" --rank "$r" >"$TMP/events-$r.txt" 2>"$TMP/events-$r.err"
        st=$?
        [ "$st" -eq 0 ] || { cat "$TMP/events-$r.err" >&2; fail "$mode: mpirr events --rank $r exited $st"; }
        msg=$(python3 "$COMPARE" --rank "$r" "$self" "$TMP/events-$r.txt" 2>&1) || fail "$mode: $msg"
        echo "$mode: $msg"
        total=$((total + $(wc -l <"$self")))
    done

    "$MPIRR" events "$TMP/rec" >"$TMP/events-all.txt" 2>"$TMP/events-all.err"
    st=$?
    [ "$st" -eq 0 ] || { cat "$TMP/events-all.err" >&2; fail "$mode: mpirr events (all ranks) exited $st"; }
    cmp -s <(calls "$TMP/events-all.txt") <(for r in $(seq 0 $((NP - 1))); do calls "$TMP/events-$r.txt"; done) ||
        fail "$mode: mpirr events without --rank is not the per-rank dumps in rank order"
    # times: marked rounded (t~, reconstructed from log2 codes), or t= when the history has
    # the exact ones (MPIRR_EVENTS_EXACT=1); never both on one line
    mark='t~' other='t='
    [ "$exact" = 1 ] && mark='t=' other='t~'
    n=$(calls "$TMP/events-all.txt" | wc -l)
    marked=$(calls "$TMP/events-all.txt" | grep -cE " $mark[0-9.]+(us|ms|s)\+[0-9.]+(us|ms|s)( |$)")
    [ "$n" -gt 0 ] && [ "$marked" -eq "$n" ] && ! calls "$TMP/events-all.txt" | grep -q " $other[0-9]" ||
        { calls "$TMP/events-all.txt" | head -3 >&2; fail "$mode: $marked of $n calls have their times marked $mark (and none $other)"; }
    echo "$mode: every call's times marked $mark"

    # the reconstructed clock never runs ahead of the real one, and trails it by at most
    # b_i = max(min(S, g_i + b_(i-1)), (g_i + b_(i-1)) / 2), g_i the gap to the timestamp
    # before and S the one-tick slack (32.768 us at the default tick): at most the largest gap
    # or a tick, however long the run (docs/events.md)
    if [ "$exact" = 1 ]; then
        "$MPIRR" events "$TMP/rec" --exact >"$TMP/exact.txt" || fail "$mode: mpirr events --exact failed"
        python3 - "$TMP/exact.txt" <<'PY' || fail "$mode: reconstructed times break their bound"
import re, sys
ranks = {}
for line in open(sys.argv[1]):
    m = re.search(r"^(\d+):\d+ .* t~([\d.]+)us\+([\d.]+)us exact=([\d.]+)us\+([\d.]+)us", line)
    if m:
        r, tb, td, xb, xd = m.group(1), *map(float, m.groups()[1:])
        ranks.setdefault(r, []).append((tb, tb + td, xb, xb + xd))
assert len(ranks) == 4, "exact times missing"
slack = 32.768  # MPIRR_EV_TIME_SLACK ticks of the default 32768 ns
for r, recs in ranks.items():
    stamps = [(t, x) for tb, te, xb, xe in recs for t, x in ((tb, xb), (te, xe))]
    gap = max(b[1] - a[1] for a, b in zip(stamps, stamps[1:]))
    worst = max(x - t for t, x in stamps)
    assert min(x - t for t, x in stamps) > -0.002, "reconstructed time ahead of the real one"
    bound = 0.0
    for (t0, x0), (t, x) in zip(stamps, stamps[1:]):
        d = x - x0 + bound
        bound = max(min(slack, d), d / 2)
        assert x - t <= bound + 0.002, (r, t, x, bound)
    assert worst < max(gap, slack) + 0.002, (r, worst, gap)
    print("rank %s: %d timestamps, worst error %.1f us, largest gap %.1f us" % (r, len(stamps), worst, gap))
PY
    fi

    # the rank logs (what replay enforces) and the history number events alike
    "$MPIRR" events "$TMP/rec" --check >"$TMP/check.txt" 2>"$TMP/check.err" ||
        { cat "$TMP/check.err" >&2; fail "$mode: mpirr events --check found the rank logs and the history disagree"; }
    [ "$(grep -c '^rank [0-9]*: \([0-9]*\) of \1 rank-log records agree' "$TMP/check.txt")" -eq "$NP" ] ||
        { cat "$TMP/check.txt" >&2; fail "$mode: not every rank-log record falls on its call in the history"; }
    echo "$mode: $(awk '{n += $3} END {print n}' "$TMP/check.txt") rank-log records fall on events of their call"

    # the replay runs the recorded command, which rewrites the self-logs: they must come out the same
    mv "$TMP/self" "$TMP/self.rec"
    mkdir -p "$TMP/self"
    run "$TMP/replay" "$MPIRR" replay "$TMP/rec"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay.err" >&2; fail "$mode: replay of the selflog recording exited $STATUS"; }
    replay_as_recorded "$TMP/replay" || { cat "$TMP/replay.err" >&2; fail "$mode: the replay reported an error"; }
    for r in $(seq 0 $((NP - 1))); do
        [ -f "$TMP/self/self-$r.txt" ] || fail "$mode: the replay's rank $r wrote no self-log"
        cmp -s "$TMP/self.rec/self-$r.txt" "$TMP/self/self-$r.txt" || {
            diff "$TMP/self.rec/self-$r.txt" "$TMP/self/self-$r.txt" | head -5 >&2
            fail "$mode: the replay's rank $r made other MPI calls than the recording's"
        }
    done
    echo "$mode: $total calls on $NP ranks recorded and dumped exactly; the replay made the same calls"
done
