/* fortran_define.h: what a row of mpi_calls.def becomes as a C function with the Fortran
 * calling convention, mpirr_f_<name>, shared by the two sets of entry points built from it:
 * Open MPI's (fortran_wrappers.c) and MPICH's `use mpi_f08` ones (fortran_mpich_f08.c), which
 * differ only in the names they export it under. The wrapper converts the Fortran arguments
 * (fortran_kinds.h says how each parameter is passed, fortran_convert.h how each kind is
 * converted), calls the C MPI_<name> -- the runtime's own wrapper, so event numbering,
 * recording and replay are exactly the C ones -- converts the results back and returns the
 * error code unchanged in ierror (absent, i.e. NULL, for an mpi_f08 call without it). */
#ifndef MPIRR_FORTRAN_DEFINE_H
#define MPIRR_FORTRAN_DEFINE_H

#include "fortran_convert.h"
#include "fortran_pp.h"

#define F_P_PARAM(name, p) F_STAGE(PARAM, name, p)
#define F_P_TAIL(name, p) F_STAGE(TAIL, name, p)
#define F_P_LOCAL(name, p) F_STAGE(LOCAL, name, p)
#define F_P_ARG(name, p) F_STAGE(ARG, name, p)
#define F_P_BACK(name, p) F_STAGE(BACK, name, p)
#define F_P_FREE(name, p) F_STAGE(FREE, name, p)

/* Another exported name for mpirr_f_<name>. */
#define F_ALIAS(name, sym) F_ALIAS_OF(mpirr_f_##name, sym)

/* MPI_Wtime, MPI_Wtick: Fortran functions of no argument. */
#define F_DEFINE_double(name, args) \
    double mpirr_f_##name(void) { return name(); }
#define F_DEFINE_int(name, args)                                                               \
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
    }

/* MPI_BUFFER_DETACH, the one call whose bindings differ in what they return: mpif.h and `use
 * mpi` leave the address argument alone (MPI-3.1 section 3.6: Fortran cannot use it; Open
 * MPI's own binding passes C a dummy), mpi_f08 returns it in a TYPE(C_PTR) (address: NULL for
 * the first). Both go through the C wrapper, which in races mode hands back the program's own
 * buffer and size in place of the larger one mpirr attached (bsend_room.c); the MPIs' own
 * bindings would return mpirr's. */
static inline void f_buffer_detach(void **address, MPI_Fint *size, MPI_Fint *ierr)
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

#endif
