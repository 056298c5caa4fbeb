#!/bin/bash
# race_count.sh MPIRR IMPL PROGRAM NRANKS
# Races mode logs exactly the receives the race rule says race (tests/races/README.md): the
# program prints `expect racing_receives N`, N computed from the message order it observed; a
# `--mode=races` recording must report totals.racing_receives == N in `mpirr stat --json`
# (and no more racing than wildcard receives). Then 3 replays under timing noise print exactly
# what the recording printed (so the unlogged, non-racing receives were deterministic).
# The recording also keeps the event history (--events), and the post-mortem analysis must
# agree with the on-the-fly one: `mpirr races --json` finds racing exactly the receives the
# recording logged (nonblocking_race: a subset, the runtime being conservative with posted
# receives, tests/races/README.md), Chu & Huang's method reports every one of them too, and
# the frontiers of each racing receive hold its message's send (after the receive, in the
# past) and the receive (before the send, in the future).
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=$4
REPLAYS=3
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
name=$(basename "$PROG")

run "$TMP/record" "$MPIRR" record --mode=races --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "$name: recording with --mode=races exited $STATUS"; }
# a warning (e.g. a communicator without piggyback, or races mode falling back to logging
# every wildcard receive) would make the count below meaningless: none is expected
grep -q '^mpirr: ' "$TMP/record.err" && { cat "$TMP/record.err" >&2; fail "$name: mpirr complained while recording"; }
want=$(sed -n 's/^expect racing_receives \([0-9][0-9]*\)$/\1/p' "$TMP/record.out")
[ "$(printf '%s' "$want" | grep -c .)" -eq 1 ] || { cat "$TMP/record.out" >&2; fail "$name: recording printed no single 'expect racing_receives N' line"; }
grep -q '^digest ' "$TMP/record.out" || fail "$name: recording printed no digest"

"$MPIRR" stat --json "$TMP/rec" >"$TMP/stat.json" 2>"$TMP/stat.err" || { cat "$TMP/stat.err" >&2; fail "$name: mpirr stat --json failed on the recording"; }
got=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1])).get("totals")
keys = ("racing_receives", "wildcard_receives")
if not isinstance(t, dict) or not all(isinstance(t.get(k), int) for k in keys):
    sys.exit("no integer totals." + " and totals.".join(keys) + " in mpirr stat --json")
print(t["racing_receives"], t["wildcard_receives"])
' "$TMP/stat.json" 2>&1) || fail "$name: $(tail -1 <<<"$got")"
read -r racing wildcard <<<"$got"
[ "$racing" -eq "$want" ] || fail "$name on $IMPL: the program expects $want racing receives for the order it saw, the recording logged $racing (of $wildcard wildcard receives)"
[ "$racing" -le "$wildcard" ] || fail "$name on $IMPL: $racing racing receives but only $wildcard wildcard receives"
echo "recorded: $racing racing receives of $wildcard wildcard receives, as expected"

"$MPIRR" races --json "$TMP/rec" >"$TMP/races.json" 2>"$TMP/races.err" || { cat "$TMP/races.err" >&2; fail "$name: mpirr races --json failed"; }
[ -s "$TMP/races.err" ] && { cat "$TMP/races.err" >&2; fail "$name: mpirr races complained"; }
case $name in nonblocking_race) relation=subset ;; *) relation=equal ;; esac
python3 - "$TMP/races.json" "$racing" "$relation" "$name" "$IMPL" "$MPIRR" "$TMP/rec" <<'PY' || exit 1
import json, subprocess, sys
path, logged_n, relation, name, impl, mpirr, rec = sys.argv[1:]
d = json.load(open(path))
s = d["summary"]
def fail(msg):
    sys.exit("FAIL: %s on %s: %s" % (name, impl, msg))
racing = {(r["rank"], r["event"]) for r in d["receives"]}
if s["logged"] != int(logged_n):
    fail("mpirr races counts %s logged receives, mpirr stat %s" % (s["logged"], logged_n))
unlogged = [r for r in d["receives"] if not r["logged"]]
if unlogged:
    fail("post-mortem, rank %d event %d races, but the recording did not log it" % (unlogged[0]["rank"], unlogged[0]["event"]))
if relation == "equal" and len(racing) != int(logged_n):
    fail("post-mortem analysis finds %d racing receives, the recording logged %s" % (len(racing), logged_n))
if s["chu_huang"]["precise_only"]:
    fail("%d racing receives are not racing by Chu & Huang's reachable sets" % s["chu_huang"]["precise_only"])
if s["unmatched_receives"] or s["unreceived_sends"] or s["hb_unresolved"]:
    fail("unmatched messages in a complete run: %s" % s)
for r in d["receives"][:4]:
    m = r["matched"]
    after = json.loads(subprocess.check_output([mpirr, "frontier", rec, "--at", "%d:%d" % (r["rank"], r["done"]), "--after", "--json"]))
    if after["past"][m["rank"]] < m["event"]:
        fail("the past frontier just after rank %d event %d lacks the send %d:%d of its message" % (r["rank"], r["done"], m["rank"], m["event"]))
    before = json.loads(subprocess.check_output([mpirr, "frontier", rec, "--at", "%d:%d" % (m["rank"], m["event"]), "--json"]))
    f = before["future"][r["rank"]]
    if not f or f > r["done"]:
        fail("the future frontier just before send %d:%d is %s at rank %d, not at or before its receive's event %d" % (m["rank"], m["event"], f, r["rank"], r["done"]))
print("post-mortem: %d racing receives (%s the %s logged), Chu & Huang agrees on them, frontiers hold the messages" % (len(racing), relation, logged_n))
PY

for i in $(seq $REPLAYS); do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "$name: replay $i exited $STATUS"; }
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "$name: replay $i reported an error"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "$name: replay $i printed something else than the recording"
done
echo "replayed $REPLAYS times under ${NOISE_US}us noise: identical"
