/* explore_search.h: the search of `mpirr explore`: a first recorded run, then the forced
 * choices of racing receives in the order of --strategy (explore_strategy.h), each choice a
 * flip of the run that offered it, deduplicated, bounded by a budget of runs and a depth of
 * forced choices. */
#ifndef MPIRR_CLI_EXPLORE_SEARCH_H
#define MPIRR_CLI_EXPLORE_SEARCH_H

#include <stddef.h>
#include <stdio.h>

#include "explore_state.h"

/* Runs the search; every run is reported on out (one line) and in tsv (one row) as it ends.
 * 0, or an exit status after a one-line message when the first run cannot be explored. */
int explore_search(const struct explore_config *cfg, struct explore_state *st, FILE *out,
                   FILE *tsv);

#endif
