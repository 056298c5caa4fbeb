/* runtime_lib.h: where the runtime library (libmpirr.so, one per MPI implementation) is. */
#ifndef MPIRR_CLI_RUNTIME_LIB_H
#define MPIRR_CLI_RUNTIME_LIB_H

#include <stddef.h>

#include "mpi_impl.h"

/* $MPIRR_RUNTIME_DIR/<impl>/libmpirr.so if that variable is set, else
 * <dir of mpirr>/../lib/mpirr/<impl>/libmpirr.so (the build tree, and installs whose libdir
 * is lib), else <dir of mpirr>/../<install libdir>/mpirr/<impl>/libmpirr.so. 0 and the
 * absolute path in out, or -1 with a message naming the paths tried. */
int runtime_lib_path(enum mpi_impl impl, char *out, size_t n);
/* The same for another file of the implementation's directory (libmpirr_par.so), called
 * `what` in the message. */
int runtime_file_path(enum mpi_impl impl, const char *file, const char *what, char *out, size_t n);

#endif
