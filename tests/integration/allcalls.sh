#!/bin/bash
# allcalls.sh MPIRR IMPL PROG: the generated rows of the call table (issue 32) are events and
# replay. PROG is allcalls on 4 ranks: neighborhood collectives, nonblocking collectives, MPI-IO
# at explicit offsets (and on an MPI-4 library MPI_Comm_idup_with_info, a persistent collective,
# a session, MPI_Send_c/MPI_Recv_c), around a wildcard race whose order it prints. Native runs
# print different orders; a recording with the event history names each call; `mpirr events
# --check` agrees with the rank logs; 3 replays under noise (and 2 of a races-mode recording)
# print the recorded order with the verdict "finished as recorded" and nothing more. With
# "unreplayed" the program also calls a generated UNREPLAYED function (MPI_File_write_shared_c
# on MPI-4, else MPI_Open_port): the verdict names every rank's call and what is not replayed.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
DATA=$TMP/data

native_distinct order 5 "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG" "$DATA"
echo "ok: native runs: two receive orders differed within $NATIVE_RAN"

calls="MPI_Neighbor_allgather MPI_Neighbor_alltoall MPI_Ineighbor_allgather MPI_Ialltoallv
MPI_Iallgatherv MPI_Ireduce_scatter MPI_File_open MPI_File_write_at MPI_File_read_at_all
MPI_File_get_size MPI_File_close MPI_File_delete"
if [ "$IMPL" = mpich ]; then # MPI-4: Open MPI 4.1 has none of these
    calls="$calls MPI_Comm_idup_with_info MPI_Allreduce_init MPI_Session_init
MPI_Session_get_num_psets MPI_Session_finalize MPI_Send_c MPI_Recv_c MPI_Get_count_c"
    unreplayed=MPI_File_write_shared_c what="the order of the shared file pointer's accesses"
else
    unreplayed=MPI_Open_port what="the processes started or connected to"
fi

# replays REC N: N replays of REC under noise each print what the recording printed, and their
# only "mpirr:" line is "finished as recorded (...)" with nothing not replayed
replays() {
    for i in $(seq "$2"); do
        run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$1"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i of $1 exited $STATUS"; }
        replay_as_recorded "$TMP/replay$i" && ! grep -q 'not exact' "$TMP/replay$i.err" ||
            { cat "$TMP/replay$i.err" >&2; fail "replay $i of $1: not a plain 'finished as recorded'"; }
        same_output "$1.out" "$TMP/replay$i.out" || fail "replay $i of $1 printed another order"
    done
    echo "ok: $2 replays of $1 under noise printed the recorded order, finished as recorded"
}

for mode in sources races; do
    REC=$TMP/rec-$mode
    run "$REC" "$MPIRR" record --mode="$mode" --events -o "$REC" -- "${LAUNCH[@]}" "$PROG" "$DATA"
    [ "$STATUS" -eq 0 ] || { cat "$REC.err" >&2; fail "the $mode recording exited $STATUS"; }
    "$MPIRR" events "$REC" --check >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "mpirr events --check on the $mode recording"; }
    if [ "$mode" = sources ]; then
        "$MPIRR" events "$REC" >"$TMP/events" || fail "mpirr events failed"
        for c in $calls; do
            grep -q "^[0-9]*:[0-9]* $c " "$TMP/events" || fail "the event history has no $c"
        done
        echo "ok: the event history names" $calls
        replays "$REC" 3
    else
        replays "$REC" 2
    fi
done

REC=$TMP/rec-unreplayed
run "$REC" "$MPIRR" record -o "$REC" -- "${LAUNCH[@]}" "$PROG" "$DATA" unreplayed
[ "$STATUS" -eq 0 ] || { cat "$REC.err" >&2; fail "the recording with $unreplayed exited $STATUS"; }
ranks=""
for k in $(seq 0 $((NP - 1))); do ranks="$ranks${ranks:+; }rank $k called $unreplayed 1 time"; done
run "$TMP/replay-u" "$MPIRR" replay --noise "$NOISE_US" "$REC"
[ "$STATUS" -eq 0 ] || { cat "$TMP/replay-u.err" >&2; fail "the replay with $unreplayed exited $STATUS"; }
got=$(grep '^mpirr: ' "$TMP/replay-u.err" | grep -Ev "$LAUNCHER_ENDED")
case $got in
"mpirr: replay finished as recorded ("*"), but not exact: $ranks: their outcomes ($what) are not replayed") ;;
*) fail "the replay with $unreplayed said
$got
expected it to name: $ranks: their outcomes ($what) are not replayed" ;;
esac
echo "ok: $got"
