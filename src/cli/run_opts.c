/* run_opts.c: --mpi and --noise, parsed and validated once for record, replay and run. */
#include "run_opts.h"

#include <stdlib.h>

#include "diag.h"

void run_opts_init(struct run_opts *o)
{
    o->mpi = IMPL_UNKNOWN;
    o->noise = NULL;
}

/* Noise is a whole number of microseconds; the runtime parses it, but a typo is better caught
 * here than as a silently noiseless run. */
static int is_count(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
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
        if (!is_count(value)) {
            cli_error("%s: --noise needs a whole number of microseconds, got '%s'", cmd, value);
            return -1;
        }
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
    const char *env = getenv("MPIRR_NOISE_US");
    return env && *env ? env : NULL;
}
