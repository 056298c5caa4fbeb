#!/bin/bash
# rma.sh MPIRR IMPL PROG: `mpirr races` RMA conflicts on real recordings of rma_conflicts.c
# (3 ranks): put_race and shared_race report exactly one conflict naming both Put lines;
# halo, ticket and histogram report none, in text and --json; `mpirr events` shows a Put's
# one-sided fields.
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
SRC=$(dirname "$0")/rma_conflicts.c
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
line() { grep -n "/\* $1 \*/" "$SRC" | cut -d: -f1; }
for mode in put_race shared_race halo ticket histogram; do
    run "$TMP/rec" "$MPIRR" record --events -o "$TMP/$mode" -- "${LAUNCH[@]}" "$PROG" "$mode"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "$mode: record exited $STATUS"; }
    "$MPIRR" races "$TMP/$mode" >"$TMP/$mode.out" 2>"$TMP/$mode.err" || { cat "$TMP/$mode.err" >&2; fail "$mode: races failed"; }
done
for mode in halo ticket histogram; do
    grep -q '^0 RMA conflicts among [1-9][0-9]* one-sided accesses$' "$TMP/$mode.out" ||
        { cat "$TMP/$mode.out" >&2; fail "$mode: expected no RMA conflict"; }
done
A=$(line RACE_PUT_A) B=$(line RACE_PUT_B) S=$(line RACE_SHARED)
grep -q '^1 RMA conflicts among 2 one-sided accesses$' "$TMP/put_race.out" || { cat "$TMP/put_race.out" >&2; fail "put_race: expected 1 conflict"; }
grep -q "RMA conflict at rank 0 bytes \[8, 12) .*rank 1 event [0-9]* put (.*rma_conflicts.c:$A .* and rank 2 event [0-9]* put (.*rma_conflicts.c:$B " "$TMP/put_race.out" ||
    { cat "$TMP/put_race.out" >&2; fail "put_race: the conflict does not name lines $A and $B"; }
grep -q "RMA conflict at rank 0 bytes \[12, 16) .*rank 1 .*rma_conflicts.c:$S .* and rank 2 .*rma_conflicts.c:$S " "$TMP/shared_race.out" ||
    { cat "$TMP/shared_race.out" >&2; fail "shared_race: the conflict does not name line $S twice"; }
# --json: the same conflict, both sides named; none in the correct programs
"$MPIRR" races "$TMP/put_race" --json >"$TMP/put_race.json" || fail "put_race: races --json failed"
"$MPIRR" races "$TMP/ticket" --json >"$TMP/ticket.json" || fail "ticket: races --json failed"
python3 - "$TMP/put_race.json" "$TMP/ticket.json" "$A" "$B" <<'PY' || fail "races --json: RMA conflicts wrong"
import json, sys
race, ticket = (json.load(open(p))["rma"] for p in sys.argv[1:3])
assert race["conflicts"] == 1 and race["accesses"] == 2 and len(race["pairs"]) == 1, race
pair = race["pairs"][0]
assert pair["target"] == 0 and pair["count"] == 1, pair
a, b = pair["a"], pair["b"]
assert (a["rank"], b["rank"]) == (1, 2) and a["rma"] == b["rma"] == "put", pair
assert (a["lo"], a["hi"]) == (8, 12) and not a["exclusive"], pair
assert a["site"].endswith("rma_conflicts.c:" + sys.argv[3] + " (main)"), a
assert b["site"].endswith("rma_conflicts.c:" + sys.argv[4] + " (main)"), b
assert ticket["conflicts"] == 0 and ticket["accesses"] >= 6 and ticket["pairs"] == [], ticket
PY
"$MPIRR" events "$TMP/put_race" --rank 1 >"$TMP/ev.out" || fail "mpirr events failed"
grep -q ' MPI_Put peer=0 bytes=4 win=0 rma=put target=0 disp=8 type=int ' "$TMP/ev.out" || { cat "$TMP/ev.out" >&2; fail "events: no Put fields"; }
grep -q ' MPI_Win_fence win=0 rma=fence ' "$TMP/ev.out" || fail "events: no fence fields"
echo "ok: RMA conflicts reported with both lines ($A/$B, $S), none in halo, ticket, histogram"
