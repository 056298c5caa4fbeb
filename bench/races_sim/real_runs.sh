#!/bin/bash
# real_runs.sh BUILD [IMPL] [RANKS...]: races mode's two clocks on real runs (docs/benchmarks.md,
# "Races mode at scale"): tests/programs' wildcard_storm (every rank receives from every other,
# 3 rounds) and bench/table1's mesh (a master-worker farm, 3 sweeps) recorded with `--clock
# vector` and `--clock bounded` at 16, 32 and 64 ranks (default IMPL mpich; oversubscribed, so kept short), one run
# each. Prints a markdown row per program, rank count and clock: header bytes per message and
# racing receives logged, from `mpirr stat --json`. Run counts differ between clocks by the
# schedule too, not only by the clock: the simulation (races_sim) compares them on one history.
set -u
BUILD=$1 IMPL=${2:-mpich}
shift $(($# < 2 ? $# : 2))
RANKS=("$@")
[ ${#RANKS[@]} -gt 0 ] || RANKS=(16 32 64)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/races-real.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
echo "| program | ranks | clock | header B/msg | racing receives logged | wildcard receives |"
echo "|---|---|---|---|---|---|"
for prog in tests/programs/wildcard_storm bench/table1/mesh; do
    for p in "${RANKS[@]}"; do
        if [ "$IMPL" = openmpi ]; then L=(mpirun.openmpi -np "$p"); else L=(mpiexec.mpich -n "$p"); fi
        arg=3
        for clock in vector bounded; do
            rm -rf "$TMP/rec"
            if ! timeout 600 "$BUILD/bin/mpirr" record --mode races --clock "$clock" -o "$TMP/rec" -- \
                "${L[@]}" "$BUILD/$(dirname "$prog")/$IMPL/$(basename "$prog")" "$arg" >/dev/null 2>"$TMP/err"; then
                echo "| $prog | $p | $clock | failed: $(head -1 "$TMP/err") | | |"
                continue
            fi
            "$BUILD/bin/mpirr" stat --json "$TMP/rec" | python3 -c '
import json, sys
t = json.load(sys.stdin)["total"]
print("| %s | %s | %s | %.1f | %d | %d |" % (sys.argv[1].split("/")[-1], sys.argv[2], sys.argv[3],
      t["piggyback_bytes_per_message"] or 0, t["racing_receives"], t["wildcard_receives"]))' "$prog" "$p" "$clock"
        done
    done
done
