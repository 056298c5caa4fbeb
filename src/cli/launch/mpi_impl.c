/* mpi_impl.c: names of the MPI implementations and clue matching. */
#include "mpi_impl.h"

#include <string.h>

#include "strlist.h"

static const char *const names[] = {
    [IMPL_UNKNOWN] = "unknown",
    [IMPL_OPENMPI] = "openmpi",
    [IMPL_MPICH] = "mpich",
};
enum { NNAMES = sizeof names / sizeof names[0] };

const char *mpi_impl_name(enum mpi_impl impl)
{
    return (unsigned)impl < NNAMES ? names[impl] : names[IMPL_UNKNOWN];
}

const char *mpi_impl_title(enum mpi_impl impl)
{
    static const char *const titles[NNAMES] = {
        [IMPL_UNKNOWN] = "an unknown MPI", [IMPL_OPENMPI] = "Open MPI", [IMPL_MPICH] = "MPICH"};
    return titles[(unsigned)impl < NNAMES ? impl : IMPL_UNKNOWN];
}

const char *mpi_impl_launcher_example(enum mpi_impl impl)
{
    static const char *const launchers[NNAMES] = {
        [IMPL_UNKNOWN] = "mpiexec", [IMPL_OPENMPI] = "mpirun.openmpi", [IMPL_MPICH] = "mpiexec.mpich"};
    return launchers[(unsigned)impl < NNAMES ? impl : IMPL_UNKNOWN];
}

enum mpi_impl mpi_impl_parse(const char *name)
{
    for (unsigned i = IMPL_UNKNOWN + 1; i < NNAMES; i++)
        if (strcmp(name, names[i]) == 0)
            return (enum mpi_impl)i;
    return IMPL_UNKNOWN;
}

const char *mpi_impl_valid_names(void)
{
    static char list[64];
    if (!list[0])
        for (unsigned i = IMPL_UNKNOWN + 1; i < NNAMES; i++)
            strlist_append(list, sizeof list, names[i]);
    return list;
}

enum mpi_impl mpi_impl_from_clues(const struct impl_clue *clues, const char *s)
{
    for (const struct impl_clue *c = clues; c->text; c++)
        if (strstr(s, c->text))
            return c->impl;
    return IMPL_UNKNOWN;
}
