/* spill_cold.c: the trimmer's choice of cold segments (spill_cold.h). The kernel gives no
 * per-page access bit to a process, but it says which pages are mapped (/proc/self/pagemap),
 * and a dropped page comes back only when it is touched: a segment whose mapped pages grew
 * since the last look was used since. A segment kept resident and still in use looks as old
 * as one kept and forgotten, so it is dropped once it is the oldest; if it is hot it comes
 * back at once with a new stamp (an approximation of least recently used: a hot segment
 * costs a refault per round of the budget, not one per trim as when every page went). */
#include "spill_cold.h"

#include <stdlib.h>

void spill_cold_observe(spill_seg *seg, uint32_t present, uint32_t epoch)
{
    if (present > seg->present) seg->stamp = epoch;
    seg->present = present;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

size_t spill_cold_pick(const spill_seg *segs, size_t n, size_t drop_pages, uint64_t *order,
                       uint32_t *pick)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) /* (stamp, index): oldest first, then lowest */
        if (segs[i].present) order[m++] = (uint64_t)segs[i].stamp << 32 | (uint32_t)i;
    qsort(order, m, sizeof *order, by_u64);
    size_t k = 0, pages = 0;
    for (; k < m && pages < drop_pages; k++) {
        pick[k] = (uint32_t)order[k];
        pages += segs[pick[k]].present;
    }
    qsort(pick, k, sizeof *pick, by_u32);
    return k;
}
