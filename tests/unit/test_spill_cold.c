/* test_spill_cold.c: the spill trimmer's choice of what to drop (src/analysis/spill_cold.c):
 * the segments not touched for the most trims go first, a segment mapped again since a look
 * is young again, a segment with nothing mapped is never picked, and the picks stop once
 * enough pages are covered. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "spill_cold.h"

#define N 8

/* One look at trim epoch: present[i] pages of segment i are mapped. */
static void look(spill_seg *segs, const uint32_t *present, uint32_t epoch)
{
    for (size_t i = 0; i < N; i++) spill_cold_observe(&segs[i], present[i], epoch);
}

static size_t pick(const spill_seg *segs, size_t drop, uint32_t *out)
{
    uint64_t order[N];
    return spill_cold_pick(segs, N, drop, order, out);
}

int main(void)
{
    spill_seg segs[N];
    memset(segs, 0, sizeof segs);
    uint32_t out[N];

    /* trim 1: segments 0-3 mapped (a sweep's start); trim 2: 4 and 5 mapped as well, and 1
     * grew (its cursor moved on); 6 and 7 never mapped */
    look(segs, (uint32_t[N]){10, 10, 10, 10, 0, 0, 0, 0}, 1);
    look(segs, (uint32_t[N]){10, 20, 10, 10, 5, 5, 0, 0}, 2);
    CHECK(segs[0].stamp == 1 && segs[1].stamp == 2 && segs[4].stamp == 2 && segs[6].stamp == 0);

    /* 25 pages to drop: the oldest (stamp 1: 0, 2, 3), lowest index first, until covered */
    size_t k = pick(segs, 25, out);
    CHECK(k == 3);
    CHECK(k == 3 && out[0] == 0 && out[1] == 2 && out[2] == 3);
    /* one page: one segment, the oldest with the lowest index */
    k = pick(segs, 1, out);
    CHECK(k == 1 && out[0] == 0);
    /* nothing to drop: nothing picked */
    CHECK(pick(segs, 0, out) == 0);
    /* more than is mapped: every mapped segment, in index order, never an empty one */
    k = pick(segs, 1000, out);
    CHECK(k == 6);
    for (size_t i = 0; i < k; i++) CHECK(out[i] == i);

    /* the trimmer drops 0, 2 and 3 (its counts go to 0); at trim 3, 2 is mapped again (hot:
     * touched since the drop), 0 and 3 stay dropped, 4 and 5 unchanged: now 4 and 5 are the
     * oldest mapped (stamp 2, as 1, which is older by index only), and 2 is the youngest */
    segs[0].present = segs[2].present = segs[3].present = 0;
    look(segs, (uint32_t[N]){0, 20, 3, 0, 5, 5, 0, 0}, 3);
    CHECK(segs[2].stamp == 3 && segs[4].stamp == 2 && segs[0].stamp == 1);
    k = pick(segs, 30, out);
    CHECK(k == 3 && out[0] == 1 && out[1] == 4 && out[2] == 5);
    k = pick(segs, 31, out);
    CHECK(k == 4 && out[0] == 1 && out[1] == 2 && out[2] == 4 && out[3] == 5);

    /* a segment whose mapped pages shrank (an array freed in it) is not made young */
    look(segs, (uint32_t[N]){0, 4, 3, 0, 5, 5, 0, 0}, 4);
    CHECK(segs[1].stamp == 2 && segs[1].present == 4);
    return CHECK_DONE();
}
