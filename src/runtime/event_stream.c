/* event_stream.c: the event history's open file (the format's writer, event_trace.h): opening
 * it, appending records and definitions under the runtime lock, flushing and closing. A write
 * error ends the history there; the file keeps every whole block and reads as cut off. */
#include "event_stream.h"

#include <stddef.h>

#include "runtime.h"

int mpirr_ev_on;

static mpirr_ev_writer *writer;

int mpirr_ev_stream_open(const char *dir, const mpirr_ev_params *p)
{
    char err[512];
    writer = mpirr_evw_open(dir, p, err, sizeof err);
    if (!writer) {
        mpirr_warn("rank %d: no event history: %s", mpirr_rt.rank, err);
        return 0;
    }
    return 1;
}

int mpirr_ev_stream_close(int clean)
{
    mpirr_ev_on = 0;
    int rc = writer ? mpirr_evw_close(writer, clean) : 0;
    writer = NULL;
    return rc;
}

void mpirr_ev_append_locked(mpirr_event *e)
{
    if (!writer || !mpirr_evw_append(writer, e)) return;
    mpirr_warn("rank %d: %s; the event history stops at event %llu, the program goes on",
               mpirr_rt.rank, mpirr_evw_error(writer),
               (unsigned long long)(e->event ? e->event : mpirr_tls_event));
    mpirr_evw_close(writer, 0);
    writer = NULL;
    mpirr_ev_on = 0;
}

int mpirr_ev_flush(void)
{
    mpirr_lock();
    int rc = writer ? mpirr_evw_flush(writer) : 0;
    mpirr_unlock();
    return rc;
}
