/* trace_load.c: reads every rank's event history into the run model: one an_op per message
 * sent, receive, successful probe and collective, with world ranks and run-wide
 * communicators; requests are followed through their slots from the call that made them to
 * the call that completed them, persistent ones through every Start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "call_ids.h"
#include "call_roles.h"
#include "comm_ids.h"
#include "event_trace.h"
#include "manifest.h"
#include "reserve.h"
#include "rma_load.h"
#include "spill.h"

/* A request slot: the op it stands for now, or a persistent request's template. */
struct slot {
    uint32_t op;       /* active op, AN_NIL if none */
    int persistent;
    an_op tmpl;        /* persistent: what each Start posts */
};

struct loader {
    an_run *run;
    comm_ids ids;
    rma_load rma;
    struct slot *slots;
    uint32_t nslots;
    uint64_t records;  /* records of the current rank read so far */
    char bad[256];     /* why the current rank's history is inconsistent */
};

/* Ids a history defines are numbered densely from 0 as it goes (communicators after WORLD
 * and SELF, call sites, request slots), so none can exceed the records read so far: a larger
 * one is damage, and bounding it keeps a crafted id from sizing an array. */
static int id_plausible(const struct loader *L, uint64_t id) { return id <= L->records + 2; }

/* Every request slot a call record names (made, freed, completed, started) is plausible. */
static int slots_plausible(const struct loader *L, const mpirr_event *e)
{
    if ((e->fields & MPIRR_EVF_REQ) && !id_plausible(L, e->req)) return 0;
    for (uint32_t i = 0; i < e->nitems; i++)
        if (!(e->items[i].flags & MPIRR_EVI_UNKNOWN) && !id_plausible(L, e->items[i].slot)) return 0;
    return 1;
}

/* A communicator's members are world ranks of this run. */
static int members_plausible(const an_run *run, const mpirr_event *e)
{
    for (uint32_t i = 0; i < e->nranks + e->nremote; i++)
        if (e->ranks[i] < 0 || e->ranks[i] >= run->nranks) return 0;
    return 1;
}

int32_t an_world_peer(const an_rank *rk, uint32_t lc, int32_t r)
{
    if (r == MPIRR_EV_ANY) return AN_ANY;
    if (r < 0 || lc >= rk->ncomm_of) return AN_NONE;
    const an_comm *c = &rk->lcomm[lc];
    if (c->nremote) return (uint32_t)r < c->nremote ? c->world[c->size + (uint32_t)r] : AN_NONE;
    return (uint32_t)r < c->size ? c->world[r] : AN_NONE;
}

static int32_t world_member(const an_rank *rk, uint32_t lc, int32_t r)
{
    if (r < 0 || lc >= rk->ncomm_of || (uint32_t)r >= rk->lcomm[lc].size) return AN_NONE;
    return rk->lcomm[lc].world[r];
}

an_op *an_new_op(an_rank *rk)
{
    if (an_spill_reserve(rk->spill, (void **)&rk->ops, &rk->cap, rk->nops + 1, sizeof *rk->ops))
        return NULL;
    an_op *o = &rk->ops[rk->nops++];
    memset(o, 0, sizeof *o);
    o->msg = AN_NIL;
    o->msrc = AN_NONE;
    o->mtag = AN_NONE;
    return o;
}

static uint32_t global_comm(const an_rank *rk, uint32_t lc)
{
    return lc < rk->ncomm_of ? rk->comm_of[lc] : AN_NIL;
}

/* An op of call record e on e's communicator; NULL if the communicator is unknown. */
static an_op *op_of(an_rank *rk, const mpirr_event *e, enum an_kind kind)
{
    uint32_t c = global_comm(rk, e->comm);
    if (c == AN_NIL) return NULL;
    an_op *o = an_new_op(rk);
    if (!o) return NULL;
    o->post = e->event;
    o->done = e->event;
    o->comm = c;
    o->lcomm = e->comm;
    o->site = e->site;
    o->call = (uint16_t)e->kind;
    o->kind = (uint8_t)kind;
    return o;
}

static void set_match(const an_rank *rk, an_op *o, int32_t src, int32_t tag)
{
    o->msrc = an_world_peer(rk, o->lcomm, src);
    o->mtag = tag;
}

static an_op *p2p(an_rank *rk, const mpirr_event *e, enum an_kind kind, int32_t peer, int32_t tag)
{
    int32_t w = an_world_peer(rk, e->comm, peer);
    if (w == AN_NONE) return NULL; /* MPI_PROC_NULL: no message */
    an_op *o = op_of(rk, e, kind);
    if (!o) return NULL;
    o->peer = w;
    o->tag = tag;
    if (kind != AN_SEND && (e->fields & MPIRR_EVF_MATCH)) set_match(rk, o, e->src, e->mtag);
    return o;
}

static struct slot *slot_at(struct loader *L, uint32_t s)
{
    if (s == UINT32_MAX) return NULL;
    if (s >= L->nslots) {
        uint32_t n = L->nslots ? L->nslots : 64;
        while (n <= s) n *= 2;
        struct slot *p = realloc(L->slots, n * sizeof *p);
        if (!p) return NULL;
        for (uint32_t i = L->nslots; i < n; i++) p[i] = (struct slot){.op = AN_NIL};
        L->slots = p;
        L->nslots = n;
    }
    return &L->slots[s];
}

/* The call made request slot e->req: remember which op (or template) it stands for. */
static void slot_made(struct loader *L, an_rank *rk, const mpirr_event *e, an_op *o, int persistent)
{
    if (!(e->fields & MPIRR_EVF_REQ)) return;
    struct slot *s = slot_at(L, e->req);
    if (!s) return;
    s->persistent = persistent;
    s->op = AN_NIL;
    if (!o) return;
    if (persistent) {
        s->tmpl = *o;
        rk->nops--; /* the template posts nothing until started */
    } else {
        s->op = (uint32_t)(o - rk->ops);
    }
}

static void completed(struct loader *L, an_rank *rk, const mpirr_event *e)
{
    for (uint32_t i = 0; i < e->nitems; i++) {
        const mpirr_ev_item *it = &e->items[i];
        struct slot *s = it->flags & MPIRR_EVI_UNKNOWN ? NULL : slot_at(L, it->slot);
        if (!s || s->op == AN_NIL) continue;
        an_op *o = &rk->ops[s->op];
        if (o->done == 0) { /* the first completion (Request_get_status does not free) */
            o->done = e->event;
            o->done_call = (uint16_t)e->kind;
            if (it->flags & MPIRR_EVI_CANCELLED) o->kind = AN_VOID;
            else if ((it->flags & MPIRR_EVI_RECV) && o->kind == AN_RECV)
                set_match(rk, o, it->src, it->tag);
        }
        if (!s->persistent && e->kind != MPIRR_ID_MPI_Request_get_status) s->op = AN_NIL;
    }
}

static void started(struct loader *L, an_rank *rk, const mpirr_event *e)
{
    for (uint32_t i = 0; i < e->nitems; i++) {
        struct slot *s = slot_at(L, e->items[i].slot);
        if (!s || !s->persistent) continue;
        an_op *o = an_new_op(rk);
        if (!o) return;
        *o = s->tmpl;
        o->post = e->event;
        o->done = 0;
        s->op = (uint32_t)(o - rk->ops);
    }
}

static an_op *collective(an_rank *rk, const mpirr_event *e, int rooted)
{
    an_op *o = op_of(rk, e, AN_COLL);
    if (!o) return NULL;
    o->flow = (uint8_t)call_flow(e->kind);
    o->peer = rooted && (e->fields & MPIRR_EVF_ROOT) ? world_member(rk, e->comm, e->root) : AN_NONE;
    if (o->flow != AN_FLOW_ALL && o->flow != AN_FLOW_PREFIX && o->flow != AN_FLOW_XPREFIX &&
        o->peer == AN_NONE)
        o->flow = AN_FLOW_ALL; /* inter-communicator roots: order everything (see docs) */
    return o;
}

/* -1: out of memory (only one-sided calls tell so far: see rma_load_record). */
static int call_record(struct loader *L, an_rank *rk, const mpirr_event *e)
{
    an_op *o;
    if (e->fields & MPIRR_EVF_RMA) return rma_load_record(&L->rma, L->run, rk, e);
    switch (call_role(e->kind)) {
    case ROLE_SEND:
        p2p(rk, e, AN_SEND, e->peer, e->tag);
        break;
    case ROLE_ISEND:
        o = p2p(rk, e, AN_SEND, e->peer, e->tag);
        if (o) o->done = 0;
        slot_made(L, rk, e, o, 0);
        break;
    case ROLE_PSEND:
        slot_made(L, rk, e, p2p(rk, e, AN_SEND, e->peer, e->tag), 1);
        break;
    case ROLE_RECV:
        p2p(rk, e, AN_RECV, e->peer, e->tag);
        break;
    case ROLE_IRECV:
        o = p2p(rk, e, AN_RECV, e->peer, e->tag);
        if (o) o->done = 0;
        slot_made(L, rk, e, o, 0);
        break;
    case ROLE_PRECV:
        slot_made(L, rk, e, p2p(rk, e, AN_RECV, e->peer, e->tag), 1);
        break;
    case ROLE_SENDRECV:
        p2p(rk, e, AN_SEND, e->peer, e->tag);
        p2p(rk, e, AN_RECV, e->rpeer, e->rtag);
        break;
    case ROLE_ISENDRECV: /* the send posted now; the receive is the request's (its match
                          * comes with the completion) */
        p2p(rk, e, AN_SEND, e->peer, e->tag);
        o = p2p(rk, e, AN_RECV, e->rpeer, e->rtag);
        if (o) o->done = 0;
        slot_made(L, rk, e, o, 0);
        break;
    case ROLE_PROBE:
    case ROLE_IPROBE:
        if (e->fields & MPIRR_EVF_MATCH)
            p2p(rk, e, call_consumes_on_probe(e->kind) ? AN_RECV : AN_PROBE, e->peer, e->tag);
        break;
    case ROLE_IMRECV:
        slot_made(L, rk, e, NULL, 0); /* the message was matched by its Mprobe */
        break;
    case ROLE_WAIT: case ROLE_TEST: case ROLE_GETSTATUS: case ROLE_WAITANY: case ROLE_TESTANY:
    case ROLE_WAITALL: case ROLE_TESTALL: case ROLE_WAITSOME:
        if (e->fields & MPIRR_EVF_DONE) completed(L, rk, e);
        break;
    case ROLE_START: case ROLE_STARTALL:
        if (e->fields & MPIRR_EVF_START) started(L, rk, e);
        break;
    case ROLE_FREE:
        if (e->fields & MPIRR_EVF_REQ) {
            struct slot *s = slot_at(L, e->req);
            if (s) *s = (struct slot){.op = AN_NIL};
        }
        break;
    case ROLE_COLL:
        collective(rk, e, 0);
        break;
    case ROLE_RCOLL:
        collective(rk, e, 1);
        break;
    case ROLE_ICOLL:
    case ROLE_IRCOLL:
    case ROLE_COMM_IDUP:
        o = collective(rk, e, call_role(e->kind) == ROLE_IRCOLL);
        if (o) o->done = 0;
        slot_made(L, rk, e, o, 0);
        break;
    case ROLE_COMM_NEW: /* collective over the parent: members learn each other's state */
        collective(rk, e, 0);
        break;
    default:
        break;
    }
    return 0;
}

/* 0, -1 out of memory, 1 inconsistent (L->bad says why). */
static int meta_record(struct loader *L, an_rank *rk, int rank, const mpirr_event *e)
{
    if (e->kind == MPIRR_EVK_COMM) {
        if (!id_plausible(L, e->comm)) {
            snprintf(L->bad, sizeof L->bad, "communicator id %u out of range", e->comm);
            return 1;
        }
        if (!members_plausible(L->run, e)) {
            snprintf(L->bad, sizeof L->bad, "communicator %u has a member outside world ranks 0..%d",
                     e->comm, L->run->nranks - 1);
            return 1;
        }
        return comm_ids_define(&L->ids, L->run, rank, e);
    }
    if (e->kind == MPIRR_EVK_SITE && !id_plausible(L, e->site)) {
        snprintf(L->bad, sizeof L->bad, "call site %u out of range", e->site);
        return 1;
    }
    if (e->kind == MPIRR_EVK_SITE) {
        if (e->site >= rk->nsites) {
            uint32_t n = rk->nsites ? rk->nsites : 16;
            while (n <= e->site) n *= 2;
            uint64_t *a = realloc(rk->site_addr, n * sizeof *a);
            if (!a) return -1;
            memset(a + rk->nsites, 0, (n - rk->nsites) * sizeof *a);
            rk->site_addr = a;
            rk->nsites = n;
        }
        rk->site_addr[e->site] = e->addr;
    } else if (e->kind == MPIRR_EVK_MODULE) {
        an_module *m = realloc(rk->mods, (rk->nmods + 1) * sizeof *m);
        if (!m) return -1;
        rk->mods = m;
        m[rk->nmods] = (an_module){strdup(e->path ? e->path : "?"), e->addr, e->addr + e->got,
                                   e->addr + e->bytes};
        if (!m[rk->nmods].path) return -1;
        rk->nmods++;
    }
    return 0;
}

static int by_post(const void *a, const void *b)
{
    const an_op *x = a, *y = b;
    return x->post < y->post ? -1 : x->post > y->post;
}

/* Threads may emit records out of event order; analyses want post order (stable: a
 * Sendrecv's send stays before its receive). Only sorts when needed. */
static void order_ops(an_rank *rk)
{
    for (size_t i = 1; i < rk->nops; i++) {
        if (rk->ops[i].post >= rk->ops[i - 1].post) continue;
        /* insertion sort from here: out-of-order records are few and close to their place */
        for (size_t j = i; j < rk->nops; j++) {
            an_op t = rk->ops[j];
            size_t k = j;
            while (k > 0 && by_post(&rk->ops[k - 1], &t) > 0) {
                rk->ops[k] = rk->ops[k - 1];
                k--;
            }
            rk->ops[k] = t;
        }
        return;
    }
}

static int load_rank(struct loader *L, int rank, char *err, size_t errlen)
{
    an_rank *rk = &L->run->ranks[rank];
    mpirr_ev_reader *r = mpirr_evr_open(L->run->dir, rank, err, errlen);
    if (!r) {
        if (rank == 0) return -1; /* most likely no history at all */
        rk->damage = strdup(err); /* the others are analysed without this rank's calls */
        return 0;
    }
    /* every rank of one run knows the same rank count: another is a history from elsewhere,
     * and its world ranks would index past this run's ranks */
    if (mpirr_evr_info(r)->nranks != L->run->nranks) {
        char path[4200];
        mpirr_ev_path(path, sizeof path, L->run->dir, rank, 0);
        snprintf(err, errlen, "%s: the history of a %d-rank run, expected %d ranks", path,
                 mpirr_evr_info(r)->nranks, L->run->nranks);
        mpirr_evr_close(r);
        return -1;
    }
    L->nslots = 0;
    free(L->slots);
    L->slots = NULL;
    L->records = 0;
    L->bad[0] = 0;
    mpirr_event e;
    int got, rc = 0;
    while ((got = mpirr_evr_next(r, &e)) == 1) {
        L->records++;
        if (!mpirr_ev_is_call(e.kind)) {
            rc = meta_record(L, rk, rank, &e);
            if (rc < 0) {
                snprintf(err, errlen, "out of memory reading rank %d's event history", rank);
                break;
            }
            if (rc > 0) break;
            continue;
        }
        if (!slots_plausible(L, &e)) {
            snprintf(L->bad, sizeof L->bad, "request slot out of range");
            rc = 1;
            break;
        }
        /* a rank's windows are numbered by their creating records */
        if ((e.fields & MPIRR_EVF_RMA) && !id_plausible(L, e.win)) {
            snprintf(L->bad, sizeof L->bad, "window id %u out of range", e.win);
            rc = 1;
            break;
        }
        L->run->events++;
        if (e.event > rk->events) rk->events = e.event;
        if (call_record(L, rk, &e)) {
            snprintf(err, errlen, "out of memory reading rank %d's event history at event %llu (%s)", rank,
                     (unsigned long long)e.event, mpirr_call_name(e.kind));
            rc = -1;
            break;
        }
    }
    if (rc > 0) { /* inconsistent: analysed up to here, like damage the reader finds */
        char path[4200], msg[4600];
        mpirr_ev_path(path, sizeof path, L->run->dir, rank, 0);
        snprintf(msg, sizeof msg, "%s: rank %d: %s after event %llu", path, rank, L->bad,
                 (unsigned long long)rk->events);
        rk->damage = strdup(msg);
        rc = 0;
    } else if (got < 0) rk->damage = strdup(mpirr_evr_error(r));
    else if (mpirr_evr_clean(r)) rk->clean = 1;
    mpirr_evr_close(r);
    order_ops(rk);
    return rc;
}

/* Numbers each rank's collectives per communicator: the k-th on a communicator is the same
 * collective on every member (MPI orders them so). */
static int number_collectives(an_run *run)
{
    uint32_t *next = calloc(run->ncomms ? run->ncomms : 1, sizeof *next);
    if (!next) return -1;
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        memset(next, 0, (run->ncomms ? run->ncomms : 1) * sizeof *next);
        for (size_t i = 0; i < rk->nops; i++)
            if (rk->ops[i].kind == AN_COLL) rk->ops[i].coll = next[rk->ops[i].comm]++;
    }
    free(next);
    return 0;
}

an_run *an_load(const char *dir, int nranks, char *err, size_t errlen)
{
    return an_load_ranks(dir, nranks, 0, -1, err, errlen);
}

an_run *an_load_ranks(const char *dir, int nranks, int lo, int hi, char *err, size_t errlen)
{
    if (nranks <= 0) {
        mpirr_ev_reader *r = mpirr_evr_open(dir, 0, err, errlen);
        if (!r) return NULL;
        nranks = mpirr_evr_info(r)->nranks;
        mpirr_evr_close(r);
        if (nranks <= 0 || nranks > MPIRR_MAX_RANKS) {
            snprintf(err, errlen, "%s: rank 0's event history gives an impossible rank count (%d)",
                     dir, nranks);
            return NULL;
        }
    }
    an_run *run = calloc(1, sizeof *run);
    if (!run || !(run->ranks = calloc((size_t)nranks, sizeof *run->ranks))) {
        free(run);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    run->nranks = nranks;
    run->spill = an_spill_open();
    for (int p = 0; p < nranks; p++) run->ranks[p].spill = run->spill;
    snprintf(run->dir, sizeof run->dir, "%s", dir);
    struct loader L = {.run = run};
    int rc = 0;
    if (hi < 0 || hi > nranks) hi = nranks;
    for (int p = lo < 0 ? 0 : lo; p < hi && !rc; p++) rc = load_rank(&L, p, err, errlen);
    free(L.slots);
    comm_ids_free(&L.ids);
    rma_load_free(&L.rma);
    if (!rc && number_collectives(run)) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc) {
        an_free(run);
        return NULL;
    }
    return run;
}

void an_free(an_run *run)
{
    if (!run) return;
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        an_spill_free(run->spill, rk->ops);
        free(rk->site_addr);
        for (uint32_t i = 0; i < rk->nmods; i++) free(rk->mods[i].path);
        free(rk->mods);
        for (uint32_t i = 0; i < rk->ncomm_of; i++) free(rk->lcomm[i].world);
        free(rk->lcomm);
        free(rk->comm_of);
        free(rk->damage);
        free(rk->acc);
        free(rk->win_of);
    }
    for (uint32_t i = 0; i < run->ncomms; i++) free(run->comms[i].world);
    free(run->comms);
    free(run->comm_keys);
    free(run->ranks);
    an_spill_free(run->spill, run->msgs);
    an_spill_close(run->spill);
    free(run);
}
