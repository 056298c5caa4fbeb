/* elf_mpi.h: what mpirr learns from an executable's ELF headers: whether it is an ELF file at
 * all (a script is not), which MPI it is linked against, whether it uses its Fortran
 * bindings and which OpenMP runtime it uses (its DT_NEEDED entries). */
#ifndef MPIRR_CLI_ELF_MPI_H
#define MPIRR_CLI_ELF_MPI_H

#include <stddef.h>

#include "mpi_impl.h"

/* IMPL_UNKNOWN when the file is not a native ELF file or needs no known MPI library
 * (a script, an interpreter that loads MPI later, a statically linked program). */
enum mpi_impl elf_mpi_impl(const char *path);

/* The program needs one of the Fortran binding libraries (Open MPI's libmpi_mpifh,
 * libmpi_usempif08, libmpi_usempi_ignore_tkr; MPICH's libmpichfort): 1, with the first one's
 * soname in soname. */
int elf_mpi_fortran(const char *path, char *soname, size_t n);

/* The OpenMP runtime the program needs: GCC's libgomp, LLVM's libomp (or Intel's libiomp5),
 * with its soname in soname; ELF_OPENMP_NONE if it needs none (or is not an ELF file). */
enum elf_openmp { ELF_OPENMP_NONE, ELF_OPENMP_GNU, ELF_OPENMP_LLVM };
enum elf_openmp elf_openmp(const char *path, char *soname, size_t n);

/* The file starts with the ELF magic. */
int elf_is_elf(const char *path);

#endif
