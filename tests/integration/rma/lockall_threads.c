/* lockall_threads.c: MPI_Win_lock_all epochs of threaded ranks against exclusive epochs on one
 * target (issue 32). Under MPI_THREAD_MULTIPLE, rank 0 increments a word of its own window
 * INCREMENTS times, each under MPI_Win_lock(EXCLUSIVE, 0) with a local load and store; every
 * other rank opens EPOCHS MPI_Win_lock_all epochs, and in each its THREADS threads at once
 * take a ticket from a counter on rank 0 with MPI_Fetch_and_op(+1) and read the word with
 * MPI_Get. What a read sees is how many increments were granted before its epoch reached rank 0;
 * which thread gets which ticket differs between runs too. Rank 0 prints every rank's tickets and
 * reads; the control flow never depends on a value, so a replay runs the same calls whatever it
 * reads. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define INCREMENTS 20
#define EPOCHS 4
#define THREADS 2
#define PER_RANK (EPOCHS * THREADS * 2)

struct worker {
    MPI_Win win;
    int *out; /* the ticket, then the word read */
};

static void *work(void *arg)
{
    struct worker *w = arg;
    const int one = 1;
    MPI_Fetch_and_op(&one, &w->out[0], MPI_INT, 0, 0, MPI_SUM, w->win);
    MPI_Win_flush(0, w->win);
    MPI_Get(&w->out[1], 1, MPI_INT, 0, 1, 1, MPI_INT, w->win);
    MPI_Win_flush(0, w->win);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) MPI_Abort(MPI_COMM_WORLD, 3);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int *words = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? 2 * (MPI_Aint)sizeof *words : 0, sizeof *words, MPI_INFO_NULL,
                     MPI_COMM_WORLD, &words, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        words[0] = words[1] = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int got[PER_RANK] = {0};
    if (rank == 0) {
        for (int i = 0; i < INCREMENTS; i++) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            words[1] += 1;
            MPI_Win_unlock(0, win);
            for (volatile int spin = 0; spin < 20000; spin++) {
            }
        }
    } else {
        for (int e = 0; e < EPOCHS; e++) {
            MPI_Win_lock_all(0, win);
            pthread_t t[THREADS];
            struct worker w[THREADS];
            for (int k = 0; k < THREADS; k++) {
                w[k] = (struct worker){win, &got[(e * THREADS + k) * 2]};
                pthread_create(&t[k], NULL, work, &w[k]);
            }
            for (int k = 0; k < THREADS; k++) pthread_join(t[k], NULL);
            MPI_Win_unlock_all(win);
            for (volatile int spin = 0; spin < 15000 * rank; spin++) {
            }
        }
    }
    int all[64 * PER_RANK];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(got, PER_RANK, MPI_INT, all, PER_RANK, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 1; rank == 0 && r < nranks; r++) {
        printf("rank %d tickets/reads", r);
        for (int i = 0; i < PER_RANK; i++) printf(" %d", all[r * PER_RANK + i]);
        printf("\n");
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
