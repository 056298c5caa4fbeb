/* explore_state.c: the explore state's helpers (explore_state.h). */
#include "explore_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void explore_run_dir(const struct explore_config *cfg, size_t i, char *buf, size_t n)
{
    snprintf(buf, n, "%s/run-%04zu", cfg->dir, i + 1);
}

void explore_state_free(struct explore_state *st)
{
    free(st->runs);
    memset(st, 0, sizeof *st);
}
