#!/bin/bash
# replay_callgrind.sh BUILD [OLD_BUILD]: what a replay costs per call, in instructions: rank 0 of
# bench/pingpong (8 bytes, named sources: nothing recorded, so a replayed call does only the
# per-call work, its stop check and progress store among it) recorded at two sizes and replayed
# under callgrind (`mpirr replay --no-exe-check ... -- LAUNCHER valgrind ...`); the difference
# over the difference in round trips is one round trip (two calls), start-up, the connection to
# mpirr and the end cancelling out. libmpirr's instructions as races_callgrind.sh counts them
# (cg_lib_ir), all of the rank's threads together (the control thread's reports included).
# With OLD_BUILD (a build of another commit), both side by side. Prints a markdown table.
. "$(dirname "$0")/callgrind_setup.sh" replay_callgrind "$@"
SMALL=10000 LARGE=30000

# ir BUILD IMPL ROUNDS: libmpirr's instructions in rank 0 of one replayed ping-pong
ir() {
    local build=$1 impl=$2 rounds=$3 L
    [ "$impl" = openmpi ] && L=(mpirun.openmpi -np 2) || L=(mpiexec.mpich -n 2)
    rm -rf "$TMP/rec" "$TMP"/cg.*
    timeout 900 "$build/bin/mpirr" record --no-wtime -o "$TMP/rec" -- "${L[@]}" \
        "$build/bench/$impl/pingpong" "$rounds" >/dev/null 2>&1
    timeout 900 "$build/bin/mpirr" replay --no-exe-check "$TMP/rec" -- "${L[@]}" \
        valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.%p" \
        "$build/bench/$impl/pingpong" "$rounds" >/dev/null 2>&1
    local out lib
    out=$(ls "$TMP"/cg.* | sort -t. -k2 -n | head -1) # the lower pid is rank 0
    read -r lib _ <<<"$(cg_lib_ir "$out" 'sync_wrappers|sync_order|libc_interpose')"
    echo "$lib"
}

printf '| mpi | build | libmpirr instructions per replayed round trip |\n|---|---|---|\n'
for impl in openmpi mpich; do
    [ -x "$NEW/bench/$impl/pingpong" ] || continue
    for b in "$NEW" $OLD; do
        l1=$(ir "$b" "$impl" $SMALL)
        l2=$(ir "$b" "$impl" $LARGE)
        printf '| %s | %s | %s |\n' "$impl" "$b" "$(awk -v a="$l1" -v b="$l2" -v d=$((LARGE - SMALL)) 'BEGIN {printf "%.1f", (b - a) / d}')"
    done
done
