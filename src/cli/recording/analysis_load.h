/* analysis_load.h: what races, frontier and stat share: a recording's event history loaded,
 * its messages matched and its happened-before computed (src/analysis), with the time each
 * step took, and call sites turned into source lines. */
#ifndef MPIRR_CLI_ANALYSIS_LOAD_H
#define MPIRR_CLI_ANALYSIS_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "recording.h"
#include "symbols.h"

struct analysis {
    struct recording rec;
    an_run *run;
    double load_s, match_s, hb_s; /* seconds */
    int matched, swept;           /* run->msgs is matched, its hb_dest swept already (races
                                   * --mpi): no an_match, an_happened_before */
    mpirr_symbolizer *sym;
};

/* 0, or an exit status after a one-line message (not a recording, no event history). Ranks
 * whose history is damaged are reported one line each, those cut off in one line for all
 * (rank_list), and all are analysed up to there.
 * with_hb: also compute happened-before (frontier runs its own sweep); quiet: do not report
 * cut-off histories (stat says so itself). */
int analysis_open(const char *dir_arg, struct analysis *a, int with_hb, int quiet);
/* analysis_open's part after the histories are read (into a->run, from a->rec, since t0 by
 * mono_seconds): the damage lines, matching (unless a->matched) and happened-before (unless
 * a->swept), each timed (added to a->match_s, a->hb_s). */
int analysis_prepare(struct analysis *a, const char *dir_arg, int with_hb, int quiet, double t0);
void analysis_close(struct analysis *a);

/* "file.c:LINE (function)", or "object+0xOFFSET" without debug information, or "?" */
void analysis_site(struct analysis *a, int rank, uint32_t site, char *buf, size_t n);

#endif
