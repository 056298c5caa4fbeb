/* c_exchange.c: the C half of f_main, called from Fortran after its MPI_Init: rank 0 receives
 * each round's messages with MPI_Recv from MPI_ANY_SOURCE and a polled MPI_Testany over
 * wildcard receives; the others send, with uneven work in between. *digest: what rank 0 saw. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

static volatile double sink;

static void spin(int a, int b)
{
    for (int i = 0, n = (a * 7919 + b * 104729) % 40000; i < n; i++)
        sink = sink * 0.999999 + 1e-9;
}

static void fold(int64_t *d, int v) { *d = (*d * 65599 + v + 12345) % 2147483629; }

void c_exchange(int rounds, int64_t *digest)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int(*bufs)[2] = malloc(sizeof(int[2]) * (size_t)nranks);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)nranks);
    *digest = 0;
    for (int round = 1; round <= rounds; round++) {
        MPI_Barrier(MPI_COMM_WORLD); /* no sender runs a round ahead */
        if (rank != 0) {
            for (int tag = 95; tag <= 96; tag++) {
                spin(round * 2 + tag, rank);
                int msg[2] = {rank, round};
                MPI_Send(msg, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
            }
            continue;
        }
        MPI_Status st;
        for (int k = 1; k < nranks; k++) {
            int msg[2];
            MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, 95, MPI_COMM_WORLD, &st);
            if (msg[0] != st.MPI_SOURCE || msg[1] != round)
                MPI_Abort(MPI_COMM_WORLD, 1);
            fold(digest, st.MPI_SOURCE);
        }
        for (int k = 0; k < nranks - 1; k++)
            MPI_Irecv(bufs[k], 2, MPI_INT, MPI_ANY_SOURCE, 96, MPI_COMM_WORLD, &reqs[k]);
        for (int k = 1; k < nranks; k++) {
            int index, flag, fails = 0;
            for (;; fails++) {
                MPI_Testany(nranks - 1, reqs, &index, &flag, &st);
                if (flag)
                    break;
                spin(fails, 7);
            }
            fold(digest, fails * 16 + index);
            fold(digest, bufs[index][0]);
        }
    }
    free(bufs);
    free(reqs);
}
