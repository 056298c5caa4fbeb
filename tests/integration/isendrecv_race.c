/* isendrecv_race.c: MPI-4's MPI_Isendrecv with racing MPI_ANY_SOURCE receives (issue 32).
 * Each round every rank posts two exchanges with the same receive (any source, the round's
 * tag): the first sends (rank, round) to rank+1, the second to rank+2; the messages of rank-1
 * and rank-2 race for the first posted receive. The first exchange completes with MPI_Wait,
 * the second with a loop of MPI_Test. Built with REPLACE 1 (isendrecv_replace.c):
 * MPI_Isendrecv_replace, each buffer holding the message sent, then the message received.
 * Rank 0 prints the digest of which sender each exchange of every rank received from
 * (nondeterministic), and how many statuses named the payload's sender with its tag and
 * MPI_Get_count 2 (MPICH 4.0.2's own MPI_Isendrecv leaves statuses unset; mpirr's say what was
 * received). Built against an MPI-3 library (Open MPI 4.1) it only says so and fails. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#ifndef REPLACE
#define REPLACE 0
#endif

#define ROUNDS 40

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#if MPI_VERSION >= 4
    int rank, n, replace = REPLACE;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 3 || n > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    uint64_t h = 14695981039346656037ull;
    int right = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int out[2][2] = {{rank, round}, {rank, round}}, in[2][2] = {{-1, -1}, {-1, -1}};
        MPI_Request req[2];
        MPI_Status st[2];
        for (int k = 0; k < 2; k++) {
            int dest = (rank + 1 + k) % n;
            if (replace)
                MPI_Isendrecv_replace(out[k], 2, MPI_INT, dest, round, MPI_ANY_SOURCE, round,
                                      MPI_COMM_WORLD, &req[k]);
            else
                MPI_Isendrecv(out[k], 2, MPI_INT, dest, round, in[k], 2, MPI_INT,
                              MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &req[k]);
        }
        MPI_Wait(&req[0], &st[0]);
        for (int flag = 0; !flag;) MPI_Test(&req[1], &flag, &st[1]);
        for (int k = 0; k < 2; k++) {
            const int *got = replace ? out[k] : in[k];
            int count = -1;
            MPI_Get_count(&st[k], MPI_INT, &count);
            right += st[k].MPI_SOURCE == got[0] && st[k].MPI_TAG == round && count == 2;
            if (got[1] != round) MPI_Abort(MPI_COMM_WORLD, 3);
            h = (h ^ (uint64_t)got[0]) * 1099511628211ull;
        }
    }
    uint64_t all[64];
    int rights[64];
    MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    MPI_Gather(&right, 1, MPI_INT, rights, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int total = 0;
        uint64_t d = 14695981039346656037ull;
        for (int r = 0; r < n; r++) {
            d = (d ^ all[r]) * 1099511628211ull;
            total += rights[r];
        }
        printf("digest %016llx\n", (unsigned long long)d);
        printf("statuses naming their sender: %d of %d\n", total, 2 * ROUNDS * n);
    }
    MPI_Finalize();
    return 0;
#else
    fprintf(stderr, "isendrecv_race: needs MPI-4's MPI_Isendrecv\n");
    MPI_Finalize();
    return 1;
#endif
}
