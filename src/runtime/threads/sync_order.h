/* sync_order.h: the order of a rank's thread synchronizations, recorded and replayed (the
 * design: README.md). A tracked call is bracketed by mpirr_sync_begin and mpirr_sync_end; in
 * between the interposer makes the real call, unless the replay says the recorded call failed
 * (then it returns that error without calling). */
#ifndef MPIRR_SYNC_ORDER_H
#define MPIRR_SYNC_ORDER_H

#include <stdint.h>

#include "sync_objects.h"

struct sync_op {
    struct sync_obj *obj;
    const void *addr;
    uint32_t index;     /* the object's (mpirr_sync_obj) */
    uint32_t predicted; /* the version expected: the one after the last this thread saw */
    uint32_t version;   /* replay: the version this acquisition must get */
    int failed;         /* replay: the recorded call failed with error fail_rc */
    int fail_rc;
    unsigned call;      /* sync_calls.def id */
};

/* Whose code made a call (libc_callers.c, which also decides for the libc values): the
 * application's, a threading runtime's (OpenMP, TBB: their own waits pass through, their
 * thread creations are numbered), or the system's (the MPI library, libc, mpirr: everything
 * passes through). Cached per call site. */
enum mpirr_caller { MPIRR_CALLER_APP, MPIRR_CALLER_THREADING, MPIRR_CALLER_SYSTEM };
enum mpirr_caller mpirr_caller_kind(const void *caller);

/* Tracking is on between MPI_Init and MPI_Finalize of a recording or replay. */
extern int mpirr_sync_on;
/* 1 if the call is in the record's or replay's hands: the thread is one mpirr numbers and
 * the caller is the application; 0: pass it through. Replay: op says the recorded outcome
 * (failed with fail_rc: return that without calling; else acquire at op->version). */
int mpirr_sync_begin(struct sync_op *op, unsigned call, const void *addr, const void *caller);
/* Whether the tracked calls are being replayed (else recorded). */
int mpirr_sync_replaying(void);
/* Replay: 1, after waiting for the object to reach op->version (call it right before the
 * real acquisition, which then blocks rather than tries); record: 0 at once. */
int mpirr_sync_turn(struct sync_op *op);
/* After the real call, with its error code (0: acquired). acquired_anyway: the object was
 * acquired although rc says otherwise (a condition wait that timed out). */
void mpirr_sync_end(struct sync_op *op, int rc, int acquired_anyway);

/* Threads: the thread calling MPI_Init is thread 0 of its rank; mpirr_sync_start/stop bracket
 * the tracking (init_finalize.c). */
void mpirr_sync_start(void);
void mpirr_sync_stop(void);
/* pthread_create's part: the new thread's number (creation order, replayed: the creations of
 * a rank are one object), or -1 if the creating thread is not tracked; then
 * mpirr_sync_create_end with pthread_create's result. */
int mpirr_sync_create_begin(struct sync_op *op, const void *caller);
void mpirr_sync_create_end(struct sync_op *op, int rc);
/* MPI_THREAD_MULTIPLE: the order in which threads enter MPI is the order of the MPI event
 * numbers, so it is recorded and replayed like an object's. mpirr_sync_mpi_enter before the
 * runtime lock (replay waits there for the thread's turn), mpirr_sync_mpi_numbered under it
 * once the call has its event number; keep: the turn stays the thread's until
 * mpirr_threaded_posted (below). A thread mpirr does not number passes through. */
void mpirr_sync_mpi_enter(struct sync_op *op);
void mpirr_sync_mpi_numbered(struct sync_op *op, uint64_t event, int keep);

/* MPI_THREAD_MULTIPLE: two threads' receives with the same source, tag and communicator match
 * messages in the order MPI saw them posted, which need not be the order they entered MPI in.
 * So a call that posts a receive (MPI_Irecv; MPI_Recv, posted as MPI_Irecv + wait) keeps its
 * turn from its event number until the post returns: a replay lets no other thread's call in
 * before (the turn), a record no other receive post (a lock), so receives post in event order
 * in both. mpirr_threaded_post_held: this thread's current call holds its turn (it must call
 * mpirr_threaded_posted right after posting, and not wait before); mpirr_threaded_posted gives
 * it up (nothing if not held). */
int mpirr_threaded_post_held(void);
void mpirr_threaded_posted(void);

/* In the new thread, first: it is thread id. */
void mpirr_sync_thread_start(int id);

#endif
