/* explore_state.h: what `mpirr explore` knows while it searches and after: its configuration
 * and every run so far, with the choice that was forced to make it. The search
 * (explore_search.c) fills it; the report (explore_report.c) reads it. */
#ifndef MPIRR_CLI_EXPLORE_STATE_H
#define MPIRR_CLI_EXPLORE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "explore_choices.h"
#include "explore_run.h"
#include "explore_strategy.h"

struct explore_config {
    const char *dir;   /* absolute; the runs go to DIR/run-NNNN */
    long budget;       /* runs, the first one included */
    long depth;        /* forced choices per run at most */
    int all;           /* run the budget out (--all) instead of stopping at a failing run */
    const char *noise; /* --noise US for every run, or NULL */
    const char *mpi;   /* --mpi IMPL for every run, or NULL */
    enum explore_strategy strategy;
    uint64_t seed;     /* --seed, for the random strategy */
    double timeout;    /* --timeout S: every run's hang limit, the first's too; 0: the default */
    int json;          /* --json: the summary as one JSON object, no per-run lines */
    int argc;          /* COMMAND */
    char **argv;
};

/* One explored run; runs[i] is DIR/run-(i+1). */
struct explore_node {
    long parent;                  /* index of the run it was flipped from; -1: the first run */
    struct explore_choice forced; /* the choice forced there (parent >= 0) */
    int forced_got;               /* the sender its forced receive took (-1: not known) */
    long depth;                   /* forced choices behind it */
    uint64_t cost;                /* the strategy's cost of the choice that made it */
    struct explore_outcome out;
    size_t racing;                /* racing receives it decided itself (after its cut) */
    size_t offered;               /* the choices they offer */
};

struct explore_state {
    struct explore_node *runs;
    size_t nruns, cap;
    long failing;        /* the first run that ended otherwise than the first, -1: none */
    int interrupted;     /* SIGINT or SIGTERM stopped a run, and the search there; 0: no */
    size_t pending;      /* choices left unexplored when it ended */
    size_t beyond_depth; /* choices not taken because of --depth */
    size_t duplicates;   /* choices already explored through another order of the same flips */
};

void explore_state_free(struct explore_state *st);

/* "DIR/run-NNNN" of runs[i]. */
void explore_run_dir(const struct explore_config *cfg, size_t i, char *buf, size_t n);

#endif
