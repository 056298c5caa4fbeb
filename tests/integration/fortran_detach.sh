#!/bin/bash
# fortran_detach.sh MPIRR IMPL PROGRAM: in races mode mpirr attaches a larger MPI_Bsend buffer
# in place of the program's; MPI_Buffer_detach must still give the program back its own
# buffer and size through the mpi_f08 binding (tests/programs/fortran/c_f08_detach), which
# either MPI serves itself, calling PMPI_Buffer_detach, unless mpirr binds it
# (src/runtime/fortran_wrappers.c, fortran_mpich_f08.c).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 2)"

run "$TMP/native" "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/native.err" >&2; fail "the program fails natively"; }
run "$TMP/record" "$MPIRR" record --mode races -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "races-mode record: exit $STATUS"; }
n=$(grep -c 'detach ok' "$TMP/record.out")
[ "$n" -eq 2 ] || fail "races-mode record: $n of 2 ranks got their buffer back"
echo "ok: both ranks got back the buffer and size they attached"
