/* fortran_wrappers.c: the Fortran entry points, generated from mpi_calls.def (Open MPI only).
 *
 * Why: Open MPI's Fortran bindings (libmpi_mpifh for mpif.h and `use mpi`, libmpi_usempif08
 * for `use mpi_f08`) call PMPI_* directly, so a Fortran program's calls never reach the C
 * wrappers. Each row of the table therefore also defines the Fortran subroutine: it converts
 * the Fortran arguments and calls the C MPI_<name> (fortran_define.h). The one function gets
 * every name a Fortran compiler may use: mpi_recv, mpi_recv_, mpi_recv__, MPI_RECV (mpif.h / use mpi) and mpi_recv_f08_ (use mpi_f08, whose subroutines
 * take the same arguments: a handle type holds one INTEGER, TYPE(MPI_Status) has the layout of
 * the INTEGER status array). MPICH's mpif.h and `use mpi` bindings call MPI_* (wrapping them
 * too would count every call twice); its mpi_f08 ones are fortran_mpich_f08.c's. */
#include "fortran_define.h"
#include "fortran_generated.h" /* scripts/gen_mpi_calls.py: which generated rows are bound */
#include "fortran_kinds.h"
#include "fortran_names.h" /* generated: F_LOWER_<name>, F_UPPER_<name> */

#define F_MPIFH_ALIASES(name) F_MPIFH_NAMES(mpirr_f_##name, name)

/* A row becomes F_GEN_int, F_GEN_double (MPI_Wtime, MPI_Wtick: functions, and mpi_f08 binds
 * them to the C ones directly) or F_GEN_SKIP (FSKIP_<name>, or a whole category: FSKIP_CAT_<cat>). */
#define F_GEN(ret, name, cat, args) \
    F_CAT(F_GEN_, F_SECOND(FSKIP_##name, F_SECOND(FSKIP_CAT_##cat, ret)))(name, args)
#define F_GEN_SKIP(name, args)
#define F_GEN_double(name, args)                                                               \
    F_DEFINE_double(name, args)                                                                \
    F_MPIFH_ALIASES(name)
#define F_GEN_int(name, args)                                                                  \
    F_DEFINE_int(name, args)                                                                   \
    F_MPIFH_ALIASES(name)                                                                      \
    F_ALIAS(name, F_CAT(F_LOWER_##name, _f08_))

#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) F_GEN(ret, name, cat, args)
#ifndef MPIRR_CALL_MPI4
#define MPIRR_CALL_MPI4(...) /* Open MPI 4.1 (MPI-3) has no MPI-4 function to bind */
#endif
/* A generated row (mpi_calls_generated.def) gets a Fortran binding when scripts/gen_mpi_calls.py
 * found a kind for each of its parameters (fortran_generated.h: FGEN_<name>); a Fortran program's
 * calls of the others reach Open MPI's own bindings, unseen (docs/runtime.md, Fortran). */
#define MPIRR_CALLG(id, ret, name, cat, how, params, args, ev)                                 \
    F_CAT(F_GEN_G_, F_SECOND(FGEN_##name, SKIP))(ret, name, cat, args)
#define F_GEN_G_SKIP(ret, name, cat, args)
#define F_GEN_G_BIND(ret, name, cat, args) F_GEN(ret, name, cat, args)
#define MPIRR_CALLG4(...)
#include "mpi_calls.def"
#undef MPIRR_CALL

/* `use mpi` declares the calls that return an address (baseptr) twice, INTEGER(MPI_ADDRESS_KIND)
 * and TYPE(C_PTR), the second under a name ending in _cptr; both pass the variable's address,
 * which C fills (Open MPI's bindings are one function under both names too). */
#define F_CPTR_ALIASES(name)                                                                   \
    F_ALIAS(name, F_CAT(F_LOWER_##name, _cptr))                                                \
    F_ALIAS(name, F_CAT(F_LOWER_##name, _cptr_))                                               \
    F_ALIAS(name, F_CAT(F_LOWER_##name, _cptr__))                                              \
    F_ALIAS(name, F_CAT(F_UPPER_##name, _CPTR))
F_CPTR_ALIASES(MPI_Win_allocate)
F_CPTR_ALIASES(MPI_Win_allocate_shared)
F_CPTR_ALIASES(MPI_Win_shared_query)
F_CPTR_ALIASES(MPI_Alloc_mem)

/* MPI_BUFFER_DETACH: bound by hand (fortran_define.h says why). */
void mpirr_f_MPI_Buffer_detach(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
{
    (void)buffer_addr;
    f_buffer_detach(NULL, size, ierr);
}
F_MPIFH_ALIASES(MPI_Buffer_detach)
void mpirr_f08_MPI_Buffer_detach(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
{
    f_buffer_detach(buffer_addr, size, ierr);
}
extern __typeof__(mpirr_f08_MPI_Buffer_detach) F_CAT(F_LOWER_MPI_Buffer_detach, _f08_)
    __attribute__((alias("mpirr_f08_MPI_Buffer_detach")));
