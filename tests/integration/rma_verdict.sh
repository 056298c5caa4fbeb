#!/bin/bash
# rma_verdict.sh MPIRR IMPL PROG: a program whose outcomes mpirr does not replay is never told it
# replayed "as recorded" without a word (issue 32). PROG is rma_tickets on 4 ranks: each rank
# takes 6 tickets from a counter on rank 0 with MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op
# (rank 0 one more lock, to set the counter). Native runs print different ticket orders; a
# recording (with the event history) and 3 replays of it under noise: each replay's only
# "mpirr:" line is "finished as recorded (...), but not exact:" naming every rank's calls with
# their counts and what is not replayed, and it exits 0; `mpirr stat` lists the same counts
# (text and JSON); the event history holds the calls with their target rank.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

native_distinct tickets 5 "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG"
echo "ok: native runs printed $DISTINCT different ticket orders in 5"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }

calls() { # calls RANK: what the verdict and stat say rank RANK called
    echo "MPI_Fetch_and_op 6 times, MPI_Win_lock $(($1 == 0 ? 7 : 6)) times"
}
total=$("$MPIRR" stat --json "$REC" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["ranks"]:
    got = r["unreplayed_calls"]
    want = {"MPI_Fetch_and_op": 6, "MPI_Win_lock": 7 if r["rank"] == 0 else 6}
    if got != want: sys.exit("stat --json: rank %d unreplayed_calls %s, expected %s" % (r["rank"], got, want))
print(sum(r["events"] for r in d["ranks"]))') || fail "mpirr stat --json: $total"
ranks=""
for k in $(seq 0 $((NP - 1))); do
    ranks="$ranks${ranks:+; }rank $k called $(calls "$k")"
done
expected="mpirr: replay finished as recorded ($NP ranks, $total events), but not exact: $ranks: their outcomes (the order of the lock grants, the values fetched) are not replayed"

"$MPIRR" stat "$REC" >"$TMP/stat.txt" || fail "mpirr stat failed"
grep -q '^calls whose outcomes are not replayed' "$TMP/stat.txt" || fail "mpirr stat lists no calls whose outcomes are not replayed"
for k in $(seq 0 $((NP - 1))); do
    grep -Eq "^  rank $k +$(calls "$k")\$" "$TMP/stat.txt" || { cat "$TMP/stat.txt" >&2; fail "mpirr stat: no line 'rank $k $(calls "$k")'"; }
done
echo "ok: mpirr stat lists every rank's MPI_Fetch_and_op and MPI_Win_lock calls"

n=$("$MPIRR" events "$REC" --rank 1 | grep -c ' MPI_Fetch_and_op peer=0 ')
[ "$n" -eq 6 ] || fail "the event history of rank 1 holds $n MPI_Fetch_and_op calls with peer=0, expected 6"
echo "ok: the event history holds the calls and their target"

for i in 1 2 3; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$REC"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    got=$(grep '^mpirr: ' "$TMP/replay$i.err" | grep -Ev "$LAUNCHER_ENDED")
    [ "$got" = "$expected" ] || fail "replay $i said
$got
expected
$expected"
done
echo "ok: 3 replays: $expected"
