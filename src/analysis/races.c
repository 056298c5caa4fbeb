/* races.c: every potential message race of a recorded run (docs/analysis.md, "Races").
 * A wildcard-source receive r of rank p could have got, instead of its message, the first
 * message of any other sender q to p on r's communicator with a tag r accepts that no receive
 * posted before r consumed (MPI does not overtake, so only that one can come next from q),
 * unless that message's send happened after r completed. These candidates are Netzer &
 * Miller's frontier races read off a trace (their Lemmas 1-2) and the part of Chu & Huang's
 * reachable set that MPI's ordering rules leave possible. Also: what Netzer & Miller's
 * on-the-fly algorithm (Figure 3) would have traced. The candidate lists are the race graph
 * (race_graph.c builds it from them): no separate list of pairs is kept. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "reserve.h"
#include "u64_map.h"

/* Message lists in send order, per (receiver, comm, sender) "stream" and per (receiver, comm,
 * sender, tag) "channel", in one CSR array each, with a cursor that only moves forward. */
typedef struct lists {
    u64_map index;
    uint32_t n;
    uint32_t *start, *len, *cursor;
    uint32_t *items;
} lists;

static uint64_t stream_key(uint32_t p, uint32_t comm, uint32_t q)
{
    return u64_mix(u64_mix(u64_mix(0x57e, p), comm), q);
}

static uint64_t channel_key(uint32_t p, uint32_t comm, uint32_t q, int32_t tag)
{
    return u64_mix(stream_key(p, comm, q), (uint32_t)tag + 0x100000000ull);
}

/* Builds streams (by_tag 0) or channels (1) from every sender's sends in program order. */
static int lists_build(const an_run *run, lists *L, int by_tag)
{
    memset(L, 0, sizeof *L);
    size_t cap = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < run->nranks; q++) {
            const an_rank *rk = &run->ranks[q];
            for (size_t i = 0; i < rk->nops; i++) {
                const an_op *o = &rk->ops[i];
                if (o->kind != AN_SEND || o->msg == AN_NIL) continue;
                uint64_t key = by_tag ? channel_key((uint32_t)o->peer, o->comm, (uint32_t)q, o->tag)
                                      : stream_key((uint32_t)o->peer, o->comm, (uint32_t)q);
                if (pass == 1) {
                    uint64_t l = 0;
                    u64_map_get(&L->index, key, &l);
                    L->items[L->start[l] + L->cursor[l]++] = o->msg;
                    continue;
                }
                int added;
                uint64_t *l = u64_map_slot(&L->index, key, L->n, &added);
                if (!l) return -1;
                if (added) {
                    if (L->n == cap) {
                        cap = cap ? cap * 2 : 256;
                        uint32_t *s = realloc(L->start, cap * sizeof *s);
                        if (!s) return -1;
                        L->start = s;
                        uint32_t *n = realloc(L->len, cap * sizeof *n);
                        if (!n) return -1;
                        L->len = n;
                    }
                    L->len[L->n++] = 0;
                }
                L->len[*l]++;
            }
        }
        if (pass == 0) {
            uint32_t total = 0;
            for (uint32_t l = 0; l < L->n; l++) {
                L->start[l] = total;
                total += L->len[l];
            }
            L->items = malloc((total ? total : 1) * sizeof *L->items);
            L->cursor = calloc(L->n ? L->n : 1, sizeof *L->cursor);
            if (!L->items || !L->cursor) return -1;
        }
    }
    memset(L->cursor, 0, (L->n ? L->n : 1) * sizeof *L->cursor);
    return 0;
}

static void lists_free(lists *L)
{
    u64_map_free(&L->index);
    free(L->start);
    free(L->len);
    free(L->cursor);
    free(L->items);
}

/* The first message of list l not consumed by a receive of p posted before op index before;
 * AN_NIL if none. Receives are visited in post order, so the cursor never goes back. */
static uint32_t first_unconsumed(const an_run *run, lists *L, uint32_t l, size_t before)
{
    while (L->cursor[l] < L->len[l]) {
        const an_msg *m = &run->msgs[L->items[L->start[l] + L->cursor[l]]];
        if (m->recv_op == AN_NIL || m->recv_op >= before) return L->items[L->start[l] + L->cursor[l]];
        L->cursor[l]++;
    }
    return AN_NIL;
}

/* The senders that have a stream to (p, comm): the streams grouped by (p, comm). */
typedef struct senders {
    u64_map group;       /* (p, comm) -> group */
    uint32_t *start, *len; /* group -> its streams: order[start .. start + len) */
    uint32_t *order;     /* stream ids, by group */
    uint32_t *sender;    /* stream id -> sender */
} senders;

static uint64_t group_key(uint32_t p, uint32_t comm) { return stream_key(p, comm, 0xffffffffu); }

static int senders_build(const an_run *run, const lists *streams, senders *S)
{
    uint32_t n = streams->n, ngroups = 0;
    uint32_t *group_of = malloc((n + 1) * sizeof *group_of);
    S->sender = malloc((n + 1) * sizeof *S->sender);
    S->order = malloc((n + 1) * sizeof *S->order);
    S->start = calloc(n + 1, sizeof *S->start);
    S->len = calloc(n + 1, sizeof *S->len);
    if (!group_of || !S->sender || !S->order || !S->start || !S->len) {
        free(group_of);
        return -1;
    }
    for (uint32_t l = 0; l < n; l++) {
        const an_msg *m = &run->msgs[streams->items[streams->start[l]]];
        S->sender[l] = m->sender;
        int added;
        uint64_t *g = u64_map_slot(&S->group, group_key(m->receiver, run->ranks[m->sender].ops[m->send_op].comm),
                                   ngroups, &added);
        if (!g) {
            free(group_of);
            return -1;
        }
        ngroups += (uint32_t)added;
        group_of[l] = *g;
        S->len[*g]++;
    }
    for (uint32_t g = 1; g < ngroups; g++) S->start[g] = S->start[g - 1] + S->len[g - 1];
    memset(S->len, 0, (ngroups + 1) * sizeof *S->len);
    for (uint32_t l = 0; l < n; l++) S->order[S->start[group_of[l]] + S->len[group_of[l]]++] = l;
    free(group_of);
    return 0;
}

static void senders_free(senders *S)
{
    u64_map_free(&S->group);
    free(S->start);
    free(S->len);
    free(S->order);
    free(S->sender);
}

static int add_candidate(an_races *out, size_t *cap, uint32_t m)
{
    if (an_reserve((void **)&out->cand, cap, out->ncand + 1, sizeof *out->cand)) return -1;
    out->cand[out->ncand++] = m;
    return 0;
}

/* Netzer & Miller Figure 3, with MPI's order as PDT adapts it: after each receive, trace its
 * message if the previous receive of the process that could have got it instead did not
 * happen before its send. A receive that could have got it is a wildcard-source receive with
 * a tag pattern accepting it, whose own message came from another sender (from the same
 * sender, the order of the two is fixed), posted after the sender's previous message was
 * taken (before that, that one would have come first). Per (comm, tag pattern) the last such
 * receive and the last one whose sender differs from that one's are kept; per channel and per
 * (comm, sender) the receive that took the last message. */
struct last_recv {
    uint32_t last, other; /* op indices (AN_NIL: none) */
    uint32_t sender;      /* of last */
};

static int on_the_fly(const an_run *run, int p, u64_map *index, struct last_recv **lr, size_t *cap,
                      size_t *n, u64_map *taken, uint64_t *traced)
{
    const an_rank *rk = &run->ranks[p];
    for (size_t i = 0; i < rk->nops; i++) {
        const an_op *r = &rk->ops[i];
        if (r->kind != AN_RECV || r->msg == AN_NIL) continue;
        const an_msg *m = &run->msgs[r->msg];
        const int32_t tags[2] = {r->mtag, AN_ANY};
        /* receives that took the sender's previous message: on this channel, on this stream */
        const uint64_t before[2] = {channel_key((uint32_t)p, r->comm, m->sender, r->mtag),
                                    stream_key((uint32_t)p, r->comm, m->sender)};
        uint32_t prev = AN_NIL;
        uint64_t k, t;
        for (int b = 0; b < 2; b++) {
            if (!u64_map_get(index, stream_key((uint32_t)p, r->comm, (uint32_t)tags[b]), &k)) continue;
            const struct last_recv *l = &(*lr)[k];
            uint32_t j = l->sender != m->sender ? l->last : l->other;
            if (j == AN_NIL || (u64_map_get(taken, before[b], &t) && j < t)) continue;
            if (prev == AN_NIL || j > prev) prev = j;
        }
        if (prev != AN_NIL && (!rk->ops[prev].done || !an_after(m, rk->ops[prev].done))) (*traced)++;
        for (int b = 0; b < 2; b++) {
            uint64_t *slot = u64_map_slot(taken, before[b], 0, NULL);
            if (!slot) return -1;
            *slot = (uint32_t)i;
        }
        if (r->peer != AN_ANY) continue;
        int added;
        uint64_t *slot = u64_map_slot(index, stream_key((uint32_t)p, r->comm, (uint32_t)r->tag), (uint32_t)*n, &added);
        if (!slot) return -1;
        if (added) {
            if (an_reserve((void **)lr, cap, *n + 1, sizeof **lr)) return -1;
            (*lr)[(*n)++] = (struct last_recv){AN_NIL, AN_NIL, AN_NIL};
        }
        struct last_recv *l = &(*lr)[*slot];
        if (l->last != AN_NIL && l->sender != m->sender) l->other = l->last;
        l->last = (uint32_t)i;
        l->sender = m->sender;
    }
    return 0;
}

int an_find_races(const an_run *run, an_races *out)
{
    memset(out, 0, sizeof *out);
    lists streams = {0}, chans = {0};
    senders S = {0};
    u64_map last = {0}, taken = {0};
    struct last_recv *lr = NULL;
    size_t cap_races = 0, cap_cand = 0, cap_lr = 0, nlr = 0;
    int rc = -1;
    if (lists_build(run, &streams, 0) || lists_build(run, &chans, 1)) goto out;
    if (senders_build(run, &streams, &S)) goto out;

    for (int p = 0; p < run->nranks; p++) {
        const an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            const an_op *r = &rk->ops[i];
            if (r->kind != AN_RECV || r->peer != AN_ANY || r->msg == AN_NIL || !r->done) continue;
            out->wildcard_recvs++;
            const an_msg *got = &run->msgs[r->msg];
            uint64_t g;
            if (!u64_map_get(&S.group, group_key((uint32_t)p, r->comm), &g)) continue;
            size_t first = out->ncand;
            if (add_candidate(out, &cap_cand, r->msg)) goto out;
            for (uint32_t k = 0; k < S.len[g]; k++) {
                uint32_t l = S.order[S.start[g] + k];
                if (S.sender[l] == got->sender) continue;
                uint32_t c;
                if (r->tag == AN_ANY) {
                    c = first_unconsumed(run, &streams, l, i);
                } else {
                    uint64_t cl;
                    if (!u64_map_get(&chans.index, channel_key((uint32_t)p, r->comm, S.sender[l], r->tag), &cl))
                        continue;
                    c = first_unconsumed(run, &chans, cl, i);
                }
                if (c == AN_NIL || an_after(&run->msgs[c], r->done)) continue;
                if (add_candidate(out, &cap_cand, c)) goto out;
            }
            if (out->ncand - first < 2) {
                out->ncand = first;
                continue;
            }
            if (an_reserve((void **)&out->races, &cap_races, out->nraces + 1, sizeof *out->races)) goto out;
            out->races[out->nraces++] =
                (an_race){p, (uint32_t)i, (uint32_t)first, (uint32_t)(out->ncand - first), (uint32_t)(out->ncand - first)};
        }
        if (on_the_fly(run, p, &last, &lr, &cap_lr, &nlr, &taken, &out->on_the_fly)) goto out;
    }
    rc = 0;
out:
    lists_free(&streams);
    lists_free(&chans);
    senders_free(&S);
    u64_map_free(&last);
    u64_map_free(&taken);
    free(lr);
    if (rc) an_races_free(out);
    return rc;
}

void an_races_free(an_races *r)
{
    free(r->races);
    free(r->cand);
    free(r->ch);
    memset(r, 0, sizeof *r);
}
