/* mpi_impl.h: the MPI implementations mpirr has a runtime for, their names, and recognising
 * one from a clue (a launcher's name, its --version text, a shared library's soname). */
#ifndef MPIRR_CLI_MPI_IMPL_H
#define MPIRR_CLI_MPI_IMPL_H

enum mpi_impl {
    IMPL_UNKNOWN = 0,
    IMPL_OPENMPI,
    IMPL_MPICH,
};

/* "openmpi", "mpich"; "unknown" for IMPL_UNKNOWN. Also the runtime's directory name. */
const char *mpi_impl_name(enum mpi_impl impl);
/* "Open MPI", "MPICH": for messages. And a launcher of it as Debian names it ("mpirun.openmpi",
 * "mpiexec.mpich"), for messages suggesting one. */
const char *mpi_impl_title(enum mpi_impl impl);
const char *mpi_impl_launcher_example(enum mpi_impl impl);
/* The inverse of mpi_impl_name; IMPL_UNKNOWN for anything else. */
enum mpi_impl mpi_impl_parse(const char *name);
/* "openmpi, mpich": for error messages listing the valid values. */
const char *mpi_impl_valid_names(void);

/* A text that gives an implementation away when it occurs in some string. Tables end with a
 * NULL text; the first clue found wins, so order more specific clues first. */
struct impl_clue {
    const char *text;
    enum mpi_impl impl;
};
enum mpi_impl mpi_impl_from_clues(const struct impl_clue *clues, const char *s);

#endif
