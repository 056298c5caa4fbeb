#!/bin/bash
# all_aborts.sh MPIRR IMPL ALL_ABORT_PROGRAM: every rank calling MPI_Abort (all_abort.c) leaves a
# complete recording that replays to the same aborts, every time. Each variant is recorded 6
# times (the bug was intermittent), once in each of sources, races and all mode, with and
# without --events:
#   init    every rank aborts as soon as MPI_Init returns: the recording must hold every rank's
#           log (and history), `mpirr stat` must read it, and a replay must follow it
#   rounds  ranks abort at different moments while others are in collectives: which ranks reach
#           their own MPI_Abort is the launcher's timing, recorded; every replay under --noise
#           must end with the same verdict, naming exactly the ranks the recording says called
#           MPI_Abort, at their recorded events ("replay followed the recording: ..."); the
#           recorded runs must not all have ended in the same aborts
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
COMBOS=("sources" "races events" "all" "sources events" "races" "all events")

# check_recording NAME WANT_EVENTS: every rank left its files; stat reads them; writes the
# verdict a replay must print to $TMP/NAME.want.
check_recording() {
    local name=$1 events=$2 k
    grep -E '^mpirr: .*(holds [0-9]+ rank log|missing)' "$TMP/$name.err" &&
        fail "$name: mpirr record said the recording lacks a rank"
    for k in $(seq 0 $((NP - 1))); do
        [ -f "$TMP/$name/rank-0000$k.log" ] || fail "$name: rank $k left no log"
        [ -z "$events" ] || [ -f "$TMP/$name/rank-0000$k.events" ] || fail "$name: rank $k left no event history"
    done
    "$MPIRR" stat --json "$TMP/$name" >"$TMP/$name.json" 2>"$TMP/$name.stat.err" ||
        { cat "$TMP/$name.stat.err" >&2; fail "$name: mpirr stat failed on the recording"; }
    python3 - "$TMP/$name.json" "$NP" "$events" >"$TMP/$name.want" <<'PY' || fail "$name: stat does not read as every rank aborting or being killed"
import json, sys
s = json.load(open(sys.argv[1]))
np_, events = int(sys.argv[2]), sys.argv[3]
ranks = sorted(s["ranks"], key=lambda r: r["rank"])
assert [r["rank"] for r in ranks] == list(range(np_)), ranks
assert all(r["error"] is None for r in ranks), [r["error"] for r in ranks]
if events:
    assert s["events"]["damaged"] == 0, s["events"]
aborted = [r for r in ranks if r["ending"] == "MPI_Abort"]
# the others were killed by an abort: the launcher's signal, or SIGKILL (cut off)
others = [r for r in ranks if r["ending"] != "MPI_Abort"]
assert aborted, "no rank ended in MPI_Abort"
assert all(r["ending"] in ("signal", "cut off") for r in others), [r["ending"] for r in others]
said = ["rank %d called MPI_Abort (code %d) at event %d" % (r["rank"], r["ending_detail"], r["events"])
        for r in aborted]
more = len(said) - 3
line = ", ".join(said[:3]) + (" and %d more rank%s" % (more, "s" if more > 1 else "") if more > 0 else "")
print("mpirr: replay followed the recording: %s, as recorded" % line)
PY
}

# check_replays NAME N: N replays under noise each end with the verdict NAME.want.
check_replays() {
    local name=$1 n=$2 i
    for i in $(seq "$n"); do
        run "$TMP/$name-rep$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/$name"
        [ "$STATUS" -ne 0 ] || fail "$name: replay $i exited 0"
        got=$(grep '^mpirr: replay ' "$TMP/$name-rep$i.err" | tail -1)
        [ "$got" = "$(cat "$TMP/$name.want")" ] || {
            cat "$TMP/$name-rep$i.err" >&2
            fail "$name: replay $i ended with '$got', expected '$(cat "$TMP/$name.want")'"
        }
        replay_as_recorded "$TMP/$name-rep$i" || { cat "$TMP/$name-rep$i.err" >&2; fail "$name: replay $i printed more than its verdict"; }
    done
}

for variant in init rounds; do
    replays=1
    [ "$variant" = rounds ] && replays=3
    i=0
    for combo in "${COMBOS[@]}"; do
        read -r mode events <<<"$combo"
        name=$variant-$i
        i=$((i + 1))
        opts=(--mode "$mode")
        [ -n "${events:-}" ] && opts+=(--events)
        run "$TMP/$name" "$MPIRR" record "${opts[@]}" -o "$TMP/$name" -- "${LAUNCH[@]}" "$PROG" "$variant"
        [ "$STATUS" -ne 0 ] || fail "$name: the recorded run exited 0"
        check_recording "$name" "${events:-}"
        check_replays "$name" "$replays"
        echo "ok: $variant, $mode${events:+ --events}: $(sed 's/^mpirr: replay followed the recording: //' "$TMP/$name.want"), $replays replays"
    done
done
# Which ranks reach their own MPI_Abort, and where, differs from run to run: what the replays
# reproduced was the recording's, not the only possible outcome.
distinct=$(cat "$TMP"/rounds-*.want | sort -u | wc -l)
[ "$distinct" -ge 2 ] || fail "rounds: ${#COMBOS[@]} recorded runs ended with the same aborts: the program did not race"
echo "ok: rounds: ${#COMBOS[@]} recorded runs ended in $distinct different sets of aborts"
