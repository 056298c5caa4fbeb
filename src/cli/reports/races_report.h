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

/* `mpirr races --near`: the event the racing receives are ordered by, and the order (an_near,
 * docs/analysis.md "Distance to an event"). */
struct races_near {
    int asked;           /* --near was given (else: the crash, if the recording ended in one) */
    int active;          /* the receives are ordered by distance (else as the report has them) */
    int rank;
    uint64_t event;
    int crash;           /* the event is where the recording crashed */
    int crashed;         /* ranks whose recording ended by the program's own doing */
    int in_call;         /* the crash: inside the event's call (else in its own code after it) */
    char ending[160];    /* the crash: how the rank ended, as `mpirr stat` says it */
    size_t *order;       /* racing receives (indices into rep->r.races), nearest first */
    int64_t *distance;   /* per racing receive: events before the event, -1 not before */
    size_t nbefore;
};
/* The --near value before anything is loaded: "R:E", "crash", or NULL (none given). 0, or an
 * exit status after one line. */
int races_near_parse(const char *spec, struct races_near *n);
/* The event (the crash: read from the rank logs' tails; R:E: checked against the history) and
 * the order. 0, or an exit status after one line (no such event, no crash to be near). */
int races_report_near(struct analysis *a, const struct races_report *rep, struct races_near *n);
void races_near_free(struct races_near *n);

#endif
