# session_mi_lib.sh: sourced by the tests of the session's persistent gdbs (debug_ranks_session.sh
# for session_mi.sh and session_reverse.sh; session_mi_threads.sh), whose arguments are MPIRR
# IMPL PROG, with TAG (the test's name) and SRC (the program's source) set. Sources lib.sh;
# gives record_prog NP (REC: PROG recorded with its event history on NP ranks), line_of, `mi
# NAME OPTIONS... <<< COMMANDS` (a session under timing noise that must end with status 0, leave
# no process of it behind and never wait for its own gdbs as a user's debugger's), `has` and
# `after_cmd`.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
command -v gdb >/dev/null || fail "gdb is not installed (apt-get install gdb)"
line_of() { # MARK: the line of SRC marked /* @MARK */
    local n
    n=$(grep -n "/\* @$1 \*/" "$SRC" | cut -d: -f1)
    [ -n "$n" ] || fail "no @$1 line in $SRC"
    echo "$n"
}

# every process a session started carries this in its environment (mpirr passes it on)
export MPIRR_TEST_TAG=${TAG}_$$
left_behind() {
    local p
    for p in /proc/[0-9]*; do
        tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx "MPIRR_TEST_TAG=$MPIRR_TEST_TAG" &&
            echo "${p#/proc/} $(tr '\0' ' ' 2>/dev/null <"$p/cmdline")"
    done
}
# mi NAME OPTIONS... <<< COMMANDS: a session that must end with status 0, leaving nothing
mi() {
    local name=$1
    shift
    session "$name" "$@"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: session exited $STATUS"; }
    local left
    left=$(left_behind)
    [ -z "$left" ] || fail "$name: processes left behind: $left"
    ! grep -q 'traced by a debugger' "$TMP/$name.out" "$TMP/$name.err" ||
        fail "$name: a rank under the session's own gdb was waited for as a user's debugger's"
}
has() { # NAME LINE WHAT: the transcript has LINE exactly
    grep -qxF -- "$2" "$TMP/$1.out" || { cat "$TMP/$1.out" >&2; fail "$1: $3 (no line '$2')"; }
}
# the lines of NAME's transcript after the echoed command CMD, up to the next command
after_cmd() {
    awk -v c="(mpirr) $2" '$0 == c { on = 1; next } on && /^\(mpirr\)/ { exit } on' "$TMP/$1.out"
}
record_prog() { # NP
    local launch
    read -r -a launch <<<"$(launcher "$IMPL" "$1")"
    run "$TMP/rec" "$MPIRR" record --events -o "$TMP/rec" -- "${launch[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec.err" >&2; fail "record exited $STATUS"; }
    REC=$TMP/rec
}
