/* view_links.c: what connects the ranks' lanes in the view page (view_data.h): every message
 * with its send and receive events, every collective instance with its members and the way
 * data flows through it (for the page's happened-before: page/frontier.js), and the racing
 * receives with their candidate messages. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "view_data.h"

/* Messages: sender, receiver, send event, flags (1: received, 2: the receive never completed,
 * drawn to its posting call), receive event minus send event. Receives complete at their
 * done event, where the analysis merges the message's clock. */
static void put_messages(const an_run *run, struct view_data *d)
{
    for (uint32_t i = 0; i < run->nmsgs; i++) {
        const an_msg *m = &run->msgs[i];
        uint64_t se = m->send_op != AN_NIL ? run->ranks[m->sender].ops[m->send_op].post : 0;
        vbuf_uint(&d->msgs, m->sender);
        vbuf_uint(&d->msgs, m->receiver);
        vbuf_uint(&d->msgs, se);
        if (m->recv_op == AN_NIL || m->send_op == AN_NIL) {
            vbuf_uint(&d->msgs, 0);
            continue;
        }
        const an_op *r = &run->ranks[m->receiver].ops[m->recv_op];
        uint64_t re = r->done ? r->done : r->post;
        vbuf_uint(&d->msgs, r->done ? 1 : 3);
        vbuf_int(&d->msgs, (int64_t)(re - se));
        d->nmatched++;
    }
    d->nmsgs = run->nmsgs;
}

struct coll_ref {
    uint32_t comm, k;
    int rank;
    uint32_t op;
};

static int by_instance(const void *a, const void *b)
{
    const struct coll_ref *x = a, *y = b;
    if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return x->rank - y->rank;
}

static int64_t member_index(const an_comm *c, int p)
{
    for (uint32_t i = 0; i < c->size + c->nremote; i++)
        if (c->world[i] == p) return i;
    return -1;
}

/* Collective instances (the k-th collective on a communicator): member count, then per
 * member rank, post event, done event (0: never), flow | root << 3, index in the
 * communicator. */
static int put_collectives(const an_run *run, struct view_data *d)
{
    size_t n = 0, cap = 1024;
    struct coll_ref *refs = malloc(cap * sizeof *refs);
    if (!refs) return -1;
    for (int p = 0; p < run->nranks; p++) {
        const an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            if (rk->ops[i].kind != AN_COLL) continue;
            if (n == cap) {
                struct coll_ref *r = realloc(refs, 2 * cap * sizeof *r);
                if (!r) {
                    free(refs);
                    return -1;
                }
                refs = r;
                cap *= 2;
            }
            refs[n++] = (struct coll_ref){rk->ops[i].comm, rk->ops[i].coll, p, (uint32_t)i};
        }
    }
    qsort(refs, n, sizeof *refs, by_instance);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && refs[j].comm == refs[i].comm && refs[j].k == refs[i].k; j++) {}
        vbuf_uint(&d->colls, j - i);
        for (size_t k = i; k < j; k++) {
            const an_op *o = &run->ranks[refs[k].rank].ops[refs[k].op];
            vbuf_uint(&d->colls, (uint64_t)refs[k].rank);
            vbuf_uint(&d->colls, o->post);
            vbuf_uint(&d->colls, o->done);
            vbuf_uint(&d->colls, (uint64_t)o->flow | (uint64_t)(o->peer == refs[k].rank) << 3);
            vbuf_int(&d->colls, member_index(&run->comms[o->comm], refs[k].rank));
        }
        d->ncoll_inst++;
    }
    free(refs);
    return 0;
}

/* Racing receives: rank, post event, done event, candidate count, the candidates (message
 * indices, the matched one first), as `mpirr races` lists them. */
static int put_races(const an_run *run, struct view_data *d)
{
    an_races r;
    memset(&r, 0, sizeof r);
    if (an_find_races(run, &r)) return -1;
    for (size_t i = 0; i < r.nraces; i++) {
        const an_race *x = &r.races[i];
        const an_op *o = &run->ranks[x->rank].ops[x->op];
        vbuf_uint(&d->races, (uint64_t)x->rank);
        vbuf_uint(&d->races, o->post);
        vbuf_uint(&d->races, o->done);
        vbuf_uint(&d->races, x->n);
        const uint32_t *cands = an_race_list(&r, x);
        for (uint32_t k = 0; k < x->n; k++) vbuf_uint(&d->races, cands[k]);
    }
    d->nraces = r.nraces;
    an_races_free(&r);
    return 0;
}

int view_collect_links(struct analysis *a, struct view_data *d)
{
    put_messages(a->run, d);
    if (put_collectives(a->run, d) || put_races(a->run, d) || d->msgs.oom || d->colls.oom ||
        d->races.oom) {
        cli_error("out of memory");
        return -1;
    }
    return 0;
}
