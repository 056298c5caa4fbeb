#!/bin/bash
# stat_analysis.sh MPIRR TRACEGEN SCRIPT: `mpirr stat` analyses the event history only when
# asked (--analysis): by default it says so in one line and its JSON "races" is null; with
# --analysis (before or after the directory) the JSON "races" object is the summary of
# `mpirr races --json`, and the text has its racing line.
set -u
MPIRR=$1 TRACEGEN=$2 SCRIPT=$3
TMP=$(mktemp -d /tmp/mpirr-stat-analysis.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRACEGEN" "$SCRIPT" "$TMP/r" >/dev/null || fail "tracegen failed on $SCRIPT"
"$MPIRR" stat "$TMP/r" >"$TMP/plain.txt" 2>/dev/null
grep -q '^analysis    not run (mpirr stat --analysis' "$TMP/plain.txt" || fail "plain stat does not say the analysis was not run"
grep -q '^racing ' "$TMP/plain.txt" && fail "plain stat ran the race analysis"
"$MPIRR" stat --analysis "$TMP/r" >"$TMP/an.txt" 2>/dev/null
grep -q '^racing ' "$TMP/an.txt" || fail "stat --analysis printed no racing line"
grep -q 'not run' "$TMP/an.txt" && fail "stat --analysis says the analysis was not run"
"$MPIRR" stat --json "$TMP/r" >"$TMP/plain.json" 2>/dev/null
"$MPIRR" stat "$TMP/r" --json --analysis >"$TMP/an.json" 2>/dev/null
"$MPIRR" races --json "$TMP/r" >"$TMP/races.json" 2>/dev/null || fail "mpirr races failed"
python3 - "$TMP/plain.json" "$TMP/an.json" "$TMP/races.json" <<'PY' || exit 1
import json, sys
plain, an, races = (json.load(open(p)) for p in sys.argv[1:4])
if plain.get("races", "missing") is not None:
    sys.exit("FAIL: plain stat --json has races = %r, expected null" % plain.get("races", "missing"))
got, want = an["races"], races["summary"]
for d in (got, want):
    d.pop("seconds", None)
    d.pop("events_per_second", None)
if got != want:
    sys.exit("FAIL: stat --analysis races %s differs from mpirr races summary %s" % (got, want))
if not got["racing_receives"]:
    sys.exit("FAIL: the trace should race")
PY
echo "ok: stat analyses only with --analysis"
