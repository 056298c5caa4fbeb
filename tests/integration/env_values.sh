#!/bin/bash
# env_values.sh MPIRR IMPL BINDIR
# Bad MPIRR_* values (docs/runtime.md, Environment) get one line and no job: the CLI refuses
# them before launching anything (exit 2, no rank file), and the runtime ends the job at
# MPI_Init when the CLI is bypassed (one line, non-zero, at once). Good values and an unknown
# MPIRR_* variable (a warning) still record.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3 NP=4
RUN_TIMEOUT=60 # a value that hangs the job must fail here, not stall the suite
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
RUNTIME=$(dirname "$MPIRR")/../lib/mpirr/$IMPL/libmpirr.so

# The values found to hang, abort or be ignored, with what each variable accepts.
BAD_VALUES='MPIRR_NOISE_US 99999999999 an integer from 0 to 1000000 (microseconds)
MPIRR_NOISE_US abc an integer from 0 to 1000000 (microseconds)
MPIRR_RECORD_MODE bogus one of sources, races, all
MPIRR_RACE_PENDING -1 an integer from 1 to 16777216 (receives)
MPIRR_RACE_PENDING 4294967295 an integer from 1 to 16777216 (receives)
MPIRR_EVENTS_STAGE_KB -1 an integer from 4 to 16384 (KiB)'

# only_line FILE LINE: FILE holds exactly LINE.
only_line() {
    [ "$(cat "$1")" = "$2" ] || fail "$1: expected exactly '$2', got: $(head -c 2000 "$1")"
}

# no_rank_files DIR: nothing of a rank was written into DIR.
no_rank_files() {
    ! compgen -G "$1/rank-*" >/dev/null || fail "$1: rank files were written: $(ls "$1")"
}

# refused OUT LINE: mpirr exited 2 with LINE as its only output on stderr.
refused() {
    [ "$STATUS" -eq 2 ] || { cat "$1.err" >&2; fail "$1: exit status $STATUS, expected 2"; }
    only_line "$1.err" "$2"
    echo "ok: $2"
}

# Good values and a typo: recorded, with one warning line naming the variable it resembles.
run "$TMP/good" env MPIRR_NOISE=5 MPIRR_EVENTS_STAGE_KB=4 MPIRR_RACE_PENDING=2 \
    "$MPIRR" record --mode=races --events -o "$TMP/good" -- "${LAUNCH[@]}" "$BIN/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/good.err" >&2; fail "recording with good values failed"; }
grep -qx 'mpirr: warning: MPIRR_NOISE is not a variable mpirr reads (ignored; did you mean MPIRR_NOISE_US?)' \
    "$TMP/good.err" || { cat "$TMP/good.err" >&2; fail "no warning about MPIRR_NOISE"; }
[ -s "$TMP/good/rank-00003.log" ] && [ -s "$TMP/good/rank-00003.events" ] ||
    fail "the recording with good values has no rank 3 log or history"
run "$TMP/goodstat" "$MPIRR" stat "$TMP/good"
[ "$STATUS" -eq 0 ] || { cat "$TMP/goodstat.err" >&2; fail "mpirr stat of a 4 KiB-stage history failed"; }

# The CLI: every bad value, as found (record --mode=races --events).
# (the list comes on fd 3: launchers read their stdin)
i=0
while read -r var value expected <&3; do
    i=$((i + 1))
    run "$TMP/bad$i" env "$var=$value" \
        "$MPIRR" record --mode=races --events -o "$TMP/bad$i" -- "${LAUNCH[@]}" "$BIN/diverge" a
    refused "$TMP/bad$i" "mpirr: $var=$value: expected $expected"
    no_rank_files "$TMP/bad$i"
done 3<<<"$BAD_VALUES"
# replay and run check too
run "$TMP/rep" env MPIRR_NOISE_US=abc "$MPIRR" replay "$TMP/good"
refused "$TMP/rep" "mpirr: MPIRR_NOISE_US=abc: expected an integer from 0 to 1000000 (microseconds)"
run "$TMP/run" env MPIRR_CLOCK_MERGE=2 "$MPIRR" run -- "${LAUNCH[@]}" "$BIN/diverge" a
refused "$TMP/run" "mpirr: MPIRR_CLOCK_MERGE=2: expected 0 or 1"
[ ! -s "$TMP/run.out" ] || fail "mpirr run started the program despite a bad value"
# and the values mpirr sets itself from its options
run "$TMP/opt" "$MPIRR" record --noise 99999999999 -o "$TMP/opt" -- "${LAUNCH[@]}" "$BIN/diverge" a
refused "$TMP/opt" "mpirr: record: --noise 99999999999: expected an integer from 0 to 1000000 (microseconds)"
no_rank_files "$TMP/opt"
run "$TMP/optm" "$MPIRR" record --mode bogus -o "$TMP/optm" -- "${LAUNCH[@]}" "$BIN/diverge" a
refused "$TMP/optm" "mpirr: record: --mode bogus: expected one of sources, races, all"

# The runtime, with the CLI bypassed: rank 0 says it once and ends the job before any file is
# opened. The other ranks wait 10 s for rank 0's MPI_Abort before ending the job themselves,
# so a job that takes that long has not been ended by rank 0.
# bypass NAME VAR=VALUE...: the program run by the launcher with the runtime preloaded.
bypass() {
    local name=$1 args
    shift
    mkdir -p "$TMP/$name.dir"
    mapfile -d '' args < <(env_opts LD_PRELOAD="$RUNTIME" MPIRR_MODE=record \
        MPIRR_DIR="$TMP/$name.dir" MPIRR_ERRLOG="$TMP/$name.errlog" "$@")
    local start=$SECONDS
    run "$TMP/$name" "${LAUNCH[@]}" "${args[@]}" "$BIN/diverge" a
    ELAPSED=$((SECONDS - start))
}
i=0
while read -r var value expected <&3; do
    i=$((i + 1))
    [ "$var" = MPIRR_NOISE_US ] && [ "$value" = abc ] && continue # the same path as 99999999999
    bypass "rt$i" MPIRR_RECORD_MODE=races MPIRR_EVENTS=1 "$var=$value"
    [ "$STATUS" -ne 0 ] || fail "rt$i: $var=$value: the job exited 0"
    [ "$ELAPSED" -lt 10 ] || fail "rt$i: $var=$value: the job took ${ELAPSED}s to end"
    only_line "$TMP/rt$i.errlog" "mpirr: $var=$value: expected $expected"
    no_rank_files "$TMP/rt$i.dir"
    echo "ok: the runtime ended the job in ${ELAPSED}s: $(cat "$TMP/rt$i.errlog")"
done 3<<<"$BAD_VALUES"
# The same variables with good values: recorded.
bypass rtgood MPIRR_RECORD_MODE=races MPIRR_EVENTS=1 MPIRR_EVENTS_STAGE_KB=4 MPIRR_RACE_PENDING=2
[ "$STATUS" -eq 0 ] || { cat "$TMP/rtgood.err" "$TMP/rtgood.errlog" >&2; fail "rtgood: exit status $STATUS"; }
[ -s "$TMP/rtgood.dir/rank-00003.log" ] || fail "rtgood: rank 3 was not recorded"
echo "ok: good values record under the bypassed CLI"
