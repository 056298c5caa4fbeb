/* comm_registry.h: what races mode knows about each user communicator: its shadow (a dup
 * that carries the timestamp headers, so they never match a user receive), and the world rank
 * of every rank a message on it can come from or go to (the remote group of an
 * inter-communicator). A communicator is registered by the call that creates it
 * (comm_calls.c), which is collective, so every member agrees on which communicators carry
 * headers. Unregistered communicators (made by calls mpirr does not intercept) carry none on
 * any side. */
#ifndef MPIRR_COMM_REGISTRY_H
#define MPIRR_COMM_REGISTRY_H

#include <mpi.h>
#include <stdint.h>

typedef struct mpirr_comm_info {
    MPI_Comm comm, shadow;
    int inter;       /* inter-communicator: peers are the remote group */
    int npeers;
    int *world;      /* world rank of peer i (rank i of the (remote) group) */
    uint32_t id;     /* never reused within a run: names the communicator in race entries */
} mpirr_comm_info;

/* NULL if comm carries no headers. Callers hold the runtime lock. */
mpirr_comm_info *mpirr_comm_find(MPI_Comm comm);
/* Collective over comm: creates its shadow. No-op unless races mode is recording. */
void mpirr_comm_register(MPI_Comm comm);
/* The same for a communicator not usable yet (MPI_Comm_idup): the shadow is a dup of like,
 * which has the same group. */
void mpirr_comm_register_as(MPI_Comm comm, MPI_Comm like);
void mpirr_comm_unregister(MPI_Comm comm);
/* Frees every shadow (before MPI_Finalize). */
void mpirr_comms_reset(void);

#endif
