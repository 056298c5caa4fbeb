#!/bin/bash
# threads.sh MPIRR IMPL PROGRAM: record a MPI_THREAD_MULTIPLE program whose threads call MPI
# concurrently; the run succeeds and its recording reads back whole, with one match record per
# wildcard receive.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=2
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
run "$TMP/r" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "threaded recording exited $STATUS"; }
if grep -q "no MPI_THREAD_MULTIPLE" "$TMP/r.out"; then echo "skipped: $IMPL lacks MPI_THREAD_MULTIPLE"; exit 0; fi
want=$(sed -n 's/^wildcard receives \([0-9]*\) wtime \([0-9]*\)$/\1 \2/p' "$TMP/r.out")
"$MPIRR" stat --json "$TMP/rec" >"$TMP/stat.json" || fail "stat failed on the threaded recording"
got=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); k=lambda n: sum(r['by_kind'].get(n,0) for r in s['ranks']); print(k('match'), k('wtime'))" "$TMP/stat.json")
[ "$got" = "$want" ] || fail "expected '$want' match and wtime records, the recording has '$got'"
echo "ok: '$got' wildcard receives and MPI_Wtime values recorded from $NP ranks x 4 threads"

# Every thread of rank 0 calls MPI_Abort at the same moment: the runtime must not crash (a
# segfault would end the job with a signal instead of the abort's code) and the recording must
# say rank 0 ended by MPI_Abort 3.
run "$TMP/a" "$MPIRR" record -o "$TMP/abort" -- "${LAUNCH[@]}" "$PROG" abort
[ "$STATUS" -ne 0 ] || fail "the aborting run exited 0"
! grep -qiE "segmentation|signal 11|SIGSEGV" "$TMP/a.err" || { cat "$TMP/a.err" >&2; fail "threads calling MPI_Abort at once crashed the runtime"; }
"$MPIRR" stat --json "$TMP/abort" >"$TMP/abort.json" || fail "stat failed on the aborted recording"
python3 -c "import json,sys; r=[r for r in json.load(open(sys.argv[1]))['ranks'] if r['rank']==0][0]; sys.exit(0 if (r['ending'], r.get('ending_detail')) == ('MPI_Abort', 3) else 1)" "$TMP/abort.json" ||
    fail "rank 0's ending is not 'MPI_Abort 3': $(grep -o '"ending[^,]*,[^,]*' "$TMP/abort.json" | head -2)"
echo "ok: 4 threads aborting at once: exit $STATUS, rank 0 ended by MPI_Abort 3"
