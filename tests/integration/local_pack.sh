#!/bin/bash
# local_pack.sh MPIRR IMPL PROG NODE_KILL: `mpirr record --local DIR --pack` on one host (DIR
# stands for node-local storage; docs/cli/record.md): the recording gets one file per node,
# never one per rank. PROG is wildcard_storm, whose native runs differ (checked); NODE_KILL
# kills a chosen rank of a host with SIGKILL at a chosen round (tests/cluster/node_kill.c).
#  - a normal run of 4 ranks: the recording holds exactly manifest and node-00000.pack (no
#    placement file, no rank file), nothing is left in DIR, and 2 replays under noise finish as
#    recorded and print what it printed;
#  - rank 2 SIGKILLed at round 30 (it moves nothing, and neither do the others here): its files
#    are still in the pack, stat says it was cut off, and 2 noisy replays follow rank 0's recorded
#    orders up to the kill without diverging;
#  - a gather killed with its node's pack in place but the placement file not removed (and then
#    one killed after removing it, before the local files): the recording is refused in one line
#    (the first case) until `mpirr gather` is run again, which completes it to the same 2 files,
#    empties DIR, and the recording replays as recorded.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NODE_KILL=$4 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
NODE=$TMP/node

native_distinct storm 6 "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG"

# only_pack REC WHAT: REC holds the manifest and one pack, nothing else; DIR holds nothing
only_pack() {
    local got
    got=$(cd "$1" && ls -A | tr '\n' ' ')
    [ "$got" = "manifest node-00000.pack " ] || fail "$2: the recording holds '$got', expected 'manifest node-00000.pack '"
    [ -z "$(ls -A "$NODE")" ] || fail "$2: files left in the local DIR: $(ls -R "$NODE")"
    grep -qx "local $NODE" "$1/manifest" || fail "$2: the manifest does not name the local DIR"
    ! grep -q '^local-pending' "$1/manifest" || fail "$2: a complete recording's manifest says ranks are pending"
    grep -qx "ranks $NP" "$1/manifest" || fail "$2: the manifest does not say $NP ranks"
}

replays_as_recorded() { # REC WHAT RECORDED_OUT
    for i in 1 2; do
        run "$TMP/rep$i" "$MPIRR" replay --noise "$NOISE_US" "$1" -- "${LAUNCH[@]}" "$PROG"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep$i" ||
            { cat "$TMP/rep$i.err" >&2; fail "$2: replay $i did not end as recorded"; }
        same_output "$3" "$TMP/rep$i.out" || fail "$2: replay $i printed other than the recorded run"
    done
}

# a normal run
run "$TMP/rec" "$MPIRR" record --local "$NODE" --pack -o "$TMP/r1" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record --local --pack exited $STATUS"; }
only_pack "$TMP/r1" "normal run"
"$MPIRR" stat "$TMP/r1" >"$TMP/stat.out" 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "stat refused the recording"; }
replays_as_recorded "$TMP/r1" "normal run" "$TMP/rec.out"
echo "ok: record --local --pack of $NP ranks: manifest and one pack, 2 noisy replays as recorded (native orders differ within $NATIVE_RAN runs)"

# rank 2 SIGKILLed at round 30: rounds 0-29 are whole, what rank 0 printed of round 30 depends
# on when the launcher ended it
rounds() { grep -E "^round [0-9]+:( [0-9]+){$((NP - 1))}\$" "$1"; }
run_killed "$TMP/killed" "$MPIRR" record --local "$NODE" --pack -o "$TMP/r2" -- "${LAUNCH[@]}" \
    "$NODE_KILL" "$(hostname)" 30 2
[ "$(rounds "$TMP/killed.out" | wc -l)" -eq 30 ] || { cat "$TMP/killed.err" >&2; fail "the killed run did not do exactly 30 whole rounds"; }
only_pack "$TMP/r2" "rank 2 killed"
"$MPIRR" stat --json "$TMP/r2" >"$TMP/killed.json" || fail "stat refused the recording of the killed run"
python3 - "$TMP/killed.json" <<'PY' || fail "rank 2 did not end cut off: $(cat "$TMP/killed.json")"
import json, sys
ranks = {r["rank"]: r for r in json.load(open(sys.argv[1]))["ranks"]}
assert len(ranks) == 4 and ranks[2]["ending"] == "cut off" and ranks[0]["records"] >= 30 * 3, ranks
PY
for i in 1 2; do
    run_killed "$TMP/krep$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/r2"
    ! grep -q 'diverged' "$TMP/krep$i.err" || { cat "$TMP/krep$i.err" >&2; fail "replay $i of the killed run diverged"; }
    # the launcher ends the others when rank 2 dies, so the replay either holds every rank where
    # its recording ends or sees the job ended first (as killed.sh accepts both)
    grep -Eq '^mpirr: replay (ended differently from the recording: the job was ended before the recorded end|stopped where the recording ends)' "$TMP/krep$i.err" ||
        { cat "$TMP/krep$i.err" >&2; fail "replay $i of the killed run did not end where the recording ends"; }
    cmp -s <(rounds "$TMP/killed.out") <(rounds "$TMP/krep$i.out") ||
        { diff <(rounds "$TMP/killed.out") <(rounds "$TMP/krep$i.out") | head -5 >&2; fail "replay $i did not follow the recorded orders to the kill"; }
done
echo "ok: a rank SIGKILLed at round 30 is in the pack; 2 noisy replays follow the recorded orders to the kill"

# a gather killed after writing the pack, then one killed after removing the placement
for step in gather-packed gather-unplaced; do
    rm -rf "$TMP/r3"
    run_killed "$TMP/g-$step" env MPIRR_PACK_TEST_KILL=$step "$MPIRR" record --local "$NODE" --pack -o "$TMP/r3" -- \
        "${LAUNCH[@]}" "$PROG"
    [ -s "$TMP/r3/node-00000.pack" ] || fail "$step: the killed gather had not written the pack"
    folder=$(ls -d "$NODE"/mpirr-*)
    [ "$(ls "$folder" | grep -c '^rank-.*\.log$')" -eq "$NP" ] || fail "$step: the local files were removed before the gather was killed"
    if [ $step = gather-packed ]; then
        [ -e "$TMP/r3/local/node-00000" ] || fail "$step: the node's placement file is gone"
        run "$TMP/inc" "$MPIRR" stat "$TMP/r3"
        expect_error "$TMP/inc" "is incomplete: the files of the ranks of 1 node" "mpirr gather"
        [ "$(grep -c '^mpirr: ' "$TMP/inc.err")" -eq 1 ] || fail "$step: stat said more than one line: $(cat "$TMP/inc.err")"
    fi
    run "$TMP/gather" "$MPIRR" gather "$folder" -o "$TMP/r3"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/gather.err" >&2; fail "$step: gather run again failed"; }
    only_pack "$TMP/r3" "gather run again after $step"
    run "$TMP/g3" "$MPIRR" replay --noise "$NOISE_US" "$TMP/r3" -- "${LAUNCH[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/g3" && same_output "$TMP/g-$step.out" "$TMP/g3.out" ||
        { cat "$TMP/g3.err" >&2; fail "$step: the completed recording did not replay as recorded"; }
done
echo "ok: a gather killed at either step is completed by gather run again, and replays as recorded"
