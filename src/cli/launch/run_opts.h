/* run_opts.h: the options shared by the commands that launch a program (record, replay, run):
 * --mpi IMPL and --noise US. A command puts RUN_OPTS_TABLE into its option table and passes
 * every option id it does not know itself to run_opts_apply. */
#ifndef MPIRR_CLI_RUN_OPTS_H
#define MPIRR_CLI_RUN_OPTS_H

#include "mpi_impl.h"
#include "opts.h"

enum { RUN_OPT_MPI = 1000, RUN_OPT_NOISE };

#define RUN_OPTS_TABLE {"mpi", 0, 1, RUN_OPT_MPI}, {"noise", 0, 1, RUN_OPT_NOISE}

struct run_opts {
    enum mpi_impl mpi; /* IMPL_UNKNOWN: not given */
    const char *noise; /* microseconds as given, or NULL */
};

void run_opts_init(struct run_opts *o);
/* 0: applied; -1: bad value (reported); 1: not one of the shared options. */
int run_opts_apply(struct run_opts *o, const char *cmd, int id, const char *value);
/* The whole option scan of a command that has no options besides these (run, replay):
 * OPT_DONE, OPT_HELP, or OPT_BAD (reported). */
int run_opts_scan(struct opt_scan *s, struct run_opts *o);
/* The noise to hand to the ranks: --noise, else MPIRR_NOISE_US from mpirr's own environment
 * (forwarded because Open MPI does not pass the environment to remote ranks), else NULL. */
const char *run_opts_noise(const struct run_opts *o);

#endif
