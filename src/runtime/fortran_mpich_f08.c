/* fortran_mpich_f08.c: MPICH's `use mpi_f08` entry points that bypass the C functions (MPICH
 * only), generated from mpi_calls.def.
 *
 * Why: libmpichfort gives a call with a choice buffer an `mpi_<name>_f08ts_` entry, whose C
 * helper calls the C MPI_<name>, which the runtime intercepts; every other call (MPI_Init,
 * MPI_Wait*, MPI_Test*, MPI_Probe, MPI_Comm_rank, MPI_Win_lock, MPI_Wtime, ...) is an
 * `mpi_<name>_f08_` entry (`_f08_large_` for an MPI-4 `_c` call) that calls PMPI_<name>
 * directly, unseen. The runtime defines those: scripts/gen_mpi_calls.py decides per row
 * (fortran_mpich_f08.h: F08M_<name>, bound when every parameter has a kind and none is a choice
 * buffer, whose `_f08ts_` entry must stay MPICH's or the call would count twice) and names the
 * symbol (F08M_SYM_<name>). The wrapper is the one Open MPI's bindings get (fortran_define.h):
 * MPICH's f08 handles are one INTEGER equal to the C handle, its TYPE(MPI_Status) is the C
 * MPI_Status's five ints (MPI_F08_status), a LOGICAL is gfortran's (.TRUE. is 1), an omitted
 * ierror is NULL, and a CHARACTER argument has its hidden length. What differs is recognised
 * here: mpi_f08's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are MPICH's bind(C) objects
 * MPIR_F08_MPI_STATUS(ES)_IGNORE_OBJ, at the addresses MPI-4's MPI_F08_STATUS(ES)_IGNORE give.
 * Nothing recurses: the entry point calls the C MPI_<name>, the runtime's wrapper, which calls
 * PMPI_<name>; MPICH's own `_f08_` entries are never called. */
#include <mpi.h>

#define F_STATUS_IGNORE ((MPI_Fint *)MPI_F08_STATUS_IGNORE)
#define F_STATUSES_IGNORE ((MPI_Fint *)MPI_F08_STATUSES_IGNORE)
#include "fortran_define.h"
#include "fortran_generated.h" /* FOVR_ of the generated rows */
#include "fortran_kinds.h"
#include "fortran_mpich_f08.h" /* scripts/gen_mpi_calls.py: F08M_<name>, F08M_SYM_<name> */

_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "MPICH's TYPE(MPI_Status) is not its C MPI_Status");

/* A choice buffer never reaches this file: its call's entry is MPICH's `_f08ts_` one. */
#undef F_LOCAL_BUF
#define F_LOCAL_BUF(p_, ...) _Static_assert(0, "an MPICH mpi_f08 binding with a choice buffer");

#define F_M(ret, name, args) F_CAT(F_M_, F_SECOND(F08M_##name, SKIP))(ret, name, args)
#define F_M_SKIP(ret, name, args)
#define F_M_BIND(ret, name, args) F_DEFINE_##ret(name, args) F_ALIAS(name, F08M_SYM_##name)

#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) F_M(ret, name, args)
#define MPIRR_CALLG(id, ret, name, cat, how, params, args, ev) F_M(ret, name, args)
#define MPIRR_CALLG4(id, ret, name, cat, how, params, args, ev) F_M(ret, name, args)
#include "mpi_calls.def"
#undef MPIRR_CALL
#undef MPIRR_CALLG
#undef MPIRR_CALLG4

/* MPI_BUFFER_DETACH: mpi_f08 returns the address in its TYPE(C_PTR) (fortran_define.h). */
void mpirr_f08_MPI_Buffer_detach(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
{
    f_buffer_detach(buffer_addr, size, ierr);
}
extern __typeof__(mpirr_f08_MPI_Buffer_detach) mpi_buffer_detach_f08_
    __attribute__((alias("mpirr_f08_MPI_Buffer_detach")));
