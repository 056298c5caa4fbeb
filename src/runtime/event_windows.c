/* event_windows.c: one-sided calls in the event history (event_windows.h). A window's id is
 * this rank's creation count; the analysis makes it run-wide (the k-th window created on one
 * communicator is the same window on every member). The table keeps what a record needs
 * from the creation: disp_unit, whether the window is dynamic, its group's world ranks. */
#include <stdlib.h>
#include <string.h>

#include "event_ids.h"
#include "event_windows.h"
#include "handle_key.h"
#include "runtime.h"
#include "u64_map.h"

struct window {
    uint64_t key;       /* the handle; 0 once freed */
    int disp_unit, dynamic;
    uint32_t nworld;
    int32_t *world;     /* world rank of each member of the window's group */
};

static struct {
    u64_map by_handle;  /* handle -> id */
    struct window *w;   /* by id */
    uint32_t n, cap;
} wins;

/* The window's id, UINT32_MAX if this rank did not see it created. Lock held. */
static uint32_t win_id(MPI_Win win)
{
    uint64_t id;
    return u64_map_get(&wins.by_handle, MPIRR_HANDLE_KEY(win), &id) ? (uint32_t)id : UINT32_MAX;
}

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
    struct window w = {.key = MPIRR_HANDLE_KEY(win), .disp_unit = disp_unit, .dynamic = kind == MPIRR_RMA_CREATE_DYNAMIC};
    if (PMPI_Win_get_group(win, &g) == MPI_SUCCESS) {
        w.world = mpirr_ev_world_ranks(g, NULL, &w.nworld);
        PMPI_Group_free(&g);
    }
    mpirr_lock();
    if (wins.n == wins.cap) {
        uint32_t cap = wins.cap ? wins.cap * 2 : 8;
        struct window *p = realloc(wins.w, cap * sizeof *p);
        if (!p) {
            mpirr_unlock();
            free(w.world);
            return;
        }
        wins.w = p;
        wins.cap = cap;
    }
    uint32_t id = wins.n++;
    wins.w[id] = w;
    u64_map_put(&wins.by_handle, w.key, id);
    mpirr_unlock();
    name_win(c, id, kind, MPIRR_EV_PROC_NULL);
}

void mpirr_ev_win_freed(const mpirr_ev_call *c)
{
    if (!(c->e.fields & MPIRR_EVF_RMA)) return;
    mpirr_lock();
    if (c->e.win < wins.n && wins.w[c->e.win].key) {
        u64_map_del(&wins.by_handle, wins.w[c->e.win].key, NULL);
        wins.w[c->e.win].key = 0;
        free(wins.w[c->e.win].world);
        wins.w[c->e.win].world = NULL;
        wins.w[c->e.win].nworld = 0;
    }
    mpirr_unlock();
}

void mpirr_ev_set_win(mpirr_ev_call *c, MPI_Win win, unsigned kind, int rank)
{
    mpirr_lock();
    uint32_t id = win_id(win);
    int32_t target = MPIRR_EV_PROC_NULL;
    if (id != UINT32_MAX && rank >= 0 && (uint32_t)rank < wins.w[id].nworld)
        target = wins.w[id].world[rank];
    mpirr_unlock();
    if (id == UINT32_MAX) return; /* not seen created: nothing to name it by */
    name_win(c, id, kind, target);
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

void mpirr_ev_set_access(mpirr_ev_call *c, MPI_Aint disp, int count, MPI_Datatype type,
                         MPI_Op op)
{
    if (!(c->e.fields & MPIRR_EVF_RMA)) return;
    mpirr_lock();
    int unit = c->e.win < wins.n ? wins.w[c->e.win].disp_unit : 1;
    if (c->e.win < wins.n && wins.w[c->e.win].dynamic) unit = 1; /* disp is an address */
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
    for (uint32_t i = 0; i < wins.n; i++) free(wins.w[i].world);
    free(wins.w);
    u64_map_free(&wins.by_handle);
    memset(&wins, 0, sizeof wins);
    mpirr_unlock();
}
