#!/bin/bash
# local.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM [NODE_KILL]: `mpirr record --local /tmp/...`
# across 2 nodes over ssh, whose /tmp is each node's own:
#  - PROGRAM (wildcard_storm) recorded so: the rank files of node 2's ranks end up in the
#    recording, nothing stays in node 2's /tmp, no placement file is left, and 2 noisy replays
#    finish as recorded;
#  - NODE_KILL, whose ranks on node 2 SIGKILL themselves at round 30: they move nothing, so
#    mpirr record gathers their files from node 2 over ssh; the recording is then complete
#    (node 2's /tmp empty) and a noisy replay follows rank 0's recorded orders up to the kill;
#  - the same when record cannot reach node 2 (MPIRR_RSH=false, as a host that refuses ssh):
#    one line naming node 2, its folder and the command to run, exit status non-zero, the
#    recording refused by stat until that command (run as printed) gathers it;
#  - PROGRAM recorded with --local --pack: the recording holds the manifest and 2 node packs
#    (node 2's written there over ssh), node 2's /tmp is empty, 2 noisy replays as recorded.
. "$(dirname "$0")/lib.sh"
NODE_KILL=${6:?node_kill program}
cluster_up 2 --no-slurm
LAUNCH=(mpirun.openmpi --host mpirr-node1:2,mpirr-node2:2 -np 4)
[ "$IMPL" = mpich ] && LAUNCH=(mpiexec.mpich -hosts mpirr-node1:2,mpirr-node2:2 -np 4)
LOCAL=/tmp/mpirr-local-test

# nothing_left WHAT: no rank file, placement or folder left behind
nothing_left() {
    local left
    left=$("$VCLUSTER" run 2 -- find "$LOCAL" -mindepth 1 2>&1)
    [ -z "$left" ] || fail "$1: left in node 2's $LOCAL: $left"
    [ ! -e rec/local ] || fail "$1: placement files left: $(ls rec/local)"
    recorded_four "$1"
}

run "$TMP/record" "${NODE1[@]}" "$MPIRR" record --local "$LOCAL" -o rec -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record --local across the nodes exited $STATUS"; }
nothing_left "record --local"
replays_as_recorded "record --local"
echo "ok: record --local across 2 nodes: all rank files in the recording, 2 noisy replays as recorded"

rm -rf rec
run_killed "$TMP/killed" "${NODE1[@]}" "$MPIRR" record --local "$LOCAL" -o rec -- "${LAUNCH[@]}" \
    "$NODE_KILL" mpirr-node2 30
grep -q '^round 29:' "$TMP/killed.out" || { cat "$TMP/killed.err" >&2; fail "the killed run did not reach round 29"; }
grep '^mpirr: rank files' "$TMP/killed.err" && fail "record did not gather node 2's files: $(cat "$TMP/killed.err")"
nothing_left "node 2 killed"
grep -q '^local-pending' rec/manifest && fail "the gathered recording's manifest says ranks are pending"
# node 2's ranks were killed outright, so it was record that fetched their files
"$MPIRR" stat --json rec >"$TMP/stat.json" || fail "stat refused the gathered recording"
python3 - "$TMP/stat.json" <<'PY' || fail "node 2's ranks (2, 3) did not end killed: $(cat "$TMP/stat.json")"
import json, sys
ranks = {r["rank"]: r for r in json.load(open(sys.argv[1]))["ranks"]}
assert all(ranks[r]["ending"] == "cut off" for r in (2, 3)), [ranks[r]["ending"] for r in (2, 3)]
PY
# the replayed node-2 ranks kill themselves again, at the recorded event
run_killed "$TMP/rep" "${NODE1[@]}" "$MPIRR" replay --noise "$NOISE_US" rec
grep -q 'diverged' "$TMP/rep.err" && { cat "$TMP/rep.err" >&2; fail "the replay of the killed run diverged"; }
python3 - "$TMP/killed.out" "$TMP/rep.out" "$TMP/rep.err" <<'PY' || { cat "$TMP/rep.err" >&2; fail "the replay did not follow the recorded orders to the kill"; }
import re, sys
a = [l for l in open(sys.argv[1]) if l.startswith("round")]
b = [l for l in open(sys.argv[2]) if l.startswith("round")]
assert len(a) == 30 and b == a, (len(a), len(b))
# the killed ranks end where they were killed when recording
for at, rec in re.findall(r"at event (\d+), recorded: killed at event (\d+)", open(sys.argv[3]).read()):
    assert at == rec, (at, rec)
PY
echo "ok: node 2's killed ranks gathered over ssh by record; the replay follows the recorded orders"

rm -rf rec
run_killed "$TMP/unreached" "${NODE1[@]}" env MPIRR_RSH=false "$MPIRR" record --local "$LOCAL" -o rec -- \
    "${LAUNCH[@]}" "$NODE_KILL" mpirr-node2 30
gline=$(grep '^mpirr: rank files' "$TMP/unreached.err")
[ "$(printf '%s\n' "$gline" | grep -c .)" -eq 1 ] || { cat "$TMP/unreached.err" >&2; fail "expected one line about node 2's rank files"; }
printf '%s\n' "$gline" | grep -q "ranks 2, 3 are still on mpirr-node2 in $LOCAL/mpirr-" || fail "the line does not name node 2's ranks and folder: $gline"
grep -q '^local-pending 2$' rec/manifest || fail "the manifest does not say 2 ranks are pending"
run "$TMP/stat-inc" "${NODE1[@]}" "$MPIRR" stat rec
expect_error "$TMP/stat-inc" "is incomplete" "mpirr gather"
cmd=$(printf '%s\n' "$gline" | sed -n 's/.*: run `\(.*\)`$/\1/p')
[ -n "$cmd" ] || fail "no command in: $gline"
# it names the remote shell as set (MPIRR_RSH=false here); the user runs it with one that works
[[ $cmd == "false mpirr-node2 "* ]] || fail "the printed command does not start with MPIRR_RSH and the host: $cmd"
cmd="ssh ${cmd#false }"
run "$TMP/gather" "${NODE1[@]}" bash -c "$cmd"
[ "$STATUS" -eq 0 ] || { cat "$TMP/gather.err" >&2; fail "the printed command failed: $cmd"; }
nothing_left "gathered by hand"
grep -q '^local-pending' rec/manifest && fail "the manifest still says ranks are pending after gather"
grep -q '^ranks 4$' rec/manifest || fail "gather did not complete the manifest"
"$MPIRR" stat rec >/dev/null 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "stat refused the gathered recording"; }
echo "ok: an unreachable node is one line with the command, which gathers the recording"

# --local --pack: each node's files go into the recording as that node's pack (node 2's over
# ssh), never a file per rank
rm -rf rec
run "$TMP/record" "${NODE1[@]}" "$MPIRR" record --local "$LOCAL" --pack -o rec -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record --local --pack across the nodes exited $STATUS"; }
got=$(ls -A rec | tr '\n' ' ')
[ "$got" = "manifest node-00000.pack node-00001.pack " ] || fail "record --local --pack: the recording holds '$got', expected the manifest and 2 packs"
left=$("$VCLUSTER" run 2 -- find "$LOCAL" -mindepth 1 2>&1)
[ -z "$left" ] || fail "record --local --pack: left in node 2's $LOCAL: $left"
"$MPIRR" stat --json rec >"$TMP/pstat.json" || fail "stat refused the packed recording"
python3 - "$TMP/pstat.json" <<'PY' || fail "the packed recording does not hold 4 ranks on 2 hosts: $(cat "$TMP/pstat.json")"
import json, sys
s = json.load(open(sys.argv[1]))
assert len(s["ranks"]) == 4, s["ranks"]
PY
replays_as_recorded "record --local --pack"
echo "ok: record --local --pack across 2 nodes: 2 packs, nothing left on node 2, 2 noisy replays as recorded"
