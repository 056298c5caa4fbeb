/* launcher.h: is the first word of a LAUNCH command an MPI launcher, and whose? */
#ifndef MPIRR_CLI_LAUNCHER_H
#define MPIRR_CLI_LAUNCHER_H

#include <stddef.h>

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

/* Where a launcher named by a command mpirr did not get from the user (a recording's) comes
 * from. A launcher is trusted only if it is the very file the user's PATH finds under its
 * name (as typed, or after symlinks): one elsewhere, say next to the recording, could be any
 * script calling itself mpirun, and even asking it --version would run it. */
enum launcher_origin {
    LAUNCHER_ORIGIN_MISSING = -1, /* no such executable */
    LAUNCHER_ORIGIN_NONE = 0,     /* not a launcher: the program itself (singleton) */
    LAUNCHER_ORIGIN_PATH = 1,     /* the launcher PATH finds */
    LAUNCHER_ORIGIN_ELSEWHERE = 2,
};
/* Resolves argv0 as launcher_detect does; real receives its real path (for messages). */
enum launcher_origin launcher_origin(const char *argv0, const char *base, char *real, size_t n);

#endif
