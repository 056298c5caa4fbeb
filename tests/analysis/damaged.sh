#!/bin/bash
# damaged.sh MPIRR TRACEGEN SCRIPT: the analyses on damaged event histories. A rank's history
# that is truncated, corrupted or missing gets one line on stderr naming its file and rank,
# and the rest is analysed (the messages that rank's part would have matched show up as
# unmatched); a recording without rank 0's history, or no recording at all, is one line and
# exit status 2. Never a crash or a hang (this also runs under ASan in make check).
set -u
MPIRR=$1 TRACEGEN=$2 SCRIPT=$3
TMP=$(mktemp -d /tmp/mpirr-damaged.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRACEGEN" "$SCRIPT" "$TMP/ok" >/dev/null || fail "tracegen failed on $SCRIPT"
for k in trunc flip gone nozero; do cp -r "$TMP/ok" "$TMP/$k"; done
f=$TMP/trunc/rank-00001.events; truncate -s $(( $(stat -c %s "$f") / 2 )) "$f"
f=$TMP/flip/rank-00002.events; printf '\377' | dd of="$f" bs=1 seek=$(( $(stat -c %s "$f") / 2 )) conv=notrunc 2>/dev/null
rm "$TMP/gone/rank-00003.events" "$TMP/nozero/rank-00000.events"

# analyse KIND RANK WHAT: exit 0, one stderr line naming the rank's file and WHAT, JSON output
analyse() {
    timeout 60 "$MPIRR" races "$TMP/$1" --json >"$TMP/$1.json" 2>"$TMP/$1.err"
    local rc=$?
    [ $rc -eq 0 ] || { cat "$TMP/$1.err" >&2; fail "$1: mpirr races exited $rc"; }
    [ "$(wc -l <"$TMP/$1.err")" -eq 1 ] || { cat "$TMP/$1.err" >&2; fail "$1: expected one line on stderr"; }
    grep -q "^mpirr: .*rank-0000$2.events.*$3.*analysing rank $2 up to event" "$TMP/$1.err" ||
        { cat "$TMP/$1.err" >&2; fail "$1: the message does not name rank $2's file and '$3'"; }
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
if s["unmatched_receives"] + s["unreceived_sends"] == 0:
    sys.exit("FAIL: %s: a rank without its calls left no unmatched message" % sys.argv[2])
' "$TMP/$1.json" "$1" || exit 1
}
analyse trunc 1 truncated
analyse flip 2 corrupt
analyse gone 3 "No such file"

timeout 60 "$MPIRR" races "$TMP/nozero" >"$TMP/nozero.out" 2>"$TMP/nozero.err"
rc=$?
[ $rc -eq 2 ] || fail "no rank 0 history: exit $rc, expected 2"
[ "$(wc -l <"$TMP/nozero.err")" -eq 1 ] && grep -q '^mpirr: .*rank-00000.events' "$TMP/nozero.err" ||
    { cat "$TMP/nozero.err" >&2; fail "no rank 0 history: expected one line naming the file"; }
mkdir "$TMP/empty"
timeout 60 "$MPIRR" races "$TMP/empty" >/dev/null 2>"$TMP/empty.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/empty.err")" -eq 1 ] || { cat "$TMP/empty.err" >&2; fail "not a recording: exit $rc"; }
timeout 60 "$MPIRR" frontier "$TMP/ok" --at 1:999999 >/dev/null 2>"$TMP/fr.err"
rc=$?
[ $rc -eq 2 ] && grep -q '^mpirr: .*rank 1 has no event 999999' "$TMP/fr.err" || { cat "$TMP/fr.err" >&2; fail "frontier beyond the history: exit $rc"; }
echo "ok: truncated, corrupted and missing histories are reported and the rest analysed"
