/* turn_windows.c: window creation and MPI_Win_free. While recording or replaying, every window
 * the program makes (Win_create, Win_allocate, Win_allocate_shared, Win_create_dynamic) gets
 * two hidden turn windows on the same communicator, each one 64-bit turn counter per rank:
 * `epochs` orders the passive-target epochs on a target (lock_epochs.c), `atomics` the atomic
 * operations outside exclusive epochs (atomics.c). Two, because an atomic operation in a shared
 * epoch must be able to take its turn while another rank waits, inside its epoch turn, for the
 * program's exclusive lock (docs/rma.md, "Replay does not deadlock"). They live in the window's
 * entry of the runtime's table of windows (window_registry.c); MPI_Win_free frees them after the
 * program's window (both collective, so every rank frees in the same order) and drops the
 * entry. */
#include <stdlib.h>

#include "rma.h"
#include "special_calls.h"

rma_window *mpirr_rma_find(MPI_Win win)
{
    if (!(mpirr_recording() || mpirr_replaying())) return NULL;
    rma_window *w = mpirr_window_find(win);
    return w && w->turned ? w : NULL;
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

/* The program's creation of a window on comm returned rc: if it made one, give it its turn
 * windows (collectively, as the creation was) in its entry of the table. load_store: the
 * program may load and store its memory (MPI_Win_allocate_shared). Returns rc. */
static int window_born(int rc, const MPI_Win *win, MPI_Comm comm, int load_store)
{
    if (rc != MPI_SUCCESS || !(mpirr_recording() || mpirr_replaying())) return rc;
    int n = 0;
    PMPI_Comm_size(comm, &n);
    unsigned char *held = calloc((size_t)n, 1);
    if (!held) mpirr_fatal("out of memory for a window's turns");
    int64_t *epoch_counter, *atomic_counter;
    MPI_Win epochs = turn_window(comm, &epoch_counter);
    MPI_Win atomics = turn_window(comm, &atomic_counter);
    rma_window *w = mpirr_window_add(*win);
    w->held = held;
    w->nranks = n;
    w->load_store = load_store;
    pthread_mutex_init(&w->atomics_mutex, NULL);
    w->epochs = epochs;
    w->atomics = atomics;
    w->epoch_counter = epoch_counter;
    w->atomic_counter = atomic_counter;
    w->turned = 1;
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

int mpirr_MPI_Win_free(MPI_Win *win)
{
    MPIRR_BEGIN(MPI_Win_free);
    MPI_Win program_win = *win;
    int rc = PMPI_Win_free(win);
    if (rc != MPI_SUCCESS) return rc;
    rma_window *w = mpirr_window_remove(program_win);
    if (!w) return rc;
    if (w->turned) {
        PMPI_Win_free(&w->epochs);
        PMPI_Win_free(&w->atomics);
    }
    mpirr_window_release(w);
    return rc;
}

void mpirr_rma_finish(void)
{
    size_t pos = 0;
    rma_window *w;
    while ((w = mpirr_window_next(&pos))) mpirr_window_release(w);
    mpirr_window_registry_free();
}
