#!/bin/bash
# races_callgrind.sh BUILD [OLD_BUILD]: races mode's bookkeeping per message, in instructions
# (deterministic, unlike the ns of a 2-core VM): rank 0 of bench/pingpong (8 bytes, named
# sources) recorded under callgrind at two sizes, in sources and races mode, for each MPI
# built; the difference of the two runs over the difference in round trips is the cost of one
# round trip (a send and a receive), start-up and the log's close cancelling out. Columns:
#  - libmpirr: instructions in libmpirr.so with the code inlined into it from other files
#    (cg_lib_ir in callgrind_setup.sh), less its interposed pthread and clock functions, whose
#    calls come from the MPI library's polling and so vary from run to run;
#  - MPI status calls: MPI_Get_elements_x, MPI_Status_set_elements_x, MPI_Test_cancelled
#    and what they call, which races mode made for every message it received before it kept
#    the status fields in place (src/runtime/status_fields.h);
#  - memcpy: libc's memcpy, whoever called it (the MPI library's own copies included, the same
#    in every build): races mode's copies of small messages moved into libmpirr (copy_data in
#    message_wire.c), so builds compare by libmpirr + memcpy.
# With OLD_BUILD (a build of another commit), both side by side. Prints a markdown table.
. "$(dirname "$0")/callgrind_setup.sh" races_callgrind "$@"
SMALL=10000 LARGE=30000

# ir BUILD IMPL MODE ROUNDS: "libmpirr_Ir status_Ir" of rank 0 of one recorded ping-pong
ir() {
    local build=$1 impl=$2 mode=$3 rounds=$4 L
    [ "$impl" = openmpi ] && L=(mpirun.openmpi -np 2) || L=(mpiexec.mpich -n 2)
    rm -rf "$TMP/rec" "$TMP"/cg.*
    timeout 900 "$build/bin/mpirr" record --no-wtime --mode="$mode" -o "$TMP/rec" -- "${L[@]}" \
        valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.%p" \
        "$build/bench/$impl/pingpong" "$rounds" >/dev/null 2>&1
    # the lower pid is rank 0 under both launchers
    local out lib st mc
    out=$(ls "$TMP"/cg.* | sort -t. -k2 -n | head -1)
    read -r lib _ <<<"$(cg_lib_ir "$out" 'sync_wrappers|sync_order|libc_interpose')"
    read -r st mc <<<"$(callgrind_annotate --inclusive=no --threshold=100 "$out" 2>/dev/null | tr -d , | awk '
        /PMPI_Get_elements_x|PMPI_Status_set_elements_x|PMPI_Test_cancelled|ompi_datatype_get_elements|MPIR_Get_elements_x|MPIR_Status_set_elements_x/ {st += $1}
        /:__memcpy_[a-z0-9_]* / {mc += $1}
        END {print st + 0, mc + 0}')"
    echo "$lib $st $mc"
}

# per_round BUILD IMPL MODE: "libmpirr status memcpy" per round trip
per_round() {
    read -r l1 s1 m1 <<<"$(ir "$1" "$2" "$3" $SMALL)"
    read -r l2 s2 m2 <<<"$(ir "$1" "$2" "$3" $LARGE)"
    awk -v l1="$l1" -v l2="$l2" -v s1="$s1" -v s2="$s2" -v m1="$m1" -v m2="$m2" -v d=$((LARGE - SMALL)) \
        'BEGIN {printf "%.0f %.0f %.0f", (l2 - l1) / d, (s2 - s1) / d, (m2 - m1) / d}'
}

printf '| mpi | build | mode | libmpirr instructions per round trip | MPI status calls | memcpy |\n|---|---|---|---|---|---|\n'
for impl in openmpi mpich; do
    [ -x "$NEW/bench/$impl/pingpong" ] || continue
    for b in "$NEW" $OLD; do
        for mode in sources races; do
            read -r l s m <<<"$(per_round "$b" "$impl" "$mode")"
            printf '| %s | %s | %s | %s | %s | %s |\n' "$impl" "$b" "$mode" "$l" "$s" "$m"
        done
    done
done
