/* send_calls.c: the point-to-point sends. They are deterministic, so outside races mode they
 * only count messages; in races mode each message carries its timestamp header in a slot
 * before its data (piggyback.h, message_wire.h). A persistent send is laid out once, when it
 * is created, and gets a new header at every MPI_Start (persistent.c asks
 * mpirr_send_started). Under MPI_THREAD_MULTIPLE
 * a send keeps its thread's turn until it is posted (threads/sync_order.h): two threads' sends
 * to one destination with one tag are matched in posting order, which must be the recorded
 * one; a blocking send of a tracked thread is posted as its nonblocking form, then waited for
 * (MPI defines them as the same). */
#include <stdlib.h>

#include "piggyback.h"
#include "request_table.h"
#include "special_calls.h"
#include "threads/sync_order.h"

/* A send posted in its turn, then waited for (the replay's polite wait with MPICH). */
static int wait_posted(int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS) return rc;
    return mpirr_replaying() ? mpirr_replay_wait(req, MPI_STATUS_IGNORE)
                             : PMPI_Wait(req, MPI_STATUS_IGNORE);
}

#define BLOCKING_SEND(name, iname)                                                             \
    MPIRR_ALSO_FORWARDED int mpirr_##name(const void *buf, int count, MPI_Datatype datatype,  \
                                          int dest, int tag, MPI_Comm comm)                  \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        int held = mpirr_threaded_post_held();                                                 \
        if (!mpirr_rt.active && !held) return P##name(buf, count, datatype, dest, tag, comm);  \
        mpirr_header_send h;                                                                   \
        mpirr_wire w;                                                                          \
        mpirr_header_post(&h, &w, buf, count, datatype, dest, tag, comm, 1);                   \
        int rc;                                                                                \
        if (held) {                                                                            \
            MPI_Request req;                                                                   \
            rc = P##iname(w.buf, w.count, w.type, dest, tag, comm, &req);                      \
            mpirr_threaded_posted();                                                           \
            rc = wait_posted(rc, &req);                                                        \
        } else {                                                                               \
            rc = P##name(w.buf, w.count, w.type, dest, tag, comm);                             \
        }                                                                                      \
        mpirr_header_done(&h, &w, 1, rc, NULL);                                                \
        return rc;                                                                             \
    }

#define NONBLOCKING_SEND(name)                                                                 \
    MPIRR_ALSO_FORWARDED int mpirr_##name(const void *buf, int count, MPI_Datatype datatype,  \
                                          int dest, int tag, MPI_Comm comm,                  \
                                          MPI_Request *request)                              \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        mpirr_header_send h;                                                                   \
        mpirr_wire w; /* plain when inactive */                                                \
        mpirr_header_post(&h, &w, buf, count, datatype, dest, tag, comm, 0);                   \
        int rc = P##name(w.buf, w.count, w.type, dest, tag, comm, request);                    \
        mpirr_threaded_posted(); /* the next call may post now */                              \
        mpirr_header_done(&h, &w, 0, rc, request);                                             \
        return rc;                                                                             \
    }

/* Persistent sends are remembered (their handles are real objects, never shared) so that
 * every start counts the message and, in races mode, writes a header into its slot. */
#define PERSISTENT_SEND(name)                                                                  \
    MPIRR_ALSO_FORWARDED int mpirr_##name(const void *buf, int count, MPI_Datatype datatype,  \
                                          int dest, int tag, MPI_Comm comm,                  \
                                          MPI_Request *request)                              \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        mpirr_wire w;                                                                          \
        if (mpirr_recording() && mpirr_wired(dest, comm))                                      \
            mpirr_wire_send(&w, buf, count, datatype, 1);                                      \
        else                                                                                   \
            mpirr_wire_plain(&w, buf, count, datatype);                                        \
        int rc = P##name(w.buf, w.count, w.type, dest, tag, comm, request);                    \
        mpirr_wire_posted(&w);                                                                 \
        if (rc == MPI_SUCCESS && mpirr_recording())                                            \
            persistent_send_created(*request, dest, tag, comm, &w.d);                          \
        else                                                                                   \
            free(w.d.heap);                                                                    \
        return rc;                                                                             \
    }

static void persistent_send_created(MPI_Request req, int dest, int tag, MPI_Comm comm,
                                    const mpirr_wire_data *wire)
{
    mpirr_lock();
    tracked_request *e = mpirr_track_add(req);
    e->flags = TRACK_PERSISTENT | TRACK_SEND;
    e->replay_cancelled = -1;
    e->source = dest; /* for a send: the destination */
    e->tag = tag;
    e->comm = comm;
    e->wire = *wire;
    mpirr_unlock();
}

void mpirr_send_started(tracked_request *e)
{
    e->flags |= TRACK_ACTIVE; /* its storage is in use until it completes */
    if (!mpirr_message_counted(e->source) || !e->wire.slot) return;
    mpirr_header_send h;
    mpirr_wire_refill(&e->wire);
    mpirr_header_fill(&h, e->wire.slot, e->source, e->tag, e->comm, 0);
    mpirr_header_done(&h, NULL, 0, MPI_SUCCESS, NULL);
}

BLOCKING_SEND(MPI_Send, MPI_Isend)
BLOCKING_SEND(MPI_Bsend, MPI_Ibsend)
BLOCKING_SEND(MPI_Ssend, MPI_Issend)
BLOCKING_SEND(MPI_Rsend, MPI_Irsend)
NONBLOCKING_SEND(MPI_Isend)
NONBLOCKING_SEND(MPI_Ibsend)
NONBLOCKING_SEND(MPI_Issend)
NONBLOCKING_SEND(MPI_Irsend)
PERSISTENT_SEND(MPI_Send_init)
PERSISTENT_SEND(MPI_Bsend_init)
PERSISTENT_SEND(MPI_Ssend_init)
PERSISTENT_SEND(MPI_Rsend_init)
