/* stat_events.c: what `mpirr stat` says about a recording's event history: events, stored
 * and raw bytes, bytes per event and the compression ratio. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "event_trace.h"
#include "file_io.h"
#include "stat_events.h"

static void one_rank(struct events_stat *ev, const char *dir, int rank)
{
    char err[700], path[4200];
    mpirr_ev_reader *r = mpirr_evr_open(dir, rank, err, sizeof err);
    if (!r) {
        cli_error("%s", err);
        ev->damaged++;
        return;
    }
    mpirr_event e;
    int got;
    while ((got = mpirr_evr_next(r, &e)) == 1)
        if (mpirr_ev_is_call(e.kind))
            ev->events++;
    if (got < 0) {
        cli_error("%s", mpirr_evr_error(r));
        ev->damaged++;
    } else if (!mpirr_evr_clean(r)) {
        ev->cut_off++;
    }
    const mpirr_ev_info *info = mpirr_evr_info(r);
    ev->raw_bytes += info->raw_bytes;
    ev->tail_bytes += info->tail_bytes;
    mpirr_ev_path(path, sizeof path, dir, rank, 0);
    ev->stored_bytes += mpirr_file_bytes(path);
    mpirr_evr_close(r);
}

void stat_collect_events(struct rec_stats *st)
{
    char path[4200];
    mpirr_ev_path(path, sizeof path, st->rec.dir, 0, 0);
    if (!mpirr_file_present(path))
        return; /* recorded without --events */
    st->ev.present = 1;
    for (int i = 0; i < st->nranks; i++)
        one_rank(&st->ev, st->rec.dir, i);
}

double stat_events_bytes_per_event(const struct events_stat *e)
{
    return e->events ? (double)e->stored_bytes / (double)e->events : -1.0;
}

double stat_events_ratio(const struct events_stat *e)
{
    return e->stored_bytes ? (double)e->raw_bytes / (double)e->stored_bytes : -1.0;
}
