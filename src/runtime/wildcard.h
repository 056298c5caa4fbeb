/* wildcard.h: helpers shared by the receive, probe and persistent-request code. */
#ifndef MPIRR_WILDCARD_H
#define MPIRR_WILDCARD_H

#include "runtime.h"

/* Whether a receive or probe with these arguments has its match logged (sources mode, and
 * probes in races mode), or any receive at all (all mode). */
static inline int mpirr_is_wildcard(int source, int tag)
{
    return (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG ||
            (mpirr_rt.rec_mode == MPIRR_REC_ALL && source != MPI_PROC_NULL)) &&
           (mpirr_rt.mode == MPIRR_MODE_RECORD || mpirr_rt.mode == MPIRR_MODE_REPLAY) &&
           mpirr_rt.active;
}

/* Receives (not probes) in races mode, recording or replaying. */
static inline int mpirr_races_mode(void)
{
    return mpirr_rt.active && mpirr_rt.rec_mode == MPIRR_REC_RACES;
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

/* Races mode, record: the race entry of a receive with these arguments posted at (c, sub):
 * -1 unless the source is MPI_ANY_SOURCE. *log_now is set when the communicator carries no
 * headers, so races cannot be seen and the outcome must be logged like sources mode does. */
int mpirr_race_entry_for(const mpirr_call *c, uint32_t sub, int source, int tag, MPI_Comm comm,
                         int *log_now);

/* Posts a nonblocking receive as MPI_Irecv does, for the call c (its records carry c's id):
 * races mode's slot and race entry, sources mode's forced or logged wildcard (recv_match.c;
 * MPI_Isendrecv's receive half too). */
int mpirr_irecv_post(const mpirr_call *c, void *buf, int count, MPI_Datatype datatype,
                     int source, int tag, MPI_Comm comm, MPI_Request *request);

#endif
