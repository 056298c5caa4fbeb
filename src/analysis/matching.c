/* matching.c: pairs every send with the receive that got its message. MPI does not overtake:
 * on one channel (communicator, sender, receiver, tag) messages are received in the order
 * they were sent, by receives in the order they were posted; so the k-th send of a channel
 * pairs with the k-th receive whose recorded match names that sender and tag, whether the
 * receive named them or used wildcards. */
#include <stdlib.h>

#include "analysis.h"
#include "u64_map.h"

#define REF(rank, op) (((uint64_t)(rank) << 40) | (uint64_t)(op))
#define REF_RANK(r) ((uint32_t)((r) >> 40))
#define REF_OP(r) ((uint32_t)((r) & ((1ull << 40) - 1)))

int an_accepts(const an_op *r, uint32_t comm, int32_t src, int32_t tag)
{
    return r->comm == comm && (r->peer == AN_ANY || r->peer == src) &&
           (r->tag == AN_ANY || r->tag == tag);
}

static uint64_t channel_key(uint32_t comm, uint32_t from, uint32_t to, int32_t tag)
{
    return u64_mix(u64_mix(u64_mix(u64_mix(0xc4a, comm), from), to), (uint32_t)tag);
}

/* The channel of op o of rank p, or 0 if it carries no message. */
static int op_channel(const an_op *o, int p, uint64_t *key, int *is_send)
{
    if (o->kind == AN_SEND && o->peer >= 0) {
        *key = channel_key(o->comm, (uint32_t)p, (uint32_t)o->peer, o->tag);
        *is_send = 1;
        return 1;
    }
    if (o->kind == AN_RECV && o->msrc >= 0) {
        *key = channel_key(o->comm, (uint32_t)o->msrc, (uint32_t)p, o->mtag);
        *is_send = 0;
        return 1;
    }
    return 0;
}

int an_match(an_run *run)
{
    u64_map chan = {0};
    uint32_t nchan = 0;
    /* pass 1: number the channels and count each side (CSR layout, no per-channel arrays) */
    uint32_t *counts = NULL; /* 2 per channel: sends, receives */
    size_t counts_cap = 0;
    int rc = -1;
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            uint64_t key;
            int is_send, added;
            if (!op_channel(&rk->ops[i], p, &key, &is_send)) continue;
            uint64_t *c = u64_map_slot(&chan, key, nchan, &added);
            if (!c) goto out;
            if (added) {
                if (2 * (size_t)nchan + 2 > counts_cap) {
                    size_t cap = counts_cap ? counts_cap * 2 : 1024;
                    uint32_t *n = realloc(counts, cap * sizeof *n);
                    if (!n) goto out;
                    counts = n;
                    counts_cap = cap;
                }
                counts[2 * nchan] = counts[2 * nchan + 1] = 0;
                nchan++;
            }
            counts[2 * *c + !is_send]++;
        }
    }
    /* pass 2: place each op in its channel side, in rank order then post order: one sender's
     * sends (and one receiver's receives) on a channel come out in their program order */
    size_t total = 0;
    for (uint32_t c = 0; c < 2 * nchan; c++) {
        uint32_t n = counts[c];
        counts[c] = (uint32_t)total;
        total += n;
    }
    uint64_t *refs = malloc((total ? total : 1) * sizeof *refs);
    uint32_t *fill = calloc(2 * (size_t)nchan + 1, sizeof *fill);
    if (!refs || !fill) {
        free(refs);
        free(fill);
        goto out;
    }
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            uint64_t key;
            int is_send;
            uint64_t c;
            if (!op_channel(&rk->ops[i], p, &key, &is_send) || !u64_map_get(&chan, key, &c)) continue;
            size_t side = 2 * (size_t)c + !is_send;
            refs[counts[side] + fill[side]++] = REF(p, i);
        }
    }
    /* pass 3: pair them; surplus sends are messages nobody received */
    uint32_t nmsgs = 0;
    for (uint32_t c = 0; c < nchan; c++) nmsgs += fill[2 * c];
    free(run->msgs);
    run->msgs = malloc((nmsgs ? nmsgs : 1) * sizeof *run->msgs);
    if (!run->msgs) {
        free(refs);
        free(fill);
        goto out;
    }
    run->nmsgs = 0;
    run->unmatched_sends = run->unmatched_recvs = 0;
    for (uint32_t c = 0; c < nchan; c++) {
        const uint64_t *s = refs + counts[2 * c], *r = refs + counts[2 * c + 1];
        uint32_t ns = fill[2 * c], nr = fill[2 * c + 1];
        for (uint32_t k = 0; k < ns; k++) {
            uint32_t id = run->nmsgs++;
            an_msg *m = &run->msgs[id];
            an_op *so = &run->ranks[REF_RANK(s[k])].ops[REF_OP(s[k])];
            m->sender = REF_RANK(s[k]);
            m->send_op = REF_OP(s[k]);
            m->receiver = (uint32_t)so->peer;
            m->recv_op = AN_NIL;
            m->hb_dest = 0;
            so->msg = id;
            if (k < nr) {
                m->recv_op = REF_OP(r[k]);
                run->ranks[REF_RANK(r[k])].ops[REF_OP(r[k])].msg = id;
            } else {
                run->unmatched_sends++;
            }
        }
        if (nr > ns) run->unmatched_recvs += nr - ns;
    }
    /* a probe saw the message the next receive of its channel would have got: the first one
     * no receive posted before the probe took */
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            an_op *o = &rk->ops[i];
            uint64_t c;
            if (o->kind != AN_PROBE || o->msrc < 0 ||
                !u64_map_get(&chan, channel_key(o->comm, (uint32_t)o->msrc, (uint32_t)p, o->mtag), &c))
                continue;
            const uint64_t *r = refs + counts[2 * c + 1];
            uint32_t lo = 0, hi = fill[2 * c + 1];
            while (lo < hi) { /* the channel's receives are this rank's, in post order */
                uint32_t mid = lo + (hi - lo) / 2;
                if (REF_OP(r[mid]) < i) lo = mid + 1;
                else hi = mid;
            }
            if (lo < fill[2 * c]) o->msg = run->ranks[REF_RANK(refs[counts[2 * c] + lo])].ops[REF_OP(refs[counts[2 * c] + lo])].msg;
        }
    }
    free(refs);
    free(fill);
    rc = 0;
out:
    free(counts);
    u64_map_free(&chan);
    return rc;
}
