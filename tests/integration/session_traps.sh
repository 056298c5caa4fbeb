#!/bin/bash
# session_traps.sh MPIRR IMPL PROG: the replay session's traps (issue 33), with assert_wait (its
# rank 0 asserts after its last MPI call once the file TRIGGER exists; 3 ranks) recorded
# without TRIGGER and replayed with it, sessions driven through the CLI's standard input:
#  - `where` of a completed receive request shows the source and tag `mpirr events` shows, also
#    when freed memory is scribbled over (MALLOC_PERTURB_: it once read freed items);
#  - `step 0` into the assert: the rank is held on SIGABRT by default, its line said once;
#    --no-hold-on-signal lets the job die as the program does;
#  - a rank blocked on a held rank names that rank and the command that moves it (in `where`
#    and when it is stepped);
#  - a rank under the user's own `gdb --batch -p` is not ended on `quit`: mpirr says it waits,
#    the rank lives until gdb detaches, then the job ends and nothing is left running;
#  - mistyped commands get a "did you mean", in the session and on mpirr's command line; a
#    launcher's option given to mpirr names the missing launcher; a rebuilt program's refusal
#    names --no-exe-check at once, given as /abs/prog or ./prog; `mpirr help` lists every
#    command.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
TRIGGER=$TMP/trigger

# every process this test starts in the background, ended on the way out
BG_PIDS=()
cleanup() {
    local p
    for p in "${BG_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
    exec 3>&- 2>/dev/null
}
trap 'st=$?; cleanup; rm -rf "$TMP"; exit $st' EXIT

show() { cat "$TMP/$1.out" "$TMP/$1.err" >&2; }

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" "$TRIGGER"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec
"$MPIRR" events "$REC" --rank 0 >"$TMP/events0" || fail "mpirr events failed"
LAST=$(awk -F'[: ]' '/ MPI_Wait / { e = $2 } END { print e }' "$TMP/events0")
FIRST_IRECV=$(awk -F'[: ]' '/ MPI_Irecv / { print $2; exit }' "$TMP/events0")
[ -n "$LAST" ] && [ -n "$FIRST_IRECV" ] || { cat "$TMP/events0" >&2; fail "no MPI_Irecv/MPI_Wait of rank 0 in the history"; }
DONE=$(grep "^0:$LAST MPI_Wait " "$TMP/events0" | grep -o 'done=[^ ]*')
grep -q "done=0(src=[12],tag=1[12],got=4)" <<<"$DONE" || fail "event 0:$LAST: unexpected $DONE"
touch "$TRIGGER"

# 1. where of a completed request: what the history says, twice under noise, freed memory
# scribbled over
for i in 1 2; do
    MALLOC_PERTURB_=165 session where$i --stop 0:"$LAST" --after "$REC" <<<"where
quit"
    [ "$STATUS" -eq 0 ] || { show where$i; fail "where session $i exited $STATUS"; }
    [ "$(grep -c "^rank 0 .*stopped after event $LAST: MPI_Wait($DONE) at .*assert_wait.c" "$TMP/where$i.out")" -eq 2 ] ||
        { show where$i; fail "where: rank 0's MPI_Wait is not shown as $DONE"; }
done
echo "ok: where shows a completed request as the history does ($DONE)"

# 2. step into the assert: held on SIGABRT by default, said once; the user's quit ends the job
session held --stop 0:"$LAST" --after "$REC" <<<"step 0
where
quit"
[ "$STATUS" -eq 0 ] || { show held; fail "held session exited $STATUS"; }
grep -q "^rank 0 .*held on a signal (signal 6) at event $LAST" "$TMP/held.out" ||
    { show held; fail "step 0 into the assert: rank 0 not held on SIGABRT"; }
n=$(grep -c "^mpirr: rank 0 got SIGABRT at event $LAST .*held for a debugger" "$TMP/held.err")
[ "$n" -eq 1 ] || { show held; fail "the held rank's line was said $n times, not once"; }
echo "ok: a crash at the stopline is held by default, its line said once"

session nohold --stop 0:"$LAST" --after --no-hold-on-signal "$REC" <<<"step 0
where
quit"
[ "$STATUS" -ne 0 ] || { show nohold; fail "--no-hold-on-signal: the job did not die of the assert"; }
grep -q "held on a signal" "$TMP/nohold.out" && { show nohold; fail "--no-hold-on-signal held the rank"; }
grep -q "SIGABRT\|signal 6" "$TMP/nohold.err" || { show nohold; fail "--no-hold-on-signal: no word of SIGABRT"; }
echo "ok: --no-hold-on-signal lets the assert end the job"

# 3. a rank blocked on a held rank names it: before rank 0's first receive, the senders block
# in MPI_Ssend to rank 0
session blocked --stop 0:"$FIRST_IRECV" "$REC" <<<"where
step 1
quit"
[ "$STATUS" -eq 0 ] || { show blocked; fail "blocked session exited $STATUS"; }
grep -q '^rank 1 .*blocked in event [0-9]*: MPI_Ssend(.*peer=0.*) at .* (waits on held rank 0: `step 0` or `continue` moves it)$' "$TMP/blocked.out" ||
    { show blocked; fail "where: blocked rank 1 does not name held rank 0 and step 0"; }
grep -q '^mpirr: rank 1 is not held at a stopline, it cannot step: it is blocked in MPI (waits on held rank 0: `step 0` or `continue` moves it)$' "$TMP/blocked.out" ||
    { show blocked; fail "step 1: the refusal does not name rank 0 and step 0"; }
echo "ok: a blocked rank names the held rank to move and the command"

# 4. did you mean
session typo --stop 0:"$FIRST_IRECV" "$REC" <<<"wehre
contnue
xyzzy
quit"
grep -q "^mpirr: unknown command 'wehre': did you mean 'where'?" "$TMP/typo.out" || { show typo; fail "no 'did you mean where'"; }
grep -q "^mpirr: unknown command 'contnue': did you mean 'continue'?" "$TMP/typo.out" || { show typo; fail "no 'did you mean continue'"; }
grep -q "^mpirr: unknown command 'xyzzy' (help lists the commands)$" "$TMP/typo.out" || { show typo; fail "xyzzy: a suggestion for no near command"; }
"$MPIRR" replya "$REC" 2>"$TMP/top.err" && fail "mpirr replya succeeded"
grep -q "^mpirr: unknown command 'replya': did you mean 'replay'?" "$TMP/top.err" || { cat "$TMP/top.err" >&2; fail "mpirr replya: no 'did you mean replay'"; }
"$MPIRR" record -np 4 ./app 2>"$TMP/np.err" && fail "mpirr record -np 4 ./app succeeded"
[ "$(wc -l <"$TMP/np.err")" -eq 1 ] && grep -q "^mpirr: record: unknown option '-np': a launcher's option? .* -- mpirun -np N ./app$" "$TMP/np.err" ||
    { cat "$TMP/np.err" >&2; fail "mpirr record -np 4: no one-line hint of the missing launcher"; }
"$MPIRR" help >"$TMP/help.out" || fail "mpirr help failed"
for c in record replay run gather stat events races frontier explore view export help version; do
    grep -q "^    mpirr $c " "$TMP/help.out" || fail "mpirr help does not list $c"
done
echo "ok: did you mean, a launcher's option, mpirr help lists every command"

# 5. a rebuilt program: the first refusal names --no-exe-check, with the program given by
# absolute path and as the usual ./prog (recorded canonical, typed with ./)
for form in absolute relative; do
    cp "$PROG" "$TMP/prog"
    if [ "$form" = absolute ]; then
        run "$TMP/rec2" "$MPIRR" record -o "$TMP/rec2" -- "${LAUNCH[@]}" "$TMP/prog"
    else
        rm -rf "$TMP/rec2"
        (cd "$TMP" && run "$TMP/rec2" "$MPIRR" record -o "$TMP/rec2" -- "${LAUNCH[@]}" ./prog; exit "$STATUS")
        STATUS=$?
    fi
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec2.err" >&2; fail "record of the copy ($form path) exited $STATUS"; }
    printf '\0' >>"$TMP/prog" # "rebuilt": another fingerprint, the same program
    run "$TMP/rebuilt" "$MPIRR" replay "$TMP/rec2"
    [ "$STATUS" -eq 2 ] || { cat "$TMP/rebuilt.err" >&2; fail "replay of a rebuilt program ($form path) exited $STATUS"; }
    grep -q "^mpirr: .*fingerprint.*mpirr replay --no-exe-check $TMP/rec2 -- COMMAND\.\.\.$" "$TMP/rebuilt.err" ||
        { cat "$TMP/rebuilt.err" >&2; fail "a rebuilt program's refusal ($form path) does not name --no-exe-check"; }
    run "$TMP/rebuilt2" "$MPIRR" replay --no-exe-check "$TMP/rec2" -- "${LAUNCH[@]}" "$TMP/prog"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rebuilt2.err" >&2; fail "the command the hint names ($form path) exited $STATUS"; }
    echo "ok: a rebuilt program's refusal ($form path) names --no-exe-check, which replays it"
done

# 6. a rank under the user's own gdb is waited for: the session reads a FIFO, so that quit
# comes while gdb holds rank 0
command -v gdb >/dev/null || fail "gdb is not installed"
mkfifo "$TMP/cmds" "$TMP/gdb_go"
timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --stop 0:"$LAST" --after "$REC" <"$TMP/cmds" >"$TMP/traced.out" 2>"$TMP/traced.err" &
SESSION=$!
BG_PIDS+=("$SESSION")
exec 3>"$TMP/cmds"
wait_for() { wait_for_state "$1" "$SESSION" traced "${@:2}"; }
wait_for "stopline" grep -q "^rank 0 .*stopped after event $LAST" "$TMP/traced.out"
PID0=$(sed -n "s/^rank 0 .* pid \([0-9]*\) .*stopped after event $LAST.*/\1/p" "$TMP/traced.out" | head -1)
[ -n "$PID0" ] || { show traced; fail "no pid of rank 0 in where"; }
# gdb attaches and stops rank 0, then waits in a shell command until the test lets it go
gdb -q -nx --batch -p "$PID0" -ex "shell cat $TMP/gdb_go" >"$TMP/gdb.out" 2>&1 &
GDB=$!
BG_PIDS+=("$GDB")
traced_by_gdb() { [ "$(awk '/^TracerPid:/ { print $2 }' "/proc/$PID0/status" 2>/dev/null)" = "$GDB" ]; }
wait_for "gdb attached to rank 0" traced_by_gdb
echo quit >&3
wait_for "line saying mpirr waits for the debugger" grep -q "^mpirr: rank 0 (pid $PID0) is traced by a debugger (pid $GDB): mpirr waits for it to detach before ending the job$" "$TMP/traced.err"
kill -0 "$PID0" 2>/dev/null || { show traced; fail "rank 0 died under gdb"; }
traced_by_gdb || { show traced; fail "rank 0 is no longer under gdb before the test let gdb go"; }
echo go >"$TMP/gdb_go"
wait "$GDB"
exec 3>&-
wait "$SESSION"
STATUS=$?
[ "$STATUS" -eq 0 ] || { show traced; cat "$TMP/gdb.out" >&2; fail "the traced session exited $STATUS"; }
# (dead and unreaped is gone: the launcher may exit before its last rank, which init reaps)
state=$(awk '/^State:/ { print $2 }' "/proc/$PID0/status" 2>/dev/null)
[ -z "$state" ] || [ "$state" = Z ] || { show traced; fail "rank 0 ($PID0) outlived the session (state $state)"; }
[ "$(grep -c "is traced by a debugger" "$TMP/traced.err")" -eq 1 ] || { show traced; fail "the wait was not said once"; }
echo "ok: quit waits for a rank under the user's gdb, then ends the job"
