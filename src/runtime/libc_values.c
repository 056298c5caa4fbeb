/* libc_values.c: one libc value to or from the rank log. A LIBC record is keyed by the MPI
 * event in progress (the last call begun); records of one event stay in the order of the
 * calls, so replay hands them back in that order, each to the call of the same source. A call
 * the recording does not have there, or has from another source, is a divergence naming both;
 * one the program skips is caught at its next MPI call (replay_cursor.c). */
#include <string.h>

#include "libc_runtime.h"
#include "replay_cursor.h"

void mpirr_libc_record(unsigned source, uint64_t value, const void *bytes, uint32_t n)
{
    mpirr_record r = {.kind = MPIRR_REC_LIBC, .call = (uint16_t)source, .value = value,
                      .bytes = bytes, .nbytes = n};
    mpirr_lock();
    r.event = mpirr_current_event;
    mpirr_record_append_locked(&r);
    mpirr_unlock();
}

uint64_t mpirr_libc_replay(unsigned source, void *buf, size_t cap, uint32_t *n)
{
    mpirr_record r;
    if (!mpirr_replay_take_libc(&r)) {
        /* past the last call the recorded run finished, a rank stopped from outside had made
         * no such call before it was stopped: hold it, as at its next MPI call */
        if (mpirr_rt.hold_event && mpirr_current_event + 1 >= mpirr_rt.hold_event)
            mpirr_hold_before(mpirr_current_event + 1, mpirr_libc_source_name(source));
        char next[160];
        mpirr_cursor_describe_next(next, sizeof next);
        mpirr_diverged(mpirr_current_event, "the program called %s, the recording has no libc call "
                       "here (next recorded: %s)", mpirr_libc_source_name(source), next);
    }
    if (r.call != source)
        mpirr_diverged(mpirr_current_event, "the recording has %s here, the program called %s",
                       mpirr_record_call_name(&r), mpirr_libc_source_name(source));
    if (n) *n = r.nbytes < cap ? r.nbytes : (uint32_t)cap;
    if (buf && r.nbytes) memcpy(buf, r.bytes, r.nbytes < cap ? r.nbytes : cap);
    return r.value;
}
