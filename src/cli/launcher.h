/* launcher.h: is the first word of a LAUNCH command an MPI launcher, and whose? */
#ifndef MPIRR_CLI_LAUNCHER_H
#define MPIRR_CLI_LAUNCHER_H

#include "mpi_impl.h"

enum launcher_result {
    LAUNCHER_NOT_FOUND = -1, /* no such executable */
    LAUNCHER_NONE = 0,       /* not a launcher: the word is the program itself (singleton) */
    LAUNCHER_FOUND = 1,      /* a launcher; *kind says whose, IMPL_UNKNOWN if unrecognised */
};

/* argv0 is resolved through PATH (relative names against base) and realpath, so that
 * Debian's alternatives (mpirun -> /etc/alternatives/mpirun -> orterun) show what they are.
 * A launcher whose names say nothing is asked for `--version`. */
enum launcher_result launcher_detect(const char *argv0, const char *base, enum mpi_impl *kind);

#endif
