#!/bin/bash
# scale.sh MPIRR IMPL PROG MODE [NP] [ROUNDS]
# 64 ranks on this machine's cores: a wildcard storm (PROG = wildcard_storm) recorded in MODE
# replays under timing noise to the same digests, and every one of the 64 rank logs reads back
# as finalized. Oversubscription is heavy, so one round keeps it under a minute.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 MODE=$4 NP=${5:-64} ROUNDS=${6:-1}
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
run "$TMP/rec" "$MPIRR" record --mode "$MODE" -o "$TMP/r" -- "${LAUNCH[@]}" "$PROG" "$ROUNDS"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "$NP-rank $MODE recording exited $STATUS"; }
run "$TMP/rep" "$MPIRR" replay --noise "$NOISE_US" "$TMP/r"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rep.err" >&2; fail "$NP-rank $MODE replay exited $STATUS"; }
same_output "$TMP/rec.out" "$TMP/rep.out" || fail "the $NP-rank $MODE replay printed other digests"
"$MPIRR" stat --json "$TMP/r" >"$TMP/stat.json" || fail "stat failed on the $NP-rank recording"
python3 - "$TMP/stat.json" "$NP" <<'PY' || fail "not every one of the $NP rank logs reads back finalized"
import json, sys
s = json.load(open(sys.argv[1]))
ranks = s["ranks"]
assert len(ranks) == int(sys.argv[2]), len(ranks)
assert all(r["ending"] == "finalized" for r in ranks), [r["ending"] for r in ranks if r["ending"] != "finalized"]
PY
echo "ok: $NP ranks, $MODE mode: recorded and replayed to the same $(grep -c . "$TMP/rec.out") output lines"
