#!/bin/bash
# probe_choice.sh MPIRR IMPL EXPLORE_BIN: which message a wildcard probe sees, forced (issue 34).
# explore_probe crashes only when rank 0's wildcard probe sees rank 2's message first, which the
# token between its senders never lets happen natively. For each kind of probe (MPI_Probe, MPI_Iprobe
# polled, MPI_Mprobe, MPI_Improbe polled):
#  1. mpirr explore finds the crash within 4 runs; run 1 took the native choice (rank 1's
#     message), the failing run forced the probe's event to rank 2, its event history says
#     the probe saw rank 2's message, and its recording replays to the same crash with the same
#     output 3 times under timing noise.
# For MPI_Probe and MPI_Iprobe, on a native recording:
#  2. mpirr races lists the probe as racing, with rank 2's message as its other candidate;
#  3. replay --flip 0:E=2 makes the probe see rank 2's message (the run crashes), and that
#     recording replays 3 times under noise to the same crash and output;
#  4. flips that are not legal are refused in one line each, exit status 2: an event that is not
#     a racing receive or probe, the message the probe saw already, a rank out of range.
. "$(dirname "$0")/choices_lib.sh" "$@"
declare -A CALL=([probe]=MPI_Probe [iprobe]=MPI_Iprobe [mprobe]=MPI_Mprobe [improbe]=MPI_Improbe)

# saw REC EVENT CALL: rank 0's event EVENT in REC's history is CALL and saw rank 2's message.
saw2() {
    local got
    got=$("$MPIRR" events "$1" --rank 0 2>/dev/null | grep "^0:$2 ") # (stderr: the crash cut the history)
    [[ $got == "0:$2 $3 "* && $got == *" src=2 "* ]] || fail "$1: rank 0's event $2 should be $3 with src=2: $got"
}

# --- 1. explore, every kind ----------------------------------------------------------------------
for kind in probe iprobe mprobe improbe; do
    D=$TMP/explore-$kind
    run "$D" "$MPIRR" explore --budget 4 -o "$D" -- "${L3[@]}" "$BIN/explore_probe" "$kind"
    explore_crash_found "$kind" "$D" '(2)'
    status=$STATUS_RUN event=$EVENT rec=$REC line=$LINE
    grep -qx "$kind first 1" "$D/run-0001/stdout" || fail "$kind: run 1 did not see rank 1's message first: $(cat "$D/run-0001/stdout")"
    grep -qx "$kind first 2" "$rec/stdout" || fail "$kind: the failing run printed $(cat "$rec/stdout")"
    saw2 "$rec" "$event" "${CALL[$kind]}"
    replays3 "$kind" "$rec" "$status" "$rec/stdout"
    echo "ok: $kind: explore forced 0:$event=2 ($line); 3 replays crash as recorded"
done

# --- 2-4. races and replay --flip on a native recording -----------------------------------------
for kind in probe iprobe; do
    P=$TMP/native-$kind
    run "$P" "$MPIRR" record --events -o "$P" -- "${L3[@]}" "$BIN/explore_probe" "$kind"
    [ "$STATUS" -eq 0 ] || { cat "$P.err" >&2; fail "$kind: the native recording exited $STATUS"; }
    grep -qx "$kind first 1" "$P.out" || fail "$kind: the native run printed $(cat "$P.out")"
    "$MPIRR" races --json "$P" >"$P.races" || fail "$kind: mpirr races failed"
    event=$(python3 - "$P.races" "${CALL[$kind]}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ps = [p for p in d["racing_probes"] if p["call"] == sys.argv[2]]
assert len(ps) == 1 and not d["receives"], (ps, d["receives"])
p = ps[0]
assert p["rank"] == 0 and p["matched"]["rank"] == 1, p
assert [c["rank"] for c in p["candidates"]] == [1, 2], p["candidates"]
print(p["event"])
PY
) || fail "$kind: mpirr races --json does not list the one racing probe with candidates 1, 2"
    "$MPIRR" races "$P" | grep -Eq "^  rank 0 event $event: .*explore_probe.c:[0-9]+ \(main\) ${CALL[$kind]} \(any source, tag 9\) got 1:[0-9]+ .*; could have got 2:" ||
        fail "$kind: mpirr races does not list the racing probe: $("$MPIRR" races "$P")"
    F=$TMP/flip-$kind
    run "$F" "$MPIRR" replay "$P" --flip "0:$event=2" -o "$F"
    [ "$STATUS" -ne 0 ] || fail "$kind: the flipped run did not crash"
    grep -q "^mpirr: flipped rank 0's event $event to rank 2's message" "$F.err" || { cat "$F.err" >&2; fail "$kind: no flip line"; }
    grep -qx "$kind first 2" "$F.out" || fail "$kind: the flipped run printed $(cat "$F.out")"
    saw2 "$F" "$event" "${CALL[$kind]}"
    replays3 "flip-$kind" "$F" "$STATUS" "$F.out"
    echo "ok: $kind: races lists 0:$event, --flip 0:$event=2 sees rank 2's message; 3 replays exact"

    bad() { refused "$kind-$1" "$2" "$P" "$3"; } # NAME PATTERN SPEC
    bad notprobe "is not a racing receive or probe" "0:$((event + 1))=2"
    bad taken "took rank 1's message in the recording already" "0:$event=1"
    bad range "has ranks 0 to 2" "0:$event=5"
done
echo "ok: probe choices on $IMPL"
