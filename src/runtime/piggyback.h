/* piggyback.h: races mode's timestamp headers. Every point-to-point message on a registered
 * communicator carries its sender's header (vector_clock.h) in a slot before its data
 * (message_wire.h). A header longer than the slot (a large vector delta at scale) goes
 * instead as a message of its own to the same destination with the same tag on the
 * communicator's shadow, and the slot says so: the receiver then reads it from the data
 * message's matched source and tag. MPI's non-overtaking rule, holding on both communicators,
 * pairs the k-th such header from (source, tag) with the k-th message that says it has one.
 * docs/piggyback.md has the measurements behind this choice. */
#ifndef MPIRR_PIGGYBACK_H
#define MPIRR_PIGGYBACK_H

#include <mpi.h>

#include "comm_registry.h"
#include "message_wire.h"
#include "runtime.h"

/* A header too long for its message's slot, sent on the shadow. */
typedef struct mpirr_header_send {
    MPI_Request req;
    int active;
    int to_self;        /* never waited for: MPICH completes a send to self only once received */
    void *buf;          /* local, or malloc'ed when the header must outlive the call */
    uint8_t local[256];
} mpirr_header_send;

static inline int mpirr_piggybacking(void) { return mpirr_rt.piggyback && mpirr_rt.active; }

/* Counts a message to dest in every record mode; 0 when there is none to count
 * (MPI_PROC_NULL, or neither recording nor replaying). */
static inline int mpirr_message_counted(int dest)
{
    if (dest == MPI_PROC_NULL || !mpirr_rt.active) return 0;
    mpirr_rt.counters[MPIRR_CTR_MSGS_SENT]++;
    return 1;
}

/* Whether a message to or from rank on comm has a slot: races mode records and comm carries
 * headers (rank MPI_PROC_NULL: no message). */
int mpirr_wired(int rank, MPI_Comm comm);
/* Lays out, in w, a message of count x type at buf to dest (a rank of comm), its header in
 * the slot, or in the short form when it has nothing to say and the data fits
 * (message_wire.h), or plain when it has no slot. Counts the message in every record mode. blocking: 1 when the call completes the send before returning (w's own
 * storage), MPIRR_POST_COPY when it must also never read buf in place (Sendrecv_replace). */
enum { MPIRR_POST_COPY = 2 };
void mpirr_header_post(mpirr_header_send *h, mpirr_wire *w, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm, int blocking);
/* Writes the header of a message to dest into slot (a persistent send's, at every start: it
 * keeps its slot), or, when it does not fit, posts it on the shadow and says so in the slot. */
void mpirr_header_fill(mpirr_header_send *h, uint8_t *slot, int dest, int tag, MPI_Comm comm,
                       int blocking);
/* mpirr_header_done's two rare cases, out of line: a send's heap storage, a shadow header. */
void mpirr_header_send_storage(void *heap, int rc, const MPI_Request *request);
void mpirr_header_shadow_done(mpirr_header_send *h, int blocking);
/* After the send call laid out by w (NULL: a persistent send's start; error code rc; request:
 * a nonblocking send's, else NULL): a blocking
 * send waits for a shadow header, a nonblocking one leaves it to complete in the background
 * (reclaimed later, all waited for at MPI_Finalize); a nonblocking send's heap storage is
 * freed at its completion (completion.c), or now if MPI is already done with it. */
static inline void mpirr_header_done(mpirr_header_send *h, mpirr_wire *w, int blocking, int rc,
                                     const MPI_Request *request)
{
    if (w) {
        mpirr_wire_posted(w);
        if (w->d.heap) mpirr_header_send_storage(w->d.heap, rc, blocking ? NULL : request);
    }
    if (h->active) mpirr_header_shadow_done(h, blocking);
}

/* Lays out, in w, a receive from source on comm (keep: it completes after the call returns). */
void mpirr_recv_wire(mpirr_wire *w, void *buf, int count, MPI_Datatype type, int source,
                     MPI_Comm comm, int keep);
/* A receive on comm laid out by d (NULL: no slot) completed with status st and return code rc:
 * strips the slot (status count, copy mode's data), reads the header of the message it
 * received, merges it and runs the race check. wild_id is the receive's race entry
 * (race_check.h) or -1; it is completed here. Returns MPI_ERR_TRUNCATE for a short message
 * larger than the receive (MPI saw none: the caller raises it, mpirr_raise), else
 * MPI_SUCCESS. */
int mpirr_header_receive(MPI_Comm comm, int rc, MPI_Status *st, int wild_id, mpirr_wire_data *d);
/* What a call that MPI completed with rc returns: rc, or, when raised is an error MPI did not
 * see, that error, raised as MPI would (comm's error handler is called; the default one
 * aborts). */
int mpirr_raise(MPI_Comm comm, int rc, int raised);

/* MPI_Request_get_status found the receive laid out by d complete, with status st: strips
 * the slot as the completion will (the header is read then). */
void mpirr_header_peek(mpirr_wire_data *d, MPI_Status *st);
/* A probe on comm found a message (status st, may be MPI_STATUS_IGNORE): its count without
 * the slot. */
void mpirr_header_probed(MPI_Comm comm, MPI_Status *st);

/* Matched probes hand the message to MPI_Mrecv/MPI_Imrecv, which do not name the
 * communicator: remembered here from the probe. */
void mpirr_message_probed(MPI_Message msg, MPI_Comm comm);
MPI_Comm mpirr_message_comm(MPI_Message msg); /* forgets it; MPI_COMM_NULL if unknown */

void mpirr_piggyback_init(void);
/* Waits for the headers still in flight and frees everything (before MPI_Finalize). */
void mpirr_piggyback_finish(void);
/* Detaches and frees the MPI_Bsend buffer mpirr attached for the program, if the program left
 * it attached (bsend_room.c; before MPI_Finalize). */
void mpirr_bsend_room_finish(void);

#endif
