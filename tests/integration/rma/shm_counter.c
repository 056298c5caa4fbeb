/* shm_counter.c: a shared-memory window (issue 32): the ranks of one node share rank 0's
 * counter (MPI_Win_allocate_shared) and a log of who came when; inside MPI_Win_lock_all each
 * takes TICKETS tickets with MPI_Fetch_and_op(+1), writes its rank into the log at the ticket's
 * place by a plain store, and calls MPI_Win_sync. Rank 0 reads the log through its own memory
 * and prints it: the order of the atomics, which differs from run to run. */
#include <mpi.h>
#include <stdio.h>

#define TICKETS 6

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int rank, nranks;
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &nranks);
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    int *mem = NULL; /* rank 0's: [0] counter, [1..] the log */
    MPI_Win win;
    MPI_Win_allocate_shared(rank == 0 ? (MPI_Aint)((1 + 64 * TICKETS) * sizeof *mem) : 0,
                            sizeof *mem, MPI_INFO_NULL, node, &mem, &win);
    MPI_Aint size;
    int unit;
    int *base;
    MPI_Win_shared_query(win, 0, &size, &unit, &base);
    MPI_Win_lock_all(0, win);
    if (rank == 0) base[0] = 0;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    const int one = 1;
    for (int i = 0; i < TICKETS; i++) {
        int t;
        MPI_Fetch_and_op(&one, &t, MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        base[1 + t] = rank;
        MPI_Win_sync(win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    if (rank == 0) {
        printf("order");
        for (int t = 0; t < base[0]; t++) printf(" %d", base[1 + t]);
        printf("\n");
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
