/* environment.h: mpirr's own MPIRR_* environment (the variables are src/format/settings.def):
 * checked before anything is launched, the tuning variables among them passed on to the ranks,
 * and the options that set such variables checked by the same rules. */
#ifndef MPIRR_CLI_ENVIRONMENT_H
#define MPIRR_CLI_ENVIRONMENT_H

#include "env_var.h"
#include "settings.h"

/* Every MPIRR_* variable set: a bad value of a known one is refused (one line, CLI_EXIT_USAGE
 * returned), an unknown one (a typo) gets a warning line. 0 if nothing was refused. */
int environment_check(void);

/* The variables mpirr passes from its environment to the ranks (settings.def: PASSED) that are
 * set, appended to vars (room for cap): how many. */
int environment_passed(struct env_var *vars, int cap);

/* A command-line option whose value becomes the variable id for the ranks (--noise, --mode),
 * checked like the variable: 0, or -1 after "mpirr: CMD: --OPTION VALUE: expected ...". */
int environment_check_option(const char *cmd, const char *option, mpirr_setting_id id,
                             const char *value);

#endif
