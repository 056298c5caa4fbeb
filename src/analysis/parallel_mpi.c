/* parallel_mpi.c: the only part of the parallel analysis that calls MPI (mpirr races --mpi;
 * docs/analysis.md "Parallel analysis"). Built once per MPI implementation as
 * lib/mpirr/<impl>/libmpirr_par.so, which mpirr opens only when it runs under that
 * implementation's launcher: mpirr itself never links MPI. Its interface (parallel_mpi.h)
 * carries bytes only, so mpirr needs no MPI header. */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "parallel_mpi.h"

/* One MPI message at most this long (counts are ints). */
#define CHUNK ((uint64_t)1 << 30)

int mpirr_par_init(int *rank, int *size)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited && MPI_Init(NULL, NULL) != MPI_SUCCESS) return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

static int transfer(void *data, uint64_t len, int peer, int send)
{
    for (uint64_t off = 0; off < len; off += CHUNK) {
        int n = (int)(len - off < CHUNK ? len - off : CHUNK);
        char *p = (char *)data + off;
        int rc = send ? MPI_Send(p, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD)
                      : MPI_Recv(p, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return -1;
    }
    return 0;
}

int mpirr_par_gather(const void *data, uint64_t len, int status, mpirr_par_each each, void *arg)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        uint64_t head[2] = {(uint64_t)status, len};
        if (MPI_Send(head, 2, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
        return transfer((void *)data, len, 0, 1);
    }
    int rc = each(arg, 0, data, len, status);
    /* every block is received, also after one failed, so that no sender waits forever */
    for (int from = 1; from < size; from++) {
        uint64_t head[2];
        if (MPI_Recv(head, 2, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        void *buf = malloc(head[1] ? head[1] : 1);
        if (!buf) return -1;
        if (transfer(buf, head[1], from, 0)) {
            free(buf);
            return -1;
        }
        int r = each(arg, from, buf, head[1], (int)head[0]);
        free(buf);
        if (r && !rc) rc = r;
    }
    return rc;
}

/* Posts the transfer of len bytes at data with peer as CHUNK-long pieces (tag 2) into reqs. */
static int post(void *data, uint64_t len, int peer, int send, MPI_Request *reqs, int *nreq)
{
    for (uint64_t off = 0; off < len; off += CHUNK) {
        int n = (int)(len - off < CHUNK ? len - off : CHUNK);
        char *p = (char *)data + off;
        int rc = send ? MPI_Isend(p, n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &reqs[(*nreq)++])
                      : MPI_Irecv(p, n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &reqs[(*nreq)++]);
        if (rc != MPI_SUCCESS) return -1;
    }
    return 0;
}

int mpirr_par_exchange(void *const *out, const uint64_t *outlen, int status, void **in, uint64_t *inlen)
{
    int size, any = status != 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint64_t npieces = 0;
    if (MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
    if (any) return 1; /* out, in may be NULL then */
    for (int q = 0; q < size; q++) in[q] = NULL, inlen[q] = 0;
    if (MPI_Alltoall((void *)outlen, 1, MPI_UINT64_T, inlen, 1, MPI_UINT64_T, MPI_COMM_WORLD) != MPI_SUCCESS)
        return -1;
    for (int q = 0; q < size; q++) {
        npieces += (outlen[q] + CHUNK - 1) / CHUNK + (inlen[q] + CHUNK - 1) / CHUNK;
        if (inlen[q] && !(in[q] = malloc(inlen[q]))) any = 1;
    }
    MPI_Request *reqs = malloc((npieces ? npieces : 1) * sizeof *reqs);
    /* out of memory here is agreed on too, so that no process waits for these bytes */
    if (!reqs) any = 1;
    if (MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) any = -1;
    int nreq = 0, rc = any ? (any < 0 ? -1 : 1) : 0;
    for (int q = 0; q < size && !rc; q++)
        if (post(in[q], inlen[q], q, 0, reqs, &nreq) || post(out[q], outlen[q], q, 1, reqs, &nreq)) rc = -1;
    /* one by one: gcc takes MPICH's MPI_STATUSES_IGNORE for an array of no statuses */
    for (int k = 0; k < nreq; k++)
        if (MPI_Wait(&reqs[k], MPI_STATUS_IGNORE) != MPI_SUCCESS) rc = -1;
    free(reqs);
    if (rc)
        for (int q = 0; q < size; q++) free(in[q]), in[q] = NULL, inlen[q] = 0;
    return rc;
}

int mpirr_par_exscan(uint64_t v, uint64_t *before)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *before = 0;
    if (MPI_Exscan(&v, before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
    if (rank == 0) *before = 0; /* MPI leaves rank 0's result undefined */
    return 0;
}

/* The sweep's traffic: each batch is a header (tag 4: its length) and then its bytes (tag 3),
 * so that a process with nothing to do can block in one MPI_Waitany on the next header and the
 * wave under way, rather than poll. The posts not known to be sent yet (headers and bytes), the
 * header receive posted here, and the wave. */
static struct {
    MPI_Request *req;
    void **buf;
    int n, cap;
    MPI_Request wave;
    int waving, wave_done;
    uint64_t in[4], out[4];
    MPI_Request head;   /* the next header, from anyone */
    int heading, head_done;
    uint64_t head_len;
    MPI_Status head_st;
} flow;

/* Frees the buffers of the posts that are sent (all: waits for every one). */
static int reap(int all)
{
    int rc = 0;
    for (int i = 0; i < flow.n;) {
        int done = 1;
        if (all ? MPI_Wait(&flow.req[i], MPI_STATUS_IGNORE) != MPI_SUCCESS
                : MPI_Test(&flow.req[i], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            rc = -1;
        if (!done) {
            i++;
            continue;
        }
        free(flow.buf[i]);
        flow.n--;
        flow.req[i] = flow.req[flow.n];
        flow.buf[i] = flow.buf[flow.n];
    }
    return rc;
}

/* An Isend of len bytes at data (the library's from then on) to dest with tag. */
static int post_owned(int dest, void *data, uint64_t len, int tag)
{
    if (flow.n == flow.cap) {
        int cap = flow.cap ? 2 * flow.cap : 64;
        MPI_Request *r = realloc(flow.req, (size_t)cap * sizeof *r);
        if (r) flow.req = r;
        void **b = r ? realloc(flow.buf, (size_t)cap * sizeof *b) : NULL;
        if (!b) {
            free(data);
            return -1;
        }
        flow.buf = b;
        flow.cap = cap;
    }
    if (MPI_Isend(data, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &flow.req[flow.n]) != MPI_SUCCESS) {
        free(data);
        return -1;
    }
    flow.buf[flow.n++] = data;
    return 0;
}

int mpirr_par_post(int dest, void *data, uint64_t len)
{
    uint64_t *head = malloc(sizeof *head);
    if (len > INT_MAX || !head) {
        free(head);
        free(data);
        return -1;
    }
    *head = len;
    if (post_owned(dest, head, sizeof *head, 4) || post_owned(dest, data, len, 3)) return -1;
    return reap(0);
}

/* The receive of the next header, posted unless it is. */
static int head_posted(void)
{
    if (flow.heading) return 0;
    if (MPI_Irecv(&flow.head_len, 1, MPI_UINT64_T, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &flow.head) != MPI_SUCCESS)
        return -1;
    flow.heading = 1;
    flow.head_done = 0;
    return 0;
}

int mpirr_par_poll(void **data, uint64_t *len)
{
    if (reap(0) || head_posted()) return -1;
    if (!flow.head_done && MPI_Test(&flow.head, &flow.head_done, &flow.head_st) != MPI_SUCCESS) return -1;
    if (!flow.head_done) return 0;
    flow.heading = 0; /* the next poll posts the next one */
    uint64_t n = flow.head_len;
    void *buf = malloc(n ? (size_t)n : 1);
    if (n > INT_MAX || !buf) {
        free(buf);
        return -1;
    }
    /* a sender's bytes follow its header: MPI does not let them overtake it */
    if (MPI_Recv(buf, (int)n, MPI_BYTE, flow.head_st.MPI_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 1;
}

int mpirr_par_wave(const uint64_t *v, uint64_t *sum, int n)
{
    if (n > 4) return -1;
    if (!flow.waving) {
        memcpy(flow.in, v, (size_t)n * sizeof *v);
        if (MPI_Iallreduce(flow.in, flow.out, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &flow.wave) != MPI_SUCCESS)
            return -1;
        flow.waving = 1;
        flow.wave_done = 0;
    }
    if (!flow.wave_done && MPI_Test(&flow.wave, &flow.wave_done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
    if (!flow.wave_done) return 0;
    flow.waving = 0;
    memcpy(sum, flow.out, (size_t)n * sizeof *sum);
    return 1;
}

int mpirr_par_await(void)
{
    if (head_posted()) return -1;
    if (flow.head_done || (flow.waving && flow.wave_done)) return 0;
    if (!flow.waving) return MPI_Wait(&flow.head, &flow.head_st) == MPI_SUCCESS ? (flow.head_done = 1, 0) : -1;
    MPI_Request r[2] = {flow.head, flow.wave};
    MPI_Status st;
    int which;
    if (MPI_Waitany(2, r, &which, &st) != MPI_SUCCESS) return -1;
    if (which == 0) {
        flow.head = r[0];
        flow.head_st = st;
        flow.head_done = 1;
    } else {
        flow.wave = r[1];
        flow.wave_done = 1;
    }
    return 0;
}

/* The header receive nobody will answer any more, withdrawn. */
static void head_cancel(void)
{
    if (!flow.heading || flow.head_done) {
        flow.heading = 0;
        return;
    }
    MPI_Cancel(&flow.head);
    MPI_Wait(&flow.head, MPI_STATUS_IGNORE);
    flow.heading = 0;
}

void mpirr_par_drain(void)
{
    reap(1);
    head_cancel();
    free(flow.req);
    free(flow.buf);
    flow.req = NULL;
    flow.buf = NULL;
    flow.n = flow.cap = 0;
}

void mpirr_par_finalize(void)
{
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) head_cancel();
    if (!fin) MPI_Finalize();
}
