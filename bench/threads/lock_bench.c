/* lock_bench: what ordering a rank's thread synchronizations costs (src/runtime/threads/).
 * One scenario per run, argv[1], with argv[2] its size; threads are made after MPI_Init, so
 * mpirr orders them:
 *   uncontended N  one thread, N pthread_mutex_lock/unlock pairs on a mutex no other thread
 *                  touches: ns per pair
 *   contended N    4 threads increment one counter under one mutex, N times each: seconds
 *   prodcons N     a producer hands N items to 2 consumers through a 16-slot queue under one
 *                  mutex and two condition variables: seconds
 * Prints "bench lock_SCENARIO seconds S ns_per_pair X acquisitions A": A counts the mutex
 * acquisitions (lock calls, and the reacquisition that ends each condition wait) - the events
 * the sync logs' bytes are divided by. Exits 1 if the counts do not add up. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CONTENDERS = 4, CONSUMERS = 2, SLOTS = 16 };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static long n;                       /* the scenario's size */
static long counter, acquisitions;   /* under m */
static long queue[SLOTS], head, tail, consumed, sum;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *incrementer(void *p)
{
    (void)p;
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&m);
        counter++;
        acquisitions++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *producer(void *p)
{
    (void)p;
    for (long i = 1; i <= n; i++) {
        pthread_mutex_lock(&m);
        acquisitions++;
        while (tail - head == SLOTS) {
            pthread_cond_wait(&not_full, &m);
            acquisitions++;
        }
        queue[tail++ % SLOTS] = i;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *consumer(void *p)
{
    (void)p;
    for (;;) {
        pthread_mutex_lock(&m);
        acquisitions++;
        while (head == tail && consumed < n) {
            pthread_cond_wait(&not_empty, &m);
            acquisitions++;
        }
        if (consumed == n) { /* the last item went to the other consumer */
            pthread_cond_broadcast(&not_empty);
            pthread_mutex_unlock(&m);
            return NULL;
        }
        sum += queue[head++ % SLOTS];
        consumed++;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
    }
}

/* Runs fn in `threads` threads (the producer first for prodcons); returns the seconds. */
static double run(int threads, void *(*first)(void *), void *(*rest)(void *))
{
    pthread_t t[CONTENDERS + 1];
    double t0 = now();
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, i ? rest : first, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return now() - t0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *what = argc > 1 ? argv[1] : "uncontended";
    n = argc > 2 ? atol(argv[2]) : 1000000;
    double s;
    int ok;
    if (!strcmp(what, "uncontended")) {
        s = run(1, incrementer, incrementer);
        ok = counter == n;
    } else if (!strcmp(what, "contended")) {
        s = run(CONTENDERS, incrementer, incrementer);
        ok = counter == CONTENDERS * n;
    } else if (!strcmp(what, "prodcons")) {
        s = run(1 + CONSUMERS, producer, consumer);
        ok = consumed == n && sum == n * (n + 1) / 2;
    } else {
        fprintf(stderr, "lock_bench: unknown scenario %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 2);
        return 2;
    }
    printf("bench lock_%s seconds %.6f ns_per_pair %.2f acquisitions %ld\n", what, s,
           s * 1e9 / (double)acquisitions, acquisitions);
    MPI_Finalize();
    return ok ? 0 : 1;
}
