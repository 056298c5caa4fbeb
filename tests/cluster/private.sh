#!/bin/bash
# private.sh MPIRR VCLUSTER: a test of the harness itself. `vcluster private DIR` gives each node
# its own copy of DIR: a file written into it on node 2 (directly or by a process that node 1
# starts there over ssh, as a launcher does) is absent on node 1 and on the host, and one written
# on node 1 is absent on node 2; `down` leaves the host's DIR as it was, with no mount on it.
. "$(dirname "$0")/lib.sh"
cluster_up 2 --no-slurm
NODE2=("$VCLUSTER" run 2 --)
mkdir dir && echo seed >dir/seed

run "$TMP/private" "$VCLUSTER" private dir
[ "$STATUS" -eq 0 ] || { cat "$TMP/private.err" >&2; fail "vcluster private dir exited $STATUS"; }
"$VCLUSTER" status | grep -qx "private on every node: $WORK/dir" || fail "status does not list $WORK/dir as private"

# on_node I TEST...: TEST holds on node I (a shell command, in $WORK)
on_node() {
    local i=$1
    shift
    "$VCLUSTER" run "$i" -- sh -c "$*" || fail "on node $i, expected: $*"
}
on_node 1 'test "$(cat dir/seed)" = seed'
on_node 2 'test "$(cat dir/seed)" = seed'
"${NODE2[@]}" sh -c 'echo 2 >dir/from-node2' || fail "cannot write into dir on node 2"
"${NODE1[@]}" ssh mpirr-node2 "echo ssh >$WORK/dir/via-ssh" || fail "cannot write into dir on node 2 over ssh"
"${NODE1[@]}" sh -c 'echo 1 >dir/from-node1' || fail "cannot write into dir on node 1"
on_node 1 'test -e dir/from-node1 && ! test -e dir/from-node2 && ! test -e dir/via-ssh'
on_node 2 'test -e dir/from-node2 && test -e dir/via-ssh && ! test -e dir/from-node1'
"${NODE1[@]}" ssh mpirr-node2 "test -e $WORK/dir/from-node2 && ! test -e $WORK/dir/from-node1" ||
    fail "node 2, seen over ssh, has not its own copy of dir"
[ "$(ls dir)" = seed ] || fail "the host's dir has $(ls dir | tr '\n' ' ')instead of only seed"
echo "ok: a file written into the private dir on one node is absent on the other and on the host"

run "$TMP/again" "$VCLUSTER" private dir
[ "$STATUS" -ne 0 ] && grep -q "^vcluster: private $WORK/dir: already private" "$TMP/again.err" ||
    fail "a second private dir did not fail with one line"
run "$TMP/missing" "$VCLUSTER" private nosuchdir
[ "$STATUS" -ne 0 ] && grep -q "^vcluster: private DIR: 'nosuchdir' is not a directory" "$TMP/missing.err" ||
    fail "private of a missing directory did not fail with one line"

"$VCLUSTER" down || fail "vcluster down failed"
! mountpoint -q dir || fail "dir is still a mount point after down"
[ "$(ls dir)" = seed ] && [ "$(cat dir/seed)" = seed ] || fail "down left the host's dir changed"
echo "ok: down leaves the host's dir as it was"
