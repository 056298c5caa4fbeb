/* rma_load.c: one-sided calls into the run model (rma_load.h). */
#include "rma_load.h"

#include <stdlib.h>
#include <string.h>

#include "comm_ids.h"
#include "reserve.h"
#include "rma_fields.h"

static int rank_of(const an_run *run, const an_rank *rk) { return (int)(rk - run->ranks); }

/* The creating call: the window gets its run-wide communicator. */
static int define(rma_load *R, an_run *run, an_rank *rk, const mpirr_event *e)
{
    if (!(e->fields & MPIRR_EVF_COMM) || e->comm >= rk->ncomm_of || rk->comm_of[e->comm] == AN_NIL)
        return 0;
    uint32_t comm = rk->comm_of[e->comm];
    if (e->win >= rk->nwin_of) {
        uint32_t n = rk->nwin_of ? rk->nwin_of : 4;
        while (n <= e->win) n *= 2;
        uint32_t *w = realloc(rk->win_of, n * sizeof *w);
        if (!w) return -1;
        for (uint32_t i = rk->nwin_of; i < n; i++) w[i] = AN_NIL;
        rk->win_of = w;
        rk->nwin_of = n;
    }
    uint64_t *ord = u64_map_slot(&R->made, u64_mix(u64_mix(3, (uint64_t)rank_of(run, rk)), comm), 0, NULL);
    if (!ord) return -1;
    int added;
    uint64_t k = (*ord)++;
    uint64_t *win = u64_map_slot(&R->wins, u64_mix(u64_mix(4, comm), k), 0, &added);
    if (!win) return -1;
    if (added) {
        uint32_t gid;
        if (comm_ids_copy(run, comm, k, &gid)) return -1;
        *win = gid;
    }
    rk->win_of[e->win] = (uint32_t)*win;
    return 0;
}

/* A synchronisation op on the window's communicator. */
static an_op *sync_op(an_rank *rk, const mpirr_event *e, uint32_t win, enum an_kind kind, int32_t peer,
                      int32_t tag)
{
    an_op *o = an_new_op(rk);
    if (!o) return NULL;
    o->post = o->done = e->event;
    o->comm = win;
    o->lcomm = AN_NIL;
    o->site = e->site;
    o->call = (uint16_t)e->kind;
    o->kind = (uint8_t)kind;
    o->peer = peer;
    o->tag = tag;
    o->flow = AN_FLOW_ALL;
    if (kind == AN_RECV) {
        o->msrc = peer;
        o->mtag = tag;
    }
    return o;
}

/* Post/start: a message to (or from) each rank of the group; complete/wait: each rank of the
 * group the matching start/post named, which the rank's records give again (kept as the
 * last group of its kind: an epoch's group). */
static int group_msgs(an_run *run, an_rank *rk, const mpirr_event *e, uint32_t win, enum an_kind kind,
                      int32_t tag)
{
    for (uint32_t i = 0; i < e->nranks; i++) {
        if (e->ranks[i] < 0 || e->ranks[i] >= run->nranks) continue;
        if (!sync_op(rk, e, win, kind, e->ranks[i], tag)) return -1;
    }
    return 0;
}

/* The accesses of rk on win (to target, or any with AN_ANY) still in flight are complete. */
static void complete(an_rank *rk, uint32_t win, int32_t target, uint64_t event)
{
    for (size_t i = rk->acc_open; i < rk->nacc; i++) {
        an_access *a = &rk->acc[i];
        if (!a->done && a->win == win && (target == AN_ANY || a->target == target)) a->done = event;
    }
    while (rk->acc_open < rk->nacc && rk->acc[rk->acc_open].done) rk->acc_open++;
}

/* Complete or wait: one message of kind `end` on win to (from) each rank of the group that
 * opened the epoch, the last post (opened AN_SEND) or start (AN_RECV) of rk on win. */
static int epoch_end(an_rank *rk, const mpirr_event *e, uint32_t win, enum an_kind opened, enum an_kind end)
{
    for (size_t i = rk->nops; i-- > 0;) {
        const an_op *o = &rk->ops[i];
        if (o->comm != win || o->tag != AN_TAG_POST || o->kind != opened) continue;
        uint64_t at = o->post;
        for (size_t j = i + 1; j-- > 0 && rk->ops[j].post == at;)
            if (rk->ops[j].comm == win && rk->ops[j].tag == AN_TAG_POST && rk->ops[j].kind == opened &&
                !sync_op(rk, e, win, end, rk->ops[j].peer, AN_TAG_COMPLETE))
                return -1;
        break;
    }
    return 0;
}

static uint64_t lock_key(int rank, uint32_t win, int32_t target)
{
    return u64_mix(u64_mix(u64_mix(5, (uint64_t)rank), win), (uint64_t)(uint32_t)target);
}

static int access_(rma_load *R, an_run *run, an_rank *rk, const mpirr_event *e, uint32_t win)
{
    if (e->target < 0 || e->target >= run->nranks) return 0; /* MPI_PROC_NULL: no access */
    if (mpirr_reserve((void **)&rk->acc, &rk->capacc, rk->nacc + 1, sizeof *rk->acc)) return -1;
    an_access *a = &rk->acc[rk->nacc++];
    uint64_t len = e->span ? e->span : (e->fields & MPIRR_EVF_BYTES) ? e->bytes : 0;
    uint64_t lock = 0;
    u64_map_get(&R->locks, lock_key(rank_of(run, rk), win, e->target), &lock);
    *a = (an_access){.post = e->event, .lo = e->disp, .hi = e->disp + len, .win = win, .site = e->site,
                     .target = e->target, .kind = (uint8_t)e->rma, .op = (uint8_t)e->rma_op,
                     .type = (uint8_t)e->rma_type, .excl = lock == MPIRR_RMA_LOCK_EXCLUSIVE};
    return 0;
}

int rma_load_record(rma_load *R, an_run *run, an_rank *rk, const mpirr_event *e)
{
    if (e->rma == MPIRR_RMA_CREATE || e->rma == MPIRR_RMA_CREATE_DYNAMIC) return define(R, run, rk, e);
    uint32_t win = e->win < rk->nwin_of ? rk->win_of[e->win] : AN_NIL;
    if (win == AN_NIL) return 0; /* a window this history did not see created */
    int me = rank_of(run, rk);
    switch (e->rma) {
    case MPIRR_RMA_FENCE:
    case MPIRR_RMA_FREE: /* collective too, and completes what is left */
        complete(rk, win, AN_ANY, e->event);
        return sync_op(rk, e, win, AN_COLL, AN_NONE, 0) ? 0 : -1;
    case MPIRR_RMA_POST: return group_msgs(run, rk, e, win, AN_SEND, AN_TAG_POST);
    case MPIRR_RMA_START: return group_msgs(run, rk, e, win, AN_RECV, AN_TAG_POST);
    case MPIRR_RMA_COMPLETE: /* to every target the accesses since the start named */
        complete(rk, win, AN_ANY, e->event);
        return epoch_end(rk, e, win, AN_RECV, AN_SEND);
    case MPIRR_RMA_WAIT: /* from every origin the post named */
        return epoch_end(rk, e, win, AN_SEND, AN_RECV);
    case MPIRR_RMA_LOCK:
        if (e->target >= 0) return u64_map_put(&R->locks, lock_key(me, win, e->target), e->lock);
        return 0;
    case MPIRR_RMA_UNLOCK:
        complete(rk, win, e->target, e->event);
        u64_map_del(&R->locks, lock_key(me, win, e->target), NULL);
        return 0;
    case MPIRR_RMA_FLUSH:
        complete(rk, win, e->target, e->event);
        return 0;
    case MPIRR_RMA_UNLOCK_ALL:
    case MPIRR_RMA_FLUSH_ALL:
        complete(rk, win, AN_ANY, e->event);
        return 0;
    default:
        return mpirr_rma_is_access(e->rma) ? access_(R, run, rk, e, win) : 0;
    }
}

void rma_load_free(rma_load *R)
{
    u64_map_free(&R->made);
    u64_map_free(&R->wins);
    u64_map_free(&R->locks);
}
