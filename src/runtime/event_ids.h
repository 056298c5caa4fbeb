/* event_ids.h: the small stable numbers the event history writes instead of MPI handles and
 * constants (event_ids.c): communicator ids, request slots, and the encodings of wildcard and
 * special peers and tags. */
#ifndef MPIRR_EVENT_IDS_H
#define MPIRR_EVENT_IDS_H

#include <mpi.h>
#include <stdint.h>

#include "event_stream.h"

/* Peers and tags as the format stores them: MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT and
 * MPI_ANY_TAG become the format's values, whatever the MPI library's are. */
static inline int32_t mpirr_ev_peer(int peer)
{
    if (peer == MPI_ANY_SOURCE) return MPIRR_EV_ANY;
    if (peer == MPI_PROC_NULL) return MPIRR_EV_PROC_NULL;
    if (peer == MPI_ROOT) return MPIRR_EV_ROOT;
    return peer;
}
static inline int32_t mpirr_ev_tag(int tag) { return tag == MPI_ANY_TAG ? MPIRR_EV_ANY : tag; }

/* World ranks of group g's members (-1: not in world), appended at out[*n...] (realloc'd). */
int32_t *mpirr_ev_world_ranks(MPI_Group g, int32_t *out, uint32_t *n);
/* The id of comm, defining it (its members' world ranks) the first time it is seen. */
uint32_t mpirr_ev_comm_id(MPI_Comm comm);
/* A communicator made by call from parent: defined now, with its parentage. */
void mpirr_ev_comm_created(mpirr_ev_call *c, MPI_Comm parent, MPI_Comm made);
void mpirr_ev_comm_freed(MPI_Comm comm);
/* A request created by this call: its slot goes in the record. flags: MPIRR_EVI_RECV, and
 * persistent (kept through completions until MPI_Request_free). */
#define MPIRR_EV_PERSISTENT 0x100u
void mpirr_ev_req_created(mpirr_ev_call *c, MPI_Request req, unsigned flags);
/* Completion calls: remember the handles, substitute statuses the caller ignores. */
void mpirr_ev_snapshot(mpirr_ev_call *c, int n, const MPI_Request *reqs);
MPI_Status *mpirr_ev_statuses(mpirr_ev_call *c, int n, MPI_Status *user);
/* Request i of the snapshot completed with status st (NULL: no status). keep: the request
 * stays allocated (persistent, or MPI_Request_get_status). */
void mpirr_ev_completed(mpirr_ev_call *c, int i, const MPI_Status *st, int keep);
/* Waitall/Testall (every request of the snapshot) and Waitsome/Testsome (those at indices). */
void mpirr_ev_completed_all(mpirr_ev_call *c, int rc, const MPI_Status *sts);
void mpirr_ev_completed_some(mpirr_ev_call *c, int rc, int outcount, const int *indices,
                             const MPI_Status *sts);
/* Start/Startall: request i of the snapshot was started. */
void mpirr_ev_started(mpirr_ev_call *c, int i);
/* MPI_Request_free / MPI_Cancel: the slot the request has. */
void mpirr_ev_req_named(mpirr_ev_call *c, MPI_Request req);
/* The index among reqs of the live request created at this rank's event, -1 if none (replay
 * --flip R:E=req:P: the request a Waitany is made to return). */
int mpirr_ev_req_made_at(int n, const MPI_Request reqs[], uint64_t event);
void mpirr_ev_req_freed(MPI_Request req);
/* Forgets every id (the history closed). */
void mpirr_ev_ids_reset(void);

#endif
