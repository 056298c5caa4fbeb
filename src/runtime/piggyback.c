/* piggyback.c: sending and receiving timestamp headers (piggyback.h). */
#include "piggyback.h"

#include <stdlib.h>
#include <string.h>

#include "race_check.h"
#include "vector_clock.h"

/* Headers of nonblocking sends still in flight, reclaimed in batches. */
struct inflight {
    MPI_Request *req;
    void **buf;
    int n, cap;
};
static struct inflight fly;
static uint8_t *rbuf; /* receive buffer, mpirr_vc_header_max() bytes */
static int rbuf_len;

struct probed {
    MPI_Message msg;
    MPI_Comm comm;
};
static struct probed *probed;
static int nprobed, capprobed;

void mpirr_piggyback_init(void)
{
    if (mpirr_vc_init(mpirr_rt.nranks, mpirr_rt.rank)) mpirr_fatal("out of memory for vector clocks");
    rbuf_len = (int)mpirr_vc_header_max();
    rbuf = malloc((size_t)rbuf_len);
    if (!rbuf) mpirr_fatal("out of memory for piggyback headers");
}

static int world_rank_of(const mpirr_comm_info *ci, int rank)
{
    return rank >= 0 && rank < ci->npeers ? ci->world[rank] : -1;
}

void mpirr_header_post(mpirr_header_send *h, int dest, int tag, MPI_Comm comm, uint64_t now,
                       int blocking)
{
    h->active = 0;
    if (dest == MPI_PROC_NULL || !mpirr_rt.active) return;
    mpirr_rt.counters[MPIRR_CTR_MSGS_SENT]++;
    if (!mpirr_rt.piggyback) return;
    mpirr_lock();
    mpirr_comm_info *ci = mpirr_comm_find(comm);
    int w = ci ? world_rank_of(ci, dest) : -1;
    if (w < 0) { /* unregistered communicator or invalid rank: MPI reports the latter */
        mpirr_unlock();
        return;
    }
    MPI_Comm shadow = ci->shadow;
    size_t max = mpirr_vc_header_max();
    h->to_self = w == mpirr_rt.rank;
    h->buf = blocking && !h->to_self && max <= sizeof h->local ? h->local : malloc(max);
    if (!h->buf) mpirr_fatal("out of memory for piggyback headers");
    uint64_t seq = mpirr_race_next_seq(w);
    size_t len = mpirr_vc_header(w, seq, now, h->buf);
    mpirr_rt.counters[MPIRR_CTR_PIGGYBACK_BYTES] += len;
    mpirr_rt.counters[MPIRR_CTR_PIGGYBACK_MSGS]++;
    mpirr_unlock();
    if (PMPI_Isend(h->buf, (int)len, MPI_BYTE, dest, tag, shadow, &h->req) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not send a timestamp header", mpirr_rt.rank);
    h->active = 1;
}

/* Completes finished in-flight headers; caller holds the lock. */
static void reclaim(void)
{
    int done = 0, *idx = malloc((size_t)fly.n * sizeof *idx);
    MPI_Status *sts = malloc((size_t)fly.n * sizeof *sts); /* not STATUSES_IGNORE: see finish */
    if (!idx || !sts) mpirr_fatal("out of memory for piggyback headers");
    if (PMPI_Testsome(fly.n, fly.req, &done, idx, sts) == MPI_SUCCESS && done > 0) {
        for (int k = 0; k < done; k++) {
            free(fly.buf[idx[k]]);
            fly.buf[idx[k]] = NULL;
        }
        int j = 0;
        for (int i = 0; i < fly.n; i++)
            if (fly.buf[i]) {
                fly.req[j] = fly.req[i];
                fly.buf[j++] = fly.buf[i];
            }
        fly.n = j;
    }
    free(idx);
    free(sts);
}

void mpirr_header_done(mpirr_header_send *h, int blocking)
{
    if (!h->active) return;
    if (blocking && !h->to_self) {
        PMPI_Wait(&h->req, MPI_STATUS_IGNORE);
        if (h->buf != h->local) free(h->buf);
        return;
    }
    mpirr_lock();
    if (fly.n == fly.cap) {
        if (fly.n >= 64) reclaim();
        if (fly.n == fly.cap) {
            fly.cap = fly.cap ? 2 * fly.cap : 64;
            fly.req = realloc(fly.req, (size_t)fly.cap * sizeof *fly.req);
            fly.buf = realloc(fly.buf, (size_t)fly.cap * sizeof *fly.buf);
            if (!fly.req || !fly.buf) mpirr_fatal("out of memory for piggyback headers");
        }
    }
    fly.req[fly.n] = h->req;
    fly.buf[fly.n++] = h->buf;
    mpirr_unlock();
}

void mpirr_header_receive(MPI_Comm comm, int rc, const MPI_Status *st, int wild_id, uint64_t now)
{
    int cancelled = 0, consumed = mpirr_consumed_message(rc);
    if (consumed) PMPI_Test_cancelled(st, &cancelled);
    int matched = consumed && !cancelled && mpirr_is_rank(st->MPI_SOURCE);
    if (!mpirr_rt.piggyback || !mpirr_rt.active) return;
    mpirr_lock();
    mpirr_comm_info *ci = comm == MPI_COMM_NULL ? NULL : mpirr_comm_find(comm);
    int src = ci && matched ? world_rank_of(ci, st->MPI_SOURCE) : -1;
    MPI_Comm shadow = ci ? ci->shadow : MPI_COMM_NULL;
    mpirr_unlock();
    if (src >= 0) {
        /* The header is on its way: its sender posted it before the data message. */
        MPI_Status hs;
        if (PMPI_Recv(rbuf, rbuf_len, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, shadow, &hs) != MPI_SUCCESS)
            mpirr_fatal("races mode: rank %d could not receive a timestamp header", mpirr_rt.rank);
        int len = 0;
        PMPI_Get_count(&hs, MPI_BYTE, &len);
        uint64_t seq = 0, knows_me = 0;
        mpirr_lock();
        int bad = mpirr_vc_apply(src, rbuf, (size_t)len, &seq, &knows_me);
        mpirr_unlock();
        if (bad)
            mpirr_fatal("races mode: rank %d got a malformed timestamp header from rank %d "
                        "(a message without its header: is another tool sending on mpirr's "
                        "shadow communicators?)", mpirr_rt.rank, src);
        mpirr_race_arrived(ci, src, st->MPI_TAG, seq, knows_me, wild_id);
    }
    if (wild_id >= 0)
        mpirr_race_completed(wild_id, now, matched, matched ? st->MPI_SOURCE : 0,
                             matched ? st->MPI_TAG : 0, src, cancelled);
}

void mpirr_message_probed(MPI_Message msg, MPI_Comm comm)
{
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return;
    mpirr_lock();
    if (nprobed == capprobed) {
        capprobed = capprobed ? 2 * capprobed : 8;
        probed = realloc(probed, (size_t)capprobed * sizeof *probed);
        if (!probed) mpirr_fatal("out of memory");
    }
    probed[nprobed++] = (struct probed){msg, comm};
    mpirr_unlock();
}

MPI_Comm mpirr_message_comm(MPI_Message msg)
{
    MPI_Comm c = MPI_COMM_NULL;
    mpirr_lock();
    for (int i = 0; i < nprobed; i++)
        if (probed[i].msg == msg) {
            c = probed[i].comm;
            probed[i] = probed[--nprobed];
            break;
        }
    mpirr_unlock();
    return c;
}

void mpirr_piggyback_finish(void)
{
    /* Real statuses: GCC's access checks reject Open MPI's MPI_STATUSES_IGNORE (a null cast). */
    MPI_Status *sts = fly.n ? malloc((size_t)fly.n * sizeof *sts) : NULL;
    if (fly.n && !sts) mpirr_fatal("out of memory for piggyback headers");
    if (fly.n) PMPI_Waitall(fly.n, fly.req, sts);
    free(sts);
    for (int i = 0; i < fly.n; i++) free(fly.buf[i]);
    free(fly.req);
    free(fly.buf);
    memset(&fly, 0, sizeof fly);
    free(probed);
    probed = NULL;
    nprobed = capprobed = 0;
    free(rbuf);
    rbuf = NULL;
    mpirr_vc_free();
}
