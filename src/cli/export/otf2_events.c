/* otf2_events.c: the OTF2 event records of each MPI call, as Score-P writes them: Enter and
 * Leave of the call's region around MpiSend/MpiIsend (at the call), MpiRecv (at its end),
 * MpiIrecvRequest and the Isend/Irecv completions (MpiIsendComplete, MpiIrecv) at the call
 * that completed them, MpiCollectiveBegin/End around a blocking collective and
 * NonBlockingCollectiveRequest/Complete for the others. Peers are ranks in the communicator,
 * request ids the operation's index + 1 (unique per rank). */
#include <stdlib.h>
#include <string.h>

#include "call_roles.h"
#include "otf2_export.h"

uint32_t otf2_comm_rank(struct otf2_export *x, uint32_t comm, int32_t w)
{
    const an_run *run = x->a->run;
    if (comm >= run->ncomms || w < 0 || w >= run->nranks) return OTF2_UNDEFINED_UINT32;
    if (!x->local[comm]) {
        int32_t *m = malloc((size_t)run->nranks * sizeof *m);
        if (!m) return OTF2_UNDEFINED_UINT32;
        for (int i = 0; i < run->nranks; i++) m[i] = -1;
        const an_comm *c = &run->comms[comm];
        for (uint32_t i = c->size; i-- > 0;)
            if (c->world[i] >= 0 && c->world[i] < run->nranks) m[c->world[i]] = (int32_t)i;
        x->local[comm] = m;
    }
    int32_t r = x->local[comm][w];
    return r < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)r;
}

static const struct {
    const char *name; /* without MPI_ and a nonblocking call's I */
    OTF2_CollectiveOp op;
} coll_ops[] = {
    {"Barrier", OTF2_COLLECTIVE_OP_BARRIER}, {"Bcast", OTF2_COLLECTIVE_OP_BCAST},
    {"Gather", OTF2_COLLECTIVE_OP_GATHER}, {"Gatherv", OTF2_COLLECTIVE_OP_GATHERV},
    {"Scatter", OTF2_COLLECTIVE_OP_SCATTER}, {"Scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
    {"Allgather", OTF2_COLLECTIVE_OP_ALLGATHER}, {"Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
    {"Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL}, {"Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
    {"Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW}, {"Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
    {"Reduce", OTF2_COLLECTIVE_OP_REDUCE}, {"Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
    {"Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
    {"Scan", OTF2_COLLECTIVE_OP_SCAN}, {"Exscan", OTF2_COLLECTIVE_OP_EXSCAN},
};

/* The collective a call is; calls that make communicators (Comm_split, Comm_dup, ...) create
 * a handle. */
static OTF2_CollectiveOp coll_op(unsigned call)
{
    const char *n = mpirr_call_name(call);
    if (n && !strncmp(n, "MPI_", 4)) n += 4;
    enum call_role r = call_role(call);
    if (n && (r == ROLE_ICOLL || r == ROLE_IRCOLL) && *n == 'I') n++;
    for (size_t i = 0; n && i < sizeof coll_ops / sizeof coll_ops[0]; i++)
        if (!strcmp(n, coll_ops[i].name)) return coll_ops[i].op;
    return OTF2_COLLECTIVE_OP_CREATE_HANDLE;
}

/* The bytes a receive completed at c got: the call's own match, or the item of the request
 * that matched the same source and tag (the same for several such receives of one call). */
static uint64_t recv_bytes(const struct export_call *c, const an_rank *rk, const an_op *o)
{
    const mpirr_event *e = c->e;
    if (o->post == e->event && (e->fields & MPIRR_EVF_MATCH)) return e->got;
    for (uint32_t i = 0; i < e->nitems; i++) {
        const mpirr_ev_item *it = &e->items[i];
        if ((it->flags & MPIRR_EVI_RECV) && an_world_peer(rk, o->lcomm, it->src) == o->msrc &&
            it->tag == o->mtag)
            return it->got;
    }
    return 0;
}

/* A send's size is in the record of the call that made it (not in a Start's). */
static uint64_t send_bytes(const struct export_call *c, const an_op *o)
{
    const mpirr_event *e = c->e;
    return o->call == e->kind && (e->fields & MPIRR_EVF_BYTES) ? e->bytes : 0;
}

void otf2_note(struct otf2_export *x, OTF2_ErrorCode rc)
{
    if (rc != OTF2_SUCCESS && x->failed == OTF2_SUCCESS) x->failed = rc;
}

/* Records at the start of a call of an op it posted. */
static void posted(struct otf2_export *x, const struct export_call *c, const an_op *o, uint64_t id,
                   OTF2_TimeStamp t0)
{
    int blocking = o->done == o->post;
    if (o->kind == AN_SEND) {
        uint32_t to = otf2_comm_rank(x, o->comm, o->peer);
        if (to == OTF2_UNDEFINED_UINT32) return;
        otf2_note(x, blocking ? OTF2_EvtWriter_MpiSend(x->w, NULL, t0, to, o->comm, (uint32_t)o->tag,
                                                  send_bytes(c, o))
                         : OTF2_EvtWriter_MpiIsend(x->w, NULL, t0, to, o->comm, (uint32_t)o->tag,
                                                   send_bytes(c, o), id));
    } else if (o->kind == AN_RECV && !blocking) {
        otf2_note(x, OTF2_EvtWriter_MpiIrecvRequest(x->w, NULL, t0, id));
    } else if (o->kind == AN_COLL) {
        otf2_note(x, blocking ? OTF2_EvtWriter_MpiCollectiveBegin(x->w, NULL, t0)
                         : OTF2_EvtWriter_NonBlockingCollectiveRequest(x->w, NULL, t0, id));
    } /* probes see a message without taking it; a cancelled request has none */
}

/* The end of a collective: blocking at its own call, nonblocking at its completion. */
static void coll_end(struct otf2_export *x, const struct export_call *c, const an_op *o,
                     uint64_t id, OTF2_TimeStamp t1)
{
    uint32_t root = o->peer >= 0 ? otf2_comm_rank(x, o->comm, o->peer) : OTF2_UNDEFINED_UINT32;
    uint64_t sent = o->post == c->e->event ? send_bytes(c, o) : 0;
    if (o->done == o->post)
        otf2_note(x, OTF2_EvtWriter_MpiCollectiveEnd(x->w, NULL, t1, coll_op(o->call), o->comm, root, sent, 0));
    else
        otf2_note(x, OTF2_EvtWriter_NonBlockingCollectiveComplete(x->w, NULL, t1, coll_op(o->call), o->comm,
                                                             root, 0, 0, id));
}

/* Records at the end of a call of an op that ends there: a blocking one it posted, or one
 * posted earlier that it completed. */
static void completed(struct otf2_export *x, const struct export_call *c, const an_op *o,
                      uint64_t id, OTF2_TimeStamp t1)
{
    const an_rank *rk = &x->a->run->ranks[c->rank];
    int blocking = o->done == o->post;
    if (o->kind == AN_SEND && !blocking) {
        otf2_note(x, OTF2_EvtWriter_MpiIsendComplete(x->w, NULL, t1, id));
    } else if (o->kind == AN_RECV) {
        uint32_t from = otf2_comm_rank(x, o->comm, o->msrc);
        if (from == OTF2_UNDEFINED_UINT32) return;
        uint64_t n = recv_bytes(c, rk, o);
        otf2_note(x, blocking ? OTF2_EvtWriter_MpiRecv(x->w, NULL, t1, from, o->comm, (uint32_t)o->mtag, n)
                         : OTF2_EvtWriter_MpiIrecv(x->w, NULL, t1, from, o->comm, (uint32_t)o->mtag,
                                                   n, id));
    } else if (o->kind == AN_COLL) {
        coll_end(x, c, o, id, t1);
    }
}

static int call(void *arg, const struct export_call *c)
{
    struct otf2_export *x = arg;
    const an_rank *rk = &x->a->run->ranks[c->rank];
    unsigned id = c->e->kind;
    if (!x->region_of[id]) {
        x->region_call[x->nregions] = (uint16_t)id;
        x->region_of[id] = ++x->nregions;
    }
    OTF2_RegionRef region = x->region_of[id] - 1;
    otf2_note(x, OTF2_EvtWriter_Enter(x->w, otf2_attrs_enter(x, c), c->begin_ns, region));
    for (uint32_t i = 0; i < c->nposted; i++)
        posted(x, c, &rk->ops[c->first_posted + i], c->first_posted + i + 1ull, c->begin_ns);
    for (uint32_t i = 0; i < c->nposted; i++) {
        const an_op *o = &rk->ops[c->first_posted + i];
        if (o->done == o->post) completed(x, c, o, c->first_posted + i + 1ull, c->end_ns);
    }
    for (uint32_t i = 0; i < c->ndone; i++)
        completed(x, c, &rk->ops[c->done[i]], c->done[i] + 1ull, c->end_ns);
    otf2_note(x, OTF2_EvtWriter_Leave(x->w, otf2_attrs_leave(x, c), c->end_ns, region));
    if (c->end_ns > x->trace_end) x->trace_end = c->end_ns;
    return x->failed != OTF2_SUCCESS;
}

static int rank_begin(void *arg, int rank)
{
    struct otf2_export *x = arg;
    x->w = OTF2_Archive_GetEvtWriter(x->archive, (OTF2_LocationRef)rank);
    if (!x->w || otf2_attrs_rank(x, rank)) otf2_note(x, OTF2_ERROR_MEM_ALLOC_FAILED);
    return x->failed != OTF2_SUCCESS;
}

/* Closing a rank's writer flushes and frees its buffers: one rank's chunk in memory at a time. */
static int rank_end(void *arg, int rank, uint64_t calls)
{
    struct otf2_export *x = arg;
    (void)calls;
    otf2_note(x, OTF2_EvtWriter_GetNumberOfEvents(x->w, &x->nevents[rank]));
    otf2_note(x, OTF2_Archive_CloseEvtWriter(x->archive, x->w));
    x->w = NULL;
    return x->failed != OTF2_SUCCESS;
}

const struct export_sink otf2_event_sink = {NULL, rank_begin, call, rank_end};
