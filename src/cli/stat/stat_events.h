/* stat_events.h: the event history in `mpirr stat`. */
#ifndef MPIRR_CLI_STAT_EVENTS_H
#define MPIRR_CLI_STAT_EVENTS_H

#include "stat.h"

/* Reads every rank's event history, if the recording has one, into st->ev
 * (problems reported one line each, counted in st->ev.damaged). */
void stat_collect_events(struct rec_stats *st);
/* Stored bytes per event and raw/stored; negative when undefined. */
double stat_events_bytes_per_event(const struct events_stat *e);
double stat_events_ratio(const struct events_stat *e);

#endif
