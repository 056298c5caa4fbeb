#!/bin/bash
# stat_threads.sh MPIRR IMPL BIN: `mpirr stat` counts the synchronizations of threaded ranks per
# rank and thread (BIN holds thread_sync and diverge). thread_sync's mutex mode (2 ranks, 4
# threads each taking one mutex 300 times) is recorded with --events; its event history has a
# line per acquisition, "R thread T NAME object=O turn=V", so for every thread it names, stat's
# syncs must equal its lines and stat's records the acquisitions whose turn was not the one
# the thread predicted (the one after the last it saw on that object, 0 on first use), as
# src/runtime/threads/README.md says only those are written. Every sync log has a row, the
# total sums them, the text shows the table; a recording without threads shows none of it.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3 NP=2
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$BIN/thread_sync" mutex
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "the recorded mutex run exited $STATUS"; }
"$MPIRR" stat --json "$TMP/rec" >"$TMP/stat.json" 2>"$TMP/stat.err" ||
    { cat "$TMP/stat.err" >&2; fail "mpirr stat --json failed on a threaded recording"; }
"$MPIRR" stat "$TMP/rec" >"$TMP/stat.txt" 2>>"$TMP/stat.err" || fail "mpirr stat failed on a threaded recording"
"$MPIRR" events "$TMP/rec" >"$TMP/events.txt" 2>"$TMP/events.err" ||
    { cat "$TMP/events.err" >&2; fail "mpirr events failed on a threaded recording"; }
logs=$(ls "$TMP/rec" | grep -c '^sync-.*\.log$')
[ "$logs" -gt 0 ] || fail "the threaded recording has no sync logs"

python3 - "$TMP/stat.json" "$TMP/events.txt" "$logs" "$NP" <<'PY' || fail "stat's thread figures disagree with the recording"
import json, re, sys
st, logs, np = json.load(open(sys.argv[1])), int(sys.argv[3]), int(sys.argv[4])
def bad(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)
# from the history: per (rank, thread) acquisitions and unpredicted outcomes
hist = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(\d+) thread (\d+) \S+ object=(\d+) (?:turn=(\d+)|failed rc=\d+)$", line)
    if not m:
        continue
    key, obj = (int(m.group(1)), int(m.group(2))), int(m.group(3))
    n, recs, last = hist.get(key, (0, 0, {}))
    if m.group(4) is None:
        recs += 1  # a failure is always written
    else:
        turn = int(m.group(4))
        recs += turn != last.get(obj, -1) + 1
        last[obj] = turn
    hist[key] = (n + 1, recs, last)
if len(hist) != 4 * np:
    bad("the history names %d threads, expected %d" % (len(hist), 4 * np))
rows = {(r["rank"], t["thread"]): t for r in st["ranks"] for t in r.get("threads", [])}
if len(rows) != logs:
    bad("stat shows %d threads, the recording has %d sync logs" % (len(rows), logs))
for (r, t), (n, recs, _) in sorted(hist.items()):
    row = rows.get((r, t))
    if row is None:
        bad("rank %d thread %d is in the history, not in stat" % (r, t))
    if row["syncs"] != n or row["records"] != recs:
        bad("rank %d thread %d: stat says %d syncs, %d records; the history has %d acquisitions, "
            "%d unpredicted" % (r, t, row["syncs"], row["records"], n, recs))
    if row["syncs"] <= 0 or row["log_bytes"] <= 0 or row["ending"] != "finalized" or row["damaged"]:
        bad("rank %d thread %d: %s" % (r, t, row))
tot = st["total"]["threads"]
for k in ("syncs", "records", "log_bytes"):
    if tot[k] != sum(x[k] for x in rows.values()):
        bad("total %s %d is not the sum of the threads'" % (k, tot[k]))
if tot["logs"] != logs or tot["damaged"] != 0 or tot["records"] <= 0:
    bad("total: %s" % tot)
print("ok: %d threads, %d synchronizations, %d records; each thread's agree with the history"
      % (logs, tot["syncs"], tot["records"]))
PY
grep -q "^sync logs   $logs threads of $NP ranks" "$TMP/stat.txt" || { cat "$TMP/stat.txt" >&2; fail "the text has no sync logs table"; }
[ "$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+  finalized$' "$TMP/stat.txt")" -eq "$logs" ] ||
    { cat "$TMP/stat.txt" >&2; fail "the text has not one row per sync log"; }

# no threads: nothing extra
run "$TMP/plain" "$MPIRR" record -o "$TMP/plain" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/plain.err" >&2; fail "the recorded run without threads exited $STATUS"; }
"$MPIRR" stat "$TMP/plain" >"$TMP/plain.txt" && "$MPIRR" stat --json "$TMP/plain" >"$TMP/plain.json" ||
    fail "mpirr stat failed on a recording without threads"
! grep -q "sync logs" "$TMP/plain.txt" || fail "a recording without threads got a sync logs table"
! grep -q '"threads"' "$TMP/plain.json" || fail "a recording without threads got threads in its JSON"
echo "ok: no sync logs, no thread figures"
