/* persistent.c: persistent requests. A persistent wildcard receive (MPI_Recv_init with
 * MPI_ANY_SOURCE/ANY_TAG) can match a different source at every start, but its source is fixed
 * when it is created. So record mode keys each activation by its MPI_Start/MPI_Startall event
 * (and index), and replay re-creates the request with the recorded source at every start,
 * writing the new handle back into the caller's variable (MPI_Start takes it by address).
 * In races mode each start of a persistent send posts a header and each start of a wildcard
 * receive opens a race entry. Under MPI_THREAD_MULTIPLE a start keeps its thread's turn until
 * it has posted (threads/sync_order.h). */
#include "race_check.h"
#include "replay_cursor.h"
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"
#include "threads/sync_order.h"
#include "wildcard.h"

/* Prepares request *req for activation number sub of the current start call. */
static void before_start(const mpirr_call *c, MPI_Request *req, uint32_t sub)
{
    tracked_request *e = mpirr_track_lookup(*req);
    if (!e || !(e->flags & TRACK_PERSISTENT)) return;
    if (e->flags & TRACK_SEND) {
        mpirr_send_started(e);
        return;
    }
    if (e->flags & TRACK_HEADER) { /* races mode, record */
        int log_now;
        mpirr_wire_recv_ready(&e->wire); /* a new message will fill its slot */
        e->race_id = mpirr_race_entry_for(c, sub, e->source, e->tag, e->comm, &log_now);
        e->flags = (e->flags & ~(unsigned)TRACK_WILDCARD) | (log_now ? TRACK_WILDCARD : 0);
    }
    if (!(e->flags & (TRACK_WILDCARD | TRACK_HEADER))) return;
    e->post_event = c->event;
    e->post_call = c->id;
    e->post_sub = sub;
    e->flags |= TRACK_ACTIVE;
    if (!mpirr_replaying() || !e->owns_type) return;
    int source = e->source, tag = e->tag;
    MPI_Comm comm = e->comm;
    e->replay_cancelled = mpirr_replay_post_args(c->event, sub, &source, &tag, &comm);
    MPI_Request old = *req, fresh;
    if (PMPI_Recv_init(e->buf, e->count, e->type, source, tag, comm, &fresh) != MPI_SUCCESS)
        mpirr_fatal("replay: rank %d could not re-create the persistent receive started at "
                    "event %llu", mpirr_rt.rank, (unsigned long long)c->event);
    PMPI_Request_free(&old); /* inactive: freeing it is immediate */
    mpirr_lock();
    mpirr_track_rekey(*req, fresh);
    mpirr_unlock();
    *req = fresh;
}

int mpirr_MPI_Start(MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Start);
    if (mpirr_tracked_count && (mpirr_recording() || mpirr_replaying()))
        before_start(&call_, request, 0);
    int rc = PMPI_Start(request);
    mpirr_threaded_posted(); /* MPI_THREAD_MULTIPLE: posted in turn (threads/sync_order.h) */
    return rc;
}

int mpirr_MPI_Startall(int count, MPI_Request array_of_requests[])
{
    MPIRR_BEGIN(MPI_Startall);
    if (mpirr_tracked_count && (mpirr_recording() || mpirr_replaying()))
        for (int i = 0; i < count; i++) before_start(&call_, &array_of_requests[i], (uint32_t)i);
    int rc = PMPI_Startall(count, array_of_requests);
    mpirr_threaded_posted();
    return rc;
}

int mpirr_MPI_Request_free(MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Request_free);
    if (mpirr_tracked_count) {
        mpirr_lock();
        tracked_request *e = mpirr_track_find(*request);
        if (e && (e->flags & TRACK_COMM_NEW)) {
            mpirr_unlock();
            return mpirr_comm_idup_freed(request, e);
        }
        int race_id = e ? e->race_id : -1;
        if (e && e->wire.heap && (!(e->flags & TRACK_PERSISTENT) || (e->flags & TRACK_ACTIVE))) {
            mpirr_wire_abandon(e->wire.heap); /* active: MPI may still use it */
            e->wire.heap = NULL;
        }
        if (e) mpirr_track_remove(*request);
        mpirr_unlock();
        /* An active receive freed before completion: its outcome is never seen, and a header
         * its message carries would stay unread (docs/races.md, limits). */
        mpirr_race_dropped(race_id);
    }
    return PMPI_Request_free(request);
}

/* MPI_Cancel: whether the cancel wins against a matching message is nondeterministic. Record
 * mode marks the request so its completion logs the outcome (CANCEL_DONE; for a wildcard
 * receive in sources mode its RECV_DONE says it). Replay reproduces it: for a wildcard
 * receive the post already went to the shadow communicator if the recording saw it
 * cancelled; otherwise, if the recording saw the request complete normally, the cancel is simply
 * not passed on (MPI allows a cancel to have no effect), and if it saw it cancelled the cancel is
 * passed on and its effect checked at completion. */
int mpirr_MPI_Cancel(MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Cancel);
    if (!(mpirr_recording() || mpirr_replaying()) || *request == MPI_REQUEST_NULL)
        return PMPI_Cancel(request);
    mpirr_lock();
    tracked_request *e = mpirr_track_find(*request);
    if (!e) {
        e = mpirr_track_add(*request);
        e->replay_cancelled = -1;
    }
    e->flags |= TRACK_CANCELLED;
    e->cancel_event = call_.event;
    mpirr_unlock();
    if (mpirr_replaying()) {
        /* A wildcard receive's RECV_DONE says whether it was cancelled, but races mode logs
         * only the racing ones: for the others the cancel's own record decides (without it,
         * the replayed cancel could win where the recorded one lost, or the other way). */
        if (!(e->flags & TRACK_WILDCARD) || e->replay_cancelled < 0) {
            mpirr_record r;
            if (mpirr_replay_deferred(call_.event, 0, MPIRR_REC_CANCEL_DONE, &r))
                e->replay_cancelled = r.cancelled;
        }
        if (e->replay_cancelled == 0) return MPI_SUCCESS;
    }
    return PMPI_Cancel(request);
}
