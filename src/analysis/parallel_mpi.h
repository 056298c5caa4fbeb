/* parallel_mpi.h: what libmpirr_par.so (parallel_mpi.c, linked against one MPI) offers the
 * parallel analysis; mpirr opens it with dlopen and looks these names up. Bytes only. */
#ifndef MPIRR_PARALLEL_MPI_H
#define MPIRR_PARALLEL_MPI_H

#include <stdint.h>

/* Rank 0's handler of one process's block, in rank order: 0, or what gather returns. */
typedef int (*mpirr_par_each)(void *arg, int from, const void *data, uint64_t len, int status);

/* MPI_Init (unless done): this process's rank and the process count. -1: failed. */
int mpirr_par_init(int *rank, int *size);
/* Every process's bytes (and a status: 0 a block, else an error text) to rank 0, handed to
 * each in rank order (rank 0's own first); the other ranks only send. Rank 0 receives every
 * block even after a handler failed. The first nonzero handler result, or -1 if MPI failed. */
int mpirr_par_gather(const void *data, uint64_t len, int status, mpirr_par_each each, void *arg);
/* Every process's out[q] (outlen[q] bytes) to process q, after an agreement on status: if any
 * process's status is nonzero nothing moves and 1 is returned everywhere (out and in may be NULL
 * with a nonzero status). Otherwise in[q]
 * (malloc'd, the caller frees; NULL when empty) and inlen[q] are what q sent here, and 0.
 * -1: MPI failed. Collective: every process calls it. */
int mpirr_par_exchange(void *const *out, const uint64_t *outlen, int status, void **in, uint64_t *inlen);
/* The sum of v over the processes before this one (0 on rank 0). -1: MPI failed. Collective. */
int mpirr_par_exscan(uint64_t v, uint64_t *before);
/* The happened-before sweep's traffic (tags 3 and 4), point to point: mpirr_par_post sends len
 * bytes to dest (the buffer is the library's from then on: freed once sent, or on failure);
 * mpirr_par_poll: 1 and the next batch that arrived from anyone (the caller frees it), 0 none
 * yet; mpirr_par_await blocks (no polling) until a batch has arrived or the wave under way is
 * complete, whichever is first; mpirr_par_wave:
 * a sum over every process of v[0 .. n) (n <= 4), started if none is under way, 1 and sum once
 * it is complete, 0 not yet (every process starts its waves in the same order); mpirr_par_drain
 * waits until every post is sent. -1: MPI failed. */
int mpirr_par_post(int dest, void *data, uint64_t len);
int mpirr_par_poll(void **data, uint64_t *len);
int mpirr_par_wave(const uint64_t *v, uint64_t *sum, int n);
int mpirr_par_await(void);
void mpirr_par_drain(void);
void mpirr_par_finalize(void);

typedef int (*mpirr_par_init_fn)(int *, int *);
typedef int (*mpirr_par_gather_fn)(const void *, uint64_t, int, mpirr_par_each, void *);
typedef int (*mpirr_par_exchange_fn)(void *const *, const uint64_t *, int, void **, uint64_t *);
typedef int (*mpirr_par_exscan_fn)(uint64_t, uint64_t *);
typedef int (*mpirr_par_post_fn)(int, void *, uint64_t);
typedef int (*mpirr_par_poll_fn)(void **, uint64_t *);
typedef int (*mpirr_par_wave_fn)(const uint64_t *, uint64_t *, int);
typedef int (*mpirr_par_await_fn)(void);
typedef void (*mpirr_par_drain_fn)(void);
typedef void (*mpirr_par_finalize_fn)(void);

#endif
