/* shell_quote.h: showing a command line so that it could be pasted into a shell. */
#ifndef MPIRR_CLI_SHELL_QUOTE_H
#define MPIRR_CLI_SHELL_QUOTE_H

#include <stdio.h>

/* Writes the words separated by spaces, single-quoting those a shell would split or expand. */
void shell_print_command(FILE *f, int argc, char *const *argv);

#endif
