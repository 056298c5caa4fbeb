/* happened_before.c: vector timestamps computed after the fact. The ranks' histories are
 * replayed in a causal order: a rank advances through its steps (sends and collective
 * contributions at the event that posted them, receives and collective results at the event
 * that completed them) until it needs a message or a collective result that is not there yet,
 * and waits for the rank that provides it. Entries are half-events, as in the runtime: 2e for
 * what event e sent, 2e+1 for what it received, so a Sendrecv's send does not appear to
 * follow its own receive. Memory: one vector per rank and per message in flight. The parallel
 * analysis sweeps a block of ranks per process with the same code (an_happened_before_part):
 * what crosses to another block goes out through its hooks, what comes in through
 * an_hb_deliver_msg and an_hb_deliver_coll. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "spill.h"
#include "u64_map.h"

enum step_type { STEP_POST = 0, STEP_DONE = 1 };

/* A step of a rank: (op << 1) | type. Its event is the op's post or done, so a step is 4
 * bytes: every rank's steps are resident for the whole sweep (about one per op). */
typedef uint32_t step;
#define STEP(op, type) ((uint32_t)(op) << 1 | (uint32_t)(type))
#define STEP_OP(st) ((st) >> 1)
#define STEP_TYPE(st) ((st) & 1u)
#define STEP_MAX_OPS (UINT32_MAX >> 1)

static uint64_t step_event(const an_op *ops, step st)
{
    return STEP_TYPE(st) == STEP_POST ? ops[STEP_OP(st)].post : ops[STEP_OP(st)].done;
}

/* A completion being sorted into place (build_steps). */
typedef struct done_step {
    uint64_t event;
    uint32_t op;
} done_step;

/* A collective instance: the k-th collective on a communicator. */
typedef struct inst {
    uint32_t comm, k;
    uint32_t posted, finished, n;
    uint32_t acc;        /* vector index: what its results carry */
    uint32_t *member;    /* prefix flows: each member's contribution (vector index or AN_NIL) */
    uint32_t nlocal;     /* members swept here (a block's, in the parallel analysis) */
    int root_posted;
    int waiters;         /* head of the list of ranks waiting (-1) */
} inst;

typedef struct an_hb_sweep {
    an_run *run;
    const an_hb_observer *obs;
    const an_hb_part *part; /* NULL: every rank here */
    int lo, hi;          /* the ranks swept here */
    u64_map arrived;     /* part: message -> its vector, arrived and not yet received */
    int n;
    uint64_t *vecs;      /* pool of vectors of n entries */
    uint32_t nvecs, capvecs, *freevec, nfree, capfree;
    uint64_t **vc;       /* each rank's current vector (not in the pool: it never moves) */
    step **steps;
    size_t *nsteps, *at;
    uint32_t *msg_vec;   /* message -> vector index while in flight, AN_NIL otherwise */
    uint8_t *msg_sent;
    u64_map insts;
    inst *inst;
    uint32_t ninst, capinst;
    int *next_wait, *runnable, nrun;
    uint8_t *queued;
    uint32_t *blocked_msg; /* rank -> message it waits for (AN_NIL) */
    uint32_t *blocked_inst;
} an_hb_sweep;

typedef an_hb_sweep sweep;

static int vec_new(sweep *s, uint32_t *out)
{
    if (s->nfree) {
        *out = s->freevec[--s->nfree];
    } else {
        if (s->nvecs == s->capvecs) {
            uint32_t cap = s->capvecs ? s->capvecs * 2 : 64;
            uint64_t *v = realloc(s->vecs, (size_t)cap * (size_t)s->n * sizeof *v);
            if (!v) return -1;
            s->vecs = v;
            s->capvecs = cap;
        }
        *out = s->nvecs++;
    }
    memset(s->vecs + (size_t)*out * (size_t)s->n, 0, (size_t)s->n * sizeof *s->vecs);
    return 0;
}

static uint64_t *vec(sweep *s, uint32_t i) { return s->vecs + (size_t)i * (size_t)s->n; }

static int vec_free(sweep *s, uint32_t i)
{
    if (s->nfree == s->capfree) {
        uint32_t cap = s->capfree ? s->capfree * 2 : 64;
        uint32_t *f = realloc(s->freevec, cap * sizeof *f);
        if (!f) return -1;
        s->freevec = f;
        s->capfree = cap;
    }
    s->freevec[s->nfree++] = i;
    return 0;
}

static void vmax(uint64_t *dst, const uint64_t *src, int n)
{
    for (int i = 0; i < n; i++)
        if (src[i] > dst[i]) dst[i] = src[i];
}

static int by_done(const void *a, const void *b)
{
    const done_step *x = a, *y = b;
    if (x->event != y->event) return x->event < y->event ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

/* A rank's steps in (event, posts before results, op) order. Posts come in post order
 * already; completions of nonblocking operations are sorted apart and merged in. */
static int build_steps(sweep *s, int p)
{
    const an_rank *rk = &s->run->ranks[p];
    if (rk->nops > STEP_MAX_OPS) return -1;
    size_t na = 0, nb = 0;
    step *a = malloc((2 * rk->nops + 1) * sizeof *a);
    done_step *b = malloc((rk->nops + 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = 0; i < rk->nops; i++) {
        const an_op *o = &rk->ops[i];
        int needs_done = (o->kind == AN_RECV && o->msg != AN_NIL) || o->kind == AN_COLL;
        if (o->kind == AN_SEND || o->kind == AN_COLL) a[na++] = STEP(i, STEP_POST);
        if (!needs_done || !o->done) continue;
        if (o->done == o->post) a[na++] = STEP(i, STEP_DONE);
        else b[nb++] = (done_step){o->done, (uint32_t)i};
    }
    qsort(b, nb, sizeof *b, by_done);
    step *m = NULL; /* kept for the whole sweep: in the spill file with the ops */
    size_t cap = 0;
    if (an_spill_reserve(s->run->spill, (void **)&m, &cap, na + nb + 1, sizeof *m)) {
        free(a);
        free(b);
        return -1;
    }
    /* a's step goes first unless it is after b's by (event, type, op): at the same event a
     * post goes first, and of two dones the earlier op (a is not sorted by that order: a
     * blocking collective's done follows its post) */
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        int take_a = j >= nb;
        if (!take_a && i < na) {
            uint64_t ea = step_event(rk->ops, a[i]);
            take_a = ea < b[j].event ||
                     (ea == b[j].event && (STEP_TYPE(a[i]) == STEP_POST || STEP_OP(a[i]) <= b[j].op));
        }
        m[k++] = take_a ? a[i++] : STEP(b[j++].op, STEP_DONE);
    }
    free(a);
    free(b);
    s->steps[p] = m;
    s->nsteps[p] = k;
    return 0;
}

static void wake(sweep *s, int p)
{
    if (s->queued[p]) return;
    s->queued[p] = 1;
    s->runnable[s->nrun++] = p;
}

static int member_index(const an_comm *c, int p)
{
    for (uint32_t i = 0; i < c->size + c->nremote; i++)
        if (c->world[i] == p) return (int)i;
    return -1;
}

static inst *inst_of(sweep *s, const an_op *o)
{
    int added;
    uint64_t *slot = u64_map_slot(&s->insts, u64_mix(u64_mix(0x1c0, o->comm), o->coll), s->ninst, &added);
    if (!slot) return NULL;
    if (!added) return &s->inst[*slot];
    if (s->ninst == s->capinst) {
        uint32_t cap = s->capinst ? s->capinst * 2 : 64;
        inst *n = realloc(s->inst, cap * sizeof *n);
        if (!n) return NULL;
        s->inst = n;
        s->capinst = cap;
    }
    inst *in = &s->inst[s->ninst++];
    const an_comm *c = &s->run->comms[o->comm];
    *in = (inst){.comm = o->comm, .k = o->coll, .n = c->size + c->nremote, .waiters = -1,
                 .acc = AN_NIL};
    for (uint32_t i = 0; i < in->n; i++) in->nlocal += c->world[i] >= s->lo && c->world[i] < s->hi;
    if (vec_new(s, &in->acc)) return NULL;
    if (o->flow == AN_FLOW_PREFIX || o->flow == AN_FLOW_XPREFIX) {
        in->member = malloc(in->n * sizeof *in->member);
        if (!in->member) return NULL;
        for (uint32_t i = 0; i < in->n; i++) in->member[i] = AN_NIL;
    }
    return in;
}

static void inst_release(sweep *s, inst *in)
{
    if (in->acc != AN_NIL) vec_free(s, in->acc);
    in->acc = AN_NIL;
    if (in->member) {
        for (uint32_t i = 0; i < in->n; i++)
            if (in->member[i] != AN_NIL) vec_free(s, in->member[i]);
        free(in->member);
        in->member = NULL;
    }
}

/* Every member here finished and every member posted: nothing can need it any more. */
static void inst_done(sweep *s, inst *in)
{
    if (in->finished >= in->nlocal && in->posted >= in->n) inst_release(s, in);
}

static int coll_post(sweep *s, int p, const an_op *o, const uint64_t *v)
{
    inst *in = inst_of(s, o);
    if (!in) return -1;
    const int prefix = o->flow == AN_FLOW_PREFIX || o->flow == AN_FLOW_XPREFIX;
    if (prefix) { /* only prefix flows need the member's place (a search through the group) */
        int me = member_index(&s->run->comms[o->comm], p);
        if (me >= 0 && in->member[me] == AN_NIL) {
            if (vec_new(s, &in->member[me])) return -1;
            memcpy(vec(s, in->member[me]), v, (size_t)s->n * sizeof *v);
        }
    } else if (o->flow != AN_FLOW_ROOT_OUT || o->peer == p) {
        vmax(vec(s, in->acc), v, s->n);
        in->root_posted |= o->peer == p;
    }
    in->posted++;
    /* the waiters look again only once what they wait for may be there (coll_done's ready):
     * waking all of them at every post made a world collective cost P^2 looks */
    if (prefix || (o->flow == AN_FLOW_ROOT_OUT ? in->root_posted : in->posted >= in->n)) {
        for (int w = in->waiters; w >= 0; w = s->next_wait[w]) wake(s, w);
        in->waiters = -1;
    }
    inst_done(s, in);
    return 0;
}

/* 1 merged (or nothing to merge), 0 not ready yet. */
static int coll_done(sweep *s, int p, const an_op *o, uint64_t *v)
{
    inst *in = inst_of(s, o);
    if (!in) return -1;
    /* ready: what this member needs has been contributed; take: it receives the result */
    int ready, take;
    switch (o->flow) {
    case AN_FLOW_ROOT_OUT: ready = o->peer == p || in->root_posted; take = o->peer != p; break;
    case AN_FLOW_ROOT_IN: ready = o->peer != p || in->posted >= in->n; take = o->peer == p; break;
    case AN_FLOW_PREFIX:
    case AN_FLOW_XPREFIX: {
        int upto = member_index(&s->run->comms[o->comm], p) - (o->flow == AN_FLOW_XPREFIX);
        ready = 1;
        for (int i = 0; i <= upto && ready; i++) ready = in->member[i] != AN_NIL;
        if (ready)
            for (int i = 0; i <= upto; i++) vmax(v, vec(s, in->member[i]), s->n);
        take = 0; /* merged above, member by member */
        break;
    }
    default: ready = in->posted >= in->n; take = 1; break;
    }
    if (!ready) {
        s->blocked_inst[p] = (uint32_t)(in - s->inst);
        s->next_wait[p] = in->waiters;
        in->waiters = p;
        return 0;
    }
    if (take) vmax(v, vec(s, in->acc), s->n);
    in->finished++;
    inst_done(s, in);
    return 1;
}

/* A message arrived for a rank swept here (its vector copied): the receive may go on. */
static int arrive(sweep *s, uint32_t msg, int receiver, const uint64_t *vc)
{
    uint32_t i;
    if (vec_new(s, &i)) return -1;
    memcpy(vec(s, i), vc, (size_t)s->n * sizeof *vc);
    uint64_t *slot = u64_map_slot(&s->arrived, msg, i, NULL);
    if (!slot) return -1;
    *slot = i;
    if (s->blocked_msg[receiver] == msg) wake(s, receiver);
    return 0;
}

/* A send of a block's rank (the receive's op is not known here: the message always goes). */
static int part_send(sweep *s, int p, uint32_t op, const an_op *o, const uint64_t *v)
{
    if (o->peer < 0 || o->peer >= s->n) return 0;
    s->part->sent(s->part->arg, p, op, v[o->peer]);
    if (o->peer >= s->lo && o->peer < s->hi) return arrive(s, o->msg, o->peer, v);
    return s->part->ship_msg(s->part->arg, o->msg, o->peer, v);
}

int an_hb_deliver_msg(an_hb_sweep *s, uint32_t msg, int receiver, const uint64_t *vc)
{
    if (receiver < s->lo || receiver >= s->hi) return 1;
    return arrive(s, msg, receiver, vc);
}

int an_hb_deliver_coll(an_hb_sweep *s, const an_op *o, int member, const uint64_t *vc)
{
    if (o->comm >= s->run->ncomms || member_index(&s->run->comms[o->comm], member) < 0) return 1;
    return coll_post(s, member, o, vc);
}

int an_hb_waiting(const an_hb_sweep *s)
{
    int w = 0;
    for (int p = s->lo; p < s->hi; p++) w += s->at[p] < s->nsteps[p];
    return w;
}

/* Runs rank p until it waits or ends. */
static int advance(sweep *s, int p)
{
    an_rank *rk = &s->run->ranks[p];
    uint64_t *v = s->vc[p];
    const int n = s->n;
    uint64_t last = UINT64_MAX;
    while (s->at[p] < s->nsteps[p]) {
        const step st = s->steps[p][s->at[p]];
        const an_op *o = &rk->ops[STEP_OP(st)];
        const uint64_t event = step_event(rk->ops, st);
        if (event != last) {
            if (s->obs && s->obs->before) s->obs->before(s->obs->arg, p, event, v);
            last = event;
            if (v[p] < 2 * event) v[p] = 2 * event;
        }
        if (STEP_TYPE(st) == STEP_POST) {
            if (o->kind == AN_SEND && o->msg != AN_NIL && s->part) {
                if (part_send(s, p, STEP_OP(st), o, v)) return -1;
            } else if (o->kind == AN_SEND && o->msg != AN_NIL) {
                an_msg *m = &s->run->msgs[o->msg];
                /* the loader admits only world ranks of this run; stay inside v regardless */
                if (m->receiver >= (uint32_t)n) {
                    s->at[p]++;
                    continue;
                }
                m->hb_dest = v[m->receiver];
                s->msg_sent[o->msg] = 1;
                if (m->recv_op != AN_NIL) {
                    if (vec_new(s, &s->msg_vec[o->msg])) return -1;
                    memcpy(vec(s, s->msg_vec[o->msg]), v, (size_t)n * sizeof *v);
                    if (s->blocked_msg[m->receiver] == o->msg) wake(s, (int)m->receiver);
                }
            } else if (o->kind == AN_COLL && (coll_post(s, p, o, v) ||
                                               (s->part && s->part->ship_coll(s->part->arg, o, p, v)))) {
                return -1;
            }
        } else if (o->kind == AN_RECV) {
            uint64_t mv = AN_NIL;
            if (s->part ? !u64_map_del(&s->arrived, o->msg, &mv) : !s->msg_sent[o->msg]) {
                s->blocked_msg[p] = o->msg;
                return 0;
            }
            s->blocked_msg[p] = AN_NIL;
            if (!s->part) mv = s->msg_vec[o->msg];
            if (mv != AN_NIL) {
                vmax(v, vec(s, (uint32_t)mv), n);
                vec_free(s, (uint32_t)mv);
                if (!s->part) s->msg_vec[o->msg] = AN_NIL;
            }
            v[p] = 2 * event + 1;
            if (s->obs && s->obs->merged) s->obs->merged(s->obs->arg, p, event, v);
        } else {
            int r = coll_done(s, p, o, v);
            if (r < 0) return -1;
            if (!r) return 0;
            s->blocked_inst[p] = AN_NIL;
            v[p] = 2 * event + 1;
            if (s->obs && s->obs->merged) s->obs->merged(s->obs->arg, p, event, v);
        }
        s->at[p]++;
    }
    return 0;
}

static void sweep_free(sweep *s)
{
    for (uint32_t i = 0; i < s->ninst; i++) free(s->inst[i].member);
    free(s->inst);
    u64_map_free(&s->insts);
    if (s->steps)
        for (int p = 0; p < s->n; p++) an_spill_free(s->run->spill, s->steps[p]);
    free(s->steps);
    free(s->nsteps);
    free(s->at);
    if (s->vc)
        for (int p = 0; p < s->n; p++) free(s->vc[p]);
    free(s->vc);
    free(s->vecs);
    free(s->freevec);
    an_spill_free(s->run->spill, s->msg_vec);
    an_spill_free(s->run->spill, s->msg_sent);
    free(s->next_wait);
    free(s->runnable);
    free(s->queued);
    free(s->blocked_msg);
    free(s->blocked_inst);
    u64_map_free(&s->arrived);
}

/* The sweep of ranks [s->lo, s->hi), once s is set up. */
static int sweep_run(sweep *s)
{
    an_run *run = s->run;
    const an_hb_observer *obs = s->obs;
    const int n = run->nranks;
    int rc = -1, agreed = 0;
    s->steps = calloc((size_t)n, sizeof *s->steps);
    s->nsteps = calloc((size_t)n, sizeof *s->nsteps);
    s->at = calloc((size_t)n, sizeof *s->at);
    s->vc = calloc((size_t)n, sizeof *s->vc);
    /* one entry per message: in the spill file */
    s->msg_vec = an_spill_calloc(run->spill, run->nmsgs + 1, sizeof *s->msg_vec);
    s->msg_sent = an_spill_calloc(run->spill, run->nmsgs + 1, 1);
    s->next_wait = malloc((size_t)n * sizeof *s->next_wait);
    s->runnable = malloc((size_t)n * sizeof *s->runnable);
    s->queued = calloc((size_t)n, 1);
    s->blocked_msg = malloc((size_t)n * sizeof *s->blocked_msg);
    s->blocked_inst = malloc((size_t)n * sizeof *s->blocked_inst);
    if (!s->steps || !s->nsteps || !s->at || !s->vc || !s->msg_vec || !s->msg_sent || !s->next_wait ||
        !s->runnable || !s->queued || !s->blocked_msg || !s->blocked_inst)
        goto out;
    for (uint32_t i = 0; i < run->nmsgs; i++) s->msg_vec[i] = AN_NIL;
    for (int p = 0; p < n; p++) s->blocked_msg[p] = s->blocked_inst[p] = AN_NIL;
    for (int p = s->lo; p < s->hi; p++)
        if (build_steps(s, p) || !(s->vc[p] = calloc((size_t)n, sizeof **s->vc))) goto out;
    run->hb_unresolved = 0;
    for (int go = 1; go;) {
        for (int p = s->hi - 1; p >= s->lo; p--) wake(s, p);
        for (;;) {
            while (s->nrun) {
                int p = s->runnable[--s->nrun];
                s->queued[p] = 0;
                if (advance(s, p)) goto out;
            }
            if (!s->part) break;
            /* every rank here waits or is done: what comes from the other blocks */
            int r = s->part->idle(s->part->arg, s, 0);
            if (r < 0) {
                agreed = 1;
                goto out;
            }
            if (r == 1) go = 0;
            if (r) break;
        }
        if (!go) break;
        /* everyone waits: what they wait for never comes (a cut-off or inconsistent trace) */
        int stuck = 0;
        for (int p = s->lo; p < s->hi; p++) {
            if (s->at[p] >= s->nsteps[p]) continue;
            stuck = 1;
            s->at[p]++;
            run->hb_unresolved++;
            if (s->blocked_inst[p] != AN_NIL) {
                inst *in = &s->inst[s->blocked_inst[p]];
                in->waiters = -1;
            }
            s->blocked_msg[p] = s->blocked_inst[p] = AN_NIL;
        }
        if (!stuck && !s->part) break;
    }
    for (int p = 0; p < n; p++)
        if (obs && obs->end) obs->end(obs->arg, p, s->vc[p]);
    rc = 0;
out:
    /* the other blocks learn of the failure at their next exchange */
    if (rc && s->part && !agreed) s->part->idle(s->part->arg, s, 1);
    sweep_free(s);
    return rc;
}

int an_happened_before(an_run *run, const an_hb_observer *obs)
{
    sweep s = {.run = run, .obs = obs, .n = run->nranks, .hi = run->nranks};
    return sweep_run(&s);
}

int an_happened_before_part(an_run *run, const an_hb_part *part)
{
    sweep s = {.run = run, .part = part, .n = run->nranks, .lo = part->lo, .hi = part->hi};
    return sweep_run(&s);
}
