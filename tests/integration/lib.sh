# lib.sh: shared helpers of the integration tests (sourced). Every check that fails prints one
# line saying what was expected and exits non-zero.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# A replay that hangs is a failure, not a wait: bound every run.
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
NOISE_US=${NOISE_US:-200}

TMP=$(mktemp -d /tmp/mpirr-it.XXXXXX)
# KEEP_TEST_TMP=1 keeps the scratch folder of a failed test, to look at what it left.
trap 'st=$?; if [ "$st" -ne 0 ] && [ -n "${KEEP_TEST_TMP:-}" ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# launcher IMPL NRANKS [threads]: the launcher words for an implementation. With "threads",
# ranks that run threads: Open MPI binds each rank to one core by default (at 2 ranks or
# fewer), where a rank's threads would take turns by the scheduler's time slice and never
# race; --bind-to none, as hybrid runs are launched.
launcher() {
    case $1 in
    openmpi) echo "mpirun.openmpi ${3:+--bind-to none }-np $2" ;;
    mpich) echo "mpiexec.mpich -n $2" ;;
    *) fail "unknown MPI implementation $1" ;;
    esac
}

# env_opts NAME=VALUE...: the options of $IMPL's launcher that set them in the ranks, each
# followed by a NUL (read them with mapfile -d '').
env_opts() {
    local kv
    for kv in "$@"; do
        if [ "$IMPL" = openmpi ]; then printf '%s\0' -x "$kv"; else printf '%s\0' -genv "${kv%%=*}" "${kv#*=}"; fi
    done
}

# run OUT_PREFIX CMD...: runs CMD with a timeout; stdout/stderr to OUT_PREFIX.out/.err;
# sets STATUS. A timeout is a failure.
run() {
    out=$1
    shift
    timeout -k 10 "$RUN_TIMEOUT" "$@" >"$out.out" 2>"$out.err"
    STATUS=$?
    [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || {
        cat "$out.err" >&2
        fail "timed out after ${RUN_TIMEOUT}s: $*"
    }
}

# run_killed OUT_PREFIX CMD...: as run(), for a job whose ranks SIGKILL themselves: its status
# is 137, which run() takes for its timeout's; the time taken tells instead. It must fail.
run_killed() {
    local out=$1 start=$SECONDS
    shift
    timeout -k 10 "$RUN_TIMEOUT" "$@" >"$out.out" 2>"$out.err"
    STATUS=$?
    [ $((SECONDS - start)) -lt "$RUN_TIMEOUT" ] || fail "timed out: $*"
    [ "$STATUS" -ne 0 ] || fail "a run whose ranks were killed exited 0: $*"
}

# exited_ok OUT_PREFIX WHAT: the last run (into OUT_PREFIX) exited 0, else fail showing its
# stderr.
exited_ok() {
    [ "$STATUS" -eq 0 ] || { cat "$1.err" >&2; fail "$2 exited $STATUS"; }
}

# session NAME OPTIONS... <<< COMMANDS: a replay session ($MPIRR replay --noise $NOISE_US
# OPTIONS...) reading COMMANDS; its transcript in $TMP/NAME.out/.err; sets STATUS. A timeout is
# a failure.
session() {
    name=$1
    shift
    timeout -k 10 "$RUN_TIMEOUT" "$MPIRR" replay --noise "$NOISE_US" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    STATUS=$?
    [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$TMP/$name.err" >&2; fail "$name: timed out"; }
}

# wait_for_state WHAT PID NAME CMD...: until CMD succeeds (a state another process reaches, e.g.
# a session in the background, PID), at most 60 s; fails, showing $TMP/NAME.out and .err, if
# PID ends first or the time is up.
wait_for_state() {
    local what=$1 pid=$2 name=$3 i
    shift 3
    for i in $(seq 600); do
        "$@" && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$TMP/$name.out" "$TMP/$name.err" >&2; fail "$name: the session ended while waiting for $what"; }
        sleep 0.1
    done
    cat "$TMP/$name.out" "$TMP/$name.err" >&2
    fail "$name: no $what after 60 s"
}

# The line mpirr adds when it ends a launcher that failed to end its job (Open MPI 4.1's mpirun
# hangs after an MPI_Abort now and then on a loaded machine, every rank defunct; errors.sh
# tests it): not the error a test looks for, which the ranks' own lines follow with.
LAUNCHER_ENDED='^mpirr: the launcher has not (ended the job|reaped its ended processes)'

# expect_error OUT_PREFIX PATTERN...: the run failed, and its stderr has an "mpirr:" line
# matching every pattern (the first one, a launcher mpirr ended aside).
expect_error() {
    out=$1
    shift
    [ "$STATUS" -ne 0 ] || fail "$out: expected a failure, got exit status 0"
    line=$(grep '^mpirr: ' "$out.err" | grep -Ev "$LAUNCHER_ENDED" | head -1)
    [ -n "$line" ] || { cat "$out.err" >&2; fail "$out: no 'mpirr:' error line"; }
    for pat in "$@"; do
        printf '%s\n' "$line" | grep -q -- "$pat" || fail "$out: error line lacks '$pat': $line"
    done
    echo "ok: $line"
}

# program_output FILE: what the program printed, without the launcher's termination banner
# (MPICH appends one, with pids, after a rank dies).
program_output() {
    sed '/^=====/,$d' "$1"
}

# same_output A B: the programs printed the same.
same_output() {
    cmp -s <(program_output "$1") <(program_output "$2") || {
        diff <(program_output "$1") <(program_output "$2") | head -5 >&2
        return 1
    }
}

# replay_as_recorded OUT_PREFIX: the replay's only "mpirr:" line is its verdict, saying it
# ended as the recording did ("finished as recorded", or "followed the recording: ..." when a
# rank crashed by itself, as recorded).
replay_as_recorded() {
    verdicts='^mpirr: replay (finished as recorded|followed the recording)'
    ! grep '^mpirr: ' "$1.err" | grep -Ev "$LAUNCHER_ENDED" | grep -Evq "$verdicts" &&
        grep -Eq "$verdicts" "$1.err"
}

# replay_said OUT_PREFIX EXPECTED: the replay exited 0 and its only "mpirr:" line (a launcher
# mpirr ended aside) is EXPECTED.
replay_said() {
    [ "$STATUS" -eq 0 ] || { cat "$1.err" >&2; fail "$1: the replay exited $STATUS"; }
    local got
    got=$(grep '^mpirr: ' "$1.err" | grep -Ev "$LAUNCHER_ENDED")
    [ "$got" = "$2" ] || fail "$1: the replay said
$got
expected
$2"
}

# events_name_calls REC NP CALL...: the recording REC (made with --events) passes `mpirr events
# --check`, and its event history names every CALL on each of ranks 0 .. NP-1.
events_name_calls() {
    local rec=$1 np=$2 c k
    shift 2
    "$MPIRR" events "$rec" --check >"$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "mpirr events --check"; }
    "$MPIRR" events "$rec" >"$TMP/events" || fail "mpirr events failed"
    for c in "$@"; do
        for k in $(seq 0 $((np - 1))); do
            grep -q "^$k:[0-9]* $c " "$TMP/events" || fail "the event history has no $c on rank $k"
        done
    done
    echo "ok: the event history names on every rank" "$@"
}

# native_distinct NAME RUNS CMD...: runs CMD natively until two runs printed different outputs,
# at most RUNS times (each must exit 0), and fails if none did (the program did not race: a
# replay test is only worth something on a program whose runs differ). Sets NATIVE_RAN to the
# runs it took and DISTINCT to the outputs seen (2 once two differ; the search stops there, as
# a third differing run proves nothing more).
native_distinct() {
    local name=$1 runs=$2 i sum first=
    shift 2
    DISTINCT=1
    for i in $(seq "$runs"); do
        run "$TMP/native-$name$i" "$@"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/native-$name$i.err" >&2; fail "$name: native run $i exited $STATUS"; }
        sum=$(md5sum <"$TMP/native-$name$i.out")
        NATIVE_RAN=$i
        [ -z "$first" ] && first=$sum
        [ "$sum" != "$first" ] && { DISTINCT=2; return 0; }
    done
    fail "$name: $runs native runs printed the same: the program did not race"
}
