#!/bin/bash
# libc.sh MPIRR IMPL PROG: values from libc (time, gettimeofday, clock_gettime, getpid,
# getrandom, and rand() seeded from them) are recorded and replayed (docs/runtime.md,
# "Nondeterminism outside MPI"). PROG is libc_seeds: native runs differ; one recording with
# --libc-pid; 5 replays under noise print exactly what it printed. A recording without a
# source the program uses (--no-libc-time; getpid, off by default) diverges in replay with
# one line naming what the program called and the recording lacks; mpirr record says how many
# calls it did not record.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 4)"

distinct=$(for i in 1 2 3; do
    run "$TMP/native$i" "$MPIRR" run -- "${LAUNCH[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/native$i.err" >&2; fail "native run $i exited $STATUS"; }
    program_output "$TMP/native$i.out" | md5sum
done | sort -u | wc -l)
[ "$distinct" -eq 3 ] || fail "3 native runs gave $distinct distinct outputs: not a test"
echo "native: 3 distinct outputs"

run "$TMP/record" "$MPIRR" record --libc-pid --noise "$NOISE_US" -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "recording exited $STATUS"; }
! grep '^mpirr: ' "$TMP/record.err" || fail "a recording of every source the program calls named some as not recorded"
[ "$(grep -c '^round ' "$TMP/record.out")" -eq 24 ] || fail "the recording printed $(grep -c '^round ' "$TMP/record.out") lines, not 24"
for i in 1 2 3 4 5; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/rec"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i exited $STATUS"; }
    same_output "$TMP/record.out" "$TMP/replay$i.out" || fail "replay $i printed something else than the recording"
    replay_as_recorded "$TMP/replay$i" || { cat "$TMP/replay$i.err" >&2; fail "replay $i reported an error"; }
done
echo "replayed 5 times under ${NOISE_US}us noise: identical"

# check_unrecorded OPTIONS CALLED HINT COUNTED: recorded with OPTIONS, mpirr record's only
# "mpirr:" line is COUNTED (the calls it did not record, summed over the ranks), and the replay
# diverges with one line naming what the program CALLED that the recording lacks, and the
# option that left it out
check_unrecorded() {
    local options=$1 called=$2 hint=$3 counted=$4
    rm -rf "$TMP/off"
    # shellcheck disable=SC2086
    run "$TMP/off" "$MPIRR" record $options -o "$TMP/off" -- "${LAUNCH[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/off.err" >&2; fail "recording with '$options' exited $STATUS"; }
    got=$(grep '^mpirr: ' "$TMP/off.err")
    [ "$got" = "$counted" ] || { cat "$TMP/off.err" >&2; fail "recording with '$options' said '$got', expected '$counted'"; }
    run "$TMP/offrep" "$MPIRR" replay "$TMP/off"
    expect_error "$TMP/offrep" "diverged at event" "$called" "$hint"
}
# per rank: time() 1 + 6 rounds, clock_gettime(CLOCK_REALTIME) 1, clock_gettime(CLOCK_MONOTONIC)
# 5000 (the burst) + 2 per round, gettimeofday() 2 per round: 5032; getpid() once
check_unrecorded "--libc-pid --no-libc-time" "the program called time(), gettimeofday(), clock_gettime(CLOCK_REALTIME), clock_gettime(CLOCK_MONOTONIC), not in its recording" "recorded with --no-libc-time" \
    "mpirr: the program called time(), gettimeofday(), clock_gettime(CLOCK_REALTIME), clock_gettime(CLOCK_MONOTONIC) 20128 times; their values were not recorded (record without --no-libc-time)"
check_unrecorded "" "the program called getpid(), not in its recording" "recorded without --libc-pid" \
    "mpirr: the program called getpid() 4 times; its values were not recorded (record with --libc-pid)"
