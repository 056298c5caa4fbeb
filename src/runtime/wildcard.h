/* wildcard.h: helpers shared by the receive, probe and persistent-request code. */
#ifndef MPIRR_WILDCARD_H
#define MPIRR_WILDCARD_H

#include "runtime.h"

static inline int mpirr_is_wildcard(int source, int tag)
{
    return (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) &&
           (mpirr_rt.mode == MPIRR_MODE_RECORD || mpirr_rt.mode == MPIRR_MODE_REPLAY) &&
           mpirr_rt.active;
}

/* Replay: replaces *source and *tag by the recorded match of this blocking call (0 if the
 * recorded call failed before matching, arguments then unchanged). */
int mpirr_wildcard_forced(const mpirr_call *c, int *source, int *tag);
/* Before a blocking receive or probe with (source, tag): in replay rewrites a wildcard into the
 * recorded match; in record mode returns the status to read the match from (a local one under
 * MPI_STATUS_IGNORE) and sets *record. Otherwise returns status unchanged. */
MPI_Status *mpirr_wild_prepare(const mpirr_call *c, int *source, int *tag, MPI_Status *status,
                               MPI_Status *local, int *record);
/* Replay: rewrites the arguments of the nonblocking wildcard receive posted at (event, sub).
 * Returns 1 if the recording saw it cancelled, 0 if matched, -1 if it never completed. */
int mpirr_replay_post_args(uint64_t event, uint32_t sub, int *source, int *tag, MPI_Comm *comm);

#endif
