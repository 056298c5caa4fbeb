/* stat_races.h: the race analyses in `mpirr stat --analysis`. */
#ifndef MPIRR_CLI_STAT_RACES_H
#define MPIRR_CLI_STAT_RACES_H

#include "stat.h"

struct json;
/* Runs the race analyses on the event history (when it is readable and
 * stat_want_analysis(1) was called: `mpirr stat --analysis`) into st->races; prints their
 * summary. */
void stat_want_analysis(int on);
void stat_collect_races(struct rec_stats *st);
void stat_free_races(struct rec_stats *st);
void stat_print_races_text(const struct rec_stats *st);
void stat_print_races_json(const struct rec_stats *st, struct json *j);

#endif
