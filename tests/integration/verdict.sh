#!/bin/bash
# verdict.sh MPIRR IMPL BIN
# Every replay ends with one verdict line that compares how each replayed rank ended with how
# its recorded run ended (docs/cli/replay.md, "How a replay ends"). Runs that finish, segfault,
# call abort(), MPI_Abort or exit() without MPI_Finalize are recorded and replayed: the verdict
# says the replay followed the recording, naming rank 0's ending and the event it came at, which
# `mpirr stat` reads from the recording. A replay run with another ending (exit() where the
# recording crashed) and a replay that diverges get their own verdicts. BIN holds die and
# diverge.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

# verdict OUT_PREFIX: the replay's one verdict line (its runtime's own lines, "mpirr: replay of
# rank ...", are not verdicts); fails unless there is exactly one.
verdict() {
    lines=$(grep -E '^mpirr: replay (finished|followed|diverged|ended)' "$1.err")
    [ "$(printf '%s\n' "$lines" | grep -c .)" -eq 1 ] ||
        { cat "$1.err" >&2; fail "$1: expected one verdict line, got: $lines"; }
    printf '%s\n' "$lines"
}

# expect_verdict OUT_PREFIX LINE: the replay printed exactly this verdict.
expect_verdict() {
    got=$(verdict "$1") || exit 1
    [ "$got" = "$2" ] || { cat "$1.err" >&2; fail "$1: verdict '$got', expected '$2'"; }
    echo "ok: $got"
}

# stat_field REC EXPR: a value computed from `mpirr stat --json REC` (s: the document,
# r0: rank 0).
stat_field() {
    "$MPIRR" stat --json "$1" >"$1.json" 2>"$1.json.err" ||
        { cat "$1.json.err" >&2; fail "mpirr stat failed on $1"; }
    python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
r0 = [r for r in s["ranks"] if r["rank"] == 0][0]
print(eval(sys.argv[2]))' "$1.json" "$2"
}

# record NAME ARGS...: records the program run as ARGS into $TMP/NAME.
record() {
    name=$1
    shift
    run "$TMP/rec-$name" "$MPIRR" record -o "$TMP/$name" -- "${LAUNCH[@]}" "$@"
}

# A run that finishes: every rank's events are counted.
record fin "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec-fin.err" >&2; fail "recording diverge a failed"; }
total=$(stat_field "$TMP/fin" 'sum(r["events"] for r in s["ranks"])')
run "$TMP/rep-fin" "$MPIRR" replay "$TMP/fin" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/rep-fin.err" >&2; fail "replaying diverge a failed"; }
expect_verdict "$TMP/rep-fin" "mpirr: replay finished as recorded ($NP ranks, $total events)"

# Rank 0 dies by itself; the launcher then ends the others, in the recording as in the replay.
check_death() { # HOW ENDING_TEXT
    how=$1 text=$2
    record "$how" "$BIN/die" "$how" "$TMP/rec-$how.seen"
    [ "$STATUS" -ne 0 ] || fail "$how: the recorded run exited 0"
    event=$(stat_field "$TMP/$how" 'r0["events"]')
    run "$TMP/rep-$how" "$MPIRR" replay "$TMP/$how" -- "${LAUNCH[@]}" "$BIN/die" "$how" "$TMP/rep-$how.seen"
    [ "$STATUS" -ne 0 ] || fail "$how: the replay exited 0"
    expect_verdict "$TMP/rep-$how" "mpirr: replay followed the recording: rank 0 $text at event $event, as recorded"
}
check_death segv SIGSEGV
check_death abort SIGABRT
check_death mpiabort 'called MPI_Abort (code 3)'
check_death exit 'called exit(4) without MPI_Finalize'

# The same run, told to exit() where the recording crashed: it dies at the same event, not in
# the same way.
event=$(stat_field "$TMP/segv" 'r0["events"]')
run "$TMP/rep-other" "$MPIRR" replay "$TMP/segv" -- "${LAUNCH[@]}" "$BIN/die" exit "$TMP/rep-other.seen"
expect_verdict "$TMP/rep-other" "mpirr: replay ended differently from the recording: rank 0 called exit(4) without MPI_Finalize at event $event, recorded: SIGSEGV at event $event"

# A replay that diverges: the verdict names the event of the runtime's line above it.
run "$TMP/rep-div" "$MPIRR" replay "$TMP/fin" -- "${LAUNCH[@]}" "$BIN/diverge" b
expect_error "$TMP/rep-div" "rank 0 diverged at event"
event=$(sed -n 's/^mpirr: replay of rank 0 diverged at event \([0-9]*\) .*/\1/p' "$TMP/rep-div.err")
[ -n "$event" ] || fail "no divergence line naming the event"
expect_verdict "$TMP/rep-div" "mpirr: replay diverged at rank 0 event $event (see the line above)"
