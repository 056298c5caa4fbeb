/* lockall_nested.c: a MPI_Win_lock_all epoch that touches one target while other ranks hold
 * exclusive epochs on the targets it never touches, and that nests exclusive epochs on another
 * window (issue 32). Ranks 1..3 each lock their own slot of window A exclusively and, inside
 * that epoch, wait for a message from rank 0; rank 0, in a lock_all epoch on A, reads only its
 * own slot of A, then for each rank r puts a word into r's slot of window B in an exclusive
 * epoch of its own and sends r the message. Every rank's epoch ends; rank 0 reads every slot of
 * A and B and prints them. mpirr's lazy lock_all takes a turn only on the target the epoch
 * accesses (rank 0); eager turns on every target of A waited for the exclusive epochs of ranks
 * 1..3, which wait for rank 0: the recording hung. Natively it hangs as well on Open MPI 4.1
 * and MPICH 4.0, whose MPI_Win_lock_all blocks until it holds every target (MPI allows that and
 * a lazy lock_all alike), so the test records and replays it only (docs/rma.md). */
#include <mpi.h>
#include <stdio.h>

#define MAX_RANKS 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > MAX_RANKS) MPI_Abort(MPI_COMM_WORLD, 2);
    int *a = NULL, *b = NULL;
    MPI_Win wa, wb;
    MPI_Win_allocate(sizeof *a, sizeof *a, MPI_INFO_NULL, MPI_COMM_WORLD, &a, &wa);
    MPI_Win_allocate(sizeof *b, sizeof *b, MPI_INFO_NULL, MPI_COMM_WORLD, &b, &wb);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, wa);
    *a = 100 + rank;
    MPI_Win_unlock(rank, wa);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, wb);
    *b = -1;
    MPI_Win_unlock(rank, wb);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD); /* every other rank holds its slot of A now */
        MPI_Win_lock_all(0, wa);
        int own = 0;
        MPI_Get(&own, 1, MPI_INT, 0, 0, 1, MPI_INT, wa);
        MPI_Win_flush(0, wa);
        for (int r = 1; r < nranks; r++) {
            int word = own * 10 + r;
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, wb);
            MPI_Put(&word, 1, MPI_INT, r, 0, 1, MPI_INT, wb);
            MPI_Win_unlock(r, wb);
            MPI_Send(&word, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
        }
        MPI_Win_unlock_all(wa);
    } else {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, wa);
        MPI_Barrier(MPI_COMM_WORLD);
        int word = 0;
        MPI_Recv(&word, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *a = word + 1;
        MPI_Win_unlock(rank, wa);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int got_a[MAX_RANKS], got_b[MAX_RANKS];
        MPI_Win_lock_all(0, wa);
        MPI_Win_lock_all(0, wb);
        for (int r = 0; r < nranks; r++) {
            MPI_Get(&got_a[r], 1, MPI_INT, r, 0, 1, MPI_INT, wa);
            MPI_Get(&got_b[r], 1, MPI_INT, r, 0, 1, MPI_INT, wb);
        }
        MPI_Win_unlock_all(wb);
        MPI_Win_unlock_all(wa);
        for (int r = 0; r < nranks; r++) printf("rank %d a %d b %d\n", r, got_a[r], got_b[r]);
    }
    MPI_Win_free(&wb);
    MPI_Win_free(&wa);
    MPI_Finalize();
    return 0;
}
