#!/bin/bash
# run.sh BUILD_DIR [REPS]: native vs record vs replay, side by side in one run, for every
# benchmark on every MPI implementation built, in sources mode and in races mode. BENCH_SPECS="name:ranks ..." picks others.
# Prints a markdown table: the loop time each
# benchmark measures itself (median of REPS runs), its ratio to native, log bytes per
# nondeterministic event, and for the ping-pong the cost per message in ns.
set -u
BUILD=${1:-build}
REPS=${2:-3}
MPIRR=$BUILD/bin/mpirr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mpirr-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

launcher() { [ "$1" = openmpi ] && echo "mpirun.openmpi -np $2" || echo "mpiexec.mpich -n $2"; }
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; } # value after a key in a bench line
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# one_run MODE IMPL NP PROG: prints the program's bench line.
one_run() {
    local mode=$1 impl=$2 np=$3 prog=$4
    read -r -a L <<<"$(launcher "$impl" "$np")"
    local T=(timeout -k 5 "${BENCH_TIMEOUT:-180}") # a stalled run must not stall the table
    case $mode in
    native) "${T[@]}" "${L[@]}" "$prog" ;;
    run) "${T[@]}" "$MPIRR" run -- "${L[@]}" "$prog" ;;
    # --no-wtime: the benchmarks time themselves with MPI_Wtime, which replay would replay
    record) rm -rf "$TMP/rec" && "${T[@]}" "$MPIRR" record --no-wtime -o "$TMP/rec" -- "${L[@]}" "$prog" ;;
    replay) "${T[@]}" "$MPIRR" replay "$TMP/rec" ;;
    races) rm -rf "$TMP/rec-races" && "${T[@]}" "$MPIRR" record --no-wtime --mode=races -o "$TMP/rec-races" -- "${L[@]}" "$prog" ;;
    replay-races) "${T[@]}" "$MPIRR" replay "$TMP/rec-races" ;;
    esac 2>"$TMP/err" | grep '^bench ' || { cat "$TMP/err" >&2; echo "bench failed: $mode $prog" >&2; }
}

printf '| mpi | benchmark | ranks | native s | preloaded | record | replay | record races | replay races | ND events | log B/ND event | races: logged / wildcard recvs, B/header | ns/call native → record | ns/msg native → record → races | ns/wildcard recv native → record → replay |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for impl in openmpi mpich; do
    [ -d "$BUILD/bench/$impl" ] || continue
    for spec in ${BENCH_SPECS:-callcost:1 pingpong:2 recv_bench:4 iprobe_bench:4 master_worker_bench:4}; do
        name=${spec%:*} np=${spec#*:}
        prog=$BUILD/bench/$impl/$name
        [ -x "$prog" ] || continue
        # Debian's MPICH (ch4:ucx) stalls for seconds to minutes with 4 ranks polling MPI_Iprobe
        # on 2 oversubscribed cores, natively too; run it only when asked (BENCH_MPICH_IPROBE=1).
        [ "$impl/$name" = mpich/iprobe_bench ] && [ -z "${BENCH_MPICH_IPROBE:-}" ] && continue
        declare -A secs=() ns=() nc=() nw=()
        racesinfo=-
        line=""
        for mode in native run record replay races replay-races; do
            vals=() nsv=() ncv=() nwv=()
            for r in $(seq "$REPS"); do
                # replay needs a recording: record again before each replay rep
                [ "$mode" = replay ] && one_run record "$impl" "$np" "$prog" >/dev/null
                [ "$mode" = replay-races ] && one_run races "$impl" "$np" "$prog" >/dev/null
                line=$(one_run "$mode" "$impl" "$np" "$prog")
                vals+=("$(field seconds "$line")")
                nsv+=("$(field ns_per_msg "$line")")
                ncv+=("$(field ns_per_call "$line")")
                nwv+=("$(field ns_per_wild "$line")")
            done
            secs[$mode]=$(printf '%s\n' "${vals[@]}" | median)
            ns[$mode]=$(printf '%s\n' "${nsv[@]}" | median)
            nc[$mode]=$(printf '%s\n' "${ncv[@]}" | median)
            nw[$mode]=$(printf '%s\n' "${nwv[@]}" | median)
            [ "$mode" = record ] && {
                nd=$(field nd_events "$line")
                bytes=$(cat "$TMP"/rec/rank-*.log | wc -c)
                hdr=$(( $(ls "$TMP"/rec/rank-*.log | wc -l) * 768 ))
            }
            [ "$mode" = races ] && racesinfo=$("$MPIRR" stat --json "$TMP/rec-races" | python3 -c '
import json, sys
t = json.load(sys.stdin)["total"]
pb = t.get("piggyback_bytes_per_message")
print("%d / %d, %s" % (t["entries_logged"], t["wildcard_receives"], "-" if pb is None else "%.1f" % pb))')
        done
        ratio() { awk -v a="$1" -v b="${secs[native]}" 'BEGIN {printf "%.3fx", a / b}'; }
        perev=$(awk -v b="$bytes" -v h="$hdr" -v n="$nd" 'BEGIN {if (n > 0) printf "%.2f", (b - h) / n; else print "-"}')
        delta() { [ -n "$1" ] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f → %.1f (%+.1f)", a, b, b - a}' || echo -; }
        wild=-
        [ -n "${nw[native]}" ] && wild="${nw[native]} → ${nw[record]} → ${nw[replay]}"
        msg=-
        [ -n "${ns[native]}" ] && msg="${ns[native]} → ${ns[record]} → ${ns[races]}"
        printf '| %s | %s | %s | %.4f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$impl" "$name" "$np" \
            "${secs[native]}" "$(ratio "${secs[run]}")" "$(ratio "${secs[record]}")" \
            "$(ratio "${secs[replay]}")" "$(ratio "${secs[races]}")" "$(ratio "${secs[replay-races]}")" \
            "$nd" "$perev" "$racesinfo" "$(delta "${nc[native]}" "${nc[record]}")" "$msg" "$wild"
    done
done

# libc values (docs/runtime.md, "Nondeterminism outside MPI"): ns per call native, recorded, replayed
"$(dirname "$0")/libc_time.sh" "$BUILD" "$REPS"
