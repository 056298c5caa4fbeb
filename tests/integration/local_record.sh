#!/bin/bash
# local_record.sh MPIRR IMPL PROG: `mpirr record --local DIR` (docs/cli/record.md). PROG is
# wildcard_storm, whose native runs differ (checked). On one host DIR stands for node-local
# storage:
#  - a normal run leaves one complete recording (every rank file moved in, nothing left in DIR,
#    no placement files) that stat reads and that replays as recorded, 3 times under noise;
#  - a DIR that cannot be made (its parent is missing; it is a file) ends the job with one line
#    naming the rank, the host and DIR;
#  - rank files left on a node (put back by hand, as a killed rank and a dead launcher leave
#    them): stat and replay refuse the recording in one line until `mpirr gather` moves them
#    in, after which it is complete and replays as recorded;
#  - gather refuses a folder of another recording, and a file of another run id put into the
#    right folder, and leaves them there;
#  - a DIR on a disk that fills up (a 48 KiB tmpfs: needs root to mount, else that part is
#    skipped, saying so) is a full disk as without --local: the program ends normally, every
#    rank's recording stops early, says so, and still ends up whole in the recording.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 ENDLESS=$4 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
NODE=$TMP/node

native_distinct storm 6 "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG"

replays_as_recorded() { # REC WHAT
    for i in 1 2 3; do
        run "$TMP/rep$i" "$MPIRR" replay --noise "$NOISE_US" "$1" -- "${LAUNCH[@]}" "$PROG"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep$i" ||
            { cat "$TMP/rep$i.err" >&2; fail "$2: replay $i did not end as recorded"; }
        same_output "$TMP/rec.out" "$TMP/rep$i.out" || fail "$2: replay $i printed other than the recorded run"
    done
}

# a normal run
run "$TMP/rec" "$MPIRR" record --local "$NODE" -o "$TMP/r1" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record --local exited $STATUS"; }
[ "$(ls "$TMP/r1"/rank-*.log | wc -l)" -eq "$NP" ] || fail "not every rank's log is in the recording"
[ ! -e "$TMP/r1/local" ] || fail "placement files left: $(ls "$TMP/r1/local")"
[ -z "$(ls -A "$NODE")" ] || fail "files left in the local DIR: $(ls -R "$NODE")"
[ "$(stat -c %a "$NODE")" = 700 ] || fail "the local DIR was made with mode $(stat -c %a "$NODE"), not 700"
grep -qx "local $NODE" "$TMP/r1/manifest" || fail "the manifest does not name the local DIR"
grep -q '^local-pending' "$TMP/r1/manifest" && fail "a complete recording's manifest says ranks are pending"
"$MPIRR" stat "$TMP/r1" >"$TMP/stat.out" 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "stat refused the recording"; }
replays_as_recorded "$TMP/r1" "normal run"
echo "ok: a normal run recorded with --local replays as recorded (native orders differ within $NATIVE_RAN runs)"

# a local DIR that cannot be used
: >"$TMP/afile"
for dir in "$TMP/missing/parent/dir" "$TMP/afile"; do
    run "$TMP/bad" "$MPIRR" record --local "$dir" -o "$TMP/rbad" --force -- "${LAUNCH[@]}" "$PROG"
    expect_error "$TMP/bad" "record --local: rank [0-9]* on $(hostname)" "$dir"
    n=$(grep -c "cannot keep its files" "$TMP/bad.err")
    [ "$n" -eq 1 ] || fail "$dir: $n lines about the local DIR, expected one"
done

# rank files left on the node: put rank 2's back, with its placement file, as a dead launcher leaves them
ID=$(sed -n 's/^run-id //p' "$TMP/r1/manifest")
FOLDER=$NODE/mpirr-$ID
mkdir -p "$FOLDER" "$TMP/r1/local"
mv "$TMP/r1"/rank-00002.* "$FOLDER/"
printf 'mpirr-placement 1\nhost %s\nfolder %s\npid 1\n' "$(hostname)" "$FOLDER" >"$TMP/r1/local/rank-00002"
for tool in stat replay; do
    if [ $tool = stat ]; then run "$TMP/inc" "$MPIRR" stat "$TMP/r1"
    else run "$TMP/inc" "$MPIRR" replay "$TMP/r1" -- "${LAUNCH[@]}" "$PROG"; fi
    expect_error "$TMP/inc" "is incomplete" "mpirr gather"
    [ "$(grep -c '^mpirr: ' "$TMP/inc.err")" -eq 1 ] || fail "$tool: more than one line: $(cat "$TMP/inc.err")"
done

# gather refuses what is not this recording's
mkdir -p "$NODE/mpirr-0123456789abcdef0123456789abcdef"
run "$TMP/g1" "$MPIRR" gather "$NODE/mpirr-0123456789abcdef0123456789abcdef" -o "$TMP/r1"
expect_error "$TMP/g1" "is not the node-local folder of the recording"
run "$TMP/rec2" "$MPIRR" record -o "$TMP/r2" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || fail "a second recording failed"
mv "$FOLDER/rank-00002.log" "$TMP/rank-00002.log.mine"
cp "$TMP/r2/rank-00002.log" "$FOLDER/"
run "$TMP/g2" "$MPIRR" gather "$FOLDER" -o "$TMP/r1"
expect_error "$TMP/g2" "belongs to another recording"
[ -e "$FOLDER/rank-00002.log" ] && [ ! -e "$TMP/r1/rank-00002.log" ] || fail "gather moved a file of another run id"
[ -e "$TMP/r1/local/rank-00002" ] || fail "gather removed the placement of a rank it did not gather"
ln -s /etc/passwd "$FOLDER/rank-00009.log"
mv "$TMP/rank-00002.log.mine" "$FOLDER/rank-00002.log"
run "$TMP/g3" "$MPIRR" gather "$FOLDER" -o "$TMP/r1"
expect_error "$TMP/g3" "rank-00009.log is not a regular file"
[ ! -e "$TMP/r1/rank-00009.log" ] || fail "gather moved a symlink"
rm "$FOLDER/rank-00009.log"

# ... and completes the recording with what is
run "$TMP/g4" "$MPIRR" gather "$FOLDER" -o "$TMP/r1"
[ "$STATUS" -eq 0 ] || { cat "$TMP/g4.err" >&2; fail "gather failed"; }
[ ! -e "$TMP/r1/local" ] && [ ! -e "$FOLDER" ] || fail "gather left placement files or the folder: $(ls -laR "$TMP/r1" "$FOLDER"; cat "$TMP/g4.err")"
grep -q '^local-pending' "$TMP/r1/manifest" && fail "the gathered recording's manifest says ranks are pending"
replays_as_recorded "$TMP/r1" "gathered"
echo "ok: an incomplete recording is refused until gathered; gather refuses foreign files and symlinks"

# DIR on a full disk
MNT=$TMP/disk
mkdir -p "$MNT"
trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT
if ! mount -t tmpfs -o size=48k tmpfs "$MNT" 2>/dev/null; then
    echo "SKIP: cannot mount a tmpfs here: the full-disk part did not run"
    exit 0
fi
run "$TMP/full" "$MPIRR" record --local "$MNT/loc" -o "$TMP/r3" -- "${LAUNCH[@]}" "$ENDLESS" "$TMP/fullout" 600 # the disk is full by about round 300
[ "$STATUS" -eq 0 ] || { cat "$TMP/full.err" >&2; fail "full local disk: the program exited $STATUS"; }
[ "$(grep -c "No space left on device; the recording of this rank stops" "$TMP/full.err")" -eq "$NP" ] ||
    { cat "$TMP/full.err" >&2; fail "full local disk: not every rank said its recording stopped"; }
[ -z "$(ls -A "$MNT/loc")" ] && [ ! -e "$TMP/r3/local" ] || fail "full local disk: files left behind"
"$MPIRR" stat --json "$TMP/r3" >"$TMP/full.json" 2>"$TMP/full.stat.err" || { cat "$TMP/full.stat.err" >&2; fail "full local disk: stat refused the recording"; }
python3 - "$TMP/full.json" "$NP" <<'PY' || fail "full local disk: stat does not say every rank's recording stopped early"
import json, sys
ranks = json.load(open(sys.argv[1]))["ranks"]
assert len(ranks) == int(sys.argv[2]) and all(r["ending"] == "recording stopped early" for r in ranks), ranks
PY
echo "ok: a full local DIR stops the recording as a full disk does; the files still end up in the recording"
