/* env_var.h: one environment variable mpirr hands to the ranks (MPIRR_MODE, LD_PRELOAD, ...). */
#ifndef MPIRR_CLI_ENV_VAR_H
#define MPIRR_CLI_ENV_VAR_H

struct env_var {
    const char *name;
    const char *value;
};

#endif
