#!/bin/bash
# fortran_generated_calls.sh MPIRR IMPL PROG: calls of generated rows made from Fortran (PROG is
# tests/programs/fortran/f_generated or f08_generated: neighborhood and nonblocking collectives,
# MPI_Comm_idup, info, datatype and group calls, MPI_Alloc_mem, MPI-IO with the shared file
# pointer and an ordered read; each result checked by the program) on 4 ranks are events (issue
# 32): on Open MPI the runtime's generated Fortran bindings make them so, on MPICH its own
# bindings calling the C functions or, for mpi_f08 calls without a choice buffer, the runtime's
# (fortran_mpich_f08.c). MPICH's mpi_f08 program makes no MPI_Neighbor_alltoallw (MPICH 4.0's
# binding aborts on a Cartesian communicator: generated_body.inc). The event history names each call on
# every rank and `mpirr events --check` agrees with the rank logs; `mpirr stat` counts every
# rank's 2 MPI_File_write_shared as not replayed; 2 replays under noise exit 0, print what the
# recording printed (the wildcard arrival order included) and say "but not exact", naming
# MPI_File_write_shared. The same in races mode (MPI_Comm_idup's shadow made at completion).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

calls="MPI_Cart_create MPI_Neighbor_allgather MPI_Ineighbor_alltoall MPI_Neighbor_alltoallw
MPI_Iallreduce MPI_Wait MPI_Comm_idup MPI_Info_create MPI_Info_set MPI_Info_get_valuelen MPI_Info_get
MPI_Type_size_x MPI_Type_set_name MPI_Type_get_name MPI_Group_range_incl MPI_Alloc_mem
MPI_Free_mem MPI_File_open MPI_File_set_size MPI_File_write_shared
MPI_File_sync MPI_File_get_size MPI_File_seek_shared MPI_File_read_ordered MPI_File_close
MPI_Info_free"
if [ "$IMPL" = mpich ] && [[ $(basename "$PROG") = f08_* ]]; then
    calls=${calls/MPI_Neighbor_alltoallw[[:space:]]/}
fi

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$PROG" "$TMP/rec.txt"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }
grep -q '^generated calls ok (4 ranks)$' "$TMP/record.out" || fail "the recorded run did not finish its checks"
events_name_calls "$REC" "$NP" $calls

"$MPIRR" stat --json "$REC" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["ranks"]:
    if r["unreplayed_calls"] != {"MPI_File_write_shared": 2}:
        sys.exit("stat --json: rank %d unreplayed_calls %s" % (r["rank"], r["unreplayed_calls"]))' ||
    fail "mpirr stat does not count 2 MPI_File_write_shared per rank"
echo "ok: mpirr stat counts every rank's 2 MPI_File_write_shared as not replayed"

for i in 1 2; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$REC" -- "${LAUNCH[@]}" "$PROG" "$TMP/replay$i.txt"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed other than the recording"
    grep -q '^mpirr: replay finished as recorded (.*), but not exact: .*rank 0 called MPI_File_write_shared 2 times' \
        "$TMP/replay$i.err" || { cat "$TMP/replay$i.err" >&2; fail "replay $i: no verdict naming MPI_File_write_shared"; }
done
echo "ok: 2 replays under noise printed what the recording printed; the verdict names MPI_File_write_shared"

# races mode: MPI_Comm_idup's new communicator gets its shadow at completion, from the handle
# the Fortran binding's local held when the call returned (never through that local, gone by
# then); the program's traffic on it and everything after replays as recorded
RREC=$TMP/races
run "$TMP/rrecord" "$MPIRR" record --mode races -o "$RREC" -- "${LAUNCH[@]}" "$PROG" "$TMP/rrec.txt"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rrecord.err" >&2; fail "the races-mode recording exited $STATUS"; }
grep -q '^generated calls ok (4 ranks)$' "$TMP/rrecord.out" || fail "the races-mode recorded run did not finish its checks"
run "$TMP/rreplay" "$MPIRR" replay --noise "$NOISE_US" "$RREC" -- "${LAUNCH[@]}" "$PROG" "$TMP/rreplay.txt"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rreplay.err" >&2; fail "the races-mode replay exited $STATUS"; }
same_output "$TMP/rrecord.out" "$TMP/rreplay.out" || fail "the races-mode replay printed other than the recording"
grep -q '^mpirr: replay finished as recorded' "$TMP/rreplay.err" || { cat "$TMP/rreplay.err" >&2; fail "races-mode replay: no verdict"; }
echo "ok: races mode: recorded and replayed as recorded"
