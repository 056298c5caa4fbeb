#!/bin/bash
# concurrent.sh MPIRR IMPL PROG_DIR BLOCK_PROG: replays side by side, read-only recordings, and
# a killed mpirr that takes its job with it.
#  1. two plain replays of one recording started at once, 3 times, under timing noise: each
#     ends "as recorded" with the recorded output (they share no file: each mpirr has its own
#     private directory, under $MPIRR_TMPDIR here, left empty afterwards);
#  2. two `replay --stop` sessions of one recording at once, each at its own stopline, driven
#     through FIFOs: `where` in each shows its own stop, both continue to the recorded end;
#     a session ended by SIGTERM removes its private directory;
#  3. on a read-only bind mount of the recording (inside `unshare -m`: nothing leaks out of
#     the test): replay, a session, a flip (written elsewhere), stat, races, events, frontier,
#     view and export work, and the recording is unchanged;
#  4. `kill -9` of `mpirr record` (and of `mpirr run`) while its job runs (BLOCK_PROG says so
#     through a FIFO, then blocks): within a bounded time no process of the job remains and no
#     process holds a file of the recording.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3 BLOCK=$4
NOISE_US=${NOISE_US:-100}
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
PROG=$PROGS/wildcard_storm
# where each mpirr makes its private directory (not TMPDIR: two mpiruns started at once in a
# fresh TMPDIR race to create Open MPI's session directory there, and one fails)
export MPIRR_TMPDIR=$TMP/scratch
mkdir -p "$MPIRR_TMPDIR"

# scratch_empty WHAT: every mpirr removed its private directory.
scratch_empty() {
    [ -z "$(ls -A "$MPIRR_TMPDIR")" ] || fail "$1: left $(ls -A "$MPIRR_TMPDIR" | head -3 | tr '\n' ' ')in \$MPIRR_TMPDIR"
}
# wait_for FILE PATTERN WHAT: until a line of FILE matches (bounded by RUN_TIMEOUT).
wait_for() {
    local deadline=$((SECONDS + RUN_TIMEOUT))
    until grep -q -- "$2" "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || { cat "$1" "${1%.out}.err" >&2; fail "$3: not within ${RUN_TIMEOUT}s"; }
        sleep 0.05
    done
}

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 6
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec

# 1. two plain replays at once
for round in 1 2 3; do
    pids=()
    for k in a b; do
        timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --noise "$NOISE_US" "$REC" \
            >"$TMP/p$round$k.out" 2>"$TMP/p$round$k.err" &
        pids+=($!)
    done
    for i in 0 1; do
        k=$([ "$i" -eq 0 ] && echo a || echo b)
        wait "${pids[$i]}"
        st=$?
        [ "$st" -eq 0 ] || { cat "$TMP/p$round$k.err" >&2; fail "round $round: replay $k exited $st"; }
        grep -q "^mpirr: replay finished as recorded (3 ranks" "$TMP/p$round$k.err" ||
            { cat "$TMP/p$round$k.err" >&2; fail "round $round: replay $k did not end as recorded"; }
        same_output "$TMP/rec.out" "$TMP/p$round$k.out" || fail "round $round: replay $k printed other than the recording"
    done
done
scratch_empty "plain replays"
echo "ok: 3 times two replays at once, each as recorded"

# 2. two sessions at once, each at its own stopline
recvs=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { print $2 }')
E1=$(sed -n 5p <<<"$recvs") E2=$(sed -n 12p <<<"$recvs")
[ -n "$E1" ] && [ -n "$E2" ] || fail "no 12 wildcard receives of rank 0 in the history"
mkfifo "$TMP/in1" "$TMP/in2"
timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --noise "$NOISE_US" --stop 0:"$E1" "$REC" \
    <"$TMP/in1" >"$TMP/s1.out" 2>"$TMP/s1.err" &
s1=$!
timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --noise "$NOISE_US" --stop 0:"$E2" "$REC" \
    <"$TMP/in2" >"$TMP/s2.out" 2>"$TMP/s2.err" &
s2=$!
exec 7>"$TMP/in1" 8>"$TMP/in2"
echo where >&7
echo where >&8
wait_for "$TMP/s1.out" "^rank 0 " "session 1's where"
wait_for "$TMP/s2.out" "^rank 0 " "session 2's where"
# both are held at their stoplines now: each where shows its own
grep -q "^rank 0 .*stopped before event $E1:" "$TMP/s1.out" ||
    { cat "$TMP/s1.out" >&2; fail "session 1 (--stop 0:$E1): rank 0 not before event $E1"; }
grep -q "^rank 0 .*stopped before event $E2:" "$TMP/s2.out" ||
    { cat "$TMP/s2.out" >&2; fail "session 2 (--stop 0:$E2): rank 0 not before event $E2"; }
echo continue >&7
echo continue >&8
exec 7>&- 8>&-
for i in 1 2; do
    wait "$([ "$i" -eq 1 ] && echo "$s1" || echo "$s2")"
    st=$?
    [ "$st" -eq 0 ] || { cat "$TMP/s$i.err" >&2; fail "session $i exited $st"; }
    [ "$(grep '^digest ' "$TMP/s$i.out")" = "$(grep '^digest ' "$TMP/rec.out")" ] ||
        { cat "$TMP/s$i.out" >&2; fail "session $i did not continue to the recorded end"; }
done
scratch_empty "two sessions"
echo "ok: two sessions at once, stopped at $E1 and at $E2, each continued as recorded"
# a session ended by SIGTERM while its ranks are held removes its private directory
"$MPIRR" replay --stop 0:"$E1" "$REC" <"$TMP/in1" >"$TMP/s3.out" 2>"$TMP/s3.err" &
s3=$!
exec 7>"$TMP/in1" # kept open: the session waits for its next command
echo where >&7
wait_for "$TMP/s3.out" "^rank 0 .*stopped before event $E1:" "session 3's where"
[ -n "$(ls -A "$MPIRR_TMPDIR")" ] || fail "a held session has no private directory under \$MPIRR_TMPDIR"
kill -TERM "$s3"
deadline=$((SECONDS + RUN_TIMEOUT))
while kill -0 "$s3" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || { kill -KILL "$s3"; fail "a session waiting for a command outlived SIGTERM by ${RUN_TIMEOUT}s"; }
    sleep 0.05
done
wait "$s3"
exec 7>&-
scratch_empty "a session ended by SIGTERM"
echo "ok: a session ended by SIGTERM leaves nothing behind"

# 3. a read-only recording
if [ "$(id -u)" -ne 0 ]; then
    echo "skip: read-only bind mount (needs root for unshare -m)"
else
    touch "$TMP/stamp"
    sum_before=$(cd "$REC" && find . -type f -print0 | sort -z | xargs -0 md5sum | md5sum)
    # inside a mount namespace of its own: the mount goes when the namespace does
    REC=$REC MPIRR=$MPIRR TMP=$TMP E1=$E1 NOISE_US=$NOISE_US unshare -m bash -c '
        set -u
        fail() { echo "FAIL: $*" >&2; exit 1; }
        mount --bind "$REC" "$REC" && mount -o remount,bind,ro "$REC" || fail "cannot mount $REC read-only"
        trap "umount \"$REC\"" EXIT
        ! touch "$REC/probe" 2>/dev/null || fail "$REC is writable after the read-only mount"
        "$MPIRR" replay --noise "$NOISE_US" "$REC" >"$TMP/ro.out" 2>"$TMP/ro.err" ||
            { cat "$TMP/ro.err" >&2; fail "replay of a read-only recording failed"; }
        grep -q "^mpirr: replay finished as recorded" "$TMP/ro.err" || { cat "$TMP/ro.err" >&2; fail "read-only replay: no verdict"; }
        printf "where\ncontinue\n" | "$MPIRR" replay --stop 0:"$E1" "$REC" >"$TMP/ros.out" 2>"$TMP/ros.err" ||
            { cat "$TMP/ros.err" >&2; fail "session on a read-only recording failed"; }
        grep -q "^rank 0 .*stopped before event $E1:" "$TMP/ros.out" || { cat "$TMP/ros.out" >&2; fail "read-only session: no stop"; }
        for cmd in stat races events "frontier --at 0:$E1"; do
            "$MPIRR" $cmd "$REC" >"$TMP/ro.cmd.out" 2>"$TMP/ro.cmd.err" ||
                { cat "$TMP/ro.cmd.err" >&2; fail "mpirr $cmd of a read-only recording failed"; }
        done
        "$MPIRR" view "$REC" -o "$TMP/ro.html" 2>"$TMP/ro.cmd.err" && [ -s "$TMP/ro.html" ] ||
            { cat "$TMP/ro.cmd.err" >&2; fail "mpirr view of a read-only recording failed"; }
        "$MPIRR" export "$REC" --format perfetto -o "$TMP/ro.json" 2>"$TMP/ro.cmd.err" && [ -s "$TMP/ro.json" ] ||
            { cat "$TMP/ro.cmd.err" >&2; fail "mpirr export of a read-only recording failed"; }
        echo ok
    ' >"$TMP/ro.log" 2>&1 || { cat "$TMP/ro.log" >&2; fail "read-only recording"; }
    grep -qx ok "$TMP/ro.log" || { cat "$TMP/ro.log" >&2; fail "read-only recording: the checks did not run"; }
    ! grep -qF " $REC " /proc/self/mounts || fail "the read-only mount of $REC outlived its namespace"
    # a flip of a race the history names, written elsewhere
    FLIP=$("$MPIRR" races "$REC" | sed -n 's/^  rank \([0-9]*\) event \([0-9]*\) .*could have got \([0-9]*\):.*/\1:\2=\3/p' | head -1)
    [ -n "$FLIP" ] || fail "no racing receive in the recording to flip"
    REC=$REC MPIRR=$MPIRR TMP=$TMP FLIP=$FLIP unshare -m bash -c '
        mount --bind "$REC" "$REC" && mount -o remount,bind,ro "$REC" || exit 9
        trap "umount \"$REC\"" EXIT
        "$MPIRR" replay "$REC" --flip "$FLIP" -o "$TMP/flipped"
    ' >"$TMP/rof.out" 2>"$TMP/rof.err"
    st=$?
    [ "$st" -eq 0 ] || { cat "$TMP/rof.err" >&2; fail "--flip $FLIP of a read-only recording exited $st"; }
    grep -q "^mpirr: flipped rank" "$TMP/rof.err" || { cat "$TMP/rof.err" >&2; fail "--flip $FLIP: no flip line"; }
    [ -f "$TMP/flipped/manifest" ] || fail "--flip $FLIP wrote no recording"
    [ -z "$(find "$REC" -newer "$TMP/stamp")" ] || fail "something was written into the read-only recording"
    [ "$(cd "$REC" && find . -type f -print0 | sort -z | xargs -0 md5sum | md5sum)" = "$sum_before" ] ||
        fail "the recording changed"
    scratch_empty "the read-only recording"
    echo "ok: read-only recording: replay, session, --flip $FLIP, stat, races, events, frontier, view, export"
fi

# 4. kill -9 of mpirr while its job runs: the job ends with it
# killed CMD...: runs `mpirr CMD... -- LAUNCHER UNIQUE FIFO`, kills it with SIGKILL once the
# job said it runs; every process of the job (named after the unique copy of BLOCK) must end.
killed() {
    local name=$1
    shift
    local prog=$TMP/blk_${name}_$$ fifo=$TMP/$name.fifo
    cp "$BLOCK" "$prog"
    mkfifo "$fifo"
    "$MPIRR" "$@" -- "${LAUNCH[@]}" "$prog" "$fifo" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    local pid=$! line
    read -r -t "$RUN_TIMEOUT" line <"$fifo" || { cat "$TMP/$name.err" >&2; fail "$name: the job did not start"; }
    [ "$line" = started ] || fail "$name: the job said '$line'"
    pgrep -f "$prog" >/dev/null || fail "$name: no process of the job found by its name"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    local deadline=$((SECONDS + 30))
    while pgrep -f "$prog" >/dev/null; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            pgrep -af "$prog" >&2
            pkill -KILL -f "$prog"
            fail "$name: the job outlived a SIGKILLed mpirr by 30 s"
        fi
        sleep 0.1
    done
}
killed record record -o "$TMP/krec"
# nothing holds a file of the recording any more: nothing can write into it
for p in /proc/[0-9]*; do
    if ls -l "$p/fd" 2>/dev/null | grep -qF "$TMP/krec/" || grep -qF "$TMP/krec/" "$p/maps" 2>/dev/null; then
        fail "process ${p#/proc/} still holds a file of the killed recording"
    fi
done
[ -f "$TMP/krec/rank-00000.log" ] || fail "the killed recording has no rank log"
echo "ok: kill -9 of mpirr record ends its job; nothing holds the recording"
killed run run
echo "ok: kill -9 of mpirr run ends its job"
