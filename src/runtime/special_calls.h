/* special_calls.h: prototypes of the hand-written mpirr_<name> implementations of the SPECIAL
 * rows of mpi_calls.def, generated from the table so that signatures cannot drift. */
#ifndef MPIRR_SPECIAL_CALLS_H
#define MPIRR_SPECIAL_CALLS_H

#include <mpi.h>

/* The MPI-4 rows of the table wrap nothing in a runtime built against an MPI-3 library. */
#if MPI_VERSION < 4 && !defined(MPIRR_CALL_MPI4)
#define MPIRR_CALL_MPI4(...)
#endif

#define MPIRR_DECL_PASS(ret, name, params)
#define MPIRR_DECL_UNREPLAYED(ret, name, params)
#define MPIRR_DECL_SPECIAL(ret, name, params) ret mpirr_##name params;
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) MPIRR_DECL_##how(ret, name, params)
#include "mpi_calls.def"
#undef MPIRR_CALL
#undef MPIRR_DECL_PASS
#undef MPIRR_DECL_UNREPLAYED
#undef MPIRR_DECL_SPECIAL

/* Each special implementation starts with this: the event of its own call. */
#define MPIRR_BEGIN(name) \
    mpirr_call call_; \
    mpirr_call_begin(&call_, MPIRR_ID_##name)

#endif
