/* wrappers.c: every intercepted MPI function, generated from mpi_calls.def.
 * PASS rows become: begin event, PMPI_<name>, end event. SPECIAL rows forward to
 * mpirr_<name>, which owns the call's nondeterminism (and does its own begin/end). */
#include "runtime.h"
#include "special_calls.h"

#define MPIRR_BODY_PASS(ret, name, args)                                                       \
    mpirr_call c;                                                                              \
    mpirr_call_begin(&c, MPIRR_ID_##name);                                                     \
    ret rc = P##name args;                                                                     \
    mpirr_call_end(&c);                                                                        \
    return rc;
#define MPIRR_BODY_SPECIAL(ret, name, args) return mpirr_##name args;

#define MPIRR_CALL(id, ret, name, cat, how, params, args) \
    ret name params { MPIRR_BODY_##how(ret, name, args) }
#include "mpi_calls.def"
#undef MPIRR_CALL
