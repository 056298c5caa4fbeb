/* fortran_wrappers.c: the Fortran entry points, generated from mpi_calls.def (Open MPI only).
 *
 * Why: Open MPI's Fortran bindings (libmpi_mpifh for mpif.h and `use mpi`, libmpi_usempif08
 * for `use mpi_f08`) call PMPI_* directly, so a Fortran program's calls never reach the C
 * wrappers. Each row of the table therefore also defines the Fortran subroutine: it converts
 * the Fortran arguments (fortran_kinds.h says how each parameter is passed, fortran_convert.h
 * how each kind is converted), calls the C MPI_<name> -- the runtime's own wrapper, so event
 * numbering, recording and replay are exactly the C ones -- converts the results back and
 * returns the error code unchanged in ierror (absent, i.e. NULL, for an mpi_f08 call without
 * it). The one function gets every name a Fortran compiler may use: mpi_recv, mpi_recv_,
 * mpi_recv__, MPI_RECV (mpif.h / use mpi) and mpi_recv_f08_ (use mpi_f08, whose subroutines
 * take the same arguments: a handle type holds one INTEGER, TYPE(MPI_Status) has the layout of
 * the INTEGER status array). MPICH needs none of this: its Fortran bindings call MPI_*, and
 * wrapping them too would count every Fortran call twice. */
#include "fortran_convert.h"
#include "fortran_generated.h" /* scripts/gen_mpi_calls.py: which generated rows are bound */
#include "fortran_kinds.h"
#include "fortran_names.h" /* generated: F_LOWER_<name>, F_UPPER_<name> */
#include "fortran_pp.h"

#define F_P_PARAM(name, p) F_STAGE(PARAM, name, p)
#define F_P_TAIL(name, p) F_STAGE(TAIL, name, p)
#define F_P_LOCAL(name, p) F_STAGE(LOCAL, name, p)
#define F_P_ARG(name, p) F_STAGE(ARG, name, p)
#define F_P_BACK(name, p) F_STAGE(BACK, name, p)
#define F_P_FREE(name, p) F_STAGE(FREE, name, p)

/* Another exported name for mpirr_f_<name>. */
#define F_ALIAS(name, sym) F_ALIAS_OF(mpirr_f_##name, sym)
#define F_MPIFH_ALIASES(name) F_MPIFH_NAMES(mpirr_f_##name, name)

/* A row becomes F_GEN_int, F_GEN_double (MPI_Wtime, MPI_Wtick: functions, and mpi_f08 binds
 * them to the C ones directly) or F_GEN_SKIP (FSKIP_<name>, or a whole category: FSKIP_CAT_<cat>). */
#define F_GEN(ret, name, cat, args) \
    F_CAT(F_GEN_, F_SECOND(FSKIP_##name, F_SECOND(FSKIP_CAT_##cat, ret)))(name, args)
#define F_GEN_SKIP(name, args)
#define F_GEN_double(name, args)                                                               \
    double mpirr_f_##name(void) { return name(); }                                             \
    F_MPIFH_ALIASES(name)
#define F_GEN_int(name, args)                                                                  \
    void mpirr_f_##name(F_EACH(F_P_PARAM, F_NOTHING, name, args) MPI_Fint *ierr               \
                            F_EACH(F_P_TAIL, F_NOTHING, name, args))                           \
    {                                                                                          \
        int f_ok_ = 1;                                                                         \
        F_EACH(F_P_LOCAL, F_NOTHING, name, args)                                               \
        int rc_ = f_ok_ ? name(F_EACH(F_P_ARG, F_COMMA, name, args)) : MPI_ERR_NO_MEM;         \
        if (f_ok_ && (rc_ == MPI_SUCCESS || rc_ == MPI_ERR_IN_STATUS)) {                       \
            F_EACH(F_P_BACK, F_NOTHING, name, args)                                            \
        }                                                                                      \
        F_EACH(F_P_FREE, F_NOTHING, name, args)                                                \
        if (ierr)                                                                              \
            *ierr = rc_;                                                                       \
    }                                                                                          \
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

/* MPI_BUFFER_DETACH, the one call whose bindings differ in what they return: mpif.h and `use
 * mpi` leave the address argument alone (MPI-3.1 section 3.6: Fortran cannot use it; Open
 * MPI's own binding passes C a dummy), mpi_f08 returns it in a TYPE(C_PTR). Both go through
 * the C wrapper, which in races mode hands back the program's own buffer and size in place of
 * the larger one mpirr attached (bsend_room.c); Open MPI's bindings would return mpirr's. */
static void f_buffer_detach(void **address, MPI_Fint *size, MPI_Fint *ierr)
{
    void *got = NULL;
    int got_size = 0;
    int rc = MPI_Buffer_detach(&got, &got_size);
    if (rc == MPI_SUCCESS) {
        *size = got_size;
        if (address) *address = got;
    }
    if (ierr) *ierr = rc;
}
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
