#!/bin/bash
# session_reverse.sh MPIRR IMPL PROG: back in time inside a rank (src/cli/replayctl/rank_gdbs.c,
# rank_gdbs_record/rank_gdbs_reverse) on debug_ranks (4 ranks), recorded once with its event
# history, the session replayed under timing noise (lib.sh's session):
#  1. rank 0 at a breakpoint in settle(): `record 0`, `next 0` twice (settled_total 0 -> 200),
#     `reverse-next 0`: settled_total is 0 again; `reverse-continue 0`: back where the record began;
#     `next 0` goes on for real from there (the record stops); the replay still ends as recorded;
#  1b. `reverse-step 0` goes back into the call the line made (where `reverse-next` goes over
#     it): rank 0 recorded at settle's call, `next 0` over it; `reverse-step 0` back to the
#     call's line (its assignment of the result), again: inside settle, its stack through main
#     at that call; `reverse-continue 0` back to the call;
#  2. a record ends at the rank's next MPI call (one line), `reverse-next` then refuses;
#  3. bad uses: one line each;
# and after each session no process of it is left (gdb, rank).
TAG=session_reverse
. "$(dirname "$0")/debug_ranks_session.sh"
SETTLE=$(line_of settle) TOKEN=$(line_of token) CALL_SETTLE=$(line_of call_settle)
SETTLE_END=$(awk -v s="$SETTLE" 'NR > s && /^}/ { print NR; exit }' "$SRC")

# 1. record, two lines forward, back one (the global has its old value again), back to where
# the record began, then forward for real
mi back --stop 1:"$E" --past "$REC" <<EOF
break 0 debug_ranks.c:$SETTLE
continue
print 0 settled_total
record 0
next 0
next 0
print 0 settled_total
reverse-next 0
print 0 settled_total
reverse-continue 0
bt 0
next 0
next 0
print 0 settled_total
continue
EOF
[ "$(after_cmd back 'print 0 settled_total' | head -1)" = "rank 0  settled_total = 0" ] ||
    { cat "$TMP/back.out" >&2; fail "settled_total not 0 at the breakpoint"; }
has back "rank 0: process record on at breakpoint 1, debug_ranks.c:$SETTLE (settle)" "record 0"
[ "$(grep -cxF 'rank 0  settled_total = 200' "$TMP/back.out")" -eq 2 ] ||
    { cat "$TMP/back.out" >&2; fail "settled_total not 200 after next (forward, then forward again)"; }
[ "$(grep -cxF 'rank 0  settled_total = 0' "$TMP/back.out")" -eq 2 ] ||
    { cat "$TMP/back.out" >&2; fail "reverse-next did not give settled_total back its old value 0"; }
[ "$(after_cmd back 'reverse-next 0')" = "rank 0 stopped at debug_ranks.c:$((SETTLE + 1)) (settle)" ] ||
    { cat "$TMP/back.out" >&2; fail "reverse-next 0: not one line back"; }
[ "$(after_cmd back 'reverse-continue 0')" = "rank 0 stopped at breakpoint 1, debug_ranks.c:$SETTLE (settle)" ] ||
    { cat "$TMP/back.out" >&2; fail "reverse-continue 0: not back where the record began"; }
has back "rank 0  settle (debug_ranks.c:$SETTLE) <- main (debug_ranks.c:$CALL_SETTLE)" "bt after going back"
has back "rank 0: process record stopped: it runs on for real from here" "next after going back"
grep -q '^mpirr: replay finished as recorded' "$TMP/back.out" "$TMP/back.err" ||
    { cat "$TMP/back.out" "$TMP/back.err" >&2; fail "after going back and forth the replay did not end as recorded"; }
echo "ok: record 0, next x2 (settled_total 200), reverse-next (0 again), reverse-continue, next for real, ends as recorded"

# 1b. reverse-step: back into the call the line made
mi rstep --stop 1:"$E" --past "$REC" <<EOF
break 0 debug_ranks.c:$CALL_SETTLE
continue
record 0
next 0
reverse-step 0
reverse-step 0
bt 0
print 0 settled_total
reverse-continue 0
quit
EOF
[ "$(after_cmd rstep 'next 0' | head -1)" = "rank 0 stopped at debug_ranks.c:$TOKEN (main)" ] ||
    { cat "$TMP/rstep.out" >&2; fail "next 0 over settle(): not at the token line"; }
steps=$(after_cmd rstep 'reverse-step 0' | head -1)
[ "$steps" = "rank 0 stopped at debug_ranks.c:$CALL_SETTLE (main)" ] ||
    { cat "$TMP/rstep.out" >&2; fail "the first reverse-step 0: not back at settle's call line"; }
line=$(awk -v c="(mpirr) reverse-step 0" '$0 == c { k++; next } k == 2 { print; exit }' "$TMP/rstep.out")
n=$(sed -n 's/^rank 0 stopped at debug_ranks\.c:\([0-9]*\) (settle)$/\1/p' <<<"$line")
[ -n "$n" ] && [ "$n" -gt "$SETTLE" ] && [ "$n" -le "$SETTLE_END" ] ||
    { cat "$TMP/rstep.out" >&2; fail "the second reverse-step 0: not back inside settle (lines $SETTLE-$SETTLE_END): $line"; }
has rstep "rank 0  settle (debug_ranks.c:$n) <- main (debug_ranks.c:$CALL_SETTLE)" "bt after reverse-step"
has rstep "rank 0  settled_total = 200" "settle's work is done where reverse-step stops (its last lines)"
[ "$(after_cmd rstep 'reverse-continue 0')" = "rank 0 stopped at breakpoint 1, debug_ranks.c:$CALL_SETTLE (main)" ] ||
    { cat "$TMP/rstep.out" >&2; fail "reverse-continue 0 from settle: not back at its call"; }
echo "ok: record 0 at settle's call, next over it, reverse-step 0: back inside settle (line $n), reverse-continue to the call"

# 2. a record ends at the next MPI call; then there is nothing to go back in
mi mpi --stop 1:"$E" --past "$REC" <<EOF
break 0 debug_ranks.c:$TOKEN
continue
record 0
next 0
next 0
where
reverse-next 0
quit
EOF
has mpi "rank 0: process record stopped: it reached its next MPI call (gdb's record cannot step back over MPI); \`continue\` or \`step 0\` moves it on" "record across an MPI call"
has mpi "mpirr: reverse-next: rank 0 has no process record to go back in (\`record 0\` where its gdb holds it, then \`next 0\`)" "reverse-next after the record ended"
echo "ok: a record ends at the rank's next MPI call; reverse-next then refuses"

# 3. bad uses: one line each, the session goes on
mi bad --stop 1:"$E" "$REC" <<EOF
record 0
record
record 9
record 0 start
reverse-next 1
reverse-step
reverse-continue 0 1
record 0 stop
where
quit
EOF
for c in 'record 0' record 'record 9' 'record 0 start' 'reverse-next 1' reverse-step 'reverse-continue 0 1' 'record 0 stop'; do
    [ "$(after_cmd bad "$c" | wc -l)" -eq 1 ] && after_cmd bad "$c" | grep -q '^mpirr: ' ||
        { cat "$TMP/bad.out" >&2; fail "'$c': not one mpirr: line"; }
done
[ "$(after_cmd bad where | grep -c '^rank ')" -eq 4 ] || { cat "$TMP/bad.out" >&2; fail "after bad input the session did not go on"; }
echo "ok: bad uses of record and reverse-*: one line each"
