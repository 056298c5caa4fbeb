#!/bin/bash
# undo_bench.sh [BUILD] [IMPL] [ROUNDS] [REPS]: what `undo` costs against the stopline's position, on
# wildcard_storm (4 ranks, ROUNDS rounds) recorded with its event history. For stoplines early,
# middle and late in rank 0's events (1/10, 1/2, 9/10): the wall time from the session's start
# to its first prompt (reaching the stopline once), and the wall time of an `undo` back to it
# (from a stopline one event further on: the session's `undo` line to its next prompt, the old
# job's teardown and the relaunch included). One `bench undo` line per stopline with both and
# their ratio (undo / reach once); the issue asks for at most 1 plus a small constant. Where an
# undo's time goes, from mpirr's children (polled every 10 ms) and the session's lines, all
# from the `undo` line: launch_s, when the new launcher appeared; stop_s, when every rank of
# the new job was at the stopline; old_end_s, when the old launcher was gone (reaped). With REPS > 1 each stopline's session runs REPS times,
# one `bench undo` line each, and a `bench undo median` line per stopline follows (a loaded
# machine moves single runs by tenths of a second).
set -eu
BUILD=${1:-build}
IMPL=${2:-openmpi}
ROUNDS=${3:-400}
REPS=${4:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRR=$BUILD/bin/mpirr
PROG=$BUILD/tests/programs/$IMPL/wildcard_storm
case $IMPL in openmpi) LAUNCH="mpirun.openmpi -np 4" ;; *) LAUNCH="mpiexec.mpich -n 4" ;; esac
TMP=$(mktemp -d /tmp/mpirr-ub.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }

"$MPIRR" record --events -o "$TMP/rec" -- $LAUNCH "$PROG" "$ROUNDS" >/dev/null 2>&1
events=$("$MPIRR" events "$TMP/rec" --rank 0 | tail -1 | cut -d' ' -f1 | cut -d: -f2)
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for part in early:10 middle:50 late:90; do
    stopname=${part%%:*}
    for rep in $(seq "$REPS"); do
        name=$stopname.$rep
        e=$((events * ${part#*:} / 100))
        # each output line stamped with the time it arrived; commands echo as they are read, once
        # the previous one is done
        t0=$(now)
        (
            printf 'continue 0:%s\nundo\nquit\n' $((e + 1)) |
                "$MPIRR" replay --stop 0:"$e" "$TMP/rec" 2>&1 &
            mpirr=$!
            # mpirr's children (launchers), stamped: when the new job starts and the old one ends
            while kill -0 "$mpirr" 2>/dev/null; do
                echo "$(now) $(pgrep -P "$mpirr" | tr '\n' ' ')"
                sleep 0.01
            done >"$TMP/$name.kids" &
            wait
        ) | while IFS= read -r line; do printf '%s %s\n' "$(now)" "$line"; done >"$TMP/$name.out"
        stamp() { awk -v w="$1" 'index($0, w) { print $1; exit }' "$TMP/$name.out"; }
        first=$(stamp '(mpirr) continue') undo=$(stamp '(mpirr) undo') back=$(stamp '(mpirr) quit')
        [ -n "$first" ] && [ -n "$undo" ] && [ -n "$back" ] || { cat "$TMP/$name.out" >&2; exit 1; }
        reach=$(echo "$first - $t0" | bc -l)
        took=$(echo "$back - $undo" | bc -l)
        # the first job's launcher (mpirr's first child), when the next one came and when the
        # first was gone (the stamps of mpirr's lines lag by a few hundredths: each takes a fork)
        old=$(awk 'NF > 1 { print $2; exit }' "$TMP/$name.kids")
        launch=$(awk -v o="$old" '{ for (i = 2; i <= NF; i++) if ($i != o) { print $1; exit } }' "$TMP/$name.kids")
        gone=$(awk -v o="$old" 'NF > 1 { seen = 1 } seen && index(" " $0 " ", " " o " ") == 0 { print $1; exit }' "$TMP/$name.kids")
        stop=$(awk -v u="$undo" '$1 >= u && /every rank is at the stopline/ { print $1; exit }' "$TMP/$name.out")
        since() { if [ -n "$1" ]; then printf '%.3f' "$(echo "$1 - $undo" | bc -l)"; else echo "?"; fi; }
        printf 'bench undo impl %s ranks 4 rounds %s stop %s event %s of %s reach_s %.3f undo_s %.3f undo_ratio %.3f launch_s %s stop_s %s old_end_s %s\n' \
            "$IMPL" "$ROUNDS" "$stopname" "$e" "$events" "$reach" "$took" "$(echo "$took / $reach" | bc -l)" \
            "$(since "$launch")" "$(since "$stop")" "$(since "$gone")"
        echo "$reach $took" >>"$TMP/$stopname.times"
    done
    if [ "$REPS" -gt 1 ]; then
        reach=$(cut -d' ' -f1 "$TMP/$stopname.times" | median)
        took=$(cut -d' ' -f2 "$TMP/$stopname.times" | median)
        printf 'bench undo median impl %s ranks 4 rounds %s stop %s reps %s reach_s %.3f undo_s %.3f undo_ratio %.3f\n' \
            "$IMPL" "$ROUNDS" "$stopname" "$REPS" "$reach" "$took" "$(echo "$took / $reach" | bc -l)"
    fi
done
