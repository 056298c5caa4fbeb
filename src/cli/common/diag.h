/* diag.h: how mpirr reports trouble: one line on stderr starting "mpirr: ", per problem, not per
 * rank (rank_list), and the exit statuses mpirr uses for its own failures (the launcher's
 * status is passed through as is). */
#ifndef MPIRR_CLI_DIAG_H
#define MPIRR_CLI_DIAG_H

enum {
    CLI_EXIT_FAIL = 1,     /* mpirr could not do its job: I/O error, runtime missing, damaged log */
    CLI_EXIT_USAGE = 2,    /* bad command line, or a recording that cannot be used */
    CLI_EXIT_HELD = 3,     /* replay: the ranks reached where the recorded run was stopped from
                              outside (killed, signalled), and mpirr ended the job there */
    CLI_EXIT_NOEXEC = 127, /* the command to launch does not exist or cannot be run */
};

/* Prints "mpirr: <message>\n" on stderr; newlines inside the message become spaces so that
 * every diagnostic stays one line (scripts grep for them). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A condition many ranks can share (a cut-off history), reported in one line however many
 * ranks there are: the count and the first RANK_LIST_SHOWN ranks, each with an event. */
enum { RANK_LIST_SHOWN = 4 };
struct rank_list {
    int count;
    int rank[RANK_LIST_SHOWN];
    unsigned long long event[RANK_LIST_SHOWN];
};
void rank_list_add(struct rank_list *l, int rank, unsigned long long event);
/* Ranks whose event history ends without MPI_Finalize, in one line (nothing if l is empty):
 * "rank 3: the event history ends at event 40 without MPI_Finalize (the rank died or is still
 * running)<then>", or for several "5 ranks' event histories end without MPI_Finalize (they died
 * or are still running): rank 0 at event 12, ..., and 1 more<then>". */
void rank_list_report_cut_off(const struct rank_list *l, const char *then);

#endif
