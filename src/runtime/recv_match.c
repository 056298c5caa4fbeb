/* recv_match.c: receives whose source or tag is a wildcard. Record mode notes the (source,
 * tag) they matched; replay rewrites the wildcard into the recorded pair before posting, so the
 * receive can only match the message it matched in the recording (MPI's non-overtaking order
 * per source, tag and communicator makes that message the first one eligible). Blocking calls
 * get an in-order MATCH record; nonblocking ones a deferred RECV_DONE written at completion
 * (completion.c) but looked up here, at the post. In races mode every receive also reads its
 * message's timestamp header when it completes (piggyback.h): it is posted with room for the
 * header's slot before the data (message_wire.h), and MPI_ANY_SOURCE receives are logged only
 * if they raced (race_check.h), always as deferred RECV_DONE records. */
#include <stdlib.h>

#include "piggyback.h"
#include "race_check.h"
#include "replay_cursor.h"
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"
#include "threads/sync_order.h"
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
    mpirr_flip_steer(c->event, source);
    MPI_Status *st = mpirr_status_or(status, local);
    st->MPI_SOURCE = MPI_ANY_SOURCE; /* stays negative if the call fails before matching */
    return st;
}

static void track_header(const mpirr_call *c, MPI_Request req, MPI_Comm comm, int race_id,
                         unsigned flags, const mpirr_wire_data *wire);

/* Races mode's state of one blocking receive call. */
struct race_recv {
    int id;      /* race entry, or -1 */
    int log_now; /* wildcard on a communicator without headers: log like sources mode */
};

/* Before a blocking receive: sources/all mode as wild_prepare; races mode replay forces the
 * logged source if the receive raced; races mode record needs a status (to find the header)
 * and opens the race entry. */
static MPI_Status *recv_prepare(const mpirr_call *c, int *source, int *tag, MPI_Comm comm,
                                MPI_Status *status, MPI_Status *local, int *record,
                                struct race_recv *rr)
{
    rr->id = -1;
    rr->log_now = 0;
    if (!mpirr_races_mode()) return mpirr_wild_prepare(c, source, tag, status, local, record);
    *record = 0;
    if (mpirr_replaying()) {
        if (*source == MPI_ANY_SOURCE) mpirr_replay_post_args(c->event, 0, source, tag, &comm);
        return status;
    }
    if (*source == MPI_ANY_SOURCE)
        rr->id = mpirr_race_entry_for(c, 0, *source, *tag, comm, &rr->log_now);
    MPI_Status *st = mpirr_status_or(status, local);
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    return st;
}

/* After it (laid out by w): log (sources/all mode), or strip the slot, read the header and
 * run the race check (races). Returns the call's return code: rc, or a truncation only mpirr
 * could see (message_wire.h, the short form). */
static int recv_finish(const mpirr_call *c, MPI_Comm comm, int rc, MPI_Status *st,
                       int record, const struct race_recv *rr, mpirr_wire *w)
{
    int raised = MPI_SUCCESS;
    mpirr_wire_posted(w);
    if (record) mpirr_record_match(c, st);
    if (mpirr_races_mode() && mpirr_recording()) {
        raised = mpirr_header_receive(comm, rc, st, rr->id, &w->d);
        if (rr->log_now) mpirr_record_recv_done(c->event, 0, c->id, st, 0);
    }
    mpirr_wire_release(&w->d);
    return mpirr_raise(comm, rc, raised);
}

/* MPI_THREAD_MULTIPLE: a blocking receive's post made in its thread's turn, waited for (the
 * replay's polite wait with MPICH). */
static int wait_posted(int rc, MPI_Request *req, MPI_Status *st)
{
    if (rc != MPI_SUCCESS) return rc;
    return mpirr_replaying() ? mpirr_replay_wait(req, st) : PMPI_Wait(req, st);
}

MPIRR_ALSO_FORWARDED
int mpirr_MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Recv);
    int record;
    struct race_recv rr;
    MPI_Status local, *st = recv_prepare(&call_, &source, &tag, comm, status, &local, &record, &rr);
    mpirr_wire w;
    mpirr_recv_wire(&w, buf, count, datatype, source, comm, 0);
    if (mpirr_threaded_post_held()) {
        /* MPI_THREAD_MULTIPLE: posted in its turn, then waited for (threads/sync_order.h) */
        MPI_Request req;
        int rc = PMPI_Irecv((void *)w.buf, w.count, w.type, source, tag, comm, &req);
        mpirr_threaded_posted();
        rc = wait_posted(rc, &req, st);
        return recv_finish(&call_, comm, rc, st, record, &rr, &w);
    }
    if (mpirr_replaying() && mpirr_rt.poll_waits) {
        /* Polite waiting (replay_wait.c) by probing, then the real receive of the message now
         * there: errors such as truncation still reach the communicator's error handler (MPICH
         * would send those of an MPI_Test to MPI_COMM_WORLD's). */
        MPI_Status probed;
        int rc = mpirr_replay_probe(source, tag, comm, &probed);
        if (rc != MPI_SUCCESS) return rc;
    }
    int rc = PMPI_Recv((void *)w.buf, w.count, w.type, source, tag, comm, st);
    return recv_finish(&call_, comm, rc, st, record, &rr, &w);
}

/* The send half's header is waited for after the receive half's header is read, so that two
 * ranks exchanging with Sendrecv never wait for each other's header. */
MPIRR_ALSO_FORWARDED
int mpirr_MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                       int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Sendrecv);
    int record;
    struct race_recv rr;
    MPI_Status local, *st = recv_prepare(&call_, &source, &recvtag, comm, status, &local, &record, &rr);
    mpirr_header_send h;
    mpirr_wire ws, wr;
    mpirr_header_post(&h, &ws, sendbuf, sendcount, sendtype, dest, sendtag, comm, 1);
    mpirr_recv_wire(&wr, recvbuf, recvcount, recvtype, source, comm, 0);
    int rc;
    if (mpirr_threaded_post_held()) {
        /* MPI_THREAD_MULTIPLE: both halves posted in the thread's turn, then waited for, the
         * receive first (both are posted: MPI progresses the send meanwhile) */
        MPI_Request req[2];
        rc = PMPI_Irecv((void *)wr.buf, wr.count, wr.type, source, recvtag, comm, &req[0]);
        int src = rc == MPI_SUCCESS ? PMPI_Isend(ws.buf, ws.count, ws.type, dest, sendtag, comm, &req[1]) : rc;
        mpirr_threaded_posted();
        if (rc == MPI_SUCCESS && src != MPI_SUCCESS) { /* no message will answer: withdraw it */
            PMPI_Cancel(&req[0]);
            PMPI_Wait(&req[0], MPI_STATUS_IGNORE);
            rc = src;
        }
        rc = wait_posted(rc, &req[0], st);
        src = wait_posted(src, &req[1], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = src;
    } else {
        rc = PMPI_Sendrecv(ws.buf, ws.count, ws.type, dest, sendtag, (void *)wr.buf, wr.count,
                           wr.type, source, recvtag, comm, st);
    }
    int sent = rc;
    rc = recv_finish(&call_, comm, rc, st, record, &rr, &wr);
    mpirr_header_done(&h, &ws, 1, sent, NULL);
    return rc;
}

MPIRR_ALSO_FORWARDED
int mpirr_MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                               int sendtag, int source, int recvtag, MPI_Comm comm,
                               MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Sendrecv_replace);
    int record;
    struct race_recv rr;
    MPI_Status local, *st = recv_prepare(&call_, &source, &recvtag, comm, status, &local, &record, &rr);
    mpirr_header_send h;
    mpirr_wire ws, wr;
    /* with slots, a Sendrecv whose send half is a copy: it must not read what the receive
     * half writes */
    mpirr_header_post(&h, &ws, buf, count, datatype, dest, sendtag, comm, MPIRR_POST_COPY);
    mpirr_recv_wire(&wr, buf, count, datatype, source, comm, 0);
    int rc;
    if (ws.d.slot || wr.d.slot)
        rc = PMPI_Sendrecv(ws.buf, ws.count, ws.type, dest, sendtag, (void *)wr.buf, wr.count,
                           wr.type, source, recvtag, comm, st);
    else
        rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, st);
    int sent = rc;
    rc = recv_finish(&call_, comm, rc, st, record, &rr, &wr);
    mpirr_header_done(&h, &ws, 1, sent, NULL);
    return rc;
}

MPIRR_ALSO_FORWARDED
int mpirr_MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                    MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Mrecv);
    if (!mpirr_piggybacking()) return PMPI_Mrecv(buf, count, datatype, message, status);
    MPI_Comm comm = mpirr_message_comm(*message);
    MPI_Status local, *st = mpirr_status_or(status, &local);
    mpirr_wire w;
    mpirr_recv_wire(&w, buf, count, datatype, MPI_ANY_SOURCE, comm, 0);
    int rc = PMPI_Mrecv((void *)w.buf, w.count, w.type, message, st);
    mpirr_wire_posted(&w);
    int raised = mpirr_header_receive(comm, rc, st, -1, &w.d);
    mpirr_wire_release(&w.d);
    return mpirr_raise(comm, rc, raised);
}

MPIRR_ALSO_FORWARDED
int mpirr_MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                     MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Imrecv);
    if (!mpirr_piggybacking()) return PMPI_Imrecv(buf, count, datatype, message, request);
    MPI_Comm comm = mpirr_message_comm(*message);
    mpirr_wire w;
    mpirr_recv_wire(&w, buf, count, datatype, MPI_ANY_SOURCE, comm, 1);
    int rc = PMPI_Imrecv((void *)w.buf, w.count, w.type, message, request);
    mpirr_wire_posted(&w);
    if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL) track_header(&call_, *request, comm, -1, 0, &w.d);
    else mpirr_wire_release(&w.d);
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

/* Races mode, record: a receive request whose completion must read a header. */
static void track_header(const mpirr_call *c, MPI_Request req, MPI_Comm comm, int race_id,
                         unsigned flags, const mpirr_wire_data *wire)
{
    mpirr_lock();
    tracked_request *e = mpirr_track_add(req);
    e->flags = TRACK_HEADER | flags;
    e->comm = comm;
    e->wire = *wire;
    e->race_id = race_id;
    e->replay_cancelled = -1;
    e->post_event = c->event;
    e->post_call = c->id;
    mpirr_unlock();
}

int mpirr_race_entry_for(const mpirr_call *c, uint32_t sub, int source, int tag, MPI_Comm comm,
                         int *log_now)
{
    *log_now = 0;
    if (source != MPI_ANY_SOURCE) return -1;
    mpirr_lock();
    const mpirr_comm_info *ci = mpirr_comm_find(comm);
    mpirr_unlock();
    if (!ci) {
        *log_now = 1;
        return -1;
    }
    return mpirr_race_posted(ci, tag, c->event, sub, c->id);
}

/* Races mode, record. A wildcard on a communicator without headers is tracked as in sources
 * mode (TRACK_WILDCARD: its completion logs it). */
static int irecv_races(const mpirr_call *c, void *buf, int count, MPI_Datatype datatype,
                       int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    int log_now, id = mpirr_race_entry_for(c, 0, source, tag, comm, &log_now);
    mpirr_wire w;
    mpirr_recv_wire(&w, buf, count, datatype, source, comm, 1);
    int rc = PMPI_Irecv((void *)w.buf, w.count, w.type, source, tag, comm, request);
    mpirr_wire_posted(&w);
    if (rc != MPI_SUCCESS || source == MPI_PROC_NULL) {
        mpirr_wire_release(&w.d);
        mpirr_race_dropped(id);
        return rc;
    }
    track_header(c, *request, comm, id, log_now ? TRACK_WILDCARD : 0, &w.d);
    return rc;
}

MPIRR_ALSO_FORWARDED
int mpirr_irecv_post(const mpirr_call *c, void *buf, int count, MPI_Datatype datatype,
                     int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    if (mpirr_piggybacking()) return irecv_races(c, buf, count, datatype, source, tag, comm, request);
    if (!mpirr_is_wildcard(source, tag)) return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    int verdict = -1;
    if (mpirr_replaying()) verdict = mpirr_replay_post_args(c->event, 0, &source, &tag, &comm);
    else mpirr_flip_steer(c->event, &source);
    int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    if (rc == MPI_SUCCESS && (mpirr_recording() || mpirr_replaying())) {
        mpirr_lock();
        tracked_request *e = mpirr_track_add(*request);
        e->flags = TRACK_WILDCARD;
        e->post_event = c->event;
        e->post_call = c->id;
        e->replay_cancelled = verdict;
        e->race_id = -1;
        mpirr_unlock();
    }
    return rc;
}

MPIRR_ALSO_FORWARDED
int mpirr_MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Irecv);
    int rc = mpirr_irecv_post(&call_, buf, count, datatype, source, tag, comm, request);
    mpirr_threaded_posted(); /* MPI_THREAD_MULTIPLE: the next call may post now */
    return rc;
}

/* In races mode (record) every persistent receive reads headers; a wildcard one opens a race
 * entry at each start (persistent.c). */
MPIRR_ALSO_FORWARDED
int mpirr_MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Recv_init);
    mpirr_wire w;
    mpirr_recv_wire(&w, buf, count, datatype, source, comm, 1);
    int rc = PMPI_Recv_init((void *)w.buf, w.count, w.type, source, tag, comm, request);
    mpirr_wire_posted(&w);
    int races = mpirr_piggybacking() && source != MPI_PROC_NULL;
    if (rc != MPI_SUCCESS || !(mpirr_recording() || mpirr_replaying()) ||
        (!races && !mpirr_is_wildcard(source, tag))) {
        mpirr_wire_release(&w.d);
        return rc;
    }
    mpirr_lock();
    tracked_request *e = mpirr_track_add(*request);
    e->flags = TRACK_PERSISTENT | (races ? TRACK_HEADER : TRACK_WILDCARD);
    e->wire = w.d;
    e->replay_cancelled = -1;
    e->race_id = -1;
    e->source = source;
    e->tag = tag;
    e->comm = comm;
    if (mpirr_replaying()) { /* replay re-creates it at each start: keep what it was given */
        e->buf = buf;
        e->count = count;
        e->owns_type = PMPI_Type_dup(datatype, &e->type) == MPI_SUCCESS;
    }
    mpirr_unlock();
    return rc;
}
