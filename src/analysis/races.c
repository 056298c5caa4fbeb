/* races.c: every potential message race of a recorded run (docs/analysis.md, "Races").
 * A wildcard-source receive r of rank p could have got, instead of its message, the first
 * message of any other sender q to p on r's communicator with a tag r accepts that no receive
 * posted before r consumed (MPI does not overtake, so only that one can come next from q),
 * unless that message's send happened after r completed. These candidates are Netzer &
 * Miller's frontier races read off a trace (their Lemmas 1-2) and the part of Chu & Huang's
 * reachable set that MPI's ordering rules leave possible. Also: what Netzer & Miller's
 * on-the-fly algorithm (Figure 3) would have traced. The candidates are counted, not kept:
 * cand_index.c finds them again (an_race_list), for a listing or the race graph
 * (race_graph.c): kept, they would take 4 bytes each, which on a history where every receive
 * is a wildcard is more than the run model itself. A wildcard-source probe races the same way:
 * it sees the message the next receive of its pattern would get, so any of those candidates
 * (listed apart, in an_races.probes: a probe consumes nothing). */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cand_index.h"
#include "reserve.h"
#include "u64_map.h"

static uint64_t stream_key(uint32_t p, uint32_t comm, uint32_t q)
{
    return u64_mix(u64_mix(u64_mix(0x57e, p), comm), q);
}

static uint64_t channel_key(uint32_t p, uint32_t comm, uint32_t q, int32_t tag)
{
    return u64_mix(stream_key(p, comm, q), (uint32_t)tag + 0x100000000ull);
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
            if (mpirr_reserve((void **)lr, cap, *n + 1, sizeof **lr)) return -1;
            (*lr)[(*n)++] = (struct last_recv){AN_NIL, AN_NIL, AN_NIL};
        }
        struct last_recv *l = &(*lr)[*slot];
        if (l->last != AN_NIL && l->sender != m->sender) l->other = l->last;
        l->last = (uint32_t)i;
        l->sender = m->sender;
    }
    return 0;
}

/* The racing receives, their candidates counted (listed again by an_race_list). */
static int find(const an_run *run, an_races *out)
{
    u64_map last = {0}, taken = {0};
    struct last_recv *lr = NULL;
    size_t cap_races = 0, cap_probes = 0, cap_lr = 0, nlr = 0;
    uint32_t *list; /* the races' own list (an_race_list), used here while counting */
    int rc = -1;
    out->index = calloc(1, sizeof *out->index);
    if (!out->index || ci_build(run, out->index)) goto out;
    if (!(list = out->list = malloc((out->index->max_senders + 1) * sizeof *list))) goto out;
    for (int p = 0; p < run->nranks; p++) {
        const an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            const an_op *r = &rk->ops[i];
            int probe = r->kind == AN_PROBE;
            if ((r->kind != AN_RECV && !probe) || r->peer != AN_ANY || r->msg == AN_NIL || !r->done)
                continue;
            if (probe) out->wildcard_probes++;
            else out->wildcard_recvs++;
            uint32_t n = ci_cands(out->index, p, (uint32_t)i, list);
            if (n < 2) continue;
            an_race **to = probe ? &out->probes : &out->races;
            size_t *cap = probe ? &cap_probes : &cap_races, *nto = probe ? &out->nprobes : &out->nraces;
            if (mpirr_reserve((void **)to, cap, *nto + 1, sizeof **to)) goto out;
            (*to)[(*nto)++] = (an_race){p, (uint32_t)i, 0, n, n};
            if (!probe) out->ncand += n;
        }
        if (on_the_fly(run, p, &last, &lr, &cap_lr, &nlr, &taken, &out->on_the_fly)) goto out;
    }
    rc = 0;
out:
    u64_map_free(&last);
    u64_map_free(&taken);
    free(lr);
    return rc;
}

int an_find_races(const an_run *run, an_races *out)
{
    memset(out, 0, sizeof *out);
    if (find(run, out)) {
        an_races_free(out);
        return -1;
    }
    return 0;
}

const uint32_t *an_race_list(const an_races *r, const an_race *x)
{
    ci_cands(r->index, x->rank, x->op, r->list);
    return r->list;
}

void an_races_free(an_races *r)
{
    free(r->races);
    free(r->probes);
    free(r->list);
    free(r->ch);
    if (r->index) ci_free(r->index);
    free(r->index);
    memset(r, 0, sizeof *r);
}
