/* recv_match.c: receives whose source or tag is a wildcard. Record mode notes the (source,
 * tag) they matched; replay rewrites the wildcard into the recorded pair before posting, so the
 * receive can only match the message it matched in the recording (MPI's non-overtaking order
 * per source, tag and communicator makes that message the first one eligible). Blocking calls
 * get an in-order MATCH record; nonblocking ones a deferred RECV_DONE written at completion
 * (completion.c) but looked up here, at the post. */
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"
#include "wildcard.h"

int mpirr_wildcard_forced(const mpirr_call *c, int *source, int *tag)
{
    mpirr_record r;
    mpirr_replay_expect(c, MPIRR_REC_MATCH, "a wildcard receive or probe", &r);
    if (!r.has_match) return 0; /* the recorded call failed before matching: same arguments */
    *source = r.source;
    *tag = r.tag;
    return 1;
}

MPI_Status *mpirr_wild_prepare(const mpirr_call *c, int *source, int *tag, MPI_Status *status,
                               MPI_Status *local, int *record)
{
    *record = 0;
    if (!mpirr_is_wildcard(*source, *tag)) return status;
    if (mpirr_replaying()) {
        mpirr_wildcard_forced(c, source, tag);
        return status;
    }
    *record = mpirr_recording();
    MPI_Status *st = mpirr_status_or(status, local);
    st->MPI_SOURCE = MPI_ANY_SOURCE; /* stays negative if the call fails before matching */
    return st;
}

int mpirr_MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Recv);
    int record;
    MPI_Status local, *st = mpirr_wild_prepare(&call_, &source, &tag, status, &local, &record);
    if (mpirr_replaying() && mpirr_rt.poll_waits) { /* polite waiting: see replay_wait.c */
        MPI_Request req;
        int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, &req);
        return rc == MPI_SUCCESS ? mpirr_replay_wait(&req, status) : rc;
    }
    int rc = PMPI_Recv(buf, count, datatype, source, tag, comm, st);
    if (record) mpirr_record_match(&call_, st);
    return rc;
}

int mpirr_MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Sendrecv);
    int record;
    MPI_Status local, *st = mpirr_wild_prepare(&call_, &source, &recvtag, status, &local, &record);
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm, st);
    if (record) mpirr_record_match(&call_, st);
    return rc;
}

int mpirr_MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                               int sendtag, int source, int recvtag, MPI_Comm comm,
                               MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Sendrecv_replace);
    int record;
    MPI_Status local, *st = mpirr_wild_prepare(&call_, &source, &recvtag, status, &local, &record);
    int rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, st);
    if (record) mpirr_record_match(&call_, st);
    return rc;
}

/* Replay: the arguments a nonblocking wildcard receive posted at (event, sub) must use. A
 * receive the recording saw cancelled goes to the shadow communicator, where nothing can match
 * it, so the program's MPI_Cancel succeeds again. Returns the tracked entry's replay verdict. */
int mpirr_replay_post_args(uint64_t event, uint32_t sub, int *source, int *tag, MPI_Comm *comm)
{
    mpirr_record r;
    if (!mpirr_replay_deferred(event, sub, MPIRR_REC_RECV_DONE, &r))
        return -1; /* never completed in the recording: post it as the program asks */
    if (r.cancelled) {
        *source = MPI_ANY_SOURCE;
        *comm = mpirr_rt.shadow;
        return 1;
    }
    if (r.has_match) {
        *source = r.source;
        *tag = r.tag;
    }
    return 0;
}

int mpirr_MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Irecv);
    if (!mpirr_is_wildcard(source, tag)) return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    int verdict = -1;
    if (mpirr_replaying()) verdict = mpirr_replay_post_args(call_.event, 0, &source, &tag, &comm);
    int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    if (rc == MPI_SUCCESS && (mpirr_recording() || mpirr_replaying())) {
        mpirr_lock();
        tracked_request *e = mpirr_track_add(*request);
        e->flags = TRACK_WILDCARD;
        e->post_event = call_.event;
        e->post_call = MPIRR_ID_MPI_Irecv;
        e->replay_cancelled = verdict;
        mpirr_unlock();
    }
    return rc;
}

int mpirr_MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Recv_init);
    int rc = PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);
    if (rc != MPI_SUCCESS || !mpirr_is_wildcard(source, tag) ||
        !(mpirr_recording() || mpirr_replaying()))
        return rc;
    mpirr_lock();
    tracked_request *e = mpirr_track_add(*request);
    e->flags = TRACK_WILDCARD | TRACK_PERSISTENT;
    e->replay_cancelled = -1;
    if (mpirr_replaying()) { /* replay re-creates it at each start: keep what it was given */
        e->buf = buf;
        e->count = count;
        e->source = source;
        e->tag = tag;
        e->comm = comm;
        e->owns_type = PMPI_Type_dup(datatype, &e->type) == MPI_SUCCESS;
    }
    mpirr_unlock();
    return rc;
}
