#!/bin/bash
# thread_omp.sh MPIRR IMPL PROG: OpenMP's own synchronizations are not ordered by mpirr
# (docs/threads.md), and record says so. PROG is thread_omp built with the compiler's OpenMP
# (GCC: libgomp). For critical, lock and dynamic: native runs differ (the program races), the
# recording prints exactly one "mpirr: warning:" line naming the OpenMP runtime, and a replay
# runs to its end. What the replay prints is not checked: it is not ordered.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=2
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
omp=$(readelf -d "$PROG" | sed -n 's/.*NEEDED.*\[\(lib[gi]*omp[^]]*\)\].*/\1/p' | head -1)
[ -n "$omp" ] || fail "$PROG needs no OpenMP runtime"

for what in critical lock dynamic; do
    distinct=$(for i in 1 2 3 4; do
        run "$TMP/native-$what$i" "${LAUNCH[@]}" "$PROG" "$what"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/native-$what$i.err" >&2; fail "$what: native run $i exited $STATUS"; }
        md5sum <"$TMP/native-$what$i.out"
    done | sort -u | wc -l)
    [ "$distinct" -ge 2 ] || fail "$what: 4 native runs printed the same: the threads did not race"
    run "$TMP/rec-$what" "$MPIRR" record -o "$TMP/rec-$what" -- "${LAUNCH[@]}" "$PROG" "$what"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$what.err" >&2; fail "$what: the recorded run exited $STATUS"; }
    [ "$(grep -c '^mpirr: warning:' "$TMP/rec-$what.err")" -eq 1 ] &&
        grep '^mpirr: warning:' "$TMP/rec-$what.err" | grep -q "OpenMP runtime ($omp)" ||
        { cat "$TMP/rec-$what.err" >&2; fail "$what: record did not warn once about $omp"; }
    if [ "${omp#libgomp}" != "$omp" ]; then # libomp's replays diverge (docs/threads.md)
        run "$TMP/rep-$what" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec-$what"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/rep-$what.err" >&2; fail "$what: replay exited $STATUS"; }
    fi
    echo "ok: $what: native runs $distinct distinct of 4; record warned: $(grep -o "uses [^(]*($omp)" "$TMP/rec-$what.err")"
done
