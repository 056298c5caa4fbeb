#!/bin/bash
# make_corpus.sh BUILD_DIR [PREFIX]: regenerates the seed corpora in tests/fuzz/corpus from recordings
# of the test programs (Open MPI, 4 ranks, every mode, with the event history), a run killed
# in races mode (for .pending files), and the analysis tests' hand-built traces. Needs a built
# tree (bin/mpirr, tests/programs, tests/integration/die, mpirr_tracegen). Files are kept
# small (short runs), so the corpus stays well under 1 MB. With PREFIX the seeds are named
# PREFIX-NAME and the older ones stay: the seeds of a new layout beside those of the old.
set -e
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
MPIRR=$BUILD/bin/mpirr
PROGS=$BUILD/tests/programs/openmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
C=$HERE/corpus
mkdir -p "$C/manifest" "$C/rank_log" "$C/pending" "$C/events" "$C/recording"

PREFIX=${2:+$2-}

seed() { # seed NAME RECORDING_DIR [single-files-only]
    local name=$PREFIX$1 dir=$2
    [ -z "$3" ] && "$HERE/pack_recording.py" "$dir" "$C/recording/$name"
    cp "$dir/manifest" "$C/manifest/$name"
    # the single-file targets read rank 0: keep only what they read
    mkdir -p "$TMP/only"
    rm -f "$TMP/only"/*
    cp "$dir"/rank-00000.log "$dir"/rank-00000.tail "$dir"/rank-00000.pending "$TMP/only/" 2>/dev/null || true
    [ -e "$TMP/only/rank-00000.log" ] && "$HERE/pack_recording.py" "$TMP/only" "$C/rank_log/$name"
    rm -f "$TMP/only"/*
    cp "$dir"/rank-00000.events "$dir"/rank-00000.events.tail "$TMP/only/" 2>/dev/null || true
    [ -e "$TMP/only/rank-00000.events" ] && "$HERE/pack_recording.py" "$TMP/only" "$C/events/$name"
    for p in "$dir"/rank-0000[0-3].pending; do
        [ -e "$p" ] && "$HERE/pack_recording.py" --pending "$p" "$C/pending/$name-$(basename "$p" .pending)"
    done
    return 0
}

for prog in wildcard_storm:20 master_worker: persistent_wildcard: multi_comm: icoll_test: cancel_recv: wtime_loop:2; do
    name=${prog%%:*} arg=${prog#*:}
    for mode in sources races; do
        "$MPIRR" record --mode=$mode --events -o "$TMP/$name-$mode" -- \
            mpirun -np 4 "$PROGS/$name" $arg >/dev/null 2>&1 || true
        seed "$name-$mode" "$TMP/$name-$mode"
    done
done
# a races-mode run that dies: its undecided verdicts stay in .pending, its tails uncompressed
"$MPIRR" record --mode=races --events -o "$TMP/die" -- \
    mpirun -np 4 "$BUILD/tests/integration/openmpi/die" segv "$TMP/die.out" >/dev/null 2>&1 || true
seed die-races "$TMP/die" single-files-only # its tails make a 0.5 MB recording seed
# the analysis tests' traces (histories only, known shapes: collectives, communicators)
for script in "$HERE"/../analysis/traces/*.trace; do
    [ -e "$script" ] || continue
    name=trace-$(basename "$script" .trace)
    "$BUILD/tests/analysis/mpirr_tracegen" "$script" "$TMP/$name" >/dev/null 2>&1 && seed "$name" "$TMP/$name"
done
du -sh "$C"
