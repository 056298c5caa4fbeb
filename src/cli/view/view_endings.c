/* view_endings.c: how each rank's recording ended, for the page's crash and signal marks: the
 * tail of its log says it (readable without reading the log through, as races_report.c's
 * crash finder reads it). */
#include <limits.h>

#include "rank_log.h"
#include "recording.h"
#include "view_data.h"

int view_collect_endings(struct analysis *a, struct view_data *d)
{
    for (int rank = 0; rank < d->nranks && rank < a->rec.m.nranks; rank++) {
        struct view_rank *vr = &d->ranks[rank];
        char path[PATH_MAX + 32], err[1024];
        recording_log_path(path, sizeof path, a->rec.dir, rank);
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd) continue;
        vr->end_known = 1;
        vr->ending = mpirr_log_reader_ending(rd, &vr->detail);
        vr->end_event = mpirr_log_reader_events(rd);
        vr->end_in_call = mpirr_log_reader_in_call(rd);
        mpirr_log_reader_close(rd);
    }
    return 0;
}
