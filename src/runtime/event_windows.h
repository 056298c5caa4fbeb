/* event_windows.h: what the event history records of one-sided calls (event_windows.c):
 * windows get ids in the order this rank creates them, and each call's record names its
 * window, what it does (rma_fields.h), its target as a world rank (through the window's
 * group), the displacement in bytes (disp_unit known from the creation), the bytes and the
 * operation. Only RMA calls come here: other calls pay nothing for it. */
#ifndef MPIRR_EVENT_WINDOWS_H
#define MPIRR_EVENT_WINDOWS_H

#include <mpi.h>

#include "event_history.h"
#include "rma_fields.h"

/* The creating call (disp_unit 1 for a dynamic window): the window gets the next id. */
void mpirr_ev_win_created(mpirr_ev_call *c, MPI_Win win, int disp_unit, unsigned kind);
/* A call on win doing kind (MPIRR_RMA_*), with its target rank in the window's group or
 * MPI_PROC_NULL. Every RMA shape calls this first. */
void mpirr_ev_set_win(mpirr_ev_call *c, MPI_Win win, unsigned kind, int rank);
/* An access: where at the target, how much, and the accumulate operation (MPI_OP_NULL: none). */
void mpirr_ev_set_access(mpirr_ev_call *c, MPI_Win win, MPI_Aint disp, int count,
                         MPI_Datatype type, MPI_Op op);
void mpirr_ev_set_lock(mpirr_ev_call *c, int lock_type);
/* Post and start: the group's world ranks. */
void mpirr_ev_set_group(mpirr_ev_call *c, MPI_Group group);
/* The history closed: the next window it sees is id 0 again (MPI_Win_free and MPI_Finalize
 * drop the windows' entries, rma/window_registry.c). */
void mpirr_ev_windows_reset(void);

#endif
