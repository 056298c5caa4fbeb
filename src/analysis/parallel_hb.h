/* parallel_hb.h: the happened-before sweep split across the processes of the parallel analysis
 * (mpirr races --mpi; docs/analysis.md "Parallel analysis"). */
#ifndef MPIRR_PARALLEL_HB_H
#define MPIRR_PARALLEL_HB_H

#include <stdint.h>

#include "analysis.h"
#include "parallel_match.h"

/* Sweeps ranks [lo, hi) of run (matched by an_par_match) with the other processes' blocks:
 * *hb[p - lo][i] is then hb_dest of rank p's send op i (an_msg.hb_dest, what the serial sweep
 * gives), and run->hb_unresolved counts the block's steps the serial sweep would skip.
 * Collective (every process, each with its block). 0, or -1 (out of memory or MPI failed
 * here or in another process: every process returns -1, none waits for ever). */
int an_par_happened_before(an_run *run, int lo, int hi, const an_par_net *net, uint64_t ***hb);

#endif
