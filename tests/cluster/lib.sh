# lib.sh: shared part of the cluster tests (sourced), on top of tests/integration/lib.sh.
# Arguments of every test: MPIRR VCLUSTER IMPL PROCNAME PROGRAM. Sets WORK, a scratch folder in
# the build tree (the nodes' /tmp is their own: what the nodes share, such as a recording,
# lives where a cluster's project file system would be), and
# tears the cluster down however the test ends.
MPIRR=$1 VCLUSTER=$2 IMPL=$3 PROCNAME=$4 PROGRAM=$5
# 4 bounded runs fit in a test's 300 s, so that a hang still ends in the trap below
RUN_TIMEOUT=60
. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.sh"
WORK=$(mktemp -d "$(dirname "$PROCNAME")/cluster.XXXXXX")
trap 'st=$?; "$VCLUSTER" down; rm -rf "$WORK" "$TMP"; exit $st' EXIT
trap 'exit 143' TERM INT
cd "$WORK" || fail "cannot enter $WORK"
NODE1=("$VCLUSTER" run 1 --)

# cluster_up N [--no-slurm]: vcluster up, whose one line is the failure where namespaces are
# not allowed: these tests are never skipped.
cluster_up() {
    "$VCLUSTER" up "$@" >"$TMP/up.out" 2>&1 || { cat "$TMP/up.out" >&2; fail "vcluster up $* failed"; }
}

# ssh_launch HOSTS: LAUNCH, IMPL's launcher over ssh for 4 ranks on HOSTS (host:slots,...)
ssh_launch() {
    case $IMPL in
    openmpi) LAUNCH=(mpirun.openmpi --host "$1" -np 4) ;;
    mpich) LAUNCH=(mpiexec.mpich -hosts "$1" -np 4) ;;
    *) fail "unknown MPI implementation $IMPL" ;;
    esac
}

# two_per_node NAME OUT: OUT is procname's output of 4 ranks, 2 on each of mpirr-node1/2, each
# with the right allreduce sum.
two_per_node() {
    local node
    [ "$(grep -c ' 4 mpirr-node[12] ok$' "$2")" = 4 ] ||
        { cat "$2" >&2; fail "$1: expected 4 ranks of 4 on mpirr-node1/2 with a right sum"; }
    for node in mpirr-node1 mpirr-node2; do
        [ "$(grep -c " $node ok$" "$2")" = 2 ] || fail "$1: expected 2 ranks on $node"
    done
    echo "ok: $1, 2 ranks on each node"
}

# recorded_four NAME: the recording rec has a log of each of 4 ranks
recorded_four() {
    local r
    for r in 0 1 2 3; do
        [ -s "rec/rank-0000$r.log" ] || fail "$1: no log of rank $r (the ranks on node 2 write to the shared file system)"
    done
    echo "ok: $1 recorded 4 ranks on 2 nodes"
}

# replays_as_recorded WHAT: 2 noisy replays of rec from node 1 each finish as recorded and print
# what the recording did. The replay's private directory is in node 1's own /tmp, which the
# ranks on node 2 do not see: they reach mpirr over TCP only (docs/cli/replay.md).
replays_as_recorded() {
    for i in 1 2; do
        run "$TMP/replay$i" "${NODE1[@]}" env MPIRR_TMPDIR=/tmp "$MPIRR" replay --noise "$NOISE_US" rec
        replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "$1: replay $i did not finish as recorded"; }
        same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "$1: replay $i printed other than the recording"
    done
}
