/* cand_index.c: a wildcard receive's race candidates found on demand (cand_index.h): channels
 * as ranges of message ids, streams as lists with running maxima, both searched from where the
 * last search on them ended. */
#include "cand_index.h"

#include <stdlib.h>
#include <string.h>

#include "reserve.h"

static uint64_t tgroup_key(uint32_t p, uint32_t comm, int32_t tag)
{
    return u64_mix(u64_mix(u64_mix(0x76a, p), comm), (uint32_t)tag);
}

static uint64_t stream_key(uint32_t p, uint32_t comm, uint32_t q)
{
    return u64_mix(u64_mix(u64_mix(0x57e, p), comm), q);
}

static uint64_t sgroup_key(uint32_t p, uint32_t comm) { return u64_mix(u64_mix(0x96b, p), comm); }

static const an_op *send_of(const an_run *run, uint32_t m)
{
    return &run->ranks[run->msgs[m].sender].ops[run->msgs[m].send_op];
}

int ci_same_channel(const an_run *run, uint32_t a, uint32_t b)
{
    const an_msg *x = &run->msgs[a], *y = &run->msgs[b];
    const an_op *sx = send_of(run, a), *sy = send_of(run, b);
    return x->sender == y->sender && x->receiver == y->receiver && sx->comm == sy->comm && sx->tag == sy->tag;
}

uint32_t ci_first_at_least(const void *base, size_t stride, uint32_t n, uint32_t key, uint32_t *hint)
{
#define V(j) (*(const uint32_t *)((const char *)base + (size_t)(j) * stride))
    uint32_t h = *hint < n ? *hint : n, lo, hi;
    if (h < n && V(h) < key) { /* ahead of the hint: gallop forward */
        uint64_t step = 1;
        lo = h + 1;
        while (step < n - h && V(h + step) < key) {
            lo = (uint32_t)(h + step + 1);
            step *= 2;
        }
        hi = step < n - h ? (uint32_t)(h + step) : n;
    } else if (h == 0 || V(h - 1) < key) {
        lo = hi = h;
    } else {
        lo = 0;
        hi = h - 1;
    }
    while (lo < hi) { /* the answer is in [lo, hi] (hi: n, or V(hi) >= key) */
        uint32_t mid = lo + (hi - lo) / 2;
        if (V(mid) < key) lo = mid + 1;
        else hi = mid;
    }
#undef V
    *hint = lo;
    return lo;
}

/* Channels: runs of consecutive message ids with one (receiver, comm, sender, tag). */
static int build_channels(const an_run *run, an_cand_index *x)
{
    size_t cap_b = 0, cap_l = 0, cap_h = 0;
    for (uint32_t m = 0; m < run->nmsgs; m++) {
        if (m > 0 && ci_same_channel(run, m - 1, m)) {
            x->clen[x->nchan - 1]++;
            continue;
        }
        if (mpirr_reserve((void **)&x->cbase, &cap_b, x->nchan + 1, sizeof *x->cbase) ||
            mpirr_reserve((void **)&x->clen, &cap_l, x->nchan + 1, sizeof *x->clen) ||
            mpirr_reserve((void **)&x->chint, &cap_h, x->nchan + 1, sizeof *x->chint))
            return -1;
        x->cbase[x->nchan] = m;
        x->clen[x->nchan] = 1;
        x->chint[x->nchan] = 0;
        x->nchan++;
    }
    return 0;
}

/* Tag groups, each channel list by sender: the channels distributed in sender order. */
/* Groups counted into len[0..ng): start[] becomes where each group's members begin (start[0]
 * already 0), len[] is zeroed for the fill that follows, and max_senders takes the largest. */
static void bucket_starts(an_cand_index *x, uint32_t *start, uint32_t *len, uint32_t ng)
{
    for (uint32_t g = 1; g < ng; g++) start[g] = start[g - 1] + len[g - 1];
    for (uint32_t g = 0; g < ng; g++) {
        if (len[g] > x->max_senders) x->max_senders = len[g];
        len[g] = 0;
    }
}

static int build_tgroups(const an_run *run, an_cand_index *x)
{
    uint32_t n = x->nchan, ng = 0;
    uint32_t *by_sender = malloc((n + 1) * sizeof *by_sender);
    uint32_t *bucket = calloc((size_t)run->nranks + 1, sizeof *bucket);
    uint32_t *group = malloc((n + 1) * sizeof *group);
    x->tg_start = calloc(n + 1, sizeof *x->tg_start);
    x->tg_len = calloc(n + 1, sizeof *x->tg_len);
    x->tg_chan = malloc((n + 1) * sizeof *x->tg_chan);
    int rc = -1;
    if (!by_sender || !bucket || !group || !x->tg_start || !x->tg_len || !x->tg_chan) goto out;
    for (uint32_t c = 0; c < n; c++) bucket[run->msgs[x->cbase[c]].sender + 1]++;
    for (int q = 0; q < run->nranks; q++) bucket[q + 1] += bucket[q];
    for (uint32_t c = 0; c < n; c++) by_sender[bucket[run->msgs[x->cbase[c]].sender]++] = c;
    for (uint32_t c = 0; c < n; c++) {
        const an_msg *g = &run->msgs[x->cbase[c]];
        const an_op *so = send_of(run, x->cbase[c]);
        int added;
        uint64_t *s = u64_map_slot(&x->tgroup, tgroup_key(g->receiver, so->comm, so->tag), ng, &added);
        if (!s) goto out;
        ng += (uint32_t)added;
        group[c] = *s;
        x->tg_len[*s]++;
    }
    bucket_starts(x, x->tg_start, x->tg_len, ng);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = by_sender[k], t = group[c];
        x->tg_chan[x->tg_start[t] + x->tg_len[t]++] = c;
    }
    rc = 0;
out:
    free(by_sender);
    free(bucket);
    free(group);
    return rc;
}

/* Streams: every sender's messages to (receiver, comm) in its program order, numbered in order
 * of appearance (so a group's streams come by sender), with running maxima of recv_op. */
static int build_streams(const an_run *run, an_cand_index *x)
{
    size_t cap = 0, cap_l = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < run->nranks; q++) {
            const an_rank *rk = &run->ranks[q];
            for (size_t i = 0; i < rk->nops; i++) {
                const an_op *o = &rk->ops[i];
                if (o->kind != AN_SEND || o->msg == AN_NIL) continue;
                uint64_t key = stream_key((uint32_t)o->peer, o->comm, (uint32_t)q);
                int added;
                uint64_t *l = u64_map_slot(&x->stream, key, x->nstream, &added);
                if (!l) return -1;
                if (pass == 1) {
                    x->s_items[x->s_start[*l] + x->s_hint[*l]++] = o->msg;
                    continue;
                }
                if (added) {
                    if (mpirr_reserve((void **)&x->s_start, &cap, x->nstream + 1, sizeof *x->s_start) ||
                        mpirr_reserve((void **)&x->s_len, &cap_l, x->nstream + 1, sizeof *x->s_len))
                        return -1;
                    x->s_len[x->nstream++] = 0;
                }
                x->s_len[*l]++;
            }
        }
        if (pass == 1) break;
        uint32_t total = 0;
        for (uint32_t s = 0; s < x->nstream; s++) {
            x->s_start[s] = total;
            total += x->s_len[s];
        }
        x->s_items = malloc((total + 1) * sizeof *x->s_items);
        x->s_pm = malloc((total + 1) * sizeof *x->s_pm);
        x->s_hint = calloc(x->nstream + 1, sizeof *x->s_hint);
        if (!x->s_items || !x->s_pm || !x->s_hint) return -1;
    }
    uint32_t ng = 0;
    uint32_t *group = malloc((x->nstream + 1) * sizeof *group);
    x->sg_start = calloc(x->nstream + 1, sizeof *x->sg_start);
    x->sg_len = calloc(x->nstream + 1, sizeof *x->sg_len);
    x->sg_stream = malloc((x->nstream + 1) * sizeof *x->sg_stream);
    if (!group || !x->sg_start || !x->sg_len || !x->sg_stream) {
        free(group);
        return -1;
    }
    for (uint32_t s = 0; s < x->nstream; s++) {
        uint32_t pm = 0;
        for (uint32_t j = 0; j < x->s_len[s]; j++) {
            uint32_t r = run->msgs[x->s_items[x->s_start[s] + j]].recv_op;
            if (j == 0 || r > pm) pm = r;
            x->s_pm[x->s_start[s] + j] = pm;
        }
        x->s_hint[s] = 0;
        const an_msg *g = &run->msgs[x->s_items[x->s_start[s]]];
        int added;
        uint64_t *gs = u64_map_slot(&x->sgroup, sgroup_key(g->receiver, send_of(run, x->s_items[x->s_start[s]])->comm), ng, &added);
        if (!gs) {
            free(group);
            return -1;
        }
        ng += (uint32_t)added;
        group[s] = *gs;
        x->sg_len[*gs]++;
    }
    bucket_starts(x, x->sg_start, x->sg_len, ng);
    for (uint32_t s = 0; s < x->nstream; s++) x->sg_stream[x->sg_start[group[s]] + x->sg_len[group[s]]++] = s;
    free(group);
    return 0;
}

int ci_build(const an_run *run, an_cand_index *x)
{
    memset(x, 0, sizeof *x);
    x->run = run;
    for (int p = 0; p < run->nranks && !x->streams; p++)
        for (size_t i = 0; i < run->ranks[p].nops && !x->streams; i++) {
            const an_op *o = &run->ranks[p].ops[i];
            x->streams = (o->kind == AN_RECV || o->kind == AN_PROBE) && o->peer == AN_ANY && o->tag == AN_ANY;
        }
    if (build_channels(run, x) || build_tgroups(run, x)) return -1;
    if (x->streams && build_streams(run, x)) return -1;
    return 0;
}

void ci_free(an_cand_index *x)
{
    u64_map_free(&x->tgroup);
    u64_map_free(&x->stream);
    u64_map_free(&x->sgroup);
    free(x->cbase);
    free(x->clen);
    free(x->chint);
    free(x->tg_start);
    free(x->tg_len);
    free(x->tg_chan);
    free(x->s_start);
    free(x->s_len);
    free(x->s_hint);
    free(x->s_items);
    free(x->s_pm);
    free(x->sg_start);
    free(x->sg_len);
    free(x->sg_stream);
    memset(x, 0, sizeof *x);
}

uint32_t ci_cands(an_cand_index *x, int p, uint32_t i, uint32_t *list)
{
    const an_run *run = x->run;
    const an_op *r = &run->ranks[p].ops[i];
    uint32_t from = run->msgs[r->msg].sender, n = 0;
    uint64_t g;
    list[n++] = r->msg;
    if (r->tag == AN_ANY) {
        if (!x->streams || !u64_map_get(&x->sgroup, sgroup_key((uint32_t)p, r->comm), &g)) return n;
        for (uint32_t k = 0; k < x->sg_len[g]; k++) {
            uint32_t s = x->sg_stream[x->sg_start[g] + k], *items = x->s_items + x->s_start[s];
            if (run->msgs[items[0]].sender == from) continue;
            uint32_t j = ci_first_at_least(x->s_pm + x->s_start[s], sizeof *x->s_pm, x->s_len[s], i, &x->s_hint[s]);
            if (j == x->s_len[s] || an_after(&run->msgs[items[j]], r->done)) continue;
            list[n++] = items[j];
        }
        return n;
    }
    if (!u64_map_get(&x->tgroup, tgroup_key((uint32_t)p, r->comm, r->tag), &g)) return n;
    for (uint32_t k = 0; k < x->tg_len[g]; k++) {
        uint32_t c = x->tg_chan[x->tg_start[g] + k], base = x->cbase[c];
        if (run->msgs[base].sender == from) continue;
        uint32_t j = ci_first_at_least(&run->msgs[base].recv_op, sizeof *run->msgs, x->clen[c], i, &x->chint[c]);
        if (j == x->clen[c] || an_after(&run->msgs[base + j], r->done)) continue;
        list[n++] = base + j;
    }
    return n;
}

int ci_stream_prev(const an_cand_index *x, uint32_t u, uint32_t *prev, int *has_prev)
{
    const an_run *run = x->run;
    const an_msg *m = &run->msgs[u];
    uint64_t s;
    if (!x->streams || !u64_map_get(&x->stream, stream_key(m->receiver, send_of(run, u)->comm, m->sender), &s))
        return 0;
    const uint32_t *items = x->s_items + x->s_start[s];
    uint32_t lo = 0, hi = x->s_len[s];
    while (lo < hi) { /* a sender's messages in its program order */
        uint32_t mid = lo + (hi - lo) / 2;
        if (run->msgs[items[mid]].send_op < m->send_op) lo = mid + 1;
        else hi = mid;
    }
    *has_prev = lo > 0;
    *prev = lo > 0 ? x->s_pm[x->s_start[s] + lo - 1] : 0;
    return 1;
}
