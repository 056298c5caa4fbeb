#!/bin/bash
# session_bench.sh [BUILD] [IMPL] [STEPS]: what a replay session costs on the 16-rank NAS SP
# skeleton (bench/events), side by side in one run: the full replay's time; the time from
# `mpirr replay --stop` (a stopline half-way through rank 5's events) to the prompt; the time
# of an `undo` (re-execution to the previous stopline); and `continue` from there to the end.
# Prints one `bench session` line with the seconds and the ratios to the full replay.
set -eu
BUILD=${1:-build}
IMPL=${2:-openmpi}
STEPS=${3:-400}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/bench/$IMPL/sp_skeleton
case $IMPL in openmpi) LAUNCH="mpirun.openmpi -np 16" ;; *) LAUNCH="mpiexec.mpich -n 16" ;; esac
TMP=$(mktemp -d /tmp/mpirr-sb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }

"$MPIRR" record --events -o "$TMP/rec" -- $LAUNCH "$PROG" "$STEPS" >/dev/null 2>&1
events=$("$MPIRR" events "$TMP/rec" --rank 5 | tail -1 | cut -d' ' -f1 | cut -d: -f2)
half=$((events / 2))
early=$((events / 4))

t0=$(now)
"$MPIRR" replay "$TMP/rec" >/dev/null 2>&1
t1=$(now)
# the session: stop at a quarter of rank 5's events, continue to half of them, undo (back to
# the quarter by re-execution), continue to the end; mpirr says how long each (re)launch took
# to reach its stopline
{
    printf 'continue 5:%s\n' "$half"
    printf 'undo\n'
    printf 'continue\n'
} | "$MPIRR" replay --stop 5:"$early" "$TMP/rec" >"$TMP/session.out" 2>"$TMP/session.err"
grep -q "every rank is at the stopline" "$TMP/session.out" || { cat "$TMP/session.out" "$TMP/session.err" >&2; exit 1; }
# seconds from each (re)launch to its stopline, as the session reports them
mapfile -t arrive < <(grep -o 'at the stopline ([0-9.]* s' "$TMP/session.out" | grep -o '[0-9.]*')
full=$(echo "$t1 - $t0" | bc -l)
printf 'bench session impl %s ranks 16 steps %s events_rank5 %s full_replay_s %.3f to_prompt_s %.3f undo_s %.3f prompt_ratio %.3f undo_ratio %.3f\n' \
    "$IMPL" "$STEPS" "$events" "$full" "${arrive[0]}" "${arrive[1]}" \
    "$(echo "${arrive[0]} / $full" | bc -l)" "$(echo "${arrive[1]} / $full" | bc -l)"
