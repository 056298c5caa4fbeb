#!/bin/bash
# thread_omp.sh MPIRR IMPL PROG: OpenMP's own synchronizations under mpirr (docs/threads.md).
# For each construct of thread_omp.c, native runs differ (the program races); then, by runtime:
#  - PROG built with GCC (libgomp, no OMPT): the recording prints exactly one "mpirr: warning:"
#    line naming the runtime, and a replay runs to its end (what it prints is not ordered);
#  - thread_omp.sh MPIRR IMPL --llvm SOURCE: SOURCE built here with clang -fopenmp through IMPL's
#    compiler wrapper (LLVM's libomp; skipped with a line if that cannot be built): no warning,
#    and for critical, lock and nest (ordered through mpirr's OMPT tool) 5 replays under noise
#    print the recorded digest; dynamic (not ordered) replays to its end.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=2
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP" threads)"
constructs="critical lock dynamic"
if [ "$PROG" = --llvm ]; then
    src=$4 PROG=$TMP/thread_omp_llvm
    case $IMPL in
    openmpi) wrap=(env OMPI_CC=clang mpicc.openmpi) ;;
    mpich) wrap=(env MPICH_CC=clang mpicc.mpich) ;;
    esac
    command -v clang >/dev/null &&
        "${wrap[@]}" -O2 -fopenmp -I"$(dirname "$src")" -o "$PROG" "$src" 2>"$TMP/cc.err" || {
        echo "skipped: clang -fopenmp cannot build $src with $IMPL: $(head -1 "$TMP/cc.err" 2>/dev/null)"
        exit 0
    }
    constructs="critical lock nest dynamic"
fi
omp=$(readelf -d "$PROG" | sed -n 's/.*NEEDED.*\[\(lib[gi]*omp[^]]*\)\].*/\1/p' | head -1)
[ -n "$omp" ] || fail "$PROG needs no OpenMP runtime"

for what in $constructs; do
    native_distinct "$what" 4 "${LAUNCH[@]}" "$PROG" "$what"
    run "$TMP/rec-$what" "$MPIRR" record -o "$TMP/rec-$what" -- "${LAUNCH[@]}" "$PROG" "$what"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$what.err" >&2; fail "$what: the recorded run exited $STATUS"; }
    warnings=$(grep -c '^mpirr: warning:' "$TMP/rec-$what.err")
    if [ "${omp#libgomp}" != "$omp" ]; then
        [ "$warnings" -eq 1 ] && grep '^mpirr: warning:' "$TMP/rec-$what.err" | grep -q "OpenMP runtime ($omp)" ||
            { cat "$TMP/rec-$what.err" >&2; fail "$what: record did not warn once about $omp"; }
        said="record warned: $(grep -o "uses [^(]*($omp)" "$TMP/rec-$what.err")"
    else
        [ "$warnings" -eq 0 ] || { cat "$TMP/rec-$what.err" >&2; fail "$what: record warned about $omp"; }
        said="no warning ($omp)"
    fi
    reps=1
    [ "${omp#libgomp}" = "$omp" ] && [ "$what" != dynamic ] && reps=5 # ordered by the OMPT tool
    for i in $(seq "$reps"); do
        run "$TMP/rep-$what$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec-$what"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/rep-$what$i.err" >&2; fail "$what: replay $i exited $STATUS"; }
        [ "$reps" -eq 1 ] || cmp -s "$TMP/rec-$what.out" "$TMP/rep-$what$i.out" ||
            fail "$what: replay $i printed $(cat "$TMP/rep-$what$i.out"), the recording $(cat "$TMP/rec-$what.out")"
    done
    [ "$reps" -eq 1 ] && replays="replay ran to its end" || replays="$reps replays printed the recorded digest"
    echo "ok: $what: native runs differ (within $NATIVE_RAN); $said; $replays"
done
