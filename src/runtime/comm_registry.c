/* comm_registry.c: the map from user communicators to their shadows (comm_registry.h): the
 * one hash map (u64_map.h) keyed by the handle's bits, with a one-entry cache in front, since a
 * program usually sends many messages in a row on one communicator. */
#include "comm_registry.h"

#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "handle_key.h"
#include "reserve.h"
#include "u64_map.h"

static u64_map table; /* handle bits -> mpirr_comm_info * */
static mpirr_comm_info *last;
static uint32_t next_id = 1;
/* Freed communicators' entries: race entries may still point at them (their peers), so they
 * live until the end of the run. */
static mpirr_comm_info **retired;
static size_t nretired, retired_cap;

static mpirr_comm_info *entry_at(const uint64_t *v) { return v ? (mpirr_comm_info *)(uintptr_t)*v : NULL; }

mpirr_comm_info *mpirr_comm_find(MPI_Comm comm)
{
    if (last && last->comm == comm) return last;
    mpirr_comm_info *e = entry_at(u64_map_find(&table, MPIRR_HANDLE_KEY(comm)));
    if (e) last = e;
    return e;
}

/* Entries whose shadow is an idup of another entry's shadow still in flight: that shadow is
 * not freed before they complete (Open MPI 4.1 crashes progressing an idup whose communicator
 * was freed under it). Lock held to change. */
static mpirr_comm_info **inflight;
static size_t ninflight, inflight_cap;

/* Appends e to one of the lists above (the project's growable array). Lock held. */
static void list_add(mpirr_comm_info ***list, size_t *n, size_t *cap, mpirr_comm_info *e)
{
    if (mpirr_reserve((void **)list, cap, *n + 1, sizeof **list))
        mpirr_fatal("out of memory registering communicators");
    (*list)[(*n)++] = e;
}

/* Keeps a dropped entry until the end of the run (race entries may point at it). Lock held. */
static void retire(mpirr_comm_info *e)
{
    list_add(&retired, &nretired, &retired_cap, e);
}

/* Keeps e->world only if its ranks are not an arithmetic progression (comm_registry.h). */
static void compact(mpirr_comm_info *e)
{
    int n = e->npeers;
    e->first = n > 0 ? e->world[0] : 0;
    e->stride = n > 1 ? e->world[1] - e->world[0] : 1;
    for (int i = 2; i < n; i++)
        if (e->world[i] - e->world[i - 1] != e->stride) return;
    free(e->world);
    e->world = NULL;
}

/* World ranks of the peers of comm. */
static int peers_of(mpirr_comm_info *e)
{
    MPI_Group g, world;
    if ((e->inter ? PMPI_Comm_remote_group(e->comm, &g) : PMPI_Comm_group(e->comm, &g)) != MPI_SUCCESS)
        return -1;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_size(g, &e->npeers);
    int *ranks = malloc((size_t)e->npeers * sizeof *ranks);
    e->world = malloc((size_t)e->npeers * sizeof *e->world);
    if (!ranks || !e->world) mpirr_fatal("out of memory registering communicators");
    for (int i = 0; i < e->npeers; i++) ranks[i] = i;
    PMPI_Group_translate_ranks(g, e->npeers, ranks, world, e->world);
    free(ranks);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    for (int i = 0; i < e->npeers; i++)
        if (e->world[i] == MPI_UNDEFINED) return -1; /* a process outside MPI_COMM_WORLD */
    compact(e);
    return 0;
}

static void discard(mpirr_comm_info *e)
{
    if (!e) return;
    free(e->world);
    free(e);
}

static void no_shadow(void)
{
    mpirr_warn("rank %d: a communicator could not get a shadow; its messages carry no "
               "timestamps (races mode treats them conservatively)", mpirr_rt.rank);
}

/* A new entry for a communicator whose group (and remote group) are those of like, without
 * its shadow yet; NULL if a member is outside MPI_COMM_WORLD, which every member sees alike. */
static mpirr_comm_info *entry_like(MPI_Comm like)
{
    mpirr_comm_info *e = calloc(1, sizeof *e);
    if (!e) mpirr_fatal("out of memory registering communicators");
    e->comm = like;
    e->shadow_pending = MPI_REQUEST_NULL;
    PMPI_Comm_test_inter(like, &e->inter);
    if (!peers_of(e)) return e;
    discard(e);
    return NULL;
}

/* The entry of the communicator a new one duplicates, whose shadow the new one's shadow
 * duplicates in turn: of the same group in the same order, and holding none of the program's
 * attributes, whose copy callbacks a dup of the new communicator (or of the program's parent)
 * would run once more than the program's own MPI_Comm_dup or _idup does. NULL if parent is
 * MPI_COMM_NULL or has no shadow: then the new communicator itself is duplicated. Every member
 * of parent finds the same (it was registered collectively), so all duplicate alike. */
static mpirr_comm_info *dup_source(MPI_Comm parent)
{
    if (parent == MPI_COMM_NULL) return NULL;
    mpirr_lock();
    mpirr_comm_info *p = mpirr_comm_find(parent);
    mpirr_unlock();
    return p;
}

/* A copy of comm (same group, same order; for an inter-communicator the same remote group
 * too) without its attributes: a split with one color, keyed by rank. */
static int split_copy(MPI_Comm comm, MPI_Comm *out)
{
    int rank;
    PMPI_Comm_rank(comm, &rank);
    return PMPI_Comm_split(comm, 0, rank, out);
}

void mpirr_comm_register(MPI_Comm comm, MPI_Comm dup_of)
{
    if (!mpirr_rt.piggyback || comm == MPI_COMM_NULL) return;
    mpirr_comm_info *e = entry_like(comm);
    /* The copy is collective: every member registers, or (on failure) none can use it. */
    mpirr_comm_info *p = dup_source(dup_of);
    if (!e || (dup_of == MPI_COMM_NULL ? split_copy(comm, &e->shadow)
                                       : PMPI_Comm_dup(p ? mpirr_comm_shadow(p) : comm,
                                                       &e->shadow)) != MPI_SUCCESS) {
        discard(e);
        no_shadow();
        return;
    }
    e->shadow_ready = 1;
    mpirr_comm_adopt(e, comm);
}

mpirr_comm_info *mpirr_comm_prepare_idup(MPI_Comm parent)
{
    if (!mpirr_rt.piggyback) return NULL;
    mpirr_comm_info *e = entry_like(parent);
    /* Open MPI 4.1 hangs with two idups of one inter-communicator in flight (natively too):
     * the shadow's would be the second, so idup'ed inter-communicators carry no headers. */
    if (e && e->inter) {
        discard(e);
        return NULL;
    }
    if (!e) {
        no_shadow();
        return NULL;
    }
    mpirr_comm_info *p = dup_source(parent);
    if (PMPI_Comm_idup(p ? mpirr_comm_shadow(p) : parent, &e->shadow, &e->shadow_pending) !=
        MPI_SUCCESS) {
        discard(e);
        no_shadow();
        return NULL;
    }
    if (p) {
        mpirr_lock();
        e->shadow_of = p;
        list_add(&inflight, &ninflight, &inflight_cap, e);
        mpirr_unlock();
    }
    return e;
}

void mpirr_comm_adopt(mpirr_comm_info *e, MPI_Comm comm)
{
    e->comm = comm;
    mpirr_lock();
    e->id = next_id++;
    int added;
    uint64_t *v = u64_map_slot(&table, MPIRR_HANDLE_KEY(comm), 0, &added);
    if (!v) mpirr_fatal("out of memory registering communicators");
    if (!added) retire(entry_at(v)); /* the handle of a communicator freed unseen */
    *v = (uintptr_t)e;
    last = NULL;
    mpirr_unlock();
}

MPI_Comm mpirr_comm_shadow_wait(mpirr_comm_info *e)
{
    static pthread_mutex_t waiting = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&waiting); /* one thread waits for the request, the others for it */
    if (!e->shadow_ready) {
        if (PMPI_Wait(&e->shadow_pending, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            mpirr_fatal("races mode: rank %d could not make the shadow of a communicator made "
                        "by MPI_Comm_idup", mpirr_rt.rank);
        __atomic_store_n(&e->shadow_ready, 1, __ATOMIC_RELEASE);
        if (e->shadow_of) {
            mpirr_lock();
            for (size_t i = 0; i < ninflight; i++)
                if (inflight[i] == e) {
                    inflight[i] = inflight[--ninflight];
                    break;
                }
            e->shadow_of = NULL;
            mpirr_unlock();
        }
    }
    pthread_mutex_unlock(&waiting);
    return e->shadow;
}

/* Waits for the idups in flight that duplicate e's shadow, before it is freed. Every member
 * of e frees it (collectively) and so waits too, which gives those idups their progress. */
static void wait_for_copies_of(const mpirr_comm_info *e)
{
    for (;;) {
        mpirr_comm_info *child = NULL;
        mpirr_lock();
        for (size_t i = 0; i < ninflight && !child; i++)
            if (inflight[i]->shadow_of == e) child = inflight[i];
        mpirr_unlock();
        if (!child) return;
        mpirr_comm_shadow(child);
    }
}

void mpirr_comm_unregister(MPI_Comm comm)
{
    mpirr_lock();
    mpirr_comm_info *e = mpirr_comm_find(comm);
    if (!e) {
        mpirr_unlock();
        return;
    }
    u64_map_del(&table, MPIRR_HANDLE_KEY(comm), NULL);
    last = NULL;
    retire(e);
    mpirr_unlock();
    mpirr_comm_shadow(e);
    wait_for_copies_of(e);
    PMPI_Comm_free(&e->shadow);
}

void mpirr_comms_reset(void)
{
    size_t pos = 0;
    uint64_t k, v;
    while (u64_map_next(&table, &pos, &k, &v)) /* every idup done before any shadow goes */
        mpirr_comm_shadow(entry_at(&v));
    pos = 0;
    while (u64_map_next(&table, &pos, &k, &v)) {
        mpirr_comm_info *e = entry_at(&v);
        PMPI_Comm_free(&e->shadow);
        free(e->world);
        free(e);
    }
    for (size_t i = 0; i < nretired; i++) {
        free(retired[i]->world);
        free(retired[i]);
    }
    free(retired);
    retired = NULL;
    nretired = retired_cap = 0;
    free(inflight);
    inflight = NULL;
    ninflight = inflight_cap = 0;
    u64_map_free(&table);
    last = NULL;
}
