/* frontier.c: p2d2's past and future frontiers (section 3.4) of the point just before or just
 * after an event: the last event of each rank that can affect the point, and the first event
 * of each rank the point can affect, as per-rank event numbers replay can stop at. Both come
 * out of one vector-timestamp sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

struct frontier {
    int rank, after, captured;
    uint64_t event, threshold;
    uint64_t *past, *future;
    int n;
};

static void capture(struct frontier *f, const uint64_t *vc)
{
    if (f->captured) return;
    f->captured = 1;
    for (int q = 0; q < f->n; q++) f->past[q] = vc[q] / 2;
    f->past[f->rank] = f->after ? f->event : f->event - 1;
}

static void before(void *arg, int rank, uint64_t event, const uint64_t *vc)
{
    struct frontier *f = arg;
    if (rank == f->rank && (f->after ? event > f->event : event >= f->event)) capture(f, vc);
}

static void merged(void *arg, int rank, uint64_t event, const uint64_t *vc)
{
    struct frontier *f = arg;
    if (rank != f->rank && !f->future[rank] && vc[f->rank] >= f->threshold) f->future[rank] = event;
}

static void end(void *arg, int rank, const uint64_t *vc)
{
    struct frontier *f = arg;
    if (rank == f->rank) capture(f, vc);
}

int an_frontier(an_run *run, int rank, uint64_t event, int after, uint64_t *past,
                uint64_t *future, char *err, size_t errlen)
{
    if (an_point_check(run, rank, event, err, errlen)) return -1;
    const an_rank *rk = &run->ranks[rank];
    struct frontier f = {.rank = rank, .after = after, .event = event,
                         .threshold = 2 * (event + (after ? 1 : 0)), .past = past,
                         .future = future, .n = run->nranks};
    memset(future, 0, (size_t)run->nranks * sizeof *future);
    an_hb_observer obs = {&f, before, merged, end};
    if (an_happened_before(run, &obs)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    future[rank] = after ? (event < rk->events ? event + 1 : 0) : event;
    return 0;
}
