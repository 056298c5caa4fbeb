#!/bin/bash
# explore_bench.sh [BUILD] [IMPL] [NATIVE] [SEARCHES]: what mpirr explore costs and gains, on
# tests/explore/explore_crash (4 ranks; crashes only when a round's order is 3 2 1, which its
# staggered senders never take natively):
#  - native: NATIVE (200) runs of the program without mpirr, and how many of them crash;
#  - search: SEARCHES (3) explores until the crash; the runs each needed;
#  - rate: explore --all --budget 20 on the same program without its crash ("safe"): explored
#    runs per minute, and disk per explored run (du of the run directories / runs).
# Prints `bench explore ...` lines.
set -eu
BUILD=${1:-build}
IMPL=${2:-openmpi}
NATIVE=${3:-200}
SEARCHES=${4:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/tests/explore/$IMPL/explore_crash
case $IMPL in openmpi) LAUNCH="mpirun.openmpi -np 4" ;; *) LAUNCH="mpiexec.mpich -n 4" ;; esac
TMP=$(mktemp -d /tmp/mpirr-eb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }

crashes=0
t0=$(now)
for ((i = 0; i < NATIVE; i++)); do
    if ! $LAUNCH "$PROG" >"$TMP/native.out" 2>/dev/null; then
        crashes=$((crashes + 1))
    fi
done
t1=$(now)
printf 'bench explore native impl %s runs %d crashed %d seconds_per_run %.3f\n' "$IMPL" "$NATIVE" \
    "$crashes" "$(echo "($t1 - $t0) / $NATIVE" | bc -l)"

for ((i = 0; i < SEARCHES; i++)); do
    t0=$(now)
    "$MPIRR" explore --budget 200 -o "$TMP/search$i" -- $LAUNCH "$PROG" >"$TMP/search.out" 2>&1 || true # 1: it found the crash
    t1=$(now)
    line=$(grep '^explore: ' "$TMP/search.out")
    runs=$(sed 's/^explore: \([0-9]*\) run.*/\1/' <<<"$line")
    found=$(grep -q 'ended otherwise' <<<"$line" && echo yes || echo no)
    printf 'bench explore search impl %s found %s runs %s seconds %.1f\n' "$IMPL" "$found" "$runs" \
        "$(echo "$t1 - $t0" | bc -l)"
    rm -rf "$TMP/search$i"
done

t0=$(now)
"$MPIRR" explore --all --budget 20 -o "$TMP/rate" -- $LAUNCH "$PROG" 2 safe >"$TMP/rate.out" 2>&1
t1=$(now)
runs=$(sed -n 's/^explore: \([0-9]*\) run.*/\1/p' "$TMP/rate.out")
bytes=$(du -sb "$TMP"/rate/run-* | awk '{ s += $1 } END { print s }')
printf 'bench explore rate impl %s ranks 4 runs %s seconds %.1f runs_per_minute %.1f bytes_per_run %d\n' \
    "$IMPL" "$runs" "$(echo "$t1 - $t0" | bc -l)" "$(echo "60 * $runs / ($t1 - $t0)" | bc -l)" \
    "$((bytes / runs))"
