#!/bin/bash
# libc_verdict.sh MPIRR IMPL PROG: a replay that gave the program live libc values its
# recording does not hold says it was not exact (docs/cli/replay.md, "How a replay ends"), in
# every record mode, with and without --events (the time and none cases without). PROG is libc_unrecorded, on 3 ranks (rank r
# calls its group r+1 times):
#   pid, recorded with the defaults: the replay runs to the end with other output, and its
#     verdict names getpid() and its 6 calls, and --libc-pid;
#   pid, recorded with --libc-pid: plain "finished as recorded", output as recorded (under noise);
#   time, recorded with --no-libc-time: time() and clock_gettime(CLOCK_MONOTONIC), 12 calls;
#   none: plain verdict.
# The "mpirr:" lines of the recording (which names the same calls) and of the replay are
# compared exactly.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=3
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

# replay_lines REC NAME: replays REC under noise into $TMP/NAME.*; prints its "mpirr:" lines.
replay_lines() {
    run "$TMP/$2" "$MPIRR" replay --noise "$NOISE_US" "$1"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/$2.err" >&2; fail "$2: the replay exited $STATUS"; }
    grep '^mpirr: ' "$TMP/$2.err" | grep -Ev "$LAUNCHER_ENDED"
}

# check MODE_OPTIONS GROUP RECORD_OPTIONS SAME NOTE...: records PROG GROUP with the options:
# mpirr record's "mpirr:" lines must be the NOTE lines; replays it: its "mpirr:" lines must be
# the verdict, with ", but not exact: ..." and the NOTE lines if any are given; SAME: whether its output must equal the recording's (same),
# differ from it (other), or either (any).
check() {
    local modeopts=$1 group=$2 recopts=$3 same=$4 name
    shift 4
    name="$(echo "$modeopts $group $recopts" | tr -c 'a-z0-9\n' '_')"
    # shellcheck disable=SC2086
    run "$TMP/rec-$name" "$MPIRR" record $modeopts $recopts -o "$TMP/$name" -- "${LAUNCH[@]}" "$PROG" "$group"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$name.err" >&2; fail "$name: the recording exited $STATUS"; }
    # mpirr record ends with the same NOTE lines, nothing else
    notes=""
    for note in "$@"; do notes="$notes${notes:+$'\n'}mpirr: $note"; done
    got=$(grep '^mpirr: ' "$TMP/rec-$name.err" | grep -Ev "$LAUNCHER_ENDED")
    [ "$got" = "$notes" ] || { cat "$TMP/rec-$name.err" >&2; fail "$name: the recording said
$got
expected
$notes"; }
    total=$("$MPIRR" stat --json "$TMP/$name" |
        python3 -c 'import json, sys; print(sum(r["events"] for r in json.load(sys.stdin)["ranks"]))') ||
        fail "$name: mpirr stat --json failed"
    expected="mpirr: replay finished as recorded ($NP ranks, $total events)"
    [ $# -eq 0 ] || expected="$expected, but not exact: libc values were not recorded"$'\n'"$notes"
    got=$(replay_lines "$TMP/$name" "rep-$name") || exit 1
    [ "$got" = "$expected" ] || { cat "$TMP/rep-$name.err" >&2; fail "$name: the replay said
$got
expected
$expected"; }
    if [ "$same" = same ]; then
        same_output "$TMP/rec-$name.out" "$TMP/rep-$name.out" || fail "$name: the replay printed something else than the recording"
    elif [ "$same" = other ]; then
        ! same_output "$TMP/rec-$name.out" "$TMP/rep-$name.out" 2>/dev/null ||
            fail "$name: the replay, with live pids, printed what the recording printed: not a test"
    fi
    echo "ok: $modeopts $group $recopts: $(printf '%s' "$got" | tr '\n' '|')"
}

for ev in "" --events; do
    for mode in sources races all; do
        m="--mode=$mode $ev"
        check "$m" pid "" other "the program called getpid() 6 times; its values were not recorded (record with --libc-pid)"
        check "$m" pid --libc-pid same
        # the event history changes nothing in what is counted: the other groups once per mode
        [ -z "$ev" ] || continue
        check "$m" time --no-libc-time any \
            "the program called time(), clock_gettime(CLOCK_MONOTONIC) 12 times; their values were not recorded (record without --no-libc-time)"
        check "$m" none "" same
    done
done
