/* stat_collect.h: gathering the figures of `mpirr stat` (stat.h) from a recording, and the
 * figures derived from them. */
#ifndef MPIRR_CLI_STAT_COLLECT_H
#define MPIRR_CLI_STAT_COLLECT_H

#include "stat.h"

/* Reads the manifest and every rank log. Problems with single logs are reported (one line
 * each) and counted in damaged; 0 is returned unless the recording could not be opened at all,
 * in which case it is an exit status after a message. */
int stat_collect(const char *dir, struct rec_stats *st);
void stat_free(struct rec_stats *st);

/* The record kinds that are nondeterministic outcomes (match .. wtime), as opposed to the
 * bookkeeping records (check, end). */
int stat_is_outcome(unsigned kind);
/* Whether the runtime keeps counter c (enum mpirr_counter) in st->counted_mode: messages sent
 * in every mode, the rest in races mode only. A counter not kept is shown as not collected,
 * never as 0. */
int stat_counter_collected(const struct rec_stats *st, unsigned c);

/* Log bytes (file headers excluded, frame headers and bookkeeping records included) per
 * nondeterministic outcome; negative when there are none. */
double stat_bytes_per_record(const struct rank_stat *r);
/* 100 * entries_logged / messages received; negative when no message was received. */
double stat_traced_percent(const struct rank_stat *r);
/* Piggybacked bytes per piggybacked message; negative when none was sent. */
double stat_piggyback_per_message(const struct rank_stat *r);

#endif
