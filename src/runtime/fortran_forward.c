/* fortran_forward.c: Open MPI's Fortran entry points of the rows whose Fortran form the C call
 * cannot take (fortran_forwarded.h, written by scripts/gen_mpi_calls.py with each row's
 * reason: user callbacks, which have Fortran's calling convention; attribute values, which MPI
 * keeps apart from C's; MPI_Comm_spawn's CHARACTER arrays; MPI_UNWEIGHTED). Converting them
 * to a C call would be wrong, and Open MPI's own bindings call its internals or PMPI_*
 * directly, unseen. So each entry point counts and records the call exactly as the row's C
 * wrapper does (wrapper_body.h: same id, numbering and event shape; the handles the shape
 * reads converted with MPI_*_f2c for the record only), then calls Open MPI's own binding -- the
 * next definition of the same symbol after libmpirr's, looked up once -- with every argument
 * untouched (hidden CHARACTER lengths included), and returns its error code unchanged in
 * ierror (absent, i.e. NULL, for an mpi_f08 call without it). One function serves the mpif.h
 * and `use mpi` names (mpi_x, mpi_x_, mpi_x__, MPI_X: all one function in libmpi_mpifh), one
 * mpi_f08's mpi_x_f08_ (libmpi_usempif08's own). Open MPI's bindings call none of these names
 * back (they call ompi_*_f and PMPI_*), so nothing recurses. */
#include "fortran_convert.h"
#include "fortran_forwarded.h" /* scripts/gen_mpi_calls.py: which rows, and their kinds */
#include "fortran_names.h"     /* generated: F_LOWER_<name>, F_UPPER_<name> */
#include "fortran_pp.h"
#include "real_call.h"
#include "wrapper_body.h"

/* A parameter's forward kind: FFWDK_<call>_<param>, else ADDR (its address forwarded). STR: a
 * CHARACTER, whose hidden length gfortran appends after ierror; H_IN, H_OUT: a handle of type T
 * that the event shape reads, converted before the call, or after it from what it wrote. The C
 * view of a parameter has its row's name (the shape's macros read it); its Fortran one f_<p>. */
#define FW_KIND(name, p) F_SECOND(FFWDK_##name##_##p, (ADDR))
#define FW_EACH(stage, sep, name, args) F_EACH(FW_P_##stage, sep, name, args)
#define FW_P_PARAM(name, p) F_STAGE_OF(FW_KIND(name, p), FWPARAM, p)
#define FW_P_TAIL(name, p) F_STAGE_OF(FW_KIND(name, p), FWTAIL, p)
#define FW_P_ARG(name, p) F_STAGE_OF(FW_KIND(name, p), FWARG, p)
#define FW_P_TAILARG(name, p) F_STAGE_OF(FW_KIND(name, p), FWTAILARG, p)
#define FW_P_VIEW(name, p) F_STAGE_OF(FW_KIND(name, p), FWVIEW, p)
#define FW_P_AFTER(name, p) F_STAGE_OF(FW_KIND(name, p), FWAFTER, p)

#define F_FWPARAM_ADDR(p, ...) void *f_##p,
#define F_FWPARAM_STR(p, ...) void *f_##p,
#define F_FWPARAM_H_IN(p, ...) void *f_##p,
#define F_FWPARAM_H_OUT(p, ...) void *f_##p,
#define F_FWTAIL_ADDR(p, ...)
#define F_FWTAIL_STR(p, ...) , size_t p##_len
#define F_FWTAIL_H_IN(p, ...)
#define F_FWTAIL_H_OUT(p, ...)
#define F_FWARG_ADDR(p, ...) f_##p,
#define F_FWARG_STR(p, ...) f_##p,
#define F_FWARG_H_IN(p, ...) f_##p,
#define F_FWARG_H_OUT(p, ...) f_##p,
#define F_FWTAILARG_ADDR(p, ...)
#define F_FWTAILARG_STR(p, ...) , p##_len
#define F_FWTAILARG_H_IN(p, ...)
#define F_FWTAILARG_H_OUT(p, ...)
#define F_FWVIEW_ADDR(p, ...)
#define F_FWVIEW_STR(p, ...)
#define F_FWVIEW_H_IN(p, T) fh_##T p = f2c_##T(*(const MPI_Fint *)f_##p);
#define F_FWVIEW_H_OUT(p, T) fh_##T p##_out_, *p = &p##_out_;
#define F_FWAFTER_ADDR(p, ...)
#define F_FWAFTER_STR(p, ...)
#define F_FWAFTER_H_IN(p, ...)
/* read back whatever the call left (a failed call's is never recorded: the shape checks rc_) */
#define F_FWAFTER_H_OUT(p, T) p##_out_ = f2c_##T(*(const MPI_Fint *)f_##p),

/* How the call is numbered: as the C wrapper's PASS and UNREPLAYED rows are; a SPECIAL row's C
 * implementation numbers its own event, and here Open MPI's binding runs in its place. */
#define FW_COUNT_PASS mpirr_pass_call
#define FW_COUNT_UNREPLAYED mpirr_unreplayed_call
#define FW_COUNT_SPECIAL mpirr_pass_call

/* The entry point fn of row name, forwarding to the symbol sym (a string). */
#define FW_ENTRY(fn, sym, name, how, args, ev)                                                 \
    void fn(FW_EACH(PARAM, F_NOTHING, name, args) MPI_Fint *ierr                               \
                FW_EACH(TAIL, F_NOTHING, name, args));                                         \
    void fn(FW_EACH(PARAM, F_NOTHING, name, args) MPI_Fint *ierr                               \
                FW_EACH(TAIL, F_NOTHING, name, args))                                          \
    {                                                                                          \
        static __typeof__(fn) *next_;                                                          \
        MPI_Fint f_rc_ = MPI_SUCCESS;                                                          \
        FW_EACH(VIEW, F_NOTHING, name, args)                                                   \
        MPIRR_WRAPPED_CALL(int, name,                                                          \
                           (FW_COUNT_##how(MPIRR_ID_##name),                                   \
                            REAL_AS(next_, sym)(FW_EACH(ARG, F_NOTHING, name, args) & f_rc_    \
                                                    FW_EACH(TAILARG, F_NOTHING, name, args)),  \
                            FW_EACH(AFTER, F_NOTHING, name, args)(int) f_rc_),                 \
                           ev)                                                                 \
        if (ierr)                                                                              \
            *ierr = rc_;                                                                       \
    }

/* A row becomes two entry points when fortran_forwarded.h names it (FFWD_<name>). */
#define FW_ROW(name, how, args, ev) F_CAT(FW_ROW_, F_SECOND(FFWD_##name, SKIP))(name, how, args, ev)
#define FW_ROW_SKIP(name, how, args, ev)
#define FW_ROW_FWD(name, how, args, ev)                                                        \
    FW_ENTRY(mpirr_fw_##name, F_STR(F_CAT(F_LOWER_##name, _)), name, how, args, ev)            \
    F_MPIFH_NAMES(mpirr_fw_##name, name)                                                       \
    FW_ENTRY(F_CAT(F_LOWER_##name, _f08_), F_STR(F_CAT(F_LOWER_##name, _f08_)), name, how,     \
             args, ev)

#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) FW_ROW(name, how, args, ev)
#define MPIRR_CALLG(id, ret, name, cat, how, params, args, ev) FW_ROW(name, how, args, ev)
#define MPIRR_CALLG4(...)
#ifndef MPIRR_CALL_MPI4
#define MPIRR_CALL_MPI4(...) /* Open MPI 4.1 (MPI-3) has no MPI-4 function to forward */
#endif
#include "mpi_calls.def"
#undef MPIRR_CALL
