#!/bin/bash
# lock_bench.sh [BUILD_DIR] [REPS]: what ordering a rank's thread synchronizations costs, on
# every MPI implementation installed (one rank): lock_bench.c's scenarios - uncontended
# lock/unlock pairs, 4 threads contending for one mutex, a producer and 2 consumers on a
# condition variable - native, under `mpirr record` and under `mpirr replay` of that
# recording, side by side in each repetition. Prints a markdown table: medians of REPS
# (default 5) with [min-max], record and replay ratios to native, and bytes of sync logs
# (DIR/sync-*.log, without their 768-byte file headers) per mutex acquisition (median).
# The program times itself with clock_gettime, so the recording is made with --no-libc-time
# (else the replay would print the recorded times). LOCK_BENCH_SCENARIOS (default "uncontended
# contended prodcons") picks some of them.
set -u
BUILD=${1:-build}
REPS=${2:-5}
MPIRR=$BUILD/bin/mpirr
HERE=$(dirname "$0")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mpirr-lockbench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
[ -x "$MPIRR" ] || { echo "lock_bench: no $MPIRR (build first)" >&2; exit 1; }

field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; } # value after a key in a bench line
# stats: "median [min-max]" of the numbers on stdin
stats() { sort -g | awk '{a[NR]=$1} END {printf "%s [%s-%s]", a[int((NR+1)/2)], a[1], a[NR]}'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# one IMPL MODE SCENARIO SIZE: the program's bench line (a failed run says so on stderr)
one() {
    local impl=$1 mode=$2 what=$3 size=$4 L
    [ "$impl" = openmpi ] && L=(mpirun.openmpi -np 1) || L=(mpiexec.mpich -n 1)
    local T=(timeout -k 5 "${BENCH_TIMEOUT:-300}")
    case $mode in
    native) "${T[@]}" "${L[@]}" "$TMP/lock_bench.$impl" "$what" "$size" ;;
    record) rm -rf "$TMP/rec" && "${T[@]}" "$MPIRR" record --no-libc-time -o "$TMP/rec" -- \
        "${L[@]}" "$TMP/lock_bench.$impl" "$what" "$size" ;;
    replay) "${T[@]}" "$MPIRR" replay "$TMP/rec" ;;
    esac 2>"$TMP/err" | grep '^bench ' || { cat "$TMP/err" >&2; echo "lock_bench failed: $impl $mode $what" >&2; }
}

# sync log bytes of the last recording, without the file headers
sync_bytes() {
    local total=0 files=0 f
    for f in "$TMP"/rec/sync-*.log; do
        [ -e "$f" ] || continue
        total=$((total + $(stat -c %s "$f"))) files=$((files + 1))
    done
    echo $((total - 768 * files))
}

printf '| mpi | scenario | acquisitions | native ns/acq | record ns/acq | replay ns/acq | record | replay | sync log B/acq |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for impl in openmpi mpich; do
    cc=mpicc.$impl
    command -v "$cc" >/dev/null || continue
    "$cc" -O2 -o "$TMP/lock_bench.$impl" "$HERE/lock_bench.c" -lpthread || exit 1
    for spec in uncontended:2000000 contended:250000 prodcons:100000; do
        what=${spec%:*} size=${spec#*:}
        [[ " ${LOCK_BENCH_SCENARIOS:-uncontended contended prodcons} " == *" $what "* ]] || continue
        declare -A ns=() secs=()
        bpa=() acq=0
        for r in $(seq "$REPS"); do
            for mode in native record replay; do
                line=$(one "$impl" "$mode" "$what" "$size")
                ns[$mode]+="$(field ns_per_pair "$line") "
                secs[$mode]+="$(field seconds "$line") "
                acq=$(field acquisitions "$line")
                [ "$mode" = record ] && bpa+=("$(awk -v b="$(sync_bytes)" -v a="$acq" 'BEGIN {printf "%.4f", b / a}')")
            done
        done
        col() { tr ' ' '\n' <<<"${ns[$1]}" | grep . | stats; }
        ratio() { # median of the per-repetition ratios mode/native
            paste <(tr ' ' '\n' <<<"${secs[$1]}" | grep .) <(tr ' ' '\n' <<<"${secs[native]}" | grep .) |
                awk '{printf "%.3f\n", $1 / $2}' | stats
        }
        printf '| %s | %s | %s | %s | %s | %s | %sx | %sx | %s |\n' "$impl" "$what" "$acq" \
            "$(col native)" "$(col record)" "$(col replay)" "$(ratio record)" "$(ratio replay)" \
            "$(printf '%s\n' "${bpa[@]}" | median)"
    done
done
