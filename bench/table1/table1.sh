#!/bin/bash
# table1.sh BUILD_DIR [REPS]: the shape of Table 1 of Netzer & Miller ("Optimal Tracing and
# Replay for Debugging Message-Passing Parallel Programs") for mpirr, on every MPI built.
#
# For each program of bench/table1 (det line mesh mult gauss sys, see the header comment of each
# .c file) at 4 ranks, REPS times (default 3), interleaved within each repetition:
#   native                                   the program alone
#   all / sources / races                    mpirr record --no-wtime --mode=MODE, into a temp dir
#   replay                                   mpirr replay of the races recording just made
# (--no-wtime: the programs time themselves with MPI_Wtime, which replay would otherwise replay.)
# Times are the `seconds` each program measures itself (its main phase), median of REPS;
# overheads are ratios to native. Counts come from `mpirr stat --json DIR` of each recording:
# totals.entries_logged per mode, totals.messages_sent, totals.racing_receives and
# totals.piggyback_bytes_per_message (medians over REPS; "-" when the field or the run is
# missing, e.g. a mode the CLI does not know). "messages" is mpirr's count, followed by
# "(prog N)" when the program's own count of point-to-point messages sent differs from it.
# "% traced" = races entries / messages, the paper's "messages traced".
#
# The programs, at the paper's sizes (* marks the wildcard users, which should show races):
#   det*   determinant, 100x100: ~600 messages per determinant, p-1 wildcard receives (the final
#          products) of which p-2 race: ~0.3% traced
#   line   1000 segment intersections: p-1 messages in all, no wildcard: nothing traced
#   mesh*  300x300 finite differences as a first-come task farm: nearly every result races, ~50%
#          of the messages traced (the task messages never race)
#   mult   100x100 matrix product, static distribution, long messages: nothing traced
#   gauss* 300 linear equations (the paper's "sys"): binomial-tree pivot search, one race per
#          column at 4 ranks, 2(p-1) messages per column: ~17% traced
#   sys*   cache simulator first-come task farm (the paper's "tycho"): ~50% traced
# mesh and sys workers also receive with MPI_ANY_TAG from the master (never racing): sources mode
# logs those, races mode does not. With MPICH, whose ranks spin in blocking calls, 4 ranks on 2
# cores make chains of dependent messages cost ~1 ms each: the programs' MPICH defaults are
# smaller (see each .c file) and the MPICH times are noisy.
#
# Environment:
#   T1_NP=4                 ranks
#   T1_PROGS="det ..."      programs to run (default all six)
#   T1_ARGS_<prog>="..."    arguments for one program (e.g. T1_ARGS_gauss="2 300"), default none
#   T1_TIMEOUT=180          seconds allowed per run
#   T1_MPIS="openmpi mpich" implementations to run, if built
# The table goes to stdout, failures and progress to stderr.
set -u
BUILD=${1:-build}
REPS=${2:-3}
MPIRR=$BUILD/bin/mpirr
NP=${T1_NP:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mpirr-table1.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

launcher() { [ "$1" = openmpi ] && echo "mpirun.openmpi -np $2" || echo "mpiexec.mpich -n $2"; }
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p" <<<"$2"; } # value after a key in a bench line
# median of the numbers on stdin (one a line; blanks and "-" ignored), "-" if none
median() { grep -E '^-?[0-9.]+([eE][-+]?[0-9]+)?$' | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

# stat_fields DIR: "entries_logged messages_sent racing_receives piggyback_bytes_per_message"
# from the totals of `mpirr stat --json DIR`, "-" for each one missing or null.
stat_fields() {
    "$MPIRR" stat --json "$1" 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    d = {}
t = d.get("totals") if isinstance(d, dict) else None
if not isinstance(t, dict):
    t = d.get("total") if isinstance(d, dict) and isinstance(d.get("total"), dict) else {}
def show(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return "-"
    return str(v) if isinstance(v, int) else "%.6g" % v
print(" ".join(show(t.get(k)) for k in
      ("entries_logged", "messages_sent", "racing_receives", "piggyback_bytes_per_message")))'
    [ "${PIPESTATUS[1]}" = 0 ] || echo "- - - -"
}

# one_run MODE IMPL PROG ARGS...: prints the program's bench line (nothing if it failed).
one_run() {
    local mode=$1 impl=$2 prog=$3
    shift 3
    read -r -a L <<<"$(launcher "$impl" "$NP")"
    local T=(timeout -k 5 "${T1_TIMEOUT:-180}") # a stalled run must not stall the table
    case $mode in
    native) "${T[@]}" "${L[@]}" "$prog" "$@" ;;
    all | sources | races)
        rm -rf "$TMP/rec-$mode"
        "${T[@]}" "$MPIRR" record --no-wtime --mode="$mode" -o "$TMP/rec-$mode" -- "${L[@]}" "$prog" "$@" ;;
    replay) "${T[@]}" "$MPIRR" replay "$TMP/rec-races" ;;
    esac 2>"$TMP/err" >"$TMP/out"
    local rc=$?
    if grep -q '^bench ' "$TMP/out" && [ $rc = 0 ]; then
        grep '^bench ' "$TMP/out" | head -1
    else
        echo "table1: $impl $(basename "$prog") $mode failed (exit $rc):" >&2
        tail -5 "$TMP/err" >&2
    fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "-" || b == "-" || b <= 0) print "-"; else printf "%.2fx", a / b}'; }

printf '| mpi | program | native s | messages | entries all | entries sources | entries races | racing recvs | %% traced | piggyback B/msg | overhead all | overhead sources | overhead races | replay (races) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
declare -A V # V[key] = the values of one quantity over the repetitions, one a line
add() { V[$1]+="$2"$'\n'; }
med() { printf '%s' "${V[$1]:-}" | median; }

for impl in ${T1_MPIS:-openmpi mpich}; do
    [ -d "$BUILD/bench/table1/$impl" ] || continue
    for name in ${T1_PROGS:-det line mesh mult gauss sys}; do
        prog=$BUILD/bench/table1/$impl/$name
        [ -x "$prog" ] || { echo "table1: $prog missing" >&2; continue; }
        argsvar=T1_ARGS_$name
        read -r -a args <<<"${!argsvar:-}"
        V=()
        for r in $(seq "$REPS"); do
            echo "table1: $impl $name rep $r/$REPS" >&2
            races_ok= # the bench line of this repetition's races recording
            for mode in native all sources races replay; do
                [ "$mode" = replay ] && [ -z "$races_ok" ] && continue # nothing to replay
                line=$(one_run "$mode" "$impl" "$prog" "${args[@]}")
                add "s_$mode" "$(field seconds "$line")"
                [ "$mode" = native ] && add prog_messages "$(field messages "$line")"
                [ "$mode" = races ] && races_ok=$line
                case $mode in all | sources | races)
                    f=(- - - -)
                    [ -n "$line" ] && read -r -a f <<<"$(stat_fields "$TMP/rec-$mode")"
                    add "entries_$mode" "${f[0]}"
                    [ "$mode" = races ] && { add messages "${f[1]}"; add racing "${f[2]}"; add piggyback "${f[3]}"; } ;;
                esac
            done
        done
        native=$(med s_native)
        m=$(med messages) pm=$(med prog_messages)
        mshow=$m
        [ "$m" = - ] && mshow=$pm m=$pm
        [ "$m" != - ] && [ "$pm" != - ] && [ "$m" != "$pm" ] && mshow="$m (prog $pm)"
        er=$(med entries_races)
        traced=$(awk -v e="$er" -v m="$m" 'BEGIN {if (e == "-" || m == "-" || m <= 0) print "-"; else printf "%.1f%%", 100 * e / m}')
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$impl" "$name" \
            "$native" "$mshow" "$(med entries_all)" "$(med entries_sources)" "$er" "$(med racing)" "$traced" \
            "$(med piggyback)" "$(ratio "$(med s_all)" "$native")" "$(ratio "$(med s_sources)" "$native")" \
            "$(ratio "$(med s_races)" "$native")" "$(ratio "$(med s_replay)" "$native")"
    done
done
