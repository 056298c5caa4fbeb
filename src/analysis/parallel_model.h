/* parallel_model.h: a block of ranks' run model as bytes and blocks merged into one run, for the
 * parallel analysis (mpirr races --mpi; docs/analysis.md "Parallel analysis"). */
#ifndef MPIRR_PARALLEL_MODEL_H
#define MPIRR_PARALLEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "u64_map.h"

typedef struct an_par_buf {
    unsigned char *data;
    size_t len, cap;
} an_par_buf;

/* Ranks [lo, hi) of run (loaded by an_load_ranks) and the communicators they know, into out;
 * with hb (NULL: none), each rank's hb_dest per send op (parallel_hb.h) and run->hb_unresolved.
 * -1: out of memory. */
int an_par_pack(const an_run *run, int lo, int hi, uint64_t *const *hb, an_par_buf *out);
void an_par_buf_free(an_par_buf *b);
/* Appends n bytes. -1: out of memory. */
int an_par_put(an_par_buf *b, const void *p, size_t n);

/* Merging blocks, in rank order, into a run made with every rank empty. */
typedef struct an_par_merge {
    u64_map by_key; /* communicator identity -> the run's id */
    size_t ccap;
    uint64_t **hb;  /* per rank: its send ops' hb_dest, as the blocks brought them (NULL: none) */
    int nhb;
} an_par_merge;
/* 0; 1 if the bytes are not a block of this run (cut short, a rank twice, an id out of range);
 * -1 out of memory. What arrived stays in run for an_free either way. */
int an_par_unpack(an_par_merge *m, an_run *run, const void *data, size_t len);
void an_par_merge_free(an_par_merge *m);

#endif
