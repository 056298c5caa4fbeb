/* public_api.c: the functions declared in mpirr.h. */
#include "mpirr.h"

#include "event_history.h"
#include "runtime.h"

int mpirr_flush(void)
{
    mpirr_lock();
    int rc = mpirr_rt.writer ? mpirr_log_flush(mpirr_rt.writer) : 0;
    mpirr_unlock();
    return mpirr_ev_flush() ? -1 : rc;
}

const char *mpirr_mode(void)
{
    static const char *const names[] = {"off", "run", "record", "replay"};
    return names[mpirr_rt.mode];
}

unsigned long long mpirr_event_count(void) { return mpirr_current_event; }
