#!/bin/bash
# diskfull.sh MPIRR IMPL PROG: recording onto a disk that fills up (a tiny tmpfs) never harms
# the program. In every mode, with and without --events, at several sizes: the program runs to
# its end (all its rounds written, exit status 0, never SIGBUS), each rank whose recording
# stopped says so in one line, `mpirr stat` names the ending "recording stopped early (No space
# left on device)" for exactly those ranks, what was written reads without damage (a history
# that stopped reads as cut off), and `mpirr replay` either replays the whole run (it fitted)
# or stops where the recording does (one line, exit 3) having followed the recorded orders, or
# refuses a recording where a rank could not even create its log (one line naming it). Needs
# root for mount (CI runs as root); without it: SKIP. PROG is endless_storm.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=4 ROUNDS=${ROUNDS:-1200}
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
MNT=$TMP/disk
mkdir -p "$MNT"
trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' TERM INT # through the EXIT trap: never leave a mount behind
mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null || { echo "SKIP: cannot mount a tmpfs here"; exit 0; }
umount "$MNT"
# A replay held at the end of a stopped rank's recording waits this long for the ranks blocked
# on it before ending the job (the product's bound, not a synchronisation of the test).
export MPIRR_STALL_SECONDS=3
stopped_total=0

# one SIZE MODE EVENTS(0/1) [STAGE_KB]: records onto a fresh tmpfs of SIZE and checks it all.
one() {
    size=$1 mode=$2 events=$3 stage=${4:-}
    name="$mode.$size$([ "$events" = 1 ] && echo .events)"
    rec=$MNT/rec pout=$TMP/out.$name
    mount -t tmpfs -o "size=$size" tmpfs "$MNT" || fail "$name: mount failed"
    opts=(--mode "$mode")
    [ "$events" = 1 ] && opts+=(--events)
    env ${stage:+MPIRR_EVENTS_STAGE_KB=$stage} timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" record \
        "${opts[@]}" -o "$rec" -- "${LAUNCH[@]}" "$PROG" "$pout" "$ROUNDS" \
        >"$TMP/$name.rec.out" 2>"$TMP/$name.rec.err"
    status=$?
    # mpirr record fails (1) when the full disk leaves no room to complete the manifest, which
    # it says; the program itself must have run to its end (its rounds, checked below)
    if [ "$status" -eq 1 ] && grep -q "^mpirr: cannot write .*/manifest: No space left on device" "$TMP/$name.rec.err"; then
        [ ! -e "$rec/manifest.tmp" ] || fail "$name: a failed manifest left manifest.tmp behind"
        status=0
    fi
    [ "$status" -eq 0 ] || { cat "$TMP/$name.rec.err" >&2; fail "$name: the recorded program exited $status (135 = SIGBUS)"; }
    ! grep -qiE 'bus error|signal 7|SIGBUS' "$TMP/$name.rec.err" || fail "$name: a rank got SIGBUS"
    for r in $(seq 0 $((NP - 1))); do
        [ "$(grep -c "^round" "$pout.$r")" -eq "$ROUNDS" ] || fail "$name: rank $r did not finish its $ROUNDS rounds"
    done
    # The ranks' lines: on stderr, and in runtime-errors when mpirr kept the rest there.
    # mpirr relays the first lines of runtime-errors and keeps the file when there are more:
    # the same line can be in both
    cat "$TMP/$name.rec.err" "$rec/runtime-errors" 2>/dev/null | sort -u >"$TMP/$name.lines"
    "$MPIRR" stat --json "$rec" >"$TMP/$name.stat.json" 2>"$TMP/$name.stat.err"
    for r in $(seq 0 $((NP - 1))); do
        [ -f "$rec/rank-0000$r.events" ] || continue
        "$MPIRR" events "$rec" --rank "$r" >/dev/null 2>"$TMP/$name.ev$r.err" ||
            { cat "$TMP/$name.ev$r.err" >&2; fail "$name: the event history of rank $r does not read"; }
    done
    # replayed where it is, on the full disk: a replay writes nothing into the recording
    run "$TMP/$name.rep" "$MPIRR" replay "$rec" -- "${LAUNCH[@]}" "$PROG" "$TMP/rep.$name" "$ROUNDS"
    stopped=$(python3 - "$rec" "$TMP/$name" "$pout" "$TMP/rep.$name" "$NP" "$ROUNDS" "$STATUS" <<'PY'
import json, os, re, sys
rec, base, out, rep = sys.argv[1:5]
np, rounds, status = map(int, sys.argv[5:8])
name = os.path.basename(base)
def die(msg):
    print("FAIL: %s: %s" % (name, msg), file=sys.stderr)
    sys.exit(1)
lines = open(base + ".lines").read().splitlines()
stops = {}
for l in lines:
    m = re.match(r"mpirr: warning: recording rank (\d+): .*No space left on device; the recording "
                 r"of this rank stops at event (\d+), the program goes on$", l)
    if m:
        r = int(m.group(1))
        if r in stops: die("two stop lines for rank %d" % r)
        stops[r] = int(m.group(2))
unrecorded = {int(m.group(1)) for l in lines
              for m in [re.match(r"mpirr: warning: rank (\d+): .*; this rank is not recorded$", l)] if m}
ranks = {}
try:
    ranks = {r["rank"]: r for r in json.load(open(base + ".stat.json"))["ranks"]}
except Exception:
    pass
for r in range(np):
    log = "%s/rank-%05d.log" % (rec, r)
    if not os.path.exists(log):
        if r not in unrecorded: die("rank %d has no log and no line saying so" % r)
        for suffix in ("tail", "pending", "events", "events.tail"):
            if os.path.exists("%s/rank-%05d.%s" % (rec, r, suffix)):
                die("rank %d: a .%s without its log was left behind" % (r, suffix))
        continue
    s = ranks.get(r)
    if not s or s.get("ending") is None: die("mpirr stat cannot read rank %d: %s" % (r, open(base + ".stat.err").read()))
    if r in stops:
        if s["ending"] != "recording stopped early" or s["ending_detail"] != 28:
            die("rank %d stopped recording but stat says %s (%s)" % (r, s["ending"], s["ending_detail"]))
    elif s["ending"] != "finalized":
        die("rank %d: ending %s without a stop line" % (r, s["ending"]))
rep_err = open(base + ".rep.err").read()
if "diverged" in rep_err: die("the replay diverged: " + rep_err)
complete = not stops and not unrecorded
if complete:
    if status != 0: die("a complete recording did not replay (exit %d): %s" % (status, rep_err))
elif unrecorded and not all(os.path.exists("%s/rank-%05d.log" % (rec, r)) for r in range(np)):
    if status != 2 or "missing" not in rep_err: die("a rank without a log: replay exited %d: %s" % (status, rep_err))
else:
    if status != 3 or not re.search(r"^mpirr: replay stopped where the recording ends: .*No space left on device", rep_err, re.M):
        die("replay of a stopped recording exited %d: %s" % (status, rep_err))
if status in (0, 3):
    for r in range(np):
        a = [l for l in open("%s.%d" % (out, r)) if l.startswith("round")]
        b = [l for l in open("%s.%d" % (rep, r)) if l.startswith("round")]
        if a[:len(b)] != b: die("rank %d: the replay's rounds differ from the recording's" % r)
        if status == 0 and len(b) != rounds: die("rank %d: the complete replay did %d rounds" % (r, len(b)))
print(len(stops))
PY
) || fail "$name: see above"
    umount "$MNT"
    stopped_total=$((stopped_total + stopped))
    echo "ok: $name: $stopped rank(s) stopped recording, replay exit $STATUS"
}

# 56k leaves a page or two after every rank made its log (one page) and a one-page-stage tail
# (two): the logs fill it. 120k with a 4 KiB history stage fits every history too, barely. 48k
# does not fit every rank's log, and 1m takes the default stages until it is full.
# MPICH's ranks spin while they wait (4 ranks on 2 cores: 20 s a case here): there, one case
# per mode, on each of the small sizes, with and without a history, and 600 rounds (its ranks
# fill these sizes by event 4,800-5,800, about round 350 of 16 events each).
if [ "$IMPL" = mpich ]; then
    ROUNDS=600
    one 56k sources 0
    one 120k races 1 4
    one 48k all 1 4
else
    one 56k sources 0
    one 120k sources 1 4
    one 48k sources 0
    one 56k races 0
    one 120k races 1 4
    one 1m races 1
    one 56k all 0
    one 120k all 1 4
    one 48k all 1 4
fi
[ "$stopped_total" -gt 0 ] || fail "no rank ran out of space: the sizes test nothing"
echo "ok: $IMPL: recordings on a full disk never harmed the program ($stopped_total ranks stopped recording)"
