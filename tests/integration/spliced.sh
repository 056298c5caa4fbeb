#!/bin/bash
# spliced.sh MPIRR IMPL PROGRAMS_BIN INTEGRATION_BIN
# Recordings never mix (docs/format.md, "Run id"): every file of a recording carries the run id
# `mpirr record` drew, and a file spliced in from another recording is refused with one line
# naming it (exit status 2) by stat, races, events, replay --dry-run and replay, before
# anything runs. Spliced: a rank log with its tail, a rank log alone, a tail alone (from
# another run of the same program, with the same rank count: nothing else tells them apart),
# an event history of another program, a thread's sync log and a races-mode pending file of
# another run of the same program. The recordings themselves work in every mode, and a flip
# writes a recording with its own run id.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3 BIN=$4 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
read -r -a LAUNCH2 <<<"$(launcher "$IMPL" 2 threads)"

# record NAME CMD...: records CMD (with its event history) into $TMP/NAME.
record() {
    local name=$1
    shift
    run "$TMP/rec-$name" "$MPIRR" record --events -o "$TMP/$name" "$@"
}

run_id() { sed -n 's/^run-id //p' "$TMP/$1/manifest"; }

# works NAME: every command reads $TMP/NAME, and its replay ends as recorded.
works() {
    local dir=$TMP/$1 c
    for c in stat races events; do
        run "$TMP/$c-$1" "$MPIRR" $c "$dir"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/$c-$1.err" >&2; fail "$1: mpirr $c exited $STATUS"; }
    done
    run "$TMP/dry-$1" "$MPIRR" replay --dry-run "$dir"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/dry-$1.err" >&2; fail "$1: mpirr replay --dry-run exited $STATUS"; }
    run "$TMP/replay-$1" "$MPIRR" replay "$dir"
    replay_as_recorded "$TMP/replay-$1" || { cat "$TMP/replay-$1.err" >&2; fail "$1: the replay did not end as recorded"; }
    echo "ok: $1 (run id $(run_id "$1")): stat, races, events, replay --dry-run, replay"
}

# spliced INTO FROM FILE...: $TMP/spliced is recording INTO with FILEs taken from FROM; each
# command refuses it with one line naming the first FILE and both run ids.
spliced() {
    local into=$1 from=$2 c
    shift 2
    rm -rf "${TMP:?}/spliced" && cp -r "$TMP/$into" "$TMP/spliced" || fail "cannot copy $into"
    for f in "$@"; do cp "$TMP/$from/$f" "$TMP/spliced/$f" || fail "$from has no $f"; done
    for c in stat races events "replay --dry-run" replay; do
        # shellcheck disable=SC2086 # the command's words
        run "$TMP/s" "$MPIRR" $c "$TMP/spliced"
        [ "$STATUS" -eq 2 ] || { cat "$TMP/s.err" >&2; fail "$c of $into with $from's $1: exit $STATUS, expected 2"; }
        expect_error "$TMP/s" "spliced/$1 belongs to another recording (run id $(run_id "$from"), this recording's is $(run_id "$into"))" >/dev/null
        [ "$(grep -c . "$TMP/s.err")" -eq 1 ] || { cat "$TMP/s.err" >&2; fail "$c of $into with $from's $1: more than one line"; }
        [ ! -s "$TMP/s.out" ] || [ "$c" != replay ] || fail "replay of $into with $from's $1 ran the program"
    done
    echo "ok: $from's $* in $into: refused by stat, races, events, replay --dry-run, replay: $(cat "$TMP/s.err")"
}

# Two runs of one program, and a run of another with the same rank count.
for r in a b; do
    record "storm-$r" -- "${LAUNCH[@]}" "$PROGS/wildcard_storm"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-storm-$r.err" >&2; fail "recording wildcard_storm failed"; }
done
record worker -- "${LAUNCH[@]}" "$PROGS/master_worker"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec-worker.err" >&2; fail "recording master_worker failed"; }
[ "$(run_id storm-a)" != "$(run_id storm-b)" ] && [ "$(run_id storm-a)" != "$(run_id worker)" ] &&
    [ "$(run_id storm-a)" != "" ] || fail "the run ids are not distinct: $(run_id storm-a) $(run_id storm-b) $(run_id worker)"
works storm-a
spliced storm-a storm-b rank-00002.log rank-00002.tail
spliced storm-a storm-b rank-00002.log
spliced storm-a storm-b rank-00003.tail
spliced storm-a worker rank-00001.events

# Threads' sync logs.
for r in a b; do
    record "threads-$r" -- "${LAUNCH2[@]}" "$BIN/thread_sync" mutex
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-threads-$r.err" >&2; fail "recording thread_sync failed"; }
done
works threads-a
spliced threads-a threads-b sync-00001-0002.log sync-00001-0002.tail
spliced threads-a threads-b sync-00000-0001.tail

# Races mode: a rank killed with undecided outcomes leaves a pending file.
for r in a b; do
    run "$TMP/rec-die-$r" "$MPIRR" record --mode races --events -o "$TMP/die-$r" -- "${LAUNCH[@]}" "$BIN/die" segv "$TMP/seen-$r"
    [ -e "$TMP/die-$r/rank-00001.pending" ] || { cat "$TMP/rec-die-$r.err" >&2; fail "the races-mode run that died left no rank-00001.pending"; }
done
works die-a
spliced die-a die-b rank-00001.pending

# A flip records a new recording under a run id of its own, every file of it.
race=$("$MPIRR" races "$TMP/storm-a" | sed -n 's/^  rank \([0-9]*\) event \([0-9]*\) .*could have got \([0-9]*\):.*/\1:\2=\3/p' | head -1)
[ -n "$race" ] || fail "no racing receive in storm-a to flip"
run "$TMP/flip" "$MPIRR" replay "$TMP/storm-a" --flip "$race" -o "$TMP/flipped"
[ "$STATUS" -eq 0 ] || { cat "$TMP/flip.err" >&2; fail "replay --flip $race exited $STATUS"; }
id=$(run_id flipped)
[ -n "$id" ] && [ "$id" != "$(run_id storm-a)" ] || fail "the flipped recording's run id is '$id', the parent's $(run_id storm-a)"
grep -qx "run-id $id" "$TMP/flipped/flip" || fail "the flip file does not carry the new run id $id"
works flipped
spliced flipped storm-a rank-00000.log rank-00000.tail
