/* sync_objects.h: the version counters of synchronization objects. Every mutex, rwlock,
 * spinlock, semaphore (and the rank's thread creation) the application synchronizes on gets
 * one, found by its address in this run: the number of times it was acquired so far. A record
 * holds the version each acquisition got; a replay makes each acquisition wait for its version,
 * so every object is acquired in the recorded order. A waiting thread sleeps on a futex word
 * of its own, registered with the version it waits for: moving an object to version v wakes
 * the thread waiting for v and no other (the others would only go back to sleep). */
#ifndef MPIRR_SYNC_OBJECTS_H
#define MPIRR_SYNC_OBJECTS_H

#include <stdint.h>

struct sync_waiter;

struct sync_obj {
    uint32_t version;           /* acquisitions so far */
    uint32_t waiters;           /* replay: threads registered in `waiting` */
    int busy;                   /* replay: guards `waiting` */
    struct sync_waiter *waiting; /* replay: the threads waiting for a version, each on its word */
};

/* The object at addr, made (version 0) on first use; NULL when out of memory. Its index (for
 * a thread's cache) in *index. Thread-safe. */
struct sync_obj *mpirr_sync_obj(const void *addr, uint32_t *index);
/* The object of an index from mpirr_sync_obj. */
struct sync_obj *mpirr_sync_obj_at(uint32_t index);
/* addr is (re)initialised or destroyed: its next acquisition is a new object's first. Threads
 * drop what they cached when mpirr_sync_generation moved. */
void mpirr_sync_obj_reset(const void *addr);
extern uint32_t mpirr_sync_generation;
/* Record: this acquisition's version (the counter before it; the counter moves on). */
static inline uint32_t mpirr_sync_obj_take(struct sync_obj *o)
{
    return __atomic_fetch_add(&o->version, 1, __ATOMIC_ACQ_REL);
}
/* Replay: waits until the object is at version v (0), or for ms milliseconds at most (-1). */
int mpirr_sync_obj_wait(struct sync_obj *o, uint32_t v, unsigned ms);
/* Replay: the acquisition at version v is done: the object moves to v + 1, and the thread
 * waiting for v + 1, if any, wakes. */
void mpirr_sync_obj_done(struct sync_obj *o, uint32_t v);
/* Replay: acquisitions done so far in the rank (any object): a waiting thread tells a stalled
 * replay from a slow one by it. */
extern uint64_t mpirr_sync_done_count;
/* MPI_Finalize: forgets every object. */
void mpirr_sync_objs_free(void);

#endif
