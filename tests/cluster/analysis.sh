#!/bin/bash
# analysis.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM EXPLORE_CRASH: the post-mortem commands and
# the order search on a recording whose ranks ran on 2 nodes (ssh launch, 2 ranks on each):
#  1. record --events of PROGRAM across the nodes: `races` lists racing receives with source
#     lines, and `races --mpi` run across the nodes (2 processes on each) says the same,
#     `events` shows ranks of both nodes, `stat` reads every rank, `view` writes its page;
#  2. `replay --flip` of one racing receive across the nodes takes the other message, and its
#     recording replays as it ran (2 noisy replays);
#  3. `explore` of EXPLORE_CRASH (a crash behind an order native runs never take) across the
#     nodes finds it, and the failing run's recording replays to the same crash.
. "$(dirname "$0")/lib.sh"
EXPLORE_CRASH=$6
cluster_up 2 --no-slurm
case $IMPL in
openmpi) LAUNCH=(mpirun.openmpi --host mpirr-node1:2,mpirr-node2:2 -np 4) ;;
mpich) LAUNCH=(mpiexec.mpich -hosts mpirr-node1:2,mpirr-node2:2 -np 4) ;;
*) fail "unknown MPI implementation $IMPL" ;;
esac

# --- 1. the analysis commands ------------------------------------------------------------------
run "$TMP/record" "${NODE1[@]}" "$MPIRR" record --events -o rec -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record --events across the nodes exited $STATUS"; }
recorded_four "record --events"
for r in 0 1 2 3; do
    [ -s "rec/rank-0000$r.events" ] || fail "no event history of rank $r"
done
"$MPIRR" races --json rec >"$TMP/races.json" || fail "mpirr races failed on the 2-node recording"
read -r nraces spec taken <<<"$(python3 - "$TMP/races.json" <<'PY'
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["receives"] if r["call"] == "MPI_Recv"]
assert rs, "no racing MPI_Recv"
assert all(r.get("site") for r in rs), "a racing receive without a source line"
r = rs[0]
alt = [c for c in r["candidates"] if c["rank"] != r["matched"]["rank"]][0]
print(len(rs), "%d:%d=%d" % (r["rank"], r["event"], alt["rank"]), r["matched"]["rank"])
PY
)" || fail "races: $(head -c 300 "$TMP/races.json")"
[ "${nraces:-0}" -gt 0 ] || fail "races found no racing receive across the nodes"
"$MPIRR" races rec >"$TMP/races.txt" || fail "mpirr races (text) failed"
grep -q 'wildcard_storm.c:[0-9]' "$TMP/races.txt" || fail "races: no source line: $(head -3 "$TMP/races.txt")"
# the analysis as an MPI job across the nodes (2 processes on each: the blocks match and sweep
# happened-before with each other over the network): what `mpirr races` says
run "$TMP/races-mpi" "${NODE1[@]}" "${LAUNCH[@]}" "$MPIRR" races --mpi rec
[ "$STATUS" -eq 0 ] || { cat "$TMP/races-mpi.err" >&2; fail "races --mpi across the nodes exited $STATUS"; }
cmp -s <(grep -v '^analysis ' "$TMP/races.txt") <(grep -v '^analysis ' "$TMP/races-mpi.out") ||
    fail "races --mpi across the nodes: $(diff "$TMP/races.txt" "$TMP/races-mpi.out" | head -5)"
"$MPIRR" events rec >"$TMP/events.txt" || fail "mpirr events failed"
for r in 0 1 2 3; do
    grep -q "^$r:[0-9]* MPI_" "$TMP/events.txt" || fail "events: nothing of rank $r"
done
"$MPIRR" stat rec >"$TMP/stat.txt" || fail "mpirr stat failed"
grep -Eq '^ranks +4' "$TMP/stat.txt" && grep -q '4 finalized' "$TMP/stat.txt" || fail "stat: $(head -3 "$TMP/stat.txt")"
"$MPIRR" view rec -o page.html || fail "mpirr view failed"
[ -s page.html ] && grep -q '<html' page.html || fail "view: no page"
echo "ok: races ($nraces racing receives with source lines), races --mpi across the nodes alike, events, stat and view of a 2-node recording"

# --- 2. --flip across the nodes ----------------------------------------------------------------
r=${spec%%:*} e=${spec#*:} e=${e%%=*} src=${spec#*=}
run "$TMP/flip" "${NODE1[@]}" "$MPIRR" replay rec --flip "$spec" -o flip -- "${LAUNCH[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/flip.err" >&2; fail "the flipped run $spec across the nodes exited $STATUS"; }
grep -q "^mpirr: flipped rank $r's event $e to rank $src's message" "$TMP/flip.err" ||
    { cat "$TMP/flip.err" >&2; fail "flip: no line saying what was flipped"; }
"$MPIRR" races --json flip >"$TMP/flip.json" || fail "mpirr races failed on the flipped run"
python3 - "$TMP/flip.json" "$r" "$e" "$src" <<'PY' || fail "flip: rank $r's event $e did not take rank $src's message"
import json, sys
d = json.load(open(sys.argv[1]))
r, e, src = map(int, sys.argv[2:])
x = [x for x in d["receives"] if x["rank"] == r and x["event"] == e]
assert x and x[0]["matched"]["rank"] == src, x
PY
cp "$TMP/flip.out" "$TMP/record.out" # what replays_as_recorded compares with
rm -rf rec && mv flip rec
replays_as_recorded "flip"
echo "ok: a flip across the nodes took rank $src's message at $r:$e (was $taken's) and replays as it ran"

# --- 3. explore across the nodes ---------------------------------------------------------------
RUN_TIMEOUT=240
run "$TMP/explore" "${NODE1[@]}" "$MPIRR" explore --budget 20 -o ex -- "${LAUNCH[@]}" "$EXPLORE_CRASH"
[ "$STATUS" -eq 1 ] || { cat "$TMP/explore.err" >&2; fail "explore across the nodes: exit status $STATUS, expected 1 (a run ended otherwise)"; }
line=$(grep '^explore: ' "$TMP/explore.out") || fail "explore: no summary line"
[[ $line =~ run\ ([0-9]+)\ ended\ otherwise\ \(exit\ ([0-9]+),\ rank\ 0\ SIGSEGV.*its\ recording:\ (.*)$ ]] ||
    fail "explore did not find the crash across the nodes: $line"
status=${BASH_REMATCH[2]} found=${BASH_REMATCH[3]}
RUN_TIMEOUT=60
for i in 1 2; do
    run "$TMP/crash$i" "${NODE1[@]}" "$MPIRR" replay --noise "$NOISE_US" "$found"
    [ "$STATUS" -eq "$status" ] || { cat "$TMP/crash$i.err" >&2; fail "replay $i of the failing run: exit status $STATUS, recorded $status"; }
    grep -q '^mpirr: replay followed the recording: rank 0 SIGSEGV at event' "$TMP/crash$i.err" ||
        fail "replay $i of the failing run: $(grep '^mpirr: ' "$TMP/crash$i.err")"
done
echo "ok: explore found the crash across the nodes ($line); 2 noisy replays crash as recorded"
