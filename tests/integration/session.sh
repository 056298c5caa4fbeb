#!/bin/bash
# session.sh MPIRR IMPL PROG_DIR: replay sessions (mpirr replay --stop), driven through the
# CLI's standard input as a person would type them. A nondeterministic program (wildcard_storm:
# its native runs differ, checked here) is recorded once with its event history; then:
#  - a stopline at a wildcard receive holds every rank at its frontier: `where` names the
#    receive's source line; `step` moves one rank alone; `continue` to the end prints what the
#    recorded run printed;
#  - `continue R:E` to a later stopline and `undo`, 5 times in a row under timing noise: the
#    `where` table is the same every time (the replay is deterministic);
#  - a rank that would block on a held rank is reported, not hung;
#  - bad input gives one line each and the session goes on: a stopline past the end, a rank
#    that does not exist, a malformed R:E, a step of a rank not held, unknown commands, a step
#    count past the recording's end or overflowing, a line over 4095 bytes (refused whole: its
#    tail is never run as a command), commands missing or with extra arguments;
#  - without an event history the stopline holds only its own rank;
#  - `--stop crash` on a recording of a program that crashes under one message order stops
#    just before the crash, and --hold-on-signal holds the crashing rank at the signal;
#  - `quit` ends the job: no rank or launcher survives.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3
NOISE_US=${NOISE_US:-100}
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
PROG=$PROGS/wildcard_storm
SRC=$(dirname "$0")/../programs
# line LINE_OF FILE PATTERN: the source line of the first line of FILE matching PATTERN
line_of() { grep -n -m1 -- "$2" "$SRC/$1" | cut -d: -f1; }
STORM_RECV=$(line_of wildcard_storm.c "MPI_Recv(msg")
CRASH_RECV=$(line_of crash_on_order.c "MPI_Recv(&who")

# 1. the program is nondeterministic: native runs differ
distinct=$(for i in 1 2 3 4 5 6; do
    run "$TMP/native$i" "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG" 6
    [ "$STATUS" -eq 0 ] || { cat "$TMP/native$i.err" >&2; fail "native run $i exited $STATUS"; }
    program_output "$TMP/native$i.out" | md5sum
done | sort -u | wc -l)
[ "$distinct" -ge 2 ] || fail "6 native runs of wildcard_storm printed the same: not a test"
echo "ok: native runs differ ($distinct outputs of 6)"

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 6
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec

# where_table FILE N: the N-th `where` table of a transcript (the lines after its N-th
# "stopline:" line), without pids (they change with every launch)
where_table() {
    awk -v n="$2" '/^stopline:/ { k++ } k == n && /^(stopline:|rank [0-9])/' "$1" | sed 's/pid [0-9]*/pid P/'
}
# The first wildcard receive of rank 0 after a few rounds, from the history.
E=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { if (++n == 7) { print $2; exit } }')
[ -n "$E" ] || fail "no 7th wildcard receive of rank 0 in the history"

# 2. stop, where, step, continue to the end
session basic --stop 0:"$E" "$REC" <<EOF
where
step 1
step 0
step 0 2
continue
EOF
[ "$STATUS" -eq 0 ] || { cat "$TMP/basic.err" >&2; fail "basic session exited $STATUS"; }
grep -q "^rank 0 .*stopped before event $E: MPI_Recv(.*peer=any.*) at .*wildcard_storm.c:$STORM_RECV (main)" "$TMP/basic.out" ||
    { cat "$TMP/basic.out" >&2; fail "where does not show rank 0 before event $E at wildcard_storm.c:$STORM_RECV"; }
grep -q "^rank 0 .*stopped before event $((E + 1)):" "$TMP/basic.out" ||
    { cat "$TMP/basic.out" >&2; fail "step 0 did not move rank 0 to event $((E + 1))"; }
grep -q "^rank 0 .*before event $((E + 3)):" "$TMP/basic.out" ||
    { cat "$TMP/basic.out" >&2; fail "step 0 2 did not move rank 0 to event $((E + 3))"; }
grep -q "^digest " "$TMP/basic.out" || fail "the session's continue did not run the program to its end"
[ "$(grep '^digest ' "$TMP/basic.out")" = "$(grep '^digest ' "$TMP/rec.out")" ] ||
    fail "continue to the end printed $(grep '^digest ' "$TMP/basic.out"), the recording $(grep '^digest ' "$TMP/rec.out")"
grep -q "mpirr: replay finished as recorded" "$TMP/basic.err" || grep -q "^mpirr: replay" "$TMP/basic.err" ||
    { cat "$TMP/basic.err" >&2; fail "no verdict line at the end of the session"; }
echo "ok: stop at $E, where, step, continue to the end as recorded"

# 3. continue to a later stopline and undo, 5 times: the same tables every time
LATER=$((E + 9))
cmds="where"
for i in 1 2 3 4 5; do cmds="$cmds
continue 1:$LATER
where
undo
where"; done
session undo --stop 0:"$E" "$REC" <<<"$cmds
quit"
[ "$STATUS" -eq 0 ] || { cat "$TMP/undo.err" >&2; fail "undo session exited $STATUS"; }
first=$(where_table "$TMP/undo.out" 1)
later=$(where_table "$TMP/undo.out" 3)
[ -n "$first" ] && [ -n "$later" ] || { cat "$TMP/undo.out" >&2; fail "undo session: missing where tables"; }
grep -q "^rank 1 .*before event $LATER" <<<"$later" || fail "continue 1:$LATER: rank 1 not before $LATER: $later"
for i in 1 2 3 4 5; do
    at_later=$(where_table "$TMP/undo.out" $((4 * i - 1)))
    back=$(where_table "$TMP/undo.out" $((4 * i + 1)))
    [ "$at_later" = "$later" ] || fail "round $i: the later stopline's table differs: $at_later"
    [ "$back" = "$first" ] || fail "round $i: undo gave a different table: $back"
done
# each undo is a new job (other pids), started while the old one ends (its ranks killed, its
# launcher reaped): every rank of the six jobs and their launchers are gone with the session
jobs=$(for n in 1 5 9 13 17 21; do awk -v n="$n" '/^stopline:/ { k++ } k == n && /^rank [0-9]/' "$TMP/undo.out" |
    grep -o 'pid [0-9]*' | sort | tr '\n' ' '; echo; done | sort -u | grep -c pid)
[ "$jobs" -eq 6 ] || { cat "$TMP/undo.out" >&2; fail "undo session: $jobs distinct jobs' pids in the where tables, not 6 (one a relaunch)"; }
for pid in $(grep '^rank [0-9]' "$TMP/undo.out" | grep -o 'pid [0-9]*' | cut -d' ' -f2 | sort -u); do
    ps -o args= -p "$pid" | grep -qF "$PROG" && { ps -o pid,stat,args -p "$pid" >&2; fail "undo session: rank process $pid outlived the session"; }
done
pgrep -f "$PROG" >/dev/null && { pgrep -af "$PROG" >&2; fail "undo session: a launcher or rank of a replaced job left running"; }
echo "ok: continue 1:$LATER and undo, 5 times: identical where tables, 6 jobs; no rank or launcher of a replaced job left"

# 4. bad input: one line each, the session goes on (and ends cleanly on quit)
session bad --stop 0:"$E" "$REC" <<EOF
continue 0:999999
continue 7:10
continue zero:ten
stop 0:
step 5
step 0 many
frobnicate
gdb 9
undo
where
quit
EOF
[ "$STATUS" -eq 0 ] || { cat "$TMP/bad.err" >&2; fail "bad-input session exited $STATUS"; }
for pat in "recording ends at event .*: there is no event 999999" "there is no rank 7" \
    "a stopline is RANK:EVENT" "'5' is not a rank" "'many' is not a number" \
    "unknown command 'frobnicate'" "'9' is not a rank" "nothing to undo"; do
    grep -q "$pat" "$TMP/bad.out" || { cat "$TMP/bad.out" >&2; fail "bad input: no line matching '$pat'"; }
done
grep -q "^rank 0 .*stopped before event $E:" "$TMP/bad.out" || fail "after bad input the session lost its stopline"
echo "ok: bad commands get one line each; the session goes on"

# a step count that would wrap (2^64-1 events from event E once went back to E-1) or overflows
# is refused; a line longer than 4095 bytes is refused whole: cut into pieces, its tail (here
# "quit" from byte 4096 on) would run as a command; missing arguments name the usage
LONG=$(printf "gdb 0 -ex 'echo %s" "$(head -c 4079 /dev/zero | tr '\0' A)")
[ ${#LONG} -eq 4095 ] || fail "the long line's head is ${#LONG} bytes, not 4095"
LONG="$LONG quit $(head -c 898 /dev/zero | tr '\0' B)'"
[ ${#LONG} -eq 5000 ] || fail "the long line is ${#LONG} bytes, not 5000"
session long --stop 0:"$E" "$REC" <<EOF
step 0 18446744073709551615
step 0 99999999999999999999
$LONG
where
gdb
step
stop
where now
undo 1
quit
EOF
[ "$STATUS" -eq 0 ] || { cat "$TMP/long.err" >&2; fail "long-line session exited $STATUS"; }
for pat in "recording ends at event [0-9]*: it cannot step 18446744073709551615 events from event $E (at most [0-9]*)" \
    "step 0: '99999999999999999999' is not a number of events" \
    "^mpirr: a session command is at most 4095 bytes: this one is longer and was ignored whole$" \
    "^mpirr: gdb: which rank? usage: gdb R \\[GDB ARGS...\\]$" "^mpirr: step: which rank? usage: step R \\[N\\]$" \
    "^mpirr: stop: which stopline? usage: stop R:E" "^mpirr: where: unexpected 'now' (usage: where)$" \
    "^mpirr: undo: unexpected '1' (usage: undo)$"; do
    grep -q -- "$pat" "$TMP/long.out" || { cat "$TMP/long.out" >&2; fail "long-line session: no line matching '$pat'"; }
done
# the session went on after the long line: the next `where` ran, rank 0 still before event E
sed -n '/ignored whole/,$p' "$TMP/long.out" | grep -q "^rank 0 .*stopped before event $E:" ||
    { cat "$TMP/long.out" >&2; fail "after the long line the session did not run the next where"; }
grep -q "^rank 0 .*before event $((E - 1)):" "$TMP/long.out" && fail "a huge step moved rank 0 back to event $((E - 1))"
grep -q "the ranks run to the end\\|^digest " "$TMP/long.out" && fail "the long line or a huge step released the ranks"
[ "$(grep -c '^(mpirr) quit$' "$TMP/long.out")" -eq 1 ] || fail "the session did not read through to its quit"
cat "$TMP/long.out" "$TMP/long.err" | grep -v "which rank" | grep -q "^Attaching\\|GNU gdb\\|^mpirr: gdb:" &&
    fail "the long gdb line ran gdb"
echo "ok: huge steps, a 5000-byte line, and missing or extra arguments get one line each; the session goes on"

# bad --stop on the command line: one line, exit 2, nothing runs
for spec in 0:999999 7:3 x:1 0:1; do
    session badstop --stop "$spec" "$REC" </dev/null
    [ "$STATUS" -eq 2 ] || { cat "$TMP/badstop.err" >&2; fail "--stop $spec: exit $STATUS, expected 2"; }
    [ "$(grep -c '^mpirr: ' "$TMP/badstop.err")" -eq 1 ] || { cat "$TMP/badstop.err" >&2; fail "--stop $spec: not one line"; }
done
echo "ok: bad --stop values are refused with one line"

# 5. a step that would block on a held rank is reported, not hung: rank 1 waits in a receive
# whose sender (rank 0) is held
session block --stop 0:"$E" "$REC" <<EOF
step 1 1
where
quit
EOF
[ "$STATUS" -eq 0 ] || { cat "$TMP/block.err" >&2; fail "block session exited $STATUS"; }
grep -q '^rank 1 .*blocked in event .*(waits on held rank 0: `step 0` or `continue` moves it)$' "$TMP/block.out" ||
    { cat "$TMP/block.out" >&2; fail "a rank blocked on a held rank was not reported with the rank to move"; }
echo "ok: a step that blocks on a held rank is reported, naming the rank to move"

# 6. without an event history: only rank R is held; the others run until they block
run "$TMP/rec2" "$MPIRR" record -o "$TMP/rec2" -- "${LAUNCH[@]}" "$PROG" 6
[ "$STATUS" -eq 0 ] || fail "record without history exited $STATUS"
session nohist --stop 0:"$E" "$TMP/rec2" <<EOF
where
continue
EOF
[ "$STATUS" -eq 0 ] || { cat "$TMP/nohist.err" >&2; fail "session without history exited $STATUS"; }
grep -q "without an event history" "$TMP/nohist.out" || fail "where does not say the stopline lacks a history"
grep -q "^rank 0 .*stopped before event $E: MPI_Recv at .*wildcard_storm.c:$STORM_RECV (main)" "$TMP/nohist.out" ||
    { cat "$TMP/nohist.out" >&2; fail "without history: rank 0 not shown before $E with its source line"; }
grep -q "^rank [12] .*blocked in event" "$TMP/nohist.out" || { cat "$TMP/nohist.out" >&2; fail "without history: the other ranks are not shown blocked"; }
[ "$(grep '^digest ' "$TMP/nohist.out")" = "$(grep '^digest ' "$TMP/rec2.out")" ] || fail "without history: continue did not finish as recorded"
echo "ok: a stopline without history holds its rank, the others block; continue finishes as recorded"

# 7. quit leaves nothing running
session quit --stop 0:"$E" "$REC" <<<"quit"
[ "$STATUS" -eq 0 ] || fail "quit: exit $STATUS"
pgrep -f "$PROG" >/dev/null && { pgrep -af "$PROG" >&2; fail "quit left ranks running"; }
echo "ok: quit ends the job"

# 8. --stop crash: a recording of the order that crashes rank 0 (found by recording until one
# does: about one run in three crashes), stopped just after its last MPI call before the fault;
# --no-hold-on-signal lets the crash end the job (a session holds it by default)
read -r -a LAUNCH4 <<<"$(launcher "$IMPL" 4)"
CRASH=$TMP/crash
for i in $(seq 1 40); do
    rm -rf "$CRASH"
    run "$TMP/crashrec" "$MPIRR" record --events --noise "$NOISE_US" -o "$CRASH" -- "${LAUNCH4[@]}" "$PROGS/crash_on_order"
    [ "$STATUS" -ne 0 ] && break
done
[ "$STATUS" -ne 0 ] || fail "40 recordings of crash_on_order never crashed"
session crash --stop crash --no-hold-on-signal "$CRASH" <<CMDS
where
continue
CMDS
grep -q "^rank 0 .*stopped after event [0-9]*: MPI_Recv(.*) at .*crash_on_order.c:$CRASH_RECV (main)" "$TMP/crash.out" ||
    { cat "$TMP/crash.out" "$TMP/crash.err" >&2; fail "--stop crash: rank 0 not stopped after its last receive"; }
[ "$STATUS" -ne 0 ] || fail "--stop crash, continue: the replay did not crash as recorded"
grep -q "SIGSEGV\|signal 11" "$TMP/crash.err" || { cat "$TMP/crash.err" >&2; fail "--stop crash, continue: no word of the recorded SIGSEGV"; }
echo "ok: --stop crash stops after the last call before the fault; continue crashes as recorded"

session hold --stop crash --hold-on-signal "$CRASH" <<CMDS
continue
where
quit
CMDS
[ "$STATUS" -eq 0 ] || { cat "$TMP/hold.err" >&2; fail "--hold-on-signal session exited $STATUS"; }
grep -q "^rank 0 .*held on a signal (signal 11)" "$TMP/hold.out" ||
    { cat "$TMP/hold.out" "$TMP/hold.err" >&2; fail "--hold-on-signal: rank 0 not held on SIGSEGV"; }
echo "ok: --hold-on-signal holds the crashing rank"
