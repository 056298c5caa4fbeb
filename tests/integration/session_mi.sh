#!/bin/bash
# session_mi.sh MPIRR IMPL PROG: the session's persistent gdbs (src/cli/replayctl/rank_gdbs.c,
# gdb_mi.c), rank sets (rank_set.c) and merged stacks (stack_merge.c), driven through the CLI's
# standard input on debug_ranks (4 ranks; rank 0 sends rank 1 a value, then every rank settles
# its value and meets the others in a barrier), recorded once with its event history; every
# session replays under timing noise (lib.sh's session):
#  1. stopped before rank 1's MPI_Recv (the others at its future frontier, before their
#     barrier): `stacks` prints exactly two merged lines with their rank ranges; `bt all`;
#  2. at the past frontier: `break 0-1 debug_ranks.c:SETTLE`, `gdb 1` in between (the session's
#     gdb lends the rank and re-inserts its breakpoint), `continue`: both ranks report the
#     breakpoint and `where` shows them stopped there; `print 0,1 value` gives 100 and 201;
#     `next 0` goes to the next line; a second breakpoint, `next` twice: the rank reaches its
#     barrier and the stopline holds it there (where: before its MPI_Barrier event); continue
#     ends as recorded;
#  3. a breakpoint survives `undo` (its gdb re-attaches to the rank's new process);
#  3b. `stepin 0` at the line that calls settle() goes into it (where `next 0` goes over it):
#     rank 0 stops at settle's first line, its argument there; `next 0` then steps on in settle;
#  4. `watch 0,2 settled_total` stops both ranks where they change it; `delete 0 1`;
#  5. bad rank sets and missing words: one line each, the session goes on;
# and after each session no process of it is left (gdb, rank), and no rank was waited for as
# traced by a user's debugger.
TAG=session_mi
. "$(dirname "$0")/debug_ranks_session.sh"
RECV=$(line_of recv) BARRIER=$(line_of barrier) SETTLE=$(line_of settle) TOKEN=$(line_of token)
CALL_RECV=$(line_of call_recv) CALL_SETTLE=$(line_of call_settle) CALL_EXCHANGE=$(line_of call_exchange)

# 1. merged stacks at the stopline before rank 1's receive
mi stacks --stop 1:"$E" "$REC" <<EOF
stacks
bt all
quit
EOF
got=$(after_cmd stacks stacks)
want="0,2-3  MPI_Barrier <- exchange (debug_ranks.c:$BARRIER) <- main (debug_ranks.c:$CALL_EXCHANGE)
1  MPI_Recv <- receive_one (debug_ranks.c:$RECV) <- main (debug_ranks.c:$CALL_RECV)"
[ "$got" = "$want" ] || fail "stacks printed:
$got
expected:
$want"
has stacks "rank 1  MPI_Recv <- receive_one (debug_ranks.c:$RECV) <- main (debug_ranks.c:$CALL_RECV)" "bt all: rank 1"
[ "$(after_cmd stacks 'bt all' | grep -cxF "rank 3  MPI_Barrier <- exchange (debug_ranks.c:$BARRIER) <- main (debug_ranks.c:$CALL_EXCHANGE)")" -eq 1 ] ||
    { cat "$TMP/stacks.out" >&2; fail "bt all: rank 3 not in its barrier"; }
echo "ok: stacks: 0,2-3 in MPI_Barrier, 1 in MPI_Recv; bt all"

# 2. breakpoints kept across continue (and across `gdb R`), print on a set, next
mi break --stop 1:"$E" --past "$REC" <<EOF
break 0-1 debug_ranks.c:$SETTLE
gdb 1 -batch -ex "echo @gdb\n"
continue
print 0,1 value
step 0
bt 0
next 0
print 0 doubled
break 0 debug_ranks.c:$TOKEN
continue
next 0
next 0
where
continue
EOF
has break "rank 0  breakpoint 1 at debug_ranks.c:$SETTLE" "break 0-1: rank 0"
has break "rank 1  breakpoint 1 at debug_ranks.c:$SETTLE" "break 0-1: rank 1"
grep -qx '@gdb' "$TMP/break.out" || { cat "$TMP/break.out" >&2; fail "gdb 1 did not run"; }
for r in 0 1; do
    has break "rank $r stopped at breakpoint 1, debug_ranks.c:$SETTLE (settle)" "continue: rank $r"
    after_cmd break continue | grep -q "^rank $r .* stopped at breakpoint 1, debug_ranks.c:$SETTLE (settle), after event" ||
        { cat "$TMP/break.out" >&2; fail "where after continue: rank $r not at the breakpoint"; }
done
[ "$(after_cmd break 'print 0,1 value')" = "rank 0  value = 100
rank 1  value = 201" ] || { cat "$TMP/break.out" >&2; fail "print 0,1 value: not 100 and 201"; }
has break "mpirr: rank 0 is stopped at breakpoint 1, debug_ranks.c:$SETTLE (settle) by its gdb, between events: \`next 0\` steps its lines, \`continue\` lets it run" "step of a rank at a breakpoint"
has break "rank 0  settle (debug_ranks.c:$SETTLE) <- main (debug_ranks.c:$CALL_SETTLE)" "bt 0 at the breakpoint"
[ "$(after_cmd break 'next 0' | head -1)" = "rank 0 stopped at debug_ranks.c:$((SETTLE + 1)) (settle)" ] ||
    { cat "$TMP/break.out" >&2; fail "next 0: not at the next line of settle"; }
has break "rank 0  doubled = 200" "print 0 doubled after next"
has break "rank 0 stopped at breakpoint 2, debug_ranks.c:$TOKEN (main)" "the second breakpoint"
has break "rank 0 stopped at debug_ranks.c:$CALL_EXCHANGE (main)" "next 0 from the token line"
after_cmd break where | grep -q "^rank 0 .* stopped before event [0-9]*: MPI_Barrier(.*debug_ranks.c:$BARRIER (exchange)$" ||
    { cat "$TMP/break.out" >&2; fail "next over exchange(): rank 0 not held before its barrier"; }
grep -q '^mpirr: replay finished as recorded' "$TMP/break.out" "$TMP/break.err" ||
    { cat "$TMP/break.out" "$TMP/break.err" >&2; fail "after the breakpoints the replay did not end as recorded"; }
echo "ok: break 0-1 + continue: both stopped at $SETTLE; print 0,1 value: 100, 201; next; a rank next-ed into its barrier is held there"

# 3. a breakpoint survives undo
mi undo --stop 1:"$E" "$REC" <<EOF
break 1 debug_ranks.c:$SETTLE
continue
undo
continue
quit
EOF
[ "$(grep -cxF "rank 1 stopped at breakpoint 1, debug_ranks.c:$SETTLE (settle)" "$TMP/undo.out")" -eq 2 ] ||
    { cat "$TMP/undo.out" >&2; fail "the breakpoint did not stop rank 1 again after undo"; }
echo "ok: a breakpoint survives undo"

# 3b. stepin goes into the function its line calls
mi stepin --stop 1:"$E" --past "$REC" <<EOF
break 0 debug_ranks.c:$CALL_SETTLE
continue
stepin 0
print 0 value
bt 0
next 0
quit
EOF
has stepin "rank 0 stopped at breakpoint 1, debug_ranks.c:$CALL_SETTLE (main)" "the breakpoint at settle's call"
[ "$(after_cmd stepin 'stepin 0' | head -1)" = "rank 0 stopped at debug_ranks.c:$SETTLE (settle)" ] ||
    { cat "$TMP/stepin.out" >&2; fail "stepin 0: not at settle's first line"; }
[ "$(after_cmd stepin 'print 0 value')" = "rank 0  value = 100" ] || { cat "$TMP/stepin.out" >&2; fail "print 0 value in settle: not 100"; }
has stepin "rank 0  settle (debug_ranks.c:$SETTLE) <- main (debug_ranks.c:$CALL_SETTLE)" "bt 0 after stepin"
[ "$(after_cmd stepin 'next 0' | head -1)" = "rank 0 stopped at debug_ranks.c:$((SETTLE + 1)) (settle)" ] ||
    { cat "$TMP/stepin.out" >&2; fail "next 0 after stepin: not the next line of settle"; }
echo "ok: stepin 0 at settle's call: into settle (value = 100), next steps on in it"

# 4. watchpoints on a set, delete in one rank
mi watch --stop 1:"$E" --past "$REC" <<EOF
watch 0,2 settled_total
continue
print 0,2 settled_total
delete 0 1
info breakpoints
continue
EOF
for r in 0 2; do
    grep -q "^rank $r stopped at watchpoint 1, debug_ranks.c:[0-9]* (settle)$" "$TMP/watch.out" ||
        { cat "$TMP/watch.out" >&2; fail "watch 0,2: rank $r did not stop at its watchpoint"; }
done
[ "$(after_cmd watch 'print 0,2 settled_total')" = "rank 0  settled_total = 200
rank 2  settled_total = 204" ] || { cat "$TMP/watch.out" >&2; fail "print 0,2 settled_total: not 200 and 204"; }
has watch "rank 0  No breakpoints or watchpoints." "delete 0 1: rank 0 still has its watchpoint"
after_cmd watch 'info breakpoints' | grep -q '^rank 2  1 .*watchpoint .*settled_total' ||
    { cat "$TMP/watch.out" >&2; fail "delete 0 1 removed rank 2's watchpoint"; }
grep -q '^mpirr: replay finished as recorded' "$TMP/watch.out" "$TMP/watch.err" ||
    { cat "$TMP/watch.out" "$TMP/watch.err" >&2; fail "after the watchpoints the replay did not end as recorded"; }
echo "ok: watch 0,2: both stopped, values 200 and 204; delete in rank 0 only"

# 5. bad input: one line each, the session goes on
mi bad --stop 1:"$E" "$REC" <<EOF
print 9 x
bt 2-1
bt 0,
break
print 0,1
next 2
next
stacks 1
info
where
quit
EOF
for c in 'print 9 x' 'bt 2-1' 'bt 0,' break 'print 0,1' 'next 2' next 'stacks 1' info; do
    [ "$(after_cmd bad "$c" | wc -l)" -eq 1 ] && after_cmd bad "$c" | grep -q '^mpirr: ' ||
        { cat "$TMP/bad.out" >&2; fail "'$c': not one mpirr: line"; }
done
has bad "mpirr: print: '9' is not a rank: the job has ranks 0 to 3" "print 9"
has bad "mpirr: bt: '2-1' is an empty range (write the lower rank first)" "bt 2-1"
[ "$(after_cmd bad where | grep -c '^rank ')" -eq 4 ] || { cat "$TMP/bad.out" >&2; fail "after bad input the session did not go on"; }
echo "ok: bad rank sets and missing words: one line each"
