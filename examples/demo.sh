#!/bin/bash
# demo.sh BUILD_DIR: the `make demo` walk-through. Runs the bundled nondeterministic example
# (racey_reduce: rank 0 sums partial results in arrival order, so the last digits change from
# run to run) natively a few times, records one run, replays it, and shows `mpirr stat`; then
# the same in races mode, which logs only the receives that raced; then the event history of
# a run (every MPI call of every rank).
set -eu
BUILD=${1:-build}
MPIRR=$BUILD/bin/mpirr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
if [ -x "$BUILD/examples/openmpi/racey_reduce" ]; then
    impl=openmpi LAUNCH=(mpirun.openmpi -np 4)
else
    impl=mpich LAUNCH=(mpiexec.mpich -n 4)
fi
APP=$BUILD/examples/$impl/racey_reduce
REC=$BUILD/demo-recording
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "native runs of ${LAUNCH[*]} $APP: the arrival order and the sum change"
for i in 1 2 3; do "$MPIRR" run --noise 300 -- "${LAUNCH[@]}" "$APP" | sed 's/^/  /'; done

say "mpirr record -o $REC -- ${LAUNCH[*]} $APP"
rm -rf "$REC"
"$MPIRR" record -o "$REC" -- "${LAUNCH[@]}" "$APP" | tee "$REC.out" | sed 's/^/  /'

say "mpirr replay $REC (3 times, with random delays injected around every MPI call)"
for i in 1 2 3; do
    "$MPIRR" replay --noise 300 "$REC" >"$REC.replay"
    sed 's/^/  /' "$REC.replay"
    if cmp -s "$REC.out" "$REC.replay"; then echo "  -> identical to the recording"; else
        echo "  -> DIFFERENT from the recording" >&2
        exit 1
    fi
done

say "mpirr stat $REC"
"$MPIRR" stat "$REC"

say "mpirr record --mode=races: timestamps on every message, only racing receives logged"
rm -rf "$REC"
"$MPIRR" record --mode=races -o "$REC" -- "${LAUNCH[@]}" "$APP" | tee "$REC.out" | sed 's/^/  /'
"$MPIRR" replay --noise 300 "$REC" >"$REC.replay"
sed 's/^/  /' "$REC.replay"
if cmp -s "$REC.out" "$REC.replay"; then echo "  -> replay identical to the recording"; else
    echo "  -> DIFFERENT from the recording" >&2
    exit 1
fi
"$MPIRR" stat "$REC" | grep -E '^(mode|messages|races) '

say "mpirr record --mode=races --events: the event history, every MPI call of every rank (rank 0's first calls)"
rm -rf "$REC"
"$MPIRR" record --mode=races --events -o "$REC" -- "${LAUNCH[@]}" "$APP" >"$REC.out"
"$MPIRR" events "$REC" --rank 0 | grep -v '^#' | head -8 | sed 's/^/  /'
"$MPIRR" stat "$REC" | grep -E '^events '
"$MPIRR" events "$REC" --check | sed 's/^/  /'

say "mpirr races $REC: every receive that could have got another message, by source line"
"$MPIRR" races "$REC" | sed 's/^/  /'
say "mpirr replay --stop: a session, scripted through stdin (where, step, undo, continue)"
E=$("$MPIRR" events "$REC" --rank 0 | awk -F'[: ]' '/peer=any/ { if (++n == 2) { print $2; exit } }')
printf 'where\nstep 0\nundo\ncontinue\n' | "$MPIRR" replay --stop 0:"$E" "$REC" 2>&1 | sed 's/^/  /'
rm -f "$REC.out" "$REC.replay"
