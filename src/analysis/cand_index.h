/* cand_index.h: finds a wildcard receive's race candidates (races.c's rule, docs/analysis.md
 * "Races") on demand, so that neither the races nor the race graph need to keep them. A
 * candidate from sender q is the first message of q's channel (receiver, comm, q, tag) - or,
 * for a receive accepting any tag, of q's stream (receiver, comm, q) - that no receive posted
 * before consumed. matching.c numbers a channel's messages consecutively in send order and
 * they are received in that order, so a channel is a range of message ids whose receive
 * indices only grow: that first message is found by a search, with no list of its own. Streams
 * (kept only when some wildcard receive accepts any tag) list their messages with the running
 * maximum of their receive indices. Every search starts from where the last one on that list
 * ended, so a sweep in receive order costs what forward-moving cursors would. */
#ifndef MPIRR_CAND_INDEX_H
#define MPIRR_CAND_INDEX_H

#include "analysis.h"
#include "u64_map.h"

typedef struct an_cand_index {
    const an_run *run;
    /* channels (receiver, comm, sender, tag): msgs[base .. base + len), recv_op non-decreasing
     * (AN_NIL last) */
    uint32_t nchan;
    uint32_t *cbase, *clen, *chint;
    /* tag groups (receiver, comm, tag): their channels, by sender */
    u64_map tgroup;
    uint32_t *tg_start, *tg_len, *tg_chan;
    /* streams, when a wildcard receive or probe accepts any tag (else nstream 0) */
    int streams;
    u64_map stream;        /* (receiver, comm, sender) -> stream */
    u64_map sgroup;        /* (receiver, comm) -> group */
    uint32_t nstream;
    uint32_t *s_start, *s_len, *s_hint, *s_items, *s_pm;
    uint32_t *sg_start, *sg_len, *sg_stream;
    uint32_t max_senders;  /* the most senders of one group: a receive has at most this + 1 */
} an_cand_index;

/* Builds the index of a matched run (an_match). -1: out of memory. */
int ci_build(const an_run *run, an_cand_index *x);
void ci_free(an_cand_index *x);
/* The candidates of receive op i of rank p (a completed wildcard-source receive that got a
 * message) into list (max_senders + 1 entries): the message it got first, then one per other
 * sender in sender order. Returns how many. */
uint32_t ci_cands(an_cand_index *x, int p, uint32_t i, uint32_t *list);
/* The stream of (p, comm, q) and u's place in it, for a message u of that stream; 0 if there
 * are no streams. prev: the largest receive index of the stream's messages sent before u
 * (AN_NIL: one was never received; *has_prev 0: u is the first). */
int ci_stream_prev(const an_cand_index *x, uint32_t u, uint32_t *prev, int *has_prev);

/* Messages a and b are on one channel. */
int ci_same_channel(const an_run *run, uint32_t a, uint32_t b);

/* First j in [0, n) with v(j) >= key, v non-decreasing, v(j) the uint32_t at base + j * stride;
 * n if none. Starts at *hint and leaves the answer there. */
uint32_t ci_first_at_least(const void *base, size_t stride, uint32_t n, uint32_t key, uint32_t *hint);

#endif
