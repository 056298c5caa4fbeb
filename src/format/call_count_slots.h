/* call_count_slots.h: the tail's counts of unreplayed calls (tail version 5), self-describing
 * slots shared by the runtime, which fills them, and the reader.
 * Each u64 slot holds id << 48 | count. The runtime takes the first free slot for an id the
 * first time the rank makes that call (a compare-and-swap, so threads agree), then counts with
 * one atomic add per call: a rank killed at any point leaves every slot whole. Version 4 kept a
 * count per id at 8 * id instead, which could not hold ids >= 256. */
#ifndef MPIRR_CALL_COUNT_SLOTS_H
#define MPIRR_CALL_COUNT_SLOTS_H

#include <stdint.h>

#include "varint.h"

enum {
    MPIRR_CALL_COUNT_SLOTS = 256, /* the 2 KiB the tail sets aside (TL_CALL_COUNTS) */
    MPIRR_CALL_COUNT_SHIFT = 48,
};
#define MPIRR_CALL_COUNT_MASK ((UINT64_C(1) << MPIRR_CALL_COUNT_SHIFT) - 1)

/* Counts one call of id (1 .. MPIRR_CALL_ID_LIMIT - 1) in slots. The table has fewer
 * UNREPLAYED rows than slots (call_ids.c checks), so a slot is always found. */
static inline void mpirr_call_count_add(uint64_t *slots, unsigned id)
{
    uint64_t tag = (uint64_t)id << MPIRR_CALL_COUNT_SHIFT;
    for (unsigned i = 0; i < MPIRR_CALL_COUNT_SLOTS; i++) {
        uint64_t v = __atomic_load_n(&slots[i], __ATOMIC_RELAXED);
        if (v == 0) {
            uint64_t zero = 0;
            if (__atomic_compare_exchange_n(&slots[i], &zero, tag, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                v = tag;
            else
                v = zero; /* another thread took it: for this id, or go on */
        }
        if ((v & ~MPIRR_CALL_COUNT_MASK) == tag) {
            __atomic_fetch_add(&slots[i], 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

/* The count of id (>= 1) in the little-endian slots of a tail (untrusted: a repeated id is
 * summed). */
static inline uint64_t mpirr_call_count_get(const uint8_t *slots, unsigned id)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < MPIRR_CALL_COUNT_SLOTS; i++) {
        uint64_t v = mpirr_get_u64(slots + 8 * i);
        if (v >> MPIRR_CALL_COUNT_SHIFT == id) n += v & MPIRR_CALL_COUNT_MASK;
    }
    return n;
}

#endif
