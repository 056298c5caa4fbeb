/* isendrecv.c: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4) through mpirr's message layer.
 * While recording or replaying, an exchange is posted as its two halves: the receive half is
 * an MPI_Irecv of the call (recv_match.c: races mode's slot and race entry, a wildcard's
 * logged or forced source) and its request is the one the program gets; the send half is an
 * MPI_Isend laid out as every send (races mode: the header slot), whose request the program
 * never sees and which is kept in the receive's tracked entry (TRACK_EXCHANGE). Completing the
 * program's request (any Wait/Test call, completion.c) reads the receive's header, logs or
 * checks its match, then waits for the send half: the exchange is complete only once both
 * are. So the status is the receive's (MPI_SOURCE, MPI_TAG, count as MPI_Get_count sees it).
 * MPI_Isendrecv_replace sends a packed copy of the buffer, since its receive half writes into
 * it. Outside a recording or replay the calls go to MPI unchanged. docs/runtime.md says what
 * differs from MPICH 4.0's own Isendrecv (its statuses are not filled in, MPI_Cancel of its
 * request is an internal error). */
#include <stdlib.h>

#include "piggyback.h"
#include "race_check.h"
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"
#include "threads/sync_order.h"
#include "wildcard.h"

#if MPI_VERSION >= 4

/* The send half of an exchange, posted: its request and the storage it uses until done. */
struct send_half {
    MPI_Request req;
    void *heap[2];
};

/* Posts the send half (races mode: laid out with its header); its code. */
static int post_send(struct send_half *s, const void *buf, int count, MPI_Datatype type,
                     int dest, int tag, MPI_Comm comm)
{
    mpirr_header_send h;
    mpirr_wire w;
    mpirr_header_post(&h, &w, buf, count, type, dest, tag, comm, 0);
    int rc = PMPI_Isend(w.buf, w.count, w.type, dest, tag, comm, &s->req);
    s->heap[1] = w.d.heap; /* kept with the exchange's entry, freed when the send completes */
    mpirr_header_done(&h, NULL, 0, rc, NULL);
    mpirr_wire_posted(&w);
    if (rc != MPI_SUCCESS) {
        free(w.d.heap);
        s->heap[1] = NULL;
    }
    return rc;
}

/* The receive half was posted as *request: its entry takes the send half. A send half that
 * could not be posted withdraws the receive (no message will answer it): the code returned
 * is the send's, and the program gets no request. */
static int pair(MPI_Request *request, MPI_Comm comm, struct send_half *s, int src)
{
    if (src != MPI_SUCCESS) {
        MPI_Request recv = *request;
        PMPI_Cancel(request);
        PMPI_Wait(request, MPI_STATUS_IGNORE);
        mpirr_lock();
        tracked_request *e = mpirr_track_find(recv);
        int race_id = e ? e->race_id : -1;
        if (e) mpirr_track_remove(recv);
        mpirr_unlock();
        mpirr_race_dropped(race_id);
        free(s->heap[0]);
        return src;
    }
    mpirr_lock();
    tracked_request *e = mpirr_track_find(*request);
    if (!e) {
        e = mpirr_track_add(*request); /* race_id -1 */
        e->replay_cancelled = -1;
    }
    e->flags |= TRACK_EXCHANGE;
    e->comm = comm; /* where an error of the send half is raised */
    e->exchange_send = s->req;
    e->exchange_heap[0] = s->heap[0];
    e->exchange_heap[1] = s->heap[1];
    mpirr_unlock();
    return MPI_SUCCESS;
}

static int exchange(const mpirr_call *c, const void *sendbuf, int sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Request *request, void *packed)
{
    struct send_half s = {.req = MPI_REQUEST_NULL, .heap = {packed, NULL}};
    /* the receive first, as MPI_Sendrecv's halves: a message from this rank to itself finds it */
    int rc = mpirr_irecv_post(c, recvbuf, recvcount, recvtype, source, recvtag, comm, request);
    if (rc != MPI_SUCCESS) {
        free(packed);
        mpirr_threaded_posted();
        return rc;
    }
    int src = post_send(&s, sendbuf, sendcount, sendtype, dest, sendtag, comm);
    mpirr_threaded_posted(); /* MPI_THREAD_MULTIPLE: both halves posted in the thread's turn */
    return pair(request, comm, &s, src);
}

int mpirr_MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Isendrecv);
    if (!mpirr_rt.active)
        return PMPI_Isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                              recvtype, source, recvtag, comm, request);
    return exchange(&call_, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                    recvtype, source, recvtag, comm, request, NULL);
}

int mpirr_MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                                int sendtag, int source, int recvtag, MPI_Comm comm,
                                MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Isendrecv_replace);
    int room = 0, pos = 0;
    void *packed = NULL;
    /* arguments MPI_Pack rejects go to MPI unchanged, for MPI to report its own error */
    if (mpirr_rt.active && dest != MPI_PROC_NULL &&
        PMPI_Pack_size(count, datatype, comm, &room) == MPI_SUCCESS) {
        packed = malloc(room ? (size_t)room : 1);
        if (!packed) mpirr_fatal("out of memory for MPI_Isendrecv_replace");
        if (PMPI_Pack(buf, count, datatype, packed, room, &pos, comm) != MPI_SUCCESS) {
            free(packed);
            packed = NULL;
        }
    }
    if (!mpirr_rt.active || (dest != MPI_PROC_NULL && !packed))
        return PMPI_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                      request);
    /* MPI_PACKED matches any receive type (MPI's type matching rules for packed data) */
    return exchange(&call_, packed, pos, MPI_PACKED, dest, sendtag, buf, count, datatype,
                    source, recvtag, comm, request, packed);
}

#endif

/* Built against every library: the request table frees entries (TRACK_EXCHANGE is set only
 * with an MPI-4 one). */
int mpirr_exchange_done(tracked_request *e)
{
    int src = mpirr_replaying() ? mpirr_replay_wait(&e->exchange_send, MPI_STATUS_IGNORE)
                                : PMPI_Wait(&e->exchange_send, MPI_STATUS_IGNORE);
    free(e->exchange_heap[0]);
    free(e->exchange_heap[1]);
    e->exchange_heap[0] = e->exchange_heap[1] = NULL;
    e->flags &= ~(unsigned)TRACK_EXCHANGE;
    return src;
}

void mpirr_exchange_abandon(tracked_request *e)
{
    int finalized = 1;
    PMPI_Finalized(&finalized);
    if (!finalized) PMPI_Request_free(&e->exchange_send); /* it completes on its own */
    for (int i = 0; i < 2; i++) {
        if (finalized) free(e->exchange_heap[i]);
        else mpirr_wire_abandon(e->exchange_heap[i]); /* MPI may still read it */
        e->exchange_heap[i] = NULL;
    }
    e->flags &= ~(unsigned)TRACK_EXCHANGE;
}

