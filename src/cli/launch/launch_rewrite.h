/* launch_rewrite.h: putting environment variables on a launcher's command line, the only way
 * that reaches ranks on every host without the launcher itself seeing them (LD_PRELOAD must
 * not load the runtime into mpirun). A pure function, unit-tested in
 * tests/unit/test_cli_launch.c. */
#ifndef MPIRR_CLI_LAUNCH_REWRITE_H
#define MPIRR_CLI_LAUNCH_REWRITE_H

#include "env_var.h"
#include "mpi_impl.h"

/* A new NULL-terminated copy of argv[0..argc) with the variables inserted right after argv[0]:
 *   IMPL_OPENMPI:  mpirun -x NAME=VALUE ... <rest>
 *   IMPL_MPICH:    mpiexec -genv NAME VALUE ... <rest>
 *   IMPL_UNKNOWN:  no launcher: an unchanged copy (the caller sets the variables itself).
 * Every string is newly allocated; free with launch_argv_free. NULL if out of memory. */
char **launch_rewrite(int argc, char *const *argv, enum mpi_impl launcher,
                      const struct env_var *vars, int nvars);
void launch_argv_free(char **argv);

#endif
