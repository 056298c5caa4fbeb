#!/bin/bash
# slurm.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: a virtual cluster of 2 nodes with Slurm;
# inside node 1, srun and sbatch --wait run PROCNAME on both nodes through the PMI that works
# for IMPL (docs/cluster.md), and mpirr records PROGRAM launched by srun and replays it from the
# recording (srun again, ranks by rank wherever Slurm puts them) with noise, as recorded.
. "$(dirname "$0")/lib.sh"
case $IMPL in
openmpi) PMI=pmix ;;
mpich) PMI=pmi2 ;;
*) fail "unknown MPI implementation $IMPL" ;;
esac
cluster_up 2
SRUN=(srun --mpi="$PMI" -N 2 --ntasks-per-node=2)

run "$TMP/srun" "${NODE1[@]}" "${SRUN[@]}" "$PROCNAME"
[ "$STATUS" -eq 0 ] || { cat "$TMP/srun.err" >&2; fail "srun exited $STATUS"; }
two_per_node "srun --mpi=$PMI" "$TMP/srun.out"

printf '#!/bin/sh\nexec srun --mpi=%s %s\n' "$PMI" "$PROCNAME" >job.sh
run "$TMP/sbatch" "${NODE1[@]}" sbatch --wait -N 2 --ntasks-per-node=2 -o job.out job.sh
[ "$STATUS" -eq 0 ] || { cat "$TMP/sbatch.err" >&2; fail "sbatch --wait exited $STATUS"; }
two_per_node "sbatch" job.out

run "$TMP/record" "${NODE1[@]}" "$MPIRR" record --mpi "$IMPL" -o rec -- "${SRUN[@]}" "$PROGRAM"
[ "$STATUS" -eq 0 ] || { cat "$TMP/record.err" >&2; fail "record under srun exited $STATUS"; }
recorded_four "srun launch"
replays_as_recorded "srun launch"
echo "ok: srun and sbatch put 2 ranks on each node; a recording under srun replays as recorded"
