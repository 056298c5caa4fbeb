#!/bin/bash
# fortran_rma_calls.sh MPIRR IMPL PROG: every one-sided call of the table, made from Fortran
# (`use mpi`: PROG is tests/programs/fortran/f_rma_calls, which checks each call's result) on 4
# ranks, is an event (issue 32): on Open MPI only the runtime's own Fortran bindings make them
# so. A recording with the event history names each call and `mpirr events --check` agrees with
# the rank logs; 2 replays under noise exit 0, print what the recording printed, "as recorded".
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

calls="MPI_Win_create MPI_Win_allocate_shared MPI_Win_shared_query MPI_Win_create_dynamic
MPI_Win_attach MPI_Win_detach MPI_Win_free MPI_Win_fence MPI_Win_post MPI_Win_start
MPI_Win_complete MPI_Win_wait MPI_Win_test MPI_Win_lock MPI_Win_unlock MPI_Win_lock_all
MPI_Win_unlock_all MPI_Win_flush MPI_Win_flush_local MPI_Win_flush_all MPI_Win_flush_local_all
MPI_Win_sync MPI_Win_get_group MPI_Put MPI_Get MPI_Accumulate MPI_Get_accumulate MPI_Fetch_and_op
MPI_Compare_and_swap MPI_Rput MPI_Rget MPI_Raccumulate MPI_Rget_accumulate"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
grep -q '^digest ' "$TMP/record.out" || fail "the recorded run printed no digest"
events_name_calls "$REC" "$NP" $calls

for i in 1 2; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$REC"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed other than the recording"
    replay_as_recorded "$TMP/replay$i" && ! grep -q 'not exact' "$TMP/replay$i.err" ||
        { cat "$TMP/replay$i.err" >&2; fail "replay $i: not a plain 'as recorded'"; }
done
echo "ok: 2 replays under noise printed what the recording printed, as recorded"
