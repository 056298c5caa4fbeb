/* session_mi_threads.c: the program of session_mi_threads.sh (`stacks --threads`). Every rank
 * starts two waiter threads that block reading a pipe, rank 1 also a straggler that blocks in
 * another function; the main thread makes sure each is blocked in its read (its
 * /proc/self/task/TID/syscall says read: not a guess by time) before it meets the other ranks
 * in a barrier, then lets them go and joins them. The lines marked @name are found by the
 * test. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { WAITERS = 2 };

static int go[2];                     /* the pipe the threads block on */
static atomic_int tids[WAITERS + 1];  /* each thread's id, once it runs */

static void take_one(void)
{
    char c;
    if (read(go[0], &c, 1) != 1) abort(); /* @read */
}

static void *waiter(void *arg)
{
    atomic_store(&tids[(long)arg], (int)syscall(SYS_gettid));
    char c;
    if (read(go[0], &c, 1) != 1) abort(); /* @wait */
    return NULL;
}

static void *straggler(void *arg)
{
    atomic_store(&tids[(long)arg], (int)syscall(SYS_gettid));
    take_one(); /* @straggle */
    return NULL;
}

/* Whether thread tid is blocked in read(2) now. */
static int in_read(int tid)
{
    char path[64];
    long nr = -1;
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", tid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    if (fscanf(f, "%ld", &nr) != 1) nr = -1;
    fclose(f);
    return nr == SYS_read;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (pipe(go)) abort();
    int threads = WAITERS + (rank == 1);
    pthread_t th[WAITERS + 1];
    for (long t = 0; t < threads; t++)
        pthread_create(&th[t], NULL, t < WAITERS ? waiter : straggler, (void *)t);
    for (int t = 0; t < threads; t++)
        while (!atomic_load(&tids[t]) || !in_read(atomic_load(&tids[t]))) sched_yield();
    MPI_Barrier(MPI_COMM_WORLD); /* @barrier */
    for (int t = 0; t < threads; t++)
        if (write(go[1], "x", 1) != 1) abort();
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
    printf("rank %d joined %d threads\n", rank, threads);
    MPI_Finalize();
    return 0;
}
