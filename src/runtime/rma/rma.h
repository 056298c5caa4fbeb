/* rma.h: what the files of src/runtime/rma share: every user window's two hidden turn windows
 * (turn_windows.c), this rank's passive-target epochs on it, and the turns that order epochs and
 * atomic operations on one target (turns.c). The design and why its order is one the program
 * can take: docs/rma.md. */
#ifndef MPIRR_RMA_H
#define MPIRR_RMA_H

#include <mpi.h>

#include "runtime.h"

/* What this rank holds on one target of a user window (its passive-target epoch there). */
enum rma_held { RMA_HELD_NONE = 0, RMA_HELD_SHARED, RMA_HELD_EXCLUSIVE };
/* This rank's MPI_Win_lock_all epoch on a user window, and whether it holds a shared turn on
 * every target (lock_epochs.c). */
enum rma_lock_all { RMA_LOCK_ALL_NONE = 0, RMA_LOCK_ALL_TURNED, RMA_LOCK_ALL_UNTURNED };

typedef struct rma_window {
    MPI_Win epochs;      /* turn window of the passive-target epochs (MPI_Win_lock) */
    MPI_Win atomics;     /* turn window of the atomic operations outside exclusive epochs */
    int nranks;          /* of the window's group: valid targets are 0..nranks-1 */
    int lock_all;        /* enum rma_lock_all */
    unsigned char *held; /* per target: enum rma_held */
} rma_window;

/* ---- turn_windows.c ---- */
/* The turn windows of win while recording or replaying, NULL otherwise (or a window made
 * before MPI_Init's recording began: it takes no turns). */
rma_window *mpirr_rma_find(MPI_Win win);
/* A target the window's turns cover (MPI_PROC_NULL and bad ranks: MPI reports those). */
static inline int mpirr_rma_target_ok(const rma_window *w, int target)
{
    return target >= 0 && target < w->nranks;
}

/* After MPI_Finalize: the memory of the turn windows of windows the program never freed (MPI
 * ended those windows), and the map; nothing stays for a next MPI_Init. */
void mpirr_rma_finish(void);

/* ---- turns.c ---- */
/* Opens an epoch of lock_type on target of the turn window turns and takes call c's turn
 * there: record: the next one, recorded (a ticket record keyed by c and sub); replay: the
 * recorded one, waiting until every earlier turn has been taken. Returns with the epoch open.
 * sub tells a call's several turns apart: the target for MPI_Win_lock_all (one turn per
 * target), 0 for calls that take one. */
void mpirr_turn_begin(const mpirr_call *c, MPI_Win turns, int lock_type, int target,
                      uint32_t sub);
/* Closes it: the next turn on target can be taken. */
void mpirr_turn_end(MPI_Win turns, int target);

#endif
