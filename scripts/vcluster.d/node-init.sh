#!/bin/bash
# node-init.sh: the init (PID 1) of one node of scripts/vcluster. Started by `vcluster up` as
#   ip netns exec mpirr-nodeI unshare --uts --pid --mount --fork --mount-proc \
#       --propagation private bash node-init.sh I STATE
# so it already runs in the node's own network, UTS, PID and mount namespaces. It gives the
# node its hostname and its private /tmp, /var/tmp, /dev/shm and /run, binds the cluster's
# generated configuration (hosts, ssh, MPI defaults, Slurm, munge) over the host's paths in
# this mount namespace only, starts the node's daemons, says "ready" on the fifo STATE/nodeI/ready
# and then only reaps orphans until `vcluster down` kills it (which ends the whole PID namespace).
set -eu
I=$1
STATE=$2
NODE=mpirr-node$I
# the daemons' logs stay readable from the host, in the state directory
LOG=$STATE/node$I
# The host waits for one line on this fifo: "ready", or the error that stopped us.
exec 3>"$STATE/node$I/ready"
trap 'echo "$NODE: init failed at line $LINENO" >&3' ERR

hostname "$NODE"

# Bind the generated files before /run is covered: a bind mount keeps its source reachable.
# The host's files stay untouched; only this mount namespace sees the bound ones.
mount --bind "$STATE/etc/hosts" /etc/hosts
mount --bind "$STATE/node$I/hostname" /etc/hostname
mount --bind "$STATE/etc/profile" /etc/profile
mount --bind "$STATE/etc/ssh" /etc/ssh
mount --bind "$STATE/etc/openmpi-mca-params.conf" /etc/openmpi/openmpi-mca-params.conf
if [ -d "$STATE/etc/slurm" ]; then
    mount --bind "$STATE/etc/slurm" /etc/slurm
    mount --bind "$STATE/etc/munge" /etc/munge
fi

# The node's private directories, as on a machine of its own. The state directory (under /run
# on the host) is bound back at its path so that the nodes' configuration can name files in it.
# So are the shared directories that lie under them (STATE/shared: a checkout under /tmp), each
# held open across the mounts and bound back from its descriptor.
exec 4<"$STATE"
shared=() fds=()
while IFS= read -r d; do
    exec {fd}<"$d"
    shared+=("$d") fds+=("$fd")
done <"$STATE/shared"
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p "$STATE"
mount --bind --no-canonicalize /proc/self/fd/4 "$STATE"
exec 4<&-
for k in "${!shared[@]}"; do
    mkdir -p "${shared[$k]}"
    mount --bind --no-canonicalize "/proc/self/fd/${fds[$k]}" "${shared[$k]}"
    fd=${fds[$k]}
    exec {fd}<&-
done
# A boot id of the node's own: libraries that take one boot id for one machine (UCX, under
# MPICH, reaches "local" peers through shared memory and /proc/PID) see separate machines.
mount --bind "$STATE/node$I/boot_id" /proc/sys/kernel/random/boot_id

# sshd daemonizes once it listens: when it returns, the node takes logins.
mkdir -m 755 /run/sshd
/usr/sbin/sshd -E "$LOG/sshd.log" 3>&-

if [ -d "$STATE/etc/slurm" ]; then
    mkdir -m 755 /run/munge /var/tmp/slurmd /var/tmp/slurmctld
    # munged forks after its socket is bound
    /usr/sbin/munged --force --key-file=/etc/munge/munge.key --seed-file=/run/munge/munged.seed \
        --log-file="$LOG/munged.log" 3>&-
    if [ "$I" = 1 ]; then
        /usr/sbin/slurmctld 3>&-
    fi
    /usr/sbin/slurmd 3>&-
fi

echo ready >&3
exec 3>&-
trap - ERR
# PID 1 of the namespace: reap the orphans the daemons and jobs leave, until killed.
trap 'exit 0' TERM INT
while :; do
    sleep 86400 &
    wait $! || true
done
