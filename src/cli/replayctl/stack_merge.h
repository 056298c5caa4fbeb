/* stack_merge.h: STAT's merged stacks for the session's `stacks`: every rank's stack (its
 * frames outermost first, each a label such as "exchange (solver.c:120)" or "MPI_Waitall") is
 * added to one prefix tree, whose nodes hold the ranks that passed through them. Printed, a
 * node whose ranks all go on into a single child is folded into that child, so each line is a
 * branch: "RANKS  innermost <- ... <- outermost" of the chain, indented under its parent:
 *
 *     0-3  main (prog.c:40)
 *       0,2-3  MPI_Barrier <- exchange (prog.c:20)
 *       1  MPI_Recv <- receive (prog.c:12)
 */
#ifndef MPIRR_CLI_REPLAYCTL_STACK_MERGE_H
#define MPIRR_CLI_REPLAYCTL_STACK_MERGE_H

#include <stdio.h>

struct stack_tree;

struct stack_tree *stack_tree_new(int nranks);
/* Adds rank's frames (n labels, outermost first). 0, or -1 out of memory. */
int stack_tree_add(struct stack_tree *t, int rank, const char *const *frames, int n);
void stack_tree_print(const struct stack_tree *t, FILE *out);
void stack_tree_free(struct stack_tree *t);

#endif
