#!/bin/bash
# smoke.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: brings up a virtual cluster of 2 nodes
# (scripts/vcluster), runs PROCNAME natively across them from node 1 (its ranks must report both
# nodes' names), records PROGRAM across them with mpirr and replays it with noise, every rank's
# result as recorded. Tears the cluster down however it ends. A machine without namespaces
# fails here with vcluster's one line: this test is never skipped.
MPIRR=$1 VCLUSTER=$2 IMPL=$3 PROCNAME=$4 PROGRAM=$5
# 4 bounded runs fit in the test's 300 s, so that a hang still ends in this script's trap
RUN_TIMEOUT=60
. "$(dirname "$0")/../integration/lib.sh"
# The nodes' /tmp is their own: what the nodes share (recording, replay's private directory)
# lives in the build tree, as on a cluster's project file system.
WORK=$(mktemp -d "$(dirname "$PROCNAME")/cluster-smoke.XXXXXX")
trap 'st=$?; "$VCLUSTER" down; rm -rf "$WORK" "$TMP"; exit $st' EXIT
trap 'exit 143' TERM INT
cd "$WORK" || fail "cannot enter $WORK"

"$VCLUSTER" up 2 --no-slurm >"$TMP/up.out" 2>&1 || { cat "$TMP/up.out" >&2; fail "vcluster up 2 failed"; }
NODE1=("$VCLUSTER" run 1 --)
case $IMPL in
openmpi) LAUNCH=(mpirun.openmpi --host mpirr-node1:2,mpirr-node2:2 -np 4) ;;
mpich) LAUNCH=(mpiexec.mpich -hosts mpirr-node1:2,mpirr-node2:2 -np 4) ;;
*) fail "unknown MPI implementation $IMPL" ;;
esac

# Natively, with no option but the hosts: the nodes' own MPI defaults do the rest.
run "$TMP/native" "${NODE1[@]}" "${LAUNCH[@]}" "$PROCNAME"
[ "$STATUS" -eq 0 ] || { cat "$TMP/native.err" >&2; fail "native run across the nodes exited $STATUS"; }
[ "$(grep -c ' 4 mpirr-node[12] ok$' "$TMP/native.out")" = 4 ] ||
    { cat "$TMP/native.out" >&2; fail "native run: expected 4 ranks of 4 on mpirr-node1/2 with a right sum"; }
for node in mpirr-node1 mpirr-node2; do
    [ "$(grep -c " $node ok$" "$TMP/native.out")" = 2 ] || fail "native run: expected 2 ranks on $node"
done
echo "ok: native run, 2 ranks on each node"

run "$TMP/record" "${NODE1[@]}" "$MPIRR" record -o rec -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record across the nodes exited $STATUS"; }
for r in 0 1 2 3; do
    [ -s "rec/rank-0000$r.log" ] || fail "record: no log of rank $r (the ranks on node 2 write to the shared file system)"
done
echo "ok: recorded 4 ranks on 2 nodes"

# replay's private directory must be one every node sees (docs/cli/replay.md)
mkdir replay-tmp
for i in 1 2; do
    run "$TMP/replay$i" "${NODE1[@]}" env MPIRR_TMPDIR="$WORK/replay-tmp" "$MPIRR" replay --noise "$NOISE_US" rec
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "replay $i did not finish as recorded"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed other than the recording"
done
echo "ok: 2 noisy replays across the nodes finished as recorded"
