#!/bin/bash
# wtime_resolution.sh MPIRR IMPL BINDIR
# `mpirr record --wtime-resolution 1us`: natively the program's MPI_Wtime values differ from run
# to run and are not all whole microseconds; recorded at 1 us they all are, MPI_Wtick says
# 1e-06, and noisy replays print exactly what the recorded run printed. Bad durations, and the
# option beside --no-wtime, are refused in one line before anything runs.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 2)"

# whole_us FILE: every value line holds multiples of 1000 ns only
whole_us() { grep '^rank' "$1" | awk '{for (i = 3; i <= NF; i++) if ($i % 1000) exit 1}'; }

run "$TMP/n1" "${LAUNCH[@]}" "$BIN/wtime_values"
[ "$STATUS" -eq 0 ] || { cat "$TMP/n1.err" >&2; fail "native run failed"; }
run "$TMP/n2" "${LAUNCH[@]}" "$BIN/wtime_values"
! cmp -s "$TMP/n1.out" "$TMP/n2.out" || fail "two native runs printed the same values"
! whole_us "$TMP/n1.out" || fail "a native run printed whole microseconds only: the test shows nothing"

run "$TMP/r" "$MPIRR" record --wtime-resolution 1us -o "$TMP/rec" -- "${LAUNCH[@]}" "$BIN/wtime_values"
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "recording at 1us failed"; }
[ "$(grep -c '^rank' "$TMP/r.out")" -eq 2 ] || fail "the recorded run printed no values: $(cat "$TMP/r.out")"
whole_us "$TMP/r.out" || fail "recorded at 1us, the program saw other values: $(cat "$TMP/r.out")"
grep -qx 'tick 1e-06' "$TMP/r.out" || fail "recorded at 1us, MPI_Wtick said $(head -1 "$TMP/r.out")"
for i in 1 2 3; do
    run "$TMP/p$i" "$MPIRR" replay --noise 200 "$TMP/rec"
    [ "$STATUS" -eq 0 ] && cmp -s "$TMP/r.out" "$TMP/p$i.out" ||
        { diff "$TMP/r.out" "$TMP/p$i.out" >&2; cat "$TMP/p$i.err" >&2; fail "replay $i differs from the recording"; }
done
"$MPIRR" stat "$TMP/rec" | grep -q '^wtime .*recorded at a resolution of 1000 ns' ||
    fail "mpirr stat does not show the resolution: $("$MPIRR" stat "$TMP/rec" | grep '^wtime')"
"$MPIRR" stat --json "$TMP/rec" | python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["wtime_resolution_ns"] != 1000)' ||
    fail "mpirr stat --json does not give wtime_resolution_ns 1000"
echo "ok: recorded at 1us, 3 noisy replays print the recorded values, stat shows the resolution"

for bad in 0 1x 2s -5us; do
    run "$TMP/bad" "$MPIRR" record --wtime-resolution "$bad" -o "$TMP/bad$i" -- "${LAUNCH[@]}" "$BIN/wtime_values"
    expect_error "$TMP/bad" "wtime-resolution" "expected a duration"
    [ "$STATUS" -eq 2 ] && [ ! -s "$TMP/bad.out" ] || fail "--wtime-resolution $bad: status $STATUS, or the program ran"
done
run "$TMP/nw" "$MPIRR" record --no-wtime --wtime-resolution 1us -o "$TMP/nw" -- "${LAUNCH[@]}" "$BIN/wtime_values"
expect_error "$TMP/nw" "MPI_Wtime is not recorded"
