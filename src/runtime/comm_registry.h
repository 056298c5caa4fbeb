/* comm_registry.h: what races mode knows about each user communicator: its shadow (a dup
 * that carries the timestamp headers, so they never match a user receive), and the world rank
 * of every rank a message on it can come from or go to (the remote group of an
 * inter-communicator). A communicator is registered by the call that creates it
 * (comm_calls.c), which is collective, so every member agrees on which communicators carry
 * headers; one made by MPI_Comm_idup is registered when its request completes, and its shadow,
 * an idup of the parent started right after the user's, is waited for only when first used
 * (docs/races.md). Unregistered communicators (made by calls mpirr does not intercept) carry
 * none on any side. */
#ifndef MPIRR_COMM_REGISTRY_H
#define MPIRR_COMM_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

typedef struct mpirr_comm_info {
    MPI_Comm comm, shadow; /* read shadow through mpirr_comm_shadow */
    MPI_Request shadow_pending; /* the idup making shadow, until shadow_ready */
    int shadow_ready;
    struct mpirr_comm_info *shadow_of; /* whose shadow that idup duplicates, until ready */
    int inter;       /* inter-communicator: peers are the remote group */
    int npeers;
    /* The world rank of peer i (rank i of the (remote) group), through mpirr_comm_world_rank:
     * first + i * stride when the group is an arithmetic progression of world ranks
     * (MPI_COMM_WORLD, its dups, a split into blocks or by rank modulo: most communicators), so
     * those keep no table, which would cost 4 bytes per rank per communicator; else world[i]. */
    int first, stride;
    int *world;      /* NULL for an arithmetic progression */
    uint32_t id;     /* never reused within a run: names the communicator in race entries */
} mpirr_comm_info;

/* The world rank of peer i, 0 <= i < ci->npeers. */
static inline int mpirr_comm_world_rank(const mpirr_comm_info *ci, int i)
{
    return ci->world ? ci->world[i] : ci->first + i * ci->stride;
}

/* NULL if comm carries no headers. Callers hold the runtime lock. */
mpirr_comm_info *mpirr_comm_find(MPI_Comm comm);
/* Collective over comm: creates its shadow, which must hold none of the program's attributes
 * (their copy callbacks would run once more than in the program). dup_of: for a duplicate, the
 * communicator it duplicates (the shadow duplicates dup_of's shadow, or comm itself when
 * dup_of has none: MPI_COMM_WORLD at MPI_Init); MPI_COMM_NULL for any other constructor, whose
 * communicator may hold copies of the program's attributes too (Open MPI 4.1 copies them into
 * MPI_Comm_create_group's and the topologies'): the shadow is then a split of comm, which
 * copies none. No-op unless races mode is recording. */
void mpirr_comm_register(MPI_Comm comm, MPI_Comm dup_of);
/* MPI_Comm_idup of parent, just started: the entry of the communicator it will make, whose
 * shadow is a nonblocking idup of parent started now, so every member starts the two idups
 * in the same order and nothing blocks. NULL if that communicator gets no shadow (an
 * inter-communicator, or a failure). Not findable until mpirr_comm_adopt. */
mpirr_comm_info *mpirr_comm_prepare_idup(MPI_Comm parent);
/* The idup's request completed: e (from mpirr_comm_prepare_idup) now describes comm. */
void mpirr_comm_adopt(mpirr_comm_info *e, MPI_Comm comm);
/* The wait of mpirr_comm_shadow: the idup making e's shadow still in flight. */
MPI_Comm mpirr_comm_shadow_wait(mpirr_comm_info *e);
/* ci's shadow, first waiting for the idup making it if it is still in flight. Every member
 * started that idup when it started the user's, which has completed here, so the wait needs
 * only MPI's progress on the others. Called without the runtime lock. Inline: every message
 * of races mode reads a shadow, almost always one that is ready. */
static inline MPI_Comm mpirr_comm_shadow(const mpirr_comm_info *ci)
{
    if (__atomic_load_n(&ci->shadow_ready, __ATOMIC_ACQUIRE)) return ci->shadow;
    return mpirr_comm_shadow_wait((mpirr_comm_info *)ci);
}
void mpirr_comm_unregister(MPI_Comm comm);
/* Frees every shadow (before MPI_Finalize). */
void mpirr_comms_reset(void);

#endif
