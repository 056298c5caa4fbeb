#!/bin/bash
# unreplayed_verdict.sh MPIRR IMPL PROG: a program that makes MPI calls whose outcomes mpirr does
# not replay (the UNREPLAYED rows of mpi_calls.def) is never told it replayed "as recorded"
# without a word. PROG is file_shared on 4 ranks: each rank calls MPI_File_write_shared twice.
# A recording and a replay under noise: the replay's only "mpirr:" line is "finished as recorded
# (...), but not exact:" naming every rank's calls with their counts and what is not replayed,
# and it exits 0; `mpirr stat` lists the same counts (text and JSON). With EVENTS (4th
# argument), the recording holds exactly that many events: a Fortran twin (f_file_shared) counts
# what the C program does, its MPI_File_open and MPI_File_close included.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 EVENTS=${4:-} NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"

REC=$TMP/rec
run "$TMP/record" "$MPIRR" record -o "$REC" -- "${LAUNCH[@]}" "$PROG" "$TMP/rec.txt"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "the recording exited $STATUS"; }

call="MPI_File_write_shared 2 times"
total=$("$MPIRR" stat --json "$REC" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["ranks"]:
    if r["unreplayed_calls"] != {"MPI_File_write_shared": 2}:
        sys.exit("stat --json: rank %d unreplayed_calls %s" % (r["rank"], r["unreplayed_calls"]))
print(sum(r["events"] for r in d["ranks"]))') || fail "mpirr stat --json: $total"
[ -z "$EVENTS" ] || [ "$total" -eq "$EVENTS" ] || fail "the recording holds $total events, expected $EVENTS"
"$MPIRR" stat "$REC" >"$TMP/stat.txt" || fail "mpirr stat failed"
for k in $(seq 0 $((NP - 1))); do
    grep -Eq "^  rank $k +$call\$" "$TMP/stat.txt" || { cat "$TMP/stat.txt" >&2; fail "mpirr stat: no line 'rank $k $call'"; }
done
echo "ok: mpirr stat lists every rank's MPI_File_write_shared calls"

ranks=""
for k in $(seq 0 $((NP - 1))); do ranks="$ranks${ranks:+; }rank $k called $call"; done
expected="mpirr: replay finished as recorded ($NP ranks, $total events), but not exact: $ranks: their outcomes (the order of the shared file pointer's accesses) are not replayed"
run "$TMP/replay" "$MPIRR" replay --noise "$NOISE_US" "$REC" -- "${LAUNCH[@]}" "$PROG" "$TMP/replay.txt"
replay_said "$TMP/replay" "$expected"
echo "ok: $expected"
