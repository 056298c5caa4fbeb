/* lock_bench: ns per uncontended pthread_mutex_lock/unlock pair (one thread, made after
 * MPI_Init so mpirr orders it), and per pair on a mutex 4 threads contend for. Prints
 * "uncontended_ns X contended_ns Y pairs N". argv[1]: pairs per thread (default 2000000). */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long pairs;
static volatile long counter;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker(void *p)
{
    (void)p;
    for (long i = 0; i < pairs; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pairs = argc > 1 ? atol(argv[1]) : 2000000;
    pthread_t t[4];
    double t0 = now();
    pthread_create(&t[0], NULL, worker, NULL);
    pthread_join(t[0], NULL);
    double t1 = now();
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    double t2 = now();
    printf("uncontended_ns %.1f contended_ns %.1f pairs %ld\n", (t1 - t0) * 1e9 / pairs,
           (t2 - t1) * 1e9 / (4.0 * pairs), pairs);
    MPI_Finalize();
    return counter == 5 * pairs ? 0 : 1;
}
