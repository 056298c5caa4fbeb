/* thread_sync: threads inside every rank racing on synchronization objects, whose order
 * decides the output: argv[1] names the object.
 *   mutex    4 threads append their number to a shared sequence under a mutex, 300 times
 *   cond     a producer hands 200 items to 2 consumers through a condition variable; each
 *            consumer folds the items it got
 *   trylock  4 threads poll pthread_mutex_trylock, counting failures, 100 times each
 *   rwlock   2 writers and 2 readers: readers fold the value they see, 150 times
 *   sem      4 threads take a semaphore posted 400 times by the main thread, in turn
 *   create   3 threads each create 2 threads; every thread takes the mutex once
 *   crash    as mutex, then rank 0 dies (SIGSEGV) if its sequence digest is odd: a crash that
 *            only some interleavings produce
 *   diverge  the main thread takes the mutex, then a thread it creates takes it too (a
 *            recorded outcome: its first acquisition, at version 1); with THREAD_SYNC_VARIANT
 *            set on rank 0, that thread makes another call when replayed: "trylock" calls
 *            pthread_mutex_trylock on the mutex (another call than recorded), "otherlock"
 *            locks another mutex (whose version 1 never comes: a stall)
 *   multiple MPI_THREAD_MULTIPLE (3+ ranks): rank 0's 3 threads receive 40 messages each with
 *            MPI_ANY_SOURCE - by MPI_Recv, by MPI_Irecv polled with MPI_Test, by two MPI_Irecv
 *            completed with MPI_Waitany - while 2 threads of every other rank send to it
 *   posting  MPI_THREAD_MULTIPLE (2 ranks): rank 1 sends 100 numbered messages to rank 0, whose 2
 *            threads receive 50 each from rank 1 with the same tag - by MPI_Recv, by MPI_Irecv +
 *            MPI_Wait - and fold the numbers they got: which thread gets which message is the
 *            order their receives were posted in (no wildcard: nothing in the rank log)
 *   reuse    MPI_THREAD_MULTIPLE (3 ranks): rank 0's 2 threads receive with MPI_ANY_SOURCE,
 *            each with its tag, by MPI_Irecv + MPI_Wait in a tight loop, so that a request
 *            handle one completes is the other's next (the order of sources differs natively)
 *   sending  MPI_THREAD_MULTIPLE (2 ranks): rank 1's 2 threads send 50 numbered messages each to
 *            rank 0 with the same tag - by MPI_Send, by MPI_Isend + MPI_Wait - and rank 0 folds
 *            the 100 it receives from rank 1 in order: the order the sends were posted in
 * Rank 0 gathers each rank's digest and prints "digest RANK HEX" lines: runs differ natively,
 * a replay must print the same. Threads are made after MPI_Init (mpirr orders them from
 * there); the main thread alone calls MPI. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../programs/common.h"

enum { NT = 4 };
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t sem;
static digest_t d;
static int queue[1024], qhead, qtail, produced_all, shared_value;

/* About n tenths of a microsecond of work: long enough that threads on two cores interleave.
 * Up to half as much again is added at random (from /dev/urandom, which mpirr does not record),
 * so that native runs differ even on a quiet machine where two threads would keep in step; a
 * replay's threads get other amounts than the recorded run's, and must still print the same.
 * Then, at random, the thread yields: when another rank's polling leaves a rank's threads one
 * core, the first thread to run would otherwise finish all of its calls within its time slice,
 * in the same order every run (sending printed the same in 12 native runs of 12). */
static unsigned jitter_seed;
static void seed_jitter(void)
{
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&jitter_seed, sizeof jitter_seed, 1, f) != 1) jitter_seed = 1;
    if (f) fclose(f);
}
static void spin(unsigned n)
{
    static _Thread_local unsigned state;
    if (!state) state = (jitter_seed ^ (unsigned)(uintptr_t)&state) | 1;
    (void)busy_work(100ull * (n + (unsigned)rand_r(&state) % (n / 2 + 1)));
    if (rand_r(&state) & 1) sched_yield();
}

/* threads start together, so that they race from their first call */
static pthread_barrier_t start;
static void started(void) { pthread_barrier_wait(&start); }

static void *mutex_thread(void *p)
{
    int id = (int)(intptr_t)p;
    started();
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&m);
        digest_int(&d, id);
        pthread_mutex_unlock(&m);
        spin(50 + (unsigned)(id * 37 + i) % 200);
    }
    return NULL;
}

static void *consumer(void *p)
{
    int id = (int)(intptr_t)p;
    digest_t mine;
    digest_init(&mine);
    started();
    for (;;) {
        pthread_mutex_lock(&m);
        while (qhead == qtail && !produced_all) pthread_cond_wait(&cv, &m);
        if (qhead == qtail) {
            pthread_mutex_unlock(&m);
            break;
        }
        int item = queue[qhead++ % 1024];
        digest_int(&mine, item);
        pthread_mutex_unlock(&m);
        spin(100 + (unsigned)item % 300);
    }
    pthread_mutex_lock(&m);
    digest_int(&d, id);
    digest_u64(&d, mine.h);
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *producer(void *p)
{
    (void)p;
    started();
    for (int i = 0; i < 200; i++) {
        pthread_mutex_lock(&m);
        queue[qtail++ % 1024] = i;
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&m);
        spin(150);
    }
    pthread_mutex_lock(&m);
    produced_all = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *trylock_thread(void *p)
{
    int id = (int)(intptr_t)p, fails = 0;
    started();
    for (int i = 0; i < 100; i++) {
        while (pthread_mutex_trylock(&m)) fails++;
        digest_int(&d, id);
        spin(100);
        pthread_mutex_unlock(&m);
        spin(50);
    }
    pthread_mutex_lock(&m);
    digest_int(&d, fails > 0);
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *rw_thread(void *p)
{
    int id = (int)(intptr_t)p;
    digest_t mine;
    digest_init(&mine);
    started();
    for (int i = 0; i < 150; i++) {
        if (id < 2) {
            pthread_rwlock_wrlock(&rw);
            shared_value = shared_value * 3 + id + 1;
            pthread_rwlock_unlock(&rw);
        } else {
            pthread_rwlock_rdlock(&rw);
            digest_int(&mine, shared_value);
            pthread_rwlock_unlock(&rw);
        }
        spin(80 + (unsigned)(id * 13 + i) % 100);
    }
    pthread_mutex_lock(&m);
    digest_u64(&d, mine.h);
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *sem_thread(void *p)
{
    int id = (int)(intptr_t)p;
    for (int i = 0; i < 100; i++) {
        sem_wait(&sem);
        pthread_mutex_lock(&m);
        digest_int(&d, id);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

enum { PER_THREAD = 40, TAG = 5 };
static int senders_per_rank = 2;

/* rank 0's receiving threads: each folds the sources it got into its own digest */
static uint64_t got[3];
static void *receiver(void *p)
{
    int id = (int)(intptr_t)p, msg[2];
    digest_t mine;
    digest_init(&mine);
    started();
    for (int i = 0; i < PER_THREAD; i++) {
        MPI_Status st;
        if (id == 0) {
            MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
        } else if (id == 1) {
            MPI_Request r;
            int done = 0;
            MPI_Irecv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &r);
            while (!done) MPI_Test(&r, &done, &st);
        } else {
            MPI_Request r[2];
            int which, other[2];
            MPI_Irecv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &r[0]);
            MPI_Irecv(other, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &r[1]);
            MPI_Waitany(2, r, &which, &st);
            digest_int(&mine, st.MPI_SOURCE);
            MPI_Wait(&r[1 - which], &st);
            i++;
        }
        digest_int(&mine, st.MPI_SOURCE);
    }
    got[id] = mine.h;
    return NULL;
}

static void *sender(void *p)
{
    int id = (int)(intptr_t)p, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = 3 * PER_THREAD / ((size - 1) * senders_per_rank);
    started();
    for (int i = 0; i < n; i++) {
        int msg[2] = {rank, id};
        spin((unsigned)(rank * 37 + id * 11 + i * 7) % 300);
        MPI_Send(msg, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD);
    }
    return NULL;
}

static void multiple(int rank, int size)
{
    pthread_t t[3];
    int n = rank == 0 ? 3 : senders_per_rank;
    if ((3 * PER_THREAD) % ((size - 1) * senders_per_rank)) fail("multiple: 2 or 3 senders of 2 threads");
    pthread_barrier_init(&start, NULL, (unsigned)n);
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, rank == 0 ? receiver : sender, (void *)(intptr_t)i);
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    for (int i = 0; rank == 0 && i < 3; i++) digest_u64(&d, got[i]);
}

/* reuse: rank 0's 2 threads each receive REUSE_ROUNDS messages with MPI_ANY_SOURCE and their
 * own tag, by MPI_Irecv + MPI_Wait in a tight loop, from a thread of each other rank; MPI
 * hands the request one thread just completed to the other's next MPI_Irecv, often before
 * the first is back from MPI_Wait (the handle is not an identity, request_table.c). */
enum { REUSE_ROUNDS = 1500 };
static void *reuse_receiver(void *p)
{
    int id = (int)(intptr_t)p, msg, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    digest_t mine;
    digest_init(&mine);
    started();
    for (int i = 0; i < REUSE_ROUNDS * (size - 1); i++) {
        MPI_Request r;
        MPI_Status st;
        MPI_Irecv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, id, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        digest_int(&mine, st.MPI_SOURCE);
    }
    got[id] = mine.h;
    return NULL;
}

static void *reuse_sender(void *p)
{
    int id = (int)(intptr_t)p;
    started();
    for (int i = 0; i < REUSE_ROUNDS; i++) {
        spin((unsigned)(i % 7));
        MPI_Send(&i, 1, MPI_INT, 0, id, MPI_COMM_WORLD);
    }
    return NULL;
}

static void reuse(int rank)
{
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, rank == 0 ? reuse_receiver : reuse_sender, (void *)(intptr_t)i);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; rank == 0 && i < 2; i++) digest_u64(&d, got[i]);
}

static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static const char *variant = "";

static void *diverging(void *p)
{
    (void)p;
    if (!strcmp(variant, "trylock")) {
        if (pthread_mutex_trylock(&m)) fail("diverge: trylock failed");
    } else {
        pthread_mutex_lock(!strcmp(variant, "otherlock") ? &m2 : &m);
    }
    digest_int(&d, 1);
    pthread_mutex_unlock(!strcmp(variant, "otherlock") ? &m2 : &m);
    return NULL;
}

enum { POSTS = 50 };
static void *poster(void *p)
{
    int id = (int)(intptr_t)p, msg;
    digest_t mine;
    digest_init(&mine);
    started();
    for (int i = 0; i < POSTS; i++) {
        if (id == 0) {
            MPI_Recv(&msg, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Request r;
            MPI_Irecv(&msg, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        digest_int(&mine, msg);
        spin((unsigned)(id * 29 + i * 13) % 100);
    }
    got[id] = mine.h;
    return NULL;
}

static void *same_tag_sender(void *p)
{
    int id = (int)(intptr_t)p;
    started();
    for (int i = 0; i < POSTS; i++) {
        int msg = id * 1000 + i;
        if (id == 0) {
            MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
        } else {
            MPI_Request r;
            MPI_Isend(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        spin((unsigned)(id * 29 + i * 13) % 100);
    }
    return NULL;
}

static void sending(int rank)
{
    if (rank == 0)
        for (int i = 0, msg; i < 2 * POSTS; i++) {
            MPI_Recv(&msg, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            digest_int(&d, msg);
        }
    if (rank != 1) return;
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, same_tag_sender, (void *)(intptr_t)i);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
}

static void posting(int rank)
{
    if (rank == 1)
        for (int i = 0; i < 2 * POSTS; i++) MPI_Send(&i, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
    if (rank != 0) return;
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, poster, (void *)(intptr_t)i);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) digest_u64(&d, got[i]);
}

static void *leaf(void *p)
{
    pthread_mutex_lock(&m);
    digest_int(&d, (int)(intptr_t)p);
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *creator(void *p)
{
    int id = (int)(intptr_t)p;
    pthread_t t[2];
    started();
    for (int k = 0; k < 2; k++) pthread_create(&t[k], NULL, leaf, (void *)(intptr_t)(10 * id + k));
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *what = argc > 1 ? argv[1] : "mutex";
    digest_init(&d);
    seed_jitter();
    if (!strcmp(what, "multiple") || !strcmp(what, "posting") || !strcmp(what, "sending") ||
        !strcmp(what, "reuse")) {
        if (!prog_init_multiple(&argc, &argv, &rank, &size)) return 0;
        if (!strcmp(what, "posting")) posting(rank);
        else if (!strcmp(what, "sending")) sending(rank);
        else if (!strcmp(what, "reuse")) reuse(rank);
        else if (size < 3) fail("multiple needs 3 ranks or more");
        else multiple(rank, size);
        uint64_t all[256];
        MPI_Gather(&d.h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (rank == 0) printf("digest 0 %016llx\n", (unsigned long long)all[0]);
        MPI_Finalize();
        return 0;
    }
    prog_init(&argc, &argv, &rank, &size, 1);
    pthread_t t[NT];
    int n = NT;
    void *(*fn)(void *) = mutex_thread;
    if (!strcmp(what, "cond")) {
        pthread_barrier_init(&start, NULL, 3);
        pthread_create(&t[0], NULL, producer, NULL);
        pthread_create(&t[1], NULL, consumer, (void *)1);
        pthread_create(&t[2], NULL, consumer, (void *)2);
        n = 3;
        fn = NULL;
    } else if (!strcmp(what, "trylock")) {
        fn = trylock_thread;
    } else if (!strcmp(what, "rwlock")) {
        fn = rw_thread;
    } else if (!strcmp(what, "sem")) {
        sem_init(&sem, 0, 0);
        fn = sem_thread;
    } else if (!strcmp(what, "create")) {
        fn = creator;
        n = 3;
    } else if (!strcmp(what, "diverge")) {
        const char *v = getenv("THREAD_SYNC_VARIANT");
        if (v && rank == 0) variant = v;
        pthread_mutex_lock(&m);
        digest_int(&d, 0);
        pthread_mutex_unlock(&m);
        fn = diverging;
        n = 1;
    } else if (strcmp(what, "mutex") && strcmp(what, "crash")) {
        fail("unknown object '%s'", what);
    }
    if (fn) pthread_barrier_init(&start, NULL, !strcmp(what, "sem") ? 1 : (unsigned)n);
    for (int i = 0; fn && i < n; i++) pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i);
    if (!strcmp(what, "sem"))
        for (int i = 0; i < 100 * NT; i++) {
            sem_post(&sem);
            spin(60);
        }
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    if (!strcmp(what, "crash") && rank == 0) {
        printf("sequence %016llx\n", (unsigned long long)d.h);
        fflush(stdout);
        if (d.h & 1) *(volatile int *)NULL = 1;
    }
    uint64_t all[256];
    MPI_Gather(&d.h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size && r < 256; r++) printf("digest %d %016llx\n", r, (unsigned long long)all[r]);
    MPI_Finalize();
    return 0;
}
