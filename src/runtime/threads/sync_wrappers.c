/* sync_wrappers.c: the interposed thread synchronization calls (libmpirr.so is preloaded, so
 * the application's pthread_mutex_lock &c. come here first). Each passes straight through
 * unless sync_order.h tracks the call; then the record makes the real call and logs its
 * outcome if unexpected, and the replay gives the recorded outcome: a recorded failure
 * (EBUSY, ETIMEDOUT, EAGAIN) is returned without calling, a recorded acquisition waits for
 * its turn and then makes the blocking form of the call (a trylock that succeeded when
 * recorded locks), so it cannot fail. A condition wait is a release of its mutex and a new
 * acquisition of it: replay releases the mutex and reacquires it in its turn (a wake-up
 * POSIX allows at any time), so which waiter a signal woke is replayed by the mutex order.
 * Unlocks, posts and signals only pass through: their order follows from the acquisitions. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "real_call.h"
#include "sync_calls.h"
#include "sync_objects.h"
#include "sync_order.h"

static int (*real_pthread_mutex_lock)(pthread_mutex_t *);
static int (*real_pthread_mutex_trylock)(pthread_mutex_t *);
static int (*real_pthread_mutex_unlock)(pthread_mutex_t *);
static int (*real_pthread_mutex_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
static int (*real_pthread_mutex_destroy)(pthread_mutex_t *);
static int (*real_pthread_mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
static int (*real_pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
                                          const struct timespec *);
static int (*real_pthread_rwlock_rdlock)(pthread_rwlock_t *);
static int (*real_pthread_rwlock_wrlock)(pthread_rwlock_t *);
static int (*real_pthread_rwlock_tryrdlock)(pthread_rwlock_t *);
static int (*real_pthread_rwlock_trywrlock)(pthread_rwlock_t *);
static int (*real_pthread_rwlock_init)(pthread_rwlock_t *, const pthread_rwlockattr_t *);
static int (*real_pthread_rwlock_destroy)(pthread_rwlock_t *);
static int (*real_pthread_spin_lock)(pthread_spinlock_t *);
static int (*real_pthread_spin_trylock)(pthread_spinlock_t *);
static int (*real_pthread_spin_init)(pthread_spinlock_t *, int);
static int (*real_pthread_spin_destroy)(pthread_spinlock_t *);
static int (*real_sem_wait)(sem_t *);
static int (*real_sem_trywait)(sem_t *);
static int (*real_sem_timedwait)(sem_t *, const struct timespec *);
static int (*real_sem_init)(sem_t *, int, unsigned);
static int (*real_sem_destroy)(sem_t *);
static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* The mutex calls are looked up at load, while one thread runs: glibc's dlsym takes its own
 * lock with its internal entry points, never these. */
__attribute__((constructor)) static void resolve_mutex_calls(void)
{
    (void)REAL(pthread_mutex_lock);
    (void)REAL(pthread_mutex_trylock);
    (void)REAL(pthread_mutex_unlock);
}

#define CALLER __builtin_return_address(0)

/* An acquisition of obj by call: the real call `tried` when recording or passing through;
 * `blocking` in a replayed acquisition. Both return an error code (pthread style). */
#define ACQUIRE(call, obj, tried, blocking)                                                    \
    do {                                                                                       \
        struct sync_op op_;                                                                    \
        if (!mpirr_sync_begin(&op_, call, obj, CALLER)) return tried;                          \
        if (op_.failed) return op_.fail_rc;                                                    \
        int rc_ = mpirr_sync_turn(&op_) ? blocking : tried;                                    \
        mpirr_sync_end(&op_, rc_, 0);                                                          \
        return rc_;                                                                            \
    } while (0)

/* The same for the semaphore calls, which return -1 and set errno. */
static int sem_status(int rc) { return rc ? (errno = rc, -1) : 0; }
#define SEM_ACQUIRE(call, obj, tried, blocking)                                                \
    do {                                                                                       \
        struct sync_op op_;                                                                    \
        if (!mpirr_sync_begin(&op_, call, obj, CALLER)) return tried;                          \
        if (op_.failed) return sem_status(op_.fail_rc);                                        \
        int rc_ = mpirr_sync_turn(&op_) ? blocking : tried;                                    \
        mpirr_sync_end(&op_, rc_ ? errno : 0, 0);                                              \
        return rc_;                                                                            \
    } while (0)

int pthread_mutex_lock(pthread_mutex_t *m)
{
    ACQUIRE(MPIRR_SYNC_MUTEX_LOCK, m, REAL(pthread_mutex_lock)(m), REAL(pthread_mutex_lock)(m));
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
    ACQUIRE(MPIRR_SYNC_MUTEX_TRYLOCK, m, REAL(pthread_mutex_trylock)(m), REAL(pthread_mutex_lock)(m));
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t)
{
    ACQUIRE(MPIRR_SYNC_MUTEX_TIMEDLOCK, m, REAL(pthread_mutex_timedlock)(m, t),
            REAL(pthread_mutex_lock)(m));
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(m);
    return REAL(pthread_mutex_init)(m, a);
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(m);
    return REAL(pthread_mutex_destroy)(m);
}

/* A condition wait: the mutex is released and reacquired (also when the wait timed out). */
static int cond_wait(unsigned call, pthread_cond_t *c, pthread_mutex_t *m,
                     const struct timespec *t, const void *caller)
{
    struct sync_op op;
    if (!mpirr_sync_begin(&op, call, m, caller))
        return t ? REAL(pthread_cond_timedwait)(c, m, t) : REAL(pthread_cond_wait)(c, m);
    int rc;
    if (mpirr_sync_replaying()) {
        /* replay: give the mutex up, take it back in the recorded turn */
        REAL(pthread_mutex_unlock)(m);
        mpirr_sync_turn(&op);
        REAL(pthread_mutex_lock)(m);
        rc = op.failed ? op.fail_rc : 0;
    } else {
        rc = t ? REAL(pthread_cond_timedwait)(c, m, t) : REAL(pthread_cond_wait)(c, m);
    }
    mpirr_sync_end(&op, rc, 1);
    return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    return cond_wait(MPIRR_SYNC_COND_WAIT, c, m, NULL, CALLER);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
    return cond_wait(MPIRR_SYNC_COND_TIMEDWAIT, c, m, t, CALLER);
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_RWLOCK_RDLOCK, l, REAL(pthread_rwlock_rdlock)(l),
            REAL(pthread_rwlock_rdlock)(l));
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_RWLOCK_WRLOCK, l, REAL(pthread_rwlock_wrlock)(l),
            REAL(pthread_rwlock_wrlock)(l));
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_RWLOCK_TRYRDLOCK, l, REAL(pthread_rwlock_tryrdlock)(l),
            REAL(pthread_rwlock_rdlock)(l));
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_RWLOCK_TRYWRLOCK, l, REAL(pthread_rwlock_trywrlock)(l),
            REAL(pthread_rwlock_wrlock)(l));
}

int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(l);
    return REAL(pthread_rwlock_init)(l, a);
}

int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(l);
    return REAL(pthread_rwlock_destroy)(l);
}

int pthread_spin_lock(pthread_spinlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_SPIN_LOCK, (const void *)(uintptr_t)l, REAL(pthread_spin_lock)(l), REAL(pthread_spin_lock)(l));
}

int pthread_spin_trylock(pthread_spinlock_t *l)
{
    ACQUIRE(MPIRR_SYNC_SPIN_TRYLOCK, (const void *)(uintptr_t)l, REAL(pthread_spin_trylock)(l), REAL(pthread_spin_lock)(l));
}

int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset((const void *)(uintptr_t)l);
    return REAL(pthread_spin_init)(l, pshared);
}

int pthread_spin_destroy(pthread_spinlock_t *l)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset((const void *)(uintptr_t)l);
    return REAL(pthread_spin_destroy)(l);
}

int sem_wait(sem_t *s)
{
    SEM_ACQUIRE(MPIRR_SYNC_SEM_WAIT, s, REAL(sem_wait)(s), REAL(sem_wait)(s));
}

int sem_trywait(sem_t *s)
{
    SEM_ACQUIRE(MPIRR_SYNC_SEM_TRYWAIT, s, REAL(sem_trywait)(s), REAL(sem_wait)(s));
}

int sem_timedwait(sem_t *s, const struct timespec *t)
{
    SEM_ACQUIRE(MPIRR_SYNC_SEM_TIMEDWAIT, s, REAL(sem_timedwait)(s, t), REAL(sem_wait)(s));
}

int sem_init(sem_t *s, int pshared, unsigned value)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(s);
    return REAL(sem_init)(s, pshared, value);
}

int sem_destroy(sem_t *s)
{
    if (mpirr_sync_on) mpirr_sync_obj_reset(s);
    return REAL(sem_destroy)(s);
}

/* A tracked thread's start: it learns its number first. */
struct start {
    void *(*fn)(void *);
    void *arg;
    int id;
};

static void *started(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    mpirr_sync_thread_start(s.id);
    return s.fn(s.arg);
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    struct sync_op op;
    int id = mpirr_sync_create_begin(&op, CALLER);
    if (id < 0) return REAL(pthread_create)(th, attr, fn, arg);
    struct start *s = malloc(sizeof *s);
    int rc = ENOMEM;
    if (s) {
        *s = (struct start){fn, arg, id};
        rc = REAL(pthread_create)(th, attr, started, s);
        if (rc) free(s);
    }
    mpirr_sync_create_end(&op, rc);
    return rc;
}
