# interrupt.sh: sourced by the tests of tests/explore after lib.sh.
# sigint_when_printed NAME FILE PATTERN CMD...: runs CMD (bounded by RUN_TIMEOUT) in the
# background, its stdout/stderr to $TMP/NAME.out/.err; once FILE (a run's output, followed as
# it grows: no guess at how long a start takes) has a line matching PATTERN, sends SIGINT and
# waits. Sets STATUS, and fails unless it is 130 (128 + SIGINT).
sigint_when_printed() {
    local name=$1 file=$2 pat=$3 pid
    shift 3
    timeout -k 10 "$RUN_TIMEOUT" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    pid=$!
    timeout 120 tail -F -n +1 "$file" 2>/dev/null | grep -q -m1 -- "$pat" ||
        { kill -KILL "$pid"; cat "$TMP/$name.err" >&2; fail "$name: $file never had a line '$pat'"; }
    kill -INT "$pid"
    wait "$pid"
    STATUS=$?
    [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || fail "$name: $1 did not end after SIGINT"
    [ "$STATUS" -eq 130 ] || { cat "$TMP/$name.err" >&2; fail "$name: exit status $STATUS, expected 130 (128 + SIGINT)"; }
}
