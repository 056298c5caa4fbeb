#!/bin/bash
# file_count.sh BUILD_DIR: files per recording at scale (issue 35). Records bench/scale/
# init_files (a barrier that times its MPI_Init and MPI_Finalize) at NP ranks (default 256,
# oversubscribed) in each of LAYOUTS (default: "plain pack local localpack events"): plain =
# `mpirr record` into DIR; pack = `record --pack` (node packs once the run ended); local =
# `--local` (ranks write into a node-local folder, and move their files into DIR when they end);
# localpack = `--local --pack` (one placement file per node, and each node's files written into
# DIR as its pack after the run); events = `--events` into DIR. Prints a markdown row per layout:
# the files DIR holds at the end (and how many of them are per-rank), the names created in DIR
# and its subfolders while `mpirr record` ran and the renames into them (counted with inotify by
# dir_creations.py: temporaries, placement files and moves included), the wall time of the whole
# `mpirr record`, and the median and largest MPI_Init and MPI_Finalize times of a rank (where a
# rank creates and closes its files). A native run is timed the same way, first. Then, for each
# of PACK_LAYOUTS (default "plain events"; "" skips it), a recording packed with `mpirr pack`
# (node packs, docs/cli/pack.md): the files before and after, and the time `mpirr pack` took.
# Environment: BENCH_MPI (openmpi, the default; or mpich), BENCH_TIMEOUT (seconds per run,
# default 900). docs/benchmarks.md, "Files per recording", has the results.
set -u
BUILD=${1:-build}
NP=${NP:-256}
LAYOUTS=${LAYOUTS:-plain pack local localpack events}
IMPL=${BENCH_MPI:-openmpi}
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/bench/$IMPL/init_files
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
ulimit -n "$(ulimit -Hn)" 2>/dev/null
TMP=$(mktemp -d /tmp/mpirr-file-count.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
case $IMPL in
openmpi) L=(mpirun.openmpi -np "$NP") ;;
mpich) L=(mpiexec.mpich -n "$NP") ;;
*) echo "file_count.sh: unknown MPI $IMPL" >&2; exit 2 ;;
esac
T=(timeout -k 5 "${BENCH_TIMEOUT:-900}")

median() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%.1f", v[int((NR+1)/2)]; else printf "-"}'; }
largest() { sort -n | tail -1; }

# row NAME SECONDS OUTFILE [DIR]
row() {
    local name=$1 secs=$2 out=$3 dir=${4:-} files=- per_rank=- created=- renamed=-
    local init fin_med fin_max
    init=$(sed -n 's/^init_files ranks [0-9]* init_ms \([^ ]*\) \([^ ]*\)$/\1 \/ \2/p' "$out")
    fin_med=$(sed -n 's/^finalize_ms [0-9]* //p' "$out" | median)
    fin_max=$(sed -n 's/^finalize_ms [0-9]* //p' "$out" | largest)
    if [ -n "$dir" ]; then
        files=$(find "$dir" -type f | wc -l)
        per_rank=$(find "$dir" -type f \( -name 'rank-*' -o -name 'sync-*' \) | wc -l)
        read -r _ created _ renamed <"$TMP/creations"
    fi
    echo "| $name | $NP | $files | $per_rank | $created | $renamed | $secs | ${init:--} | ${fin_med:--} / ${fin_max:--} |"
}

# timed OUT ERR COMMAND...: runs it with stdout in OUT and stderr in ERR; prints its seconds.
timed() {
    local out=$1 err=$2 s
    shift 2
    s=$(date +%s.%N)
    "$@" >"$out" 2>"$err"
    printf '%.1f' "$(echo "$(date +%s.%N) - $s" | bc)"
}

echo "$IMPL, $NP ranks of a barrier, oversubscribed on $(nproc) cores"
echo
echo "| layout | ranks | files in DIR at the end | of them per rank | names created in DIR | renames into DIR | mpirr record s | MPI_Init ms median / max | MPI_Finalize ms median / max |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
s=$(timed "$TMP/native.out" "$TMP/native.err" "${T[@]}" "${L[@]}" "$PROG")
row native "$s" "$TMP/native.out"
for layout in $LAYOUTS; do
    rm -rf "$TMP/rec" "$TMP/node"
    case $layout in
    plain) opts=() ;;
    pack) opts=(--pack) ;;
    local) opts=(--local "$TMP/node") ;;
    localpack) opts=(--local "$TMP/node" --pack) ;;
    events) opts=(--events) ;;
    *) echo "file_count.sh: no layout $layout" >&2; continue ;;
    esac
    mkdir "$TMP/rec" # watched from the start (mpirr record takes an empty DIR)
    python3 "$(dirname "$0")/dir_creations.py" "$TMP/rec" >"$TMP/creations" &
    watcher=$!
    until [ -s "$TMP/creations" ]; do sleep 0.1; done # its watch is set: it says so
    s=$(timed "$TMP/$layout.out" "$TMP/$layout.err" "${T[@]}" "$MPIRR" record "${opts[@]}" -o "$TMP/rec" -- "${L[@]}" "$PROG")
    kill -TERM "$watcher"
    wait "$watcher"
    sed -i 1d "$TMP/creations"
    grep -q '^init_files ' "$TMP/$layout.out" || { tail -3 "$TMP/$layout.err" >&2; echo "file_count.sh: $layout failed" >&2; }
    row "$layout" "$s" "$TMP/$layout.out" "$TMP/rec"
done

[ -n "${PACK_LAYOUTS-plain events}" ] || exit 0
echo
echo "| recording | ranks | files in DIR loose | bytes | files in DIR packed | of them per rank | packs | mpirr pack s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for layout in ${PACK_LAYOUTS-plain events}; do
    rm -rf "$TMP/rec"
    case $layout in
    plain) opts=() ;;
    events) opts=(--events) ;;
    *) echo "file_count.sh: no pack layout $layout" >&2; continue ;;
    esac
    "${T[@]}" "$MPIRR" record "${opts[@]}" -o "$TMP/rec" -- "${L[@]}" "$PROG" >"$TMP/p$layout.out" 2>"$TMP/p$layout.err" ||
        { tail -3 "$TMP/p$layout.err" >&2; echo "file_count.sh: pack $layout: the recording failed" >&2; continue; }
    before=$(find "$TMP/rec" -type f | wc -l)
    bytes=$(du -sb "$TMP/rec" | cut -f1)
    sync
    s=$(timed "$TMP/pack$layout.out" "$TMP/pack$layout.err" "$MPIRR" pack "$TMP/rec")
    [ -s "$TMP/pack$layout.err" ] && { cat "$TMP/pack$layout.err" >&2; echo "file_count.sh: mpirr pack $layout failed" >&2; }
    after=$(find "$TMP/rec" -type f | wc -l)
    per_rank=$(find "$TMP/rec" -type f \( -name 'rank-*' -o -name 'sync-*' \) | wc -l)
    packs=$(find "$TMP/rec" -type f -name 'node-*.pack' | wc -l)
    echo "| $layout | $NP | $before | $bytes | $after | $per_rank | $packs | $s |"
done
