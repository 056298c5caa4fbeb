#!/bin/bash
# events_threads.sh MPIRR IMPL PROG: the event history of threaded ranks (PROG is thread_sync).
# A mutex race recorded with --events: `mpirr events` shows every acquisition as a line naming
# the thread, the call, the object and its turn - per rank, each object's turns 0, 1, 2, ... in
# stream order, 1200 of them (4 threads x 300), made by threads 1..4 - and the recording
# replays to the same output. MPI_THREAD_MULTIPLE: the call records of rank 0's receiving
# threads carry thread=1..3, those of its main thread none; the analysis reads the history.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 2)"
run "$TMP/rec" "$MPIRR" record --events -o "$TMP/mutex" -- "${LAUNCH[@]}" "$PROG" mutex
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "mutex: the recorded run exited $STATUS"; }
"$MPIRR" events "$TMP/mutex" >"$TMP/mutex.ev" || fail "mpirr events failed on the threaded history"
python3 - "$TMP/mutex.ev" <<'PY' || exit 1
import re, sys
turns, threads = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) thread (\d+) (\S+) object=(\d+) turn=(\d+)$", line.strip())
    if not m:
        continue
    rank, thread, call, obj, turn = m.groups()
    if call != "pthread_mutex_lock":
        sys.exit(f"FAIL: rank {rank}: a {call} line in a program that only locks a mutex")
    turns.setdefault((rank, obj), []).append(int(turn))
    threads.setdefault(rank, set()).add(int(thread))
for rank in ("0", "1"):
    objs = [t for (r, o), t in turns.items() if r == rank]
    if len(objs) != 1 or objs[0] != list(range(1200)):
        got = [len(t) for t in objs]
        sys.exit(f"FAIL: rank {rank}: expected one mutex taken at turns 0..1199 in order, got {got} acquisitions")
    if threads[rank] != {1, 2, 3, 4}:
        sys.exit(f"FAIL: rank {rank}: expected threads 1-4 to lock, got {sorted(threads[rank])}")
print("ok: mutex: 1200 acquisitions per rank in turn order, by threads 1-4")
PY
run "$TMP/rep" "$MPIRR" replay --noise "$NOISE_US" "$TMP/mutex"
[ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep" || { cat "$TMP/rep.err" >&2; fail "mutex: the replay exited $STATUS"; }
cmp -s "$TMP/rec.out" "$TMP/rep.out" || fail "mutex: the replay printed another digest"

read -r -a LAUNCH3 <<<"$(launcher "$IMPL" 3)"
run "$TMP/mt" "$MPIRR" record --events -o "$TMP/multiple" -- "${LAUNCH3[@]}" "$PROG" multiple
[ "$STATUS" -eq 0 ] || { cat "$TMP/mt.err" >&2; fail "multiple: the recorded run exited $STATUS"; }
if grep -q "no MPI_THREAD_MULTIPLE" "$TMP/mt.out"; then echo "skipped: $IMPL lacks MPI_THREAD_MULTIPLE"; exit 0; fi
"$MPIRR" events "$TMP/multiple" >"$TMP/multiple.ev" || fail "mpirr events failed on the MPI_THREAD_MULTIPLE history"
grep -q '^0:1 MPI_Init_thread .*thread=' "$TMP/multiple.ev" && fail "multiple: the main thread's MPI_Init_thread names a thread"
got=$(sed -n 's/^0:[0-9]* MPI_\(Recv\|Irecv\|Test\|Waitany\) .* thread=\([0-9]*\) .*/\2/p' "$TMP/multiple.ev" | sort -u | tr '\n' ' ')
[ "$got" = "1 2 3 " ] || fail "multiple: rank 0's receiving calls name threads '$got', expected '1 2 3 '"
"$MPIRR" races "$TMP/multiple" >"$TMP/races.out" 2>"$TMP/races.err" || { cat "$TMP/races.err" >&2; fail "multiple: mpirr races failed on the threaded history"; }
echo "ok: multiple: rank 0's receives carry threads 1-3; mpirr races reads the history"
