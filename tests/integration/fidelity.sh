#!/bin/bash
# fidelity.sh MPIRR IMPL PROGRAM NRANKS CLASS [MODE [RECORD_OPTION]]
# The heart of mpirr's promise, for one nondeterministic program on one MPI implementation:
# native runs (with timing noise) differ; one recording; 5 replays under timing noise (3 in the
# races and all modes, whose program the sources-mode test already replayed 5 times) all print
# exactly what the recording printed and exit the same way.
# CLASS: normal | deterministic (native runs must agree) | crashes-sometimes (the recording
# kept is one that crashed; the replays must crash the same way).
# MODE: the recording mode (sources, races, all); the native runs are checked in sources mode
# only (the same program's sources test already shows its nondeterminism).
# RECORD_OPTION: one more option of `mpirr record` (e.g. --events).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=$4 CLASS=$5 MODE=${6:-sources} RECORD_OPTION=${7:-}
NATIVE_RUNS=6 REPLAYS=5 MAX_RECORDINGS=20
[ "$MODE" = sources ] || REPLAYS=3
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
name=$(basename "$PROG")

# 1. native runs, perturbed by noise: a deterministic program prints the same every time; any
# other must print two different outputs within NATIVE_RUNS runs (the search stops at the
# second: more differing runs prove nothing more)
if [ "$MODE" != sources ]; then
    echo "native runs: checked by the sources-mode test"
else
    first= distinct=1
    for i in $(seq $NATIVE_RUNS); do
        run "$TMP/native$i" "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG"
        [ "$CLASS" = crashes-sometimes ] || [ "$STATUS" -eq 0 ] ||
            { cat "$TMP/native$i.err" >&2; fail "native run $i of $name exited $STATUS"; }
        sum=$(program_output "$TMP/native$i.out" | md5sum)
        [ -z "$first" ] && first=$sum
        [ "$sum" != "$first" ] && distinct=2
        [ "$distinct" -eq 2 ] && [ "$CLASS" != deterministic ] && break
    done
    if [ "$CLASS" = deterministic ]; then
        [ "$distinct" -eq 1 ] || fail "$name is deterministic but its native runs printed different outputs"
    else
        [ "$distinct" -ge 2 ] || fail "$name: $NATIVE_RUNS native runs all printed the same: not a test of nondeterminism"
    fi
fi
[ "$MODE" = sources ] && echo "native: $distinct distinct outputs in $i runs"

# 2. record (for crashes-sometimes: until a recording caught the crash)
for attempt in $(seq $MAX_RECORDINGS); do
    rm -rf "$TMP/rec"
    run "$TMP/record" "$MPIRR" record --mode "$MODE" ${RECORD_OPTION:+"$RECORD_OPTION"} --noise "$NOISE_US" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
    [ "$CLASS" != crashes-sometimes ] && break
    [ "$STATUS" -ne 0 ] && break
done
rec_status=$STATUS
if [ "$CLASS" = crashes-sometimes ]; then
    [ "$rec_status" -ne 0 ] || fail "$name never crashed in $MAX_RECORDINGS recordings"
    grep -q digest "$TMP/record.out" && fail "$name: crashed recording printed a digest"
else
    [ "$rec_status" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "recording of $name exited $rec_status"; }
    grep -q '^digest ' "$TMP/record.out" || fail "recording of $name printed no digest"
fi
echo "recorded: exit $rec_status, $(head -c 200 "$TMP/record.out" | tr '\n' ' ')"
"$MPIRR" stat "$TMP/rec" >"$TMP/stat.out" 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "mpirr stat failed on the recording of $name"; }
# With a tiny bound on undecided verdicts (MPIRR_RACE_PENDING), races mode must fall back to
# logging, and the replays below show that stays exact.
if [ -n "${MPIRR_RACE_PENDING:-}" ]; then
    fallback=$("$MPIRR" stat --json "$TMP/rec" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"]["fallback_logged"])')
    [ "$fallback" -gt 0 ] || fail "MPIRR_RACE_PENDING=$MPIRR_RACE_PENDING: no receive was logged by the fallback"
    echo "bound $MPIRR_RACE_PENDING: $fallback receives logged by the fallback"
fi

# 3. replays under noise
for i in $(seq $REPLAYS); do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec"
    [ "$STATUS" -eq "$rec_status" ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i of $name exited $STATUS, the recording exited $rec_status"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" ||
        fail "replay $i of $name printed something else than the recording"
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "replay $i of $name reported an error"; }
done
echo "replayed $REPLAYS times under ${NOISE_US}us noise: identical"
