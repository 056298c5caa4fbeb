/* turn_windows.c: window creation and MPI_Win_free. While recording or replaying, every window
 * the program makes (Win_create, Win_allocate, Win_allocate_shared, Win_create_dynamic) gets
 * two hidden turn windows on the same communicator, each one 64-bit turn counter per rank:
 * `epochs` orders the passive-target epochs on a target (lock_epochs.c), `atomics` the atomic
 * operations outside exclusive epochs (atomics.c). Two, because an atomic operation in a shared
 * epoch must be able to take its turn while another rank waits, inside its epoch turn, for the
 * program's exclusive lock (docs/rma.md, "Replay does not deadlock"). A map from the window
 * handle finds them; MPI_Win_free frees them after the program's window (both collective, so
 * every rank frees in the same order). */
#include <stdlib.h>

#include "handle_key.h"
#include "rma.h"
#include "special_calls.h"
#include "u64_map.h"

static u64_map windows; /* window handle -> rma_window * (under the runtime lock) */

rma_window *mpirr_rma_find(MPI_Win win)
{
    if (!(mpirr_recording() || mpirr_replaying())) return NULL;
    uint64_t v = 0;
    mpirr_lock();
    int found = u64_map_get(&windows, MPIRR_HANDLE_KEY(win), &v);
    mpirr_unlock();
    return found ? (rma_window *)(uintptr_t)v : NULL;
}

/* One turn window: memory zeroed before the collective creation, so no rank can take a turn
 * on a counter before it is 0. */
static MPI_Win turn_window(MPI_Comm comm, int64_t **counter)
{
    *counter = calloc(1, sizeof **counter);
    if (!*counter) mpirr_fatal("out of memory for a window's turn counter");
    MPI_Win w;
    if (PMPI_Win_create(*counter, sizeof **counter, sizeof **counter, MPI_INFO_NULL, comm, &w) !=
        MPI_SUCCESS)
        mpirr_fatal("cannot create the turn window of a window (MPI_Win_create failed)");
    return w;
}

struct turn_pair { /* what the map's value points to: the state and the counters' memory */
    rma_window w;
    int64_t *epoch_counter, *atomic_counter;
};

/* The program's creation of a window on comm returned rc: if it made one, give it its turn
 * windows (collectively, as the creation was). load_store: the program may load and store
 * its memory (MPI_Win_allocate_shared). Returns rc. */
static int window_born(int rc, const MPI_Win *win, MPI_Comm comm, int load_store)
{
    if (rc != MPI_SUCCESS || !(mpirr_recording() || mpirr_replaying())) return rc;
    struct turn_pair *p = calloc(1, sizeof *p);
    int n = 0;
    PMPI_Comm_size(comm, &n);
    if (!p || !(p->w.held = calloc((size_t)n, 1))) mpirr_fatal("out of memory for a window's turns");
    p->w.nranks = n;
    p->w.load_store = load_store;
    pthread_mutex_init(&p->w.atomics_mutex, NULL);
    p->w.epochs = turn_window(comm, &p->epoch_counter);
    p->w.atomics = turn_window(comm, &p->atomic_counter);
    mpirr_lock();
    int bad = u64_map_put(&windows, MPIRR_HANDLE_KEY(*win), (uint64_t)(uintptr_t)p);
    mpirr_unlock();
    if (bad) mpirr_fatal("out of memory for a window's turns");
    return rc;
}

int mpirr_MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                         MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_create);
    return window_born(PMPI_Win_create(base, size, disp_unit, info, comm, win), win, comm, 0);
}

int mpirr_MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                           void *baseptr, MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_allocate);
    return window_born(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), win, comm, 0);
}

int mpirr_MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                  void *baseptr, MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_allocate_shared);
    return window_born(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), win,
                       comm, 1);
}

int mpirr_MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_create_dynamic);
    return window_born(PMPI_Win_create_dynamic(info, comm, win), win, comm, 0);
}

static void turn_pair_free(struct turn_pair *p)
{
    free(p->epoch_counter);
    free(p->atomic_counter);
    free(p->w.held);
    pthread_mutex_destroy(&p->w.atomics_mutex);
    free(p);
}

int mpirr_MPI_Win_free(MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_free);
    uint64_t key = MPIRR_HANDLE_KEY(*win), v = 0;
    int rc = PMPI_Win_free(win);
    if (rc != MPI_SUCCESS) return rc;
    mpirr_lock();
    int found = u64_map_del(&windows, key, &v);
    mpirr_unlock();
    if (!found) return rc;
    struct turn_pair *p = (struct turn_pair *)(uintptr_t)v;
    PMPI_Win_free(&p->w.epochs);
    PMPI_Win_free(&p->w.atomics);
    turn_pair_free(p);
    return rc;
}

void mpirr_rma_finish(void)
{
    size_t pos = 0;
    uint64_t key, v;
    while (u64_map_next(&windows, &pos, &key, &v)) turn_pair_free((struct turn_pair *)(uintptr_t)v);
    u64_map_free(&windows);
}
