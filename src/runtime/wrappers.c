/* wrappers.c: every intercepted MPI function, generated from mpi_calls.def.
 * PASS rows count the event and call PMPI_<name>; SPECIAL rows forward to mpirr_<name>, which
 * owns the call's nondeterminism (and counts its own event). Around both, when the event
 * history is on, the row's event shape fills one record (wrapper_body.h). UNREPLAYED rows are
 * PASS rows that also count the call for the verdict. */
#include "special_calls.h"
#include "wrapper_body.h"

#define MPIRR_INVOKE_PASS(name, args) (mpirr_pass_call(MPIRR_ID_##name), P##name args)
#define MPIRR_INVOKE_UNREPLAYED(name, args) (mpirr_unreplayed_call(MPIRR_ID_##name), P##name args)
#define MPIRR_INVOKE_SPECIAL(name, args) mpirr_##name args

#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev)                                  \
    ret name params                                                                            \
    {                                                                                          \
        MPIRR_WRAPPED_CALL(ret, name, MPIRR_INVOKE_##how(name, args), ev)                      \
        return rc_;                                                                            \
    }
#include "mpi_calls.def"
#undef MPIRR_CALL
