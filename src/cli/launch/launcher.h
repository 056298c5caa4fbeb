/* launcher.h: is the first word of a LAUNCH command an MPI launcher, and whose? */
#ifndef MPIRR_CLI_LAUNCHER_H
#define MPIRR_CLI_LAUNCHER_H

#include <stddef.h>

#include "mpi_impl.h"

/* The launcher a command starts with: how its options are read (launch_scan.h) and how
 * variables reach its ranks (launch_rewrite.h). */
enum launcher_kind {
    LAUNCH_NONE = 0, /* no launcher: argv[0] is the program itself (singleton) */
    LAUNCH_OPENMPI,  /* Open MPI's mpirun, mpiexec, orterun, prterun */
    LAUNCH_HYDRA,    /* MPICH's mpiexec (hydra) */
    LAUNCH_SRUN,     /* Slurm's srun: it starts programs of any MPI (through PMI/PMIx) */
};

/* The MPI a launcher belongs to; IMPL_UNKNOWN for srun (the program's own MPI tells, or
 * --mpi) and for no launcher. */
static inline enum mpi_impl launcher_kind_impl(enum launcher_kind kind)
{
    return kind == LAUNCH_OPENMPI ? IMPL_OPENMPI : kind == LAUNCH_HYDRA ? IMPL_MPICH : IMPL_UNKNOWN;
}

enum launcher_result {
    LAUNCHER_NOT_FOUND = -1, /* no such executable */
    LAUNCHER_NONE = 0,       /* not a launcher: the word is the program itself (singleton) */
    LAUNCHER_FOUND = 1,      /* a launcher; *kind says whose, LAUNCH_NONE if unrecognised */
};

/* argv0 is resolved through PATH (relative names against base) and realpath, so that
 * Debian's alternatives (mpirun -> /etc/alternatives/mpirun -> orterun) show what they are.
 * A launcher whose names say nothing is asked for `--version`. */
enum launcher_result launcher_detect(const char *argv0, const char *base,
                                     enum launcher_kind *kind);

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
