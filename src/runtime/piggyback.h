/* piggyback.h: races mode's timestamp headers. Every point-to-point message on a registered
 * communicator is paired with a small header message (vector_clock.h) sent to the same
 * destination with the same tag on the communicator's shadow, which the receiver reads from
 * the data message's matched source and tag once the data receive completed. MPI's
 * non-overtaking rule, holding on both communicators, pairs the k-th header from (source, tag)
 * with the k-th message. docs/piggyback.md measures why this mechanism and not a derived
 * datatype or packing: it never touches the user's buffers, statuses, counts or errors. */
#ifndef MPIRR_PIGGYBACK_H
#define MPIRR_PIGGYBACK_H

#include <mpi.h>

#include "comm_registry.h"
#include "runtime.h"

/* A header being sent alongside one data message. */
typedef struct mpirr_header_send {
    MPI_Request req;
    int active;
    int to_self;        /* never waited for: MPICH completes a send to self only once received */
    void *buf;          /* local, or malloc'ed when the header must outlive the call */
    uint8_t local[256];
} mpirr_header_send;

static inline int mpirr_piggybacking(void) { return mpirr_rt.piggyback && mpirr_rt.active; }

/* Posts the header for a message to dest (a rank of comm) made at event now. Counts the
 * message in every record mode. */
void mpirr_header_post(mpirr_header_send *h, int dest, int tag, MPI_Comm comm, uint64_t now,
                       int blocking);
/* After the data send: a blocking send waits for its header, a nonblocking one leaves it to
 * complete in the background (reclaimed later, all waited for at MPI_Finalize). */
void mpirr_header_done(mpirr_header_send *h, int blocking);

/* A receive on comm completed with status st and return code rc at event now: reads the
 * header of the message it received (if any), merges it and runs the race check. wild_id is
 * the receive's race entry (race_check.h) or -1; it is completed here. */
void mpirr_header_receive(MPI_Comm comm, int rc, const MPI_Status *st, int wild_id, uint64_t now);

/* Matched probes hand the message to MPI_Mrecv/MPI_Imrecv, which do not name the
 * communicator: remembered here from the probe. */
void mpirr_message_probed(MPI_Message msg, MPI_Comm comm);
MPI_Comm mpirr_message_comm(MPI_Message msg); /* forgets it; MPI_COMM_NULL if unknown */

void mpirr_piggyback_init(void);
/* Waits for the headers still in flight and frees everything (before MPI_Finalize). */
void mpirr_piggyback_finish(void);

#endif
