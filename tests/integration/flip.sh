#!/bin/bash
# flip.sh MPIRR IMPL PROG POLLING
# mpirr replay DIR --flip R:E=SRC -o NEWDIR forces one racing receive to another message the
# race analysis lists, replaying everything before it, and records the rest: for a blocking
# (MPI_Recv) and a nonblocking (MPI_Irecv, polled with MPI_Test) racing receive of a recorded
# run of PROG (endless_storm, 4 rounds; every rank writes a digest of the sources it saw each
# round), in sources and all mode, the new recording
#  - says the receive took SRC's message (its event history, through mpirr races --json),
#  - kept every round before the flipped one as recorded, on every rank,
#  - changed the flipped rank's digest (which hashes the sources it saw),
#  - replays exactly (5 replays under timing noise write what the flipped run wrote).
# Flips the analysis does not allow, and bad options, are refused in one line each. POLLING
# (test_polling): rank 0's first racing receive comes before any record of that rank.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 POLLING=$4 NP=4 ROUNDS=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

rounds() { grep '^round' "$1"; }

# pick DIR CALL WHICH: "R:E=SRC TAKEN" for the WHICH-th (python index) racing receive made by
# CALL in DIR, SRC the first candidate other than the message it took.
pick() {
    "$MPIRR" races --json "$1" >"$TMP/races.json" || fail "mpirr races failed on $1"
    python3 - "$TMP/races.json" "$2" "$3" <<'PY'
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["receives"] if r["call"] == sys.argv[2]]
assert rs, "no racing %s" % sys.argv[2]
r = rs[int(sys.argv[3])]
alt = [c for c in r["candidates"] if c["rank"] != r["matched"]["rank"]][0]
print("%d:%d=%d %d %d" % (r["rank"], r["event"], alt["rank"], r["matched"]["rank"], alt["event"]))
PY
}

# check_flip MODE CALL WHICH
check_flip() {
    mode=$1 call=$2 which=$3 parent=$TMP/rec-$1
    read -r spec taken send <<<"$(pick "$parent" "$call" "$which")"
    r=${spec%%:*} e=${spec#*:} e=${e%%=*} src=${spec#*=}
    new=$TMP/flip-$mode-$call
    run "$new" "$MPIRR" replay "$parent" --flip "$spec" -o "$new" -- "${LAUNCH[@]}" "$PROG" "$new.out" "$ROUNDS"
    [ "$STATUS" -eq 0 ] || { cat "$new.err" >&2; fail "$mode $call: the flipped run $spec exited $STATUS"; }
    grep -q "^mpirr: flipped rank $r's event $e to rank $src's message" "$new.err" ||
        { cat "$new.err" >&2; fail "$mode $call: no line saying what was flipped"; }
    "$MPIRR" races --json "$new" >"$new.races" || fail "$mode $call: mpirr races failed on the flipped run"
    python3 - "$new.races" "$r" "$e" "$src" "$send" <<'PY' || fail "$mode $call: the flipped receive $spec did not take rank $src's message (event $send)"
import json, sys
d = json.load(open(sys.argv[1]))
r, e, src, send = map(int, sys.argv[2:])
x = [x for x in d["receives"] if x["rank"] == r and x["event"] == e]
assert x and x[0]["matched"]["rank"] == src and x[0]["matched"]["event"] == send, x
PY
    # the round of the flipped receive: rank r's rounds before it are as recorded
    flipped_round=$(python3 -c "
import json; d=json.load(open('$TMP/races.json'))
print(sum(1 for x in d['receives'] if x['rank']==$r and x['call']=='MPI_Recv' and x['event']<=$e) // 3)")
    for q in $(seq 0 $((NP - 1))); do
        cmp -s <(rounds "$parent.out.$q" | head -n "$flipped_round") <(rounds "$new.out.$q" | head -n "$flipped_round") ||
            fail "$mode $call: rank $q's rounds before the flipped one (round $flipped_round) changed"
    done
    cmp -s <(rounds "$parent.out.$r") <(rounds "$new.out.$r") &&
        fail "$mode $call: rank $r saw the same sources after taking rank $src's message instead of rank $taken's"
    for i in 1 2 3 4 5; do
        run "$TMP/rep$i" "$MPIRR" replay --noise "$NOISE_US" "$new" -- "${LAUNCH[@]}" "$PROG" "$TMP/rep$i" "$ROUNDS"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep$i" || { cat "$TMP/rep$i.err" >&2; fail "$mode $call: replay $i of the flipped run failed"; }
        for q in $(seq 0 $((NP - 1))); do
            cmp -s <(rounds "$new.out.$q") <(rounds "$TMP/rep$i.$q") ||
                fail "$mode $call: replay $i of the flipped run: rank $q wrote other rounds"
        done
    done
    echo "ok: $mode: $call $spec (was rank $taken's) took rank $src's message (event $send), rounds before kept, 5 replays exact"
}

for mode in sources all; do
    run "$TMP/rec-$mode" "$MPIRR" record --mode "$mode" --events --noise "$NOISE_US" -o "$TMP/rec-$mode" -- \
        "${LAUNCH[@]}" "$PROG" "$TMP/rec-$mode.out" "$ROUNDS"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$mode.err" >&2; fail "recording in $mode mode exited $STATUS"; }
done
check_flip sources MPI_Recv -3
check_flip sources MPI_Irecv 4
check_flip all MPI_Irecv -2

# refusals: one line each, exit 2, nothing run
P=$TMP/rec-sources
read -r spec taken send <<<"$(pick "$P" MPI_Recv 0)"
re=${spec%%=*}
expect_bad() { # NAME PATTERN ARGS...
    name=$1 pat=$2
    shift 2
    run "$TMP/bad-$name" "$MPIRR" replay "$@"
    [ "$STATUS" -eq 2 ] || fail "$name: exit status $STATUS, not 2"
    expect_error "$TMP/bad-$name" "$pat"
}
expect_bad taken "took rank $taken's message in the recording already" "$P" --flip "$re=$taken" -o "$TMP/x1"
expect_bad notrace "is not a racing receive" "$P" --flip "${re%%:*}:1=0" -o "$TMP/x2"
expect_bad range "has ranks 0 to 3" "$P" --flip "$re=9" -o "$TMP/x3"
expect_bad self "could have arrived" "$P" --flip "$re=${re%%:*}" -o "$TMP/x4"
expect_bad spec "needs RANK:EVENT=SOURCE" "$P" --flip "$re" -o "$TMP/x5"
expect_bad noout "give its directory with -o" "$P" --flip "$re=$taken"
expect_bad exists "exists and is not empty" "$P" --flip "$spec" -o "$TMP/flip-sources-MPI_Recv"
expect_bad stop "does not take --stop" "$P" --flip "$spec" --stop 0:3 -o "$TMP/x6"
run "$TMP/rec-races" "$MPIRR" record --mode races --events -o "$TMP/rec-races" -- "${LAUNCH[@]}" "$PROG" "$TMP/rec-races.out" 2
expect_bad races "recorded in races mode" "$TMP/rec-races" --flip "$spec" -o "$TMP/x7"
for x in 1 2 3 4 5 6 7; do [ ! -e "$TMP/x$x" ] || fail "a refused flip left $TMP/x$x behind"; done
# the first racing receive of a rank that has no record before it
run "$TMP/rec-poll" "$MPIRR" record --events -o "$TMP/rec-poll" -- "${LAUNCH[@]}" "$POLLING"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec-poll.err" >&2; fail "test_polling: the recording exited $STATUS"; }
read -r spec taken send <<<"$(pick "$TMP/rec-poll" MPI_Irecv 0)"
r=${spec%%:*} e=${spec#*:} e=${e%%=*} src=${spec#*=}
run "$TMP/flip-poll" "$MPIRR" replay "$TMP/rec-poll" --flip "$spec" -o "$TMP/flip-poll"
[ "$STATUS" -eq 0 ] || { cat "$TMP/flip-poll.err" >&2; fail "test_polling: the flipped run $spec exited $STATUS"; }
"$MPIRR" races --json "$TMP/flip-poll" >"$TMP/flip-poll.races" || fail "test_polling: mpirr races failed on the flipped run"
python3 - "$TMP/flip-poll.races" "$r" "$e" "$src" <<'PY' || fail "test_polling: the first racing receive $spec did not take rank $src's message"
import json, sys
d = json.load(open(sys.argv[1]))
r, e, src = map(int, sys.argv[2:])
x = [x for x in d["receives"] if x["rank"] == r and x["event"] == e]
assert x and x[0]["matched"]["rank"] == src, x
PY
echo "ok: test_polling: the first racing receive $spec took rank $src's message"
echo "ok: flips on $IMPL"
