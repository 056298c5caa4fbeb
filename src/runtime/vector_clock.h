/* vector_clock.h: this rank's vector timestamp for races mode, and the differential encoding
 * that keeps the piggybacked header small at scale.
 *
 * Entry i counts the wildcard receives of world rank i known to have completed before this
 * rank's present. The own entry advances when one of this rank's MPI_ANY_SOURCE receives
 * completes and waits for a verdict (race_check.h), and at nothing else: those completions are
 * the only events the race check compares a send with (a send "knows" receive number k of rank
 * r when its entry for r is at least k). Counting every call, as this clock first did, made
 * every message's header change; now a program without such receives keeps an all-zero clock,
 * and its messages need no header at all (message_wire.h, the short form). A send made before
 * a receive completes (a Sendrecv's send half) carries the count from before it, so it never
 * looks as if it knew that receive. A header to destination d carries only the entries that
 * changed since the last header to d (Singhal & Kshemkalyani), found in O(changes) from a list kept in order of
 * last change. MPI does not deliver a sender's messages in send order across tags and
 * communicators, so a receiver may see a later delta before an earlier one: merging is a max,
 * so it then knows less than the sender did for a while, which only makes it see more races
 * (safe), never fewer. Callers hold the runtime lock.
 *
 * Why headers grow with the number of ranks: when every rank talks to every other one (an
 * all-to-all, a task farm with rotating roles), nearly every entry changes between two
 * messages to the same destination, so a delta is nearly the whole vector. No encoding of a
 * vector clock avoids that (Charron-Bost: P entries are needed in general). What it can cut is
 * the bytes per entry. The header (wire only, never stored) is:
 *   varint seq, varint sent_at, varint zigzag(sent_at - knows_dest), then either
 *   - sparse: pairs (varint i+1, varint zigzag(sent_at - v[i])), or
 *   - dense, when naming the changed entries costs more than a bitmap: a 0 byte, a bitmap of
 *     ceil(P/8) bytes (bit i: entry i follows), the values in rank order, each as
 *     varint zigzag(previous - v[i]) with previous starting at sent_at.
 * The fixed form, for a header slot whose room is there anyway (message_wire.h), holds the three
 * leading values as little-endian 32-bit words (12 bytes, MPIRR_VC_FIXED), knows_dest as it is,
 * then the entries as above: a word is one load where a varint is a loop, and most of a
 * message's header is those three values. It is refused when a value needs more bits.
 * Values are written relative to the sender's own clock because ranks that talk to each other
 * progress at similar rates: the difference is small where the absolute count is
 * not (docs/races.md, "Header size at scale", has the measurements).
 *
 * The bounded clock (`mpirr record --clock bounded`, the default): the same clock, whose
 * headers carry the three leading values and then only the most recently changed entries
 * that fit in MPIRR_VC_BOUNDED_BYTES bytes in all (never the dense form); the others are not
 * sent to that destination. Every entry a clock holds still came along a causal chain, so it
 * is a lower bound of the exact entry: the race check (mpirr_vc_ordered) can only see more
 * races, never fewer (docs/races.md, "The bounded clock", has the proof and the numbers).
 *
 * Each function exists for a clock instance (mpirr_vclock_*, used by bench/races_sim to run
 * thousands of ranks' clocks in one process) and for the runtime's one clock (mpirr_vc_*). */
#ifndef MPIRR_VECTOR_CLOCK_H
#define MPIRR_VECTOR_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* A header of a bounded clock takes at most this many bytes (unless its three leading values
 * alone take more: 64-bit counts). */
#define MPIRR_VC_BOUNDED_BYTES 16

typedef struct mpirr_vclock mpirr_vclock;

/* The race check's verdict on one earlier receive: the receive that was the done-th to advance
 * the receiver's clock happened before a send whose header says it knew knows of the receiver
 * (so that message cannot have raced with it) iff done <= knows. Sound for any clock whose
 * entries are lower bounds of the exact ones: a lower knows can only turn "ordered" into
 * "raced". */
static inline int mpirr_vc_ordered(uint64_t done, uint64_t knows) { return done <= knows; }

/* Returns -1 when out of memory. bounded: the bounded clock (above). */
int mpirr_vc_init(int nranks, int me, int bounded);
void mpirr_vc_free(void);
/* The runtime's clock, for the mpirr_vclock_* functions. */
mpirr_vclock *mpirr_vc_runtime(void);

/* Instances (NULL when out of memory); setup/release for one the caller holds. */
mpirr_vclock *mpirr_vclock_new(int nranks, int me, int bounded);
void mpirr_vclock_delete(mpirr_vclock *c);
int mpirr_vclock_setup(mpirr_vclock *c, int nranks, int me, int bounded);
void mpirr_vclock_release(mpirr_vclock *c);
uint64_t mpirr_vclock_advance(mpirr_vclock *c);
uint64_t mpirr_vclock_own(const mpirr_vclock *c);
size_t mpirr_vclock_header_max(const mpirr_vclock *c);
size_t mpirr_vclock_header(mpirr_vclock *c, int dest, uint64_t seq, uint8_t *out, size_t room);
size_t mpirr_vclock_header_fixed(mpirr_vclock *c, int dest, uint64_t seq, uint8_t *out, size_t room);
int mpirr_vclock_apply(mpirr_vclock *c, int src, const uint8_t *in, size_t len, uint64_t *seq,
                       uint64_t *knows_me);
int mpirr_vclock_apply_fixed(mpirr_vclock *c, int src, const uint8_t *in, size_t len,
                             uint64_t *seq, uint64_t *knows_me);
uint64_t *mpirr_vclock_snapshot(mpirr_vclock *c);
void mpirr_vclock_merge(mpirr_vclock *c, const uint64_t *v);
/* A wildcard receive completed and waits for a verdict: the own entry advances; returns it
 * (the receive's number). */
uint64_t mpirr_vc_advance(void);
/* The own entry: what a message sent now knows of this rank. */
uint64_t mpirr_vc_own(void);
/* Whether every entry, the own one included, is still 0 (nothing for a header to say). */
int mpirr_vc_zero(void);
/* Bytes a header can take at most. */
size_t mpirr_vc_header_max(void);
/* Encodes the header for a message to world rank dest: seq (its number among this rank's
 * messages to dest), the own entry, dest's entry, then the changed entries. Writes
 * at most room bytes (mpirr_vc_header_max() holds any header); returns 0, changing nothing,
 * when the header might not fit (the bound is conservative: a header that would just fit may
 * be refused). */
size_t mpirr_vc_header(int dest, uint64_t seq, uint8_t *out, size_t room);
/* The same header in the fixed form; 0, changing nothing, when it might not fit in room or a
 * leading value exceeds 32 bits. */
#define MPIRR_VC_FIXED 12
size_t mpirr_vc_header_fixed(int dest, uint64_t seq, uint8_t *out, size_t room);
/* Merges a header from world rank src; returns -1 if it is malformed. *knows_me: the sender's
 * entry for this rank (the race check's input). */
int mpirr_vc_apply(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me);
int mpirr_vc_apply_fixed(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me);
/* The whole vector, for merging across a collective; nranks entries. */
uint64_t *mpirr_vc_snapshot(void);
/* Merges a vector obtained from a collective reduction of snapshots. */
void mpirr_vc_merge(const uint64_t *v);

#endif
