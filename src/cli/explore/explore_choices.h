/* explore_choices.h: what `mpirr explore` may force in one explored run: its racing receives
 * that the run itself decided (after the cut its flip replayed), each with the other messages
 * the race analysis proved could have arrived there (src/analysis races, docs/explore.md), and
 * its Waitany-family calls, each with the other pending requests (receives and sends) that a
 * flip can make it return. */
#ifndef MPIRR_CLI_EXPLORE_CHOICES_H
#define MPIRR_CLI_EXPLORE_CHOICES_H

#include <stddef.h>
#include <stdint.h>

/* One forced choice: rank's racing receive or probe at event takes src's message instead of
 * orig's; or (req nonzero) its Waitany/Testany/Waitsome/Testsome at event returns the request
 * posted at event req instead of the one posted at orig_req. */
struct explore_choice {
    int rank;
    uint64_t event; /* the receive call's event number (a nonblocking receive's post) */
    int src;        /* the sender whose message it is to take (-1 for a request choice) */
    int orig;       /* the sender whose message it took in the run analysed */
    uint64_t req, orig_req;
    char site[200]; /* the receive's call site, "file.c:LINE", or "object+0xOFFSET", or "?" */
};

struct explore_choices {
    int forced_got;               /* the sender the forced receive took (-1: not known) */
    size_t racing;                /* racing receives after the cut */
    struct explore_choice *list;  /* their alternatives, earliest receive first, then by sender */
    size_t n;
};

/* Which choices explore_choices_find lists: the racing receives' and probes' other messages,
 * the Waitany-family calls' other requests, or both. */
enum explore_choice_kinds {
    EXPLORE_CHOICES_RECEIVES = 1,
    EXPLORE_CHOICES_REQUESTS = 2,
    EXPLORE_CHOICES_ALL = 3,
};

/* qsort order of choices: earliest receive (event number, then rank) first, then sender. */
int explore_choice_order(const void *a, const void *b);
/* What the choice forces (orig 0) or replaced (orig 1), as --flip writes it: "SRC" or
 * "req:POST". */
void explore_choice_value(const struct explore_choice *c, int orig, char *buf, size_t n);

/* Analyses the recording in dir (it must have an event history). cut: the events each rank
 * replayed from its parent before running free (nranks entries; NULL for a first run); the
 * receives up to there are the parent's and are not offered again. forced: the choice the
 * run's flip forced (NULL for a first run), whose outcome goes to forced_got. kinds: which
 * choices to list (a bit set of enum explore_choice_kinds). 0, or an exit status after a
 * one-line message. */
int explore_choices_find(const char *dir, const uint64_t *cut, int ncut,
                         const struct explore_choice *forced, unsigned kinds,
                         struct explore_choices *out);
void explore_choices_free(struct explore_choices *c);

/* The cut of a flipped run, from its DIR/flip file ("cut C0 C1 ..."): nranks entries in
 * *cut (malloc'ed), or -1 after a one-line message. */
int explore_read_cut(const char *dir, uint64_t **cut, int *ncut);

#endif
