/* rma_load.h: one-sided calls into the run model (rma_load.c). A window is a communicator
 * of its own (the k-th window a rank creates on a communicator is the same window on every
 * member); its fences are collectives on it, and post/start and complete/wait are messages
 * on it, so happened-before orders epochs with the messages and collectives it already
 * follows; Put, Get and the accumulates become the ranks' accesses (an_access). */
#ifndef MPIRR_RMA_LOAD_H
#define MPIRR_RMA_LOAD_H

#include "analysis.h"
#include "event_trace.h"
#include "u64_map.h"

/* Tags of the synchronisation messages on a window's communicator. */
#define AN_TAG_POST (-100)
#define AN_TAG_COMPLETE (-101)

typedef struct rma_load {
    u64_map made;  /* (rank, communicator) -> windows created on it so far */
    u64_map wins;  /* (communicator, ordinal) -> window's run-wide communicator */
    u64_map locks; /* (rank, window, target) -> lock type held */
} rma_load;

/* Call record e (MPIRR_EVF_RMA) of rk. -1: out of memory. */
int rma_load_record(rma_load *R, an_run *run, an_rank *rk, const mpirr_event *e);
void rma_load_free(rma_load *R);

#endif
