/* parallel_hb.c: the happened-before sweep split across the processes of the parallel analysis
 * (docs/analysis.md "Parallel analysis"). Each process sweeps its block of ranks with
 * happened_before.c's code (an_happened_before_part); a send's vector goes to the owner of its
 * receiver, a collective contribution to every other process with a member, batched per
 * process and sent when every rank of the block waits or is done. Then the process takes what
 * arrived; with nothing there it sums, over all processes, the batches sent and received and
 * the ranks left (a wave, MPI_Iallreduce, while it keeps taking what arrives, blocked in one
 * wait for the next batch or the wave's sum, whichever comes first): two waves in a
 * row with the same counts, every batch received, mean nothing moves any more (Mattern's
 * counting), and then either every rank is done, or every rank left waits for what never
 * comes (a cut-off or inconsistent history): each skips its step, as the serial sweep does,
 * and the sweep goes on, so hb_unresolved and every vector are the serial ones. A batch sent
 * after such a skip waits on a process that has not skipped yet (its epoch). */
#include <stdlib.h>
#include <string.h>

#include "parallel_hb.h"
#include "reserve.h"
#include "u64_map.h"

/* A batch is sent once it is this long, before the block waits. */
#define BATCH ((size_t)1 << 24)

enum { REC_MSG, REC_COLL };

/* One vector in a batch (n entries follow). */
typedef struct vec_rec {
    uint64_t comm_key; /* collective: its communicator's identity */
    uint32_t type;
    uint32_t rank;     /* message: its receiver; collective: the contributing member */
    uint32_t id;       /* the message, or the collective's instance on its communicator */
    int32_t peer;      /* collective: the root */
    uint32_t flow, pad;
} vec_rec;

typedef struct hb_state {
    an_run *run;
    int lo, hi, n;
    const an_par_net *net;
    an_par_buf *out;     /* a batch per process */
    uint8_t *mark;       /* per process: a member of the collective is there */
    u64_map cid;         /* communicator identity -> this block's id */
    uint64_t **hb;       /* per rank of the block, per op: its send's hb_dest */
    uint64_t sent, received, last[2];
    int have_last, failed;
    uint64_t epoch;      /* how many times every waiting rank skipped its step */
    an_par_buf *early;   /* batches of the next epoch, taken before this process skipped */
    size_t nearly, capearly;
} hb_state;

static int flush(hb_state *st, int q)
{
    if (!st->out[q].len) return 0;
    int rc = st->net->post(q, st->out[q].data, st->out[q].len);
    memset(&st->out[q], 0, sizeof st->out[q]); /* the library's now */
    st->sent++;
    return rc;
}

static int ship(hb_state *st, int q, const vec_rec *r, const uint64_t *vc)
{
    if (!st->out[q].len && an_par_put(&st->out[q], &st->epoch, sizeof st->epoch)) return -1;
    if (an_par_put(&st->out[q], r, sizeof *r) || an_par_put(&st->out[q], vc, (size_t)st->n * sizeof *vc))
        return -1;
    return st->out[q].len >= BATCH ? flush(st, q) : 0;
}

static int ship_msg(void *arg, uint32_t msg, int receiver, const uint64_t *vc)
{
    hb_state *st = arg;
    vec_rec r = {.type = REC_MSG, .rank = (uint32_t)receiver, .id = msg};
    return ship(st, an_par_owner(st->n, st->net->np, receiver), &r, vc);
}

static int ship_coll(void *arg, const an_op *o, int member, const uint64_t *vc)
{
    hb_state *st = arg;
    const an_comm *c = &st->run->comms[o->comm];
    vec_rec r = {st->run->comm_keys[o->comm], REC_COLL, (uint32_t)member, o->coll, o->peer, o->flow, 0};
    int me = st->net->me, rc = 0;
    for (uint32_t i = 0; i < c->size + c->nremote; i++)
        if (c->world[i] >= 0 && c->world[i] < st->n) st->mark[an_par_owner(st->n, st->net->np, c->world[i])] = 1;
    for (int q = 0; q < st->net->np; q++) {
        if (st->mark[q] && q != me && !rc) rc = ship(st, q, &r, vc);
        st->mark[q] = 0;
    }
    return rc;
}

static void sent(void *arg, int rank, uint32_t op, uint64_t hb_dest)
{
    hb_state *st = arg;
    st->hb[rank - st->lo][op] = hb_dest;
}

/* A batch from another process, into the sweep. -1: it cannot be, or out of memory. */
static int deliver(hb_state *st, struct an_hb_sweep *s, const unsigned char *d, uint64_t len)
{
    const size_t one = sizeof(vec_rec) + (size_t)st->n * sizeof(uint64_t);
    if (len < sizeof st->epoch || (len - sizeof st->epoch) % one) return -1;
    for (uint64_t at = sizeof st->epoch; at < len; at += one) {
        vec_rec r;
        memcpy(&r, d + at, sizeof r);
        const uint64_t *vc = (const uint64_t *)(d + at + sizeof r);
        int rc;
        if (r.type == REC_MSG) {
            rc = an_hb_deliver_msg(s, r.id, (int)r.rank, vc);
        } else {
            uint64_t c;
            /* none of this block's ranks defined it (a history cut before): none takes part */
            if (!u64_map_get(&st->cid, r.comm_key, &c)) continue;
            an_op o = {.comm = (uint32_t)c, .peer = r.peer, .coll = r.id, .flow = (uint8_t)r.flow, .kind = AN_COLL};
            rc = an_hb_deliver_coll(s, &o, (int)r.rank, vc);
        }
        if (rc) return -1;
    }
    return 0;
}

/* A batch taken: delivered, or kept if it was sent after its sender skipped the steps this
 * process is about to skip too (it knows the verdict first: the wave's result comes here
 * next). 1 delivered. */
static int take_batch(hb_state *st, struct an_hb_sweep *s, void *d, uint64_t len)
{
    uint64_t epoch = 0;
    if (len >= sizeof epoch) memcpy(&epoch, d, sizeof epoch);
    if (!st->failed && epoch > st->epoch) {
        void *e = st->early;
        if (mpirr_reserve(&e, &st->capearly, st->nearly + 1, sizeof *st->early)) {
            st->failed = 1;
        } else {
            st->early = e;
            st->early[st->nearly++] = (an_par_buf){d, len, len};
            return 0;
        }
    }
    if (!st->failed && deliver(st, s, d, len)) st->failed = 1;
    free(d);
    return !st->failed;
}

static int idle(void *arg, struct an_hb_sweep *s, int failed)
{
    hb_state *st = arg;
    if (failed) st->failed = 1;
    for (int q = 0; q < st->net->np && !st->failed; q++)
        if (flush(st, q)) st->failed = 1;
    /* what came early: this process has skipped its steps since */
    an_par_buf *early = st->early;
    size_t nearly = st->nearly;
    int delivered = 0;
    st->early = NULL;
    st->nearly = st->capearly = 0;
    for (size_t i = 0; i < nearly; i++) delivered |= take_batch(st, s, early[i].data, early[i].len);
    free(early);
    if (delivered) return 0;
    for (;;) {
        void *d;
        uint64_t len;
        int r = st->net->poll(&d, &len);
        if (r < 0) st->failed = 1;
        if (r > 0) {
            st->received++;
            if (take_batch(st, s, d, len)) return 0;
            continue;
        }
        uint64_t v[4] = {st->sent, st->received, st->failed ? 0 : (uint64_t)an_hb_waiting(s),
                         (uint64_t)st->failed},
                 sum[4];
        int w = st->net->wave(v, sum, 4);
        if (w < 0) return -1; /* MPI failed: no agreement is possible */
        if (!w) {
            /* nothing to do until a batch or the wave's sum arrives: block, do not spin */
            if (st->net->await()) return -1;
            continue;
        }
        /* a failure is agreed on once every batch is taken, so that no send waits for ever */
        if (sum[3] && sum[0] == sum[1]) return -1;
        if (sum[3]) st->failed = 1;
        if (!sum[3] && sum[0] == sum[1] && st->have_last && st->last[0] == sum[0] && st->last[1] == sum[1]) {
            st->have_last = 0;
            st->epoch += sum[2] != 0;
            return sum[2] ? 2 : 1;
        }
        st->last[0] = sum[0];
        st->last[1] = sum[1];
        st->have_last = 1;
    }
}

int an_par_happened_before(an_run *run, int lo, int hi, const an_par_net *net, uint64_t ***hb)
{
    hb_state st = {.run = run, .lo = lo, .hi = hi, .n = run->nranks, .net = net};
    int rc = -1;
    st.out = calloc((size_t)net->np, sizeof *st.out);
    st.mark = calloc((size_t)net->np, 1);
    st.hb = calloc((size_t)(hi - lo) + 1, sizeof *st.hb);
    int ok = st.out && st.mark && st.hb;
    for (int p = lo; ok && p < hi; p++)
        ok = (st.hb[p - lo] = calloc(run->ranks[p].nops + 1, sizeof **st.hb)) != NULL;
    for (uint32_t c = 0; ok && c < run->ncomms; c++) ok = u64_map_put(&st.cid, run->comm_keys[c], c) == 0;
    an_hb_part part = {lo, hi, &st, ship_msg, ship_coll, sent, idle};
    if (ok) rc = an_happened_before_part(run, &part);
    else
        idle(&st, NULL, 1); /* the others learn it at their next wave */
    net->drain();
    if (st.out)
        for (int q = 0; q < net->np; q++) an_par_buf_free(&st.out[q]);
    free(st.out);
    free(st.mark);
    for (size_t i = 0; i < st.nearly; i++) free(st.early[i].data);
    free(st.early);
    u64_map_free(&st.cid);
    if (rc && st.hb) {
        for (int p = lo; p < hi; p++) free(st.hb[p - lo]);
        free(st.hb);
        st.hb = NULL;
    }
    *hb = st.hb;
    return rc;
}
