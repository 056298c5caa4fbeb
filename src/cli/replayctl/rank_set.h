/* rank_set.h: sets of ranks as a session's commands take them ("0-3", "1,5", "0,2-7", "all")
 * and as they print them back, compressed ("0,2-63"). */
#ifndef MPIRR_CLI_REPLAYCTL_RANK_SET_H
#define MPIRR_CLI_REPLAYCTL_RANK_SET_H

#include <stddef.h>

/* Parses text against a job of nranks ranks into in (nranks bytes, 1 for a member). 0, or -1
 * with a one-line reason in err ("'7' is not a rank: the job has ranks 0 to 3"). */
int rank_set_parse(const char *text, int nranks, unsigned char *in, char *err, size_t n);
/* Whether word looks like a rank set (digits, commas, dashes, or "all"): a command whose first
 * word is optional tells a set from the rest by this. */
int rank_set_like(const char *word);
/* Writes the members of in (nranks bytes) as "0,2-5,9" into out; "" when empty. */
void rank_set_format(const unsigned char *in, int nranks, char *out, size_t n);
/* The number of members. */
int rank_set_count(const unsigned char *in, int nranks);

#endif
