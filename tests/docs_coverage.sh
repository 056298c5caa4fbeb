#!/bin/sh
# docs_coverage.sh SRC: every function of the table of intercepted calls is listed in
# docs/runtime.md, and the docs list no call that the table lacks.
SRC=$1
table=$(sed -n 's/^MPIRR_CALL[A-Z_0-9]*([0-9]*, [^,]*, \(MPI_[A-Za-z_0-9]*\),.*/\1/p' \
    "$SRC/src/format/mpi_calls.def" "$SRC/src/format/mpi_calls_generated.def" | sort -u)
docs=$(sed -n '/^## Coverage/,/^## /p' "$SRC/docs/runtime.md" | grep -v '^Left out' | grep -o 'MPI_[A-Za-z_0-9]*' | sort -u)
[ -n "$table" ] || { echo "FAIL: no rows read from mpi_calls.def"; exit 1; }
missing=$(printf '%s\n' "$table" | grep -vxF "$docs")
extra=$(printf '%s\n' "$docs" | grep -vxF "$table")
[ -z "$missing" ] || { echo "FAIL: docs/runtime.md does not list:" $missing; exit 1; }
[ -z "$extra" ] || { echo "FAIL: docs/runtime.md lists calls the table lacks:" $extra; exit 1; }
echo "ok: $(printf '%s\n' "$table" | wc -l) calls documented"
