/* near.c: racing receives ordered by happened-before distance to one event (`mpirr races
 * --near R:E`, docs/analysis.md "Distance to an event"): which racing receives could have
 * changed what event E of rank R saw, nearest first. Every receive's first event on R that
 * knows its outcome comes out of one vector-timestamp sweep, not one frontier sweep per
 * receive (10^5 racing receives would make that quadratic). Also the check that a point names
 * an event the history holds, shared with frontier.c. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"

int an_point_check(const an_run *run, int rank, uint64_t event, char *err, size_t errlen)
{
    if (rank < 0 || rank >= run->nranks) {
        snprintf(err, errlen, "%s: there is no rank %d (the run had %d)", run->dir, rank, run->nranks);
        return -1;
    }
    const an_rank *rk = &run->ranks[rank];
    if (event < 1 || event > rk->events) {
        snprintf(err, errlen, "%s: rank %d has no event %llu (its history holds events 1 to %llu)",
                 run->dir, rank, (unsigned long long)event, (unsigned long long)rk->events);
        return -1;
    }
    return 0;
}

/* A sort key and the racing receive it belongs to: racing receives come by rank, then post
 * order, so the index breaks ties by rank and event. */
struct near_key {
    uint64_t key;
    size_t i;
};

/* The sweep's state: for each other rank q, its racing receives sorted by completing event,
 * and how many of them the target rank already knows. Rank R's vector only grows, so each
 * list is walked once, and only ranks with receives still unknown are looked at. */
struct near_sweep {
    int rank;
    uint64_t *first;
    struct near_key *byq; /* racing receives of other ranks, grouped by rank, by done within */
    size_t *qend, *qat; /* per rank: end of its group in byq, and its cursor */
    int *active, nactive;
};

static int by_key(const void *a, const void *b)
{
    const struct near_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static void sort_keys(struct near_key *list, size_t n) { qsort(list, n, sizeof *list, by_key); }

static void merged(void *arg, int rank, uint64_t event, const uint64_t *vc)
{
    struct near_sweep *s = arg;
    if (rank != s->rank) return;
    for (int k = 0; k < s->nactive;) {
        int q = s->active[k];
        /* vc[q] >= 2d+1: rank q's event d, the receive's completion, happened before this
         * event's merge (an_after's test) */
        while (s->qat[q] < s->qend[q] && vc[q] >= 2 * s->byq[s->qat[q]].key + 1)
            s->first[s->byq[s->qat[q]++].i] = event;
        if (s->qat[q] == s->qend[q]) s->active[k] = s->active[--s->nactive];
        else k++;
    }
}

/* first[i]: the first event of rank `rank` that knows racing receive i's outcome (0: none).
 * On the receive's own rank that is the event that completed it; elsewhere the first event
 * whose merged vector holds that completion (p2d2's future frontier of the point just after
 * it). A receive never completed is known nowhere. */
static int first_known(an_run *run, const an_race *races, size_t n, int rank, uint64_t *first)
{
    int nr = run->nranks;
    struct near_sweep s = {.rank = rank, .first = first};
    s.byq = malloc((n + 1) * sizeof *s.byq);
    s.qend = calloc((size_t)nr, sizeof *s.qend);
    s.qat = calloc((size_t)nr, sizeof *s.qat);
    s.active = malloc((size_t)nr * sizeof *s.active);
    int rc = -1;
    if (!s.byq || !s.qend || !s.qat || !s.active) goto out;
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = run->ranks[races[i].rank].ops[races[i].op].done;
        first[i] = races[i].rank == rank ? d : 0;
        if (races[i].rank != rank && d) s.byq[nb++] = (struct near_key){d, i};
    }
    for (size_t b = 0; b < nb;) {
        int q = races[s.byq[b].i].rank;
        size_t e = b;
        while (e < nb && races[s.byq[e].i].rank == q) e++;
        sort_keys(s.byq + b, e - b);
        s.qat[q] = b;
        s.qend[q] = e;
        s.active[s.nactive++] = q;
        b = e;
    }
    an_hb_observer obs = {&s, NULL, merged, NULL};
    rc = s.nactive ? an_happened_before(run, &obs) : 0;
out:
    free(s.byq);
    free(s.qend);
    free(s.qat);
    free(s.active);
    return rc;
}

int an_near(an_run *run, const an_race *races, size_t n, int rank, uint64_t event, size_t *order,
            int64_t *distance, size_t *nbefore)
{
    uint64_t *first = malloc((n + 1) * sizeof *first);
    struct near_key *keys = malloc((n + 1) * sizeof *keys);
    int rc = -1;
    if (!first || !keys || first_known(run, races, n, rank, first)) goto out;
    *nbefore = 0;
    for (size_t i = 0; i < n; i++) {
        int before = first[i] && first[i] <= event;
        distance[i] = before ? (int64_t)(event - first[i]) : -1;
        *nbefore += (size_t)before;
        /* before the event first, nearest first; the others after them, in their order */
        keys[i] = (struct near_key){before ? event - first[i] : UINT64_MAX, i};
    }
    sort_keys(keys, n);
    for (size_t i = 0; i < n; i++) order[i] = keys[i].i;
    rc = 0;
out:
    free(first);
    free(keys);
    return rc;
}
