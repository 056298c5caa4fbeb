#!/bin/bash
# rank_memory.sh BUILD_DIR: memory per rank at scale (issue 35). Runs bench/scale/rank_memory
# (a barrier, a wildcard ring and COMMS communicators kept to the end) natively and under
# `mpirr record --mode sources` and `--mode races`, at each rank count of RANKS (default
# "16 64 256") with COMMS communicators (default 8), and once more at the middle rank count with
# MORE_COMMS (default 40), so that the cost of a communicator shows apart from that of a rank.
# One run per cell: heap is counted exactly, not timed. Prints a markdown table: per rank, the
# median heap (mallinfo2) natively and what mpirr adds to it in each mode, and the median
# VmHWM natively and what mpirr adds (the whole process: its libraries, log buffers and
# mapped files). Environment: BENCH_MPI (openmpi, the default, oversubscribed; or mpich),
# BENCH_TIMEOUT (seconds per run, default 600). docs/benchmarks.md has the model fitted to it.
set -u
BUILD=${1:-build}
RANKS=${RANKS:-16 64 256}
COMMS=${COMMS:-8}
MORE_COMMS=${MORE_COMMS:-40}
IMPL=${BENCH_MPI:-openmpi}
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/bench/$IMPL/rank_memory
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
ulimit -n "$(ulimit -Hn)" 2>/dev/null # a few descriptors per rank in mpirun at 256 ranks
TMP=$(mktemp -d /tmp/mpirr-rank-memory.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
[ -x "$PROG" ] || { echo "rank_memory.sh: $PROG is not built" >&2; exit 2; }

launcher() { [ "$IMPL" = openmpi ] && echo "mpirun.openmpi -np $1" || echo "mpiexec.mpich -n $1"; }
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; } # the median after a key in the line
delta() { [ -n "$1" ] && [ -n "$2" ] && echo $(($1 - $2)) || echo -; }

# one_run MODE NP NCOMMS: rank 0's rank_memory line (nothing if the run failed).
one_run() {
    local mode=$1 np=$2 nc=$3
    read -r -a L <<<"$(launcher "$np")"
    local T=(timeout -k 5 "${BENCH_TIMEOUT:-600}")
    case $mode in
    native) "${T[@]}" "${L[@]}" "$PROG" "$nc" ;;
    *) rm -rf "$TMP/rec" && "${T[@]}" "$MPIRR" record --mode "$mode" -o "$TMP/rec" -- "${L[@]}" "$PROG" "$nc" ;;
    esac 2>"$TMP/err" | grep '^rank_memory ' ||
        { tail -5 "$TMP/err" >&2; echo "rank_memory.sh: $mode run failed at $np ranks" >&2; }
}

row() {
    local np=$1 nc=$2 n s r
    n=$(one_run native "$np" "$nc")
    s=$(one_run sources "$np" "$nc")
    r=$(one_run races "$np" "$nc")
    local nh sh rh nw sw rw
    nh=$(field heap_kib "$n") sh=$(field heap_kib "$s") rh=$(field heap_kib "$r")
    nw=$(field hwm_kib "$n") sw=$(field hwm_kib "$s") rw=$(field hwm_kib "$r")
    echo "| $np | $nc | ${nh:--} | $(delta "$sh" "$nh") | $(delta "$rh" "$nh") | ${nw:--} | $(delta "$sw" "$nw") | $(delta "$rw" "$nw") |"
}

echo "$IMPL: per rank, median over the ranks, KiB; +: what mpirr adds to the native run"
echo
echo "| ranks | comms | heap native | heap +sources | heap +races | VmHWM native | VmHWM +sources | VmHWM +races |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
read -r -a R <<<"$RANKS"
for np in "${R[@]}"; do row "$np" "$COMMS"; done
row "${R[$((${#R[@]} / 2))]}" "$MORE_COMMS"
