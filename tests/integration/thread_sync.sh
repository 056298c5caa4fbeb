#!/bin/bash
# thread_sync.sh MPIRR IMPL PROG: threads inside ranks racing on a mutex, a condition variable
# (a producer, two consumers), trylock polling, a rwlock, a semaphore and thread creation
# (PROG is thread_sync): for each, native runs differ (checked), and a recording replays 3
# times under timing noise to byte-identical output. Then a program that crashes under some
# interleavings only: a recording of a crashing run replays to the same crash, 3 times. A
# replay whose thread makes another call than recorded, or waits for a version that never
# comes, ends with one line and the divergence verdict. Then MPI_THREAD_MULTIPLE (3 ranks):
# rank 0's threads receive with MPI_ANY_SOURCE (MPI_Recv, Irecv + Test, Irecv + Waitany) while
# other ranks' threads send: replays identical in every mode (all with --events); two threads
# receiving from one source with one tag, and two threads sending to one destination with one
# tag, whose messages depend on the order their receives or sends were posted in: replays
# identical.
# PART (4th argument) runs one part, so that ctest runs them side by side: sync (the pthread
# objects), diverge (the crash and the divergence lines: aborted jobs, whose Open MPI launcher
# was seen to crash under twice the load, and a 2 s stall bound, so ctest runs that part
# alone), mpi (MPI_THREAD_MULTIPLE). Without it, all three.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 PART=${4:-all} NP=2
part() { [ "$PART" = all ] || [ "$PART" = "$1" ]; }
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP" threads)"
read -r -a LAUNCH3 <<<"$(launcher "$IMPL" 3 threads)"

# record_replay3 NAME NP MODE [RECORD OPTIONS...]: records PROG MODE on NP ranks, replays it 3
# times under noise: each replay ends as recorded and prints the recorded output.
record_replay3() {
    local name=$1 np=$2 mode=$3 i
    shift 3
    local -a launch
    read -r -a launch <<<"$(launcher "$IMPL" "$np" threads)"
    run "$TMP/rec-$name" "$MPIRR" record "$@" -o "$TMP/rec-$name" -- "${launch[@]}" "$PROG" "$mode"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$name.err" >&2; fail "$name: the recorded run exited $STATUS"; }
    for i in 1 2 3; do
        run "$TMP/rep-$name$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec-$name"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep-$name$i" ||
            { cat "$TMP/rep-$name$i.err" >&2; fail "$name: replay $i failed (exit $STATUS)"; }
        cmp -s "$TMP/rec-$name.out" "$TMP/rep-$name$i.out" || fail "$name: replay $i printed another output"
    done
}

if part sync; then
for what in mutex cond trylock rwlock sem create; do
    native_distinct "$what" 6 "${LAUNCH[@]}" "$PROG" "$what"
    record_replay3 "$what" "$NP" "$what"
    echo "ok: $what: native runs differ (within $NATIVE_RAN); 3 replays identical ($(ls "$TMP/rec-$what" | grep -c '^sync-.*\.log$') thread logs)"
done
fi

if part diverge; then

# A crash some interleavings produce: record until a run crashes (each does with probability
# about 1/2), then replay it to the crash.
for i in $(seq 20); do
    run "$TMP/rec-crash" "$MPIRR" record --force -o "$TMP/rec-crash" -- "${LAUNCH[@]}" "$PROG" crash
    [ "$STATUS" -ne 0 ] && break
done
[ "$STATUS" -ne 0 ] || fail "crash: 20 recorded runs, none crashed"
grep -q '^sequence ' "$TMP/rec-crash.out" || fail "crash: the crashing run did not print its sequence"
for i in 1 2 3; do
    run "$TMP/rep-crash$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec-crash"
    [ "$STATUS" -ne 0 ] || fail "crash: replay $i did not crash"
    same_output "$TMP/rec-crash.out" "$TMP/rep-crash$i.out" || fail "crash: replay $i printed another sequence"
    grep -q '^mpirr: replay followed the recording' "$TMP/rep-crash$i.err" ||
        { cat "$TMP/rep-crash$i.err" >&2; fail "crash: replay $i did not end as recorded"; }
done
echo "ok: crash: the crashing interleaving replayed to the crash 3 times"

# Divergence in thread order: recorded once, replayed with THREAD_SYNC_VARIANT set (rank 0's
# thread then calls trylock where the recording has lock, or locks another mutex, whose version
# 1 never comes): exit status 70, exactly one runtime line naming rank, thread, synchronization,
# expected and actual, and the divergence verdict naming the same event.
run "$TMP/rec-div" "$MPIRR" record -o "$TMP/rec-div" -- "${LAUNCH[@]}" "$PROG" diverge
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec-div.err" >&2; fail "diverge: the recorded run exited $STATUS"; }
check_divergence() { # VARIANT PATTERN: the line's end
    variant=$1 what=$2 out=$TMP/rep-div-$1
    run "$out" env THREAD_SYNC_VARIANT="$variant" MPIRR_STALL_SECONDS=2 "$MPIRR" replay "$TMP/rec-div"
    [ "$STATUS" -eq 70 ] || { cat "$out.err" >&2; fail "diverge $variant: replay exited $STATUS, not 70"; }
    lines=$(grep '^mpirr: replay of rank' "$out.err")
    [ "$(printf '%s\n' "$lines" | grep -c .)" -eq 1 ] || { cat "$out.err" >&2; fail "diverge $variant: not one line: $lines"; }
    pat="^mpirr: replay of rank 0 diverged at event \([0-9]*\) ([^)]*): thread 1's synchronization 1 (sync-00000-0001.log): $what\$"
    event=$(printf '%s\n' "$lines" | sed -n "s|$pat|\1|p")
    [ -n "$event" ] || fail "diverge $variant: the line is not '...$what': $lines"
    grep -qx "mpirr: replay diverged at rank 0 event $event (see the line above)" "$out.err" ||
        { cat "$out.err" >&2; fail "diverge $variant: no divergence verdict for event $event"; }
    echo "ok: diverge $variant: $lines"
}
check_divergence trylock "the recording has pthread_mutex_lock here, the program called pthread_mutex_trylock"
check_divergence otherlock "pthread_mutex_lock waits for version 1 of the object at 0x[0-9a-f]*, which stays at version 0 (no progress in the rank for 2 s)"
fi
part mpi || exit 0

# MPI_THREAD_MULTIPLE: threads racing on MPI itself
run "$TMP/native-mt-probe" "${LAUNCH3[@]}" "$PROG" multiple
if grep -q "no MPI_THREAD_MULTIPLE" "$TMP/native-mt-probe.out"; then echo "skipped: $IMPL lacks MPI_THREAD_MULTIPLE"; exit 0; fi
native_distinct multiple 6 "${LAUNCH3[@]}" "$PROG" multiple
for mode in sources races all; do
    events=(); [ "$mode" = all ] && events=(--events) # and the event history, in one of the modes
    record_replay3 "multiple-$mode" 3 multiple --mode "$mode" "${events[@]}"
    echo "ok: multiple, $mode mode ${events[*]}: native runs differ (within $NATIVE_RAN); 3 replays identical"
done

# MPI_THREAD_MULTIPLE, a request handle one thread's MPI_Wait frees taken by another thread's
# MPI_Irecv before the first is back in mpirr (a recording used to corrupt the heap here, 6
# runs in 10, or log the completion under the wrong receive): 2 recordings of 6000 wildcard
# receives each, every one replayed under noise.
native_distinct reuse 4 "${LAUNCH3[@]}" "$PROG" reuse
for i in 1 2; do record_replay3 "reuse$i" 3 reuse --mode sources; done
echo "ok: reuse: native runs differ (within $NATIVE_RAN); 2 recordings, 3 replays each identical"

# MPI_THREAD_MULTIPLE, posting order. posting: rank 0's 2 threads receive rank 1's numbered
# messages with the same source and tag (MPI_Recv; MPI_Irecv + MPI_Wait). sending: rank 1's 2
# threads send to rank 0 with one tag (MPI_Send; MPI_Isend + MPI_Wait), which receives them from
# rank 1 in order. No wildcard, so sources mode logs no receive: which message goes where is the
# order the receives, or the sends, were posted in, which the replay must keep (each posts in
# its thread's turn, src/runtime/threads/sync_order.h).
for what in posting sending; do
    native_distinct "$what" 6 "${LAUNCH[@]}" "$PROG" "$what"
    record_replay3 "$what" "$NP" "$what" --mode sources
    echo "ok: $what, sources mode: native runs differ (within $NATIVE_RAN); 3 replays identical"
done
