/* stat_races.c: what `mpirr stat --analysis` says about races when the recording has an event
 * history: racing receives and messages, the optimal trace's bound and how close on-the-fly
 * tracing came to it (the races command's summary). Without --analysis stat only says how to
 * get it: the analysis loads every operation of the run (tens of bytes per event), which a
 * summary of the logs should not cost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "json.h"
#include "races_report.h"
#include "stat_races.h"

struct stat_races {
    struct races_report rep; /* first: stat.h knows it as struct races_report */
    struct analysis a;
};

static int want_analysis;

void stat_want_analysis(int on) { want_analysis = on; }

void stat_collect_races(struct rec_stats *st)
{
    if (!want_analysis || !st->ev.present || st->ev.damaged) return;
    struct stat_races *sr = calloc(1, sizeof *sr);
    if (!sr) return;
    if (analysis_open(st->rec.dir, &sr->a, 1, 1)) {
        free(sr);
        return;
    }
    if (races_report_build(&sr->a, &sr->rep)) {
        races_report_free(&sr->rep);
        analysis_close(&sr->a);
        free(sr);
        return;
    }
    /* the count of logged receives is the one stat already read from the rank logs */
    if (!strcmp(st->rec.m.mode, "races")) {
        sr->rep.logged.known = 1;
        sr->rep.logged.total = st->total.entries_logged;
    }
    st->races = &sr->rep;
}

void stat_free_races(struct rec_stats *st)
{
    if (!st->races) return;
    struct stat_races *sr = (struct stat_races *)st->races;
    races_report_free(&sr->rep);
    analysis_close(&sr->a);
    free(sr);
    st->races = NULL;
}

void stat_print_races_text(const struct rec_stats *st)
{
    if (st->races) races_report_text_summary(st->races, stdout);
    else if (!want_analysis && st->ev.present && !st->ev.damaged)
        printf("analysis    not run (mpirr stat --analysis, or mpirr races, analyses the event history)\n");
}

void stat_print_races_json(const struct rec_stats *st, struct json *j)
{
    if (st->races) races_report_json_summary(st->races, j, "races");
    else json_null(j, "races");
}
