#!/bin/bash
# control_net.sh MPIRR IMPL PROG_DIR: the ranks of a replay reach mpirr over TCP (MPIRR_CONTROL
# = HOST:PORT:TOKEN) and read nothing from mpirr's files (docs/cli/replay.md, "How the ranks
# reach mpirr"). Each rank runs through a wrapper script, given on replay's command line:
#  1. hidden: every rank runs in a mount namespace of its own where mpirr's MPIRR_TMPDIR is an
#     empty tmpfs, with TMPDIR elsewhere (as a rank on another node would): two replays under
#     noise end as recorded with the recorded output, a session stops, steps and continues
#     to the recorded end, and a diverging replay's line reaches mpirr; the program's native
#     runs differ (it races);
#  2. unreachable: MPIRR_CONTROL names a closed port: every rank ends the job with one line
#     "cannot reach mpirr at 127.0.0.1:1: Connection refused", within a bounded time;
#  3. wrong token: mpirr refuses each rank with one line naming the peer ("wrong token"),
#     and the ranks end the job with one line each, no hang;
#  4. each job of a session has a token of its own: after an `undo`, a rank of the replaced
#     job that says HELLO only then (slow to start; played by a client of the wire protocol
#     with that job's token) is kept apart: not refused, its line acknowledged and dropped,
#     and the new job's rank 0 stays held where it was (not taken over); a token of a job to
#     come is refused.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3 NP=3
PROG=$PROGS/wildcard_storm
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
export MPIRR_TMPDIR=$TMP/cli
mkdir -p "$MPIRR_TMPDIR" "$TMP/ranks"

native_distinct storm 6 "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG" 6
run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" 6
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec

# 1. mpirr's private directory hidden from the ranks
if [ "$(id -u)" -ne 0 ]; then
    echo "skip: hidden private directory (needs root for unshare -m)"
else
    cat >"$TMP/hide.sh" <<'EOF'
#!/bin/bash
# a rank that sees none of mpirr's files: mpirr's MPIRR_TMPDIR (HIDE_DIR) is an empty tmpfs here
exec unshare -m bash -c '
    mount -t tmpfs none "$HIDE_DIR" || exit 3
    [ -z "$(ls -A "$HIDE_DIR")" ] || { echo "hide.sh: mpirr'"'"'s directory is visible" >&2; exit 3; }
    export TMPDIR=$RANKS_TMPDIR
    exec "$@"' hide "$@"
EOF
    chmod +x "$TMP/hide.sh"
    mapfile -d '' HIDE_ENV < <(env_opts "RANKS_TMPDIR=$TMP/ranks" "HIDE_DIR=$MPIRR_TMPDIR")
    HIDDEN=("${LAUNCH[@]}" "${HIDE_ENV[@]}" "$TMP/hide.sh" "$PROG" 6)
    for i in 1 2; do
        run "$TMP/hid$i" "$MPIRR" replay --noise "$NOISE_US" "$REC" -- "${HIDDEN[@]}"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/hid$i" ||
            { cat "$TMP/hid$i.err" >&2; fail "hidden $i: replay exited $STATUS, not as recorded"; }
        same_output "$TMP/rec.out" "$TMP/hid$i.out" || fail "hidden $i: replay printed other than the recording"
    done
    recvs=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { print $2 }')
    E1=$(sed -n 5p <<<"$recvs")
    [ -n "$E1" ] || fail "no 5 wildcard receives of rank 0 in the history"
    printf 'where\nstep 0 2\ncontinue\n' >"$TMP/cmds"
    run "$TMP/hses" "$MPIRR" replay --noise "$NOISE_US" --stop 0:"$E1" "$REC" -- "${HIDDEN[@]}" <"$TMP/cmds"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/hses.err" >&2; fail "hidden session exited $STATUS"; }
    grep -q "^rank 0 .*stopped before event $E1:" "$TMP/hses.out" ||
        { cat "$TMP/hses.out" >&2; fail "hidden session: rank 0 not held before event $E1"; }
    grep -q "^rank 0 .*stopped before event $((E1 + 2)):" "$TMP/hses.out" ||
        { cat "$TMP/hses.out" >&2; fail "hidden session: step 0 2 did not hold rank 0 before event $((E1 + 2))"; }
    [ "$(grep '^digest ' "$TMP/hses.out")" = "$(grep '^digest ' "$TMP/rec.out")" ] ||
        { cat "$TMP/hses.out" >&2; fail "hidden session did not continue to the recorded end"; }
    # another argument: the ranks diverge; their one line reaches mpirr over the connection
    # (they cannot write mpirr's errors file), and the replay ends with status 70
    run "$TMP/hdiv" "$MPIRR" replay "$REC" -- "${LAUNCH[@]}" "${HIDE_ENV[@]}" "$TMP/hide.sh" "$PROG" 9
    [ "$STATUS" -eq 70 ] || { cat "$TMP/hdiv.err" >&2; fail "hidden divergence: exit status $STATUS, expected 70"; }
    grep -q "^mpirr: replay of rank [0-9] diverged at event [0-9]* (" "$TMP/hdiv.err" ||
        { cat "$TMP/hdiv.err" >&2; fail "hidden divergence: no rank's divergence line reached mpirr"; }
    echo "ok: ranks that see none of mpirr's files replay as recorded (twice), stop, step, continue; a divergence line arrives"
fi

# wrapper NAME SCRIPT-LINE: a wrapper that changes MPIRR_CONTROL, then runs the rank.
wrapper() {
    printf '#!/bin/bash\n%s\nexec "$@"\n' "$2" >"$TMP/$1.sh"
    chmod +x "$TMP/$1.sh"
}

# 2. nobody listening there
wrapper closed 'export MPIRR_CONTROL="127.0.0.1:1:${MPIRR_CONTROL##*:}"'
run "$TMP/closed" "$MPIRR" replay "$REC" -- "${LAUNCH[@]}" "$TMP/closed.sh" "$PROG" 6
[ "$STATUS" -ne 0 ] || fail "closed port: replay exited 0"
n=$(grep -c "^mpirr: replay of rank [0-9] on .* cannot reach mpirr at 127.0.0.1:1: Connection refused (MPIRR_CONTROL_HOST" "$TMP/closed.err")
[ "$n" -ge 1 ] || { cat "$TMP/closed.err" >&2; fail "closed port: no rank said it cannot reach mpirr"; }
echo "ok: a rank that cannot reach mpirr says so in one line ($n ranks did)"

# 3. the right address, the wrong token
wrapper stray 'export MPIRR_CONTROL="${MPIRR_CONTROL%:*}:0123456789abcdef0123456789abcdef"'
run "$TMP/stray" "$MPIRR" replay "$REC" -- "${LAUNCH[@]}" "$TMP/stray.sh" "$PROG" 6
[ "$STATUS" -ne 0 ] || fail "wrong token: replay exited 0"
grep -Eq "^mpirr: refused a replay control connection from .* port [0-9]+ \(says rank [0-9] of $NP, pid [0-9]+ on .*\): wrong token" "$TMP/stray.err" ||
    { cat "$TMP/stray.err" >&2; fail "wrong token: mpirr did not refuse the rank in one line naming the peer"; }
grep -q "^mpirr: replay of rank [0-9] on .*: mpirr at .*: it closed the connection without accepting this rank" "$TMP/stray.err" ||
    { cat "$TMP/stray.err" >&2; fail "wrong token: no rank said mpirr refused it"; }
! grep -q "0123456789abcdef" "$TMP/stray.err" || fail "wrong token: a line shows the token"
echo "ok: a rank with the wrong token is refused in one line, and ends the job"

# 4. a replaced job's rank saying HELLO late, in a session (commands through a fifo)
BG_PIDS=()
# lib.sh's ending, after the session in the background
trap 'st=$?; for p in "${BG_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
if [ "$st" -ne 0 ] && [ -n "${KEEP_TEST_TMP:-}" ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi' EXIT
wrapper keep 'echo "$MPIRR_CONTROL" >>"'"$TMP"'/controls"'
E=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/MPI_Recv .*peer=any/ { if (++n == 5) { print $2; exit } }')
[ -n "$E" ] || fail "no 5 wildcard receives of rank 0 in the history"
mkfifo "$TMP/late_cmds"
timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --stop 0:"$E" "$REC" -- "${LAUNCH[@]}" "$TMP/keep.sh" "$PROG" 6 \
    <"$TMP/late_cmds" >"$TMP/late.out" 2>"$TMP/late.err" &
SESSION=$!
BG_PIDS+=("$SESSION")
exec 3>"$TMP/late_cmds"
held0() { grep -c "^rank 0 .*stopped before event $E:" "$TMP/late.out"; }
held_at_least() { [ "$(held0)" -ge "$1" ]; }
wait_for() { wait_for_state "$1" "$SESSION" late "${@:2}"; }
wait_for "first stopline" held_at_least 1
printf 'continue 0:%s\nundo\n' $((E + 1)) >&3
wait_for "stopline after the undo" held_at_least 2
jobs=$(cut -d: -f1-2 "$TMP/controls" | sort -u | wc -l)
mapfile -t tokens < <(awk -F: '{ print $NF }' "$TMP/controls" | awk '!seen[$0]++')
[ "$jobs" -eq 1 ] && [ "${#tokens[@]}" -eq 2 ] || { cat "$TMP/controls" >&2; fail "late: not one address with 2 jobs' tokens"; }
address=$(head -1 "$TMP/controls")
address=${address%:*}
pid0=$(grep "^rank 0 .*stopped before event $E:" "$TMP/late.out" | tail -1 | grep -o 'pid [0-9]*')
# hello.py ADDRESS TOKEN RANK NRANKS PID: HELLO, then one error LINE; prints "ack" when mpirr
# acknowledged the line, "closed" when it closed the connection
cat >"$TMP/hello.py" <<'EOF'
import socket, struct, sys
addr, token, rank, nranks, pid = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
host, port = addr.rsplit(":", 1)
magic, version = 0x4C54434D, int(sys.argv[6])
s = socket.create_connection((host.strip("[]"), int(port)), timeout=60)
hello = struct.pack("=Iiii32s64s", version, rank, nranks, pid, token.encode(), b"stale")
line = struct.pack("=QII", 1, 2, 0) + b"zzz a replaced job's line\n"
s.sendall(struct.pack("=IHHQ", magic, 1, 0, len(hello)) + hello)
s.sendall(struct.pack("=IHHQ", magic, 5, 0, len(line)) + line)
got = b""
while len(got) < 16:
    try:
        b = s.recv(64)
    except ConnectionResetError:  # closed with our line unread
        b = b""
    if not b:
        print("closed")
        sys.exit(0)
    got += b
print("ack" if struct.unpack("=IHHQ", got[:16])[1] == 6 else "type %d" % struct.unpack("=IHHQ", got[:16])[1])
EOF
version=$(awk '/#define MPIRR_CTL_VERSION/ { print $3 }' "$(dirname "$0")/../../src/format/replay_control.h")
future=${tokens[1]:0:24}00000007
said=$(timeout 60 python3 "$TMP/hello.py" "$address" "${tokens[0]}" 0 "$NP" 4242 "$version")
[ "$said" = ack ] || { cat "$TMP/late.err" >&2; fail "late: a replaced job's HELLO and line got '$said', not an acknowledgement"; }
said=$(timeout 60 python3 "$TMP/hello.py" "$address" "$future" 0 "$NP" 4343 "$version")
[ "$said" = closed ] || fail "late: a HELLO with a job to come's token got '$said', not refused"
printf 'where\nquit\n' >&3
exec 3>&-
wait "$SESSION"
STATUS=$?
[ "$STATUS" -eq 0 ] || { cat "$TMP/late.err" >&2; fail "late: the session exited $STATUS"; }
[ "$(held0)" -eq 3 ] && grep "^rank 0 .*stopped before event $E:" "$TMP/late.out" | tail -1 | grep -q "$pid0 " ||
    { cat "$TMP/late.out" >&2; fail "late: rank 0 of the new job ($pid0) is no longer held before event $E after the stale HELLO"; }
! grep -q "pid 4242 " "$TMP/late.err" || { cat "$TMP/late.err" >&2; fail "late: the replaced job's rank was refused"; }
grep -q "^mpirr: refused a replay control connection from .*pid 4343 .*: wrong token" "$TMP/late.err" ||
    { cat "$TMP/late.err" >&2; fail "late: a job to come's token was not refused in one line"; }
! grep -q "zzz" "$TMP/late.out" "$TMP/late.err" || fail "late: the replaced job's line was printed"
echo "ok: a replaced job's rank saying HELLO after the undo is kept apart (acknowledged, ignored); rank 0 stays held; a job to come's token is refused"
