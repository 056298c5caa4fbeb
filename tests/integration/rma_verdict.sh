#!/bin/bash
# rma_verdict.sh MPIRR IMPL PROG: what mpirr says about a one-sided program it replays exactly
# (issue 32). PROG is rma_tickets on 4 ranks: each rank takes 6 tickets from a counter on rank 0
# with MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op (rank 0 one more lock, to set the counter).
# A recording with the event history: `mpirr stat` (text and JSON) names no call whose outcome
# is not replayed and counts one ticket record per MPI_Win_lock (the atomics inside exclusive
# epochs need none); the event history holds the calls with their target rank; a replay's only
# "mpirr:" line is the plain "finished as recorded (4 ranks, N events)" (rma_replay.sh shows
# that native runs differ and replays print what the recording did).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }

total=$("$MPIRR" stat --json "$REC" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["ranks"]:
    if r.get("unreplayed_calls"):
        sys.exit("stat --json: rank %d unreplayed_calls %s, expected none" % (r["rank"], r["unreplayed_calls"]))
    want = 7 if r["rank"] == 0 else 6
    if r["by_kind"]["ticket"] != want:
        sys.exit("stat --json: rank %d has %d ticket records, expected %d" % (r["rank"], r["by_kind"]["ticket"], want))
print(sum(r["events"] for r in d["ranks"]))') || fail "mpirr stat --json: $total"
echo "ok: mpirr stat --json: no unreplayed calls, one ticket record per MPI_Win_lock"

"$MPIRR" stat "$REC" >"$TMP/stat.txt" || fail "mpirr stat failed"
! grep -q 'not replayed' "$TMP/stat.txt" || { cat "$TMP/stat.txt" >&2; fail "mpirr stat names calls whose outcomes are not replayed"; }
echo "ok: mpirr stat names no call whose outcome is not replayed"

n=$("$MPIRR" events "$REC" --rank 1 | grep -c ' MPI_Fetch_and_op peer=0 ')
[ "$n" -eq 6 ] || fail "the event history of rank 1 holds $n MPI_Fetch_and_op calls with peer=0, expected 6"
echo "ok: the event history holds the calls and their target"

expected="mpirr: replay finished as recorded ($NP ranks, $total events)"
run "$TMP/replay" "$MPIRR" replay --noise "$NOISE_US" "$REC"
replay_said "$TMP/replay" "$expected"
same_output "$TMP/record.out" "$TMP/replay.out" || fail "the replay printed other than the recording"
echo "ok: $expected"
