#!/bin/bash
# nothreads_callgrind.sh BUILD [OLD_BUILD]: "a program with no threads pays nothing" for the
# thread ordering, in instructions: bench/callcost (one rank, one thread) recorded under
# callgrind at two sizes, for each MPI built; the difference of the two runs divided by the
# difference in MPI calls is the instructions per MPI call, in all and in libmpirr.so alone
# (start-up and the log's close cancel out). With OLD_BUILD (a build of another commit, e.g.
# the one before src/runtime/threads/), both builds side by side. Prints a markdown table.
. "$(dirname "$0")/../callgrind_setup.sh" nothreads_callgrind "$@"
SMALL=40000 LARGE=80000

# ir BUILD IMPL ITERS: "calls total_Ir libmpirr_Ir" of one recorded callcost run
ir() {
    local build=$1 impl=$2 iters=$3 L out=$TMP/cg.out line
    [ "$impl" = openmpi ] && L=(mpirun.openmpi -np 1) || L=(mpiexec.mpich -n 1)
    rm -rf "$TMP/rec" "$out"
    line=$(timeout 900 "$build/bin/mpirr" record --no-wtime -o "$TMP/rec" -- "${L[@]}" \
        valgrind --tool=callgrind --callgrind-out-file="$out" "$build/bench/$impl/callcost" "$iters" 2>/dev/null |
        grep '^bench ')
    local calls=$(sed -n 's/.* calls \([0-9]*\).*/\1/p' <<<"$line")
    read -r lib total <<<"$(cg_lib_ir "$out")"
    echo "$calls $total $lib"
}

# per_call BUILD IMPL: "total/call libmpirr/call"
per_call() {
    read -r c1 t1 l1 <<<"$(ir "$1" "$2" $SMALL)"
    read -r c2 t2 l2 <<<"$(ir "$1" "$2" $LARGE)"
    awk -v c1="$c1" -v c2="$c2" -v t1="$t1" -v t2="$t2" -v l1="$l1" -v l2="$l2" \
        'BEGIN {printf "%.1f %.1f", (t2 - t1) / (c2 - c1), (l2 - l1) / (c2 - c1)}'
}

printf '| mpi | build | instructions per MPI call | of which libmpirr |\n|---|---|---|---|\n'
for impl in openmpi mpich; do
    [ -x "$NEW/bench/$impl/callcost" ] || continue
    for b in "$NEW" $OLD; do
        read -r t l <<<"$(per_call "$b" "$impl")"
        printf '| %s | %s | %s | %s |\n' "$impl" "$b" "$t" "$l"
    done
done
