/* completion.c: Wait/Test families and MPI_Request_get_status.
 * Record mode logs what could differ between runs: whether a Test-family call succeeded (only
 * successes are logged; the unsuccessful calls in between are implied by event numbers), which
 * request Waitany/Testany chose, which set Waitsome/Testsome returned, and, for tracked
 * requests (request_table.h), what a wildcard receive matched or whether a cancel took effect.
 * Replay returns "not yet" without touching MPI for unsuccessful tests, and for a recorded
 * success waits on exactly the recorded requests. Wait and Waitall are deterministic. In races
 * mode every completed receive reads its message's timestamp header here. replay --flip
 * R:E=req:P makes the any/some call at E wait for that one request (flip.c). */
#include <stdlib.h>
#include <string.h>

#include "piggyback.h"
#include "replay_cursor.h"
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"
#include "status_fields.h"

static int active(void) { return mpirr_recording() || mpirr_replaying(); }

/* The tracked requests among an array, found before the call (completion overwrites handles). */
struct hits {
    int n;
    int *index;
    MPI_Request *handle;
    tracked_request **entry;
    int index_local[4];
    MPI_Request handle_local[4];
    tracked_request *entry_local[4];
};

static void hits_find(struct hits *h, int count, const MPI_Request reqs[])
{
    h->n = 0;
    h->index = h->index_local;
    h->handle = h->handle_local;
    h->entry = h->entry_local;
    if (!mpirr_tracked_count) return;
    int cap = 4;
    mpirr_lock();
    for (int i = 0; i < count; i++) {
        tracked_request *e = mpirr_track_find(reqs[i]);
        if (!e || reqs[i] == MPI_REQUEST_NULL) continue;
        if (h->n == cap) {
            cap *= 4;
            int *ni = malloc((size_t)cap * sizeof *ni);
            MPI_Request *nh = malloc((size_t)cap * sizeof *nh);
            tracked_request **ne = malloc((size_t)cap * sizeof *ne);
            if (!ni || !nh || !ne) mpirr_fatal("out of memory tracking requests");
            memcpy(ni, h->index, (size_t)h->n * sizeof *ni);
            memcpy(nh, h->handle, (size_t)h->n * sizeof *nh);
            memcpy(ne, h->entry, (size_t)h->n * sizeof *ne);
            if (h->index != h->index_local) free(h->index), free(h->handle), free(h->entry);
            h->index = ni, h->handle = nh, h->entry = ne;
        }
        h->index[h->n] = i;
        h->handle[h->n] = reqs[i];
        h->entry[h->n] = e;
        h->n++;
    }
    mpirr_unlock();
}

static void hits_free(struct hits *h)
{
    if (h->index != h->index_local) free(h->index), free(h->handle), free(h->entry);
}

static int hit_of(const struct hits *h, int index)
{
    for (int k = 0; k < h->n; k++)
        if (h->index[k] == index) return k;
    return -1;
}

/* A tracked request completed with status st and error code rc: read its header (races mode),
 * log its outcome (record) or check it (replay). Returns MPI_SUCCESS, or the error of a
 * truncation only mpirr could see (mpirr_header_receive), for the caller to raise on *comm. */
static int tracked_completed(const mpirr_call *c, tracked_request *e, MPI_Request handle,
                             MPI_Status *st, int rc, MPI_Comm *comm)
{
    int raised = MPI_SUCCESS;
    if (e->flags & TRACK_COMM_NEW) {
        mpirr_comm_idup_done(handle, e, rc);
        return raised;
    }
    if ((e->flags & TRACK_PERSISTENT) && !(e->flags & TRACK_ACTIVE) &&
        !(e->flags & TRACK_HEADER))
        return raised; /* inactive: no-op */
    *comm = e->comm;
    if (e->flags & TRACK_HEADER) {
        raised = mpirr_header_receive(e->comm, rc, st, e->race_id, &e->wire);
        e->race_id = -1;
    }
    int cancelled = rc == MPI_SUCCESS && mpirr_status_cancelled(st);
    if (rc != MPI_SUCCESS) {
        /* failed: nothing to log or check */
    } else if (mpirr_recording() && (e->flags & TRACK_WILDCARD)) {
        mpirr_record_recv_done(e->post_event, e->post_sub, e->post_call, st, cancelled);
    } else if (mpirr_recording() && (e->flags & TRACK_CANCELLED)) {
        mpirr_record r = {.kind = MPIRR_REC_CANCEL_DONE, .call = MPIRR_ID_MPI_Cancel,
                          .event = e->cancel_event, .cancelled = cancelled};
        mpirr_record_append(&r);
    } else if (mpirr_replaying() && (e->flags & TRACK_CANCELLED) && e->replay_cancelled >= 0 &&
               cancelled != e->replay_cancelled) {
        mpirr_diverged(c->event, "the request cancelled at event %llu was %s in the recording "
                                 "but %s in the replay (mpirr can force the outcome of a cancel "
                                 "only for wildcard receives)",
                       (unsigned long long)e->cancel_event,
                       e->replay_cancelled ? "cancelled" : "completed",
                       cancelled ? "cancelled" : "completed");
    }
    if (e->flags & TRACK_EXCHANGE) { /* an MPI_Isendrecv: complete once its send half is */
        int sent = mpirr_exchange_done(e);
        if (raised == MPI_SUCCESS) raised = sent;
    }
    mpirr_lock();
    if (e->flags & TRACK_PERSISTENT) e->flags &= ~(unsigned)(TRACK_ACTIVE | TRACK_CANCELLED);
    else mpirr_track_done(handle, e);
    mpirr_unlock();
    return raised;
}

/* Completion of the requests at the given array positions (statuses parallel to them).
 * Returns the communicator of the first request with a truncation only mpirr could see, or
 * MPI_COMM_NULL; the status of each such request says MPI_ERR_TRUNCATE. */
static MPI_Comm hits_completed(const mpirr_call *c, const struct hits *h, int n, const int *index,
                               MPI_Status *sts, int all)
{
    MPI_Comm failed = MPI_COMM_NULL, comm;
    for (int k = 0; k < (all ? h->n : n); k++) {
        int pos = all ? h->index[k] : index[k];
        int hk = all ? k : hit_of(h, pos);
        if (hk < 0) continue;
        MPI_Status *st = &sts[all ? pos : k];
        if (st->MPI_ERROR == MPI_ERR_PENDING) continue;
        int raised = tracked_completed(c, h->entry[hk], h->handle[hk], st, st->MPI_ERROR, &comm);
        if (raised != MPI_SUCCESS) {
            st->MPI_ERROR = raised;
            if (failed == MPI_COMM_NULL) failed = comm;
        }
    }
    return failed;
}

/* A multiple completion that MPI completed with rc, and in which mpirr found a truncation on
 * comm (or none: MPI_COMM_NULL): fails as MPI does, with MPI_ERR_IN_STATUS. */
static int failed_in_status(int rc, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || rc != MPI_SUCCESS) return rc;
    return mpirr_raise(comm, rc, MPI_ERR_IN_STATUS);
}

/* A status array for n requests: the caller's, or scratch when it passed MPI_STATUSES_IGNORE
 * but we need to see them. */
static MPI_Status *statuses_or(MPI_Status *user, int n, MPI_Status *small, size_t nsmall)
{
    if (user != MPI_STATUSES_IGNORE) return user;
    if ((size_t)n <= nsmall) return small;
    MPI_Status *s = malloc((size_t)(n ? n : 1) * sizeof *s);
    if (!s) mpirr_fatal("out of memory");
    return s;
}

static void statuses_done(MPI_Status *s, MPI_Status *user, MPI_Status *small)
{
    if (s != user && s != small) free(s);
}

static void mark_ok(MPI_Status *sts, int n)
{
    for (int i = 0; i < n; i++) sts[i].MPI_ERROR = MPI_SUCCESS;
}

/* The next in-order record of this call, checked to be of the kind the call needs. */
static int take_outcome(const mpirr_call *c, unsigned kind, mpirr_record *r)
{
    if (!mpirr_replay_take(c, r)) return 0;
    if (r->kind != kind)
        mpirr_diverged(c->event, "the recording has a %s outcome of %s here, %s needs %s",
                       mpirr_record_kind_name(r->kind), mpirr_call_name(r->call),
                       mpirr_call_name(c->id), mpirr_record_kind_name(kind));
    return 1;
}

/* Replay: completes exactly the recorded requests of a some-call, one MPI_Wait each. */
static int replay_some(const mpirr_call *c, const mpirr_record *r, MPI_Request reqs[],
                       int incount, int *outcount, int indices[], MPI_Status *sts)
{
    int rc = MPI_SUCCESS;
    for (int k = 0; k < r->count; k++) {
        int i = r->indices[k];
        if (i < 0 || i >= incount)
            mpirr_diverged(c->event, "the recording completed request %d of %s, the program "
                                     "passed %d requests", i, mpirr_call_name(c->id), incount);
        indices[k] = i;
        MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[k];
        int e = mpirr_replay_wait(&reqs[i], st);
        if (e != MPI_SUCCESS) {
            if (sts != MPI_STATUSES_IGNORE) sts[k].MPI_ERROR = e;
            rc = MPI_ERR_IN_STATUS;
        }
    }
    *outcount = r->count;
    return rc;
}

int mpirr_MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Wait);
    tracked_request *e = active() ? mpirr_track_lookup(*request) : NULL;
    if (!e) return mpirr_replaying() ? mpirr_replay_wait(request, status) : PMPI_Wait(request, status);
    MPI_Request before = *request;
    MPI_Status local, *st = mpirr_status_or(status, &local);
    int rc = mpirr_replaying() ? mpirr_replay_wait(request, st) : PMPI_Wait(request, st);
    MPI_Comm comm = MPI_COMM_NULL;
    int raised = MPI_SUCCESS;
    if (mpirr_consumed_message(rc)) raised = tracked_completed(&call_, e, before, st, rc, &comm);
    return mpirr_raise(comm, rc, raised);
}

int mpirr_MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Test);
    if (!active()) return PMPI_Test(request, flag, status);
    tracked_request *e = mpirr_track_lookup(*request);
    MPI_Request before = *request;
    MPI_Status local, *st = mpirr_status_or(status, &local);
    int rc;
    if (mpirr_replaying()) {
        mpirr_record r;
        if (!take_outcome(&call_, MPIRR_REC_TEST_OK, &r)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        *flag = 1;
        rc = mpirr_replay_wait(request, st);
    } else {
        rc = PMPI_Test(request, flag, st);
        if (!mpirr_consumed_message(rc) || !*flag) return rc;
        mpirr_record_test_ok(&call_, NULL, 0, 0, NULL);
    }
    MPI_Comm comm = MPI_COMM_NULL;
    int raised = MPI_SUCCESS;
    if (e && mpirr_consumed_message(rc)) raised = tracked_completed(&call_, e, before, st, rc, &comm);
    return mpirr_raise(comm, rc, raised);
}

int mpirr_MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Request_get_status);
    if (!active()) return PMPI_Request_get_status(request, flag, status);
    if (mpirr_replaying()) {
        mpirr_record r;
        if (!take_outcome(&call_, MPIRR_REC_TEST_OK, &r)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        /* the recorded success: poll until the request is complete, without freeing it */
        return mpirr_replay_request_done(request, flag, status);
    }
    /* races mode: a receive found complete shows its data and count without its slot */
    tracked_request *e = mpirr_track_lookup(request);
    if (!e || !(e->flags & TRACK_HEADER) || !e->wire.slot) e = NULL;
    MPI_Status local, *st = e ? mpirr_status_or(status, &local) : status;
    int rc = PMPI_Request_get_status(request, flag, st);
    if (rc == MPI_SUCCESS && *flag) {
        mpirr_record_test_ok(&call_, NULL, 0, 0, NULL);
        if (e) mpirr_header_peek(&e->wire, st);
    }
    return rc;
}

/* Waitany and Testany share everything but blocking. */
static int any(const mpirr_call *c, int blocking, int count, MPI_Request reqs[], int *index,
               int *flag, MPI_Status *status)
{
    struct hits h;
    hits_find(&h, count, reqs);
    MPI_Status local, *st = mpirr_status_or(status, &local);
    int rc;
    *flag = 1;
    if (mpirr_replaying()) {
        mpirr_record r;
        if (!take_outcome(c, blocking ? MPIRR_REC_CHOICE : MPIRR_REC_TEST_OK, &r)) {
            if (blocking)
                mpirr_replay_expect(c, MPIRR_REC_CHOICE, "the index chosen by MPI_Waitany", &r);
            *flag = 0;
            *index = MPI_UNDEFINED;
            hits_free(&h);
            return MPI_SUCCESS;
        }
        if (r.count < 0) { /* no active request: the real call answers that deterministically */
            rc = blocking ? PMPI_Waitany(count, reqs, index, st)
                          : PMPI_Testany(count, reqs, index, flag, st);
        } else {
            if (r.count >= count)
                mpirr_diverged(c->event, "the recording chose request %d of %s, the program "
                                         "passed %d requests", r.count, mpirr_call_name(c->id), count);
            *index = r.count;
            rc = mpirr_replay_wait(&reqs[*index], st);
        }
    } else {
        int k = mpirr_flip_request(c->event, count, reqs);
        if (k >= 0) { /* replay --flip R:E=req:P: that request is the one that completed */
            rc = PMPI_Wait(&reqs[k], st);
            *index = k;
        } else {
            rc = blocking ? PMPI_Waitany(count, reqs, index, st) : PMPI_Testany(count, reqs, index, flag, st);
        }
        if (rc == MPI_SUCCESS && *flag) {
            if (blocking) mpirr_record_choice(c, *index, NULL);
            else mpirr_record_test_ok(c, NULL, 0, *index, NULL);
        }
    }
    if (mpirr_consumed_message(rc) && *flag && *index != MPI_UNDEFINED && h.n) {
        MPI_Status copy = *st; /* the user's status keeps its MPI_ERROR field untouched */
        copy.MPI_ERROR = rc;
        MPI_Comm failed = hits_completed(c, &h, 1, index, &copy, 0);
        copy.MPI_ERROR = st->MPI_ERROR; /* and gets the count without the slot */
        *st = copy;
        if (failed != MPI_COMM_NULL) rc = mpirr_raise(failed, rc, MPI_ERR_TRUNCATE);
    }
    hits_free(&h);
    return rc;
}

int mpirr_MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Waitany);
    if (!active()) return PMPI_Waitany(count, array_of_requests, index, status);
    int flag;
    return any(&call_, 1, count, array_of_requests, index, &flag, status);
}

int mpirr_MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                      MPI_Status *status)
{
    MPIRR_BEGIN(MPI_Testany);
    if (!active()) return PMPI_Testany(count, array_of_requests, index, flag, status);
    return any(&call_, 0, count, array_of_requests, index, flag, status);
}

/* Waitall and Testall. */
static int all(const mpirr_call *c, int blocking, int count, MPI_Request reqs[], int *flag,
               MPI_Status *statuses)
{
    struct hits h;
    hits_find(&h, count, reqs);
    MPI_Status small[8];
    MPI_Status *sts = h.n ? statuses_or(statuses, count, small, 8) : statuses;
    int rc;
    *flag = 1;
    if (mpirr_replaying() && !blocking) {
        mpirr_record r;
        if (!take_outcome(c, MPIRR_REC_TEST_OK, &r)) {
            *flag = 0;
            hits_free(&h);
            return MPI_SUCCESS;
        }
        rc = mpirr_replay_waitall(count, reqs, sts);
    } else {
        /* A replayed Waitall polls (replay_wait.c) only for the wildcard receives it forces,
         * whose messages it awaits; other requests (persistent collectives, one-sided, I/O:
         * MPICH 4.0's Testall fails on persistent collectives started in different orders on
         * different ranks) keep the program's own blocking call: a replay calls no MPI path
         * the program did not where that path may behave differently. */
        rc = blocking ? (mpirr_replaying() && h.n ? mpirr_replay_waitall(count, reqs, sts)
                                                  : PMPI_Waitall(count, reqs, sts))
                      : PMPI_Testall(count, reqs, flag, sts);
        if (!blocking && rc == MPI_SUCCESS && *flag && mpirr_recording())
            mpirr_record_test_ok(c, NULL, 0, 0, NULL);
    }
    if (h.n && *flag && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)) {
        if (rc == MPI_SUCCESS) mark_ok(sts, count);
        rc = failed_in_status(rc, hits_completed(c, &h, 0, NULL, sts, 1));
    }
    if (h.n) statuses_done(sts, statuses, small);
    hits_free(&h);
    return rc;
}

int mpirr_MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    MPIRR_BEGIN(MPI_Waitall);
    if (!active()) return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    int flag;
    return all(&call_, 1, count, array_of_requests, &flag, array_of_statuses);
}

int mpirr_MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                      MPI_Status array_of_statuses[])
{
    MPIRR_BEGIN(MPI_Testall);
    if (!active()) return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    return all(&call_, 0, count, array_of_requests, flag, array_of_statuses);
}

/* Waitsome and Testsome. */
static int some(const mpirr_call *c, int blocking, int incount, MPI_Request reqs[],
                int *outcount, int indices[], MPI_Status *statuses)
{
    struct hits h;
    hits_find(&h, incount, reqs);
    MPI_Status small[8];
    MPI_Status *sts = h.n ? statuses_or(statuses, incount, small, 8) : statuses;
    int rc;
    if (mpirr_replaying()) {
        mpirr_record r;
        unsigned kind = blocking ? MPIRR_REC_CHOICE : MPIRR_REC_TEST_OK;
        if (!take_outcome(c, kind, &r)) {
            if (blocking) mpirr_replay_expect(c, kind, "the set chosen by MPI_Waitsome", &r);
            *outcount = 0;
            hits_free(&h);
            return MPI_SUCCESS;
        }
        if (r.count < 0) /* no active request: deterministic */
            rc = blocking ? PMPI_Waitsome(incount, reqs, outcount, indices, sts)
                          : PMPI_Testsome(incount, reqs, outcount, indices, sts);
        else
            rc = replay_some(c, &r, reqs, incount, outcount, indices, sts);
    } else {
        int k = mpirr_flip_request(c->event, incount, reqs);
        if (k >= 0) { /* replay --flip R:E=req:P: that request alone completed */
            rc = PMPI_Wait(&reqs[k], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[0]);
            *outcount = 1;
            indices[0] = k;
        } else {
            rc = blocking ? PMPI_Waitsome(incount, reqs, outcount, indices, sts)
                          : PMPI_Testsome(incount, reqs, outcount, indices, sts);
        }
        if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != 0) {
            if (blocking) mpirr_record_choice(c, *outcount, indices);
            else mpirr_record_test_ok(c, NULL, 0, *outcount, indices);
        }
    }
    if (h.n && *outcount > 0 && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)) {
        if (rc == MPI_SUCCESS) mark_ok(sts, *outcount);
        rc = failed_in_status(rc, hits_completed(c, &h, *outcount, indices, sts, 0));
    }
    if (h.n) statuses_done(sts, statuses, small);
    hits_free(&h);
    return rc;
}

int mpirr_MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                       int array_of_indices[], MPI_Status array_of_statuses[])
{
    MPIRR_BEGIN(MPI_Waitsome);
    if (!active())
        return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return some(&call_, 1, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int mpirr_MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                       int array_of_indices[], MPI_Status array_of_statuses[])
{
    MPIRR_BEGIN(MPI_Testsome);
    if (!active())
        return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return some(&call_, 0, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}
