/* launcher.c: launcher detection from names (mpirun, mpiexec, srun ...), with `--version` as
 * the last resort. Only a word
 * that looks like a launcher is ever run with --version: doing that to the application itself
 * would run the application. */
#include "launcher.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "paths.h"

/* A command whose name (as typed or after symlinks) contains one of these is a launcher. */
static const char *const launcher_words[] = {"mpirun", "mpiexec", "orterun", "prterun", "hydra",
                                             "srun", NULL};

/* Names that tell the implementation: mpirun.openmpi, orterun, mpiexec.hydra, mpiexec.mpich. */
static const struct impl_clue name_clues[] = {
    {"orterun", IMPL_OPENMPI}, {"prterun", IMPL_OPENMPI}, {"openmpi", IMPL_OPENMPI},
    {"ompi", IMPL_OPENMPI},    {"hydra", IMPL_MPICH},     {"mpich", IMPL_MPICH},
    {NULL, IMPL_UNKNOWN},
};

/* What `<launcher> --version` prints: "mpirun (Open MPI) 4.1.4", "HYDRA build details:". */
static const struct impl_clue version_clues[] = {
    {"Open MPI", IMPL_OPENMPI}, {"OpenRTE", IMPL_OPENMPI}, {"HYDRA", IMPL_MPICH},
    {NULL, IMPL_UNKNOWN},
};

static int is_launcher_name(const char *name)
{
    for (const char *const *w = launcher_words; *w; w++)
        if (strstr(name, *w))
            return 1;
    return 0;
}

static enum mpi_impl ask_version(const char *path)
{
    char out[4096];
    char *argv[] = {(char *)path, "--version", NULL};
    if (child_capture(argv, out, sizeof out) < 0)
        return IMPL_UNKNOWN;
    return mpi_impl_from_clues(version_clues, out);
}

/* found: argv0 through PATH (relative names against base); real: that after symlinks. */
static int resolve(const char *argv0, const char *base, char *found, char *real)
{
    if (path_find_exec(argv0, base, found, PATH_MAX) != 0)
        return -1;
    if (!realpath(found, real))
        strcpy(real, found);
    return 0;
}

enum launcher_result launcher_detect(const char *argv0, const char *base,
                                     enum launcher_kind *kind)
{
    char found[PATH_MAX], real[PATH_MAX];
    *kind = LAUNCH_NONE;
    if (resolve(argv0, base, found, real) != 0)
        return LAUNCHER_NOT_FOUND;
    const char *names[] = {path_basename(argv0), path_basename(real)};
    int launcher = 0, slurm = 0;
    enum mpi_impl impl = IMPL_UNKNOWN;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (is_launcher_name(names[i])) {
            launcher = 1;
            slurm |= strstr(names[i], "srun") != NULL;
            if (impl == IMPL_UNKNOWN)
                impl = mpi_impl_from_clues(name_clues, names[i]);
        }
    if (!launcher)
        return LAUNCHER_NONE;
    /* srun belongs to no MPI and is never asked --version for one. */
    if (slurm) {
        *kind = LAUNCH_SRUN;
        return LAUNCHER_FOUND;
    }
    if (impl == IMPL_UNKNOWN)
        impl = ask_version(found);
    *kind = impl == IMPL_OPENMPI ? LAUNCH_OPENMPI : impl == IMPL_MPICH ? LAUNCH_HYDRA : LAUNCH_NONE;
    return LAUNCHER_FOUND;
}

enum launcher_origin launcher_origin(const char *argv0, const char *base, char *real, size_t n)
{
    char found[PATH_MAX], path_found[PATH_MAX], path_real[PATH_MAX], resolved[PATH_MAX];
    if (resolve(argv0, base, found, resolved) != 0)
        return LAUNCHER_ORIGIN_MISSING;
    snprintf(real, n, "%s", resolved);
    const char *names[] = {path_basename(argv0), path_basename(resolved)};
    int launcher = 0;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        launcher |= is_launcher_name(names[i]);
    if (!launcher)
        return LAUNCHER_ORIGIN_NONE;
    /* Relative PATH entries are taken against "/" here, not against the recorded directory,
     * which the recording names and so does not vouch for. */
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (resolve(names[i], "/", path_found, path_real) == 0 &&
            strcmp(path_real, resolved) == 0)
            return LAUNCHER_ORIGIN_PATH;
    return LAUNCHER_ORIGIN_ELSEWHERE;
}
