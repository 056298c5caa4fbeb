#!/bin/bash
# deaths.sh MPIRR IMPL DIE_PROGRAM [MODE [events|local]]
# A run that dies while recorded still leaves a recording that replays up to the death, for
# every way a run dies: SIGSEGV, abort() (SIGABRT), MPI_Abort, exit() without MPI_Finalize, and
# SIGTERM/SIGINT sent to the launcher. The dying round depends on message order, so an equal
# output proves the order was replayed; `mpirr stat` must name how rank 0 ended. In races mode
# the receives still awaiting a verdict at the death come back from the pending file. With
# "events" the run also keeps its event history, which must hold every call rank 0 made up to
# its death (the last event the crash noted, MPI_Abort's own record), read as cut off, not
# damaged; the replays are then left to the other variants. With "local" the run records with
# --local into a node-local folder (here a scratch folder): the dying ranks (and mpirr record,
# for those killed outright) must leave the whole recording in the recording directory and
# nothing in the local folder, and replay (once).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 MODE=${4:-sources} EVENTS=${5:-} NP=4 REPLAYS=3
EVOPT=()
[ "$EVENTS" = events ] && EVOPT=(--events) && REPLAYS=0
# the local variant checks the gathered files and that they replay once; deaths.<impl>, with
# the same program and recorder, replays 3 times under noise
[ "$EVENTS" = local ] && EVOPT=(--local "$TMP/node") && REPLAYS=1
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

# run_until_hang OUT_PREFIX SIGNAL DOING CMD...: runs CMD, and when it prints "dying: DOING" (rank 0
# is then blocked, or polling, for good) sends SIGNAL to it, as a user's ^C or a batch system
# would.
run_until_hang() {
    out=$1 sig=$2 doing=$3
    shift 3
    rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
    timeout -k 10 "$RUN_TIMEOUT" "$@" >"$TMP/fifo" 2>"$out.err" &
    pid=$!
    : >"$out.out"
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$out.out"
        [ "$line" = "dying: $doing" ] && kill -"$sig" "$pid"
    done <"$TMP/fifo"
    wait "$pid"
    STATUS=$?
    [ "$STATUS" -ne 124 ] || fail "timed out: $*"
    grep -q "^dying: $doing" "$out.out" || { cat "$out.err" >&2; fail "never reached the $doing: $*"; }
}

# check_history HOW: rank 0's event history reads to the end of what it did.
check_history() {
    "$MPIRR" events "$TMP/rec" --rank 0 >"$TMP/ev-$1.txt" 2>"$TMP/ev-$1.err" ||
        { cat "$TMP/ev-$1.err" >&2; fail "$1: mpirr events failed on the history of a dead rank"; }
    grep -q "rank 0: the event history ends at event" "$TMP/ev-$1.err" ||
        fail "$1: mpirr events did not say the history of the dead rank 0 is cut off"
    python3 - "$TMP/stat-$1.json" "$TMP/ev-$1.txt" "$1" <<'PY' || fail "$1: the event history of rank 0 does not reach its death"
import json, sys
s = json.load(open(sys.argv[1]))
r0 = [r for r in s["ranks"] if r["rank"] == 0][0]
calls = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
last = int(calls[-1][0].split(":")[1])
numbers = [int(c[0].split(":")[1]) for c in calls]
assert numbers == list(range(1, len(numbers) + 1)), "event numbers are not 1..n"
if sys.argv[3] == "mpiabort":
    assert calls[-1][1] == "MPI_Abort", calls[-1]
# the crash note counts the call the rank died in; the history holds the calls that returned
# (and MPI_Abort's, written before it leaves)
if r0["events_exact"]:
    assert last in (r0["events"], r0["events"] - 1), (last, r0["events"])
assert s["events"]["count"] > 0 and s["events"]["damaged"] == 0, s["events"]
PY
    echo "ok: $1: rank 0's event history holds events 1..$(grep -vc '^#' "$TMP/ev-$1.txt")"
}

# check_gathered HOW: --local left every rank's files in the recording, none on the "node".
check_gathered() {
    grep -q '^local ' "$TMP/rec/manifest" || fail "$1: the manifest does not say --local"
    [ ! -e "$TMP/rec/local" ] || fail "$1: placement files are left in the recording: $(ls "$TMP/rec/local")"
    [ -z "$(ls -A "$TMP/node")" ] || fail "$1: files are left in the local folder: $(ls -R "$TMP/node")"
    [ "$(ls "$TMP/rec"/rank-*.log | wc -l)" -eq "$NP" ] || fail "$1: not every rank's log is in the recording"
}

check_death() { # HOW ENDING_PATTERN [SIGNAL [WHILE]]: WHILE (hang/poll) is what rank 0 does when signalled
    how=$1 pattern=$2 sig=${3:-} while=${4:-hang}
    rm -rf "$TMP/rec"
    if [ -n "$sig" ]; then
        run_until_hang "$TMP/rec-$how" "$sig" "$while" "$MPIRR" record --mode "$MODE" "${EVOPT[@]}" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" "$while" "$TMP/rec-$how.seen"
    else
        run "$TMP/rec-$how" "$MPIRR" record --mode "$MODE" "${EVOPT[@]}" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" "$how" "$TMP/rec-$how.seen"
    fi
    [ "$STATUS" -ne 0 ] || fail "$how: the recorded run exited 0"
    grep -q "^dying: " "$TMP/rec-$how.seen" || fail "$how: the recorded run did not reach its death"
    [ "$EVENTS" = local ] && check_gathered "$how"
    "$MPIRR" stat --json "$TMP/rec" >"$TMP/stat-$how.json" 2>"$TMP/stat-$how.err" ||
        { cat "$TMP/stat-$how.err" >&2; fail "$how: mpirr stat failed on the recording"; }
    python3 - "$TMP/stat-$how.json" "$pattern" <<'PY' || fail "$how: stat does not say rank 0 ended with $pattern"
import json, re, sys
s = json.load(open(sys.argv[1]))
r0 = [r for r in s["ranks"] if r["rank"] == 0][0]
text = "%s %s" % (r0["ending"], r0.get("ending_detail", ""))
sys.exit(0 if re.search(sys.argv[2], text) and r0["records"] > 0 else 1)
PY
    [ "$EVENTS" = events ] && check_history "$how"
    for i in $(seq $REPLAYS); do
        if [ -n "$sig" ]; then
            run_until_hang "$TMP/rep-$how$i" "$sig" "$while" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec" \
                -- "${LAUNCH[@]}" "$PROG" "$while" "$TMP/rep-$how$i.seen"
        else
            run "$TMP/rep-$how$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec" \
                -- "${LAUNCH[@]}" "$PROG" "$how" "$TMP/rep-$how$i.seen"
        fi
        same_output "$TMP/rec-$how.seen" "$TMP/rep-$how$i.seen" ||
            fail "$how: replay $i did not reproduce the recorded run up to its death"
        [ "$STATUS" -ne 0 ] || fail "$how: replay $i exited 0"
    done
    echo "ok: $how ($(grep -c '^round' "$TMP/rec-$how.seen") rounds, ending '$pattern') replayed $REPLAYS times"
}

check_death segv 'signal 11'
check_death abort 'signal 6'
check_death mpiabort 'MPI_Abort 3'
check_death exit 'exit'
# The launcher forwards the signal, then kills what is left with SIGKILL: the ending may be
# either, the records are there in both cases.
check_death term 'signal (15|9)|cut off' TERM
check_death int 'signal (2|15|9)|cut off' INT
# killed in a run of unsuccessful MPI_Tests, which leave no records: the replay makes them all
# (rank 0 prints "dying: poll" after 2000 of them) and stops where the recording ends
check_death poll 'signal (15|9)|cut off' TERM poll
