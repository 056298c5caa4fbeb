/* wrapper_body.h: what the wrapper of a row of mpi_calls.def does around the MPI call itself:
 * numbering the event (PASS and UNREPLAYED rows here; a SPECIAL row's implementation numbers its
 * own) and, when the event history is on, filling the row's event shape (event_shapes.h): PRE
 * before the call, POST after it, then emitting the record. Shared by the C entry points
 * (wrappers.c) and Open MPI's forwarded Fortran ones (fortran_forward.c), so that a call counts
 * and records the same from either language. The call site is the wrapper's return address. */
#ifndef MPIRR_WRAPPER_BODY_H
#define MPIRR_WRAPPER_BODY_H

#include "call_count_slots.h"
#include "event_shapes.h"
#include "runtime.h"

static inline void mpirr_pass_call(unsigned id)
{
    mpirr_call c;
    mpirr_call_begin(&c, id);
}

/* An UNREPLAYED row: also counted per call in the tail's slots (a plain array outside a
 * recording), for the replay's verdict; the other rows pay nothing for it. */
static inline void mpirr_unreplayed_call(unsigned id)
{
    mpirr_pass_call(id);
    mpirr_call_count_add(mpirr_rt.call_counts, id);
}

/* Statements of a wrapper's body: `ret rc_` is invoke's value (an expression that makes the
 * call), with the event recorded around it; the wrapper then returns or stores rc_. */
#define MPIRR_WRAPPED_CALL(ret, name, invoke, ev)                                              \
    mpirr_ev_call ev_;                                                                         \
    int ev_pre_ = mpirr_ev_on;                                                                 \
    if (__builtin_expect(ev_pre_, 0)) {                                                        \
        mpirr_ev_begin(&ev_, MPIRR_ID_##name, __builtin_return_address(0));                    \
        MPIRR_EV_PRE ev                                                                        \
    }                                                                                          \
    ret rc_ = invoke;                                                                          \
    mpirr_call_returned(MPIRR_ID_##name);                                                      \
    if (__builtin_expect(mpirr_ev_on, 0)) {                                                    \
        if (!ev_pre_) { /* MPI_Init: the history opened during the call */                     \
            mpirr_ev_begin(&ev_, MPIRR_ID_##name, __builtin_return_address(0));                \
            ev_.e.x_begin = mpirr_ev_init_t0;                                                  \
        }                                                                                      \
        MPIRR_EV_POST ev                                                                       \
        mpirr_ev_emit(&ev_, MPIRR_EVRC_##ret(rc_));                                            \
    }

#endif
