#!/bin/bash
# programs.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: racing programs of tests/programs (those
# next to PROGRAM) across 3 nodes of scripts/vcluster, 6 ranks, 2 on each. For every program:
# native runs across the nodes differ; one recording over ssh; then, with the recording made
# private to each node (`vcluster private`: a rank reads its own node's copy, no node sees what
# another writes, no MPIRR_TMPDIR shared by the nodes), 2 noisy replays and one whose launcher
# puts the ranks on other nodes (replay is by rank, not by host) each finish as recorded and
# print what the recording printed.
. "$(dirname "$0")/lib.sh"
PROGRAMS_DIR=$(dirname "$PROGRAM")
# wildcard receives, probes, Waitany/Waitsome, nonblocking wildcard receives polled with
# Test/Testany/Testall, MPI_Wtime-driven control flow
PROGRAMS=(wildcard_storm iprobe_poll waitany_waitsome test_polling wtime_loop)
NATIVE_RUNS=3 REPLAYS=2 # the many noisy replays are single-host tests (fidelity.*); here: across nodes
case $IMPL in
openmpi) MPIRUN=(mpirun.openmpi --host) ;;
mpich) MPIRUN=(mpiexec.mpich -hosts) ;;
*) fail "unknown MPI implementation $IMPL" ;;
esac
LAUNCH=("${MPIRUN[@]}" mpirr-node1:2,mpirr-node2:2,mpirr-node3:2 -np 6)
MOVED=("${MPIRUN[@]}" mpirr-node3:2,mpirr-node1:2,mpirr-node2:2 -np 6)
cluster_up 3 --no-slurm

# two_per_node3 OUT: procname's OUT has 6 ranks with a right sum, 2 on each node
two_per_node3() {
    local node
    [ "$(grep -c ' 6 mpirr-node[123] ok$' "$1")" = 6 ] || { cat "$1" >&2; fail "expected 6 ranks on mpirr-node1..3 with a right sum"; }
    for node in mpirr-node1 mpirr-node2 mpirr-node3; do
        [ "$(grep -c " $node ok$" "$1")" = 2 ] || fail "expected 2 ranks on $node"
    done
}
run "$TMP/place" "${NODE1[@]}" "${LAUNCH[@]}" "$PROCNAME"
[ "$STATUS" -eq 0 ] || { cat "$TMP/place.err" >&2; fail "native procname across 3 nodes exited $STATUS"; }
two_per_node3 "$TMP/place.out"
run "$TMP/moved" "${NODE1[@]}" "${MOVED[@]}" "$PROCNAME"
[ "$STATUS" -eq 0 ] || { cat "$TMP/moved.err" >&2; fail "native procname on moved hosts exited $STATUS"; }
two_per_node3 "$TMP/moved.out"
# Open MPI's mpirun puts its own node first whatever the list's order: 4 ranks move, MPICH's 6.
moved=$(join <(sort "$TMP/place.out") <(sort "$TMP/moved.out") | awk '$3 != $6' | wc -l)
[ "$moved" -ge 4 ] || fail "the moved host list puts only $moved ranks on another node"
echo "ok: 2 ranks on each of 3 nodes; the moved host list puts $moved ranks on another node"

for name in "${PROGRAMS[@]}"; do
    prog=$PROGRAMS_DIR/$name
    mkdir "$WORK/$name" && cd "$WORK/$name" || fail "cannot make $WORK/$name"
    native_distinct "$name" "$NATIVE_RUNS" "${NODE1[@]}" "${LAUNCH[@]}" "$prog"

    run "$TMP/record" "${NODE1[@]}" "$MPIRR" record -o rec -- "${LAUNCH[@]}" "$prog"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "$name: record across 3 nodes exited $STATUS"; }
    for r in 0 1 2 3 4 5; do
        [ -s "rec/rank-0000$r.log" ] || fail "$name: no log of rank $r in the recording"
    done
    grep -q '^digest ' "$TMP/record.out" || fail "$name: the recording printed no digest"

    # From here on, no node sees what another writes into the recording (nor the host).
    "$VCLUSTER" private rec >/dev/null || fail "$name: vcluster private rec failed"
    for i in $(seq "$REPLAYS") moved; do
        cmd=()
        [ "$i" = moved ] && cmd=(-- "${MOVED[@]}" "$prog")
        run "$TMP/replay-$i" "${NODE1[@]}" "$MPIRR" replay --noise "$NOISE_US" rec "${cmd[@]}"
        replay_as_recorded "$TMP/replay-$i" && [ "$STATUS" -eq 0 ] ||
            { cat "$TMP/replay-$i.err" >&2; fail "$name: replay $i (exit $STATUS) did not finish as recorded"; }
        same_output "$TMP/record.out" "$TMP/replay-$i.out" || fail "$name: replay $i printed other than the recording"
    done
    echo "ok: $name: native outputs differ within $NATIVE_RAN runs; recorded on 3 nodes; $REPLAYS noisy replays and one with the ranks on other nodes, from per-node copies, as recorded"
done
