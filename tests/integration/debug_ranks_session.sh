# debug_ranks_session.sh: sourced by the session tests on debug_ranks (session_mi.sh,
# session_reverse.sh) with the script's arguments MPIRR IMPL PROG and TAG (the test's name) set:
# sources lib.sh and session_mi_lib.sh (line_of, mi, has, after_cmd) and records the program
# once with its event history (REC; E: rank 1's MPI_Recv event).
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 4)"
SRC=$(dirname "$0")/debug_ranks.c
. "$(dirname "$0")/session_mi_lib.sh"
run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
REC=$TMP/rec
E=$("$MPIRR" events "$REC" --rank 1 | awk -F'[: ]' '/ MPI_Recv / { print $2; exit }')
[ -n "$E" ] || fail "no MPI_Recv of rank 1 in the history"
