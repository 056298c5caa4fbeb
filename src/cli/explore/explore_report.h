/* explore_report.h: what `mpirr explore` tells: one line per run on stdout and one row of
 * DIR/explore.tsv, and at the end the distinct outcomes and the one summary line. */
#ifndef MPIRR_CLI_EXPLORE_REPORT_H
#define MPIRR_CLI_EXPLORE_REPORT_H

#include <stdio.h>

#include "explore_state.h"
#include "json.h"

/* The first row of explore.tsv: the column names. */
void explore_report_header(FILE *tsv);
/* Run st->runs[i], just ended. */
void explore_report_run(const struct explore_config *cfg, const struct explore_state *st,
                        size_t i, FILE *out, FILE *tsv);
/* The distinct outcomes (ending and stdout digest, with their runs), then the summary line:
 * runs, distinct outcomes, the forced choices that led to the failing run and its recording. */
void explore_report_summary(const struct explore_config *cfg, const struct explore_state *st,
                            FILE *out);

/* The distinct outcomes, first seen first, one line each on out (NULL: none); how many. */
size_t explore_report_outcomes(const struct explore_state *st, FILE *out);
/* Whether the search tried every choice within --depth (and none failed, none interrupted). */
int explore_exhausted(const struct explore_state *st);
/* --json: the summary as one JSON object on out (explore_report_json.c). */
void explore_report_json(const struct explore_config *cfg, const struct explore_state *st,
                         FILE *out);

/* An ending as JSON, under key: ending (explore_ending_text), exit, signal, timed_out,
 * stdout_digest (16 hex digits). */
void explore_json_outcome(struct json *j, const char *key, const struct explore_outcome *o);

#endif
