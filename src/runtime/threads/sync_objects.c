/* sync_objects.c: the version counters of synchronization objects (sync_objects.h). One map
 * from address to object, under a small spinlock (taken once per object and thread: threads
 * cache what they found); objects live in chunks that never move, so a waker can reach an
 * object's waiters while the table grows. Replay's waits: each waiter is a node on its own
 * stack, in its object's list while it waits, with a futex word the waker sets. */
#include "sync_objects.h"

#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "u64_map.h"

#define CHUNK_BITS 10
#define CHUNK (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 4M objects */

static struct sync_obj *chunks[MAX_CHUNKS];
static uint32_t count;
static u64_map by_addr;
static int busy;
uint32_t mpirr_sync_generation;

static void lock(void)
{
    while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) sched_yield();
}

static void unlock(void) { __atomic_store_n(&busy, 0, __ATOMIC_RELEASE); }

struct sync_obj *mpirr_sync_obj_at(uint32_t index)
{
    return &chunks[index >> CHUNK_BITS][index & (CHUNK - 1)];
}

struct sync_obj *mpirr_sync_obj(const void *addr, uint32_t *index)
{
    uint64_t found;
    struct sync_obj *o = NULL;
    lock();
    if (u64_map_get(&by_addr, (uint64_t)(uintptr_t)addr, &found)) {
        *index = (uint32_t)found;
        o = mpirr_sync_obj_at(*index);
    } else if (count < MAX_CHUNKS * CHUNK) {
        uint32_t c = count >> CHUNK_BITS;
        if (!chunks[c]) chunks[c] = calloc(CHUNK, sizeof *chunks[c]);
        if (chunks[c] && !u64_map_put(&by_addr, (uint64_t)(uintptr_t)addr, count)) {
            *index = count++;
            o = mpirr_sync_obj_at(*index);
        }
    }
    unlock();
    return o;
}

void mpirr_sync_obj_reset(const void *addr)
{
    lock();
    if (u64_map_del(&by_addr, (uint64_t)(uintptr_t)addr, NULL)) /* the next use makes a new one */
        __atomic_fetch_add(&mpirr_sync_generation, 1, __ATOMIC_RELEASE);
    unlock();
}

uint64_t mpirr_sync_done_count;

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
    return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, timeout, NULL, 0);
}

/* A thread waiting for version `version` of an object; word: 0 until a waker moves the object
 * there (the futex word it sleeps on). */
struct sync_waiter {
    uint32_t word;
    uint32_t version;
    struct sync_waiter *next;
};

static void obj_lock(struct sync_obj *o)
{
    while (__atomic_exchange_n(&o->busy, 1, __ATOMIC_ACQUIRE)) sched_yield();
}

static void obj_unlock(struct sync_obj *o) { __atomic_store_n(&o->busy, 0, __ATOMIC_RELEASE); }

int mpirr_sync_obj_wait(struct sync_obj *o, uint32_t v, unsigned ms)
{
    if (__atomic_load_n(&o->version, __ATOMIC_ACQUIRE) == v) return 0;
    struct sync_waiter w = {.word = 0, .version = v};
    obj_lock(o);
    w.next = o->waiting;
    o->waiting = &w;
    __atomic_fetch_add(&o->waiters, 1, __ATOMIC_SEQ_CST);
    obj_unlock(o);
    /* at most ms milliseconds of waiting, counted down across early wake-ups (signals); a
     * process stopped meanwhile (a debugger) ends one wait at most. The version is read after
     * registering and a waker reads `waiters` after moving it (both sequentially consistent):
     * either this thread sees v or the waker sees it registered, so no wake is lost. */
    long long left = (long long)ms * 1000000;
    int rc = 0;
    while (__atomic_load_n(&o->version, __ATOMIC_SEQ_CST) != v) {
        if (left <= 0) {
            rc = -1;
            break;
        }
        struct timespec t0, t1, timeout = {.tv_sec = (time_t)(left / 1000000000), .tv_nsec = (long)(left % 1000000000)};
        clock_gettime(CLOCK_MONOTONIC, &t0);
        futex(&w.word, FUTEX_WAIT, 0, &timeout); /* sleeps only while no waker set the word */
        clock_gettime(CLOCK_MONOTONIC, &t1);
        left -= (t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec);
    }
    /* unlinked under the lock: no waker touches w once this returns */
    obj_lock(o);
    struct sync_waiter **p = &o->waiting;
    while (*p != &w) p = &(*p)->next;
    *p = w.next;
    __atomic_fetch_sub(&o->waiters, 1, __ATOMIC_RELAXED);
    obj_unlock(o);
    return rc;
}

void mpirr_sync_obj_done(struct sync_obj *o, uint32_t v)
{
    __atomic_store_n(&o->version, v + 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&mpirr_sync_done_count, 1, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&o->waiters, __ATOMIC_SEQ_CST)) return;
    obj_lock(o);
    for (struct sync_waiter *w = o->waiting; w; w = w->next)
        if (w->version == v + 1) { /* one, unless a diverged replay put two on one version */
            __atomic_store_n(&w->word, 1, __ATOMIC_RELEASE);
            futex(&w->word, FUTEX_WAKE, 1, NULL);
        }
    obj_unlock(o);
}

void mpirr_sync_objs_free(void)
{
    lock();
    for (uint32_t c = 0; c < MAX_CHUNKS && chunks[c]; c++) {
        free(chunks[c]);
        chunks[c] = NULL;
    }
    count = 0;
    u64_map_free(&by_addr);
    unlock();
}
