#!/bin/bash
# near.sh MPIRR IMPL PROGDIR: `mpirr races --near R:E|crash` on real recordings.
# near_crash (4 ranks, PROGDIR/near_crash) always dies of SIGSEGV on rank 0 right after its last
# receive; ranks 1, 2, 3 each have 2 racing receives, 0 (rank 3), 1 (rank 2) and 2 (rank 1)
# events before the crash (near_crash.c says why). Checked:
#  - the default on a crash recording and --near crash: one header line naming rank 0's crash,
#    all 6 racing receives before it, the first one before the crash, distances nondecreasing,
#    exactly 0 for rank 3's, 1 for rank 2's, 2 for rank 1's; the same list both ways;
#  - --near 0:E, E the crash event the header names, gives the same order and distances, and
#    --json agrees ("near" and per receive "distance") with every form;
#  - --near 0:E-1 (the report of rank 2): rank 3's receives are "not before 0:E-1", listed last;
#  - bad --near values: one line on stderr and exit status 2 each; on a recording that ended
#    cleanly (nm_fig1) there is no crash to default to, and --near crash is refused.
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROGDIR=$3
read -r -a LAUNCH4 <<<"$(launcher "$IMPL" 4)"
read -r -a LAUNCH3 <<<"$(launcher "$IMPL" 3)"

run "$TMP/rec" "$MPIRR" record --events -o "$TMP/crash" -- "${LAUNCH4[@]}" "$PROGDIR/near_crash"
[ "$STATUS" -ne 0 ] || fail "near_crash did not crash (exit status 0)"
grep -q '^orders ' "$TMP/rec.out" || { cat "$TMP/rec.err" >&2; fail "near_crash printed no orders line"; }

# races OUT ARGS...: mpirr races, which must succeed; OUT.list: the listing, without the summary
# (its timings differ from run to run)
races() {
    out=$1
    shift
    "$MPIRR" races "$@" >"$TMP/$out.out" 2>"$TMP/$out.err" ||
        { cat "$TMP/$out.err" >&2; fail "mpirr races $* exited $?"; }
    sed '/^$/,$d' "$TMP/$out.out" >"$TMP/$out.list"
}

races default "$TMP/crash"
races crash "$TMP/crash" --near crash
head -1 "$TMP/default.list" | grep -q '^nearest the crash first: rank 0 ended with signal 11 (SIGSEGV) after its event [0-9]* (--near 0:[0-9]*)$' ||
    { cat "$TMP/default.out" >&2; fail "the default on a crash recording does not start with a line on rank 0's crash"; }
cmp -s "$TMP/default.list" "$TMP/crash.list" || { diff "$TMP/default.list" "$TMP/crash.list" >&2; fail "--near crash lists otherwise than the default"; }
E=$(sed -n '1s/.*after its event \([0-9]*\) .*/\1/p' "$TMP/default.list")
[ "$(sed -n 2p "$TMP/default.list")" = "6 of 6 racing receives happened before the crash" ] ||
    { cat "$TMP/default.out" >&2; fail "expected all 6 racing receives before the crash"; }

# distances FILE TARGET: "rank distance" per listed receive, in order ("rank -" if not before)
distances() {
    sed -n "s/^  rank \([0-9]*\) event [0-9]*, \([0-9]*\) events\{0,1\} before $2: .*/\1 \2/p; s/^  rank \([0-9]*\) event [0-9]*, not before $2: .*/\1 -/p" "$1"
}
distances "$TMP/default.list" "the crash" >"$TMP/default.d"
[ "$(wc -l <"$TMP/default.d")" -eq 6 ] || { cat "$TMP/default.out" >&2; fail "expected 6 receive lines with a distance"; }
sort -s -n -k2,2 "$TMP/default.d" | cmp -s - "$TMP/default.d" || { cat "$TMP/default.d" >&2; fail "distances are not nondecreasing"; }
printf '3 0\n3 0\n2 1\n2 1\n1 2\n1 2\n' | cmp -s - "$TMP/default.d" ||
    { cat "$TMP/default.d" >&2; fail "expected rank 3's receives 0, rank 2's 1, rank 1's 2 events before the crash"; }
echo "ok: the default and --near crash order near_crash's 6 racing receives by distance to rank 0's crash at event $E"

races explicit "$TMP/crash" --near "0:$E"
[ "$(head -1 "$TMP/explicit.list")" = "nearest rank 0 event $E first (--near 0:$E)" ] ||
    { cat "$TMP/explicit.out" >&2; fail "--near 0:$E: unexpected header"; }
distances "$TMP/explicit.list" "0:$E" | cmp -s - "$TMP/default.d" || { cat "$TMP/explicit.out" >&2; fail "--near 0:$E lists otherwise than the crash"; }
sed 1d "$TMP/explicit.list" | sed "s/ before 0:$E/ before the crash/" | cmp -s - <(sed 1d "$TMP/default.list") ||
    fail "--near 0:$E and the crash list different receives"

# the JSON of every form: the same event and receive order, distances nondecreasing then null
for form in default crash explicit; do
    case $form in
    default) args=() ;;
    crash) args=(--near crash) ;;
    *) args=(--near "0:$E") ;;
    esac
    races "$form.json" "$TMP/crash" --json "${args[@]}"
    python3 - "$TMP/$form.json.out" "$form" "$E" <<'EOF' >"$TMP/$form.jd" || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
form, E = sys.argv[2], int(sys.argv[3])
n = d["near"]
want = {"rank": 0, "event": E, "why": "given" if form == "explicit" else "crash"}
if any(n.get(k) != v for k, v in want.items()) or n.get("before") != 6:
    sys.exit("FAIL: %s: near is %s, expected %s and before 6" % (form, n, want))
if form != "explicit" and (n.get("crashed_ranks") != 1 or n.get("in_call") is not False):
    sys.exit("FAIL: %s: near is %s, expected 1 crashed rank, after the call" % (form, n))
dist = [r["distance"] for r in d["receives"]]
if len(dist) != 6 or None in dist or dist != sorted(dist):
    sys.exit("FAIL: %s: distances %s are not 6 nondecreasing numbers" % (form, dist))
for r in d["receives"]:
    print(r["rank"], r["event"], r["distance"])
EOF
done
cmp -s "$TMP/default.jd" "$TMP/crash.jd" && cmp -s "$TMP/default.jd" "$TMP/explicit.jd" ||
    fail "--json: the default, --near crash and --near 0:$E order the receives differently"
echo "ok: --near 0:$E gives the crash's order, and --json says so in every form"

# one event earlier (rank 0's receive of rank 2's report): rank 3's report is not before it
races earlier "$TMP/crash" --near "0:$((E - 1))"
[ "$(sed -n 2p "$TMP/earlier.list")" = "4 of 6 racing receives happened before 0:$((E - 1))" ] ||
    { cat "$TMP/earlier.out" >&2; fail "--near 0:$((E - 1)): expected 4 of 6 before"; }
printf '2 0\n2 0\n1 1\n1 1\n3 -\n3 -\n' | cmp -s - <(distances "$TMP/earlier.list" "0:$((E - 1))") ||
    { cat "$TMP/earlier.out" >&2; fail "--near 0:$((E - 1)): expected ranks 2 (0), 1 (1), then rank 3 not before"; }
echo "ok: --near 0:$((E - 1)) puts rank 3's receives last, not before it"

# A recording that ended cleanly: no crash to order by
run "$TMP/cleanrec" "$MPIRR" record --events -o "$TMP/clean" -- "${LAUNCH3[@]}" "$PROGDIR/nm_fig1"
[ "$STATUS" -eq 0 ] || { cat "$TMP/cleanrec.err" >&2; fail "nm_fig1 recording exited $STATUS"; }
races cleandefault "$TMP/clean"
grep -q '^nearest' "$TMP/cleandefault.list" && fail "a clean recording was ordered near something by default"
grep -q 'racing receive' "$TMP/cleandefault.list" || { cat "$TMP/cleandefault.out" >&2; fail "nm_fig1: no racing receive listed"; }
races cleanjson "$TMP/clean" --json
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["near"] is not None)' "$TMP/cleanjson.out" ||
    fail "a clean recording's --json has a near event"

# bad DIR VALUE PATTERN: one line on stderr matching PATTERN, exit status 2
bad() {
    run "$TMP/bad" "$MPIRR" races "$1" --near "$2"
    [ "$STATUS" -eq 2 ] || { cat "$TMP/bad.err" >&2; fail "--near '$2': exit status $STATUS, expected 2"; }
    [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] || { cat "$TMP/bad.err" >&2; fail "--near '$2': expected one line on stderr"; }
    expect_error "$TMP/bad" "$3"
}
bad "$TMP/crash" 1-2 "needs RANK:EVENT (e.g. 3:1207) or crash, not '1-2'"
bad "$TMP/crash" 0:0 "needs RANK:EVENT"
bad "$TMP/clean" 7:1 "there is no rank 7 (the run had 3)"
bad "$TMP/clean" 1:999999 "rank 1 has no event 999999 (its history holds events 1 to [0-9]*)"
bad "$TMP/clean" crash "--near crash: no rank of .* died by itself"
echo "ok: bad --near values are one line each, exit status 2"
