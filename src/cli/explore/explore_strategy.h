/* explore_strategy.h: the order in which `mpirr explore` tries the forced choices still open
 * (its frontier), by --strategy: `local` (the default: fewest and closest flips first), `dfs`
 * (depth-first from the earliest receive) and `random` (seeded). docs/explore.md says why. */
#ifndef MPIRR_CLI_EXPLORE_STRATEGY_H
#define MPIRR_CLI_EXPLORE_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "explore_choices.h"

enum explore_strategy { STRATEGY_LOCAL, STRATEGY_DFS, STRATEGY_RANDOM };

/* 0 and *s for "local", "dfs" or "random"; -1 for anything else. */
int explore_strategy_parse(const char *name, enum explore_strategy *s);
const char *explore_strategy_name(enum explore_strategy s);

/* A choice still to try: flip run `parent` at `c`; cost is what the strategy orders by. */
struct explore_pending {
    long parent;
    struct explore_choice c;
    uint64_t cost;
    uint64_t seq; /* the order it was offered in: the newest wins a tie */
};

struct explore_frontier {
    enum explore_strategy strategy;
    uint64_t rng; /* random: the seeded generator's state */
    struct explore_pending *list;
    size_t n, cap;
    uint64_t seq;
};

void explore_frontier_init(struct explore_frontier *f, enum explore_strategy s, uint64_t seed);
void explore_frontier_free(struct explore_frontier *f);

/* Offers the choices of run `run`, made at cost `run_cost` (0 for the first run). 0, or -1
 * out of memory. */
int explore_frontier_offer(struct explore_frontier *f, long run, uint64_t run_cost,
                           const struct explore_choices *ch);

/* Takes the next choice to try into *p; 0 if the frontier is empty. */
int explore_frontier_take(struct explore_frontier *f, struct explore_pending *p);

#endif
