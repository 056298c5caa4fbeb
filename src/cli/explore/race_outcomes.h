/* race_outcomes.h: `mpirr races --outcomes`: which racing receives of a recording matter. Each
 * racing receive is forced to its other candidate messages (mpirr replay --flip, one run each,
 * within a budget), and each flipped run's ending and stdout digest is compared with the
 * recording's own: a receive whose every forced run ended alike is benign, one with a run
 * that ended otherwise is harmful, and that run's recording replays the difference.
 * race_outcomes.c runs them, race_outcomes_report.c prints the verdicts, race_outcomes_cmd.c
 * is the command line. docs/cli/races.md, docs/explore.md. */
#ifndef MPIRR_CLI_RACE_OUTCOMES_H
#define MPIRR_CLI_RACE_OUTCOMES_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "explore_choices.h"
#include "explore_run.h"

struct outcomes_config {
    const char *recording; /* DIR as given */
    const char *dir;       /* OUTDIR, absolute: the baseline replay and the runs go there */
    long budget;           /* flipped runs at most, over all receives */
    long per_race;         /* alternatives forced per racing receive at most */
    double timeout;        /* --timeout S for every run; 0: explore_flip_limit's default */
    const char *noise;     /* --noise US for the flipped runs, or NULL */
    const char *mpi;       /* --mpi IMPL for every run, or NULL */
    int json;              /* --json: one object on stdout, the per-receive lines on stderr */
    int argc;              /* COMMAND after "--" (0: the recorded one, as replay runs it) */
    char **argv;
};

enum race_verdict { VERDICT_UNTESTED, VERDICT_BENIGN, VERDICT_HARMFUL };

/* One alternative tried: a flipped run. */
struct outcome_try {
    int src;                    /* the sender whose message the receive was forced to take */
    long run;                   /* its number: OUTDIR/run-NNNN */
    int forced_got;             /* the sender the forced receive took in the run (-1: unknown) */
    struct explore_outcome out;
    int alike;                  /* it ended as the recording did, with the same stdout digest */
};

/* One racing receive of the recording and what forcing it did. */
struct race_outcome {
    struct explore_choice recv; /* rank, event, site, orig (src unused) */
    const struct explore_choice *alts; /* its forceable alternatives, by sender */
    size_t nalts;
    struct outcome_try *tries;  /* in the order tried; the last is the differing one if harmful */
    size_t ntries;
    enum race_verdict verdict;
    enum { UNTESTED_BUDGET, UNTESTED_INTERRUPTED, UNTESTED_NO_RECORDING } untested;
};

struct race_outcomes {
    char recdir[PATH_MAX];       /* the recording, absolute */
    struct explore_outcome base; /* the recording's ending, and the digest of its replay */
    struct explore_choices choices; /* every forceable alternative, earliest receive first */
    struct race_outcome *races;  /* the racing receives with a forceable alternative */
    size_t nraces;
    size_t unforceable;          /* racing receives none of whose alternatives a flip can force */
    long runs;                   /* flipped runs made */
    size_t benign, harmful, untested;
    int interrupted;             /* SIGINT or SIGTERM stopped a run, and the search there */
    int replayed;                /* base.digest is known (the recording was replayed) */
};

/* `mpirr races --outcomes ...` (argv[0] is "races"; cmd_races hands over when it sees
 * --outcomes): its options and checks, then the runs and the report. The exit status. */
int races_outcomes_main(int argc, char **argv);

/* Checks the recording (sources or all mode, an event history) and lists its racing
 * receives: 0, or an exit status after one line. Nothing is created or run. */
int race_outcomes_load(const struct outcomes_config *cfg, struct race_outcomes *ro);

/* Replays the recording once for its stdout digest (OUTDIR/replay), then forces each racing
 * receive's alternatives in event order, one run each (OUTDIR/run-NNNN), at most per_race a
 * receive and budget in all; a receive's first run that ends otherwise makes it harmful and
 * ends its tries. Each verdict is printed (race_outcomes_line) on progress as it is reached.
 * 0, or an exit status after one line (the replay did not end as recorded, no output file). */
int race_outcomes_run(const struct outcomes_config *cfg, struct race_outcomes *ro,
                      FILE *progress);

void race_outcomes_free(struct race_outcomes *ro);

/* "rank 0 event 5 (app.c:31): benign (1 alternative, all ended alike)", a newline ended. */
void race_outcomes_line(const struct outcomes_config *cfg, const struct race_outcome *r,
                        FILE *out);
/* The summary line: receives, verdicts, runs, the recording's ending. */
void race_outcomes_summary(const struct outcomes_config *cfg, const struct race_outcomes *ro,
                           FILE *out);
/* --json: the whole result as one object. */
void race_outcomes_json(const struct outcomes_config *cfg, const struct race_outcomes *ro,
                        FILE *out);

#endif
