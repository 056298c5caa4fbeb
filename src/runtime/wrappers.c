/* wrappers.c: every intercepted MPI function, generated from mpi_calls.def.
 * PASS rows count the event and call PMPI_<name>; SPECIAL rows forward to mpirr_<name>, which
 * owns the call's nondeterminism (and counts its own event). Around both, when the event
 * history is on, the row's event shape (event_shapes.h) fills one record: PRE before the call,
 * POST after it, then the record is emitted. UNREPLAYED rows are PASS rows that also count the
 * call for the verdict. The call site is the wrapper's return address. */
#include "call_count_slots.h"
#include "event_shapes.h"
#include "runtime.h"
#include "special_calls.h"

static inline void pass_call(unsigned id)
{
    mpirr_call c;
    mpirr_call_begin(&c, id);
}

/* An UNREPLAYED row: also counted per call in the tail's slots (a plain array outside a
 * recording), for the replay's verdict; the other rows pay nothing for it. */
static inline void unreplayed_call(unsigned id)
{
    pass_call(id);
    mpirr_call_count_add(mpirr_rt.call_counts, id);
}

#define MPIRR_INVOKE_PASS(name, args) (pass_call(MPIRR_ID_##name), P##name args)
#define MPIRR_INVOKE_UNREPLAYED(name, args) (unreplayed_call(MPIRR_ID_##name), P##name args)
#define MPIRR_INVOKE_SPECIAL(name, args) mpirr_##name args

#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev)                                  \
    ret name params                                                                            \
    {                                                                                          \
        mpirr_ev_call ev_;                                                                     \
        int ev_pre_ = mpirr_ev_on;                                                             \
        if (__builtin_expect(ev_pre_, 0)) {                                                    \
            mpirr_ev_begin(&ev_, MPIRR_ID_##name, __builtin_return_address(0));                \
            MPIRR_EV_PRE ev                                                                    \
        }                                                                                      \
        ret rc_ = MPIRR_INVOKE_##how(name, args);                                              \
        mpirr_call_returned(MPIRR_ID_##name);                                                  \
        if (__builtin_expect(mpirr_ev_on, 0)) {                                                \
            if (!ev_pre_) { /* MPI_Init: the history opened during the call */                 \
                mpirr_ev_begin(&ev_, MPIRR_ID_##name, __builtin_return_address(0));            \
                ev_.e.x_begin = mpirr_ev_init_t0;                                              \
            }                                                                                  \
            MPIRR_EV_POST ev                                                                   \
            mpirr_ev_emit(&ev_, MPIRR_EVRC_##ret(rc_));                                        \
        }                                                                                      \
        return rc_;                                                                            \
    }
#include "mpi_calls.def"
#undef MPIRR_CALL
