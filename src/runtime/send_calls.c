/* send_calls.c: the point-to-point sends. They are deterministic, so outside races mode they
 * only count messages; in races mode each message gets its timestamp header (piggyback.h),
 * posted before the data so the receiver never waits long for it. Persistent sends post a
 * header at every MPI_Start (persistent.c asks mpirr_send_started). Under MPI_THREAD_MULTIPLE
 * a send keeps its thread's turn until it is posted (threads/sync_order.h): two threads' sends
 * to one destination with one tag are matched in posting order, which must be the recorded
 * one; a blocking send of a tracked thread is posted as its nonblocking form, then waited for
 * (MPI defines them as the same). */
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
    int mpirr_##name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,   \
                     MPI_Comm comm)                                                            \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        int held = mpirr_threaded_post_held();                                                 \
        if (!mpirr_rt.active && !held) return P##name(buf, count, datatype, dest, tag, comm);  \
        mpirr_header_send h;                                                                   \
        mpirr_header_post(&h, dest, tag, comm, call_.event, 1);                                \
        int rc;                                                                                \
        if (held) {                                                                            \
            MPI_Request req;                                                                   \
            rc = P##iname(buf, count, datatype, dest, tag, comm, &req);                        \
            mpirr_threaded_posted();                                                           \
            rc = wait_posted(rc, &req);                                                        \
        } else {                                                                               \
            rc = P##name(buf, count, datatype, dest, tag, comm);                               \
        }                                                                                      \
        mpirr_header_done(&h, 1);                                                              \
        return rc;                                                                             \
    }

#define NONBLOCKING_SEND(name)                                                                 \
    int mpirr_##name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,   \
                     MPI_Comm comm, MPI_Request *request)                                      \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        mpirr_header_send h;                                                                   \
        mpirr_header_post(&h, dest, tag, comm, call_.event, 0); /* nothing when inactive */    \
        int rc = P##name(buf, count, datatype, dest, tag, comm, request);                      \
        mpirr_threaded_posted(); /* the next call may post now */                              \
        mpirr_header_done(&h, 0);                                                              \
        return rc;                                                                             \
    }

/* Persistent sends are remembered (their handles are real objects, never shared) so that
 * every start sends a header. */
#define PERSISTENT_SEND(name)                                                                  \
    int mpirr_##name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,   \
                     MPI_Comm comm, MPI_Request *request)                                      \
    {                                                                                          \
        MPIRR_BEGIN(name);                                                                     \
        int rc = P##name(buf, count, datatype, dest, tag, comm, request);                      \
        if (rc == MPI_SUCCESS && mpirr_recording()) persistent_send_created(*request, dest, tag, comm); \
        return rc;                                                                             \
    }

static void persistent_send_created(MPI_Request req, int dest, int tag, MPI_Comm comm)
{
    mpirr_lock();
    tracked_request *e = mpirr_track_add(req);
    e->flags = TRACK_PERSISTENT | TRACK_SEND;
    e->replay_cancelled = -1;
    e->source = dest; /* for a send: the destination */
    e->tag = tag;
    e->comm = comm;
    mpirr_unlock();
}

void mpirr_send_started(const mpirr_call *c, tracked_request *e)
{
    mpirr_header_send h;
    mpirr_header_post(&h, e->source, e->tag, e->comm, c->event, 0);
    mpirr_header_done(&h, 0);
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
