#!/bin/bash
# transparency.sh MPIRR IMPL PROGRAM NRANKS
# A deterministic program that prints what it observes of its messages (counts, elements,
# probe sizes, statuses, MPI_PROC_NULL, truncation errors...) prints the same under mpirr as
# natively: recorded in each mode (races, sources, all), under `mpirr run`, and replaying the
# races recording. Compared with a native run on the same MPI implementation only.
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=$4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
name=$(basename "$PROG")

# same_as_native OUT WHAT: OUT printed what the native run printed (the diff on failure)
same_as_native() {
    if ! cmp -s <(program_output "$TMP/native1.out") <(program_output "$1"); then
        diff <(program_output "$TMP/native1.out") <(program_output "$1") | head -40 >&2
        fail "$name on $IMPL: $2 printed something else than the native run (diff above: < native, > $2)"
    fi
}

# exited_ok PREFIX WHAT: the run exited 0 and mpirr said nothing (no error, no warning) but,
# for a replay, that it finished as recorded
exited_ok() {
    [ "$STATUS" -eq 0 ] || { cat "$1.err" >&2; fail "$name on $IMPL: $2 exited $STATUS"; }
    grep '^mpirr: ' "$1.err" | grep -Evq '^mpirr: replay finished as recorded' &&
        { cat "$1.err" >&2; fail "$name on $IMPL: mpirr complained during $2"; }
    return 0
}

for i in 1 2; do
    run "$TMP/native$i" "${LAUNCH[@]}" "$PROG"
    exited_ok "$TMP/native$i" "native run $i"
done
grep -q '^digest ' "$TMP/native1.out" || fail "$name on $IMPL: native run printed no digest"
nobs=$(grep -c '^observed ' "$TMP/native1.out")
[ "$nobs" -ge 40 ] || fail "$name on $IMPL: native run printed only $nobs observed lines"
same_output "$TMP/native1.out" "$TMP/native2.out" || fail "$name on $IMPL: two native runs differ: the program is not deterministic"
echo "native: $nobs observations, identical in 2 runs"

for mode in races sources all; do
    run "$TMP/rec_$mode" "$MPIRR" record --mode="$mode" -o "$TMP/dir_$mode" -- "${LAUNCH[@]}" "$PROG"
    exited_ok "$TMP/rec_$mode" "record --mode=$mode"
    same_as_native "$TMP/rec_$mode.out" "record --mode=$mode"
done
# the program's first messages (check_short) went in the short form, with no header
short=$("$MPIRR" stat "$TMP/dir_races" | sed -n 's/.* \([0-9]*\) messages without;.*/\1/p')
[ "${short:-0}" -gt 0 ] || fail "$name on $IMPL: races mode sent no message in the short form (stat: '${short}')"
echo "races mode: $short messages in the short form"
run "$TMP/run" "$MPIRR" run -- "${LAUNCH[@]}" "$PROG"
exited_ok "$TMP/run" "mpirr run"
same_as_native "$TMP/run.out" "mpirr run"
run "$TMP/replay" "$MPIRR" replay --noise "$NOISE_US" "$TMP/dir_races"
exited_ok "$TMP/replay" "replay of the races recording"
same_as_native "$TMP/replay.out" "replay of the races recording"
echo "record (races, sources, all), run and replay: all identical to the native run"
