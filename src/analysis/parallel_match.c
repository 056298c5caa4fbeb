/* parallel_match.c: message matching split across the processes of the parallel analysis
 * (docs/analysis.md "Parallel analysis"). A channel (communicator, sender, receiver, tag) is
 * matched where its receiver's history is: every process sends the records of its sends to
 * the owner of their destination (one exchange), which then holds every op of the channels
 * into its ranks and runs matching.c's an_match on them: its own ranks' ops and, for the other
 * ranks, stand-ins of the sends into its block, in their program order. an_match numbers
 * messages channel by channel in the order channels first appear (rank order, then program
 * order); the relative order of one block's channels is already the serial one, and the global
 * numbering merges them by first appearance: each channel's count goes to the owner of the
 * rank where it first appears, which sorts what it got and adds up (with the counts of the
 * blocks before it, MPI_Exscan), and the first number goes back. The send ops learn their
 * numbers from the receiver's owner. No process holds more than its block and the sends into it. */
#include <stdlib.h>
#include <string.h>

#include "parallel_match.h"
#include "spill.h"
#include "u64_map.h"

/* A send into another block: what an_match needs of it, and where it is. */
typedef struct send_rec {
    uint64_t comm_key; /* the communicator's identity (comm_ids.c): the blocks number them apart */
    uint32_t src, dst;
    int32_t tag;
    uint32_t op;       /* in src's ops */
} send_rec;

/* A channel's count, to the owner of the rank it first appears on; the answer: its first number. */
typedef struct chan_req {
    uint32_t rank, op; /* where it first appears */
    uint32_t nsends;
} chan_req;

/* A send's number, to the owner of its sender. */
typedef struct send_id {
    uint32_t rank, op, msg;
} send_id;

int an_par_block_lo(int nranks, int a, int np) { return (int)((int64_t)nranks * a / np); }

int an_par_owner(int nranks, int np, int r)
{
    int a = (int)(((int64_t)(r + 1) * np + nranks - 1) / nranks) - 1;
    while (a > 0 && an_par_block_lo(nranks, a, np) > r) a--;
    while (a + 1 < np && an_par_block_lo(nranks, a + 1, np) <= r) a++;
    return a;
}

typedef struct state {
    an_run *run;
    int lo, hi, n;
    const an_par_net *net;
    an_par_buf *out, *in;
    an_run mr;           /* what an_match sees: this block's ranks and the stand-ins */
    uint32_t *start;     /* mr's channels: first message of each, then mr.nmsgs */
    uint32_t nchan;
    uint32_t *global;    /* mr's message -> the serial number (channels into this block) */
} state;

static int in_block(const state *s, uint32_t r) { return r >= (uint32_t)s->lo && r < (uint32_t)s->hi; }

static void bufs_free(an_par_buf *b, int np)
{
    for (int q = 0; q < np; q++) an_par_buf_free(&b[q]);
}

/* One exchange: out goes, in arrives (the previous in freed first). */
static int exchange(state *s, int status)
{
    if (!s->out || !s->in) return s->net->exchange(NULL, NULL, -1);
    bufs_free(s->in, s->net->np);
    int rc = s->net->exchange(s->out, s->in, status);
    bufs_free(s->out, s->net->np);
    return rc;
}

static int send_records(state *s)
{
    const an_run *run = s->run;
    for (int p = s->lo; p < s->hi; p++)
        for (size_t i = 0; i < run->ranks[p].nops; i++) {
            const an_op *o = &run->ranks[p].ops[i];
            if (o->kind != AN_SEND || o->peer < 0 || o->peer >= s->n || o->comm >= run->ncomms) continue;
            send_rec r = {run->comm_keys[o->comm], (uint32_t)p, (uint32_t)o->peer, o->tag, (uint32_t)i};
            if (an_par_put(&s->out[an_par_owner(s->n, s->net->np, o->peer)], &r, sizeof r)) return -1;
        }
    return 0;
}

/* mr: this block's ranks as they are (an_match writes their ops' msg: renumbered after), the
 * others holding the stand-ins of their sends into this block, each with its op in post.
 * -1 also for a record that cannot be. */
static int stand_ins(state *s)
{
    u64_map cid = {0};
    uint32_t fresh = s->run->ncomms; /* a communicator no rank here knows matches nothing */
    int rc = -1;
    s->mr.nranks = s->n;
    if (!(s->mr.ranks = calloc((size_t)s->n, sizeof *s->mr.ranks))) return -1;
    for (uint32_t c = 0; c < s->run->ncomms; c++)
        if (u64_map_put(&cid, s->run->comm_keys[c], c)) goto out;
    for (int q = 0; q < s->net->np; q++) { /* how many stand-ins each rank has */
        const send_rec *r = (const send_rec *)s->in[q].data;
        if (s->in[q].len % sizeof *r) goto out;
        for (size_t k = 0; k < s->in[q].len / sizeof *r; k++) {
            if (r[k].src >= (uint32_t)s->n || !in_block(s, r[k].dst)) goto out;
            s->mr.ranks[r[k].src].cap += !in_block(s, r[k].src); /* else its ops are here */
        }
    }
    for (int p = 0; p < s->n; p++)
        if (s->mr.ranks[p].cap && !(s->mr.ranks[p].ops = malloc(s->mr.ranks[p].cap * sizeof(an_op)))) goto out;
    for (int q = 0; q < s->net->np; q++) {
        const send_rec *r = (const send_rec *)s->in[q].data;
        for (size_t k = 0; k < s->in[q].len / sizeof *r; k++) {
            if (in_block(s, r[k].src)) continue;
            int added;
            uint64_t *c = u64_map_slot(&cid, r[k].comm_key, fresh, &added);
            if (!c) goto out;
            fresh += added;
            an_rank *rk = &s->mr.ranks[r[k].src];
            rk->ops[rk->nops++] = (an_op){.post = r[k].op, .comm = (uint32_t)*c, .peer = (int32_t)r[k].dst,
                                          .tag = r[k].tag, .msrc = AN_NONE, .msg = AN_NIL, .kind = AN_SEND};
        }
    }
    for (int p = s->lo; p < s->hi; p++) s->mr.ranks[p] = s->run->ranks[p];
    rc = 0;
out:
    u64_map_free(&cid);
    return rc;
}

/* The send op of mr's message m, where it is in its rank's history. */
static uint32_t send_op_of(const state *s, const an_msg *m)
{
    return in_block(s, m->sender) ? m->send_op : (uint32_t)s->mr.ranks[m->sender].ops[m->send_op].post;
}

/* Where the channel of mr's message m (its first) first appears: its first send, or its first
 * receive (which got m) if that comes first in rank, then program order. */
static void first_place(const state *s, const an_msg *m, uint32_t *rank, uint32_t *op)
{
    *rank = m->sender;
    *op = send_op_of(s, m);
    if (m->recv_op != AN_NIL && (m->receiver < *rank || (m->receiver == *rank && m->recv_op < *op)))
        *rank = m->receiver, *op = m->recv_op;
}

/* mr's channels (consecutive messages of one sender, receiver, communicator and tag), and a
 * request for the first number of each channel into this block. */
static int channels(state *s)
{
    const an_msg *msgs = s->mr.msgs;
    uint32_t nm = s->mr.nmsgs;
    if (!(s->start = malloc(((size_t)nm + 1) * sizeof *s->start))) return -1;
    for (uint32_t m = 0; m < nm; m++) {
        const an_op *o = &s->mr.ranks[msgs[m].sender].ops[msgs[m].send_op];
        if (m) {
            const an_msg *pm = &msgs[m - 1];
            const an_op *po = &s->mr.ranks[pm->sender].ops[pm->send_op];
            if (pm->sender == msgs[m].sender && pm->receiver == msgs[m].receiver && po->comm == o->comm &&
                po->tag == o->tag)
                continue;
        }
        s->start[s->nchan++] = m;
    }
    s->start[s->nchan] = nm;
    for (uint32_t c = 0; c < s->nchan; c++) {
        const an_msg *m = &msgs[s->start[c]];
        if (!in_block(s, m->receiver)) continue;
        chan_req r = {.nsends = s->start[c + 1] - s->start[c]};
        first_place(s, m, &r.rank, &r.op);
        if (an_par_put(&s->out[an_par_owner(s->n, s->net->np, (int)r.rank)], &r, sizeof r)) return -1;
    }
    return 0;
}

/* A request that arrived, and where its answer goes. */
typedef struct req_at {
    chan_req r;
    uint32_t from, k;
} req_at;

static int by_place(const void *a, const void *b)
{
    const req_at *x = a, *y = b;
    if (x->r.rank != y->r.rank) return x->r.rank < y->r.rank ? -1 : 1;
    return x->r.op < y->r.op ? -1 : x->r.op > y->r.op;
}

/* The first numbers of the channels that first appear in this block: in order of appearance,
 * after those of the blocks before. The answers go back in the order the requests came. */
static int first_numbers(state *s, int *status)
{
    size_t total = 0;
    for (int q = 0; q < s->net->np; q++) total += s->in[q].len / sizeof(chan_req);
    req_at *all = malloc((total + 1) * sizeof *all);
    uint64_t sum = 0, before = 0;
    size_t k = 0;
    if (!all) *status = -1;
    for (int q = 0; all && q < s->net->np; q++) {
        const chan_req *r = (const chan_req *)s->in[q].data;
        for (size_t i = 0; i < s->in[q].len / sizeof *r; i++) all[k++] = (req_at){r[i], (uint32_t)q, (uint32_t)i};
    }
    if (all) qsort(all, total, sizeof *all, by_place);
    for (size_t i = 0; all && i < total; i++) sum += all[i].r.nsends;
    if (s->net->exscan(*status ? 0 : sum, &before)) *status = -1;
    for (int q = 0; !*status && q < s->net->np; q++) {
        size_t len = s->in[q].len / sizeof(chan_req) * sizeof(uint32_t);
        if (len && !(s->out[q].data = malloc(len))) *status = -1;
        s->out[q].len = s->out[q].cap = len;
    }
    for (size_t i = 0; !*status && i < total; i++) {
        ((uint32_t *)s->out[all[i].from].data)[all[i].k] = (uint32_t)before;
        before += all[i].r.nsends;
    }
    free(all);
    return 0;
}

/* The answers, in request order per owner: every message into this block numbered; the
 * receives and probes of this block renumbered, and the numbers of the sends to their owners. */
static int renumber(state *s)
{
    uint32_t nm = s->mr.nmsgs, *at = calloc((size_t)s->net->np, sizeof *at);
    if (!at || !(s->global = malloc(((size_t)nm + 1) * sizeof *s->global))) {
        free(at);
        return -1;
    }
    for (uint32_t m = 0; m < nm; m++) s->global[m] = AN_NIL;
    int rc = 0;
    for (uint32_t c = 0; c < s->nchan && !rc; c++) {
        const an_msg *first = &s->mr.msgs[s->start[c]];
        if (!in_block(s, first->receiver)) continue;
        uint32_t rank, op;
        first_place(s, first, &rank, &op);
        int q = an_par_owner(s->n, s->net->np, (int)rank);
        if ((size_t)at[q] >= s->in[q].len / sizeof(uint32_t)) {
            rc = -1;
            break;
        }
        uint32_t base = ((const uint32_t *)s->in[q].data)[at[q]++];
        for (uint32_t m = s->start[c]; m < s->start[c + 1] && !rc; m++) {
            const an_msg *msg = &s->mr.msgs[m];
            s->global[m] = base + (m - s->start[c]);
            send_id id = {msg->sender, send_op_of(s, msg), s->global[m]};
            if (an_par_put(&s->out[an_par_owner(s->n, s->net->np, (int)msg->sender)], &id, sizeof id)) rc = -1;
        }
    }
    free(at);
    for (int p = s->lo; p < s->hi && !rc; p++)
        for (size_t i = 0; i < s->run->ranks[p].nops; i++) {
            an_op *o = &s->run->ranks[p].ops[i];
            if (o->kind == AN_SEND) o->msg = AN_NIL; /* its number comes from the receiver's owner */
            else if ((o->kind == AN_RECV || o->kind == AN_PROBE) && o->msg != AN_NIL)
                o->msg = o->msg < nm ? s->global[o->msg] : AN_NIL;
        }
    return rc;
}

static int send_numbers(state *s)
{
    for (int q = 0; q < s->net->np; q++) {
        const send_id *id = (const send_id *)s->in[q].data;
        if (s->in[q].len % sizeof *id) return -1;
        for (size_t k = 0; k < s->in[q].len / sizeof *id; k++) {
            if (!in_block(s, id[k].rank) || id[k].op >= s->run->ranks[id[k].rank].nops) return -1;
            an_op *o = &s->run->ranks[id[k].rank].ops[id[k].op];
            if (o->kind != AN_SEND) return -1;
            o->msg = id[k].msg;
        }
    }
    return 0;
}

int an_par_match(an_run *run, int lo, int hi, const an_par_net *net, int status)
{
    state s = {.run = run, .lo = lo, .hi = hi, .n = run ? run->nranks : 0, .net = net};
    s.out = calloc((size_t)net->np, sizeof *s.out);
    s.in = calloc((size_t)net->np, sizeof *s.in);
    int rc = !s.out || !s.in ? -1 : status ? 1 : 0;
    /* each step's trouble is the next exchange's status: every process stops at that exchange */
    if (!rc) rc = send_records(&s);
    int x = exchange(&s, rc); /* the sends */
    if (!rc) rc = x;
    if (!rc) rc = stand_ins(&s);
    if (!rc) rc = an_match(&s.mr) ? -1 : channels(&s);
    if (!x) x = exchange(&s, rc); /* the channels' counts */
    if (!rc) rc = x;
    if (!x) first_numbers(&s, &rc); /* every process is here: MPI_Exscan */
    if (!x) x = exchange(&s, rc); /* the channels' first numbers */
    if (!rc) rc = x;
    if (!rc) rc = renumber(&s);
    if (!x) x = exchange(&s, rc); /* the sends' numbers */
    if (!rc) rc = x;
    if (!rc) rc = send_numbers(&s);
    if (s.mr.ranks)
        for (int p = 0; p < s.n; p++)
            if (!in_block(&s, (uint32_t)p)) free(s.mr.ranks[p].ops);
    free(s.mr.ranks);
    an_spill_free(NULL, s.mr.msgs);
    free(s.start);
    free(s.global);
    if (s.out) bufs_free(s.out, net->np);
    if (s.in) bufs_free(s.in, net->np);
    free(s.out);
    free(s.in);
    return rc;
}

int an_par_msgs(an_run *run, uint64_t *const *hb)
{
    uint32_t n = 0;
    for (int p = 0; p < run->nranks; p++)
        for (size_t i = 0; i < run->ranks[p].nops; i++)
            n += run->ranks[p].ops[i].kind == AN_SEND && run->ranks[p].ops[i].msg != AN_NIL;
    an_spill_free(run->spill, run->msgs);
    run->msgs = NULL;
    run->nmsgs = 0;
    size_t cap = 0;
    if (an_spill_reserve(run->spill, (void **)&run->msgs, &cap, n ? n : 1, sizeof *run->msgs)) return -1;
    run->nmsgs = n;
    for (uint32_t m = 0; m < n; m++)
        run->msgs[m] = (an_msg){.sender = AN_NIL, .receiver = AN_NIL, .send_op = AN_NIL, .recv_op = AN_NIL};
    run->unmatched_sends = run->unmatched_recvs = 0;
    for (int p = 0; p < run->nranks; p++)
        for (size_t i = 0; i < run->ranks[p].nops; i++) {
            const an_op *o = &run->ranks[p].ops[i];
            if (o->kind != AN_SEND || o->msg == AN_NIL) continue;
            if (o->msg >= n || run->msgs[o->msg].sender != AN_NIL || o->peer < 0) return 1;
            run->msgs[o->msg] = (an_msg){(uint32_t)p, (uint32_t)o->peer, (uint32_t)i, AN_NIL,
                                         hb && hb[p] ? hb[p][i] : 0};
        }
    for (int p = 0; p < run->nranks; p++)
        for (size_t i = 0; i < run->ranks[p].nops; i++) {
            const an_op *o = &run->ranks[p].ops[i];
            if (o->kind == AN_PROBE && o->msg != AN_NIL && o->msg >= n) return 1;
            if (o->kind != AN_RECV) continue;
            if (o->msg == AN_NIL) {
                run->unmatched_recvs += o->msrc >= 0;
                continue;
            }
            an_msg *m = o->msg < n ? &run->msgs[o->msg] : NULL;
            if (!m || m->receiver != (uint32_t)p || m->recv_op != AN_NIL) return 1;
            m->recv_op = (uint32_t)i;
        }
    for (uint32_t m = 0; m < n; m++) run->unmatched_sends += run->msgs[m].recv_op == AN_NIL;
    return 0;
}
