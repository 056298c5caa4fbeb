/* run_opts.c: --mpi and --noise, parsed and validated once for record, replay and run. */
#include "run_opts.h"

#include <stdlib.h>

#include "diag.h"
#include "environment.h"

void run_opts_init(struct run_opts *o)
{
    o->mpi = IMPL_UNKNOWN;
    o->noise = NULL;
}

int run_opts_apply(struct run_opts *o, const char *cmd, int id, const char *value)
{
    switch (id) {
    case RUN_OPT_MPI:
        o->mpi = mpi_impl_parse(value);
        if (o->mpi == IMPL_UNKNOWN) {
            cli_error("%s: unknown MPI '%s' for --mpi (valid: %s)", cmd, value,
                      mpi_impl_valid_names());
            return -1;
        }
        return 0;
    case RUN_OPT_NOISE:
        if (environment_check_option(cmd, "noise", MPIRR_SET_NOISE_US, value) != 0)
            return -1;
        o->noise = value;
        return 0;
    default:
        return 1;
    }
}

int run_opts_scan(struct opt_scan *s, struct run_opts *o)
{
    static const struct cli_opt table[] = {RUN_OPTS_TABLE, {NULL, 0, 0, 0}};
    const char *v;
    int id;
    while ((id = opt_next(s, table, &v)) >= 0)
        if (run_opts_apply(o, s->cmd, id, v) != 0)
            return OPT_BAD;
    return id;
}

const char *run_opts_noise(const struct run_opts *o)
{
    if (o->noise)
        return o->noise;
    return getenv(mpirr_settings[MPIRR_SET_NOISE_US].name); /* checked: environment_check */
}
