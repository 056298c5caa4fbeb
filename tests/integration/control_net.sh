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
#     and the ranks end the job with one line each, no hang.
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
