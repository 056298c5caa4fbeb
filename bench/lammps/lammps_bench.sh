#!/bin/bash
# lammps_bench.sh BUILD_DIR [REPS]: mpirr on a real code - Debian's LAMMPS (Open MPI build),
# 4 ranks, two inputs (in.melt: a regular LJ melt; in.rcb: a half-full box rebalanced by
# recursive coordinate bisection). For each: LAMMPS's loop time native, recorded (sources
# mode, MPI_Wtime recorded) and recorded with the event history; the sources log's bytes per
# outcome record and the history's bytes per event (mpirr stat). Medians of REPS runs, as a
# markdown table, and the fastest run of each mode against the fastest native one: with 4
# ranks on 2 cores, rcb's loop times fall in two clusters in every mode (0.27 or 0.32 s), so a
# median can land in either and the fastest runs compare like with like. Installs the
# `lammps` package when it is missing and we are root (not in make check: it is large).
set -u
BUILD=${1:-build}
REPS=${2:-3}
MPIRR=$(realpath "$BUILD")/bin/mpirr
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if ! command -v lmp >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lammps >/dev/null || { echo "lammps_bench: cannot install lammps" >&2; exit 1; }
    else
        echo "lammps_bench: skipped: no lmp (apt-get install lammps)"; exit 0
    fi
fi
TMP=$(mktemp -d /tmp/mpirr-lammps-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
fastest() { sort -g | head -n 1; }
loop_time() { sed -n 's/^Loop time of \([0-9.]*\) .*/\1/p' "$1" | tail -1; }
# the total line's value in the column headed NAME of mpirr stat's rank table
stat_total() { "$MPIRR" stat "$1" | awk -v name="$2" '$1 == "rank" {for (i = 1; i <= NF; i++) if ($i == name) c = i} $1 == "total" && c {print $c; exit}'; }

printf '| input | native s | record s (x) | B/record | record --events s (x) | history B/event | fastest: native s, record x, events x |\n|---|---|---|---|---|---|---|\n'
for input in melt rcb; do
    n=() r=() e=() brec=() bev=()
    for rep in $(seq "$REPS"); do
        mpirun -np 4 lmp -in "$HERE/in.$input" -log none >native.out 2>&1
        n+=("$(loop_time native.out)")
        rm -rf rec ev
        "$MPIRR" record -o rec -- mpirun -np 4 lmp -in "$HERE/in.$input" -log none >rec.out 2>&1
        r+=("$(loop_time rec.out)")
        brec+=("$(stat_total rec B/rec)")
        "$MPIRR" record --events -o ev -- mpirun -np 4 lmp -in "$HERE/in.$input" -log none >ev.out 2>&1
        e+=("$(loop_time ev.out)")
        bev+=("$("$MPIRR" stat ev | sed -n 's/^events .*(\([0-9.]*\) B\/event).*/\1/p')")
    done
    N=$(printf '%s\n' "${n[@]}" | median) R=$(printf '%s\n' "${r[@]}" | median) E=$(printf '%s\n' "${e[@]}" | median)
    FN=$(printf '%s\n' "${n[@]}" | fastest) FR=$(printf '%s\n' "${r[@]}" | fastest) FE=$(printf '%s\n' "${e[@]}" | fastest)
    printf '| %s | %s | %s (%.2fx) | %s | %s (%.2fx) | %s | %s, %.2fx, %.2fx |\n' "$input" "$N" "$R" "$(echo "$R / $N" | bc -l)" \
        "$(printf '%s\n' "${brec[@]}" | median)" "$E" "$(echo "$E / $N" | bc -l)" "$(printf '%s\n' "${bev[@]}" | median)" \
        "$FN" "$(echo "$FR / $FN" | bc -l)" "$(echo "$FE / $FN" | bc -l)"
done
