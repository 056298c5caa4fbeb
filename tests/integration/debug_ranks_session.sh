# debug_ranks_session.sh: sourced by the session tests on debug_ranks (session_mi.sh,
# session_reverse.sh) with the script's arguments MPIRR IMPL PROG and TAG (the test's name) set:
# sources session_mi_lib.sh (line_of, mi, has, after_cmd) and records the program once on 4
# ranks with its event history (REC; E: rank 1's MPI_Recv event).
SRC=$(dirname "$0")/debug_ranks.c
. "$(dirname "$0")/session_mi_lib.sh"
record_prog 4
E=$("$MPIRR" events "$REC" --rank 1 | awk -F'[: ]' '/ MPI_Recv / { print $2; exit }')
[ -n "$E" ] || fail "no MPI_Recv of rank 1 in the history"
