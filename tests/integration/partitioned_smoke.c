/* partitioned_smoke.c: MPI-4 partitioned communication (issue 32): each even rank sends
 * PARTS partitions to the next odd rank through MPI_Psend_init/MPI_Precv_init, ROUNDS times
 * (MPI_Start, MPI_Pready per partition, MPI_Wait); before its MPI_Wait the receiver asks
 * MPI_Parrived once whether the last partition arrived (an answer mpirr does not replay: the
 * verdict names the call; the program does not use it). A partitioned channel has a fixed
 * peer: deterministic. Rank 0 prints the xor of every rank's digest of what it received.
 * Built against an MPI-3 library (Open MPI 4.1) it only says so and fails. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#define ROUNDS 10
#define PARTS 4
#define PER 8

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#if MPI_VERSION >= 4
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n % 2) MPI_Abort(MPI_COMM_WORLD, 2);
    int buf[PARTS * PER];
    MPI_Request req;
    int sender = rank % 2 == 0;
    if (sender)
        MPI_Psend_init(buf, PARTS, PER, MPI_INT, rank + 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(buf, PARTS, PER, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    uint64_t h = 14695981039346656037ull;
    for (int round = 0; round < ROUNDS; round++) {
        if (sender)
            for (int i = 0; i < PARTS * PER; i++) buf[i] = rank * 1000 + round * 10 + i;
        MPI_Start(&req);
        if (sender)
            for (int p = PARTS - 1; p >= 0; p--) MPI_Pready(p, req);
        int arrived = 0;
        if (!sender) MPI_Parrived(req, PARTS - 1, &arrived);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (!sender) {
            for (int i = 0; i < PARTS * PER; i++) h = (h ^ (uint64_t)buf[i]) * 1099511628211ull;
        }
    }
    MPI_Request_free(&req);
    uint64_t d = 0;
    MPI_Reduce(&h, &d, 1, MPI_UINT64_T, MPI_BXOR, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("digest %016llx\n", (unsigned long long)d);
    MPI_Finalize();
    return 0;
#else
    fprintf(stderr, "partitioned_smoke: needs MPI-4 partitioned communication\n");
    MPI_Finalize();
    return 1;
#endif
}
