#!/bin/bash
# fortran_f08_counts.sh MPIRR IMPL PROGRAM: every `use mpi_f08` call of
# tests/programs/fortran/f08_polling (4 ranks) is one event, counted once: with MPICH its calls
# without a choice buffer reach the runtime's mpi_<name>_f08_ entries (fortran_mpich_f08.c) and
# those with one MPICH's _f08ts_ entries, which call the C wrappers; with Open MPI all reach
# fortran_wrappers.c. The event history (which `mpirr events --check` finds consistent with
# the rank logs) has exactly as many MPI_Comm_rank and MPI_Wait events as the program counted
# calls, 4 MPI_Init, 8 MPI_Wtime, 4 MPI_Reduce, one MPI_Recv_init and one MPI_Request_free, and
# an MPI_Testsome, MPI_Probe and MPI_Start on rank 0; MPI_Testsome's indices came back counted
# from 1 (MPICH 4.0's own binding counts them from 0). A replay under noise prints the same.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG"
exited_ok "$TMP/record" "the recording"
grep -qx 'testsome indices count from 1' "$TMP/record.out" ||
    fail "MPI_Testsome's indices did not count from 1 ($(grep testsome "$TMP/record.out"))"
read -r _ _ comm_rank _ wait < <(grep '^calls MPI_Comm_rank ' "$TMP/record.out") ||
    fail "the program printed no call counts"
events_name_calls "$REC" 1 MPI_Testsome MPI_Probe MPI_Start MPI_Recv_init MPI_Request_free
count() { grep -c "^[0-9]*:[0-9]* $1 " "$TMP/events"; }
for expect in "MPI_Comm_rank $comm_rank" "MPI_Wait $wait" "MPI_Init $NP" "MPI_Wtime $((2 * NP))" \
              "MPI_Reduce $NP" "MPI_Recv_init 1" "MPI_Request_free 1"; do
    set -- $expect
    n=$(count "$1")
    [ "$n" -eq "$2" ] || fail "the event history has $n $1 events, the program made $2 calls"
done
echo "ok: $comm_rank MPI_Comm_rank, $wait MPI_Wait, $NP MPI_Init, $((2 * NP)) MPI_Wtime events: one per call"

run "$TMP/replay" "$MPIRR" replay --noise "$NOISE_US" "$REC"
exited_ok "$TMP/replay" "the replay"
same_output "$TMP/record.out" "$TMP/replay.out" || fail "the replay printed other than the recording"
replay_as_recorded "$TMP/replay" || { cat "$TMP/replay.err" >&2; fail "the replay reported an error"; }
echo "ok: replayed under noise as recorded"
