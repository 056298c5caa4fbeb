/* request_table.h: the few requests whose completion carries a nondeterministic outcome:
 * wildcard receives (which message they matched, or whether they were cancelled) and requests
 * passed to MPI_Cancel. Keyed by handle value, which is safe here because these are live
 * receive requests, unique while active - except in the moment after a completion, before its
 * entry is removed, when another thread may get the handle again (mpirr_track_add, _done);
 * send requests, which MPI implementations may share as one pre-completed handle, are never
 * tracked unless cancelled or, in races mode, still incomplete after their call returned
 * (their storage is freed at completion; see docs/runtime.md). Races mode also tracks the
 * requests of MPI_Comm_idup, whose completion registers the new communicator. */
#ifndef MPIRR_REQUEST_TABLE_H
#define MPIRR_REQUEST_TABLE_H

#include <mpi.h>
#include <stdint.h>

#include "comm_registry.h"
#include "message_wire.h"

enum {
    TRACK_WILDCARD = 1,   /* receive posted with MPI_ANY_SOURCE and/or MPI_ANY_TAG */
    TRACK_PERSISTENT = 2, /* from MPI_Recv_init: survives completion until MPI_Request_free */
    TRACK_CANCELLED = 4,  /* MPI_Cancel was called on it */
    TRACK_ACTIVE = 8,     /* persistent: started and not yet completed */
    TRACK_SEND = 16,      /* persistent send (record mode): each start sends a header */
    TRACK_HEADER = 32,    /* races mode: a receive whose message carries a header */
    TRACK_WIRE_SEND = 64, /* races mode: a nonblocking send still using its wire's heap */
    TRACK_COMM_NEW = 128, /* races mode: an MPI_Comm_idup whose communicator gets a shadow */
    TRACK_EXCHANGE = 256, /* the receive half of an MPI_Isendrecv: its send half completes with it */
};

typedef struct tracked_request {
    unsigned flags;
    uint64_t post_event;   /* Irecv event, or the Start/Startall event of a persistent one */
    unsigned post_call;    /* call id of post_event: MPI_Irecv, MPI_Start or MPI_Startall */
    uint32_t post_sub;     /* index within Startall */
    uint64_t cancel_event;
    int replay_cancelled;  /* replay: the recording says this receive was cancelled */
    /* persistent wildcard receives, replay: what MPI_Recv_init was given, to re-create the
     * request with the recorded source at every start */
    void *buf;
    int count, source, tag;
    MPI_Datatype type;     /* a dup owned by the entry when owns_type */
    int owns_type;
    MPI_Comm comm;         /* also: races mode receives and persistent sends */
    int race_id;           /* races mode: the wildcard entry (race_check.h), or -1 */
    mpirr_wire_data wire;  /* races mode: the receive's (or send's) slot and storage */
    /* TRACK_COMM_NEW: the new communicator's handle, as MPI wrote it when the idup returned,
     * and its registry entry, adopted at completion (comm_calls.c) */
    MPI_Comm newcomm;
    mpirr_comm_info *made;
    /* TRACK_EXCHANGE: the send half the program never sees (isendrecv.c), and the storage
     * it uses until it completes (its wire's heap, MPI_Isendrecv_replace's packed copy) */
    MPI_Request exchange_send;
    void *exchange_heap[2];
    /* Replaced in the table while a completion call still held it (its handle was reused):
     * linked in the orphans until that call is done with it (mpirr_track_done). */
    int orphaned;
    struct tracked_request *orphan_prev, *orphan_next;
} tracked_request;

extern unsigned long mpirr_tracked_count;

/* NULL if not tracked. The pointer stays valid until the entry is removed. The caller holds
 * the runtime lock (mpirr_lock), as for every function here: under MPI_THREAD_MULTIPLE other
 * threads add and remove entries, which moves others within the map. */
tracked_request *mpirr_track_find(MPI_Request req);
/* mpirr_track_find taking the runtime lock itself. */
tracked_request *mpirr_track_lookup(MPI_Request req);
/* Adds the entry for req; returns it zeroed (race_id -1). An entry already there is another
 * thread's, between the call that completed its request (freeing the handle, which MPI then
 * gave req) and mpirr_track_done: it is moved out of the table, left to that thread. */
tracked_request *mpirr_track_add(MPI_Request req);
void mpirr_track_remove(MPI_Request req);
/* The request of entry e (found at handle req) completed: e is removed and freed, but no
 * entry that has since taken req in the table. */
void mpirr_track_done(MPI_Request req, tracked_request *e);
/* Moves an entry to a new handle value (replay re-creates persistent requests). */
void mpirr_track_rekey(MPI_Request from, MPI_Request to);
void mpirr_requests_reset(void);

/* isendrecv.c: the receive half of the MPI_Isendrecv tracked by e completed: waits for its
 * send half (its code); or the program freed the request (or the run ends): the send half is
 * freed and completes on its own. The caller holds the runtime lock for the latter only. */
int mpirr_exchange_done(tracked_request *e);
void mpirr_exchange_abandon(tracked_request *e);
/* send_calls.c: a tracked persistent send was started. */
void mpirr_send_started(tracked_request *e);
/* comm_calls.c: the tracked MPI_Comm_idup request found at handle completed with rc (its
 * communicator is registered); or the program frees it, which in races mode waits for it first
 * (MPI_Request_free's return code). */
void mpirr_comm_idup_done(MPI_Request handle, tracked_request *e, int rc);
int mpirr_comm_idup_freed(MPI_Request *request, tracked_request *e);

#endif
