/* explore_strategy.c: the frontier of `mpirr explore` and the three orders it is taken in
 * (explore_strategy.h). One list and one rule, "least cost first, the newest on a tie"; the
 * strategies differ only in the cost they give a choice:
 *  - dfs: 0 for every choice, so the newest run's earliest receive is always next: the
 *    search of issue 13, which spends any budget inside the first receive's subtree;
 *  - local: the run's cost, plus 1 per forced choice, plus how many of the run's racing
 *    receives lie between its own flip and the receive (0 for the first one after it). As
 *    in CHESS's iterative context bounding, cheap schedules (few flips, close together) go
 *    first; the newest-first tie makes the search take a flip's nearest follow-up before
 *    that flip's farther siblings, and a receive's other senders before later receives:
 *    k coordinated choices in one place cost k + small distances, wherever the place is;
 *  - random: a seeded random cost (a random walk of the frontier, PCT-like in spirit: every
 *    choice has a chance at every step, whatever the budget). */
#include "explore_strategy.h"

#include <stdlib.h>
#include <string.h>

#include "reserve.h"

static const char *const names[] = {"local", "dfs", "random"};

int explore_strategy_parse(const char *name, enum explore_strategy *s)
{
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0) {
            *s = (enum explore_strategy)i;
            return 0;
        }
    return -1;
}

const char *explore_strategy_name(enum explore_strategy s) { return names[s]; }

/* splitmix64: small, seedable, and the same numbers on every machine */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void explore_frontier_init(struct explore_frontier *f, enum explore_strategy s, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    f->strategy = s;
    f->rng = seed;
}

void explore_frontier_free(struct explore_frontier *f)
{
    free(f->list);
    memset(f, 0, sizeof *f);
}

int explore_frontier_offer(struct explore_frontier *f, long run, uint64_t run_cost,
                           const struct explore_choices *ch)
{
    if (mpirr_reserve((void **)&f->list, &f->cap, f->n + ch->n, sizeof *f->list))
        return -1;
    /* distance: the index of the choice's receive among the run's racing receives (the list
     * is sorted by receive, so a new receive starts wherever rank or event changes) */
    uint64_t *distance = malloc((ch->n ? ch->n : 1) * sizeof *distance);
    if (!distance)
        return -1;
    for (size_t i = 0, d = 0; i < ch->n; i++) {
        if (i && (ch->list[i].rank != ch->list[i - 1].rank ||
                  ch->list[i].event != ch->list[i - 1].event))
            d++;
        distance[i] = d;
    }
    /* offered last-first, so that on a tie the earliest receive is the newest */
    for (size_t i = ch->n; i-- > 0;) {
        uint64_t cost = 0;
        if (f->strategy == STRATEGY_LOCAL)
            cost = run_cost + 1 + distance[i];
        else if (f->strategy == STRATEGY_RANDOM)
            cost = next_random(&f->rng);
        f->list[f->n++] = (struct explore_pending){run, ch->list[i], cost, f->seq++};
    }
    free(distance);
    return 0;
}

int explore_frontier_take(struct explore_frontier *f, struct explore_pending *p)
{
    if (!f->n)
        return 0;
    size_t best = 0;
    for (size_t i = 1; i < f->n; i++) {
        const struct explore_pending *a = &f->list[i], *b = &f->list[best];
        if (a->cost < b->cost || (a->cost == b->cost && a->seq > b->seq))
            best = i;
    }
    *p = f->list[best];
    f->list[best] = f->list[--f->n]; /* order in the list is not kept: seq keeps it */
    return 1;
}
