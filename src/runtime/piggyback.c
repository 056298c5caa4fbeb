/* piggyback.c: sending and receiving timestamp headers (piggyback.h). */
#include "piggyback.h"

#include <stdlib.h>
#include <string.h>

#include "race_check.h"
#include "request_table.h"
#include "status_fields.h"
#include "vector_clock.h"

/* Headers of nonblocking sends still in flight, reclaimed in batches. */
struct inflight {
    MPI_Request *req;
    void **buf;
    int n, cap;
};
static struct inflight fly;
/* A received shadow header, and the header a send is coding, mpirr_vc_header_max() bytes
 * each: races mode's MPI calls come from one thread at a time (a MPI_THREAD_MULTIPLE program
 * is recorded in sources mode, init_finalize.c). */
static uint8_t *rbuf, *coded;
static int header_max;

struct probed {
    MPI_Message msg;
    MPI_Comm comm;
};
static struct probed *probed;
static int nprobed, capprobed;

void mpirr_piggyback_init(void)
{
    if (mpirr_vc_init(mpirr_rt.nranks, mpirr_rt.rank, mpirr_rt.bounded_clock)) mpirr_fatal("out of memory for vector clocks");
    header_max = (int)mpirr_vc_header_max();
    rbuf = malloc((size_t)header_max);
    coded = malloc((size_t)header_max);
    if (!rbuf || !coded) mpirr_fatal("out of memory for piggyback headers");
    mpirr_wire_init();
}

static int world_rank_of(const mpirr_comm_info *ci, int rank)
{
    return rank >= 0 && rank < ci->npeers ? mpirr_comm_world_rank(ci, rank) : -1;
}

/* comm's entry when a message to or from rank on it has a slot (races mode records, comm
 * carries headers, rank is one of its ranks or MPI_ANY_SOURCE), else NULL; *w: rank's world
 * rank, -1 for MPI_ANY_SOURCE. Always inline: every message asks, and the call was 30
 * instructions of the ~50 asking took. */
static inline __attribute__((always_inline)) mpirr_comm_info *wired_info(int rank, MPI_Comm comm,
                                                                        int *w)
{
    *w = -1;
    if (!mpirr_piggybacking() || rank == MPI_PROC_NULL) return NULL;
    mpirr_lock();
    mpirr_comm_info *ci = mpirr_comm_find(comm);
    if (ci) *w = world_rank_of(ci, rank);
    mpirr_unlock();
    return ci && (*w >= 0 || rank == MPI_ANY_SOURCE) ? ci : NULL;
}

int mpirr_wired(int rank, MPI_Comm comm)
{
    int w;
    return wired_info(rank, comm, &w) != NULL;
}

/* slot[0]: the header's length when it follows in the slot (1 to 31), SLOT_FIXED | its
 * length when it follows in the fixed form (vector_clock.h), or one of the other two */
enum { SLOT_NO_HEADER = 0, SLOT_SHORT = MPIRR_WIRE_SHORT, SLOT_FIXED = 0x80, SLOT_ON_SHADOW = 0xFF };

/* A header that may not fit in its slot, coded in `coded` (rare: kept out of fill's way). */
static __attribute__((cold, noinline)) size_t code_long(int w, uint64_t seq)
{
    return mpirr_vc_header(w, seq, coded, (size_t)header_max);
}

/* Writes the header of a message to dest (world rank w) on ci into slot, or posts it on the
 * shadow and says so in the slot; or, when its sender's clock is all zero and shorten (the
 * message's layout, NULL for a persistent send) takes the short form, no header at all.
 * Flattened: the coding inlined here took 70 instructions a message fewer than the same code
 * called. */
static __attribute__((flatten)) void fill(mpirr_header_send *h, uint8_t *slot,
                                          const mpirr_comm_info *ci, int w, int dest, int tag,
                                          int blocking, mpirr_wire *shorten)
{
    mpirr_lock();
    uint64_t seq = mpirr_race_next_seq(w);
    /* Sent while the clock is all zero: it knows nothing, and the receiver needs no number
     * for it (race_check.c, note_order). */
    if (mpirr_vc_zero()) {
        seq = 0;
        if (shorten && mpirr_wire_shorten(shorten)) {
            mpirr_rt.counters[MPIRR_CTR_SHORT_MSGS]++;
            mpirr_unlock();
            return;
        }
    }
    /* Coded in the slot when it surely fits there: a copy from elsewhere would load, several
     * bytes at a time, bytes just stored one at a time, and wait for the stores to drain. The
     * fixed form first: it takes room the slot has anyway, and reads without varint loops. */
    size_t len = mpirr_vc_header_fixed(w, seq, slot + 1, MPIRR_WIRE_SLOT - 1);
    uint8_t form = len ? SLOT_FIXED : 0;
    if (!len) len = mpirr_vc_header(w, seq, slot + 1, MPIRR_WIRE_SLOT - 1);
    int in_slot = len != 0;
    if (!in_slot) len = code_long(w, seq);
    mpirr_rt.counters[MPIRR_CTR_PIGGYBACK_BYTES] += len;
    mpirr_rt.counters[MPIRR_CTR_PIGGYBACK_MSGS]++;
    if (len < MPIRR_WIRE_SLOT) {
        slot[0] = (uint8_t)(form | len);
        if (!in_slot) memcpy(slot + 1, coded, len);
        mpirr_unlock();
        return;
    }
    slot[0] = SLOT_ON_SHADOW;
    h->to_self = w == mpirr_rt.rank;
    /* a nonblocking send's header, or one to self (never waited for), outlives the call */
    h->buf = blocking && !h->to_self && len <= sizeof h->local ? h->local : malloc(len);
    if (!h->buf) mpirr_fatal("out of memory for piggyback headers");
    memcpy(h->buf, coded, len);
    mpirr_unlock();
    if (PMPI_Isend(h->buf, (int)len, MPI_BYTE, dest, tag, mpirr_comm_shadow(ci), &h->req) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not send a timestamp header", mpirr_rt.rank);
    h->active = 1;
}

void mpirr_header_fill(mpirr_header_send *h, uint8_t *slot, int dest, int tag, MPI_Comm comm,
                       int blocking)
{
    int w;
    const mpirr_comm_info *ci = wired_info(dest, comm, &w);
    h->active = 0;
    slot[0] = SLOT_NO_HEADER;
    if (ci && w >= 0) fill(h, slot, ci, w, dest, tag, blocking, NULL); /* else freed meanwhile */
}

void mpirr_header_post(mpirr_header_send *h, mpirr_wire *w, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm, int blocking)
{
    int wdest;
    h->active = 0;
    const mpirr_comm_info *ci = mpirr_message_counted(dest) ? wired_info(dest, comm, &wdest) : NULL;
    if (!ci || wdest < 0) { /* no slot, or an invalid rank: MPI reports it */
        mpirr_wire_plain(w, buf, count, type);
        return;
    }
    if (blocking == MPIRR_POST_COPY) mpirr_wire_send_copy(w, buf, count, type);
    else mpirr_wire_send(w, buf, count, type, !blocking);
    if (w->d.slot) fill(h, w->d.slot, ci, wdest, dest, tag, blocking != 0, w);
}

void mpirr_recv_wire(mpirr_wire *w, void *buf, int count, MPI_Datatype type, int source,
                     MPI_Comm comm, int keep)
{
    int ws;
    const mpirr_comm_info *ci = wired_info(source, comm, &ws);
    if (!ci) {
        mpirr_wire_plain(w, buf, count, type);
        return;
    }
    mpirr_wire_recv(w, buf, count, type, keep);
    if (!keep) w->d.ci = ci;
}

/* A nonblocking send's heap storage: freed when MPI is done with it, which the request's
 * completion tells (completion.c), or now. Only an incomplete request is tracked: its handle
 * is unique, where a completed one may be a handle MPI shares (request_table.h). */
void mpirr_header_send_storage(void *heap, int rc, const MPI_Request *request)
{
    int done = 1;
    if (rc == MPI_SUCCESS && request && *request != MPI_REQUEST_NULL &&
        PMPI_Request_get_status(*request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        done = 0;
    if (done) {
        free(heap);
        return;
    }
    mpirr_lock();
    tracked_request *e = mpirr_track_add(*request);
    e->flags = TRACK_WIRE_SEND;
    e->replay_cancelled = -1;
    e->wire.heap = heap;
    mpirr_unlock();
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

void mpirr_header_shadow_done(mpirr_header_send *h, int blocking)
{
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

/* The header a slot holds (or announces on the shadow); 0, or -1 if it is malformed. */
static int read_header(const uint8_t *slot, int src, const MPI_Status *st, MPI_Comm shadow,
                       uint64_t *seq, uint64_t *knows_me)
{
    const uint8_t *hdr = slot + 1;
    int len = slot[0], fixed = (len & ~0x1f) == SLOT_FIXED; /* fixed: lengths up to 31 */
    if (len == SLOT_SHORT) { /* sent while its sender's clock was all zero */
        *seq = *knows_me = 0;
        return 0;
    }
    if (fixed) {
        len &= 0x1f;
    } else if (slot[0] == SLOT_ON_SHADOW) {
        /* The header is on its way: its sender posted it before the data message. */
        MPI_Status hs;
        if (PMPI_Recv(rbuf, header_max, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, shadow, &hs) != MPI_SUCCESS)
            mpirr_fatal("races mode: rank %d could not receive a timestamp header", mpirr_rt.rank);
        PMPI_Get_count(&hs, MPI_BYTE, &len);
        hdr = rbuf;
    } else if (len >= MPIRR_WIRE_SLOT) {
        return -1;
    }
    mpirr_lock();
    int bad = fixed ? mpirr_vc_apply_fixed(src, hdr, (size_t)len, seq, knows_me)
                    : mpirr_vc_apply(src, hdr, (size_t)len, seq, knows_me);
    mpirr_unlock();
    return bad;
}

/* A status that consumed a message: not cancelled (*cancelled says), from a real source. */
static int matched_message(const MPI_Status *st, int *cancelled)
{
    *cancelled = mpirr_status_cancelled(st);
    return !*cancelled && mpirr_is_rank(st->MPI_SOURCE);
}

int mpirr_raise(MPI_Comm comm, int rc, int raised)
{
    if (raised == MPI_SUCCESS) return rc;
    if (comm != MPI_COMM_NULL) PMPI_Comm_call_errhandler(comm, raised);
    return raised;
}

int mpirr_header_receive(MPI_Comm comm, int rc, MPI_Status *st, int wild_id, mpirr_wire_data *d)
{
    int cancelled = 0, truncated = 0;
    int matched = mpirr_consumed_message(rc) && matched_message(st, &cancelled);
    const uint8_t *slot = matched && d && d->slot ? mpirr_wire_received(d, st, &truncated) : NULL;
    int raised = truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (!mpirr_rt.piggyback || !mpirr_rt.active) return raised;
    const mpirr_comm_info *ci = d ? d->ci : NULL;
    if (!ci) {
        mpirr_lock();
        ci = comm == MPI_COMM_NULL ? NULL : mpirr_comm_find(comm);
        mpirr_unlock();
    }
    int src = ci && matched ? world_rank_of(ci, st->MPI_SOURCE) : -1;
    MPI_Comm shadow = ci ? mpirr_comm_shadow(ci) : MPI_COMM_NULL;
    /* A truncated receive's slot is not read: MPICH may leave it unwritten (and its count
     * undefined), and a header announced on the shadow could then never be told apart from
     * garbage (docs/races.md, limits). */
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) PMPI_Error_class(rc, &cls);
    if (src >= 0 && slot && slot[0] != SLOT_NO_HEADER && cls != MPI_ERR_TRUNCATE) {
        uint64_t seq = 0, knows_me = 0;
        if (read_header(slot, src, st, shadow, &seq, &knows_me))
            mpirr_fatal("races mode: rank %d got a malformed timestamp header from rank %d "
                        "(a message without its header: is another tool sending on mpirr's "
                        "communicators?)", mpirr_rt.rank, src);
        mpirr_race_arrived(ci, src, st->MPI_TAG, seq, knows_me, wild_id);
    }
    if (wild_id >= 0)
        mpirr_race_completed(wild_id, matched, matched ? st->MPI_SOURCE : 0,
                             matched ? st->MPI_TAG : 0, src, cancelled);
    return raised;
}

void mpirr_header_peek(mpirr_wire_data *d, MPI_Status *st)
{
    int cancelled, truncated; /* reported by the completion that follows */
    if (matched_message(st, &cancelled)) mpirr_wire_received(d, st, &truncated);
}

void mpirr_header_probed(MPI_Comm comm, MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE && mpirr_is_rank(st->MPI_SOURCE) && mpirr_wired(MPI_ANY_SOURCE, comm))
        mpirr_wire_probed(st);
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
    free(coded);
    rbuf = coded = NULL;
    mpirr_vc_free();
    mpirr_wire_finish();
}
