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

/* On the implementations of calls that have a second caller (large_count.c forwards the MPI-4
 * large-count calls to them): keeps them inlined into their own wrappers, as link-time
 * optimisation inlines a function with one caller; without it MPICH's ping-pong took 47 more
 * instructions per round trip in libmpirr (bench/races_callgrind.sh). */
#define MPIRR_ALSO_FORWARDED __attribute__((always_inline)) inline

/* Each special implementation starts with this: the event of its own call. */
#define MPIRR_BEGIN(name) \
    mpirr_call call_; \
    mpirr_call_begin(&call_, MPIRR_ID_##name)

#endif
