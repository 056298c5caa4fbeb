/* parallel_match.h: message matching split across the processes of the parallel analysis
 * (mpirr races --mpi; docs/analysis.md "Parallel analysis"): each process holds a block of
 * ranks and matches the messages those ranks receive, numbered as the serial an_match numbers
 * them. The MPI underneath is the caller's (an_par_net), as bytes. */
#ifndef MPIRR_PARALLEL_MATCH_H
#define MPIRR_PARALLEL_MATCH_H

#include <stdint.h>

#include "analysis.h"
#include "parallel_model.h"

/* How the processes talk (analysis_mpi.c wraps parallel_mpi.h's functions). */
typedef struct an_par_net {
    int me, np;
    /* out[q] to process q, in[q] (zeroed first; freed by the caller) what q sent here, once
     * every process's status is 0; else 1 everywhere and nothing moves. -1: MPI failed. */
    int (*exchange)(an_par_buf *out, an_par_buf *in, int status);
    /* the sum of v over the processes before this one */
    int (*exscan)(uint64_t v, uint64_t *before);
    /* the happened-before sweep's point-to-point batches and sums (parallel_mpi.h) */
    int (*post)(int dest, void *data, uint64_t len);
    int (*poll)(void **data, uint64_t *len);
    int (*wave)(const uint64_t *v, uint64_t *sum, int n);
    int (*await)(void);
    void (*drain)(void);
} an_par_net;

/* The process that holds rank r. */
int an_par_owner(int nranks, int np, int r);

/* The first rank of process a's block: processes split nranks ranks into contiguous blocks. */
int an_par_block_lo(int nranks, int a, int np);

/* Matches the messages of run (ranks [lo, hi) loaded, as an_par_block_lo gives this process)
 * with the other processes': afterwards every op's msg is the message number an_match would
 * give it (run->msgs stays empty: an_par_msgs builds it once the blocks are merged). status:
 * this process could not load its block (run NULL), so none matches. Collective. 0; 1 some
 * other process failed (its block reports why); -1 out of memory, MPI failed or bytes that
 * cannot be arrived, here (the others see 1). */
int an_par_match(an_run *run, int lo, int hi, const an_par_net *net, int status);

/* run->msgs and the unmatched counts from the ops' msg numbers, once every block is merged;
 * hb (NULL, or NULL for a rank: 0): each rank's send ops' hb_dest. 0; 1 the numbers are not
 * those of one matching (a block damaged on its way); -1 out of memory. */
int an_par_msgs(an_run *run, uint64_t *const *hb);

#endif
