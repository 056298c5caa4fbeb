/* event_windows.c: one-sided calls in the event history (event_windows.h). A window's id is
 * this rank's creation count; the analysis makes it run-wide (the k-th window created on one
 * communicator is the same window on every member). What a record needs from the creation
 * (the id, disp_unit, whether the window is dynamic, its group's world ranks) is kept in the
 * window's entry of the runtime's one table of windows (rma/window_registry.c), which
 * MPI_Win_free drops. */
#include <stdlib.h>

#include "event_ids.h"
#include "event_windows.h"
#include "rma/rma.h"
#include "runtime.h"

static uint32_t created; /* windows this rank created while the history was on: the next id */

/* The record is a one-sided call on window id: every RMA field set (the shapes add the rest). */
static void name_win(mpirr_ev_call *c, uint32_t id, unsigned kind, int32_t target)
{
    c->e.fields |= MPIRR_EVF_RMA;
    c->e.win = id;
    c->e.rma = kind;
    c->e.target = target;
    c->e.disp = c->e.span = 0;
    c->e.rma_op = c->e.rma_type = c->e.lock = 0;
    c->e.ranks = NULL;
    c->e.nranks = 0;
}

void mpirr_ev_win_created(mpirr_ev_call *c, MPI_Win win, int disp_unit, unsigned kind)
{
    MPI_Group g;
    uint32_t nworld = 0;
    int32_t *world = NULL;
    if (PMPI_Win_get_group(win, &g) == MPI_SUCCESS) {
        world = mpirr_ev_world_ranks(g, NULL, &nworld);
        PMPI_Group_free(&g);
    }
    rma_window *w = mpirr_window_add(win);
    mpirr_lock();
    free(w->ev_world); /* a handle whose free this rank did not see */
    w->ev_world = world;
    w->ev_nworld = world ? nworld : 0;
    w->ev_disp_unit = kind == MPIRR_RMA_CREATE_DYNAMIC ? 1 : disp_unit;
    w->ev_id = created++;
    w->ev_named = 1;
    uint32_t id = w->ev_id;
    mpirr_unlock();
    name_win(c, id, kind, MPIRR_EV_PROC_NULL);
}

void mpirr_ev_set_win(mpirr_ev_call *c, MPI_Win win, unsigned kind, int rank)
{
    rma_window *w = mpirr_window_find(win);
    if (!w) return; /* not seen created: nothing to name it by */
    mpirr_lock();
    int named = w->ev_named;
    uint32_t id = w->ev_id;
    int32_t target = MPIRR_EV_PROC_NULL;
    if (rank >= 0 && (uint32_t)rank < w->ev_nworld) target = w->ev_world[rank];
    mpirr_unlock();
    if (named) name_win(c, id, kind, target);
}

/* MPI's operation and type handles need not be constant expressions (Open MPI's are
 * addresses): compared one by one, for the few accumulate calls only. */
static unsigned op_code(MPI_Op op)
{
    if (op == MPI_OP_NULL) return 0;
    if (op == MPI_SUM) return MPIRR_RMA_OP_SUM;
    if (op == MPI_PROD) return MPIRR_RMA_OP_PROD;
    if (op == MPI_MAX) return MPIRR_RMA_OP_MAX;
    if (op == MPI_MIN) return MPIRR_RMA_OP_MIN;
    if (op == MPI_LAND) return MPIRR_RMA_OP_LAND;
    if (op == MPI_BAND) return MPIRR_RMA_OP_BAND;
    if (op == MPI_LOR) return MPIRR_RMA_OP_LOR;
    if (op == MPI_BOR) return MPIRR_RMA_OP_BOR;
    if (op == MPI_LXOR) return MPIRR_RMA_OP_LXOR;
    if (op == MPI_BXOR) return MPIRR_RMA_OP_BXOR;
    if (op == MPI_MAXLOC) return MPIRR_RMA_OP_MAXLOC;
    if (op == MPI_MINLOC) return MPIRR_RMA_OP_MINLOC;
    if (op == MPI_REPLACE) return MPIRR_RMA_OP_REPLACE;
    if (op == MPI_NO_OP) return MPIRR_RMA_OP_NO_OP;
    return MPIRR_RMA_OP_USER;
}

static unsigned type_code(MPI_Datatype t)
{
    if (t == MPI_CHAR || t == MPI_SIGNED_CHAR) return MPIRR_RMA_TYPE_CHAR;
    if (t == MPI_SHORT) return MPIRR_RMA_TYPE_SHORT;
    if (t == MPI_INT) return MPIRR_RMA_TYPE_INT;
    if (t == MPI_LONG) return MPIRR_RMA_TYPE_LONG;
    if (t == MPI_LONG_LONG || t == MPI_LONG_LONG_INT) return MPIRR_RMA_TYPE_LONG_LONG;
    if (t == MPI_UNSIGNED) return MPIRR_RMA_TYPE_UNSIGNED;
    if (t == MPI_UNSIGNED_LONG) return MPIRR_RMA_TYPE_UNSIGNED_LONG;
    if (t == MPI_UNSIGNED_LONG_LONG) return MPIRR_RMA_TYPE_UNSIGNED_LONG_LONG;
    if (t == MPI_FLOAT) return MPIRR_RMA_TYPE_FLOAT;
    if (t == MPI_DOUBLE) return MPIRR_RMA_TYPE_DOUBLE;
    if (t == MPI_INT32_T) return MPIRR_RMA_TYPE_INT32;
    if (t == MPI_INT64_T) return MPIRR_RMA_TYPE_INT64;
    if (t == MPI_UINT32_T) return MPIRR_RMA_TYPE_UINT32;
    if (t == MPI_UINT64_T) return MPIRR_RMA_TYPE_UINT64;
    if (t == MPI_BYTE) return MPIRR_RMA_TYPE_BYTE;
    return 0;
}

void mpirr_ev_set_access(mpirr_ev_call *c, MPI_Win win, MPI_Aint disp, int count,
                         MPI_Datatype type, MPI_Op op)
{
    if (!(c->e.fields & MPIRR_EVF_RMA)) return;
    rma_window *w = mpirr_window_find(win); /* named by set_win: it has an entry */
    mpirr_lock();
    int unit = w ? w->ev_disp_unit : 1; /* 1 for a dynamic window: disp is an address */
    mpirr_unlock();
    mpirr_ev_set_bytes(c, count, type);
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    uint64_t span = 0;
    if (count > 0 && type != MPI_DATATYPE_NULL && PMPI_Type_get_extent(type, &lb, &extent) == MPI_SUCCESS &&
        PMPI_Type_get_true_extent(type, &tlb, &textent) == MPI_SUCCESS)
        span = (uint64_t)(count - 1) * (uint64_t)extent + (uint64_t)textent;
    c->e.disp = (uint64_t)((int64_t)disp * unit + tlb);
    c->e.span = (c->e.fields & MPIRR_EVF_BYTES) && span != c->e.bytes ? span : 0;
    c->e.rma_op = op_code(op);
    c->e.rma_type = type_code(type);
}

void mpirr_ev_set_lock(mpirr_ev_call *c, int lock_type)
{
    c->e.lock = lock_type == MPI_LOCK_EXCLUSIVE ? MPIRR_RMA_LOCK_EXCLUSIVE : MPIRR_RMA_LOCK_SHARED;
}

void mpirr_ev_set_group(mpirr_ev_call *c, MPI_Group group)
{
    if (!(c->e.fields & MPIRR_EVF_RMA)) return;
    c->e.ranks = mpirr_ev_world_ranks(group, NULL, &c->e.nranks);
    if (!c->e.ranks) c->e.nranks = 0;
}

void mpirr_ev_windows_reset(void)
{
    mpirr_lock();
    created = 0;
    mpirr_unlock();
}
