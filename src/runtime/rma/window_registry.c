/* window_registry.c: the runtime's one table of the program's windows (rma.h), from the window
 * handle to its entry: the turn windows and epoch state of the one-sided calls (turn_windows.c
 * makes and frees them) and the event history's id and group of each window (event_windows.c).
 * Under the runtime lock; entries are allocated one by one, so a pointer stays valid while its
 * window lives. */
#include <stdlib.h>

#include "handle_key.h"
#include "rma.h"
#include "u64_map.h"

static u64_map windows; /* window handle -> rma_window * */

/* The entry of win, taken out of the table if take; NULL if none. */
static rma_window *lookup(MPI_Win win, int take)
{
    uint64_t v = 0;
    mpirr_lock();
    int found = take ? u64_map_del(&windows, MPIRR_HANDLE_KEY(win), &v)
                     : u64_map_get(&windows, MPIRR_HANDLE_KEY(win), &v);
    mpirr_unlock();
    return found ? (rma_window *)(uintptr_t)v : NULL;
}

rma_window *mpirr_window_find(MPI_Win win) { return lookup(win, 0); }

rma_window *mpirr_window_add(MPI_Win win)
{
    rma_window *fresh = calloc(1, sizeof *fresh);
    if (!fresh) mpirr_fatal("out of memory for the table of windows");
    int added = 0;
    mpirr_lock();
    uint64_t *v = u64_map_slot(&windows, MPIRR_HANDLE_KEY(win), (uint64_t)(uintptr_t)fresh, &added);
    rma_window *w = v ? (rma_window *)(uintptr_t)*v : NULL;
    mpirr_unlock();
    if (!w) mpirr_fatal("out of memory for the table of windows");
    if (!added) free(fresh);
    return w;
}

rma_window *mpirr_window_remove(MPI_Win win) { return lookup(win, 1); }

void mpirr_window_release(rma_window *w)
{
    if (w->turned) pthread_mutex_destroy(&w->atomics_mutex);
    free(w->epoch_counter);
    free(w->atomic_counter);
    free(w->held);
    free(w->ev_world);
    free(w);
}

rma_window *mpirr_window_next(size_t *pos)
{
    uint64_t key, v;
    return u64_map_next(&windows, pos, &key, &v) ? (rma_window *)(uintptr_t)v : NULL;
}

void mpirr_window_registry_free(void)
{
    u64_map_free(&windows);
}
