#!/bin/bash
# rma_diverge.sh MPIRR IMPL PROG: a replay that reaches a one-sided call whose turn the recording
# lacks ends with one line naming the rank, the event, the call and what was expected, never a
# hang. PROG is rma_tickets on 4 ranks, recorded taking 5 tickets a rank and replayed taking 6:
# the sixth MPI_Win_lock has no ticket record.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

run "$TMP/record" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 5
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
run "$TMP/replay" "$MPIRR" replay "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 6
expect_error "$TMP/replay" "replay of rank [0-3] diverged at event [0-9]* (.*rank-0000[0-3].log)" \
    "the program made MPI_Win_lock (its turn on the target), the recording has none here"
