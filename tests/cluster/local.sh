#!/bin/bash
# local.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM [NODE_KILL]: `mpirr record --local /tmp/...`
# across 2 nodes over ssh, whose /tmp is each node's own:
#  - PROGRAM (wildcard_storm) recorded so: the rank files of node 2's ranks end up in the
#    recording, nothing stays in node 2's /tmp, no placement file is left, and 2 noisy replays
#    finish as recorded;
#  - NODE_KILL, whose ranks on node 2 SIGKILL themselves at round 30: they move nothing, so
#    mpirr record gathers their files from node 2 over ssh; the recording is then complete
#    (node 2's /tmp empty) and a noisy replay follows rank 0's recorded orders up to the kill.
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
run "$TMP/killed" "${NODE1[@]}" "$MPIRR" record --local "$LOCAL" -o rec -- "${LAUNCH[@]}" "$NODE_KILL" mpirr-node2 30
[ "$STATUS" -ne 0 ] || fail "the run whose node-2 ranks were killed exited 0"
grep -q '^round 29:' "$TMP/killed.out" || { cat "$TMP/killed.err" >&2; fail "the killed run did not reach round 29"; }
grep '^mpirr: rank files' "$TMP/killed.err" && fail "record did not gather node 2's files: $(cat "$TMP/killed.err")"
nothing_left "node 2 killed"
grep -q '^local-pending' rec/manifest && fail "the gathered recording's manifest says ranks are pending"
mkdir -p replay-tmp
run "$TMP/rep" "${NODE1[@]}" env MPIRR_TMPDIR="$WORK/replay-tmp" "$MPIRR" replay --noise "$NOISE_US" rec
grep -q '^mpirr: replay stopped where the recording ends' "$TMP/rep.err" ||
    { cat "$TMP/rep.err" >&2; fail "the replay of the killed run did not stop where the recording ends"; }
python3 - "$TMP/killed.out" "$TMP/rep.out" <<'PY' || fail "the replay's orders differ from the recorded ones"
import sys
a = [l for l in open(sys.argv[1]) if l.startswith("round")]
b = [l for l in open(sys.argv[2]) if l.startswith("round")]
assert len(a) >= 30 and b[:len(a)] == a[:len(b)] and len(b) >= len(a) - 1, (len(a), len(b))
PY
echo "ok: node 2's killed ranks gathered over ssh by record; the replay follows the recorded orders"
