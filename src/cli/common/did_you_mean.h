/* did_you_mean.h: the name a mistyped word was probably meant to be (a command of mpirr, a
 * session command), for the "did you mean" of an error line. */
#ifndef MPIRR_CLI_DID_YOU_MEAN_H
#define MPIRR_CLI_DID_YOU_MEAN_H

#include <stddef.h>

/* The name in names[0..n) closest to word by edit distance (a swap of two neighbouring letters
 * counts as one edit), if it is close enough to be a typo (at most 2 edits, and fewer than
 * half of the word's letters); else NULL. */
const char *did_you_mean(const char *word, const char *const *names, size_t n);

#endif
