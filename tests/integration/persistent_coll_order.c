/* persistent_coll_order.c: MPI-4 persistent collectives started in different orders on
 * different ranks, as MPI allows and MPICH's coll test p_order does (issue 32): an
 * MPI_Bcast_init and an MPI_Barrier_init, even ranks start the broadcast first (MPI_Start,
 * MPI_Start), odd ranks the barrier first (MPI_Startall of the two in that order), then
 * MPI_Waitall of both, ROUNDS times; rank 0 broadcasts the round's value. Rank 0 prints the
 * digest of what every rank received. Deterministic: its replays must agree with its
 * recording, through the program's own blocking MPI_Waitall (MPICH 4.0's Testall fails on
 * these requests). Built against an MPI-3 library (Open MPI 4.1) it only says so and fails. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#define ROUNDS 20

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#if MPI_VERSION >= 4
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request reqs[2], barrier_first[2];
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
    uint64_t h = 14695981039346656037ull;
    for (int round = 1; round <= ROUNDS; round++) {
        if (rank == 0) v = round * 7;
        if (rank % 2 == 0) {
            MPI_Start(&reqs[0]);
            MPI_Start(&reqs[1]);
        } else {
            barrier_first[0] = reqs[1];
            barrier_first[1] = reqs[0];
            MPI_Startall(2, barrier_first);
        }
        MPI_Status st[2];
        MPI_Waitall(2, reqs, st);
        h = (h ^ (uint64_t)v) * 1099511628211ull;
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    uint64_t all[64];
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        uint64_t d = 14695981039346656037ull;
        for (int r = 0; r < nranks; r++) d = (d ^ all[r]) * 1099511628211ull;
        printf("digest %016llx\n", (unsigned long long)d);
    }
    MPI_Finalize();
    return 0;
#else
    fprintf(stderr, "persistent_coll_order: needs MPI-4 persistent collectives\n");
    MPI_Finalize();
    return 1;
#endif
}
