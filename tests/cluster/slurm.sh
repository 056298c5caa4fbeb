#!/bin/bash
# slurm.sh MPIRR VCLUSTER IMPL PROCNAME PROGRAM: a virtual cluster of 2 nodes with Slurm;
# inside node 1, srun and sbatch --wait run PROCNAME on both nodes through the PMI that works
# for IMPL (docs/cluster.md), and mpirr records PROGRAM launched by srun and replays it from the
# recording (srun again, ranks by rank wherever Slurm puts them) with noise, as recorded; then
# records PROGRAM with --local --pack inside a batch job, where node 2's pack must be gathered
# by one srun over the job's nodes (ssh is made to fail), and replays it as recorded.
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

# record --local --pack inside a batch job: node 2's pack is written by one srun over the
# job's other nodes (ssh is made to fail: MPIRR_RSH=false), nothing stays in node 2's /tmp
LOCAL=/tmp/mpirr-local-pack-test
rm -rf rec
# (the srun's shape on its command line: the replay runs it again outside the job)
printf '#!/bin/sh\nMPIRR_RSH=false exec %s record --local %s --pack -o rec -- %s %s\n' \
    "$MPIRR" "$LOCAL" "${SRUN[*]}" "$PROGRAM" >packjob.sh
run "$TMP/packjob" "${NODE1[@]}" sbatch --wait -N 2 --ntasks-per-node=2 -o packjob.out -e packjob.err packjob.sh
[ "$STATUS" -eq 0 ] || { cat "$TMP/packjob.err" packjob.err >&2; fail "the batch job of record --local --pack exited $STATUS"; }
cp packjob.out "$TMP/record.out" # what replays_as_recorded compares with
got=$(ls -A rec | tr '\n' ' ')
[ "$got" = "manifest node-00000.pack node-00001.pack " ] ||
    { cat packjob.err >&2; fail "record --local --pack under sbatch: the recording holds '$got', expected the manifest and 2 packs"; }
left=$("$VCLUSTER" run 2 -- find "$LOCAL" -mindepth 1 2>&1)
[ -z "$left" ] || fail "record --local --pack under sbatch: left in node 2's $LOCAL: $left"
replays_as_recorded "record --local --pack under sbatch"
echo "ok: record --local --pack in a batch job: node 2's pack gathered by srun, 2 noisy replays as recorded"
