#!/bin/bash
# killed.sh MPIRR IMPL PROG MODE [RUNS [local]]
# A recorded run whose ranks are all killed (SIGKILL) at a random moment replays exactly to the
# recorded point and no further, in every mode: each rank is held before the first call the
# recorded run did not finish, `mpirr replay` says so in one line, ends the job and fails. The
# replay, under timing noise, writes what the recorded ranks wrote (each rank may write the one
# line it had computed when the kill came before its write), so the nondeterministic orders
# were followed; native runs of 60 rounds differ (checked here), so they had to be. PROG is
# endless_storm. With "local" the runs record with --local into a node-local folder (a scratch
# folder here): the killed ranks move nothing themselves, so mpirr record must gather every
# rank's files into the recording and leave nothing behind.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 MODE=$4 RUNS=${5:-10} NP=4
LOCAL=()
[ "${6:-}" = local ] && LOCAL=(--local "$TMP/node")
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

rounds_of() { cat "$1" 2>/dev/null | grep -c '^round'; }

# record_and_kill I: records a run and kills every rank once rank 0 has done a random number
# of rounds (waiting on that condition, polled, not on a time).
record_and_kill() {
    i=$1 rec=$TMP/rec$1 out=$TMP/out$1
    want=$((RANDOM % 25 + 1))
    timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" record --mode "$MODE" "${LOCAL[@]}" -o "$rec" -- "${LAUNCH[@]}" \
        "$PROG" "$out" >"$TMP/rec$i.out" 2>"$TMP/rec$i.err" &
    pid=$!
    while [ "$(rounds_of "$out.0")" -lt "$want" ]; do
        kill -0 "$pid" 2>/dev/null || { cat "$TMP/rec$i.err" >&2; fail "run $i: the recorded run ended by itself"; }
        sleep 0.01
    done
    pids=$(cat "$out".* | sed -n 's/^pid //p')
    [ "$(echo "$pids" | wc -w)" -eq "$NP" ] || fail "run $i: not every rank wrote its pid"
    kill -KILL $pids
    wait "$pid"
    [ "$?" -ne 0 ] || fail "run $i: the killed run exited 0"
    [ -z "${LOCAL[*]}" ] || {
        grep -q '^mpirr: rank files' "$TMP/rec$i.err" && fail "run $i: record did not gather: $(cat "$TMP/rec$i.err")"
        [ ! -e "$rec/local" ] && [ -z "$(ls -A "$TMP/node")" ] ||
            fail "run $i: files left after gathering: $(ls -R "$rec/local" "$TMP/node")"
        [ "$(ls "$rec"/rank-*.log | wc -l)" -eq "$NP" ] || fail "run $i: not every rank's log was gathered"
    }
}

# check_replay I: the replay ends where the recording does, having written the same lines.
check_replay() {
    i=$1 rec=$TMP/rec$1
    "$MPIRR" stat --json "$rec" >"$TMP/stat$i.json" 2>"$TMP/stat$i.err" ||
        { cat "$TMP/stat$i.err" >&2; fail "run $i: mpirr stat failed on the killed recording"; }
    run "$TMP/rep$i" "$MPIRR" replay --noise "$NOISE_US" "$rec" -- "${LAUNCH[@]}" "$PROG" "$TMP/rep$i"
    [ "$STATUS" -ne 0 ] || fail "run $i: the replay of a killed run exited 0"
    line=$(grep -m1 '^mpirr: replay stopped where the recording ends' "$TMP/rep$i.err") ||
        { cat "$TMP/rep$i.err" >&2; fail "run $i: the replay did not say it stopped where the recording ends"; }
    python3 - "$TMP/stat$i.json" "$line" "$TMP/out$i" "$TMP/rep$i" "$NP" <<'PY' || fail "run $i: the replay did not end at the recorded point: $line"
import json, re, sys
stat, line, out, rep, np = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
ranks = {r["rank"]: r for r in json.load(open(stat))["ranks"]}
held = {int(r): int(e) for r, e in re.findall(r"rank (\d+) before event (\d+)", line)}
assert len(held) == min(np, 4), ("not every rank held", held)
for r, e in held.items():
    # killed, or (Open MPI) SIGTERMed by mpirun as it tears the job down after the first kill
    assert ranks[r]["ending"] == "cut off" or (ranks[r]["ending"] == "signal" and
                                               ranks[r]["ending_detail"] in (9, 15)), ranks[r]
    # held before the call it was in when killed, or after the last one it finished
    assert e in (ranks[r]["events"], ranks[r]["events"] + 1), (r, e, ranks[r]["events"])
for r in range(np):
    a = [l for l in open("%s.%d" % (out, r)) if l.startswith("round")]
    b = [l for l in open("%s.%d" % (rep, r)) if l.startswith("round")]
    assert b[:len(a)] == a, ("rank %d: the replay's rounds differ from the recording's" % r)
    assert len(b) - len(a) in (0, 1), ("rank %d: %d rounds recorded, %d replayed" % (r, len(a), len(b)))
PY
    echo "ok: run $i: $(rounds_of "$TMP/out$i.0") rounds; $line"
}

for i in $(seq "$RUNS"); do
    record_and_kill "$i"
    check_replay "$i"
done
# The program must be nondeterministic, or nothing was proven: native runs of a fixed number of
# rounds, under timing noise, take different orders (those every rank saw). The recorded runs
# cannot show it reliably: a run killed after its first round leaves one round to compare. The
# program is the same in every mode: the sources-mode test checks it, and stops at the second
# differing run.
if [ "$MODE" != sources ]; then
    echo "ok: $RUNS killed $MODE recordings replayed to their recorded end (native runs: checked by the sources-mode test)"
    exit 0
fi
first=
for i in 1 2 3 4 5 6; do
    run "$TMP/native$i" "$MPIRR" run --noise "$NOISE_US" -- "${LAUNCH[@]}" "$PROG" "$TMP/nat$i" 60
    [ "$STATUS" -eq 0 ] || { cat "$TMP/native$i.err" >&2; fail "native run $i exited $STATUS"; }
    sum=$(cat "$TMP/nat$i".* | grep '^round' | md5sum)
    [ -z "$first" ] && first=$sum
    [ "$sum" != "$first" ] && break
done
[ "$sum" != "$first" ] || fail "6 native runs of 60 rounds all took the same orders: the program did not race"
echo "ok: $RUNS killed $MODE recordings replayed to their recorded end (native runs: two orders differed within $i)"
