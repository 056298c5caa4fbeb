#!/bin/bash
# fortran_forwarded_calls.sh MPIRR IMPL PROG: the calls whose Open MPI Fortran entry points are
# forwarded (src/runtime/fortran_forward.c: counted and recorded as the C call, then Open MPI's
# own binding runs; PROG is tests/programs/fortran/f_forwarded or f08_forwarded) on 4 ranks:
# MPI_Comm_create_keyval with a Fortran copy callback, MPI_Comm_set_attr and MPI_Comm_get_attr
# (the value round-trips, and MPI_Comm_dup's copy callback ran: the program checks, the test
# asserts the printed copy), MPI_Comm_create_errhandler, MPI_Op_create (the Fortran reduction's
# MPI_Allreduce result is asserted) and MPI_Dist_graph_create_adjacent with MPI_UNWEIGHTED.
# The event history has each exactly once per call on every rank and `mpirr events --check`
# agrees with the rank logs; 2 replays under noise print what the recording printed (the
# wildcard arrival order included) and finish as recorded: were a forwarded call counted in one
# run and not the other, the replay's event numbers would not match. On MPICH (mpif.h and `use
# mpi` call the C functions) the same, except MPI_Comm_set_attr and MPI_Comm_get_attr: MPICH's
# Fortran bindings reach its internals directly (docs/runtime.md, Fortran). Then a races-mode
# recording, whose shadow communicators must not run the copy callback again.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

# call:times per rank
calls="MPI_Comm_create_keyval:1 MPI_Comm_dup:1 MPI_Comm_create_errhandler:1 MPI_Op_create:1
MPI_Allreduce:1 MPI_Dist_graph_create_adjacent:1"
[ "$IMPL" = openmpi ] && calls="$calls MPI_Comm_set_attr:1 MPI_Comm_get_attr:2"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
grep -q '^forwarded calls ok (4 ranks)$' "$TMP/record.out" || fail "the recorded run did not finish its checks"
grep -q '^attribute copied: 1000000000007$' "$TMP/record.out" ||
    fail "the attribute did not round-trip through MPI_Comm_dup's Fortran copy callback"
grep -q '^reduced: 3010$' "$TMP/record.out" || fail "MPI_Allreduce with the Fortran MPI_Op_create reduction is wrong"

"$MPIRR" events "$REC" --check >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "mpirr events --check"; }
"$MPIRR" events "$REC" >"$TMP/events" || fail "mpirr events failed"
for entry in $calls; do
    c=${entry%%:*} want=${entry#*:}
    for k in $(seq 0 $((NP - 1))); do
        got=$(grep -c "^$k:[0-9]* $c " "$TMP/events")
        [ "$got" -eq "$want" ] || fail "the event history has $got $c on rank $k, the program made $want"
    done
done
echo "ok: the event history has on every rank, once per call:" $calls

for i in 1 2; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$REC" -- "${LAUNCH[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed other than the recording"
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "replay $i: not finished as recorded"; }
done
echo "ok: 2 replays under noise finished as recorded and printed what the recording printed"

# races mode: its shadow communicators must not run the program's copy callback again (the
# program checks it ran once per MPI_Comm_dup and says so)
run "$TMP/races" "$MPIRR" record --mode races -o "$TMP/races.d" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] && grep -q '^forwarded calls ok (4 ranks)$' "$TMP/races.out" ||
    { cat "$TMP/races.err" >&2; fail "races mode: the program's checks failed (status $STATUS)"; }
echo "ok: races mode ran the copy callback as the program did"
