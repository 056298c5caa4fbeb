#!/bin/bash
# isendrecv.sh MPIRR IMPL PROG MODE: MPI-4's MPI_Isendrecv(_replace) with racing MPI_ANY_SOURCE
# receives (isendrecv_race.c) is recorded and replayed in MODE (sources or races) like any
# receive: fidelity.sh shows native runs differ (sources mode) and the replays under noise print
# what the recording printed. Then one more recording and its replay: every status named the
# sender of the message received, with its tag and count (MPICH 4.0.2's own Isendrecv leaves
# them unset), `mpirr stat` counts no unreplayed call, and the replay's verdict is exactly
# "as recorded", naming no call. The event history (the recording is made with --events) holds
# both halves of every exchange: `mpirr races` matches all 320 messages, none left over, and
# finds the racing wildcard receives (the first exchange's, one a round per rank), and
# `mpirr events --check` agrees with the rank logs.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 MODE=$4 NP=4
"$(dirname "$0")/fidelity.sh" "$MPIRR" "$IMPL" "$PROG" "$NP" normal "$MODE" || fail "fidelity of $(basename "$PROG") in $MODE mode"
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

run "$TMP/record" "$MPIRR" record --events --mode "$MODE" --noise "$NOISE_US" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
grep -qx "statuses naming their sender: 320 of 320" "$TMP/record.out" ||
    { cat "$TMP/record.out" >&2; fail "statuses do not all name the sender, tag and count received"; }
"$MPIRR" stat --json "$TMP/rec" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["ranks"]:
    if r["unreplayed_calls"]:
        sys.exit("rank %d unreplayed_calls %s" % (r["rank"], r["unreplayed_calls"]))' ||
    fail "mpirr stat counts unreplayed calls"
echo "ok: all statuses right, no unreplayed call"
"$MPIRR" races --json "$TMP/rec" | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
got = [s[k] for k in ("messages", "unreceived_sends", "unmatched_receives", "wildcard_receives", "racing_receives")]
if got != [320, 0, 0, 320, 160]:
    sys.exit("races: messages, unreceived, unmatched, wildcard, racing: %s, expected [320, 0, 0, 320, 160]" % got)' ||
    fail "the race analysis does not see both halves of every exchange"
"$MPIRR" events --check "$TMP/rec" >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "events --check"; }
echo "ok: the race analysis matches all 320 messages; 160 racing receives"
run "$TMP/replay" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec"
same_output "$TMP/record.out" "$TMP/replay.out" || fail "the replay printed something else than the recording"
verdict=$(grep '^mpirr: replay' "$TMP/replay.err")
[[ "$verdict" =~ ^"mpirr: replay finished as recorded ("[^\)]*")"$ ]] ||
    { cat "$TMP/replay.err" >&2; fail "the verdict is not exactly 'as recorded': $verdict"; }
echo "ok: $verdict"
