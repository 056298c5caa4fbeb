#!/bin/bash
# races_mpi.sh MPIRR IMPL PROGDIR: `mpirr races --mpi DIR`, the analysis as an MPI job
# (docs/analysis.md "Parallel analysis"), says exactly what `mpirr races DIR` says. On real
# recordings with races (wildcard_storm at 6 ranks; scattered_comm, whose communicators the
# blocks must number alike; coll_hb, collectives; rma_conflicts, windows and their conflicts;
# iprobe_poll, wildcard probes, whose message the receiver's process numbers), where each
# process matches the messages into its block and the numbering must be the serial one,
# run under IMPL's launcher (wildcard_storm with 1, 2, 3 and 4 processes, the 4-rank ones with 3
# and 4), its text output (and --json, at 3 processes) and its stderr are byte-identical to the
# serial command's (the step times masked, they differ from run to run). A history cut short
# (of wildcard_storm, of coll_hb: the happened-before sweep split across processes is stuck
# where the serial one is) gives the same line and the same analysis at 2-4 processes; a history of
# another run gives the serial command's one line, and every process of the job exits. Without
# a launcher, one line and exit status 2.
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3

# the step times and the events per second are the only thing that differs between two runs
mask() {
    sed -E -e 's/^(analysis +[0-9]+ events:).*/\1 TIMES/' \
        -e 's/"seconds":\{[^}]*\},"events_per_second":[-0-9.e+]+/"seconds":TIMES/' "$1"
}

# same_as_serial NAME DIR NP [--json]: the job's stdout and stderr are the serial command's
same_as_serial() {
    local name=$1 dir=$2 np=$3 json=${4:-}
    read -r -a job <<<"$(launcher "$IMPL" "$np")"
    run "$TMP/serial" "$MPIRR" races $json "$dir"
    local serial_status=$STATUS
    run "$TMP/par" "${job[@]}" "$MPIRR" races --mpi $json "$dir"
    [ "$STATUS" -eq "$serial_status" ] || { cat "$TMP/par.err" >&2; fail "$name, $np processes ${json}: exit $STATUS, serial $serial_status"; }
    cmp -s <(mask "$TMP/serial.out") <(mask "$TMP/par.out") || {
        diff <(mask "$TMP/serial.out") <(mask "$TMP/par.out") | head -20 >&2
        fail "$name, $np processes ${json}: the output differs from mpirr races"
    }
    cmp -s "$TMP/serial.err" <(grep '^mpirr: ' "$TMP/par.err") ||
        fail "$name, $np processes ${json}: stderr '$(head -3 "$TMP/par.err")', serial '$(cat "$TMP/serial.err")'"
}

record() { # record NAME NP PROG ARGS...
    local name=$1 np=$2
    shift 2
    read -r -a LAUNCH <<<"$(launcher "$IMPL" "$np")"
    run "$TMP/rec-$name" "$MPIRR" record --events -o "$TMP/$name" -- "${LAUNCH[@]}" "$@"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$name.err" >&2; fail "$name: record exited $STATUS"; }
}

record storm 6 "$PROGS/../programs/$IMPL/wildcard_storm"
record scattered 4 "$PROGS/$IMPL/scattered_comm"
record coll 4 "$PROGS/$IMPL/coll_hb"
record rma 3 "$PROGS/$IMPL/rma_conflicts" put_race
record probe 4 "$PROGS/../programs/$IMPL/iprobe_poll" 4
# every process count 1-4 on the 6-rank storm (blocks of 6, 3, 2 and 1-2 ranks); on the 4-rank
# recordings an uneven split (3) and one rank per process (4); --json (the same model, printed
# otherwise) at 3 processes each
for name in storm scattered coll rma probe; do
    "$MPIRR" races "$TMP/$name" >"$TMP/check.out" 2>&1 || fail "$name: mpirr races failed"
    nps="3 4"
    [ "$name" = storm ] && nps="1 2 3 4"
    for np in $nps; do same_as_serial "$name" "$TMP/$name" "$np"; done
    same_as_serial "$name" "$TMP/$name" 3 --json
done
same_as_serial storm "$TMP/storm" 4
grep -q '^racing *[1-9][0-9]* of ' "$TMP/par.out" || fail "storm: no racing receives in the parallel output"
grep -q '^[1-9][0-9]* RMA conflicts' <("$MPIRR" races "$TMP/rma") ||
    fail "rma: the recording shows no RMA conflict"
grep -q '^[1-9][0-9]* racing probes\? (of ' <("$MPIRR" races "$TMP/probe") ||
    fail "probe: the recording shows no racing probe"
echo "text and --json identical to mpirr races at 1-4 processes on 5 recordings (3 and 4 on the 4-rank ones)"

# a history cut short: the same line on stderr, the same analysis of what is left; the
# happened-before sweep, split across the processes, gets stuck where the serial one does (the
# receives and collectives of the other ranks that wait for the cut rank): every process sees
# it, each waiting rank skips its step and the sweep goes on, the same warning
cut() { # cut NAME FROM RANK
    cp -r "$TMP/$2" "$TMP/$1"
    local f="$TMP/$1/rank-0000$3.events"
    truncate -s $(($(stat -c %s "$f") / 2)) "$f"
}
cut cut storm 3
cut cutcoll coll 1
for np in 2 3; do
    same_as_serial cut "$TMP/cut" $np
    [ "$(grep -c '^mpirr: ' "$TMP/par.err")" -eq 1 ] || fail "cut: not one line on stderr: $(cat "$TMP/par.err")"
    grep -q '^warning .* operations wait for something the trace does not hold' "$TMP/par.out" ||
        fail "cut, $np processes: no step of the sweep was left unordered"
    same_as_serial cutcoll "$TMP/cutcoll" $np
done
same_as_serial cutcoll "$TMP/cutcoll" 4 --json
grep -q '"hb_unresolved":[1-9]' "$TMP/par.out" || fail "cutcoll: no step of the sweep was left unordered"
echo "cut histories: $(cat "$TMP/serial.err")"

# a history of another recording (in a 4-rank one): one line, exit 2, no process left
cp -r "$TMP/scattered" "$TMP/alien"
cp "$TMP/storm/rank-00002.events" "$TMP/alien/rank-00002.events"
read -r -a job <<<"$(launcher "$IMPL" 3)"
run "$TMP/alien" "${job[@]}" "$MPIRR" races --mpi "$TMP/alien"
[ "$STATUS" -ne 0 ] || fail "alien: races --mpi exited 0 on a history of another run"
[ "$(grep -c '^mpirr: ' "$TMP/alien.err")" -eq 1 ] || fail "alien: not one line: $(cat "$TMP/alien.err")"
grep -q '^mpirr: .*rank-00002.events belongs to another recording' "$TMP/alien.err" ||
    fail "alien: $(cat "$TMP/alien.err")"
[ -s "$TMP/alien.out" ] && fail "alien: printed $(head -2 "$TMP/alien.out")"
same_as_serial alien "$TMP/alien" 3
echo "history of another run: $(grep '^mpirr: ' "$TMP/alien.err")"

# not under a launcher: one line, exit status 2
env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMI_RANK "$MPIRR" races --mpi "$TMP/storm" >"$TMP/alone.out" 2>"$TMP/alone.err"
STATUS=$?
[ "$STATUS" -eq 2 ] && [ "$(wc -l <"$TMP/alone.err")" -eq 1 ] && grep -q 'mpirun -np N mpirr races --mpi DIR' "$TMP/alone.err" ||
    fail "without a launcher: exit $STATUS, '$(cat "$TMP/alone.err")'"
echo "PASS"
