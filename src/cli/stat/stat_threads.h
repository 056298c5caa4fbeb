/* stat_threads.h: the threads of threaded ranks in `mpirr stat`, from their sync logs. */
#ifndef MPIRR_CLI_STAT_THREADS_H
#define MPIRR_CLI_STAT_THREADS_H

#include "stat.h"

struct json;
/* Reads every sync log of the recording into its rank's threads (problems
 * reported one line each and counted in st->damaged); prints the per-thread figures (nothing
 * when the recording has no sync log). */
void stat_collect_threads(struct rec_stats *st);
void stat_free_threads(struct rec_stats *st);
void stat_print_threads_text(const struct rec_stats *st);
void stat_print_threads_json(const struct rank_stat *r, struct json *j);
void stat_print_threads_total_json(const struct rec_stats *st, struct json *j);

#endif
