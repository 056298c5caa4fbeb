/* races_report.h: the race analyses of a loaded recording, as `mpirr races` and `mpirr stat`
 * report them: racing receives grouped by source line, Chu & Huang's verdicts compared, the
 * optimal trace against what was (races mode) or would be (Netzer & Miller's Figure 3)
 * logged, and the time each analysis took. */
#ifndef MPIRR_CLI_RACES_REPORT_H
#define MPIRR_CLI_RACES_REPORT_H

#include <stdio.h>

#include "analysis_load.h"
#include "json.h"

/* The receives a races-mode recording logged: how many, and (races command) which, per rank,
 * sorted. */
struct races_logged {
    int known;          /* the recording was made in races mode */
    int nranks;
    uint64_t **events;
    size_t *n;
    uint64_t total;
};
int races_logged_has(const struct races_logged *l, int rank, uint64_t event);

struct race_site {
    char name[600];
    unsigned call;
    uint64_t count;
    size_t orig; /* its index before sorting */
};

struct races_report {
    an_races r;
    an_cover cover;
    struct races_logged logged;
    struct race_site *sites; /* by racing receives, most first */
    size_t nsites;
    size_t *site_of;         /* racing receive -> its site */
    uint64_t agree, precise_only, ch_only, events, nmsgs, unmatched_recvs, unmatched_sends;
    uint64_t hb_unresolved;
    double load_s, match_s, hb_s, races_s, ch_s, cover_s;
};

/* The analyses and their counts (what stat prints). */
int races_report_build(struct analysis *a, struct races_report *rep);
/* What `mpirr races` lists besides: the receives a races-mode recording logged (read from the
 * rank logs) and the call sites of the racing receives. */
int races_report_details(struct analysis *a, struct races_report *rep);
void races_report_free(struct races_report *rep);
void races_report_text_summary(const struct races_report *rep, FILE *f);
void races_report_json_summary(const struct races_report *rep, struct json *j, const char *key);

#endif
