#!/bin/bash
# session.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: a replay session (mpirr replay --stop) across
# 2 nodes of a virtual cluster (ssh only), driven through mpirr's standard input from node 1.
# PROGRAM (wildcard_storm) is recorded with its event history, 2 ranks on each node (ranks 2
# and 3 on mpirr-node2); the stopline is rank 2's 7th wildcard receive (round 2, k = 0):
#  - every rank on both nodes is held: `where` names mpirr-node1 for ranks 0 and 1,
#    mpirr-node2 for ranks 2 and 3;
#  - `gdb 2 -batch -ex bt ...` runs gdb on mpirr-node2 over ssh: the backtrace reaches main,
#    the selected frame (the extension's `mpirr frame`) is the receive's source line, and
#    `print round`/`print k` give 2 and 0; the session goes on with rank 2 held (same pid);
#  - the session's kept gdbs on both nodes (ranks 2 and 3's through ssh): `print 0-3 round`,
#    `bt 2`, `stacks`, then `break 0-3 digest_finish` and `continue`: all four stop there,
#    `bt all` and `stacks --threads` show them in it; continue ends as recorded; no gdb is left
#    on either node, no ssh on node 1;
#  - `step 2`, `undo` (every rank on both nodes relaunched and held again, rank 2 under a new
#    pid, gdb attaches to it) and `continue` to the end: the replay finishes as recorded and
#    prints what the recording printed;
#  - MPIRR_RSH="ssh -o PubkeyAuthentication=no" (a key-less ssh that BatchMode keeps from
#    asking for a password), then a port nobody listens on (an unreachable node): `gdb 2`
#    says so in one line naming mpirr-node2, and the session still ends as recorded;
#  - `--stop crash --hold-on-signal` of a crash_on_order recording whose 4 ranks ran on
#    mpirr-node2: rank 0 is stopped there after its last receive, then held at SIGSEGV; gdb on
#    node 2 shows main at the faulting line; `continue` dies as recorded.
# The replays use node 1's own /tmp: the ranks reach mpirr over TCP.
. "$(dirname "$0")/lib.sh"
cluster_up 2 --no-slurm
ssh_launch mpirr-node1:2,mpirr-node2:2
SRC=$(dirname "$0")/../programs/wildcard_storm.c
RECV_LINE=$(grep -n -m1 'MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE' "$SRC" | cut -d: -f1)
[ -n "$RECV_LINE" ] || fail "no MPI_Recv line in $SRC"

run "$TMP/record" "${NODE1[@]}" "$MPIRR" record --events -o rec -- "${LAUNCH[@]}" "$PROGRAM" 6
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record across the nodes exited $STATUS"; }
recorded_four "ssh launch"
E=$("$MPIRR" events rec --rank 2 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { if (++n == 7) { print $2; exit } }')
[ -n "$E" ] || fail "no 7th wildcard receive of rank 2 in the history"
DIGEST=$(grep '^digest ' "$TMP/record.out")
[ -n "$DIGEST" ] || fail "the recorded run printed no digest"

# session NAME [VAR=VALUE...] <<< COMMANDS: a noisy session of rec from node 1, stopped at
# 2:E; its transcript in $TMP/NAME.out/.err. It must end as recorded.
session() {
    local name=$1
    shift
    run "$TMP/$name" "${NODE1[@]}" env "$@" \
        "$MPIRR" replay --noise "$NOISE_US" --stop 2:"$E" rec
    [ "$STATUS" -eq 0 ] || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: session exited $STATUS"; }
    replay_as_recorded "$TMP/$name" || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: did not end as recorded"; }
    [ "$(grep '^digest ' "$TMP/$name.out")" = "$DIGEST" ] ||
        { cat "$TMP/$name.out" >&2; fail "$name: continue to the end printed other than the recording"; }
}
# after FILE MARK: the lines of FILE after the line MARK (gdb's `echo MARK\n`), up to the next
# line starting with "@" (the next mark) or "(mpirr)"
after() {
    awk -v m="$2" '$0 == m { on = 1; next } on && /^(@|\(mpirr\))/ { exit } on' "$1"
}
expect() { # FILE MARK PATTERN WHAT
    after "$1" "$2" | grep -q -- "$3" || { cat "$1" >&2; fail "$4 (after $2: no '$3')"; }
}
# pid_of FILE N RANK: rank's pid in the N-th `where` table of FILE (the session prints one when
# the ranks reach a stopline, then one at every `where`)
pid_of() {
    awk -v n="$2" -v r="rank $3 " '/^stopline:/ { k++ } k == n && index($0, r) == 1' "$1" |
        sed -n 's/.* pid \([0-9]*\) .*/\1/p' | head -1
}

# 1. held on both nodes; gdb on node 2; step, undo, gdb again, continue to the end
GDB="gdb 2 -batch -ex \"echo @bt\\n\" -ex bt -ex \"echo @frame\\n\" -ex frame -ex \"echo @round\\n\" -ex \"print round\" -ex \"echo @k\\n\" -ex \"print k\" -ex \"echo @end\\n\""
session remote <<EOF
where
$GDB
where
step 2
where
undo
where
$GDB
continue
EOF
F=$TMP/remote.out
for r in 0 1 2 3; do
    node=mpirr-node$((r / 2 + 1))
    pid_of "$F" 1 "$r" | grep -q . || { cat "$F" >&2; fail "where: no line for rank $r"; }
    grep -q "^rank $r  $node  pid [0-9]*  \(stopped\|held\) " "$F" ||
        { cat "$F" >&2; fail "where: rank $r is not shown held on $node"; }
done
grep -q "^rank 2  mpirr-node2  pid [0-9]*  stopped before event $E: MPI_Recv" "$F" ||
    { cat "$F" >&2; fail "where: rank 2 is not stopped before event $E on mpirr-node2"; }
echo "ok: every rank held, ranks 0 and 1 on mpirr-node1, 2 and 3 on mpirr-node2"
[ "$(grep -c '^@bt$' "$F")" -eq 2 ] || { cat "$F" "$TMP/remote.err" >&2; fail "gdb on mpirr-node2 did not run twice"; }
expect "$F" @bt "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" "bt on node 2 does not reach main"
expect "$F" @frame "^#[1-9][0-9]* .* in main (.*) at .*wildcard_storm.c:$RECV_LINE\$" \
    "gdb's selected frame on node 2 is not main at wildcard_storm.c:$RECV_LINE"
expect "$F" @round '^\$1 = 2$' "print round on node 2: not 2 (the 7th wildcard receive of 4 ranks is in round 2)"
expect "$F" @k '^\$2 = 0$' "print k on node 2: not 0"
before=$(pid_of "$F" 2 2) held=$(pid_of "$F" 3 2)
[ -n "$before" ] && [ "$before" = "$held" ] || { cat "$F" >&2; fail "rank 2's pid changed across gdb ($before, $held)"; }
grep -q "^rank 2  mpirr-node2  pid $held  stopped before event $E:" <(awk '/^stopline:/ { k++ } k == 3' "$F") ||
    { cat "$F" >&2; fail "after gdb: rank 2 is not still held before event $E"; }
echo "ok: gdb on mpirr-node2: bt and frame at main, wildcard_storm.c:$RECV_LINE, round 2, k 0; rank 2 still held"
grep -q "^rank 2  mpirr-node2  pid $held  stopped before event $((E + 1)):" "$F" ||
    { cat "$F" >&2; fail "step 2 did not move rank 2 to event $((E + 1))"; }
undone=$(pid_of "$F" 5 2)
[ -n "$undone" ] && [ "$undone" != "$held" ] || { cat "$F" >&2; fail "undo did not relaunch rank 2 ($held, $undone)"; }
grep -q "^rank 2  mpirr-node2  pid $undone  stopped before event $E:" "$F" ||
    { cat "$F" >&2; fail "undo: rank 2 is not back before event $E"; }
echo "ok: step 2 on node 2; undo relaunched every rank (rank 2: pid $held, then $undone), gdb attached again; continue finished as recorded"

# 1b. the session's kept gdbs (gdb/MI, one per rank) on both nodes: ranks 2 and 3's run on
# mpirr-node2 through ssh, their pipes forwarded; print on a set, bt, merged stacks; a
# breakpoint in every rank (digest_finish, after the last receive: each rank reaches it once)
# stops all four, bt all and every thread's stack there; continue to the end; no gdb is left
# on either node, and no ssh (the gdbs' remote shells) on node 1
FINISH_LINE=$(grep -n -m1 'return digest_finish' "$SRC" | cut -d: -f1)
[ -n "$FINISH_LINE" ] || fail "no digest_finish call in $SRC"
session kept <<EOF
print 0-3 round
bt 2
stacks
break 0-3 digest_finish
continue
bt all
stacks --threads
continue
EOF
F=$TMP/kept.out
for r in 0 1 2 3; do
    grep -q "^rank $r  round = [0-9]*\$" "$F" || { cat "$F" "$TMP/kept.err" >&2; fail "kept gdbs: print 0-3 round: no value for rank $r"; }
done
grep -q "^rank 2  round = 2\$" "$F" || { cat "$F" >&2; fail "kept gdbs: rank 2's round (on mpirr-node2) is not 2"; }
grep -q "^rank 2  MPI_Recv <- main (wildcard_storm.c:$RECV_LINE)\$" "$F" ||
    { cat "$F" >&2; fail "kept gdbs: bt 2 (on mpirr-node2) is not MPI_Recv <- main at wildcard_storm.c:$RECV_LINE"; }
# every rank is held before a wildcard receive of main's loop: one merged line, both nodes
grep -q "^0-3  MPI_Recv <- main (wildcard_storm.c:$RECV_LINE)\$" "$F" ||
    { cat "$F" >&2; fail "kept gdbs: stacks is not one line 0-3 in MPI_Recv <- main"; }
kept_has() { # PATTERN WHAT: the kept session's transcript has a line matching PATTERN
    grep -q -- "$1" "$F" || { cat "$F" >&2; fail "kept gdbs: $2"; }
}
for r in 0 1 2 3; do
    kept_has "^rank $r  breakpoint 1 at common.h:[0-9]*\$" "break 0-3 digest_finish: no breakpoint in rank $r"
    kept_has "^rank $r stopped at breakpoint 1, common.h:[0-9]* (digest_finish)\$" \
        "rank $r (on mpirr-node$((r / 2 + 1))) did not stop at its breakpoint in digest_finish"
    kept_has "^rank $r  digest_finish (common.h:[0-9]*) <- main (wildcard_storm.c:$FINISH_LINE)\$" \
        "bt all: rank $r not in digest_finish <- main"
done
kept_has "^0-3  thread 1 <- digest_finish (common.h:[0-9]*) <- main (wildcard_storm.c:$FINISH_LINE)\$" \
    "stacks --threads is not one line 0-3, thread 1 in digest_finish"
for node in 1 2; do
    "$VCLUSTER" run "$node" -- pgrep -x gdb >/dev/null && fail "kept gdbs: a gdb is left on mpirr-node$node"
done
"${NODE1[@]}" pgrep -x ssh >/dev/null && fail "kept gdbs: an ssh is left on mpirr-node1"
echo "ok: the session's kept gdbs on both nodes: print 0-3, bt 2, stacks, break 0-3 + continue, bt all and stacks --threads across mpirr-node1 and mpirr-node2; no gdb left on either, no ssh on node 1"

# 2. a node gdb cannot reach: one line naming it, the session goes on and ends as recorded
for how in "PubkeyAuthentication=no:Permission denied" "Port=1:Connection refused"; do
    opt=${how%%:*} why=${how#*:}
    session "broken-${opt%%=*}" MPIRR_RSH="ssh -o $opt" <<EOF
gdb 2 -batch -ex bt
where
continue
EOF
    F=$TMP/broken-${opt%%=*}
    lines=$(grep '^mpirr: ' "$F.out" | grep -c gdb)
    [ "$lines" -eq 1 ] && grep -q "^mpirr: cannot reach mpirr-node2 for rank 2's gdb: .*$why.* (mpirr runs \`ssh -o $opt -o BatchMode=yes mpirr-node2\`: set up key-based ssh, or MPIRR_RSH)\$" "$F.out" ||
        { cat "$F.out" "$F.err" >&2; fail "ssh -o $opt: not one line naming mpirr-node2 and '$why'"; }
    grep -q '^#[0-9]' "$F.out" && { cat "$F.out" >&2; fail "ssh -o $opt: a backtrace was printed"; }
    grep -q "^rank 2  mpirr-node2  pid [0-9]*  stopped before event $E:" "$F.out" ||
        { cat "$F.out" >&2; fail "ssh -o $opt: rank 2 not still held after the failed gdb"; }
    echo "ok: ssh -o $opt: one line ($why), rank 2 still held, the session ended as recorded"
done

# 3. --stop crash --hold-on-signal with the crashing rank on node 2: every rank there (Open
# MPI puts the first ranks on mpirun's own node whenever the host list names it), none on
# mpirr's node 1.
# crash_on_order's rank 0 faults when rank 1's message comes first, so recordings are made
# until one does. The session stops rank 0 after its last call before the fault, holds it at
# the signal, gdb on mpirr-node2 shows main at the faulting line, and continue dies as recorded.
CRASH_PROG=$(dirname "$PROGRAM")/crash_on_order
CRASH_SRC=$(dirname "$0")/../programs/crash_on_order.c
CRASH_RECV=$(grep -n -m1 'MPI_Recv(&who' "$CRASH_SRC" | cut -d: -f1)
FAULT_LINE=$(grep -n -m1 '\*null_ptr = 42' "$CRASH_SRC" | cut -d: -f1)
[ -n "$CRASH_RECV" ] && [ -n "$FAULT_LINE" ] || fail "no receive or fault line in $CRASH_SRC"
ssh_launch mpirr-node2:4
for i in $(seq 1 15); do
    rm -rf crash
    run "$TMP/crashrec" "${NODE1[@]}" "$MPIRR" record --events -o crash -- "${LAUNCH[@]}" "$CRASH_PROG"
    [ "$STATUS" -ne 0 ] && break
done
[ "$STATUS" -ne 0 ] || fail "15 recordings of crash_on_order across the nodes never crashed"
run "$TMP/crash" "${NODE1[@]}" "$MPIRR" replay --stop crash --hold-on-signal crash <<EOF
where
continue
where
gdb 0 -batch -ex "echo @fault\\n" -ex frame -ex "echo @end\\n"
continue
EOF
F=$TMP/crash.out
grep -q "^rank 0  mpirr-node2  pid [0-9]*  stopped after event [0-9]*: MPI_Recv(.*) at .*crash_on_order.c:$CRASH_RECV (main)" "$F" ||
    { cat "$F" "$TMP/crash.err" >&2; fail "--stop crash: rank 0 not stopped on mpirr-node2 after its last receive"; }
grep -q "^rank 0  mpirr-node2  pid [0-9]*  held on a signal (signal 11)" "$F" ||
    { cat "$F" "$TMP/crash.err" >&2; fail "--hold-on-signal: rank 0 not held on SIGSEGV on mpirr-node2"; }
expect "$F" @fault "^#[0-9]* .* in main (.*) at .*crash_on_order.c:$FAULT_LINE\$" \
    "gdb on mpirr-node2 does not show main at the faulting line crash_on_order.c:$FAULT_LINE"
[ "$STATUS" -ne 0 ] || fail "--stop crash, continue: the replay did not crash as recorded"
grep -q "^mpirr: replay followed the recording: rank 0 SIGSEGV at event [0-9]*, as recorded$" "$TMP/crash.err" ||
    { cat "$TMP/crash.err" >&2; fail "--stop crash, continue: not the recorded SIGSEGV"; }
echo "ok: --stop crash on mpirr-node2: stopped after the last receive, held at SIGSEGV, gdb there at crash_on_order.c:$FAULT_LINE, continue crashed as recorded"
