#!/bin/bash
# fortran_nolog.sh MPIRR IMPL PROGRAM: a run in which no rank's MPI_Init reaches the runtime
# (tests/programs/fortran/f_noinit: `use mpi`, never initialises MPI) leaves no rank log, so
# `mpirr record` fails with one line saying so -- naming the MPI's Fortran bindings --
# instead of exiting 0 with an empty recording; replaying it says there is nothing to replay.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 2)"

run "$TMP/record" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
if [ "$IMPL" = openmpi ]; then
    expect_error "$TMP/record" "no rank wrote a log" "Fortran" "libmpi_mpifh" "mpi_init_"
else
    expect_error "$TMP/record" "no rank wrote a log" "MPICH's bindings" "libmpichfort"
fi
grep -q "never reached" "$TMP/record.err" && fail "record still says the program never reached MPI_Init"

run "$TMP/replay" "$MPIRR" replay "$TMP/rec"
expect_error "$TMP/replay" "no rank logs"
