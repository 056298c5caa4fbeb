/* threads.c: MPI_THREAD_MULTIPLE under record mode. Four threads per rank make MPI calls at the
 * same time (wildcard receives, tests, sends, MPI_Wtime), so the runtime's bookkeeping is hit
 * concurrently. The runtime must not crash or corrupt the log: the recording must read back
 * with exactly one match record per wildcard receive and one wtime record per MPI_Wtime
 * (thread_sync.c tests the replay of threads; this, the recording's thread safety). Prints
 * "wildcard receives N wtime M" on rank 0. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "../programs/common.h"

enum { THREADS = 4, MSGS = 200, TIMES = 50 };

static int rank, size;

static void *worker(void *arg)
{
    int t = (int)(long)arg, x = 0;
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int i = 0; i < MSGS; i++) {
        MPI_Request rq;
        int flag = 0;
        MPI_Isend(&i, 1, MPI_INT, peer, t, MPI_COMM_WORLD, &rq);
        /* wildcard source, the thread's own tag: threads never steal each other's messages */
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        while (!flag) MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        for (int k = 0; k < TIMES; k++) (void)MPI_Wtime(); /* recorded without MPI's own lock */
        (void)from;
    }
    return NULL;
}

static pthread_barrier_t at_once;

static void *aborter(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&at_once);
    MPI_Abort(MPI_COMM_WORLD, 3);
    return NULL;
}

int main(int argc, char **argv)
{
    if (!prog_init_multiple(&argc, &argv, &rank, &size)) return 0;
    pthread_t th[THREADS];
    if (argc > 1 && argv[1][0] == 'a') { /* "abort": every thread of rank 0 aborts at once */
        pthread_barrier_init(&at_once, NULL, THREADS);
        /* once every rank is past MPI_Init, so has its log: a rank ended inside MPI_Init
         * would have none, which is another test's subject */
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            for (long t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, aborter, NULL);
        MPI_Barrier(MPI_COMM_WORLD); /* other ranks wait here to be ended */
        for (;;) pause();
    }
    for (long t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("wildcard receives %d wtime %d\n", THREADS * MSGS * size, THREADS * MSGS * TIMES * size);
    MPI_Finalize();
    return 0;
}
