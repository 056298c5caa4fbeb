#!/bin/bash
# outcomes.sh MPIRR IMPL EXPLORE_BIN: mpirr races --outcomes (issue 34) on real MPI runs.
#  1. outcomes_races (3 ranks) has two racing receives: an order printed (harmful) and a sum
#     taken in any order (benign). The verdicts are exactly harmful then benign, exit status 1;
#     the harmful run printed the other order and its recording replays to it under noise, 3
#     times;
#  2. --json parses and says the same; the verdict lines go to stderr;
#  3. --budget 1: the first receive harmful, the second untested (budget), exit status 1;
#  4. bad input: one line each, exit status 2, nothing made: bad numbers, an unknown option, no
#     or two recordings, nothing after --, a races-mode recording, a recording without an event
#     history, not a recording, an OUTDIR that is not empty;
#  5. SIGINT while the replay of the recording runs (a COMMAND given after --, whose ranks linger
#     after printing): the summary says so, every receive untested, exit status 130.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/interrupt.sh"
MPIRR=$1
IMPL=$2
BIN=$3
SRC=$(dirname "$0")/outcomes_races.c
read -r -a L3 <<<"$(launcher "$IMPL" 3)"
RUN_TIMEOUT=240
P=$BIN/outcomes_races

summary() { grep '^races --outcomes: ' "$1.out" || fail "$1: no summary line: $(cat "$1.out" "$1.err")"; }
line_of() { grep -n -- "$1" "$SRC" | head -1 | cut -d: -f1; }
SUM_LINE=$(line_of 'TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE')
ORDER_LINE=$(line_of 'MPI_Recv(&first')

# --- the recording -----------------------------------------------------------------------------
REC=$TMP/rec
run "$TMP/rec" "$MPIRR" record --events -o "$REC" -- "${L3[@]}" "$P"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record: exit status $STATUS"; }
# the token and a pause make "order 1 2" the usual native order, but nothing depends on it: the
# recording's order is the one the flip reverses
[[ $(cat "$TMP/rec.out") =~ ^order\ ([12])\ ([12])$'\n'sum\ 30$ ]] || fail "record: the program printed $(cat "$TMP/rec.out")"
took=${BASH_REMATCH[1]} forced=${BASH_REMATCH[2]}
[ "$took" != "$forced" ] || fail "record: the program printed $(cat "$TMP/rec.out")"

# --- 1. the verdicts ---------------------------------------------------------------------------
OUT=$TMP/out
run "$TMP/v" "$MPIRR" races --outcomes -o "$OUT" "$REC"
[ "$STATUS" -eq 1 ] || { cat "$TMP/v.err" >&2; fail "outcomes: exit status $STATUS, expected 1 (a harmful race)"; }
cat "$TMP/v.out"
mapfile -t verdicts < <(grep '^rank ' "$TMP/v.out")
[ "${#verdicts[@]}" -eq 2 ] || fail "outcomes: ${#verdicts[@]} verdict lines, expected 2"
re="^rank 0 event [0-9]+ \(.*outcomes_races\.c:$ORDER_LINE\): harmful: forcing rank $forced's message \(the recording took rank $took's\) ended otherwise \(exit 0, stdout [0-9a-f]{16}\); its recording: (.*)$"
[[ ${verdicts[0]} =~ $re ]] || fail "outcomes: the order's receive: ${verdicts[0]}"
harm=${BASH_REMATCH[1]}
[ "$harm" = "$(realpath "$OUT")/run-0001" ] || fail "outcomes: the harmful run is $harm"
[[ ${verdicts[1]} =~ ^rank\ 0\ event\ [0-9]+\ \(.*outcomes_races\.c:$SUM_LINE\):\ benign\ \(1\ alternative,\ all\ ended\ alike\)$ ]] ||
    fail "outcomes: the sum's receive: ${verdicts[1]}"
line=$(summary "$TMP/v")
[[ $line =~ ^races\ --outcomes:\ 2\ racing\ receives:\ 1\ benign,\ 1\ harmful,\ 0\ untested\;\ 2\ flipped\ runs\ in\ .*\ \(the\ recording:\ exit\ 0,\ stdout\ [0-9a-f]{16}\)$ ]] ||
    fail "outcomes: summary: $line"
[ "$(cat "$OUT/run-0002/stdout")" = "$(cat "$TMP/rec.out")" ] || fail "outcomes: the benign run printed $(cat "$OUT/run-0002/stdout")"
[ "$(cat "$harm/stdout")" = "$(printf 'order %s %s\nsum 30' "$forced" "$took")" ] || fail "outcomes: the harmful run printed $(cat "$harm/stdout")"
# the harmful run's recording replays to its output, every time
for i in 1 2 3; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$harm"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i: exit status $STATUS"; }
    same_output "$TMP/replay$i.out" "$harm/stdout" || fail "replay $i: output differs from the harmful run's"
    replay_as_recorded "$TMP/replay$i" || fail "replay $i: $(grep '^mpirr: ' "$TMP/replay$i.err")"
done
echo "ok: harmful then benign; the harmful run replays 'order $forced $took' 3 times"

# --- 2. --json ---------------------------------------------------------------------------------
run "$TMP/j" "$MPIRR" races --outcomes --json -o "$TMP/j.d" "$REC"
[ "$STATUS" -eq 1 ] || { cat "$TMP/j.err" >&2; fail "--json: exit status $STATUS, expected 1"; }
jq -e . "$TMP/j.out" >/dev/null || fail "--json: does not parse: $(cat "$TMP/j.out")"
[ "$(jq -c '[.receives[].verdict]' "$TMP/j.out")" = '["harmful","benign"]' ] || fail "--json: verdicts $(jq -c '[.receives[].verdict]' "$TMP/j.out")"
[ "$(jq -c '[.runs, .benign, .harmful, .untested, .interrupted]' "$TMP/j.out")" = '[2,1,1,0,null]' ] ||
    fail "--json: counts $(jq -c '[.runs, .benign, .harmful, .untested, .interrupted]' "$TMP/j.out")"
[ "$(jq -r '.receives[0].runs[0] | "\(.source) \(.forced_got) \(.alike) \(.recording)"' "$TMP/j.out")" = "$forced $forced false $(realpath "$TMP/j.d")/run-0001" ] ||
    fail "--json: the harmful run $(jq -c '.receives[0].runs[0]' "$TMP/j.out")"
[ "$(jq -r '.receives[0].runs[0].outcome.stdout_digest != .recorded.stdout_digest' "$TMP/j.out")" = true ] ||
    fail "--json: the harmful run's digest is the recording's"
[ "$(grep -c '^rank 0 event ' "$TMP/j.err")" -eq 2 ] || fail "--json: the verdict lines are not on stderr: $(cat "$TMP/j.err")"
echo "ok: --json"

# --- 3. --budget 1 -----------------------------------------------------------------------------
run "$TMP/b" "$MPIRR" races --outcomes --budget 1 -o "$TMP/b.d" "$REC"
[ "$STATUS" -eq 1 ] || { cat "$TMP/b.err" >&2; fail "--budget 1: exit status $STATUS, expected 1"; }
grep -q "outcomes_races\.c:$SUM_LINE): untested (budget)$" "$TMP/b.out" || fail "--budget 1: $(cat "$TMP/b.out")"
[[ $(summary "$TMP/b") == *": 2 racing receives: 0 benign, 1 harmful, 1 untested; 1 flipped run in "* ]] ||
    fail "--budget 1: $(summary "$TMP/b")"
[ "$(ls "$TMP/b.d")" = "$(printf 'replay\nrun-0001')" ] || fail "--budget 1: OUTDIR holds $(ls "$TMP/b.d" | tr '\n' ' ')"
echo "ok: --budget 1"

# --- 4. bad input ------------------------------------------------------------------------------
# bad NAME DIR PATTERN ARGS...: races ARGS fails with status 2 and one line matching PATTERN, and
# DIR (if given) was not made.
bad() {
    name=$1 dir=$2 pat=$3
    shift 3
    run "$TMP/$name" "$MPIRR" races "$@"
    [ "$STATUS" -eq 2 ] || { cat "$TMP/$name.err" >&2; fail "$name: exit status $STATUS, expected 2"; }
    expect_error "$TMP/$name" "$pat"
    [ "$(wc -l <"$TMP/$name.err")" -eq 1 ] || { cat "$TMP/$name.err" >&2; fail "$name: more than one line"; }
    [ ! -s "$TMP/$name.out" ] || fail "$name: printed $(head -1 "$TMP/$name.out")"
    [ -z "$dir" ] || [ ! -e "$dir" ] || fail "$name: $dir was made"
}
run "$TMP/racesmode" "$MPIRR" record --events --mode races -o "$TMP/racesmode.d" -- "${L3[@]}" "$P"
[ "$STATUS" -eq 0 ] || { cat "$TMP/racesmode.err" >&2; fail "record --mode races: exit status $STATUS"; }
run "$TMP/noev" "$MPIRR" record -o "$TMP/noev.d" -- "${L3[@]}" "$P"
[ "$STATUS" -eq 0 ] || { cat "$TMP/noev.err" >&2; fail "record without --events: exit status $STATUS"; }
bad budget0 "$TMP/x1" 'races --outcomes: --budget 0: expected an integer from 1 to' --outcomes --budget 0 -o "$TMP/x1" "$REC"
bad per_race "$TMP/x2" 'races --outcomes: --per-race x: expected an integer' --outcomes --per-race x -o "$TMP/x2" "$REC"
bad timeout "$TMP/x3" 'races --outcomes: --timeout 0: expected an integer' --outcomes --timeout 0 -o "$TMP/x3" "$REC"
bad option "$TMP/x4" "unknown option '--near'" --outcomes --near 0:1 -o "$TMP/x4" "$REC"
bad no_rec "$TMP/x5" 'races --outcomes takes one recording directory' --outcomes -o "$TMP/x5"
bad two_recs "$TMP/x6" 'races --outcomes takes one recording directory' --outcomes -o "$TMP/x6" "$REC" "$REC"
bad empty_cmd "$TMP/x7" "nothing after '--'" --outcomes -o "$TMP/x7" "$REC" --
bad races_mode "$TMP/x8" 'was recorded in races mode' --outcomes -o "$TMP/x8" "$TMP/racesmode.d"
bad no_events "$TMP/x9" 'recorded with --events' --outcomes -o "$TMP/x9" "$TMP/noev.d"
bad not_rec "$TMP/x10" 'no such recording directory' --outcomes -o "$TMP/x10" "$TMP/nosuch"
mkdir "$TMP/full" && touch "$TMP/full/keep"
bad not_empty "" 'full exists and is not empty' --outcomes -o "$TMP/full" "$REC"
[ "$(ls "$TMP/full")" = keep ] || fail "not_empty: the directory was changed"
echo "ok: bad input refused"

# --- 5. interrupted: SIGINT once the replay of the recording has printed ------------------------
D=$TMP/int
sigint_when_printed int "$D/replay.stdout" '^sum ' \
    "$MPIRR" races --outcomes -o "$D" "$REC" -- "${L3[@]}" "$P" 600
line=$(summary "$TMP/int")
[[ $line == "races --outcomes: interrupted by SIGINT after 0 runs; 2 racing receives: 0 benign, 0 harmful, 2 untested;"* ]] ||
    fail "interrupted: $line"
[ "$(grep -c ': untested (interrupted)$' "$TMP/int.out")" -eq 2 ] || fail "interrupted: $(cat "$TMP/int.out")"
echo "ok: interrupted: $line"
