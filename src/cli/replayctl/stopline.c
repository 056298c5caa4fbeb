/* stopline.c: see stopline.h. */
#include "stopline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "call_ids.h"
#include "opts.h"
#include "rank_log.h"
#include "replay_control.h"

int stopline_parse(const char *spec, int nranks, struct stop_point *p, char *err, size_t n)
{
    int r;
    uint64_t ev;
    if (opt_rank_event(spec, &r, &ev)) {
        snprintf(err, n, "a stopline is RANK:EVENT (e.g. 3:1207), not '%s'", spec);
        return -1;
    }
    if (r >= nranks) {
        snprintf(err, n, "there is no rank %d: the recording has ranks 0 to %d", r, nranks - 1);
        return -1;
    }
    if (ev == 0) {
        snprintf(err, n, "events are numbered from 1 (event 1 is MPI_Init)");
        return -1;
    }
    p->rank = r;
    p->event = ev;
    return 0;
}

int stopline_crash(const struct recording *r, const struct recorded_end *ends,
                   struct stop_point *p, char *err, size_t n)
{
    for (int rank = 0; rank < r->m.nranks; rank++) {
        const struct recorded_end *e = &ends[rank];
        int died = e->ending == MPIRR_END_ABORT ||
                   (e->ending == MPIRR_END_SIGNAL && !mpirr_ending_is_external(e->ending, e->detail));
        if (!died || e->events == 0) continue;
        /* inside a call (MPI_Abort, a fault in the library): stop before it; in its own code
         * after a call returned: stop just after that call, the last point before the fault */
        p->rank = rank;
        p->event = e->events;
        p->after = !e->in_call;
        return 0;
    }
    snprintf(err, n, "--stop crash: no rank of %s died by itself (a fault, abort() or "
             "MPI_Abort); `mpirr stat` shows how each rank ended", r->name);
    return -1;
}

int stopline_compute(struct analysis *an, int nranks, const struct stop_point *p, int past,
                     uint64_t *stops, char *how, size_t hown, char *err, size_t n)
{
    const char *when = p->after ? "after" : "before";
    for (int q = 0; q < nranks; q++) stops[q] = MPIRR_POS_NONE;
    stops[p->rank] = p->after ? mpirr_pos_after(p->event) : mpirr_pos_before(p->event);
    if (!an) {
        snprintf(how, hown, "rank %d stops %s event %" PRIu64 "; without an event history "
                 "(record with --events) each other rank runs until it blocks on it or ends",
                 p->rank, when, p->event);
        return 0;
    }
    const an_rank *rk = &an->run->ranks[p->rank];
    if (p->event > rk->events) {
        snprintf(err, n, "rank %d has %s%" PRIu64 " events in the recording: there is no event %"
                 PRIu64, p->rank, rk->clean ? "" : "only ", rk->events, p->event);
        return -1;
    }
    uint64_t *pv = calloc((size_t)nranks, sizeof *pv), *fv = calloc((size_t)nranks, sizeof *fv);
    char ferr[1200];
    int rc = 0;
    if (!pv || !fv) {
        snprintf(err, n, "out of memory");
        rc = -1;
    } else if (an_frontier(an->run, p->rank, p->event, p->after, pv, fv, ferr, sizeof ferr)) {
        snprintf(err, n, "%s", ferr);
        rc = -1;
    } else {
        for (int q = 0; q < nranks; q++) {
            if (q == p->rank) continue;
            /* future: before the first event the point can affect (none: run to the end);
             * past: just after the last event that can affect the point (none: after Init) */
            if (!past) stops[q] = fv[q] ? mpirr_pos_before(fv[q]) : MPIRR_POS_NONE;
            else stops[q] = mpirr_pos_after(pv[q] ? pv[q] : 1);
        }
        snprintf(how, hown, "rank %d stops %s event %" PRIu64 "; the others at its %s frontier "
                 "(%s)", p->rank, when, p->event, past ? "past" : "future",
                 past ? "just after the last event that can affect it"
                      : "just before the first event it can affect, or at their end");
    }
    free(pv);
    free(fv);
    return rc;
}
