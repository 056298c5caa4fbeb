/* spill_cold.h: which pages of the spill file the trimmer drops (spill.c): the file is cut
 * into segments of SPILL_SEG bytes, each stamped with the last trim at which it was seen
 * touched (more of its pages mapped than at the trim before); a trim drops the segments
 * with the oldest stamps until enough pages are gone. Pure functions on the segments' counts,
 * so that the choice can be tested without a kernel in the way (tests/unit/test_spill_cold.c). */
#ifndef MPIRR_SPILL_COLD_H
#define MPIRR_SPILL_COLD_H

#include <stddef.h>
#include <stdint.h>

#define SPILL_SEG ((size_t)1 << 20) /* 256 pages of 4 KiB: fine enough that a sweep's few
                                     * hot pages per rank keep little cold data with them */

typedef struct spill_seg {
    uint32_t stamp;   /* the trim at which it was last seen touched */
    uint32_t present; /* its pages mapped in the process at the last look */
} spill_seg;

/* Records that seg has present pages mapped at trim epoch: more than at the last look means
 * pages were mapped again since (the program touched them): the segment is young again. */
void spill_cold_observe(spill_seg *seg, uint32_t present, uint32_t epoch);

/* Picks segments to drop, oldest stamp first (then lowest index), among those with pages
 * mapped, until their pages reach drop_pages (or none is left): their indices go to pick (room
 * for n), in index order; returns how many. order is scratch space for n entries. */
size_t spill_cold_pick(const spill_seg *segs, size_t n, size_t drop_pages, uint64_t *order,
                       uint32_t *pick);

#endif
