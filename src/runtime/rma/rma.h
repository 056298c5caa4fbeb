/* rma.h: what the files of src/runtime/rma share: every user window's two hidden turn windows
 * (turn_windows.c), this rank's passive-target epochs on it, and the turns that order epochs and
 * atomic operations on one target (turns.c). The design and why its order is one the program
 * can take: docs/rma.md. */
#ifndef MPIRR_RMA_H
#define MPIRR_RMA_H

#include <mpi.h>
#include <pthread.h>

#include "runtime.h"

/* What this rank holds on one target of a user window: its MPI_Win_lock epoch there, or the
 * shared lock a lazy MPI_Win_lock_all epoch took there at its first access (lock_all.c). */
enum rma_held { RMA_HELD_NONE = 0, RMA_HELD_SHARED, RMA_HELD_EXCLUSIVE, RMA_HELD_LOCK_ALL };
/* This rank's MPI_Win_lock_all epoch on a user window (lock_all.c): LAZY takes a shared turn
 * and the program's shared lock on a target at the epoch's first access to it; EAGER (windows
 * whose memory the program may load and store, MPI_Win_allocate_shared, and every window of a
 * rank under MPI_THREAD_MULTIPLE) takes a shared turn on every target, then the program's
 * MPI_Win_lock_all; UNTURNED (a lock_all MPI did not call wrong inside another epoch) takes
 * none. */
enum rma_lock_all { RMA_LOCK_ALL_NONE = 0, RMA_LOCK_ALL_LAZY, RMA_LOCK_ALL_EAGER,
                    RMA_LOCK_ALL_UNTURNED };

/* One window the program made: the runtime's one table of them (window_registry.c), read by the
 * one-sided calls (their turns) and the event history (event_windows.c). */
typedef struct rma_window {
    /* ---- the turns (turn_windows.c): while recording or replaying ---- */
    int turned;          /* it has turn windows: epochs and atomics are valid */
    MPI_Win epochs;      /* turn window of the passive-target epochs (MPI_Win_lock) */
    MPI_Win atomics;     /* turn window of the atomic operations outside exclusive epochs */
    int64_t *epoch_counter, *atomic_counter; /* their memory: this rank's counters */
    int nranks;          /* of the window's group: valid targets are 0..nranks-1 */
    int load_store;      /* made by MPI_Win_allocate_shared: its lock_all epochs are EAGER */
    int lock_all;        /* enum rma_lock_all */
    int lock_all_assert; /* the lazy epoch's assert, for the shared lock of each target */
    int touched;         /* targets a lazy epoch holds (RMA_HELD_LOCK_ALL) */
    unsigned char *held; /* per target: enum rma_held */
    /* Under MPI_THREAD_MULTIPLE, held by the thread taking an atomic turn (atomics.c) from the
     * first poll to the turn's end: MPI lets a process hold one epoch per target of the turn
     * window, so the rank's threads take those turns one at a time. */
    pthread_mutex_t atomics_mutex;
    /* ---- the event history's view (event_windows.c): while it is on ---- */
    int ev_named;        /* the history saw it created: ev_id names it */
    uint32_t ev_id;      /* this rank's count of windows created before it */
    int ev_disp_unit;    /* 1 for a dynamic window: displacements are addresses */
    uint32_t ev_nworld;
    int32_t *ev_world;   /* world rank of each member of the window's group */
} rma_window;

/* ---- window_registry.c: the table, under the runtime lock; an entry lives from the
 * window's creation to its MPI_Win_free (or MPI_Finalize) ---- */
/* The entry of win, NULL if none. */
rma_window *mpirr_window_find(MPI_Win win);
/* The entry of win, made (zeroed) if there is none. */
rma_window *mpirr_window_add(MPI_Win win);
/* Takes win's entry out of the table (its handle may come back); NULL if none. The caller frees
 * it with mpirr_window_release once it let go of its turn windows. */
rma_window *mpirr_window_remove(MPI_Win win);
void mpirr_window_release(rma_window *w);
/* Every entry left, one by one (pos starts at 0); NULL at the end. */
rma_window *mpirr_window_next(size_t *pos);
/* Forgets the table (after its entries were released). */
void mpirr_window_registry_free(void);

/* ---- turn_windows.c ---- */
/* The entry of win if it has turn windows and the rank is recording or replaying, NULL
 * otherwise (a window made by a call beyond INT_MAX, or while neither: it takes no turns). */
rma_window *mpirr_rma_find(MPI_Win win);
/* A target the window's turns cover (MPI_PROC_NULL and bad ranks: MPI reports those). */
static inline int mpirr_rma_target_ok(const rma_window *w, int target)
{
    return target >= 0 && target < w->nranks;
}

/* After MPI_Finalize: the memory of the turn windows of windows the program never freed (MPI
 * ended those windows), and the map; nothing stays for a next MPI_Init. */
void mpirr_rma_finish(void);

/* ---- lock_all.c ---- */
/* Call c is about to access target of win (rma_window w, NULL: none): in a lazy lock_all epoch
 * that has not touched target yet, takes the shared turn there (keyed by c, sub = target) and
 * the program's shared lock on it. Returns MPI_SUCCESS, or the error of that lock (the access
 * must then not be made: MPI reports the error). */
int mpirr_rma_touch(const mpirr_call *c, rma_window *w, MPI_Win win, int target);
/* MPI_ERR_RMA_SYNC, through win's error handler: a lock or lock_all inside a lazy lock_all
 * epoch, which MPI itself no longer sees and so cannot report. */
int mpirr_rma_sync_error(MPI_Win win);

/* ---- unordered_atomics.c ---- */
/* Whether an atomic operation that no turn orders (in a fence or PSCW epoch) may end otherwise
 * in another order and is counted for the verdict: fetches (it returns a value: Get_accumulate,
 * Fetch_and_op, Compare_and_swap), else an accumulate of op on type that does not commute
 * exactly (MPI_REPLACE, a sum or product of non-integers). */
int mpirr_rma_unordered_atomic(int fetches, MPI_Op op, MPI_Datatype type);

/* ---- turns.c ---- */
/* Opens an epoch of lock_type on target of the turn window turns and takes call c's turn
 * there: record: the next one, recorded (a ticket record keyed by c and sub); replay: the
 * recorded one, waiting until every earlier turn has been taken. Returns with the epoch open.
 * sub tells a call's several turns apart: the target for a lock_all epoch's turn (taken by its
 * MPI_Win_lock_all when EAGER, one per target; by the epoch's first access to the target when
 * LAZY, before that access's own atomic turn, sub 0), 0 for the other turns. local (NULL:
 * none): a mutex of the rank's threads held while this thread holds an epoch on the turn
 * window, released between a replay's polls so that a thread whose turn comes first can take
 * it; held on return. */
void mpirr_turn_begin(const mpirr_call *c, MPI_Win turns, int lock_type, int target,
                      uint32_t sub, pthread_mutex_t *local);
/* Closes it (and releases local): the next turn on target can be taken. */
void mpirr_turn_end(MPI_Win turns, int target, pthread_mutex_t *local);

#endif
