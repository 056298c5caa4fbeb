#!/bin/bash
# session_gdb.sh MPIRR IMPL PROG_DIR: gdb in a replay session (`gdb R` and the mpirr gdb
# extension, src/cli/replayctl/gdb_attach.c and mpirr-gdb.py), driven through the CLI's standard
# input. wildcard_storm (3 ranks) is recorded once with its event history; the stopline is rank
# 0's 7th wildcard receive, which the program makes in round 3 as the first (k = 0) of its two
# receives of that round:
#  - `gdb 0 -batch -ex bt ...`: gdb's selected frame is main at that receive's source line (not
#    inside mpirr or MPI), `print round`/`print k` give 3 and 0, $mpirr_event is the event; when
#    gdb exits the session goes on with rank 0 still held there (same pid);
#  - the extension: `mpirr where` prints the table; `mpirr step 0 1` moves rank 0 to the next
#    event ($mpirr_event, k = 1); `mpirr undo` re-runs the job back to the stopline and gdb
#    follows rank 0's new process;
#  - `mpirr step 1 1` of a rank whose receive waits on held rank 0: mpirr interrupts it instead
#    of letting gdb hang; `mpirr continue` then runs the job to its end as recorded;
#  - no gdb in PATH, and a bad quote: one line each, the session goes on;
#  - a request from the extension over 4,095 bytes is refused whole.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
PROG=$PROGS/wildcard_storm
SRC=$(dirname "$0")/../programs/wildcard_storm.c
RECV_LINE=$(grep -n 'MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE' "$SRC" | cut -d: -f1)
[ -n "$RECV_LINE" ] || fail "no MPI_Recv line in $SRC"
command -v gdb >/dev/null || fail "gdb is not installed (apt-get install gdb)"

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 6
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec
E=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { if (++n == 7) { print $2; exit } }')
[ -n "$E" ] || fail "no 7th wildcard receive of rank 0 in the history"

# session NAME OPTIONS... <<< COMMANDS: a session; its transcript in $TMP/NAME.out/.err
session() {
    name=$1
    shift
    timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    STATUS=$?
    [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: timed out"; }
    [ "$STATUS" -eq 0 ] || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: session exited $STATUS"; }
}
# after FILE MARK: the lines of FILE after the line MARK (gdb's `echo MARK\n`), up to the next
# line starting with "@" (the next mark) or "(mpirr)"
after() {
    awk -v m="$2" '$0 == m { on = 1; next } on && /^(@|\(mpirr\))/ { exit } on' "$1"
}
expect() { # FILE MARK PATTERN WHAT
    after "$1" "$2" | grep -q -- "$3" || { cat "$1" >&2; fail "$4 (after $2: no '$3')"; }
}
held_line() { # FILE RANK: rank's lines of the session's own `where` tables
    grep "^rank $2 " "$1"
}

# 1. gdb attached at the stopline: frame, locals, $mpirr_event; the session goes on
session frame --stop 0:"$E" "$REC" <<EOF
gdb 0 -batch -ex bt -ex "echo @frame\n" -ex frame -ex "echo @round\n" -ex "print round" -ex "echo @k\n" -ex 'print k' -ex "echo @event\n" -ex "print \$mpirr_event" -ex "echo @end\n"
where
quit
EOF
F=$TMP/frame.out
expect "$F" @frame "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" \
    "gdb's selected frame is not main at wildcard_storm.c:$RECV_LINE"
expect "$F" @frame "^$RECV_LINE[[:space:]]*MPI_Recv(msg" "gdb does not show the receive's source line"
grep -q "^#0 .*" "$F" && grep -q "^#[0-9].* in main (.*wildcard_storm.c:$RECV_LINE" "$F" ||
    { cat "$F" >&2; fail "bt does not reach main"; }
expect "$F" @round '^\$1 = 3$' "print round: not 3 (the 7th wildcard receive is in round 3)"
expect "$F" @k '^\$2 = 0$' "print k: not 0 (the first receive of round 3)"
expect "$F" @event "^\\\$3 = $E\$" "\$mpirr_event is not $E"
pids=$(held_line "$F" 0 | grep -c "stopped before event $E:")
[ "$pids" -ge 2 ] || { cat "$F" >&2; fail "rank 0 is not held before event $E after gdb exited"; }
[ "$(held_line "$F" 0 | sed -n 's/.* pid \([0-9]*\) .*/\1/p' | sort -u | wc -l)" -eq 1 ] ||
    { cat "$F" >&2; fail "rank 0's pid changed across gdb"; }
echo "ok: gdb at the stopline: main at wildcard_storm.c:$RECV_LINE, round 3, k 0, \$mpirr_event $E; rank 0 still held after gdb"

# 2. the extension: mpirr where, step, undo
session ext --stop 0:"$E" "$REC" <<EOF
gdb 0 -batch -ex "echo @where\n" -ex "mpirr where" -ex "echo @step\n" -ex "mpirr step 0 1" -ex "echo @stepped\n" -ex "print \$mpirr_event" -ex "print k" -ex "echo @undo\n" -ex "mpirr undo" -ex "echo @undone\n" -ex "print \$mpirr_event" -ex "print k" -ex "print \$mpirr_event_now()" -ex "echo @end\n"
where
quit
EOF
F=$TMP/ext.out
expect "$F" @where "^stopline: rank 0 stops before event $E" "mpirr where printed no table"
expect "$F" @where "^rank 0 .*stopped before event $E: MPI_Recv" "mpirr where: rank 0 not before $E"
expect "$F" @where "^rank 2 " "mpirr where: no line for rank 2"
expect "$F" @step "^rank 0 .*stopped before event $((E + 1)):" "mpirr step 0 1: rank 0 not at event $((E + 1))"
expect "$F" @step "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" "after mpirr step: frame not main"
expect "$F" @stepped "^\\\$1 = $((E + 1))\$" "after mpirr step 0 1: \$mpirr_event not $((E + 1))"
expect "$F" @stepped '^\$2 = 1$' "after mpirr step 0 1: k not 1"
expect "$F" @undo "^rank 0 .*stopped before event $E:" "mpirr undo: rank 0 not back before $E"
expect "$F" @undo "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" "after mpirr undo: frame not main"
expect "$F" @undone "^\\\$3 = $E\$" "after mpirr undo: \$mpirr_event not $E"
expect "$F" @undone '^\$4 = 0$' "after mpirr undo: k not 0"
expect "$F" @undone "^\\\$5 = $E\$" "\$mpirr_event_now() not $E"
old=$(after "$F" @where | sed -n 's/^rank 0 .* pid \([0-9]*\) .*/\1/p')
new=$(held_line "$F" 0 | tail -1 | sed -n 's/.* pid \([0-9]*\) .*/\1/p')
[ -n "$old" ] && [ -n "$new" ] && [ "$old" != "$new" ] || fail "after mpirr undo rank 0's pid did not change ($old, $new)"
held_line "$F" 0 | tail -1 | grep -q "stopped before event $E:" || { cat "$F" >&2; fail "after gdb: rank 0 not held before $E"; }
echo "ok: mpirr where, mpirr step 0 1 (\$mpirr_event $((E + 1)), k 1), mpirr undo (new pid $new, back to $E)"

# 3. a rank that blocks on a held rank is interrupted, not hung; continue runs to the end.
# Rank 1 holds at a receive whose recorded sender is rank 0, which sends only after its stop.
R1=$(grep -m1 "^rank 1 " "$TMP/frame.out")
printf '%s\n' "$R1" | grep -q "stopped before event [0-9]*: MPI_Recv(.* src=0 " ||
    fail "rank 1 is not held at a receive from rank 0: $R1"
session block --stop 0:"$E" "$REC" <<EOF
gdb 1 -batch -ex "echo @step\n" -ex "mpirr step 1 1" -ex "echo @continue\n" -ex "mpirr continue" -ex "echo @end\n"
where
quit
EOF
F=$TMP/block.out
expect "$F" @step "^mpirr: rank 1 does not reach its stop (blocked or ended): mpirr interrupted it" "a blocked step was not interrupted"
expect "$F" @step "^rank 1 .*blocked in event" "after the interrupt: rank 1 not shown blocked"
expect "$F" @step "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" "blocked: frame not main"
expect "$F" @continue "^mpirr: rank 1's process has exited" "mpirr continue did not run rank 1 to its end"
[ "$(grep '^digest ' "$F")" = "$(grep '^digest ' "$TMP/rec.out")" ] ||
    fail "mpirr continue printed '$(grep '^digest ' "$F")', the recording '$(grep '^digest ' "$TMP/rec.out")'"
echo "ok: a blocked rank is interrupted; mpirr continue finishes as recorded"

# 4. no gdb in PATH; a bad quote: one line each, the session goes on
mkdir "$TMP/nogdb"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    for f in "$d"/*; do
        b=${f##*/}
        [ "$b" = gdb ] || [ -e "$TMP/nogdb/$b" ] || ln -s "$f" "$TMP/nogdb/$b"
    done
done
PATH=$TMP/nogdb session nogdb --stop 0:"$E" "$REC" <<EOF
gdb 0 -batch -ex bt
where
EOF
F=$TMP/nogdb.out
[ "$(grep -c '^mpirr: gdb' "$F")" -eq 1 ] && grep -q '^mpirr: gdb: not found in PATH (apt-get install gdb)$' "$F" ||
    { cat "$F" >&2; fail "without gdb: not one 'not found in PATH' line"; }
[ "$(grep -c "^rank 0 .*stopped before event $E:" "$F")" -eq 2 ] || { cat "$F" >&2; fail "without gdb: the session did not go on"; }
session badquote --stop 0:"$E" "$REC" <<EOF
gdb 0 -batch -ex "print k
where
EOF
F=$TMP/badquote.out
grep -q '^mpirr: gdb: unterminated " quote in: -batch -ex "print k$' "$F" || { cat "$F" >&2; fail "a bad quote: no one-line message"; }
[ "$(grep -c "^rank 0 .*stopped before event $E:" "$F")" -eq 2 ] || { cat "$F" >&2; fail "after a bad quote the session did not go on"; }
echo "ok: no gdb in PATH, a bad quote: one line each, the session goes on"

# 5. a request from the extension over 4,095 bytes is refused whole, never cut to its head (the
# session's own stdin cannot carry such a gdb line: the request comes from a gdb script)
printf 'echo @long\\n\nmpirr where %s quit\necho @end\\n\n' "$(head -c 5000 /dev/zero | tr '\0' A)" >"$TMP/long.gdb"
session longreq --stop 0:"$E" "$REC" <<EOF
gdb 0 -batch -x $TMP/long.gdb
where
EOF
F=$TMP/longreq.out
expect "$F" @long "^mpirr: a session command is at most 4095 bytes: this one is longer and was ignored whole$" \
    "a 5000-byte request was not refused"
after "$F" @long | grep -q "^rank 0 " && { cat "$F" >&2; fail "the head of a 5000-byte request ran as where"; }
[ "$(grep -c "^rank 0 .*stopped before event $E:" "$F")" -eq 2 ] || { cat "$F" >&2; fail "after a long request the session did not go on"; }
echo "ok: a request over 4095 bytes from the extension is refused whole; the session goes on"
