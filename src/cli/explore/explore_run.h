/* explore_run.h: one run of `mpirr explore`: `mpirr record` or `mpirr replay --flip` started
 * as a child of mpirr itself, the program's stdout and stderr kept in the run's directory
 * (DIR/run-NNNN/stdout, stderr), and how the run ended. */
#ifndef MPIRR_CLI_EXPLORE_RUN_H
#define MPIRR_CLI_EXPLORE_RUN_H

#include <stddef.h>
#include <stdint.h>

struct explore_outcome {
    int recorded;     /* the run left a recording with rank logs (else the rest is unknown) */
    int status;       /* the command's exit status from the manifest, 128+N for signal N */
    int signal;       /* a fatal signal a rank got by itself (its log's ending), 0 if none */
    int signal_rank;  /* the lowest rank that did */
    int timed_out;    /* it ran past its time limit and was stopped (a hang, a deadlock) */
    uint64_t digest;  /* FNV-1a of the program's stdout (explore_digest) */
    int mpirr_status; /* the child mpirr's own exit status */
    int interrupted;  /* SIGINT or SIGTERM that mpirr received meanwhile, 0: none */
    double seconds;   /* how long it ran */
    char deadlock[512]; /* timed out with every rank blocked in an MPI call: which, where */
};

/* Runs argv (mpirr itself as argv[0]) with its standard input /dev/null and its output
 * written beside rundir, then moved into it once the child has made it; a run still going
 * after limit seconds (0: none) is ended (SIGTERM, then SIGKILL). 0 and the outcome (check
 * recorded), or -1 after a one-line message when the output files cannot be made. */
int explore_run(char *const *argv, const char *rundir, double limit,
                struct explore_outcome *out);

/* The ending of the recording in dir, as explore_run reads its run's: recorded, status (the
 * manifest's; mpirr_status when it has none), the first fatal signal a rank got by itself.
 * Leaves out untouched when dir holds no readable recording. */
void explore_read_ending(const char *dir, struct explore_outcome *out);

/* How long a flipped run may go before it is ended as hung: timeout (--timeout) if given,
 * else ten times as long as the first run took (first_seconds), at least 30 s. */
double explore_flip_limit(double timeout, double first_seconds);

/* Same exit status, same fatal signal, both timed out or neither: the run did not fail
 * differently. */
int explore_same_ending(const struct explore_outcome *a, const struct explore_outcome *b);
enum { EXPLORE_ENDING_MAX = 768 }; /* room for explore_ending_text */
/* "exit 0", "exit 139, rank 0 SIGSEGV", "timed out after 30 s, exit 143", "deadlock after
 * 30 s (rank 0 in MPI_Recv at app.c:28, rank 1 in MPI_Barrier at app.c:31), exit 143". */
void explore_ending_text(const struct explore_outcome *o, char *buf, size_t n);

/* 64-bit FNV-1a of a program's output file, without the termination banner MPICH's launcher
 * appends after a rank dies (it holds pids) and the blank lines before it; 0 if unreadable. */
uint64_t explore_digest(const char *path);

/* The first "mpirr: " line of a run's stderr (without that prefix and the newline), to say
 * why a run left no recording; "" if there is none. */
void explore_first_error(const char *rundir, char *buf, size_t n);

#endif
