/* launch_rewrite.h: putting environment variables on a launcher's command line, the only way
 * that reaches ranks on every host without the launcher itself seeing them (LD_PRELOAD must
 * not load the runtime into mpirun or srun). A pure function, unit-tested in
 * tests/unit/test_cli_launch.c. */
#ifndef MPIRR_CLI_LAUNCH_REWRITE_H
#define MPIRR_CLI_LAUNCH_REWRITE_H

#include "env_var.h"
#include "launcher.h"

/* A new NULL-terminated copy of argv[0..argc) with the variables inserted:
 *   LAUNCH_OPENMPI:  mpirun -x NAME=VALUE ... <rest>              (right after argv[0])
 *   LAUNCH_HYDRA:    mpiexec -genv NAME VALUE ... <rest>          (right after argv[0])
 *   LAUNCH_SRUN:     srun <options> --export=ALL,NAME=VALUE,... <program ...>: one word right
 *                    before argv[app] (after argv[0] if app < 1), the last --export srun reads
 *                    and so the one it uses: the ranks get srun's whole environment plus the
 *                    variables, srun's own environment stays as it was
 *   LAUNCH_NONE:     no launcher: an unchanged copy (the caller sets the variables itself).
 * Every string is newly allocated; free with launch_argv_free. NULL if out of memory. */
char **launch_rewrite(int argc, char *const *argv, enum launcher_kind launcher, int app,
                      const struct env_var *vars, int nvars);
void launch_argv_free(char **argv);

/* The index of the first variable the launcher cannot carry to the ranks (srun's --export
 * splits its value at commas, so a value with one), or -1 if it can carry them all. */
int launch_rewrite_uncarried(enum launcher_kind launcher, const struct env_var *vars, int nvars);

#endif
