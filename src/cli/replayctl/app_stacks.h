/* app_stacks.h: the application's stacks as the mpirr gdb extension prints them (`mpirr
 * frames`, mpirr-gdb.py: "F<tab>func<tab>file<tab>line" per application frame, "M<tab>MPI_X"
 * for a collapsed MPI call, newest first; with --threads each thread's lines after a line
 * "T<tab>N"), read into frame labels ("exchange (solver.c:120)", "MPI_Waitall") for the
 * session's bt and stacks. */
#ifndef MPIRR_CLI_REPLAYCTL_APP_STACKS_H
#define MPIRR_CLI_REPLAYCTL_APP_STACKS_H

struct stack_tree;

/* One thread's lines (text) as labels, outermost first, into labels (malloc'd each; lines
 * that are not frames, gdb's own chatter, are skipped). The number of labels. */
int app_stack_labels(const char *text, char **labels, int max);
void app_stack_free(char **labels, int n);

/* Adds every thread's stack of rank (text: `mpirr frames --threads`) to t, the threads with the
 * same stack together, with their thread numbers as the innermost label ("thread 1",
 * "threads 2-3,5"). The number of threads added, or -1 out of memory. */
int app_stacks_add_threads(struct stack_tree *t, int rank, const char *text);

#endif
