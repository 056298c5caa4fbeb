#!/bin/bash
# rma_replay.sh MPIRR IMPL PROG NATIVE_RUNS [TICKETS]: a one-sided program (issue 32; programs in
# tests/integration/rma/ and rma_tickets.c) on 4 ranks replays exactly. With NATIVE_RUNS > 0,
# that many native runs under noise first print at least two different outputs (the program's
# outcome depends on the order of its epochs or atomics, or on MPI_Win_test's answers); 0 for a
# program ordered by its synchronisation alone. It is recorded once, and replayed 3 times under
# noise: each replay exits 0, prints byte for byte what the recording printed, and its verdict
# is "finished as recorded" with nothing "not exact". With TICKETS, `mpirr stat --json` counts
# at least that many ticket records (the turns replay forced).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NATIVE_RUNS=$4 TICKETS=${5:-0} NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
name=$(basename "$PROG")

if [ "$NATIVE_RUNS" -gt 0 ]; then
    native_distinct "$name" "$NATIVE_RUNS" "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG"
    echo "ok: native runs: two differed within $NATIVE_RAN"
fi

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record -o "$REC" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
[ -s "$TMP/record.out" ] || fail "the recorded run printed nothing"

if [ "$TICKETS" -gt 0 ]; then
    n=$("$MPIRR" stat --json "$REC" | python3 -c '
import json, sys
print(sum(r["by_kind"]["ticket"] for r in json.load(sys.stdin)["ranks"]))') ||
        fail "mpirr stat --json failed"
    [ "$n" -ge "$TICKETS" ] || fail "the recording holds $n ticket records, expected at least $TICKETS"
    echo "ok: the recording holds $n ticket records"
fi

for i in 1 2 3; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$REC"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed other than the recording"
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "replay $i: no plain 'as recorded' verdict"; }
    ! grep -q 'not exact' "$TMP/replay$i.err" || { cat "$TMP/replay$i.err" >&2; fail "replay $i: not exact"; }
done
echo "ok: 3 replays under noise printed what the recording printed, as recorded"
