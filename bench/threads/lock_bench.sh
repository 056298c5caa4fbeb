#!/bin/bash
# lock_bench.sh [MPIRR] [IMPL]: ns per lock/unlock pair, uncontended and with 4 threads
# contending, native vs mpirr record vs mpirr replay, side by side in one run; bytes of sync
# log per contended lock.
set -eu
MPIRR=${1:-$(dirname "$0")/../../build/bin/mpirr}
IMPL=${2:-openmpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
case $IMPL in openmpi) CC=mpicc.openmpi L="mpirun.openmpi -np 1" ;; *) CC=mpicc.mpich L="mpiexec.mpich -n 1" ;; esac
$CC -O2 -o "$T/lock_bench" "$(dirname "$0")/lock_bench.c"
PAIRS=1000000
native=$($L "$T/lock_bench" $PAIRS)
record=$("$MPIRR" record -o "$T/rec" -- $L "$T/lock_bench" $PAIRS)
replay=$("$MPIRR" replay "$T/rec" 2>/dev/null)
bytes=$(cat "$T"/rec/sync-*.log "$T"/rec/sync-*.tail | wc -c)
echo "$IMPL native: $native"
echo "$IMPL record: $record"
echo "$IMPL replay: $replay"
echo "$IMPL sync logs: $bytes bytes for $((5 * PAIRS)) lock/unlock pairs ($(ls "$T"/rec/sync-*.log | wc -l) threads)"
