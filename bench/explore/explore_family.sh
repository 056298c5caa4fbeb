#!/bin/bash
# explore_family.sh [BUILD] [IMPL] [SEEDS] [BUDGET] [NATIVE] [CASES] [NOISE_RUNS]: runs-to-failure of
# mpirr explore's strategies on the explore_rounds family (tests/explore/explore_rounds.c: P
# ranks, R rounds, a bug needing K coordinated wildcard choices in one round, in any round),
# against native reruns and reruns under `mpirr record --noise`. Not part of `make check`.
#  CASES: "P:R:K ..." (default: every P in 4 8, R in 1 20 100, K in 1 2 3).
# For each case and seed 1..SEEDS (the seed picks the bug's order and the random strategy's
# seed): NATIVE (200) native runs (how many crash, and the first that did), reruns under
# --noise 2000 until a crash (at most NOISE_RUNS, default BUDGET), and explore --strategy S --budget BUDGET for S in local dfs random. Prints
# one `bench family ...` line per search and, per case and method, the median and 90th
# percentile of runs to failure over the seeds (">BUDGET" when not found within BUDGET).
# NATIVE=0 or NOISE_RUNS=0 leaves that method out, and STRATEGIES (environment; default
# "local dfs random") picks the strategies: a part of the matrix in less than hours.
# RESULTS (environment; default a temporary file): a TSV that every measurement is appended to as it ends
# (method P R K seed result impl; result: runs to failure, or "none", then "/" the runs allowed;
# for native, the first crashing run, then the crashes "/" the runs), and that a rerun reads back: a measurement
# already there is not made again, so an interrupted matrix resumes where it stopped.
set -eu
BUILD=${1:-build}
IMPL=${2:-openmpi}
SEEDS=${3:-5}
BUDGET=${4:-60}
NATIVE=${5:-200}
NOISE_RUNS=${7:-$BUDGET}
CASES=${6:-"4:1:1 4:1:2 4:1:3 4:20:1 4:20:2 4:20:3 4:100:1 4:100:2 4:100:3 8:1:1 8:1:2 8:1:3 8:20:1 8:20:2 8:20:3 8:100:1 8:100:2 8:100:3"}
STRATEGIES=${STRATEGIES:-local dfs random}
METHODS="$([ "$NATIVE" -eq 0 ] || echo native) $([ "$NOISE_RUNS" -eq 0 ] || echo noise) $STRATEGIES"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/tests/explore/$IMPL/explore_rounds
TMP=$(mktemp -d /tmp/mpirr-ef.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
RESULTS=${RESULTS:-$TMP/results.tsv}
touch "$RESULTS"
# the result of method at P R K seed from RESULTS, or nothing
recorded() { awk -F'\t' -v k="$1 $P $R $K $seed $IMPL" '$1" "$2" "$3" "$4" "$5" "$7 == k { print $6; exit }' "$RESULTS"; }
remember() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$P" "$R" "$K" "$seed" "$2" "$IMPL" >>"$RESULTS"; }
launch() { case $IMPL in openmpi) echo "mpirun.openmpi -np $1" ;; *) echo "mpiexec.mpich -n $1" ;; esac; }

# median and p90 of runs-to-failure (a number, or BUDGET+1 for "not found")
stats() {
    sort -n | awk -v b="$BUDGET" '{ v[NR] = $1 } END {
        m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.9 + 0.999)]
        printf "median %s p90 %s", (m > b ? ">" b : m), (p > b ? ">" b : p) }'
}

for c in $CASES; do
    IFS=: read -r P R K <<<"$c"
    L=$(launch "$P")
    for method in $METHODS; do : >"$TMP/$method"; done
    for ((seed = 1; seed <= SEEDS; seed++)); do
        if [ "$NATIVE" -gt 0 ] && [ -z "$(recorded native)" ]; then
            crashed=0 first=none
            for ((i = 1; i <= NATIVE; i++)); do
                $L "$PROG" "$R" "$K" "$seed" >/dev/null 2>&1 && continue
                crashed=$((crashed + 1))
                [ "$first" != none ] || first=$i
            done
            echo "bench family native impl $IMPL P $P R $R K $K seed $seed runs $NATIVE crashed $crashed first $first"
            remember native "$first $crashed/$NATIVE"
        fi
        n=$(recorded native); [ -z "$n" ] || { [ "${n%% *}" = none ] && echo $((BUDGET + 1)) || echo "${n%% *}"; } >>"$TMP/native"
        if [ "$NOISE_RUNS" -gt 0 ] && [ -z "$(recorded noise)" ]; then
            n=none
            for ((i = 1; i <= NOISE_RUNS; i++)); do
                rm -rf "$TMP/n"
                if ! "$MPIRR" record --noise 2000 -o "$TMP/n" -- $L "$PROG" "$R" "$K" "$seed" \
                    >/dev/null 2>&1; then n=$i; break; fi
            done
            echo "bench family noise impl $IMPL P $P R $R K $K seed $seed runs_to_failure $n"
            remember noise "$n/$NOISE_RUNS"
        fi
        n=$(recorded noise); [ -z "$n" ] || { [ "${n%%/*}" = none ] && echo $((BUDGET + 1)) || echo "${n%%/*}"; } >>"$TMP/noise"
        for s in $STRATEGIES; do
            if [ -z "$(recorded "$s")" ]; then
                rm -rf "$TMP/e"
                "$MPIRR" explore --strategy $s --seed "$seed" --budget "$BUDGET" -o "$TMP/e" -- \
                    $L "$PROG" "$R" "$K" "$seed" >"$TMP/e.out" 2>&1 || true
                line=$(grep '^explore: ' "$TMP/e.out" || echo "explore: 0 runs")
                n=$(sed -n 's/.* run \([0-9]*\) ended otherwise.*/\1/p' <<<"$line")
                echo "bench family explore impl $IMPL P $P R $R K $K seed $seed strategy $s runs_to_failure ${n:-none}"
                remember "$s" "${n:-none}/$BUDGET"
            fi
            n=$(recorded "$s")
            [ "${n%%/*}" = none ] && echo $((BUDGET + 1)) >>"$TMP/$s" || echo "${n%%/*}" >>"$TMP/$s"
        done
    done
    for method in $METHODS; do
        echo "bench family summary impl $IMPL P $P R $R K $K method $method seeds $SEEDS $(stats <"$TMP/$method")"
    done
done
