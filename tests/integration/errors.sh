#!/bin/bash
# errors.sh MPIRR IMPL BINDIR
# Bad input gets one clear line and a non-zero exit, never a hang or a wrong replay: a program
# that diverges from its recording, wrong rank counts, corrupted and truncated logs, missing
# files, a recording replayed with another executable, a directory that is not a recording,
# damaged, truncated, missing or misplaced event histories, and launchers that do not end the
# job.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
read -r -a LAUNCH3 <<<"$(launcher "$IMPL" 3)"
RUNTIME=$(dirname "$MPIRR")/../lib/mpirr/$IMPL/libmpirr.so

run "$TMP/r" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "recording diverge failed"; }
run "$TMP/ok" "$MPIRR" replay "$TMP/rec"
[ "$STATUS" -eq 0 ] && cmp -s "$TMP/r.out" "$TMP/ok.out" || fail "the untouched recording does not replay"

# the program changed its behaviour: rank 0 sends where it received
run "$TMP/div" "$MPIRR" replay "$TMP/rec" -- "${LAUNCH[@]}" "$BIN/diverge" b
expect_error "$TMP/div" "rank 0 diverged at event" "rank-00000.log" "MPI_Recv" "MPI_Barrier"
[ "$STATUS" -eq 70 ] || fail "a diverged replay exited $STATUS, not 70"

# ... under a launcher that does not end after the diverging rank's MPI_Abort (Open MPI 4.1's
# mpirun hung there on a loaded machine, every rank defunct): mpirr ends it itself,
# MPIRR_TEARDOWN_SECONDS later, and the replay still ends as diverged
mkdir "$TMP/lingering"
LINGERING=$TMP/lingering/$(basename "${LAUNCH[0]}")
printf '#!/bin/sh\n%s "$@"\nexec sleep 600\n' "$(command -v "${LAUNCH[0]}")" >"$LINGERING"
chmod +x "$LINGERING"
start=$SECONDS
MPIRR_TEARDOWN_SECONDS=2 run "$TMP/linger" "$MPIRR" replay "$TMP/rec" -- "$LINGERING" \
    "${LAUNCH[@]:1}" "$BIN/diverge" b
expect_error "$TMP/linger" "rank 0 diverged at event 13" "rank-00000.log"
grep -q "^mpirr: the launcher has not ended the job 2 s after rank 0 diverged (MPIRR_TEARDOWN_SECONDS): mpirr ends it$" \
    "$TMP/linger.err" || fail "no line says mpirr ended the lingering launcher: $(cat "$TMP/linger.err")"
[ "$STATUS" -eq 70 ] || fail "a diverged replay whose launcher lingered exited $STATUS, not 70"
[ $((SECONDS - start)) -lt 30 ] || fail "the lingering launcher was ended after $((SECONDS - start)) s"

# a launcher that never reaps what it started (mpirun, hung so, left every rank defunct): a
# recording ends MPIRR_TEARDOWN_SECONDS after they all ended, complete, and replays
mkdir "$TMP/noreap"
NOREAP=$TMP/noreap/$(basename "${LAUNCH[0]}")
printf '#!/bin/sh\n%s "$@" &\nexec sleep 600\n' "$(command -v "${LAUNCH[0]}")" >"$NOREAP"
chmod +x "$NOREAP"
start=$SECONDS
MPIRR_TEARDOWN_SECONDS=2 run "$TMP/nr" "$MPIRR" record -o "$TMP/noreap/rec" -- "$NOREAP" \
    "${LAUNCH[@]:1}" "$BIN/diverge" a
[ "$STATUS" -ne 0 ] || fail "the launcher mpirr ended exited 0"
grep -q "^mpirr: the launcher has not reaped its ended processes for 2 s (MPIRR_TEARDOWN_SECONDS): mpirr ends it$" \
    "$TMP/nr.err" || fail "no line says mpirr ended the launcher that does not reap: $(cat "$TMP/nr.err")"
[ $((SECONDS - start)) -lt 30 ] || fail "the launcher that does not reap was ended after $((SECONDS - start)) s"
run "$TMP/nrr" "$MPIRR" replay "$TMP/noreap/rec" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/nrr.err" >&2; fail "the recording under a launcher that does not reap does not replay"; }

# a runtime library the loader refuses (cut off, say, by a rebuild during the run): the program
# runs without it and exits 0, and the replay says nothing was replayed, with status 1
mkdir -p "$TMP/badrt/$IMPL" && : >"$TMP/badrt/$IMPL/libmpirr.so"
MPIRR_RUNTIME_DIR=$TMP/badrt run "$TMP/badrt" "$MPIRR" replay "$TMP/rec"
expect_error "$TMP/badrt" "replay ended (status 0) before any rank got through MPI_Init"
[ "$STATUS" -eq 1 ] || fail "a replay that replayed nothing exited $STATUS, not 1"

# wrong number of ranks: caught by the CLI, and by the runtime when the CLI is bypassed
run "$TMP/np" "$MPIRR" replay "$TMP/rec" -- "${LAUNCH3[@]}" "$BIN/diverge" a
expect_error "$TMP/np" "4 ranks" "3"
# The ranks' error lines go to a file too (as under the CLI): MPICH's launcher can drop the
# stderr of ranks it tears down after the first MPI_Abort. Fewer ranks than recorded, and more
# (the extra rank has no log): one line from rank 0, whose MPI_Abort ends the others before
# their own 10 s fallback, so the job ends in less than that.
for np in 3 5; do
    read -r -a LAUNCHN <<<"$(launcher "$IMPL" "$np")"
    mapfile -d '' ENV < <(env_opts LD_PRELOAD="$RUNTIME" MPIRR_MODE=replay MPIRR_DIR="$TMP/rec" \
        MPIRR_ERRLOG="$TMP/np$np.errlog")
    start=$SECONDS
    run "$TMP/np$np" "${LAUNCHN[@]}" "${ENV[@]}" "$BIN/diverge" a
    [ "$STATUS" -ne 0 ] || fail "$np ranks against a 4-rank recording: the job exited 0"
    [ $((SECONDS - start)) -lt 10 ] || fail "$np ranks: the job took $((SECONDS - start)) s: rank 0 did not end it"
    want="mpirr: replay: $TMP/rec/rank-00000.log was recorded with 4 ranks, this run has $np"
    [ "$(cat "$TMP/np$np.errlog")" = "$want" ] ||
        fail "$np ranks: expected the one line '$want', got: $(cat "$TMP/np$np.errlog")"
done

# the other MPI's launcher: refused in one line before anything runs (not one line per rank)
other=mpich; [ "$IMPL" = mpich ] && other=openmpi
read -r -a OTHER <<<"$(launcher "$other" "$NP")"
if command -v "${OTHER[0]}" >/dev/null; then
    run "$TMP/other" "$MPIRR" replay "$TMP/rec" -- "${OTHER[@]}" "$BIN/diverge" a
    expect_error "$TMP/other" "recorded with" "${OTHER[0]} is" "launcher"
    [ "$(grep -c '^mpirr: ' "$TMP/other.err")" -eq 1 ] || { cat "$TMP/other.err" >&2; fail "the other MPI's launcher got more than one line"; }
fi

# another executable
run "$TMP/exe" "$MPIRR" replay "$TMP/rec" -- "${LAUNCH[@]}" "$BIN/die" segv
expect_error "$TMP/exe" "die" "recorded executable"

# a corrupted log: one flipped byte inside rank 1's compressed frame
cp -r "$TMP/rec" "$TMP/corrupt"
f="$TMP/corrupt/rank-00001.log"
python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)-5]^=0x40; open(p,'wb').write(b)" "$f"
run "$TMP/cor" "$MPIRR" replay "$TMP/corrupt"
expect_error "$TMP/cor" "rank-00001.log" "corrupt"
run "$TMP/cors" "$MPIRR" stat "$TMP/corrupt"
expect_error "$TMP/cors" "rank-00001.log" "corrupt"

# a truncated log
cp -r "$TMP/rec" "$TMP/trunc"
truncate -s 500 "$TMP/trunc/rank-00002.log"
run "$TMP/tr" "$MPIRR" replay "$TMP/trunc"
expect_error "$TMP/tr" "rank-00002.log" "truncated"

# a missing rank log
cp -r "$TMP/rec" "$TMP/missing"
rm "$TMP/missing/rank-00003.log"
run "$TMP/mi" "$MPIRR" replay "$TMP/missing"
expect_error "$TMP/mi" "rank-00003.log"
# stat still shows the ranks that recorded, and says the fourth has no log (exit 1)
run "$TMP/mis" "$MPIRR" stat "$TMP/missing"
[ "$STATUS" -eq 1 ] || fail "stat of a recording missing a rank log exited $STATUS, expected 1"
grep -q "^ending .*3 finalized, 1 no log" "$TMP/mis.out" ||
    fail "stat does not say the missing rank has no log: $(grep ending "$TMP/mis.out")"

# not a recording at all
mkdir -p "$TMP/empty"
run "$TMP/em" "$MPIRR" replay "$TMP/empty"
expect_error "$TMP/em" "manifest"
run "$TMP/none" "$MPIRR" replay "$TMP/does-not-exist"
expect_error "$TMP/none" "does-not-exist"

# the event history: damage is reported naming the file, the rank and the last good event
run "$TMP/er" "$MPIRR" record --events -o "$TMP/ev" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/er.err" >&2; fail "recording diverge with --events failed"; }
run "$TMP/noev" "$MPIRR" events "$TMP/rec"
expect_error "$TMP/noev" "rank-00000.events" "recorded with --events"
cp -r "$TMP/ev" "$TMP/evcor"
python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)//2+32]^=0x40; open(p,'wb').write(b)" "$TMP/evcor/rank-00001.events"
run "$TMP/evc" "$MPIRR" events "$TMP/evcor"
expect_error "$TMP/evc" "rank-00001.events" "rank 1" "corrupt" "after event"
grep -q '^0:1 MPI_Init' "$TMP/evc.out" || fail "the undamaged rank 0 was not printed before the error"
run "$TMP/evs" "$MPIRR" stat "$TMP/evcor"
expect_error "$TMP/evs" "rank-00001.events" "corrupt"
cp -r "$TMP/ev" "$TMP/evtr"
truncate -s 100 "$TMP/evtr/rank-00002.events"
run "$TMP/evt" "$MPIRR" events "$TMP/evtr" --rank 2
expect_error "$TMP/evt" "rank-00002.events" "rank 2" "truncated"
cp "$TMP/ev/rank-00000.events" "$TMP/evtr/rank-00003.events"
run "$TMP/evw" "$MPIRR" events "$TMP/evtr" --rank 3
expect_error "$TMP/evw" "rank-00003.events" "holds rank 0, expected rank 3"

# numbers that overflow are refused as malformed, never clamped to the largest value (strtoull's
# ERANGE) or wrapped: one line naming the value, exit status 2, nothing run
HUGE=99999999999999999999
# refused_number PATTERN ARGS...: mpirr ARGS fails with one line that matches PATTERN
refused_number() {
    pat=$1
    shift
    run "$TMP/num" "$MPIRR" "$@"
    expect_error "$TMP/num" "$pat"
    [ "$STATUS" -eq 2 ] || fail "mpirr $*: exit status $STATUS, expected 2"
    [ "$(grep -c '^mpirr: ' "$TMP/num.err")" -eq 1 ] || { cat "$TMP/num.err" >&2; fail "mpirr $*: not one line"; }
}
refused_number "--at needs RANK:EVENT .*'0:$HUGE'" frontier "$TMP/ev" --at "0:$HUGE"
refused_number "'$HUGE:1'" frontier "$TMP/ev" --at "$HUGE:1"
refused_number "--near needs RANK:EVENT .*'0:$HUGE'" races "$TMP/ev" --near "0:$HUGE"
refused_number "--flip needs RANK:EVENT=SOURCE .*'0:$HUGE=1'" replay "$TMP/ev" --flip "0:$HUGE=1" -o "$TMP/flipped"
refused_number "'0:5=$HUGE'" replay "$TMP/ev" --flip "0:5=$HUGE" -o "$TMP/flipped"
refused_number "'0:5=-1'" replay "$TMP/ev" --flip "0:5=-1" -o "$TMP/flipped"
refused_number "events: --rank $HUGE: expected an integer from 0 to" events "$TMP/ev" --rank "$HUGE"
refused_number "--budget $HUGE: expected an integer from 1 to 1000000" explore --budget "$HUGE" -o "$TMP/search" -- "${LAUNCH[@]}" "$BIN/diverge" a
refused_number "--depth 18446744073709551617: expected an integer from 1 to 1000" explore --depth 18446744073709551617 -o "$TMP/search" -- "${LAUNCH[@]}" "$BIN/diverge" a
refused_number "--noise $HUGE: expected an integer from 0 to" record --noise "$HUGE" -o "$TMP/noise" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ ! -e "$TMP/flipped" ] && [ ! -e "$TMP/noise" ] && [ ! -e "$TMP/search" ] || fail "a refused number still ran something"
echo "ok: overflowing numbers in --at, --near, --flip, --rank, --budget, --depth, --noise are refused"
