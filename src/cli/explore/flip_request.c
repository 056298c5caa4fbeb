/* flip_request.c: `replay --flip R:E=req:P`: which completed request MPI_Waitany, MPI_Testany,
 * MPI_Waitsome or MPI_Testsome at rank R's event E returns - the request posted at R's event
 * P instead of the one(s) the recording has. The runtime waits for that request alone at E
 * (src/runtime/completion.c) and reports it as the one completed (for a Waitsome that returned
 * several, it may be one of them, returned alone). Legal when request P can
 * complete at E whatever comes after the cut (docs/explore.md, "Which request Waitany
 * returns"): it is pending at E, and its message's send (a receive request) or receive (a
 * send request) is posted in a past that does not hold E; the cut includes that past. */
#include <inttypes.h>
#include <stdio.h>

#include "call_ids.h"
#include "diag.h"
#include "flip.h"

int flip_is_any_call(unsigned id)
{
    return id == MPIRR_ID_MPI_Waitany || id == MPIRR_ID_MPI_Testany ||
           id == MPIRR_ID_MPI_Waitsome || id == MPIRR_ID_MPI_Testsome;
}

unsigned flip_any_call(const an_run *run, int rank, uint64_t event)
{
    const an_rank *rk = &run->ranks[rank];
    for (size_t i = 0; i < rk->nops; i++)
        if (rk->ops[i].done == event && rk->ops[i].post < event && flip_is_any_call(rk->ops[i].done_call))
            return rk->ops[i].done_call;
    return 0;
}

const char *flip_request_unforceable(const an_run *run, int rank, uint64_t event, uint32_t k,
                                     int ndone, int *q0, uint64_t *e0)
{
    const an_op *o = &run->ranks[rank].ops[k];
    if (o->kind != AN_SEND && o->kind != AN_RECV)
        return "that call posted no point-to-point request";
    if (o->done == event && ndone < 2)
        return "the call returned that request (alone) in the recording already";
    if (o->post >= event || (o->done && o->done < event))
        return "that request is not pending there (posted after it, or completed before)";
    if (!o->done || o->msg == AN_NIL)
        return "that request never completed in the recording (nothing proves it can)";
    const an_msg *m = &run->msgs[o->msg];
    if (o->kind == AN_RECV) {
        *q0 = (int)m->sender;
        *e0 = run->ranks[m->sender].ops[m->send_op].post;
    } else {
        if (m->recv_op == AN_NIL) return "its message was never received in the recording";
        *q0 = (int)m->receiver;
        *e0 = run->ranks[m->receiver].ops[m->recv_op].post;
    }
    return NULL;
}

int flip_request_check(an_run *run, const struct recording *parent, const char *spec,
                       struct flip *f, uint64_t *cut)
{
    f->call = flip_any_call(run, f->rank, f->event);
    if (!f->call) {
        cli_error("replay --flip %s: rank %d's event %" PRIu64 " in %s is not an MPI_Waitany, "
                  "MPI_Testany, MPI_Waitsome or MPI_Testsome that completed a request",
                  spec, f->rank, f->event, parent->name);
        return CLI_EXIT_USAGE;
    }
    const an_rank *rk = &run->ranks[f->rank];
    uint32_t k = AN_NIL;
    int ndone = 0; /* requests the call returned: a Waitsome could have returned one alone */
    for (size_t i = 0; i < rk->nops; i++) {
        if (rk->ops[i].post == f->req_post && k == AN_NIL) k = (uint32_t)i;
        if (rk->ops[i].done == f->event && !ndone++) f->taken_req = rk->ops[i].post;
    }
    int q0 = 0;
    uint64_t e0 = 0;
    const char *why = k == AN_NIL ? "that event posted no request"
                                  : flip_request_unforceable(run, f->rank, f->event, k, ndone, &q0, &e0);
    if (why) {
        cli_error("replay --flip %s: %s at rank %d's event %" PRIu64 " cannot return the request "
                  "posted at its event %" PRIu64 ": %s", spec, mpirr_call_name(f->call), f->rank,
                  f->event, f->req_post, why);
        return CLI_EXIT_USAGE;
    }
    int rc = flip_cut(run, f, q0, e0, spec, cut);
    if (rc < 0) {
        cli_error("replay --flip %s: the request posted at rank %d's event %" PRIu64 " cannot "
                  "complete at its event %" PRIu64 ": its message's %s (rank %d's event %" PRIu64
                  ") happens only after that event", spec, f->rank, f->req_post, f->event,
                  rk->ops[k].kind == AN_RECV ? "send" : "receive", q0, e0);
        return CLI_EXIT_USAGE;
    }
    return rc;
}
