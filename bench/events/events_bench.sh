#!/bin/bash
# events_bench.sh BUILD_DIR [REPS]: the event history (`mpirr record --events`) on the NAS SP and
# LU communication skeletons, against Table 1 of Hood & Matthews' p2d2 paper. For every MPI
# implementation built and each skeleton, at NP ranks (default 16), side by side in one run:
# the loop time each program measures itself natively, under `mpirr record` and under
# `mpirr record --events` (median of REPS runs each, default 3, the three modes interleaved
# within each rep); then, from the last --events recording, the event count and sizes that
# `mpirr stat --json` reports (its "events" object) and, for comparison, the raw event stream
# of every rank (`mpirr events DIR --raw --rank R`) through `gzip -9`, summed over the ranks.
# Prints a markdown table. Environment: NP (ranks, a perfect square), SP_ITERS / LU_ITERS
# (time steps; default: the programs' own, which depend on the MPI), BENCH_PROGS (default
# "sp_skeleton lu_skeleton"), BENCH_MPIS (default "openmpi mpich", those built; SP_ITERS and
# LU_ITERS apply to each, so set BENCH_MPIS=openmpi with step counts MPICH would take hours
# for), BENCH_TIMEOUT (seconds per run, default 300).
set -u
BUILD=${1:-build}
REPS=${2:-3}
NP=${NP:-16}
MPIRR=$BUILD/bin/mpirr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mpirr-events-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

launcher() { [ "$1" = openmpi ] && echo "mpirun.openmpi -np $2" || echo "mpiexec.mpich -n $2"; }
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; } # value after a key in a bench line
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.3fx", a / b; else print "-"}' || echo -; }

# one_run MODE IMPL PROG [ITERS]: prints the program's bench line (nothing if the run failed).
# The recordings go to $TMP/rec (record) and $TMP/ev (record --events).
one_run() {
    local mode=$1 impl=$2 prog=$3
    shift 3
    read -r -a L <<<"$(launcher "$impl" "$NP")"
    local T=(timeout -k 5 "${BENCH_TIMEOUT:-300}") # a stalled run must not stall the table
    case $mode in
    native) "${T[@]}" "${L[@]}" "$prog" "$@" ;;
    # --no-wtime: the programs time themselves with MPI_Wtime, which would be recorded
    record) rm -rf "$TMP/rec" && "${T[@]}" "$MPIRR" record --no-wtime -o "$TMP/rec" -- "${L[@]}" "$prog" "$@" ;;
    events) rm -rf "$TMP/ev" && "${T[@]}" "$MPIRR" record --no-wtime --events -o "$TMP/ev" -- "${L[@]}" "$prog" "$@" ;;
    esac 2>"$TMP/err" | grep '^bench ' || { cat "$TMP/err" >&2; echo "events_bench: $mode run failed: $impl $prog $*" >&2; }
}

# stat_events DIR: "count raw_bytes compressed_bytes bytes_per_event" from `mpirr stat --json`
# (each "-" when the recording or the "events" object is missing).
stat_events() {
    "$MPIRR" stat --json "$1" 2>"$TMP/err-stat" | python3 -c '
import json, sys
try:
    e = json.load(sys.stdin)["events"]
except Exception:
    e = {}
print(" ".join(str(e.get(k, "-")) for k in ("count", "raw_bytes", "compressed_bytes", "bytes_per_event")))'
}

# gzip_events DIR RAW_BYTES: the raw event streams of ranks 0..NP-1 through gzip -9, bytes summed
# over the ranks ("-" if `mpirr events` fails for a rank). Warns when the raw streams do not add
# up to the raw_bytes of `mpirr stat`.
gzip_events() {
    local dir=$1 statraw=$2 gz=0 raw=0 r
    for ((r = 0; r < NP; r++)); do
        if ! "$MPIRR" events "$dir" --raw --rank "$r" >"$TMP/raw" 2>"$TMP/err-events"; then
            echo "events_bench: mpirr events $dir --raw --rank $r failed: $(head -c 300 "$TMP/err-events")" >&2
            echo -
            return
        fi
        raw=$((raw + $(wc -c <"$TMP/raw")))
        gz=$((gz + $(gzip -9 -c "$TMP/raw" | wc -c)))
    done
    [ "$statraw" != - ] && [ "$raw" != "$statraw" ] &&
        echo "events_bench: the raw streams of $dir add up to $raw bytes, mpirr stat says raw_bytes $statraw" >&2
    echo "$gz"
}

printf '<!-- p2d2 (Hood & Matthews, Table 1, NAS SP 4000 and LU 2500 iterations on 16 processes, zlib): SP 182.4 MB -> 2.5 MB (98.6%%), LU 724.7 MB -> 4.6 MB (99.3%%); largest trace 50.8 M events in 16.28 MB = 0.32 B/event -->\n'
printf '| program | MPI | ranks | iters | native s | events | raw bytes | compressed bytes | bytes/event | compression %% | gzip -9 bytes | record / native | events / native | events / record |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for impl in ${BENCH_MPIS:-openmpi mpich}; do
    [ -d "$BUILD/bench/$impl" ] || continue
    for name in ${BENCH_PROGS:-sp_skeleton lu_skeleton}; do
        prog=$BUILD/bench/$impl/$name
        [ -x "$prog" ] || { echo "events_bench: no $prog (build $BUILD first)" >&2; continue; }
        args=()
        case $name in
        sp_skeleton) [ -n "${SP_ITERS:-}" ] && args=("$SP_ITERS") ;;
        lu_skeleton) [ -n "${LU_ITERS:-}" ] && args=("$LU_ITERS") ;;
        esac
        declare -A secs=()
        iters=-
        nat=() rec=() evs=()
        for r in $(seq "$REPS"); do
            line=$(one_run native "$impl" "$prog" "${args[@]}")
            nat+=("$(field seconds "$line")")
            [ -n "$line" ] && iters=$(field iters "$line")
            line=$(one_run record "$impl" "$prog" "${args[@]}")
            rec+=("$(field seconds "$line")")
            line=$(one_run events "$impl" "$prog" "${args[@]}")
            evs+=("$(field seconds "$line")")
        done
        secs[native]=$(printf '%s\n' "${nat[@]}" | grep . | median)
        secs[record]=$(printf '%s\n' "${rec[@]}" | grep . | median)
        secs[events]=$(printf '%s\n' "${evs[@]}" | grep . | median)
        # a run whose ranks did not load the runtime still prints its bench line: check the recording
        "$MPIRR" stat --json "$TMP/rec" >/dev/null 2>"$TMP/err-stat" ||
            echo "events_bench: the plain recording of $impl $name is not readable: $(head -c 300 "$TMP/err-stat")" >&2
        read -r count raw comp bpe <<<"$(stat_events "$TMP/ev")"
        [ "$count" = - ] && echo "events_bench: no \"events\" in mpirr stat --json $TMP/ev: $(head -c 300 "$TMP/err-stat")" >&2
        gz=$(gzip_events "$TMP/ev" "$raw")
        pct=$(awk -v r="$raw" -v c="$comp" 'BEGIN {if (r + 0 > 0 && c != "-") printf "%.1f", 100 * (1 - c / r); else print "-"}')
        [ "$bpe" != - ] && bpe=$(awk -v x="$bpe" 'BEGIN {printf "%.3f", x}')
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${name%_skeleton}" "$impl" "$NP" \
            "$iters" "${secs[native]:--}" "$count" "$raw" "$comp" "$bpe" "$pct" "$gz" \
            "$(ratio "${secs[record]}" "${secs[native]}")" "$(ratio "${secs[events]}" "${secs[native]}")" \
            "$(ratio "${secs[events]}" "${secs[record]}")"
        unset secs
    done
done
