/* vector_clock.h: this rank's vector timestamp for races mode, and the differential encoding
 * that keeps the piggybacked header small at scale.
 *
 * Entry i is the last event of world rank i known to happen before this rank's current event
 * (events are the per-rank MPI call numbers the runtime already keeps; the own entry is the
 * current event). A header to destination d carries only the entries that changed since the
 * last header to d (Singhal & Kshemkalyani), found in O(changes) from a list kept in order of
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
 * progress at similar rates: the difference is small where the absolute half-event count is
 * not (docs/races.md, "Header size at scale", has the measurements). */
#ifndef MPIRR_VECTOR_CLOCK_H
#define MPIRR_VECTOR_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Timestamps count half-events: what a rank knows when it sends during event e is 2e, and a
 * receive completing during event e is at 2e+1. A call that both sends and receives (Sendrecv,
 * Startall) must not look, to the peer it sends to, as if its receive were already over: the
 * peer's answer can still be the message that receive takes. */
#define MPIRR_VC_SEND(event) (2 * (uint64_t)(event))
#define MPIRR_VC_RECEIVED(event) (2 * (uint64_t)(event) + 1)

/* Returns -1 when out of memory. */
int mpirr_vc_init(int nranks, int me);
void mpirr_vc_free(void);
/* Bytes a header can take at most. */
size_t mpirr_vc_header_max(void);
/* Encodes the header for a message to world rank dest: seq (its number among this rank's
 * messages to dest), now (the send's event), dest's entry, then the changed entries. Writes
 * at most room bytes (mpirr_vc_header_max() holds any header); returns 0, changing nothing,
 * when the header might not fit (the bound is conservative: a header that would just fit may
 * be refused). */
size_t mpirr_vc_header(int dest, uint64_t seq, uint64_t now, uint8_t *out, size_t room);
/* The same header in the fixed form; 0, changing nothing, when it might not fit in room or a
 * leading value exceeds 32 bits. */
#define MPIRR_VC_FIXED 12
size_t mpirr_vc_header_fixed(int dest, uint64_t seq, uint64_t now, uint8_t *out, size_t room);
/* Merges a header from world rank src; returns -1 if it is malformed. *knows_me: the sender's
 * entry for this rank (the race check's input). */
int mpirr_vc_apply(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me);
int mpirr_vc_apply_fixed(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me);
/* The whole vector (own entry = now), for merging across a collective; nranks entries. */
uint64_t *mpirr_vc_snapshot(uint64_t now);
/* Merges a vector obtained from a collective reduction of snapshots. */
void mpirr_vc_merge(const uint64_t *v);

#endif
