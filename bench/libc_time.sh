#!/bin/bash
# libc_time.sh BUILD_DIR [REPS]: ns per libc call seen by the application (bench/libc_time.c),
# native (mpirr run: the library preloaded, inert outside MPI), recorded (time recorded, getpid
# too with --libc-pid; getpid without it passes through), replayed (replay: of the --libc-pid
# recording; replay-live-pid: of the other, where getpid gets live values and is counted for the
# verdict). Medians of REPS runs, one rank, as a markdown table.
set -u
BUILD=${1:-build}
REPS=${2:-3}
MPIRR=$BUILD/bin/mpirr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mpirr-libc-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '| mpi | mode | ns/clock_gettime | ns/time | ns/getpid | log bytes per call |\n|---|---|---|---|---|---|\n'
for impl in openmpi mpich; do
    prog=$BUILD/bench/$impl/libc_time
    [ -x "$prog" ] || continue
    [ "$impl" = openmpi ] && L=(mpirun.openmpi -np 1) || L=(mpiexec.mpich -n 1)
    for mode in native record record-pid replay replay-live-pid; do
        c=() t=() p=() per=-
        for r in $(seq "$REPS"); do
            case $mode in
            native) line=$("$prog" 2>/dev/null | grep '^bench ') ;;
            record) rm -rf "$TMP/rec"; line=$("$MPIRR" record -o "$TMP/rec" -- "${L[@]}" "$prog" 2>/dev/null | grep '^bench ') ;;
            record-pid) rm -rf "$TMP/recp"; line=$("$MPIRR" record --libc-pid -o "$TMP/recp" -- "${L[@]}" "$prog" 2>/dev/null | grep '^bench ') ;;
            replay) line=$("$MPIRR" replay "$TMP/recp" 2>/dev/null | grep '^bench ') ;;
            replay-live-pid) line=$("$MPIRR" replay "$TMP/rec" 2>/dev/null | grep '^bench ') ;;
            esac
            c+=("$(field ns_clock_gettime "$line")") t+=("$(field ns_time "$line")") p+=("$(field ns_getpid "$line")")
        done
        [ "$mode" = record-pid ] && per=$(awk -v b="$(cat "$TMP"/recp/rank-*.log | wc -c)" 'BEGIN {printf "%.3f", (b - 768) / 6000000}')
        printf '| %s | %s | %s | %s | %s | %s |\n' "$impl" "$mode" "$(printf '%s\n' "${c[@]}" | median)" \
            "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${p[@]}" | median)" "$per"
    done
done
