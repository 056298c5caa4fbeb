#!/bin/bash
# wrappers.sh MPIRR IMPL PROG: a replay's command may put a tool in front of the program, as a
# user debugging the replay does: `mpirun -np 2 gdb -batch -ex run --args ./app` and
# `mpirun -np 2 env X=1 ./app` replay the recording (same digests), a command whose every word
# differs from the recorded executable is refused with one line naming the file it checked, and
# --no-exe-check lets a rank run another executable (which then diverges, in one line).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=2
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
run "$TMP/rec" "$MPIRR" record -o "$TMP/r" -- "${LAUNCH[@]}" "$PROG" 3
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "recording exited $STATUS"; }
digests() { grep '^digest' "$1" | sort; }
if command -v gdb >/dev/null; then
    run "$TMP/gdb" "$MPIRR" replay --noise "$NOISE_US" "$TMP/r" -- "${LAUNCH[@]}" gdb -q -nx -batch -ex run --args "$PROG" 3
    [ "$STATUS" -eq 0 ] || { cat "$TMP/gdb.err" >&2; fail "the replay under gdb exited $STATUS"; }
    [ "$(digests "$TMP/gdb.out")" = "$(digests "$TMP/rec.out")" ] || fail "the replay under gdb printed other digests"
    echo "ok: replayed under gdb -batch -ex run --args"
fi
run "$TMP/env" "$MPIRR" replay --noise "$NOISE_US" "$TMP/r" -- "${LAUNCH[@]}" env MPIRR_TEST_WRAPPED=1 "$PROG" 3
[ "$STATUS" -eq 0 ] || { cat "$TMP/env.err" >&2; fail "the replay under env exited $STATUS"; }
[ "$(digests "$TMP/env.out")" = "$(digests "$TMP/rec.out")" ] || fail "the replay under env printed other digests"
echo "ok: replayed under env"
run "$TMP/true" "$MPIRR" replay "$TMP/r" -- "${LAUNCH[@]}" /bin/true
expect_error "$TMP/true" "/bin/true" "differs from the recorded executable" "--no-exe-check"
run "$TMP/noexe" "$MPIRR" replay --no-exe-check "$TMP/r" -- "${LAUNCH[@]}" "$(dirname "$PROG")/deterministic"
[ "$STATUS" -ne 0 ] || fail "another program replayed with --no-exe-check exited 0"
grep -q "different executable" "$TMP/noexe.err" && fail "--no-exe-check did not reach the ranks"
expect_error "$TMP/noexe" "diverged"
