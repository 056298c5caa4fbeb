#!/bin/bash
# smoke.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: brings up a virtual cluster of 2 nodes
# (scripts/vcluster, ssh only), runs PROCNAME natively across them from node 1 (2 ranks must
# run on each node), records PROGRAM across them with mpirr and replays it twice with noise,
# each replay as recorded.
. "$(dirname "$0")/lib.sh"
cluster_up 2 --no-slurm
ssh_launch mpirr-node1:2,mpirr-node2:2

# Natively, with no option but the hosts: the nodes' own MPI defaults do the rest.
run "$TMP/native" "${NODE1[@]}" "${LAUNCH[@]}" "$PROCNAME"
[ "$STATUS" -eq 0 ] || { cat "$TMP/native.err" >&2; fail "native run across the nodes exited $STATUS"; }
two_per_node "native run" "$TMP/native.out"

run "$TMP/record" "${NODE1[@]}" "$MPIRR" record -o rec -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record across the nodes exited $STATUS"; }
recorded_four "ssh launch"

replays_as_recorded "ssh launch"
echo "ok: 2 noisy replays across the nodes finished as recorded"
