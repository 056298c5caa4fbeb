/* comm_ids.h: run-wide communicator ids. Each rank's history numbers its communicators in its
 * own creation order; a communicator is the same across ranks when it has the same parent,
 * was made by the same call at the same point of the parent's collective sequence, and has
 * the same members. */
#ifndef MPIRR_COMM_IDS_H
#define MPIRR_COMM_IDS_H

#include "analysis.h"
#include "event_trace.h"
#include "u64_map.h"

typedef struct comm_ids {
    u64_map by_key;   /* identity key -> run-wide id */
    u64_map children; /* (rank, local parent id) or (rank, members key) -> children so far */
} comm_ids;

/* Defines rank's local communicator e->comm (an MPIRR_EVK_COMM record). -1: out of memory. */
int comm_ids_define(comm_ids *ids, an_run *run, int rank, const mpirr_event *e);
/* A new run-wide communicator with the members of communicator of (a window's, rma_load.c: the
 * ord-th window made on it): its id in *gid. -1: out of memory. */
int comm_ids_copy(an_run *run, uint32_t of, uint64_t ord, uint32_t *gid);
void comm_ids_free(comm_ids *ids);

#endif
