/* event_shapes.h: what the event history records for each kind of call. The last column of
 * each mpi_calls.def row names a shape and the parameters it reads, e.g.
 * (SEND, dest, tag, comm, count, datatype); the generated wrapper expands MPIRR_EVPRE_<shape>
 * before the call and MPIRR_EVPOST_<shape> after it, with the record in ev_ and the call's
 * return value in rc_. PRE may point an ignored status at ev_'s own, so that what a receive
 * matched is known even when the caller did not ask. */
#ifndef MPIRR_EVENT_SHAPES_H
#define MPIRR_EVENT_SHAPES_H

#include "event_history.h"
#include "event_windows.h"

#define MPIRR_EV_PRE(shape, ...) MPIRR_EVPRE_##shape(__VA_ARGS__)
#define MPIRR_EV_POST(shape, ...) MPIRR_EVPOST_##shape(__VA_ARGS__)
#define MPIRR_EVRC_int(rc) (rc)
#define MPIRR_EVRC_double(rc) MPI_SUCCESS
#define MPIRR_EVRC_MPI_Aint(rc) MPI_SUCCESS

#define MPIRR_EV_IGNORED_STATUS(status) \
    if ((status) == MPI_STATUS_IGNORE) (status) = &ev_.st;
#define MPIRR_EV_OK (rc_ == MPI_SUCCESS)

/* calls with nothing to add: kind, time and call site only */
#define MPIRR_EVPRE_NONE(unused)
#define MPIRR_EVPOST_NONE(unused)
#define MPIRR_EVPRE_COMM(comm) mpirr_ev_set_comm(&ev_, comm);
#define MPIRR_EVPOST_COMM(comm)

/* one-sided (event_windows.h): the window, what the call does (MPIRR_RMA_<kind>), the target
 * as a world rank (and as given, in peer), an access's displacement, bytes and operation, a
 * lock's type, a post's or start's group */
#define MPIRR_EVPRE_WIN_NEW(comm, unit, win, kind) mpirr_ev_set_comm(&ev_, comm);
#define MPIRR_EVPOST_WIN_NEW(comm, unit, win, kind) \
    if (MPIRR_EV_OK) mpirr_ev_win_created(&ev_, *(win), unit, MPIRR_RMA_##kind);
#define MPIRR_EVPRE_WIN(win, kind) mpirr_ev_set_win(&ev_, win, MPIRR_RMA_##kind, MPI_PROC_NULL);
#define MPIRR_EVPOST_WIN(win, kind)
#define MPIRR_EVPRE_WIN_FREE(win) MPIRR_EVPRE_WIN(*(win), FREE)
#define MPIRR_EVPOST_WIN_FREE(win) /* MPI_Win_free drops the window's entry (rma/) */
/* a Win_test that found the exposure epoch over is a wait */
#define MPIRR_EVPRE_WIN_TEST(win, flag) MPIRR_EVPRE_WIN(win, TEST)
#define MPIRR_EVPOST_WIN_TEST(win, flag) if (MPIRR_EV_OK && *(flag)) ev_.e.rma = MPIRR_RMA_WAIT;
#define MPIRR_EVPRE_WIN_GROUP(win, kind, group) MPIRR_EVPRE_WIN(win, kind) mpirr_ev_set_group(&ev_, group);
#define MPIRR_EVPOST_WIN_GROUP(win, kind, group)
#define MPIRR_EVPRE_WIN_TARGET(win, kind, rank) \
    mpirr_ev_set_win(&ev_, win, MPIRR_RMA_##kind, rank); mpirr_ev_set_target(&ev_, rank);
#define MPIRR_EVPOST_WIN_TARGET(win, kind, rank)
#define MPIRR_EVPRE_WIN_LOCK(win, type, rank) MPIRR_EVPRE_WIN_TARGET(win, LOCK, rank) mpirr_ev_set_lock(&ev_, type);
#define MPIRR_EVPOST_WIN_LOCK(win, type, rank)
#define MPIRR_EVPRE_WIN_LOCK_ALL(win) MPIRR_EVPRE_WIN(win, LOCK_ALL) mpirr_ev_set_lock(&ev_, MPI_LOCK_SHARED);
#define MPIRR_EVPOST_WIN_LOCK_ALL(win)
#define MPIRR_EVPRE_WIN_ACCESS(win, kind, rank, disp, count, type, op) \
    MPIRR_EVPRE_WIN_TARGET(win, kind, rank) mpirr_ev_set_access(&ev_, win, disp, count, type, op);
#define MPIRR_EVPOST_WIN_ACCESS(win, kind, rank, disp, count, type, op)

/* life cycle: Init's record is made once the history exists; Abort's before it leaves */
#define MPIRR_EVPRE_INIT(unused)
#define MPIRR_EVPOST_INIT(unused)
#define MPIRR_EVPRE_ABORT(comm) \
    mpirr_ev_set_comm(&ev_, comm); ev_.e.event = mpirr_current_event + 1; mpirr_ev_emit(&ev_, MPI_SUCCESS);
#define MPIRR_EVPOST_ABORT(comm)

/* point-to-point */
#define MPIRR_EVPRE_SEND(dest, tag, comm, count, type) \
    mpirr_ev_set_comm(&ev_, comm); mpirr_ev_set_peer(&ev_, dest, tag); mpirr_ev_set_bytes(&ev_, count, type);
#define MPIRR_EVPOST_SEND(dest, tag, comm, count, type)
#define MPIRR_EVPRE_ISEND(dest, tag, comm, count, type, req) MPIRR_EVPRE_SEND(dest, tag, comm, count, type)
#define MPIRR_EVPOST_ISEND(dest, tag, comm, count, type, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), 0);
#define MPIRR_EVPRE_PSEND(dest, tag, comm, count, type, req) MPIRR_EVPRE_SEND(dest, tag, comm, count, type)
#define MPIRR_EVPOST_PSEND(dest, tag, comm, count, type, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), MPIRR_EV_PERSISTENT);
#define MPIRR_EVPRE_RECV(source, tag, comm, count, type, status) \
    MPIRR_EVPRE_SEND(source, tag, comm, count, type) MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_RECV(source, tag, comm, count, type, status) \
    if (mpirr_consumed_message(rc_)) mpirr_ev_set_match(&ev_, status);
#define MPIRR_EVPRE_IRECV(source, tag, comm, count, type, req) MPIRR_EVPRE_SEND(source, tag, comm, count, type)
#define MPIRR_EVPOST_IRECV(source, tag, comm, count, type, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), MPIRR_EVI_RECV);
#define MPIRR_EVPRE_PRECV(source, tag, comm, count, type, req) MPIRR_EVPRE_SEND(source, tag, comm, count, type)
#define MPIRR_EVPOST_PRECV(source, tag, comm, count, type, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), MPIRR_EVI_RECV | MPIRR_EV_PERSISTENT);
#define MPIRR_EVPRE_SENDRECV(dest, stag, scount, stype, source, rtag, comm, status) \
    MPIRR_EVPRE_SEND(dest, stag, comm, scount, stype) mpirr_ev_set_rpeer(&ev_, source, rtag); \
    MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_SENDRECV(dest, stag, scount, stype, source, rtag, comm, status) \
    if (mpirr_consumed_message(rc_)) mpirr_ev_set_match(&ev_, status);
/* MPI_Isendrecv(_replace): the send half posted now, the receive half's match at the request's
 * completion (isendrecv.c's status says what was received) */
#define MPIRR_EVPRE_ISENDRECV(dest, stag, scount, stype, source, rtag, comm, req) \
    MPIRR_EVPRE_SEND(dest, stag, comm, scount, stype) mpirr_ev_set_rpeer(&ev_, source, rtag);
#define MPIRR_EVPOST_ISENDRECV(dest, stag, scount, stype, source, rtag, comm, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), MPIRR_EVI_RECV);
#define MPIRR_EVPRE_PROBE(source, tag, comm, status) \
    mpirr_ev_set_comm(&ev_, comm); mpirr_ev_set_peer(&ev_, source, tag); MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_PROBE(source, tag, comm, status) if (MPIRR_EV_OK) mpirr_ev_set_match(&ev_, status);
#define MPIRR_EVPRE_IPROBE(source, tag, comm, flag, status) MPIRR_EVPRE_PROBE(source, tag, comm, status)
#define MPIRR_EVPOST_IPROBE(source, tag, comm, flag, status) \
    if (MPIRR_EV_OK && *(flag)) mpirr_ev_set_match(&ev_, status);
#define MPIRR_EVPRE_MRECV(count, type, status) mpirr_ev_set_bytes(&ev_, count, type); MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_MRECV(count, type, status) \
    if (mpirr_consumed_message(rc_)) mpirr_ev_set_match(&ev_, status);
#define MPIRR_EVPRE_IMRECV(count, type, req) mpirr_ev_set_bytes(&ev_, count, type);
#define MPIRR_EVPOST_IMRECV(count, type, req) \
    if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), MPIRR_EVI_RECV);

/* request completion: which requests completed, and what the receives among them matched */
#define MPIRR_EVPRE_WAIT(req, status) mpirr_ev_snapshot(&ev_, 1, req); MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_WAIT(req, status) \
    if (mpirr_consumed_message(rc_)) mpirr_ev_completed(&ev_, 0, status, 0);
#define MPIRR_EVPRE_TEST(req, flag, status) MPIRR_EVPRE_WAIT(req, status)
#define MPIRR_EVPOST_TEST(req, flag, status) \
    if (mpirr_consumed_message(rc_) && *(flag)) mpirr_ev_completed(&ev_, 0, status, 0);
#define MPIRR_EVPRE_GETSTATUS(req, flag, status) MPIRR_EVPRE_WAIT(&(req), status)
#define MPIRR_EVPOST_GETSTATUS(req, flag, status) \
    if (MPIRR_EV_OK && *(flag)) mpirr_ev_completed(&ev_, 0, status, 1);
#define MPIRR_EVPRE_WAITANY(n, reqs, index, status) mpirr_ev_snapshot(&ev_, n, reqs); MPIRR_EV_IGNORED_STATUS(status)
#define MPIRR_EVPOST_WAITANY(n, reqs, index, status) \
    if (mpirr_consumed_message(rc_) && *(index) != MPI_UNDEFINED) mpirr_ev_completed(&ev_, *(index), status, 0);
#define MPIRR_EVPRE_TESTANY(n, reqs, index, flag, status) MPIRR_EVPRE_WAITANY(n, reqs, index, status)
#define MPIRR_EVPOST_TESTANY(n, reqs, index, flag, status) \
    if (*(flag)) { MPIRR_EVPOST_WAITANY(n, reqs, index, status) }
#define MPIRR_EVPRE_WAITALL(n, reqs, statuses) \
    mpirr_ev_snapshot(&ev_, n, reqs); (statuses) = mpirr_ev_statuses(&ev_, n, statuses);
#define MPIRR_EVPOST_WAITALL(n, reqs, statuses) mpirr_ev_completed_all(&ev_, rc_, statuses);
#define MPIRR_EVPRE_TESTALL(n, reqs, flag, statuses) MPIRR_EVPRE_WAITALL(n, reqs, statuses)
#define MPIRR_EVPOST_TESTALL(n, reqs, flag, statuses) \
    if (*(flag)) mpirr_ev_completed_all(&ev_, rc_, statuses);
#define MPIRR_EVPRE_WAITSOME(n, reqs, outcount, indices, statuses) MPIRR_EVPRE_WAITALL(n, reqs, statuses)
#define MPIRR_EVPOST_WAITSOME(n, reqs, outcount, indices, statuses) \
    mpirr_ev_completed_some(&ev_, rc_, *(outcount), indices, statuses);
#define MPIRR_EVPRE_START(req) mpirr_ev_snapshot(&ev_, 1, req);
#define MPIRR_EVPOST_START(req) if (MPIRR_EV_OK) mpirr_ev_started(&ev_, 0);
#define MPIRR_EVPRE_STARTALL(n, reqs) mpirr_ev_snapshot(&ev_, n, reqs);
#define MPIRR_EVPOST_STARTALL(n, reqs) \
    if (MPIRR_EV_OK) for (int i_ = 0; i_ < (n); i_++) mpirr_ev_started(&ev_, i_);
#define MPIRR_EVPRE_FREE(req) mpirr_ev_snapshot(&ev_, 1, req); mpirr_ev_req_named(&ev_, *(req));
#define MPIRR_EVPOST_FREE(req) if (MPIRR_EV_OK) mpirr_ev_req_freed(ev_.before[0]);
#define MPIRR_EVPRE_CANCEL(req) mpirr_ev_req_named(&ev_, *(req));
#define MPIRR_EVPOST_CANCEL(req)

/* collectives: communicator, root, this rank's contribution in bytes (none with MPI_IN_PLACE,
 * whose count and type the standard says are ignored, so they may be anything) */
#define MPIRR_EVPRE_COLL(comm, buf, count, type) \
    mpirr_ev_set_comm(&ev_, comm); if ((buf) != MPI_IN_PLACE) mpirr_ev_set_bytes(&ev_, count, type);
#define MPIRR_EVPOST_COLL(comm, buf, count, type)
#define MPIRR_EVPRE_RCOLL(comm, root, buf, count, type) MPIRR_EVPRE_COLL(comm, buf, count, type) mpirr_ev_set_root(&ev_, root);
#define MPIRR_EVPOST_RCOLL(comm, root, buf, count, type)
#define MPIRR_EVPRE_ICOLL(comm, buf, count, type, req) MPIRR_EVPRE_COLL(comm, buf, count, type)
#define MPIRR_EVPOST_ICOLL(comm, buf, count, type, req) if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), 0);
#define MPIRR_EVPRE_IRCOLL(comm, root, buf, count, type, req) MPIRR_EVPRE_RCOLL(comm, root, buf, count, type)
#define MPIRR_EVPOST_IRCOLL(comm, root, buf, count, type, req) if (MPIRR_EV_OK) mpirr_ev_req_created(&ev_, *(req), 0);

/* communicators: a new one is defined (members' world ranks) at creation */
#define MPIRR_EVPRE_COMM_NEW(comm, made) mpirr_ev_set_comm(&ev_, comm);
#define MPIRR_EVPOST_COMM_NEW(comm, made) if (MPIRR_EV_OK) mpirr_ev_comm_created(&ev_, comm, *(made));
#define MPIRR_EVPRE_COMM_IDUP(comm, made, req) mpirr_ev_set_comm(&ev_, comm);
#define MPIRR_EVPOST_COMM_IDUP(comm, made, req) \
    if (MPIRR_EV_OK) { mpirr_ev_comm_created(&ev_, comm, *(made)); mpirr_ev_req_created(&ev_, *(req), 0); }
#define MPIRR_EVPRE_COMM_FREE(comm) mpirr_ev_set_comm(&ev_, *(comm)); ev_.comm_before = *(comm);
#define MPIRR_EVPOST_COMM_FREE(comm) if (MPIRR_EV_OK) mpirr_ev_comm_freed(ev_.comm_before);

#endif
