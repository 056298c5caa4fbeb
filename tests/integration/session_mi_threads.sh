#!/bin/bash
# session_mi_threads.sh MPIRR IMPL PROG: `stacks --threads` (debug_commands.c, app_stacks.c,
# the extension's `mpirr frames --threads`) on session_mi_threads (2 ranks; each has two waiter
# threads blocked in read, rank 1 a third one in another function), recorded once with its
# event history and replayed under timing noise, stopped before rank 0's barrier (rank 1 held
# before its own):
#  - `stacks` merges the held (main) thread of each rank only: one line, 0-1 in MPI_Barrier;
#  - `stacks --threads` merges every thread with application frames (not mpirr's channel
#    thread, not the MPI library's threads): the main threads' line with their thread number,
#    one line for both ranks' waiters together (their thread numbers in the leaf), rank 1's
#    straggler on its own line; exactly those lines;
#  - `stacks --thread` and `stacks --threads 1` are one line each; the replay then continues to
#    the end as recorded, and no process of the session is left.
TAG=session_mi_threads
SRC=$(dirname "$0")/session_mi_threads.c
. "$(dirname "$0")/session_mi_lib.sh"
record_prog 2
E=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/ MPI_Barrier / { print $2; exit }')
[ -n "$E" ] || fail "no MPI_Barrier of rank 0 in the history"
BARRIER=$(line_of barrier) WAIT=$(line_of wait) READ=$(line_of read) STRAGGLE=$(line_of straggle)

mi threads --stop 0:"$E" "$REC" <<EOF2
stacks
stacks --threads
bt all
stacks --thread
stacks --threads 1
continue
EOF2
[ "$(after_cmd threads stacks)" = "0-1  MPI_Barrier <- main (session_mi_threads.c:$BARRIER)" ] ||
    { cat "$TMP/threads.out" >&2; fail "stacks: not the main threads alone, 0-1 in MPI_Barrier"; }
got=$(after_cmd threads 'stacks --threads')
mapfile -t L <<<"$got"
# gdb numbers a rank's threads in the order it finds them: the main thread 1, the MPI library's
# and mpirr's (started in MPI_Init, left out) next, the program's own after them
W="^0-1  threads ([0-9]+)-([0-9]+) <- waiter \(session_mi_threads\.c:$WAIT\)\$"
S="^1  thread ([0-9]+) <- take_one \(session_mi_threads\.c:$READ\) <- straggler \(session_mi_threads\.c:$STRAGGLE\)\$"
[ "${#L[@]}" -eq 3 ] && [ "${L[0]}" = "0-1  thread 1 <- MPI_Barrier <- main (session_mi_threads.c:$BARRIER)" ] &&
    [[ ${L[1]} =~ $W ]] && first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]} &&
    [ "$last" -eq $((first + 1)) ] && [ "$first" -gt 1 ] &&
    [[ ${L[2]} =~ $S ]] && [ "${BASH_REMATCH[1]}" -gt 1 ] &&
    [ "${BASH_REMATCH[1]}" -ne "$first" ] && [ "${BASH_REMATCH[1]}" -ne "$last" ] || fail "stacks --threads printed:
$got
expected the main threads (thread 1) in MPI_Barrier, both ranks' two waiters on one line, rank 1's straggler alone"
has threads "rank 1  MPI_Barrier <- main (session_mi_threads.c:$BARRIER)" "bt all: rank 1's held thread"
for c in 'stacks --thread' 'stacks --threads 1'; do
    [ "$(after_cmd threads "$c")" = "mpirr: stacks: unexpected '${c##* }' (usage: stacks [--threads])" ] ||
        { cat "$TMP/threads.out" >&2; fail "'$c': not one line naming '${c##* }'"; }
done
grep -qx 'rank 1 joined 3 threads' "$TMP/threads.out" && grep -q '^mpirr: replay finished as recorded' "$TMP/threads.err" ||
    { cat "$TMP/threads.out" "$TMP/threads.err" >&2; fail "after stacks --threads the replay did not end as recorded"; }
echo "ok: stacks: the held threads; stacks --threads: main threads, waiters $first-$last of both ranks together, rank 1's straggler; bad options one line each"
