/* matching.c: pairs every send with the receive that got its message. MPI does not overtake:
 * on one channel (communicator, sender, receiver, tag) messages are received in the order
 * they were sent, by receives in the order they were posted; so the k-th send of a channel
 * pairs with the k-th receive whose recorded match names that sender and tag, whether the
 * receive named them or used wildcards. */
#include <stdlib.h>

#include "analysis.h"
#include "spill.h"
#include "u64_map.h"

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

/* How many messages channel c has, once counts[2c] holds each channel's first message. */
static uint32_t channel_sends(const uint32_t *counts, uint32_t nchan, uint32_t nmsgs, uint64_t c)
{
    return (c + 1 < nchan ? counts[2 * (c + 1)] : nmsgs) - counts[2 * c];
}

int an_match(an_run *run)
{
    u64_map chan = {0};
    uint32_t nchan = 0;
    /* pass 1: number the channels (in order of first appearance) and count each side */
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
    /* pass 2: the k-th send of a channel is message base + k, and the k-th receive gets it,
     * counting in rank order then post order: one sender's sends (and one receiver's
     * receives) on a channel come in their program order. Messages are numbered channel by
     * channel, so a channel's are consecutive; nothing per op is kept but the op itself. */
    uint32_t nmsgs = 0;
    for (uint32_t c = 0; c < nchan; c++) {
        uint32_t ns = counts[2 * c];
        counts[2 * c] = nmsgs; /* now the channel's first message */
        nmsgs += ns;
    }
    uint32_t *seen = calloc(2 * (size_t)nchan + 1, sizeof *seen); /* sends, receives so far */
    an_spill_free(run->spill, run->msgs);
    run->msgs = NULL;
    size_t msgs_cap = 0;
    if (!seen || an_spill_reserve(run->spill, (void **)&run->msgs, &msgs_cap, nmsgs ? nmsgs : 1,
                                  sizeof *run->msgs)) {
        free(seen);
        goto out;
    }
    run->nmsgs = nmsgs;
    run->unmatched_sends = run->unmatched_recvs = 0;
    for (uint32_t m = 0; m < nmsgs; m++) run->msgs[m].recv_op = AN_NIL;
    for (int p = 0; p < run->nranks; p++) {
        an_rank *rk = &run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            an_op *o = &rk->ops[i];
            uint64_t key, c;
            int is_send;
            if (o->kind == AN_PROBE) {
                /* a probe saw the message the next receive of its channel would have got:
                 * the first one no receive posted before the probe took (the channel's
                 * receives are all this rank's, counted so far in post order) */
                if (o->msrc >= 0 &&
                    u64_map_get(&chan, channel_key(o->comm, (uint32_t)o->msrc, (uint32_t)p, o->mtag), &c) &&
                    seen[2 * c + 1] < channel_sends(counts, nchan, nmsgs, c))
                    o->msg = counts[2 * c] + seen[2 * c + 1];
                continue;
            }
            if (!op_channel(o, p, &key, &is_send) || !u64_map_get(&chan, key, &c)) continue;
            uint32_t k = seen[2 * c + !is_send]++;
            if (is_send) {
                uint32_t id = counts[2 * c] + k;
                an_msg *m = &run->msgs[id];
                m->sender = (uint32_t)p;
                m->send_op = (uint32_t)i;
                m->receiver = (uint32_t)o->peer;
                m->hb_dest = 0;
                o->msg = id;
            } else if (k < channel_sends(counts, nchan, nmsgs, c)) {
                run->msgs[counts[2 * c] + k].recv_op = (uint32_t)i;
                o->msg = counts[2 * c] + k;
            }
        }
    }
    for (uint32_t c = 0; c < nchan; c++) {
        uint32_t ns = channel_sends(counts, nchan, nmsgs, c), nr = seen[2 * c + 1];
        if (ns > nr) run->unmatched_sends += ns - nr;
        else run->unmatched_recvs += nr - ns;
    }
    free(seen);
    rc = 0;
out:
    free(counts);
    u64_map_free(&chan);
    return rc;
}
