/* message_wire.h: how a point-to-point message travels in races mode. On a communicator that
 * carries timestamp headers (comm_registry.h), every message is one MPI message of
 * MPIRR_WIRE_SLOT bytes of header slot followed by the user's data, so the header costs no
 * second message (docs/piggyback.md measures why: a second message was 1.5-2x a small
 * message's time). Every message on such a communicator has the slot, so a receive never needs
 * to guess: it posts room for the slot plus its own capacity.
 *
 * The two sides choose their layout independently (the bytes on the wire are the same):
 *  - copy: contiguous data up to a limit goes through a buffer holding the slot and a copy of
 *    the data (a memcpy costs less than anything MPI does per small message). The limit is
 *    4 KiB (Open MPI's eager limit) when every rank of the node has a core, since larger
 *    messages in place beat native (0.6-0.95x, docs/piggyback.md); it is 1 MiB when ranks
 *    share cores, where a struct type's rendezvous round trips each wait for a time slice
 *    (1.5-1.8x on Table 1's mesh and mult, copies 0.98-1.10x);
 *  - struct: anything else is sent or received in place with a struct datatype
 *    {slot bytes, count x the user's type} at absolute addresses.
 * A completed receive is stripped (mpirr_wire_received): its data copied out in copy mode and
 * its status count set to the user's part (in place where the status layout is known,
 * status_fields.h), so MPI_Get_count and MPI_Get_elements see what they would natively.
 * Probes see the slot too and are repaired the same way.
 *
 * The short form: a message of at most MPIRR_WIRE_SHORT_MAX bytes of data whose header would
 * say nothing (its sender's clock is all zero: vector_clock.h) travels as the one byte
 * MPIRR_WIRE_SHORT and its data, so an 8-byte message takes 9 bytes, under the 11 at which
 * Open MPI's shared-memory path gets slower (docs/piggyback.md). Every other message has the
 * whole slot, so a message of fewer than MPIRR_WIRE_SLOT bytes is short and any other is not:
 * a probe tells them apart by the count alone. A receive still posts room for the slot, and
 * a short message fits in it whatever the layout; a short message larger than the receive's
 * capacity, which MPI then no longer sees as truncated, is reported by mpirr (*truncated).
 *
 * Storage: a blocking call with at most MPIRR_WIRE_LOCAL bytes of data uses the bytes inside
 * its mpirr_wire (on its stack, kept small: a page of stack per call measured slower); others
 * a malloc'ed block, which a nonblocking or persistent call keeps until its request completes
 * or is freed. */
#ifndef MPIRR_MESSAGE_WIRE_H
#define MPIRR_MESSAGE_WIRE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

enum { MPIRR_WIRE_SLOT = 32, MPIRR_WIRE_LOCAL = 256 };
enum { MPIRR_WIRE_SHORT = 0x40, MPIRR_WIRE_SHORT_MAX = MPIRR_WIRE_SLOT - 2 };

/* What a completion needs of a receive's layout (kept in its tracked request). */
typedef struct mpirr_wire_data {
    uint8_t *slot; /* the header slot; in copy mode the data follows it; NULL: no slot */
    void *user;    /* copy mode, or in place with a C type: the user's buffer */
    size_t bytes;  /* then: the user's capacity (receive) or data size (send) */
    int copy;      /* copy mode */
    int copied;    /* receive: data already copied out (MPI_Request_get_status) */
    void *heap;    /* the malloc'ed block, or NULL */
    /* a receive in place with a derived type: its struct type, kept to unpack a short
     * message into the user's buffer (mpirr_wire_release frees it) */
    int keeps_type;
    MPI_Datatype made;
    /* a blocking receive's communicator entry, found once for its layout and its header (a
     * nonblocking one's communicator may be freed before it completes: NULL, found again) */
    const struct mpirr_comm_info *ci;
} mpirr_wire_data;

/* One message's layout: what to pass to MPI in place of the user's buffer, count and type. */
typedef struct mpirr_wire {
    mpirr_wire_data d;
    const void *buf;
    int count;
    MPI_Datatype type;
    MPI_Datatype made; /* struct mode: the type to free after posting */
    uint8_t local[MPIRR_WIRE_SLOT + MPIRR_WIRE_LOCAL]; /* a small blocking message's */
} mpirr_wire;

/* Collective over MPI_COMM_WORLD (at MPI_Init): sets the copy limit from whether the ranks of
 * this node outnumber its cores. */
void mpirr_wire_init(void);
/* The user's arguments as they are (no slot: an unregistered communicator, MPI_PROC_NULL). */
void mpirr_wire_plain(mpirr_wire *w, const void *buf, int count, MPI_Datatype type);
/* Lays out a send of count x type at buf (the data is copied now in copy mode), or a receive
 * into it. keep: the layout must outlive the call (heap storage, owned by the caller through
 * w->d.heap). Arguments MPI would reject are left plain, for MPI to report its own error. */
void mpirr_wire_send(mpirr_wire *w, const void *buf, int count, MPI_Datatype type, int keep);
void mpirr_wire_recv(mpirr_wire *w, void *buf, int count, MPI_Datatype type, int keep);
/* Sendrecv_replace: the send half must not read the buffer the receive half writes, so it is
 * always a copy (packed with MPI_Pack when not contiguous). */
void mpirr_wire_send_copy(mpirr_wire *w, const void *buf, int count, MPI_Datatype type);
/* After the call that posted it: frees the struct type (MPI keeps what it needs). */
static inline void mpirr_wire_posted(mpirr_wire *w)
{
    if (w->made != MPI_DATATYPE_NULL) PMPI_Type_free(&w->made);
}
/* A persistent send starts again: copies the user's data into its copy-mode buffer. */
void mpirr_wire_refill(const mpirr_wire_data *d);
/* A receive laid out by d waits for a new message (at its layout, and at each start of a
 * persistent one): nothing copied out yet, and a first slot byte that cannot read as
 * MPIRR_WIRE_SHORT if MPI writes nothing (a truncation). */
void mpirr_wire_recv_ready(mpirr_wire_data *d);
/* A send laid out by w goes in the short form if its data fits: 1 if it does (w now sends it
 * so), 0 if it keeps the slot. */
int mpirr_wire_shorten(mpirr_wire *w);
/* What a receive laid out by d owns: its heap block, and its kept type. */
void mpirr_wire_release(mpirr_wire_data *d);

/* A receive laid out by d consumed a message with status st: copies the data out (copy mode,
 * once, and a short message), and sets st's count to the user's part. Returns the slot (a
 * short message's: its first byte is MPIRR_WIRE_SHORT), or NULL when the status counts fewer
 * bytes than a slot and the message is not short (a truncated receive whose count MPI left
 * undefined). *truncated: a short message larger than the receive (its count is the
 * message's, as Open MPI reports a truncated one's). */
const uint8_t *mpirr_wire_received(mpirr_wire_data *d, MPI_Status *st, int *truncated);
/* A probe on a communicator with slots found a message: the same count repair. */
void mpirr_wire_probed(MPI_Status *st);

/* The request using heap was freed while active: MPI may still use it, so it is kept until
 * mpirr_wire_finish (MPI_Finalize). The caller holds the runtime lock. */
void mpirr_wire_abandon(void *heap);
void mpirr_wire_finish(void);

#endif
