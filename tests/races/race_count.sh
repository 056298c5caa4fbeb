#!/bin/bash
# race_count.sh MPIRR IMPL PROGRAM NRANKS
# Races mode logs exactly the receives the race rule says race (tests/races/README.md): the
# program prints `expect racing_receives N`, N computed from the message order it observed; a
# `--mode=races` recording must report totals.racing_receives == N in `mpirr stat --json`
# (and no more racing than wildcard receives). Then 3 replays under timing noise print exactly
# what the recording printed (so the unlogged, non-racing receives were deterministic).
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=$4
REPLAYS=3
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
name=$(basename "$PROG")

run "$TMP/record" "$MPIRR" record --mode=races -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "$name: recording with --mode=races exited $STATUS"; }
# a warning (e.g. a communicator without piggyback, or races mode falling back to logging
# every wildcard receive) would make the count below meaningless: none is expected
grep -q '^mpirr: ' "$TMP/record.err" && { cat "$TMP/record.err" >&2; fail "$name: mpirr complained while recording"; }
want=$(sed -n 's/^expect racing_receives \([0-9][0-9]*\)$/\1/p' "$TMP/record.out")
[ "$(printf '%s' "$want" | grep -c .)" -eq 1 ] || { cat "$TMP/record.out" >&2; fail "$name: recording printed no single 'expect racing_receives N' line"; }
grep -q '^digest ' "$TMP/record.out" || fail "$name: recording printed no digest"

"$MPIRR" stat --json "$TMP/rec" >"$TMP/stat.json" 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "$name: mpirr stat --json failed on the recording"; }
got=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1])).get("totals")
keys = ("racing_receives", "wildcard_receives")
if not isinstance(t, dict) or not all(isinstance(t.get(k), int) for k in keys):
    sys.exit("no integer totals." + " and totals.".join(keys) + " in mpirr stat --json")
print(t["racing_receives"], t["wildcard_receives"])
' "$TMP/stat.json" 2>&1) || fail "$name: $(tail -1 <<<"$got")"
read -r racing wildcard <<<"$got"
[ "$racing" -eq "$want" ] || fail "$name on $IMPL: the program expects $want racing receives for the order it saw, the recording logged $racing (of $wildcard wildcard receives)"
[ "$racing" -le "$wildcard" ] || fail "$name on $IMPL: $racing racing receives but only $wildcard wildcard receives"
echo "recorded: $racing racing receives of $wildcard wildcard receives, as expected"

for i in $(seq $REPLAYS); do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "$name: replay $i exited $STATUS"; }
    grep -q '^mpirr: ' "$TMP/replay$i.err" && { cat "$TMP/replay$i.err" >&2; fail "$name: replay $i reported an error"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "$name: replay $i printed something else than the recording"
done
echo "replayed $REPLAYS times under ${NOISE_US}us noise: identical"
