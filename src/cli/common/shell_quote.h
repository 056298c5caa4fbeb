/* shell_quote.h: showing a command line so that it could be pasted into a shell, and reading one. */
#ifndef MPIRR_CLI_SHELL_QUOTE_H
#define MPIRR_CLI_SHELL_QUOTE_H

#include <stdio.h>

/* Writes the words separated by spaces, single-quoting those a shell would split or expand. */
void shell_print_command(FILE *f, int argc, char *const *argv);

/* Splits line into at most max words as a shell would (blanks separate words; '...', "..."
 * (with \" and \\) and backslash quote): each a malloc'ed string stored in words. The number
 * of words, or -1 with a reason in err (unterminated quote, too many words, out of memory). */
int shell_split_words(const char *line, char **words, int max, char *err, size_t errlen);

#endif
