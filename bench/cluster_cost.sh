#!/bin/bash
# cluster_cost.sh [BUILD] [REPS]: what recording costs across nodes against one node, side by
# side in one run. On a virtual cluster of 2 nodes (scripts/vcluster: needs root and
# namespaces, so not in `make bench`; run it as `flock /tmp/vcluster.lock bench/cluster_cost.sh
# build`), each benchmark of BENCH_SPECS ("name:ranks:iterations ...") runs with the same rank count on
# node 1 alone and split evenly over nodes 1 and 2, natively, under `mpirr record` (sources
# mode) and `mpirr record --mode=races`. Prints a markdown table: the loop time the benchmark
# measures itself (median of REPS runs), the ratios to native on that placement, and the cost
# per message where the benchmark says it.
set -u
BUILD=$(cd "${1:-build}" && pwd)
REPS=${2:-3}
MPIRR=$BUILD/bin/mpirr
VCLUSTER=$(cd "$(dirname "$0")/.." && pwd)/scripts/vcluster
# the recording must be on the file system the nodes share, not in a node's /tmp
WORK=$(mktemp -d "$BUILD/cluster-cost.XXXXXX")
trap '"$VCLUSTER" down >/dev/null; rm -rf "$WORK"' EXIT
trap 'exit 143' TERM INT
"$VCLUSTER" up 2 --no-slurm >/dev/null || exit 1

# value KEY LINE: the value after KEY in a bench line
value() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; }
middle() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# bench_line MODE IMPL HOSTS NP PROG ITERS: one run from node 1, its bench line
bench_line() {
    local mode=$1 impl=$2 hosts=$3 np=$4 prog=$5 iters=$6 launch rec=()
    case $impl in
    # 4 ranks on the 2 cores of this machine: Open MPI told that it oversubscribes yields
    # in its waits (as bench/run.sh's runs do); without it each placement crawls
    openmpi) launch=(mpirun.openmpi --mca mpi_yield_when_idle 1 --host "$hosts" -np "$np") ;;
    *) launch=(mpiexec.mpich -hosts "$hosts" -np "$np") ;;
    esac
    # --no-wtime: the benchmarks time themselves with MPI_Wtime
    case $mode in
    record) rec=("$MPIRR" record --no-wtime -o "$WORK/rec") ;;
    races) rec=("$MPIRR" record --no-wtime --mode=races -o "$WORK/rec") ;;
    esac
    rm -rf "$WORK/rec"
    (cd "$WORK" && timeout -k 5 "${BENCH_TIMEOUT:-180}" "$VCLUSTER" run 1 -- "${rec[@]}" "${launch[@]}" "$prog" "$iters") \
        2>"$WORK/err" | grep '^bench ' || { cat "$WORK/err" >&2; echo "bench failed: $mode $impl $hosts $prog" >&2; }
}

printf '| mpi | benchmark | ranks | iterations | nodes (ranks) | native s | record | record races | ns/msg native → record → races |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for impl in ${BENCH_MPIS:-openmpi mpich}; do
    # a message between nodes goes over TCP, some 100 times slower than through shared memory:
    # fewer iterations than bench/run.sh's defaults
    for spec in ${BENCH_SPECS:-recv_bench:4:2000 pingpong:2:20000}; do
        IFS=: read -r name np iters <<<"$spec"
        prog=$BUILD/bench/$impl/$name
        [ -x "$prog" ] || continue
        for nodes in 1 2; do
            if [ "$nodes" = 1 ]; then hosts=mpirr-node1:$np; else hosts=mpirr-node1:$((np / 2)),mpirr-node2:$((np - np / 2)); fi
            declare -A secs=() nsmsg=()
            for mode in native record races; do
                lines=$(for _ in $(seq "$REPS"); do bench_line "$mode" "$impl" "$hosts" "$np" "$prog" "$iters"; done)
                secs[$mode]=$(while read -r l; do value seconds "$l"; done <<<"$lines" | middle)
                nsmsg[$mode]=$(while read -r l; do value ns_per_msg "$l"; done <<<"$lines" | middle)
            done
            ratio() { awk -v a="$1" -v b="${secs[native]}" 'BEGIN {if (a != "" && b > 0) printf "%.3fx", a / b; else print "-"}'; }
            perm=-
            [ -n "${nsmsg[native]}" ] && perm="${nsmsg[native]} → ${nsmsg[record]} → ${nsmsg[races]}"
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$impl" "$name" "$np" "$iters" \
                "$([ "$nodes" = 1 ] && echo "1 ($np)" || echo "2 ($hosts)" | sed 's/mpirr-node//g')" \
                "${secs[native]:--}" "$(ratio "${secs[record]}")" "$(ratio "${secs[races]}")" "$perm"
        done
    done
done
